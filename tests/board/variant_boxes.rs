//! Off-board boxes, the destroy order and variant build rules, on a small
//! made-up board (tests/data/maps/boxes.toml): the mechanics that 1066's
//! invaders (rules 3, 4, 7) and Ard-Ri's raiders (rule 6) are built from.

use crate::support_play;
use support_play::{movement, orders, prov};

use zinejudge::adjudicate::movement::Outcome;
use zinejudge::adjudicate::{AdjustStatus, Illegal};
use zinejudge::game::Position;
use zinejudge::game::step::{PhaseResult, due, play};
use zinejudge::map::UnitKind;
use zinejudge::variant::{PhaseKind, Variant};

fn variant() -> Variant {
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/maps/boxes.toml"
    ))
    .expect("test board");
    Variant::from_toml(&src).expect("the test board loads")
}

fn units_in(pos: &Position, v: &Variant, name: &str) -> usize {
    let p = prov(v, name);
    pos.units
        .iter()
        .filter(|u| v.map.province_of(u.region) == p)
        .count()
}

#[test]
fn rule_1066_4_orders_naming_the_strait_find_the_invaders_waiting_in_their_box() {
    let v = variant();
    let pos = Position::initial(&v);
    assert_eq!(units_in(&pos, &v, "INV"), 3);
    let (r, next) = movement(&v, &pos, &["Invader: A(Str)-Coa", "Invader: A INV - Hav"]);
    assert!(r.orders.iter().all(Option::is_none), "{:?}", r.orders);
    assert_eq!(units_in(&next, &v, "Coa"), 1);
    assert!(
        next.units
            .iter()
            .any(|u| u.power.0 == 1 && v.map.province_of(u.region) == prov(&v, "Hav")),
        "F Hav held against the army"
    );
    assert_eq!(
        units_in(&next, &v, "INV"),
        2,
        "one landed, one bounced, one waited"
    );
}

#[test]
fn rule_1066_7_units_off_the_board_can_support_nothing() {
    let v = variant();
    let pos = Position::initial(&v);
    let (r, _) = movement(
        &v,
        &pos,
        &["Invader: A INV - Coa", "Invader: A INV S A INV - Coa"],
    );
    assert_eq!(r.orders[1], Some(Illegal::OffBoard));
}

#[test]
fn rule_1066_4_no_unit_may_move_into_a_box() {
    let v = variant();
    let pos = Position::initial(&v);
    let (r, next) = movement(&v, &pos, &["Home: A Hom - Coa", "Home: F Hav - INV"]);
    assert_eq!(r.orders[1], Some(Illegal::NoEntry));
    assert_eq!(units_in(&next, &v, "Hav"), 1);
}

#[test]
fn rule_1066_4_the_destroy_order_works_from_its_move_on_and_only_on_the_waiting_units() {
    let v = variant();
    let pos = Position::initial(&v);
    // Spring 1901: too early.
    let (r, next) = movement(&v, &pos, &["Home: F Hav destroys A Str"]);
    assert_eq!(r.orders[0], Some(Illegal::NotNow));
    assert_eq!(units_in(&next, &v, "INV"), 3);
    // Fall 1901: one army lands, the two still waiting are destroyed.
    let (r, next) = movement(
        &v,
        &next,
        &["Home: F Hav destroys A Str", "Invader: A Str - Coa"],
    );
    assert_eq!(r.orders, vec![None, None]);
    let destroyed = r.units.iter().filter(|u| u.destroyed()).count();
    assert_eq!(destroyed, 2);
    assert!(r.units.iter().any(|u| u.outcome == Outcome::Destroying));
    assert_eq!(units_in(&next, &v, "INV"), 0);
    assert_eq!(units_in(&next, &v, "Coa"), 1, "the landed army is safe");
}

#[test]
fn rule_1066_4_only_a_fleet_next_to_the_strait_may_destroy() {
    let v = variant();
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("Fall 1901 movement").expect("phase");
    let (r, next) = movement(&v, &pos, &["Home: A Hom destroys A Str"]);
    assert_eq!(r.orders[0], Some(Illegal::CannotDestroy));
    assert_eq!(units_in(&next, &v, "INV"), 3);
}

#[test]
fn rule_1066_4_the_invader_builds_in_its_box_and_armies_only_in_its_first_capture() {
    let v = variant();
    let pos = Position::initial(&v);
    let (_, pos) = movement(&v, &pos, &["Invader: A Str - Coa"]);
    let (_, pos) = movement(&v, &pos, &[]);
    assert_eq!(pos.phase.kind, PhaseKind::Adjustment);
    // Invader: one centre (Coa), three units: two removals owed.
    assert_eq!(due(&v, &pos)[0], -2);
    let mut pos = pos;
    // Give the Invader Hav as well, and a unit fewer, to owe a build.
    let hav = prov(&v, "Hav");
    pos.owners[hav.index()] = Some(zinejudge::map::PowerId(0));
    pos.units
        .retain(|u| !(u.power.0 == 0 && v.map.province_of(u.region) == prov(&v, "INV")));
    assert_eq!(due(&v, &pos)[0], 1);
    let o = orders(
        &v,
        PhaseKind::Adjustment,
        &["Invader: Build F Coa", "Invader: Build F Hav"],
    );
    let (PhaseResult::Adjustment(r), _) = play(&v, &pos, &o) else {
        panic!("adjustment")
    };
    assert_eq!(
        r.orders[0],
        AdjustStatus::Illegal(Illegal::KindNotHere(UnitKind::Fleet))
    );
    // The invader has no home centres: told of its first captures instead.
    assert_eq!(
        r.orders[1],
        AdjustStatus::Illegal(Illegal::NotAFirstCapture),
        "Hav was not captured by the invader's own units"
    );
    let o = orders(&v, PhaseKind::Adjustment, &["Invader: Build F INV"]);
    let (PhaseResult::Adjustment(r), _) = play(&v, &pos, &o) else {
        panic!("adjustment")
    };
    assert!(matches!(r.orders[0], AdjustStatus::Built(u) if u.kind == UnitKind::Fleet));
}

#[test]
fn rule_1066_3_only_the_named_powers_build_army_fleets() {
    let v = variant();
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("Winter 1901 adjustment").expect("phase");
    pos.units
        .retain(|u| v.map.province_of(u.region) != prov(&v, "Hav"));
    pos.units
        .retain(|u| v.map.province_of(u.region) != prov(&v, "Out"));
    let rhm = prov(&v, "Rhm");
    pos.owners[rhm.index()] = Some(zinejudge::map::PowerId(2));
    let o = orders(
        &v,
        PhaseKind::Adjustment,
        &["Home: Build A/F Hav", "Raider: Build A/F Rhm"],
    );
    let (PhaseResult::Adjustment(r), _) = play(&v, &pos, &o) else {
        panic!("adjustment")
    };
    assert_eq!(
        r.orders[0],
        AdjustStatus::Illegal(Illegal::KindNotHere(UnitKind::ArmyFleet))
    );
    assert!(matches!(r.orders[1], AdjustStatus::Built(u) if u.kind == UnitKind::ArmyFleet));
}

#[test]
fn rule_ardri_6_raiders_leave_in_spring_come_back_in_fall_and_count_a_centre() {
    let v = variant();
    let pos = Position::initial(&v);
    let (r, pos) = movement(&v, &pos, &["Raider: F Out - Raiding"]);
    assert_eq!(r.orders, vec![None]);
    assert_eq!(units_in(&pos, &v, "RAI"), 1);
    let (r, pos) = movement(&v, &pos, &["Raider: F RAI - Out"]);
    assert_eq!(r.orders, vec![None]);
    assert_eq!(units_in(&pos, &v, "Out"), 1);
    // Winter: one centre (Rhm), one unit, and the fleet back from the raid
    // counts one more: a build.
    assert_eq!(pos.phase.kind, PhaseKind::Adjustment);
    assert_eq!(due(&v, &pos)[2], 1);
    let o = orders(&v, PhaseKind::Adjustment, &["Raider: Build F Rhm"]);
    let (PhaseResult::Adjustment(r), pos) = play(&v, &pos, &o) else {
        panic!("adjustment")
    };
    assert!(
        matches!(r.orders[0], AdjustStatus::Built(_)),
        "{:?}",
        r.orders
    );
    assert_eq!(
        pos.state.bonus[zinejudge::map::PowerId(2)],
        0,
        "the bonus is spent with the Winter"
    );
    // Next Winter, without a raid, the two fleets on one centre owe a
    // removal: the bonus counted once only.
    let (_, pos) = movement(&v, &pos, &[]);
    let (_, pos) = movement(&v, &pos, &[]);
    assert_eq!(due(&v, &pos)[2], -1);
}

#[test]
fn rule_ardri_6_a_raid_only_in_spring_and_back_only_in_fall() {
    let v = variant();
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("Fall 1901 movement").expect("phase");
    let (r, pos) = movement(&v, &pos, &["Raider: F Out - Raiding"]);
    assert_eq!(r.orders, vec![Some(Illegal::NotNow)]);
    assert_eq!(units_in(&pos, &v, "Out"), 1);
}

#[test]
fn rule_ardri_6_a_returning_raider_that_bounces_is_lost() {
    let v = variant();
    let pos = Position::initial(&v);
    let (_, pos) = movement(&v, &pos, &["Raider: F Out - Raiding", "Home: F Hav - Str"]);
    let (r, pos) = movement(&v, &pos, &["Raider: F RAI - Out", "Home: F Str - Out"]);
    assert!(r.units.iter().any(|u| u.destroyed()), "{:?}", r.units);
    assert_eq!(units_in(&pos, &v, "RAI"), 0);
    assert!(
        pos.units.iter().all(|u| u.power.0 != 2),
        "the raider is gone"
    );
}

#[test]
fn the_box_state_survives_a_save_and_load() {
    let v = variant();
    let pos = Position::initial(&v);
    let (_, pos) = movement(&v, &pos, &["Raider: F Out - Raiding"]);
    let mut pos = pos;
    pos.state.bonus[zinejudge::map::PowerId(2)] = 1;
    pos.state.captures[zinejudge::map::PowerId(0)].push(prov(&v, "Coa"));
    let text = pos.to_toml(&v);
    let mut back = Position::from_toml(&v, &text).expect("reloads");
    let key = |u: &zinejudge::map::Unit| (u.power, u.region);
    back.units.sort_by_key(key);
    pos.units.sort_by_key(key);
    assert_eq!(back, pos, "{text}");
}

#[test]
fn a_box_without_supported_out_gives_no_support_onto_the_board() {
    // Support onto the board is the box's `supported-out`: this test
    // board's raiding box does not say it (Ard-Ri's does, rules 1 and 6c;
    // tests/judge/variant_ardri_rules.rs plays that).
    let v = variant();
    let pos = Position::initial(&v);
    let (_, pos) = movement(&v, &pos, &["Raider: F Out - Raiding", "Home: F Hav - Str"]);
    let (r, _) = movement(
        &v,
        &pos,
        &["Raider: F RAI - Out", "Home: F Str S F RAI - Out"],
    );
    assert_eq!(r.orders, vec![None, Some(Illegal::NoSuchUnit)]);
}
