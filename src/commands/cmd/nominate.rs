//! NOMINATE: a replacement home centre, where the variant has them (1066
//! rule 6).

use crate::commands::command::{Args, Command, Player, PlayerSeat, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, load};
use crate::store::games;

/// NOMINATE centre.
pub(crate) struct Nominate(String);

impl Command for Nominate {
    const SPEC: Spec = Spec::new(
        "NOMINATE",
        "NOMINATE centre",
        "Where the game allows it (1066), make a neutral centre you hold a home centre in place of one you lost.",
    );
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        if a.is_empty() || a.len() > 4 {
            return Err(format!("write {}", Self::SPEC.usage));
        }
        Ok(Nominate(a.rest(0)))
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        let mut g = load(s.tx, &seat.game)?;
        let (v, mut pos) = judge.board(&g)?;
        let p = match v.map.lookup(&self.0) {
            Some(crate::map::Named::Province(p)) => p,
            Some(crate::map::Named::Region(r)) => v.map.province_of(r),
            None => {
                return Err(
                    format!("unknown place `{}`", crate::mail::header_text(&self.0, 40)).into(),
                );
            }
        };
        crate::game::homes::nominate(&v, &mut pos, seat.power, p).map_err(|e| e.to_string())?;
        g.position = crate::commands::stored(&v, &pos)?;
        games::save(s.tx, &g)?;
        s.say(&format!(
            "  {} is now one of your home centres: you may build there while you hold it.",
            v.map.province(p).name
        ));
        Ok(())
    }
}
