//! DPjudge's face-to-face press imported (issue #39): `RULE FTF_PRESS`
//! becomes `[press] face-to-face = true` (src/rules/press.rs), and Sail
//! Ho! (tests/data/dpjudge/sailho.map), which carries it, imports and is
//! played by mail: press goes where it is written in a movement phase,
//! only to the GM outside one, and no private press once the deadline has
//! passed with orders missing.

use crate::support_judge;
use crate::support_play;
use std::path::Path;
use support_judge::{Sent, World};
use zinejudge::testing::import::dpjudge::{ImportError, import};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dpjudge");
const HOUR: u64 = 3600;
const GM: &str = "gm@example.test";
const POWERS: [&str; 4] = ["North", "South", "East", "West"];

/// Import a map given as `(file name, text)` pairs, the first the map.
fn import_texts(
    files: &[(&str, &str)],
) -> Result<zinejudge::testing::import::dpjudge::Imported, ImportError> {
    let mut fetch = |n: &str| {
        files
            .iter()
            .find(|(f, _)| *f == n)
            .map(|(_, t)| (*t).to_string())
            .ok_or_else(|| format!("no file {n}"))
    };
    import(files[0].0, &mut fetch)
}

fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_lowercase())
}

/// A line of press from `power` with `header` (`PRESS TO North`,
/// `BROADCAST`): the reply, and what was mailed to `reader`.
fn press(w: &mut World, power: &str, header: &str, reader: &str) -> (String, Vec<Sent>) {
    let body = format!("SIGNON {power} ho pw-secret\n{header}\nMeet me at the palace.\nENDPRESS");
    let sent = w.mail(&addr(power), &body);
    let reply = sent
        .iter()
        .find(|m| m.to_has(&addr(power)) && m.in_reply_to.is_some())
        .map(|m| m.body.clone())
        .unwrap_or_else(|| panic!("no reply; sent: {sent:#?}"));
    let got = sent
        .into_iter()
        .filter(|m| m.to_has(reader) && m.body.contains("Meet me at the palace."))
        .collect();
    (reply, got)
}

/// Every power's orders for the phase (`East` gives `east`, the others
/// `READY` alone: their units hold); every mail the judge sent meanwhile.
fn play(w: &mut World, east: &str) -> Vec<Sent> {
    let mut all = Vec::new();
    for p in POWERS {
        let orders = if p == "East" { east } else { "" };
        all.extend(w.mail(
            &addr(p),
            &format!("SIGNON {p} ho pw-secret\n{orders}\nREADY"),
        ));
    }
    all
}

#[test]
fn ftf_press_becomes_the_press_table_and_its_feature() {
    let map = "\
Alpha = alp
Beta = bet
LAND ALP ABUTS BET
LAND BET ABUTS ALP
NORTH (NORTHERN) ALP
A ALP
SOUTH (SOUTHERN) BET
A BET
RULE FTF_PRESS
";
    let i = import_texts(&[("x.map", map)]).expect("imports");
    assert!(
        i.toml.contains("[press]\nface-to-face = true\n"),
        "{}",
        i.toml
    );
    assert_eq!(i.variant.features.plugins.names(), vec!["press"]);
    // Turned off again (`!FTF_PRESS`), the game's press is as usual.
    let off = format!("{map}RULE !FTF_PRESS\n");
    let i = import_texts(&[("x.map", &off)]).expect("imports");
    assert!(!i.toml.contains("[press]"), "{}", i.toml);
    assert!(i.variant.features.plugins.names().is_empty());
}

#[test]
fn sailho_imports_and_check_game_accepts_it() {
    let tmp = support_play::import_with_cli(
        &Path::new(DATA).join("sailho.map"),
        &std::env::temp_dir().join(format!("sailho-check-{}.toml", std::process::id())),
        &[],
    );
    support_play::check_game_with_cli(&tmp);
    let text = std::fs::read_to_string(&tmp).unwrap_or_default();
    let _ = std::fs::remove_file(&tmp);
    assert!(text.contains("[press]\nface-to-face = true"), "{text}");
}

/// Sail Ho! imported with the command, loaded, and played by mail under
/// its face-to-face press.
#[test]
fn sailho_by_mail_press_is_face_to_face() {
    let tmp = support_play::import_with_cli(
        &Path::new(DATA).join("sailho.map"),
        &std::env::temp_dir().join(format!("sailho-{}.toml", std::process::id())),
        &[],
    );
    let mut w = World::with_variant_file(&tmp);
    let _ = std::fs::remove_file(&tmp);
    w.reply(GM, "CREATE ho sailho gm-secret");
    for p in POWERS {
        w.reply(&addr(p), &format!("JOIN ho pw-secret {p}"));
    }
    let north = addr("North");

    // Spring movement: press goes where it is written.
    let (r, got) = press(&mut w, "East", "PRESS TO North", &north);
    assert!(r.contains("Press sent to North"), "{r}");
    assert_eq!(got.len(), 1, "North reads it");

    // East's fleet sails for Aphrodite's centre; in the winter East is
    // owed a build, so the game stops in an adjustment phase.
    play(&mut w, "F AMA-SCH");
    let sent = play(&mut w, "F SCH-APH");
    assert!(
        sent.iter().any(|m| m.subject.starts_with("ho: Fall")),
        "{sent:#?}"
    );

    // Winter adjustments: a player writes only to the GM.
    let (r, got) = press(&mut w, "East", "PRESS TO North", &north);
    assert!(
        r.contains("face to face") && r.contains("only to the GM"),
        "{r}"
    );
    assert!(got.is_empty(), "nothing reaches North");
    let (r, got) = press(&mut w, "East", "BROADCAST", &north);
    assert!(r.contains("face to face"), "{r}");
    assert!(got.is_empty(), "nothing reaches North");
    let (r, got) = press(&mut w, "East", "PRESS TO M", GM);
    assert!(r.contains("Press sent to"), "{r}");
    assert_eq!(got.len(), 1, "the GM reads it");
    // The GM writes to anyone at any time.
    let sent = w.mail(
        GM,
        "SIGNON GM ho gm-secret\nPRESS TO North\nMeet me at the palace.\nENDPRESS",
    );
    assert!(
        sent.iter()
            .any(|m| m.to_has(&north) && m.body.contains("Meet me at the palace.")),
        "{sent:#?}"
    );

    // East builds; Spring 1 movement again: press is open.
    let sent = play(&mut w, "BUILD F AMA");
    assert!(
        sent.iter().any(|m| m.subject.starts_with("ho: Winter")),
        "{sent:#?}"
    );
    let (r, got) = press(&mut w, "East", "PRESS TO North", &north);
    assert!(r.contains("Press sent to North"), "{r}");
    assert_eq!(got.len(), 1, "North reads it");

    // The deadline passes with everybody's orders missing: no private
    // press while the game waits, but BROADCAST reaches everybody.
    let late = w.advance(72 * HOUR + 60);
    assert!(
        late.iter().any(|m| m.subject == "ho: your orders are late"),
        "{late:#?}"
    );
    let (r, got) = press(&mut w, "East", "PRESS TO North", &north);
    assert!(
        r.contains("face to face") && r.contains("deadline has passed"),
        "{r}"
    );
    assert!(got.is_empty(), "nothing reaches North");
    let (r, got) = press(&mut w, "East", "BROADCAST", &north);
    assert!(r.contains("Press sent to everybody"), "{r}");
    assert_eq!(got.len(), 1, "North reads it");
}
