//! EXCHANGE: an offer to swap centres with another power at the end of the
//! move (Abstraction II rule 6).

use crate::commands::command::{Args, Command, Player, PlayerSeat, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, load};
use crate::store::games;

/// EXCHANGE power centres FOR centres (or NONE).
pub(crate) struct Exchange(Vec<String>);

impl Command for Exchange {
    const SPEC: Spec = Spec::new(
        "EXCHANGE",
        "EXCHANGE power centres FOR centres  (EXCHANGE power NONE withdraws)",
        "Where the game allows it (Abstraction II), swap centres with another power at the end of this move; it must send the matching offer.",
    );
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        let has_for = a.words.iter().any(|w| w.eq_ignore_ascii_case("for"));
        let withdraw = a
            .words
            .last()
            .is_some_and(|w| w.eq_ignore_ascii_case("none"));
        if a.len() < 2 || !(has_for || withdraw) {
            return Err(format!("write {}", Self::SPEC.usage));
        }
        Ok(Exchange(a.words))
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        let mut g = load(s.tx, &seat.game)?;
        let (v, mut pos) = judge.board(&g)?;
        let words: Vec<&str> = self.0.iter().map(String::as_str).collect();
        // The longest run of words naming a power, then the centres.
        let (to, rest) = (1..=words.len().min(4))
            .rev()
            .find_map(|n| {
                v.map
                    .lookup_power(&words[..n].join(" "))
                    .map(|p| (p, &words[n..]))
            })
            .ok_or("EXCHANGE with whom? The line names no power")?;
        let centre = |w: &str| match v.map.lookup(w.trim_matches(',')) {
            Some(crate::map::Named::Province(p)) => Ok(p),
            Some(crate::map::Named::Region(r)) => Ok(v.map.province_of(r)),
            None => Err(format!(
                "unknown place `{}`",
                crate::mail::header_text(w, 40)
            )),
        };
        let withdraw = matches!(rest, [w] if w.eq_ignore_ascii_case("none"));
        let (give, take) = if withdraw {
            (Vec::new(), Vec::new())
        } else {
            let k = rest
                .iter()
                .position(|w| w.eq_ignore_ascii_case("for"))
                .ok_or("write EXCHANGE power centres FOR centres")?;
            let list = |ws: &[&str]| -> Result<Vec<_>, String> {
                ws.iter()
                    .filter(|w| !w.trim_matches(',').is_empty() && !w.eq_ignore_ascii_case("and"))
                    .map(|w| centre(w))
                    .collect()
            };
            (list(&rest[..k])?, list(&rest[k + 1..])?)
        };
        let names = |ps: &[crate::map::ProvinceId]| {
            ps.iter()
                .map(|p| v.map.province(*p).abbr.clone())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let x = crate::game::position::Exchange {
            from: seat.power,
            to,
            give: give.clone(),
            take: take.clone(),
        };
        let waits_on =
            crate::game::exchange::offer(&v, &mut pos, x.clone()).map_err(|e| e.to_string())?;
        // The other side's matching offer may already stand: then the
        // exchange waits on nothing more from either player.
        let matched = pos
            .state
            .offers
            .iter()
            .any(|o| o.from == to && x.matches(o));
        g.position = crate::commands::stored(&v, &pos)?;
        games::save(s.tx, &g)?;
        let other = &v.map.power(to).name;
        if withdraw {
            s.say(&format!("  Your offer to {other} is withdrawn."));
            return Ok(());
        }
        let recorded = format!(
            "Offer to {other} recorded: you give {} for {}.",
            names(&give),
            names(&take)
        );
        if matched {
            s.say(&crate::report::wrap(
                &format!(
                    "{recorded} {other} has sent the matching offer, so the exchange \
                     is carried out at the end of this move."
                ),
                72,
                "  ",
            ));
        } else {
            s.say(&crate::report::wrap(
                &format!(
                    "{recorded} It is carried out at the end of this move if {other} \
                     sends the matching offer:"
                ),
                72,
                "  ",
            ));
            s.say(&format!(
                "    EXCHANGE {} {} FOR {}",
                v.map.power(seat.power).name,
                names(&take),
                names(&give)
            ));
        }
        // Said to the giver: its own unit, which may still leave by the
        // end of the move (rule 6: "if it is still occupying it").
        for w in &waits_on {
            let crate::game::exchange::ExchangeError::Occupied(centre, _) = w else {
                continue;
            };
            s.say(&crate::report::wrap(
                &format!(
                    "For now your own unit stands in {centre}: it must be empty of \
                     your units at the end of the move, or the exchange is not made."
                ),
                72,
                "  ",
            ));
        }
        Ok(())
    }
}
