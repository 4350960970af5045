//! The variant each game plays, kept (issue #52): a copy of every variant
//! file a game was bound to, by its fingerprint, and each game's binding.
//! A game plays its copy whatever later happens to the file in the
//! judge's variants folder (edited, broken, removed, or another file
//! giving the same name): what the judge does about such a change is
//! `commands::variants_kept`'s; this module only stores.

use super::Result;
use super::{Conn, params};

/// A game as its binding sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Bound {
    /// The game's name.
    pub game: String,
    /// The variant name in its row (`hundred`, or `hundred#<fingerprint>`
    /// once the folder's file is another).
    pub variant: String,
    /// Its status, as stored (`forming`, `active`, ...).
    pub status: String,
    /// Its GM's address.
    pub gm_address: String,
    /// The fingerprint of the copy it plays: `None` for a game not bound
    /// yet, empty for a shipped variant's.
    pub fingerprint: Option<String>,
    /// What its GM was last told of the folder's file: the fingerprint of
    /// the file the folder gives instead of the game's, `gone`, or empty
    /// (nothing: the folder gives the game's own).
    pub told: String,
}

/// Every game with its binding, by name.
pub(crate) fn games(c: &Conn) -> Result<Vec<Bound>> {
    c.query_map(
        "SELECT g.name, g.variant, g.status, g.gm_address, b.fingerprint, COALESCE(b.told, '')
         FROM games g LEFT JOIN game_variants b ON b.game = g.name
         ORDER BY g.name",
        &[],
        |r| {
            Ok(Bound {
                game: r.get(0)?,
                variant: r.get(1)?,
                status: r.get(2)?,
                gm_address: r.get(3)?,
                fingerprint: r.get(4)?,
                told: r.get(5)?,
            })
        },
    )
}

/// The games not bound yet (created since the last look), with their
/// variant names.
pub(crate) fn unbound(c: &Conn) -> Result<Vec<(String, String)>> {
    c.query_map(
        "SELECT name, variant FROM games g
         WHERE NOT EXISTS (SELECT 1 FROM game_variants b WHERE b.game = g.name)
         ORDER BY name",
        &[],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// The fingerprints of the copies games are bound to.
pub(crate) fn fingerprints(c: &Conn) -> Result<Vec<String>> {
    c.query_map(
        "SELECT DISTINCT fingerprint FROM game_variants WHERE fingerprint <> ''",
        &[],
        |r| r.get(0),
    )
}

/// Keep a copy of the variant file `toml`, named `name`, by its
/// `fingerprint` (nothing if it is kept already).
pub(crate) fn keep(c: &Conn, fingerprint: &str, name: &str, toml: &str, now: i64) -> Result<()> {
    c.execute(
        "INSERT INTO variant_copies (fingerprint, name, toml, kept_at)
         VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
        params![fingerprint, name, toml, now],
    )?;
    Ok(())
}

/// The copy kept by `fingerprint`: its variant's name and its text.
pub(crate) fn copy(c: &Conn, fingerprint: &str) -> Result<Option<(String, String)>> {
    c.query_opt(
        "SELECT name, toml FROM variant_copies WHERE fingerprint = ?1",
        params![fingerprint],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// Bind `game` to the copy `fingerprint` (empty: a shipped variant).
pub(crate) fn bind(c: &Conn, game: &str, fingerprint: &str) -> Result<()> {
    c.execute(
        "INSERT INTO game_variants (game, fingerprint) VALUES (?1, ?2)
         ON CONFLICT (game) DO UPDATE SET fingerprint = excluded.fingerprint",
        params![game, fingerprint],
    )?;
    Ok(())
}

/// What `game`'s GM was last told of the folder's file (see
/// [`Bound::told`]).
pub(crate) fn set_told(c: &Conn, game: &str, told: &str) -> Result<()> {
    c.execute(
        "UPDATE game_variants SET told = ?2 WHERE game = ?1",
        params![game, told],
    )?;
    Ok(())
}

/// The copy `game` is bound to: its fingerprint and text (`None`: not
/// bound, or bound to a shipped variant).
pub(crate) fn of_game(c: &Conn, game: &str) -> Result<Option<(String, String)>> {
    c.query_opt(
        "SELECT v.fingerprint, v.toml FROM game_variants b
         JOIN variant_copies v ON v.fingerprint = b.fingerprint
         WHERE b.game = ?1",
        params![game],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// The name `game`'s row gives its variant: `hundred` while the folder's
/// file is the one it plays, `hundred#<fingerprint>` when not.
pub(crate) fn set_variant(c: &Conn, game: &str, variant: &str) -> Result<()> {
    c.execute(
        "UPDATE games SET variant = ?2 WHERE name = ?1",
        params![game, variant],
    )?;
    Ok(())
}
