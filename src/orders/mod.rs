//! The order model: what a player asked each unit to do, as typed values
//! resolved against a map, plus the zine notation to print them back.
//!
//! Orders carry provinces and coasts as written (a [`Place`]); deciding which
//! region a fleet really goes to, and whether the order is legal at all, is
//! the adjudicator's job, because the answer depends on the board (DATC
//! 4.B.1-4.B.6).

mod notation;
pub mod parse;

pub use notation::{format_order, format_place, format_unit};

use crate::map::{CoastId, Map, PowerId, ProvinceId, RegionId, UnitKind};

/// A place as an order names it: a province, perhaps with a coast.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Place {
    /// The province.
    pub province: ProvinceId,
    /// The coast, when one was written.
    pub coast: Option<CoastId>,
}

impl Place {
    /// A place with no coast.
    pub fn province(p: ProvinceId) -> Place {
        Place {
            province: p,
            coast: None,
        }
    }
    /// The place naming exactly region `r`.
    pub fn of_region(map: &Map, r: RegionId) -> Place {
        let reg = map.region(r);
        Place {
            province: reg.province,
            coast: reg.coast,
        }
    }
}

/// The unit an order is addressed to, as written: the kind may be missing or
/// wrong and the coast may be wrong (DATC 4.B.5, 4.C.1, 4.C.2); the unit is
/// found by its province.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UnitRef {
    /// Unit kind as written, if written.
    pub kind: Option<UnitKind>,
    /// Where the unit is said to be.
    pub at: Place,
}

/// Orders of a movement phase.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum MainCommand {
    /// Stay and defend.
    Hold,
    /// Move, by land or by convoy.
    Move {
        /// Destination.
        to: Place,
        /// `via convoy` was written, or a route was.
        via_convoy: bool,
        /// Seas named on the way (`A Lon-ENG-Bre`); taken as intent only.
        route: Vec<ProvinceId>,
    },
    /// Support a unit that holds (or supports, or convoys) in place.
    SupportHold {
        /// The supported unit.
        unit: UnitRef,
    },
    /// Support a unit moving into `to`.
    SupportMove {
        /// The supported unit.
        unit: UnitRef,
        /// Where it moves; a coast, if written, must match its move.
        to: Place,
    },
    /// Carry an army across this sea.
    Convoy {
        /// The convoyed army.
        unit: UnitRef,
        /// Where it goes.
        to: Place,
    },
}

/// Orders of a retreat phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RetreatCommand {
    /// Retreat to a place.
    Move {
        /// Destination.
        to: Place,
    },
    /// Leave the board.
    Disband,
}

/// Orders of an adjustment (or placement) phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AdjustCommand {
    /// Build a unit; `kind` is `None` when the player wrote no type.
    Build {
        /// Kind, if written.
        kind: Option<UnitKind>,
        /// Where.
        at: Place,
    },
    /// Remove (disband) a unit.
    Remove {
        /// Which.
        unit: UnitRef,
    },
    /// Decline one build.
    Waive,
}

/// An order of any phase, for the parser to hand back.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AnyCommand {
    /// Movement-phase order to a unit.
    Main(UnitRef, MainCommand),
    /// Retreat-phase order to a dislodged unit.
    Retreat(UnitRef, RetreatCommand),
    /// Adjustment-phase order.
    Adjust(AdjustCommand),
}

/// An order with the power that gave it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Order<C> {
    /// Who gave it.
    pub power: PowerId,
    /// The unit it is for.
    pub unit: UnitRef,
    /// What it says.
    pub command: C,
}

/// A movement-phase order.
pub type MainOrder = Order<MainCommand>;
/// A retreat-phase order.
pub type RetreatOrder = Order<RetreatCommand>;

/// An adjustment-phase order (builds name no existing unit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AdjustOrder {
    /// Who gave it.
    pub power: PowerId,
    /// What it says.
    pub command: AdjustCommand,
}
