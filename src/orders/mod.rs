//! The order model: what a player asked each unit to do, as typed values
//! resolved against a map, plus the zine notation to print them back.
//!
//! Orders carry provinces and coasts as written (a [`Place`]); deciding which
//! region a fleet really goes to, and whether the order is legal at all, is
//! the adjudicator's job, because the answer depends on the board (DATC
//! 4.B.1-4.B.6).

pub mod condition;
mod lex;
pub mod mail;
mod notation;
pub mod parse;

pub use notation::{
    format_order, format_order_long, format_place, format_place_long, format_unit, format_unit_long,
};

use crate::map::{CoastId, Map, PowerId, ProvinceId, RegionId, UnitKind};

/// The kinds of phase, each taking its own kind of order (the calendar of a
/// variant says which come when).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum PhaseKind {
    /// Units move, support and convoy.
    Movement,
    /// Dislodged units retreat or disband.
    Retreat,
    /// Builds and removals to match supply centres.
    Adjustment,
    /// Powers set up their first units where they like in their homeland
    /// (1000 AD's Winter 999).
    Placement,
}

impl PhaseKind {
    /// Lower-case word used in files and commands.
    pub fn word(self) -> &'static str {
        match self {
            PhaseKind::Movement => "movement",
            PhaseKind::Retreat => "retreat",
            PhaseKind::Adjustment => "adjustment",
            PhaseKind::Placement => "placement",
        }
    }
    /// The letter in short phase names such as `S1901M`.
    pub fn letter(self) -> char {
        match self {
            PhaseKind::Movement => 'M',
            PhaseKind::Retreat => 'R',
            PhaseKind::Adjustment => 'A',
            PhaseKind::Placement => 'P',
        }
    }
}

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
    /// An army boards a fleet in an adjacent sea, forming an A/F
    /// (Abstraction II: `A(Lon) boards F(ENG)`, also `embarks`).
    Board {
        /// The fleet boarded.
        fleet: UnitRef,
    },
    /// An A/F lands its army (`A/F(TYS) disembarks A(Tun)`), optionally
    /// supported by its own fleet element (`... A(ENG)-Bre S by F(ENG)`).
    Disembark {
        /// Where the army lands.
        to: Place,
        /// The fleet element supports the landing.
        fleet_supports: bool,
    },
    /// 1066: a fleet or A/F destroys the invader's armies still waiting in
    /// the Straits of Dover (`F(CHA) destroys A(SOD)`).
    Destroy {
        /// The armies' place.
        target: UnitRef,
    },
    /// 1700 AD: one unit's (or stack's) impulses in order, with the
    /// double-strength mark `(x2)`: `CXII(Got)-hold-Den (x2)`,
    /// `2F(Sca)-COS-C CXII(Got)-Den`.
    Impulses {
        /// Fleets in the stack (`2F`); 1 otherwise.
        stack: u8,
        /// The impulses.
        steps: Vec<Step>,
        /// `(x2)`: the unit uses its whole allowance at double strength.
        double: bool,
    },
}

/// One impulse of a 1700 AD order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Step {
    /// Stay.
    Hold,
    /// Move.
    Move(Place),
    /// Support a unit in place.
    SupportHold(UnitRef),
    /// Support a unit's move.
    SupportMove(UnitRef, Place),
    /// Convoy a unit.
    Convoy(UnitRef, Place),
}

/// Which variant notations a game's orders may use. Standard Diplomacy has
/// none of them; each variant file turns on its own under `[orders]`.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct OrderSyntax {
    /// `A/F` units (1066, Abstraction II).
    pub army_fleet: bool,
    /// Boarding and disembarking (Abstraction II).
    pub boarding: bool,
    /// `3D` defensive armies (1000 AD).
    pub defensive_army: bool,
    /// Named leaders, as written before `(place)`: `CXII`, `Mar`.
    pub leaders: Vec<String>,
    /// Several impulses per order, stacks and `(x2)` (1700 AD).
    pub impulses: bool,
    /// The destroy order (1066).
    pub destroy: bool,
    /// Changing a unit's kind in an adjustment phase (Ard-Ri's Vikings).
    pub convert: bool,
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
    /// Turn a unit into another kind where it stands (Ard-Ri rule 7f: a
    /// Viking fleet on land becomes an army): `F(Dub) becomes A`.
    Convert {
        /// The unit.
        unit: UnitRef,
        /// What it becomes.
        to: UnitKind,
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
