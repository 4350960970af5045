//! Ard-Ri rule 7: the Vikings' centres held off the board, and the units
//! built on them that arrive later.

use super::{Position, Ruleset};
use crate::map::Unit;

/// Units built off the board whose season has come are placed before its
/// moves, each where it was built if nobody stands there; otherwise it is
/// lost (rule 7c). Both kinds are recorded for the results.
pub(crate) fn place_arrivals(v: &(impl Ruleset + ?Sized), pos: &mut Position) {
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

/// The feature's entry in the registry: `[[reserve]]` (the table itself is
/// still read with the others, `features::RawReserve`).
pub(crate) const PLUGIN: super::feature::Plugin = super::feature::Plugin {
    name: "reserve",
    rank: 60,
    tables: &[],
    load,
};

/// Centres held off the board.
#[derive(Debug, Clone, Copy)]
struct Reserves;

fn load(l: &mut super::feature::Load<'_>) -> Option<std::sync::Arc<dyn super::feature::Feature>> {
    l.legacy
        .has_reserves()
        .then(|| std::sync::Arc::new(Reserves) as std::sync::Arc<dyn super::feature::Feature>)
}

impl super::feature::Feature for Reserves {
    fn before_moves(&self, v: &dyn Ruleset, pos: &mut Position) {
        place_arrivals(v, pos);
    }

    /// A centre gained on the board costs one held off it (rule 7).
    fn on_centre_taken(
        &self,
        v: &dyn Ruleset,
        pos: &mut Position,
        u: &Unit,
        _p: crate::map::ProvinceId,
    ) {
        if v.features()
            .reserve_of(u.power)
            .is_some_and(|r| r.lose_on_gain)
            && let Some(r) = pos.state.reserve.get_mut(u.power)
        {
            *r = r.saturating_sub(1);
        }
    }

    /// Units built off the board wait to be placed.
    fn after_adjustment(&self, r: &crate::adjudicate::AdjustResult, state: &mut super::RuleState) {
        state.pending.extend(r.pending.iter().copied());
    }
}
