//! A results mail's picture is never dropped because the store was away
//! (issue 53). The judge draws the pictures of results when it sends them,
//! on connections of its own; after a database restart those connections
//! are dead until used. Here, on PostgreSQL (a server of the test's own),
//! a phase is adjudicated and its results queued, the outbox cannot hand
//! them over yet (the outbox Maildir is away), the database restarts, and
//! the Maildir comes back: every results mail must arrive with its picture.
//! Before, the first mail drawn on each dead connection went without it
//! ("cannot draw a mail's pictures; it goes without them ... terminating
//! connection due to administrator command").
//!
//! Skipped with a notice when PostgreSQL is not installed (a failure in
//! CI).

use crate::daemon_common;
use crate::support;
use daemon_common::{Judge, STAMP, TempDir, count, postgres_maildir_config};
use std::path::Path;
use std::time::{Duration, Instant};
use support::postgres::{PG_PASSWORD, PgServer};
use zinejudge::game::record::Status;
use zinejudge::testing::mail::maildir::Maildir;
use zinejudge::testing::store::{Store, games};

const GM: &str = "gm@example.test";
const POWERS: [(&str, &str); 7] = [
    ("Austria", "A Vie-Gal\nA Bud-Ser\nF Tri-Alb"),
    ("England", "F Lon-NTH\nF Edi-NWG\nA Lvp-Yor"),
    ("France", "F Bre-MAO\nA Par-Bur\nA Mar-Spa"),
    ("Germany", "F Kie-Den\nA Ber-Kie\nA Mun-Ruh"),
    ("Italy", "F Nap-ION\nA Rom-Apu\nA Ven-Tyr"),
    ("Russia", "F StP/sc-BOT\nA Mos-Ukr\nA War-Gal\nF Sev-BLA"),
    ("Turkey", "F Ank-BLA\nA Con-Bul\nA Smy-Arm"),
];

fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_lowercase())
}

/// The mails in the outbox Maildir whose Subject holds `subject`.
fn mails_about(out: &Path, subject: &str) -> Vec<String> {
    let mut found = Vec::new();
    for sub in ["new", "cur"] {
        let Ok(rd) = std::fs::read_dir(out.join(sub)) else {
            continue;
        };
        for e in rd.flatten() {
            let text = String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()).into_owned();
            if text
                .lines()
                .any(|l| l.starts_with("Subject:") && l.contains(subject))
            {
                found.push(text);
            }
        }
    }
    found
}

#[test]
fn a_database_restart_between_adjudication_and_sending_drops_no_picture() {
    let Some(db) = PgServer::own_database_or_skip("store_pictures") else {
        return;
    };
    let tmp = TempDir::new("store-pictures");
    let dir = tmp.path();
    let pwfile = dir.join("pg-password");
    std::fs::write(&pwfile, format!("{PG_PASSWORD}\n")).unwrap();
    let inbox = Maildir::open(&dir.join("in")).unwrap();
    let out = dir.join("out");
    Maildir::open(&out).unwrap();
    // Retries of a mail not handed over come within 2 s; the web pages are
    // not needed.
    let config = postgres_maildir_config(
        dir,
        &db.url(),
        &pwfile,
        "pictures",
        "",
        "\n[limits]\nmax-retry-seconds = 2\n[web]\nenabled = false\n",
    );
    let judge = Judge::start_with(dir, &config);
    let mut store = Store::open(&db.location()).unwrap();
    let mut seq = 0u32;
    let mut send = |from: &str, body: &str| {
        seq += 1;
        // Stamped by the judge's mail server, as a mail from a domain that
        // signs its mail is: the players' JOINs count at once.
        let raw = format!(
            "{STAMP}From: {from}\r\nTo: judge@example.test\r\nSubject: mail {seq}\r\n\
             Message-ID: <pic{seq}.{pid}@players.example.test>\r\n\
             Date: Mon, 1 Jan 2024 00:00:00 +0000\r\n\r\n{}\r\n",
            body.replace('\n', "\r\n"),
            pid = std::process::id(),
        );
        inbox
            .deliver(&format!("{}.{seq}.eml", std::process::id()), raw.as_bytes())
            .expect("deliver to the inbox");
    };
    let wait = |store: &mut Store, what: &str, done: &dyn Fn(&mut Store) -> bool| {
        let deadline = Instant::now() + Duration::from_secs(120);
        while !done(store) {
            assert!(
                Instant::now() < deadline,
                "{what}: not within 120 s; log:\n{}",
                judge.log_tail(40)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    send(GM, "CREATE pic standard gm-secret");
    for (p, _) in POWERS {
        send(&addr(p), &format!("JOIN pic pw-{p} {p}"));
    }
    wait(&mut store, "the game starts", &|s| {
        games::load(s.conn(), "pic")
            .unwrap()
            .is_some_and(|g| g.status == Status::Active)
    });
    let (last, others) = POWERS.split_last().unwrap();
    for (p, orders) in others {
        send(&addr(p), &format!("SIGNON {p} pic pw-{p}\n{orders}\nREADY"));
    }
    wait(&mut store, "the orders are in and answered", &|s| {
        s.pending_count().unwrap() == 0 && s.unsent_count().unwrap() == 0
    });

    // The outbox Maildir goes away: nothing can be handed over.
    let tmp_dir = out.join("tmp");
    let away = out.join("tmp.away");
    std::fs::rename(&tmp_dir, &away).unwrap();
    std::fs::write(&tmp_dir, b"not a directory").unwrap();
    let (p, orders) = last;
    send(&addr(p), &format!("SIGNON {p} pic pw-{p}\n{orders}\nREADY"));
    wait(&mut store, "the phase is adjudicated", &|s| {
        !games::history(s.conn(), "pic").unwrap().is_empty()
    });
    wait(
        &mut store,
        "the results are tried and not handed over",
        &|s| {
            count(
                s,
                "SELECT count(*) FROM outbox WHERE parts IS NOT NULL AND attempts > 0 AND state = 'queued'",
            ) >= 8
        },
    );
    assert!(
        mails_about(&out, "pic: Spring 1901 results").is_empty(),
        "nothing was handed over"
    );

    // The database restarts: every connection the judge holds is ended.
    drop(store);
    db.server.restart().unwrap();
    std::fs::remove_file(&tmp_dir).unwrap();
    std::fs::rename(&away, &tmp_dir).unwrap();
    let mut store = Store::open(&db.location()).unwrap();
    wait(&mut store, "every mail is sent", &|s| {
        s.unsent_count().unwrap() == 0
    });

    let results = mails_about(&out, "pic: Spring 1901 results");
    assert_eq!(
        results.len(),
        8,
        "the seven players and the GM get the results; log:\n{}",
        judge.log_tail(40)
    );
    for m in &results {
        assert!(
            m.contains("Content-Type: image/png"),
            "a results mail went without its picture:\n{}\nlog:\n{}",
            &m[..m.len().min(600)],
            judge.log_tail(40)
        );
    }
    let log = judge.log_text();
    assert!(!log.contains("goes without them"), "{log}");
    assert!(log.contains("waiting for the store"), "{log}");
    assert!(judge.failures().is_empty(), "{:?}", judge.failures());
}
