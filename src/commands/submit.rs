//! Taking a power's orders from a mail.
//!
//! Each order is read, checked against the board (the unit is there and
//! the power's, the move is possible, it is the right phase), and merged
//! into the orders the power already holds: a new order for a unit
//! replaces the old one, and a build or removal the one held for its site.
//! The reply echoes each line read, refused or not read, then the whole
//! set now held and what is still missing. A line that cannot be read or is refused never costs the good
//! ones.

use super::error::CmdResult;
use super::{Judge, Session};
use crate::game::Position;
use crate::game::record::Status;
use crate::map::PowerId;
use crate::orders::mail::find_orders_as;
use crate::orders::parse::{Heading, OrderParser};
use crate::orders::{AdjustOrder, AnyCommand, Place, format_order, format_unit};
use crate::rules::view::VariantRules;
use crate::store::games;
use crate::variant::{PhaseKind, Variant};
use std::fmt::Write;

/// Read a power's stored order lines back into orders.
pub(crate) fn stored(v: &Variant, lines: &[String]) -> Vec<AnyCommand> {
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    lines
        .iter()
        .filter_map(|l| {
            let (kind, text) = l.split_once('|').unwrap_or(("", l));
            let phase = match kind {
                "R" => Some(PhaseKind::Retreat),
                "A" => Some(PhaseKind::Adjustment),
                // An IF, ELSE or ENDIF kept for a later phase (`later`).
                "C" => return None,
                _ => Some(PhaseKind::Movement),
            };
            parser.parse(text, phase).ok().map(|p| p.command)
        })
        .collect()
}

/// What a unit named alone (`A Ber`) is in `power`'s adjustment phase at
/// `pos`: a build when it has builds due, a removal when it has removals
/// due (njudge reads it so), nothing otherwise.
pub(crate) fn bare_reads_as(v: &Variant, pos: &Position, power: PowerId) -> Option<Heading> {
    if pos.phase.kind != PhaseKind::Adjustment {
        return None;
    }
    match crate::game::step::due(v, pos).get(power.index()) {
        Some(d) if *d > 0 => Some(Heading::Builds),
        Some(d) if *d < 0 => Some(Heading::Removes),
        _ => None,
    }
}

/// The stored form of an order: its kind and canonical text.
pub(crate) fn store_form(v: &Variant, c: &AnyCommand) -> String {
    let kind = match c {
        AnyCommand::Main(..) => "M",
        AnyCommand::Retreat(..) => "R",
        AnyCommand::Adjust(..) => "A",
    };
    format!("{kind}|{}", format_order(&v.map, c))
}

/// The province an order is for, when it is for a unit.
fn unit_key(c: &AnyCommand) -> Option<crate::map::ProvinceId> {
    match c {
        AnyCommand::Main(u, _) | AnyCommand::Retreat(u, _) => Some(u.at.province),
        AnyCommand::Adjust(_) => None,
    }
}

/// What a held order is for, to know which earlier order a new one
/// replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// The one unit in a province (where fleets share provinces with land
    /// units, the one of its layer: `true` for the fleets): a new order for
    /// it replaces the old.
    Unit(crate::map::ProvinceId, bool),
    /// The units waiting in a box, any number: a mail's orders for the box
    /// replace all the earlier ones for it.
    Box(crate::map::ProvinceId),
    /// A build or removal at a site: like a unit's order, a mail's first
    /// one for the site replaces the held ones (`Build F(Tri)` leaves
    /// `Build A(Bud)` from an earlier mail alone).
    Site(crate::map::ProvinceId),
    /// Waivers: a mail's first waiver replaces the held ones.
    Waive,
    /// An A/F's landing (Abstraction II): apart from its fleet's own order.
    Landing(crate::map::ProvinceId),
    /// A retreat written on a yearly order sheet (1700 AD II), beside the
    /// unit's move.
    Retreat(crate::map::ProvinceId),
}

/// Whether an order is for the fleets of its province, where fleets share
/// provinces with land units (1700 AD II): written `F` or as a stack.
fn fleet_layer(v: &Variant, c: &AnyCommand) -> bool {
    if !v.map.stacking().fleets_beside_armies {
        return false;
    }
    match c {
        AnyCommand::Main(u, cmd) => {
            u.kind == Some(crate::map::UnitKind::Fleet)
                || matches!(cmd, crate::orders::MainCommand::Impulses { stack, .. } if *stack > 1)
        }
        AnyCommand::Retreat(u, _) => u.kind == Some(crate::map::UnitKind::Fleet),
        AnyCommand::Adjust(_) => false,
    }
}

/// Each of `power`'s units with the held order that is for it, if any: the
/// units of a box take the box's orders in turn.
fn assign<'h>(
    v: &Variant,
    pos: &Position,
    power: PowerId,
    held: &'h [AnyCommand],
) -> Vec<(crate::map::Unit, Option<&'h AnyCommand>)> {
    // How many units each held order is for so far: a stack's order is for
    // as many fleets as it names (`2F`), any other for one (1700 AD II
    // rule 8: stacked fleets are separate fleets).
    let mut used = vec![0usize; held.len()];
    let capacity = |c: &AnyCommand| match c {
        AnyCommand::Main(_, crate::orders::MainCommand::Impulses { stack, .. }) => {
            usize::from((*stack).max(1))
        }
        _ => 1,
    };
    pos.units
        .iter()
        .filter(|u| u.power == power)
        .map(|u| {
            let p = v.map.province_of(u.region);
            let stacked = v.map.stacking().fleets_beside_armies;
            let k = if v.is_box(p) {
                Slot::Box(p)
            } else {
                Slot::Unit(p, stacked && u.kind == crate::map::UnitKind::Fleet)
            };
            let i = (0..held.len())
                .find(|&i| used[i] < capacity(&held[i]) && slot(v, pos, power, &held[i]) == k);
            if let Some(i) = i {
                used[i] += 1;
            }
            (*u, i.map(|i| &held[i]))
        })
        .collect()
}

fn slot(v: &Variant, pos: &Position, power: PowerId, c: &AnyCommand) -> Slot {
    let Some(p) = unit_key(c) else {
        return match c {
            AnyCommand::Adjust(crate::orders::AdjustCommand::Build { at, .. }) => {
                Slot::Site(at.province)
            }
            AnyCommand::Adjust(
                crate::orders::AdjustCommand::Remove { unit }
                | crate::orders::AdjustCommand::Convert { unit, .. },
            ) => Slot::Site(unit.at.province),
            _ => Slot::Waive,
        };
    };
    if matches!(
        c,
        AnyCommand::Main(_, crate::orders::MainCommand::Disembark { .. })
    ) {
        return Slot::Landing(p);
    }
    if matches!(c, AnyCommand::Retreat(..)) && pos.phase.kind == PhaseKind::Movement {
        return Slot::Retreat(p);
    }
    if v.is_box(p) {
        return Slot::Box(p);
    }
    let on_board = pos
        .units
        .iter()
        .any(|u| u.power == power && v.map.province_of(u.region) == p);
    match v.box_also_named(power, p) {
        Some(b) if !on_board => Slot::Box(b),
        _ => Slot::Unit(p, fleet_layer(v, c)),
    }
}

/// Why the judge refuses each order of `power` (None: accepted), checked
/// against the position: the one checker the offline tools use too.
pub(crate) fn check(
    v: &Variant,
    pos: &Position,
    power: PowerId,
    cmds: &[AnyCommand],
) -> Vec<Option<String>> {
    let orders: Vec<(PowerId, AnyCommand)> = cmds.iter().map(|c| (power, c.clone())).collect();
    crate::game::check::refusals(v, pos, &orders)
}

/// What reading a block of a mail's lines as one power's orders gave,
/// against the board: the reply's three lists, and the orders held after.
/// One reading for the mail, for orders sent ahead when their phase comes,
/// and for `zinejudge parse --position`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Taken {
    /// Whether the block held anything read as an order, good or not.
    pub(crate) any: bool,
    /// Each line read: its number, the order in full as the judge will
    /// carry it out, and notes (a corrected unit, what it replaces).
    pub(crate) read: Vec<(usize, String, Vec<String>)>,
    /// Orders refused, each an entry of the reply (with its reason).
    pub(crate) rejected: Vec<String>,
    /// Lines (and pieces of lines) not read as orders.
    pub(crate) unread: Vec<String>,
    /// The orders held once these are taken.
    pub(crate) held: Vec<AnyCommand>,
    /// Some held orders came from earlier mails.
    pub(crate) kept_earlier: bool,
}

/// Read `block` as `power`'s orders on `pos`, beside the orders it holds
/// from earlier mails (`earlier`), and merge them: a new order replaces the
/// held one for its unit, and builds and removals their site's.
///
/// Every line ends in one of three lists: read (echoed in full as the
/// judge will carry it out, with a note when it corrects or replaces
/// something), not accepted (with the reason), or not read as an order.
pub(crate) fn take(
    v: &Variant,
    pos: &Position,
    power: PowerId,
    earlier: &[AnyCommand],
    block: &[(usize, String)],
) -> Taken {
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let text: Vec<&str> = block.iter().map(|(_, l)| l.as_str()).collect();
    let found = find_orders_as(
        &parser,
        &text.join("\n"),
        Some(pos.phase.kind),
        bare_reads_as(v, pos, power),
    );
    // Pieces of lines that held an order but are none themselves go with
    // the unread lines.
    let (pieces, found): (Vec<_>, Vec<_>) = found.into_iter().partition(
        |f| matches!(&f.result, Err(e) if e.kind == crate::orders::parse::ParseErrorKind::Empty),
    );
    let mut out = Taken {
        unread: unread_lines(block, &found),
        ..Taken::default()
    };
    out.unread.extend(pieces.iter().map(|f| {
        format!(
            "  line {} (part): \"{}\"",
            block[f.line - 1].0,
            shown_unread(&f.text)
        )
    }));
    out.unread.sort_by_key(|r| line_of(r));
    if found.is_empty() {
        out.held = earlier.to_vec();
        return out;
    }
    out.any = true;
    let rejected = &mut out.rejected;
    let mut new_cmds: Vec<(usize, String, AnyCommand)> = Vec::new();
    for f in &found {
        let line = block[f.line - 1].0;
        match &f.result {
            Err(e) => rejected.push(format!("  line {line}: \"{}\"\n    {e}", f.text)),
            Ok(o) => {
                if let Some(p) = o.power
                    && p != power
                {
                    rejected.push(format!(
                        "  line {line}: \"{}\"\n    you are signed on as {}, not {}",
                        f.text,
                        v.map.power(power).name,
                        v.map.power(p).name
                    ));
                    continue;
                }
                new_cmds.push((line, f.text.clone(), o.command.clone()));
            }
        }
    }
    let cmds: Vec<AnyCommand> = new_cmds.iter().map(|(_, _, c)| c.clone()).collect();
    // Held orders, each with the line of this mail it came from (None: an
    // earlier mail).
    let mut held: Vec<(AnyCommand, Option<usize>)> =
        earlier.iter().cloned().map(|c| (c, None)).collect();
    // The new orders are checked beside the held ones they do not replace:
    // orders of one phase may come in several mails (an A/F's landing after
    // the mail that boarded its army).
    // The new ones come first: where builds are one too many, an earlier
    // mail's go (see below), not the ones just written.
    let new_slots: Vec<Slot> = cmds.iter().map(|c| slot(v, pos, power, c)).collect();
    let mut context = cmds.clone();
    context.extend(
        held.iter()
            .map(|(h, _)| h)
            .filter(|h| !new_slots.contains(&slot(v, pos, power, h)))
            .cloned(),
    );
    let mut verdicts = check(v, pos, power, &context);
    verdicts.truncate(cmds.len());
    let boarded = boarded_fleets(&context);
    let mut replaced: Vec<Slot> = Vec::new();
    // One entry per line read: the order in full, then its notes.
    let read = &mut out.read;
    for ((line, text, c), verdict) in new_cmds.into_iter().zip(verdicts) {
        if let Some(why) = verdict {
            let way = crate::game::check::alternatives(v, pos, power, &c, &context)
                .map_or(String::new(), |w| format!("; {w}"));
            rejected.push(
                crate::report::fit72(&format!("  line {line}: \"{text}\"\n    {why}{way}"))
                    .trim_end()
                    .to_string(),
            );
            continue;
        }
        let mut notes = Vec::new();
        let (c, corrected) = complete(v, pos, power, &c, &boarded);
        if let Some(note) = corrected {
            notes.push(note);
        }
        let k = slot(v, pos, power, &c);
        // A unit's new order replaces its old one; the first order of the
        // mail for a box, for the fleets of a province (each may have its
        // own), for a build site or for the waivers replaces all held ones
        // for it, and the mail's later ones add to it.
        if matches!(k, Slot::Unit(_, false)) || !replaced.contains(&k) {
            let shown = format_order(&v.map, &c);
            let gone: Vec<String> = held
                .iter()
                .filter(|(h, _)| slot(v, pos, power, h) == k)
                .filter(|(h, _)| format_order(&v.map, h) != shown)
                .map(|(h, from)| match from {
                    Some(n) => format!("{} (line {n})", format_order(&v.map, h)),
                    None => format!("{} (an earlier mail)", format_order(&v.map, h)),
                })
                .collect();
            if !gone.is_empty() {
                notes.push(format!("replaces {}", gone.join(", ")));
            }
            held.retain(|(h, _)| slot(v, pos, power, h) != k);
            replaced.push(k);
        }
        // Leaders by name, as the results print them (1700 AD II rule 7).
        let echo = crate::report::named(v, &pos.units, format_order(&v.map, &c));
        read.push((line, echo, notes));
        held.push((c, Some(line)));
    }
    // Keep the stored set legal as a whole (too many builds and the like).
    // This mail's orders are judged first, so where builds or removals are
    // one too many, an earlier mail's go, not the ones just written.
    let order: Vec<usize> = (0..held.len())
        .filter(|&i| held[i].1.is_some())
        .chain((0..held.len()).filter(|&i| held[i].1.is_none()))
        .collect();
    let cmds: Vec<AnyCommand> = order.iter().map(|&i| held[i].0.clone()).collect();
    let mut dropped = vec![None; held.len()];
    for (&i, verdict) in order.iter().zip(check(v, pos, power, &cmds)) {
        dropped[i] = verdict;
    }
    for ((c, from), verdict) in held.into_iter().zip(dropped) {
        match (verdict, from) {
            (None, from) => {
                out.kept_earlier |= from.is_none();
                out.held.push(c);
            }
            (Some(why), Some(n)) => {
                read.retain(|(l, _, _)| *l != n);
                rejected.push(format!(
                    "  line {n}: \"{}\"\n    {why}",
                    format_order(&v.map, &c)
                ));
            }
            (Some(why), None) => rejected.push(format!(
                "  {} (an earlier mail)\n    dropped: {why}",
                format_order(&v.map, &c)
            )),
        }
    }
    // Each list in the order of the mail's lines (an earlier mail's orders
    // last).
    rejected.sort_by_key(|r| line_of(r));
    out
}

impl Taken {
    /// The reply's lists: read, not accepted, not read as orders.
    pub(crate) fn text(&self) -> String {
        let mut t = String::new();
        if !self.read.is_empty() {
            t.push_str("Read from your mail:\n");
            for (line, order, notes) in &self.read {
                let _ = writeln!(t, "  line {line}: {order}");
                for n in notes {
                    let _ = writeln!(t, "    {n}");
                }
            }
            if self.kept_earlier {
                t.push_str(&crate::report::wrap(
                    "  (Orders add to those you sent before: a new order replaces the \
                     old one unit by unit, and builds and removals site by site; \
                     CLEAR withdraws them all.)",
                    72,
                    "  ",
                ));
            }
            t.push('\n');
        }
        if !self.rejected.is_empty() {
            t.push_str("Not accepted:\n");
            for r in &self.rejected {
                t.push_str(r);
                t.push('\n');
            }
            t.push('\n');
        }
        t.push_str(&unread_text(&self.unread));
        t
    }
}

/// Whether `g` takes no orders now (forming, or over); the reply says so.
pub(crate) fn refused_now(s: &mut Session<'_, '_>, g: &games::GameRow) -> bool {
    let why = match g.status {
        Status::Forming => "it has not started",
        Status::Finished => "it is over",
        _ => return false,
    };
    s.say(&format!("{} takes no orders now ({why}).", g.name));
    true
}

/// The line number an entry of a reply's list starts with (`  line 12:`),
/// or the end for one that names no line.
fn line_of(entry: &str) -> usize {
    entry
        .trim_start()
        .strip_prefix("line ")
        .map(|r| {
            r.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX)
}

/// An order in full, as the judge will carry it out: the unit's kind filled
/// in (or corrected, with a note, when the player wrote the other kind and
/// only the other stands there), and the kind of a supported or convoyed
/// unit filled in where the power can see it. Units in a box, stacks and
/// places hidden from the power are left as written.
pub(crate) fn complete(
    v: &Variant,
    pos: &Position,
    power: PowerId,
    c: &AnyCommand,
    boarded: &[crate::map::ProvinceId],
) -> (AnyCommand, Option<String>) {
    let view = crate::rules::view::View::of(v, pos, crate::rules::features::Viewer::Power(power));
    // The one unit standing in a province, if exactly one does.
    let only = |p: crate::map::ProvinceId, own: bool| {
        let mut at = pos
            .units
            .iter()
            .chain(pos.dislodged.iter().map(|(d, _)| d))
            .filter(|x| v.map.province_of(x.region) == p && (!own || x.power == power));
        match (at.next(), at.next()) {
            (Some(u), None) if !v.is_box(p) && !view.hides_place(p) && !view.hides_unit(u) => {
                Some(*u)
            }
            _ => None,
        }
    };
    let fill = |r: &crate::orders::UnitRef| -> crate::orders::UnitRef {
        match (r.kind, only(r.at.province, false)) {
            (None, Some(u)) => crate::orders::UnitRef {
                kind: Some(u.kind),
                at: r.at,
            },
            _ => *r,
        }
    };
    let unit = match c {
        AnyCommand::Main(u, _) | AnyCommand::Retreat(u, _) => u,
        AnyCommand::Adjust(_) => return (c.clone(), None),
    };
    let mut note = None;
    let mut out = c.clone();
    // An A/F's army or fleet named alone (`F(TYS)-WMS` beside `A/F(TYS)
    // disembarks A(Tun)`) is an order for that part: left as written.
    let part_of_af = |k: crate::map::UnitKind, real: crate::map::UnitKind| {
        real == crate::map::UnitKind::ArmyFleet
            && matches!(k, crate::map::UnitKind::Army | crate::map::UnitKind::Fleet)
    };
    // The A/F a boarding of this phase forms (`A(Lon) boards F(ENG)`,
    // `A/F(ENG)-MAO`): there is only the fleet now, and the A/F is meant.
    let formed =
        unit.kind == Some(crate::map::UnitKind::ArmyFleet) && boarded.contains(&unit.at.province);
    if let Some(real) = only(unit.at.province, true)
        && !unit.kind.is_some_and(|k| part_of_af(k, real.kind))
        && !formed
    {
        if unit.kind.is_some_and(|k| k != real.kind) {
            let word = real.kind.word().to_lowercase();
            note = Some(format!(
                "there is {} {word} in {}, so it is read as the {word}",
                if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                },
                v.map.province(unit.at.province).name,
            ));
        }
        out = with_kind(&out, real.kind, v, real.region);
    }
    if let AnyCommand::Main(_, cmd) = &mut out {
        use crate::orders::MainCommand as M;
        match cmd {
            M::SupportHold { unit } | M::SupportMove { unit, .. } | M::Convoy { unit, .. } => {
                *unit = fill(unit);
            }
            M::Board { fleet } => *fleet = fill(fleet),
            _ => {}
        }
    }
    (out, note)
}

/// The provinces of the fleets that orders board this phase: an A/F named
/// there is the one the boarding forms.
pub(crate) fn boarded_fleets(orders: &[AnyCommand]) -> Vec<crate::map::ProvinceId> {
    orders
        .iter()
        .filter_map(|c| match c {
            AnyCommand::Main(_, crate::orders::MainCommand::Board { fleet }) => {
                Some(fleet.at.province)
            }
            _ => None,
        })
        .collect()
}

/// The lines of `block` in which no order was found: chat, greetings, or
/// an order written in a form the judge does not know. They are listed, so
/// that nothing a player wrote is lost without a word. A heading or power
/// name alone on its line (`Builds:`, `England:`) was read, and a line of
/// only punctuation says nothing.
pub(crate) fn unread_lines(
    block: &[(usize, String)],
    found: &[crate::orders::mail::FoundOrder],
) -> Vec<String> {
    block
        .iter()
        .enumerate()
        .filter(|(i, _)| !found.iter().any(|f| f.line == i + 1))
        .filter(|(_, (_, l))| {
            let t = l.trim();
            let heading = t.ends_with(':') && t.split_whitespace().count() <= 5;
            !heading && t.chars().any(char::is_alphanumeric)
        })
        .map(|(_, (n, l))| format!("  line {n}: \"{}\"", shown_unread(l)))
        .collect()
}

/// A line (or piece of one) not read as an order, as the reply shows it. A
/// mistyped sign-on or password command (`SIGNIN England g1 secret`) is no
/// command, so its password is not known to be one: only its first word
/// comes back.
fn shown_unread(text: &str) -> String {
    let t = text.trim();
    let first = t.split_whitespace().next().unwrap_or("");
    let lower = first.to_ascii_lowercase();
    if ["sign", "join", "creat", "pass", "set", "observ", "regist"]
        .iter()
        .any(|w| lower.starts_with(w))
        && t.split_whitespace().count() > 1
    {
        format!("{} ...", crate::mail::header_text(first, 24))
    } else {
        crate::mail::header_text(t, 72)
    }
}

/// The list of lines not read as orders, for the reply.
pub(crate) fn unread_text(unread: &[String]) -> String {
    const SHOWN: usize = 20;
    if unread.is_empty() {
        return String::new();
    }
    let mut t = String::from("Not read as orders (no order found in these lines):\n");
    for l in unread.iter().take(SHOWN) {
        t.push_str(l);
        t.push('\n');
    }
    if unread.len() > SHOWN {
        let _ = writeln!(t, "  ... and {} more.", unread.len() - SHOWN);
    }
    t.push('\n');
    t
}

/// The orders `power` holds on `pos` and what is still missing.
pub(crate) fn held_text(
    v: &Variant,
    pos: &Position,
    power: PowerId,
    held: &[AnyCommand],
) -> String {
    let mut t = format!(
        "Orders held for {}, {}:\n",
        v.map.power(power).name,
        v.calendar.label(pos.phase)
    );
    let missing = missing(v, pos, power, held);
    match pos.phase.kind {
        PhaseKind::Movement => {
            let mut last: Option<&AnyCommand> = None;
            for (u, h) in assign(v, pos, power, held) {
                match h {
                    // A stack's order, once for all its fleets.
                    Some(h) if last.is_some_and(|l| std::ptr::eq(l, h)) => {}
                    Some(h) => {
                        last = Some(h);
                        // Leaders by name, as the results print them
                        // (1700 AD II rule 7).
                        let order = format_order(&v.map, &with_kind(h, u.kind, v, u.region));
                        let _ = writeln!(t, "  {}", crate::report::named(v, &pos.units, order));
                    }
                    None => {
                        // A raider with no order to come back this season
                        // stays away and brings nothing home.
                        let raid = v.raid_return_due(v.map.province_of(u.region), pos.phase.season);
                        let why = match raid {
                            Some(true) => "no return order: it stays away and counts nothing",
                            Some(_) => "stays away",
                            None => "no order: holds",
                        };
                        let _ = writeln!(
                            t,
                            "  {} ({why})",
                            format_unit(&v.map, Some(u.kind), Place::of_region(&v.map, u.region))
                        );
                    }
                }
            }
            // Landings from A/Fs, beside their fleets' own orders; on a
            // yearly sheet, the retreats and builds, with a warning for a
            // build the judge would refuse on the board as it stands.
            let builds = adjust_orders(power, held);
            let after = emptied_by_moves(v, pos, power, held);
            let mut refusals = crate::game::step::build_refusals(v, &after, &builds).into_iter();
            for h in held.iter().filter(|h| {
                matches!(
                    slot(v, pos, power, h),
                    Slot::Landing(_) | Slot::Retreat(_) | Slot::Site(_) | Slot::Waive
                )
            }) {
                let head = match h {
                    AnyCommand::Retreat(..) => "Retreat if dislodged: ",
                    AnyCommand::Adjust(_) => "After the moves: ",
                    AnyCommand::Main(..) => "",
                };
                let _ = writeln!(t, "  {head}{}", format_order(&v.map, h));
                if let AnyCommand::Adjust(_) = h
                    && let Some(why) = refusals.next().flatten()
                {
                    t.push_str(&crate::report::wrap(
                        &format!(
                            "    warning: the judge will refuse it as the board stands: {why}"
                        ),
                        72,
                        "      ",
                    ));
                }
            }
        }
        PhaseKind::Retreat => {
            for (u, opts) in pos.dislodged.iter().filter(|(u, _)| u.power == power) {
                let p = v.map.province_of(u.region);
                let unit = format_unit(&v.map, Some(u.kind), Place::of_region(&v.map, u.region));
                match held.iter().find(|h| unit_key(h) == Some(p)) {
                    Some(h) => {
                        let _ = writeln!(t, "  {}", format_order(&v.map, h));
                    }
                    None => {
                        let opts: Vec<String> =
                            opts.iter().map(|r| v.map.region_abbr(*r)).collect();
                        let _ = writeln!(
                            t,
                            "  {unit} (no order: disbands; may retreat to {})",
                            if opts.is_empty() {
                                "nowhere".into()
                            } else {
                                opts.join(", ")
                            }
                        );
                    }
                }
            }
        }
        PhaseKind::Adjustment | PhaseKind::Placement => {
            let due = crate::game::step::due(v, pos)[power.index()];
            let _ = writeln!(
                t,
                "  ({})",
                match due {
                    0 => "no builds or removals are due".to_string(),
                    1 => "1 build due".to_string(),
                    -1 => "1 removal due".to_string(),
                    d if d > 0 => format!("{d} builds due"),
                    d => format!("{} removals due", -d),
                }
            );
            for h in held {
                let _ = writeln!(t, "  {}", format_order(&v.map, h));
            }
            if let Some(n) = kept_back(v, pos, power, held) {
                let _ = writeln!(
                    t,
                    "  ({} kept back for a later build season)",
                    crate::report::plural(n, "build", None)
                );
            }
        }
    }
    if let Some(why) = v.silenced_why(pos, power) {
        // A silenced power (1000 AD rule 13's anarchy, a dormant power)
        // gives no orders, so nothing is missing; say why instead.
        t.push_str(&crate::report::wrap(why, 72, "  "));
    } else if missing.is_empty() {
        t.push_str("Your orders are complete.\n");
    } else {
        t.push_str(&crate::report::wrap(
            &format!("Still missing: {}.", missing.join(", ")),
            72,
            "  ",
        ));
    }
    t
}

/// When the current phase of `g` goes, as every order reply says it: at
/// the deadline `d` (shown in the game's zone and UTC), or earlier once
/// every player is ready, as the game's rule for early processing says.
pub(crate) fn when(
    judge: &Judge,
    g: &crate::store::games::GameRow,
    d: i64,
    wait: bool,
) -> CmdResult<String> {
    let deadline = super::time::show_deadline(d, &g.settings.timezone);
    let early = match g.settings.early {
        crate::game::record::Early::Complete => "complete",
        crate::game::record::Early::Ready => "ready",
    };
    let ctx = serde_json::json!({"deadline": deadline, "early": early, "wait": wait});
    Ok(judge
        .templates
        .text("when.txt", &ctx)
        .map_err(anyhow::Error::from)?)
}

/// An order shown with the unit's real kind (players may leave it out).
fn with_kind(
    c: &AnyCommand,
    kind: crate::map::UnitKind,
    v: &Variant,
    region: crate::map::RegionId,
) -> AnyCommand {
    match c {
        AnyCommand::Main(u, cmd) => AnyCommand::Main(
            crate::orders::UnitRef {
                kind: Some(kind),
                at: Place {
                    province: u.at.province,
                    coast: v.map.region(region).coast,
                },
            },
            cmd.clone(),
        ),
        AnyCommand::Retreat(u, cmd) => AnyCommand::Retreat(
            crate::orders::UnitRef {
                kind: Some(kind),
                at: Place {
                    province: u.at.province,
                    coast: v.map.region(region).coast,
                },
            },
            *cmd,
        ),
        other => other.clone(),
    }
}

/// The builds and removals among `power`'s held orders, for the
/// adjustment judge.
/// The board a yearly sheet's builds are warned against: without the
/// power's units its own moves send away, for the builds hang on the
/// moves (1700 AD II rule 3: one sheet of "moves, possible retreats and
/// build/removals"), so a site the sheet empties is not "already" taken.
fn emptied_by_moves(v: &Variant, pos: &Position, power: PowerId, held: &[AnyCommand]) -> Position {
    use crate::map::UnitKind;
    use crate::orders::{MainCommand, Step};
    let leaves = |c: &MainCommand| match c {
        MainCommand::Move { .. } => true,
        MainCommand::Impulses { steps, .. } => steps.iter().any(|s| matches!(s, Step::Move(_))),
        _ => false,
    };
    let mut after = pos.clone();
    after.units.retain(|u| {
        u.power != power
            || !held.iter().any(|h| {
                matches!(h, AnyCommand::Main(unit, c)
                    if unit.at.province == v.map.province_of(u.region)
                        && unit.kind.is_none_or(|k| (k == UnitKind::Fleet) == (u.kind == UnitKind::Fleet))
                        && leaves(c))
            })
    });
    after
}

fn adjust_orders(power: PowerId, held: &[AnyCommand]) -> Vec<AdjustOrder> {
    held.iter()
        .filter_map(|h| match h {
            AnyCommand::Adjust(command) => Some(AdjustOrder {
                power,
                command: *command,
            }),
            _ => None,
        })
        .collect()
}

/// The units `power` keeps back at the opening placement: a power placing
/// some of its units need not place them all and keeps the rest for a
/// later build season (the placement's rule: 1000 AD rule 6, "A player does
/// not have to place all his units on the board"). `None` outside a
/// placement, or before the power has placed anything.
fn kept_back(v: &Variant, pos: &Position, power: PowerId, held: &[AnyCommand]) -> Option<i64> {
    if pos.phase.kind != PhaseKind::Placement {
        return None;
    }
    let orders = adjust_orders(power, held);
    if orders.is_empty() {
        return None;
    }
    let r = crate::game::step::judge_adjustments(v, pos, &orders);
    let n = r.unused_builds.get(power.index()).copied().unwrap_or(0);
    (n > 0).then_some(n as i64)
}

/// What a power has still to order: units without orders, dislodged units
/// without retreats, builds or removals not yet given (not the units kept
/// back at a placement, which are a choice).
pub(crate) fn missing(
    v: &Variant,
    pos: &Position,
    power: PowerId,
    held: &[AnyCommand],
) -> Vec<String> {
    // A power in anarchy gives no orders (1000 AD rule 13): nothing of it
    // is missing, and nobody waits for it.
    if v.silenced_why(pos, power).is_some() {
        return Vec::new();
    }
    let ordered = |p| held.iter().any(|h| unit_key(h) == Some(p));
    match pos.phase.kind {
        PhaseKind::Movement => assign(v, pos, power, held)
            .into_iter()
            .filter(|(_, h)| h.is_none())
            .map(|(u, _)| format_unit(&v.map, Some(u.kind), Place::of_region(&v.map, u.region)))
            .collect(),
        PhaseKind::Retreat => pos
            .dislodged
            .iter()
            .filter(|(u, _)| u.power == power && !ordered(v.map.province_of(u.region)))
            .map(|(u, _)| format_unit(&v.map, Some(u.kind), Place::of_region(&v.map, u.region)))
            .collect(),
        PhaseKind::Adjustment | PhaseKind::Placement => {
            // What is missing is what the judge would still owe: it counts
            // each unit at its cost (a defensive army two builds, an A/F two
            // units), so the reply counts as the judge will.
            if kept_back(v, pos, power, held).is_some() {
                return Vec::new();
            }
            let due = crate::game::step::due(v, pos)[power.index()];
            let orders = adjust_orders(power, held);
            let r = crate::game::step::judge_adjustments(v, pos, &orders);
            let builds = r.unused_builds.get(power.index()).copied().unwrap_or(0);
            let removals = r.civil_disorder.iter().filter(|u| u.power == power).count();
            if due > 0 && builds > 0 {
                vec![format!(
                    "{} or {}",
                    crate::report::plural(builds as i64, "build", None),
                    if builds == 1 { "waiver" } else { "waivers" }
                )]
            } else if due < 0 && removals > 0 {
                vec![crate::report::plural(removals as i64, "removal", None)]
            } else {
                Vec::new()
            }
        }
    }
}

/// Whether `power` has any choice to make in this phase.
pub(crate) fn has_choices(v: &Variant, pos: &Position, power: PowerId) -> bool {
    if v.silenced_why(pos, power).is_some() {
        return false;
    }
    match pos.phase.kind {
        PhaseKind::Movement => pos.units.iter().any(|u| u.power == power),
        PhaseKind::Retreat => pos.dislodged.iter().any(|(u, _)| u.power == power),
        PhaseKind::Adjustment | PhaseKind::Placement => {
            crate::game::step::due(v, pos)[power.index()] != 0
        }
    }
}
