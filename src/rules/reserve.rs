//! Ard-Ri rule 7: the Vikings' centres held off the board, and the units
//! built on them that arrive later.

use super::{Position, Ruleset};
use crate::map::Unit;

/// Units built off the board whose season has come are placed before its
/// moves, each where it was built if nobody stands there; otherwise it is
/// lost (rule 7c). Both kinds are recorded for the results.
pub fn place_arrivals(v: &(impl Ruleset + ?Sized), pos: &mut Position) {
    let map = v.map();
    let due = |u: &Unit| {
        v.features()
            .reserve_of(u.power)
            .is_some_and(|r| r.arrive.is_none_or(|s| s == pos.phase.season))
    };
    let (now, later): (Vec<Unit>, Vec<Unit>) = std::mem::take(&mut pos.state.pending)
        .into_iter()
        .partition(|u| due(u));
    pos.state.pending = later;
    for u in now {
        let p = map.province_of(u.region);
        if pos.units.iter().any(|x| map.province_of(x.region) == p) {
            pos.state.blocked.push(u);
        } else {
            pos.units.push(u);
            pos.state.arrived.push(u);
        }
    }
}
