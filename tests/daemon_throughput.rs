//! Throughput of the daemon end to end, through the real mail servers:
//! N order mails from many players are sent to the judge over SMTP, read
//! by the daemon over IMAPS, answered, and sent back through submission;
//! the clock stops when the last answer is in the players' mailboxes.
//! Reports mails per second, the daemon's idle RSS and its peak RSS
//! (VmHWM), and when each stage finished.
//!
//! The mails are sent as players send them: 105 players of 15 standard
//! games (put in the store before the judge starts, each with a password
//! of their own) each mail `SIGNON power game password` and their orders,
//! and every mail is accepted. The judge starts cold: each player's first
//! sign-on pays argon2; later ones with the same password do not (see
//! src/commands/auth.rs). `ZJ_THROUGHPUT_UNSIGNED=1` sends the old mails
//! instead (orders with no sign-on, all refused), for comparison.
//!
//! Where the answers go (`ZJ_THROUGHPUT_ANSWERS`):
//! - `relay` (the default): as from a deployed judge, Postfix relays them
//!   over SMTP to the players' providers, here a small SMTP server in the
//!   test process ([`support::sink`]) on 127.0.0.1; the clock stops when
//!   it has the last one.
//! - `mailboxes`: Postfix delivers them into the players' mailboxes in
//!   the same Dovecot, on the same machine; the clock stops when the last
//!   is in its mailbox. Twice the deliveries for Dovecot, which on a
//!   2-core machine costs more CPU than the judge (see the CPU line).
//!
//! `ZJ_THROUGHPUT_WARM=1`: each player sends one signed mail first, and
//! the clock starts once those are answered, so that no mail in the
//! measured run pays argon2 (a judge that has been running for a while;
//! the default measures it just after a start).
//!
//! The judge, Postfix and Dovecot each run in a CPU control group of
//! their own with equal weight, as systemd runs services (when the test
//! can write the cgroup `cpu` controller, as root; `ZJ_THROUGHPUT_ONE_GROUP=1`
//! leaves all in one group, where the servers' many processes outweigh
//! the judge's threads).
//!
//! Besides mails per second, each run prints the CPU time a mail cost in
//! the judge, in Postfix, in Dovecot and in the test itself (sending, and
//! the sink), and the rate those costs allow on this machine's cores:
//! when the mail servers share the judge's cores, they bound the figure.
//!
//! Not run by default; meaningful in a release build:
//!
//!     cargo test --release --test daemon_throughput -- --ignored --nocapture
//!
//! `ZJ_THROUGHPUT_MAILS` sets N (default 2000), `ZJ_THROUGHPUT_RUNS` the
//! number of runs (default 1; the medians are printed too),
//! `ZJ_THROUGHPUT_CONNECTIONS` the judge's `smtp.connections` (default 4,
//! the configuration's default).

mod daemon_common;
#[path = "games_support/mod.rs"]
mod games_support;
mod support;
#[path = "support_judge/mod.rs"]
mod support_judge;

use daemon_common::*;
use std::time::{Duration, Instant};
use support::sink::SmtpSink;
use support::{JUDGE_ADDRESS, MailSystem, wait_until};

#[derive(Debug, Clone, Copy)]
struct Run {
    mails_per_second: f64,
    idle_rss_kb: u64,
    peak_rss_kb: u64,
    idle_after_kb: u64,
}

/// A mail to send: (from, to, the raw mail).
type Mail = (String, String, Vec<u8>);

/// The mails of a run, and the players who send them.
struct Corpus {
    /// The `n` mails timed.
    mails: Vec<Mail>,
    /// Their senders, whose answers are counted.
    players: Vec<String>,
    /// With `warm`, one signed mail from each player, sent before the
    /// clock starts.
    warm_up: Vec<Mail>,
}

/// `n` mails: `signed`, orders signed on to 15 standard games far from
/// their deadline (every seat taken, as populated in the store under
/// `tmp`); else unsigned orders from 100 players, which the judge refuses.
fn corpus(ms: &MailSystem, tmp: &TempDir, n: usize, signed: bool, warm: bool) -> Corpus {
    let mails: Vec<Mail>;
    let players: Vec<String>;
    // One signed mail from each player, sent before the clock starts when
    // the judge is measured warm.
    let mut warm_up: Vec<Mail> = Vec::new();
    if signed {
        // 15 games far from their deadline, every seat taken.
        let far = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs() as i64
            + 30 * 86400;
        let seated = games_support::populate(
            &tmp.path().join("store.sqlite"),
            15,
            far,
            false,
            true,
            |_, _| ms.address("speed"),
        );
        players = seated.iter().map(|p| p.address.clone()).collect();
        // One mail as a player sends it.
        let signed = |p: &games_support::Player, id: &str, subject: &str| {
            let body = p.signed_orders("\r\n");
            (
                p.address.clone(),
                JUDGE_ADDRESS.to_string(),
                order_mail(&p.address, JUDGE_ADDRESS, id, subject, &body),
            )
        };
        if warm {
            warm_up = seated
                .iter()
                .map(|p| signed(p, &new_message_id(), "Warm-up"))
                .collect();
        }
        mails = (0..n)
            .map(|i| {
                let p = &seated[i % seated.len()];
                signed(p, &new_message_id(), &format!("Orders {i}"))
            })
            .collect();
    } else {
        players = (0..100).map(|_| ms.address("speed")).collect();
        mails = (0..n)
            .map(|i| {
                let p = &players[i % players.len()];
                let id = new_message_id();
                let body = format!(
                    "Orders for Spring 1901, mail {i}\r\n\r\nA(Lon)-Yor\r\nF(Edi)-NTH\r\nF(Lon)-ENG\r\n\
                     A(Par)-Bur\r\nA(Mar) S A(Par)-Bur\r\nF(Bre)-MAO\r\n"
                );
                (
                    p.clone(),
                    JUDGE_ADDRESS.to_string(),
                    order_mail(p, JUDGE_ADDRESS, &id, &format!("Orders {i}"), &body),
                )
            })
            .collect();
    }
    Corpus {
        mails,
        players,
        warm_up,
    }
}

/// When each stage of a run was over, from the start of the sending.
struct Timings {
    stored_at: Option<Duration>,
    processed_at: Option<Duration>,
    handed_at: Option<Duration>,
    sent_at: Option<Duration>,
    done_at: Duration,
}

/// Send `mails` on 4 connections and watch the judge's counts (beyond
/// `base`, the warm-up's) until every answer is delivered: to the sink
/// (with the `warmed` warm-up answers) or to the players' mailboxes.
fn timed(
    ms: &MailSystem,
    judge: &Judge,
    sink: Option<&SmtpSink>,
    mails: &[Mail],
    warmed: usize,
    base: Counts,
) -> Timings {
    let n = mails.len();
    let t0 = Instant::now();
    let mut stored_at = None;
    let mut processed_at = None;
    let mut handed_at = None;
    let mut sent_at = None;
    let mut done_at = Duration::ZERO;
    std::thread::scope(|s| {
        let sender = s.spawn(|| {
            send_all(ms, mails, 4);
            t0.elapsed()
        });
        let deadline = Instant::now() + Duration::from_secs(600);
        loop {
            let c = judge.counts();
            let now = t0.elapsed();
            let (inbound, outbox) = (c.inbound - base.inbound, c.outbox - base.outbox);
            if stored_at.is_none() && inbound == n as i64 {
                stored_at = Some(now);
            }
            if processed_at.is_none() && inbound == n as i64 && c.pending == 0 {
                processed_at = Some(now);
            }
            if handed_at.is_none() && outbox == n as i64 && c.unsent == 0 {
                handed_at = Some(now);
            }
            if sent_at.is_none() && sender.is_finished() {
                sent_at = Some(now);
            }
            if handed_at.is_some()
                && sent_at.is_some()
                && ms.queued_messages() == 0
                && sink.is_none_or(|k| k.count() >= n + warmed)
            {
                done_at = now;
                break;
            }
            assert!(
                Instant::now() < deadline,
                "not done after 10 minutes: {c:?}\n{}",
                judge.log_tail(20)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        sender.join().unwrap();
    });
    Timings {
        stored_at,
        processed_at,
        handed_at,
        sent_at,
        done_at,
    }
}

/// The CPU a mail cost, by part (seconds for `n` mails), and the rate
/// that allows on this machine's cores if nothing else ran and nothing
/// waited.
fn report_cpu(n: usize, parts: &[(&str, f64)]) {
    let ms_a_mail = |s: f64| s * 1000.0 / n as f64;
    let total: f64 = parts.iter().map(|(_, s)| s).sum();
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get()) as f64;
    eprintln!(
        "CPU a mail: {}; total {:.2} ms: {cores} cores allow at most {:.0} mails/s",
        parts
            .iter()
            .map(|(name, s)| format!("{name} {:.2} ms", ms_a_mail(*s)))
            .collect::<Vec<_>>()
            .join(", "),
        ms_a_mail(total),
        cores * n as f64 / total,
    );
}

fn one_run(n: usize) -> Option<Run> {
    let relay = std::env::var("ZJ_THROUGHPUT_ANSWERS").map_or(true, |v| v != "mailboxes");
    let sink = relay.then(|| SmtpSink::start().expect("the SMTP sink"));
    let ms = match &sink {
        Some(sink) => {
            MailSystem::start_relaying_or_skip("daemon_throughput", "speed-", sink.port())?
        }
        None => MailSystem::start_or_skip("daemon_throughput")?,
    };
    let tmp = TempDir::new("throughput");
    let signed = std::env::var_os("ZJ_THROUGHPUT_UNSIGNED").is_none();
    let warm = std::env::var_os("ZJ_THROUGHPUT_WARM").is_some();
    let Corpus {
        mails,
        players,
        warm_up,
    } = corpus(&ms, &tmp, n, signed, warm);
    let opts = Opts {
        log: "info".into(),
        connections: env_usize("ZJ_THROUGHPUT_CONNECTIONS", 4),
        ..Opts::default()
    };
    let judge = Judge::start(&ms, tmp.path(), &opts);
    // As deployed under systemd: each service in a CPU group of its own.
    let mut services = ms.server_pids();
    services.push(("judge", judge.pid()));
    let groups = std::env::var_os("ZJ_THROUGHPUT_ONE_GROUP")
        .is_none()
        .then(|| ServiceGroups::new(&services))
        .flatten();
    let grouped = groups.is_some();
    wait_until("the judge connected", Duration::from_secs(30), || {
        judge.log_text().contains("IMAP connected")
    });
    // Warm: each player's first sign-on (and its argon2 check) before the
    // clock starts.
    let base = if warm_up.is_empty() {
        Counts::default()
    } else {
        let w = warm_up.len();
        send_all(&ms, &warm_up, 4);
        wait_until("the warm-up answered", Duration::from_secs(120), || {
            let c = judge.counts();
            c.inbound == w as i64
                && c.pending == 0
                && c.outbox == w as i64
                && c.unsent == 0
                && ms.queued_messages() == 0
                && sink.as_ref().is_none_or(|k| k.count() >= w)
        });
        judge.counts()
    };
    // Idle: connected, waiting in IDLE.
    std::thread::sleep(Duration::from_secs(2));
    let idle_rss_kb = judge.status_kb("VmRSS").unwrap();
    let cpu_before = cpu_seconds(judge.pid());
    let servers = ms.server_pids();
    let servers_before: Vec<f64> = servers.iter().map(|(_, p)| tree_cpu_seconds(*p)).collect();
    let test_before = cpu_seconds(std::process::id());

    let Timings {
        stored_at,
        processed_at,
        handed_at,
        sent_at,
        done_at,
    } = timed(&ms, &judge, sink.as_ref(), &mails, warm_up.len(), base);
    let peak_rss_kb = judge.status_kb("VmHWM").unwrap();
    let cpu = cpu_seconds(judge.pid()) - cpu_before;
    let test_cpu = cpu_seconds(std::process::id()) - test_before;
    let server_cpu: Vec<(&str, f64)> = servers
        .iter()
        .zip(&servers_before)
        .map(|((name, pid), before)| (*name, tree_cpu_seconds(*pid) - before))
        .collect();
    // Idle again: the runtime's spare blocking threads end after 10 s.
    std::thread::sleep(Duration::from_secs(12));
    let idle_after_kb = judge.status_kb("VmRSS").unwrap();
    // Of which the program's own pages (code, read from its file) and
    // memory it allocated.
    let file_kb = judge.status_kb("RssFile").unwrap_or(0);
    let anon_kb = judge.status_kb("RssAnon").unwrap_or(0);

    // Every answer really arrived, once (the warm-up's too).
    let n_all = n + warm_up.len();
    let answers: Vec<Answer> = match &sink {
        Some(sink) => sink
            .taken()
            .iter()
            .map(|t| parse_answer(t.recipients.first().map_or("", |r| r.as_str()), &t.raw))
            .collect(),
        None => answers_for(&ms, &players),
    };
    let by = by_in_reply_to(&answers);
    assert_eq!(answers.len(), n_all);
    assert_eq!(by.len(), n_all);
    if signed {
        // Every mail signed on and its orders were taken.
        for a in &answers {
            assert!(
                !a.body.contains("sign-on failed") && !a.body.contains("Not understood"),
                "{}",
                a.body
            );
        }
    }

    let rate = n as f64 / done_at.as_secs_f64();
    let mut parts = vec![("judge", cpu)];
    parts.extend(server_cpu.iter().copied());
    parts.push(("test (sender, sink)", test_cpu));
    report_cpu(n, &parts);
    let secs = |d: Option<Duration>| d.map_or(f64::NAN, |d| d.as_secs_f64());
    eprintln!(
        "{n} {} mails ({}), answers {}, {}, in {:.2} s: {rate:.0} mails/s end to end; test's sending done at {:.2} s, \
         all stored {:.2} s, processed {:.2} s, handed to SMTP {:.2} s, delivered {:.2} s; \
         RSS idle {idle_rss_kb} kB, peak {peak_rss_kb} kB, idle after {idle_after_kb} kB \
         ({file_kb} kB file-backed, {anon_kb} kB anonymous); \
         daemon CPU {cpu:.2} s ({:.2} ms a mail)",
        if signed {
            "signed-on order"
        } else {
            "unsigned (refused)"
        },
        if !signed {
            "no sign-on"
        } else if warm_up.is_empty() {
            "judge cold: each player's first sign-on pays argon2"
        } else {
            "judge warm: each player signed on once before"
        },
        if relay {
            "relayed to the players' server"
        } else {
            "into local mailboxes"
        },
        if grouped {
            "judge, Postfix and Dovecot each in a CPU group of its own"
        } else {
            "all in one CPU group"
        },
        done_at.as_secs_f64(),
        secs(sent_at),
        secs(stored_at),
        secs(processed_at),
        secs(handed_at),
        done_at.as_secs_f64(),
        cpu * 1000.0 / n as f64,
    );
    Some(Run {
        mails_per_second: rate,
        idle_rss_kb,
        peak_rss_kb,
        idle_after_kb,
    })
}

#[test]
#[ignore = "a benchmark: cargo test --release --test daemon_throughput -- --ignored --nocapture"]
fn daemon_throughput_end_to_end() {
    let n = env_usize("ZJ_THROUGHPUT_MAILS", 2000);
    let runs = env_usize("ZJ_THROUGHPUT_RUNS", 1).max(1);
    let mut all = Vec::new();
    for _ in 0..runs {
        match one_run(n) {
            Some(r) => all.push(r),
            None => return,
        }
    }
    let m = |f: fn(&Run) -> f64| median(all.iter().map(f).collect());
    eprintln!(
        "median of {runs} run(s) of {n} mails: {:.0} mails/s, idle RSS {:.0} kB, peak RSS {:.0} kB, \
         idle after {:.0} kB",
        m(|r| r.mails_per_second),
        m(|r| r.idle_rss_kb as f64),
        m(|r| r.peak_rss_kb as f64),
        m(|r| r.idle_after_kb as f64),
    );
}
