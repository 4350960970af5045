//! Orders for a later phase (njudge's `PHASE season year phase`).
//!
//! Orders under a PHASE line are read for that phase (a retreat read as a
//! retreat, a build as a build), kept, and shown in the reply as kept for
//! it; they are never orders for any other phase. A later mail's orders
//! for the same phase replace the kept ones unit by unit (a build site by
//! site), as orders for the current phase do. When the phase comes they
//! are read against the board as it then stands, by the same reading as a
//! mail's ([`super::submit::take`]): what the judge takes becomes the
//! power's orders, and the player is mailed the reply a mail would have
//! got, refusals and all. Orders kept for a phase that never comes (a
//! retreat nobody had to make) are dropped when it is passed, and the
//! player is told.

use super::conditional::{self, Role};
use super::error::CmdResult;
use super::held::rank;
use super::submit::{held_text, stored, take};
use super::{Judge, Session, load, mail_to};
use crate::game::Position;
use crate::map::PowerId;
use crate::orders::condition::Directive;
use crate::orders::mail::find_orders;
use crate::orders::parse::OrderParser;
use crate::orders::{AdjustCommand, AnyCommand, format_order};
use crate::rules::features::Viewer;
use crate::rules::view::View;
use crate::store::{Conn, games, later};
use crate::variant::{Phase, Variant};
use std::fmt::Write;

/// How many years ahead orders may be sent (njudge's limit).
pub(crate) const YEARS_AHEAD: i32 = 5;

/// A phase as njudge's PHASE line writes it, where the first letter of the
/// season and of the phase is enough (`PHASE Fall 1901 Movement`, `PHASE
/// F 1901 R`, `PHASE Winter 1901 Builds`), or as this judge writes phases
/// (`F1901R`).
pub(crate) fn read_phase(v: &Variant, text: &str) -> Result<Phase, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let cal = &v.calendar;
    if let [one] = words.as_slice() {
        return cal.parse(one).map_err(|e| e.to_string());
    }
    let Some((season_word, rest)) = words.split_first() else {
        return Err("write PHASE season year phase (PHASE Fall 1901 Movement)".into());
    };
    // The season: its name, or the start of it when only one fits.
    let lower = season_word.to_ascii_lowercase();
    let fits: Vec<&str> = cal
        .seasons
        .iter()
        .map(|s| s.name.as_str())
        .filter(|n| n.to_ascii_lowercase().starts_with(&lower))
        .collect();
    let season = match fits.as_slice() {
        [one] => *one,
        _ => season_word,
    };
    let kind = match rest.get(1) {
        None => String::new(),
        Some(w) => match w.to_ascii_uppercase().chars().next() {
            Some('M') => "movement".into(),
            Some('R') => "retreat".into(),
            Some('A' | 'B') => "adjustment".into(),
            Some('P') => "placement".into(),
            _ => w.to_string(),
        },
    };
    let year = rest.first().copied().unwrap_or("");
    let canonical = format!("{season} {year} {kind}");
    if rest.len() > 2 {
        return Err("write PHASE season year phase (PHASE Fall 1901 Movement)".into());
    }
    cal.parse(canonical.trim()).map_err(|e| e.to_string())
}

/// The kind of slot an order kept ahead fills, read from the order alone
/// (the board of that phase is not known yet): a later order for the same
/// unit or build site replaces the kept one; waivers add up.
fn slot(c: &AnyCommand) -> Option<(u8, crate::map::ProvinceId)> {
    match c {
        AnyCommand::Main(u, _) => Some((0, u.at.province)),
        AnyCommand::Retreat(u, _) => Some((1, u.at.province)),
        AnyCommand::Adjust(AdjustCommand::Build { at, .. }) => Some((2, at.province)),
        AnyCommand::Adjust(
            AdjustCommand::Remove { unit } | AdjustCommand::Convert { unit, .. },
        ) => Some((2, unit.at.province)),
        AnyCommand::Adjust(_) => None,
    }
}

/// The stored form of an order, as current orders are stored.
fn store_form(v: &Variant, c: &AnyCommand) -> String {
    let kind = match c {
        AnyCommand::Main(..) => "M",
        AnyCommand::Retreat(..) => "R",
        AnyCommand::Adjust(..) => "A",
    };
    format!("{kind}|{}", format_order(&v.map, c))
}

/// One line kept for a later phase, as merged with those kept before.
struct Kept {
    /// Its stored form (`M|A(Bud)-Gal`, `C|IF Russian A Gal`).
    stored: String,
    /// The order, for an order.
    order: Option<AnyCommand>,
    /// How many IFs it is under.
    depth: usize,
    /// From this mail.
    new: bool,
}

/// What a block read for a later phase gave.
#[derive(Default)]
struct Read {
    /// The lines kept from it, in order: (line number, order or
    /// directive).
    items: Vec<(usize, Result<AnyCommand, Directive>)>,
    /// Not accepted, with why.
    rejected: Vec<String>,
    /// Lines nothing was read from.
    unread: Vec<String>,
    /// Whether it held any order or directive.
    any: bool,
}

/// Read `block` for `phase`: its orders and njudge's IF, ELSE and ENDIF
/// lines, in order ([`conditional::roles`]).
fn read_ahead(v: &Variant, power: PowerId, phase: Phase, block: &[(usize, String)]) -> Read {
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let (roles, open) = conditional::roles(&v.map, block);
    // Only the lines that are neither a directive nor taken out are read
    // for orders (the others blank, their numbers kept).
    let text: Vec<&str> = block
        .iter()
        .zip(&roles)
        .map(|((_, l), r)| if *r == Role::Plain { l.as_str() } else { "" })
        .collect();
    let found = find_orders(&parser, &text.join("\n"), Some(phase.kind));
    let mut out = Read::default();
    let mut told: Option<(usize, String)> = None;
    for (i, ((n, l), role)) in block.iter().zip(&roles).enumerate() {
        match role {
            Role::Directive(d) => {
                out.any = true;
                out.items.push((*n, Err(d.clone())));
            }
            Role::Void(why) => {
                out.any = true;
                // Each reason is given once, at its first line.
                let reason = match &told {
                    Some((first, w)) if w == why => format!("not taken, as line {first}"),
                    _ => {
                        told = Some((*n, why.clone()));
                        format!("not taken: {why}")
                    }
                };
                out.rejected.push(format!(
                    "  line {n}: \"{}\"\n    {reason}",
                    crate::mail::header_text(l.trim(), 72)
                ));
            }
            Role::Plain => {
                let here: Vec<_> = found.iter().filter(|f| f.line == i + 1).collect();
                let t = l.trim();
                let heading = t.ends_with(':') && t.split_whitespace().count() <= 5;
                if here.is_empty() && !heading && t.chars().any(char::is_alphanumeric) {
                    out.unread.push(format!(
                        "  line {n}: \"{}\"",
                        crate::mail::header_text(t, 72)
                    ));
                }
                for f in here {
                    match &f.result {
                        Err(e) if e.kind == crate::orders::parse::ParseErrorKind::Empty => {
                            out.unread
                                .push(format!("  line {n} (part): \"{}\"", f.text));
                        }
                        Err(e) => {
                            out.any = true;
                            out.rejected
                                .push(format!("  line {n}: \"{}\"\n    {e}", f.text));
                        }
                        Ok(o) if o.power.is_some_and(|p| p != power) => {
                            out.any = true;
                            out.rejected.push(format!(
                                "  line {n}: \"{}\"\n    you are signed on as {}, not {}",
                                f.text,
                                v.map.power(power).name,
                                o.power
                                    .map_or(String::new(), |p| v.map.power(p).name.clone())
                            ));
                        }
                        Ok(o) => {
                            out.any = true;
                            out.items.push((*n, Ok(o.command.clone())));
                        }
                    }
                }
            }
        }
    }
    // The end of the orders closes the IFs still open.
    for note in open {
        out.items.push((0, Err(Directive::EndIf)));
        out.rejected.push(format!("  ({note})"));
    }
    out
}

/// Take the orders of `block` for `power` for the later phase `phase`:
/// read for that phase, kept, and shown as kept. Returns whether the block
/// held any order.
pub(crate) fn take_ahead(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    game: &str,
    power: PowerId,
    phase: Phase,
    block: &[(usize, String)],
) -> CmdResult<bool> {
    let g = load(s.tx, game)?;
    let v = judge.variant(&g.variant)?;
    let label = v.calendar.label(phase);
    let read = read_ahead(&v, power, phase, block);
    if !read.any {
        s.reply.push_str(&super::submit::unread_text(&read.unread));
        return Ok(false);
    }
    if super::submit::refused_now(s, &g) {
        return Ok(true);
    }
    let short = v.calendar.short(phase);
    let before: Vec<String> = later::batches(s.tx, &g.name, Some(power.0))?
        .into_iter()
        .filter(|b| b.phase == short)
        .flat_map(|b| b.lines)
        .collect();
    let (merged, notes) = merge(&v, &before, &read.items);
    let lines: Vec<String> = merged.iter().map(|k| k.stored.clone()).collect();
    later::clear(s.tx, &g.name, Some(power.0), &short)?;
    later::add(s.tx, &g.name, power.0, &short, &lines)?;
    if !read.items.is_empty() {
        s.say(&format!(
            "Kept for {label} (checked when that phase comes; not orders for this one):"
        ));
        let mut depth = 0usize;
        for (line, item) in &read.items {
            let (text, at) = match item {
                Ok(c) => (format_order(&v.map, c), depth),
                Err(d @ Directive::If(_)) => {
                    depth += 1;
                    (d.show(&v.map), depth - 1)
                }
                Err(d @ Directive::EndIf) => {
                    depth = depth.saturating_sub(1);
                    (d.show(&v.map), depth)
                }
                Err(d) => (d.show(&v.map), depth.saturating_sub(1)),
            };
            if *line == 0 {
                continue;
            }
            s.say(&format!("  line {line}: {}{text}", "  ".repeat(at)));
            for (_, n) in notes.iter().filter(|(l, _)| l == line) {
                s.say(&format!("    {n}"));
            }
        }
        s.reply.push('\n');
    }
    if !read.rejected.is_empty() {
        s.say("Not accepted:");
        for r in &read.rejected {
            s.say(r);
        }
        s.reply.push('\n');
    }
    if !read.unread.is_empty() {
        s.say("Not read as orders (no order found in these lines):");
        for u in &read.unread {
            s.say(u);
        }
        s.reply.push('\n');
    }
    super::held::show_orders(judge, s, game, power)?;
    Ok(true)
}

/// The lines kept before (`before`, stored forms) and those read now
/// (`items`), merged: an order outside every IF replaces the order kept
/// outside every IF for the same unit or build site (njudge honours the
/// last order for a unit); orders under an IF are kept as they stand, to
/// be chosen among when the phase comes. Returns the merged lines and the
/// notes of what each new line replaced.
fn merge(
    v: &Variant,
    before: &[String],
    items: &[(usize, Result<AnyCommand, Directive>)],
) -> (Vec<Kept>, Vec<(usize, String)>) {
    let mut merged: Vec<Kept> = Vec::new();
    let mut depth = 0usize;
    for l in before {
        let d = conditional::kept_directive(&v.map, l);
        if matches!(d, Some(Directive::EndIf)) {
            depth = depth.saturating_sub(1);
        }
        merged.push(Kept {
            stored: l.clone(),
            order: if d.is_none() {
                stored(v, std::slice::from_ref(l)).pop()
            } else {
                None
            },
            depth,
            new: false,
        });
        if matches!(d, Some(Directive::If(_))) {
            depth += 1;
        }
    }
    // Whatever the lines kept before left open is closed before the new.
    for _ in 0..depth {
        merged.push(Kept {
            stored: conditional::kept_form(&v.map, &Directive::EndIf),
            order: None,
            depth: 0,
            new: false,
        });
    }
    let mut notes: Vec<(usize, String)> = Vec::new();
    let mut depth = 0usize;
    for (line, item) in items {
        match item {
            Ok(c) => {
                if depth == 0
                    && let Some(k) = slot(c)
                {
                    let gone: Vec<String> = merged
                        .iter()
                        .filter(|h| h.depth == 0 && h.order.as_ref().and_then(slot) == Some(k))
                        .map(|h| {
                            let o = h
                                .order
                                .as_ref()
                                .map_or(String::new(), |o| format_order(&v.map, o));
                            format!("{o}{}", if h.new { "" } else { " (an earlier mail)" })
                        })
                        .collect();
                    if !gone.is_empty() {
                        notes.push((*line, format!("replaces {}", gone.join(", "))));
                    }
                    merged
                        .retain(|h| !(h.depth == 0 && h.order.as_ref().and_then(slot) == Some(k)));
                }
                merged.push(Kept {
                    stored: store_form(v, c),
                    order: Some(c.clone()),
                    depth,
                    new: true,
                });
            }
            Err(d) => {
                if matches!(d, Directive::EndIf) {
                    depth = depth.saturating_sub(1);
                }
                merged.push(Kept {
                    stored: conditional::kept_form(&v.map, d),
                    order: None,
                    depth,
                    new: true,
                });
                if matches!(d, Directive::If(_)) {
                    depth += 1;
                }
            }
        }
    }
    (merged, notes)
}

/// Forget what `power` keeps for `phase` (CLEAR under a PHASE line).
pub(crate) fn clear(c: &Conn, v: &Variant, game: &str, power: PowerId, phase: Phase) -> CmdResult {
    later::clear(c, game, Some(power.0), &v.calendar.short(phase))?;
    Ok(())
}

/// A new phase has begun in `g` (at `pos`): the orders kept for it become
/// the powers' orders, each player mailed what the judge took; orders
/// kept for phases now past are dropped, and their players told. With
/// `ended`, the game is over: everything kept is dropped, silently.
///
/// A player who may not know of the phase just played (`before`: a
/// retreat of hidden units only, 1066 rule 5) was told its orders were
/// orders for the phase now begun ([`super::held::played`]): for them it
/// has not just begun, so they are read in without a word unless the
/// board now refuses one of them.
pub(crate) fn bring_in(
    c: &Conn,
    v: &Variant,
    g: &games::GameRow,
    before: &Position,
    pos: &Position,
    ended: bool,
    out: &mut Vec<crate::mail::Outgoing>,
) -> CmdResult {
    let batches = later::batches(c, &g.name, None)?;
    if batches.is_empty() {
        return Ok(());
    }
    let now_rank = rank(v, pos.phase);
    let seats = games::seats(c, &g.name)?;
    let mut phases: Vec<(u8, String)> =
        batches.iter().map(|b| (b.power, b.phase.clone())).collect();
    phases.dedup();
    for (power, short) in phases {
        let lines: Vec<String> = batches
            .iter()
            .filter(|b| b.power == power && b.phase == short)
            .flat_map(|b| b.lines.iter().cloned())
            .collect();
        let phase = v.calendar.parse(&short).ok();
        let due = phase.map(|p| rank(v, p));
        if !ended && due.is_some_and(|r| r > now_rank) {
            continue;
        }
        later::clear(c, &g.name, Some(power), &short)?;
        if ended {
            continue;
        }
        let pid = PowerId(power);
        let address = seats.get(pid.index()).and_then(|x| x.address.clone());
        let label = phase.map_or(short.clone(), |p| v.calendar.label(p));
        if due != Some(now_rank) {
            // A phase that never came (nobody had to retreat, say).
            if let Some(a) = address {
                let shown: Vec<String> = conditional::shown(&v.map, &lines, |l| {
                    stored(v, &[l.to_string()])
                        .first()
                        .map(|c| format_order(&v.map, c))
                })
                .iter()
                .map(|l| format!("  {l}\n"))
                .collect();
                out.extend(mail_to(
                    &[a],
                    format!("{}: orders kept for {label} not used", g.name),
                    format!(
                        "{}{}",
                        crate::report::wrap(
                            &format!(
                                "{label} did not happen in {}, so the orders you sent ahead \
                                 for it were not used (they are orders for no other phase):",
                                g.name
                            ),
                            72,
                            ""
                        ),
                        shown.concat()
                    ),
                ));
            }
            continue;
        }
        // The phase has come: read the kept orders as a mail's, on the board
        // as it stands.
        // njudge's IFs are read on the board as the phase begins, as
        // the player sees it.
        let used = conditional::used_lines(&v.map, &lines, &conditional::units_seen(v, pos, pid));
        let block: Vec<(usize, String)> = stored(v, &used)
            .iter()
            .enumerate()
            .map(|(i, c)| (i + 1, format_order(&v.map, c)))
            .collect();
        let taken = take(v, pos, pid, &[], &block);
        let held: Vec<String> = taken.held.iter().map(|c| store_form(v, c)).collect();
        games::set_orders(c, &g.name, power, &held)?;
        let unseen = !View::of(v, before, Viewer::Power(pid)).sees_phase(before);
        if unseen && taken.rejected.is_empty() {
            continue;
        }
        if let Some(a) = address {
            let mut body = crate::report::wrap(
                &format!(
                    "{label} has begun in {}. The orders you sent ahead for it are read now, \
                     as a mail of yours would be (lines numbered as kept):",
                    g.name
                ),
                72,
                "",
            );
            body.push('\n');
            body.push_str(&taken.text());
            body.push_str(&held_text(v, pos, pid, &taken.held));
            if let Some(d) = g.deadline {
                let _ = writeln!(
                    body,
                    "Deadline: {}.",
                    crate::time::show_deadline(d, &g.settings.timezone)
                );
            }
            body.push('\n');
            body.push_str(&crate::report::wrap(
                "These are your orders for it now; a mail of yours replaces them unit by \
                 unit, as ever.",
                72,
                "",
            ));
            out.extend(mail_to(
                &[a],
                format!("{}: your orders sent ahead for {label}", g.name),
                body,
            ));
        }
    }
    Ok(())
}

/// Whether orders sent ahead may be for `phase` in `g` at `pos`: a phase
/// after the current one, within [`YEARS_AHEAD`] years. `Ok(None)`: it is
/// the current phase.
pub(crate) fn check_phase(
    v: &Variant,
    pos: &Position,
    phase: Phase,
) -> Result<Option<Phase>, String> {
    let label = v.calendar.label(phase);
    match rank(v, phase).cmp(&rank(v, pos.phase)) {
        std::cmp::Ordering::Equal => Ok(None),
        std::cmp::Ordering::Less => Err(format!(
            "{label} is past: the game is at {}",
            v.calendar.label(pos.phase)
        )),
        std::cmp::Ordering::Greater if phase.year > pos.phase.year + YEARS_AHEAD => Err(format!(
            "orders may be sent at most {YEARS_AHEAD} years ahead (the game is at {})",
            v.calendar.label(pos.phase)
        )),
        std::cmp::Ordering::Greater => Ok(Some(phase)),
    }
}
