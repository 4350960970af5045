//! A store that fails is not the mail's fault (issue 35). On a PostgreSQL
//! server of the test's own, which it ends sessions on, stops, restarts
//! and withholds privileges from:
//! - a connection the server ended is made again by the next call, with
//!   its session as it was (liveness lock, commit mode), and a session lock
//!   that went with it (the fetch lock) is known to be gone;
//! - a transaction in which the store failed does not commit, even when
//!   the failure was handled along the way;
//! - a mail whose processing the store fails (a privilege withheld) waits,
//!   uncounted, and is answered normally once the store works; a game's
//!   deadline work the store fails is not set aside;
//! - the real judge rides out a database restart and an outage of several
//!   seconds while mail comes in, and a reload (SIGHUP) while the database
//!   is down; answers every mail once, gives none up, says in its log that
//!   it waits for the store and when it works again, and stops cleanly
//!   (exit 0) even while the database is down;
//! - under systemd's watchdog, a judge waiting for its database keeps
//!   pinging it and says why it waits (`STATUS=`).
//!
//! Skipped with a notice when PostgreSQL is not installed (a failure in
//! CI).

use crate::daemon_common;
use crate::games_support;
use crate::support;
use daemon_common::{Judge, TempDir, count, postgres_maildir_config};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use support::postgres::{PG_PASSWORD, PgDatabase, PgServer};
use zinejudge::testing::daemon::process::{Limits, Processor};
use zinejudge::testing::mail::Identity;
use zinejudge::testing::mail::maildir::Maildir;
use zinejudge::testing::store::{self, Claimant, Store, params};

/// The role the judges run as: no superuser, so that a privilege withheld
/// from it shows.
const ROLE: &str = "judge_role";

/// A database on a server of the test's own, its schema made, and [`ROLE`]
/// allowed everything in it.
fn database(test: &str) -> Option<PgDatabase> {
    let db = PgServer::own_database_or_skip(test)?;
    drop(Store::open(&db.location()).expect("make the schema"));
    db.role(ROLE).expect("make the judges' role");
    Some(db)
}

fn judge_store(db: &PgDatabase, name: &str) -> Store {
    let mut s = Store::open(&db.location_as(ROLE)).expect("open the store as the judges' role");
    s.set_claimant(Claimant::this_process(name, Duration::from_secs(600)))
        .expect("claim as a judge");
    s
}

fn backend_pid(s: &mut Store) -> i64 {
    s.conn()
        .query_row("SELECT CAST(pg_backend_pid() AS BIGINT)", &[], |r| r.get(0))
        .unwrap()
}

/// End the session of `pid` as an operator would, and wait until it is
/// gone.
fn terminate(db: &PgDatabase, pid: i64) {
    assert_eq!(
        db.psql(&format!("SELECT pg_terminate_backend({pid}, 10000)"))
            .unwrap(),
        "t"
    );
}

fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

#[test]
fn a_connection_the_server_ended_is_made_again_with_its_session() {
    let Some(db) = database("store_outage_reconnect") else {
        return;
    };
    let mut a = judge_store(&db, "a");
    a.relax_durability().unwrap();
    let b = judge_store(&db, "b");
    a.insert_inbound("m1@x", "test", b"x", 1, false, 0).unwrap();
    assert_eq!(a.claim_pending(10).unwrap().len(), 1);
    let pid = backend_pid(&mut a);
    terminate(&db, pid);
    // The call that meets the loss fails, as a fault of the store.
    let e = a.pending_count().expect_err("the session was ended");
    assert!(e.is_unavailable(), "{e:#}");
    // The next one connects again.
    assert_eq!(a.pending_count().unwrap(), 1);
    assert_ne!(backend_pid(&mut a), pid, "a new session");
    // With a's liveness lock: a is alive, and its claim holds.
    assert!(b.claim_pending(10).unwrap().is_empty(), "a still holds it");
    // And a's way of committing.
    let mode: String = a
        .conn()
        .query_row("SHOW synchronous_commit", &[], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "off");
}

#[test]
fn the_fetch_lock_lost_with_the_connection_is_known_to_be_lost() {
    let Some(db) = database("store_outage_fetch_lock") else {
        return;
    };
    let mut a = judge_store(&db, "a");
    let b = judge_store(&db, "b");
    assert!(a.try_fetch_lock().unwrap());
    assert!(a.holds_fetch_lock().unwrap(), "a holds it");
    assert!(!b.holds_fetch_lock().unwrap(), "b does not, nor takes it");
    let pid = backend_pid(&mut a);
    terminate(&db, pid);
    assert!(
        b.try_fetch_lock().unwrap(),
        "b takes it when a's session ends"
    );
    assert!(a.holds_fetch_lock().is_err(), "a meets the loss");
    assert!(
        !a.holds_fetch_lock().unwrap(),
        "connected again, a knows it no longer fetches"
    );
    drop(b);
    let deadline = Instant::now() + Duration::from_secs(30);
    while !a.holds_fetch_lock().unwrap() {
        assert!(Instant::now() < deadline, "a takes it back once b is gone");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_transaction_in_which_the_store_failed_does_not_commit_even_if_the_failure_was_handled() {
    let Some(db) = database("store_outage_no_commit") else {
        return;
    };
    let mut s = judge_store(&db, "a");
    db.psql(&format!("REVOKE INSERT ON outbox FROM {ROLE}"))
        .unwrap();
    let tx = s.transaction().unwrap();
    store::set_meta(&tx, "k", "kept?").unwrap();
    // A command's savepoint: its failure is handled, the work goes on.
    tx.execute_batch("SAVEPOINT command").unwrap();
    let e = store::queue_outbox(&tx, None, "o1@j", &["p@x".into()], b"hi", 0)
        .expect_err("INSERT on outbox is withheld");
    assert!(e.is_unavailable(), "a privilege withheld: {e:#}");
    tx.execute_batch("ROLLBACK TO command; RELEASE command")
        .unwrap();
    let e = tx
        .commit()
        .expect_err("not committed without the part that failed");
    assert!(e.is_unavailable(), "{e:#}");
    assert!(
        format!("{e:#}").contains("permission denied for table outbox"),
        "{e:#}"
    );
    assert_eq!(store::meta(s.conn(), "k").unwrap(), None, "rolled back");
    // A transaction without a failure commits as ever.
    let tx = s.transaction().unwrap();
    store::set_meta(&tx, "k", "kept").unwrap();
    tx.commit().unwrap();
    assert_eq!(store::meta(s.conn(), "k").unwrap().as_deref(), Some("kept"));
}

fn processor(store: Store) -> Processor {
    Processor::new(
        store,
        Box::new(zinejudge::testing::commands::Judge::new("zinejudge", "UTC")),
        Identity {
            address: "judge@example.test".into(),
            name: "zinejudge".into(),
            domain: "example.test".into(),
        },
        Limits {
            tick_budget: Duration::from_secs(600),
            // The mail server these mails come through authenticates its
            // senders (daemon_common::STAMP).
            trust: zinejudge::testing::trust::harness_policy(),
            ..Limits::default()
        },
    )
}

/// The case: with INSERT on `outbox` withheld, a mail once died
/// with its judge four times and was given up with an apology. Now the
/// store's fault is the store's: the mail waits, no attempt counted, and
/// is answered as any other once the privilege is back.
#[test]
fn a_mail_the_store_cannot_answer_waits_uncounted_and_is_answered_once_it_can() {
    let Some(db) = database("store_outage_mail_waits") else {
        return;
    };
    let mut p = processor(judge_store(&db, "a"));
    let raw = b"From: player@example.test\r\nTo: judge@example.test\r\nSubject: help\r\n\
                Message-ID: <innocent@example.test>\r\n\r\nHELP\r\n";
    p.store
        .insert_inbound(
            "innocent@example.test",
            "test",
            raw,
            raw.len() as i64,
            false,
            0,
        )
        .unwrap();
    db.psql(&format!("REVOKE INSERT ON outbox FROM {ROLE}"))
        .unwrap();
    for _ in 0..5 {
        let e = p
            .process_some(SystemTime::now(), 64)
            .expect_err("the store cannot queue the answer");
        assert!(e.is_unavailable(), "{e:#}");
    }
    let mut check = Store::open(&db.location()).unwrap();
    let (state, attempts, note): (String, i64, Option<String>) = check
        .conn()
        .query_row(
            "SELECT state, attempts, note FROM inbound WHERE message_id = ?1",
            params!["innocent@example.test"],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(
        (state.as_str(), attempts, note),
        ("new", 0, None),
        "the mail waits, no attempt counted against it"
    );
    assert_eq!(
        count(&mut check, "SELECT count(*) FROM outbox"),
        0,
        "no apology"
    );
    db.psql(&format!("GRANT INSERT ON outbox TO {ROLE}"))
        .unwrap();
    assert_eq!(p.process_some(SystemTime::now(), 64).unwrap(), 1);
    let (state, note): (String, String) = check
        .conn()
        .query_row(
            "SELECT state, note FROM inbound WHERE message_id = ?1",
            params!["innocent@example.test"],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(state, "done", "{note}");
    let answers = check.due_outbox(i64::MAX, 10).unwrap();
    assert_eq!(answers.len(), 1);
    let text = String::from_utf8_lossy(&answers[0].raw).into_owned();
    assert!(
        text.contains("In-Reply-To: <innocent@example.test>") && !text.contains("internal error"),
        "the answer to HELP, not an apology:\n{text}"
    );
}

/// A store that fails under a command (here INSERT on `games` withheld
/// from CREATE) makes the whole mail wait, and the keeper's log names the
/// command and the store's fault (not "a command failed", an internal
/// fault apologised for); the mail is answered once the store works.
#[test]
fn a_command_the_store_fails_under_makes_its_mail_wait_and_says_so() {
    let Some(db) = database("store_outage_command_waits") else {
        return;
    };
    let mut p = processor(judge_store(&db, "a"));
    let raw = format!(
        "{}From: gm@example.test\r\nTo: judge@example.test\r\nSubject: new game\r\n\
         Message-ID: <create@example.test>\r\n\r\nCREATE g1 standard gm-secret-1\r\n",
        daemon_common::STAMP
    );
    let raw = raw.as_bytes();
    p.store
        .insert_inbound(
            "create@example.test",
            "test",
            raw,
            raw.len() as i64,
            false,
            0,
        )
        .unwrap();
    db.psql(&format!("REVOKE INSERT ON games FROM {ROLE}"))
        .unwrap();
    let e = p
        .process_some(SystemTime::now(), 64)
        .expect_err("the store cannot create the game");
    assert!(e.is_unavailable(), "{e:#}");
    let text = format!("{e:#}");
    assert!(
        text.contains("during CREATE") && text.contains("permission denied for table games"),
        "the log names the command and the store's fault: {text}"
    );
    let mut check = Store::open(&db.location()).unwrap();
    assert_eq!(
        count(&mut check, "SELECT count(*) FROM outbox"),
        0,
        "no apology"
    );
    db.psql(&format!("GRANT INSERT ON games TO {ROLE}"))
        .unwrap();
    assert_eq!(p.process_some(SystemTime::now(), 64).unwrap(), 1);
    let answers = check.due_outbox(i64::MAX, 10).unwrap();
    assert_eq!(answers.len(), 1);
    let text = String::from_utf8_lossy(&answers[0].raw).into_owned();
    assert!(
        text.contains("Created g1") && !text.contains("internal fault"),
        "the game is created once the store works:\n{text}"
    );
}

/// The same for the clock: a game whose deadline work the store fails is
/// not set aside (nor its GM told of a fault); it is adjudicated once the
/// store works.
#[test]
fn a_games_deadline_work_the_store_fails_is_not_set_aside() {
    let Some(db) = database("store_outage_deadline_waits") else {
        return;
    };
    games_support::populate(&db.location(), 2, unix_now() - 60, true, false, |i, p| {
        format!("p{i}-{}@example.test", p.to_lowercase())
    });
    let mut p = processor(judge_store(&db, "a"));
    db.psql(&format!("REVOKE INSERT ON outbox FROM {ROLE}"))
        .unwrap();
    let e = p
        .tick(SystemTime::now())
        .expect_err("the results cannot be queued");
    assert!(e.is_unavailable(), "{e:#}");
    let mut check = Store::open(&db.location()).unwrap();
    assert_eq!(
        count(
            &mut check,
            "SELECT count(*) FROM games WHERE fault IS NOT NULL"
        ),
        0,
        "no game set aside"
    );
    assert_eq!(count(&mut check, "SELECT count(*) FROM history"), 0);
    db.psql(&format!("GRANT INSERT ON outbox TO {ROLE}"))
        .unwrap();
    let t = p.tick(SystemTime::now()).unwrap();
    assert_eq!(t.games, 2);
    assert_eq!(count(&mut check, "SELECT count(*) FROM history"), 2);
    assert_eq!(
        count(
            &mut check,
            "SELECT count(*) FROM games WHERE fault IS NOT NULL"
        ),
        0
    );
}

/// A HELP mail from `n`, for the daemon test.
fn help(n: usize) -> (String, Vec<u8>) {
    let id = format!("outage-{n}.{}@players.example.test", std::process::id());
    let raw = format!(
        "From: p{n}@example.test\r\nTo: judge@example.test\r\nSubject: help {n}\r\n\
         Message-ID: <{id}>\r\nDate: Mon, 1 Jan 2024 00:00:00 +0000\r\n\r\nHELP\r\n"
    );
    (id, raw.into_bytes())
}

/// Every mail stored, processed and answered: `(stored, waiting, unsent)`.
fn progress(db: &PgDatabase) -> Option<(i64, i64, i64)> {
    let mut s = Store::open(&db.location()).ok()?;
    let stored = count(&mut s, "SELECT count(*) FROM inbound");
    let waiting = count(&mut s, "SELECT count(*) FROM inbound WHERE state = 'new'");
    Some((stored, waiting, s.unsent_count().ok()?))
}

/// Each mail answered exactly once: one file in `out/` whose In-Reply-To
/// is its Message-ID.
fn answered_once(dir: &std::path::Path, ids: &[String]) {
    let mut answers: std::collections::HashMap<String, usize> = Default::default();
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(dir.join("out").join(sub))
            .unwrap()
            .flatten()
        {
            if e.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let raw = std::fs::read(e.path()).unwrap();
            let a = daemon_common::parse_answer("", &raw);
            *answers.entry(a.in_reply_to).or_default() += 1;
        }
    }
    for id in ids {
        assert_eq!(
            answers.get(id),
            Some(&1),
            "{id}: answered {:?} times",
            answers.get(id)
        );
    }
}

/// The cases for the daemon: `pg_ctl restart`, then a stop of
/// several seconds, while mail comes in; then a privilege withheld and
/// given back; a reload while the database is down; then a stop of the
/// judge while the database is down.
#[test]
fn the_judge_rides_out_database_restarts_and_outages_and_answers_every_mail_once() {
    let Some(db) = database("store_outage_daemon") else {
        return;
    };
    let tmp = TempDir::new("store-outage");
    let dir = tmp.path();
    let pwfile = dir.join("pg-password");
    std::fs::write(&pwfile, format!("{PG_PASSWORD}\n")).unwrap();
    let inbox = Maildir::open(&dir.join("in")).unwrap();
    Maildir::open(&dir.join("out")).unwrap();
    let config = postgres_maildir_config(
        dir,
        &db.url_as(ROLE),
        &pwfile,
        "rider",
        "",
        "\n[report]\npicture = \"none\"\n",
    );
    let mut judge = Judge::start_with(dir, &config);
    let mut ids = Vec::new();
    let mut deliver = |n: usize| {
        let (id, raw) = help(n);
        inbox.deliver(&format!("{n}.eml"), &raw).unwrap();
        ids.push(id);
    };
    let settle = |judge: &Judge, want: usize, what: &str| {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if progress(&db) == Some((want as i64, 0, 0)) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{what}: not settled ({:?} for {want}); log:\n{}",
                progress(&db),
                judge.log_tail(40)
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    for n in 0..10 {
        deliver(n);
    }
    settle(&judge, 10, "before the restart");

    // A restart, mail arriving before and after it.
    for n in 10..20 {
        deliver(n);
    }
    db.server.restart().unwrap();
    for n in 20..30 {
        deliver(n);
    }
    settle(&judge, 30, "after the restart");
    assert!(judge.running(), "the judge rode out the restart");

    // An outage of several seconds: the mail waits in the Maildir.
    db.server.stop().unwrap();
    for n in 30..40 {
        deliver(n);
    }
    std::thread::sleep(Duration::from_secs(6));
    assert!(judge.running(), "the judge waits for its database");
    let waiting = std::fs::read_dir(dir.join("in/new")).unwrap().count();
    assert_eq!(
        waiting, 10,
        "no mail leaves the inbox while the store is down"
    );
    db.server.start_again().unwrap();
    settle(&judge, 40, "after the outage");

    // A privilege withheld, then given back.
    db.psql(&format!("REVOKE INSERT ON outbox FROM {ROLE}"))
        .unwrap();
    for n in 40..45 {
        deliver(n);
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while !judge
        .log_text()
        .contains("permission denied for table outbox")
    {
        assert!(
            Instant::now() < deadline,
            "the judge never met the withheld privilege; log:\n{}",
            judge.log_tail(40)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_secs(3));
    db.psql(&format!("GRANT INSERT ON outbox TO {ROLE}"))
        .unwrap();
    settle(&judge, 45, "after the privilege came back");
    assert!(judge.running());

    // A reload (SIGHUP) while the database is down: the judge cannot
    // start its tasks again at once, waits for the store, and goes on.
    db.server.stop().unwrap();
    judge.signal(libc::SIGHUP);
    for n in 45..50 {
        deliver(n);
    }
    std::thread::sleep(Duration::from_secs(4));
    assert!(judge.running(), "the judge waits through a reload");
    db.server.start_again().unwrap();
    settle(&judge, 50, "after a reload during an outage");
    assert!(
        judge
            .log_text()
            .contains("SIGHUP: the new configuration cannot start"),
        "the reload met the outage; log:\n{}",
        judge.log_tail(30)
    );

    let mut s = Store::open(&db.location()).unwrap();
    assert_eq!(
        count(&mut s, "SELECT count(*) FROM inbound WHERE state <> 'done'"),
        0,
        "no mail given up"
    );
    assert_eq!(
        count(&mut s, "SELECT count(*) FROM inbound WHERE attempts > 1"),
        0,
        "no attempt counted for a fault of the store"
    );
    drop(s);
    answered_once(dir, &ids);
    let log = judge.log_text();
    assert!(log.contains("waiting for the store"), "{log}");
    assert!(log.contains("the store works again"), "{log}");
    assert!(!log.contains("panicked"), "{log}");

    // A stop while the database is down is clean too.
    db.server.stop().unwrap();
    std::thread::sleep(Duration::from_secs(2));
    judge.signal(libc::SIGTERM);
    let status = judge.wait_exit(Duration::from_secs(60));
    assert!(
        status.success(),
        "exit {status:?}; log:\n{}",
        judge.log_tail(30)
    );
    let log = judge.log_text();
    assert!(
        log.lines().any(|l| l.trim_end().ends_with(" stopped")),
        "{log}"
    );
    db.server.start_again().unwrap();
}

/// Under systemd (`Type=notify`, `WatchdogSec=`), a judge waiting for its
/// database is waiting, not stuck: it goes on pinging the watchdog (systemd
/// would otherwise kill it and start it again, in the middle of the
/// outage), and its status line says why it waits. Here the watchdog's
/// period is 4 s and the outage 12 s: a judge that stopped beating would
/// stop pinging within 2 s, long before the pings counted (after 8 s). A
/// shorter period made a loaded machine's scheduling look like a stuck
/// judge (the production unit says 60 s).
#[test]
fn a_judge_waiting_for_its_database_keeps_the_watchdog_alive_and_says_why() {
    use std::os::unix::net::UnixDatagram;
    let Some(db) = database("store_outage_watchdog") else {
        return;
    };
    let tmp = TempDir::new("store-outage-watchdog");
    let dir = tmp.path();
    let pwfile = dir.join("pg-password");
    std::fs::write(&pwfile, format!("{PG_PASSWORD}\n")).unwrap();
    Maildir::open(&dir.join("in")).unwrap();
    Maildir::open(&dir.join("out")).unwrap();
    let config = postgres_maildir_config(
        dir,
        &db.url_as(ROLE),
        &pwfile,
        "watched",
        "",
        "\n[web]\nenabled = false\n",
    );
    std::fs::write(dir.join("zinejudge.toml"), config).unwrap();
    let socket = dir.join("notify.sock");
    let notify = UnixDatagram::bind(&socket).unwrap();
    notify
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let heard: std::sync::Arc<std::sync::Mutex<Vec<(Instant, String)>>> = Default::default();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let listener = {
        let (heard, stop) = (heard.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                if let Ok(n) = notify.recv(&mut buf) {
                    let text = String::from_utf8_lossy(&buf[..n]).into_owned();
                    heard.lock().unwrap().push((Instant::now(), text));
                }
            }
        })
    };
    let log = dir.join("zinejudge.log");
    let mut child = std::process::Command::new(daemon_common::judge_bin())
        .args(["run", "--config", "zinejudge.toml"])
        .current_dir(dir)
        .env_remove("RUST_LOG")
        .env_remove("WATCHDOG_PID")
        .env("NOTIFY_SOCKET", &socket)
        .env("WATCHDOG_USEC", "4000000")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let said = |what: &str| heard.lock().unwrap().iter().any(|(_, m)| m.contains(what));
    let deadline = Instant::now() + Duration::from_secs(60);
    while !said("READY=1") {
        assert!(Instant::now() < deadline, "no READY=1");
        std::thread::sleep(Duration::from_millis(50));
    }
    db.server.stop().unwrap();
    let down = Instant::now();
    std::thread::sleep(Duration::from_secs(12));
    let pings_late: usize = heard
        .lock()
        .unwrap()
        .iter()
        .filter(|(t, m)| *t > down + Duration::from_secs(8) && m.contains("WATCHDOG=1"))
        .count();
    assert!(child.try_wait().unwrap().is_none(), "the judge exited");
    db.server.start_again().unwrap();
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        pings_late > 0,
        "no watchdog ping late in the outage; log:\n{text}"
    );
    assert!(!text.contains("looks stuck"), "{text}");
    assert!(
        said("STATUS=waiting for the store"),
        "{:?}",
        heard.lock().unwrap()
    );
    let deadline = Instant::now() + Duration::from_secs(60);
    while !said("STATUS=working") {
        assert!(
            Instant::now() < deadline,
            "no STATUS=working after the outage"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // SAFETY: kill has no memory-safety preconditions; the pid is our
    // unreaped child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "exit {status:?}");
    assert!(said("STOPPING=1"));
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = listener.join();
}
