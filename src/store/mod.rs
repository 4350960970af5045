//! The durable store: SQLite in WAL mode (rusqlite), with versioned
//! migrations.
//!
//! The rules that keep mail safe through any crash live here:
//! - a received mail is written (raw bytes, Message-ID, time) before its
//!   source forgets it; the same Message-ID is stored once;
//! - a mail is processed in one transaction that also queues its answers,
//!   so after a crash it is either fully done or not started;
//! - an answer is marked sent only after the server took it.
//!
//! The store makes no rule decisions; it keeps what the daemon tells it.

pub mod games;
pub mod press;
pub mod retention;
pub mod roster;
pub mod schema;

use rusqlite::{Connection, OptionalExtension, Transaction, params};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A store failure.
///
/// Its `{:#}` form prints the causes after the message, as anyhow's does
/// ("cannot open the database var/z.sqlite: unable to open database file:
/// ..."): the daemon logs store failures with `{:#}`, and SQLite's own
/// words are the only clue to what went wrong. `{}` is the message alone,
/// for what a player may be told.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused.
    Sql(#[from] rusqlite::Error),
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
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Sql(_) => write!(f, "database error")?,
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
    conn: Connection,
}

impl Store {
    /// Open (creating and migrating as needed) the store at `path`.
    ///
    /// A new database is created mode 0600 whatever the umask (and a new
    /// directory for it 0700): it holds players' mail and password hashes.
    /// SQLite gives its `-wal` and `-shm` files the database's mode, so
    /// they are 0600 too. An existing database keeps the mode it has.
    pub fn open(path: &Path) -> Result<Store> {
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
        let conn = Connection::open(path)?;
        Self::setup(conn)
    }

    /// A store in memory, for tests.
    pub fn in_memory() -> Result<Store> {
        Self::setup(Connection::open_in_memory()?)
    }

    fn setup(conn: Connection) -> Result<Store> {
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
        let mut store = Store { conn };
        schema::migrate(&mut store.conn)?;
        Ok(store)
    }

    /// Commit without waiting for the disk on this connection (SQLite's
    /// `synchronous = NORMAL` in WAL mode). A commit still survives a crash
    /// of the process, but not a power cut. Only for the outbox's own
    /// marks (sending, sent): losing one means sending that mail again,
    /// never losing it, and waiting for the disk on each mark made the
    /// outbox the daemon's bottleneck and widened the window in which a
    /// crash makes a duplicate.
    pub fn relax_durability(&self) -> Result<()> {
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        Ok(())
    }

    /// Keep at most `kib` KiB of the database in this connection's page
    /// cache (SQLite's default is 2 MiB a connection). For the connections
    /// that only add mail and mark it sent: they touch the newest pages,
    /// and three full caches were most of the daemon's memory after a busy
    /// hour.
    pub fn limit_cache(&self, kib: i64) -> Result<()> {
        self.conn.pragma_update(None, "cache_size", -kib)?;
        Ok(())
    }

    /// The underlying connection, for the game tables.
    pub fn conn(&mut self) -> &mut Connection {
        &mut self.conn
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
        let mut st = self.conn.prepare_cached(
            "SELECT id, message_id, raw, size, truncated, received_at FROM inbound
             WHERE state = 'new' ORDER BY id LIMIT ?1",
        )?;
        let rows = st.query_map(params![limit as i64], |r| {
            Ok(PendingMail {
                id: r.get(0)?,
                message_id: r.get(1)?,
                raw: r.get(2)?,
                size: r.get(3)?,
                truncated: r.get(4)?,
                received_at: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// Count one more attempt at processing a mail, committed at once, and
    /// return the count. The commit waits for the operating system only,
    /// not the disk: the count guards against the process dying, and the
    /// processing's own commit that follows makes both durable.
    pub fn begin_attempt(&mut self, id: i64) -> Result<i64> {
        // As it was: FULL, or NORMAL inside a group commit.
        let was: i64 = self
            .conn
            .query_row("PRAGMA synchronous", [], |r| r.get(0))?;
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        let n = self.conn.query_row(
            "UPDATE inbound SET attempts = attempts + 1 WHERE id = ?1 RETURNING attempts",
            params![id],
            |r| r.get(0),
        );
        self.conn.pragma_update(None, "synchronous", was)?;
        Ok(n?)
    }

    /// Run `f` with commits that wait for the operating system only, not
    /// the disk, then make all it committed durable with one write that
    /// waits for the disk (in WAL mode an fsync of the log covers every
    /// commit before it). A burst of deadlines commits each game in its
    /// own short transaction, as the processing of mail between them
    /// needs, without paying an fsync per game. Should the machine lose
    /// power before the last write, those games are simply at their old
    /// phase again and are adjudicated anew, from the same orders.
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
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        Ok(())
    }

    /// Commits wait for the disk again, and all those since
    /// [`Store::begin_group`] are made durable at once.
    pub fn end_group(&self) -> Result<()> {
        self.conn.pragma_update(None, "synchronous", "FULL")?;
        // A write that changes a row, so that the commit writes the log
        // and waits for the disk.
        self.conn.execute(
            "INSERT INTO meta (key, value) VALUES ('group-commits', '1')
             ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
            [],
        )?;
        Ok(())
    }

    /// Number of mails waiting.
    pub fn pending_count(&self) -> Result<i64> {
        Ok(self.conn.query_row(
            "SELECT count(*) FROM inbound WHERE state = 'new'",
            [],
            |r| r.get(0),
        )?)
    }

    /// Start a transaction.
    ///
    /// It takes the write lock at once (`BEGIN IMMEDIATE`), waiting for
    /// other writers: a deferred transaction that reads first (the
    /// responder looking at games) and writes later fails at once with
    /// "database is locked" if another connection (the mail source, the
    /// outbox) wrote in between, and the mail was answered with an
    /// internal error.
    pub fn transaction(&mut self) -> Result<Transaction<'_>> {
        Ok(self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?)
    }

    /// Number of mails not yet sent.
    pub fn unsent_count(&self) -> Result<i64> {
        Ok(self.conn.query_row(
            "SELECT count(*) FROM outbox WHERE state IN ('queued', 'sending')",
            [],
            |r| r.get(0),
        )?)
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
        let mut st = self.conn.prepare_cached(sql)?;
        let rows = st.query_map(params![now, limit], |r| {
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
                later: match (r.get::<_, Option<i64>>(5)?, r.get::<_, Option<String>>(6)?) {
                    (Some(source), Some(spec)) => Some(Later { source, spec }),
                    _ => None,
                },
            })
        })?;
        Ok(rows.collect::<std::result::Result<_, _>>()?)
    }

    /// When the next queued mail falls due, if any.
    pub fn next_outbox_due(&self) -> Result<Option<i64>> {
        Ok(self.conn.query_row(
            "SELECT min(next_attempt_at) FROM outbox WHERE state IN ('queued', 'sending')",
            [],
            |r| r.get(0),
        )?)
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
    pub fn copy_in_memory(&self) -> Result<Store> {
        let mut copy = Connection::open_in_memory()?;
        rusqlite::backup::Backup::new(&self.conn, &mut copy)?.run_to_completion(
            4096,
            Duration::from_millis(1),
            None,
        )?;
        Self::setup(copy)
    }
}

/// Put the database in WAL mode (kept in the file once set). Two
/// connections switching a new database at once make one of them fail with
/// "database is locked" at once, SQLite's busy wait notwithstanding: that
/// one tries again.
fn set_wal(conn: &Connection) -> Result<()> {
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
    conn: &Connection,
    message_id: &str,
    source: &str,
    raw: &[u8],
    size: i64,
    truncated: bool,
    now: i64,
) -> Result<Option<i64>> {
    let digest = digest(raw);
    let mut insert = conn.prepare_cached(
        "INSERT OR IGNORE INTO inbound (message_id, source, received_at, size, raw, truncated, digest)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    if insert.execute(params![
        message_id, source, now, size, raw, truncated, digest
    ])? == 1
    {
        return Ok(Some(conn.last_insert_rowid()));
    }
    // The Message-ID is known. The same bytes again (a source that fetched
    // the mail twice) are the same mail; other bytes are another mail that
    // reuses the id, kept under an id of its own so that it is answered.
    let known: Option<Option<String>> = conn
        .query_row(
            "SELECT digest FROM inbound WHERE message_id = ?1",
            params![message_id],
            |r| r.get(0),
        )
        .optional()?;
    if known.flatten().as_deref().is_none_or(|d| d == digest) {
        return Ok(None);
    }
    let other = format!("{message_id}#{}", &digest[..16]);
    if insert.execute(params![other, source, now, size, raw, truncated, digest])? == 1 {
        return Ok(Some(conn.last_insert_rowid()));
    }
    Ok(None)
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
pub fn fail_inbound(tx: &Transaction<'_>, id: i64, note: &str, now: i64) -> Result<()> {
    tx.execute(
        "UPDATE inbound SET state = 'failed', processed_at = ?2, note = ?3 WHERE id = ?1",
        params![id, now, note],
    )?;
    Ok(())
}

/// Replace a mail's stored bytes by a copy with its secrets masked, in the
/// transaction that processes it.
pub fn redact_inbound(tx: &Transaction<'_>, id: i64, raw: &[u8]) -> Result<()> {
    tx.execute(
        "UPDATE inbound SET raw = ?2, redacted = 1 WHERE id = ?1",
        params![id, raw],
    )?;
    Ok(())
}

/// Drop the bytes of mail processed before `before` (Unix seconds); its
/// Message-ID, digest and note stay, so a copy fetched again is still
/// known. Returns how many were dropped.
pub fn prune_inbound(conn: &Connection, before: i64) -> Result<usize> {
    Ok(conn.execute(
        "UPDATE inbound SET raw = x'' WHERE state IN ('done', 'failed')
         AND processed_at < ?1 AND length(raw) > 0",
        params![before],
    )?)
}

/// Count an answer to `address` in a window of `window` seconds allowing
/// `max` answers.
pub fn note_answer(
    c: &Connection,
    address: &str,
    now: i64,
    window: i64,
    max: i64,
) -> Result<games::Rate> {
    let row: Option<(i64, i64, bool)> = c
        .query_row(
            "SELECT day_start, count, warned FROM answered WHERE address = ?1",
            params![address],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
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
pub fn idle_answer(c: &Connection, address: &str, now: i64, quiet: i64) -> Result<bool> {
    let last: Option<i64> = c
        .query_row(
            "SELECT idle_at FROM answered WHERE address = ?1",
            params![address],
            |r| r.get(0),
        )
        .optional()?;
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
    tx: &Transaction<'_>,
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
    tx: &Transaction<'_>,
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
pub fn add_mail_source(c: &Connection, kind: &str, data: &[u8], now: i64) -> Result<i64> {
    c.execute(
        "INSERT INTO mail_sources (kind, data, created_at) VALUES (?1, ?2, ?3)",
        params![kind, data, now],
    )?;
    Ok(c.last_insert_rowid())
}

/// A source kept by [`add_mail_source`]: its kind and data.
pub fn mail_source(c: &Connection, id: i64) -> Result<Option<(String, Vec<u8>)>> {
    Ok(c.query_row(
        "SELECT kind, data FROM mail_sources WHERE id = ?1",
        params![id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()?)
}

/// Mark a mail processed, in its transaction.
pub fn finish_inbound(tx: &Transaction<'_>, id: i64, note: &str, now: i64) -> Result<()> {
    tx.execute(
        "UPDATE inbound SET state = 'done', processed_at = ?2, note = ?3 WHERE id = ?1",
        params![id, now, note],
    )?;
    Ok(())
}

/// A value kept in the store's `meta` table.
pub fn meta(c: &Connection, key: &str) -> Result<Option<String>> {
    Ok(
        c.query_row("SELECT value FROM meta WHERE key = ?1", params![key], |r| {
            r.get(0)
        })
        .optional()?,
    )
}

/// Keep a value in the store's `meta` table.
pub fn set_meta(c: &Connection, key: &str, value: &str) -> Result<()> {
    c.execute(
        "INSERT INTO meta (key, value) VALUES (?1, ?2)
         ON CONFLICT(key) DO UPDATE SET value = ?2",
        params![key, value],
    )?;
    Ok(())
}

/// A per-store counter (for Message-IDs that never repeat).
pub fn next_serial(tx: &Transaction<'_>) -> Result<i64> {
    tx.execute(
        "INSERT INTO meta (key, value) VALUES ('serial', '1')
         ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
        [],
    )?;
    Ok(tx.query_row(
        "SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'serial'",
        [],
        |r| r.get(0),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn while_deadline_work_waits_only_mail_without_pictures_is_due() {
        let mut s = Store::in_memory().unwrap();
        let tx = s.transaction().unwrap();
        let source = add_mail_source(&tx, "phase", b"x", 1).unwrap();
        let later = Later {
            source,
            spec: "png".into(),
        };
        let to = ["p@x.test".to_string()];
        queue_outbox_later(&tx, None, "results@x", &to, b"results", &later, 1).unwrap();
        queue_outbox(&tx, None, "answer@x", &to, b"answer", 1).unwrap();
        tx.commit().unwrap();
        let ids = |v: Vec<OutMail>| v.into_iter().map(|m| m.message_id).collect::<Vec<_>>();
        assert_eq!(
            ids(s.due_outbox_without_pictures(5, 10).unwrap()),
            ["answer@x"]
        );
        assert_eq!(ids(s.due_outbox(5, 10).unwrap()), ["results@x", "answer@x"]);
    }

    #[test]
    fn connections_opening_a_new_store_at_once_all_succeed() {
        // The daemon starting while `deliver` stores a mail: each sees a
        // new database and migrates it.
        let dir = std::env::temp_dir().join(format!("zj-store-race-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for round in 0..20 {
            let path = dir.join(format!("s{round}.sqlite"));
            let start = std::sync::Barrier::new(4);
            std::thread::scope(|s| {
                let opened: Vec<_> = (0..4)
                    .map(|_| {
                        s.spawn(|| {
                            start.wait();
                            Store::open(&path).map(|_| ())
                        })
                    })
                    .collect();
                for o in opened {
                    o.join().unwrap().unwrap();
                }
            });
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_transaction_that_reads_first_is_not_refused_when_another_connection_writes() {
        let dir = std::env::temp_dir().join(format!("zj-store-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.sqlite");
        let mut a = Store::open(&path).unwrap();
        let mut b = Store::open(&path).unwrap();
        let (read, go) = std::sync::mpsc::channel();
        std::thread::scope(|s| {
            let t = s.spawn(move || {
                // The other connection writes while this one's transaction
                // has read but not yet written.
                go.recv().unwrap();
                b.insert_inbound("b@x", "test", b"b", 1, false, 0).unwrap();
            });
            let tx = a.transaction().unwrap();
            let n: i64 = tx
                .query_row("SELECT count(*) FROM inbound", [], |r| r.get(0))
                .unwrap();
            read.send(()).unwrap();
            std::thread::sleep(Duration::from_millis(100));
            insert_inbound(&tx, "a@x", "test", b"a", 1, false, 0).unwrap();
            tx.commit().unwrap();
            assert_eq!(n, 0);
            t.join().unwrap();
        });
        assert_eq!(a.pending_count().unwrap(), 2);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_message_id_is_kept_once() {
        let mut s = Store::in_memory().unwrap();
        assert!(
            s.insert_inbound("a@b", "test", b"x", 1, false, 0)
                .unwrap()
                .is_some()
        );
        assert!(
            s.insert_inbound("a@b", "test", b"x", 1, false, 0)
                .unwrap()
                .is_none()
        );
        assert_eq!(s.pending_count().unwrap(), 1);
    }

    #[test]
    fn processing_and_queueing_commit_together() {
        let mut s = Store::in_memory().unwrap();
        let id = s
            .insert_inbound("a@b", "test", b"x", 1, false, 0)
            .unwrap()
            .unwrap();
        {
            let tx = s.transaction().unwrap();
            queue_outbox(&tx, Some(id), "r@j", &["a@b".into()], b"reply", 5).unwrap();
            finish_inbound(&tx, id, "answered", 5).unwrap();
            // dropped without commit: rolled back
        }
        assert_eq!(s.pending_count().unwrap(), 1);
        assert_eq!(s.unsent_count().unwrap(), 0);
        let tx = s.transaction().unwrap();
        queue_outbox(&tx, Some(id), "r@j", &["a@b".into()], b"reply", 5).unwrap();
        finish_inbound(&tx, id, "answered", 5).unwrap();
        tx.commit().unwrap();
        assert_eq!(s.pending_count().unwrap(), 0);
        let due = s.due_outbox(5, 10).unwrap();
        assert_eq!(due.len(), 1);
        assert_eq!(due[0].recipients, ["a@b"]);
        s.mark_sending(due[0].id).unwrap();
        s.mark_sent(due[0].id, 6).unwrap();
        assert_eq!(s.unsent_count().unwrap(), 0);
    }
}
