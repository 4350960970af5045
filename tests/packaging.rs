//! The installation's pieces agree with one another: the configuration the
//! package and the hand installation put in /etc/zinejudge, the unit that
//! reads it, the package metadata, the container recipe, and the Postfix
//! transport docs/operations.md documents and scripts/test-postfix-pipe.sh tests.
//! (scripts/test-package.sh installs them for real.)

use std::path::Path;
use zinejudge::testing::config::{Config, Sink, Source};

const UNIT: &str = include_str!("../systemd/zinejudge.service");
/// Running the judge for real (docs/operations.md, linked from the
/// README).
const OPERATIONS: &str = include_str!("../docs/operations.md");
const DOCKERFILE: &str = include_str!("../Dockerfile");
const CONFIG_PATH: &str = "/etc/zinejudge/zinejudge.toml";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_installed_configuration_keeps_everything_in_the_state_directory() {
    // Absolute paths: Postfix runs `deliver` from its own directory, and a
    // GM runs check-config from wherever they are.
    let c = Config::load(Some(&root().join("packaging/zinejudge.toml"))).unwrap();
    let state = Path::new("/var/lib/zinejudge");
    assert!(UNIT.contains("StateDirectory=zinejudge\n"));
    assert!(
        c.store.path().is_some_and(|p| p.starts_with(state)),
        "{}",
        c.store.display()
    );
    match &c.source {
        Source::Maildir { path, .. } => assert!(path.starts_with(state), "{}", path.display()),
        other => panic!("the installed judge should need no server: {other:?}"),
    }
    match &c.sink {
        Sink::Maildir(path) => assert!(path.starts_with(state), "{}", path.display()),
        other => panic!("the installed judge should need no server: {other:?}"),
    }
}

#[test]
fn the_unit_reads_the_configuration_the_package_installs() {
    let manifest: toml::Table = std::fs::read_to_string(root().join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let deb = &manifest["package"]["metadata"]["deb"];
    let assets = deb["assets"].as_array().unwrap();
    let dest_of = |src: &str| {
        assets
            .iter()
            .find(|a| a[0].as_str() == Some(src))
            .and_then(|a| a[1].as_str())
            .unwrap_or_else(|| panic!("{src} is not packaged"))
            .to_string()
    };
    assert_eq!(
        format!("/{}", dest_of("packaging/zinejudge.toml")),
        CONFIG_PATH
    );
    assert!(UNIT.contains(&format!("run --config {CONFIG_PATH}\n")));
    // Every packaged source file exists (the binary and the manual pages
    // are built by scripts/build-deb.sh).
    for a in assets {
        let src = a[0].as_str().unwrap();
        if !src.starts_with("target/") {
            assert!(root().join(src).is_file(), "{src} does not exist");
        }
    }
    // The maintainer scripts that make the user are there and executable.
    use std::os::unix::fs::PermissionsExt;
    let scripts = root().join(deb["maintainer-scripts"].as_str().unwrap());
    for s in ["postinst", "postrm"] {
        let mode = std::fs::metadata(scripts.join(s))
            .unwrap()
            .permissions()
            .mode();
        assert!(mode & 0o111 != 0, "{s} is not executable");
    }
    let postinst = std::fs::read_to_string(scripts.join("postinst")).unwrap();
    assert!(postinst.contains("adduser --system"));
    assert!(postinst.contains("#DEBHELPER#"));
}

#[test]
fn the_postfix_transport_tested_is_the_one_readme_documents() {
    let script = std::fs::read_to_string(root().join("scripts/test-postfix-pipe.sh")).unwrap();
    let tested = script
        .lines()
        .find(|l| l.contains("flags=") && l.contains("argv="))
        .expect("the script's pipe line")
        .trim()
        .trim_start_matches("echo \"")
        .trim_end_matches('"')
        .trim()
        .replace("$ZJ", "/usr/bin/zinejudge");
    assert!(
        OPERATIONS.lines().any(|l| l.trim() == tested),
        "docs/operations.md does not document `{tested}`"
    );
}

#[test]
fn the_container_runs_the_judge_alone_as_its_own_user_with_a_state_volume() {
    let last_stage = DOCKERFILE.rsplit("\nFROM ").next().unwrap();
    for line in [
        "USER zinejudge",
        "VOLUME [\"/var/lib/zinejudge\"]",
        "WORKDIR /var/lib/zinejudge",
        "ENTRYPOINT [\"zinejudge\"]",
        &format!("CMD [\"run\", \"--config\", \"{CONFIG_PATH}\"]"),
    ] {
        assert!(
            last_stage.lines().any(|l| l.trim() == line),
            "the run stage lacks `{line}`"
        );
    }
    assert!(last_stage.contains(&format!("packaging/zinejudge.toml {CONFIG_PATH}")));
}

#[test]
fn the_manual_pages_come_from_the_command_line_definitions() {
    let bin = env!("CARGO_BIN_EXE_zinejudge");
    let out = std::process::Command::new(bin).arg("man").output().unwrap();
    assert!(out.status.success());
    let page = String::from_utf8_lossy(&out.stdout);
    assert!(
        page.starts_with(".ie") && page.contains(".TH zinejudge 1"),
        "{page}"
    );
    assert!(page.contains("zinejudge\\-check\\-config(1)"), "{page}");
    let dir = std::env::temp_dir().join(format!("zj-man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = std::process::Command::new(bin)
        .args(["man", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success());
    for page in [
        "zinejudge.1",
        "zinejudge-run.1",
        "zinejudge-deliver.1",
        "zinejudge-check-config.1",
        "zinejudge-man.1",
        "zinejudge-mail.7",
    ] {
        assert!(dir.join(page).is_file(), "{page} not written");
    }
    // The mail commands have a page of their own, from HELP's table.
    let mail = std::fs::read_to_string(dir.join("zinejudge-mail.7")).unwrap();
    assert!(
        mail.contains("SET WAIT") && mail.contains("JOIN game password"),
        "{mail}"
    );
    // `man` is in --help, where a newcomer looks.
    let help = std::process::Command::new(bin)
        .arg("--help")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("\n  man "));
    std::fs::remove_dir_all(dir).unwrap();
}
