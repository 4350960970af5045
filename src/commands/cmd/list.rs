//! LIST: the games, or one game in detail.

use crate::commands::command::{Anyone, Args, Command, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Ctx, Judge, Session, load, position, time};
use crate::game::record::{Nmr, Press, SeatStatus, Status, Style};
use crate::map::PowerId;
use crate::rules::view::VariantRules;
use crate::store::games;
use crate::variant::features::Viewer;
use std::fmt::Write;

/// LIST, LIST PAGE n, LIST FINISHED [PAGE n], LIST game.
pub(crate) enum List {
    /// The games forming or in play (`finished: false`), or the finished
    /// ones, a page of them.
    Games {
        /// The finished games rather than the others.
        finished: bool,
        /// Which page, from 1.
        page: usize,
    },
    /// One game in detail.
    One(String),
    /// `LIST` alone: after a sign-on, the signed-on game in detail (njudge's
    /// `ply/ LIST`, DPjudge's "the status of a game you have already signed
    /// on to"); else the games.
    Here,
}

/// Games in one reply to LIST: a judge that has run for years holds
/// hundreds, and the whole list made a reply longer than a mail may be
/// (it was cut at 64 KiB, some 600 games).
pub(crate) const PAGE: usize = 40;

/// The word that makes LIST show the finished games (so no game may be
/// called that: see CREATE).
pub(crate) const FINISHED: &str = "finished";
/// njudge's word for the listing of every game: `LIST FULL`.
pub(crate) const FULL: &str = "full";

impl Command for List {
    const SPEC: Spec = Spec::new(
        "LIST",
        "LIST [game | PAGE n | FINISHED [PAGE n]]",
        "The games forming or in play (variant, phase, deadline, open powers), 40 a page; \
         FINISHED: the finished games and their results; or one game in detail, its units \
         and centres (LIST alone after a sign-on: the signed-on game).",
    );
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        const USE: &str =
            "write LIST, LIST PAGE 2, LIST FINISHED, LIST FINISHED PAGE 2, or LIST game";
        let mut words = args.bare().words;
        // njudge's `LIST FULL` asks for every game in detail: this
        // judge's listing of all games is that, so FULL is a word of LIST
        // (never a game's name: CREATE refuses it).
        if words.first().is_some_and(|f| f.eq_ignore_ascii_case(FULL)) {
            words.remove(0);
        }
        let (finished, rest) = match words.split_first() {
            Some((f, rest)) if f.eq_ignore_ascii_case(FINISHED) => (true, rest),
            _ => (false, words.as_slice()),
        };
        match rest {
            [] if !finished && args.bare().is_empty() => Ok(List::Here),
            [] => Ok(List::Games { finished, page: 1 }),
            [p, n] if p.eq_ignore_ascii_case("page") => match n.parse::<usize>() {
                Ok(page) if page >= 1 => Ok(List::Games { finished, page }),
                _ => Err(format!("a page is a number from 1: {USE}")),
            },
            [g] if !finished => Ok(List::One(g.clone())),
            _ => Err(USE.into()),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        match self {
            List::Games { finished, page } => list_all(judge, s, finished, page),
            List::One(g) => list_one(judge, s, &g),
            List::Here => match &s.ctx {
                Ctx::Power { game, .. } | Ctx::Gm { game } => {
                    let game = game.clone();
                    list_one(judge, s, &game)
                }
                Ctx::None => list_all(judge, s, false, 1),
            },
        }
    }
}

fn list_all(judge: &mut Judge, s: &mut Session<'_, '_>, finished: bool, page: usize) -> CmdResult {
    let all = games::list(s.tx)?;
    if all.is_empty() {
        s.say("  No games yet. CREATE one: CREATE name variant password.");
        return Ok(());
    }
    let (these, others): (Vec<_>, Vec<_>) = all
        .into_iter()
        .partition(|g| (g.status == Status::Finished) == finished);
    let (what, title) = if finished {
        ("finished games", "Finished games")
    } else {
        ("games forming or in play", "Games forming or in play")
    };
    let pages = these.len().div_ceil(PAGE).max(1);
    if these.is_empty() {
        s.say(&format!("  No {what}."));
    } else if page > pages {
        s.say(&format!(
            "  There are {} {what}: {pages} page{} of {PAGE}.",
            these.len(),
            if pages == 1 { "" } else { "s" }
        ));
    }
    let first = (page - 1) * PAGE;
    let shown = these.len().saturating_sub(first).min(PAGE);
    let mut t = String::new();
    for g in these.iter().skip(first).take(PAGE) {
        let Ok(v) = judge.variant(&g.variant) else {
            continue;
        };
        let phase = public_phase(&v, g);
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
            let _ = writeln!(
                t,
                "      deadline {}",
                time::show_deadline(d, &g.settings.timezone)
            );
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
    let finished_word = if finished { " FINISHED" } else { "" };
    if shown > 0 && these.len() > PAGE {
        let _ = write!(
            t,
            "  {title}: {}-{} of {}",
            first + 1,
            first + shown,
            these.len()
        );
        if page < pages {
            let _ = write!(t, "; next: LIST{finished_word} PAGE {}", page + 1);
        }
        t.push('\n');
    }
    let n_others = others.len();
    if !finished && n_others > 0 {
        let _ = writeln!(
            t,
            "  and {n_others} finished game{}: LIST FINISHED",
            if n_others == 1 { "" } else { "s" }
        );
    }
    if !t.is_empty() {
        s.say(&t);
    }
    Ok(())
}

/// The phase LIST names for `g` to anyone: its own, read from the stored
/// position's phase line alone (a judge of a thousand games reads no
/// thousand boards), unless it could be a retreat of hidden units only
/// (1066 rule 5: a retreat in a variant that hides places, see
/// `View::may_miss_phase`). Then the board is read, and the phase is the
/// one the public is told of, as in LIST game and SUMMARY: the phase after
/// a retreat only hidden units take part in, which would tell that
/// something hidden was dislodged.
fn public_phase(v: &crate::variant::Variant, g: &games::GameRow) -> String {
    use crate::rules::view::View;
    use crate::variant::features::Viewer;
    let stored = crate::game::Position::stored_phase(&g.position);
    let read = stored.as_deref().and_then(|l| v.calendar.parse(l).ok());
    if let (Some(label), Some(p)) = (&stored, read)
        && !View::new(v, p, Viewer::Public).may_miss_phase()
    {
        return label.clone();
    }
    match position(v, g) {
        Ok(pos) => v
            .calendar
            .label(View::of(v, &pos, Viewer::Public).phase_shown(&pos)),
        Err(_) => stored.unwrap_or_default(),
    }
}

fn list_one(judge: &mut Judge, s: &mut Session<'_, '_>, name: &str) -> CmdResult {
    let g = load(s.tx, name)?;
    let (v, pos) = judge.board(&g)?;
    let seats = games::seats(s.tx, &g.name)?;
    let mut t = format!("  {} ({}), {}\n", g.name, v.title, g.status.as_str());
    // LIST is public: a retreat of hidden units only (1066 rule 5) is not
    // told, the game is said to be in the phase after it.
    let public = crate::rules::view::View::of(&v, &pos, crate::variant::features::Viewer::Public);
    let _ = writeln!(t, "  Phase: {}", v.calendar.label(public.phase_shown(&pos)));
    if let Some(d) = g.deadline {
        let _ = writeln!(
            t,
            "  Deadline: {}",
            time::show_deadline(d, &g.settings.timezone)
        );
    }
    if let Some(r) = &g.result {
        let _ = writeln!(t, "  Result: {r}");
    }
    let set = &g.settings;
    let _ = writeln!(
        t,
        "  Settings: movement {}, retreats {}, adjustments {}, grace {},",
        time::show_duration(set.movement_minutes),
        time::show_duration(set.short_minutes),
        time::show_duration(set.adjustment_minutes.unwrap_or(set.short_minutes)),
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
    let clock = match set.deadline_time {
        Some(m) => format!(
            "deadlines at {:02}:{:02}, {}",
            m / 60,
            m % 60,
            set.weekdays.show()
        ),
        None if set.weekdays.0 & 0x7f != 0 => format!("deadlines {}", set.weekdays.show()),
        None => "no game clock".to_string(),
    };
    let _ = writeln!(
        t,
        "    {clock}; early when {}; powers given {}",
        match set.early {
            crate::game::record::Early::Complete => "orders are complete",
            crate::game::record::Early::Ready => "all are READY",
        },
        match set.assignment {
            crate::game::record::Assignment::Preference => "by preference",
            crate::game::record::Assignment::FirstCome => "first come",
            crate::game::record::Assignment::Gm => "by the GM",
        }
    );
    let counts = pos.centre_counts(&v.map);
    let _ = writeln!(t, "  Powers:");
    // Columns as wide as the longest name and state, so that "The
    // Northern Earls" and "civil disorder" keep the rows in line.
    let name_w = seats
        .iter()
        .map(|x| v.map.power(PowerId(x.power)).name.chars().count())
        .max()
        .unwrap_or(0);
    let state_w = seats
        .iter()
        .map(|x| x.status.as_str().len())
        .max()
        .unwrap_or(0);
    for seat in &seats {
        let p = PowerId(seat.power);
        // A unit dislodged where it is hidden is still counted: its place
        // is secret, not that the power has it. Each unit counts as the
        // results' chart counts it (1000 AD's 3D as the two its centres
        // keep, an A/F with an army aboard as two), so LIST and the chart
        // agree.
        let weight = |u: &crate::map::Unit| crate::rules::army_fleet::units_in(&*v, u);
        let units: i64 = pos
            .units
            .iter()
            .filter(|u| u.power == p)
            .map(weight)
            .sum::<i64>()
            + pos
                .dislodged
                .iter()
                .filter(|(u, _)| u.power == p && public.hides_unit(u))
                .map(|(u, _)| weight(u))
                .sum::<i64>();
        // Centres held off the board and units built but not yet placed
        // (Ard-Ri's Vikings) are the power's too: show them.
        let off = pos.state.reserve.get(p).copied().unwrap_or(0);
        let waiting = pos.state.pending.iter().filter(|u| u.power == p).count();
        // Centres a rule counts for builds (a partisan site), named as
        // the chart names them.
        let beyond: String = v
            .centres_beyond_named(&pos.owners, p)
            .iter()
            .map(|b| format!(" (+{b})"))
            .collect();
        let _ = writeln!(
            t,
            "    {:<name_w$}  {:<state_w$}  centres {:>2}{}{beyond}, units {:>2}{}",
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
    // njudge: "the full report for that game ... along with unit positions
    // and supply center holdings", as the reader may see them.
    let viewer = match &s.ctx {
        Ctx::Power { game, power } if game.eq_ignore_ascii_case(&g.name) => Viewer::Power(*power),
        Ctx::Gm { game } if game.eq_ignore_ascii_case(&g.name) => Viewer::Gm,
        _ => Viewer::Public,
    };
    if g.status != Status::Forming {
        let board = crate::report::board::board(&v, &pos, viewer);
        let text = judge
            .templates
            .text("board.txt", &serde_json::json!({ "board": board }))
            .map_err(anyhow::Error::from)?;
        t.push('\n');
        for line in text.lines() {
            let _ = writeln!(t, "  {line}");
        }
    }
    s.say(&t);
    Ok(())
}
