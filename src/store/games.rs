//! Games in the store: rows in, rows out, inside the caller's transaction.

use super::Result;
use super::{Conn, OptionalExt, Row, StoreError, params};
use crate::game::record::{Seat, SeatStatus, Settings, Status};

/// A game row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    /// Name (unique, any case).
    pub name: String,
    /// Variant name.
    pub variant: String,
    /// The GM's address.
    pub gm_address: String,
    /// The GM's password hash.
    pub gm_hash: String,
    /// Status.
    pub status: Status,
    /// Settings.
    pub settings: Settings,
    /// Current position (TOML form).
    pub position: String,
    /// Deadline of the current phase (Unix seconds, UTC).
    pub deadline: Option<i64>,
    /// Reminders for this phase were sent.
    pub reminded: bool,
    /// The deadline passed and late powers were told (grace running).
    pub grace_noticed: bool,
    /// How it ended.
    pub result: Option<String>,
    /// Created (Unix seconds).
    pub created_at: i64,
}

fn row_to_game(r: &Row<'_>) -> Result<GameRow> {
    let name: String = r.get(0)?;
    let settings: String = r.get(5)?;
    let status: String = r.get(4)?;
    let unreadable = |what: &str, why: String| StoreError::Unreadable {
        what: format!("the {what} of game {name}"),
        why,
    };
    Ok(GameRow {
        status: Status::parse(&status)
            .ok_or_else(|| unreadable("status", format!("`{status}` is no status")))?,
        settings: serde_json::from_str(&settings)
            .map_err(|e| unreadable("settings", e.to_string()))?,
        name,
        variant: r.get(1)?,
        gm_address: r.get(2)?,
        gm_hash: r.get(3)?,
        position: r.get(6)?,
        deadline: r.get(7)?,
        reminded: r.get(8)?,
        grace_noticed: r.get(9)?,
        result: r.get(10)?,
        created_at: r.get(11)?,
    })
}

const GAME_COLUMNS: &str = "name, variant, gm_address, gm_hash, status, settings, position, deadline, reminded, grace_noticed, result, created_at";

/// Insert a new game with `powers` open seats. `false` if the name is taken.
pub fn create(c: &Conn, g: &GameRow, powers: usize) -> Result<bool> {
    let n = c.execute(
        &format!("INSERT INTO games ({GAME_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) ON CONFLICT DO NOTHING"),
        params![
            g.name,
            g.variant,
            g.gm_address,
            g.gm_hash,
            g.status.as_str(),
            settings_text(g)?,
            g.position,
            g.deadline,
            g.reminded,
            g.grace_noticed,
            g.result,
            g.created_at
        ],
    )?;
    if n == 0 {
        return Ok(false);
    }
    for p in 0..powers {
        c.execute(
            "INSERT INTO seats (game, power, status) VALUES (?1, ?2, 'open')",
            params![g.name, p as i64],
        )?;
    }
    Ok(true)
}

/// A game's settings as stored.
fn settings_text(g: &GameRow) -> Result<String> {
    serde_json::to_string(&g.settings).map_err(|e| StoreError::Unreadable {
        what: format!("the settings of game {}", g.name),
        why: e.to_string(),
    })
}

/// Load a game by name (any case).
pub fn load(c: &Conn, name: &str) -> Result<Option<GameRow>> {
    c.query_opt(
        &format!("SELECT {GAME_COLUMNS} FROM games WHERE name = ?1"),
        params![name],
        row_to_game,
    )
}

/// Save a game's row.
pub fn save(c: &Conn, g: &GameRow) -> Result<()> {
    c.execute(
        "UPDATE games SET variant = ?2, gm_address = ?3, gm_hash = ?4, status = ?5, settings = ?6, position = ?7,
         deadline_base = CASE WHEN deadline = ?8 THEN deadline_base ELSE NULL END,
         deadline = ?8, reminded = ?9, grace_noticed = ?10, result = ?11 WHERE name = ?1",
        params![
            g.name,
            g.variant,
            g.gm_address,
            g.gm_hash,
            g.status.as_str(),
            settings_text(g)?,
            g.position,
            g.deadline,
            g.reminded,
            g.grace_noticed,
            g.result
        ],
    )?;
    Ok(())
}

/// The deadline the current one was moved from by players' absences, if
/// absences moved it: absences are reckoned from it, and move it by the
/// GM's cap at most whatever their number. Any other change of the
/// deadline ([`save`] with another deadline) forgets it.
pub(crate) fn deadline_base(c: &Conn, game: &str) -> Result<Option<i64>> {
    Ok(c.query_opt(
        "SELECT deadline_base FROM games WHERE name = ?1",
        params![game],
        |r| r.get::<Option<i64>>(0),
    )?
    .flatten())
}

/// The [`deadline_base`] of a deadline the GM set by hand: absences never
/// move it.
pub(crate) const SET_BY_GM: i64 = -1;

/// Remember `base` as the deadline absences moved the current one from
/// (or [`SET_BY_GM`]).
pub(crate) fn set_deadline_base(c: &Conn, game: &str, base: i64) -> Result<()> {
    c.execute(
        "UPDATE games SET deadline_base = ?2 WHERE name = ?1",
        params![game, base],
    )?;
    Ok(())
}

/// All games, by name.
pub fn list(c: &Conn) -> Result<Vec<GameRow>> {
    c.query_map(
        &format!("SELECT {GAME_COLUMNS} FROM games ORDER BY name"),
        &[],
        row_to_game,
    )
}

/// Active games whose deadline is at or before `t`, earliest deadline
/// first; a game set aside after a fault only if that was before
/// `fault_before`.
pub fn with_deadline_before(c: &Conn, t: i64, fault_before: i64) -> Result<Vec<(String, i64)>> {
    c.query_map(
        "SELECT name, deadline FROM games WHERE status = 'active' AND deadline IS NOT NULL
         AND deadline <= ?1 AND (fault IS NULL OR fault_at < ?2)
         ORDER BY deadline, name",
        params![t, fault_before],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// Set a game aside with the cause of its fault, or (`None`) take it back.
pub fn set_fault(c: &Conn, game: &str, cause: Option<&str>, now: i64) -> Result<()> {
    c.execute(
        "UPDATE games SET fault = ?2, fault_at = ?3 WHERE name = ?1
         AND (fault IS NOT NULL OR CAST(?2 AS TEXT) IS NOT NULL)",
        params![game, cause, cause.map(|_| now)],
    )?;
    Ok(())
}

/// The cause a game was set aside for, if it was.
pub fn fault(c: &Conn, game: &str) -> Result<Option<String>> {
    Ok(c.query_opt(
        "SELECT fault FROM games WHERE name = ?1",
        params![game],
        |r| r.get(0),
    )?
    .flatten())
}

/// Seats of a game, by power.
pub fn seats(c: &Conn, game: &str) -> Result<Vec<Seat>> {
    c.query_map(
        "SELECT power, address, hash, status, ready, draw, concede, failures, picture, name,
         wait, prefs
         FROM seats WHERE game = ?1 ORDER BY power",
        params![game],
        |r| {
            let power = r.get::<i64>(0)? as u8;
            let status: String = r.get(3)?;
            let unreadable = |what: &str, why: String| StoreError::Unreadable {
                what: format!("the {what} of seat {power} of game {game}"),
                why,
            };
            let prefs: String = r.get(11)?;
            Ok(Seat {
                power,
                address: r.get(1)?,
                hash: r.get(2)?,
                status: SeatStatus::parse(&status)
                    .ok_or_else(|| unreadable("status", format!("`{status}` is no status")))?,
                wait: r.get(10)?,
                prefs: prefs
                    .split(',')
                    .filter(|p| !p.is_empty())
                    .map(|p| p.parse::<u8>())
                    .collect::<std::result::Result<_, _>>()
                    .map_err(|e| unreadable("preferences", format!("`{prefs}`: {e}")))?,
                ready: r.get(4)?,
                draw: r.get(5)?,
                concede: match r.get::<i64>(6)? {
                    0 => None,
                    n => Some((n - 1) as u8),
                },
                failures: r.get::<i64>(7)? as u32,
                picture: r.get(8)?,
                name: r.get(9)?,
            })
        },
    )
}

/// Save a seat.
pub fn save_seat(c: &Conn, game: &str, s: &Seat) -> Result<()> {
    c.execute(
        "UPDATE seats SET address = ?3, hash = ?4, status = ?5, ready = ?6, draw = ?7, concede = ?8,
         failures = ?9, picture = ?10, name = ?11, wait = ?12, prefs = ?13
         WHERE game = ?1 AND power = ?2",
        params![
            game,
            s.power as i64,
            s.address,
            s.hash,
            s.status.as_str(),
            s.ready,
            s.draw,
            s.concede.map_or(0, |p| p as i64 + 1),
            s.failures as i64,
            s.picture,
            s.name,
            s.wait,
            s.prefs
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(",")
        ],
    )?;
    Ok(())
}

/// Observers' addresses.
pub fn observers(c: &Conn, game: &str) -> Result<Vec<String>> {
    c.query_map(
        "SELECT address FROM observers WHERE game = ?1 ORDER BY address",
        params![game],
        |r| r.get(0),
    )
}

/// Add (`true`) or remove an observer.
pub fn set_observer(c: &Conn, game: &str, address: &str, on: bool) -> Result<()> {
    if on {
        c.execute(
            "INSERT INTO observers (game, address) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
            params![game, address],
        )?;
    } else {
        c.execute(
            "DELETE FROM observers WHERE game = ?1 AND address = ?2",
            params![game, address],
        )?;
    }
    Ok(())
}

/// The orders a power holds for the current phase, in order.
pub fn orders(c: &Conn, game: &str, power: u8) -> Result<Vec<String>> {
    c.query_map(
        "SELECT text FROM orders WHERE game = ?1 AND power = ?2 ORDER BY seq",
        params![game, power as i64],
        |r| r.get(0),
    )
}

/// Replace a power's orders.
pub fn set_orders(c: &Conn, game: &str, power: u8, lines: &[String]) -> Result<()> {
    c.execute(
        "DELETE FROM orders WHERE game = ?1 AND power = ?2",
        params![game, power as i64],
    )?;
    for (i, l) in lines.iter().enumerate() {
        c.execute(
            "INSERT INTO orders (game, power, seq, text) VALUES (?1, ?2, ?3, ?4)",
            params![game, power as i64, i as i64, l],
        )?;
    }
    Ok(())
}

/// Forget every order of the game (a new phase begins).
pub fn clear_orders(c: &Conn, game: &str) -> Result<()> {
    c.execute("DELETE FROM orders WHERE game = ?1", params![game])?;
    Ok(())
}

/// A played phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HistoryRow {
    /// Sequence number from 1.
    pub seq: i64,
    /// Phase label.
    pub phase: String,
    /// `phase` for played phases, `edit` for GM edits.
    pub kind: String,
    /// Position before the phase (TOML).
    pub position: String,
    /// Orders given (one per line, `Power: order`).
    pub orders: String,
    /// The results as mailed.
    pub report: String,
    /// When.
    pub created_at: i64,
}

/// A history entry to append.
#[derive(Debug, Clone, Copy)]
pub struct NewHistory<'a> {
    /// Phase (short form, `S1901M`).
    pub phase: &'a str,
    /// `phase` or `edit`.
    pub kind: &'a str,
    /// Position before (TOML).
    pub position: &'a str,
    /// Orders given.
    pub orders: &'a str,
    /// Results or what the edit did.
    pub report: &'a str,
}

/// Append to a game's history; returns the sequence number.
pub fn append_history(c: &Conn, game: &str, e: &NewHistory<'_>, now: i64) -> Result<i64> {
    let NewHistory {
        phase,
        kind,
        position,
        orders,
        report,
    } = *e;
    let seq: i64 = c.query_row(
        "SELECT coalesce(max(seq), 0) + 1 FROM history WHERE game = ?1",
        params![game],
        |r| r.get(0),
    )?;
    c.execute(
        "INSERT INTO history (game, seq, phase, kind, position, orders, report, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![game, seq, phase, kind, position, orders, report, now],
    )?;
    Ok(seq)
}

/// A game's history, oldest first.
pub fn history(c: &Conn, game: &str) -> Result<Vec<HistoryRow>> {
    c.query_map(
        "SELECT seq, phase, kind, position, orders, report, created_at FROM history WHERE game = ?1 ORDER BY seq",
        params![game],
        |r| {
        Ok(HistoryRow {
            seq: r.get(0)?,
            phase: r.get(1)?,
            kind: r.get(2)?,
            position: r.get(3)?,
            orders: r.get(4)?,
            report: r.get(5)?,
            created_at: r.get(6)?,
        })
    })
}

/// Drop history entries from `seq` on (a rollback).
pub fn truncate_history(c: &Conn, game: &str, seq: i64) -> Result<()> {
    c.execute(
        "DELETE FROM history WHERE game = ?1 AND seq >= ?2",
        params![game, seq],
    )?;
    Ok(())
}

/// What the rate limit says about one more mail from an address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rate {
    /// Within the limit.
    Ok,
    /// Just over: answer once with a warning.
    Warn,
    /// Over and already warned: stay silent.
    Silent,
}

/// Count a mail from `address` in a window of `window` seconds allowing
/// `max` mails.
pub fn note_sender(c: &Conn, address: &str, now: i64, window: i64, max: i64) -> Result<Rate> {
    let row: Option<(i64, i64, bool)> = c
        .query_row(
            "SELECT window_start, count, warned FROM senders WHERE address = ?1",
            params![address],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    let (start, count, warned) = match row {
        Some((s, n, w)) if now - s < window => (s, n + 1, w),
        _ => (now, 1, false),
    };
    let rate = if count <= max {
        Rate::Ok
    } else if !warned {
        Rate::Warn
    } else {
        Rate::Silent
    };
    c.execute(
        "INSERT INTO senders (address, window_start, count, warned) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(address) DO UPDATE SET window_start = ?2, count = ?3, warned = ?4",
        params![address, start, count, warned || rate == Rate::Warn],
    )?;
    Ok(rate)
}

/// A press message as archived with its game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PressRow {
    /// Sequence number from 1.
    pub seq: i64,
    /// The phase it was sent in (`S1901M`).
    pub phase: String,
    /// Who sent it (a power's name, or `GM`), even when it went grey.
    pub sender: String,
    /// To whom, as the players were told (`everybody`, `France, Italy`).
    pub recipients: String,
    /// Sent grey (the sender hidden from its readers).
    pub grey: bool,
    /// The text.
    pub text: String,
    /// When (Unix seconds).
    pub created_at: i64,
}

/// A press message to archive.
#[derive(Debug, Clone, Copy)]
pub struct NewPress<'a> {
    /// The phase it is sent in (`S1901M`).
    pub phase: &'a str,
    /// Who sends it (a power's name, or `the GM`).
    pub sender: &'a str,
    /// To whom, as the players are told.
    pub recipients: &'a str,
    /// Sent grey.
    pub grey: bool,
    /// The text.
    pub text: &'a str,
}

/// Archive a press message with its game, kept as long as the game: the
/// mails that carried it are pruned after weeks. Returns its sequence
/// number.
pub fn append_press(c: &Conn, game: &str, p: &NewPress<'_>, now: i64) -> Result<i64> {
    let seq: i64 = c.query_row(
        "SELECT coalesce(max(seq), 0) + 1 FROM press WHERE game = ?1",
        params![game],
        |r| r.get(0),
    )?;
    c.execute(
        "INSERT INTO press (game, seq, phase, sender, recipients, grey, text, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            game,
            seq,
            p.phase,
            p.sender,
            p.recipients,
            p.grey,
            p.text,
            now
        ],
    )?;
    Ok(seq)
}

/// The characters of press `game` has kept since `since`, and in all.
pub(crate) fn press_size(c: &Conn, game: &str, since: i64) -> Result<(i64, i64)> {
    c.query_row(
        "SELECT coalesce(sum(CASE WHEN created_at >= ?2 THEN length(text) ELSE 0 END), 0),
                coalesce(sum(length(text)), 0)
         FROM press WHERE game = ?1",
        params![game, since],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// A game's press, oldest first.
pub fn press(c: &Conn, game: &str) -> Result<Vec<PressRow>> {
    c.query_map(
        "SELECT seq, phase, sender, recipients, grey, text, created_at FROM press
         WHERE game = ?1 ORDER BY seq",
        params![game],
        |r| {
            Ok(PressRow {
                seq: r.get(0)?,
                phase: r.get(1)?,
                sender: r.get(2)?,
                recipients: r.get(3)?,
                grey: r.get(4)?,
                text: r.get(5)?,
                created_at: r.get(6)?,
            })
        },
    )
}
