//! OBSERVE and UNOBSERVE: an observer receives a game's public results.
//! The address registered is the mail's author (From), never a Reply-To.

use crate::commands::error::CmdResult;
use crate::commands::registry::{Anyone, Args, Command, Spec};
use crate::commands::{Judge, Session, load};
use crate::store::games;

/// OBSERVE game.
pub struct Observe(String);

/// UNOBSERVE game.
pub struct Unobserve(String);

fn one_game(args: &Args, spec: &Spec) -> Result<String, String> {
    let a = args.bare();
    match a.words.as_slice() {
        [g] => Ok(g.clone()),
        _ => Err(format!("write {}", spec.usage)),
    }
}

fn observe(s: &mut Session<'_, '_>, game: &str, on: bool) -> CmdResult {
    let g = load(s.tx, game)?;
    games::set_observer(s.tx, &g.name, &s.from.email, on)?;
    s.say(if on {
        "  You will receive this game's results."
    } else {
        "  You will no longer receive this game's results."
    });
    Ok(())
}

impl Command for Observe {
    const SPEC: Spec = Spec {
        registers: true,
        ..Spec::new(
            "OBSERVE",
            "OBSERVE game",
            "Receive a game's results as an observer (UNOBSERVE game to stop).",
        )
    };
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        one_game(args, &Self::SPEC).map(Observe)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        observe(s, &self.0, true)
    }
}

impl Command for Unobserve {
    const SPEC: Spec = Spec::new(
        "UNOBSERVE",
        "UNOBSERVE game",
        "Stop receiving a game's results.",
    );
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        one_game(args, &Self::SPEC).map(Unobserve)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        observe(s, &self.0, false)
    }
}
