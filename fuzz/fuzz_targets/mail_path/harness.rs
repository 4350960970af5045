//! The whole mail path in a box: a store holding live games (built once),
//! a real [`Processor`] with the real [`Judge`], and the properties every
//! mail must keep. Shared by the `mail_path` fuzz target and by
//! `tests/fuzz_regressions.rs` (included there with `#[path]`), so that a
//! finding replays in `cargo test` exactly as the fuzzer saw it.
//!
//! One execution: a fresh in-memory copy of the fixture store, the input
//! stored as a received mail and processed at `T0 + 1h`, then one clock
//! tick, at a time chosen by the input's last byte (see [`tick_time`]), and
//! then every mail queued in the outbox is checked.
//!
//! Properties (each failure is returned as a text saying what broke):
//!
//! 1. The mail is not recorded as failed: its note does not start with
//!    `failed:` (a panic, `failed: panic...`, or an internal error).
//! 2. The clock tick returns without a store error and sets no game aside
//!    (`games.fault` stays empty: a fault or a panic in deadline work).
//! 3. No queued mail says the judge met an internal fault or error (a
//!    command's `CmdError::Fault`), unless the input itself holds the words
//!    `internal fault` / `internal error`.
//! 4. Every queued mail parses back with mail-parser; its header ends at a
//!    blank line, holds only CRLF line ends (no bare CR or LF), no line of
//!    the whole mail exceeds 998 bytes, its header fields are only those
//!    the judge writes (no `Bcc`, `Cc` or any other field a sender could
//!    inject), `From`, `To`, `Date`, `Subject` and `Message-ID` appear
//!    exactly once, `From` is the judge, and the addresses of `To` are
//!    exactly the envelope recipients.
//! 5. Addresses: the answer to the mail (the queued mail with an
//!    `In-Reply-To`) goes to exactly one address, one of those of the
//!    mail's `Reply-To` or `From` fields. Every other queued mail goes to
//!    addresses of the fixture (players, GMs, the observer) or addresses
//!    the input holds somewhere (a `JOIN` registers `From`, a GM's
//!    `REPLACE` names an address).
//! 6. Passwords, in two parts, with no false positives:
//!    (a) A password of the fixture appears (ASCII case ignored) in a queued
//!    mail, raw or decoded (subject, every part's text, every header),
//!    only if the input holds it too, raw or decoded (body text as the
//!    judge reads it, every part, every header, HTML turned to text).
//!    The store keeps only argon2 hashes: anything else is a leak.
//!    (b) A password of the fixture that the mail gives as a password (the
//!    secret argument of a command line of the body, by the judge's own
//!    command table, `registry::lookup` and `registry::secret_of`) never
//!    appears as a word (not next to a letter, digit or `_`, the rule
//!    of the judge's own masking) in any mail queued for this input:
//!    body, subject or any header. Text the sender writes as chat (not
//!    as a password) may come back; that is (a)'s business.
//!
//! Known findings that are not fixed are skipped unless `ZJ_FUZZ_STRICT=1`
//! (see [`Harness::strict`] and the README): 6b in the Subject of the
//! answer (finding 2) and in press the mail sends (finding 3). Finding 4,
//! a password glued to other text in a word that the answer echoes
//! (`<p>SIGNON Italy g Ita-Poppy-15</p><p>A Ven-Tri</p>` in a plain-text
//! body), is fixed: a password of 6 characters or more is masked wherever
//! it stands, and only a shorter one must stand alone to be masked.

#![allow(dead_code)]

use mail_parser::{HeaderValue, Message, MessageParser, PartType};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use zinejudge::testing::commands::Judge;
use zinejudge::testing::commands::registry;
use zinejudge::testing::daemon::process::{Limits, Processor, unix};
use zinejudge::testing::mail::{self, Identity};
use zinejudge::testing::store::{Store, games};

/// The judge's address.
pub const JUDGE: &str = "judge@example.test";

/// When the fixture was built: Sat 1 Jan 2028 12:00 UTC. Inputs are
/// processed an hour later.
pub const T0: u64 = 1_830_340_800;

/// A seat of the fixture: game, power (or `GM`), address, password.
pub struct Seat {
    pub game: &'static str,
    pub power: &'static str,
    pub address: &'static str,
    pub password: &'static str,
}

const fn seat(
    game: &'static str,
    power: &'static str,
    address: &'static str,
    password: &'static str,
) -> Seat {
    Seat {
        game,
        power,
        address,
        password,
    }
}

/// Every seat of the fixture. The GM comes first in each game (CREATE).
///
/// - `g`: standard, Spring 1901 movement, every power joined, England's
///   orders held, an observer.
/// - `f`: standard, still forming: England, France and Russia joined.
/// - `w`: 1066 (Harald Hardrada's units hidden), March 1066 movement,
///   every power joined, grey press allowed.
/// - `r`: standard, Fall 1901 retreats: Austria dislodged Italy's army in
///   Venice.
pub const SEATS: &[Seat] = &[
    seat("g", "GM", "gm@example.test", "Gm-Lantern-81"),
    seat("g", "Austria", "austria@example.test", "Aus-Violet-11"),
    seat("g", "England", "england@example.test", "Eng-Thistle-12"),
    seat("g", "France", "france@example.test", "Fra-Iris-13"),
    seat("g", "Germany", "germany@example.test", "Ger-Aster-14"),
    seat("g", "Italy", "italy@example.test", "Ita-Poppy-15"),
    seat("g", "Russia", "russia@example.test", "Rus-Birch-16"),
    seat("g", "Turkey", "turkey@example.test", "Tur-Tulip-17"),
    seat("f", "GM", "gm-f@example.test", "Gm-Harbor-62"),
    seat("f", "England", "england-f@example.test", "Eng-Forming-23"),
    seat("f", "France", "france-f@example.test", "Fra-Forming-24"),
    seat("f", "Russia", "russia-f@example.test", "Rus-Forming-25"),
    seat("w", "GM", "gm-w@example.test", "Gm-Hastings-66"),
    seat("w", "William", "william@example.test", "Wil-Arrow-31"),
    seat("w", "Harald", "harald@example.test", "Har-Longship-32"),
    seat("w", "Harold", "harold@example.test", "God-Shield-33"),
    seat("w", "Norse", "norse@example.test", "Nor-Raven-34"),
    seat("w", "Earls", "earls@example.test", "Ear-Moor-35"),
    seat("w", "Scots", "scots@example.test", "Sco-Heather-36"),
    seat("w", "Wales", "welsh@example.test", "Wel-Harp-37"),
    seat("r", "GM", "gm-r@example.test", "Gm-Anchor-91"),
    seat("r", "Austria", "austria-r@example.test", "Aus-Reef-41"),
    seat("r", "England", "england-r@example.test", "Eng-Reef-42"),
    seat("r", "France", "france-r@example.test", "Fra-Reef-43"),
    seat("r", "Germany", "germany-r@example.test", "Ger-Reef-44"),
    seat("r", "Italy", "italy-r@example.test", "Ita-Reef-45"),
    seat("r", "Russia", "russia-r@example.test", "Rus-Reef-46"),
    seat("r", "Turkey", "turkey-r@example.test", "Tur-Reef-47"),
];

/// The observer of `g`.
pub const OBSERVER: &str = "observer@example.test";

/// Header fields the judge writes at the top of its mails.
const HEADER_FIELDS: &[&str] = &[
    "from",
    "to",
    "subject",
    "date",
    "message-id",
    "in-reply-to",
    "references",
    "auto-submitted",
    "mime-version",
    "content-type",
    "content-transfer-encoding",
];

/// Header fields that must appear exactly once.
const ONCE: &[&str] = &["from", "to", "subject", "date", "message-id"];

fn identity() -> Identity {
    Identity {
        address: JUDGE.into(),
        name: "zinejudge".into(),
        domain: "example.test".into(),
    }
}

fn at(secs: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(secs)
}

fn password(game: &str, power: &str) -> &'static str {
    SEATS
        .iter()
        .find(|s| s.game == game && s.power == power)
        .map(|s| s.password)
        .expect("a seat of the fixture")
}

/// The fixture and a processor to run inputs with.
pub struct Harness {
    /// The store of live games, never changed after it is built.
    fixture: Store,
    /// The processor; its store is replaced by a fresh copy of the fixture
    /// for each input. (Its judge keeps only the variants it loaded.)
    processor: Processor,
    serial: u32,
    /// Known findings (not fixed yet) fail too; by default they are
    /// skipped so that the fuzzer looks for new ones. Set from
    /// `ZJ_FUZZ_STRICT=1`.
    pub strict: bool,
}

/// What one execution did, for the fuzz target's statistics and tests.
#[derive(Debug, Default)]
pub struct Ran {
    /// The processor's note for the mail (`None`: the store already held
    /// these bytes under this Message-ID, so nothing was processed).
    pub note: Option<String>,
    /// Mails queued (for the mail and by the tick).
    pub queued: usize,
}

impl Harness {
    /// Build the fixture (slow: every JOIN and CREATE hashes a password
    /// with argon2).
    pub fn new() -> Harness {
        let store = Store::in_memory().expect("an in-memory store");
        let processor = Processor::new(
            store,
            Box::new(Judge::new("zinejudge", "UTC")),
            identity(),
            Limits {
                trust: zinejudge::testing::trust::harness_policy(),
                ..Limits::default()
            },
        );
        let mut h = Harness {
            fixture: Store::in_memory().expect("an in-memory store"),
            processor,
            serial: 0,
            strict: std::env::var_os("ZJ_FUZZ_STRICT").is_some_and(|v| v == "1"),
        };
        h.build();
        h.fixture = h
            .processor
            .store
            .copy_in_memory()
            .expect("a copy of the fixture");
        h
    }

    /// Mail `body` from `from` to the fixture's judge at T0; returns the
    /// reply's body.
    fn setup_mail(&mut self, from: &str, body: &str) -> String {
        self.serial += 1;
        let id = format!("setup{}@example.test", self.serial);
        // The fixture's people write from mailboxes the judge's server
        // authenticates, and have used the judge before.
        let raw = format!(
            "{}From: {from}\r\nTo: {JUDGE}\r\nSubject: setup {n}\r\nMessage-ID: <{id}>\r\n\r\n{}\r\n",
            zinejudge::testing::trust::HARNESS_STAMP,
            body.replace('\n', "\r\n"),
            n = self.serial
        );
        let now = at(T0);
        zinejudge::testing::store::confirm::set_confirmed(self.processor.store.conn(), from, 0)
            .expect("store");
        self.processor
            .store
            .insert_inbound(
                &id,
                "setup",
                raw.as_bytes(),
                raw.len() as i64,
                false,
                unix(now),
            )
            .expect("store")
            .expect("a new mail");
        let done = self
            .processor
            .process_next(now)
            .expect("store")
            .expect("the mail");
        assert_eq!(done.note, "commands", "setup mail {body:?}: {done:?}");
        let out = self
            .processor
            .store
            .due_outbox(i64::MAX, 100_000)
            .expect("outbox");
        let reply = out
            .iter()
            .rev()
            .find_map(|m| {
                let p = MessageParser::default().parse(&m.raw)?;
                (p.in_reply_to().as_text() == Some(id.as_str()))
                    .then(|| p.body_text(0).map(|b| b.into_owned()).unwrap_or_default())
            })
            .unwrap_or_else(|| panic!("no reply to setup mail {body:?}"));
        assert!(
            !reply.contains("Not done") && !reply.contains("Not understood"),
            "setup mail {body:?} was refused:\n{reply}"
        );
        reply
    }

    fn build(&mut self) {
        for game in ["g", "f", "w", "r"] {
            let variant = if game == "w" { "1066" } else { "standard" };
            let mut seats = SEATS.iter().filter(|s| s.game == game);
            let gm = seats.next().expect("a GM");
            self.setup_mail(
                gm.address,
                &format!("CREATE {game} {variant} {}", gm.password),
            );
            for s in seats {
                let r = self.setup_mail(
                    s.address,
                    &format!("JOIN {game} {} {}", s.password, s.power),
                );
                assert!(r.contains("You have joined"), "{r}");
            }
        }
        // g: an observer and England's orders.
        self.setup_mail(OBSERVER, "OBSERVE g");
        self.setup_mail(
            "england@example.test",
            &format!(
                "SIGNON England g {}\nF Lon-ENG\nA Lvp-Yor",
                password("g", "England")
            ),
        );
        // w: grey press.
        self.setup_mail(
            "gm-w@example.test",
            &format!("SIGNON GM w {}\nSET PRESS GREY", password("w", "GM")),
        );
        // r: Austria takes Venice in the fall.
        let austria = format!("SIGNON Austria r {}", password("r", "Austria"));
        let gm = format!("SIGNON GM r {}\nPROCESS", password("r", "GM"));
        self.setup_mail("austria-r@example.test", &format!("{austria}\nA Vie-Tyr"));
        self.setup_mail("gm-r@example.test", &gm);
        self.setup_mail(
            "austria-r@example.test",
            &format!("{austria}\nF Tri-Ven\nA Tyr S F Tri-Ven"),
        );
        self.setup_mail("gm-r@example.test", &gm);
        let list = self.setup_mail(OBSERVER, "LIST r");
        assert!(list.contains("Fall 1901 retreat"), "r: {list}");
        let c = self.processor.store.conn();
        for (game, status) in [
            ("g", "Active"),
            ("f", "Forming"),
            ("w", "Active"),
            ("r", "Active"),
        ] {
            let g = games::load(c, game).expect("store").expect("the game");
            assert_eq!(format!("{:?}", g.status), status, "game {game}");
        }
        // Only the games are the fixture: no mail waits, and no rate is
        // counted against any address.
        c.execute_batch(
            "DELETE FROM outbox; DELETE FROM senders; DELETE FROM answered;
             DELETE FROM signon_failures;",
        )
        .expect("clean up");
    }

    /// Run one input through the whole path and check every property.
    pub fn run(&mut self, data: &[u8]) -> Result<Ran, String> {
        self.processor.store = self.fixture.copy_in_memory().expect("a copy");
        let now = at(T0 + 3600);
        let id = mail::message_id_of(data);
        let mut ran = Ran::default();
        let Some(row) = self
            .processor
            .store
            .insert_inbound(&id, "fuzz", data, data.len() as i64, false, unix(now))
            .map_err(|e| format!("storing the mail: {e}"))?
        else {
            return Ok(ran);
        };
        let done = self
            .processor
            .process_next(now)
            .map_err(|e| format!("store error processing the mail: {e:?}"))?
            .ok_or("the stored mail was not processed")?;
        if done.note.starts_with("failed:") {
            return Err(format!("the mail failed: {}", done.note));
        }
        ran.note = Some(done.note);
        let tick = tick_time(data);
        self.processor
            .tick(at(tick))
            .map_err(|e| format!("store error in the tick at T0+{}s: {e:?}", tick - T0))?;
        let c = self.processor.store.conn();
        for g in games::list(c).map_err(|e| format!("listing games: {e}"))? {
            if let Some(f) = games::fault(c, &g.name).map_err(|e| format!("{e}"))? {
                return Err(format!(
                    "game {} was set aside by the tick at T0+{}s: {f}",
                    g.name,
                    tick - T0
                ));
            }
        }
        // The outbox keeps a mail's text packed: read as it is sent.
        let queued: Vec<(Option<i64>, String, Vec<u8>)> = {
            c.query_map(
                "SELECT inbound_id, recipients, raw, id, packed FROM outbox ORDER BY id",
                &[],
                |r| {
                    let raw = zinejudge::testing::store::unpack(r.get(3)?, r.get(2)?, r.get(4)?)?;
                    Ok((r.get(0)?, r.get(1)?, raw))
                },
            )
            .map_err(|e| format!("{e}"))?
        };
        ran.queued = queued.len();
        let input = Input::read(data);
        for (n, (inbound, rcpt, raw)) in queued.iter().enumerate() {
            let rcpt: Vec<String> = rcpt
                .split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            check_out(&input, *inbound == Some(row), &rcpt, raw, self.strict).map_err(|e| {
                format!(
                    "queued mail {n} (to {rcpt:?}): {e}\n--- the mail:\n{}",
                    String::from_utf8_lossy(raw)
                )
            })?;
        }
        Ok(ran)
    }
}

impl Default for Harness {
    fn default() -> Self {
        Self::new()
    }
}

/// When the tick after the mail runs, by the input's last byte: `5` at
/// T0+50h (reminders due in `g` and `w`; `r` past its deadline and its
/// grace: retreats adjudicated), `6` at T0+73h (past the deadlines of `g`
/// and `w`: late notices), `7` at T0+100h (past their grace: `g` and `w`
/// adjudicated, results and pictures); any other byte at the mail's own
/// time (nothing due). Deadline work takes seconds under ASan (the map
/// pictures), against a tenth of a second for most mails, so it is kept
/// for inputs that choose it; the seeds that end in these digits keep it
/// in the corpus.
pub fn tick_time(data: &[u8]) -> u64 {
    match data.last() {
        Some(b'5') => T0 + 50 * 3600,
        Some(b'6') => T0 + 73 * 3600,
        Some(b'7') => T0 + 100 * 3600,
        _ => T0 + 3600,
    }
}

/// What the input holds, as the properties need it.
struct Input {
    /// Every form of its text, lower case, joined by newlines.
    views: String,
    /// The addresses of its From and Reply-To fields, lower case.
    answerable: Vec<String>,
    /// Passwords of the fixture the mail gives as passwords.
    given: Vec<&'static str>,
}

impl Input {
    fn read(data: &[u8]) -> Input {
        let mut views: Vec<String> = vec![String::from_utf8_lossy(data).into_owned()];
        let inbound = mail::read(data, JUDGE);
        views.push(inbound.text.clone());
        views.push(inbound.subject.clone());
        for a in inbound.from.iter().chain(inbound.reply_to.iter()) {
            views.push(a.email.clone());
            views.extend(a.name.clone());
        }
        let mut answerable = Vec::new();
        for a in inbound.from.iter().chain(inbound.reply_to.iter()) {
            answerable.push(a.email.to_ascii_lowercase());
        }
        for m in [
            MessageParser::default().parse(data),
            MessageParser::default().parse_headers(data),
        ]
        .into_iter()
        .flatten()
        {
            texts(&m, &mut views, 0, true);
            for h in m.headers() {
                let name = h.name().to_ascii_lowercase();
                if (name == "from" || name == "reply-to")
                    && let HeaderValue::Address(a) = h.value()
                {
                    for x in a.iter() {
                        if let Some(e) = x.address() {
                            answerable.push(e.trim().to_ascii_lowercase());
                        }
                    }
                }
            }
        }
        let mut given = Vec::new();
        for l in inbound.text.lines() {
            let bare = l.trim_start_matches(['>', '|', ' ', '\t']);
            if let Some(c) = registry::lookup(bare)
                && let Some(sec) = registry::secret_of(&c)
                && let Some(s) = SEATS.iter().find(|s| s.password == sec)
            {
                given.push(s.password);
            }
        }
        Input {
            views: views.join("\n").to_lowercase(),
            answerable,
            given,
        }
    }

    fn holds(&self, text: &str) -> bool {
        self.views.contains(&text.to_lowercase())
    }
}

/// Every text of a parsed mail: header values, each part's contents,
/// the bodies as text (HTML turned into text), nested mails too. The
/// top-level Subject only if `subject`.
fn texts(m: &Message<'_>, out: &mut Vec<String>, depth: usize, subject: bool) {
    if subject && let Some(s) = m.subject() {
        out.push(s.to_string());
    }
    for i in 0..8 {
        match m.body_text(i) {
            Some(t) => out.push(t.into_owned()),
            None => break,
        }
    }
    for p in &m.parts {
        for h in p.headers() {
            if subject || !h.name().eq_ignore_ascii_case("subject") {
                header_texts(h.value(), out);
            }
        }
        match &p.body {
            PartType::Message(inner) if depth < 4 => texts(inner, out, depth + 1, true),
            _ => out.push(String::from_utf8_lossy(p.contents()).into_owned()),
        }
    }
    for h in m.headers() {
        if subject || !h.name().eq_ignore_ascii_case("subject") {
            header_texts(h.value(), out);
        }
    }
}

fn header_texts(v: &HeaderValue<'_>, out: &mut Vec<String>) {
    match v {
        HeaderValue::Text(t) => out.push(t.to_string()),
        HeaderValue::TextList(l) => out.extend(l.iter().map(|t| t.to_string())),
        HeaderValue::Address(a) => {
            for x in a.iter() {
                out.extend(x.name().map(str::to_string));
                out.extend(x.address().map(str::to_string));
            }
        }
        other => out.push(format!("{other:?}")),
    }
}

/// Whether `word` stands in `text` as a word: not next to a letter, digit
/// or `_` (the judge's own masking rule).
fn has_word(text: &str, word: &str) -> bool {
    let is_word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    text.match_indices(word).any(|(i, _)| {
        !is_word(text[..i].chars().next_back()) && !is_word(text[i + word.len()..].chars().next())
    })
}

/// Whether `word` stands in `text` as a word the judge's masking
/// (`commands::mailrun::mask`) masks however short it is: a whole
/// whitespace-separated word, or one with only punctuation around it. A
/// password of 6 characters or more is masked wherever it stands.
fn stands_alone(text: &str, word: &str) -> bool {
    let punct = |c: char| !(c.is_alphanumeric() || c == '_' || c == '-');
    text.split_whitespace()
        .any(|t| t == word || t.trim_matches(punct) == word)
}

/// Check one queued mail. `answers` says it was queued for the input (not
/// by the tick).
fn check_out(
    input: &Input,
    answers: bool,
    rcpt: &[String],
    raw: &[u8],
    strict: bool,
) -> Result<(), String> {
    // 4: the wire form.
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("no blank line ends the header")?;
    for (i, &b) in raw.iter().enumerate() {
        let bare_lf = b == b'\n' && (i == 0 || raw[i - 1] != b'\r');
        let bare_cr = b == b'\r' && raw.get(i + 1) != Some(&b'\n');
        if bare_lf || bare_cr {
            let place = if i < end { "header" } else { "body" };
            return Err(format!(
                "a bare {} at byte {i} (in the {place})",
                if bare_lf { "LF" } else { "CR" }
            ));
        }
    }
    for (n, line) in raw.split(|&b| b == b'\n').enumerate() {
        if line.len() > 999 {
            return Err(format!("line {n} is {} bytes long", line.len() - 1));
        }
    }
    let head = &raw[..end];
    let mut counts: Vec<(String, usize)> = Vec::new();
    for (n, line) in head.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.starts_with(b" ") || line.starts_with(b"\t") {
            if n == 0 {
                return Err("the header starts with a continuation line".into());
            }
            continue;
        }
        let colon = line.iter().position(|&b| b == b':').ok_or_else(|| {
            format!(
                "header line {n} is no field: {:?}",
                String::from_utf8_lossy(line)
            )
        })?;
        let name = String::from_utf8_lossy(&line[..colon]).to_ascii_lowercase();
        if !HEADER_FIELDS.contains(&name.as_str()) {
            return Err(format!(
                "header field {name:?} the judge never writes: {:?}",
                String::from_utf8_lossy(line)
            ));
        }
        match counts.iter_mut().find(|(n, _)| *n == name) {
            Some((_, c)) => *c += 1,
            None => counts.push((name, 1)),
        }
    }
    for f in ONCE {
        let c = counts.iter().find(|(n, _)| n == f).map_or(0, |(_, c)| *c);
        if c != 1 {
            return Err(format!("{c} `{f}` fields"));
        }
    }
    let m = MessageParser::default()
        .parse(raw)
        .ok_or("mail-parser cannot read the mail")?;
    let from: Vec<String> = m
        .from()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.address())
                .map(str::to_ascii_lowercase)
                .collect()
        })
        .unwrap_or_default();
    if from != [JUDGE] {
        return Err(format!("From is {from:?}"));
    }
    let mut to: Vec<String> = m
        .to()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.address())
                .map(str::to_ascii_lowercase)
                .collect()
        })
        .unwrap_or_default();
    let mut envelope: Vec<String> = rcpt.iter().map(|r| r.to_ascii_lowercase()).collect();
    to.sort();
    envelope.sort();
    if to != envelope || to.is_empty() {
        return Err(format!("To {to:?} but the envelope is {envelope:?}"));
    }
    let replying = m.in_reply_to().as_text().is_some();
    // 5: where it goes.
    if replying {
        if !answers {
            return Err("a mail of the tick answers a mail".into());
        }
        if envelope.len() != 1 || !input.answerable.contains(&envelope[0]) {
            return Err(format!(
                "the answer goes to {envelope:?}, not to one of Reply-To/From {:?}",
                input.answerable
            ));
        }
    }
    for r in &envelope {
        let known = SEATS.iter().any(|s| s.address == r) || r == OBSERVER;
        if !known && !input.holds(r) {
            return Err(format!(
                "mail to {r}, an address neither the fixture nor the input has"
            ));
        }
    }
    // 3 and 6: what it says.
    // Decoded (a quoted-printable soft break may stand right after a
    // password in the raw form), and raw too for 6a.
    let mut decoded: Vec<String> = Vec::new();
    texts(&m, &mut decoded, 0, false);
    let subject = m.subject().unwrap_or_default();
    decoded.push(subject.to_string());
    let said = decoded.join("\n");
    let lower = format!("{}\n{}", String::from_utf8_lossy(raw), said).to_lowercase();
    for fault in ["internal fault", "internal error"] {
        if lower.contains(fault) && !input.holds(fault) {
            return Err(format!("the judge reports an {fault}"));
        }
    }
    for s in SEATS {
        if lower.contains(&s.password.to_lowercase()) && !input.holds(s.password) {
            return Err(format!(
                "the password of {} in {} appears, and the input does not hold it",
                s.power, s.game
            ));
        }
    }
    // Press the mail sends: its text as written (finding 3).
    let press = m.body_text(0).is_some_and(|b| b.starts_with("Press in "));
    if answers {
        for p in &input.given {
            if press && !strict {
                continue;
            }
            let body = &said[..said.len() - subject.len()];
            if has_word(body, p) && (strict || p.chars().count() >= 6 || stands_alone(body, p)) {
                return Err(format!("the password {p}, given in the mail, is shown"));
            }
            if has_word(subject, p) && strict {
                return Err(format!(
                    "the password {p}, given in the mail, is shown in the Subject \
                     (known: finding 2, the answer's Subject is the mail's, unmasked)"
                ));
            }
        }
    }
    Ok(())
}
