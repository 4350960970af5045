//! Inputs of the `mail_path` fuzz target, replayed through the same
//! harness (`fuzz/fuzz_targets/mail_path/harness.rs`): a store holding live
//! games, the real processor and judge, one clock tick, and every property
//! the fuzzer checks on the mails queued. Findings the fuzzer made are kept
//! here as regression cases; those not fixed yet are `#[ignore]`d with
//! what they are.

#[path = "../fuzz/fuzz_targets/mail_path/harness.rs"]
mod harness;

use harness::Harness;

fn check(h: &mut Harness, name: &str, input: &[u8]) {
    if let Err(e) = h.run(input) {
        panic!("{name}: {e}");
    }
}

/// The seed corpus keeps every property (and the fixture builds).
#[test]
fn the_seed_mails_keep_every_property() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/corpus_seed/mail_path");
    let mut h = Harness::new();
    let mut names: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    assert!(names.len() >= 40, "{} seeds", names.len());
    for p in names {
        let input = std::fs::read(&p).unwrap();
        check(&mut h, &p.display().to_string(), &input);
    }
}
