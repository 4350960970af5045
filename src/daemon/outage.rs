//! Waiting out a store that does not work.
//!
//! A fault of the store ([`crate::store::StoreError::is_unavailable`]: the
//! database restarting or unreachable, a privilege withheld, a full disk)
//! stops no task of the daemon and fails no work: each task that meets one
//! (the processor, the outbox, the mail source) keeps its state, waits,
//! and tries again, the waits doubling from [`FIRST_WAIT`] up to
//! [`LONGEST_WAIT`], until the store works. Meanwhile no mail is taken from
//! the source (a mail leaves its source only once it is stored), nothing
//! is processed and nothing marked sent. The log says when a task starts
//! waiting for the store and why, again every [`RETELL`] while the wait
//! lasts, and when the store works again; the processor also tells systemd
//! (`STATUS=`), and since it goes on showing signs of life while it waits,
//! the watchdog does not take a judge waiting for its database for a stuck
//! one.

use std::time::{Duration, Instant};
use tracing::{info, warn};

/// The first wait after the store failed.
pub(crate) const FIRST_WAIT: Duration = Duration::from_secs(1);

/// The longest wait between two tries: a database back after a restart is
/// used again within this long.
pub(crate) const LONGEST_WAIT: Duration = Duration::from_secs(15);

/// How often a wait that goes on is logged again.
pub(crate) const RETELL: Duration = Duration::from_secs(60);

/// Whether an error is, or was caused by, a fault of the store (see
/// [`crate::store::StoreError::is_unavailable`]).
pub(crate) fn store_fault(e: &anyhow::Error) -> bool {
    crate::store::unavailable_in(e)
}

/// One task's view of the store's health: whether it is waiting for the
/// store, since when, and how long it waits before the next try.
#[derive(Debug)]
pub(crate) struct Outage {
    /// The task, for the log ("mail processor", "outbox", "inbox").
    task: &'static str,
    /// Whether to tell systemd (one task does).
    notify: bool,
    since: Option<Instant>,
    told: Option<Instant>,
    next: Duration,
}

impl Outage {
    /// A task that finds the store working, so far.
    pub(crate) fn new(task: &'static str) -> Outage {
        Outage {
            task,
            notify: false,
            since: None,
            told: None,
            next: FIRST_WAIT,
        }
    }

    /// As [`Outage::new`], and the outage is told to systemd too.
    pub(crate) fn telling_systemd(task: &'static str) -> Outage {
        Outage {
            notify: true,
            ..Outage::new(task)
        }
    }

    /// Whether the task is waiting for the store (for the tests: the task
    /// itself only reacts to failures and recoveries).
    #[cfg(test)]
    pub(crate) fn waiting(&self) -> bool {
        self.since.is_some()
    }

    /// The store failed with `error` (a fault of the store, as `{:#}`):
    /// returns how long to wait before trying again. Logged when the wait
    /// begins and every [`RETELL`] while it lasts.
    pub(crate) fn failed(&mut self, error: &str) -> Duration {
        let now = Instant::now();
        let since = *self.since.get_or_insert(now);
        let wait = self.next.mul_f64(0.8 + fastrand::f64() * 0.4);
        if self.told.is_none_or(|t| now.duration_since(t) >= RETELL) {
            self.told = Some(now);
            warn!(task = self.task, error = %error, waiting_for = ?since.elapsed(), retry_in = ?wait, "waiting for the store");
            if self.notify {
                let _ = sd_notify::notify(&[sd_notify::NotifyState::Status(&format!(
                    "waiting for the store: {error}"
                ))]);
            }
        }
        self.next = (self.next * 2).min(LONGEST_WAIT);
        wait
    }

    /// The store worked: if the task was waiting for it, say that the wait
    /// is over.
    pub(crate) fn ok(&mut self) {
        if let Some(since) = self.since.take() {
            info!(task = self.task, after = ?since.elapsed(), "the store works again");
            if self.notify {
                let _ = sd_notify::notify(&[sd_notify::NotifyState::Status("working")]);
            }
        }
        self.told = None;
        self.next = FIRST_WAIT;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_up_to_the_longest_and_start_short_again_once_the_store_works() {
        let mut o = Outage::new("test");
        assert!(!o.waiting());
        let waits: Vec<Duration> = (0..8).map(|_| o.failed("down")).collect();
        assert!(o.waiting());
        assert!(waits[0] <= FIRST_WAIT.mul_f64(1.2), "{waits:?}");
        assert!(waits[1] > waits[0].mul_f64(1.3), "{waits:?}");
        assert!(
            waits.iter().all(|w| *w <= LONGEST_WAIT.mul_f64(1.2)),
            "{waits:?}"
        );
        assert!(waits[7] >= LONGEST_WAIT.mul_f64(0.8), "{waits:?}");
        o.ok();
        assert!(!o.waiting());
        assert!(o.failed("down again") <= FIRST_WAIT.mul_f64(1.2));
    }
}
