//! Sorting parsed orders into the [`PhaseOrders`] of one phase: the one
//! builder the mail commands, the web pages and the command line use
//! (issue #36), so a phase kind or an order sheet added later is sorted
//! alike everywhere.

use crate::game::step::PhaseOrders;
use crate::map::PowerId;
use crate::orders::{AdjustOrder, AnyCommand, MainOrder, Order, RetreatOrder};
use crate::rules::view::VariantRules;
use crate::variant::{PhaseKind, Variant};

/// Orders gathered for one phase, by the kind of each.
#[derive(Debug, Default)]
pub struct PhaseOrdersBuilder {
    main: Vec<MainOrder>,
    retreats: Vec<RetreatOrder>,
    adjust: Vec<AdjustOrder>,
}

impl PhaseOrdersBuilder {
    /// An empty builder.
    pub fn new() -> PhaseOrdersBuilder {
        PhaseOrdersBuilder::default()
    }

    /// Add `power`'s order `c`.
    pub fn push(&mut self, power: PowerId, c: AnyCommand) {
        match c {
            AnyCommand::Main(unit, command) => self.main.push(Order {
                power,
                unit,
                command,
            }),
            AnyCommand::Retreat(unit, command) => self.retreats.push(Order {
                power,
                unit,
                command,
            }),
            AnyCommand::Adjust(command) => self.adjust.push(AdjustOrder { power, command }),
        }
    }

    /// The orders of a phase of `kind`: those of its kind (orders of
    /// another kind are dropped), or, where the variant's movement phases
    /// take yearly order sheets (1700 AD II rule 3), all three.
    pub fn build(self, v: &Variant, kind: PhaseKind) -> PhaseOrders {
        match kind {
            PhaseKind::Movement if v.takes_order_sheets() => PhaseOrders::Turn {
                moves: self.main,
                retreats: self.retreats,
                adjust: self.adjust,
            },
            PhaseKind::Movement => PhaseOrders::Movement(self.main),
            PhaseKind::Retreat => PhaseOrders::Retreat(self.retreats),
            PhaseKind::Adjustment | PhaseKind::Placement => PhaseOrders::Adjustment(self.adjust),
        }
    }
}
