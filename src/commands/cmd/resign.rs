//! RESIGN: leave the game for good. It must name the game it resigns
//! (`RESIGN g1`), alone on its line: a sentence that starts with "Resign"
//! is chat.

use crate::commands::error::CmdResult;
use crate::commands::registry::{Args, Command, Player, PlayerSeat, Spec};
use crate::commands::{Ctx, Judge, Session, load, mail_to};
use crate::game::record::SeatStatus;
use crate::store::games;

/// RESIGN game.
pub struct Resign(Option<String>);

impl Command for Resign {
    const SPEC: Spec = Spec {
        grave: true,
        ..Spec::new(
            "RESIGN",
            "RESIGN game",
            "Leave the game for good (name the game to confirm); the GM finds a replacement.",
        )
    };
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [] => Ok(Resign(None)),
            [g] => Ok(Resign(Some(g.clone()))),
            _ => Err("write RESIGN game, with nothing else on the line".into()),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        let game = &seat.game;
        match &self.0 {
            Some(named) if named.eq_ignore_ascii_case(game) => {}
            Some(_) => {
                return Err(format!(
                    "you are signed on to {game}; to resign it for good write RESIGN {game}"
                )
                .into());
            }
            None => {
                return Err(format!(
                    "to resign for good, write RESIGN {game} alone on a line (nothing was changed)"
                )
                .into());
            }
        }
        let g = load(s.tx, game)?;
        let v = judge.variant(&g.variant)?;
        let mut seats = games::seats(s.tx, game)?;
        let mine = &mut seats[seat.power.index()];
        mine.status = SeatStatus::Abandoned;
        mine.address = None;
        mine.hash = None;
        mine.ready = false;
        mine.name = None;
        games::save_seat(s.tx, game, mine)?;
        crate::store::roster::left(s.tx, game, seat.power.0, "resigned", s.now)?;
        tracing::info!(game = %game, power = seat.power.0, "a player resigned");
        s.ctx = Ctx::None;
        let name = &v.map.power(seat.power).name;
        s.say(&format!("  You have resigned {name} in {game}."));
        s.out.extend(mail_to(
            &[&g.gm_address],
            format!("{game}: {name} resigned"),
            format!(
                "The player of {name} in {game} resigned. Use REPLACE {name} address to seat a new player.\n"
            ),
        ));
        Ok(())
    }
}
