//! The daemon: the one place that wires mail and store to the core.
//!
//! Tasks, all fed from and draining into the store:
//! - a source (Maildir poller or IMAP reader) stores each received mail
//!   before its source forgets it, and wakes the processor;
//! - the processor (a thread of its own, since SQLite calls block) takes
//!   stored mail one at a time and answers it in one transaction;
//! - the outbox sender hands queued answers to the sink;
//! - the web server ([`crate::web`], when `[web] enabled`) serves the
//!   games' read-only pages from the store;
//! - the supervisor handles signals (SIGTERM: finish the mail in hand,
//!   flush the outbox, stop; SIGHUP: reload the configuration) and tells
//!   systemd how things stand (`READY=1`, watchdog pings while the
//!   processor is alive, `STOPPING=1`).
//!
//! A fault of the store (the database restarting, a privilege withheld, a
//! full disk) stops none of these tasks and fails no work: each waits for
//! the store and goes on (see [`outage`]).
//!
//! `zinejudge deliver` (mail piped in by `.forward` or procmail) only stores
//! the mail; a running daemon picks it up within a second.

pub(crate) mod dkim;
pub(crate) mod outage;
pub(crate) mod outbox;
pub(crate) mod process;

use crate::config::{Config, Source};
use crate::mail::maildir::Maildir;
use crate::mail::{self, imap};
use crate::store::Store;
use anyhow::{Context, Result};
use dkim::Verifier;
use outage::store_fault;
use process::{Heartbeat, Processor, Responder, unix};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};
use tokio::signal::unix::{SignalKind, signal};
use tokio::sync::{Notify, watch};
use tracing::{error, info, warn};

/// Makes the responder for a configuration (the command processor).
pub(crate) type ResponderFactory = Arc<dyn Fn(&Config) -> Box<dyn Responder> + Send + Sync>;

/// Give the allocator's free memory back to the system. glibc keeps what
/// a burst freed for reuse, in an arena per thread that allocated, so a
/// judge that adjudicated a thousand games would otherwise sit at its peak
/// for good. Called when a burst of work is over.
pub(crate) fn release_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Fewer allocator arenas: glibc makes up to eight per core for threads
/// that allocate at once, and each keeps its own free memory; the judge's
/// work is one processing thread, the password checks and a few short
/// tasks. Large blocks go straight back to the system.
fn limit_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; called before the
    // runtime's threads start.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 2);
        // Blocks of a MiB and more (argon2's 19 MiB, a results mail's
        // pictures) are mapped for themselves and unmapped when freed.
        // Setting it stops glibc from raising the threshold after such a
        // free, which made each password check's 19 MiB stay in the heap
        // of whichever arena the checking thread used.
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1024 * 1024);
    }
}

/// How often the clock ticks (deadlines, reminders).
const TICK: Duration = Duration::from_secs(5);

/// At most this many mails are processed between two looks at the clock,
/// made durable together (see [`Processor::process_some`]).
const MAIL_BATCH: usize = 64;

/// Store a raw mail from `source`, stamped first by `verifier` when the
/// judge checks signatures itself. Returns whether it was new.
pub(crate) fn store_raw(
    store: &mut Store,
    raw: &[u8],
    size: u64,
    truncated: bool,
    source: &str,
    verifier: Option<&Verifier>,
) -> Result<bool> {
    let stamped = verifier.map(|v| v.stamp_blocking(raw));
    let raw = stamped.as_deref().unwrap_or(raw);
    let id = mail::message_id_of(raw);
    let now = unix(SystemTime::now());
    Ok(store
        .insert_inbound(&id, source, raw, size as i64, truncated, now)?
        .is_some())
}

/// Store mails fetched together, in one transaction. Returns how many were
/// new.
fn store_fetched(
    store: &mut Store,
    mails: &[imap::Fetched],
    source: &str,
    verifier: Option<&Verifier>,
) -> Result<usize> {
    let now = unix(SystemTime::now());
    // Looked up before the transaction, which no DNS answer should hold.
    let stamped: Vec<Option<Vec<u8>>> = mails
        .iter()
        .map(|f| verifier.map(|v| v.stamp_blocking(&f.raw)))
        .collect();
    let tx = store.transaction()?;
    let mut new = 0;
    for (f, stamped) in mails.iter().zip(&stamped) {
        let raw = stamped.as_deref().unwrap_or(&f.raw);
        let id = mail::message_id_of(raw);
        new += usize::from(
            crate::store::insert_inbound(
                &tx,
                &id,
                source,
                raw,
                i64::from(f.size),
                f.truncated,
                now,
            )?
            .is_some(),
        );
    }
    tx.commit()?;
    Ok(new)
}

/// `zinejudge deliver`: store one mail read from standard input.
pub(crate) fn deliver(config: &Config, raw: &[u8]) -> Result<bool> {
    let mut store = Store::open(&config.store)
        .with_context(|| format!("cannot open the store {}", config.store.display()))?;
    let max = config.max_mail_bytes as usize;
    let (kept, truncated) = if raw.len() > max {
        (header_of(raw), true)
    } else {
        (raw, false)
    };
    let verifier = verifier_for(config);
    store_raw(
        &mut store,
        kept,
        raw.len() as u64,
        truncated,
        "stdin",
        verifier.as_ref(),
    )
}

/// The judge's own DKIM checker, when `[trust] verify-signatures` asks
/// for one.
fn verifier_for(config: &Config) -> Option<Verifier> {
    let t = &config.trust;
    let id = t.authserv_id.as_deref().filter(|_| t.verify_signatures)?;
    Some(Verifier::system(id))
}

/// The header of a raw mail (up to the first blank line).
fn header_of(raw: &[u8]) -> &[u8] {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4)
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n").map(|i| i + 2))
        .unwrap_or(raw.len().min(64 * 1024));
    &raw[..end]
}

/// Run the daemon until SIGTERM or SIGINT.
pub(crate) fn run(config_path: Option<PathBuf>, responders: ResponderFactory) -> Result<()> {
    limit_arenas();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    rt.block_on(supervise(config_path, responders))
}

/// The log line that says a start (or a reload) is over: the store is
/// open and the mail is read and sent from now on (what systemd hears as
/// READY=1).
pub const RUNNING: &str = "running: mail is read and sent";

async fn supervise(config_path: Option<PathBuf>, responders: ResponderFactory) -> Result<()> {
    let mut config = Config::load(config_path.as_deref())?;
    let mut term = signal(SignalKind::terminate()).context("cannot watch SIGTERM")?;
    let mut int = signal(SignalKind::interrupt()).context("cannot watch SIGINT")?;
    let mut hup = signal(SignalKind::hangup()).context("cannot watch SIGHUP")?;
    let alive = Heartbeat::default();
    spawn_watchdog(alive.clone(), config.work_budget);
    info!("{}", config.summary());
    let mut running = start(&config, Arc::clone(&responders), alive.clone())?;
    info!("{RUNNING}");
    let _ = sd_notify::notify(&[sd_notify::NotifyState::Ready]);
    loop {
        // Every SIGHUP is handled alike: a configuration that does not load
        // is refused and the tasks run on untouched; one that loads
        // replaces them (and if its tasks cannot start, the old
        // configuration's are started again).
        let reload = tokio::select! {
            _ = term.recv() => false,
            _ = int.recv() => false,
            _ = hup.recv() => true,
            _ = running.processor_died() => {
                running.stop().await;
                anyhow::bail!("the mail processor stopped");
            }
        };
        if !reload {
            break;
        }
        let new = match Config::load(config_path.as_deref()) {
            Ok(c) => c,
            Err(e) => {
                error!(error = %format!("{:#}", anyhow::Error::from(e)), "SIGHUP: the new configuration is not valid; keeping the old one");
                continue;
            }
        };
        info!("SIGHUP: reloading the configuration");
        let _ = sd_notify::notify(&[sd_notify::NotifyState::Reloading]);
        stop_alive(running, &alive).await;
        info!("{}", new.summary());
        running = match start(&new, Arc::clone(&responders), alive.clone()) {
            Ok(r) => {
                config = new;
                r
            }
            Err(e) => {
                error!(error = %format!("{e:#}"), "SIGHUP: the new configuration cannot start; keeping the old one");
                // The old one's store may be failing too (a reload during
                // an outage of the database): wait for it.
                let again = || start(&config, Arc::clone(&responders), alive.clone());
                match start_waiting(again, &alive, &mut term, &mut int).await? {
                    Some(r) => r,
                    None => {
                        info!("stopped");
                        return Ok(());
                    }
                }
            }
        };
        info!("{RUNNING}");
        let _ = sd_notify::notify(&[sd_notify::NotifyState::Ready]);
    }
    info!("stopping: finishing the mail in hand and flushing the outbox");
    let _ = sd_notify::notify(&[sd_notify::NotifyState::Stopping]);
    stop_alive(running, &alive).await;
    info!("stopped");
    Ok(())
}

/// Stop `running`, showing signs of life to the watchdog meanwhile: its
/// processor no longer beats, and the outbox's flush of what is queued
/// (a deadline's results, on a reload in the middle of a burst) may take
/// minutes. For [`process::LONG_STEP`] at most: longer is a hang.
async fn stop_alive(running: Running, alive: &Heartbeat) {
    let stop = running.stop();
    tokio::pin!(stop);
    let until = tokio::time::Instant::now() + process::LONG_STEP;
    loop {
        tokio::select! {
            () = &mut stop => return,
            () = tokio::time::sleep(Duration::from_secs(1)),
                if tokio::time::Instant::now() < until => alive.beat(),
        }
    }
}

/// Start the tasks with `start`, waiting for the store while it fails
/// (the watchdog kept alive meanwhile). `None`: SIGTERM or SIGINT came
/// first.
async fn start_waiting(
    start: impl Fn() -> Result<Running>,
    alive: &Heartbeat,
    term: &mut tokio::signal::unix::Signal,
    int: &mut tokio::signal::unix::Signal,
) -> Result<Option<Running>> {
    let mut outage = outage::Outage::telling_systemd("judge");
    loop {
        match start() {
            Ok(r) => {
                outage.ok();
                return Ok(Some(r));
            }
            Err(e) if store_fault(&e) => {
                let wait = outage.failed(&format!("{e:#}"));
                alive.beat();
                tokio::select! {
                    _ = tokio::time::sleep(wait) => {}
                    _ = term.recv() => return Ok(None),
                    _ = int.recv() => return Ok(None),
                }
            }
            Err(e) => return Err(e),
        }
    }
}

/// Ping systemd's watchdog while the processor shows signs of life: a
/// [`Heartbeat`] within half the watchdog interval. The processor beats
/// for every mail it reads or works on and every turn of its loop (each
/// step of the clock's work is short: one game), and a mail's work stops
/// at its budget, so a working judge beats far more often than that,
/// however long a burst of deadlines or a queue of mail lasts. A processor
/// stuck on one step (a mail that hangs it) stops the pings within half an
/// interval and a quarter; systemd kills the judge an interval later and
/// starts it again, and the mail's attempts, counted before any of its work
/// ([`Processor::process_some`]), give it up after the third time.
fn spawn_watchdog(alive: Heartbeat, work_budget: Duration) {
    let Some(interval) = sd_notify::watchdog_enabled() else {
        return;
    };
    if work_budget + Duration::from_secs(5) > interval / 2 {
        warn!(
            watchdog = ?interval,
            work = ?work_budget,
            "[limits] work-seconds is close to half the systemd watchdog interval: a mail that uses its whole budget may get the judge restarted"
        );
    }
    tokio::spawn(async move {
        let period = interval / 4;
        loop {
            tokio::time::sleep(period).await;
            let age = alive.age();
            if shows_life(age, interval) {
                let _ = sd_notify::notify(&[sd_notify::NotifyState::Watchdog]);
            } else {
                warn!(
                    seconds = age.as_secs_f64(),
                    "the mail processor looks stuck; not pinging the watchdog"
                );
            }
        }
    });
}

/// Whether a processor whose last beat was `age` ago may be reported alive
/// to a watchdog of `interval`: it beat within half the interval.
fn shows_life(age: Duration, interval: Duration) -> bool {
    age <= interval / 2
}

/// The tasks of one configuration.
struct Running {
    /// Stops the source and the processor.
    shutdown: watch::Sender<bool>,
    /// Stops the outbox, once the processor queues nothing more.
    outbox_shutdown: watch::Sender<bool>,
    source: Option<tokio::task::JoinHandle<()>>,
    outbox: tokio::task::JoinHandle<()>,
    processor: Option<std::thread::JoinHandle<()>>,
    processor_done: Arc<Notify>,
    processor_failed: Arc<AtomicBool>,
    wake_processor: Arc<Notify>,
    /// The web pages, if served.
    web: Option<crate::web::Server>,
}

impl Running {
    async fn processor_died(&self) {
        loop {
            self.processor_done.notified().await;
            if self.processor_failed.load(Ordering::SeqCst) {
                return;
            }
        }
    }

    async fn stop(mut self) {
        // The pages first: they only read, and their address is free for
        // the next configuration once this returns.
        if let Some(w) = self.web.take() {
            w.stop().await;
        }
        let _ = self.shutdown.send(true);
        self.wake_processor.notify_one();
        if let Some(s) = self.source.take() {
            let _ = s.await;
        }
        if let Some(p) = self.processor.take() {
            let _ = tokio::task::spawn_blocking(move || p.join()).await;
        }
        // Only now: the answers to the mail in hand are queued, and the
        // outbox's flush takes them too.
        let _ = self.outbox_shutdown.send(true);
        let _ = (&mut self.outbox).await;
    }
}

fn start(config: &Config, responders: ResponderFactory, alive: Heartbeat) -> Result<Running> {
    // A variant file that does not load is skipped: the others are
    // played, and the GM reads why in the log (at start and each SIGHUP).
    for p in &config.variant_problems {
        error!(problem = %p, "a variant file of [variants] dir is not played");
    }
    let (shutdown, shutdown_rx) = watch::channel(false);
    let (outbox_shutdown, outbox_shutdown_rx) = watch::channel(false);
    let wake_processor = Arc::new(Notify::new());
    let wake_outbox = Arc::new(Notify::new());

    // What can fail comes first, so that a failure leaves no task running
    // (a failed reload starts the old configuration again).
    let open_store = || {
        let mut s = Store::open(&config.store)
            .with_context(|| format!("cannot open the store {}", config.store.display()))?;
        s.set_claimant(config.claimant.clone())
            .context("cannot take this judge's liveness lock in the store")?;
        anyhow::Ok(s)
    };
    let shared = matches!(config.store, crate::store::Location::Postgres(_));
    if shared {
        info!(judge = %config.claimant.name, lease = ?config.claimant.lease, "claiming work in the shared store as this judge");
    }
    let out_store = open_store()?;
    out_store.relax_durability()?;
    out_store.limit_cache(256)?;
    let out_store = Arc::new(Mutex::new(out_store));
    let sender = outbox::Sender::new(&config.sink, &config.identity.address)?;
    let source_store = match config.source {
        Source::None => None,
        _ => {
            let s = open_store()?;
            s.limit_cache(256)?;
            Some(s)
        }
    };
    // Fetching by IMAP is one judge's at a time when several share a
    // PostgreSQL store: that judge holds the fetch lock on a connection of
    // its own (see [`wait_fetch_lock`]).
    let fetch_lock = match (&config.source, shared) {
        (Source::Imap(_), true) => Some(Arc::new(Mutex::new(open_store()?))),
        _ => None,
    };
    let inbox_maildir = match &config.source {
        Source::Maildir { path, .. } => Some(
            Maildir::open(path)
                .with_context(|| format!("cannot open the inbox Maildir {}", path.display()))?,
        ),
        _ => None,
    };

    // The processor thread.
    let store = open_store()?;
    let limits = process::Limits {
        max_bytes: config.max_mail_bytes,
        keep_mail: config.keep_mail,
        keep_sent: config.keep_sent,
        vacuum_every: config.vacuum_every,
        work_budget: config.work_budget,
        trust: config.trust.clone(),
        ..process::Limits::default()
    };
    // The outbox draws pictures with responders and connections of its
    // own, off the processing thread: one for each core, since in a burst
    // of deadlines drawing is most of the work and the processor waits.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let mut drawers = Vec::with_capacity(cores);
    for _ in 0..cores {
        let parts_store = open_store()?;
        parts_store.limit_cache(256)?;
        drawers.push((parts_store, responders(config)));
    }
    let parts = outbox::Drawers::new(drawers);
    let mut processor = Processor::new(
        store,
        responders(config),
        config.identity.clone(),
        limits.clone(),
    );
    processor.heartbeat = alive.clone();
    // Set while the processor has deadline work waiting: the outbox draws
    // no pictures then (see [`outbox::Settings::deadline_work`]).
    let deadline_work = Arc::new(AtomicBool::new(false));
    let processor_done = Arc::new(Notify::new());
    let processor_failed = Arc::new(AtomicBool::new(false));
    let handle = {
        let lane = ProcessorLane {
            wake: Arc::clone(&wake_processor),
            wake_outbox: Arc::clone(&wake_outbox),
            deadline_work: Arc::clone(&deadline_work),
            stop: shutdown_rx.clone(),
            done: Arc::clone(&processor_done),
            failed: Arc::clone(&processor_failed),
            rt: tokio::runtime::Handle::current(),
            alive,
        };
        std::thread::Builder::new()
            .name("processor".into())
            .spawn(move || lane.run(processor))
            .context("cannot start the processor thread")?
    };

    // The outbox sender.
    let outbox = tokio::spawn(outbox::run(
        out_store,
        sender,
        parts,
        Arc::clone(&wake_outbox),
        outbox_shutdown_rx,
        outbox::Settings {
            max_retry: config.max_retry,
            flush: Duration::from_secs(20),
            keep_sent: config.keep_sent,
            deadline_work,
        },
    ));
    wake_outbox.notify_one();

    // The source. The copies of mail it leaves beside the store are
    // masked as the store's are.
    let masker = responders(config).masker(&config.identity.address);
    let verifier = verifier_for(config).map(Arc::new);
    let source = match (&config.source, source_store, inbox_maildir) {
        (Source::Maildir { poll, .. }, Some(store), Some(md)) => {
            Some(tokio::spawn(maildir_source(
                Inbox {
                    md,
                    masker,
                    verifier,
                    poll: *poll,
                    max_bytes: config.max_mail_bytes,
                    keep_mail: limits.keep_mail,
                },
                store,
                Arc::clone(&wake_processor),
                shutdown_rx.clone(),
            )))
        }
        (Source::Imap(settings), Some(store), _) => Some(tokio::spawn(imap_source(
            settings.clone(),
            store,
            (masker, verifier),
            fetch_lock,
            Arc::clone(&wake_processor),
            shutdown_rx.clone(),
        ))),
        _ => None,
    };
    wake_processor.notify_one();
    // The web pages: an address that is taken does not stop the judge (it
    // is logged, and tried again).
    let web = crate::web::Server::start(config);
    Ok(Running {
        web,
        shutdown,
        outbox_shutdown,
        source,
        outbox,
        processor: Some(handle),
        processor_done,
        processor_failed,
        wake_processor,
    })
}

/// What the processor thread shares with the rest of the daemon: the
/// wake-ups both ways, the stop signal, and how it tells that it ended
/// (and whether by a fault of the store, which stops the daemon).
struct ProcessorLane {
    /// Woken when a mail is stored.
    wake: Arc<Notify>,
    /// Woken when something was queued to send.
    wake_outbox: Arc<Notify>,
    /// Set while deadline work waits (see [`outbox::Settings::deadline_work`]).
    deadline_work: Arc<AtomicBool>,
    stop: watch::Receiver<bool>,
    done: Arc<Notify>,
    failed: Arc<AtomicBool>,
    /// The runtime, for sleeping until woken.
    rt: tokio::runtime::Handle,
    alive: Heartbeat,
}

impl ProcessorLane {
    /// The processor thread: due games between mails, mail in batches, a
    /// sleep when there is nothing to do; a store that is away is waited
    /// for, any other fault of it ends the thread (and the daemon).
    fn run(self, mut processor: Processor) {
        let mut last_tick = std::time::Instant::now() - TICK;
        let mut more = false;
        // Mails processed since the allocator last gave memory back.
        let mut mailed = 0usize;
        let mut outage = outage::Outage::telling_systemd("mail processor");
        loop {
            self.alive.beat();
            if *self.stop.borrow() {
                break;
            }
            // Due games are worked on one at a time between mails:
            // a burst of deadlines never keeps mail waiting long.
            if more || last_tick.elapsed() >= TICK {
                last_tick = std::time::Instant::now();
                match processor.tick(SystemTime::now()) {
                    Err(e) if e.is_unavailable() => {
                        // Tried again after the wait.
                        last_tick -= TICK;
                        wait_for_store(&mut outage, &e, &self.stop, &self.alive);
                        continue;
                    }
                    Ok(t) => {
                        outage.ok();
                        self.deadline_work.store(t.more, Ordering::Relaxed);
                        if t.queued > 0 || (more && !t.more) {
                            self.wake_outbox.notify_one();
                        }
                        if !t.more && (more || t.queued > 0) {
                            // The deadline work is over for now.
                            release_memory();
                        }
                        more = t.more;
                    }
                    Err(e) => {
                        error!(error = %format!("{e:#}"), "the store failed on a clock tick");
                        self.failed.store(true, Ordering::SeqCst);
                        break;
                    }
                }
            }
            self.alive.beat();
            let processed = processor.process_some(SystemTime::now(), MAIL_BATCH);
            if processed.is_ok() {
                outage.ok();
            }
            match processed {
                Err(e) if e.is_unavailable() => {
                    wait_for_store(&mut outage, &e, &self.stop, &self.alive);
                }
                Ok(n) if n > 0 => {
                    mailed += n;
                    self.wake_outbox.notify_one();
                }
                Ok(_) if more => {}
                Ok(_) => {
                    if mailed > 0 {
                        // A run of mail is over: what it took goes
                        // back to the system.
                        mailed = 0;
                        release_memory();
                    }
                    // Nothing waiting: sleep until woken (a new mail
                    // stored) or a second passes (`deliver` stores
                    // from another process).
                    let w = Arc::clone(&self.wake);
                    self.rt.block_on(async move {
                        let _ = tokio::time::timeout(Duration::from_secs(1), w.notified()).await;
                    });
                }
                Err(e) => {
                    error!(error = %format!("{e:#}"), "the store failed while processing mail");
                    self.failed.store(true, Ordering::SeqCst);
                    break;
                }
            }
        }
        // Mail read ahead and not processed is charged nothing for the
        // stop, and, with what else this judge claimed, goes to the others
        // sharing the store at once.
        processor.put_back();
        if let Err(e) = processor.store.release_claims() {
            warn!(error = %format!("{e:#}"), "cannot give up this judge's claims; the other judges take them over once this one is gone");
        }
        self.done.notify_one();
    }
}

/// The processor met a fault of the store (`e`): wait as `outage` says,
/// showing signs of life to the watchdog meanwhile (a judge waiting for its
/// database is not stuck), unless the daemon stops first.
fn wait_for_store(
    outage: &mut outage::Outage,
    e: &crate::store::StoreError,
    stop: &watch::Receiver<bool>,
    alive: &Heartbeat,
) {
    let until = std::time::Instant::now() + outage.failed(&format!("{e:#}"));
    loop {
        alive.beat();
        let left = until.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() || *stop.borrow() {
            return;
        }
        std::thread::sleep(left.min(Duration::from_millis(200)));
    }
}

/// Take mail from IMAP: store each batch fetched, then let the server
/// forget it. With a shared store, only while this judge holds the fetch
/// lock ([`wait_fetch_lock`]), which is checked every [`FETCH_RETRY`]: it
/// goes with its connection, so after the database restarted another judge
/// may hold it, and this one goes back to waiting for it.
///
/// While the store fails, a batch fetched waits in memory, tried again as
/// [`outage::Outage`] says, and nothing more is fetched: the server keeps
/// the mail until the store has it.
async fn imap_source(
    settings: imap::ImapSettings,
    store: Store,
    (masker, verifier): (Option<mail::Masker>, Option<Arc<Verifier>>),
    fetch_lock: Option<Arc<Mutex<Store>>>,
    wake: Arc<Notify>,
    mut shutdown: watch::Receiver<bool>,
) {
    let src = format!(
        "imap:{}@{}/{}",
        settings.user, settings.host, settings.mailbox
    );
    let store = Arc::new(Mutex::new(store));
    let outage = Arc::new(Mutex::new(outage::Outage::new("inbox")));
    loop {
        if let Some(lock) = &fetch_lock
            && !wait_fetch_lock(lock, &mut shutdown).await
        {
            return;
        }
        // IMAP stops when the judge does, or when it no longer holds the
        // fetch lock.
        let (stop, stopped) = watch::channel(false);
        let keeper = tokio::spawn(keep_fetch_lock(fetch_lock.clone(), shutdown.clone(), stop));
        let keep = {
            let (store, outage, wake, src) = (
                Arc::clone(&store),
                Arc::clone(&outage),
                Arc::clone(&wake),
                src.clone(),
            );
            let shutdown = shutdown.clone();
            let masker = masker.clone();
            let verifier = verifier.clone();
            move |mails: Vec<imap::Fetched>| {
                keep_fetched(
                    Arc::clone(&store),
                    Arc::new(mails),
                    (masker.clone(), verifier.clone()),
                    src.clone(),
                    Arc::clone(&outage),
                    Arc::clone(&wake),
                    shutdown.clone(),
                )
            }
        };
        imap::run(settings.clone(), keep, stopped).await;
        keeper.abort();
        if *shutdown.borrow() {
            // The lock goes with its connection, here or when the process
            // ends.
            return;
        }
    }
}

/// Store a batch fetched by IMAP, waiting for the store while it fails (see
/// [`imap_source`]). An error makes the IMAP reader keep the batch on the
/// server.
async fn keep_fetched(
    store: Arc<Mutex<Store>>,
    mails: Arc<Vec<imap::Fetched>>,
    (masker, verifier): (Option<mail::Masker>, Option<Arc<Verifier>>),
    src: String,
    outage: Arc<Mutex<outage::Outage>>,
    wake: Arc<Notify>,
    mut shutdown: watch::Receiver<bool>,
) -> std::result::Result<imap::Kept, String> {
    loop {
        let (store, mails, src) = (Arc::clone(&store), Arc::clone(&mails), src.clone());
        let masker = masker.clone();
        let verifier = verifier.clone();
        let r = tokio::task::spawn_blocking(move || {
            let mut s = store
                .lock()
                .map_err(|_| anyhow::anyhow!("store lock poisoned"))?;
            store_fetched(&mut s, &mails, &src, verifier.as_deref())?;
            drop(s);
            // Stored: the copies left in the processed mailbox have their
            // passwords masked, as the store's will have.
            Ok::<_, anyhow::Error>(
                mails
                    .iter()
                    .map(|m| masker.as_ref().and_then(|f| f(&m.raw)))
                    .collect::<imap::Kept>(),
            )
        })
        .await
        .map_err(|e| e.to_string())?;
        let wait = {
            let mut o = outage
                .lock()
                .map_err(|_| "outage lock poisoned".to_string())?;
            match &r {
                Ok(_) => {
                    o.ok();
                    None
                }
                Err(e) if store_fault(e) => Some(o.failed(&format!("{e:#}"))),
                Err(_) => None,
            }
        };
        let Some(wait) = wait else {
            wake.notify_one();
            return r.map_err(|e| format!("{e:#}"));
        };
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = shutdown.changed() => return Err("the judge is stopping".into()),
        }
    }
}

/// While IMAP runs: every [`FETCH_RETRY`], check that this judge still
/// holds the fetch lock (when the store is shared), and set `stop` when it
/// does not, or when the judge stops.
async fn keep_fetch_lock(
    lock: Option<Arc<Mutex<Store>>>,
    mut shutdown: watch::Receiver<bool>,
    stop: watch::Sender<bool>,
) {
    loop {
        tokio::select! {
            _ = tokio::time::sleep(FETCH_RETRY) => {}
            _ = shutdown.changed() => {
                let _ = stop.send(true);
                return;
            }
        }
        let Some(lock) = &lock else {
            continue;
        };
        let l = Arc::clone(lock);
        let held = tokio::task::spawn_blocking(move || -> Result<bool> {
            let s = l
                .lock()
                .map_err(|_| anyhow::anyhow!("store lock poisoned"))?;
            Ok(s.holds_fetch_lock()?)
        })
        .await;
        // An error (the store is down) changes nothing: the IMAP reader
        // takes no mail while the store fails, and the lock is checked again.
        if let Ok(Ok(false)) = held {
            info!("another judge fetches the mail now; this one stops fetching and waits");
            let _ = stop.send(true);
            return;
        }
    }
}

/// How often a judge that does not fetch the mail tries to take the fetch
/// lock over: the takeover time when the fetching judge dies.
const FETCH_RETRY: Duration = Duration::from_secs(5);

/// Wait until this judge holds the fetch lock of a shared store
/// ([`Store::try_fetch_lock`]), trying every [`FETCH_RETRY`]. Returns
/// false if shut down first. The lock is held by the connection, so it is
/// released when the judge holding it dies, and the next try here takes it:
/// one judge fetches at a time, and another carries on within seconds.
async fn wait_fetch_lock(lock: &Arc<Mutex<Store>>, shutdown: &mut watch::Receiver<bool>) -> bool {
    let mut told = false;
    loop {
        let l = Arc::clone(lock);
        let got = tokio::task::spawn_blocking(move || -> Result<bool> {
            let s = l
                .lock()
                .map_err(|_| anyhow::anyhow!("store lock poisoned"))?;
            Ok(s.try_fetch_lock()?)
        })
        .await;
        match got {
            Ok(Ok(true)) => {
                if told {
                    info!("this judge fetches the mail now");
                }
                return true;
            }
            Ok(Ok(false)) if !told => {
                told = true;
                info!("another judge fetches the mail; this one takes over if it stops");
            }
            Ok(Ok(false)) => {}
            Ok(Err(e)) => warn!(error = %format!("{e:#}"), "cannot try the fetch lock"),
            Err(e) => warn!(error = %e, "cannot try the fetch lock"),
        }
        tokio::select! {
            _ = tokio::time::sleep(FETCH_RETRY) => {}
            _ = shutdown.changed() => return false,
        }
    }
}

/// The inbox Maildir and how it is read.
struct Inbox {
    /// The Maildir.
    md: Maildir,
    /// How the copies left in `cur/` are masked.
    masker: Option<mail::Masker>,
    /// The judge's own DKIM checker, if it checks signatures itself.
    verifier: Option<Arc<Verifier>>,
    /// How often `new/` is looked at.
    poll: Duration,
    /// Mails larger than this are stored as their header.
    max_bytes: u64,
    /// How long copies stay in `cur/`.
    keep_mail: Duration,
}

/// Take mail from a Maildir's `new/`: store it, then move it to `cur/`.
async fn maildir_source(
    inbox: Inbox,
    store: Store,
    wake: Arc<Notify>,
    mut shutdown: watch::Receiver<bool>,
) {
    let Inbox {
        md,
        masker,
        verifier,
        poll,
        max_bytes,
        keep_mail,
    } = inbox;
    let store = Arc::new(Mutex::new(store));
    let mut last_prune: Option<std::time::Instant> = None;
    let mut outage = outage::Outage::new("inbox");
    // Copies a judge that did not mask yet left in cur/ are masked now.
    if let Some(m) = masker.clone() {
        let md2 = md.clone();
        match tokio::task::spawn_blocking(move || md2.mask_cur(&*m)).await {
            Ok(Ok(n)) if n > 0 => info!(
                mails = n,
                "masked the passwords of old mail in the inbox's cur/"
            ),
            Ok(Err(e)) => warn!(error = %e, "cannot mask the old mail in the inbox's cur/"),
            _ => {}
        }
    }
    loop {
        // Mail stored long ago leaves the inbox's cur/ too (it holds the
        // mail as received, passwords and all).
        if last_prune.is_none_or(|t| t.elapsed() >= Duration::from_secs(3600)) {
            last_prune = Some(std::time::Instant::now());
            let md2 = md.clone();
            let before = SystemTime::now() - keep_mail;
            match tokio::task::spawn_blocking(move || md2.prune_cur(before)).await {
                Ok(Ok(n)) if n > 0 => info!(mails = n, "removed old mail from the inbox's cur/"),
                Ok(Err(e)) => warn!(error = %e, "cannot prune the inbox's cur/"),
                _ => {}
            }
        }
        let md2 = md.clone();
        let st = Arc::clone(&store);
        let m = masker.clone();
        let v = verifier.clone();
        let taken = tokio::task::spawn_blocking(move || {
            take_maildir(&md2, &st, (m.as_ref(), v.as_deref()), max_bytes)
        })
        .await;
        let mut wait = poll;
        match taken {
            Ok(Ok(n)) => {
                outage.ok();
                if n > 0 {
                    wake.notify_one();
                }
            }
            // The mail stays in new/ until the store has it.
            Ok(Err(e)) if store_fault(&e) => wait = outage.failed(&format!("{e:#}")).max(poll),
            Ok(Err(e)) => warn!(error = %format!("{e:#}"), "cannot read the inbox Maildir"),
            Err(e) => warn!(error = %e, "the Maildir reader failed"),
        }
        tokio::select! {
            _ = tokio::time::sleep(wait) => {}
            _ = shutdown.changed() => return,
        }
    }
}

/// Several judges may read one Maildir (sharing a PostgreSQL store): a
/// file another judge moved to `cur/` (or pruned) between the listing and
/// the reading or the move is that judge's, and is passed over; a file
/// both read is stored once, the store knowing its Message-ID and bytes.
/// Nothing is lost: a file leaves `new/` only after it is stored.
fn take_maildir(
    md: &Maildir,
    store: &Arc<Mutex<Store>>,
    (masker, verifier): (Option<&mail::Masker>, Option<&Verifier>),
    max_bytes: u64,
) -> Result<usize> {
    let gone = |e: &std::io::Error| e.kind() == std::io::ErrorKind::NotFound;
    let mut n = 0;
    for path in md.list_new()? {
        let size = match std::fs::metadata(&path) {
            Ok(m) => m.len(),
            Err(e) if gone(&e) => continue,
            Err(_) => 0,
        };
        let read = if size > max_bytes {
            read_head(&path)
        } else {
            std::fs::read(&path).map_err(anyhow::Error::from)
        };
        let raw = match read {
            Ok(raw) => raw,
            Err(e) if e.downcast_ref::<std::io::Error>().is_some_and(gone) => continue,
            Err(e) => return Err(e.context(format!("cannot read {}", path.display()))),
        };
        {
            let mut s = store
                .lock()
                .map_err(|_| anyhow::anyhow!("store lock poisoned"))?;
            let src = format!(
                "maildir:{}",
                path.file_name()
                    .map(|f| f.to_string_lossy())
                    .unwrap_or_default()
            );
            store_raw(&mut s, &raw, size, size > max_bytes, &src, verifier)?;
        }
        // Stored: the copy left in cur/ has its passwords masked, as the
        // store's will have.
        let seen = match masker.and_then(|m| m(&raw)) {
            Some(copy) => md.mark_seen_as(&path, &copy),
            None => md.mark_seen(&path),
        };
        match seen {
            Ok(()) => {}
            Err(e) if gone(&e) => continue,
            Err(e) => {
                return Err(anyhow::Error::from(e)
                    .context(format!("cannot move {} to cur/", path.display())));
            }
        }
        n += 1;
    }
    Ok(n)
}

/// The header of a mail file too large to read whole.
fn read_head(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let mut f = std::fs::File::open(path)?;
    let mut buf = vec![0u8; 256 * 1024];
    let n = f.read(&mut buf)?;
    buf.truncate(n);
    let head = header_of(&buf).to_vec();
    Ok(head)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With `verify-signatures`, every path in (the Maildir, IMAP,
    /// `deliver`) keeps a mail stamped by the judge: its own stamp on top,
    /// and the stamp of its id the mail brought set aside.
    #[test]
    fn a_mail_taken_in_is_kept_with_the_judges_own_stamp() {
        let dir = std::env::temp_dir().join(format!("zj-dkim-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut store = Store::open(&dir.join("store.sqlite")).unwrap();
        let verifier = Verifier::with_keys("own.judge.test", &[]).unwrap();
        let forged = b"Authentication-Results: own.judge.test; dmarc=pass\r\n\
            From: a@example.org\r\nMessage-ID: <x1@example.org>\r\n\r\nOBSERVE g\r\n";
        let fetched = imap::Fetched {
            raw: String::from_utf8_lossy(forged)
                .replace("x1@", "x2@")
                .into_bytes(),
            size: forged.len() as u32,
            truncated: false,
        };
        assert!(store_raw(&mut store, forged, 0, false, "t", Some(&verifier)).unwrap());
        assert_eq!(
            store_fetched(&mut store, &[fetched], "t", Some(&verifier)).unwrap(),
            1
        );
        let kept = store.pending(10).unwrap();
        assert_eq!(kept.len(), 2);
        for m in kept {
            let text = String::from_utf8(m.raw).unwrap();
            assert!(
                text.starts_with("Authentication-Results: own.judge.test;")
                    && text.contains(
                        "X-Unverified-Authentication-Results: own.judge.test; dmarc=pass"
                    ),
                "{text}"
            );
            let read = mail::read(text.as_bytes(), "judge@judge.test");
            let policy = crate::trust::sender::Policy {
                authserv_id: Some("own.judge.test".into()),
                require_authentication: false,
                verify_signatures: true,
            };
            let who = crate::trust::sender::identify(&read, &policy, None).unwrap();
            assert_eq!(who.assurance, crate::trust::sender::Assurance::Claimed);
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
