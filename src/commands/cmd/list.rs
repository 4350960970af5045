//! LIST: the games, or one game in detail.

use crate::commands::error::CmdResult;
use crate::commands::registry::{Anyone, Args, Command, Spec};
use crate::commands::{Judge, Session, load, position, time};
use crate::game::record::{Nmr, Press, SeatStatus, Status, Style};
use crate::map::PowerId;
use crate::store::games;
use std::fmt::Write;

/// LIST [game].
pub struct List(Option<String>);

impl Command for List {
    const SPEC: Spec = Spec::new(
        "LIST",
        "LIST [game]",
        "The games (variant, phase, deadline, open powers), or one game in detail.",
    );
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [] => Ok(List(None)),
            [g] => Ok(List(Some(g.clone()))),
            _ => Err("write LIST, or LIST game".into()),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        match self.0 {
            None => list_all(judge, s),
            Some(g) => list_one(judge, s, &g),
        }
    }
}

fn list_all(judge: &mut Judge, s: &mut Session<'_, '_>) -> CmdResult {
    let all = games::list(s.tx)?;
    if all.is_empty() {
        s.say("  No games yet. CREATE one: CREATE name variant password.");
        return Ok(());
    }
    let mut t = String::new();
    for g in all {
        let Ok(v) = judge.variant(&g.variant) else {
            continue;
        };
        let phase = crate::game::Position::stored_phase(&g.position)
            .or_else(|| position(&v, &g).ok().map(|p| v.calendar.label(p.phase)))
            .unwrap_or_default();
        let seats = games::seats(s.tx, &g.name)?;
        let open: Vec<&str> = seats
            .iter()
            .filter(|x| matches!(x.status, SeatStatus::Open | SeatStatus::Abandoned))
            .map(|x| v.map.power(PowerId(x.power)).name.as_str())
            .collect();
        let _ = writeln!(
            t,
            "  {} ({}), {}: {}",
            g.name,
            g.variant,
            g.status.as_str(),
            phase
        );
        if let Some(d) = g.deadline {
            let _ = writeln!(t, "      deadline {}", time::show(d, &g.settings.timezone));
        }
        if let Some(r) = &g.result {
            let _ = writeln!(t, "      {r}");
        }
        let disorder: Vec<&str> = seats
            .iter()
            .filter(|x| x.status == SeatStatus::Disorder)
            .map(|x| v.map.power(PowerId(x.power)).name.as_str())
            .collect();
        if !disorder.is_empty() && g.status != Status::Finished {
            t.push_str(&crate::report::wrap(
                &format!("      in civil disorder: {}", disorder.join(", ")),
                72,
                "        ",
            ));
        }
        if !open.is_empty() && g.status != Status::Finished {
            t.push_str(&crate::report::wrap(
                &format!("      open: {}", open.join(", ")),
                72,
                "        ",
            ));
        }
    }
    s.say(&t);
    Ok(())
}

fn list_one(judge: &mut Judge, s: &mut Session<'_, '_>, name: &str) -> CmdResult {
    let g = load(s.tx, name)?;
    let (v, pos) = judge.board(&g)?;
    let seats = games::seats(s.tx, &g.name)?;
    let mut t = format!("  {} ({}), {}\n", g.name, v.title, g.status.as_str());
    let _ = writeln!(t, "  Phase: {}", v.calendar.label(pos.phase));
    if let Some(d) = g.deadline {
        let _ = writeln!(t, "  Deadline: {}", time::show(d, &g.settings.timezone));
    }
    if let Some(r) = &g.result {
        let _ = writeln!(t, "  Result: {r}");
    }
    let set = &g.settings;
    let _ = writeln!(
        t,
        "  Settings: movement {}, retreats/adjustments {}, grace {},",
        time::show_duration(set.movement_minutes),
        time::show_duration(set.short_minutes),
        time::show_duration(set.grace_minutes)
    );
    let _ = writeln!(
        t,
        "    reminder {}, NMR {}, press {}, style {}, time zone {}",
        time::show_duration(set.reminder_minutes),
        match set.nmr {
            Nmr::Hold => "hold",
            Nmr::CivilDisorder => "civil disorder",
        },
        match set.press {
            Press::White => "white",
            Press::Grey => "grey",
            Press::None => "none",
        },
        match set.style {
            Style::Zine => "zine",
            Style::Judge => "judge",
        },
        set.timezone
    );
    let counts = pos.centre_counts(&v.map);
    let _ = writeln!(t, "  Powers:");
    for seat in &seats {
        let p = PowerId(seat.power);
        let units = pos.units.iter().filter(|u| u.power == p).count();
        // Centres held off the board and units built but not yet placed
        // (Ard-Ri's Vikings) are the power's too: show them.
        let off = pos.state.reserve.get(p).copied().unwrap_or(0);
        let waiting = pos.state.pending.iter().filter(|u| u.power == p).count();
        let _ = writeln!(
            t,
            "    {:<16} {:<10} centres {:>2}{}, units {:>2}{}",
            v.map.power(p).name,
            seat.status.as_str(),
            counts[p.index()],
            if off > 0 {
                format!(" (+{off} off the board)")
            } else {
                String::new()
            },
            units,
            if waiting > 0 {
                format!(" (+{waiting} waiting to be placed)")
            } else {
                String::new()
            }
        );
    }
    s.say(&t);
    Ok(())
}
