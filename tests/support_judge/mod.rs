//! A judge in a box for command tests: the real processor and store (in
//! memory), a clock the test moves, and the mails the judge sends, read
//! back with mail-parser.
//!
//! With `ZINEJUDGE_TEST_STORE=postgres` in the environment, every world's
//! store is instead a database of its own on a throw-away PostgreSQL
//! server (tests/support/postgres.rs): the whole judge suite then runs on
//! the PostgreSQL backend. [`World::on`] picks the backend for one test.

#![allow(dead_code)]

pub mod bot;

/// The throw-away PostgreSQL server, shared with tests/support (a test
/// that uses both compiles the file twice, harmlessly).
#[allow(clippy::duplicate_mod)]
#[path = "../support/postgres.rs"]
pub mod postgres;

/// Whether the tests run in CI (a missing PostgreSQL is then a failure).
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false" | "FALSE" | "False"))
}

/// The store backend a world runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum On {
    /// SQLite in memory.
    Sqlite,
    /// A fresh PostgreSQL database.
    Postgres,
}

impl On {
    /// `ZINEJUDGE_TEST_STORE=postgres` or SQLite.
    fn from_env() -> On {
        match std::env::var("ZINEJUDGE_TEST_STORE").as_deref() {
            Ok("postgres") => On::Postgres,
            _ => On::Sqlite,
        }
    }
}

use mail_parser::MimeHeaders;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use zinejudge::testing::commands::Judge;
use zinejudge::testing::daemon::process::{Limits, Processor};
use zinejudge::testing::mail::Identity;
use zinejudge::testing::store::Store;

/// The code of a request to confirm an address, from its Subject.
pub fn confirm_code(subject: &str) -> Option<String> {
    let at = subject.find("[CONFIRM ")?;
    let rest = &subject[at + "[CONFIRM ".len()..];
    Some(rest.split(']').next()?.trim().to_string())
}

/// A mail the judge sent.
#[derive(Debug, Clone)]
pub struct Sent {
    pub to: Vec<String>,
    pub subject: String,
    pub body: String,
    pub in_reply_to: Option<String>,
    /// Attachments: (file name, size in bytes).
    pub attachments: Vec<(String, usize)>,
    /// The attachments' contents, in the order of `attachments` (the
    /// pictures, for the tests of what they show).
    pub files: Vec<File>,
}

/// An attachment's contents; shown by its size (a picture printed byte
/// by byte would drown a failing test's message).
#[derive(Clone)]
pub struct File(pub Vec<u8>);

impl std::fmt::Debug for File {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<{} bytes>", self.0.len())
    }
}

impl Sent {
    pub fn to_has(&self, addr: &str) -> bool {
        self.to.iter().any(|t| t.eq_ignore_ascii_case(addr))
    }
}

pub struct World {
    pub processor: Processor,
    pub now: SystemTime,
    /// Answer the judge's requests to confirm an address, as its owner
    /// would, whenever a mail from that address was held for one (on by
    /// default: most tests are about what comes after; the tests of the
    /// confirmation itself turn it off).
    pub auto_confirm: bool,
    /// An `Authentication-Results` value [`World::mail_once`] puts on top
    /// of every mail, as the judge's mail server would (`None`: none).
    pub stamp: Option<String>,
    serial: u32,
    /// The Message-ID of the last mail sent by [`World::mail`] (not of the
    /// confirmations it answered).
    last_id: String,
    seen: i64,
    /// The PostgreSQL database the store is in, if it is (dropped after
    /// the processor's connection).
    pg: Option<postgres::PgDatabase>,
}

impl World {
    pub fn new() -> World {
        Self::with_judge(Judge::new("zinejudge", "UTC"))
    }

    /// A world on the `on` backend; `None` (the test is skipped, with a
    /// notice) when that is PostgreSQL and it is not installed.
    pub fn on(on: On, test: &str) -> Option<World> {
        Self::with_judge_on(Judge::new("zinejudge", "UTC"), on, test)
    }

    /// A world whose judge and processor take `policy` for who wrote a
    /// mail (`[trust]`: the mail server's `authserv-id`).
    pub fn with_policy(policy: zinejudge::testing::trust::Policy) -> World {
        let mut w = Self::with_judge(Judge::new("zinejudge", "UTC").with_trust(policy.clone()));
        w.processor.limits.trust = policy;
        w
    }

    /// A world whose judge draws its random choices (the tie-breaks of the
    /// powers' assignment) from `seed`, the same every run.
    pub fn seeded(seed: u64) -> World {
        Self::with_judge(
            Judge::new("zinejudge", "UTC")
                .with_chance(zinejudge::testing::commands::Chance::Seeded(seed)),
        )
    }

    /// A world whose judge links the game pages served at `base` (ending
    /// in `/`) from its mails, as `[web] base-url` makes it.
    pub fn with_pages(base: &str) -> World {
        let mut judge = Judge::new("zinejudge", "UTC");
        judge.templates.link_pages(Some(base));
        Self::with_judge(judge)
    }

    /// A world whose judge also plays the variant in `file` (under tests/data).
    pub fn with_variant(file: &str) -> World {
        Self::with_variant_file(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data")
                .join(file),
        )
    }

    /// A world whose judge also plays the variant file at `path`, wherever
    /// it lies (a file a test imported or edited into its temporary folder).
    pub fn with_variant_file(path: &std::path::Path) -> World {
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        Self::with_variant_text(&text)
    }

    /// A world whose judge also plays the variant written in `toml`.
    pub fn with_variant_text(toml: &str) -> World {
        let mut judge = Judge::new("zinejudge", "UTC");
        judge.add_variant(zinejudge::variant::Variant::from_toml(toml).unwrap());
        Self::with_judge(judge)
    }

    fn with_judge(judge: Judge) -> World {
        Self::with_judge_on(judge, On::from_env(), "a judge test")
            .expect("ZINEJUDGE_TEST_STORE=postgres, but PostgreSQL is not installed")
    }

    fn with_judge_on(judge: Judge, on: On, test: &str) -> Option<World> {
        let (store, pg) = match on {
            On::Sqlite => (Store::in_memory().unwrap(), None),
            On::Postgres => {
                let db = postgres::PgServer::database_or_skip(test)?;
                (Store::open(&db.location()).unwrap(), Some(db))
            }
        };
        Some(World {
            processor: Processor::new(
                store,
                Box::new(judge),
                Identity {
                    address: "judge@example.test".into(),
                    name: "zinejudge".into(),
                    domain: "example.test".into(),
                },
                Limits::default(),
            ),
            // Sat 1 Jan 2028 12:00 UTC
            now: UNIX_EPOCH + Duration::from_secs(1_830_340_800),
            auto_confirm: true,
            stamp: None,
            serial: 0,
            last_id: String::new(),
            seen: 0,
            pg,
        })
    }

    pub fn unix(&self) -> i64 {
        self.now.duration_since(UNIX_EPOCH).unwrap().as_secs() as i64
    }

    /// Mail `body` from `from`; returns every mail the judge sent since.
    /// With `auto_confirm` on, every request to confirm an address among
    /// them (the judge held the mail until `from` confirms, or the GM gave
    /// a power to an address new to the judge) is answered at once by its
    /// address: what is returned is then what the mail caused once
    /// carried out, without the requests and the answers to them.
    pub fn mail(&mut self, from: &str, body: &str) -> Vec<Sent> {
        let mut sent = self.mail_once(from, body);
        self.last_id = format!("m{}@example.test", self.serial);
        if !self.auto_confirm {
            return sent;
        }
        // Every request in what came (the author's, or a new player's the
        // GM named) is answered by its address, which then counts as
        // having said yes; a few rounds at most.
        for _ in 0..3 {
            let requests: Vec<(String, String)> = sent
                .iter()
                .filter_map(|m| Some((m.to.first()?.clone(), confirm_code(&m.subject)?)))
                .collect();
            if requests.is_empty() {
                break;
            }
            sent.retain(|m| confirm_code(&m.subject).is_none());
            for (address, code) in requests {
                let more = self.mail_once(&address, &format!("CONFIRM {code}"));
                let confirm_id = format!("m{}@example.test", self.serial);
                sent.extend(
                    more.into_iter()
                        .filter(|m| m.in_reply_to.as_deref() != Some(confirm_id.as_str())),
                );
            }
        }
        sent
    }

    /// Mail `body` from `from`, as it is; returns every mail the judge sent
    /// since.
    pub fn mail_once(&mut self, from: &str, body: &str) -> Vec<Sent> {
        self.serial += 1;
        let stamp = self.stamp.as_ref().map_or(String::new(), |s| {
            format!("Authentication-Results: {s}\r\n")
        });
        let raw = format!(
            "{stamp}From: {from}\r\nTo: judge@example.test\r\nSubject: test {}\r\nMessage-ID: <m{}@example.test>\r\n\r\n{}\r\n",
            self.serial,
            self.serial,
            body.replace('\n', "\r\n")
        );
        let now = self.unix();
        self.processor
            .store
            .insert_inbound(
                &format!("m{}@example.test", self.serial),
                "test",
                raw.as_bytes(),
                raw.len() as i64,
                false,
                now,
            )
            .unwrap();
        while self.processor.process_next(self.now).unwrap().is_some() {}
        self.sent()
    }

    /// Store `raw` as received (its Message-ID as the mail library reads
    /// it) and let the judge process it; returns every mail the judge sent
    /// since.
    pub fn raw(&mut self, raw: &[u8]) -> Vec<Sent> {
        let now = self.unix();
        let id = zinejudge::testing::mail::message_id_of(raw);
        self.processor
            .store
            .insert_inbound(&id, "test", raw, raw.len() as i64, false, now)
            .unwrap();
        while self.processor.process_next(self.now).unwrap().is_some() {}
        self.sent()
    }

    /// The reply to the last mail from `from` (the one with In-Reply-To).
    pub fn reply(&mut self, from: &str, body: &str) -> String {
        let sent = self.mail(from, body);
        let id = self.last_id.clone();
        sent.iter()
            .find(|m| m.in_reply_to.as_deref() == Some(id.as_str()))
            .map(|m| m.body.clone())
            .unwrap_or_else(|| panic!("no reply to {from}; sent: {sent:#?}"))
    }

    /// Move the clock and let the judge act on it.
    pub fn advance(&mut self, secs: u64) -> Vec<Sent> {
        self.now += Duration::from_secs(secs);
        self.processor.tick(self.now).unwrap();
        self.sent()
    }

    /// Mails queued since the last look.
    pub fn sent(&mut self) -> Vec<Sent> {
        let all = self.processor.store.due_outbox(i64::MAX, 100_000).unwrap();
        let mut out = Vec::new();
        for m in all {
            if m.id <= self.seen {
                continue;
            }
            self.seen = m.id;
            // As the outbox sends it: pictures are drawn at send time.
            let raw = zinejudge::testing::daemon::outbox::complete(
                self.processor.store.conn(),
                &mut *self.processor.responder,
                &m,
            )
            .unwrap();
            let p = mail_parser::MessageParser::default().parse(&raw).unwrap();
            out.push(Sent {
                to: m.recipients.clone(),
                subject: p.subject().unwrap_or("").to_string(),
                body: p
                    .body_text(0)
                    .map(|b| b.replace("\r\n", "\n"))
                    .unwrap_or_default(),
                in_reply_to: p.in_reply_to().as_text().map(|s| s.to_string()),
                attachments: p
                    .attachments()
                    .map(|a| {
                        (
                            a.attachment_name().unwrap_or("").to_string(),
                            a.contents().len(),
                        )
                    })
                    .collect(),
                files: p
                    .attachments()
                    .map(|a| File(a.contents().to_vec()))
                    .collect(),
            });
        }
        out
    }
}
