//! READY and NOT READY: a player's orders are final; the phase is
//! processed early once every player is ready.

use crate::commands::error::{CmdError, CmdResult};
use crate::commands::registry::{Args, Command, Player, PlayerSeat, Spec};
use crate::commands::{Judge, Session, play};
use crate::game::record::SeatStatus;
use crate::store::games;

/// READY.
pub struct Ready;

/// NOT READY.
pub struct NotReady;

fn set_ready(judge: &mut Judge, s: &mut Session<'_, '_>, seat: &PlayerSeat, on: bool) -> CmdResult {
    let mut seats = games::seats(s.tx, &seat.game)?;
    let mine = &mut seats[seat.power.index()];
    if on && mine.status == SeatStatus::Disorder {
        return Err(CmdError::refused(
            "your power is in civil disorder, and READY alone does not bring it \
             back: send orders (in this mail or another) and READY after them",
        ));
    }
    mine.ready = on;
    games::save_seat(s.tx, &seat.game, mine)?;
    s.say(if on {
        "  Ready: the phase is processed as soon as every player is ready."
    } else {
        "  Not ready."
    });
    if on {
        play::process_if_all_ready(judge, s, &seat.game)?;
    }
    Ok(())
}

impl Command for Ready {
    const SPEC: Spec = Spec::new(
        "READY",
        "READY  (NOT READY to take it back)",
        "Your orders are final: the phase is processed early once every player is ready.",
    );
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| Ready)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        set_ready(judge, s, &seat, true)
    }
}

impl Command for NotReady {
    const SPEC: Spec = Spec::new("NOT READY", "NOT READY", "Take back a READY.");
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| NotReady)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        set_ready(judge, s, &seat, false)
    }
}
