//! What a power is shown of its orders, after every mail that touches
//! them: those held for this phase, what is missing, when the phase goes,
//! and those kept for later phases (njudge's PHASE). The plain orders
//! mail ends here too. Below both the reading of orders
//! ([`super::submit`]) and the orders for later phases
//! ([`super::later`]), so that neither imports the other back.

use super::conditional::{self, Role};
use super::error::CmdResult;
use super::submit::{held_text, refused_now, store_form, stored, take, unread_text, when};
use super::{Judge, Session, load};
use crate::game::Position;
use crate::map::PowerId;
use crate::orders::condition::Directive;
use crate::orders::{AnyCommand, format_order};
use crate::rules::features::Viewer;
use crate::rules::view::View;
use crate::store::{Conn, games, later};
use crate::variant::{Phase, Variant};
use std::fmt::Write;

/// Where a phase stands in the game's order of phases.
pub(crate) fn rank(v: &Variant, p: Phase) -> (i32, u8, usize) {
    let within = v.calendar.seasons[p.season as usize]
        .phases
        .iter()
        .position(|k| *k == p.kind)
        .unwrap_or(0);
    (p.year, p.season, within)
}

/// Take the orders in `block` for `power`; returns whether the block held
/// any. The reply gets the three lists ([`Taken::text`]), then the whole
/// set now held and what is missing.
pub(crate) fn orders(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    game: &str,
    power: PowerId,
    block: &[(usize, String)],
) -> CmdResult<bool> {
    let g = load(s.tx, game)?;
    let (v, pos) = judge.board(&g)?;
    let (pos, unseen) = played(&v, pos, power);
    let earlier = match unseen {
        Some(phase) => kept_for(s.tx, &v, &g.name, power, phase)?,
        None => stored(&v, &games::orders(s.tx, &g.name, power.0)?),
    };
    // njudge's IFs, for this phase: read at once on its board.
    let (block, conditions) = now_block(&v, &pos, power, block);
    s.reply.push_str(&conditions);
    let taken = take(&v, &pos, power, &earlier, &block);
    if !taken.any {
        s.reply.push_str(&unread_text(&taken.unread));
        return Ok(!conditions.is_empty());
    }
    if refused_now(s, &g) {
        return Ok(true);
    }
    let lines: Vec<String> = taken.held.iter().map(|c| store_form(&v, c)).collect();
    match unseen {
        // Kept for the phase this power is told the game is in, and
        // brought in, unannounced, when it comes (`later::bring_in`).
        Some(phase) => {
            let short = v.calendar.short(phase);
            later::clear(s.tx, &g.name, Some(power.0), &short)?;
            later::add(s.tx, &g.name, power.0, &short, &lines)?;
        }
        None => games::set_orders(s.tx, &g.name, power.0, &lines)?,
    }
    // Orders may let the phase go early once the mail is done.
    s.stir(&g.name);
    s.reply.push_str(&taken.text());
    show_orders(judge, s, game, power)?;
    Ok(true)
}

/// The lines of `block` that are orders for the phase of `pos`: those of
/// the branches of njudge's IFs whose conditions hold on its board (as
/// `power` sees it), and the reply's account of the IFs ("" when the
/// block has none).
fn now_block(
    v: &Variant,
    pos: &Position,
    power: PowerId,
    block: &[(usize, String)],
) -> (Vec<(usize, String)>, String) {
    let (roles, open) = conditional::roles(&v.map, block);
    if roles.iter().all(|r| *r == Role::Plain) {
        return (block.to_vec(), String::new());
    }
    let units = conditional::units_seen(v, pos, power);
    let used = conditional::select(
        &roles,
        |r| match r {
            Role::Directive(d) => Some(d),
            _ => None,
        },
        |c| c.holds(&v.map, &units),
    );
    let mut kept = Vec::new();
    let mut t = String::from("Conditions (asked of the board as this phase began):\n");
    let mut told: Option<(usize, String)> = None;
    for (((n, l), role), on) in block.iter().zip(&roles).zip(used) {
        let text = crate::mail::header_text(l.trim(), 72);
        match role {
            Role::Plain if on => kept.push((*n, l.clone())),
            Role::Plain if l.trim().chars().any(char::is_alphanumeric) => {
                let _ = writeln!(
                    t,
                    "  line {n}: \"{text}\": not used (its branch is not taken)"
                );
            }
            Role::Plain => {}
            Role::Directive(d @ (Directive::If(_) | Directive::ElseIf(_) | Directive::Else)) => {
                let _ = writeln!(
                    t,
                    "  line {n}: {}: {}",
                    d.show(&v.map),
                    if on { "taken" } else { "not taken" }
                );
            }
            Role::Directive(_) => {}
            Role::Void(why) => {
                // Each reason is given once, at its first line.
                match &told {
                    Some((first, w)) if w == why => {
                        let _ = writeln!(t, "  line {n}: \"{text}\": not taken, as line {first}");
                    }
                    _ => {
                        told = Some((*n, why.clone()));
                        let _ = writeln!(t, "  line {n}: \"{text}\": not taken: {why}");
                    }
                }
            }
        }
    }
    for note in open {
        let _ = writeln!(t, "  ({note})");
    }
    t.push('\n');
    (kept, t)
}

/// The board `power` gives its orders on, and, when that is not the
/// game's own phase, the phase they are for. While a phase goes on that
/// `power` may not know of (a retreat of hidden units only, 1066 rule 5:
/// their place is "known only by this player and the GM"), its orders are
/// read as orders for the phase it is told the game is in, kept for that
/// phase as orders sent ahead are, and shown as its orders for it: the
/// reply is the one it would get were no retreat going on.
pub(crate) fn played(v: &Variant, pos: Position, power: PowerId) -> (Position, Option<Phase>) {
    match View::of(v, &pos, Viewer::Power(power)).board_played(&pos) {
        Some(p) => {
            let phase = p.phase;
            (p, Some(phase))
        }
        None => (pos, None),
    }
}

/// The orders `power` keeps for `phase`, in the order kept.
pub(crate) fn kept_for(
    c: &Conn,
    v: &Variant,
    game: &str,
    power: PowerId,
    phase: Phase,
) -> CmdResult<Vec<AnyCommand>> {
    let short = v.calendar.short(phase);
    Ok(later::batches(c, game, Some(power.0))?
        .into_iter()
        .filter(|b| b.phase == short)
        .flat_map(|b| stored(v, &b.lines))
        .collect())
}

/// Print the orders a power holds and what is missing.
pub(crate) fn show_orders(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    game: &str,
    power: PowerId,
) -> CmdResult {
    let g = load(s.tx, game)?;
    let (v, pos) = judge.board(&g)?;
    let (pos, unseen) = played(&v, pos, power);
    let held = match unseen {
        Some(phase) => kept_for(s.tx, &v, &g.name, power, phase)?,
        None => stored(&v, &games::orders(s.tx, &g.name, power.0)?),
    };
    let mut t = held_text(&v, &pos, power, &held);
    if let Some(d) = g.deadline {
        let seat = games::seats(s.tx, &g.name)?
            .into_iter()
            .find(|x| x.power == power.0);
        t.push_str(&when(judge, &g, d, seat.is_some_and(|x| x.wait))?);
    }
    // Orders sent ahead for later phases, as kept.
    t.push_str(&kept_text(s.tx, &v, &g.name, power, unseen)?);
    s.say(&t);
    Ok(())
}

/// The orders `power` holds for later phases, for the reply ("" if none).
/// Those kept for `shown` are not among them: the reply shows them as the
/// power's orders for the phase ([`played`]).
fn kept_text(
    c: &Conn,
    v: &Variant,
    game: &str,
    power: PowerId,
    shown: Option<Phase>,
) -> CmdResult<String> {
    let mut by_phase: Vec<(Phase, Vec<String>)> = Vec::new();
    for b in later::batches(c, game, Some(power.0))? {
        let Ok(p) = v.calendar.parse(&b.phase) else {
            continue;
        };
        if Some(p) == shown {
            continue;
        }
        let cmds = conditional::shown(&v.map, &b.lines, |l| {
            stored(v, &[l.to_string()])
                .first()
                .map(|c| format_order(&v.map, c))
        });
        match by_phase.iter_mut().find(|(q, _)| *q == p) {
            Some((_, list)) => list.extend(cmds),
            None => by_phase.push((p, cmds)),
        }
    }
    if by_phase.is_empty() {
        return Ok(String::new());
    }
    by_phase.sort_by_key(|(p, _)| rank(v, *p));
    let mut t = String::from("Orders kept for later phases (checked when each comes):\n");
    for (p, cmds) in by_phase {
        let _ = writeln!(t, "  {}:", v.calendar.label(p));
        for c in cmds {
            let _ = writeln!(t, "    {c}");
        }
    }
    Ok(t)
}
