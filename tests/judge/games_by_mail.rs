//! Whole games played through the judge by mail, from the first phase to a
//! victory: one power played by a simple conqueror, the others silent
//! (their units hold, their surplus removed in civil disorder). Each shipped
//! variant is played to its end.

use crate::support_judge;
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

#[test]
fn abstraction2_from_july_1914_to_its_end() {
    let p = play("abstraction2", "Germany", "Germany", 400);
    let r = p.result.unwrap();
    // Either 23 centres, or the most units after December 1918.
    assert!(
        r.contains("won by Germany with") || r.contains("units on the board"),
        "{r}"
    );
}

/// Abstraction II played by mail through the whole calendar, July 1914 to
/// the December 1918 adjustments, Germany and Russia wandering at random
/// (seeded), the others holding: nobody reaches 23, and the power with
/// most units on the board wins.
#[test]
fn abstraction2_through_1918_most_units_wins() {
    use support_judge::bot::wander;
    use zinejudge::game::Position;
    let v = builtin("abstraction2").expect("shipped").expect("loads");
    let mut w = World::new();
    let gm = "gm@example.test";
    w.reply(gm, "CREATE long abstraction2 gm-secret");
    let powers: Vec<String> = v.map.powers().iter().map(|p| p.name.clone()).collect();
    for p in &powers {
        let r = w.reply(
            &format!("{p}@example.test"),
            &format!("JOIN long pw-secret {p}\nSET WAIT"),
        );
        assert!(r.contains(&format!("asking for {p}")), "{r}");
    }
    let mut seed = 0x5eed_1914_u64;
    let mut phases = 0;
    let end = loop {
        let row = zinejudge::testing::store::games::load(w.processor.store.conn(), "long")
            .expect("store")
            .expect("game");
        if let Some(r) = row.result {
            break r;
        }
        assert!(phases < 300, "no end after {phases} phases");
        let pos = Position::from_toml(&v, &row.position).expect("position");
        for (i, p) in powers.iter().enumerate() {
            if p != "Germany" && p != "Russia" {
                continue;
            }
            let me = zinejudge::map::PowerId(i as u8);
            let lines = wander(&v, &pos, me, &mut seed);
            if !lines.is_empty() {
                w.reply(
                    &format!("{p}@example.test"),
                    &format!("SIGNON {p} long pw-secret\n{}", lines.join("\n")),
                );
            }
        }
        w.mail(gm, "SIGNON GM long gm-secret\nPROCESS");
        phases += 1;
        // Two minutes a phase: within every deadline and every rate limit.
        w.advance(120);
    };
    let row = zinejudge::testing::store::games::load(w.processor.store.conn(), "long")
        .expect("store")
        .expect("game");
    let pos = Position::from_toml(&v, &row.position).expect("position");
    // The winner is whoever has most units on the board at the end.
    let mut count = vec![0usize; powers.len()];
    for u in &pos.units {
        count[u.power.index()] += 1;
    }
    let most = *count.iter().max().expect("powers");
    let leaders: Vec<&str> = powers
        .iter()
        .enumerate()
        .filter(|(i, _)| count[*i] == most)
        .map(|(_, p)| p.as_str())
        .collect();
    assert!(end.contains("units on the board"), "{end}");
    for l in &leaders {
        assert!(end.contains(l), "{end} (leaders {leaders:?})");
    }
    eprintln!("abstraction2 by mail: {end} after {phases} phases");
}
