//! Abstraction II's A/F layer (src/rules/boarding/judge.rs) replays the DATC
//! where its rules are the standard game's: every case of the godip and
//! jDip files without a convoy (Abstraction II's fast ferry crosses one sea
//! and keeps an army it cannot land, and its paradoxes all stand, so the
//! convoy cases differ by design) must come out as the DATC says.

use zinejudge::testing::datc::{Runner, parse_file, rules_for_file};
use zinejudge::variant::builtin;

fn replay(file: &str) -> (usize, usize) {
    let text = std::fs::read_to_string(format!(
        "{}/tests/data/datc/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the DATC file");
    let v = builtin("standard").expect("standard").expect("loads");
    let mut runner = Runner::new(&v, rules_for_file(&v, &text));
    runner.army_fleets = true;
    let cases = parse_file(&text).expect("parses");
    let mut run = 0;
    let mut failures = Vec::new();
    for case in &cases {
        let convoy = case.orders.iter().any(|l| {
            let t = l.text.to_lowercase();
            t.contains(" c ") || t.contains("convoy") || t.contains(" via ")
        });
        if convoy {
            continue;
        }
        run += 1;
        if let Err(f) = runner.run(case) {
            failures.push(f.to_string());
        }
    }
    assert!(failures.is_empty(), "{file}: {failures:#?}");
    (run, cases.len())
}

#[test]
fn the_godip_cases_without_convoys_are_unchanged() {
    let (run, all) = replay("godip_datc_v2.4_06.txt");
    assert!(run >= 85, "{run} of {all}");
}

#[test]
fn the_jdip_cases_without_convoys_are_unchanged() {
    let (run, all) = replay("jdip_datc_v2.4_06.txt");
    assert!(run >= 85, "{run} of {all}");
}
