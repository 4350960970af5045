//! The retreat judge: each dislodged unit retreats to one of its options or
//! disbands; two or more retreats to one province all disband.

use super::Illegal;
use crate::map::{Crossing, Map, RegionId, Unit};
use crate::orders::{RetreatCommand, RetreatOrder};

/// A retreat phase: the units that stayed, and the dislodged ones with
/// where each may go (computed by the movement judge).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RetreatSituation {
    /// Units on the board that were not dislodged.
    pub units: Vec<Unit>,
    /// Dislodged units and their retreat options.
    pub dislodged: Vec<(Unit, Vec<RegionId>)>,
}

/// What happened to one dislodged unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetreatStatus {
    /// It retreated there.
    Retreated(RegionId),
    /// It disbanded as ordered.
    Disbanded,
    /// It had no (legal) order, or nowhere to go, and disbanded.
    NoOrder,
    /// It met another retreat in the same province; both disbanded.
    Bounced,
}

/// The result of a retreat phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetreatResult {
    /// One entry per dislodged unit, in the situation's order.
    pub dislodged: Vec<RetreatStatus>,
    /// Index of the order used for each dislodged unit.
    pub order_used: Vec<Option<usize>>,
    /// One entry per order: `None` when carried out, else why not.
    pub orders: Vec<Option<Illegal>>,
    /// The board afterwards.
    pub units_after: Vec<Unit>,
}

/// Of the retreats `rivals` (indexes of dislodged units) to province `p`,
/// those across a marked border give way to the others: the ones across
/// straits first, then those across half-strength borders, as long as two
/// or more are left (`map::crossing`; DPjudge's rule). One left retreats.
fn give_way_across_marks(
    map: &Map,
    situation: &RetreatSituation,
    p: crate::map::ProvinceId,
    rivals: &mut Vec<usize>,
) {
    if !map.has_marked_borders() {
        return;
    }
    for weak in [Crossing::Strait, Crossing::Half] {
        if rivals.len() >= 2 {
            rivals.retain(|&e| map.crossing_from(situation.dislodged[e].0.region, p) != weak);
        }
    }
}

/// Adjudicate a retreat phase. Later orders to the same unit replace
/// earlier ones.
pub fn adjudicate_retreats(
    map: &Map,
    situation: &RetreatSituation,
    orders: &[RetreatOrder],
) -> RetreatResult {
    let n = situation.dislodged.len();
    let mut chosen: Vec<Option<(usize, Option<RegionId>)>> = vec![None; n];
    let mut verdicts: Vec<Option<Illegal>> = vec![None; orders.len()];
    for (i, o) in orders.iter().enumerate() {
        // Several may be dislodged from one place (1066: Harald's A/Fs
        // waiting together in a sea): each order takes the next of them.
        let here =
            |d: &usize| map.province_of(situation.dislodged[*d].0.region) == o.unit.at.province;
        let Some(d) = (0..n)
            .filter(here)
            .find(|&d| chosen[d].is_none())
            .or_else(|| (0..n).find(here))
        else {
            let on_board = situation
                .units
                .iter()
                .any(|u| map.province_of(u.region) == o.unit.at.province);
            verdicts[i] = Some(if on_board {
                Illegal::NotDislodged
            } else {
                Illegal::NoUnit
            });
            continue;
        };
        let (unit, options) = &situation.dislodged[d];
        if unit.power != o.power {
            verdicts[i] = Some(Illegal::ForeignUnit(unit.power));
            continue;
        }
        let target = match o.command {
            RetreatCommand::Disband => None,
            RetreatCommand::Move { to } => {
                let mut fits = options.iter().copied().filter(|&r| {
                    let reg = map.region(r);
                    reg.province == to.province
                        && (to.coast.is_none() || reg.coast.is_none() || reg.coast == to.coast)
                });
                match (fits.next(), fits.next()) {
                    (Some(r), None) => Some(r),
                    (Some(_), Some(_)) => {
                        verdicts[i] = Some(Illegal::CoastNeeded);
                        continue;
                    }
                    (None, _) => {
                        verdicts[i] = Some(Illegal::NoRetreatThere);
                        continue;
                    }
                }
            }
        };
        if let Some((prev, _)) = chosen[d] {
            verdicts[prev] = Some(Illegal::Replaced);
        }
        chosen[d] = Some((i, target));
    }

    let mut status = vec![RetreatStatus::NoOrder; n];
    for d in 0..n {
        status[d] = match chosen[d] {
            None => RetreatStatus::NoOrder,
            Some((_, None)) => RetreatStatus::Disbanded,
            Some((_, Some(r))) => {
                let p = map.province_of(r);
                let mut rivals: Vec<usize> = (0..n)
                    .filter(|&e| matches!(chosen[e], Some((_, Some(q))) if map.province_of(q) == p))
                    .collect();
                give_way_across_marks(map, situation, p, &mut rivals);
                if rivals == [d] {
                    RetreatStatus::Retreated(r)
                } else {
                    RetreatStatus::Bounced
                }
            }
        };
    }
    let mut units_after = situation.units.clone();
    for (d, s) in status.iter().enumerate() {
        if let RetreatStatus::Retreated(r) = s {
            units_after.push(Unit {
                region: *r,
                ..situation.dislodged[d].0
            });
        }
    }
    RetreatResult {
        dislodged: status,
        order_used: chosen.iter().map(|c| c.map(|(i, _)| i)).collect(),
        orders: verdicts,
        units_after,
    }
}
