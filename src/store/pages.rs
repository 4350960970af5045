//! Reads for the web pages whose size does not grow with the game: a page
//! of a game's press or of its played phases, with each text cut to a
//! number of characters by the database, so that a game holding a hundred
//! broadcasts of 900 KB costs a page the few KB it shows, not the 90 MB it
//! keeps (read whole, eight such pages at once took a judge to 1.4 GB).
//! Read-only; the rows are the ones [`super::press`] and
//! [`super::games`] write.

use super::Result;
use super::games::HistoryRow;
use super::{Backend, Conn, params};

/// A text read to a number of characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cut {
    /// The text, at most the characters asked for.
    pub text: String,
    /// Whether the stored text is longer.
    pub cut: bool,
}

impl Cut {
    /// Read back the start of a text, as [`head`] asks for it: one
    /// character more than wanted says whether there was more. The bytes
    /// may end in the middle of a character, past the ones kept.
    fn new(bytes: Vec<u8>, chars: usize) -> Cut {
        let mut text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        let end = text.char_indices().nth(chars).map(|(i, _)| i);
        match end {
            Some(i) => {
                text.truncate(i);
                Cut { text, cut: true }
            }
            None => Cut { text, cut: false },
        }
    }
}

/// A broadcast, its text cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PressLine {
    /// Row id: later press has a larger one.
    pub id: i64,
    /// The phase it was sent in.
    pub phase: String,
    /// Who sent it; `None` for grey press.
    pub sender: Option<String>,
    /// The text, cut.
    pub body: Cut,
    /// When (Unix seconds).
    pub created_at: i64,
}

/// A played phase, without its texts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PhaseLine {
    /// Its place in the history.
    pub seq: i64,
    /// Its short name (`S1901M`).
    pub phase: String,
    /// When it was played (Unix seconds).
    pub created_at: i64,
}

/// A played phase's results, cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReportLine {
    /// The phase.
    pub line: PhaseLine,
    /// Its results as mailed to observers, cut.
    pub report: Cut,
}

/// The SQL for the start of a text `column`, enough for `chars`
/// characters and one more (to tell whether it was cut). SQLite's
/// `substr()` of a text stops at a NUL (and its `length()` too), so that
/// a stored NUL would hide the rest of a text: there the start is taken
/// as bytes, 4 a character at most in UTF-8. PostgreSQL's text holds no
/// NUL.
fn head(c: &Conn, column: &str, chars: usize) -> String {
    let n = chars.saturating_add(1);
    match c.backend() {
        Backend::Sqlite => format!("substr(CAST({column} AS BLOB), 1, {})", n.saturating_mul(4)),
        Backend::Postgres => format!("substr({column}, 1, {n})"),
    }
}

fn count(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// How many broadcasts a game has kept.
pub(crate) fn press_count(c: &Conn, game: &str) -> Result<usize> {
    let n: i64 = c.query_row(
        "SELECT COUNT(*) FROM broadcast_press WHERE game = ?1",
        params![game],
        |r| r.get(0),
    )?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// A game's broadcasts, newest first, `skip` of them passed over, at most
/// `take`, each text cut to `chars` characters.
pub(crate) fn press_page(
    c: &Conn,
    game: &str,
    skip: usize,
    take: usize,
    chars: usize,
) -> Result<Vec<PressLine>> {
    c.query_map(
        &format!(
            "SELECT id, phase, sender, {}, created_at FROM broadcast_press
             WHERE game = ?1 ORDER BY id DESC LIMIT ?2 OFFSET ?3",
            head(c, "body", chars)
        ),
        params![game, count(take), count(skip)],
        |r| {
            Ok(PressLine {
                id: r.get(0)?,
                phase: r.get(1)?,
                sender: r.get(2)?,
                body: Cut::new(r.get(3)?, chars),
                created_at: r.get(4)?,
            })
        },
    )
}

/// One broadcast of a game, its text cut to `chars` characters; `None`
/// if the game has no broadcast `id`.
pub(crate) fn press_one(c: &Conn, game: &str, id: i64, chars: usize) -> Result<Option<PressLine>> {
    c.query_opt(
        &format!(
            "SELECT id, phase, sender, {}, created_at FROM broadcast_press
             WHERE game = ?1 AND id = ?2",
            head(c, "body", chars)
        ),
        params![game, id],
        |r| {
            Ok(PressLine {
                id: r.get(0)?,
                phase: r.get(1)?,
                sender: r.get(2)?,
                body: Cut::new(r.get(3)?, chars),
                created_at: r.get(4)?,
            })
        },
    )
}

/// How many phases a game has played (GM edits are not phases).
pub(crate) fn phase_count(c: &Conn, game: &str) -> Result<usize> {
    let n: i64 = c.query_row(
        "SELECT COUNT(*) FROM history WHERE game = ?1 AND kind = 'phase'",
        params![game],
        |r| r.get(0),
    )?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// A game's played phases, newest first, `skip` passed over, at most
/// `take`.
pub(crate) fn phase_lines(
    c: &Conn,
    game: &str,
    skip: usize,
    take: usize,
) -> Result<Vec<PhaseLine>> {
    c.query_map(
        "SELECT seq, phase, created_at FROM history WHERE game = ?1 AND kind = 'phase'
         ORDER BY seq DESC LIMIT ?2 OFFSET ?3",
        params![game, count(take), count(skip)],
        |r| {
            Ok(PhaseLine {
                seq: r.get(0)?,
                phase: r.get(1)?,
                created_at: r.get(2)?,
            })
        },
    )
}

/// A game's latest `take` played phases with their results, newest first,
/// each cut to `chars` characters.
pub(crate) fn latest_reports(
    c: &Conn,
    game: &str,
    take: usize,
    chars: usize,
) -> Result<Vec<ReportLine>> {
    c.query_map(
        &format!(
            "SELECT seq, phase, created_at, {} FROM history WHERE game = ?1 AND kind = 'phase'
             ORDER BY seq DESC LIMIT ?2",
            head(c, "report", chars)
        ),
        params![game, count(take)],
        |r| {
            Ok(ReportLine {
                line: PhaseLine {
                    seq: r.get(0)?,
                    phase: r.get(1)?,
                    created_at: r.get(2)?,
                },
                report: Cut::new(r.get(3)?, chars),
            })
        },
    )
}

/// A played phase of a game by its short name (any case; the latest, if
/// a rollback played it twice), whole.
pub(crate) fn phase_entry(c: &Conn, game: &str, phase: &str) -> Result<Option<HistoryRow>> {
    c.query_opt(
        "SELECT seq, phase, kind, position, orders, report, created_at FROM history
         WHERE game = ?1 AND kind = 'phase' AND lower(phase) = lower(CAST(?2 AS TEXT))
         ORDER BY seq DESC LIMIT 1",
        params![game, phase],
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
        },
    )
}

/// The position the history entry after `seq` starts from (a phase or a
/// GM edit): where the phase at `seq` led. `None` after the last entry
/// (the game's current position is then the one).
pub(crate) fn position_after(c: &Conn, game: &str, seq: i64) -> Result<Option<String>> {
    c.query_opt(
        "SELECT position FROM history WHERE game = ?1 AND seq > ?2 ORDER BY seq LIMIT 1",
        params![game, seq],
        |r| r.get(0),
    )
}

/// The played phases just before and just after `seq`.
pub(crate) fn phase_neighbours(
    c: &Conn,
    game: &str,
    seq: i64,
) -> Result<(Option<PhaseLine>, Option<PhaseLine>)> {
    let line = |r: &super::Row<'_>| {
        Ok(PhaseLine {
            seq: r.get(0)?,
            phase: r.get(1)?,
            created_at: r.get(2)?,
        })
    };
    let before = c.query_opt(
        "SELECT seq, phase, created_at FROM history WHERE game = ?1 AND kind = 'phase' AND seq < ?2
         ORDER BY seq DESC LIMIT 1",
        params![game, seq],
        line,
    )?;
    let after = c.query_opt(
        "SELECT seq, phase, created_at FROM history WHERE game = ?1 AND kind = 'phase' AND seq > ?2
         ORDER BY seq LIMIT 1",
        params![game, seq],
        line,
    )?;
    Ok((before, after))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_text_keeps_whole_characters_and_says_it_was_cut() {
        assert_eq!(
            Cut::new("héllo".into(), 2),
            Cut {
                text: "hé".into(),
                cut: true
            }
        );
        assert_eq!(
            Cut::new("hé".into(), 2),
            Cut {
                text: "hé".into(),
                cut: false
            }
        );
        assert_eq!(
            Cut::new(Vec::new(), 0),
            Cut {
                text: String::new(),
                cut: false
            }
        );
        // Bytes that end in the middle of a character: there was more.
        assert_eq!(
            Cut::new(b"ab\xe2\x82".to_vec(), 2),
            Cut {
                text: "ab".into(),
                cut: true
            }
        );
    }
}
