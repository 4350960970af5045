//! Whole games played through the judge by mail, from the first phase to a
//! victory: one power played by a simple conqueror, the others silent
//! (their units hold, their surplus removed in civil disorder). Each shipped
//! variant is played to its end.

mod support_judge;
use support_judge::World;
use support_judge::bot::conquer;
use zinejudge::variant::builtin;

fn play(variant: &str, power: &str, token: &str, max: usize) -> support_judge::bot::Played {
    let v = builtin(variant).expect("shipped").expect("loads");
    let mut w = World::new();
    let played = conquer(&mut w, &v, "whole", power, token, max);
    assert!(
        played.result.is_some(),
        "{variant}: no end after {} phases; last results:\n{}",
        played.phases,
        played.results.last().cloned().unwrap_or_default()
    );
    eprintln!(
        "{variant}: {:?} after {} phases",
        played.result, played.phases
    );
    played
}

#[test]
fn standard_to_a_victory() {
    let p = play("standard", "France", "France", 400);
    let r = p.result.unwrap();
    assert!(r.contains("France"), "{r}");
    let last = p.results.last().unwrap();
    assert!(last.contains("The game is over"), "{last}");
}

#[test]
fn variant_1066_to_a_victory() {
    let p = play("1066", "Harold Godwinson", "Harold", 600);
    let r = p.result.unwrap();
    assert!(r.contains("Harold Godwinson"), "{r}");
}
