//! Keeping the store bounded: what is dropped, when, and what never is.
//!
//! Mail is kept only as long as it is useful to look into (weeks, set in
//! `[store]`); a game's own record (its history of positions, orders and
//! results, and its press) is kept for good in the game tables, which this
//! module never touches:
//! - the bytes of processed inbound mail go after `keep-mail-days`
//!   ([`super::prune_inbound`]); the row (Message-ID, digest, note) after
//!   [`KEEP_MAIL_IDS`], so that a copy fetched again within a year is still
//!   known;
//! - sent and refused outbox rows go `keep-sent-days` after they left (or
//!   were refused), and with them the sources their pictures were drawn
//!   from, and the attachments kept apart, once no row uses them;
//! - the mail counters (rate limits, loop guards, sign-on failures) go once
//!   their windows are long over, which is what they would forget anyway.
//!
//! Freed pages go back to the file system as they are freed (incremental
//! vacuum), the write-ahead log is cut back after each prune, and a full
//! `VACUUM` runs on a schedule ([`vacuum`]).

use super::Result;
use super::{Conn, params};

/// How long the row of a processed inbound mail (its Message-ID, digest
/// and note, the bytes long gone) is kept: a year.
pub const KEEP_MAIL_IDS: i64 = 365 * 86400;

/// Counters whose windows ended this long ago are dropped (the longest
/// window, a sign-on failure's, is a day).
const COUNTERS: i64 = 7 * 86400;

/// What one prune dropped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pruned {
    /// Outbox rows (sent or refused).
    pub outbox: usize,
    /// Picture sources no longer used.
    pub sources: usize,
    /// Attachments kept apart ([`super::queue_outbox_parts`]) that no
    /// mail uses any more.
    pub parts: usize,
    /// Inbound rows (their bytes were dropped long before).
    pub inbound: usize,
    /// Counter rows whose windows are over.
    pub counters: usize,
}

impl Pruned {
    /// Whether anything was dropped.
    pub fn any(&self) -> bool {
        *self != Pruned::default()
    }
}

/// Drop mail the judge has finished with: outbox rows sent or refused
/// before `sent_before` (Unix seconds), the sources no queued mail uses,
/// inbound rows processed before `now - KEEP_MAIL_IDS` that no outbox row
/// names, and counters whose windows are over. Mail still queued or being
/// sent is never dropped, however old.
pub fn prune_outbox(c: &Conn, sent_before: i64, now: i64) -> Result<Pruned> {
    let outbox = c.execute(
        "DELETE FROM outbox WHERE state IN ('sent', 'failed')
         AND coalesce(sent_at, created_at) < ?1",
        params![sent_before],
    )?;
    let sources = c.execute(
        "DELETE FROM mail_sources WHERE NOT EXISTS
         (SELECT 1 FROM outbox WHERE outbox.source_id = mail_sources.id)",
        &[],
    )?;
    // The rows naming a mail's parts went with it (ON DELETE CASCADE).
    let parts = c.execute(
        "DELETE FROM mail_parts WHERE NOT EXISTS
         (SELECT 1 FROM outbox_parts WHERE outbox_parts.digest = mail_parts.digest)",
        &[],
    )?;
    let inbound = c.execute(
        "DELETE FROM inbound WHERE state IN ('done', 'failed') AND processed_at < ?1
         AND NOT EXISTS (SELECT 1 FROM outbox WHERE outbox.inbound_id = inbound.id)",
        params![now - KEEP_MAIL_IDS],
    )?;
    let old = now - COUNTERS;
    let counters = c.execute("DELETE FROM senders WHERE window_start < ?1", params![old])?
        + c.execute(
            "DELETE FROM answered WHERE day_start < ?1 AND idle_at < ?1",
            params![old],
        )?
        + c.execute(
            "DELETE FROM signon_failures WHERE last_at < ?1 AND locked_until < ?2",
            params![old, now],
        )?
        + c.execute("DELETE FROM budgets WHERE start + span < ?1", params![now])?;
    Ok(Pruned {
        outbox,
        sources,
        parts,
        inbound,
        counters,
    })
}

/// Give freed pages back to the file system (a store made before
/// incremental vacuum was switched on has none to give until its first
/// [`vacuum`]) and cut the write-ahead log back. Cheap: run after each
/// prune. A checkpoint that readers hold up is left for the next time.
/// PostgreSQL's autovacuum does this there: nothing to do.
pub fn tidy(c: &Conn) -> Result<()> {
    if let Some(s) = c.as_sqlite() {
        s.execute_batch("PRAGMA incremental_vacuum;")?;
    }
    checkpoint(c)
}

/// Copy the write-ahead log into the database and truncate it, if no
/// reader holds it up (SQLite; PostgreSQL checkpoints on its own).
pub(crate) fn checkpoint(c: &Conn) -> Result<()> {
    if let Some(s) = c.as_sqlite() {
        // Busy (a reader) is an answer, not an error: (busy, log, copied).
        let _: (i64, i64, i64) = s.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })?;
    }
    Ok(())
}

/// Whether a full [`vacuum`] is due: SQLite's store is not yet in
/// incremental vacuum mode, or `last` (when the last one ran) is `every`
/// seconds ago or more. Never on PostgreSQL, whose autovacuum keeps it.
pub(crate) fn vacuum_due(c: &Conn, last: Option<i64>, now: i64, every: i64) -> Result<bool> {
    let Some(s) = c.as_sqlite() else {
        return Ok(false);
    };
    let incremental: i64 = s.query_row("PRAGMA auto_vacuum", [], |r| r.get(0))?;
    Ok(incremental != 2 || last.is_none_or(|l| now - l >= every))
}

/// Rewrite the whole database compactly (`VACUUM`), switching an older
/// store to incremental vacuum, then truncate the log. Other connections
/// wait for it (their busy timeout); on a store kept small by pruning it
/// takes well under a second. On PostgreSQL, a plain `VACUUM`.
pub fn vacuum(c: &Conn) -> Result<()> {
    match c.as_sqlite() {
        Some(s) => s.execute_batch("PRAGMA auto_vacuum = INCREMENTAL; VACUUM;")?,
        None => c.execute_batch("VACUUM")?,
    }
    checkpoint(c)
}

/// The store's size in bytes (SQLite: pages in use, free pages included;
/// PostgreSQL: the database's size) and the free pages' share of it
/// (0 on PostgreSQL).
pub fn size(c: &Conn) -> Result<(i64, i64)> {
    let Some(s) = c.as_sqlite() else {
        let total: i64 = c.query_row("SELECT pg_database_size(current_database())", &[], |r| {
            r.get(0)
        })?;
        return Ok((total, 0));
    };
    let page: i64 = s.query_row("PRAGMA page_size", [], |r| r.get(0))?;
    let count: i64 = s.query_row("PRAGMA page_count", [], |r| r.get(0))?;
    let free: i64 = s.query_row("PRAGMA freelist_count", [], |r| r.get(0))?;
    Ok((page * count, page * free))
}
