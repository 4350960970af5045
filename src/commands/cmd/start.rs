//! START: the GM starts a game before every power is taken.

use crate::commands::error::CmdResult;
use crate::commands::registry::{Args, Command, Gm, Spec};
use crate::commands::{Judge, Session, load, notify_all, play, time};
use crate::game::record::{SeatStatus, Status};
use crate::map::PowerId;
use crate::store::games::{self, GameRow};
use std::fmt::Write;

/// START.
pub struct Start;

impl Command for Start {
    const SPEC: Spec = Spec::new(
        "START",
        "START",
        "Start the game now; open powers are in civil disorder.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| Start)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let mut g = load(s.tx, &game)?;
        if g.status != Status::Forming {
            return Err(format!("{game} has already started").into());
        }
        start_game(judge, s, &mut g)
    }
}

/// Start `g`: the first deadline, and a mail to everyone.
pub(crate) fn start_game(judge: &mut Judge, s: &mut Session<'_, '_>, g: &mut GameRow) -> CmdResult {
    let (v, pos) = judge.board(g)?;
    g.status = Status::Active;
    g.deadline = Some(play::next_deadline(&g.settings, pos.phase.kind, s.now));
    tracing::info!(
        game = %g.name,
        phase = %v.calendar.short(pos.phase),
        deadline = ?g.deadline.map(|d| crate::time::show(d, "UTC")),
        "game started"
    );
    g.reminded = false;
    g.grace_noticed = false;
    games::save(s.tx, g)?;
    let d = time::show(g.deadline.unwrap_or(s.now), &g.settings.timezone);
    s.say(&format!(
        "  {} has started: {}.\n  Deadline: {d}.",
        g.name,
        v.calendar.label(pos.phase)
    ));
    let seats = games::seats(s.tx, &g.name)?;
    let mut body = format!("{} ({}) has started.\n\nPowers:\n", g.name, v.title);
    for seat in &seats {
        let _ = writeln!(
            body,
            "  {:<16} {}",
            v.map.power(PowerId(seat.power)).name,
            match seat.status {
                SeatStatus::Playing => "taken",
                st if st.left_out_before_start() => "not in this game",
                _ => "civil disorder",
            }
        );
    }
    let _ = writeln!(
        body,
        "\nFirst phase: {}, deadline {d}.",
        v.calendar.label(pos.phase)
    );
    notify_all(s, g, "the game starts", &body)
}
