//! Throughput of one judge and of two judges sharing one PostgreSQL store
//! and one Maildir inbox and outbox, on the same machine: N signed order
//! mails (105 players of 15 standard games, each with a password of their
//! own, as tests/daemon_throughput.rs sends them) are put into the inbox
//! at once, and the clock stops when every one is processed and its
//! answer handed to the outbox Maildir. Reports mails per second with 1
//! and with 2 judges (the medians of the runs), and the load average
//! before and after (the machine may be shared).
//!
//! Not run by default; meaningful in a release build, with PostgreSQL
//! installed (scripts/install-test-deps.sh):
//!
//!     cargo test --release --test multi_judge_throughput -- --ignored --nocapture
//!
//! `ZJ_MJ_MAILS` sets N (default 2000), `ZJ_MJ_RUNS` the runs of each
//! (default 3).

mod daemon_common;
#[path = "games_support/mod.rs"]
mod games_support;
mod support;
#[path = "support_judge/mod.rs"]
mod support_judge;

use daemon_common::{Judge, TempDir, count, env_usize, median, postgres_maildir_config};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use support::postgres::{PG_PASSWORD, PgServer};
use zinejudge::testing::mail::maildir::Maildir;
use zinejudge::testing::store::Store;

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// One run with `judges` judges: mails a second.
fn one_run(n: usize, judges: usize) -> Option<f64> {
    let db = PgServer::database_or_skip("multi_judge_throughput")?;
    let tmp = TempDir::new("mj-throughput");
    let dir = tmp.path();
    let pwfile = dir.join("pg-password");
    std::fs::write(&pwfile, format!("{PG_PASSWORD}\n")).unwrap();
    let inbox = Maildir::open(&dir.join("in")).unwrap();
    let far = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
        + 30 * 86400;
    let seated = games_support::populate(&db.location(), 15, far, false, true, |i, p| {
        format!("p{i}-{}@example.test", p.to_lowercase())
    });
    let mails: Vec<Vec<u8>> = (0..n)
        .map(|i| {
            let p = &seated[i % seated.len()];
            format!(
                "From: {}\r\nTo: judge@example.test\r\nSubject: Orders {i}\r\n\
                 Message-ID: <mj-{i}.{}@players.example.test>\r\n\r\n{}",
                p.address,
                std::process::id(),
                p.signed_orders("\r\n")
            )
            .into_bytes()
        })
        .collect();
    let running: Vec<Judge> = (0..judges)
        .map(|j| {
            let d = dir.join(format!("judge{j}"));
            std::fs::create_dir_all(&d).unwrap();
            Judge::start_with(
                &d,
                &postgres_maildir_config(dir, &db.url(), &pwfile, &format!("j{j}"), "", ""),
            )
        })
        .collect();
    // Started and idle.
    std::thread::sleep(Duration::from_secs(3));
    let mut store = Store::open(&db.location()).unwrap();
    let t0 = Instant::now();
    for (i, raw) in mails.iter().enumerate() {
        inbox.deliver(&format!("{i}.eml"), raw).unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(900);
    loop {
        let stored = count(&mut store, "SELECT count(*) FROM inbound");
        let open = count(
            &mut store,
            "SELECT count(*) FROM inbound WHERE state = 'new'",
        );
        let answers = count(&mut store, "SELECT count(*) FROM outbox");
        let unsent = store.unsent_count().unwrap();
        if stored == n as i64 && open == 0 && answers == n as i64 && unsent == 0 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "not done: {stored} stored, {open} waiting, {answers} answers, {unsent} unsent\n{}",
            running[0].log_tail(20)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let secs = t0.elapsed().as_secs_f64();
    let refused = count(
        &mut store,
        "SELECT count(*) FROM inbound WHERE state <> 'done'",
    );
    assert_eq!(refused, 0, "every mail signed on and ordered");
    let shares: Vec<usize> = running
        .iter()
        .map(|j| j.log_text().matches("mail processed").count())
        .collect();
    eprintln!(
        "{judges} judge(s), {n} mails: {secs:.2} s, {:.0} mails/s (processed by each: {shares:?})",
        n as f64 / secs
    );
    Some(n as f64 / secs)
}

#[test]
#[ignore = "a measurement: run in release with --ignored --nocapture"]
fn throughput_of_one_judge_and_of_two_sharing_a_postgres_store() {
    let n = env_usize("ZJ_MJ_MAILS", 2000);
    let runs = env_usize("ZJ_MJ_RUNS", 3);
    let before = loadavg();
    let mut one = Vec::new();
    let mut two = Vec::new();
    // Alternated, so that a change in the machine's load weighs on both.
    for _ in 0..runs {
        let Some(r) = one_run(n, 1) else { return };
        one.push(r);
        let Some(r) = one_run(n, 2) else { return };
        two.push(r);
    }
    eprintln!(
        "median of {runs} runs of {n} signed mails: 1 judge {:.0} mails/s, 2 judges {:.0} mails/s \
         (1: {one:.0?}, 2: {two:.0?}); load average before {before}, after {}",
        median(one.clone()),
        median(two.clone()),
        loadavg()
    );
}
