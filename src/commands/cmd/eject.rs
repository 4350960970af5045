//! EJECT: the GM removes a power's player; the power is open for a
//! replacement.

use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, find_power, load, mail_to};
use crate::game::record::SeatStatus;
use crate::store::games;

/// EJECT power.
pub(crate) struct Eject(String);

impl Command for Eject {
    const SPEC: Spec = Spec::new(
        "EJECT",
        "EJECT power|address",
        "Remove a power's player (or an observer, by address); the power is open for a replacement.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        if a.is_empty() || a.len() > 3 {
            return Err(format!("write {}", Self::SPEC.usage));
        }
        Ok(Eject(a.rest(0)))
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let g = load(s.tx, &game)?;
        let v = judge.variant(&g.variant)?;
        let mut seats = games::seats(s.tx, &game)?;
        // njudge's EJECT email: a player or an observer, by address.
        let pid = if self.0.contains('@') {
            let a = self.0.trim_matches(['<', '>']);
            match seats.iter().find(|x| {
                x.address
                    .as_deref()
                    .is_some_and(|b| b.eq_ignore_ascii_case(a))
            }) {
                Some(x) => crate::map::PowerId(x.power),
                None => {
                    let watching = games::observers(s.tx, &game)?;
                    let Some(w) = watching.iter().find(|b| b.eq_ignore_ascii_case(a)) else {
                        return Err(format!(
                            "nobody with the address {a} plays or observes {game}"
                        )
                        .into());
                    };
                    games::set_observer(s.tx, &game, w, false)?;
                    s.say(&format!("  {w} no longer observes {game}."));
                    return Ok(());
                }
            }
        } else {
            find_power(&v, &self.0)?
        };
        let seat = &mut seats[pid.index()];
        let old = seat.address.take();
        seat.hash = None;
        seat.status = SeatStatus::Abandoned;
        seat.ready = false;
        seat.name = None;
        games::save_seat(s.tx, &game, seat)?;
        crate::store::roster::left(s.tx, &game, pid.0, "ejected", s.now)?;
        tracing::info!(game = %game, power = %v.map.power(pid).name, "a player was ejected");
        let name = &v.map.power(pid).name;
        if let Some(a) = old {
            s.out.extend(mail_to(
                &[a],
                format!("{game}: you no longer play {name}"),
                format!("The GM of {game} has removed you from {name}.\n"),
            ));
        }
        s.say(&format!(
            "  {name} is open; REPLACE {name} address to seat a new player."
        ));
        Ok(())
    }
}
