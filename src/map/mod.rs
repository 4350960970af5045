//! The board: provinces, the regions units stand in, borders, supply centres
//! and the powers that own them.
//!
//! Everything past the loader speaks in interned ids ([`ProvinceId`],
//! [`RegionId`], [`PowerId`]) rather than strings, so the adjudicator can keep
//! its state in flat arrays indexed by id. A *province* is what a supply
//! centre, an owner and a "one unit per space" rule refer to; a *region* is
//! where a unit actually stands: the province itself, or one coast of a
//! province with split coasts (St Petersburg north coast). Armies and fleets
//! meet in provinces but move between regions.
//!
//! The map is built and checked by [`builder`] from the `[[provinces]]` and
//! `[[powers]]` tables of a variant file; nothing here does I/O.

pub mod builder;
mod crossing;
mod names;
mod owner_borders;
pub mod wire;

pub use crossing::Crossing;
pub use names::normalize_name;
pub use owner_borders::{ClosedBorder, OwnerBorder};

use std::collections::HashMap;
use std::fmt;

/// Index of a province in [`Map::provinces`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProvinceId(pub u16);

/// Index of a region in [`Map::regions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegionId(pub u16);

/// Index of a power in [`Map::powers`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PowerId(pub u8);

/// Index of a coast name in [`Map::coasts`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CoastId(pub u8);

impl ProvinceId {
    /// The id as an array index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl RegionId {
    /// The id as an array index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl PowerId {
    /// The id as an array index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What kind of ground a province is. Terrain decides which unit kinds may
/// stand in it; borders decide which may cross between provinces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Terrain {
    /// Inland: armies only.
    Land,
    /// Land with a shore: armies, and fleets through its coast(s).
    Coast,
    /// Water: fleets only.
    Sea,
    /// Nobody may enter (Switzerland on the standard board).
    Impassable,
    /// A box off the edge of the board (an invader's staging area, raiders
    /// away from home): units stand there but it is not part of the board
    /// for supply or victory.
    OffBoard,
}

/// A set of movement classes, used for borders and for what a region admits.
///
/// Every unit kind moves as an army, as a fleet, or as both (the A/F of the
/// postal variants), so two bits describe every border we need.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Mobility(u8);

impl Mobility {
    /// No unit may use it.
    pub const NONE: Mobility = Mobility(0);
    /// Armies (and everything that moves like one).
    pub const ARMY: Mobility = Mobility(1);
    /// Fleets.
    pub const FLEET: Mobility = Mobility(2);
    /// Both.
    pub const BOTH: Mobility = Mobility(3);

    /// True when the two sets share a class.
    pub fn intersects(self, other: Mobility) -> bool {
        self.0 & other.0 != 0
    }
    /// Union of two sets.
    pub fn union(self, other: Mobility) -> Mobility {
        Mobility(self.0 | other.0)
    }
    /// True when the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

/// The kinds of unit the judge knows. Standard Diplomacy uses only armies and
/// fleets; the others come from the postal variants and are described here
/// so that positions, orders and reports can carry them from the start.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Deserialize, serde::Serialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum UnitKind {
    /// `A`: moves over land, may be convoyed.
    Army,
    /// `F`: moves over water and along coasts, may convoy.
    Fleet,
    /// `A/F`: an army and a fleet in one piece (1066, Abstraction II).
    ArmyFleet,
    /// `3D`: the triple-strength defensive army of 1000 AD, bound to its
    /// homeland.
    DefensiveArmy,
    /// A named general of 1700 AD (`L(Mar)`, `CXII`): an army with three
    /// impulses.
    Leader,
}

impl UnitKind {
    /// The borders this kind may cross.
    pub fn mobility(self) -> Mobility {
        match self {
            UnitKind::Fleet => Mobility::FLEET,
            UnitKind::ArmyFleet => Mobility::BOTH,
            UnitKind::Army | UnitKind::DefensiveArmy | UnitKind::Leader => Mobility::ARMY,
        }
    }

    /// The letter a zine prints before the province: `A(Lon)`, `F(ENG)`.
    pub fn letter(self) -> &'static str {
        match self {
            UnitKind::Army => "A",
            UnitKind::Fleet => "F",
            UnitKind::ArmyFleet => "A/F",
            UnitKind::DefensiveArmy => "3D",
            UnitKind::Leader => "L",
        }
    }

    /// The kind a letter names, as [`UnitKind::letter`] writes it (any
    /// case).
    pub fn from_letter(text: &str) -> Option<UnitKind> {
        match text.to_ascii_uppercase().as_str() {
            "A" => Some(UnitKind::Army),
            "F" => Some(UnitKind::Fleet),
            "A/F" => Some(UnitKind::ArmyFleet),
            "3D" => Some(UnitKind::DefensiveArmy),
            "L" => Some(UnitKind::Leader),
            _ => None,
        }
    }

    /// The word used in the judge-style reports: `Army London -> York`.
    pub fn word(self) -> &'static str {
        match self {
            UnitKind::Army => "Army",
            UnitKind::Fleet => "Fleet",
            UnitKind::ArmyFleet => "Army/Fleet",
            UnitKind::DefensiveArmy => "Defensive Army",
            UnitKind::Leader => "Leader",
        }
    }

    /// Whether a fleet may carry this unit across water by convoy. 1000
    /// AD's defensive army is a "triple army" under the standard rules
    /// (rules 1, 7, 9): it may be convoyed, though only to a province of
    /// its homeland, as any move of it.
    pub fn is_convoyable(self) -> bool {
        matches!(
            self,
            UnitKind::Army | UnitKind::Leader | UnitKind::DefensiveArmy
        )
    }

    /// Whether this unit may convoy others (1066's A/F has a fleet's
    /// powers as well as an army's).
    pub fn can_convoy(self) -> bool {
        matches!(self, UnitKind::Fleet | UnitKind::ArmyFleet)
    }

    /// The strength the unit brings alone, to a move, a hold or a
    /// support: three for 1000 AD's defensive army (a "triple army") and
    /// 1700 AD's leaders, one for the rest.
    pub fn strength(self) -> u32 {
        match self {
            UnitKind::DefensiveArmy | UnitKind::Leader => 3,
            _ => 1,
        }
    }

    /// The centres it takes to keep the unit: two for the defensive army
    /// (1000 AD rule 7), one for the rest.
    pub fn upkeep(self) -> i32 {
        match self {
            UnitKind::DefensiveArmy => 2,
            _ => 1,
        }
    }

    /// Whether attacks that fail to cut its support still weaken it: the
    /// defensive army's support of three loses the strength of the
    /// strongest attack on it (1000 AD rule 8).
    pub fn support_worn_down(self) -> bool {
        matches!(self, UnitKind::DefensiveArmy)
    }
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

/// A province: the unit of ownership and occupancy.
#[derive(Debug, Clone)]
pub struct Province {
    /// The abbreviation as the rule text prints it (`Lon`, `ENG`, `StP`).
    pub abbr: String,
    /// Full name (`London`, `English Channel`).
    pub name: String,
    /// Ground type.
    pub terrain: Terrain,
    /// Whether it is a supply centre.
    pub supply_centre: bool,
    /// The power whose home centre it is, if any.
    pub home_of: Option<PowerId>,
    /// Its regions: the first is the province as a whole (where armies
    /// stand); the rest, if any, are its separately named coasts.
    pub regions: Vec<RegionId>,
    /// Where the map picture draws it (1000 x 1000 canvas, north up).
    pub xy: Option<[f32; 2]>,
    /// A coast whose fleet may convoy as if at sea (see
    /// [`Map::convoys_at`]).
    pub port: bool,
}

impl Province {
    /// The region that stands for the whole province.
    pub fn main_region(&self) -> RegionId {
        self.regions[0]
    }
    /// Whether the province has more than one named coast.
    pub fn has_split_coasts(&self) -> bool {
        self.regions.len() > 1
    }
}

/// A place a unit can stand in.
#[derive(Debug, Clone)]
pub struct Region {
    /// The province it belongs to.
    pub province: ProvinceId,
    /// The named coast, for the coasts of split-coast provinces.
    pub coast: Option<CoastId>,
    /// Which movement classes may stand here.
    pub admits: Mobility,
    /// Where the map picture stands a unit on this coast (1000 x 1000
    /// canvas, as the province's `xy`), when the variant file says
    /// (`coast-xy`: DPjudge's PostScript maps give each coast's point).
    pub xy: Option<[f32; 2]>,
}

/// A coast name such as `nc` / `north coast`.
#[derive(Debug, Clone)]
pub struct Coast {
    /// Short form as written after a slash: `nc`.
    pub abbr: String,
    /// Long form: `north coast`.
    pub name: String,
}

/// A great power.
#[derive(Debug, Clone)]
pub struct Power {
    /// Display name (`England`, `Duke William`).
    pub name: String,
    /// Adjective (`English`), used in reports.
    pub adjective: String,
    /// Home supply centres.
    pub home_centres: Vec<ProvinceId>,
    /// Played only when the GM chooses it at CREATE.
    pub optional: bool,
    /// Its homeland: the home centres and the provinces around them that
    /// the variant file adds (1000 AD's defensive army stays in it).
    pub homeland: Vec<ProvinceId>,
    /// The centres it owns when the game starts: its home centres, unless
    /// the variant file says otherwise (`owns`).
    pub starting_centres: Vec<ProvinceId>,
}

/// What a name typed by a player refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// A whole province.
    Province(ProvinceId),
    /// One coast of a province (`stp/nc`).
    Region(RegionId),
}

/// A set of provinces, as a bitset: the adjudicator asks "can this unit reach
/// that province" often enough that it pays to precompute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ProvinceSet([u64; 6]);

impl ProvinceSet {
    /// The most provinces a map may have: room for DPjudge's largest map,
    /// Imperial (356 places), and no more than that needs, as each region
    /// keeps two sets and a lookup reads one word of them.
    pub const CAPACITY: usize = 384;

    /// Add a province.
    pub fn insert(&mut self, p: ProvinceId) {
        self.0[p.index() >> 6] |= 1u64 << (p.index() & 63);
    }
    /// Membership test.
    pub fn contains(&self, p: ProvinceId) -> bool {
        self.0[p.index() >> 6] & (1u64 << (p.index() & 63)) != 0
    }
}

/// The whole board.
#[derive(Debug, Clone)]
pub struct Map {
    pub(crate) provinces: Vec<Province>,
    pub(crate) regions: Vec<Region>,
    pub(crate) coasts: Vec<Coast>,
    pub(crate) powers: Vec<Power>,
    /// Per region: the regions it borders and which classes may cross.
    pub(crate) borders: Vec<Vec<(RegionId, Mobility)>>,
    /// Per region: provinces reachable in one move by armies / by fleets.
    pub(crate) reach: Vec<[ProvinceSet; 2]>,
    /// The off-board boxes ([`Terrain::OffBoard`]): the judge asks of
    /// nearly every order whether it names one, and a bit of one word
    /// answers that without reading the province (issue #36).
    pub(crate) off_board: ProvinceSet,
    /// Normalised name or alias -> what it names.
    pub(crate) names: HashMap<String, Named>,
    /// Every leading run of words of a multi-word name (`north`, `north
    /// atlantic` for `north atlantic ocean`): lets the parser stop reading
    /// a name as soon as no name can continue it.
    pub(crate) name_prefixes: std::collections::HashSet<String>,
    /// Normalised power name, adjective or alias -> power.
    pub(crate) power_names: HashMap<String, PowerId>,
    /// Names players use for more than one place (`tyr`: Tyrolia or the
    /// Tyrrhenian Sea, as DPjudge marks them): an order naming one is
    /// asked about, never guessed.
    pub(crate) ambiguous: HashMap<String, Vec<ProvinceId>>,
    /// Which units may share a province.
    pub(crate) stacking: Stacking,
    /// Marked borders, one way each: from, to, how a move crosses (see
    /// [`Map::crossing`]); empty on most maps.
    pub(crate) marks: Vec<(ProvinceId, ProvinceId, Crossing)>,
    /// Borders open only to the owner of some centres (see
    /// [`Map::closed_borders`]); empty on most maps.
    pub(crate) owner_borders: Vec<OwnerBorder>,
}

impl Stacking {
    /// Whether a unit of `power` and `kind` may stand in a province of
    /// `terrain` beside `others` (power, kind).
    pub fn allows(
        self,
        terrain: Terrain,
        power: PowerId,
        kind: UnitKind,
        others: &[(PowerId, UnitKind)],
    ) -> bool {
        if terrain == Terrain::OffBoard {
            return true;
        }
        let fleet = |k: UnitKind| k == UnitKind::Fleet;
        let fleets = others.iter().filter(|(_, k)| fleet(*k)).count();
        others.iter().all(|&(p, k)| {
            if fleet(kind) != fleet(k) {
                // Fleets beside land units: one's own, or an ally's who
                // permitted it (the judge checks the permission).
                self.fleets_beside_armies
            } else if fleet(kind) {
                p == power
                    && match terrain {
                        Terrain::Sea => self.fleets_at_sea,
                        _ => fleets < usize::from(self.fleets_per_coast),
                    }
            } else {
                false
            }
        })
    }
}

/// Which units may share a province: none in the standard game; 1700 AD
/// II (rule 8) lets fleets stand beside land units (their own, or an
/// ally's by permission), two to a coastal province and any number at sea.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Stacking {
    /// Fleets may stand in a province with their own power's land units.
    #[serde(default)]
    pub fleets_beside_armies: bool,
    /// How many of one power's fleets may share a coastal province (0 or
    /// 1: no sharing).
    #[serde(default)]
    pub fleets_per_coast: u8,
    /// Any number of one power's fleets may share a sea.
    #[serde(default)]
    pub fleets_at_sea: bool,
}

impl Map {
    /// The variant's stacking rules.
    pub fn stacking(&self) -> Stacking {
        self.stacking
    }

    /// Whether a unit of `power` and `kind` may stand in province `p`
    /// beside the units already there (`others`).
    pub fn may_stand(
        &self,
        p: ProvinceId,
        power: PowerId,
        kind: UnitKind,
        others: &[Unit],
    ) -> bool {
        let others: Vec<(PowerId, UnitKind)> = others.iter().map(|o| (o.power, o.kind)).collect();
        self.stacking
            .allows(self.province(p).terrain, power, kind, &others)
    }

    /// All provinces, indexed by [`ProvinceId`].
    pub fn provinces(&self) -> &[Province] {
        &self.provinces
    }
    /// All regions, indexed by [`RegionId`].
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }
    /// All powers, indexed by [`PowerId`].
    pub fn powers(&self) -> &[Power] {
        &self.powers
    }
    /// Province by id.
    pub fn province(&self, p: ProvinceId) -> &Province {
        &self.provinces[p.index()]
    }
    /// Whether province `p` is an off-board box: the same as its terrain
    /// being [`Terrain::OffBoard`], from a bitset kept for the judge.
    pub fn is_off_board(&self, p: ProvinceId) -> bool {
        self.off_board.contains(p)
    }
    /// Region by id.
    pub fn region(&self, r: RegionId) -> &Region {
        &self.regions[r.index()]
    }
    /// Power by id.
    pub fn power(&self, p: PowerId) -> &Power {
        &self.powers[p.index()]
    }
    /// Ids of all provinces.
    pub fn province_ids(&self) -> impl Iterator<Item = ProvinceId> + '_ {
        (0..self.provinces.len()).map(|i| ProvinceId(i as u16))
    }
    /// Ids of all powers.
    pub fn power_ids(&self) -> impl Iterator<Item = PowerId> + '_ {
        (0..self.powers.len()).map(|i| PowerId(i as u8))
    }
    /// Number of supply centres on the map.
    pub fn supply_centre_count(&self) -> usize {
        self.provinces.iter().filter(|p| p.supply_centre).count()
    }
    /// The coast table.
    pub fn coast(&self, c: CoastId) -> &Coast {
        &self.coasts[c.0 as usize]
    }
    /// The province a region belongs to.
    pub fn province_of(&self, r: RegionId) -> ProvinceId {
        self.regions[r.index()].province
    }

    /// Look a name up (any case, dots and apostrophes ignored).
    pub fn lookup(&self, name: &str) -> Option<Named> {
        self.names.get(&normalize_name(name)).copied()
    }
    /// Whether some name continues `prefix` with more words.
    pub fn is_name_prefix(&self, prefix: &str) -> bool {
        self.name_prefixes.contains(prefix)
    }
    /// Look up one word as the order lexer hands it over (lower case):
    /// skips normalising when there is nothing to normalise.
    pub fn lookup_word(&self, w: &str) -> Option<Named> {
        if w.contains(['.', '\'', '\u{2019}', '-', '_', '+']) || w.chars().any(char::is_uppercase) {
            self.lookup(w)
        } else {
            self.names.get(w).copied()
        }
    }
    /// Look up an already normalised name.
    pub fn lookup_normalized(&self, name: &str) -> Option<Named> {
        self.names.get(name).copied()
    }
    /// The places an ambiguous name may mean (none: it is not one).
    pub fn ambiguous(&self, name: &str) -> &[ProvinceId] {
        self.ambiguous
            .get(&normalize_name(name))
            .map_or(&[], Vec::as_slice)
    }
    /// Look a power up by name, adjective or alias.
    pub fn lookup_power(&self, name: &str) -> Option<PowerId> {
        // As players write them too: `the` before a name (`The English`)
        // and the people in the plural (`Austro-Hungarians`).
        let n = normalize_name(name);
        let bare = n.strip_prefix("the ").unwrap_or(&n);
        [n.as_str(), bare]
            .into_iter()
            .find_map(|k| {
                self.power_names
                    .get(k)
                    .or_else(|| k.strip_suffix('s').and_then(|s| self.power_names.get(s)))
            })
            .copied()
    }
    /// Every known name (normalised) with its target: for suggestions.
    pub fn names(&self) -> impl Iterator<Item = (&str, Named)> {
        self.names.iter().map(|(k, v)| (k.as_str(), *v))
    }
    /// The coast of a province with the given coast id, if it has it.
    pub fn coast_region(&self, p: ProvinceId, c: CoastId) -> Option<RegionId> {
        self.province(p)
            .regions
            .iter()
            .copied()
            .find(|r| self.regions[r.index()].coast == Some(c))
    }
    /// Look up a coast by its short or long name.
    pub fn lookup_coast(&self, s: &str) -> Option<CoastId> {
        let n = normalize_name(s);
        self.coasts
            .iter()
            .position(|c| normalize_name(&c.abbr) == n || normalize_name(&c.name) == n)
            .map(|i| CoastId(i as u8))
    }

    /// Regions bordering `from`, with the classes that may cross.
    pub fn borders(&self, from: RegionId) -> &[(RegionId, Mobility)] {
        &self.borders[from.index()]
    }

    /// Whether a unit moving with `m` may cross from `from` into region `to`.
    pub fn borders_region(&self, from: RegionId, to: RegionId, m: Mobility) -> bool {
        self.borders[from.index()]
            .iter()
            .any(|&(r, b)| r == to && b.intersects(m))
    }

    /// Whether a unit of kind `k` standing in `from` could move into some
    /// region of province `to` (which is also what it may support into).
    pub fn reaches(&self, from: RegionId, to: ProvinceId, k: UnitKind) -> bool {
        let reach = &self.reach[from.index()];
        let m = k.mobility();
        (m.intersects(Mobility::ARMY) && reach[0].contains(to))
            || (m.intersects(Mobility::FLEET) && reach[1].contains(to))
    }

    /// The regions of `to` that a unit of kind `k` in `from` could move into.
    pub fn reachable_regions(
        &self,
        from: RegionId,
        to: ProvinceId,
        k: UnitKind,
    ) -> impl Iterator<Item = RegionId> + '_ {
        let m = k.mobility();
        self.borders[from.index()]
            .iter()
            .filter(move |&&(r, b)| b.intersects(m) && self.regions[r.index()].province == to)
            .map(|&(r, _)| r)
    }

    /// Whether a unit of kind `k` may stand in region `r`.
    pub fn admits(&self, r: RegionId, k: UnitKind) -> bool {
        self.regions[r.index()].admits.intersects(k.mobility())
    }

    /// The region a unit of kind `k` occupies when it is said to be in
    /// province `p` without a coast: the main region if it admits the kind,
    /// else the single coast when there is only one. `None` if ambiguous or
    /// impossible.
    pub fn default_region(&self, p: ProvinceId, k: UnitKind) -> Option<RegionId> {
        let prov = self.province(p);
        if self.admits(prov.main_region(), k) {
            return Some(prov.main_region());
        }
        let mut it = prov.regions[1..]
            .iter()
            .copied()
            .filter(|&r| self.admits(r, k));
        let first = it.next()?;
        match it.next() {
            None => Some(first),
            Some(_) => None,
        }
    }

    /// A region's display form in zine notation: `StP/nc`, `Lon`.
    pub fn region_abbr(&self, r: RegionId) -> String {
        let reg = self.region(r);
        let p = self.province(reg.province);
        match reg.coast {
            Some(c) => format!("{}/{}", p.abbr, self.coast(c).abbr),
            None => p.abbr.clone(),
        }
    }
    /// A region's full name: `St Petersburg (north coast)`.
    pub fn region_name(&self, r: RegionId) -> String {
        let reg = self.region(r);
        let p = self.province(reg.province);
        match reg.coast {
            Some(c) => format!("{} ({})", p.name, self.coast(c).name),
            None => p.name.clone(),
        }
    }

    /// Shortest number of steps between two provinces when any border counts
    /// for any unit (the 2023 rulebook's civil-disorder distance), from every
    /// province to the nearest of `targets`. Unreachable provinces get
    /// `u32::MAX`.
    pub fn distances_to(&self, targets: &[ProvinceId]) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.provinces.len()];
        let mut queue = std::collections::VecDeque::new();
        for &t in targets {
            if dist[t.index()] != 0 {
                dist[t.index()] = 0;
                queue.push_back(t);
            }
        }
        while let Some(p) = queue.pop_front() {
            let d = dist[p.index()];
            for &r in &self.provinces[p.index()].regions {
                for &(n, _) in &self.borders[r.index()] {
                    let q = self.regions[n.index()].province;
                    if dist[q.index()] == u32::MAX {
                        dist[q.index()] = d + 1;
                        queue.push_back(q);
                    }
                }
            }
        }
        dist
    }
}

/// A unit on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Unit {
    /// Owner.
    pub power: PowerId,
    /// Kind.
    pub kind: UnitKind,
    /// Where it stands.
    pub region: RegionId,
}
