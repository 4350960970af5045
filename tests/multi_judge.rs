//! Two judges on one PostgreSQL store and one Maildir inbox and outbox
//! (the store's `# Several judges`), one of them SIGKILLed and started
//! again at random moments while 500 mails come in and 20 games reach
//! their deadline together; meanwhile the other is stopped with SIGTERM
//! (it must log "stopped", exit 0 and leave no claim behind) and started
//! again, the database
//! server is restarted (no judge may exit), and the judges' INSERT on the
//! outbox is revoked for a few seconds and granted again (no mail may be
//! given up: the fault is the store's, not the mail's). The judges run as
//! a role that is no superuser, on a server of the test's own.
//!
//! The two judges are the real binary (`zinejudge run`), each with its own
//! configuration and log, both reading `in/` and writing `out/`. The mails
//! are orders (SIGNON and the bot's orders) for 5 of the games, HELP, LIST,
//! and junk, each junk and HELP mail from an address of its own (the judge
//! answers a junk sender once in a while only). Then:
//! - 0 mails lost: every inbound mail is stored and processed (`done`), and
//!   answered: a mail in `out/` whose In-Reply-To is its Message-ID;
//! - 0 processed twice: exactly one answer per inbound mail (two
//!   processings would make two answers, with two Message-IDs);
//! - 0 phases adjudicated twice: each game has one history row for Spring
//!   1901, and each of its 8 readers (7 players, the GM) one results mail.
//!
//! A mail sent twice (the judge was killed between the Maildir taking it
//! and the mark) lands on the same file (its name is its Message-ID): the
//! outbox's "at least once", which the test allows.
//!
//! Runs in CI on PostgreSQL; outside CI it is skipped with a notice when
//! the server binaries are not installed. `ZJ_KILL_SEED` replays a run
//! (the seed is printed).

mod daemon_common;
#[path = "games_support/mod.rs"]
mod games_support;
mod support;
#[path = "support_judge/mod.rs"]
mod support_judge;

use daemon_common::{Judge, TempDir, count, parse_answer, postgres_maildir_config};
use std::collections::HashMap;
use std::process::ExitStatus;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use support::postgres::{PG_PASSWORD, PgServer};
use zinejudge::mail::maildir::Maildir;
use zinejudge::store::{Store, params};

const MAILS: usize = 500;
const GAMES: usize = 20;
/// Games whose players send orders by mail.
const MAIL_GAMES: usize = 5;
const KILLS: usize = 5;
/// The role the judges run as (a superuser would ignore the revoke).
const ROLE: &str = "judge_role";
/// How long the judges' INSERT on the outbox stays revoked.
const REVOKED_FOR: Duration = Duration::from_secs(3);

/// The SIGTERMed judge exited as a clean stop does: status 0, and its log
/// says it stopped (`stops` times so far).
fn stopped_cleanly(judge: &Judge, status: ExitStatus, stops: usize) {
    let log = judge.log_text();
    assert!(
        status.success(),
        "SIGTERM: exit {status:?}; log:\n{}",
        judge.log_tail(40)
    );
    let said = log
        .lines()
        .filter(|l| l.trim_end().ends_with(" stopped"))
        .count();
    assert_eq!(said, stops, "SIGTERM: log:\n{}", judge.log_tail(40));
    assert!(!log.contains("panicked"), "{log}");
}

fn mail(n: usize, from: &str, body: &str) -> (String, Vec<u8>) {
    let id = format!("kill-{n}.{}@players.example.test", std::process::id());
    let raw = format!(
        "From: {from}\r\nTo: judge@example.test\r\nSubject: mail {n}\r\n\
         Message-ID: <{id}>\r\nDate: Mon, 1 Jan 2024 00:00:00 +0000\r\n\r\n{}\r\n",
        body.replace('\n', "\r\n")
    );
    (id, raw.into_bytes())
}

#[test]
fn two_judges_one_killed_again_and_again_lose_nothing_and_do_nothing_twice() {
    // A server of its own: the test restarts it.
    let Some(db) = PgServer::own_database_or_skip("multi_judge") else {
        return;
    };
    let seed = std::env::var("ZJ_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
        });
    eprintln!("ZJ_KILL_SEED={seed}");
    let mut rng = fastrand::Rng::with_seed(seed);
    let tmp = TempDir::new("multi-judge");
    let dir = tmp.path();
    let pwfile = dir.join("pg-password");
    std::fs::write(&pwfile, format!("{PG_PASSWORD}\n")).unwrap();
    let inbox = Maildir::open(&dir.join("in")).unwrap();
    Maildir::open(&dir.join("out")).unwrap();

    // 20 games, every power holding orders, due together a few seconds
    // after the judges start.
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let deadline = now + 14;
    let players = games_support::populate(&db.location(), GAMES, deadline, true, false, |i, p| {
        format!("p{i}-{}@example.test", p.to_lowercase())
    });
    db.role(ROLE).expect("the judges' role");

    let mut judges: Vec<Judge> = ["east", "west"]
        .iter()
        .map(|name| {
            let d = dir.join(name);
            std::fs::create_dir_all(&d).unwrap();
            Judge::start_with(
                &d,
                &postgres_maildir_config(
                    dir,
                    &db.url_as(ROLE),
                    &pwfile,
                    name,
                    "lease-seconds = 3\n",
                    "\n[report]\npicture = \"none\"\n",
                ),
            )
        })
        .collect();

    // The mails, in a random order.
    let orderers: Vec<_> = players
        .iter()
        .filter(|p| p.game[1..].parse::<usize>().is_ok_and(|i| i < MAIL_GAMES))
        .collect();
    let mut mails: Vec<(String, Vec<u8>)> = (0..MAILS)
        .map(|n| match n % 10 {
            0..=4 => {
                let p = orderers[n % orderers.len()];
                mail(n, &p.address, &p.signed_orders("\n"))
            }
            5 | 6 => mail(n, &format!("help{n}@example.test"), "HELP"),
            7 => mail(n, &format!("lister{n}@example.test"), "LIST"),
            _ => mail(
                n,
                &format!("junk{n}@example.test"),
                "Hello, is this the judge? Nothing here is a command.",
            ),
        })
        .collect();
    rng.shuffle(&mut mails);
    let ids: Vec<String> = mails.iter().map(|(id, _)| id.clone()).collect();

    // Mail comes in over about 15 s; the victim is killed at random
    // moments over about 30 s (the deadline burst falls among them) and
    // started again after a random pause.
    let t0 = Instant::now();
    let spacing = Duration::from_millis(30);
    let mut kills: Vec<Duration> = (0..KILLS)
        .map(|_| Duration::from_millis(rng.u64(1_000..30_000)))
        .collect();
    kills.sort();
    let mut next_mail = 0usize;
    let mut killed = 0usize;
    let mut down_until: Option<Instant> = None;
    // The east judge: SIGTERMed once, started again a second after it
    // exits.
    let term_at = Duration::from_millis(rng.u64(2_000..25_000));
    let mut term: Option<Instant> = None;
    let mut east_name = String::new();
    let mut east_down_until: Option<Instant> = None;
    let mut terms = 0usize;
    // The database: restarted once while mail comes in, at a moment when
    // no judge is starting (a judge starting refuses to run on a database
    // it cannot reach, as it should); the outbox's INSERT revoked once, for
    // REVOKED_FOR, while mail comes in (no judge starts meanwhile: it would
    // refuse to run without it).
    let restart_at = Duration::from_millis(rng.u64(2_000..8_000));
    let mut restarted = false;
    let revoke_at = Duration::from_millis(rng.u64(9_000..13_000));
    let mut revoked: Option<Instant> = None;
    let mut granted = false;
    let mut up_since = [Instant::now(), Instant::now()];
    while next_mail < mails.len()
        || killed < KILLS
        || down_until.is_some()
        || terms == 0
        || term.is_some()
        || east_down_until.is_some()
        || !restarted
        || !granted
    {
        let elapsed = t0.elapsed();
        while next_mail < mails.len() && elapsed >= spacing * next_mail as u32 {
            let (_, raw) = &mails[next_mail];
            inbox
                .deliver(&format!("{}.{next_mail}.eml", std::process::id()), raw)
                .expect("deliver to the inbox");
            next_mail += 1;
        }
        if down_until.is_none() && killed < KILLS && elapsed >= kills[killed] {
            judges[1].kill();
            killed += 1;
            down_until = Some(Instant::now() + Duration::from_millis(rng.u64(200..3_000)));
            eprintln!(
                "killed the west judge at {:.1} s ({next_mail} mails in)",
                elapsed.as_secs_f64()
            );
        }
        if revoked.is_none() && down_until.is_some_and(|t| Instant::now() >= t) {
            down_until = None;
            judges[1].spawn();
            up_since[1] = Instant::now();
        }
        if terms == 0 && term.is_none() && elapsed >= term_at {
            east_name = format!("east:{}", judges[0].pid());
            judges[0].signal(libc::SIGTERM);
            term = Some(Instant::now());
            eprintln!(
                "SIGTERM to the east judge at {:.1} s",
                elapsed.as_secs_f64()
            );
        }
        if let Some(at) = term {
            if let Some(status) = judges[0].try_exit() {
                terms += 1;
                stopped_cleanly(&judges[0], status, terms);
                // It gave up what it had claimed and not done.
                let mut s = Store::open(&db.location()).expect("open the store");
                let kept = s
                    .conn()
                    .query_row(
                        "SELECT (SELECT count(*) FROM inbound WHERE state = 'new' AND claimed_by = ?1)
                             + (SELECT count(*) FROM outbox
                                WHERE state IN ('queued', 'sending') AND claimed_by = ?1)",
                        params![east_name],
                        |r| r.get::<i64>(0),
                    )
                    .unwrap();
                assert_eq!(kept, 0, "the stopped judge kept claims");
                eprintln!(
                    "the east judge stopped in {:.1} s",
                    at.elapsed().as_secs_f64()
                );
                term = None;
                east_down_until = Some(Instant::now() + Duration::from_secs(1));
            } else {
                assert!(
                    at.elapsed() < Duration::from_secs(90),
                    "the east judge did not stop; log:\n{}",
                    judges[0].log_tail(40)
                );
            }
        }
        if revoked.is_none() && east_down_until.is_some_and(|t| Instant::now() >= t) {
            east_down_until = None;
            judges[0].spawn();
            up_since[0] = Instant::now();
        }
        // Each judge is down, or up long enough to be past its start.
        let started = [
            term.is_some() || east_down_until.is_some(),
            down_until.is_some(),
        ]
        .iter()
        .zip(&up_since)
        .all(|(down, t)| *down || t.elapsed() >= Duration::from_secs(2));
        // Not while the east judge stops: the test checks that it gives up
        // its claims, which it cannot while the database is down.
        if !restarted && elapsed >= restart_at && started && term.is_none() {
            let t = Instant::now();
            db.server.restart().expect("restart PostgreSQL");
            restarted = true;
            eprintln!(
                "restarted PostgreSQL at {:.1} s (took {:.1} s, {next_mail} mails in)",
                elapsed.as_secs_f64(),
                t.elapsed().as_secs_f64()
            );
        }
        // At least one judge is up to meet it: a revoke while both are
        // down (one killed, the other stopping) would test nothing.
        let one_up = (term.is_none() && east_down_until.is_none()) || down_until.is_none();
        if revoked.is_none() && !granted && elapsed >= revoke_at && started && one_up {
            db.psql(&format!("REVOKE INSERT ON outbox FROM {ROLE}"))
                .expect("revoke");
            revoked = Some(Instant::now());
            eprintln!("revoked INSERT on outbox at {:.1} s", elapsed.as_secs_f64());
        }
        if revoked.is_some_and(|t| t.elapsed() >= REVOKED_FOR) {
            db.psql(&format!("GRANT INSERT ON outbox TO {ROLE}"))
                .expect("grant");
            revoked = None;
            granted = true;
            eprintln!(
                "granted INSERT on outbox again at {:.1} s",
                t0.elapsed().as_secs_f64()
            );
        }
        // No judge exits but by the test's hand: not on the restart, nor
        // on the revoke.
        if term.is_none() && east_down_until.is_none() {
            assert!(
                judges[0].running(),
                "the east judge stopped; log:\n{}",
                judges[0].log_tail(40)
            );
        }
        if down_until.is_none() {
            assert!(
                judges[1].running(),
                "the west judge stopped; log:\n{}",
                judges[1].log_tail(40)
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    eprintln!(
        "all {} mails in, {KILLS} kills, a SIGTERM, a restart of the database and a revoke \
         done at {:.1} s",
        mails.len(),
        t0.elapsed().as_secs_f64()
    );

    // Everything processed, adjudicated and sent.
    let mut store = Store::open(&db.location()).unwrap();
    let settle = Instant::now() + Duration::from_secs(150);
    loop {
        let stored = count(&mut store, "SELECT count(*) FROM inbound");
        let open = count(
            &mut store,
            "SELECT count(*) FROM inbound WHERE state = 'new'",
        );
        let unsent = store.unsent_count().unwrap();
        let played = count(&mut store, "SELECT count(DISTINCT game) FROM history");
        if stored == MAILS as i64 && open == 0 && unsent == 0 && played == GAMES as i64 {
            break;
        }
        assert!(
            Instant::now() < settle,
            "not settled: {stored} stored, {open} waiting, {unsent} unsent, {played} games played\n\
             east:\n{}\nwest:\n{}",
            judges[0].log_tail(30),
            judges[1].log_tail(30)
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    eprintln!(
        "settled at {:.1} s; mails whose processing began more than once: {}; \
         outbox mails handed over more than once: {}",
        t0.elapsed().as_secs_f64(),
        count(
            &mut store,
            "SELECT count(*) FROM inbound WHERE attempts > 1"
        ),
        count(&mut store, "SELECT count(*) FROM outbox WHERE attempts > 1"),
    );
    for j in &mut judges {
        j.kill();
    }

    // 0 lost: every mail stored once and done; none given up (failed)
    // for the store's faults.
    let not_done = count(
        &mut store,
        "SELECT count(*) FROM inbound WHERE state <> 'done'",
    );
    assert_eq!(not_done, 0, "mails failed or waiting");
    assert_eq!(
        count(
            &mut store,
            "SELECT count(*) FROM inbound WHERE note LIKE 'failed%'"
        ),
        0,
        "a mail given up"
    );
    assert_eq!(
        count(&mut store, "SELECT count(DISTINCT message_id) FROM inbound"),
        MAILS as i64
    );
    for id in &ids {
        let n: i64 = store
            .conn()
            .query_row(
                "SELECT count(*) FROM inbound WHERE message_id = ?1",
                params![id],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(n, 1, "{id} stored {n} times");
    }
    // 0 adjudicated twice: one history row per game and phase.
    assert_eq!(
        count(
            &mut store,
            "SELECT count(*) FROM (SELECT game, phase FROM history GROUP BY game, phase
             HAVING count(*) > 1) AS twice"
        ),
        0,
        "a phase in the history twice"
    );
    assert_eq!(
        count(
            &mut store,
            "SELECT count(*) FROM history WHERE phase = 'S1901M'"
        ),
        GAMES as i64
    );

    // What the judges sent, one file per Message-ID.
    let mut answers: HashMap<String, Vec<String>> = HashMap::new();
    let mut results: HashMap<(String, String), usize> = HashMap::new();
    let mut files = 0;
    for sub in ["new", "cur"] {
        for e in std::fs::read_dir(dir.join("out").join(sub))
            .unwrap()
            .flatten()
        {
            // Not mail, by the Maildir convention: a judge killed while it
            // checked at start that it can write here leaves its probe
            // (`.zinejudge-check-PID`, empty).
            if e.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let raw = std::fs::read(e.path()).unwrap();
            assert!(
                !raw.is_empty(),
                "an empty file in the outbox: {} ({:?})",
                e.path().display(),
                e.metadata()
            );
            let to = String::from_utf8_lossy(&raw)
                .lines()
                .find_map(|l| l.strip_prefix("To: ").map(str::to_string))
                .unwrap_or_default();
            let a = parse_answer(&to, &raw);
            files += 1;
            if a.in_reply_to.is_empty() {
                *results
                    .entry((a.to.clone(), a.subject.clone()))
                    .or_default() += 1;
            } else {
                answers
                    .entry(a.in_reply_to.clone())
                    .or_default()
                    .push(a.message_id.clone());
            }
        }
    }
    eprintln!(
        "{files} mails sent: {} answers, {} others",
        answers.values().map(Vec::len).sum::<usize>(),
        results.values().sum::<usize>()
    );
    // 0 lost, 0 processed twice: one answer per mail.
    let mut unanswered = Vec::new();
    for id in &ids {
        match answers.get(id).map(Vec::len).unwrap_or(0) {
            1 => {}
            0 => unanswered.push(id.clone()),
            n => panic!("{id} answered {n} times: {:?}", answers[id]),
        }
    }
    assert!(
        unanswered.is_empty(),
        "{} mails unanswered, e.g. {:?}",
        unanswered.len(),
        &unanswered[..unanswered.len().min(5)]
    );
    // 0 adjudicated twice: one results mail per game and reader.
    for ((to, subject), n) in &results {
        assert_eq!(*n, 1, "{to} got {subject:?} {n} times");
    }
    for i in 0..GAMES {
        let subject = format!("g{i}: Spring 1901 results");
        let readers = results.keys().filter(|(_, s)| *s == subject).count();
        assert_eq!(
            readers, 8,
            "{subject}: {readers} readers, not 7 players and the GM"
        );
    }
    // The judges met the database's restart, waited, and went on (a judge
    // killed meanwhile may not have said so); and the revoke met mail being
    // answered.
    assert!(
        judges.iter().any(|j| {
            let log = j.log_text();
            log.contains("waiting for the store") && log.contains("the store works again")
        }),
        "no judge waited for the store"
    );
    assert!(
        judges
            .iter()
            .any(|j| j.log_text().contains("permission denied for table outbox")),
        "no judge met the revoked INSERT"
    );
    // The victim took part between its deaths.
    let west = judges[1].log_text();
    assert!(
        west.matches("mail processed").count() > 0,
        "the west judge processed no mail"
    );
    eprintln!(
        "mails processed: east {}, west {}; starts of west: {}",
        judges[0].log_text().matches("mail processed").count(),
        west.matches("mail processed").count(),
        judges[1].starts
    );
}

/// The deadline work of two judges, in this process, on the same 30 due
/// games at the same instant, in the same order: each game's phase is
/// adjudicated once (one history row, one results mail per reader), the
/// second judge finding the game no longer due once the first has done
/// it. The SIGKILL test above seldom has both judges on one game at once;
/// this one always does.
#[test]
fn two_judges_working_on_the_same_due_games_at_once_adjudicate_each_once() {
    use zinejudge::daemon::process::{Limits, Processor};
    use zinejudge::mail::Identity;
    use zinejudge::store::Claimant;
    const DUE: usize = 30;
    let Some(db) = PgServer::database_or_skip("multi_judge_same_games") else {
        return;
    };
    let now = SystemTime::now();
    let unix = now.duration_since(UNIX_EPOCH).unwrap().as_secs() as i64;
    games_support::populate(&db.location(), DUE, unix - 60, true, false, |i, p| {
        format!("p{i}-{}@example.test", p.to_lowercase())
    });
    let start = std::sync::Arc::new(std::sync::Barrier::new(2));
    let workers: Vec<_> = ["a", "b"]
        .into_iter()
        .map(|name| {
            let mut store = Store::open(&db.location()).unwrap();
            store
                .set_claimant(Claimant::this_process(name, Duration::from_secs(30)))
                .unwrap();
            let start = std::sync::Arc::clone(&start);
            std::thread::spawn(move || {
                let mut p = Processor::new(
                    store,
                    Box::new(zinejudge::commands::Judge::new("zinejudge", "UTC")),
                    Identity {
                        address: "judge@example.test".into(),
                        name: "zinejudge".into(),
                        domain: "example.test".into(),
                    },
                    Limits {
                        tick_budget: Duration::from_secs(600),
                        ..Limits::default()
                    },
                );
                start.wait();
                let mut queued = 0;
                loop {
                    let t = p.tick(now).expect("the store works");
                    queued += t.queued;
                    if !t.more {
                        return queued;
                    }
                }
            })
        })
        .collect();
    let queued: Vec<usize> = workers.into_iter().map(|w| w.join().unwrap()).collect();
    let mut store = Store::open(&db.location()).unwrap();
    assert_eq!(
        count(
            &mut store,
            "SELECT count(*) FROM history WHERE phase = 'S1901M'"
        ),
        DUE as i64
    );
    assert_eq!(
        count(
            &mut store,
            "SELECT count(*) FROM (SELECT game, phase FROM history GROUP BY game, phase
             HAVING count(*) > 1) AS twice"
        ),
        0
    );
    let mails = store.due_outbox(i64::MAX, 100_000).unwrap();
    let mut per: HashMap<(String, String), usize> = HashMap::new();
    for m in &mails {
        let a = parse_answer(&m.recipients.join(","), &m.raw);
        *per.entry((a.to, a.subject)).or_default() += 1;
    }
    assert!(
        per.values().all(|n| *n == 1),
        "a reader got a mail twice: {per:?}"
    );
    assert_eq!(
        mails.len(),
        DUE * 8,
        "one results mail per game and reader (queued by a, b: {queued:?})"
    );
    assert!(
        mails.iter().all(|m| {
            let a = parse_answer("", &m.raw);
            a.subject.ends_with(": Spring 1901 results")
        }),
        "results only, no game set aside"
    );
}
