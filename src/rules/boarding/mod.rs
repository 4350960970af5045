//! Armies boarding fleets: Abstraction II's A/F, a fleet with an army
//! aboard (rule 3), and 1000 AD's one-move fast ferry (rule 9). Both are
//! judged by a layer around the movement judge ([`judge`]); the A/F also
//! keeps itself whole between phases (`super::army_fleet`).

pub mod judge;

use super::feature::{Feature, Load, Plugin};
use super::{Position, Ruleset};
use crate::adjudicate::movement::MovementResult;
use crate::adjudicate::questions::RuleQuestions;
use crate::map::Unit;
use crate::orders::MainOrder;
use std::sync::Arc;

/// The feature's entry in the registry: `[army-fleet] laden = true` and
/// `[ferry] only = true` (the tables themselves are still read with the
/// others, `features::RawArmyFleet`, `features::RawFerry`).
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "boarding",
    rank: 20,
    tables: &[],
    load,
};

/// Boarding, and whether what boards makes an A/F that stays one.
#[derive(Debug, Clone, Copy)]
struct Boarding {
    /// An A/F is a fleet with an army aboard (Abstraction II), not only
    /// the fast ferry (1000 AD).
    laden: bool,
}

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    let f = l.legacy;
    f.boarding()
        .then(|| Arc::new(Boarding { laden: f.laden() }) as Arc<dyn Feature>)
}

impl Feature for Boarding {
    fn judge_movement(
        &self,
        v: &dyn Ruleset,
        q: &dyn RuleQuestions,
        pos: &Position,
        orders: &[MainOrder],
    ) -> Option<MovementResult> {
        Some(judge::adjudicate_with_army_fleets(
            v.map(),
            v.rulebook(),
            q,
            Some(pos.phase),
            &pos.units,
            orders,
        ))
    }

    /// Armies landed from dislodged A/Fs stand; a dislodged army may
    /// retreat onto its own fleet at sea.
    fn after_move(
        &self,
        v: &dyn Ruleset,
        pos: &Position,
        _orders: &[MainOrder],
        r: &MovementResult,
        next: &mut Position,
    ) {
        if self.laden {
            super::army_fleet::board_retreats(v, r, &pos.units, next);
        }
    }

    /// An army that retreated onto its fleet makes an A/F again.
    fn after_retreat(&self, v: &dyn Ruleset, units: &mut Vec<Unit>) {
        if self.laden {
            super::army_fleet::settle(v, units);
        }
    }
}
