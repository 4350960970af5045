//! The systemd unit: a notify service with watchdog, restart and the
//! hardening a GM expects, and one that systemd itself accepts.

const UNIT: &str = include_str!("../systemd/zinejudge.service");

#[test]
fn the_unit_runs_the_daemon_as_a_hardened_notify_service() {
    for line in [
        "Type=notify",
        "WatchdogSec=",
        "Restart=on-failure",
        "ExecReload=/bin/kill -HUP $MAINPID",
        "ProtectSystem=strict",
        "NoNewPrivileges=yes",
        "DynamicUser=yes",
        "StateDirectory=zinejudge",
        "ExecStart=/usr/local/bin/zinejudge run --config /etc/zinejudge/zinejudge.toml",
    ] {
        assert!(
            UNIT.lines().any(|l| l.starts_with(line)),
            "missing `{line}`"
        );
    }
}

#[test]
fn systemd_accepts_the_unit() {
    let Ok(out) = std::process::Command::new("systemd-analyze")
        .arg("--version")
        .output()
    else {
        eprintln!("SKIPPED: systemd-analyze is not installed");
        return;
    };
    assert!(out.status.success());
    let dir = std::env::temp_dir().join(format!("zj-unit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let unit = UNIT.replace("/usr/local/bin/zinejudge", env!("CARGO_BIN_EXE_zinejudge"));
    let path = dir.join("zinejudge.service");
    std::fs::write(&path, unit).unwrap();
    let out = std::process::Command::new("systemd-analyze")
        .arg("verify")
        .arg(&path)
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
