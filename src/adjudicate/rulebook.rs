//! The rule options, named in one place.
//!
//! Where the rulebooks disagree, the DATC (v3.0) lists the readings and
//! Kruijswijk states a preference. Each choice the adjudicator makes is a
//! named value here, defaulting to that preference, so a GM (or a variant
//! file, under `[rules]`) can see and change it without reading code.

use serde::Deserialize;

/// What to do when convoys make the rules give no answer or two (DATC 4.A.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ParadoxRule {
    /// Szykman: the convoying fleets in the paradox hold; the army does not
    /// move and has no effect. DATC's preference; every modern judge's.
    #[default]
    Szykman,
    /// Every order in the paradox fails.
    AllHold,
}

/// When an army that could walk is taken to travel by convoy (DATC 4.A.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConvoyIntent {
    /// 2000/2023 rulebook as DATC v3.0 reads it: by convoy when the order
    /// says `via convoy` (or names a route), or when a fleet of the army's
    /// own power is legally ordered to convoy it; otherwise over land. No
    /// fallback to the land route when the convoy is disrupted.
    #[default]
    Edition2023,
    /// DPTG: only an explicit `via convoy` makes it a convoy.
    ExplicitOnly,
}

/// Whether an army ordered `via convoy` to a province it could walk to
/// walks when no convoy is ordered for it (DATC 4.A.3, test case 6.G.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConvoyFallback {
    /// No fallback: the move fails (DATC v3.0 preference).
    #[default]
    None,
    /// The army takes the land route when no chain of convoy orders covers
    /// its way (DATC v2 preference).
    LandRoute,
}

/// Which unit a power in civil disorder loses when it owes removals
/// (DATC 4.D.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CivilDisorderRule {
    /// 2023 rulebook: furthest from the nearest *owned* centre, counting
    /// steps over land and sea alike; fleets before armies at equal distance;
    /// then alphabetical by province name.
    #[default]
    Edition2023,
    /// Older reading: furthest from the nearest *home* centre.
    HomeCentres,
}

/// What happens when a power gives one unit several orders in a phase
/// (DATC 4.D.3). By mail the player can always see what we read, so the
/// last order wins: a later line corrects an earlier one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DuplicateOrders {
    /// The last legal order counts.
    #[default]
    LastWins,
    /// The unit holds.
    Hold,
}

/// Where a power may build.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BuildSites {
    /// Owned, unoccupied home centres (the standard rule).
    #[default]
    HomeCentres,
    /// Any owned, unoccupied supply centre (Chaos-style variants).
    AnyOwnedCentre,
}

/// The rule options of a game. `Rulebook::default()` is the DATC's set of
/// preferences, which is how we play standard Diplomacy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct Rulebook {
    /// DATC 4.A.2.
    pub paradox: ParadoxRule,
    /// DATC 4.A.3.
    pub convoy_intent: ConvoyIntent,
    /// DATC 4.A.3, second half.
    pub convoy_fallback: ConvoyFallback,
    /// DATC 4.D.8.
    pub civil_disorder: CivilDisorderRule,
    /// DATC 4.D.3.
    pub duplicate_orders: DuplicateOrders,
    /// Build sites.
    pub build_sites: BuildSites,
}

impl Rulebook {
    /// The preferences of DATC version 2 (2009), which the DATC v2.4 case
    /// files expect; they differ from today's in the convoy fallback.
    pub fn datc_v2() -> Rulebook {
        Rulebook {
            convoy_fallback: ConvoyFallback::LandRoute,
            ..Rulebook::default()
        }
    }
}

// Choices that are not options, because every rulebook we play agrees or
// because the DATC preference is the only reading that makes sense by mail.
// They are listed here so that all rule readings are found in one file:
//
// - 4.A.1 multi-route convoys: a convoy fails only when every route is cut.
// - 4.A.4 an army convoyed against a unit supporting an attack on the army's
//   own province does not cut that support (the attack comes from the
//   army's province, not from the sea).
// - 4.A.5 a unit dislodged by a convoyed army may retreat to the army's
//   province (2023 rulebook).
// - 4.A.6 a route written in a move order (`A Lon-ENG-Bre`) is taken as
//   "via convoy"; the route itself is not checked.
// - 4.A.7 a dislodged unit still bounces a third unit unless it lost a
//   head-to-head battle.
// - 4.B.1-4.B.3 a fleet move to a split-coast province without a coast goes
//   to the only coast it can reach, fails when it could reach two; a coast
//   it cannot reach makes the order illegal.
// - 4.B.4 a support may omit the coast; if it names one, it must match.
// - 4.B.5, 4.B.6 a wrong coast for the ordered unit, or a coast on an army
//   move, is ignored.
// - 4.B.7, 4.C.3, 4.C.4 a fleet built in St Petersburg needs its coast; a
//   build with no unit type builds an army inland and fails on a coast; a
//   fleet cannot be built inland.
// - 4.C.1, 4.C.2, 4.C.5, 4.C.6 a missing or wrong unit type or nationality
//   is ignored when the unit can be found.
// - 4.D.4-4.D.6 surplus build and removal orders: the first legal ones
//   count.
// - 4.D.7 builds may be waived.
// - 4.D.9 a unit in civil disorder may be supported to hold.
// - 4.E.1 illegal orders are ignored (the unit holds and may be supported).
// - 4.E.3 no implicit orders; 4.E.4, 4.E.5 no perpetual or proxy orders.
