//! DPjudge's dummy powers imported (issue #39): `DUMMY` with `CD_DUMMIES`
//! becomes `[dummies]`, `CD_BUILDS` its `builds = "made"`, `NO_DRAW`
//! `[no-draw]`; the words that change nothing for dummies that only hold
//! are noted; vassal states and controlled dummies are refused with their
//! reason and line. Sengoku (tests/data/dpjudge/sengoku.map) imports and
//! is played by mail with its neutral daimyo nobody plays.

use crate::support_judge;
use crate::support_play;
use std::path::Path;
use zinejudge::testing::import::dpjudge::{ImportError, import};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dpjudge");

fn from_data(name: &str) -> Result<String, String> {
    std::fs::read_to_string(Path::new(DATA).join(name)).map_err(|e| e.to_string())
}

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

fn refusals(r: Result<zinejudge::testing::import::dpjudge::Imported, ImportError>) -> Vec<String> {
    match r {
        Err(ImportError::Refused(list)) => list.iter().map(ToString::to_string).collect(),
        Err(e) => panic!("refused otherwise: {e}"),
        Ok(i) => panic!("imported:\n{}", i.toml),
    }
}

/// A two-power board: North plays, South is a dummy (with `dummy`
/// written after South's units) under `rules`.
fn small(dummy: &str, rules: &str) -> String {
    format!(
        "Alpha = alp\nBeta = bet\nGamma = gam\n\
         LAND ALP ABUTS BET\nLAND BET ABUTS ALP GAM\nLAND GAM ABUTS BET\n\
         NORTH (NORTHERN) ALP\nA ALP\n\
         SOUTH (SOUTHERN) GAM\n{dummy}\nA GAM\n\
         UNOWNED BET\n{rules}\n"
    )
}

#[test]
fn sengoku_imports_with_its_neutral_dummy_and_no_draws() {
    let map = from_data("sengoku.map").expect("fixture");
    let imported = import_texts(&[("sengoku.map", &map)]).expect("imports");
    let v = &imported.variant;
    assert!(
        imported
            .toml
            .contains("[dummies]\npowers = [\"Neutral\"]\nbuilds = \"made\""),
        "{}",
        imported.toml
    );
    assert!(imported.toml.contains("\n[no-draw]\n"), "{}", imported.toml);
    use zinejudge::testing::rules::view::VariantRules;
    let neutral = v.map.lookup_power("Neutral").expect("a power");
    assert!(v.unplayed(neutral));
    let oda = v.map.lookup_power("Oda").expect("a power");
    assert!(!v.unplayed(oda));
    assert!(v.draws_refused().is_some());
    // IMMOBILE_DUMMIES changes nothing for units that only hold: noted.
    assert!(
        imported
            .notes
            .iter()
            .any(|n| n.contains("IMMOBILE_DUMMIES") && n.contains("only hold")),
        "{:?}",
        imported.notes
    );
}

#[test]
fn dummy_all_except_names_the_played_powers() {
    let map = format!(
        "{}DUMMIES ALL EXCEPT NORTH\nRULE CD_DUMMIES\n",
        small("", "")
    );
    let i = import_texts(&[("x.map", &map)]).expect("imports");
    assert!(
        i.toml
            .contains("[dummies]\npowers = [\"South\"]\nbuilds = \"waived\""),
        "{}",
        i.toml
    );
}

#[test]
fn a_dummy_nobody_puts_in_civil_disorder_is_refused_at_its_line() {
    let said = refusals(import_texts(&[("x.map", &small("DUMMY", ""))]));
    assert!(
        said.iter()
            .any(|s| s.starts_with("x.map:10:") && s.contains("CONTROL")),
        "{said:?}"
    );
}

#[test]
fn cd_builds_without_dummies_is_refused() {
    let said = refusals(import_texts(&[("x.map", &small("", "RULE CD_BUILDS"))]));
    assert!(
        said.iter()
            .any(|s| s.starts_with("x.map:13:") && s.contains("CD_BUILDS")),
        "{said:?}"
    );
}

#[test]
fn a_league_that_restricts_a_played_power_is_refused_one_of_a_holding_dummy_noted() {
    let map = small("DUMMY\nLEAGUE south STRICT", "RULE CD_DUMMIES");
    let i = import_texts(&[("x.map", &map)]).expect("a dummy's league imports");
    assert!(
        i.notes.iter().any(|n| n.contains("LEAGUE SOUTH STRICT")),
        "{:?}",
        i.notes
    );
    let map = small("DUMMY", "RULE CD_DUMMIES").replace("A ALP\n", "A ALP\nLEAGUE north BENIGN\n");
    let said = refusals(import_texts(&[("x.map", &map)]));
    assert!(
        said.iter()
            .any(|s| s.starts_with("x.map:9:") && s.contains("LEAGUE NORTH BENIGN")),
        "{said:?}"
    );
}

#[test]
fn vassal_refuses_vassal_states_naming_the_rule_and_line() {
    let files: Vec<(&str, String)> = [
        "vassal.map",
        "minorpower.map",
        "standard.map",
        "standard.politics",
        "standard.geography",
        "standard.military",
    ]
    .iter()
    .map(|n| (*n, from_data(n).expect("fixture")))
    .collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (*n, t.as_str())).collect();
    let said = refusals(import_texts(&refs));
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with("vassal.map:3:") && said[0].contains("VASSAL_DUMMIES"),
        "{said:?}"
    );
}

/// Sengoku imported with the command, loaded, and played by mail: the
/// neutral daimyo's seat is not offered, its armies hold, and the chart
/// names it a dummy.
#[test]
fn sengoku_by_mail_the_neutral_daimyo_are_not_played() {
    let tmp = support_play::import_with_cli(
        &Path::new(DATA).join("sengoku.map"),
        &std::env::temp_dir().join(format!("sengoku-{}.toml", std::process::id())),
        &[],
    );
    let mut w = support_judge::World::with_variant_file(&tmp);
    let _ = std::fs::remove_file(&tmp);
    let r = w.reply("gm@example.test", "CREATE s sengoku gm-secret");
    assert!(r.contains("Neutral"), "{r}");
    let daimyo = [
        "Asakura",
        "Chosokabe",
        "Hojo",
        "Mori",
        "Oda",
        "Shimazu",
        "Takeda",
        "Uesugi",
    ];
    let addr = |p: &str| format!("{}@example.test", p.to_lowercase());
    let r = w.reply(&addr("Oda"), "JOIN s pw-secret Neutral Oda");
    assert!(r.contains("Neutral are a dummy power"), "{r}");
    for p in &daimyo[..7] {
        if *p != "Oda" {
            w.reply(&addr(p), &format!("JOIN s pw-secret {p}"));
        }
    }
    w.reply(&addr("Uesugi"), "JOIN s pw-secret Uesugi");
    let mut last = Vec::new();
    for p in daimyo {
        last = w.mail(&addr(p), &format!("SIGNON {p} s pw-secret\nREADY"));
    }
    let results = last
        .iter()
        .find(|m| m.subject == "s: Spring 1570 results")
        .unwrap_or_else(|| panic!("not played; sent: {last:#?}"));
    assert!(results.body.contains("Neutral (dummy)"), "{}", results.body);
    let r = w.reply(&addr("Oda"), "SIGNON Oda s pw-secret\nDRAW");
    assert!(r.contains("no draws"), "{r}");
}

/// Zeus's dummy India imports (`DUMMY`, `CD_DUMMIES`, `CD_BUILDS`,
/// `IMMOBILE_DUMMIES`), as does America's alternative home centre
/// (`@CAL`, `[[alternatives]]`); what still stops the map is named: the
/// home centres changed in its first winter (`IN W1939A`).
#[test]
fn zeus_is_refused_for_its_other_words_not_for_its_dummy() {
    let map = from_data("zeus.map").expect("fixture");
    let said = refusals(import_texts(&[("zeus.map", &map)]));
    assert!(
        !said
            .iter()
            .any(|s| s.contains("DUMMY") || s.contains("DUMMIES") || s.contains("CD_BUILDS")),
        "{said:?}"
    );
    assert!(
        said.len() == 1 && said[0].starts_with("zeus.map:288: `IN W1939A`"),
        "{said:?}"
    );
}
