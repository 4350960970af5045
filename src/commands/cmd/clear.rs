//! CLEAR: withdraw all of one's orders for the phase. It must stand alone
//! on its line: "Clear skies over the North Sea" is chat, not CLEAR. Under
//! a PHASE line (njudge), it withdraws the orders kept for that phase.

use crate::commands::command::{Args, Command, Player, PlayerSeat, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, held};
use crate::store::games;

/// CLEAR.
pub(crate) struct Clear;

impl Command for Clear {
    const SPEC: Spec = Spec {
        grave: true,
        ..Spec::new("CLEAR", "CLEAR", "Withdraw all your orders for this phase.")
    };
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| Clear)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        // Below a PHASE line that was refused, CLEAR is for that phase:
        // it withdraws nothing of any other.
        if let Some(line) = &s.void {
            return Err(format!(
                "CLEAR is below \"{line}\", which was not done: nothing was withdrawn"
            )
            .into());
        }
        if let Some(phase) = s.phase_ahead {
            let g = crate::commands::load(s.tx, &seat.game)?;
            let v = judge.variant(&g.variant)?;
            crate::commands::later::clear(s.tx, &v, &g.name, seat.power, phase)?;
            s.say(&format!(
                "  The orders kept for {} are withdrawn.",
                v.calendar.label(phase)
            ));
            return held::show_orders(judge, s, &seat.game, seat.power);
        }
        // Where the phase is one this player may not know of, their
        // orders are those kept for the phase they are told of.
        let g = crate::commands::load(s.tx, &seat.game)?;
        let (v, pos) = judge.board(&g)?;
        match held::played(&v, pos, seat.power).1 {
            Some(phase) => crate::commands::later::clear(s.tx, &v, &g.name, seat.power, phase)?,
            None => games::set_orders(s.tx, &seat.game, seat.power.0, &[])?,
        }
        s.say("  All your orders for this phase are withdrawn.");
        held::show_orders(judge, s, &seat.game, seat.power)
    }
}
