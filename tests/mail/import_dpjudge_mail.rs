//! A DPjudge map played by mail without a rebuild (issue #39): imported
//! with `zinejudge import dpjudge` into the judge's `[variants] dir`,
//! listed by VARIANTS, created with CREATE and played two phases by a real
//! daemon (Maildir in and out, no mail server needed). A file of the
//! folder that does not load is logged and skipped; the others play.

use crate::daemon_common;
use crate::support_play;
use daemon_common::{Judge, STAMP, TempDir, maildir_config};
use std::path::Path;
use std::time::{Duration, Instant};
use zinejudge::testing::mail::maildir::Maildir;

/// Every mail the judge wrote so far: (to, subject, body).
fn sent(out: &Path) -> Vec<(String, String, String)> {
    let mut all = Vec::new();
    for e in std::fs::read_dir(out.join("new"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let Ok(raw) = std::fs::read(e.path()) else {
            continue;
        };
        let Some(m) = mail_parser::MessageParser::default().parse(&raw) else {
            continue;
        };
        let to = m
            .to()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .unwrap_or_default()
            .to_string();
        let subject = m.subject().unwrap_or_default().to_string();
        let body = m.body_text(0).map(|b| b.to_string()).unwrap_or_default();
        all.push((to, subject, body));
    }
    all
}

/// Wait for a mail to `to` whose body holds `text`; its body.
fn wait_for(out: &Path, to: &str, text: &str, judge: &Judge) -> String {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if let Some((_, _, b)) = sent(out)
            .into_iter()
            .find(|(t, _, b)| t.eq_ignore_ascii_case(to) && b.contains(text))
        {
            return b;
        }
        assert!(
            Instant::now() < deadline,
            "no mail to {to} holding {text:?}; sent:\n{:#?}\n{}",
            sent(out)
                .iter()
                .filter(|(t, _, _)| t.eq_ignore_ascii_case(to))
                .map(|(_, s, _)| s.clone())
                .collect::<Vec<_>>(),
            judge.log_tail(30)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn an_imported_map_in_the_variants_folder_is_created_and_played_by_mail() {
    let tmp = TempDir::new("import-mail");
    let dir = tmp.path();
    let variants = dir.join("variants");
    std::fs::create_dir_all(&variants).expect("variants folder");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dpjudge");
    support_play::import_with_cli(
        &data.join("youngstown.map"),
        &variants.join("youngstown.toml"),
        &[],
    );
    // A broken file beside it: reported, skipped, the others played.
    std::fs::write(
        variants.join("broken.toml"),
        "[variant]\nname = \"broken\"\ntitle = \"Broken\"\n[[provinces]]\nid = 3\n",
    )
    .expect("write");
    let extra = format!("[variants]\ndir = \"{}\"\n", variants.display());
    let judge = Judge::start_with(dir, &maildir_config(dir, &extra));
    judge.confirmed(&["gm@example.test", "india@example.test"]);
    let inbox = Maildir::open(&dir.join("in")).expect("inbox");
    let out = dir.join("out");
    let mut n = 0;
    let mut send = |from: &str, body: &str| {
        n += 1;
        let raw = format!(
            "{STAMP}From: {from}\r\nTo: judge@example.test\r\nSubject: yg\r\n\
             Message-ID: <m{n}@players.example.test>\r\n\
             Date: Tue, 24 Nov 2026 08:00:00 +0000\r\n\r\n{body}\r\n"
        );
        inbox
            .deliver(&format!("m{n}.eml"), raw.as_bytes())
            .expect("deliver");
    };

    send("gm@example.test", "VARIANTS");
    let list = wait_for(&out, "gm@example.test", "youngstown", &judge);
    assert!(list.contains("standard"), "{list}");
    assert!(!list.contains("broken"), "{list}");
    let log = judge.log_text();
    assert!(
        log.contains("broken.toml") && log.contains("not played"),
        "the bad file is logged:\n{log}"
    );

    send("gm@example.test", "CREATE yg youngstown gm-secret");
    wait_for(&out, "gm@example.test", "yg", &judge);
    send("india@example.test", "JOIN yg pw-secret India");
    wait_for(&out, "india@example.test", "India", &judge);
    send(
        "gm@example.test",
        "SIGNON GM yg gm-secret\nSET NMR HOLD\nSTART",
    );
    wait_for(&out, "india@example.test", "Spring 1901", &judge);

    // Spring 1901: Delhi to Kashmir, Calcutta to Nepal.
    send(
        "india@example.test",
        "SIGNON India yg pw-secret\nA(Del)-Kas\nA(Cal)-Nep",
    );
    wait_for(&out, "india@example.test", "A(Cal)-Nep", &judge);
    send("gm@example.test", "SIGNON GM yg gm-secret\nPROCESS");
    let spring = wait_for(&out, "india@example.test", "Fall 1901", &judge);
    assert!(spring.contains("A(Del)-Kas"), "{spring}");

    // Fall 1901: back from Kashmir to Delhi.
    send(
        "india@example.test",
        "SIGNON India yg pw-secret\nA(Kas)-Del",
    );
    wait_for(&out, "india@example.test", "A(Kas)-Del", &judge);
    send("gm@example.test", "SIGNON GM yg gm-secret\nPROCESS");
    let fall = wait_for(&out, "india@example.test", "Spring 1902", &judge);
    assert!(fall.contains("A(Kas)-Del"), "{fall}");
}

/// Issue #52: a running game follows no file. Another file giving its
/// variant's name, then its own file broken, each with a reload (SIGHUP):
/// the game plays on with the variant it started with, its GM is told
/// each time without waiting for a mail, and `render` draws it.
#[test]
fn a_game_keeps_its_variant_through_a_shadowing_file_a_broken_one_and_reloads() {
    let tmp = TempDir::new("variant-kept");
    let dir = tmp.path();
    let variants = dir.join("variants");
    std::fs::create_dir_all(&variants).expect("variants folder");
    let first = include_str!("../variants/twoisles.toml");
    std::fs::write(variants.join("twoisles.toml"), first).expect("write");
    let extra = format!("[variants]\ndir = \"{}\"\n", variants.display());
    let judge = Judge::start_with(dir, &maildir_config(dir, &extra));
    let (gm, north, south) = (
        "gm@example.test",
        "north@example.test",
        "south@example.test",
    );
    judge.confirmed(&[gm, north, south]);
    let inbox = Maildir::open(&dir.join("in")).expect("inbox");
    let out = dir.join("out");
    let mut n = 0;
    let mut send = |from: &str, body: &str| {
        n += 1;
        let raw = format!(
            "{STAMP}From: {from}\r\nTo: judge@example.test\r\nSubject: ti\r\n\
             Message-ID: <k{n}@players.example.test>\r\n\
             Date: Tue, 24 Nov 2026 08:00:00 +0000\r\n\r\n{body}\r\n"
        );
        inbox
            .deliver(&format!("k{n}.eml"), raw.as_bytes())
            .expect("deliver");
    };
    send(gm, "CREATE ti twoisles gm-secret");
    wait_for(&out, gm, "ti", &judge);
    send(north, "JOIN ti pw-north Boreas");
    wait_for(&out, north, "Boreas", &judge);
    send(south, "JOIN ti pw-south Notus");
    wait_for(&out, south, "You are Notus", &judge);

    // Another file, first in the folder's order, gives a Two Isles whose
    // Midmark is Centremark; the judge is reloaded.
    let other = first
        .replace("\"Mid\"", "\"Cen\"")
        .replace("Midmark", "Centremark");
    std::fs::write(variants.join("a-twoisles.toml"), other).expect("write");
    judge.signal(libc::SIGHUP);
    let told = wait_for(&out, gm, "from another file", &judge);
    assert!(
        told.contains("plays on with the variant as it started"),
        "{told}"
    );
    send(north, "SIGNON Boreas ti pw-north\nA(Nor)-Mid");
    let held = wait_for(&out, north, "Orders held for Boreas", &judge);
    assert!(
        held.lines().any(|l| l.trim_end() == "  A(Nor)-Mid"),
        "{held}"
    );

    // Both files broken or gone, and a reload: the game plays on.
    std::fs::remove_file(variants.join("a-twoisles.toml")).expect("remove");
    std::fs::write(variants.join("twoisles.toml"), "[variant]\nname = 3\n").expect("write");
    judge.signal(libc::SIGHUP);
    wait_for(&out, gm, "no longer loads or is gone", &judge);
    send(gm, "SIGNON GM ti gm-secret\nPROCESS");
    let results = wait_for(&out, north, "Fall 1901", &judge);
    assert!(results.contains("A(Nor)-Mid"), "{results}");
    let log = judge.log_text();
    assert!(
        log.contains("the variants folder no longer gives a game's variant"),
        "the log says so:\n{log}"
    );

    // `render` draws the game from the copy it keeps.
    let r = std::process::Command::new(env!("CARGO_BIN_EXE_zinejudge"))
        .args(["render", "--game", "ti", "--config"])
        .arg(dir.join("zinejudge.toml"))
        .arg("--out")
        .arg(dir)
        .current_dir(dir)
        .output()
        .expect("runs");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(String::from_utf8_lossy(&r.stdout).contains("A(Nor)-Mid"));
}
