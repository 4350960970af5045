//! END DRAW and END WIN: the GM ends the game. `End` alone is no command:
//! many players close their orders with it.

use super::draw::finish;
use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, find_power, load};

/// END DRAW.
pub(crate) struct EndDraw;

/// END WIN power.
pub(crate) struct EndWin(String);

impl Command for EndDraw {
    const SPEC: Spec = Spec {
        grave: true,
        ..Spec::new("END DRAW", "END DRAW", "End the game in a draw.")
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| EndDraw)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let mut g = load(s.tx, &game)?;
        finish(judge, s, &mut g, "ended in a draw by the GM")
    }
}

impl Command for EndWin {
    const SPEC: Spec = Spec {
        grave: true,
        ..Spec::new("END WIN", "END WIN power", "End the game with a winner.")
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        if a.is_empty() || a.len() > 3 {
            return Err("write END WIN power".into());
        }
        Ok(EndWin(a.rest(0)))
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let mut g = load(s.tx, &game)?;
        let v = judge.variant(&g.variant)?;
        let p = find_power(&v, &self.0)?;
        let result = format!("won by {} (declared by the GM)", v.map.power(p).name);
        finish(judge, s, &mut g, &result)
    }
}
