//! The systemd unit: a notify service with watchdog, restart and the
//! hardening a GM expects, run as the fixed user `zinejudge` (so Postfix
//! can deliver as that user into the same store), and one that systemd
//! itself accepts and rates well.

use std::path::{Path, PathBuf};
use std::process::Command;

const UNIT: &str = include_str!("../systemd/zinejudge.service");

fn has(line: &str) -> bool {
    UNIT.lines().any(|l| l.trim() == line)
}

#[test]
fn the_unit_runs_the_daemon_as_a_hardened_notify_service() {
    for line in [
        "Type=notify",
        "WatchdogSec=60s",
        "Restart=on-failure",
        "ExecReload=/bin/kill -HUP $MAINPID",
        "ExecStart=/usr/bin/zinejudge run --config /etc/zinejudge/zinejudge.toml",
        "StateDirectory=zinejudge",
        "StateDirectoryMode=0700",
        "WorkingDirectory=/var/lib/zinejudge",
        "UMask=0077",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "ProtectHome=yes",
        "ProtectProc=invisible",
        "ProcSubset=pid",
        "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX",
        "CapabilityBoundingSet=",
        "SystemCallFilter=@system-service",
    ] {
        assert!(has(line), "missing `{line}`");
    }
}

#[test]
fn the_unit_runs_as_the_fixed_zinejudge_user_not_a_dynamic_one() {
    // A DynamicUser cannot read root:zinejudge 0640 configuration, and
    // Postfix's pipe cannot deliver into its private state directory.
    assert!(has("User=zinejudge") && has("Group=zinejudge"));
    assert!(!UNIT.lines().any(|l| l.starts_with("DynamicUser=")));
}

#[test]
fn the_install_steps_use_files_that_exist_and_the_unit_paths() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let steps: Vec<&str> = UNIT
        .lines()
        .take_while(|l| l.starts_with('#'))
        .filter_map(|l| l.strip_prefix("#   "))
        .filter(|l| l.starts_with("install "))
        .collect();
    assert!(steps.len() >= 4, "{steps:?}");
    // Every source file an install line copies is in the tree.
    for s in &steps {
        for word in s.split_whitespace() {
            if word.starts_with("systemd/") || word.starts_with("packaging/") {
                assert!(dir.join(word).is_file(), "{word} (in `{s}`) does not exist");
            }
        }
    }
    // The configuration the steps install is the one ExecStart reads, and
    // is readable by the service's group only.
    assert!(
        steps
            .iter()
            .any(|s| s.starts_with("install -m 640 -o root -g zinejudge ")
                && s.ends_with(" /etc/zinejudge/zinejudge.toml"))
    );
    assert!(
        steps
            .iter()
            .any(|s| s.contains("-o zinejudge -g zinejudge /var/lib/zinejudge"))
    );
}

/// The value of the unit's `key=` line.
fn value(key: &str) -> Option<&'static str> {
    UNIT.lines()
        .find_map(|l| l.trim().strip_prefix(key)?.strip_prefix('='))
}

#[test]
fn the_unit_runs_the_installed_binary_by_its_path() {
    // Not a bare name: systemd would search /usr/local/bin first.
    let exec = value("ExecStart").expect("ExecStart");
    let program = exec.split_whitespace().next().expect("a program");
    assert_eq!(program, "/usr/bin/zinejudge");
    // The hand installation puts the binary there, and runs it from there.
    let header: Vec<&str> = UNIT
        .lines()
        .take_while(|l| l.starts_with('#'))
        .filter_map(|l| l.strip_prefix("#   "))
        .collect();
    assert!(
        header.contains(&format!("install -m 755 target/release/zinejudge {program}").as_str()),
        "{header:#?}"
    );
    for step in &header {
        assert!(
            !step.contains("/usr/local/bin"),
            "a step uses another binary: {step}"
        );
    }
}

#[test]
fn the_units_file_limit_holds_every_web_connection_and_the_judges_own_files() {
    // The judge cannot raise the limit itself: the filter forbids it.
    assert!(has("SystemCallFilter=~@privileged @resources"));
    let files: u64 = value("LimitNOFILE")
        .expect("LimitNOFILE")
        .parse()
        .expect("a number");
    // The most the judge keeps for itself: Maildir or SMTP with the most
    // connections the configuration allows (64).
    let wanted = zinejudge::testing::web::Limits::default().connections;
    let kept = zinejudge::testing::web::FILES_KEPT + 64;
    assert_eq!(
        zinejudge::testing::web::connection_cap(wanted, Some(files), kept),
        wanted,
        "LimitNOFILE={files} does not hold {wanted} web connections"
    );
    // A service's default (1,024) would not.
    assert!(zinejudge::testing::web::connection_cap(wanted, Some(1024), kept) < wanted);
}

#[test]
fn the_unit_bounds_the_judges_memory_and_threads() {
    // Above the judge's measured worst (about 250 MiB: README, "Storage,
    // retention and memory"), and bounded.
    let memory = value("MemoryMax").expect("MemoryMax");
    let mib: u64 = memory
        .strip_suffix('M')
        .and_then(|m| m.parse().ok())
        .expect("MemoryMax in M");
    assert!((256..=1024).contains(&mib), "MemoryMax={memory}");
    let tasks: u64 = value("TasksMax")
        .expect("TasksMax")
        .parse()
        .expect("a number");
    assert!((64..=1024).contains(&tasks), "TasksMax={tasks}");
}

fn tool(name: &str) -> bool {
    match Command::new(name).arg("--version").output() {
        Ok(o) => o.status.success(),
        Err(_) => {
            eprintln!("SKIPPED: {name} is not installed");
            false
        }
    }
}

/// The unit with ExecStart pointing at the binary under test, and the
/// manual pages it links to (`man:zinejudge(1)`) generated from it.
fn unit_for_test(name: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("zj-unit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("man/man1")).unwrap();
    let bin = env!("CARGO_BIN_EXE_zinejudge");
    let unit = UNIT.replace(
        "ExecStart=/usr/bin/zinejudge ",
        &format!("ExecStart={bin} "),
    );
    assert_ne!(unit, UNIT, "ExecStart not found");
    let path = dir.join("zinejudge.service");
    std::fs::write(&path, unit).unwrap();
    let out = Command::new(bin)
        .args(["man", "--dir"])
        .arg(dir.join("man/man1"))
        .output()
        .unwrap();
    assert!(out.status.success());
    (dir, path)
}

#[test]
fn systemd_accepts_the_unit() {
    if !tool("systemd-analyze") {
        return;
    }
    let (dir, path) = unit_for_test("verify");
    let out = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&path)
        .env("MANPATH", dir.join("man"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    // Only complaints about this unit count (the host's own units may be
    // odd inside containers).
    let ours: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("zinejudge.service"))
        .collect();
    assert!(ours.is_empty(), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn systemd_rates_the_units_exposure_ok() {
    if !tool("systemd-analyze") {
        return;
    }
    let (dir, path) = unit_for_test("security");
    // --threshold: exit non-zero when the exposure (0 safest, 10 worst)
    // is above it; 2.0 is well within systemd's "OK" band.
    let out = Command::new("systemd-analyze")
        .args(["security", "--offline=true", "--threshold=20"])
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("Overall exposure level for zinejudge.service"),
        "{text}"
    );
    std::fs::remove_dir_all(dir).ok();
}
