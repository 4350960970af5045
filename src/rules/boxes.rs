//! Boxes: off-board spaces a variant adds (1066's Norway box holding
//! Harald's fleets, Ard-Ri's raiding boxes). What the board does with a
//! box's units between phases lives here.

use super::{Position, RuleState, Ruleset};
use crate::adjudicate::movement::{MovementResult, Outcome, Resolved};
use crate::calendar::Phase;
use crate::map::{ProvinceId, Unit};

/// After the movement of `phase`: a box whose units must now stand on the
/// board puts each in one of its spaces that is empty, the rest are lost
/// (1066: Harald's A/Fs beyond one per sea at the end of the second move).
/// A unit that waited in a sea of its own (see [`super::waiting`]) stays
/// there if it is the first in it and nobody else stands there; one with
/// no recorded sea takes the first empty one. Returns each unit with
/// whether it found a place.
pub(crate) fn settle(
    v: &(impl Ruleset + ?Sized),
    phase: Phase,
    pos: &mut Position,
) -> Vec<(Unit, bool)> {
    let map = v.map();
    let mut out = Vec::new();
    for b in v
        .features()
        .boxes
        .iter()
        .filter(|b| b.settle_after == Some(phase))
    {
        let mut recorded: Vec<ProvinceId> = b
            .owner
            .and_then(|o| pos.state.waiting.get_mut(o))
            .map(std::mem::take)
            .unwrap_or_default()
            .into_iter()
            .rev()
            .collect();
        let mut spaces = b.also_named.clone();
        let mut i = 0;
        while i < pos.units.len() {
            let u = pos.units[i];
            if map.province_of(u.region) != b.province {
                i += 1;
                continue;
            }
            pos.units.remove(i);
            let own_sea = (Some(u.power) == b.owner).then(|| recorded.pop()).flatten();
            let empty = |p: ProvinceId, pos: &Position| {
                !pos.units.iter().any(|x| map.province_of(x.region) == p)
                    && !pos
                        .dislodged
                        .iter()
                        .any(|(x, _)| map.province_of(x.region) == p)
                    && map.admits(map.province(p).main_region(), u.kind)
            };
            let free = match own_sea {
                Some(s) => spaces.iter().position(|&p| p == s && empty(p, pos)),
                None => spaces.iter().position(|&p| empty(p, pos)),
            };
            match free {
                Some(k) => {
                    let p = spaces.remove(k);
                    let placed = Unit {
                        region: map.province(p).main_region(),
                        ..u
                    };
                    pos.units.insert(i, placed);
                    out.push((placed, true));
                    i += 1;
                }
                // Lost where it waited, which the results now tell.
                None => out.push((
                    Unit {
                        region: own_sea.map_or(u.region, |s| map.province(s).main_region()),
                        ..u
                    },
                    false,
                )),
            }
        }
    }
    out
}

/// Units that came back from a box with a bonus (Ard-Ri rule 5, the
/// raiders) count one centre each for their power at the next adjustment.
pub(crate) fn record_exits(
    v: &(impl Ruleset + ?Sized),
    units: &[Unit],
    r: &MovementResult,
    state: &mut RuleState,
) {
    let map = v.map();
    for (u, res) in units.iter().zip(&r.units) {
        let from_bonus_box = v
            .features()
            .box_at(map.province_of(u.region))
            .is_some_and(|b| b.exit_bonus);
        if from_bonus_box
            && matches!(res.command, Resolved::Move { .. })
            && res.outcome == Outcome::Moved
            && let Some(b) = state.bonus.get_mut(u.power)
        {
            *b += 1;
        }
    }
}

/// The feature's entry in the registry: `[[box]]` (the table itself is
/// still read with the others, `features::RawBox`).
pub(crate) const PLUGIN: super::feature::Plugin = super::feature::Plugin {
    name: "boxes",
    rank: 40,
    tables: &[],
    load,
};

/// The variant's off-board boxes.
#[derive(Debug, Clone, Copy)]
struct Boxes;

fn load(l: &mut super::feature::Load<'_>) -> Option<std::sync::Arc<dyn super::feature::Feature>> {
    l.legacy
        .has_boxes()
        .then(|| std::sync::Arc::new(Boxes) as std::sync::Arc<dyn super::feature::Feature>)
}

impl super::feature::Feature for Boxes {
    /// Raiders home earn their bonus; a box whose units must now stand on
    /// the board settles them, and the results tell where.
    fn after_move(
        &self,
        v: &dyn Ruleset,
        pos: &Position,
        _orders: &[crate::orders::MainOrder],
        r: &MovementResult,
        next: &mut Position,
    ) {
        record_exits(v, &pos.units, r, &mut next.state);
        for (u, placed) in settle(v, pos.phase, next) {
            if placed {
                next.state.arrived.push(u);
            } else {
                next.state.blocked.push(u);
            }
        }
    }

    /// A bonus counts at one adjustment only, made or skipped.
    fn after_adjustment(&self, _r: &crate::adjudicate::AdjustResult, state: &mut RuleState) {
        state.bonus.values_mut().for_each(|b| *b = 0);
    }

    fn adjustment_skipped(&self, state: &mut RuleState) {
        state.bonus.values_mut().for_each(|b| *b = 0);
    }
}
