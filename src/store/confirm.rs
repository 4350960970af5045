//! The rows of confirmation: addresses that have confirmed they want the
//! judge's mail, and requests waiting for an address's answer, each with
//! its own code: a mail held whole until its From confirms it (in the
//! inbound table, state `held`), or a power a GM offered an address.
//!
//! The rules are trust's (`trust::confirm`); this keeps the rows.

use super::{Conn, Result, params};

/// How long a code, a held mail or an offer waits for its confirmation.
pub(crate) const WAIT: i64 = 7 * 86_400;

/// Whether `address` has ever confirmed (answered a code the judge sent
/// it alone, or had the judge's mail before confirmation existed): it has
/// shown it wants the judge's mail.
pub(crate) fn confirmed(c: &Conn, address: &str) -> Result<bool> {
    Ok(c.query_opt(
        "SELECT confirmed_at FROM addresses WHERE address = ?1",
        params![address],
        |r| r.get::<Option<i64>>(0),
    )?
    .flatten()
    .is_some())
}

/// Mark `address` as having confirmed at `now`.
pub fn set_confirmed(c: &Conn, address: &str, now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO addresses (address, confirmed_at) VALUES (?1, ?2)
         ON CONFLICT(address) DO UPDATE SET confirmed_at = coalesce(addresses.confirmed_at, ?2)",
        params![address, now],
    )?;
    Ok(())
}

/// A code as compared: letters and digits in lower case.
fn key(code: &str) -> String {
    code.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// What a request waits to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Waiting {
    /// A mail held whole (its inbound row).
    Mail(i64),
    /// A power of a game, offered by the GM at `by`.
    Offer {
        /// The game.
        game: String,
        /// The power's index.
        power: u8,
        /// The GM's address when the offer was made.
        by: String,
    },
}

/// A request waiting for its address's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Request {
    /// Its row.
    pub id: i64,
    /// The address asked.
    pub address: String,
    /// What it waits to do.
    pub waiting: Waiting,
}

/// The code and whether it was sent, of the offer of `power` of `game`
/// still waiting for `address`'s answer, if there is one.
pub(crate) fn offered(
    c: &Conn,
    game: &str,
    power: u8,
    address: &str,
) -> Result<Option<(String, bool)>> {
    c.query_opt(
        "SELECT code, asked_at FROM pending WHERE game = ?1 AND power = ?2 AND address = ?3
             AND confirmed_at IS NULL AND code IS NOT NULL",
        params![game, i64::from(power), address],
        |r| Ok((r.get(0)?, r.get::<Option<i64>>(1)?.is_some())),
    )
}

/// Note that the request with `code` went at `now`.
pub(crate) fn asked(c: &Conn, code: &str, now: i64) -> Result<()> {
    c.execute(
        "UPDATE pending SET asked_at = ?2 WHERE code_key = ?1",
        params![key(code), now],
    )?;
    Ok(())
}

/// Keep a request for `address`, with `code`, made at `now` and not sent
/// yet ([`asked`] says when it is). An offer of the same power to another
/// address gives way.
pub(crate) fn add(c: &Conn, address: &str, waiting: &Waiting, code: &str, now: i64) -> Result<()> {
    let (inbound, game, power, by) = match waiting {
        Waiting::Mail(id) => (Some(*id), None, None, None),
        Waiting::Offer { game, power, by } => (
            None,
            Some(game.as_str()),
            Some(i64::from(*power)),
            Some(by.as_str()),
        ),
    };
    if let Some((game, power)) = game.zip(power) {
        c.execute(
            "DELETE FROM pending WHERE game = ?1 AND power = ?2 AND confirmed_at IS NULL",
            params![game, power],
        )?;
    }
    c.execute(
        "INSERT INTO pending (address, inbound_id, game, power, asked_by, created_at, code,
             code_key, asked_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, NULL)",
        params![address, inbound, game, power, by, now, code, key(code)],
    )?;
    Ok(())
}

/// Hold the mail `inbound` (its request kept by [`add`]): it is kept
/// whole, not processed, until the request is answered.
pub(crate) fn hold(c: &Conn, inbound: i64, note: &str, now: i64) -> Result<()> {
    c.execute(
        "UPDATE inbound SET state = 'held', processed_at = ?2, note = ?3 WHERE id = ?1",
        params![inbound, now, note],
    )?;
    Ok(())
}

/// The requests still waiting for `address` (oldest first).
pub(crate) fn waiting(c: &Conn, address: &str) -> Result<Vec<Request>> {
    rows(
        c,
        "SELECT id, address, inbound_id, game, power, asked_by FROM pending
         WHERE address = ?1 AND confirmed_at IS NULL ORDER BY id",
        params![address],
    )
}

/// The requests whose code is `code` (written any case, with or without
/// its dashes), younger than [`WAIT`] at `now` and not answered yet.
pub(crate) fn by_code(c: &Conn, code: &str, now: i64) -> Result<Vec<Request>> {
    let k = key(code);
    if k.len() < 12 {
        return Ok(Vec::new());
    }
    rows(
        c,
        "SELECT id, address, inbound_id, game, power, asked_by FROM pending
         WHERE code_key = ?1 AND created_at > ?2 AND confirmed_at IS NULL ORDER BY id",
        params![k, now - WAIT],
    )
}

fn rows(c: &Conn, sql: &str, args: super::sql::Params<'_>) -> Result<Vec<Request>> {
    /// A row: id, address, a held mail's id, or an offer's game, power and GM.
    type Row = (
        i64,
        String,
        Option<i64>,
        Option<String>,
        Option<i64>,
        Option<String>,
    );
    let rows: Vec<Row> = c.query_map(sql, args, |r| {
        Ok((
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
            r.get(5)?,
        ))
    })?;
    Ok(rows
        .into_iter()
        .filter_map(|(id, address, inbound, game, power, by)| {
            let waiting = match (inbound, game, power) {
                (Some(m), _, _) => Waiting::Mail(m),
                (None, Some(game), Some(power)) => Waiting::Offer {
                    game,
                    power: u8::try_from(power).ok()?,
                    by: by.unwrap_or_default(),
                },
                _ => return None,
            };
            Some(Request {
                id,
                address,
                waiting,
            })
        })
        .collect())
}

/// Answer the request `r` at `now`: a held mail becomes new mail again
/// (read from scratch, attempts and claims forgotten), its row kept as the
/// proof that its From confirmed it ([`vouched`]); an offer's row goes.
pub(crate) fn answer(c: &Conn, r: &Request, now: i64) -> Result<()> {
    match r.waiting {
        Waiting::Mail(id) => {
            c.execute(
                "UPDATE inbound SET state = 'new', attempts = 0, claimed_by = NULL,
                     lease_until = NULL, processed_at = NULL, note = NULL
                 WHERE id = ?1 AND state = 'held'",
                params![id],
            )?;
            c.execute(
                "UPDATE pending SET confirmed_at = ?2 WHERE id = ?1",
                params![r.id, now],
            )?;
        }
        Waiting::Offer { .. } => {
            c.execute("DELETE FROM pending WHERE id = ?1", params![r.id])?;
        }
    }
    Ok(())
}

/// The address that confirmed the mail `inbound`, if it was held and its
/// request answered.
pub(crate) fn vouched(c: &Conn, inbound: i64) -> Result<Option<String>> {
    c.query_opt(
        "SELECT address FROM pending WHERE inbound_id = ?1 AND confirmed_at IS NOT NULL",
        params![inbound],
        |r| r.get(0),
    )
}

/// Forget the confirmation of the mail `inbound` once it is carried out.
pub(crate) fn spent(c: &Conn, inbound: i64) -> Result<()> {
    c.execute(
        "DELETE FROM pending WHERE inbound_id = ?1 AND confirmed_at IS NOT NULL",
        params![inbound],
    )?;
    Ok(())
}

/// Forget what waited longer than [`WAIT`] at `now`: held mails are
/// marked done (and lose their bytes, which may hold passwords), offers
/// and codes lapse. Returns how many held mails lapsed.
pub(crate) fn expire(c: &Conn, now: i64) -> Result<usize> {
    let old = now - WAIT;
    let empty: &[u8] = b"";
    let mails = c.execute(
        "UPDATE inbound SET state = 'done', raw = ?2,
             note = 'held for a confirmation that never came; dropped'
         WHERE state = 'held' AND processed_at < ?1",
        params![old, empty],
    )?;
    c.execute("DELETE FROM pending WHERE created_at < ?1", params![old])?;
    Ok(mails)
}

#[cfg(test)]
mod tests {
    #[test]
    fn codes_compare_without_case_or_dashes() {
        assert_eq!(super::key("AbCd-2345-xyz0-9876"), "abcd2345xyz09876");
    }
}
