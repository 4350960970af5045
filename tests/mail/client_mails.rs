//! Order mails shaped as the common mail clients send them, through the
//! real daemon (`zinejudge run`, Maildir in and out, no mail servers).
//!
//! tests/data/mails/ holds one mail per client shape (Gmail in six
//! languages, Outlook desktop and on the web, Yahoo, Apple Mail on an
//! iPhone and a Mac, Thunderbird replying below the quote, an HTML-only
//! webmail): their MIME trees, encodings (quoted-printable, base64,
//! Yahoo's `=0A` line breaks, windows-1252), attribution lines (wrapped as
//! Gmail wraps them), quoting and signature styles. Each has a `.toml`
//! beside it: the orders a correct judge takes, the quoted or signature
//! orders it must never take, and the lines it must list as not read.
//! tests/data/SOURCE.md says where each shape comes from.

use crate::daemon_common;
use daemon_common::{Judge, STAMP, TempDir, maildir_config};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use zinejudge::testing::mail::maildir::Maildir;

#[derive(Debug, serde::Deserialize)]
struct Expect {
    take: Vec<String>,
    never: Vec<String>,
    #[serde(default)]
    unread: Vec<String>,
}

fn corpus() -> Vec<(PathBuf, Expect)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/mails");
    let mut out: Vec<(PathBuf, Expect)> = std::fs::read_dir(&dir)
        .expect("tests/data/mails")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .map(|p| {
            let t = std::fs::read_to_string(p.with_extension("toml")).expect("its .toml");
            let e: Expect = toml::from_str(&t).expect("a valid .toml");
            (p, e)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The Message-ID of a raw mail.
fn message_id(raw: &[u8]) -> String {
    let m = mail_parser::MessageParser::default()
        .parse(raw)
        .expect("a mail");
    m.message_id().expect("a Message-ID").to_string()
}

/// The text of the judge's answer to `id`, once it is in the outbox.
fn answer(out: &Path, id: &str, judge: &Judge) -> String {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        for e in std::fs::read_dir(out.join("new"))
            .into_iter()
            .flatten()
            .flatten()
        {
            let Ok(raw) = std::fs::read(e.path()) else {
                continue;
            };
            let Some(m) = mail_parser::MessageParser::default().parse(&raw) else {
                continue;
            };
            if m.in_reply_to().as_text() == Some(id) {
                return m.body_text(0).map(|b| b.to_string()).unwrap_or_default();
            }
        }
        assert!(
            Instant::now() < deadline,
            "no answer to {id}:\n{}",
            judge.log_tail(30)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The lines of one list of the reply (`Read from your mail:` ...).
fn list<'a>(reply: &'a str, head: &str) -> Vec<&'a str> {
    reply
        .split_once(head)
        .map(|(_, rest)| {
            rest.lines()
                .skip(1)
                .take_while(|l| l.starts_with("  "))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn order_mails_from_the_common_clients_are_read_as_their_players_meant() {
    let corpus = corpus();
    assert!(corpus.len() >= 13, "{} mails", corpus.len());
    let tmp = TempDir::new("client-mails");
    let judge = Judge::start_with(tmp.path(), &maildir_config(tmp.path(), ""));
    let inbox = Maildir::open(&tmp.path().join("in")).expect("inbox");
    // The players have used the judge before, from mailboxes whose mail
    // the judge's server authenticates (a mail that registers an address
    // whose From is only a claim is held until the address confirms it).
    judge.confirmed(&[
        "gm@example.test",
        "england@example.test",
        "france@example.test",
        "germany@example.test",
        "italy@example.test",
        "austria@example.test",
        "russia@example.test",
        "turkey@example.test",
    ]);
    let mut n = 0;
    let mut drop = |from: &str, body: &str| {
        n += 1;
        let id = format!("<setup{n}@players.example.test>");
        let raw = format!(
            "{STAMP}From: {from}\r\nTo: judge@example.test\r\nSubject: setup\r\n\
             Message-ID: {id}\r\nDate: Tue, 24 Nov 2026 08:00:00 +0000\r\n\r\n{body}\r\n"
        );
        inbox
            .deliver(&format!("setup{n}.eml"), raw.as_bytes())
            .expect("deliver");
        id.trim_matches(['<', '>']).to_string()
    };
    let id = drop("gm@example.test", "CREATE g standard gm-secret");
    answer(&tmp.path().join("out"), &id, &judge);
    for p in [
        "England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey",
    ] {
        let id = drop(
            &format!("{}@example.test", p.to_lowercase()),
            &format!("JOIN g pw-secret {p}"),
        );
        answer(&tmp.path().join("out"), &id, &judge);
    }
    // The corpus's mails sign on with `pw`: an old password, set before
    // passwords had to be 8 characters long, still opens its seat.
    {
        let mut store = judge.store();
        let old = zinejudge::testing::trust::password::hash("pw").expect("hash");
        for mut seat in zinejudge::testing::store::games::seats(store.conn(), "g").expect("seats") {
            seat.hash = Some(old.clone());
            zinejudge::testing::store::games::save_seat(store.conn(), "g", &seat).expect("seat");
        }
    }
    let mut failures = Vec::new();
    for (path, want) in &corpus {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let raw = std::fs::read(path).expect("the mail");
        let id = message_id(&raw);
        inbox
            .deliver(&format!("{name}.eml"), &raw)
            .expect("deliver");
        let reply = answer(&tmp.path().join("out"), &id, &judge);
        let read = list(&reply, "Read from your mail:");
        let held = list(&reply, "Orders held for England");
        let unread = list(&reply, "Not read as orders");
        let mut problems = Vec::new();
        for t in &want.take {
            if !held.iter().any(|l| l.trim() == t) || !read.iter().any(|l| l.ends_with(t.as_str()))
            {
                problems.push(format!("{t} not taken"));
            }
        }
        if read.len() != want.take.len() {
            problems.push(format!(
                "{} lines read, {} expected",
                read.len(),
                want.take.len()
            ));
        }
        for t in &want.never {
            if reply.contains(t.as_str()) {
                problems.push(format!("{t} (quoted or signature) taken"));
            }
        }
        for u in &want.unread {
            if !unread.iter().any(|l| l.contains(u.as_str())) {
                problems.push(format!("`{u}` not listed as not read"));
            }
        }
        if unread.len() != want.unread.len() {
            problems.push(format!("not read: {unread:?}, expected {:?}", want.unread));
        }
        if reply.contains("Not accepted") {
            problems.push("something was refused".to_string());
        }
        if !problems.is_empty() {
            failures.push(format!("{name}: {}\n{reply}", problems.join("; ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
