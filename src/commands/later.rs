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

use super::error::CmdResult;
use super::held::rank;
use super::submit::{held_text, stored, take};
use super::{Judge, Session, load, mail_to};
use crate::game::Position;
use crate::map::PowerId;
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
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let text: Vec<&str> = block.iter().map(|(_, l)| l.as_str()).collect();
    let found = find_orders(&parser, &text.join("\n"), Some(phase.kind));
    let label = v.calendar.label(phase);
    let mut read: Vec<(usize, AnyCommand)> = Vec::new();
    let mut rejected: Vec<String> = Vec::new();
    let mut unread: Vec<String> = Vec::new();
    for f in &found {
        let line = block[f.line - 1].0;
        match &f.result {
            Err(e) if e.kind == crate::orders::parse::ParseErrorKind::Empty => {
                unread.push(format!("  line {line} (part): \"{}\"", f.text));
            }
            Err(e) => rejected.push(format!("  line {line}: \"{}\"\n    {e}", f.text)),
            Ok(o) if o.power.is_some_and(|p| p != power) => rejected.push(format!(
                "  line {line}: \"{}\"\n    you are signed on as {}, not {}",
                f.text,
                v.map.power(power).name,
                o.power
                    .map_or(String::new(), |p| v.map.power(p).name.clone())
            )),
            Ok(o) => read.push((line, o.command.clone())),
        }
    }
    // Lines with nothing read from them at all.
    for (i, (n, l)) in block.iter().enumerate() {
        let t = l.trim();
        let heading = t.ends_with(':') && t.split_whitespace().count() <= 5;
        if !found.iter().any(|f| f.line == i + 1)
            && !heading
            && t.chars().any(char::is_alphanumeric)
        {
            unread.push(format!(
                "  line {n}: \"{}\"",
                crate::mail::header_text(t, 72)
            ));
        }
    }
    if found.is_empty() {
        s.reply.push_str(&super::submit::unread_text(&unread));
        return Ok(false);
    }
    if super::submit::refused_now(s, &g) {
        return Ok(true);
    }
    // Merge with what is kept for that phase: a later order for a unit or
    // a site replaces the kept one.
    let short = v.calendar.short(phase);
    let kept: Vec<AnyCommand> = later::batches(s.tx, &g.name, Some(power.0))?
        .into_iter()
        .filter(|b| b.phase == short)
        .flat_map(|b| stored(&v, &b.lines))
        .collect();
    let mut merged: Vec<(AnyCommand, bool)> = kept.into_iter().map(|c| (c, false)).collect();
    let mut notes: Vec<(usize, String)> = Vec::new();
    for (line, c) in &read {
        if let Some(k) = slot(c) {
            let gone: Vec<String> = merged
                .iter()
                .filter(|(h, _)| slot(h) == Some(k))
                .map(|(h, new)| {
                    format!(
                        "{}{}",
                        format_order(&v.map, h),
                        if *new { "" } else { " (an earlier mail)" }
                    )
                })
                .collect();
            if !gone.is_empty() {
                notes.push((*line, format!("replaces {}", gone.join(", "))));
            }
            merged.retain(|(h, _)| slot(h) != Some(k));
        }
        merged.push((c.clone(), true));
    }
    let lines: Vec<String> = merged.iter().map(|(c, _)| store_form(&v, c)).collect();
    later::clear(s.tx, &g.name, Some(power.0), &short)?;
    later::add(s.tx, &g.name, power.0, &short, &lines)?;
    if !read.is_empty() {
        s.say(&format!(
            "Kept for {label} (checked when that phase comes; not orders for this one):"
        ));
        for (line, c) in &read {
            s.say(&format!("  line {line}: {}", format_order(&v.map, c)));
            for (_, n) in notes.iter().filter(|(l, _)| l == line) {
                s.say(&format!("    {n}"));
            }
        }
        s.reply.push('\n');
    }
    if !rejected.is_empty() {
        s.say("Not accepted:");
        for r in &rejected {
            s.say(r);
        }
        s.reply.push('\n');
    }
    if !unread.is_empty() {
        s.say("Not read as orders (no order found in these lines):");
        for u in &unread {
            s.say(u);
        }
        s.reply.push('\n');
    }
    super::held::show_orders(judge, s, game, power)?;
    Ok(true)
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
                let shown: Vec<String> = stored(v, &lines)
                    .iter()
                    .map(|c| format!("  {}\n", format_order(&v.map, c)))
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
        let block: Vec<(usize, String)> = stored(v, &lines)
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
