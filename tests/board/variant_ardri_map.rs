//! Ard-Ri (games/ardri.toml): the map, powers and calendar checked against
//! the rule text (shared/rules/002_7dcf1d22a54e6fbb.txt) and against the
//! border table the map was transcribed from
//! (shared/maps/reference/ardri/ardri_godip_adjacency.tsv). Each test is
//! named after the rule it checks.

use zinejudge::map::{Map, Mobility, Named, ProvinceId, Terrain, UnitKind};
use zinejudge::variant::{PhaseKind, Variant};

fn variant() -> Variant {
    Variant::from_toml(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/games/ardri.toml")).unwrap(),
    )
    .unwrap_or_else(|e| panic!("games/ardri.toml does not load:\n{e}"))
}

/// The province a name, alias or abbreviation names.
fn province(map: &Map, name: &str) -> ProvinceId {
    match map.lookup(name) {
        Some(Named::Province(p)) => p,
        Some(Named::Region(r)) => map.province_of(r),
        None => panic!("`{name}` names nothing on the Ard-Ri map"),
    }
}

/// A code of the source table as it is written in the variant file: godip's
/// codes, except `fri` (godip's "Frida"), which is Enda, `End`.
fn from_table(map: &Map, code: &str) -> ProvinceId {
    province(map, if code == "fri" { "End" } else { code })
}

fn borders(map: &Map, a: ProvinceId, b: ProvinceId, m: Mobility) -> bool {
    map.borders_region(
        map.province(a).main_region(),
        map.province(b).main_region(),
        m,
    )
}

/// The source table: 118 borders, `both` = armies and fleets.
const TABLE: &[(&str, &str, &str)] = &[
    ("aic", "air", "army"),
    ("aic", "cnl", "both"),
    ("aic", "ema", "army"),
    ("aic", "fri", "both"),
    ("aic", "nat", "fleet"),
    ("aic", "nia", "army"),
    ("aie", "alm", "army"),
    ("aie", "edg", "army"),
    ("aie", "lai", "army"),
    ("aie", "mog", "army"),
    ("air", "ema", "army"),
    ("air", "gua", "both"),
    ("air", "mag", "both"),
    ("air", "tmb", "fleet"),
    ("alm", "edg", "army"),
    ("alm", "era", "both"),
    ("alm", "eri", "fleet"),
    ("alm", "lai", "army"),
    ("alm", "rat", "both"),
    ("anu", "cia", "army"),
    ("anu", "era", "both"),
    ("anu", "mum", "both"),
    ("anu", "sou", "fleet"),
    ("asa", "ema", "army"),
    ("asa", "ere", "army"),
    ("asa", "gua", "army"),
    ("asa", "mid", "army"),
    ("asa", "uis", "army"),
    ("cia", "edg", "army"),
    ("cia", "eir", "army"),
    ("cia", "eog", "army"),
    ("cia", "era", "army"),
    ("cia", "mog", "army"),
    ("cia", "mum", "army"),
    ("cnl", "mnb", "fleet"),
    ("cnl", "nat", "fleet"),
    ("cnl", "nia", "both"),
    ("con", "cru", "army"),
    ("con", "ere", "army"),
    ("con", "gam", "both"),
    ("con", "mnb", "fleet"),
    ("con", "mon", "both"),
    ("con", "tua", "army"),
    ("cor", "cru", "both"),
    ("cor", "eir", "army"),
    ("cor", "eog", "both"),
    ("cor", "nat", "fleet"),
    ("cor", "sha", "fleet"),
    ("cru", "eir", "army"),
    ("cru", "gam", "both"),
    ("cru", "nat", "fleet"),
    ("cru", "tai", "both"),
    ("cru", "tua", "army"),
    ("edg", "era", "army"),
    ("edg", "mog", "army"),
    ("eir", "eog", "army"),
    ("eir", "esc", "army"),
    ("eir", "mog", "army"),
    ("eir", "tua", "army"),
    ("ema", "ere", "army"),
    ("ema", "gua", "army"),
    ("ema", "mon", "army"),
    ("ema", "nia", "army"),
    ("eog", "mum", "both"),
    ("eog", "sha", "fleet"),
    ("era", "eri", "fleet"),
    ("era", "sou", "fleet"),
    ("ere", "mon", "army"),
    ("ere", "tua", "army"),
    ("ere", "uis", "army"),
    ("eri", "fri", "fleet"),
    ("eri", "mag", "fleet"),
    ("eri", "nch", "fleet"),
    ("eri", "nsb", "fleet"),
    ("eri", "rat", "fleet"),
    ("eri", "sou", "fleet"),
    ("eri", "tmb", "fleet"),
    ("esc", "lai", "army"),
    ("esc", "mid", "army"),
    ("esc", "mog", "army"),
    ("esc", "tua", "army"),
    ("esc", "uis", "army"),
    ("fri", "mag", "both"),
    ("fri", "nat", "fleet"),
    ("fri", "nch", "fleet"),
    ("gam", "mnb", "fleet"),
    ("gam", "nat", "fleet"),
    ("gam", "tai", "both"),
    ("gua", "mid", "army"),
    ("gua", "tem", "both"),
    ("gua", "tmb", "fleet"),
    ("lai", "mid", "army"),
    ("lai", "mog", "army"),
    ("lai", "naa", "army"),
    ("lai", "rat", "army"),
    ("lai", "tem", "army"),
    ("mag", "tmb", "fleet"),
    ("mid", "tem", "army"),
    ("mid", "uis", "army"),
    ("mnb", "mon", "fleet"),
    ("mnb", "nat", "fleet"),
    ("mnb", "nia", "fleet"),
    ("mon", "nia", "both"),
    ("mum", "nat", "fleet"),
    ("mum", "sha", "fleet"),
    ("mum", "sou", "fleet"),
    ("naa", "nsb", "fleet"),
    ("naa", "rat", "both"),
    ("naa", "tem", "both"),
    ("nat", "nch", "fleet"),
    ("nat", "sha", "fleet"),
    ("nat", "sou", "fleet"),
    ("nat", "tai", "fleet"),
    ("nsb", "rat", "fleet"),
    ("nsb", "tem", "fleet"),
    ("nsb", "tmb", "fleet"),
    ("tem", "tmb", "fleet"),
    ("tua", "uis", "army"),
];

/// Borders of the table the variant file deliberately changes: (a, b, kind
/// in the file, why).
const CHANGED: &[(&str, &str, &str, &str)] = &[(
    "cru",
    "gam",
    "army",
    "Gaman Raige and Cruachu meet inland on the 1998 map; they share no \
     shore, so no fleet can pass between them",
)];

/// The four outermost seas of rules 6a, 6c and 7b.
const OUTERMOST_SEAS: &[&str] = &[
    "North Atlantic",
    "South Atlantic",
    "Erin Sea",
    "North Channel",
];

/// Rule 6's home centres, as the rule text spells them.
const RULE_6: &[(&str, [&str; 3])] = &[
    ("Ulaid", ["Ailech", "Mag Roth", "Emain Macha"]),
    ("Connacht", ["Mona Gha", "Cruachu", "Tuathal"]),
    ("Midhe", ["Uisneach", "Guara", "Temuir"]),
    ("Laigin", ["Naas", "Ailend", "Almu"]),
    ("Muma", ["Eoghan Mor", "Edghanacata", "Anu"]),
];

fn kind_in_file(a: &str, b: &str, table_kind: &'static str) -> &'static str {
    CHANGED
        .iter()
        .find(|(x, y, _, _)| (*x, *y) == (a, b) || (*x, *y) == (b, a))
        .map_or(table_kind, |c| c.2)
}

#[test]
fn rule_2_the_board_has_42_spaces_and_the_raiding_box() {
    let v = variant();
    let map = &v.map;
    let count = |t: Terrain| map.provinces().iter().filter(|p| p.terrain == t).count();
    assert_eq!(count(Terrain::Coast), 21, "coastal provinces");
    assert_eq!(count(Terrain::Land), 13, "inland provinces");
    assert_eq!(count(Terrain::Sea), 8, "seas");
    assert_eq!(count(Terrain::OffBoard), 1, "the raiding box");
    assert_eq!(count(Terrain::Impassable), 0);
    assert_eq!(map.provinces().len(), 43);
}

#[test]
fn rule_5_fifteen_supply_centres_and_all_fifteen_win() {
    let v = variant();
    assert_eq!(v.map.supply_centre_count(), 15);
    assert_eq!(v.victory.centres, 15);
    for p in v.map.provinces() {
        if p.supply_centre {
            assert_ne!(p.terrain, Terrain::OffBoard, "{} is off the board", p.abbr);
            assert_ne!(p.terrain, Terrain::Sea, "{} is a sea", p.abbr);
        }
    }
}

#[test]
fn rule_6_five_great_powers_with_three_home_centres_each() {
    let v = variant();
    let map = &v.map;
    for (power, homes) in RULE_6 {
        let pid = map
            .lookup_power(power)
            .unwrap_or_else(|| panic!("no power {power}"));
        let mut want: Vec<ProvinceId> = homes.iter().map(|h| province(map, h)).collect();
        let mut have = map.power(pid).home_centres.clone();
        want.sort();
        have.sort();
        assert_eq!(have, want, "{power}'s home centres");
        for h in homes {
            let p = map.province(province(map, h));
            assert!(p.supply_centre, "{h} is a supply centre");
            assert_eq!(p.home_of, Some(pid), "{h} is {power}'s");
            assert_eq!(p.name, *h, "{h} is spelled as in rule 6");
        }
    }
    // Every centre is somebody's home: 5 x 3 = 15.
    let homes: usize = map.powers().iter().map(|p| p.home_centres.len()).sum();
    assert_eq!(homes, 15);
}

#[test]
fn rule_6_home_centres_admit_the_builds_their_terrain_allows() {
    let v = variant();
    let map = &v.map;
    for (power, homes) in RULE_6 {
        for h in homes {
            let pid = province(map, h);
            let p = map.province(pid);
            let main = p.main_region();
            assert!(
                map.admits(main, UnitKind::Army),
                "{power} builds armies in {h}"
            );
            match p.terrain {
                Terrain::Coast => {
                    assert!(map.admits(main, UnitKind::Fleet), "{power}: fleets in {h}");
                    assert!(
                        map.borders(main)
                            .iter()
                            .any(|&(_, m)| m.intersects(Mobility::FLEET)),
                        "a fleet built in {h} can sail somewhere"
                    );
                }
                Terrain::Land => {
                    assert!(!map.admits(main, UnitKind::Fleet), "{h} is inland")
                }
                t => panic!("{h} has terrain {t:?}"),
            }
        }
    }
    // The coastal ones, by the source table.
    let coastal: Vec<&str> = RULE_6
        .iter()
        .flat_map(|(_, h)| h.iter().copied())
        .filter(|h| map.province(province(map, h)).terrain == Terrain::Coast)
        .collect();
    assert_eq!(
        coastal,
        [
            "Ailech",
            "Mag Roth",
            "Mona Gha",
            "Cruachu",
            "Guara",
            "Temuir",
            "Naas",
            "Almu",
            "Eoghan Mor",
            "Anu"
        ]
    );
}

#[test]
fn rule_6a_the_raiding_box_lies_beyond_the_four_outermost_seas() {
    let v = variant();
    let map = &v.map;
    let raid = province(map, "Raiding");
    assert_eq!(map.province(raid).terrain, Terrain::OffBoard);
    assert!(!map.province(raid).supply_centre);
    let from_box = map.borders(map.province(raid).main_region());
    assert!(
        from_box.iter().all(|&(_, m)| m == Mobility::FLEET),
        "fleets only"
    );
    let mut seas: Vec<ProvinceId> = from_box.iter().map(|&(r, _)| map.province_of(r)).collect();
    let mut want: Vec<ProvinceId> = OUTERMOST_SEAS.iter().map(|s| province(map, s)).collect();
    seas.sort();
    want.sort();
    assert_eq!(seas, want);
    for s in OUTERMOST_SEAS {
        let sea = province(map, s);
        assert_eq!(map.province(sea).terrain, Terrain::Sea, "{s}");
        assert!(borders(map, sea, raid, Mobility::FLEET), "{s} -> Raiding");
        assert!(borders(map, raid, sea, Mobility::FLEET), "Raiding -> {s}");
    }
}

#[test]
fn rule_7_the_vikings_are_a_sixth_power_with_no_home_centres_on_the_board() {
    let v = variant();
    let map = &v.map;
    assert_eq!(map.powers().len(), 6);
    let vikings = map.lookup_power("Vikings").expect("the Vikings");
    assert_eq!(map.lookup_power("Viking"), Some(vikings));
    assert!(map.power(vikings).home_centres.is_empty());
    assert!(map.provinces().iter().all(|p| p.home_of != Some(vikings)));
}

#[test]
fn rule_4_no_units_on_the_board_at_the_start() {
    assert!(variant().starting_units.is_empty());
}

#[test]
fn rule_4_the_game_begins_with_the_winter_379_adjustment() {
    let v = variant();
    let start = v.calendar.start;
    assert_eq!(start.year, 379);
    assert_eq!(start.kind, PhaseKind::Adjustment);
    assert_eq!(v.calendar.season_name(start), "Winter");
    let names: Vec<&str> = v.calendar.seasons.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["Spring", "Fall", "Winter"]);
    let first_move = v.calendar.next(start);
    assert_eq!(first_move.year, 380);
    assert_eq!(v.calendar.season_name(first_move), "Spring");
    assert_eq!(first_move.kind, PhaseKind::Movement);
}

#[test]
fn rule_8_the_loch_blocks_ailech_mag_roth_and_enda_airgialla() {
    let v = variant();
    let map = &v.map;
    for (a, b) in [("Ailech", "Mag Roth"), ("Enda", "Airgialla")] {
        let (pa, pb) = (province(map, a), province(map, b));
        for m in [Mobility::ARMY, Mobility::FLEET] {
            assert!(!borders(map, pa, pb, m), "{a} -> {b}");
            assert!(!borders(map, pb, pa, m), "{b} -> {a}");
        }
    }
}

#[test]
fn map_every_border_of_the_source_table_is_present_with_its_kind() {
    let v = variant();
    let map = &v.map;
    assert_eq!(TABLE.len(), 118);
    for &(a, b, kind) in TABLE {
        let kind = kind_in_file(a, b, kind);
        let (pa, pb) = (from_table(map, a), from_table(map, b));
        let army = kind != "fleet";
        let fleet = kind != "army";
        for (x, y) in [(pa, pb), (pb, pa)] {
            let (nx, ny) = (&map.province(x).abbr, &map.province(y).abbr);
            assert_eq!(
                borders(map, x, y, Mobility::ARMY),
                army,
                "army border {nx} -> {ny} ({kind})"
            );
            assert_eq!(
                borders(map, x, y, Mobility::FLEET),
                fleet,
                "fleet border {nx} -> {ny} ({kind})"
            );
        }
    }
}

#[test]
fn map_the_changed_borders_are_in_the_table_and_differ_from_it() {
    for &(a, b, kind, why) in CHANGED {
        let listed = TABLE
            .iter()
            .find(|(x, y, _)| (*x, *y) == (a, b) || (*x, *y) == (b, a))
            .unwrap_or_else(|| panic!("{a}-{b} is not in the table"));
        assert_ne!(listed.2, kind, "{a}-{b}: {why}");
    }
}

#[test]
fn map_has_no_border_beyond_the_table_and_the_raiding_box() {
    let v = variant();
    let map = &v.map;
    let raid = province(map, "Raiding");
    let mut expected = 0;
    for &(a, b, kind) in TABLE {
        expected += match kind_in_file(a, b, kind) {
            "both" => 4,
            _ => 2,
        };
    }
    expected += 2 * OUTERMOST_SEAS.len();
    let mut found = 0;
    for p in map.province_ids() {
        for &(r, m) in map.borders(map.province(p).main_region()) {
            let q = map.province_of(r);
            let in_table = p == raid
                || q == raid
                || TABLE.iter().any(|&(a, b, _)| {
                    let (x, y) = (from_table(map, a), from_table(map, b));
                    (x, y) == (p, q) || (x, y) == (q, p)
                });
            assert!(
                in_table,
                "{} - {} is not in the source table",
                map.province(p).abbr,
                map.province(q).abbr
            );
            found += usize::from(m.intersects(Mobility::ARMY));
            found += usize::from(m.intersects(Mobility::FLEET));
        }
    }
    assert_eq!(found, expected, "directed borders, counted per kind");
}

#[test]
fn names_follow_the_rule_text_and_keep_the_table_spellings_as_aliases() {
    let v = variant();
    let map = &v.map;
    for (rule, others) in [
        ("Mag Roth", &["Mag Ruth", "Mag"][..]),
        ("Enda", &["Erda", "Frida", "End"][..]),
        ("Airgialla", &["Airgyallia", "Air"][..]),
        ("Uisneach", &["Uis-neach", "Uis"][..]),
        ("Rathdrum", &["Rath-drum", "Rat"][..]),
        ("Ailend", &["Ail-end", "Aie"][..]),
        ("Eoghan Mor", &["Eoghan Mór", "Eog"][..]),
    ] {
        let p = province(map, rule);
        assert_eq!(map.province(p).name, rule);
        for o in others {
            assert_eq!(province(map, o), p, "{o} names {rule}");
        }
    }
    for s in OUTERMOST_SEAS {
        assert_eq!(map.province(province(map, s)).name, *s);
    }
}

#[test]
fn map_every_province_has_a_point_and_neighbours_are_drawn_apart() {
    let v = variant();
    let map = &v.map;
    let xy = |p: ProvinceId| {
        map.province(p)
            .xy
            .unwrap_or_else(|| panic!("{} has no xy", map.province(p).abbr))
    };
    for p in map.province_ids() {
        let [x, y] = xy(p);
        assert!((0.0..=1000.0).contains(&x) && (0.0..=1000.0).contains(&y));
        for &(r, _) in map.borders(map.province(p).main_region()) {
            let [u, w] = xy(map.province_of(r));
            let d = ((x - u).powi(2) + (y - w).powi(2)).sqrt();
            assert!(
                d >= 45.0,
                "{} and {} are drawn {d:.0} apart",
                map.province(p).abbr,
                map.province(map.province_of(r)).abbr
            );
        }
    }
    // North up: Ulaid's centres lie north of Muma's.
    let north = xy(province(map, "Ailech"))[1];
    let south = xy(province(map, "Anu"))[1];
    assert!(north < south);
}
