//! READY and NOT READY, SET WAIT and SET NOWAIT: when a player's orders
//! let the phase go early. As on njudge, complete orders are ready unless
//! the player said WAIT; READY says so outright (and is what counts when
//! the GM chose `SET EARLY READY`). The phase goes once every player is
//! ready, when the mail is done (see `Session::settle`).

use crate::commands::command::{Args, Command, Player, PlayerSeat, Spec};
use crate::commands::error::{CmdError, CmdResult};
use crate::commands::{Judge, Session};
use crate::game::record::SeatStatus;
use crate::store::games;

/// READY.
pub(crate) struct Ready;

/// NOT READY.
pub(crate) struct NotReady;

fn set_ready(judge: &mut Judge, s: &mut Session<'_, '_>, seat: &PlayerSeat, on: bool) -> CmdResult {
    let mut seats = games::seats(s.tx, &seat.game)?;
    let mine = &mut seats[seat.power.index()];
    if on && mine.status == SeatStatus::Disorder {
        return Err(CmdError::refused(
            "your power is in civil disorder, and READY alone does not bring it \
             back: send orders (in this mail or another) and READY after them",
        ));
    }
    let _ = judge;
    mine.ready = on;
    games::save_seat(s.tx, &seat.game, mine)?;
    s.say(if on {
        "  Ready: the phase is processed as soon as every player is ready."
    } else if mine.wait {
        "  Not ready: the phase waits for you until the deadline."
    } else {
        "  Not ready. (Complete orders count as ready again unless you\n  also SET WAIT.)"
    });
    s.stir(&seat.game);
    Ok(())
}

/// SET WAIT.
pub(crate) struct SetWait;

/// SET NOWAIT.
pub(crate) struct SetNoWait;

fn set_wait(s: &mut Session<'_, '_>, seat: &PlayerSeat, on: bool) -> CmdResult {
    let mut seats = games::seats(s.tx, &seat.game)?;
    let mine = &mut seats[seat.power.index()];
    mine.wait = on;
    games::save_seat(s.tx, &seat.game, mine)?;
    s.say(if on {
        "  Wait: the phase waits for you until the deadline, however\n  complete your orders, unless you send READY (or SET NOWAIT)."
    } else {
        "  No wait: once your orders are complete you are ready, and the\n  phase goes as soon as every player is."
    });
    s.stir(&seat.game);
    Ok(())
}

impl Command for SetWait {
    const SPEC: Spec = Spec::new(
        "SET WAIT",
        "SET WAIT  (SET NOWAIT to take it back)",
        "Hold the phase until the deadline even when your orders are complete (READY still lets it go).",
    );
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| SetWait)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        set_wait(s, &seat, true)
    }
}

impl Command for SetNoWait {
    const SPEC: Spec = Spec {
        also: &["SET NO WAIT"],
        ..Spec::new(
            "SET NOWAIT",
            "SET NOWAIT",
            "Take back SET WAIT: complete orders make you ready again.",
        )
    };
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| SetNoWait)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        set_wait(s, &seat, false)
    }
}

impl Command for Ready {
    const SPEC: Spec = Spec::new(
        "READY",
        "READY  (NOT READY to take it back)",
        "Your orders are final: the phase goes early once every player is ready.",
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
