//! Processing stored mail and the clock, each piece of work isolated.
//!
//! A mail is read, the responder decides what it does (and may change
//! games in the same transaction), the answers are queued in the outbox,
//! and the mail is marked done, all in one commit. A crash anywhere before
//! the commit leaves the mail waiting, to be processed again from scratch.
//!
//! No mail may stop the judge: an error or a panic while one mail is
//! handled rolls its transaction back, marks that mail failed (kept, with
//! its cause, answered with an apology where possible) and the next mail is
//! taken. So does work beyond the mail's budget ([`Limits::work_budget`],
//! checked as the work goes, see [`crate::mail::Budget`]). A mail that
//! kills the whole process (an abort, the watchdog) is tried at most
//! [`Limits::max_attempts`] times, whatever step it stops in: every
//! attempt is counted in a commit of its own before any of its work starts,
//! the reading and the work started ahead of its turn included (see
//! [`Processor::process_some`]). The clock's work is isolated the same way,
//! one game per transaction: a game whose deadline work fails is set aside
//! with its cause and its GM told, and the other games go on.

use crate::mail::{self, Budget, Identity, Inbound, Outgoing, reply_to};
use crate::store::{self, PendingMail, Store, StoreError};
use crate::store::{Conn, Tx};
use crate::trust::confirm::HoldRow;
use crate::trust::sender::Sender;
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tracing::{info, warn};

/// What the judge does with a mail.
pub struct Response {
    /// Mails to send.
    pub replies: Vec<Outgoing>,
    /// A word for the store and the log (`orders`, `help`, ...).
    pub note: String,
    /// The mail's text as it may be kept once processed, when it held
    /// secrets (passwords masked); `None` keeps the mail as received.
    pub kept_text: Option<String>,
    /// The mail held nothing to act on: the answer only says so, and is
    /// sent to an address at most once in a while (see [`crate::trust::budget`]).
    pub idle: bool,
    /// Passwords the mail holds: masked in the headers of the copy kept.
    pub secrets: Vec<String>,
    /// The mail is held, unprocessed and kept whole, until the address of
    /// this request confirms it (see [`crate::trust::confirm`]); its
    /// replies go now.
    pub held_for: Option<HoldRow>,
}

impl Response {
    /// A response with `replies` and `note` that keeps the mail as it is.
    pub fn new(replies: Vec<Outgoing>, note: impl Into<String>) -> Response {
        Response {
            replies,
            note: note.into(),
            kept_text: None,
            idle: false,
            secrets: Vec::new(),
            held_for: None,
        }
    }
}

/// Waits for the work [`Responder::ahead`] started for a mail.
pub type Ahead = Box<dyn FnOnce() + Send>;

/// Decides what a mail does and what the clock does. Every method runs
/// inside a transaction of its own, so anything it writes commits together
/// with the mails it returns, or not at all.
pub trait Responder: Send {
    /// Answer `mail`, written by `sender` (as far as trust can tell),
    /// received at `now`.
    fn respond(
        &mut self,
        tx: &Tx<'_>,
        mail: &Inbound,
        sender: &Sender,
        now: SystemTime,
    ) -> anyhow::Result<Response>;

    /// Start what `mail` will need that is slow and can be done off the
    /// processing thread ahead of its turn (password checks), and return
    /// how to wait for it. Called once the mail's attempt is counted, for
    /// the mails of a batch before the first is processed (for a mail
    /// suspected of having stopped the judge: alone, in its turn); the
    /// processor waits before the mail's own transaction begins. Read
    /// only: what it finds changes nothing, it only makes the mail's
    /// processing faster. Its work on the processing thread counts toward
    /// the mail's budget.
    fn ahead(&mut self, _conn: &Conn, _mail: &Inbound, _now: SystemTime) -> Option<Ahead> {
        None
    }

    /// The keys (games) whose time has come at `now`: deadlines,
    /// reminders, grace periods. Read only.
    fn due(&mut self, _conn: &Conn, _now: SystemTime) -> anyhow::Result<Vec<String>> {
        Ok(Vec::new())
    }

    /// Do the clock's work for one key. Returns mails to send.
    fn tick(
        &mut self,
        _tx: &Tx<'_>,
        _key: &str,
        _now: SystemTime,
    ) -> anyhow::Result<Vec<Outgoing>> {
        Ok(Vec::new())
    }

    /// Make the parts of a queued mail that were left to be made when it
    /// is sent ([`crate::mail::Outgoing::later`]: the pictures of results),
    /// reading what they are made from through `conn`. Called by the outbox
    /// sender on its own instance, off the processing thread. The default
    /// makes none: the mail goes as it was queued.
    fn parts(
        &mut self,
        _conn: &Conn,
        _later: &crate::mail::Later,
    ) -> anyhow::Result<Vec<crate::mail::Attached>> {
        Ok(Vec::new())
    }

    /// Forget what was kept to make parts faster (after a burst): memory
    /// goes back once the outbox is empty.
    fn forget(&mut self) {}

    /// How to mask the copy of a received mail that stays beside the store
    /// (a Maildir's `cur/`, an IMAP processed mailbox), the judge being
    /// `judge`: as the store's copy is masked. `None`: copies stay as they
    /// came.
    fn masker(&self, _judge: &str) -> Option<crate::mail::Masker> {
        None
    }

    /// The clock's work for `key` failed with `cause` (already logged): set
    /// it aside and tell whoever looks after it. Returns mails to send.
    fn fault(
        &mut self,
        _tx: &Tx<'_>,
        _key: &str,
        _cause: &str,
        _now: SystemTime,
    ) -> anyhow::Result<Vec<Outgoing>> {
        Ok(Vec::new())
    }
}

/// Record that the clock's work for `key` failed, in a transaction of its
/// own.
fn set_aside(
    store: &mut Store,
    responder: &mut dyn Responder,
    identity: &Identity,
    key: &str,
    cause: &str,
    now: SystemTime,
) -> Result<usize, StoreError> {
    let r = catch_unwind(AssertUnwindSafe(|| -> anyhow::Result<usize> {
        let tx = store.work_transaction()?;
        let mails = responder.fault(&tx, key, cause, now)?;
        for m in &mails {
            queue(&tx, identity, None, m, now)?;
        }
        tx.commit()?;
        Ok(mails.len())
    }));
    match r {
        Ok(Ok(n)) => Ok(n),
        Ok(Err(e)) => {
            warn!(game = %key, error = %format!("{e:#}"), "cannot record a game's fault");
            Ok(0)
        }
        Err(p) => {
            warn!(game = %key, cause = %panic_text(&*p), "recording a game's fault panicked");
            Ok(0)
        }
    }
}

/// Why a piece of work (a mail, a game's deadline) failed, each with its
/// cause as text.
enum Failure {
    /// The store failed it ([`StoreError::is_unavailable`]): not the
    /// work's fault; it waits and is done once the store works.
    Store(String),
    /// The work itself failed (or panicked): a mail is failed, a game set
    /// aside.
    Own(String),
}

impl Failure {
    /// The store failed the work if its connection met a fault of the
    /// store in the work's transaction, whatever the work made of it (a
    /// command that reports "internal fault", a panic), or if one is in
    /// the error's chain; otherwise the work failed, for `cause`.
    fn of(store: &Store, error: Option<&anyhow::Error>, cause: impl FnOnce() -> String) -> Failure {
        // The error's own words first: they say what work met the fault
        // ("the store failed during CREATE: ...").
        let fault = error
            .filter(|e| crate::store::unavailable_in(e))
            .map(|e| format!("{e:#}"))
            .or_else(|| store.fault());
        match fault {
            Some(f) => Failure::Store(f),
            None => Failure::Own(cause()),
        }
    }
}

/// Seconds since the epoch.
pub fn unix(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// When the processor last showed signs of life, shared with whoever
/// watches it (the systemd watchdog pings, see `daemon::spawn_watchdog`).
/// The processor beats once per mail it reads or works on and once per
/// turn of its loop, so a beat is never further apart than one mail's work
/// (bounded by its budget) or one step of the clock's work: a processor
/// that stops beating is stuck.
#[derive(Debug, Clone)]
pub struct Heartbeat(Arc<AtomicI64>);

impl Default for Heartbeat {
    fn default() -> Self {
        let h = Heartbeat(Arc::new(AtomicI64::new(0)));
        h.beat();
        h
    }
}

impl Heartbeat {
    /// Alive now.
    pub fn beat(&self) {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        self.0.store(ms, Ordering::Relaxed);
    }

    /// Run `f`, one long step that cannot beat itself (a full `VACUUM`, the
    /// outbox's flush on a reload), beating every `period` meanwhile, for
    /// `limit` at most: a step that runs past it is taken for a hang, and
    /// the watchdog is left to restart the judge, as for any other.
    pub fn beating_while<T>(&self, period: Duration, limit: Duration, f: impl FnOnce() -> T) -> T {
        let done = AtomicBool::new(false);
        std::thread::scope(|s| {
            let beater = s.spawn(|| {
                let until = Instant::now() + limit;
                while !done.load(Ordering::Acquire) && Instant::now() < until {
                    self.beat();
                    std::thread::park_timeout(period);
                }
            });
            let out = f();
            done.store(true, Ordering::Release);
            beater.thread().unpark();
            out
        })
    }

    /// How long since the last beat.
    pub fn age(&self) -> Duration {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
        let ms = now.saturating_sub(self.0.load(Ordering::Relaxed)).max(0);
        Duration::from_millis(u64::try_from(ms).unwrap_or(0))
    }
}

/// The longest a step that cannot beat itself (a full `VACUUM`, a
/// reload's flush of the outbox) is shown to the watchdog as alive: longer
/// is a hang.
pub(crate) const LONG_STEP: Duration = Duration::from_secs(3600);

/// Bounds on the work of the processor.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Mails larger than this are refused.
    pub max_bytes: u64,
    /// A mail whose processing began this many times without finishing
    /// (the process died each time) is given up.
    pub max_attempts: i64,
    /// How long one call of [`Processor::tick`] may work before it lets
    /// mail be answered (the rest of the due work follows at once): each
    /// game is a transaction of its own, so a burst of deadlines keeps a
    /// mail waiting this long at most.
    pub tick_budget: Duration,
    /// Processed mail is kept whole this long (passwords already masked),
    /// then only its Message-ID, digest and note are kept.
    pub keep_mail: Duration,
    /// Sent (or refused) mail is kept this long in the outbox, then
    /// dropped (see [`store::retention`]).
    pub keep_sent: Duration,
    /// A full `VACUUM` of the store at most this often.
    pub vacuum_every: Duration,
    /// The work one mail may cost, in CPU time of the processing thread:
    /// reading it (an HTML body converted), the work started ahead of its
    /// turn and its commands. A mail over it is failed with that cause and
    /// answered once (see [`crate::mail::Budget`]). The default, 10 s, is
    /// over thirty times what the costliest mail found takes (1 MB of HTML
    /// holding 25,000 sign-on lines: 0.27 s in all in a release build,
    /// `benches/mail.rs`), leaves room for a debug build, and stays well
    /// within the half of the systemd watchdog's 60 s after which a silent
    /// processor counts as stuck.
    pub work_budget: Duration,
    /// Whose word the judge takes for who wrote a mail (`[trust]`: its
    /// mail server's `authserv-id`).
    pub trust: crate::trust::sender::Policy,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 1024 * 1024,
            max_attempts: 3,
            work_budget: Duration::from_secs(10),
            tick_budget: Duration::from_millis(250),
            keep_mail: Duration::from_secs(30 * 86400),
            keep_sent: Duration::from_secs(30 * 86400),
            vacuum_every: Duration::from_secs(7 * 86400),
            trust: crate::trust::sender::Policy::default(),
        }
    }
}

/// Reads and answers stored mail.
pub struct Processor {
    /// The store (its own connection).
    pub store: Store,
    /// What answers mail.
    pub responder: Box<dyn Responder>,
    /// The judge's identity.
    pub identity: Identity,
    /// Bounds on the work.
    pub limits: Limits,
    /// When stored mail was last pruned.
    last_prune: Option<Instant>,
    /// The deadline work under way, while it lasts.
    burst: Option<Burst>,
    /// Mails claimed, their attempts counted, not yet processed (see
    /// [`Processor::process_some`]).
    waiting: VecDeque<Ready>,
    /// Beaten as the processor works (see [`Heartbeat`]).
    pub heartbeat: Heartbeat,
}

/// A mail whose attempt is counted, waiting for its turn.
struct Ready {
    pending: PendingMail,
    /// Attempts at it, this one included.
    attempts: i64,
    /// Read, with its slow work started, ahead of its turn; `None` until
    /// then (a mail suspected of stopping the judge is read in its turn).
    prepared: Option<Prepared>,
}

/// A mail read ahead of its turn (`None` if its reading panicked, or it
/// is too large to read), and how to wait for the work started for it.
type Prepared = (Option<Inbound>, Option<Ahead>);

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

/// What a clock tick did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ticked {
    /// Mails queued.
    pub queued: usize,
    /// Due work is left for the next call (the time budget ran out).
    pub more: bool,
    /// Games worked on.
    pub games: usize,
}

/// Deadline work that took more than one tick (a burst of deadlines),
/// for the log.
#[derive(Debug, Clone, Copy)]
struct Burst {
    started: Instant,
    games: usize,
    queued: usize,
}

/// The text of a panic's payload.
fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        format!("panic: {s}")
    } else if let Some(s) = p.downcast_ref::<String>() {
        format!("panic: {s}")
    } else {
        "panic".to_string()
    }
}

impl Processor {
    /// A processor over `store`.
    pub fn new(
        store: Store,
        responder: Box<dyn Responder>,
        identity: Identity,
        limits: Limits,
    ) -> Processor {
        Processor {
            store,
            responder,
            identity,
            limits,
            last_prune: None,
            burst: None,
            waiting: VecDeque::new(),
            heartbeat: Heartbeat::default(),
        }
    }

    /// Do the clock's due work, one game per transaction, until the time
    /// budget runs out. A game that fails or panics is set aside (its
    /// responder is told) and does not delay the others.
    pub fn tick(&mut self, now: SystemTime) -> Result<Ticked, StoreError> {
        let started = Instant::now();
        let mut done = Ticked::default();
        self.prune(now)?;
        let responder = &mut self.responder;
        let conn = self.store.conn();
        let due = match catch_unwind(AssertUnwindSafe(|| responder.due(conn, now))) {
            Ok(Ok(d)) => d,
            // The store failed: the caller waits for it.
            Ok(Err(e)) if crate::daemon::outage::store_fault(&e) => {
                return Err(StoreError::Failed(format!("{e:#}")));
            }
            Ok(Err(e)) => {
                warn!(error = %format!("{e:#}"), "cannot list the games that are due; tried again at the next tick");
                return Ok(done);
            }
            Err(p) => {
                warn!(cause = %panic_text(&*p), "listing the games that are due panicked; tried again at the next tick");
                return Ok(done);
            }
        };
        // Each game in its own short transaction, all made durable by one
        // fsync at the end ([`Store::group_commit`]).
        let Processor {
            store,
            responder,
            identity,
            limits,
            ..
        } = self;
        store.group_commit(|store| {
            for key in due {
                if started.elapsed() >= limits.tick_budget {
                    done.more = true;
                    break;
                }
                let r = catch_unwind(AssertUnwindSafe(|| -> anyhow::Result<usize> {
                    let tx = store.work_transaction()?;
                    let mails = responder.tick(&tx, &key, now)?;
                    // Mail to an address that never said it wants the
                    // judge's mail is budgeted as other people's mail.
                    let mails = crate::trust::budget::charge_clock(&tx, mails, unix(now))?;
                    for m in &mails {
                        queue(&tx, identity, None, m, now)?;
                    }
                    tx.commit()?;
                    Ok(mails.len())
                }));
                done.games += 1;
                let failure = match r {
                    Ok(Ok(n)) => {
                        done.queued += n;
                        continue;
                    }
                    Ok(Err(e)) => Failure::of(store, Some(&e), || format!("{e:#}")),
                    Err(p) => Failure::of(store, None, || panic_text(&*p)),
                };
                let cause = match failure {
                    // The store failed, not the game: it is not set aside,
                    // and its work is done once the store works.
                    Failure::Store(fault) => return Err(StoreError::Failed(fault)),
                    Failure::Own(cause) => cause,
                };
                warn!(game = %key, cause = %cause, "the clock's work for a game failed; it is set aside");
                done.queued += set_aside(store, &mut **responder, identity, &key, &cause, now)?;
            }
            Ok(())
        })?;
        if done.games > 0 {
            let b = self.burst.get_or_insert(Burst {
                started,
                games: 0,
                queued: 0,
            });
            b.games += done.games;
            b.queued += done.queued;
        }
        if !done.more
            && let Some(b) = self.burst.take()
            && b.games > 1
        {
            info!(
                games = b.games,
                mails = b.queued,
                seconds = b.started.elapsed().as_secs_f64(),
                "deadline work done"
            );
        }
        Ok(done)
    }

    /// At most once an hour: drop the bodies of mail processed longer ago
    /// than `keep_mail`, the outbox rows sent longer ago than `keep_sent`
    /// (and what else [`store::retention::prune_outbox`] drops), give the
    /// freed pages back and cut the log back; a full `VACUUM` when the
    /// last was `vacuum_every` ago (or the store predates incremental
    /// vacuum). Game records are never touched.
    pub fn prune(&mut self, now: SystemTime) -> Result<(), StoreError> {
        if self
            .last_prune
            .is_some_and(|t| t.elapsed() < Duration::from_secs(3600))
        {
            return Ok(());
        }
        self.last_prune = Some(Instant::now());
        self.prune_now(now)
    }

    /// The work of [`Processor::prune`], now.
    pub fn prune_now(&mut self, now: SystemTime) -> Result<(), StoreError> {
        let t = unix(now);
        let conn = self.store.conn();
        let before = t - self.limits.keep_mail.as_secs() as i64;
        let lapsed = match crate::trust::confirm::expire(conn, t) {
            Ok(n) => n,
            Err(crate::trust::TrustError::Store(e)) => return Err(e),
            Err(e) => return Err(StoreError::Failed(e.to_string())),
        };
        if lapsed > 0 {
            info!(
                mails = lapsed,
                "dropped mail held for a confirmation that never came"
            );
        }
        let n = store::prune_inbound(conn, before)?;
        if n > 0 {
            info!(mails = n, "dropped the bodies of old processed mail");
        }
        let sent_before = t - self.limits.keep_sent.as_secs() as i64;
        let p = store::retention::prune_outbox(conn, sent_before, t)?;
        if p.any() {
            info!(
                sent = p.outbox,
                sources = p.sources,
                mail_ids = p.inbound,
                counters = p.counters,
                "dropped old sent mail"
            );
        }
        let last: Option<i64> = store::meta(conn, "vacuumed_at")?.and_then(|v| v.parse().ok());
        let every = self.limits.vacuum_every.as_secs() as i64;
        if store::retention::vacuum_due(conn, last, t, every)? {
            let started = Instant::now();
            // A store of years takes minutes to rewrite: the judge is not
            // stuck meanwhile (else the watchdog would restart it in the
            // middle, and again at every start, the vacuum never done).
            self.heartbeat
                .beating_while(Duration::from_secs(1), LONG_STEP, || {
                    store::retention::vacuum(conn)
                })?;
            store::set_meta(conn, "vacuumed_at", &t.to_string())?;
            let (size, _) = store::retention::size(conn)?;
            info!(bytes = size, took = ?started.elapsed(), "store vacuumed");
        } else {
            store::retention::tidy(conn)?;
        }
        Ok(())
    }

    /// Process the oldest waiting mail, if any.
    ///
    /// Errors are the store's own (the processor cannot go on); anything
    /// else that goes wrong with the mail fails that mail only.
    pub fn process_next(&mut self, now: SystemTime) -> Result<Option<Processed>, StoreError> {
        let Some(pending) = self.store.next_pending()? else {
            return Ok(None);
        };
        self.process(pending, now)
    }

    /// Process `pending`, a mail not yet processed, counting the attempt
    /// first. `None`: another judge sharing the store has it (see the
    /// store's `# Several judges`).
    fn process(
        &mut self,
        pending: PendingMail,
        now: SystemTime,
    ) -> Result<Option<Processed>, StoreError> {
        let Some(attempts) = self.store.start_attempt(pending.id)? else {
            return Ok(None);
        };
        self.work(pending, attempts, None, now)
    }

    /// The work of a mail whose attempt is counted (the `attempts`-th):
    /// `read` is the mail already read from it, if it was. A mail tried
    /// more than [`Limits::max_attempts`] times is given up unread.
    fn work(
        &mut self,
        pending: PendingMail,
        attempts: i64,
        read: Option<Inbound>,
        now: SystemTime,
    ) -> Result<Option<Processed>, StoreError> {
        if attempts > self.limits.max_attempts {
            let cause = format!(
                "the judge stopped {} times while processing this mail",
                attempts - 1
            );
            return self
                .fail(&pending, &cause, Why::Stopped(attempts - 1), now)
                .map(Some);
        }
        self.heartbeat.beat();
        let identity = &self.identity;
        let limits = &self.limits;
        let responder = &mut self.responder;
        let store = &mut self.store;
        let r = catch_unwind(AssertUnwindSafe(|| -> anyhow::Result<Option<Processed>> {
            let tx = store.work_transaction()?;
            if !store::take_inbound(&tx, pending.id)? {
                return Ok(None);
            }
            let mut mail = read.unwrap_or_else(|| {
                mail::read_within(
                    &pending.raw,
                    &identity.address,
                    Budget::start(limits.work_budget),
                )
            });
            mail.budget.resume();
            // Reading alone may have spent it: then what was read is not
            // the whole mail, and nothing of it is done.
            mail.budget.check()?;
            let done = handle(
                &tx,
                &mut **responder,
                identity,
                limits,
                &pending,
                &mail,
                now,
            )?;
            tx.commit()?;
            Ok(Some(done))
        }));
        // What the sender is told of a failure: the work's budget, if that
        // is what ran out.
        let mut why = Why::Internal;
        let failure = match r {
            Ok(Ok(Some(d))) => Ok(d),
            Ok(Ok(None)) => return Ok(None),
            Ok(Err(e)) => {
                if let Some(o) = e.chain().find_map(|c| c.downcast_ref::<mail::OverBudget>()) {
                    why = Why::Work(o.limit);
                }
                Err(Failure::of(&self.store, Some(&e), || format!("{e:#}")))
            }
            Err(p) => Err(Failure::of(&self.store, None, || panic_text(&*p))),
        };
        let done = match failure {
            Ok(d) => d,
            // The store failed, not the mail: it waits, and is processed
            // once the store works (the caller waits for that).
            Err(Failure::Store(fault)) => return Err(self.store_failed(&pending, fault)),
            Err(Failure::Own(cause)) => match self.fail(&pending, &cause, why, now) {
                Ok(d) => d,
                Err(e) if e.is_unavailable() => {
                    return Err(self.store_failed(&pending, format!("{e:#}")));
                }
                Err(e) => return Err(e),
            },
        };
        info!(message_id = %done.message_id, note = %done.note, replies = done.replies, "mail processed");
        Ok(Some(done))
    }

    /// The store failed while `pending` was processed (or failed): nothing
    /// of it was kept, the attempt does not count against it (only a crash
    /// does), and it waits to be processed once the store works.
    fn store_failed(&mut self, pending: &PendingMail, fault: String) -> StoreError {
        warn!(message_id = %pending.message_id, error = %fault, "the store failed while processing a mail; the mail waits until the store works");
        self.store.forgive_attempt(pending.id);
        StoreError::Failed(fault)
    }

    /// Read a mail whose attempt is counted and start its slow work off
    /// this thread ([`Responder::ahead`]), within its budget (which is
    /// then paused until its turn). A mail whose reading or look-ahead
    /// panics is read again (and failed alone) by its processing; one too
    /// large to read is not read.
    fn prepare(&mut self, p: &PendingMail, now: SystemTime) -> Prepared {
        if p.truncated || p.size as u64 > self.limits.max_bytes {
            return (None, None);
        }
        self.heartbeat.beat();
        let address = &self.identity.address;
        let limit = self.limits.work_budget;
        let conn = self.store.conn();
        let responder = &mut self.responder;
        catch_unwind(AssertUnwindSafe(|| {
            let mut mail = mail::read_within(&p.raw, address, Budget::start(limit));
            // A mail that spent its budget is failed in its turn: nothing
            // is started for it.
            let ahead = match mail.budget.check() {
                Ok(()) => responder.ahead(conn, &mail, now),
                Err(_) => None,
            };
            mail.budget.pause();
            (Some(mail), ahead)
        }))
        .unwrap_or((None, None))
    }

    /// Claim up to `max` mails, count an attempt at each, then read them
    /// and start their slow work ahead of their turn (the password checks
    /// of the whole batch run on other threads while the first mails are
    /// processed), and queue them for [`Processor::process_some`].
    ///
    /// The attempts are counted before anything is read: a mail that
    /// stops the judge while it is read or looked ahead at (an abort, a
    /// hang the watchdog ends) has its attempt counted like one that stops
    /// it in its own processing, and is given up after
    /// [`Limits::max_attempts`]. Every mail counted with it was in the
    /// judge's hands too and has an attempt more; such a mail (more than
    /// one attempt: the judge stopped while it was in hand) is a suspect,
    /// and is read and processed alone, with no mail counted after it
    /// until it is done. So a mail is charged for a stop it did not cause
    /// at most once, as one of a batch, and only the mail that stops the
    /// judge alone reaches the limit.
    fn claim(&mut self, now: SystemTime, max: usize) -> Result<(), StoreError> {
        let batch = self.store.claim_pending(max)?;
        let mut counted = Vec::with_capacity(batch.len());
        for pending in batch {
            self.heartbeat.beat();
            let Some(attempts) = self.store.start_attempt(pending.id)? else {
                continue;
            };
            counted.push(Ready {
                pending,
                attempts,
                prepared: None,
            });
            if attempts > 1 {
                break;
            }
        }
        for mut r in counted {
            if r.attempts == 1 {
                r.prepared = Some(self.prepare(&r.pending, now));
            }
            self.waiting.push_back(r);
        }
        Ok(())
    }

    /// Process the mail waiting, each in its own transaction as
    /// [`Processor::process_next`] does, up to `max` mails or the tick
    /// budget, and make them durable together with one wait for the disk
    /// ([`Store::group_commit`]): a queue of mail costs one fsync, not one
    /// a mail. Their answers are in the outbox, durable, when this returns.
    /// Returns how many were processed.
    ///
    /// Mails are claimed and counted a batch at a time ([`Processor::claim`]);
    /// those the tick budget leaves wait, counted and read, for the next
    /// call, so that each is counted and read once.
    pub fn process_some(&mut self, now: SystemTime, max: usize) -> Result<usize, StoreError> {
        let started = Instant::now();
        self.heartbeat.beat();
        if self.waiting.is_empty() {
            self.claim(now, max)?;
            if self.waiting.is_empty() {
                return Ok(0);
            }
        }
        self.store.begin_group()?;
        let mut n = 0;
        let mut out = Ok(());
        // At least one mail each time: the look ahead alone can use up
        // the budget (a mail of thousands of SIGNON lines, in a debug
        // build), and then no mail would ever be processed.
        while n == 0 || started.elapsed() < self.limits.tick_budget {
            let Some(r) = self.waiting.pop_front() else {
                break;
            };
            let (read, ahead) = match r.prepared {
                Some(p) => p,
                // Given up: not read again.
                None if r.attempts > self.limits.max_attempts => (None, None),
                // A suspect: alone now, read in its turn.
                None => self.prepare(&r.pending, now),
            };
            // Outside the mail's transaction: waiting for a check never
            // holds the store's write lock.
            if let Some(wait) = ahead {
                wait();
            }
            match self.work(r.pending, r.attempts, read, now) {
                Ok(Some(_)) => n += 1,
                Ok(None) => {}
                Err(e) => {
                    out = Err(e);
                    break;
                }
            }
        }
        let end = self.store.end_group();
        out?;
        end?;
        Ok(n)
    }

    /// Give back the mails claimed and counted but not processed (read
    /// ahead in the last batch), for a clean stop: their attempts were
    /// counted against a crash while they were in hand, and a stop is no
    /// crash, so each is taken back ([`Store::forgive_attempt`]); the mails
    /// are processed after the restart (or by another judge) as if never
    /// touched. Only a crash while a mail is in hand counts against it.
    pub(crate) fn put_back(&mut self) {
        let waiting = std::mem::take(&mut self.waiting);
        if waiting.is_empty() {
            return;
        }
        for r in &waiting {
            self.store.forgive_attempt(r.pending.id);
        }
        info!(
            mails = waiting.len(),
            "mails read ahead and not processed wait for the next start, charged nothing for the stop"
        );
    }

    /// Mark a mail failed, answering its sender with an apology where one
    /// can be built. The mail is kept, with its cause.
    fn fail(
        &mut self,
        pending: &PendingMail,
        cause: &str,
        why: Why,
        now: SystemTime,
    ) -> Result<Processed, StoreError> {
        warn!(message_id = %pending.message_id, cause = %cause, "could not process a mail; it is kept, marked failed");
        let identity = self.identity.clone();
        // Building the apology reads the mail's header again (never its
        // body: reading that may be what failed), isolated too.
        let apology = catch_unwind(AssertUnwindSafe(|| {
            let mail = mail::read_head(&pending.raw, &identity.address);
            if mail.silence.is_some() {
                return None;
            }
            let to = mail.reply_to.clone()?;
            let out = reply_to(&mail, &to, why.apology());
            let id = apology_id(&identity, now, pending.id);
            let raw = mail::build(&out, &identity, &id, now).ok()?;
            Some((id, mail::recipients(&out), raw))
        }))
        .ok()
        .flatten();
        let tx = self.store.work_transaction()?;
        if !store::take_inbound(&tx, pending.id)? {
            // Another judge processed it meanwhile.
            return Ok(Processed {
                message_id: pending.message_id.clone(),
                note: "processed by another judge".into(),
                replies: 0,
            });
        }
        let mut replies = 0;
        if let Some((id, rcpt, raw)) = apology {
            store::queue_outbox(&tx, Some(pending.id), &id, &rcpt, &raw, unix(now))?;
            replies = 1;
        }
        let note = format!("failed: {cause}");
        store::fail_inbound(&tx, pending.id, &note, unix(now))?;
        tx.commit()?;
        Ok(Processed {
            message_id: pending.message_id.clone(),
            note,
            replies,
        })
    }
}

/// Why a mail failed, as its sender is told.
#[derive(Debug, Clone, Copy)]
enum Why {
    /// The judge's own fault (an error, a panic).
    Internal,
    /// The judge stopped this many times while the mail was in hand.
    Stopped(i64),
    /// The mail took more than this much of the judge's work.
    Work(Duration),
}

impl Why {
    /// The answer's text: what happened and what the sender can do.
    fn apology(self) -> String {
        let nothing = "Nothing in it was done.";
        match self {
            Why::Internal => format!(
                "The judge could not process this mail because of an internal error. \
                 {nothing} The judge's keeper has been told; please try again later.\n"
            ),
            Why::Stopped(n) => format!(
                "The judge stopped {n} times while it was processing this mail, so the mail \
                 was set aside. {nothing} The judge's keeper has been told; please try again \
                 later, and if this happens again, send the commands in several shorter mails.\n"
            ),
            Why::Work(limit) => format!(
                "The judge gives each mail {} of work, and this one needed more, so it was \
                 stopped. {nothing} A mail needs that much only when it is very long or holds \
                 very many commands (or a deeply nested HTML body): please send the commands \
                 as plain text, in several shorter mails.\n",
                match mail::seconds(limit).as_str() {
                    "1" => "1 second".to_string(),
                    n => format!("{n} seconds"),
                }
            ),
        }
    }
}

/// A Message-ID for the judge's mail, unique through the store's serial.
fn message_id(identity: &Identity, now: SystemTime, serial: i64) -> String {
    format!("zj.{}.{serial}@{}", unix(now), identity.domain)
}

/// The Message-ID of the apology for a failed mail: unique through the
/// failed mail's row (it is built outside any transaction).
fn apology_id(identity: &Identity, now: SystemTime, row: i64) -> String {
    format!("zj.{}.failed-{row}@{}", unix(now), identity.domain)
}

/// Build and queue one outgoing mail in `tx`.
pub(crate) fn queue(
    tx: &Tx<'_>,
    identity: &Identity,
    inbound: Option<i64>,
    out: &Outgoing,
    now: SystemTime,
) -> Result<(), StoreError> {
    let serial = store::next_serial(tx)?;
    let message_id = message_id(identity, now, serial);
    // Attachments are kept apart, once for all the mails that carry them
    // (see [`store::queue_outbox_parts`]); pictures drawn at send time are
    // kept as what to draw.
    let kept = !out.attachments.is_empty();
    let built = if kept {
        mail::build_kept(out, identity, &message_id, now)
    } else {
        mail::build(out, identity, &message_id, now)
    };
    match built {
        Ok(raw) if kept => store::queue_outbox_parts(
            tx,
            inbound,
            &message_id,
            &mail::recipients(out),
            &raw,
            &out.attachments,
            out.later.as_ref(),
            unix(now),
        ),
        Ok(raw) => match &out.later {
            // The pictures are drawn when the mail is sent: the row keeps
            // the text and what to draw (see [`Responder::parts`]).
            Some(later) => store::queue_outbox_later(
                tx,
                inbound,
                &message_id,
                &mail::recipients(out),
                &raw,
                later,
                unix(now),
            ),
            None => store::queue_outbox(
                tx,
                inbound,
                &message_id,
                &mail::recipients(out),
                &raw,
                unix(now),
            ),
        },
        Err(e) => {
            // An address the mail library cannot use: nothing to send.
            warn!(error = %e, "cannot build a reply");
            Ok(())
        }
    }
}

fn handle(
    tx: &Tx<'_>,
    responder: &mut dyn Responder,
    identity: &Identity,
    limits: &Limits,
    pending: &PendingMail,
    mail: &Inbound,
    now: SystemTime,
) -> anyhow::Result<Processed> {
    let t = unix(now);
    let finish = |tx: &Tx<'_>, note: String, replies: usize| -> anyhow::Result<Processed> {
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
    let vouched = crate::trust::confirm::vouched(tx, pending.id)?;
    let Some(sender) = crate::trust::sender::identify(mail, &limits.trust, vouched.as_deref())
    else {
        return finish(tx, "ignored: no sender".into(), 0);
    };
    let to = sender.answer.clone();
    let from = sender.from.email.as_str();
    if sender.authenticated() {
        crate::trust::confirm::wrote_itself(tx, from, t)?;
    }
    match crate::trust::budget::admit(tx, from, &to.email, t)? {
        crate::trust::budget::Admit::Yes => {}
        crate::trust::budget::Admit::Warn(body) => {
            queue(
                tx,
                identity,
                Some(pending.id),
                &reply_to(mail, &to, body),
                now,
            )?;
            return finish(tx, "rate limited".into(), 1);
        }
        crate::trust::budget::Admit::Silent => {
            return finish(tx, "rate limited (silent)".into(), 0);
        }
    }
    if pending.truncated || pending.size as u64 > limits.max_bytes {
        // Fitted to 72 columns like every other mail of the judge.
        let body = crate::report::fit72(&format!(
            "Your mail was {} bytes long; the judge reads mails of up to {} bytes. \
             It was not read and nothing was changed.\n\
             Please send your orders and commands as plain text, without attachments.\n",
            pending.size, limits.max_bytes
        ));
        queue(
            tx,
            identity,
            Some(pending.id),
            &reply_to(mail, &to, body),
            now,
        )?;
        return finish(tx, "refused: too large".into(), 1);
    }
    let mut response = responder.respond(tx, mail, &sender, now)?;
    if response.idle && !crate::trust::budget::idle_answer_allowed(tx, &to.email, t)? {
        response.replies.clear();
        response.note = format!("{} (not answered: nothing found again)", response.note);
    }
    // Everything else the mail makes the judge send is charged to its
    // author and to each recipient.
    response.replies =
        crate::trust::budget::charge(tx, mail, &sender, std::mem::take(&mut response.replies), t)?;
    for r in &response.replies {
        queue(tx, identity, Some(pending.id), r, now)?;
    }
    if let Some(row) = &response.held_for {
        // Kept whole: it is read again, from scratch, when the address
        // confirms (or dropped when it never does).
        crate::trust::confirm::keep(tx, row, pending.id, &response.note, t)?;
        return Ok(Processed {
            message_id: pending.message_id.clone(),
            note: response.note,
            replies: response.replies.len(),
        });
    }
    if vouched.is_some() {
        crate::trust::confirm::spent(tx, pending.id)?;
    }
    if let Some(text) = &response.kept_text {
        store::redact_inbound(
            tx,
            pending.id,
            &crate::trust::secrets::kept_copy(&pending.raw, text, &response.secrets),
        )?;
    }
    finish(tx, response.note, response.replies.len())
}

#[cfg(test)]
mod tests {
    use super::Heartbeat;
    use std::time::Duration;

    #[test]
    fn a_long_step_is_shown_alive_while_it_runs() {
        let h = Heartbeat::default();
        let ms = Duration::from_millis;
        // Without the guard, a step of 0.6 s leaves the beat 0.6 s old.
        std::thread::sleep(ms(600));
        assert!(h.age() >= ms(600));
        let age = h.beating_while(ms(20), Duration::from_secs(60), || {
            std::thread::sleep(ms(600));
            h.age()
        });
        assert!(age < ms(300), "{age:?}");
    }

    #[test]
    fn a_step_past_its_limit_is_left_to_the_watchdog() {
        let h = Heartbeat::default();
        let ms = Duration::from_millis;
        let age = h.beating_while(ms(20), ms(100), || {
            std::thread::sleep(ms(800));
            h.age()
        });
        assert!(age >= ms(500), "{age:?}");
    }
}
