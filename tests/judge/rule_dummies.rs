//! Dummy powers nobody plays (`src/rules/dummies.rs`, DPjudge's `DUMMY`
//! with `CD_DUMMIES` and `CD_BUILDS`) and games without draws
//! (`src/rules/no_draw.rs`, DPjudge's `NO_DRAW`), on the board and by
//! mail: the standard game with Italy a dummy (tests/data/maps/dummies.toml).

use crate::support_judge;
use crate::support_play;
use support_judge::World;
use zinejudge::adjudicate::AdjustStatus;
use zinejudge::game::Position;
use zinejudge::game::step::PhaseResult;
use zinejudge::variant::Variant;

/// The standard game with `extra` added to its file.
fn standard_with(extra: &str) -> Result<Variant, zinejudge::variant::LoadError> {
    let standard = std::fs::read_to_string(format!(
        "{}/games/standard.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("standard.toml");
    Variant::from_toml(&format!("{standard}\n{extra}"))
}

fn standard_lines() -> usize {
    std::fs::read_to_string(format!(
        "{}/games/standard.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("standard.toml")
    .lines()
    .count()
}

const ITALY_MADE: &str = "[dummies]\npowers = [\"Italy\"]\nbuilds = \"made\"\n";
const ITALY_WAIVED: &str = "[dummies]\npowers = [\"Italy\"]\n";

/// Winter 1901 with Italy's army gone from Venice: Italy owns its three
/// home centres with two units, so it is owed a build.
fn italy_owed_a_build(v: &Variant) -> Position {
    let mut pos = Position::initial(v);
    pos.phase = v.calendar.parse("Winter 1901 adjustment").expect("a phase");
    let ven = support_play::prov(v, "Ven");
    pos.units.retain(|u| v.map.province_of(u.region) != ven);
    pos
}

fn adjustment(v: &Variant, pos: &Position, lines: &[&str]) -> Vec<AdjustStatus> {
    let (result, _) = support_play::step(v, pos, lines);
    let PhaseResult::Adjustment(r) = result else {
        panic!("an adjustment result");
    };
    r.orders
}

#[test]
fn a_dummy_power_s_units_hold_whatever_is_written_for_them() {
    let v = standard_with(ITALY_MADE).expect("loads");
    let spring = Position::initial(&v);
    let (_, fall) = support_play::movement(&v, &spring, &["Italy: A Ven-Pie", "France: A Par-Bur"]);
    assert_eq!(support_play::units_in(&v, &fall, "Ven").len(), 1);
    assert!(support_play::units_in(&v, &fall, "Pie").is_empty());
    assert_eq!(support_play::units_in(&v, &fall, "Bur").len(), 1);
}

#[test]
fn orders_for_a_dummy_are_refused_saying_nobody_plays_it() {
    use zinejudge::orders::parse::OrderParser;
    use zinejudge::variant::PhaseKind;
    let v = standard_with(ITALY_MADE).expect("loads");
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let c = parser
        .parse("A Ven-Pie", Some(PhaseKind::Movement))
        .expect("an order")
        .command;
    let italy = support_play::power(&v, "Italy");
    let refused = zinejudge::game::check::refusals(&v, &Position::initial(&v), &[(italy, c)]);
    let why = refused[0].as_deref().expect("refused");
    assert!(
        why.contains("dummy") && why.contains("nobody plays it"),
        "{why}"
    );
}

#[test]
fn cd_builds_the_judge_builds_what_a_dummy_is_owed() {
    let v = standard_with(ITALY_MADE).expect("loads");
    let pos = italy_owed_a_build(&v);
    // A build written for Italy is not heard; the judge makes its own.
    let got = adjustment(&v, &pos, &["Italy: Build F Ven"]);
    let italy = support_play::power(&v, "Italy");
    let built: Vec<_> = got
        .iter()
        .filter_map(|s| match s {
            AdjustStatus::Built(u) if u.power == italy => Some(*u),
            _ => None,
        })
        .collect();
    assert_eq!(built.len(), 1, "{got:?}");
    assert_eq!(
        v.map.province_of(built[0].region),
        support_play::prov(&v, "Ven")
    );
    assert_eq!(built[0].kind, zinejudge::map::UnitKind::Army, "{got:?}");
}

#[test]
fn without_cd_builds_a_dummy_s_builds_are_waived() {
    let v = standard_with(ITALY_WAIVED).expect("loads");
    let pos = italy_owed_a_build(&v);
    let (_, after) = support_play::step(&v, &pos, &[]);
    assert!(support_play::units_in(&v, &after, "Ven").is_empty());
    let italy = support_play::power(&v, "Italy");
    assert_eq!(after.units.iter().filter(|u| u.power == italy).count(), 2);
}

#[test]
fn the_judge_removes_what_a_dummy_owes() {
    let v = standard_with(ITALY_MADE).expect("loads");
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("Winter 1901 adjustment").expect("a phase");
    let austria = support_play::power(&v, "Austria");
    pos.owners[support_play::prov(&v, "Rom").index()] = Some(austria);
    let (_, after) = support_play::step(&v, &pos, &[]);
    let italy = support_play::power(&v, "Italy");
    assert_eq!(after.units.iter().filter(|u| u.power == italy).count(), 2);
}

#[test]
fn a_dummies_table_with_a_bad_builds_word_or_power_is_refused_at_its_line() {
    let e = standard_with("[dummies]\npowers = [\"Italy\"]\nbuilds = \"random\"\n")
        .expect_err("a bad word");
    assert!(
        e.problems
            .iter()
            .any(|p| p.line == standard_lines() + 4 && p.message.contains("random")),
        "{:?}",
        e.problems
    );
    let e = standard_with("[dummies]\npowers = [\"Atlantis\"]\n").expect_err("unknown");
    assert!(
        e.problems.iter().any(|p| p.message.contains("Atlantis")),
        "{:?}",
        e.problems
    );
    let all = "[dummies]\npowers = [\"England\", \"France\", \"Germany\", \"Italy\", \
               \"Austria\", \"Russia\", \"Turkey\"]\n";
    let e = standard_with(all).expect_err("nobody could play");
    assert!(
        e.problems
            .iter()
            .any(|p| p.message.contains("nobody could play")),
        "{:?}",
        e.problems
    );
}

/// The six players of the dummies game, by power.
const PLAYED: [&str; 6] = [
    "England", "France", "Germany", "Austria", "Russia", "Turkey",
];

fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_lowercase())
}

/// CREATE, and every played power joined: the game starts.
fn started() -> World {
    let mut w = World::with_variant("maps/dummies.toml");
    let r = w.reply("gm@example.test", "CREATE d dummies gm-secret");
    assert!(
        r.contains("Dummy powers, played by nobody") && r.contains("Italy"),
        "{r}"
    );
    for p in PLAYED {
        w.reply(&addr(p), &format!("JOIN d pw-secret {p}"));
    }
    w
}

/// A player meets a dummy power: not offered at JOIN, not waited for,
/// marked in WHO and in the results' chart.
#[test]
fn by_mail_a_dummy_is_never_offered_and_never_waited_for() {
    let mut w = World::with_variant("maps/dummies.toml");
    w.reply("gm@example.test", "CREATE d dummies gm-secret");
    // Asking for Italy, one is told it is a dummy and given the next wish.
    let r = w.reply(&addr("France"), "JOIN d pw-secret Italy France");
    assert!(
        r.contains("Italy are a dummy power: nobody plays them"),
        "{r}"
    );
    // Six players fill the game: it starts without Italy's seat.
    for p in ["England", "Germany", "Austria", "Russia"] {
        w.reply(&addr(p), &format!("JOIN d pw-secret {p}"));
    }
    let sent = w.mail(&addr("Turkey"), "JOIN d pw-secret Turkey");
    let gm_start = sent
        .iter()
        .find(|m| m.to_has("gm@example.test") && m.body.contains("has started"))
        .unwrap_or_else(|| panic!("no start notice; sent: {sent:#?}"));
    assert!(
        gm_start.body.contains("dummy (nobody plays it)"),
        "{}",
        gm_start.body
    );
    let who = w.reply("gm@example.test", "WHO d");
    assert!(who.contains("(dummy: nobody plays it)"), "{who}");
    // Every player ready with orders: the spring is played at once.
    let mut last = Vec::new();
    for p in PLAYED {
        last = w.mail(&addr(p), &format!("SIGNON {p} d pw-secret\nREADY"));
    }
    let results = last
        .iter()
        .find(|m| m.subject == "d: Spring 1901 results")
        .unwrap_or_else(|| panic!("not played; sent: {last:#?}"));
    assert!(results.body.contains("Italy (dummy)"), "{}", results.body);
}

/// Under `[no-draw]` DRAW is refused with the rule's reason.
#[test]
fn by_mail_no_draw_draw_is_refused_with_its_reason() {
    let mut w = started();
    let r = w.reply(&addr("France"), "SIGNON France d pw-secret\nDRAW");
    assert!(
        r.contains("this variant has no draws") && r.contains("solo victory"),
        "{r}"
    );
}

/// Without `[no-draw]`, a dummy has no vote: the six players' draw ends
/// the game.
#[test]
fn a_draw_needs_only_the_played_powers_votes() {
    let standard = std::fs::read_to_string(format!(
        "{}/tests/data/maps/dummies.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture");
    let text = standard.replace("\n[no-draw]\n", "\n");
    let path = std::env::temp_dir().join(format!("dummies-draw-{}.toml", std::process::id()));
    std::fs::write(&path, text).expect("write");
    let mut w = World::with_variant_file(&path);
    let _ = std::fs::remove_file(&path);
    w.reply("gm@example.test", "CREATE d dummies gm-secret");
    for p in PLAYED {
        w.reply(&addr(p), &format!("JOIN d pw-secret {p}"));
    }
    let mut last = String::new();
    for p in PLAYED {
        last = w.reply(&addr(p), &format!("SIGNON {p} d pw-secret\nDRAW"));
    }
    assert!(!last.contains("no draws"), "{last}");
    let row = zinejudge::store::games::load(w.processor.store.conn(), "d")
        .expect("store")
        .expect("game");
    let result = row.result.unwrap_or_default();
    assert!(
        result.contains("draw") && !result.contains("Italy"),
        "{result}"
    );
}

/// A dislodged dummy unit is disbanded (nobody orders its retreat), and
/// the retreat phase does not wait for the dummy: the game moves on to
/// the winter as soon as the fall is played.
#[test]
fn by_mail_a_dislodged_dummy_unit_is_disbanded_without_waiting() {
    let mut w = started();
    let orders = |p: &str| match p {
        "France" => "A Mar-Pie",
        "Austria" => "A Vie-Tyr",
        _ => "",
    };
    for p in PLAYED {
        w.mail(
            &addr(p),
            &format!("SIGNON {p} d pw-secret\n{}\nREADY", orders(p)),
        );
    }
    let fall = |p: &str| match p {
        "France" => "A Pie-Ven",
        "Austria" => "A Tyr S A Pie-Ven",
        _ => "",
    };
    let mut sent = Vec::new();
    for p in PLAYED {
        sent.extend(w.mail(
            &addr(p),
            &format!("SIGNON {p} d pw-secret\n{}\nREADY", fall(p)),
        ));
    }
    let subjects: Vec<&str> = sent
        .iter()
        .filter(|m| m.to_has("gm@example.test"))
        .map(|m| m.subject.as_str())
        .collect();
    let retreats = sent
        .iter()
        .find(|m| m.to_has("gm@example.test") && m.subject.contains("retreat"))
        .unwrap_or_else(|| panic!("the retreats were not played at once: {subjects:?}"));
    assert!(
        retreats.body.contains("Ven") && retreats.body.contains("disband"),
        "{}",
        retreats.body
    );
    let row = zinejudge::store::games::load(w.processor.store.conn(), "d")
        .expect("store")
        .expect("game");
    let v = support_play::file("tests/data/maps/dummies.toml");
    let pos = zinejudge::game::Position::from_toml(&v, &row.position).expect("a position");
    assert_eq!(v.calendar.label(pos.phase), "Winter 1901 adjustment");
    let italy = support_play::power(&v, "Italy");
    assert_eq!(pos.units.iter().filter(|u| u.power == italy).count(), 2);
}
