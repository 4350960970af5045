//! njudge's diaries: a player's entries (`DIARY ... ENDPRESS`), numbered
//! per power and game (a number is never used again, so a deleted entry
//! leaves a hole, as on njudge), kept until the game ends.

use super::Result;
use super::{Conn, params};

/// One diary entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The power's index.
    pub power: u8,
    /// Its number, from 1.
    pub n: i64,
    /// When it was written.
    pub created_at: i64,
    /// Its text.
    pub text: String,
}

/// Keep `text` as `power`'s next entry in `game`; returns its number.
pub(crate) fn add(c: &Conn, game: &str, power: u8, text: &str, now: i64) -> Result<i64> {
    let n: i64 = c.query_row(
        "SELECT COALESCE(MAX(n), 0) + 1 FROM diaries WHERE game = ?1 AND power = ?2",
        params![game, power as i64],
        |r| r.get(0),
    )?;
    c.execute(
        "INSERT INTO diaries (game, power, n, created_at, text) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![game, power as i64, n, now, text],
    )?;
    Ok(n)
}

/// The entries of `game` not deleted (`power`'s only, if given), by power
/// and number.
pub(crate) fn entries(c: &Conn, game: &str, power: Option<u8>) -> Result<Vec<Entry>> {
    c.query_map(
        "SELECT power, n, created_at, text FROM diaries
         WHERE game = ?1 AND (?2 < 0 OR power = ?2) AND deleted = 0
         ORDER BY power, n",
        params![game, power.map_or(-1, i64::from)],
        |r| {
            Ok(Entry {
                power: r.get::<i64>(0)? as u8,
                n: r.get(1)?,
                created_at: r.get(2)?,
                text: r.get(3)?,
            })
        },
    )
}

/// Delete `power`'s entry `n`; returns whether there was one.
pub(crate) fn delete(c: &Conn, game: &str, power: u8, n: i64) -> Result<bool> {
    let changed = c.execute(
        "UPDATE diaries SET deleted = 1 WHERE game = ?1 AND power = ?2 AND n = ?3 AND deleted = 0",
        params![game, power as i64, n],
    )?;
    Ok(changed > 0)
}
