//! `zinejudge render`: a past phase's results on stdout and the picture of
//! the board after it on disk.

use std::process::Command;
use std::time::{Duration, UNIX_EPOCH};
use zinejudge::commands::Judge;
use zinejudge::daemon::process::{Limits, Processor};
use zinejudge::mail::Identity;
use zinejudge::store::Store;

#[test]
fn render_prints_results_and_writes_the_picture() {
    let dir = std::env::temp_dir().join(format!("zj-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("judge.sqlite");
    let mut p = Processor::new(
        Store::open(&db).unwrap(),
        Box::new(Judge::new("zinejudge", "UTC")),
        Identity {
            address: "judge@example.test".into(),
            name: "zinejudge".into(),
            domain: "example.test".into(),
        },
        Limits::default(),
    );
    let now = UNIX_EPOCH + Duration::from_secs(1_830_340_800);
    let mails = [
        ("gm@example.test", "CREATE rg standard pw\nSTART"),
        ("e@example.test", "JOIN rg pw England"),
        ("gm@example.test", "SIGNON GM rg pw\nSTART"),
        ("gm@example.test", "SIGNON GM rg pw\nPROCESS"),
    ];
    for (i, (from, body)) in mails.iter().enumerate() {
        let raw = format!("From: {from}\r\nMessage-ID: <r{i}@x>\r\n\r\n{body}\r\n");
        p.store
            .insert_inbound(
                &format!("r{i}@x"),
                "t",
                raw.as_bytes(),
                raw.len() as i64,
                false,
                0,
            )
            .unwrap();
        p.process_next(now).unwrap();
    }
    drop(p);
    let cfg = dir.join("c.toml");
    std::fs::write(&cfg, format!("[store]\npath = \"{}\"\n", db.display())).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_zinejudge"))
        .args(["render", "--game", "rg", "--config"])
        .arg(&cfg)
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.starts_with("rg: Spring 1901 results"), "{stdout}");
    let png = std::fs::read(dir.join("rg-S1901M.png")).unwrap();
    assert_eq!(&png[..4], b"\x89PNG");
    assert!(
        std::fs::read_to_string(dir.join("rg-S1901M.svg"))
            .unwrap()
            .contains("<svg")
    );
    // A phase not played is an error that names the ones that were.
    let out = Command::new(env!("CARGO_BIN_EXE_zinejudge"))
        .args(["render", "--game", "rg", "--phase", "F1905M", "--config"])
        .arg(&cfg)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no phase F1905M in rg; played: S1901M"));
    std::fs::remove_dir_all(dir).ok();
}
