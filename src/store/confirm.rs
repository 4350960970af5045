//! Addresses that confirmed they want the judge's mail, and what waits for
//! an address to confirm: mails that would register it (held whole, in
//! the inbound table, state `held`) and powers a GM offered it.
//!
//! Nobody is subscribed, registered or written to on someone else's word:
//! a mail's From can be forged, so the only proof that an address wants
//! the judge's mail is an answer from it to a code the judge sent only
//! there. The rules are the command language's (`commands::cmd::confirm`);
//! this keeps the rows.

use super::{Conn, Result, params};

/// How long a code, a held mail or an offer waits for its confirmation.
pub(crate) const WAIT: i64 = 7 * 86_400;

/// What the store knows of an address.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct AddressRow {
    /// When it confirmed (Unix seconds), if it did. Addresses that had
    /// the judge's mail before confirmation existed count as confirmed.
    pub confirmed_at: Option<i64>,
    /// The code waiting for its answer, as sent.
    pub code: Option<String>,
    /// When that code was made.
    pub code_at: i64,
    /// When a confirmation request last went to it (0: never).
    pub asked_at: i64,
}

/// A code as compared: letters and digits in lower case.
fn key(code: &str) -> String {
    code.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The row of `address`, if it has one.
pub(crate) fn get(c: &Conn, address: &str) -> Result<Option<AddressRow>> {
    c.query_opt(
        "SELECT confirmed_at, code, code_at, asked_at FROM addresses WHERE address = ?1",
        params![address],
        |r| {
            Ok(AddressRow {
                confirmed_at: r.get(0)?,
                code: r.get(1)?,
                code_at: r.get::<Option<i64>>(2)?.unwrap_or(0),
                asked_at: r.get::<Option<i64>>(3)?.unwrap_or(0),
            })
        },
    )
}

/// Whether `address` has confirmed.
pub(crate) fn confirmed(c: &Conn, address: &str) -> Result<bool> {
    Ok(get(c, address)?.is_some_and(|r| r.confirmed_at.is_some()))
}

/// Mark `address` confirmed at `now` (an address the judge may write to
/// without asking: one that answered a code, or that a migration found
/// already receiving the judge's mail).
pub fn set_confirmed(c: &Conn, address: &str, now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO addresses (address, confirmed_at) VALUES (?1, ?2)
         ON CONFLICT(address) DO UPDATE SET confirmed_at = ?2, code = NULL, code_key = NULL",
        params![address, now],
    )?;
    Ok(())
}

/// Keep `code` as the code waiting for `address`'s answer, made at `now`.
pub(crate) fn set_code(c: &Conn, address: &str, code: &str, now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO addresses (address, code, code_key, code_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(address) DO UPDATE SET code = ?2, code_key = ?3, code_at = ?4",
        params![address, code, key(code), now],
    )?;
    Ok(())
}

/// Note that a confirmation request went to `address` at `now`.
pub(crate) fn asked(c: &Conn, address: &str, now: i64) -> Result<()> {
    c.execute(
        "UPDATE addresses SET asked_at = ?2 WHERE address = ?1",
        params![address, now],
    )?;
    Ok(())
}

/// The address whose waiting code is `code` (written any case, with or
/// without its dashes), if one is and it is younger than [`WAIT`] at
/// `now`.
pub(crate) fn address_of_code(c: &Conn, code: &str, now: i64) -> Result<Option<String>> {
    let k = key(code);
    if k.len() < 12 {
        return Ok(None);
    }
    c.query_opt(
        "SELECT address FROM addresses WHERE code_key = ?1 AND code_at > ?2",
        params![k, now - WAIT],
        |r| r.get(0),
    )
}

/// Something waiting for an address's confirmation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Pending {
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

/// Hold the mail `inbound` until `address` confirms: it is kept whole,
/// not processed, and taken again as new mail when the address confirms.
pub(crate) fn hold(c: &Conn, address: &str, inbound: i64, note: &str, now: i64) -> Result<()> {
    c.execute(
        "UPDATE inbound SET state = 'held', processed_at = ?2, note = ?3 WHERE id = ?1",
        params![inbound, now, note],
    )?;
    c.execute(
        "INSERT INTO pending (address, inbound_id, created_at) VALUES (?1, ?2, ?3)",
        params![address, inbound, now],
    )?;
    Ok(())
}

/// Offer `power` of `game` to `address`, from the GM at `by`; an earlier
/// offer of the same power gives way.
pub(crate) fn offer(
    c: &Conn,
    address: &str,
    game: &str,
    power: u8,
    by: &str,
    now: i64,
) -> Result<()> {
    c.execute(
        "DELETE FROM pending WHERE game = ?1 AND power = ?2",
        params![game, i64::from(power)],
    )?;
    c.execute(
        "INSERT INTO pending (address, game, power, asked_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![address, game, i64::from(power), by, now],
    )?;
    Ok(())
}

/// What waits for `address`, oldest first.
pub(crate) fn pending(c: &Conn, address: &str) -> Result<Vec<Pending>> {
    /// A row: a held mail's id, or an offer's game, power and GM.
    type Row = (Option<i64>, Option<String>, Option<i64>, Option<String>);
    let rows: Vec<Row> = c.query_map(
        "SELECT inbound_id, game, power, asked_by FROM pending WHERE address = ?1 ORDER BY id",
        params![address],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
    )?;
    Ok(rows
        .into_iter()
        .filter_map(|(inbound, game, power, by)| match (inbound, game, power) {
            (Some(id), _, _) => Some(Pending::Mail(id)),
            (None, Some(game), Some(power)) => Some(Pending::Offer {
                game,
                power: u8::try_from(power).ok()?,
                by: by.unwrap_or_default(),
            }),
            _ => None,
        })
        .collect())
}

/// Take what waits for `address`: its held mails become new mail again
/// (to be processed from scratch, attempts and claims forgotten), and the
/// offers are returned for the caller to carry out.
pub(crate) fn release(c: &Conn, address: &str) -> Result<Vec<Pending>> {
    let all = pending(c, address)?;
    for p in &all {
        if let Pending::Mail(id) = p {
            c.execute(
                "UPDATE inbound SET state = 'new', attempts = 0, claimed_by = NULL,
                     lease_until = NULL, processed_at = NULL, note = NULL
                 WHERE id = ?1 AND state = 'held'",
                params![*id],
            )?;
        }
    }
    c.execute("DELETE FROM pending WHERE address = ?1", params![address])?;
    Ok(all)
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
    c.execute(
        "UPDATE addresses SET code = NULL, code_key = NULL WHERE code_at < ?1",
        params![old],
    )?;
    Ok(mails)
}

#[cfg(test)]
mod tests {
    #[test]
    fn codes_compare_without_case_or_dashes() {
        assert_eq!(super::key("AbCd-2345-xyz0-9876"), "abcd2345xyz09876");
    }
}
