//! Per-reader results: where a variant hides units (1066 rule 5 style),
//! each reader's copy shows only what they may know; the GM's shows all.

use crate::support_judge;
use support_judge::World;

#[test]
fn hidden_units_are_shown_only_to_their_owner_and_the_gm() {
    let mut w = World::with_variant("maps/fog.toml");
    w.reply("gm@example.test", "CREATE f fog gm-secret");
    w.reply("red@example.test", "JOIN f pw-secret Red");
    w.reply("blue@example.test", "JOIN f pw-secret Blue");
    w.reply("obs@example.test", "OBSERVE f");
    w.reply(
        "red@example.test",
        "SIGNON Red f pw-secret\nF Fog-Mist\nA Rhm H",
    );
    // Both players' orders are complete: the phase goes at once.
    let sent = w.mail("blue@example.test", "SIGNON Blue f pw-secret\nA Bhm-Mid");
    let body = |a: &str| {
        sent.iter()
            .find(|m| m.to_has(a) && m.subject == "f: Spring 1901 results")
            .unwrap_or_else(|| panic!("no results for {a}"))
            .clone()
    };
    let red = body("red@example.test");
    let blue = body("blue@example.test");
    let gm = body("gm@example.test");
    let obs = body("obs@example.test");
    assert!(
        red.body.contains("F(Fog)-Mist"),
        "the owner sees its fleet: {}",
        red.body
    );
    assert!(
        gm.body.contains("F(Fog)-Mist"),
        "the GM sees all: {}",
        gm.body
    );
    for other in [&blue, &obs] {
        assert!(
            !other.body.contains("F(Fog)") && !other.body.contains("Mist"),
            "hidden: {}",
            other.body
        );
        assert!(
            other.body.contains("A(Rhm) H"),
            "units outside the fog are shown: {}",
            other.body
        );
        assert!(other.body.contains("A(Bhm)-Mid"), "{}", other.body);
    }
    // The pictures differ the same way: Blue's has one unit fewer.
    let size = |m: &support_judge::Sent| {
        m.attachments
            .iter()
            .find(|(n, _)| n.ends_with(".svg"))
            .unwrap()
            .1
    };
    assert!(
        size(&blue) < size(&gm),
        "Blue's picture leaves the fleet out"
    );
    // A hidden unit acting outside the fog is seen.
    w.reply("red@example.test", "SIGNON Red f pw-secret\nF Mist-Mid");
    let sent = w.mail("gm@example.test", "SIGNON GM f gm-secret\nPROCESS");
    let blue = sent
        .iter()
        .find(|m| m.to_has("blue@example.test") && m.subject.contains("results"))
        .unwrap();
    assert!(blue.body.contains("F(Mist)-Mid"), "{}", blue.body);
}
