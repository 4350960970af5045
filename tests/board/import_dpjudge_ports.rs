//! `zinejudge import dpjudge` for what DPjudge's maps add to the board
//! (issue #39): `PORT` places (Ancient Mediterranean, 1900, Zeus), the
//! border marks `~` and `*` (Loeb9, 1900), a terrain line without ABUTS
//! (Renaissance's `LAND SWI`), and the press rule words, refused with why.
//!
//! The maps here are written for these tests on DPjudge's standard map
//! (tests/data/dpjudge), the way DPjudge's own variants change it; the
//! port is the worked example of DPjudge's map file syntax page ("Consider
//! allowing an army to be convoyed into the Tyrrhenian Sea (call it
//! Sicily)").

use crate::support_play;
use std::path::Path;
use support_play::{movement, power, prov};
use zinejudge::adjudicate::{Illegal, Outcome};
use zinejudge::game::Position;
use zinejudge::import::dpjudge::{ImportError, Imported, import};
use zinejudge::map::{Crossing, Terrain, Unit, UnitKind};
use zinejudge::variant::Variant;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dpjudge");

/// Import `map` (the text of `test.map`), which may USE the standard
/// map's files of tests/data/dpjudge.
fn import_map(map: &str) -> Result<Imported, ImportError> {
    let mut fetch = |n: &str| {
        if n == "test.map" {
            return Ok(map.to_string());
        }
        std::fs::read_to_string(Path::new(DATA).join(n)).map_err(|e| e.to_string())
    };
    import("test.map", &mut fetch)
}

/// The page's example: the Tyrrhenian Sea a PORT (an island with its
/// waters), which armies enter only by convoy (`Tys` on the land around).
const TYRRHENIAN_PORT: &str = "USE standard.map
PORT TYS ABUTS LYO ION WES Nap Rom Tun Tus
AMEND NAP ABUTS Tys
AMEND ROM ABUTS Tys
AMEND TUN ABUTS Tys
AMEND TUS ABUTS Tys
";

fn port_variant() -> Variant {
    import_map(TYRRHENIAN_PORT)
        .unwrap_or_else(|e| panic!("{e}"))
        .variant
}

/// A spring board with only these units: `(power, "A Nap")`.
fn board(v: &Variant, units: &[(&str, &str)]) -> Position {
    let mut pos = Position::initial(v);
    pos.units = units
        .iter()
        .map(|(pw, text)| {
            let (k, at) = text.split_once(' ').expect("`A Nap`");
            let kind = if k == "A" {
                UnitKind::Army
            } else {
                UnitKind::Fleet
            };
            Unit {
                power: power(v, pw),
                kind,
                region: v
                    .map
                    .default_region(prov(v, at), kind)
                    .unwrap_or_else(|| panic!("{text}")),
            }
        })
        .collect();
    pos
}

fn outcome_at(
    v: &Variant,
    pos: &Position,
    r: &zinejudge::adjudicate::MovementResult,
    at: &str,
) -> Outcome {
    let p = prov(v, at);
    let i = pos
        .units
        .iter()
        .position(|u| v.map.province_of(u.region) == p)
        .unwrap_or_else(|| panic!("no unit in {at}"));
    r.units[i].outcome.clone()
}

#[test]
fn a_port_imports_as_a_coast_whose_fleets_convoy() {
    let imported = import_map(TYRRHENIAN_PORT).expect("imports");
    assert!(imported.toml.contains("port = true"), "{}", imported.toml);
    let v = &imported.variant;
    let tys = prov(v, "Tyrrhenian Sea");
    assert_eq!(v.map.province(tys).terrain, Terrain::Coast);
    assert!(v.map.province(tys).port);
    assert!(v.map.convoys_at(tys));
    assert!(!v.map.convoys_at(prov(v, "Nap")), "a coast is no port");
    assert!(v.map.convoys_at(prov(v, "ION")), "a sea convoys");
}

/// The page: "Convoyed movement would be allowed, though, so an order such
/// as A Nap-ION-TYS would be perfectly valid"; the move by land is not.
#[test]
fn the_page_s_example_an_army_is_convoyed_into_the_port_not_walked() {
    let v = port_variant();
    let pos = board(&v, &[("Italy", "A Nap"), ("Italy", "F ION")]);
    let (r, next) = movement(
        &v,
        &pos,
        &["Italy: A Nap - ION - TYS", "Italy: F ION C A Nap - TYS"],
    );
    assert_eq!(r.orders, vec![None, None]);
    assert_eq!(outcome_at(&v, &pos, &r, "Nap"), Outcome::Moved);
    assert_eq!(
        support_play::units_in(&v, &next, "TYS")[0].kind,
        UnitKind::Army
    );
    // With no fleet to carry it, the army cannot get there.
    let pos = board(&v, &[("Italy", "A Nap")]);
    let (r, _) = movement(&v, &pos, &["Italy: A Nap - TYS"]);
    assert_eq!(r.orders, vec![Some(Illegal::NotAdjacent)]);
}

/// The page: "fleets located in PORT spaces may convoy armies as if they
/// were in water".
#[test]
fn a_fleet_in_the_port_convoys_as_if_at_sea() {
    let v = port_variant();
    let pos = board(&v, &[("Italy", "A Tus"), ("Italy", "F TYS")]);
    let (r, _) = movement(
        &v,
        &pos,
        &["Italy: A Tus - Tun", "Italy: F TYS C A Tus - Tun"],
    );
    assert_eq!(r.orders, vec![None, None]);
    assert_eq!(outcome_at(&v, &pos, &r, "Tus"), Outcome::Moved);
    assert_eq!(outcome_at(&v, &pos, &r, "TYS"), Outcome::Convoyed);
}

#[test]
fn a_convoy_runs_through_a_port_and_a_sea() {
    let v = port_variant();
    let pos = board(
        &v,
        &[("Italy", "A Tus"), ("Italy", "F TYS"), ("Italy", "F ION")],
    );
    let (r, _) = movement(
        &v,
        &pos,
        &[
            "Italy: A Tus - Gre",
            "Italy: F TYS C A Tus - Gre",
            "Italy: F ION C A Tus - Gre",
        ],
    );
    assert_eq!(outcome_at(&v, &pos, &r, "Tus"), Outcome::Moved);
}

/// DATC 6.F-style: a convoying fleet dislodged breaks the convoy, in a
/// port as at sea.
#[test]
fn a_dislodged_fleet_in_the_port_convoys_nobody() {
    let v = port_variant();
    let pos = board(
        &v,
        &[
            ("Italy", "A Tus"),
            ("Italy", "F TYS"),
            ("France", "F LYO"),
            ("France", "F WES"),
        ],
    );
    let (r, _) = movement(
        &v,
        &pos,
        &[
            "Italy: A Tus - Tun",
            "Italy: F TYS C A Tus - Tun",
            "France: F LYO - TYS",
            "France: F WES S F LYO - TYS",
        ],
    );
    assert_eq!(outcome_at(&v, &pos, &r, "Tus"), Outcome::NoConvoy);
    assert_eq!(outcome_at(&v, &pos, &r, "LYO"), Outcome::Moved);
}

/// The same place made an ordinary COAST: its fleet may not convoy.
#[test]
fn on_a_coast_that_is_no_port_the_same_convoy_is_refused() {
    let coast = TYRRHENIAN_PORT.replace("PORT TYS", "COAST TYS");
    let v = import_map(&coast).expect("imports").variant;
    let pos = board(&v, &[("Italy", "A Tus"), ("Italy", "F TYS")]);
    let (r, _) = movement(
        &v,
        &pos,
        &["Italy: A Tus - Tun", "Italy: F TYS C A Tus - Tun"],
    );
    assert_eq!(r.orders[1], Some(Illegal::NotAtSea));
}

/// Loeb9's straits and 1900's Cape of Good Hope, as their files write
/// them: the mark before or after the place, kept one way each.
#[test]
fn border_marks_import_as_straits_and_half_strength_borders() {
    let map = "USE standard.map
AMEND NAF ABUTS tun~ *MAO
AMEND TUN ABUTS naf~
AMEND MAO ABUTS NAF*
";
    let imported = import_map(map).unwrap_or_else(|e| panic!("{e}"));
    let v = &imported.variant;
    let (naf, tun, mao) = (prov(v, "Naf"), prov(v, "Tun"), prov(v, "MAO"));
    assert_eq!(v.map.crossing(naf, tun), Crossing::Strait);
    assert_eq!(v.map.crossing(tun, naf), Crossing::Strait);
    assert_eq!(v.map.crossing(naf, mao), Crossing::Half);
    assert_eq!(v.map.crossing(mao, naf), Crossing::Half);
    assert_eq!(v.map.crossing(naf, prov(v, "WES")), Crossing::Full);
    // The borders themselves are as before: armies cross the strait.
    let a = v.map.province(naf).main_region();
    assert!(v.map.reaches(a, tun, UnitKind::Army));
    assert!(
        imported.toml.contains("strait = [\"Tun\"]"),
        "{}",
        imported.toml
    );
}

#[test]
fn a_mark_removed_with_its_border_by_amend_goes_with_it() {
    let map = "USE standard.map
AMEND NAF ABUTS tun~
AMEND TUN ABUTS naf~
AMEND NAF ABUTS -TUN
AMEND TUN ABUTS -NAF
AMEND NAF ABUTS TUN
AMEND TUN ABUTS NAF
";
    let v = import_map(map).unwrap_or_else(|e| panic!("{e}")).variant;
    assert_eq!(
        v.map.crossing(prov(&v, "Naf"), prov(&v, "Tun")),
        Crossing::Full
    );
}

#[test]
fn a_mark_this_judge_has_no_rule_for_is_refused_at_its_line() {
    let map = "USE standard.map\nAMEND NAF ABUTS tun!\n";
    let Err(ImportError::Refused(list)) = import_map(map) else {
        panic!("refused");
    };
    assert!(
        list.iter()
            .any(|r| r.file == "test.map" && r.line == 2 && r.why.contains('!')),
        "{list:?}"
    );
}

/// Renaissance's `LAND SWI`: DPjudge keeps the borders a place had when a
/// terrain line gives none (Map.load replaces them only after ABUTS), so
/// Switzerland opens with the standard map's borders.
#[test]
fn a_terrain_line_without_abuts_keeps_the_borders_the_place_had() {
    let map = "USE standard.map\nLAND SWI\nUNOWNED SWI\n";
    let v = import_map(map).unwrap_or_else(|e| panic!("{e}")).variant;
    let swi = prov(&v, "Switzerland");
    assert_eq!(v.map.province(swi).terrain, Terrain::Land);
    assert!(v.map.province(swi).supply_centre);
    let from = v.map.province(swi).main_region();
    for n in ["Bur", "Mar", "Mun", "Pie", "Tyr"] {
        assert!(
            v.map.reaches(from, prov(&v, n), UnitKind::Army),
            "Switzerland borders {n}"
        );
    }
}

/// Sail Ho!'s `RULE FTF_PRESS` is a rule of the variant here (face-to-face
/// press, `[press]`), but DPjudge's other press rules are each game's
/// `SET PRESS` here: a map with one is refused with that reason rather
/// than played with other press.
#[test]
fn a_press_rule_other_than_face_to_face_is_refused_naming_set_press() {
    let ftf = import_map("USE standard.map\nRULE FTF_PRESS\n").expect("imports");
    assert!(
        ftf.toml.contains("[press]\nface-to-face = true"),
        "{}",
        ftf.toml
    );
    let map = "USE standard.map\nRULE GREY_PRESS\n";
    let Err(ImportError::Refused(list)) = import_map(map) else {
        panic!("refused");
    };
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0].what, "RULE GREY_PRESS");
    assert_eq!(list[0].line, 2);
    assert!(list[0].why.contains("SET PRESS"), "{}", list[0].why);
}

/// 1900's `*SIB` (a partisan site) is refused by name, not left to fail
/// as an unknown centre.
#[test]
fn a_partisan_site_is_refused_by_name() {
    let map = "USE standard.map\nRUSSIA (RUSSIAN) MOS SEV STP WAR *UKR\n";
    let Err(ImportError::Refused(list)) = import_map(map) else {
        panic!("refused");
    };
    assert!(
        list.iter()
            .any(|r| r.what == "*UKR" && r.why.contains("partisan")),
        "{list:?}"
    );
}

/// 1900's `OWNS ... EGY`: a centre owned at the start is a supply centre
/// even when no line lists it as a home or unowned (DPjudge's
/// Map.validate).
#[test]
fn a_centre_owned_at_the_start_is_a_supply_centre() {
    let map = "USE standard.map\nENGLAND\nOWNS EDI LON LVP NAF\n";
    let v = import_map(map).unwrap_or_else(|e| panic!("{e}")).variant;
    let naf = prov(&v, "Naf");
    assert!(v.map.province(naf).supply_centre);
    let england = power(&v, "England");
    assert!(v.map.power(england).starting_centres.contains(&naf));
}
