//! BECOME power (njudge): the GM acts for a power for the rest of the mail,
//! as if signed on as it: orders and the player's commands (a draw vote,
//! an absence, a new password for a player who lost theirs). The power's
//! player is told what the GM did. From there on the mail speaks for the
//! power, so no GM command follows it (njudge's rule too). njudge's BECOME
//! MASTER (the only player of a new game makes itself its master) is
//! refused: here the author of CREATE is the GM.

use crate::commands::command::{Args, Command, Gm, Governs, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Ctx, Judge, Session, find_power, load};
use crate::store::games;

/// BECOME power.
pub(crate) struct Become(String);

impl Command for Become {
    const SPEC: Spec = Spec {
        governs: Governs::Orders,
        ..Spec::new(
            "BECOME",
            "BECOME power",
            "Act for a power for the rest of the mail (its orders, its commands); its player is told.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        if a.is_empty() || a.len() > 4 {
            return Err(format!("write {}", Self::SPEC.usage));
        }
        Ok(Become(a.rest(0)))
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        if ["master", "gm", "moderator"]
            .iter()
            .any(|w| self.0.eq_ignore_ascii_case(w))
        {
            return Err(
                "you are this game's GM already (on this judge the author of CREATE is its \
                 GM; njudge's BECOME MASTER has nothing to do here)"
                    .into(),
            );
        }
        let g = load(s.tx, &game)?;
        let v = judge.variant(&g.variant)?;
        let power = find_power(&v, &self.0)?;
        let seats = games::seats(s.tx, &g.name)?;
        let name = v.map.power(power).name.clone();
        s.checks
            .became(&g.name, power, seats[power.index()].address.as_deref());
        s.ctx = Ctx::Power {
            game: g.name.clone(),
            power,
        };
        s.phase_ahead = None;
        s.say(&format!(
            "  You act for {name} in {} for the rest of this mail; its player is told what \
             you do. (GM commands wait for another mail.)",
            g.name
        ));
        Ok(())
    }
}
