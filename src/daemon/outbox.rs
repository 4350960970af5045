//! Sending the outbox.
//!
//! A mail leaves the outbox only when the sink has taken it: the SMTP
//! server said 250, or the file is in the Maildir. Failures are retried
//! with a backoff that doubles up to the configured ceiling; a permanent
//! refusal (an address the server rejects) is recorded and not retried.
//!
//! A queued mail whose pictures are drawn at send time (results: see
//! [`crate::mail::Later`]) is completed here, just before it is handed
//! over ([`complete`]), by the sender's own responder on its own store
//! connection: the processing thread never draws, and a burst of deadlines
//! queues text only. The readers of one phase are queued together and
//! completed together by one of a few drawers ([`Drawers`], one for each
//! core), so each distinct picture is drawn once and reused for the
//! others, and several phases are drawn at once. The completed mails of
//! at most that many phases are in memory at once; when the outbox is
//! empty the drawers forget their pictures and the allocator gives its
//! free memory back to the system.
//!
//! Mail is claimed a few at a time ([`claim_batch`]): several judges
//! sharing a store share a deadline's results between them, and a judge
//! killed while sending leaves only those few claimed (taken over at once
//! by the others; see the store's `# Several judges`). On a shared store
//! an idle outbox looks every [`crate::store::TAKEOVER_POLL`], since what
//! the other judges queue or leave does not wake it.
//!
//! While the store fails ([`super::outage`]), nothing is claimed: the outbox
//! waits and tries again. A mail the sink took while the store could not
//! be told is remembered and marked sent once the store works, before
//! anything else is claimed, so that it does not go twice.
//!
//! When the sink is a Maildir, the files the judge wrote there are removed
//! `keep-sent-days` after they were written, read or not, as the sent rows
//! of the outbox are: the Maildir is a hand-off to whatever delivers the
//! mail on, not an archive (see [`Maildir::prune_delivered`]).

use crate::config::Sink;
use crate::daemon::outage::{Outage, store_fault};
use crate::daemon::process::{Responder, unix};
use crate::mail::maildir::Maildir;
use crate::mail::smtp::SmtpSink;
use crate::store::Conn;
use crate::store::{OutMail, Store};
use futures::StreamExt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};
use tokio::sync::{Notify, watch};
use tracing::{debug, error, info, warn};

/// Where sent mail goes.
pub(crate) enum Sender {
    /// Files in a Maildir.
    Maildir(Maildir),
    /// An SMTP server.
    Smtp {
        /// The client.
        sink: Box<SmtpSink>,
        /// Parallel sends.
        connections: usize,
        /// Envelope sender.
        from: String,
    },
}

impl Sender {
    /// Set up the sink of the configuration.
    pub(crate) fn new(sink: &Sink, from: &str) -> anyhow::Result<Sender> {
        Ok(match sink {
            Sink::Maildir(p) => Sender::Maildir(Maildir::open(p).map_err(|e| {
                anyhow::anyhow!("cannot open the outbox Maildir {}: {e}", p.display())
            })?),
            Sink::Smtp {
                settings,
                connections,
            } => Sender::Smtp {
                sink: Box::new(SmtpSink::new(settings)?),
                connections: *connections,
                from: from.to_string(),
            },
        })
    }

    /// Close what is open (the SMTP connections).
    async fn shutdown(&self) {
        if let Sender::Smtp { sink, .. } = self {
            sink.shutdown().await;
        }
    }

    /// How many mails are handed over at once.
    pub(crate) fn parallel(&self) -> usize {
        match self {
            Sender::Maildir(_) => 1,
            Sender::Smtp { connections, .. } => *connections,
        }
    }

    /// Hand one mail over. `Err((permanent, message))` on failure.
    async fn send(&self, m: &OutMail) -> Result<(), (bool, String)> {
        match self {
            Sender::Maildir(md) => {
                // The name is fixed by the outbox row, so a retry after a
                // crash replaces the file rather than adding a second.
                let name = format!(
                    "{}{}",
                    m.message_id.replace(['/', ':'], "_"),
                    crate::mail::maildir::JUDGE_SUFFIX
                );
                md.deliver(&name, &m.raw)
                    .map(|_| ())
                    .map_err(|e| (false, e.to_string()))
            }
            Sender::Smtp { sink, from, .. } => {
                sink.send(from, &m.recipients, &m.raw).await.map_err(|e| {
                    let detail =
                        std::error::Error::source(&e).map_or(String::new(), |s| format!(": {s}"));
                    (e.is_permanent(), format!("{e}{detail}"))
                })
            }
        }
    }
}

/// How many due mails the outbox claims at once: a few for each mail it
/// hands over at once. Small, so that judges sharing a store share a
/// burst of results (drawing their pictures is the slow part), and a judge
/// killed while sending strands few; claiming again costs one short query.
pub fn claim_batch(parallel: usize) -> i64 {
    (4 * parallel).clamp(4, 64) as i64
}

/// Mails the sink took whose mark as sent the store did not take (it
/// failed): id and time sent.
type Unmarked = Arc<Mutex<Vec<(i64, i64)>>>;

/// Run a blocking store call off the async threads.
async fn with_store<T: Send + 'static>(
    store: &Arc<Mutex<Store>>,
    f: impl FnOnce(&mut Store) -> anyhow::Result<T> + Send + 'static,
) -> anyhow::Result<T> {
    let s = Arc::clone(store);
    tokio::task::spawn_blocking(move || {
        let mut guard = s
            .lock()
            .map_err(|_| anyhow::anyhow!("store lock poisoned"))?;
        f(&mut guard)
    })
    .await?
}

/// The mail `m` whole, as it is handed over: its text with the
/// attachments kept apart put back ([`crate::store::kept_parts`]) and the
/// parts drawn now (see [`Responder::parts`]). A mail without either is
/// returned as queued. An error that is the store's
/// ([`super::outage::store_fault`]) means the mail waits for the store; any
/// other, that its parts cannot be made.
pub fn complete(conn: &Conn, parts: &mut dyn Responder, m: &OutMail) -> anyhow::Result<Vec<u8>> {
    if m.later.is_none() && !m.kept {
        return Ok(m.raw.clone());
    }
    let mut made = if m.kept {
        crate::store::kept_parts(conn, m.id)?
    } else {
        Vec::new()
    };
    if let Some(later) = &m.later {
        made.extend(parts.parts(conn, later)?);
    }
    Ok(crate::mail::attach(&m.raw, &m.message_id, &made)?)
}

/// One drawer of parts: a responder of the sender's own, with a store
/// connection of its own (drawing holds it a while).
pub(crate) type Drawer = (Store, Box<dyn Responder>);

/// What makes the parts drawn at send time: several drawers, so that the
/// pictures of several phases are drawn at once, one on each core (in a
/// burst of deadlines drawing is most of the work). The mails of one phase
/// go to one drawer, which draws each distinct picture once for all its
/// readers.
pub(crate) struct Drawers {
    drawers: Vec<Mutex<Drawer>>,
}

/// The drawers, shared by the outbox's tasks.
pub(crate) type PartMaker = Arc<Drawers>;

impl Drawers {
    /// Drawers of parts; at least one is kept (an empty list is a bug of
    /// the caller, and drawing nothing would send mails without pictures).
    pub(crate) fn new(drawers: Vec<Drawer>) -> PartMaker {
        Arc::new(Drawers {
            drawers: drawers.into_iter().map(Mutex::new).collect(),
        })
    }

    /// How many phases are drawn at once.
    pub(crate) fn len(&self) -> usize {
        self.drawers.len()
    }

    /// A drawer nobody holds, or (every one busy, which the outbox's
    /// concurrency avoids) the one `hint` names, waited for.
    fn take(&self, hint: usize) -> anyhow::Result<std::sync::MutexGuard<'_, Drawer>> {
        for d in &self.drawers {
            if let Ok(g) = d.try_lock() {
                return Ok(g);
            }
        }
        let d = self
            .drawers
            .get(hint % self.drawers.len().max(1))
            .ok_or_else(|| anyhow::anyhow!("no picture drawer"))?;
        d.lock()
            .map_err(|_| anyhow::anyhow!("the picture drawer's lock is poisoned"))
    }

    /// Every drawer forgets its pictures.
    fn forget(&self) {
        for d in &self.drawers {
            if let Ok(mut p) = d.lock() {
                p.1.forget();
            }
        }
    }
}

/// How the outbox runs.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    /// The longest wait before a retry.
    pub max_retry: Duration,
    /// How long to go on sending after `shutdown`.
    pub flush: Duration,
    /// How long the files written into a Maildir sink are kept.
    pub keep_sent: Duration,
    /// Set by the processor while deadline work is waiting (a burst of
    /// deadlines): mails whose pictures are drawn at send time wait until
    /// it is clear, and the others (answers to mail) go on being sent. On
    /// a small machine drawing took most of the processor's time in a
    /// burst (PNG compression and rasterising were 87% of the daemon's
    /// CPU against 13% for adjudication), and results a few seconds later
    /// matter less than every game's phase done at its deadline.
    pub deadline_work: Arc<std::sync::atomic::AtomicBool>,
}

/// Send due mail until `shutdown`; then keep sending what is due for at
/// most `settings.flush` before returning.
pub(crate) async fn run(
    store: Arc<Mutex<Store>>,
    sender: Sender,
    parts: PartMaker,
    wake: Arc<Notify>,
    mut shutdown: watch::Receiver<bool>,
    settings: Settings,
) {
    let sender = Arc::new(sender);
    let mut flushing_until: Option<tokio::time::Instant> = None;
    let mut last_prune: Option<std::time::Instant> = None;
    // Pictures drawn, mail sent, since the outbox was last empty.
    let mut drew = false;
    let mut sent = false;
    let mut outage = Outage::new("outbox");
    let unmarked: Unmarked = Arc::default();
    // At least 16 mails, two standard games' results: enough for two
    // drawers to have a phase each when one mail is handed over at once.
    let batch = claim_batch(sender.parallel().max(4));
    let longest_sleep = longest_sleep(&store).await;
    loop {
        if let Sender::Maildir(md) = &*sender
            && last_prune.is_none_or(|t| t.elapsed() >= Duration::from_secs(3600))
        {
            last_prune = Some(std::time::Instant::now());
            prune_maildir(md, settings.keep_sent).await;
        }
        let now = unix(SystemTime::now());
        let hold = settings
            .deadline_work
            .load(std::sync::atomic::Ordering::Relaxed)
            && !*shutdown.borrow();
        // Marks the store missed first: claiming before them would send
        // those mails again.
        let claimed = match mark_unmarked(&store, &unmarked).await {
            Ok(()) => with_store(&store, move |s| Ok(s.claim_outbox(now, batch, !hold)?)).await,
            Err(e) => Err(e),
        };
        let due = match claimed {
            Ok(d) => d,
            Err(e) if store_fault(&e) => {
                if *shutdown.borrow() {
                    stop_waiting(&store, &sender, &unmarked, &e).await;
                    return;
                }
                let wait = outage.failed(&format!("{e:#}"));
                tokio::select! {
                    _ = tokio::time::sleep(wait) => {}
                    _ = shutdown.changed() => {}
                }
                continue;
            }
            Err(e) => {
                error!(error = %format!("{e:#}"), "cannot read the outbox");
                Vec::new()
            }
        };
        let sent_any = !due.is_empty();
        sent |= sent_any;
        let held: Held = Arc::default();
        if sent_any {
            drew |= due.iter().any(|m| m.later.is_some());
            let n = sender.parallel();
            let max_retry = settings.max_retry;
            // The phases' pictures are drawn a few at once, in order,
            // while the mails drawn are sent.
            futures::stream::iter(groups(due))
                .map(|g| {
                    let (parts, held) = (Arc::clone(&parts), Arc::clone(&held));
                    async move { completed(&parts, g, &held).await }
                })
                .buffered(parts.len().max(1))
                .flat_map(futures::stream::iter)
                .for_each_concurrent(n, |m| {
                    let store = Arc::clone(&store);
                    let sender = Arc::clone(&sender);
                    let unmarked = Arc::clone(&unmarked);
                    async move { send_one(&store, &sender, &unmarked, m, max_retry).await }
                })
                .await;
        }
        let fault = held.lock().ok().and_then(|mut h| h.take());
        match fault {
            None => outage.ok(),
            // Some pictures wait for the store: the outbox waits, as for
            // a claim the store failed, then draws them again.
            Some(e) if *shutdown.borrow() => {
                stop_waiting(&store, &sender, &unmarked, &anyhow::anyhow!(e)).await;
                return;
            }
            Some(e) => {
                let wait = outage.failed(&e);
                tokio::select! {
                    _ = tokio::time::sleep(wait) => {}
                    _ = shutdown.changed() => {}
                }
                continue;
            }
        }
        if *shutdown.borrow() {
            let deadline =
                *flushing_until.get_or_insert_with(|| tokio::time::Instant::now() + settings.flush);
            let left = with_store(&store, |s| Ok(s.unsent_count()?))
                .await
                .unwrap_or(0);
            if left == 0 || tokio::time::Instant::now() >= deadline || !sent_any {
                if left > 0 {
                    info!(
                        unsent = left,
                        "stopping with mail still in the outbox; it is sent after the restart"
                    );
                }
                sender.shutdown().await;
                // What this judge claimed and did not send goes to the
                // others sharing the store at once.
                if let Err(e) = with_store(&store, |s| Ok(s.release_claims()?)).await {
                    warn!(error = %format!("{e:#}"), "cannot give up this judge's claims; the other judges take them over once this one is gone");
                }
                return;
            }
            continue;
        }
        if sent_any {
            continue;
        }
        if hold {
            // Results wait for the deadline work: look again when woken
            // (the processor wakes the outbox when the work is over, and
            // for each answer it queues) or in a second.
            tokio::select! {
                _ = wake.notified() => {}
                _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                _ = shutdown.changed() => {}
            }
            continue;
        }
        if sent {
            // The burst is over: its pictures and the memory they (and the
            // mails in flight) took go.
            let forget = std::mem::take(&mut drew);
            sent = false;
            let parts = Arc::clone(&parts);
            let _ = tokio::task::spawn_blocking(move || {
                if forget {
                    parts.forget();
                }
                super::release_memory();
            })
            .await;
        }
        // Sleep until woken, until the next retry falls due, or a while:
        // on a shared store, a short while, since mail the other judges
        // queue (a deadline's results) or leave (a judge killed) does not
        // wake this one.
        let next = with_store(&store, |s| Ok(s.next_outbox_due()?))
            .await
            .ok()
            .flatten();
        let wait = match next {
            Some(t) => Duration::from_secs((t - unix(SystemTime::now())).clamp(0, 30) as u64),
            None => Duration::from_secs(30),
        }
        .min(longest_sleep);
        tokio::select! {
            _ = wake.notified() => {}
            _ = tokio::time::sleep(wait) => {}
            _ = shutdown.changed() => {}
        }
    }
}

/// The longest an idle outbox sleeps: on a shared store a short while,
/// since mail the other judges queue (a deadline's results) or leave (a
/// judge killed) does not wake this one.
async fn longest_sleep(store: &Arc<Mutex<Store>>) -> Duration {
    let shared = with_store(
        store,
        |s| Ok(s.backend() == crate::store::Backend::Postgres),
    )
    .await
    .unwrap_or(false);
    if shared {
        crate::store::TAKEOVER_POLL
    } else {
        Duration::from_secs(30)
    }
}

/// Remove the files written into the outbox Maildir `keep_sent` ago or
/// more (see [`Maildir::prune_delivered`]).
async fn prune_maildir(md: &Maildir, keep_sent: Duration) {
    let md = md.clone();
    let before = SystemTime::now() - keep_sent;
    match tokio::task::spawn_blocking(move || md.prune_delivered(before)).await {
        Ok(Ok(n)) if n > 0 => info!(mails = n, "removed old mail from the outbox Maildir"),
        Ok(Err(e)) => warn!(error = %e, "cannot prune the outbox Maildir"),
        _ => {}
    }
}

/// Mark sent the mails the sink took while the store failed (see
/// [`Unmarked`]); an error if the store still fails.
async fn mark_unmarked(store: &Arc<Mutex<Store>>, unmarked: &Unmarked) -> anyhow::Result<()> {
    let todo: Vec<(i64, i64)> = match unmarked.lock() {
        Ok(u) if !u.is_empty() => u.clone(),
        _ => return Ok(()),
    };
    let n = todo.len();
    with_store(store, move |s| {
        for (id, at) in todo {
            s.mark_sent(id, at)?;
        }
        Ok(())
    })
    .await?;
    if let Ok(mut u) = unmarked.lock() {
        u.drain(..n);
    }
    info!(
        mails = n,
        "marked sent the mail handed over while the store failed"
    );
    Ok(())
}

/// The outbox stops while the store fails: what it cannot mark or release
/// is said.
async fn stop_waiting(
    store: &Arc<Mutex<Store>>,
    sender: &Sender,
    unmarked: &Unmarked,
    e: &anyhow::Error,
) {
    let lost = unmarked.lock().map_or(0, |u| u.len());
    warn!(
        error = %format!("{e:#}"),
        sent_not_marked = lost,
        "stopping while the store fails: mail handed over but not marked sent goes again after the restart; the other judges take this judge's claims over once it is gone"
    );
    sender.shutdown().await;
    let _ = with_store(store, |s| Ok(s.release_claims()?)).await;
}

/// Mails whose parts the store could not give (it failed while they were
/// drawn): they stay queued, and the outbox waits for the store, as it
/// does when a claim fails. The text is the first fault met.
type Held = Arc<Mutex<Option<String>>>;

/// Draw the pictures of `group` (mails of one phase, or one mail without
/// pictures to draw), off the async threads, with one drawer. A mail whose
/// parts cannot be made (or whose drawing panics) goes as queued, its text
/// alone, with a warning: the results matter more than their picture. But
/// a mail whose parts the store failed to give (a database restarting, its
/// connection lost) is not sent now: it stays queued, is noted in `held`,
/// and is drawn again once the store works. A picture is never dropped
/// because the store was away.
async fn completed(parts: &PartMaker, group: Vec<OutMail>, held: &Held) -> Vec<OutMail> {
    if group.iter().all(|m| m.later.is_none() && !m.kept) {
        return group;
    }
    let parts = Arc::clone(parts);
    let queued = group.clone();
    let hint = group
        .iter()
        .find_map(|m| m.later.as_ref().map(|l| l.source.unsigned_abs() as usize))
        .unwrap_or(0);
    let r = tokio::task::spawn_blocking(move || -> anyhow::Result<Vec<anyhow::Result<Vec<u8>>>> {
        let mut p = parts.take(hint)?;
        let (store, responder) = &mut *p;
        Ok(group
            .iter()
            .map(|m| {
                let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    complete(store.conn(), &mut **responder, m)
                }));
                drawn.unwrap_or_else(|_| {
                    responder.forget();
                    Err(anyhow::anyhow!("drawing the pictures panicked"))
                })
            })
            .collect())
    })
    .await;
    let drawn = match r {
        Ok(Ok(d)) => d,
        Ok(Err(e)) => queued
            .iter()
            .map(|_| Err(anyhow::anyhow!("{e:#}")))
            .collect(),
        Err(e) => queued.iter().map(|_| Err(anyhow::anyhow!("{e}"))).collect(),
    };
    queued
        .into_iter()
        .zip(drawn)
        .filter_map(|(m, d)| match d {
            Ok(raw) => Some(OutMail { raw, ..m }),
            Err(e) if store_fault(&e) => {
                debug!(message_id = %m.message_id, error = %format!("{e:#}"), "a mail's pictures wait for the store");
                if let Ok(mut h) = held.lock() {
                    h.get_or_insert_with(|| format!("{e:#}"));
                }
                None
            }
            Err(e) => {
                warn!(message_id = %m.message_id, error = %format!("{e:#}"), "cannot draw a mail's pictures; it goes without them");
                Some(m)
            }
        })
        .collect()
}

/// `due` in groups to draw: consecutive mails of one phase together
/// (they share its pictures), every other mail alone.
fn groups(due: Vec<OutMail>) -> Vec<Vec<OutMail>> {
    let mut out: Vec<Vec<OutMail>> = Vec::new();
    for m in due {
        let source = m.later.as_ref().map(|l| l.source);
        match out.last_mut() {
            Some(g)
                if source.is_some()
                    && g.last().and_then(|l| l.later.as_ref().map(|l| l.source)) == source =>
            {
                g.push(m)
            }
            _ => out.push(vec![m]),
        }
    }
    out
}

async fn send_one(
    store: &Arc<Mutex<Store>>,
    sender: &Sender,
    unmarked: &Unmarked,
    m: OutMail,
    max_retry: Duration,
) {
    let id = m.id;
    match with_store(store, move |s| Ok(s.mark_sending(id)?)).await {
        Ok(true) => {}
        Ok(false) => {
            // Its claim ran out while it waited here, and another judge
            // sharing the store took it over.
            debug!(message_id = %m.message_id, "another judge sends this mail");
            return;
        }
        // The store failed: the mail stays this judge's, sent when the
        // store works (the outbox's wait for it is logged).
        Err(e) if store_fault(&e) => {
            debug!(message_id = %m.message_id, error = %format!("{e:#}"), "mail not sent: the store failed");
            return;
        }
        Err(e) => {
            error!(error = %format!("{e:#}"), "cannot update the outbox");
            return;
        }
    }
    let result = sender.send(&m).await;
    let now = unix(SystemTime::now());
    let attempts = m.attempts + 1;
    let update = match result {
        Ok(()) => {
            // Until this commit, a crash means sending the mail again: the
            // server has it, the outbox does not know.
            let taken = std::time::Instant::now();
            let r = with_store(store, move |s| Ok(s.mark_sent(id, now)?)).await;
            debug!(message_id = %m.message_id, recorded_in = ?taken.elapsed(), "mail sent");
            match r {
                Ok(false) => {
                    warn!(message_id = %m.message_id, "mail sent after its claim ran out; the judge that took it over sends it again");
                    Ok(())
                }
                Err(e) if store_fault(&e) => {
                    // Marked once the store works, before anything is
                    // claimed again.
                    warn!(message_id = %m.message_id, error = %format!("{e:#}"), "mail sent, but the store cannot mark it yet");
                    if let Ok(mut u) = unmarked.lock() {
                        u.push((id, now));
                    }
                    Ok(())
                }
                r => r.map(|_| ()),
            }
        }
        Err((true, err)) => {
            warn!(message_id = %m.message_id, error = %err, "mail refused for good");
            with_store(store, move |s| Ok(s.mark_failed(id, &err)?)).await
        }
        Err((false, err)) => {
            let backoff = (5u64 << attempts.min(20)).min(max_retry.as_secs());
            let jitter = (backoff as f64 * fastrand::f64() * 0.2) as u64;
            warn!(message_id = %m.message_id, error = %err, retry_in = backoff + jitter, "mail not sent");
            with_store(store, move |s| {
                Ok(s.mark_retry(id, &err, now + (backoff + jitter) as i64)?)
            })
            .await
        }
    };
    match update {
        Ok(()) => {}
        // Tried again, when the store works, as if never tried.
        Err(e) if store_fault(&e) => {
            warn!(message_id = %m.message_id, error = %format!("{e:#}"), "cannot note a failed send: the store failed");
        }
        Err(e) => error!(error = %format!("{e:#}"), "cannot update the outbox"),
    }
}
