//! Orders sent ahead for a later phase (njudge's `PHASE season year
//! phase`): kept per game, power and phase until that phase comes, each
//! mail's lines a batch of their own, so that they are read when it comes
//! as the mails were sent, one after another.

use super::Result;
use super::{Conn, params};

/// One batch of orders for a later phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Batch {
    /// The power's index.
    pub power: u8,
    /// The phase, as the calendar's short name (`F1901R`).
    pub phase: String,
    /// The batch's number: later mails have higher ones.
    pub batch: i64,
    /// The orders, in the stored form of current orders.
    pub lines: Vec<String>,
}

/// Add a batch of `lines` for `power`'s `phase`; returns its number.
pub(crate) fn add(c: &Conn, game: &str, power: u8, phase: &str, lines: &[String]) -> Result<i64> {
    let next: i64 = c.query_row(
        "SELECT COALESCE(MAX(batch), 0) + 1 FROM later_orders
         WHERE game = ?1 AND power = ?2 AND phase = ?3",
        params![game, power as i64, phase],
        |r| r.get(0),
    )?;
    for (i, l) in lines.iter().enumerate() {
        c.execute(
            "INSERT INTO later_orders (game, power, phase, batch, seq, text)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![game, power as i64, phase, next, i as i64, l],
        )?;
    }
    Ok(next)
}

/// Every batch held in `game` (for `power` only, if given), by phase,
/// power and batch.
pub(crate) fn batches(c: &Conn, game: &str, power: Option<u8>) -> Result<Vec<Batch>> {
    let rows: Vec<(i64, String, i64, String)> = c.query_map(
        "SELECT power, phase, batch, text FROM later_orders
         WHERE game = ?1 AND (?2 < 0 OR power = ?2)
         ORDER BY power, phase, batch, seq",
        params![game, power.map_or(-1, i64::from)],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?;
    let mut out: Vec<Batch> = Vec::new();
    for (power, phase, batch, text) in rows {
        match out.last_mut() {
            Some(b) if i64::from(b.power) == power && b.phase == phase && b.batch == batch => {
                b.lines.push(text);
            }
            _ => out.push(Batch {
                power: power as u8,
                phase,
                batch,
                lines: vec![text],
            }),
        }
    }
    Ok(out)
}

/// Forget what `power` (every power, if `None`) holds for `phase`.
pub(crate) fn clear(c: &Conn, game: &str, power: Option<u8>, phase: &str) -> Result<()> {
    c.execute(
        "DELETE FROM later_orders WHERE game = ?1 AND (?2 < 0 OR power = ?2) AND phase = ?3",
        params![game, power.map_or(-1, i64::from), phase],
    )?;
    Ok(())
}
