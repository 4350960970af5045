//! 1000 AD rule 13: a power that has lost every home centre has one
//! movement season of grace to retake one; failing that it falls into
//! anarchy for good (its units hold, the judge removes what must go).

use serde::{Deserialize, Serialize};

/// Where a power stands under the anarchy rule.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Anarchy {
    /// It holds a home centre (or the variant has no such rule).
    #[default]
    No,
    /// It has lost them all and has the next movement season to retake
    /// one.
    Grace,
    /// It failed: its units are in civil disorder for good.
    #[serde(rename = "anarchy")]
    Yes,
}

use super::{Position, Ruleset};
use crate::map::{PowerId, ProvinceId};

/// A power in anarchy gives no orders: its units hold (rule 13).
pub fn silenced(pos: &Position, p: PowerId) -> bool {
    pos.state.anarchy.get(p) == Some(&Anarchy::Yes)
}

/// After a movement season of grace (rule 13): a power that has a unit on
/// one of its home centres has retaken it; one that has not falls into
/// anarchy.
pub fn end_grace(v: &(impl Ruleset + ?Sized), pos: &mut Position) {
    let map = v.map();
    for pw in map.power_ids() {
        if pos.state.anarchy.get(pw) != Some(&Anarchy::Grace) {
            continue;
        }
        let homes = &map.power(pw).home_centres;
        let retaken: Vec<ProvinceId> = pos
            .units
            .iter()
            .filter(|u| u.power == pw)
            .map(|u| map.province_of(u.region))
            .filter(|p| homes.contains(p))
            .collect();
        for p in &retaken {
            pos.owners[p.index()] = Some(pw);
        }
        pos.state.anarchy[pw] = if retaken.is_empty() {
            Anarchy::Yes
        } else {
            Anarchy::No
        };
    }
}

/// On the way into an adjustment phase: a power left with no home centre
/// gets its season of grace (rule 13).
pub fn start_grace(v: &(impl Ruleset + ?Sized), pos: &mut Position) {
    if !v.features().anarchy {
        return;
    }
    let map = v.map();
    for pw in map.power_ids() {
        let homes = &map.power(pw).home_centres;
        if homes.is_empty() || pos.state.anarchy.get(pw) != Some(&Anarchy::No) {
            continue;
        }
        if homes.iter().all(|h| pos.owners[h.index()] != Some(pw)) {
            pos.state.anarchy[pw] = Anarchy::Grace;
        }
    }
}
