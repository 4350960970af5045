//! Marked borders (`src/map/crossing.rs`, `src/adjudicate/movement/marks.rs`):
//! DPjudge's `~` (straits, Loeb9) and `*` (the 1900 variant's Cape of Good
//! Hope), written `strait` and `half-strength` in a province of a variant
//! file. Each test is one sentence of DPjudge's definition (its map file
//! syntax page, "Special Restrictions"), played on the standard board
//! with one border marked both ways: North Africa–Tunis a strait, or
//! North Africa–Mid-Atlantic a half-strength border.

mod support_play;

use support_play::{movement, power, prov, step};
use zinejudge::adjudicate::{Illegal, Outcome, RetreatStatus};
use zinejudge::game::Position;
use zinejudge::game::step::PhaseResult;
use zinejudge::map::{Crossing, Unit, UnitKind};
use zinejudge::variant::Variant;

/// The standard game with `key = [to]` added to province `from` and
/// `key = [from]` to `to`: the border between them marked both ways.
fn marked(key: &str, from: &str, to: &str) -> Variant {
    let mut text = std::fs::read_to_string(format!(
        "{}/games/standard.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("standard.toml");
    for (a, b) in [(from, to), (to, from)] {
        let at = format!("id = \"{a}\"\n");
        text = text.replacen(&at, &format!("{at}{key} = [\"{b}\"]\n"), 1);
    }
    Variant::from_toml(&text).unwrap_or_else(|e| panic!("{e:?}"))
}

/// North Africa–Tunis a strait.
fn straits() -> Variant {
    marked("strait", "Naf", "Tun")
}

/// North Africa–Mid-Atlantic a half-strength border.
fn cape() -> Variant {
    marked("half-strength", "Naf", "MAO")
}

/// A spring 1901 board with only these units: `(power, "A Naf")`.
fn board(v: &Variant, units: &[(&str, &str)]) -> Position {
    let mut pos = Position::initial(v);
    pos.units = units.iter().map(|(p, u)| unit(v, p, u)).collect();
    pos
}

fn unit(v: &Variant, pw: &str, text: &str) -> Unit {
    let (k, at) = text.split_once(' ').expect("`A Naf`");
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

/// What became of the unit standing in `at` before the phase.
fn outcome(
    v: &Variant,
    pos: &Position,
    r: &zinejudge::adjudicate::MovementResult,
    at: &str,
) -> (Outcome, bool) {
    let p = prov(v, at);
    let i = pos
        .units
        .iter()
        .position(|u| v.map.province_of(u.region) == p)
        .unwrap_or_else(|| panic!("no unit in {at}"));
    (r.units[i].outcome.clone(), r.units[i].dislodged.is_some())
}

#[test]
fn the_map_says_how_each_way_across_is_crossed() {
    let v = straits();
    let (naf, tun, wes) = (prov(&v, "Naf"), prov(&v, "Tun"), prov(&v, "WES"));
    assert_eq!(v.map.crossing(naf, tun), Crossing::Strait);
    assert_eq!(v.map.crossing(tun, naf), Crossing::Strait);
    assert_eq!(v.map.crossing(naf, wes), Crossing::Full);
    let v = cape();
    let mao = prov(&v, "MAO");
    assert_eq!(v.map.crossing(mao, prov(&v, "Naf")), Crossing::Half);
}

#[test]
fn a_mark_on_a_border_the_province_does_not_have_is_refused_at_its_line() {
    let text = std::fs::read_to_string(format!(
        "{}/games/standard.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("standard.toml");
    let text = text.replacen("id = \"Naf\"\n", "id = \"Naf\"\nstrait = [\"Mos\"]\n", 1);
    let e = Variant::from_toml(&text).expect_err("no border there");
    assert!(
        e.problems.iter().any(|p| p.message.contains("`Mos`")),
        "{:?}",
        e.problems
    );
}

// ---- `~`: "Support cannot be offered across the adjacency."

#[test]
fn strait_support_cannot_be_offered_across_the_adjacency() {
    let v = straits();
    let pos = board(
        &v,
        &[("France", "F Naf"), ("France", "F WES"), ("Italy", "A Tun")],
    );
    let (r, _) = movement(
        &v,
        &pos,
        &["France: F Naf S F WES - Tun", "France: F WES - Tun"],
    );
    assert_eq!(r.orders[0], Some(Illegal::NoSupportAcross));
    let (r, _) = movement(&v, &pos, &["Italy: A Tun S F Naf"]);
    assert_eq!(r.orders[0], Some(Illegal::NoSupportAcross));
    // Elsewhere North Africa supports as ever.
    let (r, _) = movement(&v, &pos, &["France: F Naf S F WES"]);
    assert_eq!(r.orders[0], None);
}

// ---- `~`: "Movement across the adjacency has no strength (except that
// given by any supporting units). This means that even if the move is
// made with one valid support, a unit HOLDing at the destination will not
// be dislodged."

#[test]
fn strait_a_move_with_one_support_does_not_dislodge_a_unit_holding() {
    let v = straits();
    let pos = board(
        &v,
        &[
            ("France", "A Naf"),
            ("France", "F WES"),
            ("France", "F TYS"),
            ("Italy", "A Tun"),
        ],
    );
    let (r, _) = movement(
        &v,
        &pos,
        &["France: A Naf - Tun", "France: F WES S A Naf - Tun"],
    );
    assert!(matches!(
        outcome(&v, &pos, &r, "Naf").0,
        Outcome::Bounced { .. }
    ));
    assert!(!outcome(&v, &pos, &r, "Tun").1, "Tunis is not dislodged");
    // Two supports are strength two: Tunis is dislodged.
    let (r, _) = movement(
        &v,
        &pos,
        &[
            "France: A Naf - Tun",
            "France: F WES S A Naf - Tun",
            "France: F TYS S A Naf - Tun",
        ],
    );
    assert_eq!(outcome(&v, &pos, &r, "Naf").0, Outcome::Moved);
    assert!(outcome(&v, &pos, &r, "Tun").1, "Tunis is dislodged");
}

#[test]
fn strait_a_move_has_no_strength_of_its_own_against_another_move() {
    let v = straits();
    let pos = board(&v, &[("France", "A Naf"), ("Italy", "F ION")]);
    // Both unsupported into empty Tunis: the fleet's strength one beats
    // the army's none across the strait.
    let (r, _) = movement(&v, &pos, &["France: A Naf - Tun", "Italy: F ION - Tun"]);
    assert!(matches!(
        outcome(&v, &pos, &r, "Naf").0,
        Outcome::Bounced { .. }
    ));
    assert_eq!(outcome(&v, &pos, &r, "ION").0, Outcome::Moved);
    // Alone, the army crosses: the strait is passable (Loeb9: "passage
    // ... is allowed by armies").
    let (r, next) = movement(&v, &pos, &["France: A Naf - Tun"]);
    assert_eq!(outcome(&v, &pos, &r, "Naf").0, Outcome::Moved);
    assert_eq!(support_play::units_in(&v, &next, "Tun").len(), 1);
}

// ---- `~`: "This also means that an unsupported move across the boundary
// will not cut any support being offered by a unit at the destination."

#[test]
fn strait_an_unsupported_move_across_does_not_cut_support() {
    let v = straits();
    let pos = board(
        &v,
        &[
            ("Italy", "F Tun"),
            ("Italy", "F ION"),
            ("Turkey", "F AEG"),
            ("Turkey", "F EAS"),
            ("France", "A Naf"),
            ("France", "F WES"),
        ],
    );
    let attack = [
        "Italy: F Tun S F ION",
        "Turkey: F AEG - ION",
        "Turkey: F EAS S F AEG - ION",
        "France: A Naf - Tun",
    ];
    let (r, _) = movement(&v, &pos, &attack);
    assert_eq!(outcome(&v, &pos, &r, "Tun").0, Outcome::Supported);
    assert!(!outcome(&v, &pos, &r, "ION").1, "the Ionian holds");
    // Supported, the same move cuts it, and the Ionian falls.
    let mut supported = attack.to_vec();
    supported.push("France: F WES S A Naf - Tun");
    let (r, _) = movement(&v, &pos, &supported);
    assert!(matches!(outcome(&v, &pos, &r, "Tun").0, Outcome::Cut(_)));
    assert!(outcome(&v, &pos, &r, "ION").1, "the Ionian is dislodged");
}

// ---- `*`: "Movement across the adjacency (to the listed space) is done
// at half-strength."

#[test]
fn half_strength_a_move_across_loses_to_a_whole_one_and_wins_with_one_support() {
    let v = cape();
    let pos = board(
        &v,
        &[
            ("England", "F MAO"),
            ("Italy", "F WES"),
            ("France", "A Naf"),
        ],
    );
    // Into North Africa as France leaves: a half beats nothing, one beats
    // a half.
    let (r, _) = movement(
        &v,
        &pos,
        &[
            "England: F MAO - Naf",
            "Italy: F WES - Naf",
            "France: A Naf - Tun",
        ],
    );
    assert_eq!(outcome(&v, &pos, &r, "WES").0, Outcome::Moved);
    assert!(matches!(
        outcome(&v, &pos, &r, "MAO").0,
        Outcome::Bounced { .. }
    ));
    // One and a half dislodges a unit holding with one.
    let pos = board(
        &v,
        &[
            ("England", "F MAO"),
            ("England", "A Tun"),
            ("France", "A Naf"),
        ],
    );
    let (r, _) = movement(
        &v,
        &pos,
        &["England: F MAO - Naf", "England: A Tun S F MAO - Naf"],
    );
    assert_eq!(outcome(&v, &pos, &r, "MAO").0, Outcome::Moved);
    assert!(outcome(&v, &pos, &r, "Naf").1);
}

// ---- `*`: "This includes convoyed movement whose final step is the
// crossing of the adjacency."

#[test]
fn half_strength_includes_a_convoy_whose_last_step_crosses() {
    let v = cape();
    let pos = board(
        &v,
        &[("France", "A Spa"), ("France", "F MAO"), ("Italy", "F WES")],
    );
    let (r, _) = movement(
        &v,
        &pos,
        &[
            "France: A Spa - Naf",
            "France: F MAO C A Spa - Naf",
            "Italy: F WES - Naf",
        ],
    );
    assert!(matches!(
        outcome(&v, &pos, &r, "Spa").0,
        Outcome::Bounced { .. }
    ));
    assert_eq!(outcome(&v, &pos, &r, "WES").0, Outcome::Moved);
    // Unmarked, the same two bounce.
    let v = support_play::shipped("standard");
    let pos = board(
        &v,
        &[("France", "A Spa"), ("France", "F MAO"), ("Italy", "F WES")],
    );
    let (r, _) = movement(
        &v,
        &pos,
        &[
            "France: A Spa - Naf",
            "France: F MAO C A Spa - Naf",
            "Italy: F WES - Naf",
        ],
    );
    assert!(matches!(
        outcome(&v, &pos, &r, "WES").0,
        Outcome::Bounced { .. }
    ));
}

// ---- `*`: "Support cannot be offered across the adjacency."

#[test]
fn half_strength_support_cannot_be_offered_across_the_adjacency() {
    let v = cape();
    let pos = board(&v, &[("England", "F MAO"), ("England", "F WES")]);
    let (r, _) = movement(
        &v,
        &pos,
        &["England: F MAO S F WES - Naf", "England: F WES - Naf"],
    );
    assert_eq!(r.orders[0], Some(Illegal::NoSupportAcross));
    assert_eq!(
        Illegal::NoSupportAcross.to_string(),
        "no support may be given across that border"
    );
}

// ---- `*`: "Movement across the adjacency does not cut any support being
// offered by a unit at the destination (unless the move dislodges the
// supporting unit, of course)."

#[test]
fn half_strength_a_move_across_cuts_support_only_by_dislodging() {
    let v = cape();
    let pos = board(
        &v,
        &[
            ("Italy", "F Naf"),
            ("Italy", "F WES"),
            ("Turkey", "F LYO"),
            ("Turkey", "F TYS"),
            ("England", "F MAO"),
            ("England", "A Tun"),
        ],
    );
    let attack = [
        "Italy: F Naf S F WES",
        "Turkey: F LYO - WES",
        "Turkey: F TYS S F LYO - WES",
        "England: F MAO - Naf",
    ];
    let (r, _) = movement(&v, &pos, &attack);
    assert_eq!(outcome(&v, &pos, &r, "Naf").0, Outcome::Supported);
    assert!(!outcome(&v, &pos, &r, "WES").1, "the Western Med holds");
    // With Tunis's support the move dislodges North Africa: cut.
    let mut dislodging = attack.to_vec();
    dislodging.push("England: A Tun S F MAO - Naf");
    let (r, _) = movement(&v, &pos, &dislodging);
    assert!(outcome(&v, &pos, &r, "Naf").1, "North Africa is dislodged");
    assert!(outcome(&v, &pos, &r, "WES").1, "so the Western Med falls");
}

// ---- `*`: "Any unit attempting to retreat across the adjacency is
// destroyed if any other retreating unit attempts a retreat to the
// destination space (the other unit succeeds in its retreat attempt)."

/// A retreat phase: the fleet dislodged from MAO and the army from Tunis
/// may both go to North Africa.
fn retreats(v: &Variant) -> Position {
    let mut pos = board(v, &[("Italy", "F WES")]);
    pos.phase = v
        .calendar
        .parse("Spring 1901 retreat")
        .expect("a retreat phase");
    let naf = v.map.province(prov(v, "Naf")).main_region();
    pos.dislodged = vec![
        (unit(v, "England", "F MAO"), vec![naf]),
        (unit(v, "France", "A Tun"), vec![naf]),
    ];
    pos
}

#[test]
fn half_strength_a_retreat_across_gives_way_to_any_other() {
    let v = cape();
    let pos = retreats(&v);
    let (r, next) = step(&v, &pos, &["England: F MAO - Naf", "France: A Tun - Naf"]);
    let PhaseResult::Retreat(r) = r else {
        panic!("a retreat result")
    };
    assert_eq!(
        r.dislodged[0],
        RetreatStatus::Bounced,
        "the fleet is destroyed"
    );
    assert!(matches!(r.dislodged[1], RetreatStatus::Retreated(_)));
    let there = support_play::units_in(&v, &next, "Naf");
    assert_eq!(there.len(), 1);
    assert_eq!(there[0].kind, UnitKind::Army);
    // On the standard board both are destroyed.
    let v = support_play::shipped("standard");
    let pos = retreats(&v);
    let (r, _) = step(&v, &pos, &["England: F MAO - Naf", "France: A Tun - Naf"]);
    let PhaseResult::Retreat(r) = r else {
        panic!("a retreat result")
    };
    assert_eq!(r.dislodged, vec![RetreatStatus::Bounced; 2]);
}

#[test]
fn strait_a_retreat_across_gives_way_too() {
    let v = straits();
    let mut pos = retreats(&v);
    // The army in Tunis crosses the strait; the fleet from the Western Med
    // (in place of the Mid-Atlantic's) does not.
    let naf = v.map.province(prov(&v, "Naf")).main_region();
    pos.units.clear();
    pos.dislodged[0] = (unit(&v, "England", "F WES"), vec![naf]);
    let (r, _) = step(&v, &pos, &["England: F WES - Naf", "France: A Tun - Naf"]);
    let PhaseResult::Retreat(r) = r else {
        panic!("a retreat result")
    };
    assert!(matches!(r.dislodged[0], RetreatStatus::Retreated(_)));
    assert_eq!(r.dislodged[1], RetreatStatus::Bounced);
}
