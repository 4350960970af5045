//! The other judges' words for the GM's control of a game, as this judge's
//! commands: njudge's FORCE BEGIN is START (open powers are in civil
//! disorder, njudge's "dummy players"); DPjudge's ACTIVATE is START for a
//! forming game and RESUME for a paused one; DPjudge's FORM (let a game
//! take players) has nothing to do, since a game here takes players from
//! CREATE on. njudge's and DPjudge's TERMINATE (end a game with no result)
//! is refused: a game here ends with a result, END DRAW or END WIN.

use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, load};
use crate::game::record::Status;

/// FORCE BEGIN.
pub(crate) struct ForceBegin;
/// ACTIVATE.
pub(crate) struct Activate;
/// FORM.
pub(crate) struct Form;
/// TERMINATE.
pub(crate) struct Terminate;

/// Run this judge's command `C` with no arguments.
fn as_command<C: Command<Role = Gm>>(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    game: String,
) -> CmdResult {
    let c = C::parse(&Args::new(Vec::new()))?;
    c.run(judge, s, game)
}

impl Command for ForceBegin {
    const SPEC: Spec = Spec {
        other_judges: true,
        ..Spec::new(
            "FORCE BEGIN",
            "FORCE BEGIN  (njudge; START)",
            "Start the game now, as START does.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| ForceBegin)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        s.say("  (njudge's FORCE BEGIN is this judge's START.)");
        as_command::<super::start::Start>(judge, s, game)
    }
}

impl Command for Activate {
    const SPEC: Spec = Spec {
        other_judges: true,
        ..Spec::new(
            "ACTIVATE",
            "ACTIVATE  (DPjudge; START or RESUME)",
            "Start a forming game, or restart a paused one.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| Activate)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let g = load(s.tx, &game)?;
        match g.status {
            Status::Forming => {
                s.say("  (DPjudge's ACTIVATE is this judge's START here.)");
                as_command::<super::start::Start>(judge, s, game)
            }
            Status::Paused => {
                s.say("  (DPjudge's ACTIVATE is this judge's RESUME here.)");
                as_command::<super::pause::Resume>(judge, s, game)
            }
            Status::Active => Err(format!("{game} is running already").into()),
            Status::Finished => Err(format!("{game} is over").into()),
        }
    }
}

impl Command for Form {
    const SPEC: Spec = Spec {
        other_judges: true,
        ..Spec::new(
            "FORM",
            "FORM  (DPjudge; nothing to do here)",
            "Let a new game take players: games here take them from CREATE on.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| Form)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let g = load(s.tx, &game)?;
        if g.status != Status::Forming {
            return Err(format!("{game} is no longer taking players").into());
        }
        s.say(&format!(
            "  {game} takes players already (JOIN {game} password): a game here forms as \
             soon as it is created; nothing to do."
        ));
        Ok(())
    }
}

impl Command for Terminate {
    const SPEC: Spec = Spec {
        other_judges: true,
        grave: true,
        ..Spec::new(
            "TERMINATE",
            "TERMINATE  (njudge, DPjudge; not here: END DRAW, END WIN power, PAUSE)",
            "End a game with no result: not on this judge.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| Terminate)
    }
    fn run(self, _: &mut Judge, _: &mut Session<'_, '_>, _: String) -> CmdResult {
        Err(
            "a game here ends with a result: END DRAW (a draw among the survivors) or END \
             WIN power; PAUSE stops the clock until RESUME. Nothing was changed"
                .into(),
        )
    }
}
