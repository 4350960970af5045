//! The features a variant adds to standard Diplomacy, as data.
//!
//! Each feature is one optional table of the variant file, resolved here
//! against the map (names to ids) and checked with line numbers like the
//! map itself. The judges and the report ask the resolved [`Features`]
//! their rule questions; a variant without the table gets the standard
//! answer. Code that only one variant needs lives in a named hook module
//! and is switched on by its table, never by the variant's name.

use crate::calendar::{Calendar, Phase};
use crate::map::builder::{LineIndex, Problem};
use crate::map::{Map, Named, PowerId, ProvinceId, Unit};
use serde::Deserialize;
use toml::Spanned;

/// `[[box]]`: an off-board box (an invader's staging area, the raiding
/// grounds beyond the map's border).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawBox {
    /// The box (a province of terrain "off-board").
    pub province: Spanned<String>,
    /// The power whose box it is: it may build there.
    #[serde(default)]
    pub owner: Option<Spanned<String>>,
    /// Kinds the owner may build in the box.
    #[serde(default)]
    pub builds: Vec<crate::map::UnitKind>,
    /// Seas from which units may move into the box (a raid); none: no unit
    /// ever moves in.
    #[serde(default)]
    pub enter_from: Vec<Spanned<String>>,
    /// The season in which units may move in.
    #[serde(default)]
    pub enter_season: Option<Spanned<String>>,
    /// Kinds that may move in.
    #[serde(default)]
    pub enter_kinds: Vec<crate::map::UnitKind>,
    /// Powers that may not move in.
    #[serde(default)]
    pub not_powers: Vec<Spanned<String>>,
    /// The season in which units in the box may move out; none: any.
    #[serde(default)]
    pub exit_season: Option<Spanned<String>>,
    /// Board spaces the rule text says the box's units stand in (1066:
    /// William's armies wait "in the Straits of Dover"): an order naming
    /// one of them for the owner's unit finds it in the box.
    #[serde(default)]
    pub also_named: Vec<Spanned<String>>,
    /// Up to the end of this phase, the box's units move as if they stood
    /// in the also-named space their order names (1066: Harald's A/Fs are
    /// "in Oceanus Germanicus or the Wash", the place secret).
    #[serde(default)]
    pub moves_from_until: Option<Spanned<String>>,
    /// Where the box's starting units stand, one also-named space each,
    /// until `moves-from-until` (1066 rule 5: Harald's A/Fs in Oceanus
    /// Germanicus or the Wash, each in a place of its own that only he
    /// and the GM know). Empty: they wait in the box itself.
    #[serde(default)]
    pub waits_in: Vec<Spanned<String>>,
    /// In this phase the owner's orders say where the waiting units stand:
    /// each order naming an also-named space puts one there (1066 rule 5:
    /// the place is Harald's to know, so his to choose with his first
    /// orders); those not named keep `waits-in`.
    #[serde(default)]
    pub placed_by_orders: Option<Spanned<String>>,
    /// After the movement of this phase, units still in the box are put in
    /// the also-named spaces, one each where it is empty, the rest lost
    /// (1066: "at the end of the second move army/fleets exceeding the
    /// normal limit of one per area are eliminated").
    #[serde(default)]
    pub settle_after: Option<Spanned<String>>,
    /// A unit whose move out fails is destroyed (it cannot retreat).
    #[serde(default)]
    pub failed_exit_destroyed: bool,
    /// A unit that comes back counts as one more centre at the next
    /// adjustment (not for victory).
    #[serde(default)]
    pub exit_bonus: bool,
    /// Units on the board may support this box's units onto the board and
    /// convoy its armies (1066 rules 4 and 7; Ard-Ri's raiders, whose
    /// return by rule 6c is a move that rule 1 lets be supported).
    #[serde(default)]
    pub supported_out: bool,
}

/// `[destroy]`: 1066 rule 4, armies still waiting in the invader's box may
/// be destroyed by an enemy fleet's order from a given move on.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawDestroy {
    /// The box whose units may be destroyed.
    #[serde(rename = "box")]
    pub box_: Spanned<String>,
    /// The first phase in which the order works.
    pub from: Spanned<String>,
    /// Kinds that may give the order.
    pub by: Vec<crate::map::UnitKind>,
    /// The giver must stand in or next to one of these.
    pub near: Vec<Spanned<String>>,
    /// The kinds of waiting unit destroyed (1066 rule 4 speaks of armies:
    /// William's waiting fleets survive); empty: every kind.
    #[serde(default)]
    pub destroys: Vec<crate::map::UnitKind>,
}

/// A `[[builds.captures]]` entry: the first centres a power takes become
/// build sites for it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawCaptures {
    /// The power.
    pub power: Spanned<String>,
    /// How many of its first captures.
    pub count: usize,
    /// What it may build there.
    pub kinds: Vec<crate::map::UnitKind>,
}

/// `[[reserve]]`: centres a power holds off the board (Ard-Ri rule 7).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawReserve {
    /// The power.
    pub power: Spanned<String>,
    /// How many centres it starts with off the board.
    pub centres: u32,
    /// Where it builds the units they support.
    #[serde(default)]
    pub build_at: Vec<Spanned<String>>,
    /// Those units are placed only before the moves of this season (after
    /// the previous season's retreats); none: at once.
    #[serde(default)]
    pub arrive: Option<Spanned<String>>,
    /// Each centre gained on the board costs one off the board.
    #[serde(default)]
    pub lose_on_gain: bool,
}

/// A `[[builds.sites]]` entry: a centre (not a home centre) where a power
/// may build when it owns it (1000 AD rule 4: the Magyars and Polacks in
/// Lombardy).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawSite {
    /// The power.
    pub power: Spanned<String>,
    /// The centre.
    pub province: Spanned<String>,
    /// What it may build there (none listed: anything).
    #[serde(default)]
    pub kinds: Vec<crate::map::UnitKind>,
    /// Only on the power's n-th turn of holding it without a break (0:
    /// at once).
    #[serde(default)]
    pub after_turns: u8,
}

/// `[builds]`: who builds what, where, beyond the home centres.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawBuilds {
    /// Unit kind -> the only powers that may build it.
    #[serde(default)]
    pub only: std::collections::BTreeMap<String, Vec<Spanned<String>>>,
    /// Captured centres as build sites.
    #[serde(default)]
    pub captures: Vec<RawCaptures>,
    /// Powers may nominate neutral centres they hold as home centres in
    /// place of lost ones, up to this many home centres (1066 rule 6).
    #[serde(default)]
    pub replacement_homes: Option<usize>,
    /// Powers that may not nominate replacement home centres.
    #[serde(default)]
    pub no_replacement: Vec<Spanned<String>>,
    /// Powers that may build in any centre they own.
    #[serde(default)]
    pub anywhere: Vec<Spanned<String>>,
    /// Extra build sites.
    #[serde(default)]
    pub sites: Vec<RawSite>,
    /// Fleets a centre keeps (1700 AD II rule 8: two); default one.
    #[serde(default)]
    pub fleets_per_centre: Option<u8>,
    /// Powers that may, in an adjustment phase, turn a fleet standing on
    /// land into an army (Ard-Ri rule 7f).
    #[serde(default)]
    pub convert: Vec<Spanned<String>>,
}

/// The raw feature tables of a variant file not yet moved into a plug-in
/// of their own (`super::feature`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawFeatures {
    /// Off-board boxes.
    #[serde(default, rename = "box")]
    pub boxes: Vec<RawBox>,
    /// The destroy order.
    #[serde(default)]
    pub destroy: Option<RawDestroy>,
    /// Build rules.
    #[serde(default)]
    pub builds: RawBuilds,
    /// Off-board centres.
    #[serde(default)]
    pub reserve: Vec<RawReserve>,
    /// Armed neutral centres and their strength.
    #[serde(default)]
    pub garrisons: std::collections::BTreeMap<Spanned<String>, u32>,
    /// Mountain provinces (Switzerland).
    #[serde(default)]
    pub mountains: Vec<Spanned<String>>,
}

/// A resolved `[[box]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OffBoard {
    /// The box.
    pub province: ProvinceId,
    /// Its owner.
    pub owner: Option<PowerId>,
    /// Kinds the owner builds there.
    pub builds: Vec<crate::map::UnitKind>,
    /// Provinces units may move in from.
    pub enter_from: Vec<ProvinceId>,
    /// Season index in which they may.
    pub enter_season: Option<u8>,
    /// Kinds that may.
    pub enter_kinds: Vec<crate::map::UnitKind>,
    /// Powers that may not.
    pub not_powers: Vec<PowerId>,
    /// Season index for moving out.
    pub exit_season: Option<u8>,
    /// Board spaces an order may name for the box's units.
    pub also_named: Vec<ProvinceId>,
    /// Until this phase (included) the units move as if in those spaces.
    pub moves_from_until: Option<Phase>,
    /// The also-named space each starting unit of the box stands in while
    /// it waits (1066 rule 5); empty: in the box itself.
    pub waits_in: Vec<ProvinceId>,
    /// The phase whose orders place the waiting units.
    pub placed_by_orders: Option<Phase>,
    /// After this phase's movement the units left are settled.
    pub settle_after: Option<Phase>,
    /// A failed move out destroys the unit.
    pub failed_exit_destroyed: bool,
    /// A move out counts as a centre at the next adjustment.
    pub exit_bonus: bool,
    /// On-board units may support its units onto the board and convoy
    /// its armies.
    pub supported_out: bool,
}

/// A resolved `[destroy]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Destroy {
    /// The box.
    pub province: ProvinceId,
    /// First phase it works in.
    pub from: Phase,
    /// Kinds that may order it.
    pub by: Vec<crate::map::UnitKind>,
    /// Where the giver must be (in or next to).
    pub near: Vec<ProvinceId>,
    /// The kinds destroyed; empty: every kind.
    pub destroys: Vec<crate::map::UnitKind>,
}

/// A resolved `[[reserve]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reserve {
    /// The power.
    pub power: PowerId,
    /// Off-board centres at the start.
    pub centres: u32,
    /// Where their units are built.
    pub build_at: Vec<ProvinceId>,
    /// Season index before whose moves those units are placed.
    pub arrive: Option<u8>,
    /// Each centre gained on the board costs one off it.
    pub lose_on_gain: bool,
}

/// Resolved build rules.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Builds {
    /// Kind -> the powers that may build it (kinds not here: everybody).
    pub only: Vec<(crate::map::UnitKind, Vec<PowerId>)>,
    /// Power -> (count, kinds) of first captures that are build sites.
    pub captures: Vec<(PowerId, usize, Vec<crate::map::UnitKind>)>,
    /// Replacement home centres allowed up to this many home centres.
    pub replacement_homes: Option<usize>,
    /// Powers that may not nominate.
    pub no_replacement: Vec<PowerId>,
    /// Powers that build in any centre they own.
    pub anywhere: Vec<PowerId>,
    /// Extra build sites: power, centre, kinds (empty: any), turns of
    /// holding it needed (0: none).
    pub sites: Vec<(PowerId, ProvinceId, Vec<crate::map::UnitKind>, u8)>,
    /// Fleets a centre keeps (1 or 2).
    pub fleets_per_centre: u8,
    /// Powers that may turn a fleet on land into an army.
    pub convert: Vec<PowerId>,
}

pub use super::feature::Viewer;

/// A variant's features, resolved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Features {
    /// The features loaded as plug-ins (`super::feature`), in the order
    /// their steps run: what the variant has of `super::PLUGINS`.
    pub plugins: super::feature::Plugins,
    /// Off-board boxes.
    pub boxes: Vec<OffBoard>,
    /// The destroy order.
    pub destroy: Option<Destroy>,
    /// Build rules.
    pub builds: Builds,
    /// Off-board centres.
    pub reserves: Vec<Reserve>,
    /// Armed neutral centres and their intrinsic strength (1700 AD II rule
    /// 10b), until first occupied.
    pub garrisons: Vec<(ProvinceId, u32)>,
    /// Mountain provinces (1700 AD II rule 10c, Switzerland): crossing
    /// their border takes both impulses at single strength; a unit holding
    /// in one defends double.
    pub mountains: Vec<ProvinceId>,
}

impl Features {
    /// Whether an A/F is a fleet with an army aboard that counts as two
    /// units (Abstraction II rule 3).
    pub fn laden(&self) -> bool {
        self.units_in(&Unit {
            power: PowerId(0),
            kind: crate::map::UnitKind::ArmyFleet,
            region: crate::map::RegionId(0),
        }) > 1
    }

    /// How many units `u` counts as (an A/F with an army aboard: two).
    pub fn units_in(&self, u: &Unit) -> i64 {
        self.plugins.iter().find_map(|f| f.units_in(u)).unwrap_or(1)
    }

    /// The notations the variant's orders need, from its features.
    pub fn syntax(&self) -> crate::orders::OrderSyntax {
        let mut s = crate::orders::OrderSyntax {
            destroy: self.destroy.is_some(),
            convert: !self.builds.convert.is_empty(),
            ..Default::default()
        };
        for f in self.plugins.iter() {
            f.syntax(&mut s);
        }
        s
    }

    /// The kinds of unit the variant has: armies and fleets, and those its
    /// features add.
    pub fn kinds(&self) -> Vec<crate::map::UnitKind> {
        use crate::map::UnitKind;
        let mut k = vec![UnitKind::Army, UnitKind::Fleet];
        for f in self.plugins.iter() {
            f.kinds(&mut k);
        }
        k
    }

    /// Whether the variant has units of `kind`.
    pub fn has_kind(&self, kind: crate::map::UnitKind) -> bool {
        self.kinds().contains(&kind)
    }

    /// The box rules of province `p`, if it is a box.
    pub fn box_at(&self, p: ProvinceId) -> Option<&OffBoard> {
        self.boxes.iter().find(|b| b.province == p)
    }

    /// The off-board centres of `power`, if it has any.
    pub fn reserve_of(&self, power: PowerId) -> Option<&Reserve> {
        self.reserves.iter().find(|r| r.power == power)
    }

    /// Whether `power` may build units of `kind` at all.
    pub fn may_build_kind(&self, power: PowerId, kind: crate::map::UnitKind) -> bool {
        self.builds
            .only
            .iter()
            .find(|(k, _)| *k == kind)
            .is_none_or(|(_, who)| who.contains(&power))
    }

    /// The full name of `power`'s leader, if the variant names him
    /// (1700 AD II rule 7: Marlborough, Prince Eugene, ...).
    pub fn leader_name(&self, power: PowerId) -> Option<&str> {
        self.plugins.iter().find_map(|f| f.leader_name(power))
    }

    /// Whether the variant hides anything from anyone (then results are
    /// rendered per reader).
    pub fn hides_anything(&self) -> bool {
        self.plugins.iter().any(|f| f.hides_anything())
    }

    /// Whether `viewer` may see `what` in `phase`: the one question every
    /// result, page and picture asks of hidden information, answered by
    /// every feature that hides something.
    pub fn visible(&self, phase: Phase, viewer: Viewer, what: super::feature::Sight) -> bool {
        viewer == Viewer::Gm || self.plugins.iter().all(|f| f.visible(phase, viewer, what))
    }

    /// Whether `viewer` may not know which units stand at `p` in `phase`
    /// (1066 rule 5: Oceanus Germanicus and the Wash, for all but Harald
    /// and the GM, until the end of April 1066).
    pub fn place_hidden_from(&self, phase: Phase, p: ProvinceId, viewer: Viewer) -> bool {
        !self.visible(phase, viewer, super::feature::Sight::Place(p))
    }

    /// Whether `viewer` may not see where `u` stands in `phase`.
    pub fn hidden_from(&self, map: &Map, phase: Phase, u: &Unit, viewer: Viewer) -> bool {
        !self.visible(
            phase,
            viewer,
            super::feature::Sight::Unit(u.power, map.province_of(u.region)),
        )
    }

    /// Whether `power` gives no orders in `pos` (its units hold).
    pub fn silenced(&self, pos: &super::Position, power: PowerId) -> bool {
        self.plugins.iter().any(|f| f.silenced(pos, power))
    }
}

impl super::feature::Legacy for Features {
    fn has_boxes(&self) -> bool {
        !self.boxes.is_empty()
    }
    fn has_reserves(&self) -> bool {
        !self.reserves.is_empty()
    }
    fn remembers_captures(&self) -> bool {
        !self.builds.captures.is_empty() || self.builds.sites.iter().any(|s| s.3 > 0)
    }
    fn has_replacement_homes(&self) -> bool {
        self.builds.replacement_homes.is_some()
    }
}

fn province(
    map: &Map,
    s: &Spanned<String>,
    lines: &LineIndex,
    problems: &mut Vec<Problem>,
) -> Option<ProvinceId> {
    match map.lookup(s.get_ref()) {
        Some(Named::Province(p)) => Some(p),
        Some(Named::Region(r)) => Some(map.province_of(r)),
        None => {
            problems.push(Problem {
                line: lines.line(s.span().start),
                message: format!("unknown province `{}`", s.get_ref()),
            });
            None
        }
    }
}

fn power(
    map: &Map,
    s: &Spanned<String>,
    lines: &LineIndex,
    problems: &mut Vec<Problem>,
) -> Option<PowerId> {
    let p = map.lookup_power(s.get_ref());
    if p.is_none() {
        problems.push(Problem {
            line: lines.line(s.span().start),
            message: format!("unknown power `{}`", s.get_ref()),
        });
    }
    p
}

fn phase(
    cal: &Calendar,
    s: &Spanned<String>,
    lines: &LineIndex,
    problems: &mut Vec<Problem>,
) -> Option<Phase> {
    match cal.parse(s.get_ref()) {
        Ok(p) => Some(p),
        Err(e) => {
            problems.push(Problem {
                line: lines.line(s.span().start),
                message: e.to_string(),
            });
            None
        }
    }
}

/// Resolve the feature tables against the map and calendar.
pub fn resolve(
    raw: RawFeatures,
    map: &Map,
    cal: &Calendar,
    source: &str,
) -> Result<Features, Vec<Problem>> {
    let lines = LineIndex::new(source);
    let mut problems = Vec::new();
    let mut f = Features::default();
    for b in &raw.boxes {
        if let Some(b) = resolve_box(b, map, cal, &lines, &mut problems) {
            f.boxes.push(b);
        }
    }
    if let Some(d) = &raw.destroy {
        let p = province(map, &d.box_, &lines, &mut problems);
        let from = phase(cal, &d.from, &lines, &mut problems);
        let near = d
            .near
            .iter()
            .filter_map(|x| province(map, x, &lines, &mut problems))
            .collect();
        if let (Some(province), Some(from)) = (p, from) {
            f.destroy = Some(Destroy {
                province,
                from,
                by: d.by.clone(),
                near,
                destroys: d.destroys.clone(),
            });
        }
    }
    f.builds = resolve_builds(&raw.builds, map, &lines, &mut problems);
    for r in &raw.reserve {
        let Some(pw) = power(map, &r.power, &lines, &mut problems) else {
            continue;
        };
        f.reserves.push(Reserve {
            power: pw,
            centres: r.centres,
            build_at: r
                .build_at
                .iter()
                .filter_map(|x| province(map, x, &lines, &mut problems))
                .collect(),
            arrive: r
                .arrive
                .as_ref()
                .and_then(|s| season(cal, s, &lines, &mut problems)),
            lose_on_gain: r.lose_on_gain,
        });
    }
    f.mountains = raw
        .mountains
        .iter()
        .filter_map(|x| province(map, x, &lines, &mut problems))
        .collect();
    for (name, strength) in &raw.garrisons {
        if let Some(p) = province(map, name, &lines, &mut problems) {
            f.garrisons.push((p, *strength));
        }
    }
    if problems.is_empty() {
        Ok(f)
    } else {
        Err(problems)
    }
}

/// A resolved `[[box]]` (`None`: its province is unknown).
fn resolve_box(
    b: &RawBox,
    map: &Map,
    cal: &Calendar,
    lines: &LineIndex,
    problems: &mut Vec<Problem>,
) -> Option<OffBoard> {
    let p = province(map, &b.province, lines, problems)?;
    if map.province(p).terrain != crate::map::Terrain::OffBoard {
        problems.push(Problem {
            line: lines.line(b.province.span().start),
            message: format!(
                "`{}` is a box but its terrain is not off-board",
                b.province.get_ref()
            ),
        })
    }
    let owner = b
        .owner
        .as_ref()
        .and_then(|o| power(map, o, lines, problems));
    Some(OffBoard {
        province: p,
        owner,
        builds: b.builds.clone(),
        enter_from: b
            .enter_from
            .iter()
            .filter_map(|x| province(map, x, lines, problems))
            .collect(),
        enter_season: b
            .enter_season
            .as_ref()
            .and_then(|s| season(cal, s, lines, problems)),
        enter_kinds: b.enter_kinds.clone(),
        not_powers: b
            .not_powers
            .iter()
            .filter_map(|x| power(map, x, lines, problems))
            .collect(),
        exit_season: b
            .exit_season
            .as_ref()
            .and_then(|s| season(cal, s, lines, problems)),
        also_named: b
            .also_named
            .iter()
            .filter_map(|x| province(map, x, lines, problems))
            .collect(),
        moves_from_until: b
            .moves_from_until
            .as_ref()
            .and_then(|x| phase(cal, x, lines, problems)),
        waits_in: b
            .waits_in
            .iter()
            .filter_map(|x| province(map, x, lines, problems))
            .collect(),
        placed_by_orders: b
            .placed_by_orders
            .as_ref()
            .and_then(|x| phase(cal, x, lines, problems)),
        settle_after: b
            .settle_after
            .as_ref()
            .and_then(|x| phase(cal, x, lines, problems)),
        failed_exit_destroyed: b.failed_exit_destroyed,
        exit_bonus: b.exit_bonus,
        supported_out: b.supported_out,
    })
}

/// The resolved `[builds]`.
fn resolve_builds(
    raw: &RawBuilds,
    map: &Map,
    lines: &LineIndex,
    problems: &mut Vec<Problem>,
) -> Builds {
    let mut b = Builds::default();
    for (kind, who) in &raw.only {
        let k = match kind.as_str() {
            "army" => crate::map::UnitKind::Army,
            "fleet" => crate::map::UnitKind::Fleet,
            "army-fleet" => crate::map::UnitKind::ArmyFleet,
            "defensive-army" => crate::map::UnitKind::DefensiveArmy,
            "leader" => crate::map::UnitKind::Leader,
            other => {
                problems.push(Problem {
                    line: 0,
                    message: format!("[builds.only]: unknown unit kind `{other}`"),
                });
                continue;
            }
        };
        let powers = who
            .iter()
            .filter_map(|x| power(map, x, lines, problems))
            .collect();
        b.only.push((k, powers));
    }
    for c in &raw.captures {
        if let Some(pw) = power(map, &c.power, lines, problems) {
            b.captures.push((pw, c.count, c.kinds.clone()));
        }
    }
    for (list, out) in [
        (&raw.anywhere, &mut b.anywhere),
        (&raw.convert, &mut b.convert),
    ] {
        *out = list
            .iter()
            .filter_map(|x| power(map, x, lines, problems))
            .collect();
    }
    for site in &raw.sites {
        let pw = power(map, &site.power, lines, problems);
        let p = province(map, &site.province, lines, problems);
        if let (Some(pw), Some(p)) = (pw, p) {
            b.sites.push((pw, p, site.kinds.clone(), site.after_turns));
        }
    }
    b.fleets_per_centre = raw.fleets_per_centre.unwrap_or(1);
    b.replacement_homes = raw.replacement_homes;
    b.no_replacement = raw
        .no_replacement
        .iter()
        .filter_map(|x| power(map, x, lines, problems))
        .collect();
    b
}

/// A season named in a feature table, as its index in the calendar.
fn season(
    cal: &Calendar,
    s: &Spanned<String>,
    lines: &LineIndex,
    problems: &mut Vec<Problem>,
) -> Option<u8> {
    let want = s.get_ref().trim();
    let i = cal
        .seasons
        .iter()
        .position(|x| x.name.eq_ignore_ascii_case(want));
    if i.is_none() {
        problems.push(Problem {
            line: lines.line(s.span().start),
            message: format!("unknown season `{want}`"),
        });
    }
    i.and_then(|i| u8::try_from(i).ok())
}

/// A variant's features with a game's state and phase: the answers to the
/// judges' questions.
#[derive(Debug, Clone, Copy)]
pub struct Ruled<'a> {
    /// The features.
    pub features: &'a Features,
    /// What the game keeps for them.
    pub state: &'a crate::rules::RuleState,
    /// The phase being judged.
    pub phase: Phase,
    /// Who owns each province now, by province index (a rule whose build
    /// sites or count hang on the centres held reads it: `partisans`).
    pub owners: &'a [Option<PowerId>],
}

impl Ruled<'_> {
    /// Whether `p` is a home centre of `power` for building: its own, or
    /// one it nominated in place of a lost one.
    fn is_home(&self, map: &Map, power: PowerId, p: ProvinceId) -> bool {
        map.province(p).home_of == Some(power)
            || self.state.homes.get(power).is_some_and(|h| h.contains(&p))
    }

    /// If `p` is one of the first captures that `power` may build on, the
    /// kinds it may build there.
    fn capture_kinds(&self, power: PowerId, p: ProvinceId) -> Option<&[crate::map::UnitKind]> {
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

impl crate::adjudicate::questions::RuleQuestions for Ruled<'_> {
    fn box_named(&self, power: PowerId, named: ProvinceId) -> Option<ProvinceId> {
        self.features
            .boxes
            .iter()
            .find(|b| b.owner == Some(power) && b.also_named.contains(&named))
            .map(|b| b.province)
    }

    fn box_waiting_at(&self, named: ProvinceId) -> Option<ProvinceId> {
        self.features
            .boxes
            .iter()
            .find(|b| b.also_named.contains(&named))
            .map(|b| b.province)
    }

    fn supported_out(&self, b: ProvinceId) -> bool {
        self.features.box_at(b).is_some_and(|b| b.supported_out)
    }

    fn unseen(&self, orderer: PowerId, p: ProvinceId, phase: Option<Phase>) -> bool {
        self.features
            .plugins
            .iter()
            .any(|f| f.unseen(orderer, p, phase))
    }

    fn moves_from(&self, b: ProvinceId, named: ProvinceId, phase: Option<Phase>) -> bool {
        self.features.box_at(b).is_some_and(|b| {
            b.moves_from_until
                .is_some_and(|until| phase.is_some_and(|p| p <= until))
                && b.also_named.contains(&named)
        })
    }

    fn may_leave(&self, b: ProvinceId, phase: Option<Phase>) -> bool {
        self.features
            .box_at(b)
            .is_none_or(|b| season_ok(b.exit_season, phase))
    }

    fn may_enter(
        &self,
        unit: &Unit,
        from: ProvinceId,
        b: ProvinceId,
        phase: Option<Phase>,
    ) -> Result<(), crate::adjudicate::Illegal> {
        use crate::adjudicate::Illegal;
        let Some(b) = self.features.box_at(b) else {
            return Err(Illegal::NoEntry);
        };
        // Each refusal says which part of the raiding rule it breaks.
        if b.enter_from.is_empty() {
            return Err(Illegal::NoEntry);
        }
        if b.not_powers.contains(&unit.power) {
            return Err(Illegal::MayNotRaid);
        }
        if !b.enter_kinds.is_empty() && !b.enter_kinds.contains(&unit.kind) {
            return Err(Illegal::RaidKind);
        }
        if !b.enter_from.contains(&from) {
            return Err(Illegal::RaidOnlyFromOuterSeas);
        }
        if !season_ok(b.enter_season, phase) {
            return Err(Illegal::NotNow);
        }
        Ok(())
    }

    fn failed_exit_destroyed(&self, b: ProvinceId) -> bool {
        self.features
            .box_at(b)
            .is_some_and(|b| b.failed_exit_destroyed)
    }

    fn check_destroy(
        &self,
        map: &Map,
        unit: &Unit,
        target: ProvinceId,
        phase: Option<Phase>,
    ) -> Result<(), crate::adjudicate::Illegal> {
        use crate::adjudicate::Illegal;
        let Some(d) = &self.features.destroy else {
            return Err(Illegal::NotInThisGame);
        };
        let here = map.province_of(unit.region);
        let near = d.near.contains(&here)
            || d.near
                .iter()
                .any(|&n| map.reaches(unit.region, n, unit.kind));
        let aimed = target == d.province || d.near.contains(&target);
        let owner = self.features.box_at(d.province).and_then(|b| b.owner);
        if !d.by.contains(&unit.kind) || !near || !aimed || owner == Some(unit.power) {
            return Err(Illegal::CannotDestroy);
        }
        if phase.is_some_and(|p| p < d.from) {
            return Err(Illegal::NotNow);
        }
        Ok(())
    }

    fn destroy_box(&self) -> Option<ProvinceId> {
        self.features.destroy.as_ref().map(|d| d.province)
    }

    fn destroys(&self, kind: crate::map::UnitKind) -> bool {
        self.features
            .destroy
            .as_ref()
            .is_some_and(|d| d.destroys.is_empty() || d.destroys.contains(&kind))
    }

    fn has_ice(&self) -> bool {
        self.features.plugins.iter().any(|f| f.has_ice())
    }

    fn icebound(&self, p: ProvinceId, kind: crate::map::UnitKind, phase: Option<Phase>) -> bool {
        let Some(phase) = phase else {
            return false;
        };
        self.features
            .plugins
            .iter()
            .any(|f| f.icebound(p, kind, phase))
    }

    fn mountain(&self, p: ProvinceId) -> bool {
        self.features.mountains.contains(&p)
    }

    fn ferry_only(&self) -> bool {
        self.features.plugins.iter().any(|f| f.ferry_only())
    }

    fn has_kind(&self, kind: crate::map::UnitKind) -> bool {
        self.features.has_kind(kind)
    }

    fn may_build_kind(&self, power: PowerId, kind: crate::map::UnitKind) -> bool {
        self.features.may_build_kind(power, kind)
    }

    fn upkeep(&self, kind: crate::map::UnitKind) -> i32 {
        use crate::map::UnitKind;
        // An A/F that is a fleet with an army aboard costs two centres; a
        // fleet half a centre where a centre keeps two fleets (1700 AD II
        // rule 8).
        if let Some(u) = self.features.plugins.iter().find_map(|f| f.upkeep(kind)) {
            u
        } else if kind == UnitKind::Fleet && self.features.builds.fleets_per_centre == 2 {
            1
        } else {
            2 * kind.upkeep()
        }
    }

    fn extra_centres(&self, power: PowerId) -> u32 {
        self.state.bonus.get(power).copied().unwrap_or(0)
            + self.state.reserve.get(power).copied().unwrap_or(0)
            + self
                .features
                .plugins
                .iter()
                .map(|f| f.centres_beyond(self.owners, power))
                .sum::<u32>()
    }

    fn builds_most(&self, map: &Map, power: PowerId, units: &[Unit]) -> Option<u32> {
        self.features
            .plugins
            .iter()
            .filter_map(|f| f.builds_most(map, self.owners, power, units))
            .min()
    }

    fn pending(&self) -> &[Unit] {
        &self.state.pending
    }

    fn build_limited(
        &self,
        map: &Map,
        power: PowerId,
        at: ProvinceId,
        start: &[Unit],
        built: &[Unit],
    ) -> Option<crate::adjudicate::Illegal> {
        self.features
            .plugins
            .iter()
            .find_map(|f| f.build_limited(map, self.owners, power, at, start, built))
    }

    fn placement(&self) -> bool {
        self.phase.kind == crate::calendar::PhaseKind::Placement
    }

    fn build_site(
        &self,
        map: &Map,
        power: PowerId,
        p: ProvinceId,
        owned: bool,
    ) -> Result<crate::adjudicate::questions::BuildSite, crate::adjudicate::Illegal> {
        use crate::adjudicate::Illegal;
        use crate::adjudicate::questions::BuildSite;
        // Off-board centres' units, at the places the variant gives them.
        if let Some(r) = self.reserve_of_at(power, p) {
            return Ok(BuildSite::Reserve {
                later: r.arrive.is_some(),
            });
        }
        // The owner's own box: no centre, nobody else's.
        if let Some(b) = self.features.box_at(p) {
            if b.owner != Some(power) {
                return Err(Illegal::NotABuildSite);
            }
            return Ok(BuildSite::Open(
                (!b.builds.is_empty()).then(|| b.builds.clone()),
            ));
        }
        // The opening placement: anywhere in the homeland, centre or not.
        if self.placement() {
            if !map.power(power).homeland.contains(&p) {
                return Err(Illegal::NotInHomeland);
            }
            return Ok(BuildSite::Open(None));
        }
        // A feature whose rule decides the site (`home-builds`).
        if let Some(answer) = self
            .features
            .plugins
            .iter()
            .find_map(|f| f.build_site_in(map, self.state, self.owners, power, p, owned))
        {
            return answer;
        }
        // A power with centres off the board builds in their seas and
        // anywhere it holds a centre (Ard-Ri rules 7b, 7e): say so, rather
        // than the home-centre rule it does not play by.
        let wider = self.features.reserve_of(power).is_some()
            && self.features.builds.anywhere.contains(&power);
        if !map.province(p).supply_centre {
            return Err(if wider {
                Illegal::NotReserveOrHeld
            } else {
                Illegal::NotABuildSite
            });
        }
        let home = self.is_home(map, power, p) || self.features.builds.anywhere.contains(&power);
        let mut only = None;
        if !home {
            // An extra site, once held long enough where the variant says
            // so (1700 AD II rule 10a: the second turn of uninterrupted
            // control).
            let year = self.phase.year;
            let site = self.features.builds.sites.iter().find(|s| {
                s.0 == power
                    && s.1 == p
                    && (s.3 == 0
                        || self.state.held_since.get(power).is_some_and(|h| {
                            h.iter().any(|(q, y)| {
                                // i64: a hand-written position may
                                // hold any year here.
                                *q == p && i64::from(year) - i64::from(*y) >= i64::from(s.3) - 1
                            })
                        }))
            });
            // A site of the power's not yet held long enough says so, held
            // or not: taken this turn at best, it is still too soon.
            let too_soon = self
                .features
                .builds
                .sites
                .iter()
                .find(|s| s.0 == power && s.1 == p)
                .map(|s| s.3);
            match (site, self.capture_kinds(power, p)) {
                (Some((_, _, kinds, _)), _) => {
                    only = (!kinds.is_empty()).then(|| kinds.clone());
                }
                (None, Some(kinds)) => only = Some(kinds.to_vec()),
                (None, None) if too_soon.is_some() => {
                    return Err(Illegal::HeldTooShort(too_soon.unwrap_or(2)));
                }
                // A power that builds on the board only in its first
                // captures has no home centres to be told about.
                (None, None)
                    if map.power(power).home_centres.is_empty()
                        && self.features.builds.captures.iter().any(|c| c.0 == power) =>
                {
                    return Err(Illegal::NotAFirstCapture);
                }
                (None, None) => return Err(Illegal::NotABuildSite),
            }
        }
        if !owned {
            return Err(Illegal::NotOwned);
        }
        Ok(BuildSite::Open(only))
    }

    fn reserve_left(&self, power: PowerId) -> u32 {
        self.state.reserve.get(power).copied().unwrap_or(0)
    }

    fn may_convert(&self, power: PowerId) -> bool {
        self.features.builds.convert.contains(&power)
    }
}

impl Ruled<'_> {
    fn reserve_of_at(&self, power: PowerId, p: ProvinceId) -> Option<&Reserve> {
        self.features
            .reserve_of(power)
            .filter(|r| r.build_at.contains(&p))
    }
}

/// Whether a box rule's season (if any) is the phase's.
fn season_ok(season: Option<u8>, phase: Option<Phase>) -> bool {
    match (season, phase) {
        (None, _) | (_, None) => true,
        (Some(s), Some(p)) => p.season == s,
    }
}
