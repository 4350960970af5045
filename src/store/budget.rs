//! Outbound mail budgets: how much mail (count and bytes) has been spent
//! under a key (a person who caused mail, an address mail went to) in the
//! current window of a length. The rules are the daemon's
//! (`daemon::guard`); this keeps the counts, in the transaction of the
//! mail that spends them, so that they hold across restarts and across
//! judges sharing one store.

use super::{Conn, Result, params};

/// Mails and bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Spend {
    /// Mails.
    pub mails: i64,
    /// Bytes of text.
    pub bytes: i64,
}

/// Spend `add` under `key` in its window of `window` seconds at `now`, if
/// that keeps it within `max`; returns whether it did. A window that has
/// passed starts anew.
pub(crate) fn spend(
    c: &Conn,
    key: &str,
    window: i64,
    now: i64,
    max: Spend,
    add: Spend,
) -> Result<bool> {
    let row: Option<(i64, i64, i64)> = c.query_opt(
        "SELECT start, mails, bytes FROM budgets WHERE key = ?1 AND span = ?2",
        params![key, window],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )?;
    let (start, mails, bytes) = match row {
        Some((s, m, b)) if now - s < window => (s, m, b),
        _ => (now, 0, 0),
    };
    if mails + add.mails > max.mails || bytes + add.bytes > max.bytes {
        return Ok(false);
    }
    c.execute(
        "INSERT INTO budgets (key, span, start, mails, bytes) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT(key, span) DO UPDATE SET start = ?3, mails = ?4, bytes = ?5",
        params![key, window, start, mails + add.mails, bytes + add.bytes],
    )?;
    Ok(true)
}
