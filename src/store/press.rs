//! Broadcast press, kept for the game's web page and feed: only what was
//! sent to everybody, grey press without its sender.

use super::Result;
use super::{Conn, params};

/// A kept broadcast.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broadcast {
    /// Row id: later press has a larger one.
    pub id: i64,
    /// The phase it was sent in (`Spring 1901 movement`).
    pub phase: String,
    /// Who sent it (a power's name, or `the GM`); `None` for grey press.
    pub sender: Option<String>,
    /// The text, as mailed.
    pub body: String,
    /// When (Unix seconds).
    pub created_at: i64,
}

/// Keep a broadcast, in the transaction that sends it. `sender` is `None`
/// for grey press: who sent it is never stored here.
pub fn add(
    c: &Conn,
    game: &str,
    phase: &str,
    sender: Option<&str>,
    body: &str,
    now: i64,
) -> Result<i64> {
    c.query_row(
        "INSERT INTO broadcast_press (game, phase, sender, body, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
        params![game, phase, sender, body, now],
        |r| r.get(0),
    )
}

/// A game's broadcasts, newest first, at most `limit`.
pub fn list(c: &Conn, game: &str, limit: i64) -> Result<Vec<Broadcast>> {
    c.query_map(
        "SELECT id, phase, sender, body, created_at FROM broadcast_press
         WHERE game = ?1 ORDER BY id DESC LIMIT ?2",
        params![game, limit],
        |r| {
            Ok(Broadcast {
                id: r.get(0)?,
                phase: r.get(1)?,
                sender: r.get(2)?,
                body: r.get(3)?,
                created_at: r.get(4)?,
            })
        },
    )
}
