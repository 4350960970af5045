//! Mails written as njudge's and DPjudge's help files teach them
//! (tests/data/other_judges_corpus/mails.toml, which says how it was
//! written and how a mail counts as understood), each sent through the
//! judge: the judge understands at least [`MIN_UNDERSTOOD`] of them.
//!
//! Issue #49 asks that such a set, written by someone who has not seen the
//! judge's tests, be understood 54 times in 58 (93%); this corpus was
//! written from the help files before the judge was changed for it, and
//! was understood 56 times in 109 then (see the corpus's header), 107
//! after. Another corpus in the same format is run with its own minimum
//! by [`understood_at_least`], one test function each:
//!
//! ```ignore
//! #[test]
//! fn the_independent_corpus_is_understood() {
//!     crate::other_judges_corpus::understood_at_least(
//!         "tests/data/independent_corpus/mails.toml",
//!         54,
//!     );
//! }
//! ```

use crate::support_judge;
use serde::Deserialize;
use support_judge::{Sent, World};

/// How many of this corpus's mails must be understood (of 109: one orders
/// a convoy by the fleet in London, which no rulebook allows, and one
/// nests an IF inside another, which this judge refuses).
const MIN_UNDERSTOOD: usize = 107;

const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];
const GM: &str = "gm@example.test";
const GM_PW: &str = "gm-secret";

#[derive(Deserialize)]
struct Corpus {
    mail: Vec<Mail>,
}

#[derive(Deserialize)]
struct Mail {
    id: String,
    judge: String,
    #[allow(dead_code)]
    help: String,
    promise: String,
    setup: String,
    #[serde(default)]
    before: Vec<(String, String)>,
    from: String,
    body: String,
    #[serde(default)]
    process: bool,
    #[serde(default)]
    expect: Vec<String>,
    #[serde(default)]
    absent: Vec<String>,
    #[serde(default)]
    refused: Vec<String>,
    /// Strings the reply itself must not hold (with `process`, `absent`
    /// is looked for in what the processing sent).
    #[serde(default)]
    reply_absent: Vec<String>,
}

/// A power's, the GM's or anybody's address.
fn address(who: &str) -> String {
    if who == "GM" {
        GM.to_string()
    } else if who.contains('@') {
        who.to_string()
    } else {
        format!("{}@example.test", who.to_lowercase())
    }
}

fn password(who: &str) -> String {
    format!("pw-{}-secret", who.to_lowercase())
}

/// `body` with its placeholders filled for the sender `who`.
fn fill(body: &str, who: &str) -> String {
    body.replace("{pw}", &password(who))
        .replace("{gmpw}", GM_PW)
}

fn world(setup: &str) -> World {
    let mut w = World::new();
    match setup {
        "started" => {
            w.reply(
                GM,
                &format!("CREATE g standard {GM_PW}\nSET PRESS GREY\nSET ASSIGNMENT FIRST-COME"),
            );
            for p in POWERS {
                w.reply(&address(p), &format!("JOIN g {} {p}", password(p)));
            }
        }
        "forming" => {
            w.reply(GM, &format!("CREATE g standard {GM_PW}"));
        }
        other => panic!("no setup {other}"),
    }
    w
}

/// Lower case, spaces single: a phrase is found wherever a reply wrapped it.
fn flat(t: &str) -> String {
    t.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// What sending `m` gave: whether it was understood, and what the sender
/// was mailed (for the failure list).
fn try_mail(m: &Mail) -> (bool, String) {
    let mut w = world(&m.setup);
    for (who, body) in &m.before {
        w.mail(&address(who), &fill(body, who));
    }
    let to = address(&m.from);
    let mut sent: Vec<Sent> = w.mail(&to, &fill(&m.body, &m.from));
    let reply = sent
        .iter()
        .find(|s| s.to_has(&to) && s.in_reply_to.is_some())
        .map(|s| flat(&s.body))
        .unwrap_or_default();
    // What the phase brings is in the mails its processing sends.
    if m.process {
        sent = w.mail(GM, &format!("SIGNON GM g {GM_PW}\nPROCESS"));
    }
    let got = flat(
        &sent
            .iter()
            .filter(|s| s.to_has(&to))
            .map(|s| format!("{}\n{}", s.subject, s.body))
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let has = |t: &str| got.contains(&flat(t));
    let clean = m.absent.iter().all(|a| !has(a))
        && m.reply_absent.iter().all(|a| !reply.contains(&flat(a)));
    let unread = ["not understood", "no game called"]
        .iter()
        .any(|b| reply.contains(b));
    let done = !m.expect.is_empty() && m.expect.iter().all(|e| has(e)) && clean && !unread;
    let refused = !m.refused.is_empty()
        && reply.contains("not done")
        && m.refused.iter().any(|r| reply.contains(&flat(r)))
        && clean;
    (done || refused, reply)
}

/// Send every mail of the corpus at `path` (from the crate's root, in
/// this corpus's format) through the judge, and fail unless at least
/// `min` are understood; the mails not understood are listed with what
/// their sender was mailed.
pub(crate) fn understood_at_least(path: &str, min: usize) {
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let corpus: Corpus = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut ids = std::collections::HashSet::new();
    let mut failed = Vec::new();
    for m in &corpus.mail {
        assert!(ids.insert(m.id.clone()), "{path}: {} twice", m.id);
        assert!(
            matches!(m.judge.as_str(), "njudge" | "dpjudge"),
            "{path}: {}: judge {}",
            m.id,
            m.judge
        );
        let (ok, reply) = try_mail(m);
        if !ok {
            failed.push(format!("{} ({}): {reply}", m.id, m.promise));
        }
    }
    let understood = corpus.mail.len() - failed.len();
    println!(
        "{path}: understood {understood} of {} mails written from the help files",
        corpus.mail.len()
    );
    for f in &failed {
        println!("NOT UNDERSTOOD {f}\n");
    }
    assert!(!corpus.mail.is_empty(), "{path}: no mails");
    assert!(
        understood >= min,
        "{path}: understood {understood} of {}, fewer than {min}; not understood:\n{}",
        corpus.mail.len(),
        failed.join("\n\n")
    );
}

#[test]
fn mails_written_from_the_other_judges_help_files_are_understood() {
    understood_at_least("tests/data/other_judges_corpus/mails.toml", MIN_UNDERSTOOD);
}

/// Issue #49's measure: 58 mails written from njudge's and DPjudge's help
/// files by a writer who had seen neither this judge's tests nor its code
/// (tests/data/independent_corpus/mails.toml says how), run unchanged.
/// The issue asks for 54; the first run understood 56. The two others:
/// dp-remove's removal is taken ("Remove F(Alb)") where the writer
/// guessed the echo "Disband F(Alb)", and dp-takeover is refused with
/// this judge's form (the GM's REPLACE), as the README says.
#[test]
fn an_independent_set_written_from_the_help_files_is_understood() {
    understood_at_least("tests/data/independent_corpus/mails.toml", 56);
}
