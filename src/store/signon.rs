//! Sign-on failures, counted per seat (a power, or -1 for the GM) and per
//! source: the address a failed mail came from, or [`OTHERS`] for all the
//! addresses but the seat's own together. What throttles guessing without
//! locking the seat's player out (see `commands::auth`).

use super::{Conn, Result, params};

/// The source under which the failures of every address but the seat's
/// registered one are counted together: a guesser who changes address
/// each mail is throttled all the same.
pub const OTHERS: &str = "*";

/// The source under which the failures of the seat's player's own mail
/// are counted: they lock nothing, and are kept only to tell the player.
pub(crate) const PLAYER: &str = "";

/// A failure record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failures {
    /// Wrong passwords in a row.
    pub failures: i64,
    /// Sign-on from this source is refused until then (Unix seconds; 0:
    /// not locked).
    pub locked_until: i64,
    /// When the last failure was.
    pub last_at: i64,
    /// When the seat's player was last told of a failure from it.
    pub notified_at: i64,
}

/// The failure record of `seat` in `game` for `source`, if it has one.
pub fn get(c: &Conn, game: &str, seat: i64, source: &str) -> Result<Option<Failures>> {
    c.query_opt(
        "SELECT failures, locked_until, last_at, notified_at FROM signon_failures
         WHERE game = ?1 AND seat = ?2 AND source = ?3",
        params![game, seat, source],
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

/// When the seat's player was last told of a failure, from any source.
pub fn notified_at(c: &Conn, game: &str, seat: i64) -> Result<i64> {
    c.query_row(
        "SELECT coalesce(max(notified_at), 0) FROM signon_failures WHERE game = ?1 AND seat = ?2",
        params![game, seat],
        |r| r.get(0),
    )
}

/// Keep `f` as the failure record of `seat` in `game` for `source`.
pub fn set(c: &Conn, game: &str, seat: i64, source: &str, f: Failures) -> Result<()> {
    c.execute(
        "INSERT INTO signon_failures (game, seat, source, failures, locked_until, last_at,
             notified_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT(game, seat, source) DO UPDATE SET failures = ?4, locked_until = ?5,
             last_at = ?6, notified_at = ?7",
        params![
            game,
            seat,
            source,
            f.failures,
            f.locked_until,
            f.last_at,
            f.notified_at
        ],
    )?;
    Ok(())
}

/// Forget the failures of `seat` in `game` from `source` (a right
/// password from it).
pub fn clear(c: &Conn, game: &str, seat: i64, source: &str) -> Result<()> {
    c.execute(
        "DELETE FROM signon_failures WHERE game = ?1 AND seat = ?2 AND source = ?3",
        params![game, seat, source],
    )?;
    Ok(())
}
