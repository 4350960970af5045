//! The worked example of a rule feature as a plug-in (issue #36): dormant
//! powers (`src/rules/dormant.rs`), a feature that is its file and this
//! test alone. The standard game with `[[dormant]]` added: the dormant
//! power's orders are not heard until its phase has passed.

use crate::support_play;
use zinejudge::game::Position;
use zinejudge::variant::Variant;

/// The standard game with Italy dormant through Spring 1901.
fn with_dormant(table: &str) -> Result<Variant, zinejudge::variant::LoadError> {
    let standard = std::fs::read_to_string(format!(
        "{}/games/standard.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("standard.toml");
    Variant::from_toml(&format!("{standard}\n{table}"))
}

const ITALY_SLEEPS: &str = "[[dormant]]\npower = \"Italy\"\nuntil = \"Spring 1901 movement\"\n";

#[test]
fn a_dormant_power_s_units_hold_until_its_phase_has_passed() {
    let v = with_dormant(ITALY_SLEEPS).expect("loads");
    let spring = Position::initial(&v);
    let orders = ["Italy: A Ven-Pie", "France: A Par-Bur"];
    let (_, fall) = support_play::movement(&v, &spring, &orders);
    // Italy sleeps through the spring: Venice holds; France moves.
    assert_eq!(support_play::units_in(&v, &fall, "Ven").len(), 1);
    assert!(support_play::units_in(&v, &fall, "Pie").is_empty());
    assert_eq!(support_play::units_in(&v, &fall, "Bur").len(), 1);
    // In the fall it is awake and the same order is carried out.
    let (_, winter) = support_play::movement(&v, &fall, &["Italy: A Ven-Pie"]);
    assert_eq!(support_play::units_in(&v, &winter, "Pie").len(), 1);
}

#[test]
fn the_standard_game_without_the_table_hears_everyone() {
    let v = support_play::shipped("standard");
    let spring = Position::initial(&v);
    let (_, fall) = support_play::movement(&v, &spring, &["Italy: A Ven-Pie"]);
    assert_eq!(support_play::units_in(&v, &fall, "Pie").len(), 1);
}

#[test]
fn a_dormant_table_naming_no_power_is_refused_at_its_line() {
    let table = "[[dormant]]\npower = \"Atlantis\"\nuntil = \"Spring 1901 movement\"\n";
    let e = with_dormant(table).expect_err("an unknown power");
    let lines = std::fs::read_to_string(format!(
        "{}/games/standard.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("standard.toml")
    .lines()
    .count();
    assert!(
        e.problems
            .iter()
            .any(|p| p.message.contains("Atlantis") && p.line == lines + 3),
        "{e:?}"
    );
}

/// What the player of a dormant power is told when its orders come in:
/// each is refused, saying it is dormant (the feature's own reason); the
/// other powers' orders are checked as ever, and once its phase has
/// passed its orders are taken.
#[test]
fn a_dormant_power_s_orders_are_refused_with_its_reason_until_it_wakes() {
    use zinejudge::orders::parse::OrderParser;
    use zinejudge::variant::PhaseKind;
    let v = with_dormant(ITALY_SLEEPS).expect("loads");
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let order = |power: &str, text: &str| {
        let c = parser
            .parse(text, Some(PhaseKind::Movement))
            .expect("an order")
            .command;
        (support_play::power(&v, power), c)
    };
    let spring = Position::initial(&v);
    let orders = [order("Italy", "A Ven-Pie"), order("France", "A Par-Bur")];
    let refused = zinejudge::game::check::refusals(&v, &spring, &orders);
    let why = refused[0].as_deref().expect("Italy's order refused");
    assert!(why.contains("dormant"), "{why}");
    assert_eq!(refused[1], None, "France's order is taken");
    let (_, fall) = support_play::movement(&v, &spring, &[]);
    let refused = zinejudge::game::check::refusals(&v, &fall, &orders[..1]);
    assert_eq!(refused[0], None, "awake in the fall");
}
