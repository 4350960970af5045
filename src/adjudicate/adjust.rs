//! The adjustment judge: builds and removals to bring each power's units in
//! line with its supply centres.
//!
//! Orders are carried out one by one, in the order received, skipping those
//! that cannot be (DATC 4.D.4-4.D.6); removals still owed afterwards are
//! taken by the civil-disorder rule of the rulebook (DATC 4.D.8).

use super::Illegal;
use crate::map::{Map, PowerId, ProvinceId, Unit, UnitKind};
use crate::orders::{AdjustCommand, AdjustOrder};
use crate::rules::RuleState;
use crate::variant::Rulebook;
use crate::variant::features::Features;
use crate::variant::rules::{BuildSites, CivilDisorderRule};

/// What a variant adds to the standard adjustment rules: its build rules
/// (boxes, captured centres, nominated homes, who may build which kind) and
/// the state they read (captures, nominations, raiders' bonus).
#[derive(Debug, Clone, Copy)]
pub struct Extras<'a> {
    /// The variant's rules beyond the standard game.
    pub features: &'a Features,
    /// What the game has kept for them.
    pub state: &'a RuleState,
    /// A placement phase (1000 AD's Winter 999): units are placed anywhere
    /// in the power's homeland, up to its home centres.
    pub placement: bool,
    /// The year of the adjustment (how long a centre has been held).
    pub year: i32,
}

static NO_FEATURES: std::sync::LazyLock<Features> = std::sync::LazyLock::new(Features::default);
static NO_STATE: std::sync::LazyLock<RuleState> = std::sync::LazyLock::new(RuleState::default);

impl Extras<'static> {
    /// The standard game: nothing extra.
    pub fn none() -> Extras<'static> {
        Extras {
            features: &NO_FEATURES,
            state: &NO_STATE,
            placement: false,
            year: 0,
        }
    }
}

impl Extras<'_> {
    /// Whether `p` is a home centre of `power` for building: its own, or
    /// one it nominated in place of a lost one.
    fn is_home(&self, map: &Map, power: PowerId, p: ProvinceId) -> bool {
        map.province(p).home_of == Some(power)
            || self.state.homes.get(power).is_some_and(|h| h.contains(&p))
    }

    /// If `p` is one of the first captures that `power` may build on, the
    /// kinds it may build there.
    fn capture_kinds(&self, power: PowerId, p: ProvinceId) -> Option<&[UnitKind]> {
        let (_, count, kinds) = self
            .features
            .builds
            .captures
            .iter()
            .find(|(pw, _, _)| *pw == power)?;
        let caps = self.state.captures.get(power)?;
        caps.iter()
            .take(*count)
            .any(|c| *c == p)
            .then_some(kinds.as_slice())
    }
}

/// What happened to one adjustment order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdjustStatus {
    /// The unit was built.
    Built(Unit),
    /// The unit was removed.
    Removed(Unit),
    /// A build was waived.
    Waived,
    /// A fleet on land became this army (Ard-Ri rule 7f).
    Converted(Unit),
    /// The order was not carried out.
    Illegal(Illegal),
}

/// The result of an adjustment phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdjustResult {
    /// One entry per order.
    pub orders: Vec<AdjustStatus>,
    /// Units removed by the civil-disorder rule, for powers that owed
    /// removals and did not order enough.
    pub civil_disorder: Vec<Unit>,
    /// Builds each power was entitled to and did not use (neither built nor
    /// waived), per power.
    pub unused_builds: Vec<u32>,
    /// The board afterwards.
    pub units_after: Vec<Unit>,
    /// Units built to be placed later (Ard-Ri rule 7c): built, but not yet
    /// on the board.
    pub pending: Vec<Unit>,
}

/// Builds (positive) or removals (negative) due per power: centres owned
/// minus units.
pub fn adjustments_due(map: &Map, units: &[Unit], owners: &[Option<PowerId>]) -> Vec<i32> {
    adjustments_due_with(map, Extras::none(), units, owners)
}

/// [`adjustments_due`] in a variant: centres counted for the adjustment
/// include each power's bonus (Ard-Ri's raiders home from the sea).
pub fn adjustments_due_with(
    map: &Map,
    extras: Extras<'_>,
    units: &[Unit],
    owners: &[Option<PowerId>],
) -> Vec<i32> {
    // Half a build is still a build (a fleet of 1700 AD II), half a
    // removal still a removal.
    due_halves(map, extras, units, owners)
        .into_iter()
        .map(|h| h.signum() * ((h.abs() + 1) / 2))
        .collect()
}

/// Builds (positive) or removals owed per power, in half centres: a centre
/// keeps one unit, or two fleets where the variant says so.
fn due_halves(
    map: &Map,
    extras: Extras<'_>,
    units: &[Unit],
    owners: &[Option<PowerId>],
) -> Vec<i32> {
    let mut due = vec![0i32; map.powers().len()];
    for (d, b) in due.iter_mut().zip(&extras.state.bonus) {
        *d += 2 * i32::try_from(*b).unwrap_or(i32::MAX / 4);
    }
    for (d, b) in due.iter_mut().zip(&extras.state.reserve) {
        *d += 2 * i32::try_from(*b).unwrap_or(i32::MAX / 4);
    }
    // Units built and waiting to be placed are units all the same.
    for u in &extras.state.pending {
        due[u.power.index()] -= upkeep(extras, u.kind);
    }
    for (p, o) in owners.iter().enumerate() {
        if let Some(o) = o
            && map.provinces()[p].supply_centre
        {
            due[o.index()] += 2;
        }
    }
    for u in units {
        due[u.power.index()] -= upkeep(extras, u.kind);
    }
    due
}

/// What a unit of `kind` costs, in half centres: an A/F that is a fleet
/// with an army aboard, and a defensive army, two centres; a fleet half a
/// centre where a centre keeps two fleets (1700 AD II rule 8); the rest
/// one.
fn upkeep(extras: Extras<'_>, kind: UnitKind) -> i32 {
    if kind == UnitKind::ArmyFleet && extras.features.laden() {
        4
    } else if kind == UnitKind::Fleet && extras.features.builds.fleets_per_centre == 2 {
        1
    } else {
        2 * kind.upkeep()
    }
}

/// Adjudicate an adjustment phase. `owners` gives each province's owner.
pub fn adjudicate_adjustments(
    map: &Map,
    rules: &Rulebook,
    units: &[Unit],
    owners: &[Option<PowerId>],
    orders: &[AdjustOrder],
) -> AdjustResult {
    adjudicate_adjustments_with(map, rules, Extras::none(), units, owners, orders)
}

/// [`adjudicate_adjustments`] in a variant with `extras`.
pub fn adjudicate_adjustments_with(
    map: &Map,
    rules: &Rulebook,
    extras: Extras<'_>,
    units: &[Unit],
    owners: &[Option<PowerId>],
    orders: &[AdjustOrder],
) -> AdjustResult {
    // Counted in half centres.
    let due = due_halves(map, extras, units, owners);
    let mut left: Vec<i32> = due.clone();
    let mut board: Vec<Option<Unit>> = units.iter().copied().map(Some).collect();
    let mut built: Vec<Unit> = Vec::new();
    let mut pending: Vec<Unit> = Vec::new();
    // Builds each power has made from its off-board centres.
    let mut reserve_used = vec![0u32; map.powers().len()];
    let mut statuses = Vec::with_capacity(orders.len());
    // A box holds any number of units; elsewhere the variant's stacking
    // rules say who may stand beside whom.
    let occupied = |board: &[Option<Unit>], built: &[Unit], unit: &Unit| {
        let p = map.province_of(unit.region);
        let others: Vec<Unit> = board
            .iter()
            .flatten()
            .chain(built)
            .copied()
            .filter(|u| map.province_of(u.region) == p)
            .collect();
        extras.features.box_at(p).is_none() && !map.may_stand(p, unit.power, unit.kind, &others)
    };

    for o in orders {
        let pw = o.power.index();
        let status = match o.command {
            AdjustCommand::Waive => {
                if left[pw] > 0 {
                    left[pw] = (left[pw] - 2).max(0);
                    AdjustStatus::Waived
                } else {
                    AdjustStatus::Illegal(Illegal::NoBuildsDue)
                }
            }
            AdjustCommand::Build { kind, at } => {
                if left[pw] <= 0 {
                    AdjustStatus::Illegal(Illegal::NoBuildsDue)
                } else {
                    let reserve = extras
                        .features
                        .reserve_of(o.power)
                        .filter(|r| r.build_at.contains(&at.province));
                    match reserve {
                        Some(r) => {
                            let have = extras.state.reserve.get(o.power).copied().unwrap_or(0);
                            match reserve_build(map, extras, o.power, kind, at) {
                                Err(e) => AdjustStatus::Illegal(e),
                                Ok(_) if reserve_used[pw] >= have => {
                                    AdjustStatus::Illegal(Illegal::NoReserve)
                                }
                                Ok(_)
                                    if pending
                                        .iter()
                                        .chain(&built)
                                        .any(|u| map.province_of(u.region) == at.province) =>
                                {
                                    AdjustStatus::Illegal(Illegal::Occupied)
                                }
                                Ok(unit)
                                    if r.arrive.is_none() && occupied(&board, &built, &unit) =>
                                {
                                    AdjustStatus::Illegal(Illegal::Occupied)
                                }
                                Ok(unit) => {
                                    left[pw] -= upkeep(extras, unit.kind);
                                    reserve_used[pw] += 1;
                                    if r.arrive.is_some() {
                                        pending.push(unit);
                                    } else {
                                        built.push(unit);
                                    }
                                    AdjustStatus::Built(unit)
                                }
                            }
                        }
                        None => match check_build(map, rules, extras, o.power, kind, at, owners) {
                            Err(e) => AdjustStatus::Illegal(e),
                            Ok(unit) if occupied(&board, &built, &unit) => {
                                AdjustStatus::Illegal(Illegal::Occupied)
                            }
                            // A defensive army takes two builds, and a
                            // power has one at most (1000 AD rule 7).
                            Ok(unit) if left[pw] < upkeep(extras, unit.kind) => {
                                AdjustStatus::Illegal(Illegal::NoBuildsDue)
                            }
                            Ok(unit)
                                if unit.kind == UnitKind::DefensiveArmy
                                    && board.iter().flatten().chain(&built).any(|u| {
                                        u.power == o.power && u.kind == UnitKind::DefensiveArmy
                                    }) =>
                            {
                                AdjustStatus::Illegal(Illegal::OneDefensiveArmy)
                            }
                            Ok(unit) => {
                                left[pw] -= upkeep(extras, unit.kind);
                                built.push(unit);
                                AdjustStatus::Built(unit)
                            }
                        },
                    }
                }
            }
            AdjustCommand::Convert { unit, to } => {
                let found = board
                    .iter()
                    .position(|u| u.is_some_and(|u| map.province_of(u.region) == unit.at.province));
                match found.map(|i| (i, board[i].expect("position found a unit"))) {
                    None => AdjustStatus::Illegal(Illegal::NoUnit),
                    Some((_, u)) if u.power != o.power => {
                        AdjustStatus::Illegal(Illegal::ForeignUnit(u.power))
                    }
                    Some((i, u)) => {
                        let prov = map.province(map.province_of(u.region));
                        let region = prov.main_region();
                        if !extras.features.builds.convert.contains(&o.power) {
                            AdjustStatus::Illegal(Illegal::NotInThisGame)
                        } else if u.kind != UnitKind::Fleet
                            || to != UnitKind::Army
                            || !map.admits(region, UnitKind::Army)
                        {
                            AdjustStatus::Illegal(Illegal::CannotConvert)
                        } else {
                            let army = Unit {
                                kind: UnitKind::Army,
                                region,
                                ..u
                            };
                            board[i] = Some(army);
                            AdjustStatus::Converted(army)
                        }
                    }
                }
            }
            AdjustCommand::Remove { unit } => {
                let found = board
                    .iter()
                    .position(|u| u.is_some_and(|u| map.province_of(u.region) == unit.at.province));
                match found {
                    None => AdjustStatus::Illegal(Illegal::NoUnit),
                    Some(i) => {
                        let u = board[i].expect("position found a unit");
                        if u.power != o.power {
                            AdjustStatus::Illegal(Illegal::ForeignUnit(u.power))
                        } else if left[pw] >= 0 {
                            AdjustStatus::Illegal(Illegal::NoRemovalsDue)
                        } else {
                            // A defensive army goes whole (rule 7: never
                            // broken down), even if that is more than owed.
                            left[pw] = (left[pw] + upkeep(extras, u.kind)).min(0);
                            board[i] = None;
                            AdjustStatus::Removed(u)
                        }
                    }
                }
            }
        };
        statuses.push(status);
    }

    // Removals still owed: civil disorder.
    let mut civil = Vec::new();
    for (pw, &owed) in left.iter().enumerate() {
        if owed >= 0 {
            continue;
        }
        let power = PowerId(pw as u8);
        let targets: Vec<ProvinceId> = match rules.civil_disorder {
            CivilDisorderRule::Edition2023 => owners
                .iter()
                .enumerate()
                .filter(|(p, o)| **o == Some(power) && map.provinces()[*p].supply_centre)
                .map(|(p, _)| ProvinceId(p as u16))
                .collect(),
            CivilDisorderRule::HomeCentres => map.power(power).home_centres.clone(),
        };
        let dist = map.distances_to(&targets);
        let mut mine: Vec<(usize, Unit)> = board
            .iter()
            .enumerate()
            .filter_map(|(i, u)| u.filter(|u| u.power == power).map(|u| (i, u)))
            .collect();
        mine.sort_by(|(_, a), (_, b)| {
            let da = dist[map.province_of(a.region).index()];
            let db = dist[map.province_of(b.region).index()];
            db.cmp(&da)
                .then_with(|| (b.kind == UnitKind::Fleet).cmp(&(a.kind == UnitKind::Fleet)))
                .then_with(|| {
                    let na = &map.province(map.province_of(a.region)).name;
                    let nb = &map.province(map.province_of(b.region)).name;
                    na.to_lowercase().cmp(&nb.to_lowercase())
                })
        });
        let mut owed = -owed;
        for (i, u) in mine {
            if owed <= 0 {
                break;
            }
            owed -= upkeep(extras, u.kind);
            board[i] = None;
            civil.push(u);
        }
    }

    let mut units_after: Vec<Unit> = board.into_iter().flatten().collect();
    units_after.extend(built);
    AdjustResult {
        orders: statuses,
        civil_disorder: civil,
        unused_builds: left
            .iter()
            .map(|&l| (l.max(0) as u32).div_ceil(2))
            .collect(),
        units_after,
        pending,
    }
}

/// A build from off-board centres at one of the power's places for them
/// (a sea: a fleet unless the place takes armies too).
fn reserve_build(
    map: &Map,
    extras: Extras<'_>,
    power: PowerId,
    kind: Option<UnitKind>,
    at: crate::orders::Place,
) -> Result<Unit, Illegal> {
    let prov = map.province(at.province);
    let kind = match kind {
        Some(k) => k,
        None if !map.admits(prov.main_region(), UnitKind::Army) => UnitKind::Fleet,
        None if !map.admits(prov.main_region(), UnitKind::Fleet) => UnitKind::Army,
        None => return Err(Illegal::KindNeeded),
    };
    if !extras.features.has_kind(kind) {
        return Err(Illegal::NoSuchKind(kind));
    }
    if !extras.features.may_build_kind(power, kind) {
        return Err(Illegal::KindNotHere(kind));
    }
    let region = map
        .default_region(at.province, kind)
        .ok_or(Illegal::WrongTerrain)?;
    Ok(Unit {
        power,
        kind,
        region,
    })
}

/// Check a build's site and kind (DATC 4.B.7, 4.C.3, 4.C.4).
fn check_build(
    map: &Map,
    rules: &Rulebook,
    extras: Extras<'_>,
    power: PowerId,
    kind: Option<UnitKind>,
    at: crate::orders::Place,
    owners: &[Option<PowerId>],
) -> Result<Unit, Illegal> {
    let prov = map.province(at.province);
    // The kinds this site allows, where the variant restricts them.
    let mut only: Option<&[UnitKind]> = None;
    if let Some(b) = extras.features.box_at(at.province) {
        // The owner's own box: no centre, nobody else's.
        if b.owner != Some(power) {
            return Err(Illegal::NotABuildSite);
        }
        if !b.builds.is_empty() {
            only = Some(&b.builds);
        }
    } else if extras.placement {
        // Anywhere in the homeland, centre or not.
        if !map.power(power).homeland.contains(&at.province) {
            return Err(Illegal::NotInHomeland);
        }
    } else {
        if !prov.supply_centre {
            return Err(Illegal::NotABuildSite);
        }
        let home = extras.is_home(map, power, at.province)
            || extras.features.builds.anywhere.contains(&power);
        // An extra site, once held long enough where the variant says so
        // (1700 AD II rule 10a: the second turn of uninterrupted control).
        let site = extras.features.builds.sites.iter().find(|s| {
            s.0 == power
                && s.1 == at.province
                && (s.3 == 0
                    || extras.state.held_since.get(power).is_some_and(|h| {
                        h.iter().any(|(q, y)| {
                            *q == at.province && extras.year - y >= i32::from(s.3) - 1
                        })
                    }))
        });
        if rules.build_sites == BuildSites::HomeCentres && !home {
            match (site, extras.capture_kinds(power, at.province)) {
                (Some((_, _, kinds, _)), _) => {
                    only = (!kinds.is_empty()).then_some(kinds.as_slice())
                }
                (None, Some(kinds)) => only = Some(kinds),
                (None, None) => return Err(Illegal::NotABuildSite),
            }
        }
        if owners[at.province.index()] != Some(power) {
            return Err(Illegal::NotOwned);
        }
    }
    let coast_region = at.coast.and_then(|c| map.coast_region(at.province, c));
    let kind = match kind {
        Some(k) => k,
        None if only.is_some_and(|k| k.len() == 1) => only.map_or(UnitKind::Army, |k| k[0]),
        None => {
            if coast_region.is_some() {
                UnitKind::Fleet
            } else if map.admits(prov.main_region(), UnitKind::Fleet) || prov.has_split_coasts() {
                return Err(Illegal::KindNeeded);
            } else {
                UnitKind::Army
            }
        }
    };
    if !extras.features.has_kind(kind) {
        return Err(Illegal::NoSuchKind(kind));
    }
    if only.is_some_and(|k| !k.contains(&kind)) || !extras.features.may_build_kind(power, kind) {
        return Err(Illegal::KindNotHere(kind));
    }
    let region = match coast_region {
        Some(r) if map.admits(r, kind) => r,
        _ => match map.default_region(at.province, kind) {
            Some(r) => r,
            None if prov.has_split_coasts()
                && kind.mobility().intersects(crate::map::Mobility::FLEET) =>
            {
                return Err(Illegal::CoastNeeded);
            }
            None => return Err(Illegal::WrongTerrain),
        },
    };
    Ok(Unit {
        power,
        kind,
        region,
    })
}
