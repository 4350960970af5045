//! PAUSE and RESUME: the GM stops and restarts the clock.

use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, load, notify_all, play, time};
use crate::game::record::Status;
use crate::store::games;

/// PAUSE.
pub(crate) struct Pause;

/// RESUME.
pub(crate) struct Resume;

impl Command for Pause {
    const SPEC: Spec = Spec::new("PAUSE", "PAUSE", "Stop the clock.");
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| Pause)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let mut g = load(s.tx, &game)?;
        if g.status != Status::Active {
            return Err(format!("{game} is not running").into());
        }
        g.status = Status::Paused;
        g.deadline = None;
        games::save(s.tx, &g)?;
        s.say("  Paused: the clock is stopped until RESUME.");
        notify_all(
            s,
            &g,
            "paused",
            "The GM has paused the game; the deadline is off.\n",
        )
    }
}

impl Command for Resume {
    const SPEC: Spec = Spec::new(
        "RESUME",
        "RESUME",
        "Restart the clock with a fresh deadline.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| Resume)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let mut g = load(s.tx, &game)?;
        if g.status != Status::Paused {
            return Err(format!("{game} is not paused").into());
        }
        let (_, pos) = judge.board(&g)?;
        g.status = Status::Active;
        g.deadline = Some(play::next_deadline(&g.settings, pos.phase.kind, s.now));
        g.reminded = false;
        g.grace_noticed = false;
        games::save(s.tx, &g)?;
        let d = time::show_deadline(g.deadline.unwrap_or(s.now), &g.settings.timezone);
        s.say(&format!("  Resumed; the deadline is {d}."));
        notify_all(
            s,
            &g,
            "resumed",
            &format!("The game is running again. Deadline: {d}.\n"),
        )
    }
}
