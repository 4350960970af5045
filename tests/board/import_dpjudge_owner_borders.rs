//! `zinejudge import dpjudge` for DPjudge's centre ownership restrictions
//! (issue #39): Imperial's `BLA ... AEG(CON)` and `AEG ... BLA(CON)`, the
//! way between the Black Sea and the Aegean open only to the owner of
//! Constantinople, imported as `open-to-owner-of` and played (see
//! tests/board/rule_owner_borders.rs for the rule itself).

use crate::support_play;
use std::path::Path;
use zinejudge::testing::import::dpjudge::{ImportError, import};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dpjudge");

fn from_data(name: &str) -> Result<String, String> {
    std::fs::read_to_string(Path::new(DATA).join(name)).map_err(|e| e.to_string())
}

#[test]
fn imperial_imports_with_the_bosporus_open_only_to_the_owner_of_constantinople() {
    let mut fetch = from_data;
    let i = import("imperial.map", &mut fetch).unwrap_or_else(|e| panic!("{e}"));
    let v = &i.variant;
    let map = &v.map;
    let id = |n: &str| support_play::prov(v, n);
    let (bla, aeg, con) = (id("BLA"), id("AEG"), id("CON"));
    let mut ways: Vec<_> = map
        .owner_borders()
        .iter()
        .map(|b| (b.from, b.to, b.centres.clone()))
        .collect();
    ways.sort();
    let mut want = vec![(bla, aeg, vec![con]), (aeg, bla, vec![con])];
    want.sort();
    assert_eq!(ways, want);
    assert!(
        i.toml
            .contains("open-to-owner-of = { \"AEG\" = [\"Con\"] }"),
        "{}",
        i.toml
    );
}

#[test]
fn the_imported_imperial_file_passes_check_game() {
    let dir = std::env::temp_dir().join(format!("zj-import-imperial-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = support_play::import_with_cli(
        &Path::new(DATA).join("imperial.map"),
        &dir.join("imperial.toml"),
        &[],
    );
    support_play::check_game_with_cli(&out);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_centre_list_that_does_not_close_is_refused_with_its_line() {
    let mut fetch = |n: &str| {
        if n == "x.map" {
            return Ok("USE standard.map\nAMEND BLA ABUTS AEG(CON\n".to_string());
        }
        from_data(n)
    };
    let Err(ImportError::Refused(list)) = import("x.map", &mut fetch) else {
        panic!("refused");
    };
    let said: Vec<String> = list.iter().map(ToString::to_string).collect();
    assert!(
        said.iter()
            .any(|s| s.starts_with("x.map:2:") && s.contains("AEG(CON")),
        "{said:?}"
    );
}
