//! Builds a [`Map`] from the `[[provinces]]`, `[[powers]]` and `[coasts]`
//! tables of a variant file and checks it as it goes.
//!
//! A GM who corrects a map wants every mistake at once, each with the line to
//! look at, so the builder never stops at the first problem: it collects
//! [`Problem`]s and only returns a map when there are none. The checks are the
//! ones that bite in play: borders listed on one side only, ids that name
//! nothing, coasts no fleet can reach, home centres that are not centres,
//! the same alias on two provinces, starting units where their kind cannot
//! stand.

use super::{
    Coast, CoastId, Map, Mobility, Named, Power, PowerId, Province, ProvinceId, ProvinceSet,
    Region, RegionId, Terrain, UnitKind, normalize_name,
};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use toml::Spanned;

mod owner_borders;

/// One thing wrong with a variant file, with the line it is on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// 1-based line in the file; 0 when the problem is about the file as a
    /// whole.
    pub line: usize,
    /// What is wrong, in words a map maker understands.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.message)
        } else {
            write!(f, "line {}: {}", self.line, self.message)
        }
    }
}

/// Converts byte offsets to line numbers.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Index the line starts of `text`.
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }
    /// 1-based line of byte offset `at`.
    pub fn line(&self, at: usize) -> usize {
        match self.starts.binary_search(&at) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }
}

/// A `[[provinces]]` entry as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawProvince {
    /// Abbreviation, as printed in orders (`Lon`).
    pub id: Spanned<String>,
    /// Full name.
    pub name: Spanned<String>,
    /// Other names players type.
    #[serde(default)]
    pub aliases: Vec<Spanned<String>>,
    /// Ground type.
    pub terrain: Spanned<Terrain>,
    /// Whether it is a supply centre.
    #[serde(default, rename = "supply-centre")]
    pub supply_centre: bool,
    /// Provinces armies may move to.
    #[serde(default)]
    pub army: Vec<Spanned<String>>,
    /// Regions fleets may move to (for provinces without split coasts).
    #[serde(default)]
    pub fleet: Vec<Spanned<String>>,
    /// For split coasts: coast -> regions a fleet on that coast may move to.
    #[serde(default)]
    pub coasts: Option<Spanned<BTreeMap<String, Vec<Spanned<String>>>>>,
    /// Where to draw the province on the map picture: `[x, y]` on a
    /// 1000 x 1000 canvas, north up.
    #[serde(default)]
    pub xy: Option<Spanned<[f32; 2]>>,
    /// For split coasts: where to draw a unit on each coast (`{ nc = [x,
    /// y] }`, the canvas of `xy`); a coast left out is placed beside the
    /// province's point, toward its seas.
    #[serde(default, rename = "coast-xy")]
    pub coast_xy: Option<Spanned<BTreeMap<String, [f32; 2]>>>,
    /// Names players use for this place and for others too (`tyr`,
    /// Tyrolia or the Tyrrhenian Sea): an order naming one is asked
    /// about. An ambiguous name may be on several provinces, but may not
    /// be any province's plain name.
    #[serde(default)]
    pub ambiguous: Vec<Spanned<String>>,
    /// A coast whose fleet may convoy as if at sea (DPjudge's `PORT`).
    #[serde(default)]
    pub port: bool,
    /// Neighbours a move from here reaches at half strength, with no
    /// support across (DPjudge's `*` border mark; see `map::crossing`).
    #[serde(default, rename = "half-strength")]
    pub half_strength: Vec<Spanned<String>>,
    /// Neighbours across a strait: a move there has only its supports'
    /// strength, with no support across (DPjudge's `~` border mark).
    #[serde(default)]
    pub strait: Vec<Spanned<String>>,
    /// Neighbours whose border from here is open only to a power owning
    /// every centre listed (`{ Aeg = ["Con"] }`: DPjudge's `AEG(CON)`;
    /// see `map::owner_borders`).
    #[serde(default, rename = "open-to-owner-of")]
    pub open_to_owner_of: Option<Spanned<BTreeMap<String, Vec<Spanned<String>>>>>,
}

/// A `[[powers]]` entry as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPower {
    /// Display name.
    pub name: Spanned<String>,
    /// Adjective; defaults to the name.
    #[serde(default)]
    pub adjective: Option<Spanned<String>>,
    /// Other names (`Eng`, `E`).
    #[serde(default)]
    pub aliases: Vec<Spanned<String>>,
    /// Home supply centres.
    #[serde(default)]
    pub home: Vec<Spanned<String>>,
    /// Starting units: `A Lon`, `F StP/sc`.
    #[serde(default)]
    pub units: Vec<Spanned<String>>,
    /// Played only when the GM chooses it (`CREATE game variant pw WITH
    /// Vikings`): Ard-Ri's Vikings.
    #[serde(default)]
    pub optional: bool,
    /// Its homeland, where 1000 AD places and keeps its defensive army:
    /// provinces beyond the home centres (which always belong to it).
    #[serde(default)]
    pub homeland: Vec<Spanned<String>>,
    /// The centres it owns at the start, where they are not its home
    /// centres (a game that starts with centres already taken, as
    /// DPjudge's `OWNS` says); an empty list: none.
    #[serde(default)]
    pub owns: Option<Vec<Spanned<String>>>,
}

/// A unit placed on the board by the variant file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartingUnit {
    /// Owner.
    pub power: PowerId,
    /// Kind.
    pub kind: UnitKind,
    /// Where it stands.
    pub region: RegionId,
}

/// The geography tables of a variant file.
pub struct MapTables<'a> {
    /// Full file text, for line numbers.
    pub source: &'a str,
    /// `[coasts]`: short -> long name.
    pub coasts: &'a BTreeMap<String, String>,
    /// `[[provinces]]`.
    pub provinces: &'a [RawProvince],
    /// `[[powers]]`.
    pub powers: &'a [RawPower],
    /// `[stacking]`.
    pub stacking: crate::map::Stacking,
}

/// Build and check the map; on success also return the starting units.
///
/// Table by table, each checked as it is read (provinces and their coasts,
/// their names, the borders, the powers and their units), so every
/// problem in the file is found in one go; the map is put together only
/// when there are none.
pub fn build(t: &MapTables<'_>) -> Result<(Map, Vec<StartingUnit>), Vec<Problem>> {
    let mut b = Builder {
        lines: LineIndex::new(t.source),
        problems: Vec::new(),
        names: HashMap::new(),
        name_lines: HashMap::new(),
    };
    if !b.within_limits(t) {
        return Err(b.problems);
    }
    let mut g = Geography::new(t.coasts);
    for (i, rp) in t.provinces.iter().enumerate() {
        g.province(&mut b, ProvinceId(i as u16), rp);
    }
    g.names(&mut b, t.provinces);
    let ambiguous = ambiguous_names(&mut b, t.provinces);
    let edges = g.borders(&mut b, t.provinces);
    let marks = g.marks(&mut b, t.provinces, &edges);
    let owner_borders = g.owner_borders(&mut b, t.provinces, &edges);
    g.check_symmetry(&mut b, &edges);
    g.check_shores(&mut b, t.provinces, &edges);
    let mut ps = PowerTables::default();
    for (i, rp) in t.powers.iter().enumerate() {
        ps.power(&mut b, &mut g, t, PowerId(i as u8), rp);
    }
    if !b.problems.is_empty() {
        b.problems.sort_by_key(|p| p.line);
        return Err(b.problems);
    }
    let mut map = g.finish(
        b.names,
        ambiguous,
        edges,
        ps.powers,
        ps.power_names,
        t.stacking,
    );
    map.marks = marks;
    map.owner_borders = owner_borders;
    Ok((map, ps.starting))
}

/// The names each province shares with others (`ambiguous`), by name;
/// one that is also a plain name of a province is a problem.
fn ambiguous_names(b: &mut Builder, table: &[RawProvince]) -> HashMap<String, Vec<ProvinceId>> {
    let mut out: HashMap<String, Vec<ProvinceId>> = HashMap::new();
    for (i, rp) in table.iter().enumerate() {
        for a in &rp.ambiguous {
            let key = normalize_name(a.get_ref());
            if key.is_empty() {
                continue;
            }
            if b.names.contains_key(&key) {
                b.at(
                    a,
                    format!(
                        "ambiguous name `{}` of `{}` is also a plain name of a province",
                        a.get_ref(),
                        rp.id.get_ref()
                    ),
                );
                continue;
            }
            let list = out.entry(key).or_default();
            let p = ProvinceId(i as u16);
            if !list.contains(&p) {
                list.push(p);
            }
        }
    }
    out
}

/// Directed borders: (from, to, mobility bits) -> the line that lists it,
/// so a border listed on one side only can be named by its line.
type Edges = BTreeMap<(RegionId, RegionId, u8), usize>;

/// The borders from region `r`, found in `edges` by their first key
/// rather than by a pass over every border of the map.
fn region_edges(edges: &Edges, r: RegionId) -> impl Iterator<Item = &(RegionId, RegionId, u8)> {
    edges
        .range((r, RegionId(0), 0)..=(r, RegionId(u16::MAX), u8::MAX))
        .map(|(k, _)| k)
}

/// A split province's `coasts` table: coast -> its fleet borders.
type CoastBorders = BTreeMap<String, Vec<Spanned<String>>>;

/// The places of the map as the tables are read: the coasts, the
/// provinces with their regions, and the ids that name them.
struct Geography {
    coasts: Vec<Coast>,
    coast_ids: HashMap<String, CoastId>,
    provinces: Vec<Province>,
    regions: Vec<Region>,
    ids: HashMap<String, ProvinceId>,
}

impl Builder {
    /// Whether the file is within what the map's sets can hold; beyond it
    /// nothing else is worth checking.
    fn within_limits(&mut self, t: &MapTables<'_>) -> bool {
        if t.provinces.len() > ProvinceSet::CAPACITY {
            self.whole(format!(
                "{} provinces; a map may have at most {}",
                t.provinces.len(),
                ProvinceSet::CAPACITY
            ));
            return false;
        }
        if t.powers.len() > 64 {
            self.whole("more than 64 powers".to_string());
            return false;
        }
        true
    }
}

impl Geography {
    /// The `[coasts]` table: the coasts a split province may name.
    fn new(table: &BTreeMap<String, String>) -> Geography {
        let coasts: Vec<Coast> = table
            .iter()
            .map(|(a, n)| Coast {
                abbr: a.clone(),
                name: n.clone(),
            })
            .collect();
        let coast_ids = coasts
            .iter()
            .enumerate()
            .map(|(i, c)| (normalize_name(&c.abbr), CoastId(i as u8)))
            .collect();
        Geography {
            coasts,
            coast_ids,
            provinces: Vec::new(),
            regions: Vec::new(),
            ids: HashMap::new(),
        }
    }

    /// One `[[provinces]]` entry with its regions: the province itself
    /// and one per named coast.
    fn province(&mut self, b: &mut Builder, pid: ProvinceId, rp: &RawProvince) {
        let key = normalize_name(rp.id.get_ref());
        if key.is_empty() || key.contains('/') || key.contains(' ') {
            b.at(
                &rp.id,
                format!(
                    "province id `{}` must be one word without `/`",
                    rp.id.get_ref()
                ),
            );
        }
        if self.ids.insert(key.clone(), pid).is_some() {
            b.at(
                &rp.id,
                format!("province id `{}` is used twice", rp.id.get_ref()),
            );
        }
        let terrain = *rp.terrain.get_ref();
        let main_admits = match terrain {
            Terrain::Land => Mobility::ARMY,
            Terrain::Sea => Mobility::FLEET,
            Terrain::Coast | Terrain::OffBoard => Mobility::BOTH,
            Terrain::Impassable => Mobility::NONE,
        };
        let mut prov_regions = vec![RegionId(self.regions.len() as u16)];
        let split = rp.coasts.as_ref().is_some_and(|c| !c.get_ref().is_empty());
        self.regions.push(Region {
            province: pid,
            coast: None,
            admits: if split { Mobility::ARMY } else { main_admits },
            xy: None,
        });
        if let Some(cs) = &rp.coasts {
            self.named_coasts(b, pid, rp, cs, &mut prov_regions);
        }
        if let Some(xy) = &rp.xy {
            let [x, y] = *xy.get_ref();
            if !(0.0..=1000.0).contains(&x) || !(0.0..=1000.0).contains(&y) {
                b.at(
                    xy,
                    format!("`{}`: xy must lie within 0..1000", rp.id.get_ref()),
                );
            }
        }
        if let Some(cxy) = &rp.coast_xy {
            let coasts = rp.coasts.as_ref().map(Spanned::get_ref);
            for (c, [x, y]) in cxy.get_ref() {
                if !coasts.is_some_and(|cs| cs.contains_key(c)) {
                    b.at(
                        cxy,
                        format!(
                            "`{}`: coast-xy names `{c}`, not one of its coasts",
                            rp.id.get_ref()
                        ),
                    );
                }
                if !(0.0..=1000.0).contains(x) || !(0.0..=1000.0).contains(y) {
                    b.at(
                        cxy,
                        format!("`{}`: coast-xy must lie within 0..1000", rp.id.get_ref()),
                    );
                }
            }
        }
        self.provinces.push(Province {
            xy: rp.xy.as_ref().map(|s| *s.get_ref()),
            abbr: rp.id.get_ref().clone(),
            name: rp.name.get_ref().clone(),
            terrain,
            supply_centre: rp.supply_centre,
            home_of: None,
            regions: prov_regions,
            port: rp.port,
        });
        if rp.port && terrain != Terrain::Coast {
            b.at(
                &rp.terrain,
                format!(
                    "`{}` is a port, but only a coast can be one",
                    rp.id.get_ref()
                ),
            );
        }
    }

    /// A split province's coasts (`StP/nc`, `StP/sc`): a fleet region
    /// each, which only a coastal province with two or more may have.
    fn named_coasts(
        &mut self,
        b: &mut Builder,
        pid: ProvinceId,
        rp: &RawProvince,
        cs: &Spanned<CoastBorders>,
        prov_regions: &mut Vec<RegionId>,
    ) {
        if *rp.terrain.get_ref() != Terrain::Coast {
            b.at(
                cs,
                format!(
                    "`{}` has named coasts but its terrain is not coast",
                    rp.id.get_ref()
                ),
            );
        }
        if cs.get_ref().len() == 1 {
            b.at(
                cs,
                format!(
                    "`{}` names only one coast; list its fleet borders under `fleet` instead",
                    rp.id.get_ref()
                ),
            );
        }
        for c in cs.get_ref().keys() {
            match self.coast_ids.get(&normalize_name(c)) {
                Some(&cid) => {
                    prov_regions.push(RegionId(self.regions.len() as u16));
                    let xy = rp
                        .coast_xy
                        .as_ref()
                        .and_then(|m| m.get_ref().get(c).copied());
                    self.regions.push(Region {
                        province: pid,
                        coast: Some(cid),
                        admits: Mobility::FLEET,
                        xy,
                    });
                }
                None => b.at(
                    cs,
                    format!(
                        "`{}` has coast `{c}`, which is not in the [coasts] table",
                        rp.id.get_ref()
                    ),
                ),
            }
        }
        if !rp.fleet.is_empty() {
            b.at(
                &rp.fleet[0],
                format!(
                    "`{}` has split coasts: list fleet borders per coast under `coasts`, not in `fleet`",
                    rp.id.get_ref()
                ),
            );
        }
    }

    /// Every name of each province (id, name, aliases) and of each coast
    /// (`stp/nc`, `st petersburg/nc`); two provinces may not share one.
    fn names(&self, b: &mut Builder, table: &[RawProvince]) {
        for (i, rp) in table.iter().enumerate() {
            let target = Named::Province(ProvinceId(i as u16));
            b.name(&rp.id, target, rp.id.get_ref());
            b.name(&rp.name, target, rp.id.get_ref());
            for a in &rp.aliases {
                b.name(a, target, rp.id.get_ref());
            }
            for &r in &self.provinces[i].regions[1..] {
                let c = self.coast_of(r);
                let mut spellings = vec![rp.id.get_ref().clone(), rp.name.get_ref().clone()];
                spellings.extend(rp.aliases.iter().map(|a| a.get_ref().clone()));
                for s in spellings {
                    let key = normalize_name(&format!("{s}/{}", c.abbr));
                    b.names.entry(key).or_insert(Named::Region(r));
                }
            }
        }
    }

    /// The coast a coast region stands for.
    fn coast_of(&self, r: RegionId) -> &Coast {
        &self.coasts[self.regions[r.index()].coast.map_or(0, |c| c.0 as usize)]
    }

    /// The region a border entry names: a province, or for fleets
    /// (`want_coast`) one coast of a split province, which must be named.
    fn border_region(
        &self,
        b: &mut Builder,
        s: &Spanned<String>,
        want_coast: bool,
    ) -> Option<RegionId> {
        let raw = s.get_ref();
        let (p, c) = match raw.split_once('/') {
            Some((p, c)) => (p, Some(c)),
            None => (raw.as_str(), None),
        };
        let Some(&pid) = self.ids.get(&normalize_name(p)) else {
            b.at(s, format!("unknown province `{p}`"));
            return None;
        };
        let prov = &self.provinces[pid.index()];
        match c {
            None if want_coast && prov.has_split_coasts() => {
                b.at(
                    s,
                    format!(
                        "`{}` has split coasts: say which one (`{}/{}`)",
                        p,
                        p,
                        self.coast_of(prov.regions[1]).abbr
                    ),
                );
                None
            }
            None => Some(prov.main_region()),
            Some(_) if !want_coast => {
                b.at(
                    s,
                    format!("army borders name provinces, not coasts: `{raw}`"),
                );
                None
            }
            Some(c) => {
                let found = self.coast_region(pid, c);
                if found.is_none() {
                    b.at(s, format!("`{p}` has no coast `{c}`"));
                }
                found
            }
        }
    }

    /// The region of province `pid` on the coast called `c`.
    fn coast_region(&self, pid: ProvinceId, c: &str) -> Option<RegionId> {
        let cid = *self.coast_ids.get(&normalize_name(c))?;
        self.provinces[pid.index()].regions[1..]
            .iter()
            .copied()
            .find(|r| self.regions[r.index()].coast == Some(cid))
    }

    /// A border from `from` to `to` for units of mobility `m`, listed at
    /// `s`: both ends must take such units, and it is listed once.
    fn add_edge(
        &self,
        b: &mut Builder,
        edges: &mut Edges,
        (from, to): (RegionId, RegionId),
        m: Mobility,
        s: &Spanned<String>,
    ) {
        let (rf, rt) = (&self.regions[from.index()], &self.regions[to.index()]);
        if rf.province == rt.province {
            b.at(
                s,
                format!("a province cannot border itself: `{}`", s.get_ref()),
            );
            return;
        }
        if !rf.admits.intersects(m) || !rt.admits.intersects(m) {
            let what = if m == Mobility::ARMY { "army" } else { "fleet" };
            let bad = if !rf.admits.intersects(m) { rf } else { rt };
            let p = &self.provinces[bad.province.index()];
            b.at(
                s,
                format!(
                    "{what} border to `{}`, but `{}` ({:?}) takes no {what}",
                    s.get_ref(),
                    p.abbr,
                    p.terrain
                ),
            );
            return;
        }
        let line = b.lines.line(s.span().start);
        if edges.insert((from, to, m.0), line).is_some() {
            b.at(s, format!("border to `{}` listed twice", s.get_ref()));
        }
    }

    /// The `army`, `fleet` and per-coast borders of every province.
    fn borders(&self, b: &mut Builder, table: &[RawProvince]) -> Edges {
        let mut edges = Edges::new();
        for (i, rp) in table.iter().enumerate() {
            let main = self.provinces[i].main_region();
            for s in &rp.army {
                if let Some(to) = self.border_region(b, s, false) {
                    self.add_edge(b, &mut edges, (main, to), Mobility::ARMY, s);
                }
            }
            for s in &rp.fleet {
                if let Some(to) = self.border_region(b, s, true) {
                    self.add_edge(b, &mut edges, (main, to), Mobility::FLEET, s);
                }
            }
            let Some(cs) = &rp.coasts else {
                continue;
            };
            for (c, list) in cs.get_ref() {
                let Some(from) = self.coast_region(ProvinceId(i as u16), c) else {
                    continue;
                };
                if list.is_empty() {
                    b.at(
                        cs,
                        format!("coast `{}/{c}` has no fleet border", rp.id.get_ref()),
                    );
                }
                for s in list {
                    if let Some(to) = self.border_region(b, s, true) {
                        self.add_edge(b, &mut edges, (from, to), Mobility::FLEET, s);
                    }
                }
            }
        }
        edges
    }

    /// The marked borders (`half-strength`, `strait`): each must be a
    /// border of the province, marked once.
    fn marks(
        &self,
        b: &mut Builder,
        table: &[RawProvince],
        edges: &Edges,
    ) -> Vec<(ProvinceId, ProvinceId, crate::map::Crossing)> {
        use crate::map::Crossing;
        let mut out: Vec<(ProvinceId, ProvinceId, Crossing)> = Vec::new();
        let mut marked: HashSet<(ProvinceId, ProvinceId)> = HashSet::new();
        for (i, rp) in table.iter().enumerate() {
            let from = ProvinceId(i as u16);
            let lists = [
                (&rp.half_strength, Crossing::Half),
                (&rp.strait, Crossing::Strait),
            ];
            for (list, how) in lists {
                for s in list {
                    let Some(&to) = self.ids.get(&normalize_name(s.get_ref())) else {
                        b.at(s, format!("unknown province `{}`", s.get_ref()));
                        continue;
                    };
                    if !self.borders_between(edges, from, to) {
                        b.at(
                            s,
                            format!(
                                "`{}` marks its border to `{}`, but has none there",
                                rp.id.get_ref(),
                                s.get_ref()
                            ),
                        );
                    } else if !marked.insert((from, to)) {
                        b.at(s, format!("border to `{}` marked twice", s.get_ref()));
                    } else {
                        out.push((from, to, how));
                    }
                }
            }
        }
        out
    }

    /// Whether province `from` borders `to`: the borders of `from`'s
    /// regions are looked at, not every border of the map.
    fn borders_between(&self, edges: &Edges, from: ProvinceId, to: ProvinceId) -> bool {
        self.provinces[from.index()].regions.iter().any(|&r| {
            region_edges(edges, r).any(|&(_, t, _)| self.regions[t.index()].province == to)
        })
    }

    /// `Lon` or `StP/nc`, for a problem about a region.
    fn region_label(&self, r: RegionId) -> String {
        let reg = &self.regions[r.index()];
        let p = &self.provinces[reg.province.index()];
        match reg.coast {
            Some(c) => format!("{}/{}", p.abbr, self.coasts[c.0 as usize].abbr),
            None => p.abbr.clone(),
        }
    }

    /// Every border must be listed from both sides: a border listed on one
    /// only is almost always a typo, and would let units move one way.
    fn check_symmetry(&self, b: &mut Builder, edges: &Edges) {
        for (&(from, to, m), &line) in edges {
            if !edges.contains_key(&(to, from, m)) {
                let what = if m == Mobility::ARMY.0 {
                    "army"
                } else {
                    "fleet"
                };
                b.problems.push(Problem {
                    line,
                    message: format!(
                        "asymmetric {what} border: `{}` lists `{}`, but `{}` does not list `{}`",
                        self.region_label(from),
                        self.region_label(to),
                        self.region_label(to),
                        self.region_label(from)
                    ),
                });
            }
        }
    }

    /// Coastal provinces must have a shore: a fleet border.
    fn check_shores(&self, b: &mut Builder, table: &[RawProvince], edges: &Edges) {
        for (i, rp) in table.iter().enumerate() {
            let prov = &self.provinces[i];
            if prov.terrain != Terrain::Coast || prov.has_split_coasts() {
                continue;
            }
            let main = prov.main_region();
            let has_fleet = region_edges(edges, main).any(|&(_, _, m)| m == Mobility::FLEET.0);
            if !has_fleet {
                b.at(
                    &rp.terrain,
                    format!(
                        "`{}` is a coast with no fleet border (make it land, or list its `fleet` borders)",
                        rp.id.get_ref()
                    ),
                );
            }
        }
    }

    /// The map, once every table has been read without a problem: the
    /// borders gathered per region, and the reach sets the adjudicator
    /// asks ("can an army in this region get to that province?").
    fn finish(
        self,
        names: HashMap<String, Named>,
        ambiguous: HashMap<String, Vec<ProvinceId>>,
        edges: Edges,
        powers: Vec<Power>,
        power_names: HashMap<String, PowerId>,
        stacking: crate::map::Stacking,
    ) -> Map {
        let mut borders: Vec<Vec<(RegionId, Mobility)>> = vec![Vec::new(); self.regions.len()];
        for &(from, to, m) in edges.keys() {
            let list = &mut borders[from.index()];
            match list.iter_mut().find(|(r, _)| *r == to) {
                Some((_, have)) => *have = have.union(Mobility(m)),
                None => list.push((to, Mobility(m))),
            }
        }
        let reach = borders
            .iter()
            .map(|list| {
                let mut sets = [ProvinceSet::default(); 2];
                for &(r, m) in list {
                    let p = self.regions[r.index()].province;
                    if m.intersects(Mobility::ARMY) {
                        sets[0].insert(p);
                    }
                    if m.intersects(Mobility::FLEET) {
                        sets[1].insert(p);
                    }
                }
                sets
            })
            .collect();
        let mut off_board = ProvinceSet::default();
        for (i, p) in self.provinces.iter().enumerate() {
            if p.terrain == Terrain::OffBoard {
                off_board.insert(ProvinceId(i as u16));
            }
        }
        Map {
            off_board,
            provinces: self.provinces,
            regions: self.regions,
            coasts: self.coasts,
            powers,
            borders,
            reach,
            name_prefixes: names
                .keys()
                .flat_map(|n| {
                    let words: Vec<&str> = n.split(' ').collect();
                    (1..words.len()).map(move |k| words[..k].join(" "))
                })
                .collect(),
            names,
            power_names,
            ambiguous,
            stacking,
            marks: Vec::new(),
            owner_borders: Vec::new(),
        }
    }
}

/// The `[[powers]]` table as it is read: the powers, their names, their
/// starting units, and the provinces those stand in (with the line of the
/// first, to name it when a second is too many).
#[derive(Default)]
struct PowerTables {
    powers: Vec<Power>,
    power_names: HashMap<String, PowerId>,
    starting: Vec<StartingUnit>,
    occupied: HashMap<ProvinceId, (usize, Vec<(PowerId, UnitKind)>)>,
}

impl PowerTables {
    /// One `[[powers]]` entry: its names, home centres, homeland and
    /// starting units.
    fn power(
        &mut self,
        b: &mut Builder,
        g: &mut Geography,
        t: &MapTables<'_>,
        pid: PowerId,
        rp: &RawPower,
    ) {
        let mut names = vec![&rp.name];
        names.extend(rp.adjective.iter());
        names.extend(rp.aliases.iter());
        for n in names {
            let key = normalize_name(n.get_ref());
            if let Some(&other) = self.power_names.get(&key)
                && other != pid
            {
                b.at(
                    n,
                    format!(
                        "power name `{}` is also used by {}",
                        n.get_ref(),
                        t.powers[other.index()].name.get_ref()
                    ),
                );
            }
            self.power_names.insert(key, pid);
        }
        let home = home_centres(b, g, t, pid, rp);
        let mut homeland = home.clone();
        for h in &rp.homeland {
            match g.ids.get(&normalize_name(h.get_ref())) {
                Some(&p) if !homeland.contains(&p) => homeland.push(p),
                Some(_) => {}
                None => b.at(h, format!("unknown homeland province `{}`", h.get_ref())),
            }
        }
        for u in &rp.units {
            self.starting_unit(b, g, t.stacking, pid, u);
        }
        let owns = match &rp.owns {
            None => home.clone(),
            Some(list) => list
                .iter()
                .filter_map(|c| match g.ids.get(&normalize_name(c.get_ref())) {
                    Some(&p) if g.provinces[p.index()].supply_centre => Some(p),
                    Some(_) => {
                        b.at(
                            c,
                            format!("owned centre `{}` is not a supply centre", c.get_ref()),
                        );
                        None
                    }
                    None => {
                        b.at(c, format!("unknown owned centre `{}`", c.get_ref()));
                        None
                    }
                })
                .collect(),
        };
        self.powers.push(Power {
            name: rp.name.get_ref().clone(),
            adjective: rp
                .adjective
                .as_ref()
                .map_or_else(|| rp.name.get_ref().clone(), |a| a.get_ref().clone()),
            home_centres: home,
            homeland,
            starting_centres: owns,
            optional: rp.optional,
        });
    }

    /// A starting unit, `A Lon`, `F StP/sc`, `2F Sca` (a stack of two
    /// fleets, 1700 AD II): where its kind can stand, and no more units in
    /// a province than the variant's stacking allows.
    fn starting_unit(
        &mut self,
        b: &mut Builder,
        g: &Geography,
        stacking: crate::map::Stacking,
        pid: PowerId,
        u: &Spanned<String>,
    ) {
        let text = u.get_ref().trim();
        let (count, text) = match text.as_bytes() {
            [d @ b'2'..=b'9', b'F' | b'f', ..] => (usize::from(d - b'0'), &text[1..]),
            _ => (1, text),
        };
        let Some((k, place)) = text.split_once(char::is_whitespace) else {
            b.at(
                u,
                format!("starting unit `{text}` should read like `A Lon` or `F StP/sc`"),
            );
            return;
        };
        let kind = match k.to_ascii_uppercase().as_str() {
            "A" => UnitKind::Army,
            "F" => UnitKind::Fleet,
            "A/F" | "AF" => UnitKind::ArmyFleet,
            "3D" => UnitKind::DefensiveArmy,
            "L" => UnitKind::Leader,
            _ => {
                b.at(u, format!("unknown unit kind `{k}` (A, F, A/F, 3D or L)"));
                return;
            }
        };
        let place = place.trim();
        let Some(region) =
            resolve_place(&g.ids, &g.provinces, &g.regions, &g.coast_ids, place, kind)
        else {
            b.at(
                u,
                format!(
                    "starting unit `{text}`: no such place, or a {} cannot stand there",
                    kind.word()
                ),
            );
            return;
        };
        let p = g.regions[region.index()].province;
        let unit = StartingUnit {
            power: pid,
            kind,
            region,
        };
        // Off-board boxes hold any number of units (an invader's army
        // waiting to land); everywhere else one unit per province.
        let terrain = g.provinces[p.index()].terrain;
        if terrain == Terrain::OffBoard {
            self.starting.push(unit);
            return;
        }
        for _ in 0..count {
            let here = self
                .occupied
                .entry(p)
                .or_insert((b.lines.line(u.span().start), Vec::new()));
            if !stacking.allows(terrain, pid, kind, &here.1) {
                let line = here.0;
                b.at(
                    u,
                    format!(
                        "two starting units in `{}` (the other is on line {line})",
                        g.provinces[p.index()].abbr
                    ),
                );
                break;
            }
            here.1.push((pid, kind));
            self.starting.push(unit.clone());
        }
    }
}

/// A power's home centres: supply centres, each the home of one power
/// only (it is marked as this power's on the province).
fn home_centres(
    b: &mut Builder,
    g: &mut Geography,
    t: &MapTables<'_>,
    pid: PowerId,
    rp: &RawPower,
) -> Vec<ProvinceId> {
    let mut home = Vec::new();
    for h in &rp.home {
        let Some(&p) = g.ids.get(&normalize_name(h.get_ref())) else {
            b.at(h, format!("unknown home centre `{}`", h.get_ref()));
            continue;
        };
        let prov = &mut g.provinces[p.index()];
        if !prov.supply_centre {
            b.at(
                h,
                format!(
                    "home centre `{}` is not a supply centre (add `supply-centre = true` to it)",
                    h.get_ref()
                ),
            );
        }
        if let Some(other) = prov.home_of
            && other != pid
        {
            b.at(
                h,
                format!(
                    "`{}` is already a home centre of {}",
                    h.get_ref(),
                    t.powers[other.index()].name.get_ref()
                ),
            );
        }
        prov.home_of = Some(pid);
        home.push(p);
    }
    home
}

/// `Lon`, `StP/sc`, `stp(sc)` -> region for a unit of `kind`.
fn resolve_place(
    ids: &HashMap<String, ProvinceId>,
    provinces: &[Province],
    regions: &[Region],
    coast_ids: &HashMap<String, CoastId>,
    place: &str,
    kind: UnitKind,
) -> Option<RegionId> {
    let place = place.trim_end_matches(')');
    let (p, c) = match place.split_once(['/', '(']) {
        Some((p, c)) => (p, Some(c)),
        None => (place, None),
    };
    let pid = *ids.get(&normalize_name(p))?;
    let prov = &provinces[pid.index()];
    let admits = |r: &RegionId| regions[r.index()].admits.intersects(kind.mobility());
    match c {
        Some(c) => {
            let cid = coast_ids.get(&normalize_name(c))?;
            prov.regions[1..]
                .iter()
                .copied()
                .find(|r| regions[r.index()].coast == Some(*cid))
                .filter(admits)
        }
        None => {
            if admits(&prov.regions[0]) {
                Some(prov.regions[0])
            } else {
                let mut it = prov.regions[1..].iter().copied().filter(admits);
                let first = it.next()?;
                it.next().is_none().then_some(first)
            }
        }
    }
}

struct Builder {
    lines: LineIndex,
    problems: Vec<Problem>,
    names: HashMap<String, Named>,
    /// Line where each name was first defined, for duplicate reports.
    name_lines: HashMap<String, (usize, String)>,
}

impl Builder {
    fn at<T>(&mut self, s: &Spanned<T>, message: String) {
        let line = self.lines.line(s.span().start);
        self.problems.push(Problem { line, message });
    }
    fn whole(&mut self, message: String) {
        self.problems.push(Problem { line: 0, message });
    }
    /// Register a name; two provinces may not share one.
    fn name(&mut self, s: &Spanned<String>, target: Named, owner: &str) {
        let key = normalize_name(s.get_ref());
        if key.is_empty() {
            return;
        }
        let line = self.lines.line(s.span().start);
        match self.names.get(&key) {
            Some(&t) if t != target => {
                let (l, o) = self.name_lines[&key].clone();
                self.problems.push(Problem {
                    line,
                    message: format!(
                        "duplicate alias `{}` for `{owner}`: it already names `{o}` (line {l})",
                        s.get_ref()
                    ),
                });
            }
            Some(_) => {}
            None => {
                self.names.insert(key.clone(), target);
                self.name_lines.insert(key, (line, owner.to_string()));
            }
        }
    }
}

/// Everything wrong with a variant file, each with its line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct LoadError {
    /// The problems, sorted by line.
    pub problems: Vec<Problem>,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}
