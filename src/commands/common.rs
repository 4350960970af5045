//! What many commands need of a game: loading it, its position, its
//! powers by name or letter, times shown in UTC too. It imports no
//! command.

use super::error::{CmdError, CmdResult};
use crate::game::Position;
use crate::map::PowerId;
use crate::store::Conn;
use crate::store::games::{self, GameRow};
use crate::variant::Variant;

/// Wrap the lines of a mail body longer than 72 characters, keeping
/// their indentation.
pub(crate) fn fit(body: &str) -> String {
    crate::report::fit72(body)
}

/// A mail to each of `to`, with `subject` and `body` (see
/// [`crate::mail::to_each`]).
pub(crate) use crate::mail::to_each as mail_to;

/// Sign `mails` as the judge signs every mail it sends: its name after
/// RFC 3676's separator (`-- `, with its space, which mail readers know a
/// signature by), at the end of each body that has no signature yet (a
/// notice's template signs its own, with the game's page).
pub(crate) fn sign(mails: &mut [crate::mail::Outgoing], judge: &str) {
    for m in mails {
        if !m.body.lines().any(|l| l == "-- ") {
            m.body = format!("{}\n\n-- \n{judge}\n", m.body.trim_end());
        }
    }
}

/// Load a game or say there is none.
pub(crate) fn load(c: &Conn, name: &str) -> CmdResult<GameRow> {
    games::load(c, name)?.ok_or_else(|| {
        CmdError::refused(format!(
            "there is no game called {} (LIST shows the games)",
            crate::mail::header_text(name, 40)
        ))
    })
}

/// A game's current position. A stored position that cannot be read is a
/// fault of the judge, not of the player.
pub(crate) fn position(v: &Variant, g: &GameRow) -> CmdResult<Position> {
    Position::from_toml(v, &g.position).map_err(|e| {
        CmdError::Fault(anyhow::anyhow!(
            "the stored position of {} is broken: {e}",
            g.name
        ))
    })
}

/// The stored form of `pos`, checked to read back as itself: a position the
/// judge could not read again would jam the game, so it is a fault (logged;
/// the game stays where it was) rather than stored.
pub(crate) fn stored(v: &Variant, pos: &Position) -> CmdResult<String> {
    pos.stored(v).map_err(|e| {
        CmdError::Fault(anyhow::anyhow!(
            "{} produced a position the judge cannot store: {e}",
            v.title
        ))
    })
}

/// Each power's letter, in power order, as njudge gives them (`SIGNON
/// Fgame`, `PRESS TO FRG`, `SET CONCEDE F`): the first letter of its name
/// (a leading "The" aside), or when another power has it already, the next
/// letter of the name that is free. `M` and `O` are never a power's: they
/// are the GM's and the observers' (`SIGNON Mgame`, `PRESS TO M`). The
/// standard powers get A E F G I R T; 1066's Harold Godwinson, whose H is
/// Harald Hardrada's, gets A.
pub(crate) fn power_letters(v: &Variant) -> Vec<char> {
    let mut taken: Vec<char> = Vec::new();
    for p in v.map.power_ids() {
        let name = &v.map.power(p).name;
        let bare = name
            .strip_prefix("The ")
            .or_else(|| name.strip_prefix("the "))
            .unwrap_or(name);
        let letter = bare
            .chars()
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.to_ascii_uppercase())
            .find(|c| !matches!(c, 'M' | 'O') && !taken.contains(c))
            .unwrap_or('?');
        taken.push(letter);
    }
    taken
}

/// A power by name, adjective, alias or letter ([`power_letters`]).
pub(crate) fn find_power(v: &Variant, name: &str) -> CmdResult<PowerId> {
    if let Some(p) = v.map.lookup_power(name) {
        return Ok(p);
    }
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        let c = c.to_ascii_uppercase();
        if let Some(i) = power_letters(v).iter().position(|l| *l == c) {
            return Ok(PowerId(i as u8));
        }
    }
    Err(CmdError::refused(format!(
        "no power `{}` in this game",
        crate::mail::header_text(name, 40)
    )))
}
