//! The adjustment judge: builds and removals to bring each power's units in
//! line with its supply centres.
//!
//! Orders are carried out one by one, in the order received, skipping those
//! that cannot be (DATC 4.D.4-4.D.6); removals still owed afterwards are
//! taken by the civil-disorder rule of the rulebook (DATC 4.D.8).

use super::Illegal;
use super::questions::{BuildSite, RuleQuestions, Standard};
use super::rulebook::Rulebook;
use super::rulebook::{BuildSites, CivilDisorderRule};
use crate::map::{Map, PowerId, ProvinceId, Unit, UnitKind};
use crate::orders::{AdjustCommand, AdjustOrder};

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
    adjustments_due_with(map, &Standard, units, owners)
}

/// [`adjustments_due`] in a variant, whose rules may count more centres
/// (raiders home, centres off the board) and other upkeep.
pub fn adjustments_due_with(
    map: &Map,
    q: &dyn RuleQuestions,
    units: &[Unit],
    owners: &[Option<PowerId>],
) -> Vec<i32> {
    // Half a build is still a build (a fleet of 1700 AD II), half a
    // removal still a removal.
    due_halves(map, q, units, owners)
        .into_iter()
        .map(|h| h.signum() * ((h.abs() + 1) / 2))
        .collect()
}

/// Builds (positive) or removals owed per power, in half centres: a centre
/// keeps one unit, or two fleets where the variant says so.
fn due_halves(
    map: &Map,
    q: &dyn RuleQuestions,
    units: &[Unit],
    owners: &[Option<PowerId>],
) -> Vec<i32> {
    let mut due = vec![0i32; map.powers().len()];
    for (i, d) in due.iter_mut().enumerate() {
        *d += 2 * i32::try_from(q.extra_centres(PowerId(i as u8))).unwrap_or(i32::MAX / 4);
    }
    // Units built and waiting to be placed are units all the same.
    for u in q.pending() {
        due[u.power.index()] -= q.upkeep(u.kind);
    }
    for (p, o) in owners.iter().enumerate() {
        if let Some(o) = o
            && map.provinces()[p].supply_centre
        {
            due[o.index()] += 2;
        }
    }
    for u in units {
        due[u.power.index()] -= q.upkeep(u.kind);
    }
    for (i, d) in due.iter_mut().enumerate() {
        if *d > 0
            && let Some(most) = q.builds_most(map, PowerId(i as u8), units)
        {
            *d = (*d).min(2 * i32::try_from(most).unwrap_or(i32::MAX / 4));
        }
    }
    due
}

/// Adjudicate an adjustment phase. `owners` gives each province's owner.
pub fn adjudicate_adjustments(
    map: &Map,
    rules: &Rulebook,
    units: &[Unit],
    owners: &[Option<PowerId>],
    orders: &[AdjustOrder],
) -> AdjustResult {
    adjudicate_adjustments_with(map, rules, &Standard, units, owners, orders)
}

/// [`adjudicate_adjustments`] in a variant whose rules answer `q`.
pub fn adjudicate_adjustments_with(
    map: &Map,
    rules: &Rulebook,
    q: &dyn RuleQuestions,
    units: &[Unit],
    owners: &[Option<PowerId>],
    orders: &[AdjustOrder],
) -> AdjustResult {
    // Counted in half centres.
    let due = due_halves(map, q, units, owners);
    let mut a = Adjustments {
        map,
        rules,
        q,
        owners,
        left: due,
        board: units.iter().copied().map(Some).collect(),
        built: Vec::new(),
        pending: Vec::new(),
        reserve_used: vec![0u32; map.powers().len()],
    };
    let statuses = orders
        .iter()
        .map(|o| match o.command {
            AdjustCommand::Waive => a.waive(o.power),
            AdjustCommand::Build { kind, at } => a.build(o.power, kind, at),
            AdjustCommand::Convert { unit, to } => a.convert(o.power, unit.at.province, to),
            AdjustCommand::Remove { unit } => a.remove(o.power, unit),
        })
        .collect();
    let civil = a.civil_disorder();
    let Adjustments {
        left,
        board,
        built,
        pending,
        ..
    } = a;
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

/// The adjustment phase as its orders are carried out one by one: what
/// each power still owes or may build, and the board so far.
struct Adjustments<'a> {
    map: &'a Map,
    rules: &'a Rulebook,
    q: &'a dyn RuleQuestions,
    owners: &'a [Option<PowerId>],
    /// Builds (positive) or removals (negative) still due per power, in
    /// half centres.
    left: Vec<i32>,
    /// The units of the board; `None` where one was removed.
    board: Vec<Option<Unit>>,
    /// Units built onto the board.
    built: Vec<Unit>,
    /// Units built to be placed later (Ard-Ri rule 7c).
    pending: Vec<Unit>,
    /// Builds each power has made from its off-board centres.
    reserve_used: Vec<u32>,
}

impl Adjustments<'_> {
    /// Why `unit` may not stand where it would be built, if it may not.
    fn occupied(&self, unit: &Unit) -> Option<Illegal> {
        refused_beside(
            self.map,
            self.board.iter().flatten().chain(&self.built).copied(),
            unit,
        )
    }

    /// Why the variant's limit on sites used together refuses a build
    /// of `power` at `at` (`RuleQuestions::build_limited`).
    fn limited(&self, power: PowerId, at: ProvinceId) -> Option<Illegal> {
        let start: Vec<Unit> = self.board.iter().flatten().copied().collect();
        self.q
            .build_limited(self.map, power, at, &start, &self.built)
    }

    fn waive(&mut self, power: PowerId) -> AdjustStatus {
        let left = &mut self.left[power.index()];
        if *left > 0 {
            *left = (*left - 2).max(0);
            AdjustStatus::Waived
        } else {
            AdjustStatus::Illegal(Illegal::NoBuildsDue)
        }
    }

    fn build(
        &mut self,
        power: PowerId,
        kind: Option<UnitKind>,
        mut at: crate::orders::Place,
    ) -> AdjustStatus {
        let pw = power.index();
        // The rule text's name for where the power's box units wait
        // (1066: `Build A SOD` is a build in William's box).
        if let Some(b) = self.q.box_named(power, at.province) {
            at = crate::orders::Place {
                province: b,
                coast: None,
            };
        }
        let checked = check_build(self.map, self.rules, self.q, power, kind, at, self.owners);
        if self.left[pw] <= 0 {
            // A build that could never be made says why (a leader, a
            // centre held too short a time), rather than only that none
            // was due.
            return match checked {
                Err(e) => AdjustStatus::Illegal(e),
                Ok(_) => AdjustStatus::Illegal(Illegal::NoBuildsDue),
            };
        }
        match checked {
            Err(e) => AdjustStatus::Illegal(e),
            // Built from centres off the board (Ard-Ri's Vikings), placed
            // at once or later.
            Ok((unit, BuildSite::Reserve { later })) => {
                if self.reserve_used[pw] >= self.q.reserve_left(power) {
                    AdjustStatus::Illegal(Illegal::NoReserve)
                } else if self
                    .pending
                    .iter()
                    .chain(&self.built)
                    .any(|u| self.map.province_of(u.region) == at.province)
                    || (!later && self.occupied(&unit).is_some())
                {
                    AdjustStatus::Illegal(Illegal::Occupied)
                } else {
                    self.left[pw] -= self.q.upkeep(unit.kind);
                    self.reserve_used[pw] += 1;
                    if later {
                        self.pending.push(unit);
                    } else {
                        self.built.push(unit);
                    }
                    AdjustStatus::Built(unit)
                }
            }
            Ok((unit, BuildSite::Open(_))) => {
                if let Some(why) = self.occupied(&unit) {
                    AdjustStatus::Illegal(why)
                } else if let Some(why) = self.limited(power, at.province) {
                    AdjustStatus::Illegal(why)
                } else if self.left[pw] < self.q.upkeep(unit.kind) {
                    // A defensive army takes two builds (1000 AD rule 7).
                    AdjustStatus::Illegal(Illegal::NoBuildsDue)
                } else if unit.kind == UnitKind::DefensiveArmy
                    && self
                        .board
                        .iter()
                        .flatten()
                        .chain(&self.built)
                        .any(|u| u.power == power && u.kind == UnitKind::DefensiveArmy)
                {
                    // One at a time.
                    AdjustStatus::Illegal(Illegal::OneDefensiveArmy)
                } else {
                    self.left[pw] -= self.q.upkeep(unit.kind);
                    self.built.push(unit);
                    AdjustStatus::Built(unit)
                }
            }
        }
    }

    /// A fleet on land becomes an army (Ard-Ri rule 7f).
    fn convert(&mut self, power: PowerId, at: ProvinceId, to: UnitKind) -> AdjustStatus {
        let map = self.map;
        let found = self
            .board
            .iter()
            .position(|u| u.is_some_and(|u| map.province_of(u.region) == at));
        match found.map(|i| (i, self.board[i].expect("position found a unit"))) {
            None => AdjustStatus::Illegal(Illegal::NoUnit),
            Some((_, u)) if u.power != power => {
                AdjustStatus::Illegal(Illegal::ForeignUnit(u.power))
            }
            Some((i, u)) => {
                let prov = map.province(map.province_of(u.region));
                let region = prov.main_region();
                if !self.q.may_convert(power) {
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
                    self.board[i] = Some(army);
                    AdjustStatus::Converted(army)
                }
            }
        }
    }

    fn remove(&mut self, power: PowerId, unit: crate::orders::UnitRef) -> AdjustStatus {
        let map = self.map;
        let pw = power.index();
        // On the board there, or else waiting in the box the rule text
        // names by that place (1066: `Remove A(SOD)`).
        let here = |p: ProvinceId, u: &Option<Unit>| {
            u.is_some_and(|u| {
                map.province_of(u.region) == p
                    && (!map.is_off_board(p)
                        || (u.power == power && unit.kind.is_none_or(|k| k == u.kind)))
            })
        };
        // Where units share a place (1700 AD's fleets beside an army, rule
        // 8), the kind written picks among them.
        let named =
            |u: &Option<Unit>| u.is_some_and(|u| u.power == power && unit.kind == Some(u.kind));
        let found = self
            .board
            .iter()
            .position(|u| here(unit.at.province, u) && named(u))
            .or_else(|| self.board.iter().position(|u| here(unit.at.province, u)))
            .or_else(|| {
                let b = self.q.box_named(power, unit.at.province)?;
                self.board.iter().position(|u| here(b, u))
            });
        let Some(i) = found else {
            return AdjustStatus::Illegal(Illegal::NoUnit);
        };
        let u = self.board[i].expect("position found a unit");
        if u.power != power {
            AdjustStatus::Illegal(Illegal::ForeignUnit(u.power))
        } else if self.left[pw] >= 0 {
            AdjustStatus::Illegal(Illegal::NoRemovalsDue)
        } else {
            // A defensive army goes whole (rule 7: never broken down),
            // even if that is more than owed.
            self.left[pw] = (self.left[pw] + self.q.upkeep(u.kind)).min(0);
            self.board[i] = None;
            AdjustStatus::Removed(u)
        }
    }

    /// Removals still owed once every order is carried out: civil
    /// disorder takes the units farthest from the power's centres.
    fn civil_disorder(&mut self) -> Vec<Unit> {
        let map = self.map;
        let mut civil = Vec::new();
        for (pw, &owed) in self.left.iter().enumerate() {
            if owed >= 0 {
                continue;
            }
            let power = PowerId(pw as u8);
            let targets: Vec<ProvinceId> = match self.rules.civil_disorder {
                CivilDisorderRule::Edition2023 => self
                    .owners
                    .iter()
                    .enumerate()
                    .filter(|(p, o)| **o == Some(power) && map.provinces()[*p].supply_centre)
                    .map(|(p, _)| ProvinceId(p as u16))
                    .collect(),
                CivilDisorderRule::HomeCentres => map.power(power).home_centres.clone(),
            };
            let dist = map.distances_to(&targets);
            let mut mine: Vec<(usize, Unit)> = self
                .board
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
                owed -= self.q.upkeep(u.kind);
                self.board[i] = None;
                civil.push(u);
            }
        }
        civil
    }
}

/// Why `unit` may not stand where it would be built beside `board`, if it
/// may not. A box holds any number of units; elsewhere the variant's
/// stacking rules say who may stand beside whom: a fleet refused beside its
/// own fleets alone meets the stacking limit (1700 AD II rule 8), anything
/// else a unit already there.
fn refused_beside(map: &Map, board: impl Iterator<Item = Unit>, unit: &Unit) -> Option<Illegal> {
    let p = map.province_of(unit.region);
    let others: Vec<Unit> = board.filter(|u| map.province_of(u.region) == p).collect();
    if map.is_off_board(p) || map.may_stand(p, unit.power, unit.kind, &others) {
        return None;
    }
    let mut fleets = others
        .iter()
        .filter(|u| u.kind == UnitKind::Fleet)
        .peekable();
    let stack_full = unit.kind == UnitKind::Fleet
        && map.stacking().fleets_per_coast > 1
        && fleets.peek().is_some()
        && fleets.all(|u| u.power == unit.power);
    Some(if stack_full {
        Illegal::StackLimit
    } else {
        Illegal::Occupied
    })
}

/// Why each build in `orders` would be refused on the board as it stands,
/// whether or not builds are due (None: it would be made if they were).
/// A yearly order sheet (1700 AD II rule 3) gives its builds before the
/// moves that decide how many are due, so the reply can only warn of the
/// refusals that do not hang on the count: a leader, a site that is no
/// build site, a centre held too short a time, a full coast.
pub fn build_refusals(
    map: &Map,
    rules: &Rulebook,
    q: &dyn RuleQuestions,
    units: &[Unit],
    owners: &[Option<PowerId>],
    orders: &[AdjustOrder],
) -> Vec<Option<Illegal>> {
    let mut built: Vec<Unit> = Vec::new();
    orders
        .iter()
        .map(|o| {
            let AdjustCommand::Build { kind, mut at } = o.command else {
                return None;
            };
            if let Some(b) = q.box_named(o.power, at.province) {
                at = crate::orders::Place {
                    province: b,
                    coast: None,
                };
            }
            match check_build(map, rules, q, o.power, kind, at, owners) {
                Err(e) => Some(e),
                Ok((_, BuildSite::Reserve { .. })) => None,
                Ok((unit, BuildSite::Open(_))) => {
                    let why = refused_beside(map, units.iter().chain(&built).copied(), &unit);
                    if why.is_none() {
                        built.push(unit);
                    }
                    why
                }
            }
        })
        .collect()
}

/// Check a build's site and kind (DATC 4.B.7, 4.C.3, 4.C.4): the unit it
/// would make, and the kind of site.
fn check_build(
    map: &Map,
    rules: &Rulebook,
    q: &dyn RuleQuestions,
    power: PowerId,
    kind: Option<UnitKind>,
    at: crate::orders::Place,
    owners: &[Option<PowerId>],
) -> Result<(Unit, BuildSite), Illegal> {
    let prov = map.province(at.province);
    let owned = owners[at.province.index()] == Some(power);
    let site = match q.build_site(map, power, at.province, owned) {
        Ok(site) => site,
        Err(Illegal::NotABuildSite)
            if rules.build_sites == BuildSites::AnyOwnedCentre && prov.supply_centre && owned =>
        {
            BuildSite::Open(None)
        }
        Err(e) => return Err(e),
    };
    let only: Option<&[UnitKind]> = match &site {
        BuildSite::Open(Some(kinds)) => Some(kinds),
        _ => None,
    };
    let coast_region = at.coast.and_then(|c| map.coast_region(at.province, c));
    let kind = match kind {
        Some(k) => k,
        None if only.is_some_and(|k| k.len() == 1) => only.map_or(UnitKind::Army, |k| k[0]),
        None if coast_region.is_some() => UnitKind::Fleet,
        None if !map.admits(prov.main_region(), UnitKind::Army) => UnitKind::Fleet,
        None if map.admits(prov.main_region(), UnitKind::Fleet) || prov.has_split_coasts() => {
            return Err(Illegal::KindNeeded);
        }
        None => UnitKind::Army,
    };
    if !q.has_kind(kind) {
        return Err(Illegal::NoSuchKind(kind));
    }
    // A kind no power builds (1700 AD II rule 7: leaders are never built).
    if !map.power_ids().any(|p| q.may_build_kind(p, kind)) {
        return Err(Illegal::NeverBuilt(kind));
    }
    if only.is_some_and(|k| !k.contains(&kind)) || !q.may_build_kind(power, kind) {
        return Err(Illegal::KindNotHere(kind));
    }
    // A defensive army "is restricted to the homeland" (1000 AD rule 7):
    // built outside it (the Magyars and Polacks' Lombardy, rule 4, is a
    // build centre of theirs but no part of their homeland) it could
    // never move or support.
    if kind == UnitKind::DefensiveArmy && !map.power(power).homeland.contains(&at.province) {
        return Err(Illegal::OutsideHomeland);
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
    Ok((
        Unit {
            power,
            kind,
            region,
        },
        site,
    ))
}
