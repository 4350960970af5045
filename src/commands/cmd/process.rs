//! PROCESS: the GM adjudicates the current phase now.

use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, load, play};
use crate::game::lifecycle::Trigger;
use crate::game::record::Status;

/// PROCESS [season year phase] (njudge: only if that is the current
/// phase); DPjudge's PROCESS! is the same (this judge's PROCESS never
/// waits for missing orders).
pub(crate) struct Process(Option<String>);

impl Command for Process {
    const SPEC: Spec = Spec {
        also: &["PROCESS!"],
        ..Spec::new(
            "PROCESS",
            "PROCESS [season year phase]",
            "Adjudicate the current phase now (naming the phase, only if it is still the current one).",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        match a.len() {
            0 => Ok(Process(None)),
            1..=3 => Ok(Process(Some(a.rest(0)))),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let g = load(s.tx, &game)?;
        if g.status != Status::Active && g.status != Status::Paused {
            return Err(format!("{game} is not running").into());
        }
        // njudge: "the process command will be ignored unless that is
        // indeed the current phase", lest a phase played meanwhile be
        // followed by the next.
        if let Some(named) = &self.0 {
            let (v, pos) = judge.board(&g)?;
            let phase = crate::commands::later::read_phase(&v, named)?;
            if phase != pos.phase {
                return Err(format!(
                    "PROCESS names {}, but {game} is at {}: nothing was processed",
                    v.calendar.label(phase),
                    v.calendar.label(pos.phase)
                )
                .into());
            }
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
