//! Nobody is subscribed, registered or written to on someone else's word.
//!
//! A mail's From is only a claim. A mail that would register its From
//! (join a game, observe one, create one, take a seat over, move a seat's
//! mail to it: the command table says which lines do) and whose From is
//! not authenticated ([`super::sender`]) is held whole: nothing in it is
//! done, and its From is sent a request, in the judge's words only, naming
//! what the mail asks, with a code of its own. Answering that request
//! (a `CONFIRM code` line of the mail's own, or a reply keeping the
//! request's Subject) from that very address carries out that mail and no
//! other: every held mail and every offer has its own code. A robot never
//! confirms: a mail that says it is one (RFC 3834 `Auto-Submitted`,
//! `Precedence`, `X-Autoreply` and the like, a list's headers), a mail
//! from another address than the one asked, and a code only quoted from
//! the request confirm nothing.
//!
//! A power a GM gives an address (REPLACE, ASSIGN) is an offer until that
//! address accepts, whether or not it has had the judge's mail before.
//! Requests are few and short: each under [`MAX_REQUEST`] characters, at
//! most [`MAX_HELD`] mails wait for one address, and besides the requests
//! that are a mail's own answer (bounded as answers are), at most
//! [`ASK_PER_DAY`] a day go to an address. Held mails and offers lapse
//! after [`WAIT`](crate::store::confirm::WAIT).
//!
//! With `[trust] require-authentication` a registering mail whose From is
//! not authenticated is refused instead of held.

use super::sender::{Policy, Sender};
use super::{TrustError, TrustResult};
use crate::mail::{Inbound, Outgoing, reply_to, to_each};
use crate::store::Conn;
use crate::store::budget::{self, Spend};
use crate::store::confirm::{self as rows, Waiting};

/// Mails at most that may wait for one address's confirmation.
pub(crate) const MAX_HELD: usize = 5;
/// Requests at most to one address in a day, besides those that answer a
/// mail from it (an offer, or a mail whose answer goes elsewhere).
pub(crate) const ASK_PER_DAY: i64 = 1;
/// The longest request, in characters.
pub(crate) const MAX_REQUEST: usize = 2000;
/// What a request lists of a mail's asks, at most; the rest are counted.
const LISTED: usize = 8;

/// A held mail's request, for the daemon to keep with the mail's row
/// ([`keep`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoldRow {
    /// The address asked.
    pub address: String,
    /// The request's code.
    pub code: String,
}

/// What becomes of a mail that asks to register its From without being
/// vouched for: its replies, a note for the log, and the request to keep
/// with it (`None`: the mail is refused, not held).
#[derive(Debug)]
pub(crate) struct Held {
    /// The answer, and the request when it goes elsewhere.
    pub replies: Vec<Outgoing>,
    /// For the store and the log.
    pub note: &'static str,
    /// The request the mail waits for.
    pub row: Option<HoldRow>,
}

/// The code of a request in a Subject (`Re: ... [CONFIRM code]`), so that
/// replying to the request is enough.
pub(crate) fn code_in_subject(subject: &str) -> Option<String> {
    let words: Vec<&str> = subject.split_whitespace().collect();
    words.windows(2).find_map(|w| {
        let head = w[0].trim_start_matches('[');
        let code = w[1].trim_matches(|c: char| !c.is_ascii_alphanumeric());
        // A code, not a word of the Subject ("please confirm your ...").
        let long = code.chars().filter(char::is_ascii_alphanumeric).count() >= 12;
        (head.eq_ignore_ascii_case("confirm") && long).then(|| code.to_string())
    })
}

/// `text` as a paragraph of lines of at most 72 characters.
fn para(text: &str) -> String {
    crate::report::wrap(text, 72, "")
}

/// The Subject of a request.
fn request_subject(judge: &str, code: &str) -> String {
    format!("{judge}: please confirm [CONFIRM {code}]")
}

/// How to answer a request (`yes`: "If it was you"), what follows
/// (`then`), and what happens if nobody answers (`no`).
fn request_tail(code: &str, yes: &str, then: &str, no: &str) -> String {
    format!(
        "\n{}\n  CONFIRM {code}\n\n{}",
        para(&format!(
            "{yes}, reply to this mail keeping its Subject, or send the judge a mail \
             with this line on its own (not quoted):"
        )),
        para(&format!(
            "{then} {no}, do nothing: the judge writes nothing more to this address \
             about it, and forgets the request in 7 days."
        ))
    )
}

/// The lines of a request that list `shown`, each indented behind a
/// dash, and how many more of the `all` asked were not shown. The dash
/// keeps a line from reading as a command when a reply quotes it: "join
/// the game g1 as a player" read as a JOIN whose password was "game",
/// masked all through the answer (issue #51).
fn listed(shown: &[String], all: usize) -> String {
    let mut out = String::new();
    for a in shown {
        out.push_str("  - ");
        out.push_str(a);
        out.push('\n');
    }
    if all > shown.len() {
        out.push_str(&format!("  and {} more\n", all - shown.len()));
    }
    out
}

/// The text of a request to `from` to confirm a mail that asks `asks`,
/// with `code`: the judge's words only, under [`MAX_REQUEST`] characters
/// (fewer asks listed if need be).
fn request_text(judge: &str, from: &str, asks: &[String], code: &str) -> String {
    let mut shown = asks.len().min(LISTED);
    loop {
        let text = format!(
            "{}\n{}\n{}\n{}-- \n{judge}\n",
            para(&format!(
                "Someone asked the Diplomacy judge {judge}, in a mail that says it \
                 comes from this address ({from}), to:"
            )),
            listed(&asks[..shown], asks.len()),
            para(
                "Anyone can write any address on a mail, so the judge does this only \
                 when the address itself says yes, and only for that mail."
            ),
            request_tail(
                code,
                "If it was you",
                "That mail is then carried out as it was sent, and nothing else.",
                "If it was not you"
            ),
        );
        if text.chars().count() < MAX_REQUEST || shown <= 1 {
            return text;
        }
        shown -= 1;
    }
}

/// A fresh code for a request: 16 letters and digits from the operating
/// system's random source, in groups of four.
fn new_code() -> TrustResult<String> {
    super::password::generate().map_err(TrustError::Random)
}

/// Whether another request may go to `address` at `now` (at most
/// [`ASK_PER_DAY`] a day); counts it if so.
fn may_ask(c: &Conn, address: &str, now: i64) -> TrustResult<bool> {
    Ok(budget::spend(
        c,
        &format!("ask:{address}"),
        86_400,
        now,
        Spend {
            mails: ASK_PER_DAY,
            bytes: i64::MAX,
        },
        Spend { mails: 1, bytes: 0 },
    )?)
}

/// A refusal answered to the mail's answer address, nothing held.
fn refusal(judge: &str, mail: &Inbound, sender: &Sender, why: &str, note: &'static str) -> Held {
    let body = crate::report::fit72(&format!(
        "Nothing in this mail was done. {why}\n-- \n{judge}\n"
    ));
    Held {
        replies: vec![reply_to(mail, &sender.answer, body)],
        note,
        row: None,
    }
}

/// What to do with `mail`, from `sender`, whose lines ask `asks` (in the
/// judge's words, one an action: "join the game g1") that would register
/// its From: `None` when they may be carried out now (nothing asked, or
/// the From vouched for), else the mail is held for a request to its From,
/// or refused.
pub(crate) fn decide(
    c: &Conn,
    judge: &str,
    policy: &Policy,
    mail: &Inbound,
    sender: &Sender,
    asks: &[String],
    now: i64,
) -> TrustResult<Option<Held>> {
    if asks.is_empty() || sender.vouched() {
        return Ok(None);
    }
    let from = sender.from.email.clone();
    if policy.require_authentication {
        return Ok(Some(refusal(
            judge,
            mail,
            sender,
            &format!(
                "It asks the judge to register {from}, and this judge registers an \
                 address (JOIN, OBSERVE, CREATE, SET ADDRESS, TAKEOVER) only from mail \
                 its own mail server has authenticated (DKIM or DMARC); this mail was \
                 not. Send it from a mail provider that signs its mail."
            ),
            "refused: not authenticated",
        )));
    }
    let held = rows::waiting(c, &from)?
        .iter()
        .filter(|r| matches!(r.waiting, Waiting::Mail(_)))
        .count();
    if held >= MAX_HELD {
        return Ok(Some(refusal(
            judge,
            mail,
            sender,
            &format!(
                "It asks the judge to register {from}, which has not confirmed it, and \
                 {MAX_HELD} mails already wait for that address's confirmation."
            ),
            "refused: too many held",
        )));
    }
    // A request that is the mail's answer costs nothing the judge did not
    // owe the mail anyway (answers are bounded per address:
    // `budget::admit`); one that goes elsewhere is writing to someone on
    // another's word, and is bounded hard.
    if !sender.answered_at_from() && !may_ask(c, &from, now)? {
        return Ok(Some(refusal(
            judge,
            mail,
            sender,
            &format!(
                "It asks the judge to register {from}, which would have to confirm it, \
                 and the judge has asked that address to confirm something in the last \
                 day already. Send it from that address itself, without a Reply-To \
                 (the answer is then the request), or again tomorrow."
            ),
            "refused: too many requests",
        )));
    }
    let code = new_code()?;
    let request = request_text(judge, &from, asks, &code);
    let mut replies = Vec::new();
    if sender.answered_at_from() {
        // The answer is the request.
        let mut r = reply_to(mail, &sender.answer, request);
        r.subject = request_subject(judge, &code);
        replies.push(r);
    } else {
        let body = crate::report::fit72(&format!(
            "Nothing in this mail was done yet. It asks the judge to register {from}, \
             which the judge has asked to confirm it. The mail is carried out if that \
             address confirms within 7 days.\n-- \n{judge}\n"
        ));
        replies.push(reply_to(mail, &sender.answer, body));
        replies.extend(to_each(&[&from], request_subject(judge, &code), request));
    }
    Ok(Some(Held {
        replies,
        note: "held for a confirmation",
        row: Some(HoldRow {
            address: from,
            code,
        }),
    }))
}

/// Keep the held mail `inbound` with its request `row`, at `now`.
pub(crate) fn keep(c: &Conn, row: &HoldRow, inbound: i64, note: &str, now: i64) -> TrustResult {
    rows::add(c, &row.address, &Waiting::Mail(inbound), &row.code, now)?;
    rows::asked(c, &row.code, now)?;
    rows::hold(c, inbound, note, now)?;
    Ok(())
}

/// The address that confirmed the mail `inbound` (it was held and its
/// request answered), for [`super::sender::identify`].
pub(crate) fn vouched(c: &Conn, inbound: i64) -> TrustResult<Option<String>> {
    Ok(rows::vouched(c, inbound)?)
}

/// The mail `inbound` has been carried out: its confirmation is spent.
pub(crate) fn spent(c: &Conn, inbound: i64) -> TrustResult {
    Ok(rows::spent(c, inbound)?)
}

/// Forget what waited too long ([`WAIT`](crate::store::confirm::WAIT)); how many held mails lapsed.
pub(crate) fn expire(c: &Conn, now: i64) -> TrustResult<usize> {
    Ok(rows::expire(c, now)?)
}

/// `address` wrote to the judge itself, as its server authenticated: it
/// counts from now on as an address that wants the judge's mail.
pub(crate) fn wrote_itself(c: &Conn, address: &str, now: i64) -> TrustResult {
    Ok(rows::set_confirmed(c, address, now)?)
}

/// Whether `address` ever confirmed it wants the judge's mail (or had it
/// before confirmation existed).
pub(crate) fn confirmed(c: &Conn, address: &str) -> TrustResult<bool> {
    Ok(rows::confirmed(c, address)?)
}

/// What answering a request carried out.
#[derive(Debug, Default)]
pub(crate) struct Answered {
    /// The address that confirmed.
    pub address: String,
    /// Held mails released, to be read again now.
    pub mails: usize,
    /// Offers accepted: (game, power, the GM's address when offered).
    pub offers: Vec<(String, u8, String)>,
}

/// Answer the request whose code is `code`, for `sender`, at `now`.
/// Refused when no request waits for that code, when a robot sent it, or
/// when it comes from another address than the one asked.
pub(crate) fn answer(c: &Conn, sender: &Sender, code: &str, now: i64) -> TrustResult<Answered> {
    let requests = rows::by_code(c, code, now)?;
    if requests.is_empty() {
        return Err(TrustError::refused(format!(
            "no request waits for the code {}: it was used already, is more than 7 days \
             old, or is mistyped (codes have no letters o, i, l or 1)",
            crate::mail::header_text(code, 40)
        )));
    }
    if let Some(robot) = &sender.robot {
        return Err(TrustError::refused(format!(
            "this mail carries {robot}, as an autoresponder's or a list's does, and such \
             a mail confirms nothing: send the CONFIRM line yourself"
        )));
    }
    let mut out = Answered {
        address: sender.from.email.clone(),
        ..Answered::default()
    };
    for r in &requests {
        if !r.address.eq_ignore_ascii_case(&sender.from.email) {
            return Err(TrustError::refused(format!(
                "that code was sent to another address; only a mail from the address it \
                 was sent to confirms it (this one is from {})",
                sender.from.email
            )));
        }
    }
    for r in requests {
        rows::answer(c, &r, now)?;
        match r.waiting {
            Waiting::Mail(_) => out.mails += 1,
            Waiting::Offer { game, power, by } => out.offers.push((game, power, by)),
        }
    }
    rows::set_confirmed(c, &out.address, now)?;
    tracing::info!(address = %out.address, mails = out.mails, offers = out.offers.len(), "a request was confirmed");
    Ok(out)
}

/// Whether `mail`'s quoted lines hold the code of a request still waiting
/// for `sender`'s From (a reply that quoted the request, under another
/// Subject, with the CONFIRM line only in the quote): such a reply
/// confirms nothing, and its answer says how to.
pub(crate) fn quoted_code_waits(
    c: &Conn,
    mail: &Inbound,
    sender: &Sender,
    now: i64,
) -> TrustResult<bool> {
    for line in mail.text.lines() {
        let t = line.trim_start_matches(['>', '|', ' ', '\t']);
        if t.len() == line.len() {
            continue;
        }
        let mut words = t.split_whitespace();
        if !words.next().is_some_and(|w| {
            w.trim_end_matches([':', '.'])
                .eq_ignore_ascii_case("confirm")
        }) {
            continue;
        }
        if let Some(code) = words.next()
            && rows::by_code(c, code, now)?
                .iter()
                .any(|r| r.address.eq_ignore_ascii_case(&sender.from.email))
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Offer `power` (called `name`) of `game` to `address`, for the GM at
/// `gm`: the address is asked, and gets the power when it accepts.
/// Returns the request to send, or `None` when none goes: the same offer
/// was sent already, or the address was asked today (the offer still
/// waits, and the same offer made again tomorrow asks it).
#[allow(clippy::too_many_arguments)]
pub(crate) fn offer(
    c: &Conn,
    judge: &str,
    game: &str,
    power: u8,
    name: &str,
    address: &str,
    gm: &str,
    now: i64,
) -> TrustResult<Option<Outgoing>> {
    // The same offer again keeps its code: the request sent for it
    // stays good, and is not sent twice.
    let code = match rows::offered(c, game, power, address)? {
        Some((_, true)) => return Ok(None),
        Some((code, false)) => code,
        None => {
            let code = new_code()?;
            let waiting = Waiting::Offer {
                game: game.to_string(),
                power,
                by: gm.to_string(),
            };
            rows::add(c, address, &waiting, &code, now)?;
            code
        }
    };
    if !may_ask(c, address, now)? {
        return Ok(None);
    }
    rows::asked(c, &code, now)?;
    let body = format!(
        "{}{}-- \n{judge}\n",
        para(&format!(
            "The GM of the game {game} at the Diplomacy judge {judge} would like you to \
             take over {name}. The judge gives a power only to an address that has \
             said yes to it."
        )),
        request_tail(
            &code,
            "If you accept",
            "The judge then mails you the game, your units and your password.",
            "If you do not want it, or do not know what this is"
        ),
    );
    Ok(to_each(&[address], request_subject(judge, &code), body)
        .into_iter()
        .next())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_to_a_request_carries_its_code() {
        assert_eq!(
            code_in_subject("Re: zinejudge: please confirm [CONFIRM abcd-efgh-jkmn-pqrs]")
                .as_deref(),
            Some("abcd-efgh-jkmn-pqrs")
        );
        assert_eq!(code_in_subject("Re: orders"), None);
        assert_eq!(
            code_in_subject("AW: [confirm ABCD-EFGH-JKMN-PQRS]").as_deref(),
            Some("ABCD-EFGH-JKMN-PQRS")
        );
    }

    #[test]
    fn a_request_is_short_and_in_the_judges_words() {
        let asks: Vec<String> = (0..100).map(|i| format!("observe the game g{i}")).collect();
        let r = request_text("zinejudge", "ann@example.org", &asks, "abcd-efgh-jkmn-pqrs");
        assert!(r.contains("  and 92 more\n"), "{r}");
        assert!(r.chars().count() < MAX_REQUEST, "{}", r.len());
        let long = "j".repeat(600);
        let r = request_text(&long, "ann@example.org", &asks, "abcd-efgh-jkmn-pqrs");
        assert!(r.contains("and 99 more") || r.chars().count() < MAX_REQUEST);
    }
}
