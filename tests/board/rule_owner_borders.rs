//! Borders open only to the owner of some centres (`src/map/owner_borders.rs`,
//! `src/adjudicate/movement/owner_borders.rs`): DPjudge's "Center Ownership
//! Restrictions" (`BLA ABUTS AEG(CON)`, Imperial's Bosporus), written
//! `open-to-owner-of` in a province of a variant file. Each test is a
//! sentence of DPjudge's definition (its map file syntax page: "a unit in
//! the Black Sea is adjacent to the Aegean Sea if and only if the power
//! that owns the unit also owns both Constantinople and Smyrna") or of its
//! judge (`Game.abuts`, asked for moves, supports, the move a support
//! names and retreats), played on the standard board with the border
//! between the Aegean and the Eastern Mediterranean open, both ways, only
//! to the owner of Smyrna (Turkey's, at the start).

use crate::support_play;
use support_play::{movement, power, prov, step};
use zinejudge::adjudicate::{Illegal, Outcome, RetreatStatus};
use zinejudge::game::Position;
use zinejudge::game::step::PhaseResult;
use zinejudge::map::{Unit, UnitKind};
use zinejudge::variant::Variant;

/// The standard game with `AEG`–`EAS` open only to the owner of `centres`.
fn with_centres(centres: &str) -> Variant {
    let mut text = std::fs::read_to_string(format!(
        "{}/games/standard.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("standard.toml");
    for (a, b) in [("AEG", "EAS"), ("EAS", "AEG")] {
        let at = format!("id = \"{a}\"\n");
        let line = format!("{at}open-to-owner-of = {{ {b} = [{centres}] }}\n");
        text = text.replacen(&at, &line, 1);
    }
    Variant::from_toml(&text).unwrap_or_else(|e| panic!("{e:?}"))
}

/// The Aegean–Eastern Mediterranean border open only to Smyrna's owner.
fn smyrna() -> Variant {
    with_centres("\"Smy\"")
}

/// A spring 1901 board with only these units (`(power, "F AEG")`); the
/// centres owned as at the start.
fn board(v: &Variant, units: &[(&str, &str)]) -> Position {
    let mut pos = Position::initial(v);
    pos.units = units.iter().map(|(p, u)| unit(v, p, u)).collect();
    pos
}

fn unit(v: &Variant, pw: &str, text: &str) -> Unit {
    let (k, at) = text.split_once(' ').expect("`F AEG`");
    let kind = if k == "A" {
        UnitKind::Army
    } else {
        UnitKind::Fleet
    };
    let region = v
        .map
        .default_region(prov(v, at), kind)
        .unwrap_or_else(|| panic!("{text}"));
    Unit {
        power: power(v, pw),
        kind,
        region,
    }
}

/// Why the order was refused: the verdict, and the player's words.
fn refused(v: &Variant, verdict: Option<Illegal>) -> String {
    verdict
        .map(|w| w.explain(&v.map))
        .unwrap_or_else(|| "carried out".into())
}

#[test]
fn a_unit_is_adjacent_across_only_if_its_power_owns_the_centre() {
    let v = smyrna();
    let pos = board(&v, &[("Italy", "F AEG"), ("Turkey", "F EAS")]);
    let (r, next) = movement(&v, &pos, &["Italy: F AEG - EAS", "Turkey: F EAS - AEG"]);
    assert_eq!(
        r.orders[0],
        Some(Illegal::OwnersOnly {
            to: prov(&v, "EAS"),
            centre: prov(&v, "Smy"),
        })
    );
    assert_eq!(
        refused(&v, r.orders[0]),
        "the way into Eastern Mediterranean is open only to the owner of Smyrna"
    );
    // Turkey owns Smyrna: its fleet crosses, into the Aegean the Italian
    // fleet holds, and bounces (the border is open to it).
    assert_eq!(r.orders[1], None);
    assert!(matches!(r.units[1].outcome, Outcome::Bounced { .. }));
    assert_eq!(
        support_play::units_in(&v, &next, "AEG")[0].kind,
        UnitKind::Fleet
    );
}

#[test]
fn the_border_opens_to_whoever_owns_the_centre_now() {
    let v = smyrna();
    let mut pos = board(&v, &[("Italy", "F AEG"), ("Turkey", "F EAS")]);
    // Italy has taken Smyrna: the border is Italy's, no longer Turkey's.
    pos.owners[prov(&v, "Smy").index()] = Some(power(&v, "Italy"));
    let (r, next) = movement(&v, &pos, &["Italy: F AEG - ION", "Turkey: F EAS - AEG"]);
    assert_eq!(r.orders[0], None);
    assert!(matches!(r.orders[1], Some(Illegal::OwnersOnly { .. })));
    assert!(support_play::units_in(&v, &next, "AEG").is_empty());
    let (r, _) = movement(&v, &pos, &["Italy: F AEG - EAS", "Turkey: F EAS - Smy"]);
    assert_eq!(r.orders[0], None);
    assert_eq!(r.units[0].outcome, Outcome::Moved);
}

#[test]
fn a_power_must_own_every_centre_listed() {
    let v = with_centres("\"Smy\", \"Con\"");
    let mut pos = board(&v, &[("Italy", "F AEG")]);
    pos.owners[prov(&v, "Smy").index()] = Some(power(&v, "Italy"));
    let (r, _) = movement(&v, &pos, &["Italy: F AEG - EAS"]);
    assert_eq!(
        refused(&v, r.orders[0]),
        "the way into Eastern Mediterranean is open only to the owner of Constantinople"
    );
    pos.owners[prov(&v, "Con").index()] = Some(power(&v, "Italy"));
    let (r, _) = movement(&v, &pos, &["Italy: F AEG - EAS"]);
    assert_eq!(r.units[0].outcome, Outcome::Moved);
}

#[test]
fn a_unit_may_support_across_only_if_its_power_owns_the_centre() {
    let v = smyrna();
    let pos = board(
        &v,
        &[("Italy", "F AEG"), ("Italy", "F ION"), ("Turkey", "F EAS")],
    );
    let (r, _) = movement(
        &v,
        &pos,
        &["Italy: F AEG S F ION - EAS", "Italy: F ION - EAS"],
    );
    assert!(matches!(r.orders[0], Some(Illegal::OwnersOnly { .. })));
    let (r, _) = movement(&v, &pos, &["Turkey: F EAS S F AEG"]);
    assert_eq!(r.orders[0], None, "Turkey owns Smyrna: its support crosses");
}

#[test]
fn a_move_across_may_not_be_supported_for_a_unit_whose_power_may_not_make_it() {
    let v = smyrna();
    let pos = board(
        &v,
        &[("Italy", "F AEG"), ("Italy", "F ION"), ("Turkey", "F EAS")],
    );
    // DPjudge: "SUPPORTED UNIT CANNOT REACH DESTINATION".
    let (r, _) = movement(&v, &pos, &["Italy: F ION S F AEG - EAS"]);
    assert!(matches!(r.orders[0], Some(Illegal::OwnersOnly { .. })));
}

#[test]
fn a_retreat_across_is_open_only_to_the_owner_too() {
    let v = smyrna();
    let pos = board(
        &v,
        &[("Italy", "F AEG"), ("Turkey", "F Con"), ("Turkey", "F Smy")],
    );
    let orders = ["Turkey: F Con - AEG", "Turkey: F Smy S F Con - AEG"];
    let (r, next) = movement(&v, &pos, &orders);
    let retreats = &r.units[0].dislodged.as_ref().expect("dislodged").retreats;
    let eas = prov(&v, "EAS");
    assert!(
        retreats.iter().all(|&g| v.map.province_of(g) != eas),
        "no retreat into the Eastern Mediterranean"
    );
    assert!(!retreats.is_empty(), "the Ionian and Greece stay open");
    let (r, _) = step(&v, &next, &["Italy: F AEG - EAS"]);
    let PhaseResult::Retreat(r) = r else {
        panic!("a retreat result")
    };
    assert_eq!(r.orders[0], Some(Illegal::NoRetreatThere));
    assert_eq!(r.dislodged[0], RetreatStatus::NoOrder);
    // On the standard board the way is open.
    let v = support_play::shipped("standard");
    let pos = board(
        &v,
        &[("Italy", "F AEG"), ("Turkey", "F Con"), ("Turkey", "F Smy")],
    );
    let (r, _) = movement(&v, &pos, &orders);
    let retreats = &r.units[0].dislodged.as_ref().expect("dislodged").retreats;
    assert!(retreats.iter().any(|&g| v.map.province_of(g) == eas));
}

#[test]
fn a_centre_that_is_no_supply_centre_is_refused_at_its_line() {
    let text = std::fs::read_to_string(format!(
        "{}/games/standard.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("standard.toml");
    let text = text.replacen(
        "id = \"AEG\"\n",
        "id = \"AEG\"\nopen-to-owner-of = { EAS = [\"Syr\"] }\n",
        1,
    );
    let e = Variant::from_toml(&text).expect_err("Syria is no centre");
    assert!(
        e.problems
            .iter()
            .any(|p| p.message.contains("`Syr` is not a supply centre")),
        "{:?}",
        e.problems
    );
}
