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

pub mod games;
pub mod press;
pub mod retention;
pub mod roster;
pub mod schema;
pub mod signon;
pub mod sql;

pub use crate::__store_params as params;
pub use sql::{Backend, Conn, OptionalExt, Row, Tx};
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
    Pg(#[from] postgres::Error),
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
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
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
pub type Result<T> = std::result::Result<T, StoreError>;

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
            url.parse::<postgres::Config>()
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

    /// Connect to PostgreSQL (without TLS: the server is expected on the
    /// same host or a private network; see the README) and migrate.
    fn open_postgres(pg: &PgLocation) -> Result<Store> {
        let mut config: postgres::Config = pg
            .url
            .parse()
            .map_err(|e: postgres::Error| StoreError::BadUrl(e.to_string()))?;
        if let Some(p) = &pg.password {
            config.password(p);
        }
        config.connect_timeout(Duration::from_secs(30));
        config.application_name("zinejudge");
        let client = sql::off_runtime(|| config.connect(postgres::NoTls))?;
        let mut store = Store {
            conn: Conn::postgres(client),
            relaxed: std::cell::Cell::new(false),
        };
        schema::migrate(&mut store.conn)?;
        Ok(store)
    }

    /// A store in memory (SQLite), for tests.
    pub fn in_memory() -> Result<Store> {
        Self::setup_sqlite(rusqlite::Connection::open_in_memory()?)
    }

    fn setup_sqlite(conn: rusqlite::Connection) -> Result<Store> {
        conn.busy_timeout(Duration::from_secs(30))?;
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
            None => self.conn.execute_batch(if durable {
                "SET synchronous_commit = on"
            } else {
                "SET synchronous_commit = off"
            })?,
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
            "SELECT id, message_id, recipients, raw, attempts, source_id, parts FROM outbox
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
            "SELECT id, message_id, recipients, raw, attempts, source_id, parts FROM outbox
             WHERE state IN ('queued', 'sending') AND next_attempt_at <= ?1 AND parts IS NULL
             ORDER BY id LIMIT ?2",
            now,
            limit,
        )
    }

    fn due(&self, sql: &str, now: i64, limit: i64) -> Result<Vec<OutMail>> {
        self.conn.query_map(sql, params![now, limit], |r| {
            let rcpt: String = r.get(2)?;
            Ok(OutMail {
                id: r.get(0)?,
                message_id: r.get(1)?,
                recipients: rcpt
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect(),
                raw: r.get(3)?,
                attempts: r.get(4)?,
                later: match (r.get::<Option<i64>>(5)?, r.get::<Option<String>>(6)?) {
                    (Some(source), Some(spec)) => Some(Later { source, spec }),
                    _ => None,
                },
            })
        })
    }

    /// When the next queued mail falls due, if any.
    pub fn next_outbox_due(&self) -> Result<Option<i64>> {
        self.conn.query_row(
            "SELECT min(next_attempt_at) FROM outbox WHERE state IN ('queued', 'sending')",
            &[],
            |r| r.get(0),
        )
    }

    /// Note that a send is being tried (so a crash mid-send is visible).
    pub fn mark_sending(&self, id: i64) -> Result<()> {
        self.conn.execute(
            "UPDATE outbox SET state = 'sending', attempts = attempts + 1 WHERE id = ?1",
            params![id],
        )?;
        Ok(())
    }

    /// The server took the mail.
    pub fn mark_sent(&self, id: i64, now: i64) -> Result<()> {
        self.conn.execute(
            "UPDATE outbox SET state = 'sent', sent_at = ?2, last_error = NULL WHERE id = ?1",
            params![id, now],
        )?;
        Ok(())
    }

    /// Try again at `next`.
    pub fn mark_retry(&self, id: i64, error: &str, next: i64) -> Result<()> {
        self.conn.execute(
            "UPDATE outbox SET state = 'queued', last_error = ?2, next_attempt_at = ?3 WHERE id = ?1",
            params![id, error, next],
        )?;
        Ok(())
    }

    /// Give up on a mail (a permanent refusal).
    pub fn mark_failed(&self, id: i64, error: &str) -> Result<()> {
        self.conn.execute(
            "UPDATE outbox SET state = 'failed', last_error = ?2 WHERE id = ?1",
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

/// Mark a mail failed, in its transaction: kept with its cause, never
/// taken again.
pub fn fail_inbound(tx: &Tx<'_>, id: i64, note: &str, now: i64) -> Result<()> {
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
    tx.execute(
        "INSERT INTO outbox (inbound_id, message_id, recipients, raw, next_attempt_at, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5)",
        params![inbound, message_id, recipients.join(","), raw, now],
    )?;
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
    tx.execute(
        "INSERT INTO outbox (inbound_id, message_id, recipients, raw, next_attempt_at, created_at,
             source_id, parts)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5, ?6, ?7)",
        params![
            inbound,
            message_id,
            recipients.join(","),
            raw,
            now,
            later.source,
            later.spec
        ],
    )?;
    Ok(())
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
