//! The 1066 map and set-up (games/1066.toml) against its rule text
//! (shared/rules/003_5de5d646e123537d.txt): the names and abbreviations of
//! the province list, rule 2's powers and starting units, the off-board
//! boxes of rules 4 and 5, the calendar of rule 8 and the victory criterion.
//! Tests are named after the rule they check.

use std::collections::BTreeMap;
use zinejudge::map::{Map, Mobility, Named, ProvinceId, Terrain, UnitKind};
use zinejudge::variant::{PhaseKind, Variant};

fn variant() -> Variant {
    Variant::from_toml(
        &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/games/1066.toml")).unwrap(),
    )
    .unwrap()
}

fn province(map: &Map, name: &str) -> ProvinceId {
    match map.lookup(name) {
        Some(Named::Province(p)) => p,
        other => panic!("`{name}` names {other:?}, not a province"),
    }
}

fn abbr(map: &Map, p: ProvinceId) -> &str {
    &map.province(p).abbr
}

/// Abbreviations of the provinces (and seas) `from` borders for `m`.
fn neighbours(map: &Map, from: &str, m: Mobility) -> Vec<String> {
    let p = province(map, from);
    let mut out: Vec<String> = map
        .borders(map.province(p).main_region())
        .iter()
        .filter(|(_, b)| b.intersects(m))
        .map(|&(r, _)| abbr(map, map.province_of(r)).to_string())
        .collect();
    out.sort();
    out
}

/// The province list of the rule text: full name and abbreviation, with
/// Berrocchescire's clash with Bernicia (`Brc`) resolved as `Brk`.
const PROVINCE_LIST: &[(&str, &str)] = &[
    ("Alban", "Alb"),
    ("Bedeford", "Bed"),
    ("Bernicia", "Brc"),
    ("Berrocchescire", "Brk"),
    ("Canterbury", "Can"),
    ("Carleol", "Car"),
    ("Chenth", "Chn"),
    ("Chester", "Chs"),
    ("Clyveland", "Cly"),
    ("Cumbria", "Cum"),
    ("Dalriada", "Dal"),
    ("Deira", "Dei"),
    ("Derby", "Der"),
    ("Devenscire", "Dev"),
    ("Dorsete", "Dor"),
    ("Dublin", "Dub"),
    ("Dunholm", "Dun"),
    ("Dyfed", "Dyf"),
    ("Edwins Burgh", "Edw"),
    ("Ely", "Ely"),
    ("Exsassa", "Exs"),
    ("Fife", "Fif"),
    ("Galloway", "Gal"),
    ("Glastingberie", "Gla"),
    ("Glowecestre", "Glo"),
    ("Gwynedd", "Gwy"),
    ("Hastings", "Has"),
    ("Hereford", "Her"),
    ("Keredwigyawn", "Ker"),
    ("Ledecestre", "Led"),
    ("Lincolia", "Lin"),
    ("Lothian", "Lot"),
    ("Lundonia", "Lun"),
    ("Mamecastre", "Mam"),
    ("Man", "Man"),
    ("Mercia", "Mer"),
    ("Morgannwg", "Mor"),
    ("Nordfulc", "Nrd"),
    ("Northumberland", "Nth"),
    ("Offas Dyke", "Off"),
    ("Oxeneford", "Oxe"),
    ("Peneverdant", "Pen"),
    ("Ripun", "Rip"),
    ("Sciropescire", "Sci"),
    ("Scone", "Sco"),
    ("Snottingham", "Sno"),
    ("Stanford", "Sta"),
    ("Stirling", "Sti"),
    ("Stranraer", "Stn"),
    ("Strathclyde", "Sth"),
    ("Sudfulc", "Sdf"),
    ("Sudreys", "Sdr"),
    ("Sudsexe", "Sus"),
    ("Warawic", "War"),
    ("Wessexe", "Wes"),
    ("Windesores", "Win"),
    ("West Wales", "Wwa"),
    ("Westmorland", "Wst"),
    ("York", "Yor"),
];

/// The seas of the rule text (`Ses` is printed upper case like the others).
const SEA_LIST: &[(&str, &str)] = &[
    ("The Channel", "CHA"),
    ("Firth of Forth", "FOF"),
    ("Hebredies", "HEB"),
    ("Irish Sea", "IRI"),
    ("Oceanus Germanicus", "GER"),
    ("Solway", "SOL"),
    ("Straits of Dover", "SOD"),
    ("St. Georges Channel", "SES"),
    ("The Wash", "WAS"),
];

#[test]
fn province_list_every_name_and_abbreviation_of_the_text_resolves() {
    let v = variant();
    let m = &v.map;
    for &(name, ab) in PROVINCE_LIST.iter().chain(SEA_LIST) {
        let by_abbr = province(m, ab);
        let by_name = province(m, name);
        assert_eq!(by_abbr, by_name, "{name} / {ab}");
        assert_eq!(m.province(by_abbr).name, name);
        assert_eq!(m.province(by_abbr).abbr, ab);
    }
    // Any case, as players type them.
    assert_eq!(abbr(m, province(m, "ses")), "SES");
    assert_eq!(abbr(m, province(m, "Ses")), "SES");
    assert_eq!(abbr(m, province(m, "EDWINS BURGH")), "Edw");
    assert_eq!(abbr(m, province(m, "Edwin's Burgh")), "Edw");
    assert_eq!(abbr(m, province(m, "Offa's Dyke")), "Off");
    assert_eq!(abbr(m, province(m, "St Georges Channel")), "SES");
    // Snottingeham, as the prose spells it.
    assert_eq!(abbr(m, province(m, "Snottingeham")), "Sno");
}

#[test]
fn province_list_bernicia_keeps_brc_and_berrocchescire_is_brk() {
    let v = variant();
    let m = &v.map;
    assert_eq!(m.province(province(m, "Brc")).name, "Bernicia");
    assert_eq!(m.province(province(m, "Brk")).name, "Berrocchescire");
    assert_eq!(abbr(m, province(m, "Berkshire")), "Brk");
}

#[test]
fn province_list_every_province_is_on_the_board_once() {
    let v = variant();
    let m = &v.map;
    let on_board: Vec<_> = m
        .provinces()
        .iter()
        .filter(|p| p.terrain != Terrain::OffBoard)
        .collect();
    // The text's 59 names, Dore (rule 2) and the nine seas.
    assert_eq!(on_board.len(), PROVINCE_LIST.len() + 1 + SEA_LIST.len());
    assert_eq!(on_board.len(), 69);
    let seas = on_board
        .iter()
        .filter(|p| p.terrain == Terrain::Sea)
        .count();
    assert_eq!(seas, SEA_LIST.len());
    for p in m.provinces() {
        let [x, y] = p.xy.unwrap_or_else(|| panic!("{} has no xy", p.abbr));
        assert!((0.0..=1000.0).contains(&x) && (0.0..=1000.0).contains(&y));
    }
}

#[test]
fn rule_2_spellings_of_the_starting_list_resolve() {
    let v = variant();
    let m = &v.map;
    for (spelt, want) in [
        ("Gloucestre", "Glo"),
        ("Wessex", "Wes"),
        ("Windesores", "Win"),
        ("Ludnonia", "Lun"),
        ("Dore", "Dre"),
        ("Edwins Burgh", "Edw"),
        ("West Wales", "Wwa"),
        ("Keredwigyawn", "Ker"),
    ] {
        assert_eq!(abbr(m, province(m, spelt)), want, "{spelt}");
    }
    // Dore is a province of its own, not Dorsete.
    assert_eq!(abbr(m, province(m, "Dor")), "Dor");
    assert_eq!(m.province(province(m, "Dor")).name, "Dorsete");
}

#[test]
fn rule_2_the_seven_powers_with_their_names() {
    let v = variant();
    let m = &v.map;
    let names: Vec<&str> = m.powers().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Duke William",
            "Harald Hardrada",
            "Harold Godwinson",
            "The Norse",
            "The Northern Earls",
            "The Scots",
            "The Welsh"
        ]
    );
    for (alias, want) in [
        ("William", "Duke William"),
        ("the Normans", "Duke William"),
        ("Norman", "Duke William"),
        ("Harald", "Harald Hardrada"),
        ("Hardrada", "Harald Hardrada"),
        ("the Norwegians", "Harald Hardrada"),
        ("Harold", "Harold Godwinson"),
        ("the English", "Harold Godwinson"),
        ("English", "Harold Godwinson"),
        ("Norse", "The Norse"),
        ("Northern Earls", "The Northern Earls"),
        ("Earls", "The Northern Earls"),
        ("Scots", "The Scots"),
        ("Scottish", "The Scots"),
        ("Welsh", "The Welsh"),
    ] {
        let p = m
            .lookup_power(alias)
            .unwrap_or_else(|| panic!("no power `{alias}`"));
        assert_eq!(m.power(p).name, want, "{alias}");
    }
}

#[test]
fn rule_2_starting_units_per_power_and_kind() {
    let v = variant();
    let m = &v.map;
    let mut got: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for u in &v.starting_units {
        got.entry(m.power(u.power).name.clone())
            .or_default()
            .push(format!("{} {}", u.kind, m.region_abbr(u.region)));
    }
    for list in got.values_mut() {
        list.sort();
    }
    let want = |units: &[&str]| {
        let mut v: Vec<String> = units.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    };
    assert_eq!(got["Duke William"], want(&["A WIL"; 4]));
    assert_eq!(got["Harald Hardrada"], want(&["A/F HAR"; 4]));
    assert_eq!(
        got["Harold Godwinson"],
        want(&["A Glo", "A Wes", "A Win", "A Lun"])
    );
    assert_eq!(
        got["The Norse"],
        want(&["A/F Dub", "A/F Man", "A/F Sdr", "A/F Cum"])
    );
    assert_eq!(
        got["The Northern Earls"],
        want(&["A Dun", "A Rip", "A Mam", "A Dre"])
    );
    assert_eq!(
        got["The Scots"],
        want(&["F Fif", "A Sti", "A Edw", "A Brc"])
    );
    assert_eq!(
        got["The Welsh"],
        want(&["A Wwa", "A Mor", "A Ker", "A Gwy"])
    );
    assert_eq!(v.starting_units.len(), 28);
}

#[test]
fn rule_3_af_units_start_only_with_harald_and_the_norse() {
    let v = variant();
    let m = &v.map;
    for u in &v.starting_units {
        let owner = m.power(u.power).name.as_str();
        if u.kind == UnitKind::ArmyFleet {
            assert!(
                owner == "Harald Hardrada" || owner == "The Norse",
                "{owner} has an A/F"
            );
        }
    }
    assert!(v.syntax.army_fleet, "A/F notation is on");
}

#[test]
fn rule_4_williams_armies_wait_in_his_box_beside_the_straits() {
    let v = variant();
    let m = &v.map;
    let wil = province(m, "WIL");
    assert_eq!(m.province(wil).terrain, Terrain::OffBoard);
    assert_eq!(province(m, "Normandy"), wil);
    assert_eq!(province(m, "William's"), wil);
    // Armies go ashore on the shores of the Straits of Dover, as rule 4's
    // "may move all onshore from the first move onwards" from the Straits.
    let mut sod_shores: Vec<String> = neighbours(m, "SOD", Mobility::FLEET)
        .into_iter()
        .filter(|p| m.province(province(m, p)).terrain == Terrain::Coast)
        .collect();
    sod_shores.sort();
    assert_eq!(sod_shores, ["Can", "Chn", "Exs", "Has", "Lun"]);
    assert_eq!(neighbours(m, "WIL", Mobility::ARMY), sod_shores);
    // Builds "move on via the Straits of Dover or the Channel"; armies may
    // be convoyed from there.
    assert_eq!(neighbours(m, "WIL", Mobility::FLEET), ["CHA", "SOD"]);
    // The destroy order of rule 4 is part of the game's notation.
    assert!(v.syntax.destroy);
    let william = m.lookup_power("Duke William").unwrap();
    assert!(m.power(william).home_centres.is_empty());
}

#[test]
fn rule_5_haralds_box_is_entered_by_the_german_ocean_the_wash_and_the_forth() {
    let v = variant();
    let m = &v.map;
    let har = province(m, "HAR");
    assert_eq!(m.province(har).terrain, Terrain::OffBoard);
    assert_eq!(province(m, "Norway"), har);
    assert_eq!(province(m, "Harald's"), har);
    assert_eq!(neighbours(m, "HAR", Mobility::FLEET), ["FOF", "GER", "WAS"]);
    assert!(neighbours(m, "HAR", Mobility::ARMY).is_empty());
    // The Wash and the German Ocean border each other, so A/Fs hidden in
    // either reach the same shores in one more move.
    assert!(neighbours(m, "GER", Mobility::FLEET).contains(&"WAS".to_string()));
    let harald = m.lookup_power("Harald Hardrada").unwrap();
    assert!(m.power(harald).home_centres.is_empty());
}

#[test]
fn rules_4_5_boxes_are_off_board_and_hold_any_number_of_units() {
    let v = variant();
    let m = &v.map;
    let boxes: Vec<&str> = m
        .provinces()
        .iter()
        .filter(|p| p.terrain == Terrain::OffBoard)
        .map(|p| p.abbr.as_str())
        .collect();
    assert_eq!(boxes, ["WIL", "HAR"]);
    for b in ["WIL", "HAR"] {
        assert!(!m.province(province(m, b)).supply_centre);
        let here = v
            .starting_units
            .iter()
            .filter(|u| abbr(m, m.province_of(u.region)) == b)
            .count();
        assert_eq!(here, 4, "{b}");
    }
}

#[test]
fn rule_8_the_first_move_is_march_1066() {
    let v = variant();
    let c = &v.calendar;
    assert_eq!(c.label(c.start), "March 1066 movement");
    let second = c.next_of_kind(c.start, PhaseKind::Movement);
    assert_eq!(c.label(second), "April 1066 movement");
    let third = c.next_of_kind(second, PhaseKind::Movement);
    assert_eq!(c.label(third), "May 1066 movement");
    assert_eq!(c.seasons.len(), 12);
}

#[test]
fn rule_8_adjustments_after_every_second_move() {
    let v = variant();
    let c = &v.calendar;
    let mut p = c.start;
    let mut moves_since = 0;
    let mut after = Vec::new();
    // Two years of phases.
    for _ in 0..12 * 2 * 3 {
        match p.kind {
            PhaseKind::Movement => moves_since += 1,
            PhaseKind::Adjustment => {
                assert_eq!(moves_since, 2, "at {}", c.label(p));
                moves_since = 0;
                after.push(c.season_year(p));
            }
            _ => {}
        }
        p = c.next(p);
    }
    assert_eq!(
        after[..6],
        [
            "April 1066",
            "June 1066",
            "August 1066",
            "October 1066",
            "December 1066",
            "February 1067"
        ]
    );
    // Each month is a move and its retreats.
    for s in &c.seasons {
        assert_eq!(s.phases[..2], [PhaseKind::Movement, PhaseKind::Retreat]);
    }
}

#[test]
fn victory_criterion_twenty_four_on_board_centres() {
    let v = variant();
    let m = &v.map;
    assert_eq!(v.victory.centres, 24);
    assert_eq!(v.victory.last_phase, None);
    let on_board = m
        .provinces()
        .iter()
        .filter(|p| p.supply_centre && p.terrain != Terrain::OffBoard)
        .count();
    assert_eq!(on_board, m.supply_centre_count());
    assert_eq!(on_board, 38);
    // A solo needs well over half the board.
    assert!(24 * 2 > on_board);
}

#[test]
fn centres_each_home_centre_is_a_centre_with_its_powers_starting_unit() {
    let v = variant();
    let m = &v.map;
    let mut homes = 0;
    for pid in m.power_ids() {
        let power = m.power(pid);
        for &h in &power.home_centres {
            homes += 1;
            let prov = m.province(h);
            assert!(prov.supply_centre, "{} is not a centre", prov.abbr);
            assert_eq!(prov.home_of, Some(pid));
            assert!(
                v.starting_units
                    .iter()
                    .any(|u| u.power == pid && m.province_of(u.region) == h),
                "{} has no unit of {} at the start",
                prov.abbr,
                power.name
            );
        }
        let expected = match power.name.as_str() {
            "Duke William" | "Harald Hardrada" => 0,
            _ => 4,
        };
        assert_eq!(power.home_centres.len(), expected, "{}", power.name);
    }
    assert_eq!(homes, 20);
    // The five Danish boroughs of the text are neutral centres.
    for b in ["Snottingham", "Lincolia", "Derby", "Stanford", "Ledecestre"] {
        let p = m.province(province(m, b));
        assert!(p.supply_centre && p.home_of.is_none(), "{b}");
    }
}

#[test]
fn geography_every_province_is_reachable_and_every_sea_has_a_shore() {
    let v = variant();
    let m = &v.map;
    let start = province(m, "Lun");
    let dist = m.distances_to(&[start]);
    for p in m.province_ids() {
        assert_ne!(dist[p.index()], u32::MAX, "{} unreachable", abbr(m, p));
    }
    for p in m.provinces() {
        if p.terrain == Terrain::Sea {
            let shores = neighbours(m, &p.abbr, Mobility::FLEET)
                .into_iter()
                .filter(|n| m.province(province(m, n)).terrain == Terrain::Coast)
                .count();
            assert!(shores >= 4, "{} has {shores} shores", p.abbr);
        }
    }
    // The island provinces border only seas.
    for island in ["Dub", "Man", "Sdr"] {
        assert!(neighbours(m, island, Mobility::ARMY).is_empty(), "{island}");
    }
}
