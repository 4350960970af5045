//! The durable store: every table the judge keeps (mail in and out, games,
//! press, counters), behind one interface with two backends.
//!
//! The rules that keep mail safe through any crash live here:
//! - a received mail is written (raw bytes, Message-ID, time) before its
//!   source forgets it; the same Message-ID is stored once;
//! - a mail is processed in one transaction that also queues its answers,
//!   so after a crash it is either fully done or not started;
//! - an answer is marked sent only after the server took it.
//!
//! The store makes no rule decisions; it keeps what the daemon tells it.
//!
//! # Backends
//!
//! `[store] url` chooses ([`Location`]): a path (or `sqlite:PATH`) is an
//! SQLite file in WAL mode, the default, nothing to install;
//! `postgres://user@host:port/db` is a PostgreSQL database, for a host who
//! wants the store on a server of its own (and, later, several judges on
//! one database). The password never sits in the URL that is logged: it
//! comes from `[store] password-file`, or `ZINEJUDGE_PG_PASSWORD` /
//! `PGPASSWORD` in the environment.
//!
//! The rest of the program sees one interface: [`Store`] (a connection,
//! with the operations on the mail queues) and the free functions here and
//! in [`games`], [`press`], [`roster`], [`retention`], [`signon`], which
//! take a [`Conn`] or a [`Tx`]. No SQL is written outside this module
//! (the web pages read through the same functions).
//!
//! Underneath, [`sql`] is a small backend-neutral layer: SQL written once
//! in the dialect both share, `?N` placeholders, typed parameters and
//! columns. What only one backend has is a method with an equivalent, or
//! nothing, on the other:
//! - migrations: one list per backend ([`schema`]), same numbering, run by
//!   the same code under each backend's lock (SQLite's write lock,
//!   PostgreSQL's advisory lock);
//! - durability: SQLite's `synchronous` (FULL, NORMAL in a group commit)
//!   is PostgreSQL's `synchronous_commit` (on, off);
//! - upkeep: incremental vacuum, WAL checkpoints, the page cache limit and
//!   the in-memory copy are SQLite's; PostgreSQL runs its own autovacuum,
//!   and those calls do nothing there.
//!
//! # Several judges
//!
//! Several judges (processes, on one machine or several) may share one
//! PostgreSQL database and one mailbox. Each piece of work is done by
//! exactly one of them, and a judge that dies at any point loses nothing:
//!
//! - **Work on games is serialized.** Every transaction that may change
//!   games (a mail's processing, a game's deadline work, setting a game
//!   aside) is a [`Store::work_transaction`]: on PostgreSQL it first takes
//!   the transaction-level advisory lock "zjwork", which all judges share.
//!   So these transactions run one at a time, across judges, as they do in
//!   SQLite (where the write lock is the database's), and since PostgreSQL
//!   (READ COMMITTED) gives each statement a fresh snapshot, each one reads
//!   what the one before it committed: no update is lost. This is the
//!   simplest scheme that is correct whatever a mail does: a mail can touch
//!   any number of games (SIGNON lines for several, CREATE, LIST), which
//!   only its processing finds out, so per-game locks would have to be
//!   taken as the work goes, in no set order, with deadlocks and retries to
//!   handle; SERIALIZABLE would fail most concurrent pairs anyway on the
//!   rows every mail writes (the Message-ID serial, the rate counters).
//!   The cost: two judges never process mail at the same instant. What is
//!   slow happens outside it and in parallel: password checks (argon2,
//!   done ahead of each mail), reading and storing mail, drawing pictures,
//!   sending.
//! - **Each inbound mail is processed once.** A judge claims a batch of
//!   unprocessed mails ([`Store::claim_pending`]: `FOR UPDATE SKIP LOCKED`,
//!   its name and a lease in `claimed_by`, `lease_until`), so that judges
//!   check different mails' passwords; [`Store::start_attempt`] renews the
//!   claim and counts the attempt. The processing transaction then checks,
//!   under the work lock, that the mail is still `new` ([`take_inbound`],
//!   which locks its row): a mail processed by another judge meanwhile
//!   (this judge's lease having run out) is left alone. The mail is marked
//!   done in the transaction that queues its answers, so after a crash it
//!   is either done, answers and all, or still `new`, and claimed by a dead
//!   judge, which any other judge takes over at once (see "Liveness"
//!   below).
//! - **Each game's due phase is adjudicated once.** The list of due games
//!   is read outside any lock; each game's deadline work is a work
//!   transaction, in which the game is loaded again and its deadline
//!   checked again: a game another judge has just adjudicated is no longer
//!   due, and nothing is done.
//! - **Outgoing mail is sent at least once, normally once.** A judge claims
//!   due outbox rows ([`Store::claim_outbox`]: `FOR UPDATE SKIP LOCKED`,
//!   name and lease), renews its claim just before handing a mail over
//!   ([`Store::mark_sending`], which refuses when another judge has taken
//!   the mail over), and only the claimant marks it sent. A judge killed
//!   between the mail server's 250 and the mark sends nothing more; the
//!   judge that takes the row over (at once, the killed judge being gone)
//!   sends it again,
//!   with the same Message-ID: a duplicate a reader's mail program can
//!   recognise. The lease ([`Claimant::lease`], `[store] lease-seconds`)
//!   must outlast one SMTP exchange, or a slow send could go twice.
//! - **Mail is fetched by one judge at a time** (IMAP): the one holding the
//!   session-level advisory lock "zjfetch" ([`Store::try_fetch_lock`]) on a
//!   connection of its own; the others try again every few seconds and
//!   take over when the holder's connection goes (it dies: its socket is
//!   closed). Should two ever fetch at once, the store keeps each
//!   Message-ID (and bytes) once. Judges reading one Maildir all read it:
//!   a file another judge has moved meanwhile is passed over, one both read
//!   is stored once.
//!
//! **Liveness, not only leases.** Each connection a judge claims work on
//! holds, shared, an advisory lock named after the judge
//! ([`Store::set_claimant`]: "zjlv" and the hash of its claimant name).
//! The server lets go of a session's locks when the session ends, so when
//! its judge's process dies (a SIGKILL closes its sockets at once). A
//! claim is anyone's once no session holds its judge's lock: claiming
//! asks by trying that lock exclusively (`HOLDER_GONE`), which only
//! succeeds when no session of the judge is left. So a killed judge's
//! claims are taken over within the survivors' next look (the processor
//! looks every second; the outbox every [`TAKEOVER_POLL`] while others
//! hold claims), not when the leases end. The lease stays as the backstop
//! for a judge alive but stuck, whose sessions are open. A machine that
//! vanishes without closing its connections is noticed by the server only
//! through TCP keepalive (`tcp_keepalives_idle` and friends on the server
//! bound it; until then the leases are the bound). The outbox claims few
//! mails at a time, so that judges share a deadline's results and a kill
//! strands few.
//!
//! Leases are measured on the database server's clock, so judges whose
//! clocks disagree still agree on when one ends. Each judge claims as
//! `[store] judge-name` (the host name by default) plus its process id
//! ([`Claimant`]). SQLite has one judge: there the claims are plain reads
//! and the columns stay empty.
//!
//! # When the database fails
//!
//! A connection the server ends (a restart, a network failure) is made
//! again by the next call outside a transaction, with its session as it
//! was: the commit mode and the liveness lock (see [`sql`]). A session
//! lock that is not kept so, the fetch lock, is then known to be gone
//! ([`Store::holds_fetch_lock`]). What is a fault of the store rather than
//! of the work is [`StoreError::is_unavailable`]; a transaction in which
//! the store failed does not commit, even if the work handled the failure
//! ([`Tx::commit`]). The daemon never fails a mail, nor sets a game aside,
//! for such a fault: it waits for the store and tries again, and the
//! attempt it counted for the mail is taken back
//! ([`Store::forgive_attempt`]); only a crash while a mail is processed
//! counts against it.
//!
//! No wait for the database is endless ([`pg`]): a connection is made
//! within 5 s, the server ends a statement after 20 s and a wait for a
//! lock after 10 s, and the judge gives up on any answer after 25 s
//! ([`StoreError::Timeout`], a fault of the store, naming the server); an
//! SQLite lock is waited for [`BUSY_TIMEOUT`]. A server that takes the
//! connection and says nothing is waited out like one that is down.

pub(crate) mod budget;
pub(crate) mod confirm;
pub(crate) mod diary;
pub(crate) mod games;
pub(crate) mod kept;
pub(crate) mod later;
pub(crate) mod pages;
pub(crate) mod pg;
pub(crate) mod press;
pub(crate) mod retention;
pub(crate) mod roster;
pub(crate) mod schema;
pub(crate) mod signon;
pub(crate) mod sql;

pub use crate::__store_params as params;
pub(crate) use sql::{Backend, Conn, OptionalExt, Row, Tx};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A store failure.
///
/// Its `{:#}` form prints the causes after the message, as anyhow's does
/// ("cannot open the database var/z.sqlite: unable to open database file:
/// ..."): the daemon logs store failures with `{:#}`, and the database's
/// own words are the only clue to what went wrong. `{}` is the message
/// alone, for what a player may be told.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused.
    Sql(#[from] rusqlite::Error),
    /// PostgreSQL refused (or could not be reached).
    Pg(#[from] tokio_postgres::Error),
    /// A query that must find a row found none.
    NoRows,
    /// A column did not hold what the code reads it as.
    Type {
        /// Column index.
        column: usize,
        /// What was wanted.
        expected: &'static str,
        /// What was there.
        found: &'static str,
    },
    /// A stored value no version of the judge wrote: an error with what
    /// it was, never read as a default.
    Unreadable {
        /// What it was meant to be (`the settings of game g1`).
        what: String,
        /// Why it cannot be read.
        why: String,
    },
    /// The database is newer than this program.
    TooNew {
        /// Version found.
        found: i64,
        /// Newest version known.
        known: i64,
    },
    /// Creating the directory failed.
    Dir(PathBuf, #[source] std::io::Error),
    /// The database file could not be created or opened.
    Open(PathBuf, #[source] std::io::Error),
    /// The PostgreSQL password file could not be read.
    PasswordFile(PathBuf, #[source] std::io::Error),
    /// `[store] url` is not one the store takes.
    BadUrl(String),
    /// The connection to the database was lost and could not be made
    /// again yet.
    Lost,
    /// The database server did not answer in time (see [`pg`]): it took
    /// the connection and then said nothing.
    Timeout {
        /// `host:port`.
        server: String,
        /// What the judge waited for ("to connect", "for an answer").
        waiting: &'static str,
        /// How long it waited.
        after: Duration,
    },
    /// The PostgreSQL client's runtime could not be made (out of threads
    /// or file descriptors).
    Runtime(#[source] std::io::Error),
    /// The store failed during a piece of work, which is rolled back; the
    /// text is that failure. Either it was met earlier in the transaction
    /// and handled along the way (a command's savepoint rolled back), and
    /// the transaction is not committed without that part
    /// ([`Tx::commit`]), or the work reported it as its own error.
    Failed(String),
}

impl StoreError {
    /// Whether this is a fault of the store rather than of the work asked
    /// of it: the database cannot be reached or has lost the connection,
    /// is out of disk or memory, is shutting down or read only, refuses a
    /// privilege, or met a conflict that goes away when tried again. Work
    /// that meets such a fault waits and is tried again once the store
    /// works; it is never failed for it (a mail is not blamed for its
    /// store). Everything else (a constraint, a value the database will not
    /// take, a row not found) may be the work's own doing.
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::Sql(e) => sql::sqlite_unavailable(e),
            StoreError::Pg(e) => sql::pg_unavailable(e),
            StoreError::Lost | StoreError::Failed(_) => true,
            StoreError::Timeout { .. } | StoreError::Runtime(_) => true,
            StoreError::Dir(..) | StoreError::Open(..) => true,
            StoreError::NoRows
            | StoreError::Type { .. }
            | StoreError::Unreadable { .. }
            | StoreError::TooNew { .. }
            | StoreError::PasswordFile(..)
            | StoreError::BadUrl(_) => false,
        }
    }
}

/// Whether an error is, or was caused by, a fault of the store (see
/// [`StoreError::is_unavailable`]): the work that met it is to be tried
/// again once the store works, never answered or failed for it.
pub(crate) fn unavailable_in(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<StoreError>())
        .any(StoreError::is_unavailable)
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Sql(e) if sql::sqlite_busy(e) => write!(
                f,
                "database error: the database stayed locked by another connection for {} s (the busy timeout)",
                BUSY_TIMEOUT.as_secs()
            )?,
            StoreError::Sql(_) | StoreError::Pg(_) => write!(f, "database error")?,
            StoreError::NoRows => write!(f, "database error: no such row")?,
            StoreError::Type {
                column,
                expected,
                found,
            } => write!(
                f,
                "database error: column {column} holds {found}, not {expected}"
            )?,
            StoreError::Unreadable { what, why } => {
                write!(f, "database error: {what} cannot be read: {why}")?
            }
            StoreError::TooNew { found, known } => write!(
                f,
                "the database is at schema version {found}, newer than this program's {known}"
            )?,
            StoreError::Dir(dir, _) => {
                write!(f, "cannot create the store's directory {}", dir.display())?
            }
            StoreError::Open(path, _) => {
                write!(f, "cannot create the database {}", path.display())?
            }
            StoreError::PasswordFile(path, _) => write!(
                f,
                "cannot read the database password from {}",
                path.display()
            )?,
            StoreError::BadUrl(why) => write!(f, "bad [store] url: {why}")?,
            StoreError::Lost => write!(f, "the connection to the database is lost")?,
            StoreError::Timeout {
                server,
                waiting,
                after,
            } => write!(
                f,
                "the database server {server} did not answer within {} s (waiting {waiting})",
                after.as_secs()
            )?,
            StoreError::Runtime(_) => write!(f, "cannot start the database client")?,
            StoreError::Failed(why) => {
                write!(f, "the store failed, and the work was rolled back: {why}")?
            }
        }
        if f.alternate() {
            let mut cause = std::error::Error::source(self);
            while let Some(c) = cause {
                write!(f, ": {c}")?;
                cause = c.source();
            }
        }
        Ok(())
    }
}

/// Result alias.
pub(crate) type Result<T> = std::result::Result<T, StoreError>;

/// Why a store cannot be used as the judge would use it ([`Store::check`],
/// for `check-config`). Each says which step failed; the database's own
/// words are in the source.
#[derive(Debug, thiserror::Error)]
pub enum Unusable {
    /// The server cannot be reached, or has no such database.
    #[error("cannot connect to the database")]
    Connect(#[source] StoreError),
    /// The server refused the login (a wrong password, a role that may not
    /// log in).
    #[error("the database refused the login")]
    Login(#[source] StoreError),
    /// The judge's tables cannot be made, or brought up to date, by this
    /// role (tried in a transaction that is rolled back).
    #[error("the role cannot make or update the judge's tables")]
    Schema(#[source] StoreError),
    /// A table of the judge's is not the role's to use as the judge does.
    #[error("the role may not {privilege} the table {table} (GRANT it, as the tables' owner)")]
    Privilege {
        /// The table.
        table: String,
        /// What is withheld: SELECT, INSERT, UPDATE or DELETE.
        privilege: String,
    },
    /// The store is not one this judge can use (newer than this program,
    /// not a database).
    #[error("the store cannot be used")]
    Store(#[source] StoreError),
}

/// Where the store is: `[store] url` (or the older `[store] path`),
/// resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// An SQLite file.
    Sqlite(PathBuf),
    /// A PostgreSQL database.
    Postgres(PgLocation),
}

/// A PostgreSQL database: the URL (never with a password in it) and the
/// password, read from the file or the environment when the configuration
/// was read.
#[derive(Clone, PartialEq, Eq)]
pub struct PgLocation {
    /// `postgres://user@host:port/db`, as configured, without a password.
    pub url: String,
    /// The password, if any.
    pub password: Option<String>,
}

impl std::fmt::Debug for PgLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgLocation")
            .field("url", &self.url)
            .field("password", &self.password.as_ref().map(|_| "(hidden)"))
            .finish()
    }
}

impl Location {
    /// Read `[store] url`: `postgres://` or `postgresql://` is PostgreSQL,
    /// `sqlite:PATH` or a plain path SQLite. The password comes from
    /// `password_file` when given, else `ZINEJUDGE_PG_PASSWORD`, else
    /// `PGPASSWORD`. A password written into the URL is refused: the URL
    /// is logged.
    pub fn parse(url: &str, password_file: Option<&Path>) -> Result<Location> {
        if let Some(rest) = url
            .strip_prefix("postgres://")
            .or_else(|| url.strip_prefix("postgresql://"))
        {
            let auth = rest.split(['/', '?']).next().unwrap_or("");
            if auth
                .rsplit_once('@')
                .is_some_and(|(user, _)| user.contains(':'))
            {
                return Err(StoreError::BadUrl(
                    "a password in the URL (give it in [store] password-file or ZINEJUDGE_PG_PASSWORD)"
                        .into(),
                ));
            }
            url.parse::<tokio_postgres::Config>()
                .map_err(|e| StoreError::BadUrl(e.to_string()))?;
            let password = match password_file {
                Some(p) => Some(
                    std::fs::read_to_string(p)
                        .map_err(|e| StoreError::PasswordFile(p.to_path_buf(), e))?
                        .trim_end_matches(['\n', '\r'])
                        .to_string(),
                ),
                None => std::env::var("ZINEJUDGE_PG_PASSWORD")
                    .or_else(|_| std::env::var("PGPASSWORD"))
                    .ok(),
            };
            return Ok(Location::Postgres(PgLocation {
                url: url.to_string(),
                password,
            }));
        }
        let path = url.strip_prefix("sqlite:").unwrap_or(url);
        if path.is_empty() {
            return Err(StoreError::BadUrl("empty".into()));
        }
        Ok(Location::Sqlite(PathBuf::from(path)))
    }

    /// The SQLite file, if the store is one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Location::Sqlite(p) => Some(p),
            Location::Postgres(_) => None,
        }
    }

    /// For messages and logs: the path, or the URL (never a password).
    pub fn display(&self) -> impl std::fmt::Display + '_ {
        struct D<'a>(&'a Location);
        impl std::fmt::Display for D<'_> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self.0 {
                    Location::Sqlite(p) => write!(f, "{}", p.display()),
                    Location::Postgres(pg) => f.write_str(&pg.url),
                }
            }
        }
        D(self)
    }
}

/// What [`Store::open`] takes: a [`Location`], or a path (SQLite).
pub trait AsLocation {
    /// As a location.
    fn to_location(&self) -> Location;
}
impl AsLocation for Location {
    fn to_location(&self) -> Location {
        self.clone()
    }
}
impl AsLocation for Path {
    fn to_location(&self) -> Location {
        Location::Sqlite(self.to_path_buf())
    }
}
impl AsLocation for PathBuf {
    fn to_location(&self) -> Location {
        Location::Sqlite(self.clone())
    }
}

impl From<PathBuf> for Location {
    fn from(p: PathBuf) -> Location {
        Location::Sqlite(p)
    }
}
impl From<&Path> for Location {
    fn from(p: &Path) -> Location {
        Location::Sqlite(p.to_path_buf())
    }
}

/// Who claims work in a database that several judges share, and for how
/// long a claim holds if its judge goes quiet (see `# Several judges`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimant {
    /// The judge's name in claims and logs: `[store] judge-name` (the host
    /// name when empty) and the process id, so that a judge started again
    /// is a new claimant and never mistakes its dead predecessor's claims
    /// for its own.
    pub name: String,
    /// How long a claim holds: a judge that dies holding claims holds
    /// them this long, then any judge takes the work over.
    pub lease: Duration,
}

impl Claimant {
    /// The claimant for this process, named `configured` (the host name
    /// when empty) and the process id.
    pub fn this_process(configured: &str, lease: Duration) -> Claimant {
        let base = if configured.is_empty() {
            host_name()
        } else {
            configured.to_string()
        };
        Claimant {
            name: format!("{base}:{}", std::process::id()),
            lease,
        }
    }

    fn lease_seconds(&self) -> i64 {
        self.lease.as_secs().max(1) as i64
    }
}

impl Default for Claimant {
    fn default() -> Claimant {
        Claimant::this_process("", DEFAULT_LEASE)
    }
}

/// How long an SQLite connection waits for another's lock before it
/// fails with "the database stayed locked" (a fault of the store, waited
/// out): under half of the systemd watchdog's 60 s, like PostgreSQL's
/// limits ([`pg`]), so that a judge whose file another process holds
/// says so rather than being killed as stuck.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(20);

/// How long a claim holds by default: longer than an SMTP exchange can
/// take (the client gives up after `[smtp] timeout-seconds`, 30 by
/// default), so that a live judge never loses a mail it is sending.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);

/// The machine's host name, or `judge` if it has none.
fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is writable for its whole length, which is passed.
    let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
    let end = buf.iter().position(|b| *b == 0).unwrap_or(buf.len());
    match std::str::from_utf8(&buf[..end]) {
        Ok(h) if r == 0 && !h.is_empty() => h.to_string(),
        _ => "judge".to_string(),
    }
}

/// The advisory lock every transaction that may change games takes on
/// PostgreSQL ([`Store::work_transaction`]): "zjwork".
const WORK_LOCK: i64 = 0x7a6a_776f_726b;

/// The advisory lock held by the judge that fetches mail
/// ([`Store::try_fetch_lock`]): "zjfetch".
const FETCH_LOCK: i64 = 0x7a6a_6665_7463;

/// The database server's clock, in Unix seconds: leases are measured on
/// it, so that judges on machines whose clocks disagree still agree on
/// when a lease ends.
const PG_NOW: &str = "CAST(extract(epoch FROM clock_timestamp()) AS BIGINT)";

/// The first key of the advisory locks that say a judge is alive ("zjlv");
/// the second is the hash of the judge's claimant name (`hashtext`). Each
/// connection of a judge holds its lock shared ([`Store::set_claimant`]);
/// the server lets go of it when the connection ends, so when the judge
/// dies.
const LIVE_CLASS: i32 = 0x7a6a_6c76;

/// True when no live connection holds the lock of the judge named in the
/// column `claimed_by`: the judge is gone, and its claims are anyone's
/// without waiting for their leases. It asks by trying the lock
/// exclusively for the rest of the transaction, which succeeds only when
/// nobody holds it shared; a claiming statement runs in a transaction of
/// its own, so the lock goes at once.
const HOLDER_GONE: &str = "pg_try_advisory_xact_lock(2053794934, hashtext(claimed_by))";

/// How often, at most, a judge looks again at outgoing mail another judge
/// has claimed, to take it over should that judge be gone
/// ([`Store::next_outbox_due`]).
pub const TAKEOVER_POLL: Duration = Duration::from_secs(2);

/// `s` as an SQL string literal (standard conforming strings: only the
/// quote is doubled).
fn sql_literal(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// A mail waiting to be processed.
#[derive(Debug, Clone)]
pub struct PendingMail {
    /// Row id.
    pub id: i64,
    /// Message-ID.
    pub message_id: String,
    /// Raw bytes (the header only if `truncated`).
    pub raw: Vec<u8>,
    /// Size of the whole mail.
    pub size: i64,
    /// Only the header was kept: the mail was too large.
    pub truncated: bool,
    /// When it was received (Unix seconds).
    pub received_at: i64,
}

/// A mail to send.
#[derive(Debug, Clone)]
pub struct OutMail {
    /// Row id.
    pub id: i64,
    /// Message-ID (without brackets).
    pub message_id: String,
    /// Envelope recipients.
    pub recipients: Vec<String>,
    /// Bytes to send.
    pub raw: Vec<u8>,
    /// Attempts so far.
    pub attempts: i64,
    /// Parts to draw at send time, when the mail has any: the
    /// `mail_sources` row they are drawn from and what to draw (the
    /// responder's words). `raw` is then the mail without them.
    pub later: Option<Later>,
    /// The mail's attachments are kept apart ([`kept_parts`]): `raw` is
    /// the mail without them, and they go in before any drawn at send
    /// time.
    pub kept: bool,
}

/// The parts of a queued mail that are drawn when it is sent: kept as a
/// description, never as bytes.
pub use crate::mail::Later;

/// A connection to the store.
pub struct Store {
    conn: Conn,
    /// PostgreSQL: commits wait for the disk (`synchronous_commit`) unless
    /// relaxed; kept to restore after a relaxed stretch.
    relaxed: std::cell::Cell<bool>,
    /// Who this connection claims work as (see `# Several judges`).
    claimant: Claimant,
    /// PostgreSQL: this connection holds the claimant's liveness lock.
    claimant_live: bool,
    /// Mails whose attempt is to be taken back ([`Store::forgive_attempt`])
    /// once the store can be written again.
    unforgiven: Vec<i64>,
}

impl Store {
    /// Open (creating and migrating as needed) the store at `at`: a
    /// [`Location`], or a path for SQLite.
    ///
    /// A new SQLite database is created mode 0600 whatever the umask (and
    /// a new directory for it 0700): it holds players' mail and password
    /// hashes. SQLite gives its `-wal` and `-shm` files the database's
    /// mode, so they are 0600 too. An existing database keeps the mode it
    /// has.
    pub fn open<L: AsLocation + ?Sized>(at: &L) -> Result<Store> {
        match at.to_location() {
            Location::Sqlite(path) => Self::open_sqlite(&path),
            Location::Postgres(pg) => Self::open_postgres(&pg),
        }
    }

    fn open_sqlite(path: &Path) -> Result<Store> {
        use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
            && !dir.is_dir()
        {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir)
                .map_err(|e| StoreError::Dir(dir.to_path_buf(), e))?;
        }
        // Create the file before SQLite does (an empty file is an empty
        // database), so that its mode is ours and not 0644 less the umask.
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
        {
            Ok(f) => f
                .set_permissions(std::fs::Permissions::from_mode(0o600))
                .map_err(|e| StoreError::Open(path.to_path_buf(), e))?,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(StoreError::Open(path.to_path_buf(), e)),
        }
        let conn = rusqlite::Connection::open(path)?;
        Self::setup_sqlite(conn)
    }

    /// Check, changing nothing, that the store at `at` can be used as
    /// [`Store::open`] and the judge's work would use it: on PostgreSQL,
    /// that the server answers, takes the login, and that the role can
    /// make the schema (the migrations are run in a transaction that is
    /// rolled back) or, if it is made, use every table of it; on SQLite, an
    /// existing file must be a store this program knows (whether a new one
    /// can be made is [`crate::config::Config::check_paths`]'s).
    pub fn check(at: &Location) -> std::result::Result<(), Unusable> {
        match at {
            Location::Sqlite(path) => {
                if !path.exists() {
                    return Ok(());
                }
                let c = rusqlite::Connection::open_with_flags(
                    path,
                    rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
                )
                .map_err(|e| Unusable::Store(e.into()))?;
                schema::check(&mut Conn::sqlite(c))
            }
            Location::Postgres(pg) => {
                let config = Self::pg_config(pg).map_err(Unusable::Connect)?;
                let mut conn = Conn::postgres(config).map_err(|e| {
                    let login = matches!(&e, StoreError::Pg(p)
                        if p.code().is_some_and(|c| c.code().starts_with("28")));
                    if login {
                        Unusable::Login(e)
                    } else {
                        Unusable::Connect(e)
                    }
                })?;
                schema::check(&mut conn)
            }
        }
    }

    /// Connect to PostgreSQL (without TLS: the server is expected on the
    /// same host or a private network; see docs/operations.md) and migrate.
    fn open_postgres(pg: &PgLocation) -> Result<Store> {
        let mut store = Store {
            conn: Conn::postgres(Self::pg_config(pg)?)?,
            relaxed: std::cell::Cell::new(false),
            claimant: Claimant::default(),
            claimant_live: false,
            unforgiven: Vec::new(),
        };
        schema::migrate(&mut store.conn)?;
        Ok(store)
    }

    /// How the judge connects to PostgreSQL at `pg`.
    fn pg_config(pg: &PgLocation) -> Result<tokio_postgres::Config> {
        let mut config: tokio_postgres::Config = pg
            .url
            .parse()
            .map_err(|e: tokio_postgres::Error| StoreError::BadUrl(e.to_string()))?;
        if let Some(p) = &pg.password {
            config.password(p);
        }
        // A server that vanished sends no reset: TCP keepalives and the
        // user timeout close a connection the network lost within about
        // half a minute. A server that is there but silent is bounded by
        // [`pg`]'s timeouts: connecting within 5 s, every answer within
        // 25 s.
        config.connect_timeout(pg::CONNECT_TIMEOUT);
        config.keepalives(true);
        config.keepalives_idle(Duration::from_secs(10));
        config.keepalives_interval(Duration::from_secs(5));
        config.keepalives_retries(3);
        config.tcp_user_timeout(Duration::from_secs(30));
        config.application_name("zinejudge");
        Ok(config)
    }

    /// A store in memory (SQLite), for tests.
    pub fn in_memory() -> Result<Store> {
        Self::setup_sqlite(rusqlite::Connection::open_in_memory()?)
    }

    fn setup_sqlite(conn: rusqlite::Connection) -> Result<Store> {
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // A new database gives the pages that pruning frees back to the
        // file system as it goes (`PRAGMA incremental_vacuum` after each
        // prune; see [`retention`]). Only a database without tables takes
        // this; an older one is switched by its first scheduled VACUUM.
        conn.pragma_update(None, "auto_vacuum", "INCREMENTAL")?;
        set_wal(&conn)?;
        // The write-ahead log is cut back to this size after a checkpoint,
        // so that a burst's log does not stay on disk.
        conn.pragma_update(None, "journal_size_limit", 4 * 1024 * 1024)?;
        // FULL: a committed transaction survives a power cut too, not just
        // a crash of the process, at the cost of an fsync per commit.
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        let mut store = Store {
            conn: Conn::sqlite(conn),
            relaxed: std::cell::Cell::new(false),
            claimant: Claimant::default(),
            claimant_live: false,
            unforgiven: Vec::new(),
        };
        schema::migrate(&mut store.conn)?;
        Ok(store)
    }

    /// Which backend the store is on.
    pub fn backend(&self) -> Backend {
        self.conn.backend()
    }

    /// Commits wait for the disk (`true`) or for the operating system
    /// only (SQLite's `synchronous` FULL or NORMAL, PostgreSQL's
    /// `synchronous_commit` on or off).
    fn set_durable(&self, durable: bool) -> Result<()> {
        match self.conn.as_sqlite() {
            Some(c) => {
                c.pragma_update(None, "synchronous", if durable { "FULL" } else { "NORMAL" })?
            }
            // Kept for the session, so that a connection made again after a
            // loss commits as this one did.
            None => self.conn.keep_session(
                "synchronous_commit",
                Some(format!(
                    "SET synchronous_commit = {}",
                    if durable { "on" } else { "off" }
                )),
            )?,
        }
        Ok(())
    }

    /// Commit without waiting for the disk on this connection (SQLite's
    /// `synchronous = NORMAL` in WAL mode, PostgreSQL's `synchronous_commit
    /// = off`). A commit still survives a crash of the process, but not a
    /// power cut. Only for the outbox's own marks (sending, sent): losing
    /// one means sending that mail again, never losing it, and waiting for
    /// the disk on each mark made the outbox the daemon's bottleneck and
    /// widened the window in which a crash makes a duplicate.
    pub fn relax_durability(&self) -> Result<()> {
        self.relaxed.set(true);
        self.set_durable(false)
    }

    /// Keep at most `kib` KiB of the database in this connection's page
    /// cache (SQLite's default is 2 MiB a connection). For the connections
    /// that only add mail and mark it sent: they touch the newest pages,
    /// and three full caches were most of the daemon's memory after a busy
    /// hour. PostgreSQL's cache is the server's: nothing to do.
    pub fn limit_cache(&self, kib: i64) -> Result<()> {
        if let Some(c) = self.conn.as_sqlite() {
            c.pragma_update(None, "cache_size", -kib)?;
        }
        Ok(())
    }

    /// The underlying connection, for the game tables.
    pub fn conn(&mut self) -> &mut Conn {
        &mut self.conn
    }

    /// A count that changes whenever another connection commits (SQLite's
    /// `data_version`): something read at one count is good while it
    /// stays. On PostgreSQL, the position at which the server inserts into
    /// its log (`pg_current_wal_insert_lsn`), which every commit moves:
    /// it also moves for work that changes nothing the judge reads
    /// (vacuum, checkpoints, other databases), which only costs a page
    /// made again.
    pub fn generation(&mut self) -> Result<i64> {
        match self.conn.as_sqlite() {
            Some(c) => Ok(c.query_row("PRAGMA data_version", [], |r| r.get(0))?),
            None => self.conn.query_row(
                "SELECT CAST(pg_current_wal_insert_lsn() - '0/0'::pg_lsn AS BIGINT)",
                &[],
                |r| r.get(0),
            ),
        }
    }

    /// Keep a received mail. Returns its row id, or `None` when a mail with
    /// this Message-ID is already kept.
    pub fn insert_inbound(
        &mut self,
        message_id: &str,
        source: &str,
        raw: &[u8],
        size: i64,
        truncated: bool,
        now: i64,
    ) -> Result<Option<i64>> {
        insert_inbound(&self.conn, message_id, source, raw, size, truncated, now)
    }

    /// The oldest mail not yet processed.
    pub fn next_pending(&self) -> Result<Option<PendingMail>> {
        Ok(self.pending(1)?.pop())
    }

    /// The `limit` oldest mails not yet processed, oldest first.
    pub fn pending(&self, limit: usize) -> Result<Vec<PendingMail>> {
        self.conn.query_map(
            "SELECT id, message_id, raw, size, truncated, received_at FROM inbound
             WHERE state = 'new' ORDER BY id LIMIT ?1",
            params![limit as i64],
            |r| {
                Ok(PendingMail {
                    id: r.get(0)?,
                    message_id: r.get(1)?,
                    raw: r.get(2)?,
                    size: r.get(3)?,
                    truncated: r.get(4)?,
                    received_at: r.get(5)?,
                })
            },
        )
    }

    /// Claim the `limit` oldest mails not yet processed, oldest first, for
    /// this judge to process. On SQLite, the only judge: [`Store::pending`].
    /// On PostgreSQL, the rows no other judge holds a live claim on are
    /// locked (`FOR UPDATE SKIP LOCKED`: two judges claiming at once get
    /// different mails) and marked with this judge's name and a lease, so
    /// that the slow work done ahead of each mail (password checks) is
    /// done by one judge only. The claim only shares the work out:
    /// [`take_inbound`] in the processing transaction decides.
    pub fn claim_pending(&self, limit: usize) -> Result<Vec<PendingMail>> {
        if self.backend() == Backend::Sqlite {
            return self.pending(limit);
        }
        let sql = format!(
            "UPDATE inbound SET claimed_by = ?1, lease_until = {PG_NOW} + ?2
             WHERE id IN (SELECT id FROM inbound WHERE state = 'new'
                 AND (claimed_by IS NULL OR claimed_by = ?1 OR lease_until <= {PG_NOW}
                     OR {HOLDER_GONE})
                 ORDER BY id LIMIT ?3 FOR UPDATE SKIP LOCKED)
             RETURNING id, message_id, raw, size, truncated, received_at"
        );
        let mut out = self.conn.query_map(
            &sql,
            params![
                self.claimant.name,
                self.claimant.lease_seconds(),
                limit as i64
            ],
            |r| {
                Ok(PendingMail {
                    id: r.get(0)?,
                    message_id: r.get(1)?,
                    raw: r.get(2)?,
                    size: r.get(3)?,
                    truncated: r.get(4)?,
                    received_at: r.get(5)?,
                })
            },
        )?;
        out.sort_by_key(|p| p.id);
        Ok(out)
    }

    /// [`Store::begin_attempt`] for a mail this judge claimed: `None` when
    /// the mail is no longer this judge's to process (it was processed,
    /// or, this judge's lease having run out, another judge claimed it).
    /// On PostgreSQL the claim's lease starts again.
    pub fn start_attempt(&mut self, id: i64) -> Result<Option<i64>> {
        self.take_back_attempts()?;
        if self.backend() == Backend::Sqlite {
            return self.begin_attempt(id).map(Some);
        }
        let sql = format!(
            "UPDATE inbound SET attempts = attempts + 1, claimed_by = ?2,
                 lease_until = {PG_NOW} + ?3
             WHERE id = ?1 AND state = 'new'
                 AND (claimed_by IS NULL OR claimed_by = ?2 OR lease_until <= {PG_NOW}
                     OR {HOLDER_GONE})
             RETURNING attempts"
        );
        let (name, lease) = (self.claimant.name.clone(), self.claimant.lease_seconds());
        let tx = self.conn.transaction()?;
        tx.execute_batch("SET LOCAL synchronous_commit = off")?;
        let n = tx.query_opt(&sql, params![id, name, lease], |r| r.get(0))?;
        tx.commit()?;
        Ok(n)
    }

    /// Start a transaction that may change games (a mail's processing, a
    /// game's deadline work). On PostgreSQL it first waits for the one
    /// advisory lock all judges share ("zjwork"), released when it ends:
    /// such transactions run one at a time across judges, as they do in
    /// SQLite (whose write lock is the database's), and each reads what
    /// the one before it committed. See `# Several judges` for why.
    pub fn work_transaction(&mut self) -> Result<Tx<'_>> {
        let tx = self.conn.transaction()?;
        if tx.backend() == Backend::Postgres {
            tx.execute("SELECT pg_advisory_xact_lock(?1)", params![WORK_LOCK])?;
        }
        Ok(tx)
    }

    /// Whether this judge fetches the mail (IMAP): on PostgreSQL, whether
    /// it holds, or has just taken, the advisory lock "zjfetch" on this
    /// connection. The lock is the session's: it goes when the connection
    /// closes, so when its judge dies, and another judge's next try takes
    /// it. On SQLite (one judge) always true.
    pub fn try_fetch_lock(&self) -> Result<bool> {
        if self.backend() == Backend::Sqlite {
            return Ok(true);
        }
        self.conn.query_row(
            "SELECT pg_try_advisory_lock(?1)",
            params![FETCH_LOCK],
            |r| r.get(0),
        )
    }

    /// Whether this judge still fetches the mail: on PostgreSQL, whether
    /// this connection's session holds the fetch lock, or can take it now.
    /// A session lock goes with its connection: after the connection was
    /// lost (a restart of the server) and made again, another judge may
    /// have taken the lock meanwhile, and this one must stop fetching. On
    /// SQLite always true.
    pub fn holds_fetch_lock(&self) -> Result<bool> {
        if self.backend() == Backend::Sqlite {
            return Ok(true);
        }
        self.conn.query_row(
            "SELECT CASE WHEN EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'
                     AND pid = pg_backend_pid() AND granted AND objsubid = 1
                     AND CAST(classid AS BIGINT) * 4294967296 + CAST(objid AS BIGINT) = ?1)
                 THEN true ELSE pg_try_advisory_lock(?1) END",
            params![FETCH_LOCK],
            |r| r.get(0),
        )
    }

    /// Give up this judge's claims on mail not yet processed or sent, so
    /// that the other judges take it at once rather than when the leases
    /// run out: for a judge stopping cleanly. Nothing on SQLite.
    pub fn release_claims(&self) -> Result<usize> {
        if self.backend() == Backend::Sqlite {
            return Ok(0);
        }
        let name = params![self.claimant.name];
        Ok(self.conn.execute(
            "UPDATE inbound SET claimed_by = NULL, lease_until = NULL
             WHERE claimed_by = ?1 AND state = 'new'",
            name,
        )? + self.conn.execute(
            "UPDATE outbox SET claimed_by = NULL, lease_until = NULL
             WHERE claimed_by = ?1 AND state IN ('queued', 'sending')",
            name,
        )?)
    }

    /// Claim as `claimant` from now on (the daemon's connections, named
    /// after the configuration). On PostgreSQL this connection holds the
    /// claimant's liveness lock from now on (taken again whenever the
    /// connection is made again): while any connection of a judge is
    /// open, its claims hold until their leases end; once none is (the
    /// judge died), the other judges take them over at once.
    pub fn set_claimant(&mut self, claimant: Claimant) -> Result<()> {
        if self.backend() == Backend::Postgres {
            if self.claimant_live {
                self.conn.execute(
                    "SELECT pg_advisory_unlock_shared(?1, hashtext(?2))",
                    params![LIVE_CLASS, self.claimant.name],
                )?;
                self.claimant_live = false;
            }
            self.conn.keep_session(
                "liveness",
                Some(format!(
                    "SELECT pg_advisory_lock_shared({LIVE_CLASS}, hashtext({}))",
                    sql_literal(&claimant.name)
                )),
            )?;
            self.claimant_live = true;
        }
        self.claimant = claimant;
        Ok(())
    }

    /// Who this connection claims work as.
    pub fn claimant(&self) -> &Claimant {
        &self.claimant
    }

    /// Take back the attempt [`Store::start_attempt`] counted for the mail
    /// `id`, whose processing ended without an outcome because the store
    /// failed: only a crash while a mail is processed counts against it
    /// (see [`StoreError::is_unavailable`]). When the store cannot take it
    /// back now, the next [`Store::start_attempt`] on this connection does,
    /// before it counts anything.
    pub fn forgive_attempt(&mut self, id: i64) {
        self.unforgiven.push(id);
        let _ = self.take_back_attempts();
    }

    fn take_back_attempts(&mut self) -> Result<()> {
        while let Some(&id) = self.unforgiven.last() {
            self.conn.execute(
                "UPDATE inbound SET attempts = attempts - 1
                 WHERE id = ?1 AND state = 'new' AND attempts > 0",
                params![id],
            )?;
            self.unforgiven.pop();
        }
        Ok(())
    }

    /// The first fault of the store ([`StoreError::is_unavailable`]) this
    /// connection met since its last transaction began, as text: how a
    /// piece of work that failed tells that the store failed it, whatever
    /// the work made of the error.
    pub fn fault(&self) -> Option<String> {
        self.conn.fault()
    }

    /// Count one more attempt at processing a mail, committed at once, and
    /// return the count. The commit waits for the operating system only,
    /// not the disk: the count guards against the process dying, and the
    /// processing's own commit that follows makes both durable.
    pub fn begin_attempt(&mut self, id: i64) -> Result<i64> {
        let sql = "UPDATE inbound SET attempts = attempts + 1 WHERE id = ?1 RETURNING attempts";
        match self.conn.as_sqlite() {
            Some(c) => {
                // As it was: FULL, or NORMAL inside a group commit.
                let was: i64 = c.query_row("PRAGMA synchronous", [], |r| r.get(0))?;
                c.pragma_update(None, "synchronous", "NORMAL")?;
                let n = self.conn.query_row(sql, params![id], |r| r.get(0));
                if let Some(c) = self.conn.as_sqlite() {
                    c.pragma_update(None, "synchronous", was)?;
                }
                n
            }
            None => {
                let tx = self.conn.transaction()?;
                tx.execute_batch("SET LOCAL synchronous_commit = off")?;
                let n = tx.query_row(sql, params![id], |r| r.get(0))?;
                tx.commit()?;
                Ok(n)
            }
        }
    }

    /// Run `f` with commits that wait for the operating system only, not
    /// the disk, then make all it committed durable with one write that
    /// waits for the disk (in WAL mode an fsync of the log covers every
    /// commit before it; so does PostgreSQL's flush of its log). A burst
    /// of deadlines commits each game in its own short transaction, as the
    /// processing of mail between them needs, without paying an fsync per
    /// game. Should the machine lose power before the last write, those
    /// games are simply at their old phase again and are adjudicated anew,
    /// from the same orders.
    pub fn group_commit<T>(&mut self, f: impl FnOnce(&mut Store) -> Result<T>) -> Result<T> {
        self.begin_group()?;
        let out = f(self);
        let end = self.end_group();
        let out = out?;
        end?;
        Ok(out)
    }

    /// From here, commits wait for the operating system only (see
    /// [`Store::group_commit`]); [`Store::end_group`] makes them durable.
    pub fn begin_group(&self) -> Result<()> {
        self.set_durable(false)
    }

    /// Commits wait for the disk again, and all those since
    /// [`Store::begin_group`] are made durable at once.
    pub fn end_group(&self) -> Result<()> {
        self.set_durable(true)?;
        // A write that changes a row, so that the commit writes the log
        // and waits for the disk.
        self.conn.execute(
            "INSERT INTO meta (key, value) VALUES ('group-commits', '1')
             ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(meta.value AS BIGINT) + 1 AS TEXT)",
            &[],
        )?;
        if self.relaxed.get() {
            self.set_durable(false)?;
        }
        Ok(())
    }

    /// Number of mails waiting.
    pub fn pending_count(&self) -> Result<i64> {
        self.conn.query_row(
            "SELECT count(*) FROM inbound WHERE state = 'new'",
            &[],
            |r| r.get(0),
        )
    }

    /// Start a transaction that writes (see [`Conn::transaction`]).
    pub fn transaction(&mut self) -> Result<Tx<'_>> {
        self.conn.transaction()
    }

    /// Start a transaction that only reads, on one snapshot (a web page).
    pub fn read_transaction(&mut self) -> Result<Tx<'_>> {
        self.conn.read_transaction()
    }

    /// Number of mails not yet sent.
    pub fn unsent_count(&self) -> Result<i64> {
        self.conn.query_row(
            "SELECT count(*) FROM outbox WHERE state IN ('queued', 'sending')",
            &[],
            |r| r.get(0),
        )
    }

    /// Mails due to be sent at `now`, oldest first.
    pub fn due_outbox(&self, now: i64, limit: i64) -> Result<Vec<OutMail>> {
        self.due(
            "SELECT id, message_id, recipients, raw, attempts, source_id, parts, kept_parts, packed FROM outbox
             WHERE state IN ('queued', 'sending') AND next_attempt_at <= ?1 ORDER BY id LIMIT ?2",
            now,
            limit,
        )
    }

    /// Mails due to be sent at `now` that have no pictures to draw (see
    /// [`OutMail::later`]), oldest first: what the outbox sends while
    /// deadline work is going on, so that drawing never takes the
    /// processor's time.
    pub fn due_outbox_without_pictures(&self, now: i64, limit: i64) -> Result<Vec<OutMail>> {
        self.due(
            "SELECT id, message_id, recipients, raw, attempts, source_id, parts, kept_parts, packed FROM outbox
             WHERE state IN ('queued', 'sending') AND next_attempt_at <= ?1 AND parts IS NULL
             ORDER BY id LIMIT ?2",
            now,
            limit,
        )
    }

    /// [`Store::due_outbox`] (or, with `pictures` false,
    /// [`Store::due_outbox_without_pictures`]), claimed for this judge to
    /// send. On SQLite, the only judge, the same as those. On PostgreSQL
    /// the rows no other judge holds a live claim on are locked (`FOR
    /// UPDATE SKIP LOCKED`) and marked with this judge's name and a lease;
    /// [`Store::mark_sending`] renews the claim just before the mail is
    /// handed over, and only the claimant marks it sent.
    pub fn claim_outbox(&self, now: i64, limit: i64, pictures: bool) -> Result<Vec<OutMail>> {
        if self.backend() == Backend::Sqlite {
            return if pictures {
                self.due_outbox(now, limit)
            } else {
                self.due_outbox_without_pictures(now, limit)
            };
        }
        let sql = format!(
            "UPDATE outbox SET claimed_by = ?3, lease_until = {PG_NOW} + ?4
             WHERE id IN (SELECT id FROM outbox
                 WHERE state IN ('queued', 'sending') AND next_attempt_at <= ?1 {pictures}
                 AND (claimed_by IS NULL OR claimed_by = ?3 OR lease_until <= {PG_NOW}
                     OR {HOLDER_GONE})
                 ORDER BY id LIMIT ?2 FOR UPDATE SKIP LOCKED)
             RETURNING id, message_id, recipients, raw, attempts, source_id, parts, kept_parts, packed",
            pictures = if pictures { "" } else { "AND parts IS NULL" },
        );
        let mut out = self.due_with(
            &sql,
            params![
                now,
                limit,
                self.claimant.name,
                self.claimant.lease_seconds()
            ],
        )?;
        out.sort_by_key(|m| m.id);
        Ok(out)
    }

    fn due(&self, sql: &str, now: i64, limit: i64) -> Result<Vec<OutMail>> {
        self.due_with(sql, params![now, limit])
    }

    fn due_with(&self, sql: &str, params: sql::Params<'_>) -> Result<Vec<OutMail>> {
        self.conn.query_map(sql, params, |r| {
            let rcpt: String = r.get(2)?;
            let id = r.get(0)?;
            Ok(OutMail {
                id,
                message_id: r.get(1)?,
                recipients: rcpt
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect(),
                raw: unpack(id, r.get(3)?, r.get(8)?)?,
                attempts: r.get(4)?,
                later: match (r.get::<Option<i64>>(5)?, r.get::<Option<String>>(6)?) {
                    (Some(source), Some(spec)) => Some(Later { source, spec }),
                    _ => None,
                },
                kept: r.get::<i64>(7)? > 0,
            })
        })
    }

    /// When the next queued mail falls due, if any. On PostgreSQL a mail
    /// another judge holds a live claim on falls due for this one when
    /// the claim's lease ends, not before (so that a judge does not take
    /// mail another is sending), but this judge looks again within
    /// [`TAKEOVER_POLL`] to see whether that judge is still alive: a
    /// judge that died leaves its claims to the others at once.
    pub fn next_outbox_due(&self) -> Result<Option<i64>> {
        if self.backend() == Backend::Sqlite {
            return self.conn.query_row(
                "SELECT min(next_attempt_at) FROM outbox WHERE state IN ('queued', 'sending')",
                &[],
                |r| r.get(0),
            );
        }
        self.conn.query_row(
            &format!(
                "SELECT min(CASE WHEN claimed_by IS NOT NULL AND claimed_by <> ?1
                     AND lease_until > {PG_NOW} AND NOT {HOLDER_GONE}
                     THEN least(greatest(next_attempt_at, lease_until), {PG_NOW} + ?2)
                     ELSE next_attempt_at END)
                 FROM outbox WHERE state IN ('queued', 'sending')"
            ),
            params![self.claimant.name, TAKEOVER_POLL.as_secs() as i64],
            |r| r.get(0),
        )
    }

    /// Note that a send is being tried (so a crash mid-send is visible).
    /// On PostgreSQL this also renews this judge's claim on the mail, and
    /// returns false, changing nothing, when the mail is no longer this
    /// judge's to send (its lease ran out and another judge claimed it):
    /// the caller then leaves it alone. A mail nobody claimed is anyone's.
    pub fn mark_sending(&self, id: i64) -> Result<bool> {
        if self.backend() == Backend::Sqlite {
            self.conn.execute(
                "UPDATE outbox SET state = 'sending', attempts = attempts + 1 WHERE id = ?1",
                params![id],
            )?;
            return Ok(true);
        }
        let n = self.conn.execute(
            &format!(
                "UPDATE outbox SET state = 'sending', attempts = attempts + 1,
                     claimed_by = ?2, lease_until = {PG_NOW} + ?3
                 WHERE id = ?1 AND state IN ('queued', 'sending')
                     AND (claimed_by IS NULL OR claimed_by = ?2)"
            ),
            params![id, self.claimant.name, self.claimant.lease_seconds()],
        )?;
        Ok(n > 0)
    }

    /// Run an outbox mark: `sql` as written on SQLite; on PostgreSQL with
    /// `CLAIM` made the claimant's condition (the mail is nobody's, or
    /// this judge's, whose name is the last parameter) and the claim
    /// released. Returns how many rows it changed.
    fn outbox_mark(&self, sql: &str, params: sql::Params<'_>) -> Result<usize> {
        match self.backend() {
            Backend::Sqlite => self.conn.execute(&sql.replace(" CLAIM", ""), params),
            Backend::Postgres => {
                let me = params.len() + 1;
                let sql = sql
                    .replace(
                        " CLAIM",
                        &format!(" AND (claimed_by IS NULL OR claimed_by = ?{me})"),
                    )
                    .replace(
                        " WHERE id",
                        ", claimed_by = NULL, lease_until = NULL WHERE id",
                    );
                let mut all: Vec<&dyn sql::ToValue> = params.to_vec();
                all.push(&self.claimant.name);
                self.conn.execute(&sql, &all)
            }
        }
    }

    /// The server took the mail. On PostgreSQL only the mail's claimant
    /// marks it: `false` (nothing changed) when another judge took the
    /// mail over meanwhile, which will send it again (a duplicate with
    /// the same Message-ID).
    pub fn mark_sent(&self, id: i64, now: i64) -> Result<bool> {
        let n = self.outbox_mark(
            "UPDATE outbox SET state = 'sent', sent_at = ?2, last_error = NULL WHERE id = ?1 CLAIM",
            params![id, now],
        )?;
        Ok(n > 0)
    }

    /// Try again at `next` (by whichever judge claims it then).
    pub fn mark_retry(&self, id: i64, error: &str, next: i64) -> Result<()> {
        self.outbox_mark(
            "UPDATE outbox SET state = 'queued', last_error = ?2, next_attempt_at = ?3
             WHERE id = ?1 CLAIM",
            params![id, error, next],
        )?;
        Ok(())
    }

    /// Give up on a mail (a permanent refusal).
    pub fn mark_failed(&self, id: i64, error: &str) -> Result<()> {
        self.outbox_mark(
            "UPDATE outbox SET state = 'failed', last_error = ?2 WHERE id = ?1 CLAIM",
            params![id, error],
        )?;
        Ok(())
    }

    /// A copy of the whole store in memory (SQLite's online backup), set
    /// up as [`Store::in_memory`] is: for the fuzz target, which builds a
    /// store of live games once and works on a fresh copy for each input.
    /// Only an SQLite store can be copied; a PostgreSQL one gives a
    /// [`StoreError::BadUrl`].
    pub fn copy_in_memory(&self) -> Result<Store> {
        let Some(c) = self.conn.as_sqlite() else {
            return Err(StoreError::BadUrl(
                "only an SQLite store can be copied into memory".into(),
            ));
        };
        let mut copy = rusqlite::Connection::open_in_memory()?;
        rusqlite::backup::Backup::new(c, &mut copy)?.run_to_completion(
            4096,
            Duration::from_millis(1),
            None,
        )?;
        Self::setup_sqlite(copy)
    }
}

/// Put the database in WAL mode (kept in the file once set). Two
/// connections switching a new database at once make one of them fail with
/// "database is locked" at once, SQLite's busy wait notwithstanding: that
/// one tries again.
fn set_wal(conn: &rusqlite::Connection) -> Result<()> {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        match conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get::<_, String>(0)) {
            Ok(_) => return Ok(()),
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DatabaseBusy
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// Keep a received mail, on `conn` or in a transaction (many mails in one
/// commit). Returns its row id, or `None` when a mail with this Message-ID
/// is already kept.
pub fn insert_inbound(
    conn: &Conn,
    message_id: &str,
    source: &str,
    raw: &[u8],
    size: i64,
    truncated: bool,
    now: i64,
) -> Result<Option<i64>> {
    let digest = digest(raw);
    const INSERT: &str =
        "INSERT INTO inbound (message_id, source, received_at, size, raw, truncated, digest)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING RETURNING id";
    if let Some(id) = conn.query_opt(
        INSERT,
        params![message_id, source, now, size, raw, truncated, digest],
        |r| r.get(0),
    )? {
        return Ok(Some(id));
    }
    // The Message-ID is known. The same bytes again (a source that fetched
    // the mail twice) are the same mail; other bytes are another mail that
    // reuses the id, kept under an id of its own so that it is answered.
    let known: Option<Option<String>> = conn.query_opt(
        "SELECT digest FROM inbound WHERE message_id = ?1",
        params![message_id],
        |r| r.get(0),
    )?;
    if known.flatten().as_deref().is_none_or(|d| d == digest) {
        return Ok(None);
    }
    let other = format!("{message_id}#{}", &digest[..16]);
    conn.query_opt(
        INSERT,
        params![other, source, now, size, raw, truncated, digest],
        |r| r.get(0),
    )
}

/// A digest of a mail's bytes (BLAKE2b, hex), telling two mails with one
/// Message-ID apart.
fn digest(raw: &[u8]) -> String {
    use blake2::{Blake2b512, Digest};
    let d = Blake2b512::digest(raw);
    d[..16].iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether the mail `id` is still to be processed, checked in the
/// transaction that processes it ([`Store::work_transaction`]), which on
/// PostgreSQL then holds the mail's row (`FOR UPDATE SKIP LOCKED`) until it
/// commits. `false`: another judge processed it (or is processing it) and
/// this judge leaves it alone. This check, made under the work lock, is
/// what makes a mail processed exactly once; claims only share the work.
pub fn take_inbound(tx: &Tx<'_>, id: i64) -> Result<bool> {
    let sql = match tx.backend() {
        Backend::Sqlite => "SELECT id FROM inbound WHERE id = ?1 AND state = 'new'",
        Backend::Postgres => {
            "SELECT id FROM inbound WHERE id = ?1 AND state = 'new' FOR UPDATE SKIP LOCKED"
        }
    };
    Ok(tx
        .query_opt(sql, params![id], |r| r.get::<i64>(0))?
        .is_some())
}

/// Mark a mail failed, in its transaction: kept with its cause, never
/// taken again.
pub(crate) fn fail_inbound(tx: &Tx<'_>, id: i64, note: &str, now: i64) -> Result<()> {
    tx.execute(
        "UPDATE inbound SET state = 'failed', processed_at = ?2, note = ?3 WHERE id = ?1",
        params![id, now, note],
    )?;
    Ok(())
}

/// Replace a mail's stored bytes by a copy with its secrets masked, in the
/// transaction that processes it.
pub fn redact_inbound(tx: &Tx<'_>, id: i64, raw: &[u8]) -> Result<()> {
    tx.execute(
        "UPDATE inbound SET raw = ?2, redacted = 1 WHERE id = ?1",
        params![id, raw],
    )?;
    Ok(())
}

/// Drop the bytes of mail processed before `before` (Unix seconds); its
/// Message-ID, digest and note stay, so a copy fetched again is still
/// known. Returns how many were dropped.
pub fn prune_inbound(conn: &Conn, before: i64) -> Result<usize> {
    let empty: &[u8] = b"";
    conn.execute(
        "UPDATE inbound SET raw = ?2 WHERE state IN ('done', 'failed')
         AND processed_at < ?1 AND length(raw) > 0",
        params![before, empty],
    )
}

/// Count an answer to `address` in a window of `window` seconds allowing
/// `max` answers.
pub fn note_answer(
    c: &Conn,
    address: &str,
    now: i64,
    window: i64,
    max: i64,
) -> Result<games::Rate> {
    let row: Option<(i64, i64, bool)> = c.query_opt(
        "SELECT day_start, count, warned FROM answered WHERE address = ?1",
        params![address],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let (start, count, warned) = match row {
        Some((s, n, w)) if now - s < window => (s, n + 1, w),
        _ => (now, 1, false),
    };
    let rate = if count <= max {
        games::Rate::Ok
    } else if !warned {
        games::Rate::Warn
    } else {
        games::Rate::Silent
    };
    c.execute(
        "INSERT INTO answered (address, day_start, count, warned) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(address) DO UPDATE SET day_start = ?2, count = ?3, warned = ?4",
        params![address, start, count, warned || rate == games::Rate::Warn],
    )?;
    Ok(rate)
}

/// Whether an answer saying nothing was found may go to `address`: not if
/// one went within `quiet` seconds. Notes that one goes.
pub fn idle_answer(c: &Conn, address: &str, now: i64, quiet: i64) -> Result<bool> {
    let last: Option<i64> = c.query_opt(
        "SELECT idle_at FROM answered WHERE address = ?1",
        params![address],
        |r| r.get(0),
    )?;
    if last.is_some_and(|t| t > 0 && now - t < quiet) {
        return Ok(false);
    }
    c.execute(
        "INSERT INTO answered (address, day_start, count, idle_at) VALUES (?1, ?2, 0, ?2)
         ON CONFLICT(address) DO UPDATE SET idle_at = ?2",
        params![address, now],
    )?;
    Ok(true)
}

/// Queue a mail in the transaction that processes its cause.
pub fn queue_outbox(
    tx: &Tx<'_>,
    inbound: Option<i64>,
    message_id: &str,
    recipients: &[String],
    raw: &[u8],
    now: i64,
) -> Result<()> {
    insert_outbox(tx, inbound, message_id, recipients, raw, None, 0, now)?;
    Ok(())
}

/// Queue a mail whose parts are drawn when it is sent: `raw` is the mail
/// without them, `later` what to draw and from which source (see
/// [`add_mail_source`]).
pub fn queue_outbox_later(
    tx: &Tx<'_>,
    inbound: Option<i64>,
    message_id: &str,
    recipients: &[String],
    raw: &[u8],
    later: &Later,
    now: i64,
) -> Result<()> {
    insert_outbox(
        tx,
        inbound,
        message_id,
        recipients,
        raw,
        Some(later),
        0,
        now,
    )?;
    Ok(())
}

/// A queued mail's text is kept deflated from this size on (every mail
/// the judge writes is longer): the texts of the mail a game sends, one
/// per reader, kept `keep-sent-days`, are most of what it adds to the
/// store.
const PACK_FROM: usize = 128;

/// What deflate starts from when it packs a mail's text (a preset
/// dictionary): the headers and the phrases of the judge's own mail, so
/// that even a short answer shrinks well (a game's texts to about a
/// quarter of their size; deflate alone, to a half). It never changes: a new one would be another number in the
/// `packed` column ([`PACKED_1`]), the old one kept to read the rows
/// packed with it.
const DICTIONARY_1: &[u8] = include_bytes!("pack-1.txt");

/// `packed` of a text deflated from [`DICTIONARY_1`] (0: kept as is).
const PACKED_1: i64 = 1;

/// `raw` as the outbox keeps it, and how it is packed.
fn pack(raw: &[u8]) -> (std::borrow::Cow<'_, [u8]>, i64) {
    use flate2::{Compress, Compression, FlushCompress, Status};
    if raw.len() < PACK_FROM {
        return (raw.into(), 0);
    }
    // A 4 KiB window holds the dictionary and the back references a mail
    // needs, and costs a tenth of the default's set-up (which, made afresh
    // for each mail, was most of the time packing took).
    let mut z = Compress::new_with_window_bits(Compression::default(), false, 12);
    if z.set_dictionary(DICTIONARY_1).is_err() {
        return (raw.into(), 0);
    }
    // Room for the whole text: a stream that does not end in it does not
    // pay, and the text is kept as it is.
    let mut out = Vec::with_capacity(raw.len());
    match z.compress_vec(raw, &mut out, FlushCompress::Finish) {
        Ok(Status::StreamEnd) => (out.into(), PACKED_1),
        _ => (raw.into(), 0),
    }
}

/// The text of the outbox row `id` as it was queued, from what is kept and
/// how it is packed ([`pack`]).
pub fn unpack(id: i64, kept: Vec<u8>, packed: i64) -> Result<Vec<u8>> {
    use flate2::{Decompress, FlushDecompress, Status};
    let unreadable = |why: String| StoreError::Unreadable {
        what: format!("the text of outbox mail {id}"),
        why,
    };
    match packed {
        0 => return Ok(kept),
        PACKED_1 => {}
        n => return Err(unreadable(format!("packed in an unknown way ({n})"))),
    }
    let mut z = Decompress::new(false);
    z.set_dictionary(DICTIONARY_1)
        .map_err(|e| unreadable(e.to_string()))?;
    let mut raw = Vec::with_capacity(kept.len() * 4 + 256);
    loop {
        let (read, wrote) = (z.total_in(), z.total_out());
        let rest = kept.get(read as usize..).unwrap_or_default();
        match z.decompress_vec(rest, &mut raw, FlushDecompress::Finish) {
            Ok(Status::StreamEnd) => return Ok(raw),
            Ok(_)
                if z.total_in() > read || z.total_out() > wrote || raw.len() == raw.capacity() =>
            {
                raw.reserve(raw.capacity().max(4096));
            }
            Ok(_) => return Err(unreadable("the deflated text ends early".into())),
            Err(e) => return Err(unreadable(e.to_string())),
        }
    }
}

/// Insert an outbox row (its text packed, see [`pack`]); its id.
#[allow(clippy::too_many_arguments)]
fn insert_outbox(
    tx: &Tx<'_>,
    inbound: Option<i64>,
    message_id: &str,
    recipients: &[String],
    raw: &[u8],
    later: Option<&Later>,
    kept_parts: usize,
    now: i64,
) -> Result<i64> {
    let (kept, packed) = pack(raw);
    tx.query_row(
        "INSERT INTO outbox (inbound_id, message_id, recipients, raw, next_attempt_at, created_at,
             source_id, parts, kept_parts, packed)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7, ?8, ?9) RETURNING id",
        params![
            inbound,
            message_id,
            recipients.join(","),
            &kept[..],
            now,
            later.map(|l| l.source),
            later.map(|l| l.spec.as_str()),
            kept_parts as i64,
            packed
        ],
        |r| r.get(0),
    )
}

/// Queue a mail whose attachments are kept apart from its text: `raw` is
/// the mail built without them but with room for them
/// ([`crate::mail::build_kept`]), `parts` the attachments, `later` what is
/// drawn at send time, if anything. Each part's bytes are kept once, by
/// their digest, however many mails carry them (a start's board goes to
/// every player): the store grows by a mail's text, not by a copy of its
/// pictures per reader. The outbox puts them back when it sends the mail
/// ([`kept_parts`]), and the bytes go once no mail uses them
/// ([`retention::prune_outbox`]).
#[allow(clippy::too_many_arguments)]
pub fn queue_outbox_parts(
    tx: &Tx<'_>,
    inbound: Option<i64>,
    message_id: &str,
    recipients: &[String],
    raw: &[u8],
    parts: &[crate::mail::Attached],
    later: Option<&Later>,
    now: i64,
) -> Result<()> {
    let id = insert_outbox(
        tx,
        inbound,
        message_id,
        recipients,
        raw,
        later,
        parts.len(),
        now,
    )?;
    for (seq, p) in parts.iter().enumerate() {
        let digest = digest(&p.bytes);
        let known = tx
            .query_opt(
                "SELECT 1 FROM mail_parts WHERE digest = ?1",
                params![digest],
                |r| r.get::<i64>(0),
            )?
            .is_some();
        if !known {
            tx.execute(
                "INSERT INTO mail_parts (digest, bytes, created_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT DO NOTHING",
                params![digest, p.bytes, now],
            )?;
        }
        tx.execute(
            "INSERT INTO outbox_parts (outbox_id, seq, name, mime, digest)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, seq as i64, p.name, p.mime, digest],
        )?;
    }
    Ok(())
}

/// The attachments kept apart for the queued mail `outbox_id`
/// ([`queue_outbox_parts`]), in order.
pub fn kept_parts(c: &Conn, outbox_id: i64) -> Result<Vec<crate::mail::Attached>> {
    c.query_map(
        "SELECT p.name, p.mime, m.bytes FROM outbox_parts p
         JOIN mail_parts m ON m.digest = p.digest
         WHERE p.outbox_id = ?1 ORDER BY p.seq",
        params![outbox_id],
        |r| {
            Ok(crate::mail::Attached {
                name: r.get(0)?,
                mime: r.get(1)?,
                bytes: r.get(2)?,
            })
        },
    )
}

/// Keep what the parts of some queued mails are drawn from (a played
/// phase, for the pictures of its results): `kind` names it, `data` is the
/// responder's. Returns its id, for [`Later::source`]. It is dropped once
/// no outbox row uses it ([`retention::prune_outbox`]).
pub fn add_mail_source(c: &Conn, kind: &str, data: &[u8], now: i64) -> Result<i64> {
    c.query_row(
        "INSERT INTO mail_sources (kind, data, created_at) VALUES (?1, ?2, ?3) RETURNING id",
        params![kind, data, now],
        |r| r.get(0),
    )
}

/// A source kept by [`add_mail_source`]: its kind and data.
pub fn mail_source(c: &Conn, id: i64) -> Result<Option<(String, Vec<u8>)>> {
    c.query_opt(
        "SELECT kind, data FROM mail_sources WHERE id = ?1",
        params![id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// Mark a mail processed, in its transaction.
pub fn finish_inbound(tx: &Tx<'_>, id: i64, note: &str, now: i64) -> Result<()> {
    tx.execute(
        "UPDATE inbound SET state = 'done', processed_at = ?2, note = ?3 WHERE id = ?1",
        params![id, now, note],
    )?;
    Ok(())
}

/// A value kept in the store's `meta` table.
pub fn meta(c: &Conn, key: &str) -> Result<Option<String>> {
    c.query_opt("SELECT value FROM meta WHERE key = ?1", params![key], |r| {
        r.get(0)
    })
}

/// Keep a value in the store's `meta` table.
pub fn set_meta(c: &Conn, key: &str, value: &str) -> Result<()> {
    c.execute(
        "INSERT INTO meta (key, value) VALUES (?1, ?2)
         ON CONFLICT(key) DO UPDATE SET value = ?2",
        params![key, value],
    )?;
    Ok(())
}

/// A per-store counter (for Message-IDs that never repeat).
pub fn next_serial(tx: &Tx<'_>) -> Result<i64> {
    tx.query_row(
        "INSERT INTO meta (key, value) VALUES ('serial', '1')
         ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(meta.value AS BIGINT) + 1 AS TEXT)
         RETURNING CAST(value AS BIGINT)",
        &[],
        |r| r.get(0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_liveness_test_tries_the_liveness_lock() {
        assert!(HOLDER_GONE.contains(&format!("({LIVE_CLASS}, hashtext(claimed_by))")));
        assert_eq!(sql_literal("o'neil"), "'o''neil'");
    }

    #[test]
    fn a_packed_text_comes_back_as_it_was_and_a_broken_one_is_an_error() {
        let reply = b"From: \"zinejudge\" <judge@example.org>\r\nSubject: Re: mail\r\n\r\n\
            ----- The judge's mail: nothing below this line is read -----\r\n\r\n> READY\r\n"
            .repeat(3);
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let noise: Vec<u8> = (0..5000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 32) as u8
            })
            .collect();
        for raw in [&b"short"[..], &reply, &noise, &[]] {
            let (kept, packed) = pack(raw);
            assert_eq!(unpack(7, kept.to_vec(), packed).unwrap(), raw);
        }
        let (kept, packed) = pack(&reply);
        assert_eq!(packed, PACKED_1);
        assert!(
            kept.len() * 4 < reply.len(),
            "{} of {}",
            kept.len(),
            reply.len()
        );
        assert_eq!(
            pack(&noise).1,
            0,
            "what deflate cannot shrink is kept as is"
        );
        let cut = kept[..kept.len() / 2].to_vec();
        let e = unpack(7, cut, packed).unwrap_err().to_string();
        assert!(e.contains("the text of outbox mail 7"), "{e}");
        assert!(unpack(7, b"x".to_vec(), 9).is_err());
    }

    #[test]
    fn a_plain_path_or_sqlite_url_is_an_sqlite_file() {
        assert_eq!(
            Location::parse("var/z.sqlite", None).unwrap(),
            Location::Sqlite("var/z.sqlite".into())
        );
        assert_eq!(
            Location::parse("sqlite:/srv/z.sqlite", None).unwrap(),
            Location::Sqlite("/srv/z.sqlite".into())
        );
        assert!(Location::parse("sqlite:", None).is_err());
    }

    #[test]
    fn a_password_in_the_postgres_url_is_refused_since_the_url_is_logged() {
        let e = Location::parse("postgres://judge:secret@db:5432/zj", None).unwrap_err();
        assert!(e.to_string().contains("password in the URL"), "{e}");
        assert!(!e.to_string().contains("secret"), "{e}");
    }

    #[test]
    fn the_postgres_password_comes_from_its_file_and_is_never_shown() {
        let file = std::env::temp_dir().join(format!("zj-pgpw-{}", std::process::id()));
        std::fs::write(&file, "s3cret\n").unwrap();
        let at = Location::parse("postgresql://judge@db:5432/zj", Some(&file)).unwrap();
        std::fs::remove_file(&file).unwrap();
        let Location::Postgres(pg) = &at else {
            panic!("not PostgreSQL: {at:?}");
        };
        assert_eq!(pg.password.as_deref(), Some("s3cret"));
        assert_eq!(at.display().to_string(), "postgresql://judge@db:5432/zj");
        assert!(!format!("{at:?}").contains("s3cret"));
        assert!(matches!(
            Location::parse("postgres://judge@db/zj", Some(Path::new("/nonexistent/pw"))),
            Err(StoreError::PasswordFile(..))
        ));
    }
}
