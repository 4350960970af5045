//! CONCEDE and NO CONCEDE: concede victory to a power; it wins when every
//! other survivor concedes to it. CONCEDE must be exactly its form. njudge's
//! SET CONCEDE A (and SET CONC A) and SET NO CONCEDE are the same; the
//! power is a name of any number of words, an alias or a letter.

use super::draw::{Vote, vote};
use crate::commands::command::{Args, Command, Player, PlayerSeat, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, find_power, load};

/// CONCEDE power.
pub(crate) struct Concede(String);

/// NO CONCEDE.
pub(crate) struct NoConcede;

impl Command for Concede {
    const SPEC: Spec = Spec {
        grave: true,
        also: &["SET CONCEDE", "SET CONC", "SET CONCESSION"],
        ..Spec::new(
            "CONCEDE",
            "CONCEDE power  (NO CONCEDE to take it back)",
            "Concede victory to a power; it wins when every other survivor concedes to it.",
        )
    };
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        if a.is_empty() || a.len() > 4 {
            return Err("write CONCEDE power, with nothing else on the line".into());
        }
        Ok(Concede(a.rest(0)))
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        let g = load(s.tx, &seat.game)?;
        let v = judge.variant(&g.variant)?;
        let p = find_power(&v, &self.0)?;
        vote(judge, s, &seat, Vote::Concede(Some(p)))
    }
}

impl Command for NoConcede {
    const SPEC: Spec = Spec {
        also: &[
            "SET NO CONCEDE",
            "SET NO CONC",
            "SET NOCONCEDE",
            "SET NOCONC",
        ],
        ..Spec::new("NO CONCEDE", "NO CONCEDE", "Take back a concession.")
    };
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| NoConcede)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        vote(judge, s, &seat, Vote::Concede(None))
    }
}
