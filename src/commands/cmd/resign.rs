//! RESIGN: leave the game for good. It must name the game it resigns
//! (`RESIGN g1`), alone on its line: a sentence that starts with "Resign"
//! is chat. njudge's WITHDRAW is RESIGN; DPjudge's RESIGN in place of a
//! sign-on (`RESIGN austria@game password`, `RESIGN Agame password`) signs
//! on and resigns. The GM removes a player with EJECT (DPjudge's GM
//! RESIGN power).

use crate::commands::command::{Anyone, Args, Command, PlayerSeat, Secret, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Ctx, Judge, Session, load, mail_to};
use crate::game::record::SeatStatus;
use crate::store::games;

/// RESIGN game, or DPjudge's RESIGN seat password.
pub(crate) enum Resign {
    /// After a sign-on: the game named, if it was.
    Game(Option<String>),
    /// DPjudge's: a seat and its password, in place of a sign-on.
    Seat(super::signon::Seat),
}

impl Command for Resign {
    const SPEC: Spec = Spec {
        grave: true,
        also: &["WITHDRAW"],
        secret: Secret::Varies,
        ..Spec::new(
            "RESIGN",
            "RESIGN game",
            "Leave the game for good (name the game to confirm); the GM finds a replacement.",
        )
    };
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        if let [seat, pw] = args.words.as_slice() {
            return super::signon::read_seat(&[seat.clone(), pw.clone()]).map(Resign::Seat);
        }
        match args.bare().words.as_slice() {
            [] => Ok(Resign::Game(None)),
            [g] => Ok(Resign::Game(Some(g.clone()))),
            _ => Err("write RESIGN game, with nothing else on the line".into()),
        }
    }
    fn secret_at(args: &Args) -> Option<usize> {
        (args.len() == 2).then_some(1)
    }
    fn shown_for() -> crate::commands::command::Who {
        crate::commands::command::Who::Player
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        let named = match self {
            Resign::Seat(seat) => {
                if seat.power.is_none() {
                    return Err("the GM cannot resign; another GM takes over with TAKEOVER \
                         master@game password"
                        .into());
                }
                super::signon::sign_on(judge, s, &seat)?;
                Some(seat.game)
            }
            Resign::Game(named) => named,
        };
        let seat = match &s.ctx {
            Ctx::Power { game, power } => PlayerSeat {
                game: game.clone(),
                power: *power,
            },
            Ctx::Gm { .. } => {
                return Err(
                    "the GM removes a player with EJECT power (and seats a new one with \
                     REPLACE power address)"
                        .into(),
                );
            }
            Ctx::None => {
                return Err("sign on as a power first (SIGNON power game password)".into());
            }
        };
        let game = &seat.game;
        match &named {
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
        // Told to the player when the sign-on came from another address.
        s.checks
            .acted(game, Some(seat.power), &format!("RESIGN {game}"));
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
