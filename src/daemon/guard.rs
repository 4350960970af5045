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

use crate::store::Conn;
use crate::store::{self, StoreError, games::Rate};

/// Mails an hour from one address, or to be answered at one address.
pub const HOURLY: i64 = 60;
/// Answers a day to one address.
pub const DAILY: i64 = 200;
/// Seconds between two answers saying "nothing found" to one address.
pub const IDLE_QUIET: i64 = 6 * 3600;

/// Whether a mail is answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admit {
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
pub fn admit(c: &Conn, from: &str, answer: &str, now: i64) -> Result<Admit, StoreError> {
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
pub fn idle_answer_allowed(c: &Conn, answer: &str, now: i64) -> Result<bool, StoreError> {
    store::idle_answer(c, answer, now, IDLE_QUIET)
}
