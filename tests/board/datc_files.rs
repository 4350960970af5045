//! The DATC v2.4 case files (godip's and jDip's encodings) through the
//! library, with the preferences each file declares.

use zinejudge::testing::datc::{rules_for_file, run_text};
use zinejudge::variant::{self, Rulebook};

fn run(file: &str) -> (usize, Vec<String>) {
    let v = variant::builtin("standard")
        .expect("standard ships")
        .expect("standard loads");
    let text = std::fs::read_to_string(format!(
        "{}/tests/data/datc/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture present");
    let rules = rules_for_file(&v, &text);
    let (passed, failures) = run_text(&v, rules, &text).expect("file parses");
    (
        passed,
        failures.into_iter().map(|f| f.to_string()).collect(),
    )
}

#[test]
fn godip_datc_file_passes_every_case() {
    let (passed, failures) = run("godip_datc_v2.4_06.txt");
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
    assert_eq!(passed, 135);
}

#[test]
fn jdip_datc_file_fails_only_its_2000_rulebook_pandin_case() {
    // jDip expects the 2000 rulebook in 6.F.17; we follow Szykman, as the
    // DATC and godip do.
    let (passed, failures) = run("jdip_datc_v2.4_06.txt");
    assert_eq!(passed, 136);
    assert_eq!(failures.len(), 1, "failures:\n{}", failures.join("\n"));
    assert!(failures[0].starts_with("6.F.17:"), "{}", failures[0]);
}

#[test]
fn v2_files_are_detected_and_differ_from_today_only_on_the_convoy_fallback() {
    let v = variant::builtin("standard").unwrap().unwrap();
    let text = std::fs::read_to_string(format!(
        "{}/tests/data/datc/godip_datc_v2.4_06.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    assert_eq!(rules_for_file(&v, &text), Rulebook::datc_v2());
    let (_, failures) = run_text(&v, Rulebook::default(), &text).unwrap();
    let ids: Vec<&str> = failures.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(
        ids,
        ["6.G.8"],
        "DATC v3 gives up the land fallback of 6.G.8 only"
    );
}
