//! The Abstraction II map and set-up (games/abstraction2.toml), checked
//! against the rule text it was read with (shared/rules/001_f412e3ea295cd39d.txt):
//! each test is named after the rule it checks.

use zinejudge::game::Position;
use zinejudge::game::step::advance;
use zinejudge::map::{Map, Mobility, Named, ProvinceId, Terrain, UnitKind};
use zinejudge::variant::{PhaseKind, Variant};

fn variant() -> Variant {
    Variant::from_toml(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/games/abstraction2.toml"
        ))
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

/// Rule 1's starting units, as the text prints them, by power.
const STARTING_UNITS: &[(&str, &[&str])] = &[
    ("Austria", &["A Tyr", "A Pec", "A Vie", "F Zar"]),
    ("England", &["F Edi", "F Lon", "A Lvp", "F Ply"]),
    ("France", &["F Bre", "F Mar", "A Lyo", "A Par"]),
    ("Germany", &["A Ber", "A Dre", "F Kie", "A Mun"]),
    ("Italy", &["F Nap", "A Rom", "F Sic", "A Ven"]),
    ("Russia", &["A Arc", "A Mos", "F Ode", "F StP", "A War"]),
    ("Turkey", &["A Con", "F Dam", "F Sin", "A Smy"]),
];

/// Rule 1's non-standard abbreviations, with the names the text gives them.
const RULE_1_ABBREVIATIONS: &[(&str, &str)] = &[
    ("Alg", "Algeria"),
    ("And", "Andalucia"),
    ("ANG", "Anglican Sea"),
    ("Ara", "Arabia"),
    ("Arc", "Archangel"),
    ("ARO", "Artic Ocean"),
    ("AZO", "Azores"),
    ("BoB", "Bay of Biscay"),
    ("Cas", "Castile"),
    ("Cat", "Catalonia"),
    ("Cau", "Caucasus"),
    ("Cic", "Cicilia"),
    ("CMS", "Central Med."),
    ("Cou", "Courland"),
    ("Cro", "Croatia"),
    ("CYS", "Cypriot Sea"),
    ("Dam", "Damascus"),
    ("DBS", "Deep Blue Sea"),
    ("DMS", "Denmark Strait"),
    ("Dre", "Dresden"),
    ("EBS", "East Black Sea"),
    ("Egy", "Egypt"),
    ("HBS", "Hebrides Sea"),
    ("Ice", "Iceland"),
    ("Ire", "Ireland"),
    ("Lap", "Lapland"),
    ("Leo", "Leon"),
    ("Lib", "Libya"),
    ("Lor", "Lorraine"),
    ("Lyo", "Lyon"),
    ("Mac", "Macedonia"),
    ("MAS", "Malta Sea"),
    ("Mes", "Mesopotamia"),
    ("Mor", "Morocco"),
    ("Obe", "Oberland"),
    ("Ode", "Odessa"),
    ("Pal", "Palestine"),
    ("Pec", "Pecs"),
    ("Per", "Persia"),
    ("Ply", "Plymouth"),
    ("RIS", "Riga Sea"),
    ("SAO", "South Atlantic"),
    ("Sar", "Sardinia"),
    ("Sic", "Sicily"),
    ("Sin", "Sinope"),
    ("Swa", "Swabia"),
    ("Tra", "Transylvania"),
    ("Vol", "Volga"),
    ("WBS", "West Black Sea"),
    ("Zar", "Zara"),
    ("Zur", "Zurich"),
];

/// The ones rule 1 marks (*) as supply centres.
const RULE_1_STARRED: &[&str] = &[
    "And", "Arc", "Cas", "Dam", "Dre", "Egy", "Ire", "Lyo", "Mor", "Ode", "Pec", "Sic", "Sin",
    "Zar", "Zur",
];

#[test]
fn rule_1_forty_six_centres_twenty_nine_home_seventeen_neutral() {
    let v = variant();
    let m = &v.map;
    assert_eq!(m.supply_centre_count(), 46);
    let centres: Vec<_> = m.provinces().iter().filter(|p| p.supply_centre).collect();
    assert_eq!(centres.len(), 46);
    let home = centres.iter().filter(|p| p.home_of.is_some()).count();
    assert_eq!(home, 29);
    assert_eq!(centres.len() - home, 17);
    for a in RULE_1_STARRED {
        assert!(m.province(prov(m, a)).supply_centre, "{a} is starred");
    }
    // Plymouth lacks its (*) in the text's list but is a starting fleet's
    // home: the counts need it.
    assert!(m.province(prov(m, "Ply")).supply_centre);
    // Every home centre is a supply centre of the power that owns it.
    for pw in m.power_ids() {
        for &h in &m.power(pw).home_centres {
            assert!(m.province(h).supply_centre, "{}", abbr(m, h));
            assert_eq!(m.province(h).home_of, Some(pw), "{}", abbr(m, h));
        }
    }
    // No supply centre on water.
    assert!(centres.iter().all(|p| p.terrain != Terrain::Sea));
}

#[test]
fn rule_1_home_centres_per_power() {
    let v = variant();
    let m = &v.map;
    let homes: &[(&str, &[&str])] = &[
        ("Austria", &["Bud", "Pec", "Vie", "Zar"]),
        ("England", &["Edi", "Lon", "Lvp", "Ply"]),
        ("France", &["Bre", "Lyo", "Mar", "Par"]),
        ("Germany", &["Ber", "Dre", "Kie", "Mun"]),
        ("Italy", &["Nap", "Rom", "Sic", "Ven"]),
        ("Russia", &["Arc", "Mos", "Ode", "StP", "War"]),
        ("Turkey", &["Con", "Dam", "Sin", "Smy"]),
    ];
    assert_eq!(m.powers().len(), 7);
    for (name, want) in homes {
        let pw = m.lookup_power(name).unwrap_or_else(|| panic!("{name}"));
        let mut got: Vec<&str> = m
            .power(pw)
            .home_centres
            .iter()
            .map(|&h| abbr(m, h))
            .collect();
        got.sort_unstable();
        assert_eq!(&got, want, "{name}");
    }
}

#[test]
fn rule_1_starting_units_stand_where_their_kind_may() {
    let v = variant();
    let m = &v.map;
    assert_eq!(v.starting_units.len(), 29);
    for (name, units) in STARTING_UNITS {
        let pw = m.lookup_power(name).unwrap_or_else(|| panic!("{name}"));
        let mut got: Vec<String> = v
            .starting_units
            .iter()
            .filter(|u| u.power == pw)
            .map(|u| format!("{} {}", u.kind.letter(), m.region_abbr(u.region)))
            .collect();
        let mut want: Vec<String> = units.iter().map(|s| s.to_string()).collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{name}");
    }
    for u in &v.starting_units {
        let p = m.province(m.province_of(u.region));
        assert!(m.admits(u.region, u.kind), "{} {}", u.kind, p.abbr);
        match u.kind {
            UnitKind::Army => assert_ne!(p.terrain, Terrain::Sea, "{}", p.abbr),
            UnitKind::Fleet => assert_eq!(p.terrain, Terrain::Coast, "{}", p.abbr),
            k => panic!("rule 1 starts no {k}"),
        }
    }
}

#[test]
fn rule_1_budapest_is_home_but_its_army_starts_in_tyrolia() {
    let v = variant();
    let m = &v.map;
    let austria = m.lookup_power("Austria").unwrap();
    let bud = prov(m, "Bud");
    assert_eq!(m.province(bud).home_of, Some(austria));
    assert!(
        !v.starting_units
            .iter()
            .any(|u| m.province_of(u.region) == bud)
    );
    let tyr = prov(m, "Tyr");
    assert!(!m.province(tyr).supply_centre);
    assert!(
        v.starting_units.iter().any(|u| u.power == austria
            && u.kind == UnitKind::Army
            && m.province_of(u.region) == tyr)
    );
}

#[test]
fn rule_1_every_abbreviation_names_a_province() {
    let v = variant();
    let m = &v.map;
    for (a, name) in RULE_1_ABBREVIATIONS {
        let p = prov(m, a);
        assert!(
            abbr(m, p).eq_ignore_ascii_case(a),
            "{a} resolves to {}",
            abbr(m, p)
        );
        // The text's full name (its spelling, dots and all) reads too.
        assert_eq!(prov(m, name), p, "{name}");
    }
    // Standard abbreviations for the standard provinces on this map, and
    // the picture's names for its seas.
    for a in [
        "Lon", "Edi", "Lvp", "Cly", "Yor", "Wal", "Bre", "Par", "Pic", "Gas", "Bur", "Mar", "Bel",
        "Hol", "Ruh", "Kie", "Ber", "Mun", "Pru", "Sil", "Boh", "Tyr", "Vie", "Bud", "Gal", "Ven",
        "Pie", "Tus", "Rom", "Apu", "Nap", "Tun", "Por", "Ser", "Alb", "Gre", "Bul", "Rum", "Con",
        "Smy", "Arm", "Ukr", "War", "Mos", "StP", "Fin", "Swe", "Nwy", "Den", "NTH", "NWG", "BAR",
        "NAO", "MAO", "IRI", "ENG", "SKA", "HEL", "BAL", "GoB", "GoL", "WMS", "TYS", "ION", "ADS",
        "AEG", "EMS",
    ] {
        let p = prov(m, a);
        assert!(abbr(m, p).eq_ignore_ascii_case(a), "{a}");
    }
    // The picture's RIG is the text's RIS; Lyo is Lyon, not the gulf.
    assert_eq!(prov(m, "RIG"), prov(m, "RIS"));
    assert_eq!(m.province(prov(m, "Lyo")).terrain, Terrain::Land);
    assert_eq!(m.province(prov(m, "GoL")).terrain, Terrain::Sea);
    assert_eq!(prov(m, "Gulf of Lyon"), prov(m, "GoL"));
}

#[test]
fn rule_2_first_move_is_july_1914_and_each_move_a_month() {
    let v = variant();
    let c = &v.calendar;
    assert_eq!(c.label(c.start), "July 1914 movement");
    assert_eq!(c.seasons.len(), 12);
    let months = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    for (s, want) in c.seasons.iter().zip(months) {
        assert_eq!(s.name, want);
        assert_eq!(s.phases[..2], [PhaseKind::Movement, PhaseKind::Retreat]);
    }
    let second = c.next_of_kind(c.start, PhaseKind::Movement);
    assert_eq!(c.label(second), "August 1914 movement");
    // Nobody is dislodged at the start: the July retreats are skipped.
    let pos = advance(&v, Position::initial(&v));
    assert_eq!(c.label(pos.phase), "August 1914 movement");
}

#[test]
fn rule_2_adjustments_in_september_december_march_june() {
    let v = variant();
    let c = &v.calendar;
    for s in &c.seasons {
        let adjusts = matches!(s.name.as_str(), "September" | "December" | "March" | "June");
        if adjusts {
            assert_eq!(
                s.phases,
                [
                    PhaseKind::Movement,
                    PhaseKind::Retreat,
                    PhaseKind::Adjustment
                ],
                "{}",
                s.name
            );
        } else {
            assert_eq!(s.phases, [PhaseKind::Movement, PhaseKind::Retreat]);
        }
    }
    // A year of phases from the start: the adjustments fall after these
    // months' retreats, in this order.
    let mut p = c.start;
    let mut after = Vec::new();
    for _ in 0..(12 * 2 + 4) {
        if p.kind == PhaseKind::Adjustment {
            after.push(c.season_year(p));
        }
        p = c.next(p);
    }
    assert_eq!(
        after,
        ["September 1914", "December 1914", "March 1915", "June 1915"]
    );
}

#[test]
fn rule_4_direct_passages() {
    let v = variant();
    let m = &v.map;
    // Naples-Sicily and Andalucia-Morocco: direct for all units.
    for (a, b) in [("Nap", "Sic"), ("And", "Mor")] {
        for (x, y) in [(a, b), (b, a)] {
            assert!(border(m, x, y, Mobility::ARMY), "A {x}-{y}");
            assert!(border(m, x, y, Mobility::FLEET), "F {x}-{y}");
        }
    }
    // The seas through those straits still meet.
    for (a, b) in [("CMS", "TYS"), ("SAO", "WMS")] {
        assert!(border(m, a, b, Mobility::FLEET), "F {a}-{b}");
        assert!(border(m, b, a, Mobility::FLEET), "F {b}-{a}");
    }
    // Egypt-Arabia for armies.
    assert!(border(m, "Egy", "Ara", Mobility::ARMY));
    assert!(border(m, "Ara", "Egy", Mobility::ARMY));
}

#[test]
fn rule_4_no_army_move_between_lorraine_and_swabia() {
    let v = variant();
    let m = &v.map;
    assert!(!border(m, "Lor", "Swa", Mobility::ARMY));
    assert!(!border(m, "Swa", "Lor", Mobility::ARMY));
    let lor = m.province(prov(m, "Lor")).main_region();
    assert!(!m.reaches(lor, prov(m, "Swa"), UnitKind::Army));
    // Both stay reachable round the long way.
    assert!(border(m, "Lor", "Bur", Mobility::ARMY));
    assert!(border(m, "Bur", "Swa", Mobility::ARMY));
}

#[test]
fn rule_7_twenty_three_centres_and_the_game_ends_after_december_1918() {
    let v = variant();
    assert_eq!(v.victory.centres, 23);
    let last = v
        .calendar
        .parse(v.victory.last_phase.as_deref().unwrap())
        .unwrap();
    assert_eq!(v.calendar.label(last), "December 1918 adjustment");
}

#[test]
fn map_borders_run_both_ways_and_only_where_units_may_stand() {
    let v = variant();
    let m = &v.map;
    for p in m.province_ids() {
        let from = m.province(p).main_region();
        for &(to, mob) in m.borders(from) {
            assert!(
                m.borders_region(to, from, mob),
                "{} -> {}",
                abbr(m, p),
                m.region_abbr(to)
            );
            let t = m.province(m.province_of(to)).terrain;
            if mob.intersects(Mobility::ARMY) {
                assert_ne!(t, Terrain::Sea, "army border {} -> sea", abbr(m, p));
            }
            if mob.intersects(Mobility::FLEET) {
                assert_ne!(t, Terrain::Land, "fleet border {} -> land", abbr(m, p));
            }
        }
    }
    // Every province and sea has a place on the map picture.
    assert!(m.provinces().iter().all(|p| p.xy.is_some()));
}
