//! 1700 AD II's supply lines (rule 9): at the end of each turn, before
//! builds and removals, every unit must trace a line to a supply centre its
//! power controls, not through enemy units (unless their owner permits it),
//! armed neutrals, enemy centres or the spaces the variant forbids
//! (Switzerland). Units that cannot are disbanded.

use super::Position;
use super::Ruleset;
use crate::map::{PowerId, ProvinceId, Unit};
use std::collections::VecDeque;

/// The units of `pos` out of supply. `garrisons` are the armed neutrals
/// still standing; `permits` the pairs (owner, power): `owner` lets
/// `power`'s lines pass its units.
pub fn out_of_supply(
    v: &(impl Ruleset + ?Sized),
    pos: &Position,
    garrisons: &[ProvinceId],
    forbidden: &[ProvinceId],
    permits: &[(PowerId, PowerId)],
) -> Vec<Unit> {
    pos.units
        .iter()
        .copied()
        .filter(|u| !in_supply(v, pos, u, garrisons, forbidden, permits))
        .collect()
}

fn in_supply(
    v: &(impl Ruleset + ?Sized),
    pos: &Position,
    u: &Unit,
    garrisons: &[ProvinceId],
    forbidden: &[ProvinceId],
    permits: &[(PowerId, PowerId)],
) -> bool {
    let map = &v.map();
    let own_centre =
        |p: ProvinceId| map.province(p).supply_centre && pos.owners[p.index()] == Some(u.power);
    let passable = |p: ProvinceId| {
        if forbidden.contains(&p) || garrisons.contains(&p) {
            return false;
        }
        if map.province(p).supply_centre && pos.owners[p.index()].is_some_and(|o| o != u.power) {
            return false;
        }
        pos.units.iter().all(|x| {
            map.province_of(x.region) != p
                || x.power == u.power
                || permits.contains(&(x.power, u.power))
        })
    };
    let start = map.province_of(u.region);
    if own_centre(start) {
        return true;
    }
    let mut seen = vec![false; map.provinces().len()];
    seen[start.index()] = true;
    let mut queue = VecDeque::from([u.region]);
    while let Some(r) = queue.pop_front() {
        for &(to, m) in map.borders(r) {
            let p = map.province_of(to);
            if seen[p.index()] || !m.intersects(u.kind.mobility()) {
                continue;
            }
            seen[p.index()] = true;
            if own_centre(p) && passable(p) {
                return true;
            }
            if passable(p) {
                queue.push_back(to);
            }
        }
    }
    false
}
