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
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use toml::Spanned;

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
pub fn build(t: &MapTables<'_>) -> Result<(Map, Vec<StartingUnit>), Vec<Problem>> {
    let mut b = Builder {
        lines: LineIndex::new(t.source),
        problems: Vec::new(),
        names: HashMap::new(),
        name_lines: HashMap::new(),
    };
    let coasts: Vec<Coast> = t
        .coasts
        .iter()
        .map(|(a, n)| Coast {
            abbr: a.clone(),
            name: n.clone(),
        })
        .collect();
    let coast_ids: HashMap<String, CoastId> = coasts
        .iter()
        .enumerate()
        .map(|(i, c)| (normalize_name(&c.abbr), CoastId(i as u8)))
        .collect();

    if t.provinces.len() > ProvinceSet::CAPACITY {
        b.whole(format!(
            "{} provinces; a map may have at most {}",
            t.provinces.len(),
            ProvinceSet::CAPACITY
        ));
        return Err(b.problems);
    }
    if t.powers.len() > 64 {
        b.whole("more than 64 powers".to_string());
        return Err(b.problems);
    }

    // Provinces and their regions.
    let mut provinces = Vec::with_capacity(t.provinces.len());
    let mut regions: Vec<Region> = Vec::new();
    let mut ids: HashMap<String, ProvinceId> = HashMap::new();
    for (i, rp) in t.provinces.iter().enumerate() {
        let pid = ProvinceId(i as u16);
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
        if ids.insert(key.clone(), pid).is_some() {
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
        let mut prov_regions = vec![RegionId(regions.len() as u16)];
        let split = rp.coasts.as_ref().is_some_and(|c| !c.get_ref().is_empty());
        regions.push(Region {
            province: pid,
            coast: None,
            admits: if split { Mobility::ARMY } else { main_admits },
        });
        if let Some(cs) = &rp.coasts {
            if terrain != Terrain::Coast {
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
                match coast_ids.get(&normalize_name(c)) {
                    Some(&cid) => {
                        prov_regions.push(RegionId(regions.len() as u16));
                        regions.push(Region {
                            province: pid,
                            coast: Some(cid),
                            admits: Mobility::FLEET,
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
        if let Some(xy) = &rp.xy {
            let [x, y] = *xy.get_ref();
            if !(0.0..=1000.0).contains(&x) || !(0.0..=1000.0).contains(&y) {
                b.at(
                    xy,
                    format!("`{}`: xy must lie within 0..1000", rp.id.get_ref()),
                );
            }
        }
        provinces.push(Province {
            xy: rp.xy.as_ref().map(|s| *s.get_ref()),
            abbr: rp.id.get_ref().clone(),
            name: rp.name.get_ref().clone(),
            terrain,
            supply_centre: rp.supply_centre,
            home_of: None,
            regions: prov_regions,
        });
    }

    // Names.
    for (i, rp) in t.provinces.iter().enumerate() {
        let target = Named::Province(ProvinceId(i as u16));
        b.name(&rp.id, target, rp.id.get_ref());
        b.name(&rp.name, target, rp.id.get_ref());
        for a in &rp.aliases {
            b.name(a, target, rp.id.get_ref());
        }
        // `stp/nc`, `st petersburg/nc` for each coast.
        for &r in &provinces[i].regions[1..] {
            let c = &coasts[regions[r.index()].coast.map_or(0, |c| c.0 as usize)];
            let mut spellings = vec![rp.id.get_ref().clone(), rp.name.get_ref().clone()];
            spellings.extend(rp.aliases.iter().map(|a| a.get_ref().clone()));
            for s in spellings {
                let key = normalize_name(&format!("{s}/{}", c.abbr));
                b.names.entry(key).or_insert(Named::Region(r));
            }
        }
    }

    // Borders.
    let resolve = |b: &mut Builder, s: &Spanned<String>, want_coast: bool| -> Option<RegionId> {
        let raw = s.get_ref();
        let (p, c) = match raw.split_once('/') {
            Some((p, c)) => (p, Some(c)),
            None => (raw.as_str(), None),
        };
        let Some(&pid) = ids.get(&normalize_name(p)) else {
            b.at(s, format!("unknown province `{p}`"));
            return None;
        };
        let prov = &provinces[pid.index()];
        match c {
            None if want_coast && prov.has_split_coasts() => {
                b.at(
                    s,
                    format!(
                        "`{}` has split coasts: say which one (`{}/{}`)",
                        p,
                        p,
                        coasts[regions[prov.regions[1].index()]
                            .coast
                            .map_or(0, |c| c.0 as usize)]
                        .abbr
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
                let found = coast_ids.get(&normalize_name(c)).and_then(|&cid| {
                    prov.regions[1..]
                        .iter()
                        .copied()
                        .find(|r| regions[r.index()].coast == Some(cid))
                });
                if found.is_none() {
                    b.at(s, format!("`{p}` has no coast `{c}`"));
                }
                found
            }
        }
    };

    // Directed edges: (from, to, class) -> line of the entry.
    let mut edges: BTreeMap<(RegionId, RegionId, u8), usize> = BTreeMap::new();
    let mut add_edge =
        |b: &mut Builder, from: RegionId, to: RegionId, m: Mobility, s: &Spanned<String>| {
            if regions[from.index()].province == regions[to.index()].province {
                b.at(
                    s,
                    format!("a province cannot border itself: `{}`", s.get_ref()),
                );
                return;
            }
            if !regions[from.index()].admits.intersects(m)
                || !regions[to.index()].admits.intersects(m)
            {
                let what = if m == Mobility::ARMY { "army" } else { "fleet" };
                let (bad, bad_terrain) = if !regions[from.index()].admits.intersects(m) {
                    let p = &provinces[regions[from.index()].province.index()];
                    (p.abbr.clone(), p.terrain)
                } else {
                    let p = &provinces[regions[to.index()].province.index()];
                    (p.abbr.clone(), p.terrain)
                };
                b.at(
                    s,
                    format!(
                        "{what} border to `{}`, but `{bad}` ({bad_terrain:?}) takes no {what}",
                        s.get_ref()
                    ),
                );
                return;
            }
            let line = b.lines.line(s.span().start);
            if edges.insert((from, to, m.0), line).is_some() {
                b.at(s, format!("border to `{}` listed twice", s.get_ref()));
            }
        };
    for (i, rp) in t.provinces.iter().enumerate() {
        let main = provinces[i].main_region();
        for s in &rp.army {
            if let Some(to) = resolve(&mut b, s, false) {
                add_edge(&mut b, main, to, Mobility::ARMY, s);
            }
        }
        for s in &rp.fleet {
            if let Some(to) = resolve(&mut b, s, true) {
                add_edge(&mut b, main, to, Mobility::FLEET, s);
            }
        }
        if let Some(cs) = &rp.coasts {
            for (c, list) in cs.get_ref() {
                let Some(&cid) = coast_ids.get(&normalize_name(c)) else {
                    continue;
                };
                let Some(from) = provinces[i].regions[1..]
                    .iter()
                    .copied()
                    .find(|r| regions[r.index()].coast == Some(cid))
                else {
                    continue;
                };
                if list.is_empty() {
                    b.at(
                        cs,
                        format!("coast `{}/{c}` has no fleet border", rp.id.get_ref()),
                    );
                }
                for s in list {
                    if let Some(to) = resolve(&mut b, s, true) {
                        add_edge(&mut b, from, to, Mobility::FLEET, s);
                    }
                }
            }
        }
    }
    let region_label = |r: RegionId| -> String {
        let reg = &regions[r.index()];
        let p = &provinces[reg.province.index()];
        match reg.coast {
            Some(c) => format!("{}/{}", p.abbr, coasts[c.0 as usize].abbr),
            None => p.abbr.clone(),
        }
    };
    for (&(from, to, m), &line) in &edges {
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
                    region_label(from),
                    region_label(to),
                    region_label(to),
                    region_label(from)
                ),
            });
        }
    }
    // Coastal provinces must have a shore.
    for (i, rp) in t.provinces.iter().enumerate() {
        if provinces[i].terrain == Terrain::Coast && !provinces[i].has_split_coasts() {
            let main = provinces[i].main_region();
            let has_fleet = edges
                .keys()
                .any(|&(f, _, m)| f == main && m == Mobility::FLEET.0);
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

    // Powers.
    let mut powers = Vec::with_capacity(t.powers.len());
    let mut power_names: HashMap<String, PowerId> = HashMap::new();
    let mut starting = Vec::new();
    let mut occupied: HashMap<ProvinceId, (usize, Vec<(PowerId, UnitKind)>)> = HashMap::new();
    for (i, rp) in t.powers.iter().enumerate() {
        let pid = PowerId(i as u8);
        let mut names = vec![&rp.name];
        names.extend(rp.adjective.iter());
        names.extend(rp.aliases.iter());
        for n in names {
            let key = normalize_name(n.get_ref());
            if let Some(&other) = power_names.get(&key)
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
            power_names.insert(key, pid);
        }
        let mut home = Vec::new();
        for h in &rp.home {
            let Some(&p) = ids.get(&normalize_name(h.get_ref())) else {
                b.at(h, format!("unknown home centre `{}`", h.get_ref()));
                continue;
            };
            let prov = &mut provinces[p.index()];
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
        let mut homeland = home.clone();
        for h in &rp.homeland {
            match ids.get(&normalize_name(h.get_ref())) {
                Some(&p) if !homeland.contains(&p) => homeland.push(p),
                Some(_) => {}
                None => b.at(h, format!("unknown homeland province `{}`", h.get_ref())),
            }
        }
        for u in &rp.units {
            let text = u.get_ref().trim();
            // `2F Sca`: a stack of two fleets (1700 AD II).
            let (count, text) = match text.as_bytes() {
                [d @ b'2'..=b'9', b'F' | b'f', ..] => (usize::from(d - b'0'), &text[1..]),
                _ => (1, text),
            };
            let Some((k, place)) = text.split_once(char::is_whitespace) else {
                b.at(
                    u,
                    format!("starting unit `{text}` should read like `A Lon` or `F StP/sc`"),
                );
                continue;
            };
            let kind = match k.to_ascii_uppercase().as_str() {
                "A" => UnitKind::Army,
                "F" => UnitKind::Fleet,
                "A/F" | "AF" => UnitKind::ArmyFleet,
                "3D" => UnitKind::DefensiveArmy,
                "L" => UnitKind::Leader,
                _ => {
                    b.at(u, format!("unknown unit kind `{k}` (A, F, A/F, 3D or L)"));
                    continue;
                }
            };
            let place = place.trim();
            let Some(region) = resolve_place(&ids, &provinces, &regions, &coast_ids, place, kind)
            else {
                b.at(
                    u,
                    format!(
                        "starting unit `{text}`: no such place, or a {} cannot stand there",
                        kind.word()
                    ),
                );
                continue;
            };
            let p = regions[region.index()].province;
            // Off-board boxes hold any number of units (an invader's army
            // waiting to land); everywhere else one unit per province.
            if provinces[p.index()].terrain == Terrain::OffBoard {
                starting.push(StartingUnit {
                    power: pid,
                    kind,
                    region,
                });
                continue;
            }
            for _ in 0..count {
                let here = occupied
                    .entry(p)
                    .or_insert((b.lines.line(u.span().start), Vec::new()));
                if !t
                    .stacking
                    .allows(provinces[p.index()].terrain, pid, kind, &here.1)
                {
                    let line = here.0;
                    b.at(
                        u,
                        format!(
                            "two starting units in `{}` (the other is on line {line})",
                            provinces[p.index()].abbr
                        ),
                    );
                    break;
                }
                here.1.push((pid, kind));
                starting.push(StartingUnit {
                    power: pid,
                    kind,
                    region,
                });
            }
        }
        powers.push(Power {
            name: rp.name.get_ref().clone(),
            adjective: rp
                .adjective
                .as_ref()
                .map_or_else(|| rp.name.get_ref().clone(), |a| a.get_ref().clone()),
            home_centres: home,
            homeland,
            optional: rp.optional,
        });
    }

    if !b.problems.is_empty() {
        b.problems.sort_by_key(|p| p.line);
        return Err(b.problems);
    }

    let mut borders: Vec<Vec<(RegionId, Mobility)>> = vec![Vec::new(); regions.len()];
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
                let p = regions[r.index()].province;
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

    Ok((
        Map {
            provinces,
            regions,
            coasts,
            powers,
            borders,
            reach,
            name_prefixes: b
                .names
                .keys()
                .flat_map(|n| {
                    let words: Vec<&str> = n.split(' ').collect();
                    (1..words.len()).map(move |k| words[..k].join(" "))
                })
                .collect(),
            names: b.names,
            power_names,
            stacking: t.stacking,
        },
        starting,
    ))
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
