//! DRAW and NO DRAW: a vote for a draw among the survivors; the game ends
//! when every survivor votes for it. DRAW must stand alone on its line
//! ("Draw your own conclusions" is chat). njudge's SET DRAW and SET NO DRAW
//! are the same votes; its draw lists (`SET DRAW AEF`, for games whose
//! draws need not include every survivor) are refused: draws here include
//! all survivors.

use crate::commands::command::{Args, Command, Player, PlayerSeat, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, load};
use crate::game::record::Status;
use crate::map::PowerId;
use crate::rules::view::VariantRules;
use crate::store::games::{self, GameRow};

/// DRAW.
pub(crate) struct Draw;

/// NO DRAW.
pub(crate) struct NoDraw;

/// The refusal of njudge's draw list.
fn no_list(args: &Args, name: &str) -> Result<(), String> {
    if args.bare().is_empty() {
        Ok(())
    } else {
        Err(format!(
            "draws in this judge's games include every surviving power (njudge's DIAS): \
             write {name} alone on its line, with no list of powers"
        ))
    }
}

impl Command for Draw {
    const SPEC: Spec = Spec {
        grave: true,
        also: &["SET DRAW"],
        ..Spec::new(
            "DRAW",
            "DRAW  (NO DRAW to take it back)",
            "Vote for a draw among the surviving powers; it ends the game when every survivor votes for it.",
        )
    };
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        no_list(args, "DRAW").map(|_| Draw)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        vote(judge, s, &seat, Vote::Draw(true))
    }
}

impl Command for NoDraw {
    const SPEC: Spec = Spec {
        also: &["SET NO DRAW", "SET NODRAW", "NODRAW"],
        ..Spec::new("NO DRAW", "NO DRAW", "Take back a draw vote.")
    };
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        no_list(args, "NO DRAW").map(|_| NoDraw)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        vote(judge, s, &seat, Vote::Draw(false))
    }
}

/// A vote that may end the game.
pub(crate) enum Vote {
    /// For (or no longer for) a draw.
    Draw(bool),
    /// Concede to a power, or withdraw a concession.
    Concede(Option<PowerId>),
}

/// Record a vote, and end the game when the survivors agree.
pub(crate) fn vote(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    seat: &PlayerSeat,
    vote: Vote,
) -> CmdResult {
    let game = &seat.game;
    let power = seat.power;
    let mut g = load(s.tx, game)?;
    let (v, pos) = judge.board(&g)?;
    let mut seats = games::seats(s.tx, game)?;
    if let (Vote::Draw(true), Some(why)) = (&vote, v.draws_refused()) {
        return Err(why.to_string().into());
    }
    match vote {
        Vote::Draw(on) => {
            seats[power.index()].draw = on;
            s.say(if on {
                "  You vote for a draw."
            } else {
                "  You withdraw your draw vote."
            });
        }
        Vote::Concede(Some(pid)) => {
            if pid == power {
                return Err("you cannot concede to yourself".into());
            }
            seats[power.index()].concede = Some(pid.0);
            s.say(&format!(
                "  You concede victory to {}.",
                v.map.power(pid).name
            ));
        }
        Vote::Concede(None) => {
            seats[power.index()].concede = None;
            s.say("  You withdraw your concession.");
        }
    }
    games::save_seat(s.tx, game, &seats[power.index()])?;
    // Who votes: the surviving powers (with units or centres) that
    // players play; a dummy power has nobody to vote for it.
    let counts = pos.centre_counts(&v.map);
    let alive: Vec<PowerId> = v
        .map
        .power_ids()
        .filter(|p| counts[p.index()] > 0 || pos.units.iter().any(|u| u.power == *p))
        .filter(|p| !v.unplayed(*p))
        .collect();
    if v.draws_refused().is_none() && alive.iter().all(|p| seats[p.index()].draw) {
        let names: Vec<&str> = alive
            .iter()
            .map(|p| v.map.power(*p).name.as_str())
            .collect();
        let result = format!("a draw between {}", names.join(", "));
        return finish(judge, s, &mut g, &result);
    }
    // A concession wins when every other survivor concedes to the same
    // power.
    for &winner in &alive {
        let all = alive
            .iter()
            .filter(|p| **p != winner)
            .all(|p| seats[p.index()].concede == Some(winner.0));
        if all && alive.len() > 1 {
            let result = format!("won by {} (the others conceded)", v.map.power(winner).name);
            return finish(judge, s, &mut g, &result);
        }
    }
    Ok(())
}

/// End a game with `result`, telling everyone, with the final chart, who
/// played and the centres year by year.
pub(crate) fn finish(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    g: &mut GameRow,
    result: &str,
) -> CmdResult {
    let (v, pos) = judge.board(g)?;
    g.status = Status::Finished;
    g.deadline = None;
    g.result = Some(result.to_string());
    games::save(s.tx, g)?;
    tracing::info!(game = %g.name, result = %result, "game over");
    s.say(&format!("  The game is over: {result}."));
    let summary = crate::commands::ending::summary(s.tx, &v, g, None, &pos)?;
    let body = format!("The game is over: {result}.\n{summary}");
    // Everybody, the one who ended it too: it is the game's last mail.
    let to = crate::commands::everybody(s.tx, g)?;
    s.out.extend(crate::commands::mail_to(
        &to,
        format!("{}: game over", g.name),
        body,
    ));
    Ok(())
}
