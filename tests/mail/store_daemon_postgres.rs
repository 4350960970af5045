//! The daemon on PostgreSQL: `zinejudge run` with `[store] url =
//! "postgres://..."` (the password in `[store] password-file`), Maildir in
//! and out, no mail server. A GM creates a game by mail, seven players
//! join, and the first phase is played (every power orders and says READY,
//! the last READY processes it): the results reach every player, the
//! history holds the phase, the web pages read the game from PostgreSQL,
//! and the store's URL is logged without the password.

use crate::daemon_common;
use crate::support;
use daemon_common::{Judge, STAMP, TempDir, maildir_config};
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

#[test]
fn the_daemon_on_postgres_creates_fills_and_plays_a_game_by_mail() {
    let Some(db) = PgServer::database_or_skip("store_daemon_postgres") else {
        return;
    };
    let tmp = TempDir::new("daemon-pg");
    let dir = tmp.path();
    let pwfile = dir.join("pg-password");
    std::fs::write(&pwfile, format!("{PG_PASSWORD}\n")).unwrap();
    let web_port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let web = format!("\n[web]\naddress = \"127.0.0.1:{web_port}\"\n");
    let config = maildir_config(dir, &web).replacen(
        "[store]\n",
        &format!(
            "[store]\nurl = \"{}\"\npassword-file = \"{}\"\n",
            db.url(),
            pwfile.display()
        ),
        1,
    );
    let judge = Judge::start_with(dir, &config);
    let inbox = Maildir::open(&dir.join("in")).unwrap();
    let mut store = Store::open(&db.location()).expect("the test opens the judge's database");
    let mut seq = 0u32;
    let mut send = |from: &str, body: &str| {
        seq += 1;
        let raw = format!(
            "{STAMP}From: {from}\r\nTo: judge@example.test\r\nSubject: mail {seq}\r\n\
             Message-ID: <pg{seq}.{pid}@players.example.test>\r\n\
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

    // People who used the judge before (their mail is also stamped as
    // authenticated: daemon_common::STAMP).
    for a in std::iter::once(GM.to_string()).chain(POWERS.iter().map(|(p, _)| addr(p))) {
        zinejudge::testing::store::confirm::set_confirmed(store.conn(), &a, 0).expect("confirm");
    }
    send(GM, "CREATE pg standard gm-secret");
    for (p, _) in POWERS {
        send(&addr(p), &format!("JOIN pg pw-{p} {p}"));
    }
    wait(&mut store, "the game starts", &|s| {
        games::load(s.conn(), "pg")
            .unwrap()
            .is_some_and(|g| g.status == Status::Active)
    });
    for (p, orders) in POWERS {
        send(&addr(p), &format!("SIGNON {p} pg pw-{p}\n{orders}\nREADY"));
    }
    wait(&mut store, "the phase is played", &|s| {
        !games::history(s.conn(), "PG").unwrap().is_empty()
    });
    wait(&mut store, "every answer is sent", &|s| {
        s.pending_count().unwrap() == 0 && s.unsent_count().unwrap() == 0
    });
    let history = games::history(store.conn(), "pg").unwrap();
    assert_eq!(history[0].phase, "S1901M", "{history:?}");
    assert!(history[0].orders.contains("Par"), "{history:?}");

    // Every player got the results, in the outbox Maildir.
    let outbox = dir.join("out");
    let mut mails = Vec::new();
    for sub in ["new", "cur"] {
        if let Ok(rd) = std::fs::read_dir(outbox.join(sub)) {
            for e in rd.flatten() {
                mails.push(String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()).into_owned());
            }
        }
    }
    for (p, _) in POWERS {
        assert!(
            mails.iter().any(|m| m.contains(&format!("To: {}", addr(p)))
                && m.contains("Subject: pg:")
                && m.contains("results")),
            "{p} got no results among {} mails; log:\n{}",
            mails.len(),
            judge.log_tail(40)
        );
    }
    // The game's web page, made from PostgreSQL.
    let page = http_get(web_port, "/games/pg");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("Spring 1901"), "{page}");

    let log = judge.log_text();
    assert!(log.contains(&format!("store {};", db.url())), "{log}");
    assert!(
        !dir.join("store.sqlite").exists(),
        "no SQLite file on the side"
    );
    assert!(!log.contains(PG_PASSWORD), "the password is never logged");
    assert!(judge.failures().is_empty(), "{:?}", judge.failures());
}

/// A GET on 127.0.0.1:`port`, the whole response as text.
fn http_get(port: u16, path: &str) -> String {
    use std::io::{Read, Write};
    let mut s =
        std::net::TcpStream::connect(("127.0.0.1", port)).expect("connect to the web pages");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).expect("read the page");
    String::from_utf8_lossy(&out).into_owned()
}

/// A stop on PostgreSQL is as clean as on SQLite: SIGTERM makes the judge
/// finish, log "stopped" and exit 0, again and again (systemd counts any
/// other exit as a failure of the unit). The store's connections were once
/// closed inside the async runtime, which the synchronous PostgreSQL
/// client cannot do: every stop ended in a panic and exit 134.
#[test]
fn a_judge_on_postgres_stopped_with_sigterm_logs_stopped_and_exits_0() {
    let Some(db) = PgServer::database_or_skip("store_daemon_postgres_sigterm") else {
        return;
    };
    let tmp = TempDir::new("daemon-pg-stop");
    let dir = tmp.path();
    let pwfile = dir.join("pg-password");
    std::fs::write(&pwfile, format!("{PG_PASSWORD}\n")).unwrap();
    let web_port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    // The web pages too: their pooled connections are closed at the stop.
    let web = format!("\n[web]\naddress = \"127.0.0.1:{web_port}\"\n");
    let config = daemon_common::postgres_maildir_config(dir, &db.url(), &pwfile, "stop", "", &web);
    let mut judge = Judge::start_with(dir, &config);
    let inbox = Maildir::open(&dir.join("in")).unwrap();
    let mut store = Store::open(&db.location()).unwrap();
    for round in 1..=3 {
        let raw = format!(
            "From: p{round}@example.test\r\nTo: judge@example.test\r\nSubject: help\r\n\
             Message-ID: <stop{round}.{pid}@players.example.test>\r\n\r\nHELP\r\n",
            pid = std::process::id()
        );
        inbox
            .deliver(&format!("stop{round}.eml"), raw.as_bytes())
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(120);
        while store.pending_count().unwrap() > 0
            || store.unsent_count().unwrap() > 0
            || daemon_common::count(&mut store, "SELECT count(*) FROM inbound") < round
        {
            assert!(
                Instant::now() < deadline,
                "round {round}: the mail is not answered; log:\n{}",
                judge.log_tail(40)
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        // A page read, so that the pages hold a connection.
        assert!(http_get(web_port, "/").starts_with("HTTP/1.1 200"));
        judge.signal(libc::SIGTERM);
        let status = judge.wait_exit(Duration::from_secs(60));
        let log = judge.log_text();
        assert!(
            status.success(),
            "stop {round}: exit {status:?}; log:\n{}",
            judge.log_tail(40)
        );
        let stops = log
            .lines()
            .filter(|l| l.trim_end().ends_with(" stopped"))
            .count();
        assert_eq!(stops, round as usize, "stop {round}: log:\n{log}");
        assert!(!log.contains("panicked"), "{log}");
        if round < 3 {
            judge.spawn();
        }
    }
}
