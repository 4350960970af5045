//! Who played which power and when, and the absences players announce.
//!
//! A seat row says who plays a power now; these rows keep who played it
//! before (a replaced player stays on the record for the roster at the end
//! of the game), and the spans a player said they would be away.

use super::Result;
use super::{Conn, params};

/// One player's time at a power.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRow {
    /// The power's index.
    pub power: u8,
    /// The player's address.
    pub address: String,
    /// The display name the player chose, if any.
    pub name: Option<String>,
    /// When the player took the power (Unix seconds).
    pub from_at: i64,
    /// When the player left it, if they did.
    pub to_at: Option<i64>,
    /// How they left (`replaced`, `ejected`, `resigned`).
    pub how: Option<String>,
}

/// Record that `address` plays `power` from `now`, closing the record of
/// whoever played it before as replaced.
pub fn took(
    c: &Conn,
    game: &str,
    power: u8,
    address: &str,
    name: Option<&str>,
    now: i64,
) -> Result<()> {
    left(c, game, power, "replaced", now)?;
    c.execute(
        "INSERT INTO players (game, power, address, name, from_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![game, power as i64, address, name, now],
    )?;
    Ok(())
}

/// Forget who held which seat while `game` was forming: at the start the
/// powers are given anew (by preference), and the record begins there.
/// Announced absences move with their players' seats: `moves` maps each
/// old seat to the new one.
pub(crate) fn restart(c: &Conn, game: &str, moves: &[(u8, u8)]) -> Result<()> {
    c.execute("DELETE FROM players WHERE game = ?1", params![game])?;
    // Two steps, so that seats trading places do not meet on the way.
    for (from, _) in moves {
        c.execute(
            "UPDATE absences SET power = ?3 WHERE game = ?1 AND power = ?2",
            params![game, *from as i64, 1000 + *from as i64],
        )?;
    }
    for (from, to) in moves {
        c.execute(
            "UPDATE absences SET power = ?3 WHERE game = ?1 AND power = ?2",
            params![game, 1000 + *from as i64, *to as i64],
        )?;
    }
    Ok(())
}

/// Record that the player of `power` left it (`how`), if one played it.
pub fn left(c: &Conn, game: &str, power: u8, how: &str, now: i64) -> Result<()> {
    c.execute(
        "UPDATE players SET to_at = ?3, how = ?4
         WHERE game = ?1 AND power = ?2 AND to_at IS NULL",
        params![game, power as i64, now, how],
    )?;
    Ok(())
}

/// Set the display name on the current record of `power`.
pub fn named(c: &Conn, game: &str, power: u8, name: Option<&str>) -> Result<()> {
    c.execute(
        "UPDATE players SET name = ?3 WHERE game = ?1 AND power = ?2 AND to_at IS NULL",
        params![game, power as i64, name],
    )?;
    Ok(())
}

/// Everybody who played in `game`, by power, then in the order they came.
pub fn players(c: &Conn, game: &str) -> Result<Vec<PlayerRow>> {
    c.query_map(
        "SELECT power, address, name, from_at, to_at, how FROM players
         WHERE game = ?1 ORDER BY power, id",
        params![game],
        |r| {
            Ok(PlayerRow {
                power: r.get::<i64>(0)? as u8,
                address: r.get(1)?,
                name: r.get(2)?,
                from_at: r.get(3)?,
                to_at: r.get(4)?,
                how: r.get(5)?,
            })
        },
    )
}

/// An announced absence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Absence {
    /// The power whose player is away.
    pub power: u8,
    /// From (Unix seconds).
    pub from_at: i64,
    /// To (Unix seconds).
    pub to_at: i64,
}

/// Record an absence.
pub fn add_absence(c: &Conn, game: &str, a: Absence, now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO absences (game, power, from_at, to_at, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![game, a.power as i64, a.from_at, a.to_at, now],
    )?;
    Ok(())
}

/// Forget one absence of `power` (njudge's `SET NOABSENCE`).
pub(crate) fn remove_absence(c: &Conn, game: &str, a: Absence) -> Result<()> {
    c.execute(
        "DELETE FROM absences WHERE game = ?1 AND power = ?2 AND from_at = ?3 AND to_at = ?4",
        params![game, a.power as i64, a.from_at, a.to_at],
    )?;
    Ok(())
}

/// Absences in `game` that have not ended by `now`, earliest first.
pub fn absences(c: &Conn, game: &str, now: i64) -> Result<Vec<Absence>> {
    c.query_map(
        "SELECT power, from_at, to_at FROM absences WHERE game = ?1 AND to_at > ?2
         ORDER BY from_at, power",
        params![game, now],
        |r| {
            Ok(Absence {
                power: r.get::<i64>(0)? as u8,
                from_at: r.get(1)?,
                to_at: r.get(2)?,
            })
        },
    )
}
