//! The map picture as a reader sees it: every shipped variant drawn as a
//! map of areas, bordering provinces touching, names clear of each other
//! and of every unit, orders drawn, hidden units left out of the pictures
//! of those who may not see them, and a PNG small enough to mail.

use crate::picture_support::{boxes, markers, overlap};
use crate::support_judge;
use crate::support_play;
use support_judge::bot;
use zinejudge::game::Position;
use zinejudge::game::step::{PhaseOrders, PhaseResult, play};
use zinejudge::map::{Terrain, Unit, UnitKind};
use zinejudge::testing::report::PhaseReport;
use zinejudge::testing::report::picture::{Picture, png, svg};
use zinejudge::variant::features::Viewer;
use zinejudge::variant::{self, PhaseKind, Variant};

type Pt = (f32, f32);

fn shipped() -> Vec<Variant> {
    variant::BUILTIN
        .iter()
        .map(|(name, _)| support_play::shipped(name))
        .collect()
}

/// The rings of the area path `id="p-ABBR"`.
pub(crate) fn area(svg: &str, abbr: &str) -> Vec<Vec<Pt>> {
    path_data(
        svg,
        &format!("<path id=\"p-{}\" d=\"", abbr.replace('&', "&amp;")),
    )
}

/// The rings or lines (`M x y L x y ... Z M ...`) of the first path whose
/// start is `key` (up to its data's opening quote).
fn path_data(svg: &str, key: &str) -> Vec<Vec<Pt>> {
    let Some(i) = svg.find(key) else {
        return vec![];
    };
    let d = svg[i + key.len()..].split('"').next().unwrap_or("");
    d.split('M')
        .filter(|r| !r.is_empty())
        .map(|r| {
            r.trim_end_matches('Z')
                .split('L')
                .filter_map(|p| {
                    let mut it = p.split(' ').filter_map(|x| x.parse::<f32>().ok());
                    Some((it.next()?, it.next()?))
                })
                .collect()
        })
        .collect()
}

fn seg_dist(p: Pt, a: Pt, b: Pt) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let l = dx * dx + dy * dy;
    let t = if l == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / l).clamp(0.0, 1.0)
    };
    ((p.0 - a.0 - t * dx).powi(2) + (p.1 - a.1 - t * dy).powi(2)).sqrt()
}

/// Length of the boundary of `a` that runs along `b` (within a pixel).
fn shared(a: &[Vec<Pt>], b: &[Vec<Pt>]) -> f32 {
    let near = |p: Pt| {
        b.iter()
            .any(|r| (0..r.len()).any(|k| seg_dist(p, r[k], r[(k + 1) % r.len()]) < 1.0))
    };
    let mut len = 0.0;
    for r in a {
        for k in 0..r.len() {
            let (p, q) = (r[k], r[(k + 1) % r.len()]);
            if near(p) && near(q) && near(((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0)) {
                len += ((q.0 - p.0).powi(2) + (q.1 - p.1).powi(2)).sqrt();
            }
        }
    }
    len
}

/// A unit on every region of the board: the most crowded picture there
/// can be.
fn full_board(v: &Variant) -> Position {
    let mut pos = Position::initial(v);
    pos.units = v
        .map
        .regions()
        .iter()
        .enumerate()
        .filter(|(_, r)| v.map.province(r.province).terrain != Terrain::OffBoard)
        .map(|(i, r)| Unit {
            power: zinejudge::map::PowerId((i % v.map.powers().len()) as u8),
            kind: if v.map.province(r.province).terrain == Terrain::Sea || r.coast.is_some() {
                UnitKind::Fleet
            } else {
                UnitKind::Army
            },
            region: zinejudge::map::RegionId(i as u16),
        })
        .collect();
    pos
}

#[test]
fn every_shipped_variant_is_drawn_as_areas() {
    for v in shipped() {
        let pos = Position::initial(&v);
        let s = svg(&v, &pos, &[], &format!("{}: start", v.name));
        for p in v.map.provinces() {
            assert!(p.xy.is_some(), "{}: {} has no point", v.name, p.abbr);
            if p.terrain == Terrain::OffBoard {
                assert!(s.contains(&format!("class=\"box\" id=\"p-{}\"", p.abbr)));
            } else {
                let rings = area(&s, &p.abbr);
                assert!(!rings.is_empty(), "{}: {} has no area", v.name, p.abbr);
            }
        }
        assert_eq!(
            s.matches("<g class=\"unit\"").count(),
            pos.units.len(),
            "{}: every unit drawn",
            v.name
        );
        assert!(s.contains("class=\"area sea\"") && s.contains("class=\"area coast\""));
        let bytes = png(&s).expect("renders");
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        if let Ok(dir) = std::env::var("ZJ_PICTURE_DIR") {
            std::fs::write(format!("{dir}/{}.png", v.name), &bytes).unwrap();
            std::fs::write(format!("{dir}/{}.svg", v.name), &s).unwrap();
        }
    }
}

#[test]
fn bordering_provinces_touch_on_every_shipped_map() {
    let mut failures = Vec::new();
    for v in shipped() {
        let s = svg(&v, &Position::initial(&v), &[], "t");
        let map = &v.map;
        let mut missing = Vec::new();
        for a in map.province_ids() {
            for &r in &map.province(a).regions {
                for &(n, _) in map.borders(r) {
                    let b = map.province_of(n);
                    let (pa, pb) = (map.province(a), map.province(b));
                    if b <= a || pa.terrain == Terrain::OffBoard || pb.terrain == Terrain::OffBoard
                    {
                        continue;
                    }
                    let label = format!("{}-{}", pa.abbr, pb.abbr);
                    if missing.contains(&label) {
                        continue;
                    }
                    let (ra, rb) = (area(&s, &pa.abbr), area(&s, &pb.abbr));
                    if shared(&ra, &rb) < 2.0 && shared(&rb, &ra) < 2.0 {
                        missing.push(label);
                    }
                }
            }
        }
        if !missing.is_empty() {
            failures.push(format!("{}: {missing:?}", v.name));
        }
    }
    assert!(
        failures.is_empty(),
        "these border each other but their areas do not touch: {failures:#?}"
    );
}

/// The lines of the SVG path `class`'s data.
fn lines_of(svg: &str, class: &str) -> Vec<Vec<Pt>> {
    path_data(svg, &format!("<path class=\"{class}\" d=\""))
}

#[test]
fn land_borders_are_lines_and_coasts_the_coast_line_alone() {
    // On a drawn map an army's border is a line wherever two land areas
    // meet, and a coast is drawn with the coast line only, not the
    // borders' brown beside it (issue #38: cleaner coasts, a lighter PNG).
    let mut missing = Vec::new();
    for v in shipped() {
        let s = svg(&v, &Position::initial(&v), &[], "t");
        let map = &v.map;
        let land = |t: Terrain| !matches!(t, Terrain::Sea | Terrain::OffBoard);
        let borders: Vec<Vec<Pt>> = lines_of(&s, "borders")
            .into_iter()
            .flat_map(|l| l.windows(2).map(|w| w.to_vec()).collect::<Vec<_>>())
            .collect();
        assert!(!borders.is_empty(), "{}: no borders drawn", v.name);
        for l in s
            .lines()
            .filter(|l| l.contains(r#"class="area land""#) || l.contains(r#"class="area coast""#))
        {
            assert!(l.contains(r#"stroke="none""#), "{}: {l}", v.name);
        }
        let areas: Vec<(String, Vec<Vec<Pt>>)> = map
            .province_ids()
            .filter(|p| land(map.province(*p).terrain))
            .map(|p| {
                let abbr = map.province(p).abbr.clone();
                let a = area(&s, &abbr);
                (abbr, a)
            })
            .collect();
        // Each piece of border line lies between two land areas (or one
        // and land no province claims): none follows a coast.
        let neutral = s.contains(r#"<path id="neutral-land""#);
        for seg in &borders {
            let on: Vec<&str> = areas
                .iter()
                .filter(|(_, a)| shared(std::slice::from_ref(seg), a) > 0.0)
                .map(|(n, _)| n.as_str())
                .collect();
            assert!(
                on.len() >= 2 || (on.len() == 1 && neutral),
                "{}: a border line along {on:?} only, at {seg:?}",
                v.name
            );
        }
        // Each pair of land areas that meet has its border drawn.
        for (i, (na, a)) in areas.iter().enumerate() {
            for (nb, b) in &areas[i + 1..] {
                if shared(a, b) < 2.0 {
                    continue;
                }
                let drawn: f32 = borders
                    .iter()
                    .filter(|seg| shared(std::slice::from_ref(*seg), a) > 0.0)
                    .map(|seg| shared(std::slice::from_ref(seg), b))
                    .sum();
                if drawn < 1.0 {
                    missing.push(format!("{}: {na}-{nb} ({:.1} px)", v.name, shared(a, b)));
                }
            }
        }
    }
    assert!(missing.is_empty(), "no border line drawn: {missing:#?}");
}

#[test]
fn rule_7_the_legend_counts_a_defensive_army_as_the_two_units_the_chart_does() {
    // 1000 AD rule 7: "Two supply centres will support a triple army". The
    // chart counts a 3D as two units (centres less units is what is due);
    // the picture's legend says the same.
    let v = support_play::shipped("1000ad");
    let pos = Position::from_toml(
        &v,
        "phase = \"Spring 1000 movement\"\n[units]\nFranks = [\"3D Par\", \"A Rou\"]\n\
         [centres]\nFranks = [\"Par\", \"Rou\", \"Tou\"]\n",
    )
    .expect("position");
    let s = svg(&v, &pos, &[], "t");
    assert!(
        s.contains("Franks (F): 3 centres, 3 units"),
        "{}",
        s.lines()
            .filter(|l| l.contains("Franks"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The smallest font a province's name is drawn in: smaller is not read at
/// mail size.
const MIN_LABEL: f32 = 9.0;

/// The font size of each label (`<text class="label" ...>`), by name.
fn label_sizes(svg: &str) -> Vec<(String, f32)> {
    svg.match_indices("<text class=\"label\"")
        .filter_map(|(i, _)| {
            let rest = &svg[i..];
            let end = rest.find('>')?;
            let size = rest[..end]
                .split("font-size=\"")
                .nth(1)?
                .split('"')
                .next()?
                .parse()
                .ok()?;
            let name = rest[end + 1..].split('<').next()?.to_string();
            Some((name, size))
        })
        .collect()
}

/// No name over another, none under a unit's marker, none too small to
/// read.
fn names_clear(what: &str, s: &str, labels_expected: usize) {
    let labels = boxes(s, "<text class=\"label\"");
    let units = markers(s);
    assert_eq!(labels.len(), labels_expected, "{what}");
    for (i, a) in labels.iter().enumerate() {
        for b in &labels[i + 1..] {
            assert!(!overlap(a, b), "{what}: labels {a:?} and {b:?} overlap");
        }
        for u in &units {
            assert!(!overlap(a, u), "{what}: label {a:?} and unit {u:?} overlap");
        }
    }
    for (name, size) in label_sizes(s) {
        assert!(size >= MIN_LABEL, "{what}: {name} drawn at {size} px");
    }
}

#[test]
fn names_never_overlap_each_other_or_a_unit() {
    for v in shipped() {
        // Every region occupied, and a dislodged unit beside each.
        let pos = full_board(&v);
        let dislodged: Vec<(Unit, Vec<_>)> = pos.units.iter().map(|u| (*u, vec![])).collect();
        let s = svg(&v, &pos, &dislodged, "t");
        assert!(
            boxes(&s, "<g class=\"unit").len() >= 2 * pos.units.len(),
            "{}",
            v.name
        );
        names_clear(
            &format!("{} full board", v.name),
            &s,
            v.map.provinces().len(),
        );
        // And each kind of phase as the results draw it: movement with
        // its orders, retreats, adjustments.
        for (kind, s) in phases(&v) {
            names_clear(&format!("{} {kind}", v.name), &s, v.map.provinces().len());
        }
    }
}

/// Every DPjudge map of tests/data/dpjudge (all of DPjudge's that
/// import, and the ones written here on its boards), imported without
/// its PostScript map, so that the picture is the computed layout; and
/// the names of the maps that do not import.
fn imported_without_postscript() -> (Vec<Variant>, Vec<String>) {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dpjudge"));
    let mut maps: Vec<String> = std::fs::read_dir(dir)
        .expect("the maps' folder")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".map"))
        .collect();
    maps.sort();
    let (mut drawn, mut refused) = (Vec::new(), Vec::new());
    for m in maps {
        let mut fetch = |n: &str| {
            if n.ends_with(".ps") {
                return Err("no PostScript map".to_string());
            }
            // DPjudge's files are Latin-1.
            std::fs::read(dir.join(n))
                .map(|b| b.iter().map(|&c| char::from(c)).collect::<String>())
                .map_err(|e| e.to_string())
        };
        match zinejudge::testing::import::dpjudge::import(&m, &mut fetch) {
            Ok(i) => drawn.push(i.variant),
            Err(_) => refused.push(m),
        }
    }
    (drawn, refused)
}

#[test]
fn names_and_units_never_overlap_on_dpjudge_maps_drawn_without_their_postscript() {
    // Issue #52: without DPjudge's PostScript map the picture is laid out
    // from the borders; before, every province stood on one point, the
    // units in a diagonal pile and the names crowding the middle.
    let (maps, refused) = imported_without_postscript();
    // Two of DPjudge's maps ask for rules this judge does not have, and
    // loop.map (written here) for a calendar that cannot be played: their
    // own tests say why. Every other map is drawn.
    assert_eq!(refused, ["loop.map", "vassal.map", "zeus.map"]);
    // DPjudge's 34 and the three written here on its standard board.
    assert_eq!(maps.len(), 37, "maps imported");
    for v in &maps {
        let pic = Picture::new(v);
        let pos = full_board(v);
        let bare = pic.board_svg(&pos, &[], "t", Viewer::Gm);
        let units = boxes(&bare, "<g class=\"unit");
        assert_eq!(units.len(), pos.units.len(), "{}", v.name);
        for (i, a) in units.iter().enumerate() {
            for b in &units[i + 1..] {
                assert!(!overlap(a, b), "{}: units {a:?} and {b:?} overlap", v.name);
            }
        }
        // A dislodged unit beside every unit: the names clear them too.
        let dislodged: Vec<(Unit, Vec<_>)> = pos.units.iter().map(|u| (*u, vec![])).collect();
        let s = pic.board_svg(&pos, &dislodged, "t", Viewer::Gm);
        names_clear(
            &format!("{} full board", v.name),
            &s,
            v.map.provinces().len(),
        );
    }
    // The tallest board's PNG, composed over its layers as a results mail
    // carries it, is the whole picture, to its bottom.
    let tall = maps
        .iter()
        .max_by_key(|v| v.map.provinces().len())
        .expect("a map");
    let (svg, composed) = opening_pictures(tall);
    let (whole, composed) = (pixels(&png(&svg).expect("renders")), pixels(&composed));
    assert_eq!(
        (whole.0, whole.1),
        (composed.0, composed.1),
        "{}",
        tall.name
    );
    assert!(whole.1 > 1000, "{}: {} pixels tall", tall.name, whole.1);
    let bottom = |px: &[u8]| -> u64 {
        let w = whole.0 as usize;
        let from = (whole.1 as usize - 400) * w * 3;
        px[from..].iter().map(|&c| u64::from(c)).sum()
    };
    let (a, b) = (bottom(&whole.2), bottom(&composed.2));
    assert!(a.abs_diff(b) * 100 < a, "{}: the bottom differs", tall.name);
}

#[test]
fn small_provinces_names_are_drawn_at_a_readable_size() {
    let v = support_play::shipped("standard");
    let s = svg(&v, &Position::initial(&v), &[], "t");
    let sizes = label_sizes(&s);
    for name in ["Yor", "Edi", "Alb", "Gre", "Con", "Bel", "Hol", "Den"] {
        let size = sizes
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, z)| *z)
            .unwrap_or(0.0);
        assert!(size >= 10.0, "{name} drawn at {size} px");
    }
}

/// Play one phase of `v` from `pos` with `lines` (`Power: order`).
fn played(v: &Variant, pos: &Position, lines: &[&str]) -> (PhaseOrders, PhaseResult, Position) {
    let o = support_play::orders(v, pos.phase.kind, lines);
    let (r, next) = play(v, pos, &o);
    (o, r, next)
}

fn report<'a>(
    v: &'a Variant,
    before: &'a Position,
    o: &'a PhaseOrders,
    r: &'a PhaseResult,
    after: &'a Position,
) -> PhaseReport<'a> {
    PhaseReport {
        variant: v,
        game: "pic",
        before,
        orders: o,
        result: r,
        after,
        next_deadline: None,
        ended: None,
        nmr: vec![],
    }
}

const OPENING: &[&str] = &[
    "Austria: A Vie-Gal",
    "Austria: A Bud-Ser",
    "Austria: F Tri-Alb",
    "England: F Lon-NTH",
    "England: F Edi-NWG",
    "England: A Lvp-Yor",
    "France: A Par-Bur",
    "France: A Mar S A Par-Bur",
    "France: F Bre-MAO",
    "Germany: A Mun-Bur",
    "Germany: A Ber-Kie",
    "Germany: F Kie-Den",
    "Italy: A Ven H",
    "Italy: A Rom-Apu",
    "Italy: F Nap-ION",
    "Russia: A War-Gal",
    "Russia: A Mos-Ukr",
    "Russia: F Sev-BLA",
    "Russia: F StP/sc-BOT",
    "Turkey: F Ank-BLA",
    "Turkey: A Con-Bul",
    "Turkey: A Smy-Con",
];

#[test]
fn the_opening_shows_moves_bounces_and_supports() {
    let v = support_play::shipped("standard");
    let pos = Position::initial(&v);
    let (o, r, after) = played(&v, &pos, OPENING);
    let pic = Picture::new(&v);
    let s = pic.phase_svg(&report(&v, &pos, &o, &r, &after), "opening", Viewer::Gm);
    // Par-Bur with Mar's support beats Mun-Bur: one arrow home, one
    // bounced; Vie-Gal and War-Gal bounce; BLA bounces both ways.
    assert_eq!(
        s.matches("<g class=\"move\"").count(),
        15,
        "moves that went"
    );
    assert_eq!(s.matches("<g class=\"move bounced\"").count(), 5);
    assert_eq!(s.matches("class=\"support\"").count(), 1);
    assert_eq!(s.matches("class=\"hold\"").count(), 1, "Ven holds by order");
    // The arrow of Par-Bur starts at Paris and ends (its head drawn
    // beyond) just short of the unit now in Burgundy.
    let g = pic.geometry();
    let par = g.province_spot(support_play::prov(&v, "Par"));
    let bur = g.province_spot(support_play::prov(&v, "Bur"));
    let arrow = s
        .match_indices("<g class=\"move\"><path d=\"M")
        .map(|(i, _)| {
            let d = s[i..]
                .split("d=\"M")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            let n: Vec<f32> = d.split(['L', ' ']).filter_map(|x| x.parse().ok()).collect();
            ((n[0], n[1]), (n[n.len() - 2], n[n.len() - 1]))
        })
        .find(|(a, _)| (a.0 - par.0).hypot(a.1 - par.1) < 12.0)
        .expect("an arrow from Paris");
    assert!(
        (arrow.1.0 - bur.0).hypot(arrow.1.1 - bur.1) < 20.0,
        "{arrow:?} {bur:?}"
    );
    let bytes = png(&s).unwrap();
    assert!(
        bytes.len() < 150_000,
        "the opening's PNG is {} bytes",
        bytes.len()
    );
}

#[test]
fn a_convoy_is_drawn_along_its_fleets() {
    let v = support_play::shipped("standard");
    let pos = Position::from_toml(
        &v,
        r#"
phase = "Spring 1901 movement"
[units]
England = ["A Lon", "F NTH"]
France = ["F ENG"]
"#,
    )
    .unwrap();
    let (o, r, after) = played(
        &v,
        &pos,
        &["England: A Lon-Nwy", "England: F NTH C A Lon-Nwy"],
    );
    let pic = Picture::new(&v);
    let s = pic.phase_svg(&report(&v, &pos, &o, &r, &after), "convoy", Viewer::Gm);
    assert_eq!(s.matches("class=\"convoy\"").count(), 1);
    let nth = pic.geometry().province_spot(support_play::prov(&v, "NTH"));
    let d = s
        .split("<g class=\"move\"><path d=\"")
        .nth(1)
        .and_then(|x| x.split('"').next())
        .expect("the army's arrow");
    assert_eq!(d.matches('L').count(), 2, "Lon, the North Sea, Norway: {d}");
    assert!(d.contains(&format!("L{:.1} {:.1}", nth.0, nth.1)), "{d}");
}

#[test]
fn hidden_units_are_not_in_the_pictures_of_those_who_may_not_see_them() {
    let v = support_play::shipped("1066");
    let pos = Position::initial(&v);
    let hidden: Vec<&Unit> = pos
        .units
        .iter()
        .filter(|u| v.features.hidden_from(&v.map, pos.phase, u, Viewer::Public))
        .collect();
    assert!(!hidden.is_empty(), "1066 hides Harald's fleet at the start");
    let owner = hidden[0].power;
    // Within the fog: the moves stay hidden from everyone else.
    let lines = [
        "Harald Hardrada: A/F(GER)-WAS",
        "Harald Hardrada: A/F(WAS)-GER",
    ];
    let (o, r, after) = played(&v, &pos, &lines);
    let pr = report(&v, &pos, &o, &r, &after);
    let pic = Picture::new(&v);
    let gm = pic.phase_svg(&pr, "t", Viewer::Gm);
    let harald = pic.phase_svg(&pr, "t", Viewer::Power(owner));
    let other = v.map.power_ids().find(|&p| p != owner).unwrap();
    for viewer in [Viewer::Public, Viewer::Power(other)] {
        let s = pic.phase_svg(&pr, "t", viewer);
        let seen = after
            .units
            .iter()
            .filter(|u| !v.features.hidden_from(&v.map, after.phase, u, viewer))
            .count();
        assert_eq!(s.matches("<g class=\"unit\"").count(), seen, "{viewer:?}");
        assert!(
            s.matches("class=\"move").count() < gm.matches("class=\"move").count(),
            "{viewer:?}: the hidden move is not drawn"
        );
    }
    assert_eq!(
        harald.matches("class=\"move").count(),
        gm.matches("class=\"move").count(),
        "the owner sees its own orders"
    );
}

#[test]
fn retreats_builds_and_removals_are_marked() {
    let v = support_play::shipped("standard");
    let pos = Position::from_toml(
        &v,
        r#"
phase = "Fall 1901 movement"
[units]
Germany = ["A Mun", "A Ruh"]
France = ["A Bur"]
[centres]
France = ["Bre", "Mar", "Par"]
Germany = ["Ber", "Kie", "Mun"]
"#,
    )
    .unwrap();
    let (o, r, after) = played(
        &v,
        &pos,
        &["Germany: A Mun-Bur", "Germany: A Ruh S A Mun-Bur"],
    );
    let pic = Picture::new(&v);
    let s = pic.phase_svg(&report(&v, &pos, &o, &r, &after), "t", Viewer::Gm);
    assert_eq!(s.matches("<g class=\"unit dislodged\"").count(), 1);
    assert!(s.matches("class=\"option\"").count() >= 3, "Bur's retreats");
    // The retreat phase: France disbands.
    let (o2, r2, after2) = played(&v, &after, &["France: A Bur D"]);
    let s = pic.phase_svg(&report(&v, &after, &o2, &r2, &after2), "t", Viewer::Gm);
    assert_eq!(s.matches("<g class=\"unit gone\"").count(), 1);
    // Winter: Germany builds, France (3 centres, no units) builds too.
    assert_eq!(after2.phase.kind, PhaseKind::Adjustment);
    let (o3, r3, after3) = played(
        &v,
        &after2,
        &["Germany: Build A Ber", "France: Build F Bre"],
    );
    let s = pic.phase_svg(&report(&v, &after2, &o3, &r3, &after3), "t", Viewer::Gm);
    assert_eq!(s.matches("<g class=\"unit built\"").count(), 2, "{s}");
}

/// The first phase of each kind in a game the bot plays for every power,
/// as pictures, for the snapshots.
fn phases(v: &Variant) -> Vec<(String, String)> {
    let pic = Picture::new(v);
    let mut pos = Position::initial(v);
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for k in 0..16 {
        let mut lines: Vec<String> = Vec::new();
        for pw in v.map.power_ids() {
            let name = &v.map.power(pw).name;
            let mine = if k % 2 == 0 {
                bot::orders(v, &pos, pw)
            } else {
                bot::wander(v, &pos, pw, &mut seed)
            };
            lines.extend(mine.into_iter().map(|l| format!("{name}: {l}")));
        }
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let o = support_play::orders(v, pos.phase.kind, &refs);
        let (r, next) = play(v, &pos, &o);
        let kind = match &r {
            PhaseResult::Turn(_) => "turn".to_string(),
            _ => format!("{:?}", pos.phase.kind).to_lowercase(),
        };
        if !seen.contains(&kind) {
            let title = format!("{}: {}", v.name, v.calendar.label(pos.phase));
            let s = pic.phase_svg(&report(v, &pos, &o, &r, &next), &title, Viewer::Gm);
            out.push((kind.clone(), s));
            seen.push(kind);
        }
        pos = next;
    }
    out
}

/// The areas' outlines take most of an SVG and are the same in every
/// phase: they are in the board's snapshot, and left out of the others.
fn without_outlines(s: &str) -> String {
    let Some(a) = s.find("<defs>\n<path id=\"") else {
        return s.to_string();
    };
    let b = a + s[a..].find("</defs>").unwrap_or(0);
    format!(
        "{}<defs><!-- outlines as in the board snapshot -->{}",
        &s[..a],
        &s[b..]
    )
}

#[test]
fn snapshots_of_every_variant_and_phase_kind() {
    for v in shipped() {
        let board = svg(&v, &Position::initial(&v), &[], &v.name);
        insta::assert_snapshot!(format!("{}_board", v.name), board);
        let drawn = phases(&v);
        let kinds: Vec<&str> = drawn.iter().map(|(k, _)| k.as_str()).collect();
        for (kind, s) in &drawn {
            if let Ok(dir) = std::env::var("ZJ_PICTURE_DIR") {
                let bytes = png(s).expect("renders");
                std::fs::write(format!("{dir}/{}_{kind}.png", v.name), bytes).unwrap();
                std::fs::write(format!("{dir}/{}_{kind}.svg", v.name), s).unwrap();
            }
            insta::assert_snapshot!(format!("{}_{kind}", v.name), without_outlines(s));
        }
        assert!(
            kinds.contains(&"movement") || kinds.contains(&"turn"),
            "{}: {kinds:?}",
            v.name
        );
    }
}

/// A standard game played by the bot (and a wanderer every other phase)
/// to its movement phase of 1903: a mid-game board, with owners all over
/// the map, units everywhere and orders of every kind.
fn mid_game(v: &Variant) -> (Position, PhaseOrders, PhaseResult, Position) {
    let mut pos = Position::initial(v);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut k = 0;
    loop {
        let mut lines: Vec<String> = Vec::new();
        for pw in v.map.power_ids() {
            let name = &v.map.power(pw).name;
            let mine = if k % 2 == 0 {
                bot::orders(v, &pos, pw)
            } else {
                bot::wander(v, &pos, pw, &mut seed)
            };
            lines.extend(mine.into_iter().map(|l| format!("{name}: {l}")));
        }
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let o = support_play::orders(v, pos.phase.kind, &refs);
        let (r, next) = play(v, &pos, &o);
        if pos.phase.kind == PhaseKind::Movement && v.calendar.label(pos.phase).contains("1903") {
            return (pos, o, r, next);
        }
        pos = next;
        k += 1;
        assert!(k < 40, "no 1903 movement phase");
    }
}

/// The pixels of a PNG as RGB.
pub(crate) fn pixels(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut d = png::Decoder::new(std::io::Cursor::new(bytes));
    d.set_transformations(png::Transformations::EXPAND);
    let mut r = d.read_info().expect("a PNG");
    let mut buf = vec![0; r.output_buffer_size().expect("size")];
    let info = r.next_frame(&mut buf).expect("a frame");
    assert_eq!(info.color_type, png::ColorType::Rgb, "an opaque picture");
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// The results pictures of `v`'s opening (the standard one with its
/// common first moves, the others with every unit holding): the SVG and
/// the PNG composed per phase, as a results mail carries them.
fn opening_pictures(v: &Variant) -> (String, Vec<u8>) {
    let pic = Picture::new(v);
    let before = Position::initial(v);
    let lines: &[&str] = if v.name == "standard" { OPENING } else { &[] };
    let (o, r, after) = played(v, &before, lines);
    let rep = report(v, &before, &o, &r, &after);
    (
        pic.phase_svg(&rep, "t", Viewer::Gm),
        pic.phase_png(&rep, "t", Viewer::Gm).expect("renders"),
    )
}

#[test]
fn every_maps_opening_png_is_at_most_106_kb() {
    // Issue #38: the map's coasts and borders are snapped to three shades
    // in the PNG (the SVG keeps them exact), and a coast is the coast line
    // alone (no border stroke beside it). The openings are 67 (Ard-Ri) to
    // 105 KB (1700 AD) now; they were 84 to 126 KB, then 74 to 111. Issue
    // #51 made Switzerland's rock dark, named only on the map that has
    // it: the edges snap between the colours a map names, and the others
    // lost the old rock's two (0.3 to 0.7% more, 105,025 bytes for 1700
    // AD's).
    for v in shipped() {
        let (_, bytes) = opening_pictures(&v);
        assert!(
            bytes.len() <= 106_000,
            "{}: the opening PNG is {} bytes",
            v.name,
            bytes.len()
        );
    }
}

#[test]
#[ignore = "issue #38's 60 KB target is not met: 100 KB, see docs/pictures/README.md"]
fn a_mid_game_results_png_is_small_enough_to_mail() {
    let v = support_play::shipped("standard");
    let (before, o, r, after) = mid_game(&v);
    let pic = Picture::new(&v);
    let rep = report(&v, &before, &o, &r, &after);
    let bytes = pic
        .phase_png(&rep, "pic: Spring 1903", Viewer::Gm)
        .expect("renders");
    if let Ok(dir) = std::env::var("ZJ_PICTURE_DIR") {
        std::fs::write(format!("{dir}/standard_mid_game.png"), &bytes).unwrap();
    }
    assert!(
        bytes.len() <= 60_000,
        "a mid-game PNG is {} bytes",
        bytes.len()
    );
}

#[test]
fn the_results_png_shows_what_the_svg_does() {
    // The PNG is composed over layers drawn once per map; pixel for pixel
    // it is the SVG rasterised whole, bar the palette's rounding.
    for v in shipped() {
        let (svg, composed) = opening_pictures(&v);
        let whole = pixels(&png(&svg).expect("renders"));
        let composed = pixels(&composed);
        assert_eq!((whole.0, whole.1), (composed.0, composed.1), "{}", v.name);
        // Compared in blocks of 8 by 8 pixels: the hatches' lines fall a
        // pixel apart here and there, a missing name or unit does not.
        let (w, h) = (whole.0 as usize, whole.1 as usize);
        let mean = |px: &[u8], bx: usize, by: usize| -> [u32; 3] {
            let mut m = [0u32; 3];
            for y in by * 8..(by * 8 + 8).min(h) {
                for x in bx * 8..(bx * 8 + 8).min(w) {
                    for (c, mc) in m.iter_mut().enumerate() {
                        *mc += u32::from(px[(y * w + x) * 3 + c]);
                    }
                }
            }
            m.map(|v| v / 64)
        };
        let mut differ = 0;
        for by in 0..h / 8 {
            for bx in 0..w / 8 {
                let (a, b) = (mean(&whole.2, bx, by), mean(&composed.2, bx, by));
                if a.iter().zip(&b).any(|(x, y)| x.abs_diff(*y) > 24) {
                    differ += 1;
                }
            }
        }
        let all = (w / 8) * (h / 8);
        assert!(
            differ * 500 < all,
            "{}: {differ} of {all} blocks differ",
            v.name
        );
    }
}
/// Length of the boundary of `a` that runs within `tol` of `b`: `shared`
/// with a tolerance, and skipping rings whose boxes are far apart (the
/// drawn outlines have thousands of points).
fn shared_within(a: &[Vec<Pt>], b: &[Vec<Pt>], tol: f32) -> f32 {
    let bbox = |r: &Vec<Pt>| {
        r.iter()
            .fold([f32::MAX, f32::MAX, f32::MIN, f32::MIN], |m, p| {
                [m[0].min(p.0), m[1].min(p.1), m[2].max(p.0), m[3].max(p.1)]
            })
    };
    let apart = |x: &[f32; 4], y: &[f32; 4]| {
        x[0] > y[2] + tol || y[0] > x[2] + tol || x[1] > y[3] + tol || y[1] > x[3] + tol
    };
    let bb: Vec<_> = b.iter().map(bbox).collect();
    let mut len = 0.0;
    for r in a {
        let ra = bbox(r);
        let near_rings: Vec<&Vec<Pt>> = b
            .iter()
            .zip(&bb)
            .filter(|(_, x)| !apart(&ra, x))
            .map(|(r, _)| r)
            .collect();
        if near_rings.is_empty() {
            continue;
        }
        let near = |p: Pt| {
            near_rings
                .iter()
                .any(|r| (0..r.len()).any(|k| seg_dist(p, r[k], r[(k + 1) % r.len()]) < tol))
        };
        for k in 0..r.len() {
            let (p, q) = (r[k], r[(k + 1) % r.len()]);
            if near(p) && near(q) && near(((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0)) {
                len += ((q.0 - p.0).powi(2) + (q.1 - p.1).powi(2)).sqrt();
            }
        }
    }
    len
}

/// The drawn coastlines of the seed variants (games/outlines/ardri.svg,
/// 1066.svg, abstraction2.svg) draw no border the variant file lacks: a
/// player who sees two areas share a line expects a unit to cross it.
/// Corners where three areas meet, and straits narrower than a pixel, are
/// not borders (less than 2 pixels of line within 0.4 of each other).
#[test]
fn drawn_outlines_show_no_border_the_variant_lacks() {
    let mut failures = Vec::new();
    for name in ["ardri", "1066", "abstraction2"] {
        let v = support_play::shipped(name);
        let s = svg(&v, &Position::initial(&v), &[], "t");
        let map = &v.map;
        let mut neighbours = std::collections::HashSet::new();
        for a in map.province_ids() {
            for &r in &map.province(a).regions {
                for &(n, _) in map.borders(r) {
                    neighbours.insert((a, map.province_of(n)));
                }
            }
        }
        let ids: Vec<_> = map
            .province_ids()
            .filter(|&p| map.province(p).terrain != Terrain::OffBoard)
            .collect();
        let rings: Vec<_> = ids
            .iter()
            .map(|&p| area(&s, &map.province(p).abbr))
            .collect();
        assert!(
            rings.iter().all(|r| !r.is_empty()),
            "{name}: an area is missing"
        );
        for i in 0..ids.len() {
            for j in i + 1..ids.len() {
                let (a, b) = (ids[i], ids[j]);
                if neighbours.contains(&(a, b)) || neighbours.contains(&(b, a)) {
                    continue;
                }
                let len = shared_within(&rings[i], &rings[j], 0.4);
                if len >= 2.0 {
                    let (pa, pb) = (map.province(a), map.province(b));
                    failures.push(format!("{name}: {}-{} ({len:.1})", pa.abbr, pb.abbr));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "drawn as bordering but not in the variant file: {failures:#?}"
    );
}
