//! The judges: movement, retreat and adjustment phases.
//!
//! Each judge takes a board (units, and centre owners where it matters) and
//! the orders given, and returns what happened to every unit and every
//! order, with reasons. Nothing here fails on bad orders: an order that
//! cannot be carried out is an outcome ([`Illegal`]) that the result mail
//! explains, never an error.
//!
//! The movement judge follows the DATC's section 5: decisions for every
//! move, support and convoy, resolved recursively, with Kruijswijk's guess
//! algorithm for dependency cycles and the rule options of
//! [`rulebook::Rulebook`] for the cycles that have no single answer.

pub mod adjust;
pub mod movement;
pub mod questions;
pub mod retreat;
pub mod rulebook;

pub use adjust::{AdjustResult, AdjustStatus, adjudicate_adjustments};
pub use movement::{
    Dislodgement, Judge, Landing, MovementResult, Outcome, Resolved, Special, UnitResult,
    adjudicate_movement,
};
pub use retreat::{RetreatResult, RetreatSituation, RetreatStatus, adjudicate_retreats};

use crate::map::{Map, PowerId, ProvinceId};
use std::fmt;

/// Why an order was not carried out at all: the unit behaves as if it had
/// no order (it holds, and may be supported in place). The text of each
/// variant is what the result mail prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// No unit stands where the order says.
    NoUnit,
    /// The unit belongs to another power.
    ForeignUnit(PowerId),
    /// A later order to the same unit replaced this one.
    Replaced,
    /// The unit was given conflicting orders and holds (when the rules say
    /// so).
    Conflicting,
    /// A move to the province the unit is already in.
    SameProvince,
    /// The unit cannot get there in one move, and no convoy could take it.
    NotAdjacent,
    /// The unit cannot enter that kind of province (an army at sea, a fleet
    /// inland, anyone into Switzerland).
    WrongTerrain,
    /// A fleet move to a split-coast province that it could reach on two
    /// coasts, without saying which.
    CoastNeeded,
    /// A named coast the unit cannot reach.
    CoastUnreachable,
    /// Support to a province the supporting unit could not move to itself.
    CannotSupportThere,
    /// A unit cannot support itself.
    SupportSelf,
    /// Support for a move that the supported unit could not make.
    ImpossibleMove,
    /// Support across a marked border (a strait, a half-strength
    /// crossing: `map::crossing`), which no support crosses.
    NoSupportAcross,
    /// Across a border open only to the owner of some centres
    /// (`map::owner_borders`: Imperial's Bosporus), into `to`, by a unit
    /// whose power does not own `centre`.
    OwnersOnly {
        /// Where the border leads.
        to: ProvinceId,
        /// A centre its power would have to own.
        centre: ProvinceId,
    },
    /// Support or convoy naming a unit that is not on the board.
    NoSuchUnit,
    /// Only fleets convoy.
    NotAFleet,
    /// Fleets convoy only at sea.
    NotAtSea,
    /// Only armies are convoyed.
    NotAnArmy,
    /// The convoying fleet is not on any route the army could take.
    NotOnRoute,
    /// A retreat to a province that is not among the unit's options.
    NoRetreatThere,
    /// A build outside the power's build sites.
    NotABuildSite,
    /// A build on the board by a power with no home centres, outside the
    /// first centres it captured (1066 rules 4, 5: William and Harald).
    NotAFirstCapture,
    /// A build in a centre the power does not own.
    NotOwned,
    /// A build where a unit already stands.
    Occupied,
    /// A build or waiver when no build is due, or past the number due.
    NoBuildsDue,
    /// A removal when none is due, or past the number due.
    NoRemovalsDue,
    /// A build on a coast that did not say army or fleet.
    KindNeeded,
    /// This power may not build that kind of unit there.
    KindNotHere(crate::map::UnitKind),
    /// The game has no units of that kind.
    NoSuchKind(crate::map::UnitKind),
    /// No power ever builds units of that kind (1700 AD II rule 7: "once
    /// destroyed a leader may never be rebuilt", and none is built).
    NeverBuilt(crate::map::UnitKind),
    /// No off-board centre left to build from.
    NoReserve,
    /// A defensive army is restricted to its homeland: it is built, moves
    /// and supports only within it.
    OutsideHomeland,
    /// One defensive army per power at a time.
    OneDefensiveArmy,
    /// Placement is within the power's homeland.
    NotInHomeland,
    /// Frozen in: fleets stand, armies leave overland only.
    Frozen,
    /// More impulses than the unit has (two; a leader three), or a double
    /// order with more than one action.
    TooManyImpulses,
    /// Across a mountain border (Switzerland) an action takes both
    /// impulses: order it `(x2)`.
    MountainCrossing,
    /// Fleets enter only friendly coastal provinces (1700 AD II rule 8).
    NotFriendly,
    /// At most two fleets in a coastal province.
    StackLimit,
    /// A build site the variant opens only after the centre has been held
    /// for some turns (1700 AD II rule 10a: "on the second turn of
    /// uninterrupted control"), held too short a time yet: the turn of
    /// holding from which it opens.
    HeldTooShort(u8),
    /// Fleets and land units do not support each other (1700 AD II rule
    /// 8: "fleets exert no influence on land units").
    FleetsApart,
    /// A later impulse that no longer makes sense: the unit was
    /// dislodged, or an earlier move of it failed and this is a move from
    /// where it did not get (1700 AD II rule 4: "second impulse orders
    /// which do not make sense because of first impulse conflicts become
    /// stand orders").
    Stands,

    /// The army may board only its own fleet, at sea, next to it.
    CannotBoard,
    /// The army boarded a fleet this move; orders go to the A/F.
    Boarded,
    /// No army aboard to disembark.
    NothingAboard,
    /// The army can land only on a coast next to the A/F's sea (or the
    /// sea it sails to).
    CannotLand,
    /// An A/F may not ferry another army.
    LadenCannotFerry,
    /// An A/F never enters a coastal province (Abstraction II rule 3).
    ArmyFleetAtSea,
    /// The fast ferry crosses a single sea with a single fleet.
    FerryOneSea,
    /// The fast ferry carries plain armies; a defensive army goes by the
    /// regular convoy (1000 AD).
    FerryArmiesOnly,
    /// The landing would have decided its own fleet's move (Abstraction
    /// II rule 3's exception).
    LandingWouldDecideItsFleet,
    /// Only a fleet standing on land may become an army.
    CannotConvert,
    /// A unit this kind of phase does not concern (a retreat order to a
    /// unit that was not dislodged).
    NotDislodged,
    /// Units off the board can neither support nor convoy (1066 rule 7).
    OffBoard,
    /// No unit may move off the board (except where the variant has a raid).
    NoEntry,
    /// A raid sets out only from the seas the box lists (Ard-Ri rule 6a:
    /// the four outermost seas), never from another sea or a coast.
    RaidOnlyFromOuterSeas,
    /// This power never raids (Ard-Ri rule 7g: the Vikings).
    MayNotRaid,
    /// Only the kinds the box takes go raiding (Ard-Ri: fleets).
    RaidKind,
    /// The unit is built but waits off the board (Ard-Ri rule 7c): it
    /// cannot be ordered until it is placed.
    NotYetPlaced,
    /// A power building from centres off the board and in any centre it
    /// holds (Ard-Ri rules 7b, 7e) built elsewhere.
    NotReserveOrHeld,
    /// A partisan site (DPjudge's `*SC`, 1900's Siberia) is a build site
    /// only while its power owns at least one, but not all, of its home
    /// centres.
    PartisanSiteIdle,
    /// An alternative home centre (DPjudge's `@SC`, Zeus's California)
    /// adds a place to build, not a build: not in it and in every home
    /// centre it stands in for, nor more builds than those centres.
    AlternativeSites,
    /// Not in this season.
    NotNow,
    /// The destroy order needs an enemy fleet (or A/F) in or next to the
    /// waiting invaders' waters.
    CannotDestroy,
    /// The order belongs to another kind of phase.
    WrongPhase,
    /// The order's power gives no orders now (a rule feature silences it:
    /// 1000 AD rule 13's anarchy, a dormant or dummy power): its units
    /// hold. The phase step marks such orders so, one verdict per order
    /// given, so that whoever reads the results with the orders finds each
    /// order's verdict at its own index.
    Silenced,
    /// An order this game's rules do not have.
    NotInThisGame,
    /// Past the most orders the movement judge takes in one phase
    /// ([`movement::OrderIndex::LIMIT`]): it numbers them in sixteen bits
    /// to keep its results small.
    TooManyOrders,
}

impl Illegal {
    /// The reason in a player's words, naming the places the map knows
    /// (`the way into the Aegean Sea is open only to the owner of
    /// Constantinople`); otherwise as displayed.
    pub fn explain(&self, map: &Map) -> String {
        match *self {
            Illegal::OwnersOnly { to, centre } => format!(
                "the way into {} is open only to the owner of {}",
                map.province(to).name,
                map.province(centre).name
            ),
            _ => self.to_string(),
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Illegal::NeverBuilt(kind) = self {
            // Why depends on the kind: 1700 AD II rule 7's leaders are
            // never rebuilt; Abstraction II rule 3's A/F is formed by an
            // army boarding its fleet.
            return match kind {
                crate::map::UnitKind::ArmyFleet => write!(
                    f,
                    "an A/F is never built: it is formed when an army boards its own fleet"
                ),
                k => {
                    let k = k.word().to_lowercase();
                    write!(f, "no {k} is ever built: once lost, a {k} is never rebuilt")
                }
            };
        }
        if let Illegal::HeldTooShort(turns) = self {
            let nth = match turns {
                0 | 1 => "first".to_string(),
                2 => "second".to_string(),
                3 => "third".to_string(),
                n => format!("{n}th"),
            };
            return write!(
                f,
                "not before the {nth} turn of holding that centre without a break"
            );
        }
        f.write_str(match self {
            Illegal::NeverBuilt(_) => "never built",
            Illegal::NoUnit => "there is no unit there",
            Illegal::ForeignUnit(_) => "that unit belongs to another power",
            Illegal::Replaced => "replaced by a later order to the same unit",
            Illegal::Conflicting => "the unit was given conflicting orders",
            Illegal::SameProvince => "a unit cannot move to where it already is",
            Illegal::NotAdjacent => "not adjacent, and no convoy route exists",
            Illegal::WrongTerrain => "that unit cannot enter that province",
            Illegal::CoastNeeded => "the fleet could reach two coasts: say which",
            Illegal::CoastUnreachable => "the fleet cannot reach that coast",
            Illegal::CannotSupportThere => "a unit can only support where it could move itself",
            Illegal::SupportSelf => "a unit cannot support itself",
            Illegal::ImpossibleMove => "the supported move is impossible",
            Illegal::NoSupportAcross => "no support may be given across that border",
            Illegal::OwnersOnly { .. } => {
                "that border is open only to the owner of a centre that power does not own"
            }
            Illegal::NoSuchUnit => "the unit named is not on the board",
            Illegal::NotAFleet => "only fleets can convoy",
            Illegal::NotAtSea => "fleets can only convoy at sea",
            Illegal::NotAnArmy => "only armies can be convoyed",
            Illegal::NotOnRoute => "that fleet is not on any convoy route for that move",
            Illegal::NoRetreatThere => {
                "a unit may only retreat to an adjacent, empty, uncontested province it was not attacked from"
            }
            Illegal::NotABuildSite => "builds may only be made in home centres",
            Illegal::NotAFirstCapture => {
                "you build on the board only in the first centres you captured (armies only); other builds go in your box"
            }
            Illegal::NotOwned => "that centre is not yours",
            Illegal::Occupied => "a unit already stands there",
            Illegal::NoBuildsDue => "no (more) builds are due",
            Illegal::NoRemovalsDue => "no (more) removals are due",
            Illegal::KindNeeded => "say whether to build an army or a fleet",
            Illegal::KindNotHere(_) => "you may not build that kind of unit there",
            Illegal::NoSuchKind(_) => "this game has no units of that kind",
            Illegal::NoReserve => "no off-board centre is left to build from",
            Illegal::OutsideHomeland => {
                "a defensive army is restricted to its homeland: it is built, moves and supports only within it"
            }
            Illegal::OneDefensiveArmy => "a power may have only one defensive army at a time",
            Illegal::NotInHomeland => "units are placed within your homeland",
            Illegal::NotFriendly => "fleets may enter only friendly coastal provinces",
            Illegal::StackLimit => "at most two fleets may stand in a coastal province",
            Illegal::HeldTooShort(_) => "not yet",
            Illegal::FleetsApart => {
                "fleets and land units do not support each other: fleets support only fleets"
            }
            Illegal::Stands => {
                "the unit stands: an earlier move of it failed or it was dislodged"
            }
            Illegal::MountainCrossing => {
                "an action across the Swiss border takes both impulses: order it (x2)"
            }
            Illegal::TooManyImpulses => {
                "more impulses than the unit has (two, a leader three); (x2) is one action"
            }
            Illegal::CannotBoard => "an army may board only its own fleet, at sea, next to it",
            Illegal::Boarded => "the army boarded a fleet: order the A/F instead",
            Illegal::NothingAboard => "no army is aboard that fleet",
            Illegal::CannotLand => {
                "the army can land only on a coast next to its A/F's sea, or the sea it sails to"
            }
            Illegal::LadenCannotFerry => "an A/F may not ferry another army",
            Illegal::ArmyFleetAtSea => {
                "an A/F may never enter a coastal province: land its army with `disembarks`"
            }
            Illegal::FerryOneSea => {
                "a fast ferry crosses one sea with one fleet; a longer voyage needs an A/F"
            }
            Illegal::FerryArmiesOnly => {
                "the fast ferry carries armies only: a defensive army goes by the regular convoy"
            }
            Illegal::LandingWouldDecideItsFleet => {
                "the landing would have decided its own fleet's move, so it fails (rule 3's exception)"
            }
            Illegal::Frozen => {
                "frozen in: a fleet there must stand, an army may leave only overland"
            }
            Illegal::CannotConvert => "only a fleet standing on land may become an army",
            Illegal::NotDislodged => "that unit was not dislodged",
            Illegal::OffBoard => "units off the board can neither support nor convoy",
            Illegal::NoEntry => "no unit may move off the board there",
            Illegal::RaidOnlyFromOuterSeas => {
                "a raid sets out only from one of the outermost seas, on the map's border"
            }
            Illegal::MayNotRaid => "this power may never go raiding",
            Illegal::RaidKind => "that kind of unit may not go raiding",
            Illegal::NotYetPlaced => {
                "that unit is built but not yet on the board: units built off the board are placed after the Spring retreats, before the Fall moves, and take orders then"
            }
            Illegal::NotReserveOrHeld => {
                "you build from centres off the board in the outermost seas, and in any centre you hold"
            }
            Illegal::PartisanSiteIdle => {
                "that place is a build site only while you own at least one, but not all, of your home centres"
            }
            Illegal::AlternativeSites => {
                "an alternative home centre gives another place to build, not another build: not there and in every home centre it stands in for"
            }
            Illegal::NotNow => "that order is not allowed in this season",
            Illegal::CannotDestroy => {
                "only an enemy fleet (or A/F) in or next to those waters may destroy the units waiting there"
            }
            Illegal::WrongPhase => "that order does not belong to this phase",
            Illegal::Silenced => "its power gives no orders now: its units hold",
            Illegal::NotInThisGame => "that order is not part of this game",
            Illegal::TooManyOrders => "more orders than the judge takes in one phase",
        })
    }
}
