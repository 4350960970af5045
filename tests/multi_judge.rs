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
use std::path::Path;
use std::process::ExitStatus;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use support::postgres::{PG_PASSWORD, PgDatabase, PgServer};
use zinejudge::testing::mail::maildir::Maildir;
use zinejudge::testing::store::{Store, params};

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

/// Two judges, "east" and "west", on the test's database as [`ROLE`], both
/// reading `in/` and writing `out/` under `dir`, with short leases and no
/// pictures.
fn start_two_judges(dir: &Path, db: &PgDatabase, pwfile: &Path) -> Vec<Judge> {
    ["east", "west"]
        .iter()
        .map(|name| {
            let d = dir.join(name);
            std::fs::create_dir_all(&d).unwrap();
            Judge::start_with(
                &d,
                &postgres_maildir_config(
                    dir,
                    &db.url_as(ROLE),
                    pwfile,
                    name,
                    "lease-seconds = 3\n",
                    "\n[report]\npicture = \"none\"\n",
                ),
            )
        })
        .collect()
}

/// The mails players and strangers send, in a random order: orders from
/// the players of the first [`MAIL_GAMES`] games, HELP, LIST and junk, each
/// HELP, LIST and junk mail from an address of its own.
fn the_mails(players: &[games_support::Player], rng: &mut fastrand::Rng) -> Vec<(String, Vec<u8>)> {
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
    mails
}

/// What the test does to the judges and the database while mail comes in,
/// when, and how far it has got.
struct Faults {
    /// When the west judge is killed, from the start of the mail.
    kills: Vec<Duration>,
    killed: usize,
    /// The killed west judge is started again then.
    down_until: Option<Instant>,
    /// When the east judge gets its SIGTERM.
    term_at: Duration,
    /// When the SIGTERM was sent, while the east judge has not yet exited.
    term: Option<Instant>,
    /// The name the SIGTERMed judge claims work under.
    east_name: String,
    /// The stopped east judge is started again then.
    east_down_until: Option<Instant>,
    terms: usize,
    restart_at: Duration,
    restarted: bool,
    revoke_at: Duration,
    /// When the INSERT was revoked, while it is.
    revoked: Option<Instant>,
    granted: bool,
}

impl Faults {
    /// The victim (west) is killed at random moments over about 30 s (the
    /// deadline burst falls among them) and started again after a random
    /// pause. The east judge is SIGTERMed once and started again a second
    /// after it exits. The database is restarted once while mail comes in,
    /// at a moment when no judge is starting (a judge starting refuses to
    /// run on a database it cannot reach, as it should); the outbox's
    /// INSERT is revoked once, for [`REVOKED_FOR`], while mail comes in (no
    /// judge starts meanwhile: it would refuse to run without it).
    fn plan(rng: &mut fastrand::Rng) -> Faults {
        let mut kills: Vec<Duration> = (0..KILLS)
            .map(|_| Duration::from_millis(rng.u64(1_000..30_000)))
            .collect();
        kills.sort();
        let mut term_at = Duration::from_millis(rng.u64(2_000..25_000));
        let restart_at = Duration::from_millis(rng.u64(2_000..8_000));
        let revoke_at = Duration::from_millis(rng.u64(9_000..13_000));
        // The east judge stops neither just before the revoke (it would
        // still be starting again, and the revoke would come after the
        // last mail) nor during it.
        let quiet = revoke_at.saturating_sub(Duration::from_secs(4))..revoke_at + REVOKED_FOR;
        if quiet.contains(&term_at) {
            term_at = revoke_at + REVOKED_FOR + Duration::from_secs(2);
        }
        Faults {
            kills,
            killed: 0,
            down_until: None,
            term_at,
            term: None,
            east_name: String::new(),
            east_down_until: None,
            terms: 0,
            restart_at,
            restarted: false,
            revoke_at,
            revoked: None,
            granted: false,
        }
    }

    /// Every fault has happened and every judge is back.
    fn all_done(&self) -> bool {
        self.killed >= KILLS
            && self.down_until.is_none()
            && self.terms > 0
            && self.term.is_none()
            && self.east_down_until.is_none()
            && self.restarted
            && self.granted
    }

    /// The test SIGKILLs the west judge when its next kill is due, and
    /// starts it again when its pause is over (not while the INSERT is
    /// revoked).
    fn kill_and_start_the_west_judge(
        &mut self,
        judges: &mut [Judge],
        rng: &mut fastrand::Rng,
        elapsed: Duration,
        next_mail: usize,
    ) {
        if self.down_until.is_none() && self.killed < KILLS && elapsed >= self.kills[self.killed] {
            judges[1].kill();
            self.killed += 1;
            self.down_until = Some(Instant::now() + Duration::from_millis(rng.u64(200..3_000)));
            eprintln!(
                "killed the west judge at {:.1} s ({next_mail} mails in)",
                elapsed.as_secs_f64()
            );
        }
        if self.revoked.is_none() && self.down_until.is_some_and(|t| Instant::now() >= t) {
            self.down_until = None;
            judges[1].spawn();
        }
    }

    /// The test sends the east judge its SIGTERM when due; once it exits,
    /// checks that it stopped cleanly and gave up what it had claimed and
    /// not done, and a second later starts it again (not while the INSERT
    /// is revoked).
    fn stop_and_start_the_east_judge(
        &mut self,
        judges: &mut [Judge],
        db: &PgDatabase,
        elapsed: Duration,
    ) {
        // Not while the INSERT is revoked: the east judge is the one that
        // must meet the revoke (the west may be killed at any moment).
        if self.terms == 0
            && self.term.is_none()
            && self.revoked.is_none()
            && elapsed >= self.term_at
        {
            self.east_name = format!("east:{}", judges[0].pid());
            judges[0].signal(libc::SIGTERM);
            self.term = Some(Instant::now());
            eprintln!(
                "SIGTERM to the east judge at {:.1} s",
                elapsed.as_secs_f64()
            );
        }
        if let Some(at) = self.term {
            if let Some(status) = judges[0].try_exit() {
                self.terms += 1;
                stopped_cleanly(&judges[0], status, self.terms);
                // It gave up what it had claimed and not done.
                let mut s = Store::open(&db.location()).expect("open the store");
                let kept = s
                    .conn()
                    .query_row(
                        "SELECT (SELECT count(*) FROM inbound WHERE state = 'new' AND claimed_by = ?1)
                             + (SELECT count(*) FROM outbox
                                WHERE state IN ('queued', 'sending') AND claimed_by = ?1)",
                        params![self.east_name],
                        |r| r.get::<i64>(0),
                    )
                    .unwrap();
                assert_eq!(kept, 0, "the stopped judge kept claims");
                eprintln!(
                    "the east judge stopped in {:.1} s",
                    at.elapsed().as_secs_f64()
                );
                self.term = None;
                self.east_down_until = Some(Instant::now() + Duration::from_secs(1));
            } else {
                assert!(
                    at.elapsed() < Duration::from_secs(90),
                    "the east judge did not stop; log:\n{}",
                    judges[0].log_tail(40)
                );
            }
        }
        if self.revoked.is_none() && self.east_down_until.is_some_and(|t| Instant::now() >= t) {
            self.east_down_until = None;
            judges[0].spawn();
        }
    }

    /// Each judge is down, or past its start (it said so in its log): a
    /// fault of the store met during a start is the start's to report, not
    /// ridden out (systemd starts the judge again).
    fn started(&self, judges: &[Judge]) -> bool {
        [
            self.term.is_some() || self.east_down_until.is_some(),
            self.down_until.is_some(),
        ]
        .iter()
        .zip(judges)
        .all(|(down, j)| *down || j.is_running())
    }

    /// The test restarts PostgreSQL once, when due, while no judge is
    /// starting, and not while the east judge stops: the test checks that
    /// it gives up its claims, which it cannot while the database is down.
    fn restart_the_database(
        &mut self,
        db: &PgDatabase,
        elapsed: Duration,
        started: bool,
        next_mail: usize,
    ) {
        if !self.restarted && elapsed >= self.restart_at && started && self.term.is_none() {
            let t = Instant::now();
            db.server.restart().expect("restart PostgreSQL");
            self.restarted = true;
            eprintln!(
                "restarted PostgreSQL at {:.1} s (took {:.1} s, {next_mail} mails in)",
                elapsed.as_secs_f64(),
                t.elapsed().as_secs_f64()
            );
        }
    }

    /// The test revokes the judges' INSERT on the outbox once, when due and
    /// while the east judge is up to meet it, and grants it again after
    /// [`REVOKED_FOR`]. The east judge is never stopped meanwhile (a revoke
    /// while both are down, the west killed, the east stopping, tests
    /// nothing: seed 1795796693533848339 did that).
    fn revoke_and_grant_the_outbox(
        &mut self,
        db: &PgDatabase,
        elapsed: Duration,
        started: bool,
        t0: Instant,
    ) {
        let east_up = self.term.is_none() && self.east_down_until.is_none();
        if self.revoked.is_none()
            && !self.granted
            && elapsed >= self.revoke_at
            && started
            && east_up
        {
            db.psql(&format!("REVOKE INSERT ON outbox FROM {ROLE}"))
                .expect("revoke");
            self.revoked = Some(Instant::now());
            eprintln!("revoked INSERT on outbox at {:.1} s", elapsed.as_secs_f64());
        }
        if self.revoked.is_some_and(|t| t.elapsed() >= REVOKED_FOR) {
            db.psql(&format!("GRANT INSERT ON outbox TO {ROLE}"))
                .expect("grant");
            self.revoked = None;
            self.granted = true;
            eprintln!(
                "granted INSERT on outbox again at {:.1} s",
                t0.elapsed().as_secs_f64()
            );
        }
    }

    /// No judge exits but by the test's hand: not on the restart, nor on
    /// the revoke.
    fn no_judge_exited_by_itself(&self, judges: &mut [Judge]) {
        if self.term.is_none() && self.east_down_until.is_none() {
            assert!(
                judges[0].running(),
                "the east judge stopped; log:\n{}",
                judges[0].log_tail(40)
            );
        }
        if self.down_until.is_none() {
            assert!(
                judges[1].running(),
                "the west judge stopped; log:\n{}",
                judges[1].log_tail(40)
            );
        }
    }
}

/// Mail comes in over about 15 s, one every 30 ms, while the test does
/// what [`Faults`] plans to the judges and the database; returns when all
/// mail is in and every fault is over.
fn mail_comes_in_through_the_faults(
    inbox: &Maildir,
    mails: &[(String, Vec<u8>)],
    judges: &mut [Judge],
    db: &PgDatabase,
    rng: &mut fastrand::Rng,
    t0: Instant,
) {
    let spacing = Duration::from_millis(30);
    let mut f = Faults::plan(rng);
    let mut next_mail = 0usize;
    while next_mail < mails.len() || !f.all_done() {
        let elapsed = t0.elapsed();
        while next_mail < mails.len() && elapsed >= spacing * next_mail as u32 {
            let (_, raw) = &mails[next_mail];
            inbox
                .deliver(&format!("{}.{next_mail}.eml", std::process::id()), raw)
                .expect("deliver to the inbox");
            next_mail += 1;
        }
        f.kill_and_start_the_west_judge(judges, rng, elapsed, next_mail);
        f.stop_and_start_the_east_judge(judges, db, elapsed);
        let started = f.started(judges);
        f.restart_the_database(db, elapsed, started, next_mail);
        f.revoke_and_grant_the_outbox(db, elapsed, started, t0);
        f.no_judge_exited_by_itself(judges);
        std::thread::sleep(Duration::from_millis(10));
    }
    eprintln!(
        "all {} mails in, {KILLS} kills, a SIGTERM, a restart of the database and a revoke \
         done at {:.1} s",
        mails.len(),
        t0.elapsed().as_secs_f64()
    );
}

/// The test waits until everything is processed, adjudicated and sent,
/// then kills both judges.
fn everything_settles(store: &mut Store, judges: &mut [Judge], t0: Instant) {
    let settle = Instant::now() + Duration::from_secs(150);
    loop {
        let stored = count(store, "SELECT count(*) FROM inbound");
        let open = count(store, "SELECT count(*) FROM inbound WHERE state = 'new'");
        let unsent = store.unsent_count().unwrap();
        let played = count(store, "SELECT count(DISTINCT game) FROM history");
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
        count(store, "SELECT count(*) FROM inbound WHERE attempts > 1"),
        count(store, "SELECT count(*) FROM outbox WHERE attempts > 1"),
    );
    for j in judges {
        j.kill();
    }
}

/// In the store: 0 lost (every mail stored once and done; none given up,
/// failed, for the store's faults) and 0 adjudicated twice (one history
/// row per game and phase).
fn the_store_lost_nothing_and_did_nothing_twice(store: &mut Store, ids: &[String]) {
    let not_done = count(store, "SELECT count(*) FROM inbound WHERE state <> 'done'");
    assert_eq!(not_done, 0, "mails failed or waiting");
    assert_eq!(
        count(
            store,
            "SELECT count(*) FROM inbound WHERE note LIKE 'failed%'"
        ),
        0,
        "a mail given up"
    );
    assert_eq!(
        count(store, "SELECT count(DISTINCT message_id) FROM inbound"),
        MAILS as i64
    );
    for id in ids {
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
    assert_eq!(
        count(
            store,
            "SELECT count(*) FROM (SELECT game, phase FROM history GROUP BY game, phase
             HAVING count(*) > 1) AS twice"
        ),
        0,
        "a phase in the history twice"
    );
    assert_eq!(
        count(store, "SELECT count(*) FROM history WHERE phase = 'S1901M'"),
        GAMES as i64
    );
}

/// What the judges sent to `out/` under `dir`, one file per Message-ID: the
/// answers' Message-IDs by the Message-ID they answer, and how often each
/// reader got each other mail (the results).
#[allow(clippy::type_complexity)]
fn what_the_judges_sent(
    dir: &Path,
) -> (
    HashMap<String, Vec<String>>,
    HashMap<(String, String), usize>,
) {
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
    (answers, results)
}

/// In the mail sent: 0 lost and 0 processed twice (one answer per mail),
/// and 0 adjudicated twice (one results mail per game and reader, and 8
/// readers, 7 players and the GM, for each game).
fn one_answer_per_mail_and_one_result_per_reader(
    answers: &HashMap<String, Vec<String>>,
    results: &HashMap<(String, String), usize>,
    ids: &[String],
) {
    let mut unanswered = Vec::new();
    for id in ids {
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
    for ((to, subject), n) in results {
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
}

/// The judges met the database's restart, waited, and went on (a judge
/// killed meanwhile may not have said so); the revoke met mail being
/// answered; and the victim took part between its deaths.
fn the_judges_met_every_fault(judges: &[Judge]) {
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
    let mut judges = start_two_judges(dir, &db, &pwfile);
    let mails = the_mails(&players, &mut rng);
    let ids: Vec<String> = mails.iter().map(|(id, _)| id.clone()).collect();

    let t0 = Instant::now();
    mail_comes_in_through_the_faults(&inbox, &mails, &mut judges, &db, &mut rng, t0);
    let mut store = Store::open(&db.location()).unwrap();
    everything_settles(&mut store, &mut judges, t0);
    the_store_lost_nothing_and_did_nothing_twice(&mut store, &ids);
    let (answers, results) = what_the_judges_sent(dir);
    one_answer_per_mail_and_one_result_per_reader(&answers, &results, &ids);
    the_judges_met_every_fault(&judges);
}

/// The deadline work of two judges, in this process, on the same 30 due
/// games at the same instant, in the same order: each game's phase is
/// adjudicated once (one history row, one results mail per reader), the
/// second judge finding the game no longer due once the first has done
/// it. The SIGKILL test above seldom has both judges on one game at once;
/// this one always does.
#[test]
fn two_judges_working_on_the_same_due_games_at_once_adjudicate_each_once() {
    use zinejudge::testing::daemon::process::{Limits, Processor};
    use zinejudge::testing::mail::Identity;
    use zinejudge::testing::store::Claimant;
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
                    Box::new(zinejudge::testing::commands::Judge::new("zinejudge", "UTC")),
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
