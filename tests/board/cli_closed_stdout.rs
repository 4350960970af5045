//! Every command that prints ends quietly when its reader has gone
//! (`zinejudge adjudicate ... | head`, issue #50): status 0, nothing on
//! standard error about it, no panic ("failed printing to stdout: Broken
//! pipe"). Each runs with a standard output whose read end is closed
//! before it starts, so its very first write fails, whatever it prints.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, UNIX_EPOCH};
use zinejudge::testing::commands::Judge;
use zinejudge::testing::daemon::process::{Limits, Processor};
use zinejudge::testing::mail::Identity;
use zinejudge::testing::store::Store;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `zinejudge args` run in `dir` with `stdin` on its standard input and a
/// standard output nobody reads: its status and standard error.
fn closed(dir: &Path, args: &[&str], stdin: &str) -> (std::process::ExitStatus, String) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let mut child = Command::new(env!("CARGO_BIN_EXE_zinejudge"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    if let Some(mut i) = child.stdin.take() {
        // The command may not read it all, or at all.
        let _ = std::io::Write::write_all(&mut i, stdin.as_bytes());
    }
    let out = child.wait_with_output().expect("ends");
    (out.status, String::from_utf8_lossy(&out.stderr).to_string())
}

/// A store on disk holding one standard game with its first phase played,
/// and a configuration naming it, in `dir`.
fn store_with_a_game(dir: &Path) -> PathBuf {
    let db = dir.join("judge.sqlite");
    let mut p = Processor::new(
        Store::open(&db).expect("store"),
        Box::new(Judge::new("zinejudge", "UTC")),
        Identity {
            address: "judge@example.test".into(),
            name: "zinejudge".into(),
            domain: "example.test".into(),
        },
        Limits {
            trust: zinejudge::testing::trust::harness_policy(),
            ..Limits::default()
        },
    );
    let now = UNIX_EPOCH + Duration::from_secs(1_830_340_800);
    let mails = [
        ("gm@example.test", "CREATE cs standard pw-secret"),
        ("e@example.test", "JOIN cs pw-secret England"),
        ("gm@example.test", "SIGNON GM cs pw-secret\nSTART"),
        ("gm@example.test", "SIGNON GM cs pw-secret\nPROCESS"),
    ];
    for (i, (from, body)) in mails.iter().enumerate() {
        // People whose mail the judge's server authenticates.
        let stamp = zinejudge::testing::trust::HARNESS_STAMP;
        let raw = format!("{stamp}From: {from}\r\nMessage-ID: <cs{i}@x>\r\n\r\n{body}\r\n");
        p.store
            .insert_inbound(
                &format!("cs{i}@x"),
                "t",
                raw.as_bytes(),
                raw.len() as i64,
                false,
                0,
            )
            .expect("inbound");
        p.process_next(now).expect("processed");
    }
    let cfg = dir.join("c.toml");
    std::fs::write(&cfg, format!("[store]\npath = \"{}\"\n", db.display())).expect("config");
    cfg
}

#[test]
fn every_command_that_prints_ends_quietly_on_a_closed_pipe() {
    let dir = std::env::temp_dir().join(format!("zj-closed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cfg = store_with_a_game(&dir);
    let cfg = cfg.to_str().expect("a path");
    let out = dir.join("pictures");
    let out = out.to_str().expect("a path");
    let r = root();
    let at = |p: &str| r.join(p).to_string_lossy().to_string();
    let (standard, datc, dpjudge) = (
        at("games/standard.toml"),
        at("tests/data/datc/godip_datc_v2.4_06.txt"),
        at("tests/data/dpjudge/standard.map"),
    );
    let (position, orders) = (
        at("examples/spring1901.toml"),
        at("examples/spring1901-orders.txt"),
    );
    let (year, sheets) = (
        at("examples/year1700.toml"),
        at("examples/year1700-orders.txt"),
    );
    let runs: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["adjudicate", "--position", &position, "--orders", &orders],
            "",
        ),
        (
            vec![
                "adjudicate",
                "--game",
                "1700ad",
                "--position",
                &year,
                "--orders",
                &sheets,
            ],
            "",
        ),
        (
            vec!["parse", "--game", "standard"],
            "A Lon - Yor\nF Edi - NTH\n",
        ),
        (vec!["check-game", &standard], ""),
        (vec!["datc", &datc], ""),
        (vec!["check-config", "--config", cfg], ""),
        (vec!["man"], ""),
        (
            vec!["render", "--game", "cs", "--config", cfg, "--out", out],
            "",
        ),
        (vec!["import", "dpjudge", &dpjudge], ""),
        (vec!["--help"], ""),
        (vec!["--version"], ""),
        (vec!["help", "adjudicate"], ""),
    ];
    for (args, stdin) in runs {
        let (status, err) = closed(&dir, &args, stdin);
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
        assert!(status.success(), "{args:?}: {status}\n{err}");
    }
    // `render` still wrote its pictures.
    assert!(
        std::fs::read_dir(out)
            .expect("pictures written")
            .any(|e| e.is_ok_and(|e| e.path().extension().is_some_and(|x| x == "svg"))),
        "render wrote no picture"
    );
    std::fs::remove_dir_all(dir).ok();
}
