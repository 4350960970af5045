//! Commands of njudge and DPjudge that this judge does not take, each
//! refused by name with what this judge has instead, so that a player who
//! writes one is told, rather than finding it passed over or read as an
//! order. A line is one of them only in the command's own form (its words,
//! and the number of words it takes): chat that merely starts with such a
//! word is read as chat.
//!
//! Commands this judge does take in another judge's form are not here:
//! they are commands of the table ([`super::registry`]) under those names.

/// The answer to `line` if it is another judge's command this judge does
/// not take ("Not done: ..."), else `None`.
pub(crate) fn answer(line: &str) -> Option<&'static str> {
    let words: Vec<String> = line
        .split_whitespace()
        .map(|w| w.trim_end_matches([':', '.', ',']).to_ascii_uppercase())
        .collect();
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    Some(match w.as_slice() {
        ["REGISTER"] => {
            "njudge's REGISTER: this judge keeps no register of players; JOIN, OBSERVE or \
             CREATE registers the address you write from (the judge asks it to confirm, unless its mail server vouches for it)"
        }
        ["IAMALSO", _] | ["I", "AM", "ALSO", _] => {
            "njudge's I AM ALSO: this judge keeps no register of players; to move a seat to a \
             new address, sign on from it and SET ADDRESS"
        }
        ["WHOIS", ..] if w.len() >= 2 => {
            "njudge's WHOIS: this judge keeps no register of players; WHO game shows a game's \
             players"
        }
        ["INFO", "PLAYER", _] | ["INFOPLAYER", _] => {
            "njudge's INFO PLAYER: this judge keeps no ratings; WHO game shows a game's \
             players and who played before"
        }
        ["PROMOTE", _] => {
            "njudge's PROMOTE: a game here has one GM; the GM hands it over by giving the GM's \
             password to the new GM, who writes TAKEOVER master@game password"
        }
        ["UNSTART"] => {
            "njudge's UNSTART: a game here does not go back to forming; ROLLBACK goes back to \
             the start of a phase played"
        }
        ["ROLLFORWARD", ..] => {
            "DPjudge's ROLLFORWARD: this judge does not undo a ROLLBACK; the phases are played \
             again"
        }
        ["PURGE", _, _] => {
            "DPjudge's PURGE: this judge keeps every game it made; END DRAW or END WIN ends one"
        }
        ["RENAME", _, _, _] => "DPjudge's RENAME: a game here keeps the name it was made with",
        ["REVEAL"] => {
            "DPjudge's REVEAL: this judge hides no players' identities to reveal; WHO game \
             shows them (addresses to the GM, or to all with SET ROSTER ADDRESSES)"
        }
        ["DUMMY", _] => {
            "DPjudge's DUMMY: this judge plays no power by computer; with SET NMR CD a power \
             without orders is in civil disorder (its units hold)"
        }
        ["REVIVE", ..] if (2..=3).contains(&w.len()) => {
            "DPjudge's REVIVE: the GM seats a player again with REPLACE power address (a new \
             password is mailed)"
        }
        ["OFFICIAL", ..] => {
            "DPjudge's OFFICIAL: press here always goes out under its usual subject; the GM's \
             press is signed The GM"
        }
        ["INVEST", _, _] | ["INVESTOR", _, _] => {
            "DPjudge's INVEST: this judge has no investors; OBSERVE game receives a game's \
             results"
        }
        ["WAIT"] => "DPjudge's WAIT (the game's state): PAUSE stops the clock, RESUME restarts it",
        ["SET", "COMMENT", ..] => "njudge's SET COMMENT: a game here has no comment line",
        ["SET", "NOLIST" | "UNLIST" | "PRIVATE" | "UNLISTED"]
        | ["SET", "NO", "LIST"]
        | ["SET", "LIST" | "PUBLIC" | "LISTED"] => {
            "njudge's and DPjudge's listing of a game: every game here is listed (LIST), and \
             only its players, observers and GM get its mail"
        }
        ["SET", "ALL", "PRESS"] | ["SET", "NORMAL", "PRESS"] => {
            "njudge's SET ALL PRESS: the GM here reads all press, always"
        }
        ["SET", "PARTIAL", ..] | ["SET", "NO", "PARTIAL", ..] | ["SET", "NO", "FAKE", ..] => {
            "njudge's partial and fake press settings: press here goes to whom it names, as it \
             is (SET PRESS WHITE|GREY|NONE chooses what press a game allows)"
        }
        [
            "SET",
            "MODERATE" | "MODERATED" | "UNMODERATE" | "UNMODERATED",
        ] => "njudge's moderated games: every game here has a GM, who alone changes its settings",
        ["SET", "VARIANT", ..] => {
            "njudge's SET VARIANT: a game's variant is chosen when it is made (CREATE game \
             variant password)"
        }
        ["SET", "START", ..] => {
            "njudge's SET START: the GM starts a game with START, and sets a deadline with SET \
             DEADLINE"
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::answer;

    #[test]
    fn only_the_commands_own_form_is_refused() {
        assert!(answer("PROMOTE ann@example.org").is_some());
        assert!(answer("Promote peace in the Balkans").is_none());
        assert!(answer("wait").is_some());
        assert!(answer("Wait for me in Bur").is_none());
        assert!(answer("I am also bob@example.org").is_some());
        assert!(answer("set nolist").is_some());
    }
}
