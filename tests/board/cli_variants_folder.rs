//! Issue #52: every command that takes a variant's name finds the
//! variants of the judge's folder when given its configuration
//! (`--config`), as the running judge does; without it, the refusal says
//! how to.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A folder with a configuration whose `[variants] dir` holds Two Isles.
fn folder() -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("zj-cli-folder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("variants")).expect("folder");
    std::fs::write(
        dir.join("variants/twoisles.toml"),
        include_str!("../variants/twoisles.toml"),
    )
    .expect("variant");
    let config = dir.join("zinejudge.toml");
    std::fs::write(
        &config,
        format!("[variants]\ndir = \"{}\"\n", dir.join("variants").display()),
    )
    .expect("config");
    (dir, config)
}

fn run(args: &[&str], config: Option<&Path>, stdin: &str) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_zinejudge"));
    cmd.args(args);
    if let Some(c) = config {
        cmd.arg("--config").arg(c);
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    // A command that refuses may end before it reads its input.
    if let Err(e) = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
    {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().expect("ends")
}

#[test]
fn parse_and_adjudicate_find_a_variant_of_the_judge_s_folder() {
    let (dir, config) = folder();
    let out = run(&["parse", "--game", "twoisles"], None, "A(Nor)-Mid\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("--config FILE"), "{err}");
    let out = run(
        &["parse", "--game", "twoisles"],
        Some(&config),
        "A(Nor)-Mid\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("A(Nor)-Mid"));

    let position = dir.join("position.toml");
    std::fs::write(
        &position,
        "phase = \"Spring 1901 movement\"\n[units]\nBoreas = [\"A Nor\"]\n\
         [centres]\nBoreas = [\"Nor\", \"Nhv\"]\n",
    )
    .expect("position");
    let orders = dir.join("orders.txt");
    std::fs::write(&orders, "Boreas: A Nor-Mid\n").expect("orders");
    let (p, o) = (
        position.to_str().expect("path"),
        orders.to_str().expect("path"),
    );
    let args = [
        "adjudicate",
        "--game",
        "twoisles",
        "--position",
        p,
        "--orders",
        o,
    ];
    let out = run(&args, Some(&config), "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("A(Nor)-Mid"));
    // A name neither shipped nor in the folder: the refusal names both.
    let out = run(&["parse", "--game", "nowhere"], Some(&config), "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("nor one of the judge's variants folder (twoisles)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
