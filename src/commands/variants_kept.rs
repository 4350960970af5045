//! A game keeps the variant it started with (issue #52). A variant from
//! the judge's variants folder is a file a GM may edit, break, remove or
//! shadow with another file giving the same name, and a SIGHUP reads the
//! folder again; a game must not follow the file. So each game is bound
//! to a copy of the file it started with, kept in the store by its
//! fingerprint (`store::kept`), and plays that copy.
//!
//! A game's row names its variant as the players know it (`hundred`)
//! while the folder's file is the one it plays; when the folder gives
//! another (changed, gone, or another file's), the row takes the copy's
//! key (`hundred#<fingerprint>`, [`Variant::key`]), so that `hundred`
//! means the folder's file for new games and the key the copy for the
//! old one; the GM is told, and the log says so. Should the folder give
//! the same file again, the row takes the plain name back. A shipped
//! variant's game follows the judge's own file (bound with an empty
//! fingerprint).
//!
//! The judge settles the games against the folder before any mail's
//! commands run and, through a clock key of its own ([`SETTLE_KEY`]),
//! as soon as it starts without waiting for mail; nothing else runs
//! while the games are unsettled.

use super::judge::Judge;
use crate::mail::Outgoing;
use crate::store::Conn;
use crate::store::kept::{self, Bound};
use crate::variant::Variant;
use tracing::{error, info, warn};

/// The clock key under which the judge settles its games against the
/// variants folder (a game's name has no space or bracket, so it is no
/// game's).
pub(crate) const SETTLE_KEY: &str = "(variant files)";

use super::kept_copies::shipped;

/// The variant's name in a game's row: `hundred` of `hundred#1a2b...`.
fn plain(variant: &str) -> &str {
    variant.split_once('#').map_or(variant, |(n, _)| n)
}

/// Where a bound game stands against the folder: the name its row
/// should give its variant (the plain name while the folder's file is its
/// copy, else the copy's key), and what its GM should have been told of
/// the folder's file ([`Bound::told`]). `None`: not bound, or a shipped
/// variant's.
fn standing(judge: &Judge, g: &Bound) -> Option<(String, String)> {
    let fp = g.fingerprint.as_deref().filter(|f| !f.is_empty())?;
    let name = plain(&g.variant);
    Some(match judge.kept.folder.get(&name.to_ascii_lowercase()) {
        Some(f) if f == fp => (name.to_string(), String::new()),
        other => (
            format!("{}#{fp}", name.to_ascii_lowercase()),
            other.map_or_else(|| GONE.to_string(), Clone::clone),
        ),
    })
}

/// What a GM is told when no file of the folder gives the game's variant.
const GONE: &str = "gone";

/// Whether a game is unbound, named otherwise than its copy and the
/// folder say, or its GM not told of the folder's file: the clock then
/// settles the games first ([`SETTLE_KEY`]).
fn unsettled(judge: &Judge, c: &Conn) -> anyhow::Result<bool> {
    Ok(kept::games(c)?.iter().any(|g| match &g.fingerprint {
        None => judge.kept.can_bind(&g.variant),
        Some(_) => {
            standing(judge, g).is_some_and(|(name, told)| name != g.variant || told != g.told)
        }
    }))
}

/// Settle every game against the folder: bind those not bound, rename
/// those whose copy the folder no longer gives (or gives again), tell
/// their GMs, load every copy a game plays. Returns the GMs' notices.
pub(crate) fn settle(judge: &mut Judge, c: &Conn, now: i64) -> anyhow::Result<Vec<Outgoing>> {
    load_all(judge, c)?;
    let mut out = Vec::new();
    for mut g in kept::games(c)? {
        if g.fingerprint.is_none() {
            g.fingerprint = bind(judge, c, &g.game, &g.variant, now)?;
            if g.fingerprint.is_none() {
                if judge.kept.unbindable.insert(g.game.clone()) {
                    warn!(game = %g.game, variant = %g.variant,
                        "a game's variant is in no file of the folder and no copy of it is kept: it cannot be played");
                }
                continue;
            }
        }
        let Some((want, told)) = standing(judge, &g) else {
            continue;
        };
        load(judge, c, g.fingerprint.as_deref().unwrap_or_default())?;
        if want != g.variant {
            kept::set_variant(c, &g.game, &want)?;
        }
        if told == g.told {
            continue;
        }
        kept::set_told(c, &g.game, &told)?;
        let name = plain(&g.variant).to_string();
        if told.is_empty() {
            info!(game = %g.game, variant = %want, "the variants folder gives a game's variant as it plays it again");
            continue;
        }
        let gone = told == GONE;
        warn!(game = %g.game, variant = %name, kept = %want, gone,
            "the variants folder no longer gives a game's variant as it started; the game plays the copy kept");
        if g.status != "finished" {
            let ctx = serde_json::json!({
                "game": g.game, "judge": judge.name, "name": name, "kept": want, "gone": gone,
            });
            let (subject, body) = judge.templates.mail("notice-variant.txt", &ctx)?;
            out.extend(super::mail_to(&[&g.gm_address], subject, body));
        }
    }
    judge.kept.settled = true;
    Ok(out)
}

/// Bind the games created since the last look (a CREATE's) to the
/// variant they start with.
pub(crate) fn bind_new(judge: &mut Judge, c: &Conn, now: i64) -> anyhow::Result<()> {
    for (game, variant) in kept::unbound(c)? {
        bind(judge, c, &game, &variant, now)?;
    }
    Ok(())
}

/// Bind `game` to the variant its row names, keeping a copy of its file;
/// its fingerprint (empty for a shipped variant), or `None` when the
/// judge has no such variant to keep.
fn bind(
    judge: &mut Judge,
    c: &Conn,
    game: &str,
    variant: &str,
    now: i64,
) -> anyhow::Result<Option<String>> {
    if shipped(variant) {
        kept::bind(c, game, "")?;
        return Ok(Some(String::new()));
    }
    let Ok(v) = judge.variant(variant) else {
        return Ok(None);
    };
    let fp = v.fingerprint();
    kept::keep(c, &fp, &v.name, &v.source, now)?;
    kept::bind(c, game, &fp)?;
    Ok(Some(fp))
}

/// Read every copy a game is bound to that this judge has not read yet
/// (for a judge that only reads: the outbox's, drawing pictures).
pub(crate) fn load_all(judge: &mut Judge, c: &Conn) -> anyhow::Result<()> {
    for fp in kept::fingerprints(c)? {
        load(judge, c, &fp)?;
    }
    Ok(())
}

/// The clock's keys at a round: [`SETTLE_KEY`] first while the games are
/// not settled against the folder, then the games `due` names.
pub(crate) fn due(judge: &mut Judge, c: &Conn, due: Vec<String>) -> anyhow::Result<Vec<String>> {
    if judge.kept.settled {
        return Ok(due);
    }
    if !unsettled(judge, c)? {
        judge.kept.settled = true;
        return Ok(due);
    }
    Ok(std::iter::once(SETTLE_KEY.to_string()).chain(due).collect())
}

/// The clock's work for `key`: settling the games ([`SETTLE_KEY`]), or a
/// game's, `work`, with every copy a game plays at hand.
pub(crate) fn tick(
    judge: &mut Judge,
    c: &Conn,
    key: &str,
    now: i64,
    work: impl FnOnce(&mut Judge) -> anyhow::Result<Vec<Outgoing>>,
) -> anyhow::Result<Vec<Outgoing>> {
    if key == SETTLE_KEY {
        return settle(judge, c, now);
    }
    if !judge.kept.settled {
        load_all(judge, c)?;
    }
    work(judge)
}

/// Read the copy `fingerprint` from the store, once.
fn load(judge: &mut Judge, c: &Conn, fingerprint: &str) -> anyhow::Result<()> {
    if fingerprint.is_empty() || judge.kept.loaded.contains(fingerprint) {
        return Ok(());
    }
    judge.kept.loaded.insert(fingerprint.to_string());
    match kept::copy(c, fingerprint)? {
        Some((name, toml)) => match Variant::from_toml(&toml) {
            Ok(v) => {
                judge.kept.add_copy(v);
            }
            Err(e) => {
                error!(variant = %name, fingerprint, error = %e, "the copy of a variant kept for games no longer loads");
            }
        },
        None => error!(
            fingerprint,
            "the copy of a variant a game is bound to is missing"
        ),
    }
    Ok(())
}
