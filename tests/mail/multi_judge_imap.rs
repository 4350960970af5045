//! Two judges on one PostgreSQL store reading one IMAP mailbox (the test
//! Dovecot) and sending through the test Postfix: one judge fetches, the
//! other waits for the fetch lock; when the fetching judge is SIGKILLed,
//! the other takes over within seconds, and every mail, before and after,
//! is answered exactly once; and while the database is down, mail stays
//! on the IMAP server and is answered once, after.
//!
//! Skipped with a notice when the mail servers or PostgreSQL are not
//! installed (a failure in CI).

use crate::daemon_common;
use crate::support;
use daemon_common::*;
use std::path::Path;
use std::time::{Duration, Instant};
use support::postgres::{PG_PASSWORD, PgServer};
use support::{JUDGE_ADDRESS, MailSystem, wait_until};

fn judge(ms: &MailSystem, dir: &Path, url: &str, pwfile: &Path, name: &str) -> Judge {
    let d = dir.join(name);
    std::fs::create_dir_all(&d).unwrap();
    let config = config_text(ms, &d, &Opts::default()).replacen(
        "[store]\n",
        &format!(
            "[store]\nurl = \"{url}\"\npassword-file = \"{}\"\njudge-name = \"{name}\"\n\
             lease-seconds = 15\n",
            pwfile.display()
        ),
        1,
    );
    Judge::start_with(&d, &config)
}

/// A mail to send: from, to, bytes.
type Mail = (String, String, Vec<u8>);

/// `n` HELP mails, each from a player of its own: the players and mails.
fn helps(ms: &MailSystem, n: usize) -> (Vec<String>, Vec<Mail>) {
    let mut players = Vec::new();
    let mails = (0..n)
        .map(|i| {
            let from = ms.address("mj");
            players.push(from.clone());
            let id = new_message_id();
            let raw = order_mail(&from, JUDGE_ADDRESS, &id, &format!("help {i}"), "HELP");
            (from, JUDGE_ADDRESS.to_string(), raw)
        })
        .collect();
    (players, mails)
}

#[test]
fn when_the_judge_fetching_by_imap_dies_another_takes_over_and_nothing_is_answered_twice() {
    let Some(ms) = MailSystem::start_or_skip("multi_judge_imap") else {
        return;
    };
    let Some(db) = PgServer::database_or_skip("multi_judge_imap") else {
        return;
    };
    let tmp = TempDir::new("mj-imap");
    let dir = tmp.path();
    let pwfile = dir.join("pg-password");
    std::fs::write(&pwfile, format!("{PG_PASSWORD}\n")).unwrap();
    let mut judges = [
        judge(&ms, dir, &db.url(), &pwfile, "east"),
        judge(&ms, dir, &db.url(), &pwfile, "west"),
    ];
    let fetching = |j: &Judge| j.log_text().contains("IMAP connected");
    wait_until("one judge fetches", Duration::from_secs(30), || {
        judges.iter().any(fetching)
    });
    let waiting = |j: &Judge| j.log_text().contains("another judge fetches the mail");
    wait_until("the other waits", Duration::from_secs(30), || {
        judges.iter().any(waiting)
    });
    let first = usize::from(!fetching(&judges[0]));
    let other = 1 - first;
    assert!(
        !fetching(&judges[other]),
        "both judges fetch:\n{}\n{}",
        judges[0].log_tail(20),
        judges[1].log_tail(20)
    );

    let (mut players, before) = helps(&ms, 20);
    send_all(&ms, &before, 2);
    wait_until("the first mails answered", Duration::from_secs(60), || {
        answers_for(&ms, &players).len() >= before.len()
    });

    // The fetching judge dies; the other takes the fetching over.
    judges[first].kill();
    let killed = Instant::now();
    wait_until("the other judge fetches", Duration::from_secs(30), || {
        judges[other]
            .log_text()
            .contains("this judge fetches the mail now")
    });
    let takeover = killed.elapsed();
    let (more_players, after) = helps(&ms, 20);
    players.extend(more_players);
    send_all(&ms, &after, 2);
    let all = before.len() + after.len();
    wait_until("every mail answered", Duration::from_secs(90), || {
        answers_for(&ms, &players).len() >= all
    });
    // Nothing more comes: a duplicate would be late, not early.
    std::thread::sleep(Duration::from_secs(3));
    let answers = answers_for(&ms, &players);
    let by = by_in_reply_to(&answers);
    assert_eq!(answers.len(), all, "one answer per mail");
    assert_eq!(by.len(), all, "every mail answered");
    eprintln!(
        "the other judge fetched {:.1} s after the first was killed",
        takeover.as_secs_f64()
    );
    assert!(
        takeover < Duration::from_secs(15),
        "takeover took {takeover:?}"
    );
}

/// While the database is down, the judges take no mail from IMAP: what
/// comes in stays in the judge's mailbox on the server (a mail leaves its
/// source only once the store has it). Once the database is back, every
/// mail is answered, once, and no judge stopped meanwhile. The fetch lock
/// went with the sessions; one judge takes it again.
#[test]
fn while_the_database_is_down_mail_stays_on_the_imap_server_and_is_answered_once_after() {
    let Some(ms) = MailSystem::start_or_skip("multi_judge_imap_outage") else {
        return;
    };
    // A server of its own: the test stops it.
    let Some(db) = PgServer::own_database_or_skip("multi_judge_imap_outage") else {
        return;
    };
    let tmp = TempDir::new("mj-imap-outage");
    let dir = tmp.path();
    let pwfile = dir.join("pg-password");
    std::fs::write(&pwfile, format!("{PG_PASSWORD}\n")).unwrap();
    let mut judges = [
        judge(&ms, dir, &db.url(), &pwfile, "east"),
        judge(&ms, dir, &db.url(), &pwfile, "west"),
    ];
    wait_until("one judge fetches", Duration::from_secs(30), || {
        judges
            .iter()
            .any(|j| j.log_text().contains("IMAP connected"))
    });
    let (mut players, before) = helps(&ms, 5);
    send_all(&ms, &before, 2);
    wait_until("the first mails answered", Duration::from_secs(60), || {
        answers_for(&ms, &players).len() >= before.len()
    });

    db.server.stop().expect("stop PostgreSQL");
    let (more_players, during) = helps(&ms, 10);
    players.extend(more_players);
    send_all(&ms, &during, 2);
    wait_until(
        "the mail reaches the judge's mailbox",
        Duration::from_secs(60),
        || ms.queued_messages() == 0 && mailbox_count(&ms, JUDGE_ADDRESS, "INBOX") >= during.len(),
    );
    std::thread::sleep(Duration::from_secs(4));
    assert_eq!(
        mailbox_count(&ms, JUDGE_ADDRESS, "INBOX"),
        during.len(),
        "the mail stays on the server while the store is down"
    );
    for j in &mut judges {
        assert!(j.running(), "a judge stopped:\n{}", j.log_tail(30));
    }
    db.server.start_again().expect("start PostgreSQL again");

    let all = before.len() + during.len();
    wait_until("every mail answered", Duration::from_secs(120), || {
        answers_for(&ms, &players).len() >= all
    });
    std::thread::sleep(Duration::from_secs(3));
    let answers = answers_for(&ms, &players);
    assert_eq!(answers.len(), all, "one answer per mail");
    assert_eq!(by_in_reply_to(&answers).len(), all, "every mail answered");
    for j in &mut judges {
        assert!(j.running(), "a judge stopped:\n{}", j.log_tail(30));
    }
    assert!(
        judges
            .iter()
            .any(|j| j.log_text().contains("waiting for the store")),
        "no judge waited for the store"
    );
}
