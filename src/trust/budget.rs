//! Who the judge answers, and how often: the limits that keep it from
//! being used to mail anyone on request, and from ping-pong with robots.
//!
//! - Mails are counted per author (From) and per address answered (Reply-To
//!   when it differs), [`HOURLY`] an hour each; over that, one warning and
//!   then silence until the hour has passed.
//! - Answers are counted per address answered, [`DAILY`] a day.
//! - A mail in which the judge found nothing to do (an autoresponder
//!   without the headers that say so, a chat) is answered at most once in
//!   [`IDLE_QUIET`] per address: a naive autoresponder's ping-pong stops
//!   after one round.
//! - Every other mail a mail causes (press, notices, results of a
//!   `PROCESS`, `HISTORY`, letters to third parties) is charged, mail by
//!   mail, to the mail's author and to its recipient ([`charge`]): one
//!   mail causes at most [`PER_MAIL`], [`TO_ONE_PER_MAIL`] of them to one
//!   address; an author causes at most [`AUTHOR_HOUR`] and
//!   [`AUTHOR_DAY`]; an address receives at most [`RECIPIENT_HOUR`] and
//!   [`RECIPIENT_DAY`] caused by others' mail. What is over is not sent,
//!   and the author's answer says so.
//! - An address answered that never confirmed it wants the judge's mail
//!   (and is not the authenticated From itself) gets the answer and
//!   nothing more: what else the mail would send it (`HISTORY` goes where
//!   answers go) is added to the answer, up to [`ANSWER_MAX`] in all.
//! - The clock's mail (results at a deadline, reminders) is the game's,
//!   not anybody's: it is charged to no author, but an address that never
//!   confirmed it wants the judge's mail receives it within the same
//!   budget as other people's mail ([`charge_clock`]).

use super::TrustResult;
use super::sender::Sender;
use crate::mail::{Inbound, Outgoing};
use crate::store::Conn;
use crate::store::budget::{self, Spend};
use crate::store::{self, StoreError, games::Rate};

/// Mails an hour from one address, or to be answered at one address.
pub(crate) const HOURLY: i64 = 60;
/// Answers a day to one address.
pub(crate) const DAILY: i64 = 200;
/// Seconds between two answers saying "nothing found" to one address.
pub(crate) const IDLE_QUIET: i64 = 6 * 3600;

/// Whether a mail is answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Admit {
    /// Read and answered.
    Yes,
    /// Not read; answered once with this warning.
    Warn(String),
    /// Not read, not answered.
    Silent,
}

fn worse(a: Rate, b: Rate) -> Rate {
    match (a, b) {
        (Rate::Silent, _) | (_, Rate::Silent) => Rate::Silent,
        (Rate::Warn, _) | (_, Rate::Warn) => Rate::Warn,
        _ => Rate::Ok,
    }
}

/// Count a mail from `from` to be answered at `answer` and say whether it
/// is read.
pub(crate) fn admit(c: &Conn, from: &str, answer: &str, now: i64) -> Result<Admit, StoreError> {
    let mut r = store::games::note_sender(c, from, now, 3600, HOURLY)?;
    if !answer.eq_ignore_ascii_case(from) {
        r = worse(r, store::games::note_sender(c, answer, now, 3600, HOURLY)?);
    }
    r = worse(r, store::note_answer(c, answer, now, 86400, DAILY)?);
    Ok(match r {
        Rate::Ok => Admit::Yes,
        Rate::Warn => Admit::Warn(format!(
            "The judge has had more mail from you (or for you) than it answers: {HOURLY} \
             mails an hour, {DAILY} answers a day. Nothing in this mail was done, and \
             the judge will not answer again for a while.\n"
        )),
        Rate::Silent => Admit::Silent,
    })
}

/// Whether an answer saying the judge found nothing to do may go to
/// `answer` now (and note that one went).
pub(crate) fn idle_answer_allowed(c: &Conn, answer: &str, now: i64) -> Result<bool, StoreError> {
    store::idle_answer(c, answer, now, IDLE_QUIET)
}

/// The most mail one mail may cause besides its answer: mails, and bytes
/// of text.
pub(crate) const PER_MAIL: Spend = Spend {
    mails: 100,
    bytes: 2 * 1024 * 1024,
};
/// The most mails one mail may cause to one address besides its answer.
pub(crate) const TO_ONE_PER_MAIL: usize = 10;
/// The most mail one author's mails may cause in an hour.
pub(crate) const AUTHOR_HOUR: Spend = Spend {
    mails: 300,
    bytes: 10 * 1024 * 1024,
};
/// The most mail one author's mails may cause in a day.
pub(crate) const AUTHOR_DAY: Spend = Spend {
    mails: 1000,
    bytes: 40 * 1024 * 1024,
};
/// The most mail one address may receive in an hour because of others'
/// mail (its own answers apart).
pub(crate) const RECIPIENT_HOUR: Spend = Spend {
    mails: 60,
    bytes: 8 * 1024 * 1024,
};
/// The same, in a day.
pub(crate) const RECIPIENT_DAY: Spend = Spend {
    mails: 300,
    bytes: 24 * 1024 * 1024,
};

/// Whether `out` is the answer to `mail` (to the address answers go to,
/// threaded to it): answers are bounded by [`admit`], not charged.
fn is_answer(out: &Outgoing, mail: &Inbound, answer: &str) -> bool {
    out.in_reply_to.as_deref() == Some(mail.message_id.as_str())
        && out.to.len() == 1
        && out.to[0].email.eq_ignore_ascii_case(answer)
}

/// The most an answer to an address that never confirmed may hold, with
/// what is added to it, in bytes.
pub(crate) const ANSWER_MAX: usize = 64 * 1024;

/// Charge one mail `out` to every recipient's budget at `now` (`RECIPIENT_*`);
/// whether every recipient had room (if one had not, nothing is kept of it).
fn charge_recipients(c: &Conn, out: &Outgoing, bytes: i64, now: i64) -> TrustResult<bool> {
    let mut room = true;
    for a in &out.to {
        let key = format!("to:{}", a.email);
        let one = Spend { mails: 1, bytes };
        if !budget::spend(c, &key, 3600, now, RECIPIENT_HOUR, one)?
            || !budget::spend(c, &key, 86_400, now, RECIPIENT_DAY, one)?
        {
            room = false;
        }
    }
    Ok(room)
}

/// Why one more mail `out` (of `add`) is over a budget, if it is.
fn over(
    c: &Conn,
    out: &Outgoing,
    add: Spend,
    this_mail: Spend,
    per_address: &[(String, usize)],
    author_key: &str,
    now: i64,
) -> TrustResult<Option<&'static str>> {
    if this_mail.mails + add.mails > PER_MAIL.mails || this_mail.bytes + add.bytes > PER_MAIL.bytes
    {
        return Ok(Some("what one mail may cause"));
    }
    if out.to.iter().any(|a| {
        per_address
            .iter()
            .find(|(x, _)| x.eq_ignore_ascii_case(&a.email))
            .is_some_and(|(_, n)| *n >= TO_ONE_PER_MAIL)
    }) {
        return Ok(Some("what one mail may send to one address"));
    }
    if !budget::spend(c, author_key, 3600, now, AUTHOR_HOUR, add)?
        || !budget::spend(c, author_key, 86_400, now, AUTHOR_DAY, add)?
    {
        return Ok(Some("what one person's mail may cause in an hour or a day"));
    }
    if !charge_recipients(c, out, add.bytes, now)? {
        return Ok(Some("what one address may receive in an hour or a day"));
    }
    Ok(None)
}

/// Add `out` to the answer `answer` if it fits within [`ANSWER_MAX`];
/// whether it did. Its attachments are left out.
fn fold_into(answer: &mut Outgoing, out: &Outgoing) -> bool {
    let add = format!("\n\n----- {} -----\n\n{}", out.subject, unsigned(&out.body));
    // Room kept for the header and the note of what was not sent.
    if answer.body.len() + add.len() > ANSWER_MAX - 2048 {
        return false;
    }
    // Before the signature, if the answer has one.
    match answer.body.rfind("\n-- \n") {
        Some(at) => answer.body.insert_str(at, &add),
        None => answer.body.push_str(&add),
    }
    true
}

/// `body` without its signature (the `-- ` line and the judge's name
/// after it; what follows, such as the game's page, kept), trimmed: in
/// an answer that carries it, the answer's own signature ends all, and a
/// `-- ` line inside would make a mail reader take the rest for one.
fn unsigned(body: &str) -> String {
    let Some(at) = body.rfind("\n-- \n") else {
        return body.trim_end().to_string();
    };
    let rest = body[at + 5..]
        .split_once('\n')
        .map_or("", |(_, r)| r)
        .trim();
    let text = body[..at].trim_end();
    if rest.is_empty() {
        text.to_string()
    } else {
        format!("{text}\n\n{rest}")
    }
}

/// Charge the mails `mail` (from `sender`) causes, at `now`: those within
/// every budget are kept, the others dropped, and the answer (if any) says
/// how many were not sent and why. To an answer address that never
/// confirmed, the answer alone goes: the rest for it is added to the
/// answer, as far as [`ANSWER_MAX`] allows.
pub(crate) fn charge(
    c: &Conn,
    mail: &Inbound,
    sender: &Sender,
    outs: Vec<Outgoing>,
    now: i64,
) -> TrustResult<Vec<Outgoing>> {
    let answer = sender.answer.email.as_str();
    let answer_known = (sender.authenticated() && sender.answered_at_from())
        || super::confirm::confirmed(c, answer)?;
    let mut kept: Vec<Outgoing> = Vec::with_capacity(outs.len());
    let mut this_mail = Spend::default();
    let mut per_address: Vec<(String, usize)> = Vec::new();
    let mut dropped: Vec<&'static str> = Vec::new();
    let author_key = format!("author:{}", sender.from.email);
    let mut folded = Vec::new();
    for out in outs {
        if is_answer(&out, mail, answer) {
            kept.push(out);
            continue;
        }
        if !answer_known && out.to.iter().any(|a| a.email.eq_ignore_ascii_case(answer)) {
            folded.push(out);
            continue;
        }
        let add = Spend {
            mails: out.to.len() as i64,
            bytes: (out.body.len() + out.subject.len()) as i64,
        };
        match over(c, &out, add, this_mail, &per_address, &author_key, now)? {
            Some(w) => {
                if !dropped.contains(&w) {
                    dropped.push(w);
                }
                tracing::warn!(
                    message_id = %mail.message_id,
                    to = %out.to.iter().map(|a| a.email.as_str()).collect::<Vec<_>>().join(","),
                    why = w,
                    "a mail caused by a mail was not sent: over budget"
                );
            }
            None => {
                this_mail.mails += add.mails;
                this_mail.bytes += add.bytes;
                for a in &out.to {
                    match per_address
                        .iter_mut()
                        .find(|(x, _)| x.eq_ignore_ascii_case(&a.email))
                    {
                        Some((_, n)) => *n += 1,
                        None => per_address.push((a.email.clone(), 1)),
                    }
                }
                kept.push(out);
            }
        }
    }
    if !folded.is_empty() {
        let at = kept.iter().position(|o| is_answer(o, mail, answer));
        let mut left = 0;
        for out in &folded {
            if !at.is_some_and(|i| fold_into(&mut kept[i], out)) {
                left += 1;
            }
        }
        if left > 0 {
            dropped.push(
                "what the judge sends an address that has not confirmed it wants its mail: \
                 the answer alone, of at most 64 KiB",
            );
        }
    }
    Ok(note_dropped(kept, mail, answer, &dropped))
}

/// Charge the clock's mails `outs` (results, reminders) at `now`: a mail
/// to an address that never confirmed it wants the judge's mail is kept
/// only within that address's budget for other people's mail
/// (`RECIPIENT_*`); the rest go as they are.
pub(crate) fn charge_clock(c: &Conn, outs: Vec<Outgoing>, now: i64) -> TrustResult<Vec<Outgoing>> {
    let mut kept = Vec::with_capacity(outs.len());
    for out in outs {
        let mut known = true;
        for a in &out.to {
            known &= super::confirm::confirmed(c, &a.email)?;
        }
        let bytes = (out.body.len() + out.subject.len()) as i64;
        if known || charge_recipients(c, &out, bytes, now)? {
            kept.push(out);
        } else {
            tracing::warn!(
                to = %out.to.iter().map(|a| a.email.as_str()).collect::<Vec<_>>().join(","),
                subject = %out.subject,
                "a clock mail to an address that never confirmed was not sent: over its budget"
            );
        }
    }
    Ok(kept)
}

/// Add to the answer in `kept` a paragraph saying that mails were not
/// sent, and which budgets they were over.
fn note_dropped(
    mut kept: Vec<Outgoing>,
    mail: &Inbound,
    answer: &str,
    dropped: &[&str],
) -> Vec<Outgoing> {
    if dropped.is_empty() {
        return kept;
    }
    let Some(a) = kept.iter_mut().find(|o| is_answer(o, mail, answer)) else {
        return kept;
    };
    let note = crate::report::wrap(
        &format!(
            "Some of the mails this mail would have sent to others were not sent: \
             they were over {}. See \"What the judge promises\" (docs/promises.md) in the judge's documentation.",
            dropped.join(", and over ")
        ),
        72,
        "",
    );
    // Before the signature, if the answer has one.
    match a.body.rfind("\n-- \n") {
        Some(at) => a.body.insert_str(at + 1, &format!("\n{note}")),
        None => {
            a.body.push('\n');
            a.body.push_str(&note);
        }
    }
    kept
}
