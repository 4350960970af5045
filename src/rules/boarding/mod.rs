//! The A/F and armies boarding fleets: 1066's amphibious A/F (rule 5),
//! Abstraction II's A/F, a fleet with an army aboard (rule 3), and 1000
//! AD's one-move fast ferry (rule 9). Boarding is judged by a layer
//! around the movement judge ([`judge`]); the laden A/F also keeps itself
//! whole between phases (`super::army_fleet`).

pub(crate) mod judge;

use super::feature::{Feature, Load, Plugin};
use super::{Position, Ruleset};
use crate::adjudicate::movement::MovementResult;
use crate::adjudicate::questions::RuleQuestions;
use crate::map::{Unit, UnitKind};
use crate::orders::{MainOrder, OrderSyntax};
use serde::Deserialize;
use std::sync::Arc;

/// The feature's entry in the registry.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "boarding",
    rank: 20,
    tables: &["army-fleet", "ferry"],
    load,
};

/// `[army-fleet]`: the A/F unit.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawArmyFleet {
    /// An A/F is a fleet with an army aboard (Abstraction II rule 3):
    /// armies board and land, it fights as one fleet and counts as two
    /// units. Otherwise it is one amphibious unit that moves as an army or
    /// a fleet (1066 rule 5).
    #[serde(default)]
    laden: bool,
}

/// `[ferry]`: 1000 AD rule 9.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawFerry {
    /// Boarding is only the one-move fast ferry: no A/F is ever formed.
    only: bool,
}

/// The A/F and boarding, as the variant has them.
#[derive(Debug, Clone, Copy)]
struct Boarding {
    /// The variant has A/Fs (`[army-fleet]`).
    army_fleet: bool,
    /// An A/F is a fleet with an army aboard (Abstraction II), not one
    /// amphibious unit (1066).
    laden: bool,
    /// Boarding is only 1000 AD's fast ferry (`[ferry] only = true`): an
    /// army boards, its fleet sails one sea, the army lands, all in one
    /// move; no A/F is ever formed (a landing that fails leaves the army
    /// where it started), and convoys are the standard game's.
    ferry_only: bool,
}

impl Boarding {
    /// Whether armies board fleets: Abstraction II's A/Fs or 1000 AD's fast
    /// ferry.
    fn boarding(&self) -> bool {
        self.laden || self.ferry_only
    }
}

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    let af = l.has("army-fleet");
    let laden = l
        .table::<RawArmyFleet>("army-fleet")
        .is_some_and(|a| a.laden);
    let ferry_only = l.table::<RawFerry>("ferry").is_some_and(|f| f.only);
    let f = Boarding {
        army_fleet: af,
        laden,
        ferry_only,
    };
    (f.army_fleet || f.boarding()).then(|| Arc::new(f) as Arc<dyn Feature>)
}

impl Feature for Boarding {
    fn syntax(&self, s: &mut OrderSyntax) {
        s.army_fleet |= self.army_fleet;
        s.boarding |= self.boarding();
    }

    fn kinds(&self, k: &mut Vec<UnitKind>) {
        if self.army_fleet {
            k.push(UnitKind::ArmyFleet);
        }
    }

    /// A fleet with an army aboard is two units, and costs two centres.
    fn units_in(&self, u: &Unit) -> Option<i64> {
        (self.laden && u.kind == UnitKind::ArmyFleet).then_some(2)
    }

    fn upkeep(&self, kind: UnitKind) -> Option<i32> {
        (self.laden && kind == UnitKind::ArmyFleet).then_some(4)
    }

    fn ferry_only(&self) -> bool {
        self.ferry_only
    }

    fn judge_movement(
        &self,
        v: &dyn Ruleset,
        q: &dyn RuleQuestions,
        pos: &Position,
        orders: &[MainOrder],
    ) -> Option<MovementResult> {
        if !self.boarding() {
            return None;
        }
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
