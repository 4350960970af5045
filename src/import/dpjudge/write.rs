//! A read DPjudge map written as this judge's variant file.
//!
//! Who may go where follows DPjudge's own reading of its map (`Map.abuts`
//! in its source): an army moves along a border written in upper or lower
//! case to a place that is not water (`Tys`, written in title case, is
//! for fleets and convoys only); a fleet moves along a border whose first
//! letter is upper case, from and to locations a fleet may stand in
//! (those written in upper case), never onto land.

use super::Refusal;
use super::locs::{Loc, Terrain};
use super::model::{Model, title};
use crate::map::normalize_name;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;

/// A string as TOML writes it.
fn q(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A list of strings as TOML writes it.
fn list<S: AsRef<str>>(items: &[S]) -> String {
    let parts: Vec<String> = items.iter().map(|s| q(s.as_ref())).collect();
    format!("[{}]", parts.join(", "))
}

/// What the writer needs to know of the model, computed once.
struct Board<'a> {
    m: &'a Model,
    /// The provinces, upper case, in the order the file gives them.
    bases: Vec<String>,
    /// The coasts of each province with split coasts, by province.
    coasts: HashMap<String, Vec<&'a Loc>>,
}

impl<'a> Board<'a> {
    fn new(m: &'a Model) -> Board<'a> {
        let mut bases: Vec<String> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        let mut coasts: HashMap<String, Vec<&Loc>> = HashMap::new();
        for l in m.locs.iter() {
            let up = l.key.to_uppercase();
            let (b, coast) = match up.split_once('/') {
                Some((b, _)) => (b.to_string(), true),
                None => (up, false),
            };
            if coast {
                coasts.entry(b.clone()).or_default().push(l);
            }
            if seen.insert(b.clone()) {
                bases.push(b);
            }
        }
        Board { m, bases, coasts }
    }

    /// This judge's id of the location `key` (`Spa/nc`, `ADR`, `Lon`).
    fn id(&self, key: &str) -> String {
        let up = key.to_uppercase();
        let (base, coast) = match up.split_once('/') {
            Some((b, c)) => (b.to_string(), Some(c.to_lowercase())),
            None => (up.clone(), None),
        };
        let id = if self.m.terrain(&base) == Some(Terrain::Water) {
            base
        } else {
            let mut chars = base.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_uppercase().to_string() + &chars.as_str().to_lowercase()
            })
        };
        match coast {
            Some(c) => format!("{id}/{c}"),
            None => id,
        }
    }

    fn loc(&self, key: &str) -> Option<&Loc> {
        self.m.locs.get(key)
    }

    /// Where an army in province `base` may move.
    fn army(&self, base: &str) -> Vec<String> {
        let Some(l) = self.loc(base) else {
            return Vec::new();
        };
        if !matches!(l.terrain, Terrain::Land | Terrain::Coast | Terrain::Port) {
            return Vec::new();
        }
        let mut out = BTreeSet::new();
        for place in &l.abuts {
            let to = place.to_uppercase();
            let to = to.split('/').next().unwrap_or(&to).to_string();
            let ok = matches!(
                self.m.terrain(&to),
                Some(Terrain::Land | Terrain::Coast | Terrain::Port)
            );
            if ok && *place != title(place) && to != base {
                out.insert(self.id(&to));
            }
        }
        out.into_iter().collect()
    }

    /// Whether a fleet may stand in the location written `key`.
    fn fleet_may_stand(&self, key: &str) -> bool {
        self.loc(key).is_some_and(|l| {
            l.key == l.key.to_uppercase()
                && matches!(l.terrain, Terrain::Water | Terrain::Coast | Terrain::Port)
        })
    }

    /// Where a fleet in the location `key` may move.
    fn fleet(&self, key: &str) -> Vec<String> {
        let Some(l) = self.loc(key) else {
            return Vec::new();
        };
        let mut out = BTreeSet::new();
        for place in &l.abuts {
            let upper_first = place.chars().next().is_some_and(|c| !c.is_lowercase());
            let to = place.to_uppercase();
            let own = to.split('/').next() == key.to_uppercase().split('/').next();
            if upper_first && !own && self.fleet_may_stand(&to) {
                out.insert(self.id(&to));
            }
        }
        out.into_iter().collect()
    }
}

/// The long name of a coast from its place name: `Bulgaria (east coast)`.
fn coast_long(name: &str) -> Option<String> {
    let open = name.rfind('(')?;
    let close = name.rfind(')')?;
    (close > open).then(|| name[open + 1..close].trim().to_string())
}

/// The coast names this judge knows without a `[coasts]` table.
const KNOWN_COASTS: &[&str] = &["nc", "sc", "ec", "wc"];

/// The variant file, or what stops it.
pub(super) fn write(
    m: &Model,
    source: &str,
    variant: &str,
) -> Result<(String, Vec<String>), Vec<Refusal>> {
    let board = Board::new(m);
    let mut refusals: Vec<Refusal> = Vec::new();
    let mut notes = m.notes.clone();
    let centres = centres(m);
    let flow = super::calendar::resolve(&m.flow).unwrap_or_else(|r| {
        refusals.push(r);
        super::calendar::Flow::default()
    });
    if !refusals.is_empty() {
        return Err(refusals);
    }
    let mut body = String::new();
    calendar(&mut body, m, &flow, centres.len());
    coasts(&mut body, &board);
    powers(&mut body, &board);
    let sites: Vec<(&str, &super::sites::Special)> = m
        .powers
        .iter()
        .map(|p| (p.name.as_str(), &p.special))
        .collect();
    super::sites::write(&mut body, &sites, &|k| board.id(k), &power_name);
    provinces(&mut body, &board, &centres, &mut notes);
    let mut out = String::new();
    header(&mut out, source, variant, &notes, m.ps_file.as_deref());
    out.push_str(&body);
    Ok((out, notes))
}

/// Every supply centre: the homes, the unowned, and those a power owns
/// at the start (DPjudge's Map.validate makes every centre named in an
/// `OWNS` line a supply centre: 1900's British Egypt).
fn centres(m: &Model) -> BTreeSet<String> {
    m.powers
        .iter()
        .flat_map(|p| p.homes.iter().chain(p.owns.iter().flat_map(|o| o.0.iter())))
        .chain(m.unowned.iter())
        .cloned()
        .collect()
}

fn header(out: &mut String, source: &str, variant: &str, notes: &[String], ps: Option<&str>) {
    let _ = writeln!(
        out,
        "# Imported from the DPjudge map file `{source}` by `zinejudge import dpjudge`.\n\
         # DPjudge's map files: Copyright 2017 Manus Hand, MIT licence.\n\
         # {}",
        match ps {
            Some(ps) => format!("The places' `xy` are those of DPjudge's PostScript map `{ps}`."),
            None => "The picture is a computed layout (no DPjudge PostScript map lay beside it)."
                .to_string(),
        }
    );
    for n in notes {
        let _ = writeln!(out, "# Note: {n}");
    }
    let _ = writeln!(out);
    let title = {
        let mut c = variant.chars();
        c.next()
            .map_or_else(String::new, |f| f.to_uppercase().to_string() + c.as_str())
    };
    let _ = writeln!(
        out,
        "[variant]\nname = {}\ntitle = {}\n",
        q(variant),
        q(&format!("{title} (DPjudge map)"))
    );
}

fn phase_word(w: &str) -> &'static str {
    match w {
        "RETREATS" => "retreat",
        "ADJUSTMENTS" => "adjustment",
        _ => "movement",
    }
}

fn calendar(out: &mut String, m: &Model, cal: &super::calendar::Flow, centres: usize) {
    let flow: Vec<(String, Vec<String>)> = cal
        .seasons
        .iter()
        .map(|s| (s.name.clone(), s.phases.clone()))
        .collect();
    let _ = writeln!(out, "[calendar]\nseasons = [");
    for s in &cal.seasons {
        let ph: Vec<&str> = s.phases.iter().map(|p| phase_word(p)).collect();
        let mut extra = String::new();
        if let Some(n) = s.new_year {
            let _ = write!(extra, ", new-year = {n}");
        }
        if let Some((every, remainder)) = s.when {
            let _ = write!(
                extra,
                ", when-year = {{ every = {every}, remainder = {remainder} }}"
            );
        }
        let _ = writeln!(
            out,
            "  {{ name = {}, phases = {}{extra} }},",
            q(&title(&s.name)),
            list(&ph)
        );
    }
    if cal.years_down {
        let _ = writeln!(out, "]\nyears-down = true");
    } else {
        let _ = writeln!(out, "]");
    }
    let (mut season, mut year, mut phase) = m.begin.clone().unwrap_or_else(|| {
        let (s, p) = &flow[0];
        (s.clone(), 1901, p.first().cloned().unwrap_or_default())
    });
    if m.mobilize && phase != "ADJUSTMENTS" {
        // The last adjustment phase before the first phase: the same
        // year's if an earlier season has one, else the year before's.
        let at = flow.iter().position(|(s, _)| *s == season).unwrap_or(0);
        let adjusting = |(_, p): &&(String, Vec<String>)| p.iter().any(|x| x == "ADJUSTMENTS");
        if let Some((s, _)) = flow[..at].iter().rev().find(adjusting) {
            season.clone_from(s);
        } else if let Some((s, _)) = flow.iter().rev().find(adjusting) {
            season.clone_from(s);
            year -= 1;
        }
        phase = "ADJUSTMENTS".to_string();
    }
    let _ = writeln!(
        out,
        "start = {}\n",
        q(&format!("{} {year} {}", title(&season), phase_word(&phase)))
    );
    let win = m.victory.map_or(centres / 2 + 1, |v| v as usize);
    let _ = writeln!(out, "[victory]\ncentres = {win}\n");
    if m.build_any {
        let _ = writeln!(out, "[rules]\nbuild-sites = \"any-owned-centre\"\n");
    }
    if !m.new_homes.is_empty() {
        let years: Vec<String> = m.new_homes.iter().map(ToString::to_string).collect();
        let _ = writeln!(out, "[new-homes]\nyears = [{}]\n", years.join(", "));
    }
    if m.remote_builds {
        // DPjudge's REMOTE_BUILDS builds in any owned centre, whatever
        // BUILD_ANY or HOME_BUILDS say (its `Game.buildSites`).
        let _ = writeln!(out, "[remote-builds]\n");
    } else if m.home_builds {
        let _ = writeln!(out, "[home-builds]\n");
    }
    let dummies: Vec<String> = m
        .powers
        .iter()
        .filter(|p| p.dummy)
        .map(|p| q(&power_name(&p.name)))
        .collect();
    super::dummies::write(out, &dummies, &m.dummy_words);
    super::press::write(out, m.face_to_face);
}

/// `[coasts]` for the coast names this judge does not know already.
fn coasts(out: &mut String, b: &Board<'_>) {
    let mut extra: BTreeMap<String, String> = BTreeMap::new();
    for n in b.m.names.values() {
        if let Some((_, c)) = n.abbr.split_once('/') {
            let c = c.to_lowercase();
            if !KNOWN_COASTS.contains(&c.as_str()) {
                let long = coast_long(&n.name).unwrap_or_else(|| c.clone());
                extra.entry(c).or_insert(long);
            }
        }
    }
    if extra.is_empty() {
        return;
    }
    let _ = writeln!(out, "[coasts]");
    for (c, long) in extra {
        let _ = writeln!(out, "{c} = {}", q(&long));
    }
    let _ = writeln!(out);
}

/// A power's name as DPjudge shows it: leading underscores dropped, `+`
/// before a capital.
fn power_name(raw: &str) -> String {
    title(raw.trim_start_matches('_')).replace('+', "")
}

fn powers(out: &mut String, b: &Board<'_>) {
    let letters: Vec<Option<char>> = b.m.powers.iter().map(|p| p.letter).collect();
    for p in &b.m.powers {
        let name = power_name(&p.name);
        let adjective = p
            .own_word
            .as_deref()
            .map_or_else(|| name.clone(), |w| title(w).replace('+', " "));
        let mut aliases = Vec::new();
        if let Some(l) = p.letter
            && letters.iter().filter(|x| **x == Some(l)).count() == 1
        {
            aliases.push(l.to_string());
        }
        let homes: Vec<String> = p.homes.iter().map(|h| b.id(h)).collect();
        // MOBILIZE: the powers start with no units and build them.
        let units: Vec<String> = if b.m.mobilize {
            Vec::new()
        } else {
            p.units
                .iter()
                .map(|(k, at)| format!("{k} {}", b.id(at)))
                .collect()
        };
        let _ = writeln!(
            out,
            "[[powers]]\nname = {}\nadjective = {}",
            q(&name),
            q(&adjective)
        );
        if !aliases.is_empty() {
            let _ = writeln!(out, "aliases = {}", list(&aliases));
        }
        let _ = writeln!(out, "home = {}", list(&homes));
        if let Some((owns, _, _)) = &p.owns {
            let a: BTreeSet<&String> = owns.iter().collect();
            let h: BTreeSet<&String> = p.homes.iter().collect();
            if a != h {
                let owns: Vec<String> = owns.iter().map(|c| b.id(c)).collect();
                let _ = writeln!(out, "owns = {}", list(&owns));
            }
        }
        let _ = writeln!(out, "units = {}\n", list(&units));
    }
}

/// The aliases each province keeps, and the names it shares with other
/// places (DPjudge's `tyr?`, and any alias two places use): those are
/// written `ambiguous`, so that an order naming one is asked about. A
/// shared name that is also a place's id or full name is left out, noted.
struct Names {
    plain: BTreeMap<String, Vec<String>>,
    ambiguous: BTreeMap<String, Vec<String>>,
}

fn aliases(b: &Board<'_>, notes: &mut Vec<String>) -> Names {
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    let mut fixed: BTreeSet<String> = BTreeSet::new();
    for base in &b.bases {
        let mut names: BTreeSet<String> = BTreeSet::new();
        let id = normalize_name(&b.id(base));
        fixed.insert(id.clone());
        names.insert(id);
        if let Some(n) = b.m.names.get(base) {
            fixed.insert(normalize_name(&n.name));
            names.insert(normalize_name(&n.name));
            for a in &n.aliases {
                names.insert(normalize_name(a));
            }
        }
        for n in &names {
            *count.entry(n.clone()).or_default() += 1;
        }
    }
    let mut out = Names {
        plain: BTreeMap::new(),
        ambiguous: BTreeMap::new(),
    };
    let mut dropped = Vec::new();
    for base in &b.bases {
        let Some(n) = b.m.names.get(base) else {
            continue;
        };
        let id = normalize_name(&b.id(base));
        let name = normalize_name(&n.name);
        let mut keep = Vec::new();
        let mut shared = Vec::new();
        let all = n
            .aliases
            .iter()
            .map(|a| (a, false))
            .chain(n.ambiguous.iter().map(|a| (a, true)));
        for (a, marked) in all {
            let k = normalize_name(a);
            if k.is_empty() || k == id || k == name || a.contains(['/', '(', ')']) {
                continue;
            }
            let several = marked || count.get(&k).copied().unwrap_or(0) > 1;
            if several && fixed.contains(&k) {
                dropped.push(format!("{a} ({})", b.id(base)));
            } else if several {
                if !shared.contains(a) {
                    shared.push(a.clone());
                }
            } else if !keep.contains(a) {
                keep.push(a.clone());
            }
        }
        out.plain.insert(base.clone(), keep);
        out.ambiguous.insert(base.clone(), shared);
    }
    if !dropped.is_empty() {
        dropped.sort();
        dropped.dedup();
        notes.push(format!(
            "aliases that are another place's own name, left out: {}",
            dropped.join(", ")
        ));
    }
    out
}

fn provinces(out: &mut String, b: &Board<'_>, centres: &BTreeSet<String>, notes: &mut Vec<String>) {
    let kept = aliases(b, notes);
    let xy = super::ps::positions(b.m, &b.bases, &b.m.ps_info);
    let marks = super::ports::by_province(&b.m.marks);
    let owner_marks = super::owner_marks::by_province(&b.m.owner_marks);
    for base in &b.bases {
        let coasts: &[&Loc] = b.coasts.get(base).map_or(&[], Vec::as_slice);
        let terrain = match b.m.terrain(base) {
            Some(Terrain::Water) => "sea",
            Some(Terrain::Land) => "land",
            Some(Terrain::Shut) => "impassable",
            _ => "coast",
        };
        let name =
            b.m.names
                .get(base)
                .map_or_else(|| base.clone(), |n| n.name.clone());
        let _ = writeln!(
            out,
            "[[provinces]]\nid = {}\nname = {}",
            q(&b.id(base)),
            q(&name)
        );
        if let Some(a) = kept.plain.get(base).filter(|a| !a.is_empty()) {
            let _ = writeln!(out, "aliases = {}", list(a));
        }
        if let Some(a) = kept.ambiguous.get(base).filter(|a| !a.is_empty()) {
            let _ = writeln!(out, "ambiguous = {}", list(a));
        }
        let _ = writeln!(out, "terrain = \"{terrain}\"");
        if centres.contains(base) {
            let _ = writeln!(out, "supply-centre = true");
        }
        if let Some([x, y]) = xy.get(base) {
            let _ = writeln!(out, "xy = [{x:.1}, {y:.1}]");
        }
        let port = b.m.terrain(base) == Some(Terrain::Port);
        let mine = marks.get(base).map_or(&[][..], Vec::as_slice);
        super::ports::province_lines(out, mine, port, &|k| b.id(k));
        let mine = owner_marks.get(base).map_or(&[][..], Vec::as_slice);
        super::owner_marks::province_line(out, mine, &|k| b.id(k));
        if terrain == "impassable" {
            let _ = writeln!(out);
            continue;
        }
        let army = b.army(base);
        if !army.is_empty() {
            let _ = writeln!(out, "army = {}", list(&army));
        }
        if coasts.is_empty() {
            let fleet = if b.fleet_may_stand(base) {
                b.fleet(base)
            } else {
                Vec::new()
            };
            if !fleet.is_empty() {
                let _ = writeln!(out, "fleet = {}", list(&fleet));
            }
        } else {
            let parts: Vec<String> = coasts
                .iter()
                .filter(|c| b.fleet_may_stand(&c.key))
                .map(|c| {
                    let coast = c.key.split_once('/').map_or("", |x| x.1).to_lowercase();
                    format!("{coast} = {}", list(&b.fleet(&c.key)))
                })
                .collect();
            let _ = writeln!(out, "coasts = {{ {} }}", parts.join(", "));
            // Where DPjudge's PostScript map stands a fleet on each coast.
            let points: Vec<String> = coasts
                .iter()
                .filter(|c| b.fleet_may_stand(&c.key))
                .filter_map(|c| {
                    let [x, y] = xy.get(&c.key.to_uppercase())?;
                    let coast = c.key.split_once('/').map_or("", |x| x.1).to_lowercase();
                    Some(format!("{coast} = [{x:.1}, {y:.1}]"))
                })
                .collect();
            if !points.is_empty() {
                let _ = writeln!(out, "coast-xy = {{ {} }}", points.join(", "));
            }
        }
        let _ = writeln!(out);
    }
}
