//! The 1700 AD II map and set-up (games/1700ad.toml), checked against the
//! rule text it was reconstructed from: each test is named after the rule it
//! checks.

use zinejudge::map::{Map, Mobility, Named, ProvinceId, Terrain, UnitKind};
use zinejudge::orders::format_order;
use zinejudge::orders::mail::find_orders;
use zinejudge::orders::parse::OrderParser;
use zinejudge::variant::{PhaseKind, Variant};

fn variant() -> Variant {
    Variant::from_toml(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/games/1700ad.toml"))
            .unwrap(),
    )
    .unwrap()
}

/// The province a name resolves to.
fn prov(map: &Map, name: &str) -> ProvinceId {
    match map.lookup(name) {
        Some(Named::Province(p)) => p,
        other => panic!("`{name}` names no province: {other:?}"),
    }
}

fn abbr(map: &Map, p: ProvinceId) -> &str {
    &map.province(p).abbr
}

/// Whether a unit moving with `m` may cross from `a` into `b`.
fn border(map: &Map, a: &str, b: &str, m: Mobility) -> bool {
    let a = map.province(prov(map, a)).main_region();
    let b = map.province(prov(map, b)).main_region();
    map.borders_region(a, b, m)
}

/// The initial forces exactly as the rule text prints them, by power.
const INITIAL_FORCES: &[(&str, &[&str])] = &[
    (
        "Anglo-Dutch",
        &["L(Mar) Lon", "A UPr", "A WCo", "F Lon", "F WCo"],
    ),
    (
        "Austro-Hungarians",
        &["L(Euge) Vie", "A Boh", "A Hun", "A Sla"],
    ),
    (
        "French",
        &["L(Vill) Par", "A Lgd", "A Pic", "F Bri", "F Lgd"],
    ),
    (
        "Poles",
        &["L(Augu) Maz", "A Lit", "A Sar", "A Vol", "A WPr"],
    ),
    (
        "Russians",
        &["L(Mens) Mos", "A Kaz", "A Nov", "A Ore", "A Ukr"],
    ),
    (
        "Spanish",
        &["L(Berw) Mad", "A Nap", "A SNe", "F And", "F Nap"],
    ),
    (
        "Swedish",
        &["L(CXII) Got", "A Fin", "A Liv", "A Soa", "2F Sea"],
    ),
    (
        "Turks",
        &[
            "A Bul", "A Con", "A Cri", "A Mac", "A Tun", "F Con", "F Smv",
        ],
    ),
];

/// Where each power of `INITIAL_FORCES` (the text's order) stands in
/// rule 2's order.
const INITIAL_FORCES_ORDER: [usize; 8] = [0, 1, 2, 7, 3, 4, 5, 6];

/// How the file reads the text's misprints (see its header).
fn reading(abbr: &str) -> &str {
    match abbr {
        "Soa" | "Sea" => "Sca",
        "Smv" => "Smy",
        a => a,
    }
}

/// (kind letter(s), place) of one unit as the text writes it.
fn split_unit(u: &str) -> (&str, &str) {
    u.split_once(' ').unwrap()
}

#[test]
fn initial_forces_every_abbreviation_resolves() {
    let v = variant();
    for (power, units) in INITIAL_FORCES {
        assert!(v.map.lookup_power(power).is_some(), "power `{power}`");
        for u in *units {
            let place = split_unit(u).1;
            let p = prov(&v.map, reading(place));
            assert_eq!(abbr(&v.map, p), reading(place), "{u}");
        }
    }
    // Misprints an order copied from the text may still use.
    assert_eq!(abbr(&v.map, prov(&v.map, "Soa")), "Sca");
    assert_eq!(abbr(&v.map, prov(&v.map, "Smv")), "Smy");
    assert_eq!(abbr(&v.map, prov(&v.map, "Sax")), "Sar");
    // "Sea" is read as Sca but is no alias: it would shadow sea names.
    assert!(v.map.lookup("Sea").is_none());
}

#[test]
fn rules_6_10_11_every_abbreviation_resolves() {
    let v = variant();
    for a in [
        "Swi", "COS", "AEG", "WBS", "BPr", "EPr", "Den", "Kar", "Sca", "Dal", "Kur", "Ven", "Mor",
        "And", "Cri", "Liv", "Con", "Got", "Fin",
    ] {
        assert_eq!(abbr(&v.map, prov(&v.map, a)), a);
    }
}

#[test]
fn rule_2_eight_powers() {
    let v = variant();
    let names: Vec<&str> = v.map.powers().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Anglo-Dutch",
            "Austria",
            "France",
            "Russia",
            "Spain",
            "Sweden",
            "Turkey",
            "Poland"
        ]
    );
    for (i, (text_name, _)) in INITIAL_FORCES.iter().enumerate() {
        let p = v.map.lookup_power(text_name).unwrap();
        assert_eq!(v.map.power(p).name, names[INITIAL_FORCES_ORDER[i]]);
    }
}

#[test]
fn rules_2_3_one_turn_a_year_from_1700() {
    let v = variant();
    let c = &v.calendar;
    assert_eq!(c.seasons.len(), 1);
    // One phase a year: the turn plays the sheet's moves, retreats and
    // builds together (rule 3).
    assert_eq!(c.seasons[0].phases, [PhaseKind::Movement]);
    assert_eq!(c.label(c.start), "Year 1700 movement");
    assert_eq!(c.label(c.next(c.start)), "Year 1701 movement");
    // Rule 11: the GM may stop in 1713 or 1721; no fixed end.
    assert_eq!(v.victory.last_phase, None);
}

#[test]
fn rule_7_leaders_and_rule_4_impulses_are_written() {
    let v = variant();
    assert_eq!(
        v.syntax.leaders,
        ["Mar", "Euge", "Vill", "Augu", "Mens", "Berw", "CXII"]
    );
    assert!(v.syntax.impulses);
    for p in v.map.power_ids() {
        let leaders = v
            .starting_units
            .iter()
            .filter(|u| u.power == p && u.kind == UnitKind::Leader)
            .count();
        let want = usize::from(v.map.power(p).name != "Turkey");
        assert_eq!(leaders, want, "{}", v.map.power(p).name);
    }
}

#[test]
fn rule_8_initial_forces_fill_the_home_centres_two_fleets_to_a_centre() {
    let v = variant();
    for (power, units) in INITIAL_FORCES {
        let p = v.map.lookup_power(power).unwrap();
        let halves: usize = units
            .iter()
            .map(|u| match split_unit(u).0 {
                "2F" => 2,
                "F" => 1,
                _ => 2,
            })
            .sum();
        assert_eq!(
            halves,
            2 * v.map.power(p).home_centres.len(),
            "{power}: units against home centres"
        );
    }
}

#[test]
fn initial_forces_stand_on_home_centres() {
    let v = variant();
    let mut placed = 0;
    for (power, units) in INITIAL_FORCES {
        let p = v.map.lookup_power(power).unwrap();
        let home = &v.map.power(p).home_centres;
        let mine: Vec<_> = v.starting_units.iter().filter(|u| u.power == p).collect();
        for u in &mine {
            let at = v.map.province_of(u.region);
            assert!(home.contains(&at), "{power}: {}", abbr(&v.map, at));
            assert!(v.map.province(at).supply_centre);
        }
        // Each unit the text gives is placed, fleets beside the land units
        // (rule 8), `2F` as two fleets.
        let mut count = 0;
        for u in *units {
            let (kind, place) = split_unit(u);
            let at = prov(&v.map, reading(place));
            let (want, n) = match kind {
                "2F" => (UnitKind::Fleet, 2),
                "F" => (UnitKind::Fleet, 1),
                "A" => (UnitKind::Army, 1),
                _ => (UnitKind::Leader, 1),
            };
            let here = mine
                .iter()
                .filter(|s| v.map.province_of(s.region) == at && s.kind == want)
                .count();
            assert_eq!(here, n, "{power}: {u}");
            count += n;
        }
        assert_eq!(mine.len(), count, "{power}");
        placed += mine.len();
        // Every home centre holds a unit but the two added ones.
        for &h in home {
            let held = mine.iter().any(|s| v.map.province_of(s.region) == h);
            let empty = matches!(abbr(&v.map, h), "Sco" | "Dal");
            assert_eq!(held, !empty, "{power}: {}", abbr(&v.map, h));
        }
    }
    assert_eq!(placed, v.starting_units.len());
    assert_eq!(placed, 42, "the text's 41 entries, 2F counting two");
}

#[test]
fn rule_10a_austria_and_russia_have_no_coastal_home_centre() {
    let v = variant();
    for name in ["Austria", "Russia"] {
        let p = v.map.lookup_power(name).unwrap();
        for &h in &v.map.power(p).home_centres {
            assert_eq!(v.map.province(h).terrain, Terrain::Land, "{name}");
        }
    }
    for a in ["Cri", "Liv", "Ven"] {
        let p = v.map.province(prov(&v.map, a));
        assert_eq!(p.terrain, Terrain::Coast, "{a}");
        assert!(p.supply_centre, "{a}");
    }
}

#[test]
fn rule_10b_armed_neutrals() {
    let v = variant();
    let bpr = v.map.province(prov(&v.map, "BPr"));
    assert!(bpr.supply_centre && bpr.home_of.is_none());
    let epr = v.map.province(prov(&v.map, "EPr"));
    assert!(!epr.supply_centre);
    let mut neutrals: Vec<&str> = v
        .map
        .provinces()
        .iter()
        .filter(|p| p.supply_centre && p.home_of.is_none())
        .map(|p| p.abbr.as_str())
        .collect();
    neutrals.sort_unstable();
    assert_eq!(
        neutrals,
        [
            "Alg", "BPr", "Bav", "Den", "Gen", "Han", "Kur", "Lor", "Mil", "Mol", "Mor", "Nor",
            "Por", "Rhi", "Rom", "Sav", "Tus", "Ven", "Wal"
        ]
    );
    let homes: usize = v.map.powers().iter().map(|p| p.home_centres.len()).sum();
    assert_eq!(homes, 37);
    assert_eq!(v.map.supply_centre_count(), 56);
}

#[test]
fn rule_10c_switzerland_is_land_and_no_centre() {
    let v = variant();
    let p = prov(&v.map, "Swi");
    assert_eq!(v.map.province(p).terrain, Terrain::Land);
    assert!(!v.map.province(p).supply_centre);
    for n in ["Als", "Bur", "Lyo", "Sav", "Mil", "Tyr", "Swa"] {
        assert!(border(&v.map, "Swi", n, Mobility::ARMY), "Swi-{n}");
    }
}

#[test]
fn rule_10d_cos_is_a_sea() {
    let v = variant();
    let cos = prov(&v.map, "COS");
    assert_eq!(v.map.province(cos).terrain, Terrain::Sea);
    assert!(
        !v.map
            .admits(v.map.province(cos).main_region(), UnitKind::Army)
    );
    for n in ["Got", "Sca", "Den", "Nor"] {
        assert!(border(&v.map, "COS", n, Mobility::FLEET), "COS-{n}");
    }
    // Armies reach Denmark from Sweden only by convoy through COS.
    for n in ["Got", "Sca"] {
        assert!(!border(&v.map, n, "Den", Mobility::ARMY), "{n}-Den");
    }
}

#[test]
fn rule_10d_aeg_borders_wbs_for_fleets() {
    let v = variant();
    assert_eq!(v.map.province(prov(&v.map, "AEG")).terrain, Terrain::Sea);
    assert_eq!(v.map.province(prov(&v.map, "WBS")).terrain, Terrain::Sea);
    assert!(border(&v.map, "AEG", "WBS", Mobility::FLEET));
    assert!(border(&v.map, "WBS", "AEG", Mobility::FLEET));
}

#[test]
fn rule_10d_con_is_on_both_sides_of_the_straits() {
    let v = variant();
    assert_eq!(v.map.province(prov(&v.map, "Con")).terrain, Terrain::Coast);
    for sea in ["AEG", "WBS"] {
        assert!(border(&v.map, "Con", sea, Mobility::FLEET), "Con-{sea}");
    }
    // Europe and Asia.
    for n in ["Bul", "Mac", "Smy", "Ana"] {
        assert!(border(&v.map, "Con", n, Mobility::ARMY), "Con-{n}");
    }
}

#[test]
fn rule_10d_no_land_bridge_between_and_and_mor() {
    let v = variant();
    for (a, b) in [("And", "Mor"), ("Mor", "And")] {
        assert!(!border(&v.map, a, b, Mobility::ARMY), "{a}-{b}");
        assert!(!border(&v.map, a, b, Mobility::FLEET), "{a}-{b}");
    }
    // Both face the strait's waters.
    for sea in ["MAO", "WMS"] {
        assert!(border(&v.map, "And", sea, Mobility::FLEET));
        assert!(border(&v.map, "Mor", sea, Mobility::FLEET));
    }
}

#[test]
fn rule_11_victory_is_sixteen_more_than_the_largest_power_starts_with() {
    let v = variant();
    let largest = v
        .map
        .powers()
        .iter()
        .map(|p| p.home_centres.len())
        .max()
        .unwrap();
    assert_eq!(largest, 6);
    assert_eq!(v.victory.gain, Some(16));
    assert!(largest + 16 <= v.map.supply_centre_count());
}

#[test]
fn rule_6_example_order_sheet_reads_on_this_map() {
    let v = variant();
    // The borders the example needs.
    assert!(border(&v.map, "Sca", "Got", Mobility::ARMY));
    assert!(border(&v.map, "Sca", "COS", Mobility::FLEET));
    assert!(border(&v.map, "Fin", "Kar", Mobility::ARMY));
    assert!(border(&v.map, "Liv", "Kar", Mobility::ARMY));
    assert!(border(&v.map, "Liv", "Kur", Mobility::ARMY));
    let p = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let sheet = "Sweden 1700 Moves: CXII(Got)-hold-Den (x2);\n\
                 2F(Sca)-COS-C CXII(Got)-Den;\n\
                 A(Sca)-Hold-Got;\n\
                 A(Liv) S A(Fin)-Kar (x2);\n\
                 Retreats: A(Liv)-Kur;\n\
                 Builds: A(Fin), A(Dal).\n\
                 Removes: A(Got).\n";
    let found = find_orders(&p, sheet, Some(PhaseKind::Movement));
    let got: Vec<String> = found
        .iter()
        .map(|f| match &f.result {
            Ok(o) => format_order(&v.map, &o.command),
            Err(e) => format!("error {e}"),
        })
        .collect();
    assert_eq!(
        got,
        [
            "L(Got)-hold-Den (x2)",
            "2F(Sca)-COS-C L(Got)-Den",
            "A(Sca)-hold-Got",
            "A(Liv) S A(Fin)-Kar (x2)",
            "A(Liv)-Kur",
            "Build A(Fin)",
            "Build A(Dal)",
            "Remove A(Got)",
        ]
    );
    let sweden = v.map.lookup_power("Sweden").unwrap();
    for a in ["Fin", "Dal"] {
        assert_eq!(
            v.map.province(prov(&v.map, a)).home_of,
            Some(sweden),
            "rule 6 builds in {a}"
        );
    }
}

#[test]
fn every_province_is_placed_for_the_map_picture() {
    let v = variant();
    for p in v.map.provinces() {
        let [x, y] = p.xy.unwrap_or_else(|| panic!("{} has no xy", p.abbr));
        assert!((0.0..=1000.0).contains(&x) && (0.0..=1000.0).contains(&y));
    }
    // North up, west left.
    let xy = |a: &str| v.map.province(prov(&v.map, a)).xy.unwrap();
    assert!(xy("Nrl")[1] < xy("Tun")[1]);
    assert!(xy("Ire")[0] < xy("Kaz")[0]);
}

/// Rome is the Papal States (`aliases`: "Papal States", "Bologna"), which
/// in 1700 reach the Adriatic at Ancona and the Romagna: one coast on both
/// seas, as Naples is, bordering the Adriatic and Venice's shore for
/// fleets (the map's reconstruction; the text keeps no map).
#[test]
fn rome_the_papal_states_touches_the_adriatic_for_fleets() {
    let v = variant();
    assert_eq!(v.map.province(prov(&v.map, "Rom")).terrain, Terrain::Coast);
    for (a, b) in [
        ("Rom", "ADR"),
        ("ADR", "Rom"),
        ("Rom", "TYS"),
        ("Rom", "Ven"),
        ("Ven", "Rom"),
    ] {
        assert!(border(&v.map, a, b, Mobility::FLEET), "{a}-{b}");
    }
    assert!(!border(&v.map, "Rom", "ADR", Mobility::ARMY));
}
