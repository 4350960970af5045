//! DPjudge's calendars that skip or count down years (issue #39): `FLOW`
//! with `NEWYEAR:n` and `IFYEARDIV:n[=r]`, as its Hundred map (five years
//! a turn, adjustments once a decade) and Classical map (`B.C.` years
//! counting down, adjustments in even years) write them, imported into
//! the calendar's `new-year`, `when-year` and `years-down` keys, and
//! played by mail.

use crate::support_judge;
use std::path::Path;
use support_judge::World;
use zinejudge::testing::import::dpjudge::{ImportError, Imported, import};
use zinejudge::variant::Variant;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dpjudge");

fn imported(name: &str) -> Result<Imported, ImportError> {
    let mut fetch =
        |n: &str| std::fs::read_to_string(Path::new(DATA).join(n)).map_err(|e| e.to_string());
    import(name, &mut fetch)
}

/// The first `n` phases of the variant, as the results name them.
fn phases(v: &Variant, n: usize) -> Vec<String> {
    let mut p = v.calendar.start;
    let mut out = Vec::new();
    for _ in 0..n {
        out.push(v.calendar.label(p));
        p = v.calendar.next(p);
    }
    out
}

#[test]
fn newyear_5_moves_five_years_a_turn_and_ifyeardiv_10_adjusts_once_a_decade() {
    let i = imported("decades.map").expect("imports");
    assert!(i.toml.contains("new-year = 5"), "{}", i.toml);
    assert!(
        i.toml.contains("when-year = { every = 10, remainder = 0 }"),
        "{}",
        i.toml
    );
    assert_eq!(
        phases(&i.variant, 8),
        [
            "A.D. 1425 movement",
            "A.D. 1425 retreat",
            "A.D. 1430 movement",
            "A.D. 1430 retreat",
            "A.D. 1430 adjustment",
            "A.D. 1435 movement",
            "A.D. 1435 retreat",
            "A.D. 1440 movement",
        ]
    );
}

#[test]
fn newyear_minus_1_counts_the_years_down_and_adjusts_in_even_years() {
    let i = imported("countdown.map").expect("imports");
    assert!(i.toml.contains("years-down = true"), "{}", i.toml);
    let v = &i.variant;
    assert_eq!(
        phases(v, 6),
        [
            "B.C. 273 movement",
            "B.C. 273 retreat",
            "B.C. 272 movement",
            "B.C. 272 retreat",
            "B.C. 272 adjustment",
            "B.C. 271 movement",
        ]
    );
    // Later phases are still later, wherever the judge compares them.
    let later = v.calendar.next(v.calendar.next(v.calendar.start));
    assert!(later > v.calendar.start);
    assert_eq!(v.calendar.short(later), "B272M");
}

#[test]
fn a_flow_the_calendar_cannot_say_is_refused_naming_its_line() {
    let Err(ImportError::Refused(r)) = imported("loop.map") else {
        panic!("refused");
    };
    assert!(
        r.iter()
            .any(|r| r.file == "loop.map" && r.line == 7 && r.what.contains("NEWYEAR")),
        "{r:?}"
    );
}

/// A judge that plays the imported file.
fn world_playing(toml: &str) -> World {
    World::with_variant_text(toml)
}

const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

#[test]
fn by_mail_the_results_name_the_next_turn_five_years_on_and_the_decade_s_adjustments() {
    let i = imported("decades.map").expect("imports");
    let mut w = world_playing(&i.toml);
    let gm = "gm@example.test";
    w.reply(gm, "CREATE dec decades gm-secret");
    for p in POWERS {
        w.reply(
            &format!("{p}@example.test"),
            &format!("JOIN dec pw-{p} {p}"),
        );
    }
    // A.D. 1425: Germany takes Holland.
    w.reply(
        "germany@example.test",
        "SIGNON Germany dec pw-Germany\nF Kie-Hol",
    );
    let sent = w.mail(gm, "SIGNON GM dec gm-secret\nPROCESS");
    let results = sent
        .iter()
        .find(|m| m.to_has("germany@example.test") && m.body.contains("A.D. 1425"))
        .unwrap_or_else(|| panic!("no results: {sent:#?}"));
    assert!(
        results.body.contains("Next: A.D. 1430 movement"),
        "{}",
        results.body
    );
    // A.D. 1430 is a decade's end: its adjustments, Germany's build due.
    let sent = w.mail(gm, "SIGNON GM dec gm-secret\nPROCESS");
    let results = sent
        .iter()
        .find(|m| m.to_has("germany@example.test") && m.body.contains("A.D. 1430"))
        .unwrap_or_else(|| panic!("no results: {sent:#?}"));
    assert!(
        results.body.contains("Next: A.D. 1430 adjustment"),
        "{}",
        results.body
    );
}

/// A DPjudge PostScript map beside the map file (`decades.ps`, the place
/// block of DPjudge's `standard.ps`): its points are written as the
/// provinces' `xy`, and the picture stands each unit there, its name
/// beside it, the map the shape DPjudge draws it.
#[test]
fn the_postscript_map_is_the_one_dpjudge_draws_the_map_on() {
    // Issue #52: DPjudge draws a map on its `MAP` line's PostScript map,
    // else its own; a trial map that uses standard.map is drawn on
    // standard's. Only `x.ps` beside `x.map` was looked for.
    let info = std::fs::read_to_string(Path::new(DATA).join("decades.ps")).expect("ps");
    // These beside DPjudge's standard map files.
    let mut files: std::collections::HashMap<&str, String> = [
        ("standard.ps", info.clone()),
        ("trial.map", "USE standard.map\n".to_string()),
        ("borrowed.map", "MAP standard\n".to_string()),
        // A picture of another board: none of standard's places.
        (
            "borrowed.ps",
            "% INFO\n%  10  10 XYZ Nowhere\n% MAP\n".to_string(),
        ),
    ]
    .into_iter()
    .collect();
    let mut fetch = |n: &str| match files.get(n) {
        Some(t) => Ok(t.clone()),
        None => std::fs::read_to_string(Path::new(DATA).join(n)).map_err(|e| e.to_string()),
    };
    for map in ["trial.map", "borrowed.map"] {
        let i = import(map, &mut fetch).expect("imports");
        assert!(
            i.toml.contains("PostScript map `standard.ps`"),
            "{map}: {}",
            &i.toml[..400]
        );
        assert!(i.toml.contains("xy = ["), "{map}");
    }
    // The map's own picture, when it has one and names no other.
    files.insert("trial.ps", info);
    let mut fetch = |n: &str| match files.get(n) {
        Some(t) => Ok(t.clone()),
        None => std::fs::read_to_string(Path::new(DATA).join(n)).map_err(|e| e.to_string()),
    };
    let i = import("trial.map", &mut fetch).expect("imports");
    assert!(
        i.toml.contains("PostScript map `trial.ps`"),
        "{}",
        &i.toml[..400]
    );
}

#[test]
fn the_coasts_points_of_the_ps_file_are_where_the_picture_stands_fleets() {
    // Issue #52: the `% INFO` block gives each split coast its point
    // (`%  476  474 STP/NC`, `%  430  402 STP/SC`); they were read and
    // dropped, so both coasts' fleets were guessed from the province's.
    use zinejudge::testing::report::picture::geometry::Geometry;
    let i = imported("decades.map").expect("imports");
    let v = &i.variant;
    let region = |n: &str| match v.map.lookup(n) {
        Some(zinejudge::map::Named::Region(r)) => r,
        other => panic!("{n}: {other:?}"),
    };
    assert!(i.toml.contains("coast-xy = {"), "{}", i.toml);
    let (nc, sc) = (region("StP/nc"), region("StP/sc"));
    let (pn, ps) = (
        v.map.regions()[nc.index()].xy.expect("StP/nc has a point"),
        v.map.regions()[sc.index()].xy.expect("StP/sc has a point"),
    );
    // North up: the north coast 72 points above the south and 46 east.
    assert!(pn[1] < ps[1] && pn[0] > ps[0], "{pn:?} {ps:?}");
    let g = Geometry::new(&v.map, None);
    let (gn, gs) = (g.spot(nc), g.spot(sc));
    assert!(gn.1 < gs.1 && gn.0 > gs.0, "{gn:?} {gs:?}");
    let ratio = (gn.0 - gs.0) / (gs.1 - gn.1);
    assert!((ratio - 46.0 / 72.0).abs() < 0.05, "{ratio}");
}

#[test]
fn the_points_of_the_ps_file_beside_the_map_are_where_the_picture_draws_units_and_names() {
    use zinejudge::testing::report::picture::geometry::Geometry;
    let i = imported("decades.map").expect("imports");
    let v = &i.variant;
    let prov = |n: &str| match v.map.lookup(n) {
        Some(zinejudge::map::Named::Province(p)) => p,
        other => panic!("{n}: {other:?}"),
    };
    // `%  195  314 LON London` and `%  312  308 BER Berlin`, `%  296 131 ROM`:
    // north up, 20 in from the edge, scaled alike.
    let lon = v.map.province(prov("Lon")).xy.expect("London has a point");
    let ber = v.map.province(prov("Ber")).xy.expect("Berlin has a point");
    assert!(i.toml.contains("xy = ["), "{}", i.toml);
    assert!(lon[0] < ber[0] && lon[1] < ber[1], "{lon:?} {ber:?}");
    let g = Geometry::new(&v.map, None);
    let (sl, sb, sr) = (
        g.province_spot(prov("Lon")),
        g.province_spot(prov("Ber")),
        g.province_spot(prov("Rom")),
    );
    assert!(sl.0 < sb.0, "London west of Berlin: {sl:?} {sb:?}");
    assert!(sl.1 < sr.1, "London north of Rome: {sl:?} {sr:?}");
    // The same scale both ways: Berlin 117 points east of London, 6 south.
    let ratio = (sb.0 - sl.0) / (sb.1 - sl.1);
    assert!((ratio - 117.0 / 6.0).abs() < 0.5, "{ratio}");
    // Each province's unit stands in its own area, its name next to it
    // (the label placer keeps names off every unit's place, so a crowded
    // one moves a little further out).
    let mut far = Vec::new();
    for p in v.map.province_ids() {
        let a = &g.areas[p.index()];
        assert!(
            zinejudge::testing::report::picture::layout::inside(&a.rings, a.unit),
            "{}",
            v.map.province(p).abbr
        );
        let (cx, cy) = (a.label.x + a.label.w / 2.0, a.label.y + a.label.h / 2.0);
        let d = ((cx - a.unit.0).powi(2) + (cy - a.unit.1).powi(2)).sqrt();
        assert!(
            d < 120.0,
            "{}: name {d} from its unit",
            v.map.province(p).abbr
        );
        far.push(d);
    }
    far.sort_by(f32::total_cmp);
    assert!(
        far[far.len() / 2] < 40.0,
        "most names by their unit: {far:?}"
    );
    // Without the file, every province has no point: the computed layout.
    let mut fetch = |n: &str| {
        if n.ends_with(".ps") {
            return Err("none".to_string());
        }
        std::fs::read_to_string(Path::new(DATA).join(n)).map_err(|e| e.to_string())
    };
    let plain = import("decades.map", &mut fetch).expect("imports");
    assert!(!plain.toml.contains("xy = ["));
    assert!(plain.toml.contains("computed layout"));
}
