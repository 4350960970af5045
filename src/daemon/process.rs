//! Processing stored mail: one mail, one transaction.
//!
//! The mail is read, the responder decides what it does (and may change
//! games in the same transaction), the answers are queued in the outbox,
//! and the mail is marked done, all in one commit. A crash anywhere before
//! the commit leaves the mail waiting, to be processed again from scratch.

use crate::mail::{self, Address, Identity, Inbound, Outgoing};
use crate::store::{self, PendingMail, Store, StoreError};
use rusqlite::Transaction;
use std::time::{SystemTime, UNIX_EPOCH};
use tracing::{info, warn};

/// What the judge does with a mail.
pub struct Response {
    /// Mails to send.
    pub replies: Vec<Outgoing>,
    /// A word for the store and the log (`orders`, `help`, ...).
    pub note: String,
}

/// Decides what a mail does. Runs inside the mail's transaction, so
/// anything it writes commits together with the answers.
pub trait Responder: Send {
    /// Answer `mail`, received at `now`.
    fn respond(
        &mut self,
        tx: &Transaction<'_>,
        mail: &Inbound,
        now: SystemTime,
    ) -> anyhow::Result<Response>;

    /// Called every few seconds with the time, in a transaction of its
    /// own: the place for deadlines. Returns mails to send.
    fn tick(&mut self, _tx: &Transaction<'_>, _now: SystemTime) -> anyhow::Result<Vec<Outgoing>> {
        Ok(Vec::new())
    }
}

/// Seconds since the epoch.
pub fn unix(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Reads and answers stored mail.
pub struct Processor {
    /// The store (its own connection).
    pub store: Store,
    /// What answers mail.
    pub responder: Box<dyn Responder>,
    /// The judge's identity.
    pub identity: Identity,
    /// Mails larger than this are refused.
    pub max_bytes: u64,
}

/// What happened to a mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Processed {
    /// Its Message-ID.
    pub message_id: String,
    /// The note stored with it.
    pub note: String,
    /// Answers queued.
    pub replies: usize,
}

impl Processor {
    /// Let the responder act on the time (deadlines); queue what it sends
    /// in the same transaction. Returns the number of mails queued.
    pub fn tick(&mut self, now: SystemTime) -> Result<usize, StoreError> {
        let identity = self.identity.clone();
        let tx = self.store.transaction()?;
        match self.responder.tick(&tx, now) {
            Ok(mails) => {
                for m in &mails {
                    queue(&tx, &identity, None, m, now)?;
                }
                tx.commit()?;
                Ok(mails.len())
            }
            Err(e) => {
                drop(tx);
                warn!(error = %format!("{e:#}"), "the clock tick failed; it is tried again");
                Ok(0)
            }
        }
    }

    /// Process the oldest waiting mail, if any.
    pub fn process_next(&mut self, now: SystemTime) -> Result<Option<Processed>, StoreError> {
        let Some(pending) = self.store.next_pending()? else {
            return Ok(None);
        };
        let identity = self.identity.clone();
        let max = self.max_bytes;
        let tx = self.store.transaction()?;
        let done = match handle(&tx, &mut *self.responder, &identity, max, &pending, now) {
            Ok(d) => {
                tx.commit()?;
                d
            }
            Err(e) => {
                // A responder failure must not lose the mail nor block the
                // queue: the sender is told, the failure logged, the mail
                // kept with its note.
                drop(tx);
                warn!(message_id = %pending.message_id, error = %format!("{e:#}"), "could not process a mail");
                let tx = self.store.transaction()?;
                let mail = mail::read(&pending.raw, &identity.address);
                let mut replies = 0;
                if mail.silence.is_none()
                    && let Some(to) = &mail.reply_to
                {
                    let out = reply_to(
                        &mail,
                        to,
                        "The judge could not process this mail because of an internal error. \
                         Nothing was changed. The judge's keeper has been told; please try again later.\n"
                            .to_string(),
                    );
                    queue(&tx, &identity, Some(pending.id), &out, now)?;
                    replies = 1;
                }
                let note = format!("failed: {e:#}");
                store::finish_inbound(&tx, pending.id, &note, unix(now))?;
                tx.commit()?;
                Processed {
                    message_id: pending.message_id.clone(),
                    note,
                    replies,
                }
            }
        };
        info!(message_id = %done.message_id, note = %done.note, replies = done.replies, "mail processed");
        Ok(Some(done))
    }
}

/// The answer to `mail`, threaded and addressed to its sender.
pub fn reply_to(mail: &Inbound, to: &Address, body: String) -> Outgoing {
    let subject = if mail.subject.is_empty() {
        "Re: your mail to the judge".to_string()
    } else if mail.subject.to_ascii_lowercase().starts_with("re:") {
        mail.subject.clone()
    } else {
        format!("Re: {}", mail.subject)
    };
    Outgoing {
        to: vec![to.clone()],
        subject,
        body,
        in_reply_to: Some(mail.message_id.clone()),
        references: mail.references.clone(),
        attachments: Vec::new(),
    }
}

/// Build and queue one outgoing mail in `tx`.
pub fn queue(
    tx: &Transaction<'_>,
    identity: &Identity,
    inbound: Option<i64>,
    out: &Outgoing,
    now: SystemTime,
) -> Result<(), StoreError> {
    let serial = store::next_serial(tx)?;
    let message_id = format!("zj.{}.{serial}@{}", unix(now), identity.domain);
    match mail::build(out, identity, &message_id, now) {
        Ok(raw) => store::queue_outbox(
            tx,
            inbound,
            &message_id,
            &mail::recipients(out),
            &raw,
            unix(now),
        ),
        Err(e) => {
            // An address the mail library cannot use: nothing to send.
            warn!(error = %e, "cannot build a reply");
            Ok(())
        }
    }
}

fn handle(
    tx: &Transaction<'_>,
    responder: &mut dyn Responder,
    identity: &Identity,
    max_bytes: u64,
    pending: &PendingMail,
    now: SystemTime,
) -> anyhow::Result<Processed> {
    let mail = mail::read(&pending.raw, &identity.address);
    let t = unix(now);
    let finish =
        |tx: &Transaction<'_>, note: String, replies: usize| -> anyhow::Result<Processed> {
            store::finish_inbound(tx, pending.id, &note, t)?;
            Ok(Processed {
                message_id: pending.message_id.clone(),
                note,
                replies,
            })
        };
    if let Some(s) = mail.silence {
        return finish(tx, format!("ignored: {}", s.as_str()), 0);
    }
    let Some(to) = mail.reply_to.clone() else {
        return finish(tx, "ignored: no sender".into(), 0);
    };
    if pending.truncated || pending.size as u64 > max_bytes {
        let body = format!(
            "Your mail was {} bytes long; the judge reads mails of up to {} bytes. \
             It was not read and nothing was changed.\n\
             Please send your orders and commands as plain text, without attachments.\n",
            pending.size, max_bytes
        );
        queue(
            tx,
            identity,
            Some(pending.id),
            &reply_to(&mail, &to, body),
            now,
        )?;
        return finish(tx, "refused: too large".into(), 1);
    }
    let response = responder.respond(tx, &mail, now)?;
    for r in &response.replies {
        queue(tx, identity, Some(pending.id), r, now)?;
    }
    finish(tx, response.note, response.replies.len())
}
