//! OBSERVE and UNOBSERVE: an observer receives a game's public results.
//! The address registered is the mail's author (From), never a Reply-To.
//!
//! njudge's `OBSERVE game password` and `WATCH game password`, and
//! DPjudge's `OBSERVE name@game password` and `MONITOR name@game
//! password`, are read too: observers here need no password (it is masked
//! and not kept) and have no name of their own.

use crate::commands::command::{Anyone, Args, Command, Secret, Spec, game_words};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, load};
use crate::store::games;

/// OBSERVE game, with what the other judges' forms add (a password, a
/// name), not kept.
pub(crate) struct Observe {
    game: String,
    /// The other judges' form was used: the reply says what was not kept.
    extra: bool,
}

/// UNOBSERVE game.
pub(crate) struct Unobserve(String);

fn one_game(args: &Args, spec: &Spec) -> Result<String, String> {
    let a = args.bare();
    match a.words.as_slice() {
        [g] => Ok(g.clone()),
        _ => Err(format!("write {}", spec.usage)),
    }
}

fn observe(s: &mut Session<'_, '_>, game: &str, on: bool) -> CmdResult {
    let g = load(s.tx, game)?;
    games::set_observer(s.tx, &g.name, &s.sender.from.email, on)?;
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
        secret: Secret::Varies,
        also: &["WATCH", "MONITOR"],
        ..Spec::new(
            "OBSERVE",
            "OBSERVE game",
            "Receive a game's results as an observer (UNOBSERVE game to stop).",
        )
    };
    type Role = Anyone;
    fn registration(&self, _from: &str) -> Option<String> {
        Some(format!(
            "send this address {}'s results, as an observer",
            game_words(&self.game)
        ))
    }
    fn parse(args: &Args) -> Result<Self, String> {
        match args.words.as_slice() {
            // njudge: OBSERVE game password; DPjudge: OBSERVE name@game
            // password.
            [g, _password] => {
                let game = g.rsplit_once('@').map_or(g.as_str(), |(_, game)| game);
                if game.is_empty() {
                    return Err(format!("write {}", Self::SPEC.usage));
                }
                Ok(Observe {
                    game: game.to_string(),
                    extra: true,
                })
            }
            _ => one_game(args, &Self::SPEC).map(|game| Observe { game, extra: false }),
        }
    }
    fn secret_at(args: &Args) -> Option<usize> {
        (args.len() == 2).then_some(1)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        if self.extra {
            s.say("  (Observers need no password and no name here: neither is kept.)");
        }
        observe(s, &self.game, true)
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
