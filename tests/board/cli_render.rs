//! `zinejudge render`: a past phase's results on stdout and the picture of
//! the board after it on disk.

use std::process::Command;
use std::time::{Duration, UNIX_EPOCH};
use zinejudge::testing::commands::Judge;
use zinejudge::testing::daemon::process::{Limits, Processor};
use zinejudge::testing::mail::Identity;
use zinejudge::testing::store::Store;

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
        Limits {
            trust: zinejudge::testing::trust::harness_policy(),
            ..Limits::default()
        },
    );
    let now = UNIX_EPOCH + Duration::from_secs(1_830_340_800);
    let mails = [
        ("gm@example.test", "CREATE rg standard pw-secret\nSTART"),
        ("e@example.test", "JOIN rg pw-secret England"),
        ("gm@example.test", "SIGNON GM rg pw-secret\nSTART"),
        ("gm@example.test", "SIGNON GM rg pw-secret\nPROCESS"),
    ];
    for (i, (from, body)) in mails.iter().enumerate() {
        // People whose mail the judge's server authenticates.
        let stamp = zinejudge::testing::trust::HARNESS_STAMP;
        let raw = format!("{stamp}From: {from}\r\nMessage-ID: <r{i}@x>\r\n\r\n{body}\r\n");
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

/// 1066 rule 5: the text `render` prints is the public one, so the picture
/// it draws must be the public one too, without Harald's hidden A/Fs.
#[test]
fn rule_5_render_draws_the_public_picture_of_a_game_that_hides_units() {
    use zinejudge::game::Position;
    use zinejudge::game::step::{PhaseOrders, play};
    use zinejudge::orders::{AnyCommand, MainOrder};
    use zinejudge::testing::report::PhaseReport;
    use zinejudge::testing::report::picture::Picture;
    use zinejudge::variant::features::Viewer;

    let dir = std::env::temp_dir().join(format!("zj-render-1066-{}", std::process::id()));
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
        Limits {
            trust: zinejudge::testing::trust::harness_policy(),
            ..Limits::default()
        },
    );
    let now = UNIX_EPOCH + Duration::from_secs(1_830_340_800);
    let mut mails = vec![(
        "gm@example.test".to_string(),
        "CREATE hastings 1066 pw-secret".to_string(),
    )];
    for (who, pw) in [
        ("william", "Duke William"),
        ("harald", "Harald Hardrada"),
        ("harold", "Harold Godwinson"),
        ("norse", "The Norse"),
        ("earls", "The Northern Earls"),
        ("scots", "The Scots"),
        ("welsh", "The Welsh"),
    ] {
        mails.push((
            format!("{who}@example.test"),
            format!("JOIN hastings pw-secret {pw}"),
        ));
    }
    mails.push((
        "gm@example.test".into(),
        "SIGNON GM hastings pw-secret\nSTART".into(),
    ));
    mails.push((
        "harald@example.test".into(),
        "SIGNON Harald hastings pw-secret\nA/F(HAR)-GER".into(),
    ));
    mails.push((
        "gm@example.test".into(),
        "SIGNON GM hastings pw-secret\nPROCESS".into(),
    ));
    for (i, (from, body)) in mails.iter().enumerate() {
        // People whose mail the judge's server authenticates.
        let stamp = zinejudge::testing::trust::HARNESS_STAMP;
        let raw = format!("{stamp}From: {from}\r\nMessage-ID: <h{i}@x>\r\n\r\n{body}\r\n");
        p.store
            .insert_inbound(
                &format!("h{i}@x"),
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
        .args([
            "render",
            "--game",
            "hastings",
            "--picture",
            "svg",
            "--config",
        ])
        .arg(&cfg)
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("GER"), "{stdout}");
    let drawn = std::fs::read_to_string(dir.join("hastings-Mar1066M.svg"))
        .or_else(|_| {
            let f = std::fs::read_dir(&dir)
                .unwrap()
                .flatten()
                .find(|e| e.path().extension().is_some_and(|x| x == "svg"))
                .expect("an svg written");
            std::fs::read_to_string(f.path())
        })
        .unwrap();
    // The same phase drawn for the GM and for the public.
    let v = zinejudge::variant::builtin("1066").unwrap().unwrap();
    let before = Position::initial(&v);
    let parser = zinejudge::orders::parse::OrderParser::with_syntax(&v.map, v.syntax.clone());
    let AnyCommand::Main(unit, command) = parser.parse("A/F(HAR)-GER", None).unwrap().command
    else {
        panic!("a move")
    };
    let orders = PhaseOrders::Movement(vec![MainOrder {
        power: v.map.lookup_power("Harald").unwrap(),
        unit,
        command,
    }]);
    let (result, after) = play(&v, &before, &orders);
    let r = PhaseReport {
        variant: &v,
        game: "hastings",
        before: &before,
        orders: &orders,
        result: &result,
        after: &after,
        next_deadline: None,
        ended: None,
        nmr: Vec::new(),
    };
    let title = zinejudge::testing::report::title(&r);
    let public = Picture::new(&v).phase_svg(&r, &title, Viewer::Public);
    let gm = Picture::new(&v).phase_svg(&r, &title, Viewer::Gm);
    assert_ne!(public, gm, "the GM's picture shows the A/F");
    assert_eq!(drawn, public);
    std::fs::remove_dir_all(dir).ok();
}
