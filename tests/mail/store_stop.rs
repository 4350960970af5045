//! A clean stop charges no mail (issue 53). The judge counts an attempt at
//! each mail before it reads it, so that a mail that crashes the judge is
//! given up after three; it reads a batch of mail ahead of its turn. A
//! SIGTERM that came while mails of the batch were still waiting once left
//! each of them charged one attempt for a stop that was no crash of theirs
//! (562 mails ended with two attempts after SIGTERMs alone). Here a judge
//! is stopped in the middle of a queue of mail, on SQLite and on
//! PostgreSQL: no mail left waiting has an attempt counted, and once the
//! judge has answered everything after its restart, every mail was
//! attempted exactly once.

use crate::daemon_common;
use crate::support;
use daemon_common::{Judge, TempDir, count, maildir_config, postgres_maildir_config};
use std::time::{Duration, Instant};
use support::postgres::{PG_PASSWORD, PgServer};
use zinejudge::testing::mail::maildir::Maildir;
use zinejudge::testing::store::{Location, Store};

/// How many mails wait in the inbox.
const MAILS: usize = 300;

/// A mail the judge takes a while over: a HELP and many lines it does not
/// understand, each answered (distinct senders, so that no rate applies).
fn slow_mail(n: usize) -> Vec<u8> {
    let mut body = String::from("HELP\r\n");
    for i in 0..150 {
        body.push_str(&format!("Clear skies over the North Sea, line {i}\r\n"));
    }
    format!(
        "From: p{n}@example.test\r\nTo: judge@example.test\r\nSubject: stop {n}\r\n\
         Message-ID: <stop{n}.{pid}@players.example.test>\r\n\
         Date: Mon, 1 Jan 2024 00:00:00 +0000\r\n\r\n{body}",
        pid = std::process::id()
    )
    .into_bytes()
}

/// Stop the judge of `config` in the middle of [`MAILS`] mails, check the
/// attempts, start it again and check them once all is answered.
fn stop_in_the_middle(dir: &std::path::Path, config: &str, store: &Location) {
    let inbox = Maildir::open(&dir.join("in")).unwrap();
    Maildir::open(&dir.join("out")).unwrap();
    for n in 0..MAILS {
        inbox.deliver(&format!("{n}.eml"), &slow_mail(n)).unwrap();
    }
    let mut judge = Judge::start_with(dir, config);
    let open = || Store::open(store).expect("open the judge's store");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let mut s = open();
        if count(&mut s, "SELECT count(*) FROM inbound WHERE state = 'done'") >= 20 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the judge answers nothing; log:\n{}",
            judge.log_tail(30)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    judge.signal(libc::SIGTERM);
    let status = judge.wait_exit(Duration::from_secs(60));
    assert!(status.success(), "{status:?}; log:\n{}", judge.log_tail(30));
    let mut s = open();
    let left = count(&mut s, "SELECT count(*) FROM inbound WHERE state = 'new'");
    assert!(
        left > 0,
        "the stop came after all was done; log:\n{}",
        judge.log_tail(30)
    );
    assert_eq!(
        count(
            &mut s,
            "SELECT count(*) FROM inbound WHERE state = 'new' AND attempts > 0"
        ),
        0,
        "mails left waiting by a clean stop are charged an attempt; log:\n{}",
        judge.log_tail(30)
    );
    assert_eq!(
        count(
            &mut s,
            "SELECT count(*) FROM inbound WHERE state = 'done' AND attempts <> 1"
        ),
        0
    );
    drop(s);

    judge.spawn();
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let mut s = open();
        if count(&mut s, "SELECT count(*) FROM inbound WHERE state = 'done'") == MAILS as i64 {
            assert_eq!(
                count(&mut s, "SELECT count(*) FROM inbound WHERE attempts <> 1"),
                0,
                "every mail attempted once; log:\n{}",
                judge.log_tail(30)
            );
            break;
        }
        assert!(
            Instant::now() < deadline,
            "not all answered; log:\n{}",
            judge.log_tail(30)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    judge.signal(libc::SIGTERM);
    assert!(judge.wait_exit(Duration::from_secs(60)).success());
}

#[test]
fn a_clean_stop_charges_no_attempt_to_the_mails_read_ahead() {
    let tmp = TempDir::new("store-stop");
    let dir = tmp.path();
    let config = maildir_config(dir, "\n[web]\nenabled = false\n");
    stop_in_the_middle(dir, &config, &Location::Sqlite(dir.join("store.sqlite")));
}

#[test]
fn a_clean_stop_on_postgres_charges_no_attempt_to_the_mails_read_ahead() {
    let Some(db) = PgServer::database_or_skip("store_stop_postgres") else {
        return;
    };
    let tmp = TempDir::new("store-stop-pg");
    let dir = tmp.path();
    let pwfile = dir.join("pg-password");
    std::fs::write(&pwfile, format!("{PG_PASSWORD}\n")).unwrap();
    let config = postgres_maildir_config(
        dir,
        &db.url(),
        &pwfile,
        "stopper",
        "",
        "\n[web]\nenabled = false\n",
    );
    stop_in_the_middle(dir, &config, &db.location());
}
