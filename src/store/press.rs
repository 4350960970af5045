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
    /// Who sent it (a power's name, or `The GM`); `None` for grey press.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    #[test]
    fn broadcasts_come_back_newest_first_and_grey_ones_without_a_sender() {
        let mut s = Store::in_memory().unwrap();
        let c = s.conn();
        c.execute(
            "INSERT INTO games (name, variant, gm_address, gm_hash, status, settings, position, created_at)
             VALUES ('g1', 'standard', 'gm@x', 'h', 'active', '{}', '', 0)",
            &[],
        )
        .unwrap();
        add(
            c,
            "g1",
            "Spring 1901 movement",
            Some("England"),
            "Hello",
            10,
        )
        .unwrap();
        add(c, "G1", "Spring 1901 movement", None, "Somebody lies", 20).unwrap();
        let got = list(c, "g1", 10).unwrap();
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].body, "Somebody lies");
        assert_eq!(got[0].sender, None);
        assert_eq!(got[1].sender.as_deref(), Some("England"));
        assert_eq!(list(c, "g1", 1).unwrap().len(), 1);
        assert!(list(c, "other", 10).unwrap().is_empty());
    }
}
