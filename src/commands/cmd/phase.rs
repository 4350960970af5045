//! PHASE season year phase (njudge): the orders below it, up to the next
//! PHASE line or sign-on, are for that later phase: kept, shown as kept,
//! and read when it comes (see [`crate::commands::later`]). PHASE naming
//! the current phase brings the lines below back to it.

use crate::commands::command::{Args, Command, Governs, Player, PlayerSeat, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, later, load};

/// PHASE season year phase.
pub(crate) struct PhaseAhead(String);

impl Command for PhaseAhead {
    const SPEC: Spec = Spec {
        governs: Governs::Orders,
        ..Spec::new(
            "PHASE",
            "PHASE season year phase  (PHASE Fall 1901 Retreat; orders below it are for that phase)",
            "Send orders ahead: those below it are kept for that later phase and checked when it comes.",
        )
    };
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        if a.is_empty() || a.len() > 4 {
            return Err(format!("write {}", Self::SPEC.usage));
        }
        Ok(PhaseAhead(a.rest(0)))
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        let g = load(s.tx, &seat.game)?;
        let (v, pos) = judge.board(&g)?;
        // Ahead of the phase this player is told the game is in (a
        // retreat of hidden units only is not theirs to know of).
        let (pos, _) = crate::commands::held::played(&v, pos, seat.power);
        let phase = later::read_phase(&v, &self.0)?;
        match later::check_phase(&v, &pos, phase)? {
            None => {
                s.phase_ahead = None;
                s.say(&format!(
                    "  {} is the current phase: the orders below are for it.",
                    v.calendar.label(phase)
                ));
            }
            Some(p) => {
                s.phase_ahead = Some(p);
                s.say(&format!(
                    "  The orders below are kept for {} and checked when it comes; they are \
                     orders for no other phase.",
                    v.calendar.label(p)
                ));
            }
        }
        Ok(())
    }
}
