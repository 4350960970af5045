//! Abstraction II rule 3: an army carried by its own fleet makes one unit,
//! the A/F. These are the steps between phases that keep A/Fs whole: what
//! a dislodged A/F leaves behind and where a dislodged army may go.

use super::{Position, Ruleset};
use crate::adjudicate::movement::MovementResult;
use crate::map::{Terrain, Unit, UnitKind};

/// How many units `u` is: an A/F that is a fleet with an army aboard is
/// two (an army and a fleet), wherever units are counted (the results'
/// chart, the final count of rule 7); anything else is one.
pub(crate) fn units_in(v: &(impl Ruleset + ?Sized), u: &Unit) -> i64 {
    v.features().units_in(u)
}

/// After a move: armies landed from dislodged A/Fs stand on the board, and
/// a dislodged army may also retreat onto an adjacent fleet of its own at
/// sea.
pub(crate) fn board_retreats(
    v: &(impl Ruleset + ?Sized),
    r: &MovementResult,
    before: &[Unit],
    next: &mut Position,
) {
    let map = v.map();
    next.units.extend(r.landed_from_dislodged(before));
    let fleets: Vec<Unit> = next
        .units
        .iter()
        .copied()
        .filter(|u| u.kind == UnitKind::Fleet)
        .filter(|u| map.province(map.province_of(u.region)).terrain == Terrain::Sea)
        .collect();
    for (u, options) in &mut next.dislodged {
        if u.kind != UnitKind::Army {
            continue;
        }
        let from = map.province(map.province_of(u.region)).main_region();
        for f in fleets.iter().filter(|f| f.power == u.power) {
            if map.reaches(from, map.province_of(f.region), UnitKind::Fleet)
                && !options.contains(&f.region)
            {
                options.push(f.region);
            }
        }
    }
}

/// After retreats: an army that retreated onto its fleet at sea makes an
/// A/F; an A/F that retreated to a coast is a fleet, its army lost.
pub(crate) fn settle(v: &(impl Ruleset + ?Sized), units: &mut Vec<Unit>) {
    let map = v.map();
    let sea = |u: &Unit| map.province(map.province_of(u.region)).terrain == Terrain::Sea;
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        if u.kind == UnitKind::Army && sea(&u) {
            if let Some(f) = units.iter().position(|f| {
                f.kind == UnitKind::Fleet && f.power == u.power && f.region == u.region
            }) {
                units[f].kind = UnitKind::ArmyFleet;
            }
            units.remove(i);
            continue;
        }
        if u.kind == UnitKind::ArmyFleet && !sea(&u) {
            units[i].kind = UnitKind::Fleet;
        }
        i += 1;
    }
}
