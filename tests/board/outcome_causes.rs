//! Outcomes carry their cause: a bounce says with whom, a cut support by
//! which unit, a dislodgement by which (issue 17), as the zine GM writes
//! "bounced with A(Mun)". Standard rules: a standoff leaves every unit
//! where it was; a support is cut by an attack on the supporter.

use zinejudge::adjudicate::{Outcome, adjudicate_movement};
use zinejudge::map::Unit;
use zinejudge::orders::parse::OrderParser;
use zinejudge::orders::{AnyCommand, MainOrder, Order};
use zinejudge::variant::{self, PhaseKind, Variant};

/// Lines `Power: A Xxx-Yyy`: the units they name and the orders.
fn board(v: &Variant, text: &str) -> (Vec<Unit>, Vec<MainOrder>) {
    let parser = OrderParser::new(&v.map);
    let mut units = Vec::new();
    let mut orders = Vec::new();
    for l in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let p = parser
            .parse(l, Some(PhaseKind::Movement))
            .expect("order parses");
        let AnyCommand::Main(unit, command) = p.command else {
            panic!("not a movement order");
        };
        let power = p.power.expect("`Power: order`");
        units.push(Unit {
            power,
            kind: unit.kind.expect("the kind is written"),
            region: v.map.province(unit.at.province).main_region(),
        });
        orders.push(Order {
            power,
            unit,
            command,
        });
    }
    (units, orders)
}

fn with(outcome: &Outcome) -> Vec<usize> {
    match outcome {
        Outcome::Bounced { with } => with.to_vec(),
        o => panic!("expected a bounce, got {o:?}"),
    }
}

#[test]
fn standoff_each_move_bounced_with_the_other() {
    let v = variant::builtin("standard").expect("ships").expect("loads");
    let (units, orders) = board(&v, "Russia: F Sev-BLA\nTurkey: F Ank-BLA");
    let r = adjudicate_movement(&v.map, &v.rules, &units, &orders);
    assert_eq!(with(&r.units[0].outcome), [1]);
    assert_eq!(with(&r.units[1].outcome), [0]);
}

#[test]
fn three_way_standoff_names_both_other_units() {
    let v = variant::builtin("standard").expect("ships").expect("loads");
    let (units, orders) = board(
        &v,
        "Germany: A Mun-Sil\nRussia: A War-Sil\nAustria: A Gal-Sil",
    );
    let r = adjudicate_movement(&v.map, &v.rules, &units, &orders);
    assert_eq!(with(&r.units[0].outcome), [1, 2]);
    assert_eq!(with(&r.units[1].outcome), [0, 2]);
    assert_eq!(with(&r.units[2].outcome), [0, 1]);
}

#[test]
fn a_move_against_a_unit_that_stays_bounces_with_that_unit() {
    // F(Sev) tries to leave and bounces in BLA: A(Arm) bounces with
    // it, and only with it.
    let v = variant::builtin("standard").expect("ships").expect("loads");
    let (units, orders) = board(
        &v,
        "Russia: F Sev-BLA\nTurkey: F Ank-BLA\nTurkey: A Arm-Sev",
    );
    let r = adjudicate_movement(&v.map, &v.rules, &units, &orders);
    assert_eq!(with(&r.units[2].outcome), [0]);
}

#[test]
fn head_to_head_the_loser_bounced_with_the_winner_which_dislodges_it() {
    let v = variant::builtin("standard").expect("ships").expect("loads");
    let (units, orders) = board(
        &v,
        "France: A Bur-Mun\nGermany: A Mun-Bur\nGermany: A Ruh S A Mun-Bur",
    );
    let r = adjudicate_movement(&v.map, &v.rules, &units, &orders);
    assert_eq!(with(&r.units[0].outcome), [1]);
    assert_eq!(r.units[1].outcome, Outcome::Moved);
    assert_eq!(r.units[0].dislodged.as_ref().map(|d| d.by), Some(1));
}

#[test]
fn a_support_cut_says_by_which_unit() {
    let v = variant::builtin("standard").expect("ships").expect("loads");
    let (units, orders) = board(
        &v,
        "Germany: A Ber-Sil\nGermany: A Mun S A Ber-Sil\nFrance: A Bur-Mun",
    );
    let r = adjudicate_movement(&v.map, &v.rules, &units, &orders);
    assert_eq!(r.units[1].outcome, Outcome::Cut(2));
    assert_eq!(with(&r.units[2].outcome), [1]);
}
