//! PROCESS: the GM adjudicates the current phase now.

use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, load, play};
use crate::game::lifecycle::Trigger;
use crate::game::record::Status;

/// PROCESS.
pub(crate) struct Process;

impl Command for Process {
    const SPEC: Spec = Spec::new("PROCESS", "PROCESS", "Adjudicate the current phase now.");
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| Process)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let g = load(s.tx, &game)?;
        if g.status != Status::Active && g.status != Status::Paused {
            return Err(format!("{game} is not running").into());
        }
        // A deadline moved earlier in this mail is moot once the phase is
        // played: its notice would only confuse, and the results give the
        // next deadline.
        let dropped = s.drop_deadline(&g.name);
        // Before the deadline it is early processing: nobody is late, and
        // nobody goes into civil disorder for it.
        let trigger = Trigger::of_gm(s.now, g.deadline);
        play::process(judge, s.tx, &game, s.now, trigger, &mut s.out)?;
        s.say(match trigger {
            Trigger::GmEarly => {
                "  Processed before the deadline: nobody is late for it, and\n  nobody goes into civil disorder. The results are on their way\n  to everyone."
            }
            _ => "  Processed; the results are on their way to everyone.",
        });
        if dropped {
            s.say("  No deadline notice goes out: the results give the next deadline.");
        }
        Ok(())
    }
}
