//! The lines that make and unmake places: names (`Rome = rom roma`, and
//! `OLD -> New Name = new` renaming one), terrains with their borders
//! (`COAST VEN ABUTS ADR APU ...`, `AMEND ROM ABUTS -VEN MIL`), and
//! `DROP`. Each is read as DPjudge's own loader (`Map.load`, `Map.drop`,
//! `Map.rename`) reads it, so that a map means here what it means there;
//! docs/variants.md ("DPjudge's map files") says how, directive by
//! directive.

use super::locs::{Loc, Terrain};
use super::model::{Cursor, Model, PlaceName, same, title};
use std::collections::HashMap;

/// `[old ->] Place Name = abbr alias...`
pub(super) fn place_name(line: &str, at: &Cursor<'_>, m: &mut Model) {
    let (left, right) = line.split_once('=').unwrap_or((line, ""));
    let mut rights = right.split_whitespace();
    let Some(abbr) = rights.next() else {
        m.refuse(at, line, "a place name without an abbreviation");
        return;
    };
    let abbr = abbr.to_uppercase();
    let (old, name) = match left.split_once("->") {
        Some((old, name)) => (Some(old.trim().to_uppercase()), name.trim()),
        None => (None, left.trim()),
    };
    let mut aliases = Vec::new();
    let mut ambiguous = Vec::new();
    for a in rights {
        if let Some(a) = a.strip_suffix('?') {
            ambiguous.push(a.to_lowercase());
        } else {
            aliases.push(a.replace('+', " ").to_lowercase());
        }
    }
    if let Some(old) = old {
        rename(&old, &abbr, m);
    }
    m.names.insert(
        abbr.clone(),
        PlaceName {
            abbr,
            name: name.to_string(),
            aliases,
            ambiguous,
        },
    );
}

/// The case pattern of `like` applied to `to`: lower, upper or title.
fn same_case(like: &str, to: &str) -> String {
    if like == like.to_lowercase() {
        to.to_lowercase()
    } else if like == like.to_uppercase() {
        to.to_uppercase()
    } else {
        title(to)
    }
}

/// `OLD -> ...`: every mention of the location `old` takes the name `new`.
fn rename(old: &str, new: &str, m: &mut Model) {
    m.locs.rename(|k| same(k, old).then(|| same_case(k, new)));
    for l in m.locs.iter_mut() {
        for a in &mut l.abuts {
            if same(a, old) {
                *a = same_case(a, new);
            }
        }
    }
    for p in &mut m.powers {
        p.homes.rename(old, new);
        for c in p.owns.iter_mut().flat_map(|o| o.0.iter_mut()) {
            if same(c, old) {
                *c = new.to_string();
            }
        }
        for (_, u) in &mut p.units {
            if same(u, old) {
                *u = new.to_string();
            }
        }
        super::sites::rename(&mut p.special, old, new);
    }
    m.unowned.rename(old, new);
    m.names.remove(&old.to_uppercase());
    m.units_changed();
    super::ports::rename_marks(&mut m.marks, old, new);
    super::owner_marks::rename(&mut m.owner_marks, old, new);
}

/// `DROP abbr`: the place, its coasts, every border to them, its name,
/// and (DPjudge's `Map.drop`) its place in every list of home centres,
/// the unowned centres' too, and the unit standing in the province:
/// milan's `DROP TUS VEN` leaves Italy two homes and two units until
/// its `ITALY MIL` and `A MIL` give it a third of each elsewhere.
///
/// `uncoast`: the coasts of a province given one coast anew (`COAST SPA`
/// where `spa` had split coasts) go, and a border to one of them becomes
/// a border to the province.
pub(super) fn drop_place(w: &str, m: &mut Model, uncoast: bool) {
    let up = w.to_uppercase();
    let province = up.split('/').next().unwrap_or(&up).to_string();
    let gone = |k: &str| {
        let k = k.to_uppercase();
        k == up || (!up.contains('/') && k.split('/').next() == Some(up.as_str()))
    };
    m.locs.retain(|l| !gone(&l.key));
    for l in m.locs.iter_mut() {
        let before = l.abuts.len();
        l.abuts.retain(|a| !gone(a));
        if uncoast && l.abuts.len() < before && !l.abuts.iter().any(|a| same(a, &province)) {
            l.abuts.push(province.clone());
        }
    }
    m.names.retain(|abbr, _| !gone(abbr));
    for p in &mut m.powers {
        p.homes.remove(&up);
        p.units
            .retain(|(_, at)| at.to_uppercase().split('/').next() != Some(province.as_str()));
    }
    m.unowned.remove(&up);
    m.units_changed();
    super::ports::drop_marks(&mut m.marks, w);
    super::owner_marks::drop_place(&mut m.owner_marks, w);
}

/// `COAST SPA/NC ABUTS GAS MAO POR` and the other terrain words, `AMEND`
/// among them.
pub(super) fn terrain_line(words: &[&str], at: &Cursor<'_>, m: &mut Model) {
    let line = words.join(" ");
    let Some(key) = words.get(1) else {
        m.refuse(at, &line, "a terrain without a place");
        return;
    };
    let kind = words[0].to_uppercase();
    let abuts: &[&str] = match words.get(2) {
        Some(w) if same(w, "ABUTS") => &words[3..],
        Some(_) => {
            m.refuse(at, &line, "expected ABUTS after the place");
            return;
        }
        None => &[],
    };
    let Some(written) = marked(key, abuts, at, &line, m) else {
        return;
    };
    let terrain = match kind.as_str() {
        "LAND" => Some(Terrain::Land),
        "COAST" => Some(Terrain::Coast),
        "WATER" => Some(Terrain::Water),
        "PORT" => Some(Terrain::Port),
        "SHUT" => Some(Terrain::Shut),
        _ => None,
    };
    // The place as it was, if written in another case, goes (an AMEND
    // keeps its terrain and borders); a province written in capitals
    // where it was in small letters (a fleet may now enter it) loses its
    // coasts.
    let old = match m.locs.get(key) {
        Some(l) if l.key != *key => {
            let old = m.locs.remove(key);
            if *key == key.to_uppercase() && !key.contains('/') {
                let coasts: Vec<String> = m
                    .locs
                    .iter()
                    .filter(|l| coast_of(&l.key, key))
                    .map(|l| l.key.clone())
                    .collect();
                for c in coasts {
                    drop_place(&c, m, true);
                }
            }
            old.map(|l| (l, false))
        }
        Some(_) => m.locs.remove(key).map(|l| (l, true)),
        None => None,
    };
    let mut loc = match (terrain, old) {
        (None, None) => {
            m.refuse(
                at,
                &format!("AMEND {key}"),
                "amends a place never given a terrain",
            );
            return;
        }
        (None, Some((old, _))) => Loc {
            key: (*key).to_string(),
            ..old
        },
        // A terrain with no ABUTS keeps the borders the place had, if it
        // is written in the same case (renaissance.map's `LAND SWI` opens
        // Switzerland with the standard map's borders).
        (Some(terrain), Some((old, true))) if words.len() == 2 => Loc {
            key: (*key).to_string(),
            terrain,
            abuts: old.abuts,
        },
        (Some(terrain), _) => Loc {
            key: (*key).to_string(),
            terrain,
            abuts: Vec::new(),
        },
    };
    loc.abuts = borders(std::mem::take(&mut loc.abuts), &written, m);
    m.locs.push(loc);
}

/// A place's borders `had` with a line's `written` ones read in order: a
/// border written again moves to the end (once, whatever its case);
/// `-X` takes off every border whose name starts so (DPjudge's reading:
/// `-SPA`, Spain's coasts too), with its marks. Each border is found by
/// its name, not searched for, so that a place of many borders reads in
/// time proportional to them.
fn borders(had: Vec<String>, written: &[String], m: &mut Model) -> Vec<String> {
    // Where each name (in capitals) stands in `list`: a slot taken out
    // is left empty.
    let mut list: Vec<Option<String>> = Vec::with_capacity(had.len() + written.len());
    let mut at: HashMap<String, Vec<usize>> = HashMap::new();
    let put = |list: &mut Vec<Option<String>>, at: &mut HashMap<String, Vec<usize>>, a: String| {
        at.entry(a.to_uppercase()).or_default().push(list.len());
        list.push(Some(a));
    };
    for a in had {
        put(&mut list, &mut at, a);
    }
    for a in written {
        if let Some(gone) = a.strip_prefix('-') {
            let g = gone.to_uppercase();
            at.retain(|k, slots| {
                let keep = !k.starts_with(&g);
                if !keep {
                    for &i in slots.iter() {
                        list[i] = None;
                    }
                }
                keep
            });
            super::ports::unmark(&mut m.marks, gone);
            super::owner_marks::unmark(&mut m.owner_marks, gone);
        } else {
            if let Some(slots) = at.remove(&a.to_uppercase()) {
                for i in slots {
                    list[i] = None;
                }
            }
            put(&mut list, &mut at, a.clone());
        }
    }
    list.into_iter().flatten().collect()
}

/// Whether the location `key` is a coast of the province `province`.
fn coast_of(key: &str, province: &str) -> bool {
    key.split_once('/').is_some_and(|(b, _)| same(b, province))
}

/// The borders of a terrain line with their marks read (`*`, `~`,
/// `AEG(CON)`), or `None` when one is refused. `-X` is kept as written.
fn marked(
    key: &str,
    abuts: &[&str],
    at: &Cursor<'_>,
    line: &str,
    m: &mut Model,
) -> Option<Vec<String>> {
    let mut written: Vec<String> = Vec::with_capacity(abuts.len());
    for a in abuts {
        let bare = a.strip_prefix('-').unwrap_or(a);
        if bare.contains(':') {
            m.refuse(at, line, &format!("`{a}`: borders open to some powers only (or one-way) are not a rule this judge has"));
            return None;
        }
        if a.starts_with('-') {
            written.push((*a).to_string());
            continue;
        }
        let a = match super::owner_marks::owner_mark(&mut m.owner_marks, key, a) {
            Ok(a) => a,
            Err(why) => {
                m.refuse(at, line, &why);
                return None;
            }
        };
        match super::ports::border_mark(&mut m.marks, key, &a) {
            Ok(b) => written.push(b),
            Err(why) => {
                m.refuse(at, line, &why);
                return None;
            }
        }
    }
    Some(written)
}
