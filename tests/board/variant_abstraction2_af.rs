//! Abstraction II rule 3, the Army/Fleet, each of the rule text's examples
//! with its expected result, on the real map (games/abstraction2.toml).

use crate::support_play;
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

// ---------------------------------------------------------------------
// The faults found by trying (issue 18), each by the rule it breaks.
// ---------------------------------------------------------------------

/// The stored form of a position reads back as the same position.
fn roundtrip(v: &Variant, pos: &Position) {
    let text = pos.to_toml(v);
    let back = Position::from_toml(v, &text).unwrap_or_else(|e| panic!("{text}\n{e:?}"));
    assert_eq!(back.to_toml(v), text);
}

#[test]
fn rule_3_retreats_an_army_beside_its_fleet_is_offered_the_sea_and_the_game_goes_on() {
    let v = variant();
    let pos = board(
        &v,
        "France = [\"A Bre\", \"F BoB\"]\nGermany = [\"A Par\", \"A Pic\"]",
    );
    let (_, next) = step(
        &v,
        &pos,
        &["Germany: A(Par)-Bre", "Germany: A(Pic) S A(Par)-Bre"],
    );
    assert_eq!(next.phase.kind, PhaseKind::Retreat);
    // The retreat phase is stored and read back (it once could not be:
    // "`BoB`: no such place for a Army").
    roundtrip(&v, &next);
    let (_, after) = step(&v, &next, &["France: A(Bre)-BoB"]);
    roundtrip(&v, &after);
    assert_eq!(
        units(&v, &after),
        ["France A/F BoB", "Germany A Bre", "Germany A Pic"]
    );
}

#[test]
fn rule_3_an_af_may_never_enter_a_coastal_province() {
    let v = variant();
    let pos = board(&v, "England = [\"A/F ENG\"]\nItaly = [\"A/F MAS\"]");
    let (r, next) = step(&v, &pos, &["England: A/F(ENG)-Bre", "Italy: A/F(MAS)-Tun"]);
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(
        r.orders,
        vec![Some(Illegal::ArmyFleetAtSea), Some(Illegal::ArmyFleetAtSea)]
    );
    assert_eq!(units(&v, &next), ["England A/F ENG", "Italy A/F MAS"]);
    // Sailing from sea to sea stays legal.
    let (r, next) = step(&v, &pos, &["England: A/F(ENG)-MAO"]);
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![None]);
    assert!(has(&v, &next, "England A/F MAO"));
}

#[test]
fn rule_3_a_foreign_fleets_fast_ferry_never_changes_the_armys_power() {
    let v = variant();
    // England's army, ferried by a French fleet into a held Picardy,
    // cannot land: it stays in London, English; the French fleet stays a
    // fleet.
    let pos = board(
        &v,
        "England = [\"A Lon\"]\nFrance = [\"F ENG\"]\nGermany = [\"A Pic\"]",
    );
    let (_, next) = step(
        &v,
        &pos,
        &["England: A(Lon)-Pic", "France: F(ENG) C A(Lon)-Pic"],
    );
    assert_eq!(
        units(&v, &next),
        ["England A Lon", "France F ENG", "Germany A Pic"]
    );
    // Landed, it is English in Picardy.
    let pos = board(&v, "England = [\"A Lon\"]\nFrance = [\"F ENG\"]");
    let (_, next) = step(
        &v,
        &pos,
        &["England: A(Lon)-Pic", "France: F(ENG) C A(Lon)-Pic"],
    );
    assert_eq!(units(&v, &next), ["England A Pic", "France F ENG"]);
}

#[test]
fn rule_3_a_failed_landing_or_a_bounced_af_makes_no_standoff_where_nobody_bounced() {
    let v = variant();
    // The landing in Picardy fails on the French army, so the fleet does
    // not sail to MAO: nobody met anybody in MAO.
    let pos = board(&v, "England = [\"A/F ENG\"]\nFrance = [\"A Pic\"]");
    let (r, next) = step(
        &v,
        &pos,
        &[
            "England: A/F(ENG)-MAO",
            "England: A/F(ENG) disembarks A(Pic)",
        ],
    );
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert!(r.contested.is_empty(), "{:?}", r.contested);
    assert!(has(&v, &next, "England A/F ENG"));
    // The A/F bounces with a French fleet in MAO (a real standoff); its
    // army, which would have landed in Portugal from there, met nobody in
    // Portugal.
    let pos = board(&v, "England = [\"A/F ENG\"]\nFrance = [\"F Bre\"]");
    let (r, _) = step(
        &v,
        &pos,
        &[
            "England: A/F(ENG)-MAO",
            "England: A/F(ENG) disembarks A(Por)",
            "France: F(Bre)-MAO",
        ],
    );
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.contested, vec![prov(&v, "MAO")]);
}

#[test]
fn rule_5_armies_frozen_in_lapland_or_archangel_cannot_board() {
    let v = variant();
    for (phase, army, fleet) in [
        ("January 1915 movement", "Lap", "NWG"),
        ("March 1915 movement", "Arc", "BAR"),
    ] {
        let pos = Position::from_toml(
            &v,
            &format!("phase = \"{phase}\"\n[units]\nRussia = [\"A {army}\", \"F {fleet}\"]\n"),
        )
        .expect("position");
        let order = format!("Russia: A({army}) boards F({fleet})");
        let (r, next) = step(&v, &pos, &[order.as_str()]);
        let PhaseResult::Movement(r) = r else {
            panic!()
        };
        assert_eq!(r.orders, vec![Some(Illegal::Frozen)], "{phase}");
        assert!(
            has(&v, &next, &format!("Russia A {army}")),
            "{phase}: {:?}",
            units(&v, &next)
        );
    }
    // In May the ice is gone: Lapland's army boards.
    let pos = Position::from_toml(
        &v,
        "phase = \"May 1915 movement\"\n[units]\nRussia = [\"A Lap\", \"F NWG\"]\n",
    )
    .expect("position");
    let (_, next) = step(&v, &pos, &["Russia: A(Lap) boards F(NWG)"]);
    assert!(has(&v, &next, "Russia A/F NWG"), "{:?}", units(&v, &next));
}

#[test]
fn rule_3_a_ferried_army_that_bounces_at_its_landing_is_aboard_not_dislodged_at_home() {
    let v = variant();
    let pos = board(
        &v,
        "England = [\"A Lon\", \"F ENG\"]\nFrance = [\"A Pic\"]\nGermany = [\"F ANG\", \"A Yor\"]",
    );
    let (_, next) = step(
        &v,
        &pos,
        &[
            "England: A(Lon)-Pic",
            "England: F(ENG) C A(Lon)-Pic",
            "Germany: F(ANG)-Lon",
            "Germany: A(Yor) S F(ANG)-Lon",
        ],
    );
    assert!(next.dislodged.is_empty(), "{:?}", next.dislodged);
    assert_eq!(
        units(&v, &next),
        [
            "England A/F ENG",
            "France A Pic",
            "Germany A Yor",
            "Germany F Lon"
        ]
    );
}

#[test]
fn rule_3_one_army_boards_one_fleet_the_later_order_stands() {
    let v = variant();
    let pos = board(&v, "England = [\"A Lon\", \"F ENG\", \"F ANG\"]");
    let (r, next) = step(
        &v,
        &pos,
        &[
            "England: A(Lon) boards F(ENG)",
            "England: A(Lon) boards F(ANG)",
        ],
    );
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![Some(Illegal::Replaced), None]);
    assert_eq!(units(&v, &next), ["England A/F ANG", "England F ENG"]);
}

#[test]
fn rule_4_an_army_between_places_no_sea_joins_is_told_not_adjacent() {
    let v = variant();
    let pos = board(&v, "France = [\"A Lor\"]");
    let (r, _) = step(&v, &pos, &["France: A(Lor)-Swa"]);
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![Some(Illegal::NotAdjacent)]);
}
