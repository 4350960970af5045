//! Playing one phase: orders in, results and the next position out.
//!
//! Between phases the calendar decides what comes next, with two rules of
//! the judge: a retreat phase in which nobody was dislodged, and an
//! adjustment phase in which nobody owes or is owed a unit, are skipped
//! (nobody has a choice to make); and centres change hands on the way into
//! an adjustment phase, when the units standing on them take them.

use crate::adjudicate::adjust::adjustments_due;
use crate::adjudicate::{
    AdjustResult, MovementResult, RetreatResult, RetreatSituation, adjudicate_adjustments,
    adjudicate_movement, adjudicate_retreats,
};
use crate::game::Position;
use crate::orders::{AdjustOrder, MainOrder, RetreatOrder};
use crate::variant::{PhaseKind, Variant};

/// The result of any phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PhaseResult {
    /// A movement phase.
    Movement(MovementResult),
    /// A retreat phase.
    Retreat(RetreatResult),
    /// An adjustment (or placement) phase.
    Adjustment(AdjustResult),
}

/// Orders for a phase, of the kind the phase takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PhaseOrders {
    /// Movement orders.
    Movement(Vec<MainOrder>),
    /// Retreat orders.
    Retreat(Vec<RetreatOrder>),
    /// Adjustment orders.
    Adjustment(Vec<AdjustOrder>),
}

/// Adjudicate the phase of `pos` with `orders` (orders of another kind are
/// ignored: the phase is played as if none were given) and return the
/// result with the position at the start of the next phase.
pub fn play(v: &Variant, pos: &Position, orders: &PhaseOrders) -> (PhaseResult, Position) {
    match pos.phase.kind {
        PhaseKind::Movement => {
            let empty = Vec::new();
            let o = match orders {
                PhaseOrders::Movement(o) => o,
                _ => &empty,
            };
            let r = adjudicate_movement(&v.map, &v.rules, &pos.units, o);
            let next = Position {
                phase: pos.phase,
                units: r.units_after(&pos.units),
                owners: pos.owners.clone(),
                dislodged: r
                    .dislodged(&pos.units)
                    .map(|(u, d)| (u, d.retreats.clone()))
                    .collect(),
            };
            (PhaseResult::Movement(r), advance(v, next))
        }
        PhaseKind::Retreat => {
            let empty = Vec::new();
            let o = match orders {
                PhaseOrders::Retreat(o) => o,
                _ => &empty,
            };
            let situation = RetreatSituation {
                units: pos.units.clone(),
                dislodged: pos.dislodged.clone(),
            };
            let r = adjudicate_retreats(&v.map, &situation, o);
            let next = Position {
                phase: pos.phase,
                units: r.units_after.clone(),
                owners: pos.owners.clone(),
                dislodged: Vec::new(),
            };
            (PhaseResult::Retreat(r), advance(v, next))
        }
        PhaseKind::Adjustment | PhaseKind::Placement => {
            let empty = Vec::new();
            let o = match orders {
                PhaseOrders::Adjustment(o) => o,
                _ => &empty,
            };
            let r = adjudicate_adjustments(&v.map, &v.rules, &pos.units, &pos.owners, o);
            let next = Position {
                phase: pos.phase,
                units: r.units_after.clone(),
                owners: pos.owners.clone(),
                dislodged: Vec::new(),
            };
            (PhaseResult::Adjustment(r), advance(v, next))
        }
    }
}

/// Move `pos` (whose phase is the one just played) on to the next phase in
/// which somebody has a choice.
pub fn advance(v: &Variant, mut pos: Position) -> Position {
    let mut q = v.calendar.next(pos.phase);
    // A calendar of any length comes round within a few years.
    for _ in 0..(v.calendar.seasons.len() * 4 + 8) {
        match q.kind {
            PhaseKind::Retreat if pos.dislodged.is_empty() => {}
            PhaseKind::Retreat => break,
            PhaseKind::Adjustment => {
                take_centres(v, &mut pos);
                if adjustments_due(&v.map, &pos.units, &pos.owners)
                    .iter()
                    .any(|&d| d != 0)
                {
                    break;
                }
            }
            _ => break,
        }
        q = v.calendar.next(q);
    }
    pos.phase = q;
    pos
}

/// Each supply centre with a unit on it now belongs to the unit's power.
pub fn take_centres(v: &Variant, pos: &mut Position) {
    for u in &pos.units {
        let p = v.map.province_of(u.region);
        if v.map.province(p).supply_centre {
            pos.owners[p.index()] = Some(u.power);
        }
    }
}
