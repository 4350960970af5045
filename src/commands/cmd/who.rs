//! WHO: a game's roster, in the spirit of njudge's WHOGAME: each power,
//! who plays it (the name they chose) and how it stands, the players it
//! had before, and absences announced. Addresses are shown only to the GM,
//! or to everybody when the GM lets the roster show them (`SET ROSTER
//! ADDRESSES`): a player's address is theirs to give.

use crate::commands::command::{Anyone, Args, Command, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Ctx, Judge, Session, load, time};
use crate::game::record::SeatStatus;
use crate::map::PowerId;
use crate::store::{games, roster};
use std::fmt::Write;

/// WHO [game] [FULL].
pub(crate) enum Who {
    /// A game's roster (`None`: the game the sender is signed on to);
    /// `full`: its observers too (njudge's `WHO GAME name FULL`).
    Roster {
        /// The game.
        game: Option<String>,
        /// Observers too.
        full: bool,
    },
    /// njudge's `WHO IS user` and `WHO user` (its register): refused.
    Register,
}

impl Command for Who {
    const SPEC: Spec = Spec {
        also: &["WHOGAME"],
        ..Spec::new(
            "WHO",
            "WHO [game] [FULL]  (also WHOGAME [game], WHO GAME [game] [FULL])",
            "Who plays which power in a game (yours after SIGNON), and who played it before.",
        )
    };
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        // njudge players write `WHOGAME` alone after a sign-on, and some
        // `WHO GAME name`: the word GAME is the command's, not a game's.
        let mut words = args.bare().words;
        // njudge's FULL (observers too) ends the line.
        let full = words.len() > 1 && words.last().is_some_and(|w| w.eq_ignore_ascii_case("full"));
        if full {
            words.pop();
        }
        let roster = |game: Option<&String>| Who::Roster {
            game: game.cloned(),
            full,
        };
        match words.as_slice() {
            [] => Ok(roster(None)),
            [w] if w.eq_ignore_ascii_case("game") => Ok(roster(None)),
            [w] if w.eq_ignore_ascii_case("full") => Ok(Who::Roster {
                game: None,
                full: true,
            }),
            [w, g] if w.eq_ignore_ascii_case("game") => Ok(roster(Some(g))),
            [w, _, ..] if w.eq_ignore_ascii_case("is") => Ok(Who::Register),
            [u, ..] if u.contains('@') => Ok(Who::Register),
            [g] => Ok(roster(Some(g))),
            _ => Err("write WHO game".into()),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        let (game, full) = match self {
            Who::Roster { game, full } => (game, full),
            Who::Register => {
                return Err(
                    "njudge's WHO IS: this judge keeps no register of players; WHO game \
                            shows a game's players (their names, and who played before)"
                        .into(),
                );
            }
        };
        let name = match (game, &s.ctx) {
            (Some(g), _) => g,
            (None, Ctx::Gm { game } | Ctx::Power { game, .. }) => game.clone(),
            (None, Ctx::None) => {
                return Err(
                    "write WHO game (or SIGNON first: then WHO alone names your game)".into(),
                );
            }
        };
        let g = load(s.tx, &name)?;
        let v = judge.variant(&g.variant)?;
        let gm = matches!(&s.ctx, Ctx::Gm { game } if game.eq_ignore_ascii_case(&g.name));
        let addresses = gm || g.settings.roster_addresses;
        let mut text = roster_text(s.tx, &v, &g, addresses, s.now)?;
        if full {
            let watching = games::observers(s.tx, &g.name)?;
            let _ = writeln!(
                text,
                "  Observers: {}{}",
                watching.len(),
                if addresses && !watching.is_empty() {
                    format!(" ({})", watching.join(", "))
                } else {
                    String::new()
                }
            );
        }
        s.say(&text);
        Ok(())
    }
}

/// Who plays `seat`, as the roster shows it: the name the player chose
/// (cleaned of what a reader cannot see, whatever an older judge kept),
/// with the address when `addresses`; "nobody" for an empty seat.
pub(crate) fn player(seat: &crate::game::record::Seat, addresses: bool) -> String {
    let shown = seat.name.as_deref().map(crate::trust::names::clean);
    match (&seat.address, &shown) {
        (None, _) => "nobody".to_string(),
        (Some(a), Some(n)) if addresses => format!("{n} <{a}>"),
        (Some(a), None) if addresses => format!("<{a}>"),
        (Some(_), Some(n)) => n.clone(),
        (Some(_), None) => "(no name given)".to_string(),
    }
}

/// The roster of `g`: one line per power (its player's name and how the
/// power stands), the players it had before, and absences to come.
/// `addresses`: show players' addresses too.
pub(crate) fn roster_text(
    c: &crate::store::Conn,
    v: &crate::variant::Variant,
    g: &games::GameRow,
    addresses: bool,
    now: i64,
) -> CmdResult<String> {
    let seats = games::seats(c, &g.name)?;
    let players = roster::players(c, &g.name)?;
    let tz = &g.settings.timezone;
    let width = v
        .map
        .power_ids()
        .map(|p| v.map.power(p).name.chars().count())
        .max()
        .unwrap_or(8);
    let mut t = format!("  Roster of {} ({}):\n", g.name, v.title);
    for seat in &seats {
        let p = PowerId(seat.power);
        let status = match seat.status {
            SeatStatus::Playing => "",
            SeatStatus::Open => " (open)",
            SeatStatus::Abandoned => " (open: a replacement is wanted)",
            SeatStatus::Eliminated => " (eliminated)",
            SeatStatus::NotInGame => " (not in this game)",
            SeatStatus::Disorder => " (in civil disorder)",
            SeatStatus::Dummy => " (dummy: nobody plays it)",
        };
        let who = player(seat, addresses);
        let _ = writeln!(t, "    {:<width$}  {who}{status}", v.map.power(p).name,);
        for earlier in players
            .iter()
            .filter(|x| x.power == seat.power && x.to_at.is_some())
        {
            let earlier_name = earlier.name.as_deref().map(crate::trust::names::clean);
            let name = match (&earlier_name, addresses) {
                (Some(n), true) => format!("{n} <{}>", earlier.address),
                (None, true) => format!("<{}>", earlier.address),
                (Some(n), false) => n.clone(),
                (None, false) => "a player".to_string(),
            };
            let _ = writeln!(
                t,
                "      before: {name}, {} to {}{}",
                day(earlier.from_at, tz),
                earlier.to_at.map_or(String::new(), |x| day(x, tz)),
                earlier
                    .how
                    .as_deref()
                    .map_or(String::new(), |h| format!(" ({h})")),
            );
        }
    }
    let away = roster::absences(c, &g.name, now)?;
    if !away.is_empty() {
        t.push_str("  Absences announced:\n");
        for a in away {
            let _ = writeln!(
                t,
                "    {}: {} to {}",
                v.map.power(PowerId(a.power)).name,
                time::show(a.from_at, tz),
                time::show(a.to_at, tz)
            );
        }
    }
    Ok(t)
}

/// A day as the roster shows it: `28 Nov 2026`.
fn day(t: i64, tz: &str) -> String {
    let full = time::show(t, tz);
    // `Sat 28 Nov 2026 18:00 GMT` -> `28 Nov 2026`.
    full.split_whitespace()
        .skip(1)
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}
