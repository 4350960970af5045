//! Place positions from the DPjudge PostScript map beside a map file
//! (`standard.ps` beside `standard.map`). Its `% INFO` comment block
//! lists, one a line, where DPjudge draws each place's unit and name:
//! `%  195  314 LON    London` (PostScript points, y growing upward; its
//! `DPmap.startDoc` reads the same block). The importer writes each
//! province's point as its `xy`, and each split coast's as its province's
//! `coast-xy`, the keys the picture stands units on and lays the areas and
//! names around, so an imported map is drawn in the shape its authors drew
//! it rather than at the computed layout's guess.
//!
//! Which PostScript map: as DPjudge picks it, the `MAP` line's map's
//! (fleetrome's `MAP standard` is drawn on standard.ps), else the map's
//! own; failing those, that of a file it includes (a trial map that uses
//! standard.map is drawn on standard's, its own places among their
//! neighbours).

use super::model::Model;
use std::collections::BTreeMap;

/// The PostScript maps to look for beside the map `name`, best first.
pub(super) fn candidates(name: &str, m: &Model) -> Vec<String> {
    let stem = |f: &str| f.split('.').next().unwrap_or(f).to_string();
    let mut out: Vec<String> = Vec::new();
    let first = m.root_map.iter().cloned().chain([stem(name)]);
    for s in first.chain(m.files.iter().map(|f| stem(f))) {
        let ps = format!("{s}.ps");
        if !out.contains(&ps) {
            out.push(ps);
        }
    }
    out
}

/// The `% INFO` block's places: abbreviation (upper case, a coast's as
/// `BUL/EC`) to its point.
pub(super) fn info(ps: &str) -> BTreeMap<String, (f32, f32)> {
    let mut out = BTreeMap::new();
    let mut inside = false;
    for line in ps.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let upper: Vec<String> = words.iter().take(2).map(|w| w.to_uppercase()).collect();
        if upper.first().map(String::as_str) != Some("%") {
            inside = false;
            continue;
        }
        match upper.get(1).map(String::as_str) {
            Some("INFO") => {
                inside = true;
                continue;
            }
            Some("MAP" | "LANG") => {
                inside = false;
                continue;
            }
            _ => {}
        }
        if !inside {
            continue;
        }
        if let [_, x, y, nick, ..] = words.as_slice()
            && let (Ok(x), Ok(y)) = (x.parse::<f32>(), y.parse::<f32>())
        {
            out.insert(nick.to_uppercase(), (x, y));
        }
    }
    out
}

/// How far from the edge of the 1000 x 1000 square the places stand.
const MARGIN: f32 = 20.0;

/// Each province's `xy` and each split coast's (by upper-case key:
/// `SPA`, `SPA/NC`), the points of `info` turned north up and scaled into
/// 0..1000 keeping their shape. A province the block leaves out (a map
/// that renames or adds places on a board it borrows) stands at the
/// middle of its neighbours that have a point; a coast it leaves out is
/// left to the picture. Empty when the block names none of the map's
/// provinces.
pub(super) fn positions(
    m: &Model,
    bases: &[String],
    info: &BTreeMap<String, (f32, f32)>,
) -> BTreeMap<String, [f32; 2]> {
    let mut pts: BTreeMap<String, (f32, f32)> = bases
        .iter()
        .filter_map(|b| info.get(b).map(|p| (b.clone(), *p)))
        .collect();
    if pts.is_empty() {
        return BTreeMap::new();
    }
    // Each province's borders, its coasts' among them.
    let mut abuts: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for l in m.locs.iter() {
        abuts
            .entry(base(&l.key))
            .or_default()
            .extend(l.abuts.iter().map(|a| base(a)));
    }
    // Neighbours of neighbours, a few rounds: far enough for any map.
    for _ in 0..8 {
        let mut added = Vec::new();
        for b in bases.iter().filter(|b| !pts.contains_key(*b)) {
            let near: Vec<(f32, f32)> = abuts
                .get(b)
                .into_iter()
                .flatten()
                .filter_map(|a| pts.get(a).copied())
                .collect();
            if !near.is_empty() {
                let n = near.len() as f32;
                let x = near.iter().map(|p| p.0).sum::<f32>() / n;
                let y = near.iter().map(|p| p.1).sum::<f32>() / n;
                added.push((b.clone(), (x, y)));
            }
        }
        if added.is_empty() {
            break;
        }
        pts.extend(added);
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for (x, y) in pts.values() {
        x0 = x0.min(*x);
        y0 = y0.min(*y);
        x1 = x1.max(*x);
        y1 = y1.max(*y);
    }
    let k = (1000.0 - 2.0 * MARGIN) / (x1 - x0).max(y1 - y0).max(1.0);
    let coasts = m
        .locs
        .iter()
        .filter(|l| l.key.contains('/'))
        .filter_map(|l| {
            let key = l.key.to_uppercase();
            info.get(&key).map(|p| (key, *p))
        });
    pts.into_iter()
        .chain(coasts.collect::<Vec<_>>())
        .map(|(b, (x, y))| {
            let sx = MARGIN + (x - x0) * k;
            // PostScript's y grows upward; the picture's downward.
            let sy = MARGIN + (y1 - y) * k;
            (b, [round(sx), round(sy)])
        })
        .collect()
}

/// One decimal is more than a picture needs.
fn round(v: f32) -> f32 {
    (v.clamp(0.0, 1000.0) * 10.0).round() / 10.0
}

fn base(key: &str) -> String {
    let up = key.to_uppercase();
    up.split('/').next().unwrap_or(&up).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_info_block_is_read_and_nothing_else() {
        let ps = "%!PS\n% INFO\n%  195  314 LON    London\n%  448  151 BUL/EC Bulgaria (east coast)\n% MAP\n%  1 2 XXX Not info\n/LON 185 305 s\n";
        let got = info(ps);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got["LON"], (195.0, 314.0));
        assert_eq!(got["BUL/EC"], (448.0, 151.0));
    }
}
