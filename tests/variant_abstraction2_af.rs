//! Abstraction II rule 3, the Army/Fleet, each of the rule text's examples
//! with its expected result, on the real map (games/abstraction2.toml).

mod support_play;
use support_play::{prov, step};

use zinejudge::adjudicate::Illegal;
use zinejudge::adjudicate::retreat::RetreatStatus;
use zinejudge::game::Position;
use zinejudge::game::step::PhaseResult;
use zinejudge::map::UnitKind;
use zinejudge::variant::{PhaseKind, Variant};

fn variant() -> Variant {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/games/abstraction2.toml"
    ))
    .expect("the file");
    Variant::from_toml(&src).expect("loads")
}

fn board(v: &Variant, units: &str) -> Position {
    Position::from_toml(
        v,
        &format!("phase = \"July 1914 movement\"\n[units]\n{units}\n"),
    )
    .expect("position")
}

/// `kind letter + province` of every unit of the board, sorted.
fn units(v: &Variant, pos: &Position) -> Vec<String> {
    let mut out: Vec<String> = pos
        .units
        .iter()
        .map(|u| {
            format!(
                "{} {} {}",
                v.map.power(u.power).name,
                u.kind.letter(),
                v.map.province(v.map.province_of(u.region)).abbr
            )
        })
        .collect();
    out.sort();
    out
}

fn has(v: &Variant, pos: &Position, what: &str) -> bool {
    units(v, pos).iter().any(|u| u == what)
}

#[test]
fn board_sail_and_land_in_one_move_lon_eng_mao_por() {
    // "A(Lon) boards F(ENG), A/F(ENG)-MAO, A disembarks Por."
    let v = variant();
    let pos = board(&v, "England = [\"A Lon\", \"F ENG\"]");
    let (r, next) = step(
        &v,
        &pos,
        &[
            "England: A(Lon) boards F(ENG)",
            "England: A/F(ENG)-MAO",
            "England: A/F(ENG) disembarks A(Por)",
        ],
    );
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![None, None, None]);
    assert_eq!(units(&v, &next), ["England A Por", "England F MAO"]);
}

#[test]
fn a_boarded_army_that_cannot_land_stays_aboard_as_an_af() {
    let v = variant();
    let pos = board(&v, "England = [\"A Lon\", \"F ENG\"]\nFrance = [\"A Por\"]");
    let (_, next) = step(
        &v,
        &pos,
        &[
            "England: A(Lon) boards F(ENG)",
            "England: A/F(ENG)-MAO",
            "England: A/F(ENG) disembarks A(Por)",
        ],
    );
    assert!(has(&v, &next, "England A/F MAO"), "{:?}", units(&v, &next));
    assert!(!has(&v, &next, "England A Lon"), "embarking cannot fail");
}

#[test]
fn land_while_the_fleet_sails_on_tys_tun_wms() {
    // "A/F(TYS) disembarks A(Tun), F(TYS)-WMS."
    let v = variant();
    let pos = board(&v, "Italy = [\"A/F TYS\"]");
    let (r, next) = step(
        &v,
        &pos,
        &["Italy: A/F(TYS) disembarks A(Tun)", "Italy: F(TYS)-WMS"],
    );
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![None, None]);
    assert_eq!(units(&v, &next), ["Italy A Tun", "Italy F WMS"]);
}

#[test]
fn a_failed_landing_keeps_the_af_and_fails_the_fleets_move_but_not_its_support() {
    let v = variant();
    let pos = board(&v, "Italy = [\"A/F TYS\"]\nFrance = [\"A Tun\"]");
    let (_, next) = step(
        &v,
        &pos,
        &["Italy: A/F(TYS) disembarks A(Tun)", "Italy: F(TYS)-WMS"],
    );
    assert!(has(&v, &next, "Italy A/F TYS"), "{:?}", units(&v, &next));
    // Its support still counts: A/F(TYS) supports a French-free move.
    let pos = board(
        &v,
        "Italy = [\"A/F TYS\", \"F Sar\"]\nFrance = [\"A Tun\", \"F WMS\"]",
    );
    let (_, next) = step(
        &v,
        &pos,
        &[
            "Italy: A/F(TYS) disembarks A(Tun)",
            "Italy: F(TYS) S F(Sar)-WMS",
            "Italy: F(Sar)-WMS",
        ],
    );
    assert!(has(&v, &next, "Italy F WMS"), "{:?}", units(&v, &next));
    assert_eq!(next.dislodged.len(), 1, "the French fleet is dislodged");
}

#[test]
fn the_fleet_supports_its_own_armys_landing_eng_bre() {
    // "A/F(ENG) disembarks A(ENG)-Bre S by F(ENG) will displace an
    // unsupported A(Bre)."
    let v = variant();
    let pos = board(&v, "England = [\"A/F ENG\"]\nFrance = [\"A Bre\"]");
    let (r, next) = step(
        &v,
        &pos,
        &["England: A/F(ENG) disembarks A(ENG)-Bre S by F(ENG)"],
    );
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![None]);
    assert!(has(&v, &next, "England A Bre"), "{:?}", units(&v, &next));
    assert!(has(&v, &next, "England F ENG"), "{:?}", units(&v, &next));
    assert_eq!(next.dislodged.len(), 1);
    // Without the support it bounces and the A/F stays whole.
    let (_, next) = step(&v, &pos, &["England: A/F(ENG) disembarks A(Bre)"]);
    assert!(has(&v, &next, "England A/F ENG"), "{:?}", units(&v, &next));
}

#[test]
fn a_landing_is_unaffected_by_its_fleet_being_dislodged() {
    let v = variant();
    let pos = board(
        &v,
        "England = [\"A/F ENG\"]\nFrance = [\"F MAO\", \"F Bre\"]",
    );
    let (_, next) = step(
        &v,
        &pos,
        &[
            "England: A/F(ENG) disembarks A(Pic)",
            "France: F(MAO)-ENG",
            "France: F(Bre) S F(MAO)-ENG",
        ],
    );
    assert!(has(&v, &next, "England A Pic"), "{:?}", units(&v, &next));
    assert_eq!(next.dislodged.len(), 1);
    assert_eq!(
        next.dislodged[0].0.kind,
        UnitKind::Fleet,
        "its army is ashore"
    );
}

#[test]
fn an_af_fights_as_one_fleet_and_may_not_ferry() {
    let v = variant();
    let pos = board(
        &v,
        "England = [\"A/F ENG\", \"A Lon\"]\nFrance = [\"F MAO\", \"F Bre\"]",
    );
    // One fleet's strength against two: dislodged as an A/F.
    let (r, next) = step(
        &v,
        &pos,
        &[
            "England: A/F(ENG) C A(Lon)-Pic",
            "England: A(Lon)-Pic",
            "France: F(MAO)-ENG",
            "France: F(Bre) S F(MAO)-ENG",
        ],
    );
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders[0], Some(Illegal::LadenCannotFerry));
    assert_eq!(next.dislodged.len(), 1);
    assert_eq!(next.dislodged[0].0.kind, UnitKind::ArmyFleet);
}

#[test]
fn the_fast_ferry_crosses_one_sea_and_keeps_an_army_it_cannot_land() {
    let v = variant();
    let pos = board(&v, "England = [\"A Lon\", \"F ENG\"]");
    let (_, next) = step(
        &v,
        &pos,
        &["England: A(Lon)-Pic", "England: F(ENG) C A(Lon)-Pic"],
    );
    assert_eq!(units(&v, &next), ["England A Pic", "England F ENG"]);
    // Bounced at Picardy: the army stays aboard, an A/F is formed.
    let pos = board(&v, "England = [\"A Lon\", \"F ENG\"]\nFrance = [\"A Pic\"]");
    let (_, next) = step(
        &v,
        &pos,
        &["England: A(Lon)-Pic", "England: F(ENG) C A(Lon)-Pic"],
    );
    assert_eq!(units(&v, &next), ["England A/F ENG", "France A Pic"]);
    // Two seas: not a fast ferry.
    let pos = board(&v, "England = [\"A Lon\", \"F ENG\", \"F MAO\"]");
    let (r, _) = step(
        &v,
        &pos,
        &[
            "England: A(Lon)-Por",
            "England: F(ENG) C A(Lon)-Por",
            "England: F(MAO) C A(Lon)-Por",
        ],
    );
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders[0], Some(Illegal::FerryOneSea));
}

#[test]
fn retreats_an_af_to_a_coast_loses_its_army_an_army_may_retreat_onto_its_fleet() {
    let v = variant();
    // The A/F in ENG is dislodged and retreats to Ply: a fleet.
    let pos = board(
        &v,
        "England = [\"A/F ENG\"]\nFrance = [\"F MAO\", \"F Bre\"]",
    );
    let (_, next) = step(
        &v,
        &pos,
        &["France: F(MAO)-ENG", "France: F(Bre) S F(MAO)-ENG"],
    );
    assert_eq!(next.phase.kind, PhaseKind::Retreat);
    let (r, after) = step(&v, &next, &["England: A/F(ENG)-Ply"]);
    let PhaseResult::Retreat(r) = r else { panic!() };
    assert!(matches!(r.dislodged[0], RetreatStatus::Retreated(_)));
    assert!(has(&v, &after, "England F Ply"), "{:?}", units(&v, &after));
    // The army in Brest, dislodged, retreats onto its fleet in the Bay of
    // Biscay: an A/F.
    let pos = board(
        &v,
        "France = [\"A Bre\", \"F BoB\"]\nGermany = [\"A Par\", \"A Pic\"]",
    );
    let (_, next) = step(
        &v,
        &pos,
        &["Germany: A(Par)-Bre", "Germany: A(Pic) S A(Par)-Bre"],
    );
    let options = &next.dislodged[0].1;
    assert!(
        options
            .iter()
            .any(|r| v.map.province_of(*r) == prov(&v, "BoB")),
        "{options:?}"
    );
    let (_, after) = step(&v, &next, &["France: A(Bre)-BoB"]);
    assert!(has(&v, &after, "France A/F BoB"), "{:?}", units(&v, &after));
}

#[test]
fn circular_reasoning_makes_all_stand() {
    let v = variant();
    assert_eq!(
        v.rules.paradox,
        zinejudge::variant::rules::ParadoxRule::AllHold
    );
}

#[test]
fn the_exception_a_landing_may_not_decide_its_own_fleets_move() {
    // The A/F sails to MAO with two supports against the French fleet's
    // attack with two; its army would land in Portugal, whose fleet is one
    // of the French supports: the landing would cut it and so decide the
    // A/F's own move. It may not: the landing fails, and the A/F bounces as
    // it would have without it.
    let v = variant();
    let pos = board(
        &v,
        "England = [\"A/F ENG\", \"F IRI\", \"F BoB\"]\nFrance = [\"F SAO\", \"F Por\", \"F AZO\"]",
    );
    let orders = [
        "England: A/F(ENG)-MAO",
        "England: A/F(ENG) disembarks A(Por)",
        "England: F(IRI) S A/F(ENG)-MAO",
        "England: F(BoB) S A/F(ENG)-MAO",
        "France: F(SAO)-MAO",
        "France: F(Por) S F(SAO)-MAO",
        "France: F(AZO) S F(SAO)-MAO",
    ];
    let (r, next) = step(&v, &pos, &orders);
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders[1], Some(Illegal::LandingWouldDecideItsFleet));
    assert!(has(&v, &next, "England A/F ENG"), "{:?}", units(&v, &next));
    assert!(has(&v, &next, "France F SAO"), "{:?}", units(&v, &next));
    // Without the landing, the same.
    let (_, plain) = step(
        &v,
        &pos,
        &[
            orders[0], orders[2], orders[3], orders[4], orders[5], orders[6],
        ],
    );
    assert_eq!(units(&v, &plain), units(&v, &next));
}
