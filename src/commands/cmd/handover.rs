//! A seat handed to a new player (REPLACE, or a confirmed offer of one):
//! the welcome mail with the game, the board and its picture, the orders
//! held and an example that works; the others told. Also the picture and
//! the example that START's welcome uses, so that the commands which
//! welcome players share them without importing each other.

use crate::commands::error::{CmdError, CmdResult};
use crate::commands::{Judge, Session, load, mail_to, play, time};
use crate::game::Position;
use crate::game::record::{SeatStatus, Status};
use crate::map::{PowerId, UnitKind};
use crate::orders::Place;
use crate::orders::format_unit;
use crate::rules::view::VariantRules;
use crate::store::games::{self, GameRow};
use crate::trust::password;
use crate::variant::features::Viewer;
use crate::variant::{PhaseKind, Variant};
use std::fmt::Write;

/// How many of the latest broadcasts a new player is shown.
const RECENT_PRESS: i64 = 3;

/// How much of each a new player is shown (the web page has the rest).
const PRESS_SHOWN: usize = 2000;

/// A dummy power's seat is given to nobody (`[dummies]`).
fn not_a_dummy(
    v: &crate::variant::Variant,
    seat: &crate::game::record::Seat,
    pid: PowerId,
) -> CmdResult<()> {
    if seat.status == SeatStatus::Dummy {
        return Err(format!(
            "{} are a dummy power of {}: nobody plays them",
            v.map.power(pid).name,
            v.title
        )
        .into());
    }
    Ok(())
}

/// Give `pid` of `game` to `address`: a new password, mailed to it with
/// the game, its units and an example; the others told the power has a
/// new player, its old player that it has gone. Returns the power's name.
pub(crate) fn give(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    game: &str,
    pid: PowerId,
    address: &str,
) -> CmdResult<String> {
    let game = game.to_string();
    let g = load(s.tx, &game)?;
    let (v, pos) = judge.board(&g)?;
    {
        let mut seats = games::seats(s.tx, &game)?;
        not_a_dummy(&v, &seats[pid.index()], pid)?;
        let pw = password::generate()
            .map_err(|e| CmdError::Fault(anyhow::anyhow!("no random source: {e}")))?;
        let seat = &mut seats[pid.index()];
        let old = seat.address.replace(address.to_string());
        seat.hash = Some(password::hash(&pw).map_err(|e| CmdError::Fault(anyhow::anyhow!(e)))?);
        seat.status = SeatStatus::Playing;
        seat.failures = 0;
        seat.ready = false;
        seat.name = None;
        games::save_seat(s.tx, &game, seat)?;
        crate::store::roster::took(s.tx, &game, pid.0, address, None, s.now)?;
        let name = v.map.power(pid).name.clone();
        tracing::info!(game = %game, power = %name, "a power was given to a new player");
        // The orders the power holds, as the player would see them.
        let mark = s.reply.len();
        let held = if g.status == Status::Active {
            crate::commands::held::show_orders(judge, s, &game, pid)?;
            s.reply.split_off(mark)
        } else {
            String::new()
        };
        let mut body = crate::report::wrap(
            &format!("The GM of {game} ({}) has given you {name}.", v.title),
            72,
            "",
        );
        body.push('\n');
        let _ = writeln!(body, "Game:     {game} ({})", v.title);
        let _ = writeln!(body, "Power:    {name}");
        let _ = writeln!(
            body,
            "Phase:    {}{}",
            v.calendar.label(pos.phase),
            match g.status {
                Status::Active => "",
                Status::Forming => " (the game has not started)",
                Status::Paused => " (the game is paused)",
                Status::Finished => " (the game is over)",
            }
        );
        if let Some(d) = g.deadline {
            let _ = writeln!(
                body,
                "Deadline: {}",
                time::show_deadline(d, &g.settings.timezone)
            );
        }
        let units: Vec<String> = pos
            .units
            .iter()
            .filter(|u| u.power == pid)
            .map(|u| format_unit(&v.map, Some(u.kind), Place::of_region(&v.map, u.region)))
            .collect();
        let counts = pos.centre_counts(&v.map);
        let _ = writeln!(
            body,
            "Units:    {}",
            if units.is_empty() {
                "none".to_string()
            } else {
                units.join(", ")
            }
        );
        let _ = writeln!(body, "Centres:  {}", counts[pid.index()]);
        body.push('\n');
        // The whole board, as at the start: every power's units and
        // centres (the map is attached), and the latest press to all.
        let board = crate::report::board::board(&v, &pos, Viewer::Power(pid));
        body.push_str("The board (the map is attached):\n\n");
        body.push_str(
            &judge
                .templates
                .text("board.txt", &serde_json::json!({"board": board}))
                .map_err(anyhow::Error::from)?,
        );
        body.push('\n');
        let press = crate::store::press::list(s.tx, &game, RECENT_PRESS)?;
        if !press.is_empty() {
            body.push_str("The latest press to everybody, newest first:\n\n");
            for p in &press {
                let text: String = p.body.chars().take(PRESS_SHOWN).collect();
                let _ = writeln!(
                    body,
                    "From {} ({}):\n{}{}\n",
                    p.sender.as_deref().unwrap_or("someone (grey press)"),
                    p.phase,
                    text.trim_end(),
                    if p.body.chars().count() > PRESS_SHOWN {
                        " [...]"
                    } else {
                        ""
                    }
                );
            }
        }
        if !held.trim().is_empty() {
            body.push_str(held.trim_end());
            body.push_str("\n\n");
        }
        let _ = writeln!(body, "Your password is: {pw}\n");
        body.push_str("Sign on and send orders in a mail like this:\n\n");
        let _ = writeln!(body, "  SIGNON {name} {game} {pw}");
        for line in example(&v, &pos, pid) {
            let _ = writeln!(body, "  {line}");
        }
        body.push_str(
            "\nChange the password with SET PASSWORD after signing on, and give\n\
             yourself a name with SET NAME. Send HELP for more.\n",
        );
        // The map is drawn when the mail is sent, from the board kept.
        let map = play::board_later(s.tx, &v, &pos, &g, Viewer::Power(pid), &mut None, s.now)?;
        for mut m in mail_to(
            &[address.to_string()],
            format!("{game}: you now play {name}"),
            body,
        ) {
            m.later = Some(map.clone());
            s.out.push(m);
        }
        // The others hear of it, the new player's address kept to the GM.
        let seats = games::seats(s.tx, &game)?;
        let mut to: Vec<String> = seats
            .iter()
            .filter(|x| x.power != pid.0)
            .filter_map(|x| x.address.clone())
            .collect();
        to.extend(games::observers(s.tx, &game)?);
        to.retain(|a| {
            !a.eq_ignore_ascii_case(address)
                && !a.eq_ignore_ascii_case(&g.gm_address)
                && old.as_deref().is_none_or(|o| !a.eq_ignore_ascii_case(o))
        });
        s.out.extend(mail_to(
            &to,
            format!("{game}: {name} has a new player"),
            format!("The GM of {game} has given {name} to a new player.\n"),
        ));
        if let Some(o) = old
            && !o.eq_ignore_ascii_case(address)
        {
            s.out.extend(mail_to(
                &[o],
                format!("{game}: you no longer play {name}"),
                format!("The GM of {game} has given {name} to another player.\n"),
            ));
        }
    }
    Ok(v.map.power(pid).name.clone())
}

/// Order lines a new player could send for the power's own units now, so
/// the example in the welcome is one that works: a move to a free
/// neighbouring province and holds for the rest (in a movement phase); a
/// retreat; a build or a waive.
pub(crate) fn example(v: &Variant, pos: &Position, p: PowerId) -> Vec<String> {
    let mut lines = Vec::new();
    match pos.phase.kind {
        PhaseKind::Movement => {
            for (i, u) in pos.units.iter().filter(|u| u.power == p).enumerate() {
                let unit = format_unit(&v.map, Some(u.kind), Place::of_region(&v.map, u.region));
                let to = (i == 0)
                    .then(|| {
                        v.map.borders(u.region).iter().find_map(|&(r, _)| {
                            let place = Place::of_region(&v.map, r);
                            let prov = v.map.province_of(r);
                            (place.coast.is_none()
                                && v.map.reaches(u.region, prov, u.kind)
                                && pos.unit_in(&v.map, prov).is_none())
                            .then(|| v.map.province(prov).abbr.clone())
                        })
                    })
                    .flatten();
                match to {
                    Some(to) => lines.push(format!("{unit}-{to}")),
                    None => lines.push(format!("{unit} H")),
                }
                if lines.len() == 3 {
                    break;
                }
            }
        }
        PhaseKind::Retreat => {
            for (u, opts) in pos.dislodged.iter().filter(|(u, _)| u.power == p) {
                let unit = format_unit(&v.map, Some(u.kind), Place::of_region(&v.map, u.region));
                match opts.first() {
                    Some(r) => lines.push(format!(
                        "{unit}-{}",
                        v.map.province(v.map.province_of(*r)).abbr
                    )),
                    None => lines.push(format!("Disband {unit}")),
                }
            }
        }
        PhaseKind::Adjustment | PhaseKind::Placement => lines = adjustments(v, pos, p),
    }
    if lines.is_empty() {
        lines.push("(your orders, one a line)".into());
    }
    lines
}

/// The builds of an example that the judge would accept together, one
/// for each build due (an army and a fleet in turn where both may go, so
/// the reader sees how each is written), or the removals due.
fn adjustments(v: &Variant, pos: &Position, p: PowerId) -> Vec<String> {
    use crate::orders::{AdjustCommand, AdjustOrder, AnyCommand, UnitRef, format_order};
    let due = crate::game::step::due(v, pos)
        .get(p.index())
        .copied()
        .unwrap_or(0);
    let mut made: Vec<AdjustOrder> = Vec::new();
    for i in 0..due.max(0) {
        let kinds = if i % 2 == 0 {
            [UnitKind::Army, UnitKind::Fleet]
        } else {
            [UnitKind::Fleet, UnitKind::Army]
        };
        let next = kinds.iter().find_map(|k| {
            crate::game::check::free_build_places(v, pos, p, Some(*k), &made)
                .first()
                .map(|at| AdjustCommand::Build {
                    kind: Some(*k),
                    at: *at,
                })
        });
        let Some(command) = next else {
            break;
        };
        made.push(AdjustOrder { power: p, command });
    }
    let mut lines: Vec<String> = made
        .iter()
        .map(|o| format_order(&v.map, &AnyCommand::Adjust(o.command)))
        .collect();
    let removals = usize::try_from(-due.min(0)).unwrap_or(0);
    for u in pos.units.iter().filter(|u| u.power == p).take(removals) {
        let unit = UnitRef {
            kind: Some(u.kind),
            at: Place::of_region(&v.map, u.region),
        };
        lines.push(format_order(
            &v.map,
            &AnyCommand::Adjust(AdjustCommand::Remove { unit }),
        ));
    }
    lines
}

/// The map of `pos` as `viewer` may see it, as a PNG (or the SVG, should
/// drawing fail), each distinct view drawn once.
pub(crate) fn map_picture(
    judge: &mut Judge,
    v: &Variant,
    pos: &Position,
    g: &GameRow,
    viewer: Viewer,
    drawn: &mut Vec<(Viewer, Vec<crate::mail::Attached>)>,
) -> Vec<crate::mail::Attached> {
    // Where nothing is hidden every reader sees the same picture.
    let viewer = v.copy_for(viewer, Viewer::Public);
    if let Some((_, a)) = drawn.iter().find(|(w, _)| *w == viewer) {
        return a.clone();
    }
    let title = format!("{}: {}", g.name, v.calendar.label(pos.phase));
    let file = format!("{}-{}", g.name, v.calendar.short(pos.phase));
    let picture = judge.picture(v);
    let a = play::board_picture(&picture, pos, &title, &file, viewer);
    drawn.push((viewer, vec![a]));
    drawn.last().map(|(_, a)| a.clone()).unwrap_or_default()
}
