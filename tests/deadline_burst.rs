//! A deadline burst: 1,000 standard games (every power played, every power
//! holding orders) reach their deadline in the same minute, in the real
//! daemon (`zinejudge run`, Maildir in and out, no mail servers).
//!
//! Reported:
//! - the burst: from the first game's results to the last of the 8,000
//!   result mails queued (every game adjudicated, its history written, a
//!   mail queued for each player and the GM), as the test saw it and as
//!   the daemon logged it ("deadline work done");
//! - mail answered during the burst: a `LIST` mail stored every 250 ms
//!   (`zinejudge deliver`, as Postfix would) until the burst ends, and the
//!   time until each was answered;
//! - how long the outbox took to hand the 8,000 mails to the Maildir
//!   with their pictures (drawn at send time, each game's once);
//! - the daemon's memory: RSS idle before the deadline, its peak (VmHWM),
//!   and RSS once everything was sent and it idled 15 s.
//!
//! The test reads the outbox Maildir as a local reader would, taking each
//! mail as it arrives (and checking it), so the run needs little disk.
//!
//! Not run by default; meaningful in a release build:
//!
//!     cargo test --release --test deadline_burst -- --ignored --nocapture
//!
//! `ZJ_BURST_GAMES` sets the number of games (default 1000),
//! `ZJ_BURST_RUNS` the number of runs (default 1; medians printed).

mod daemon_common;
#[path = "games_support/mod.rs"]
mod games_support;
mod support;
#[path = "support_judge/mod.rs"]
mod support_judge;

use daemon_common::{BIN, Judge, TempDir, env_usize, maildir_config, median};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

#[derive(Debug, Clone, Copy)]
struct Figures {
    burst: f64,
    logged: f64,
    mail_max: f64,
    mail_median: f64,
    sent: f64,
    idle_kb: u64,
    peak_kb: u64,
    after_kb: u64,
}

fn one(db: &rusqlite::Connection, sql: &str) -> i64 {
    db.query_row(sql, [], |r| r.get(0)).unwrap_or(0)
}

/// Take the mail the judge wrote into the outbox Maildir; returns how many
/// and how many carried a PNG picture.
fn take_sent(dir: &std::path::Path) -> (usize, usize) {
    let mut n = 0;
    let mut with_png = 0;
    let Ok(entries) = std::fs::read_dir(dir.join("new")) else {
        return (0, 0);
    };
    for e in entries.filter_map(|e| e.ok()) {
        if let Ok(raw) = std::fs::read(e.path()) {
            if raw.windows(9).any(|w| w == b"image/png") {
                with_png += 1;
            }
            n += 1;
            let _ = std::fs::remove_file(e.path());
        }
    }
    (n, with_png)
}

fn deliver(config: &std::path::Path, seq: usize) -> String {
    let id = format!(
        "burst-list-{seq}.{}@players.example.test",
        std::process::id()
    );
    let raw = format!(
        "From: watcher@example.test\r\nTo: judge@example.test\r\nSubject: list\r\n\
         Message-ID: <{id}>\r\n\r\nLIST\r\n"
    );
    let mut child = Command::new(BIN)
        .arg("deliver")
        .arg("--config")
        .arg(config)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("zinejudge deliver");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(raw.as_bytes())
        .unwrap();
    assert!(child.wait().unwrap().success());
    id
}

fn one_run(games: usize) -> Figures {
    let tmp = TempDir::new("burst");
    let start = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    // The deadline falls after the daemon has started and idled a while;
    // the clock ticks every 5 s.
    let deadline = start + 12;
    let t = Instant::now();
    games_support::populate(
        &tmp.path().join("store.sqlite"),
        games,
        deadline,
        true,
        false,
        |i, p| format!("p{i}-{}@example.test", p.to_lowercase()),
    );
    eprintln!("{games} games made in {:.1} s", t.elapsed().as_secs_f64());
    let mut judge = Judge::start_with(tmp.path(), &maildir_config(tmp.path(), ""));
    let out = tmp.path().join("out");
    std::thread::sleep(Duration::from_secs(4));
    let idle_kb = judge.status_kb("VmRSS").unwrap();

    let db = judge.db();
    let want = games as i64 * 8;
    let wait_deadline = Instant::now() + Duration::from_secs(60);
    while one(&db, "SELECT count(*) FROM history") == 0 {
        assert!(
            Instant::now() < wait_deadline,
            "no game processed\n{}",
            judge.log_tail(20)
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    let t0 = Instant::now();
    // Mail keeps coming during the burst: each is timed until answered.
    let state = |id: &str| -> Option<String> {
        db.query_row(
            "SELECT state FROM inbound WHERE message_id = ?1",
            [id],
            |r| r.get(0),
        )
        .ok()
    };
    let mut pending: Vec<(String, Instant)> = Vec::new();
    let mut latencies: Vec<f64> = Vec::new();
    let mut asked = 0usize;
    let mut burst: Option<f64> = None;
    let mut next_mail = Instant::now();
    loop {
        pending.retain(|(id, at)| {
            if state(id).as_deref() == Some("done") {
                latencies.push(at.elapsed().as_secs_f64());
                false
            } else {
                true
            }
        });
        if burst.is_none()
            && one(&db, "SELECT count(*) FROM outbox WHERE inbound_id IS NULL") >= want
            && one(&db, "SELECT count(*) FROM history") >= games as i64
        {
            burst = Some(t0.elapsed().as_secs_f64());
        }
        if burst.is_some() && pending.is_empty() {
            break;
        }
        if burst.is_none() && Instant::now() >= next_mail {
            next_mail += Duration::from_millis(250);
            let id = deliver(&judge.config, asked);
            asked += 1;
            pending.push((id, Instant::now()));
        }
        assert!(
            t0.elapsed() < Duration::from_secs(600),
            "burst not done\n{}",
            judge.log_tail(20)
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    let burst = burst.unwrap_or(f64::NAN);
    let mut sent = 0usize;
    let mut with_png = 0usize;
    // Everything handed to the Maildir, pictures drawn.
    let send_deadline = Instant::now() + Duration::from_secs(1800);
    loop {
        let (n, png) = take_sent(&out);
        sent += n;
        with_png += png;
        if judge.counts().unsent == 0 {
            let (n, png) = take_sent(&out);
            sent += n;
            with_png += png;
            break;
        }
        assert!(
            Instant::now() < send_deadline,
            "not sent\n{}",
            judge.log_tail(20)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let all_sent = t0.elapsed().as_secs_f64();
    let peak_kb = judge.status_kb("VmHWM").unwrap();
    std::thread::sleep(Duration::from_secs(15));
    let after_kb = judge.status_kb("VmRSS").unwrap();
    let logged = judge
        .log_text()
        .lines()
        .filter(|l| l.contains("deadline work done"))
        .filter_map(|l| {
            l.split("seconds=")
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse::<f64>()
                .ok()
        })
        .fold(0.0, f64::max);
    assert_eq!(one(&db, "SELECT count(*) FROM history") as usize, games);
    assert!(sent as i64 >= want + asked as i64, "{sent} mails sent");
    assert!(with_png as i64 >= want, "{with_png} results with pictures");
    assert_eq!(judge.counts().failed, 0);
    assert!(judge.failures().is_empty(), "{:?}", judge.failures());
    let mail_max = latencies.iter().copied().fold(0.0, f64::max);
    let mail_median = {
        let mut l = latencies.clone();
        l.sort_by(|a, b| a.total_cmp(b));
        l.get(l.len() / 2).copied().unwrap_or(f64::NAN)
    };
    eprintln!(
        "{games} games: all adjudicated and {want} results queued in {burst:.2} s (daemon's log: \
         {logged:.2} s); {asked} mails sent during the burst, each answered within {mail_max:.2} s \
         (median {mail_median:.2} s); everything handed over with pictures after {all_sent:.1} s ({sent} mails, {with_png} with a PNG); \
         RSS idle {idle_kb} kB, peak {peak_kb} kB, after the burst {after_kb} kB"
    );
    judge.kill();
    Figures {
        burst,
        logged,
        mail_max,
        mail_median,
        sent: all_sent,
        idle_kb,
        peak_kb,
        after_kb,
    }
}

#[test]
#[ignore = "a harness: cargo test --release --test deadline_burst -- --ignored --nocapture"]
fn a_thousand_games_reach_their_deadline_together() {
    let games = env_usize("ZJ_BURST_GAMES", 1000);
    let runs = env_usize("ZJ_BURST_RUNS", 1).max(1);
    let all: Vec<Figures> = (0..runs).map(|_| one_run(games)).collect();
    let m = |f: fn(&Figures) -> f64| median(all.iter().map(f).collect());
    eprintln!(
        "median of {runs} run(s) of {games} games: burst {:.2} s (daemon's log {:.2} s), \
         mail answered during it within {:.2} s (median {:.2} s), all sent with pictures {:.1} s, RSS idle {:.0} kB, \
         peak {:.0} kB, after the burst {:.0} kB",
        m(|f| f.burst),
        m(|f| f.logged),
        m(|f| f.mail_max),
        m(|f| f.mail_median),
        m(|f| f.sent),
        m(|f| f.idle_kb as f64),
        m(|f| f.peak_kb as f64),
        m(|f| f.after_kb as f64),
    );
}
