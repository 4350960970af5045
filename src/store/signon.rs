//! Sign-on failures, counted per seat (a power, or -1 for the GM) across
//! mails and addresses: what locks a seat after repeated wrong passwords.

use super::{Conn, Result, params};

/// A seat's failure record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failures {
    /// Wrong passwords in a row.
    pub failures: i64,
    /// Sign-on is refused until then (Unix seconds; 0: not locked).
    pub locked_until: i64,
    /// When the last failure was.
    pub last_at: i64,
    /// When the seat's player was last told of a failure.
    pub notified_at: i64,
}

/// The failure record of `seat` in `game`, if it has one.
pub fn get(c: &Conn, game: &str, seat: i64) -> Result<Option<Failures>> {
    c.query_opt(
        "SELECT failures, locked_until, last_at, notified_at FROM signon_failures
         WHERE game = ?1 AND seat = ?2",
        params![game, seat],
        |r| {
            Ok(Failures {
                failures: r.get(0)?,
                locked_until: r.get(1)?,
                last_at: r.get(2)?,
                notified_at: r.get(3)?,
            })
        },
    )
}

/// Keep `f` as the failure record of `seat` in `game`.
pub fn set(c: &Conn, game: &str, seat: i64, f: Failures) -> Result<()> {
    c.execute(
        "INSERT INTO signon_failures (game, seat, failures, locked_until, last_at, notified_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT(game, seat) DO UPDATE SET failures = ?3, locked_until = ?4, last_at = ?5,
             notified_at = ?6",
        params![
            game,
            seat,
            f.failures,
            f.locked_until,
            f.last_at,
            f.notified_at
        ],
    )?;
    Ok(())
}

/// Forget the failures of `seat` in `game` (a right password).
pub fn clear(c: &Conn, game: &str, seat: i64) -> Result<()> {
    c.execute(
        "DELETE FROM signon_failures WHERE game = ?1 AND seat = ?2",
        params![game, seat],
    )?;
    Ok(())
}
