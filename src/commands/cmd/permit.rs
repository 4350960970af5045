//! PERMIT and REVOKE: let another power's fleets into one's provinces and
//! its supply lines past one's units (1700 AD II rules 8, 9).

use crate::commands::command::{Args, Command, Player, PlayerSeat, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, find_power, load};
use crate::store::games;

/// PERMIT power.
pub(crate) struct Permit(String);

/// REVOKE power.
pub(crate) struct Revoke(String);

fn power_arg(args: &Args, spec: &Spec) -> Result<String, String> {
    let a = args.bare();
    if a.is_empty() || a.len() > 4 {
        return Err(format!("write {}", spec.usage));
    }
    Ok(a.rest(0))
}

fn permit(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    seat: &PlayerSeat,
    other: &str,
    on: bool,
) -> CmdResult {
    let mut g = load(s.tx, &seat.game)?;
    let (v, mut pos) = judge.board(&g)?;
    if !v.map.stacking().fleets_beside_armies {
        return Err(format!("{} has no permissions to give", v.title).into());
    }
    let o = find_power(&v, other)?;
    if o == seat.power {
        return Err("you need no permission of your own".into());
    }
    let list = &mut pos.state.permits[seat.power];
    list.retain(|p| *p != o);
    if on {
        list.push(o);
    }
    g.position = crate::commands::stored(&v, &pos)?;
    games::save(s.tx, &g)?;
    s.say(&format!(
        "  {} {} into your provinces and past your units.",
        v.map.power(o).name,
        if on {
            "may now come"
        } else {
            "may no longer come"
        }
    ));
    Ok(())
}

impl Command for Permit {
    const SPEC: Spec = Spec::new(
        "PERMIT",
        "PERMIT power",
        "Where the game has it (1700 AD II), let a power's fleets into your provinces and its supply lines past your units.",
    );
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        power_arg(args, &Self::SPEC).map(Permit)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        permit(judge, s, &seat, &self.0, true)
    }
}

impl Command for Revoke {
    const SPEC: Spec = Spec::new(
        "REVOKE",
        "REVOKE power",
        "Take back a PERMIT: that power's fleets must leave your provinces.",
    );
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        power_arg(args, &Self::SPEC).map(Revoke)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        permit(judge, s, &seat, &self.0, false)
    }
}
