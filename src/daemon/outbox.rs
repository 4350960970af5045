//! Sending the outbox.
//!
//! A mail leaves the outbox only when the sink has taken it: the SMTP
//! server said 250, or the file is in the Maildir. Failures are retried
//! with a backoff that doubles up to the configured ceiling; a permanent
//! refusal (an address the server rejects) is recorded and not retried.

use crate::config::Sink;
use crate::daemon::process::unix;
use crate::mail::maildir::Maildir;
use crate::mail::smtp::SmtpSink;
use crate::store::{OutMail, Store};
use futures::StreamExt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};
use tokio::sync::{Notify, watch};
use tracing::{debug, error, info, warn};

/// Where sent mail goes.
pub enum Sender {
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
    pub fn new(sink: &Sink, from: &str) -> anyhow::Result<Sender> {
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

    fn parallel(&self) -> usize {
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
                let name = format!("{}.zinejudge", m.message_id.replace(['/', ':'], "_"));
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

/// Send due mail until `shutdown`; then keep sending what is due for at
/// most `flush` before returning.
pub async fn run(
    store: Arc<Mutex<Store>>,
    sender: Sender,
    wake: Arc<Notify>,
    mut shutdown: watch::Receiver<bool>,
    max_retry: Duration,
    flush: Duration,
) {
    let sender = Arc::new(sender);
    let mut flushing_until: Option<tokio::time::Instant> = None;
    loop {
        let now = unix(SystemTime::now());
        let due = match with_store(&store, move |s| Ok(s.due_outbox(now, 200)?)).await {
            Ok(d) => d,
            Err(e) => {
                error!(error = %format!("{e:#}"), "cannot read the outbox");
                Vec::new()
            }
        };
        let sent_any = !due.is_empty();
        if sent_any {
            let n = sender.parallel();
            futures::stream::iter(due)
                .for_each_concurrent(n, |m| {
                    let store = Arc::clone(&store);
                    let sender = Arc::clone(&sender);
                    async move { send_one(&store, &sender, m, max_retry).await }
                })
                .await;
        }
        if *shutdown.borrow() {
            let deadline =
                *flushing_until.get_or_insert_with(|| tokio::time::Instant::now() + flush);
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
                return;
            }
            continue;
        }
        if sent_any {
            continue;
        }
        // Sleep until woken, until the next retry falls due, or a while.
        let next = with_store(&store, |s| Ok(s.next_outbox_due()?))
            .await
            .ok()
            .flatten();
        let wait = match next {
            Some(t) => Duration::from_secs((t - unix(SystemTime::now())).clamp(0, 30) as u64),
            None => Duration::from_secs(30),
        };
        tokio::select! {
            _ = wake.notified() => {}
            _ = tokio::time::sleep(wait) => {}
            _ = shutdown.changed() => {}
        }
    }
}

async fn send_one(store: &Arc<Mutex<Store>>, sender: &Sender, m: OutMail, max_retry: Duration) {
    let id = m.id;
    if let Err(e) = with_store(store, move |s| Ok(s.mark_sending(id)?)).await {
        error!(error = %format!("{e:#}"), "cannot update the outbox");
        return;
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
            r
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
    if let Err(e) = update {
        error!(error = %format!("{e:#}"), "cannot update the outbox");
    }
}
