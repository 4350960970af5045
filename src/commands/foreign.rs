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
            "DPjudge's OFFICIAL: press here always goes out under its usual subject, the GM's \
             signed The GM; the GM's BROADCAST (or PRESS TO powers) tells the players"
        }
        ["INVEST", _, _] | ["INVESTOR", _, _] => {
            "DPjudge's INVEST: this judge has no investors; OBSERVE game receives a game's \
             results"
        }
        ["WAIT"] => "DPjudge's WAIT (the game's state): PAUSE stops the clock, RESUME restarts it",
        ["ADJUST", _, _, _] | ["FIXID", _, ..] | ["NOCONTROL"] | ["RECORD", _, _, _, _] => {
            "an njudge administrator's command: this judge keeps no register, ratings or \
             sites to adjust, and its keeper works on its configuration and its store, not \
             by mail (docs/operations.md)"
        }
        ["SET", ..] => return set_answer(&w[1..]),
        _ => return None,
    })
}

/// What njudge's (and DPjudge's) SET options that this judge does not
/// take are answered, by the words after SET (a leading NO or NOT, or NO
/// glued to the word, is the option's own: `SET NO DIAS`, `SET NODIAS`).
/// Each answer says why and what this judge has instead.
const SETS: &[(&[&str], &str)] = &[
    (
        &[
            "ADJACENT",
            "ADJACENCY",
            "ADJ",
            "ASSASSINS",
            "ASSASSINATION",
            "ASSASSINATIONS",
            "BANK",
            "BANKERS",
            "LOANS",
            "DICE",
            "FAMINE",
            "PLAGUE",
            "FORT",
            "FORTS",
            "FORTRESS",
            "FORTRESSES",
            "GARRISON",
            "GARRISONS",
            "MONEY",
            "SPECIAL",
            "STORM",
            "STORMS",
            "MACH2",
            "MACHIAVELLI2",
            "MACH-2",
            "MACHIAVELLI-2",
            "BASIC",
            "ADVANCED",
            "SUMMER",
            "DISBAND",
        ],
        "njudge's Machiavelli rules: this judge plays no Machiavelli; a game's rules are its \
         variant's, chosen when it is made (VARIANTS lists them; CREATE game variant password)",
    ),
    (
        &[
            "ALLIED WIN",
            "ANY CENTRE",
            "ANY CENTRES",
            "ANY CENTER",
            "ANY CENTERS",
            "ONE CENTRE",
            "ONE CENTRES",
            "ONE CENTER",
            "ONE CENTERS",
            "HOME CENTRE",
            "HOME CENTRES",
            "HOME CENTER",
            "HOME CENTERS",
            "ANY DISBAND",
            "NORMAL DISBAND",
            "ATTACK TRANSFORM",
            "ATTACK TRANSFORMS",
            "TRANSFORM",
            "TRAFO",
            "AUTO DISBAND",
            "BCENTERS",
            "BCENTRES",
            "BLANK BOARD",
            "EMPTY BOARD",
            "COASTAL CONVOY",
            "COASTAL CONVOYS",
            "DUALITY",
            "GATEWAY",
            "GATEWAYS",
            "RAILWAY",
            "RAILWAYS",
            "HONG KONG",
            "HOME TRANSFER",
            "PORTAGE",
            "NEUTRALS",
            "CAPTURE WIN",
            "PROXY",
            "STRICT CONVOY",
            "AIR LIFT",
            "AIR LIFTS",
            "VARIANT",
            "PLAYERS",
            "POWERS",
        ],
        "njudge's variant options: a game's rules are those of its variant, fixed when it is \
         made (VARIANTS lists them and their rules; CREATE game variant password [WITH \
         optional powers])",
    ),
    (
        &["CENTERS", "CENTRES"],
        "njudge's SET CENTERS: a game is won by its variant's victory; the GM may end it with \
         END WIN power (or END DRAW), and SET END year ends a variant that has a last year",
    ),
    (
        &[
            "ACCESS",
            "LEVEL",
            "DEDICATION",
            "ONTIMERAT",
            "RESRAT",
            "RATED",
            "UNRATED",
            "BN",
            "BNC",
            "MN",
            "MNC",
            "EP",
            "XFLAG",
            "XFLAGS",
        ],
        "njudge's ratings and registers: this judge keeps none; anyone may JOIN a forming \
         game, and the GM who wants to choose gives the powers (SET ASSIGNMENT GM, then \
         ASSIGN power address)",
    ),
    (
        &[
            "ALLOW",
            "DENY",
            "APPROVAL",
            "APPROVE",
            "APPROVED",
            "ALLOW PLAYER",
            "DENY PLAYER",
            "PLAYER ALLOW",
            "PLAYER DENY",
            "ALLOW MASTER",
            "DENY MASTER",
        ],
        "njudge's allow and deny lists: the GM chooses who plays with SET ASSIGNMENT GM and \
         ASSIGN power address, and EJECT power removes a player",
    ),
    (
        &["DIAS", "CONCESSIONS"],
        "njudge's draw settings: a draw here includes every surviving power (DRAW, voted by \
         all of them), and CONCEDE power is always allowed",
    ),
    (
        &["MANUAL PROCESS", "MAN PROC", "AUTO PROCESS", "AUTO PROC"],
        "njudge's manual processing: a phase here goes at its deadline or once every player \
         is ready (SET EARLY READY waits for READY from all); the GM may PAUSE the clock and \
         PROCESS a phase at any time",
    ),
    (
        &["MANUAL START", "MAN START", "AUTO START"],
        "njudge's manual start: a game here starts when every seat is taken, or when the GM \
         sends START; with SET ASSIGNMENT GM it waits for the GM's ASSIGN and START",
    ),
    (
        &["RESUME"],
        "njudge's SET RESUME: only the GM resumes a game here (RESUME)",
    ),
    (
        &["STRICT GRACE", "STRICT WAIT"],
        "njudge's strict grace and wait: the grace here is a length after the deadline (SET \
         GRACE), and every player may SET WAIT",
    ),
    (
        &["LATE COUNT"],
        "njudge's late count: the late notices here say who is late; WHO game shows who is in \
         civil disorder",
    ),
    (
        &[
            "MAX ABSENCE",
            "MAX ABSENCES",
            "MAX VACATIONS",
            "MAX HOLIDAYS",
        ],
        "njudge's SET MAX ABSENCE: an absence here is at most 60 days; the GM lets absences \
         move deadlines, by at most so many days, with SET ABSENCES ON 10d (SET ABSENCES OFF: \
         never)",
    ),
    (
        &["SECRET", "SHOW", "REVEAL"],
        "njudge's identity settings: the roster shows players' names, their addresses only to \
         the GM (SET ROSTER NAMES|ADDRESSES)",
    ),
    (
        &["QUIET"],
        "njudge's SET QUIET: the players here are told of replacements and of the powers in \
         civil disorder; the roster's addresses are the GM's (SET ROSTER NAMES|ADDRESSES)",
    ),
    (
        &["AUTO CREATE"],
        "njudge's SET AUTO CREATE: CREATE makes the next game",
    ),
    (
        &["PRFBOTH", "PRFLIST", "PRFRAND"],
        "njudge's preference settings: SET ASSIGNMENT PREFERENCE (the players' lists), \
         FIRST-COME or GM",
    ),
    (
        &[
            "WATCH ALL PRESS",
            "BLANK PRESS",
            "BROADCAST",
            "BROADCAST PRESS",
            "NORMAL BROADCAST",
            "GRACE PRESS",
            "LATE PRESS",
            "MINOR PRESS",
            "MUST ORDER",
            "TOUCH PRESS",
            "POSTAL PRESS",
            "OBSERVER",
            "OBSERVER ANY",
            "OBSERVER NO",
            "OBSERVER NONE",
            "OBSERVER WHITE",
            "ANY OBSERVER",
            "WHITE OBSERVER",
            "ALL PRESS",
            "NORMAL PRESS",
        ],
        "njudge's press options: a game here allows signed press, grey press too, or none \
         (SET PRESS WHITE|GREY|NONE); press goes to whom it names, the GM reads all of it, \
         observers read what everybody does",
    ),
    (
        &[
            "PARTIAL",
            "PARTIAL MAY",
            "PARTIAL MAY BE FAKED",
            "PARTIAL FAKES",
            "PARTIAL FAKES BROADCAST",
            "PARTIAL DEFAULT",
            "DEFAULT",
            "FAKE",
            "FAKE BROADCAST",
        ],
        "njudge's partial and fake press settings: press here goes to whom it names, as it \
         is (SET PRESS WHITE|GREY|NONE chooses what press a game allows)",
    ),
    (
        &["LIST", "UNLIST", "LISTED", "UNLISTED", "PUBLIC", "PRIVATE"],
        "njudge's and DPjudge's listing of a game: every game here is listed (LIST), and \
         only its players, observers and GM get its mail",
    ),
    (
        &["MODERATE", "MODERATED", "UNMODERATE", "UNMODERATED"],
        "njudge's moderated games: every game here has a GM, who alone changes its settings",
    ),
    (
        &["COMMENT", "INFO", "INFORMATION"],
        "njudge's SET COMMENT: a game here has no comment line; the GM's BROADCAST tells the \
         players",
    ),
    (
        &["START"],
        "njudge's SET START: this judge has no earliest time for a phase; SET DEADLINE date \
         moves the deadline there, and SET EARLY READY keeps a phase from going before it \
         unless every player sends READY (the GM starts a forming game with START)",
    ),
    (
        &["ZONE"],
        "DPjudge's SET ZONE: a game here has one time zone, the GM's (SET TIMEZONE \
         Europe/Paris), and every time is also given in UTC",
    ),
];

/// The answer to `SET` followed by `words` (upper case) when it is one of
/// [`SETS`].
fn set_answer(words: &[&str]) -> Option<&'static str> {
    let mut w: Vec<String> = words.iter().map(|s| s.to_string()).collect();
    // SET NO X, SET NOT X, SET NOX, SET UNX: the option X.
    if matches!(w.first().map(String::as_str), Some("NO" | "NOT")) && w.len() > 1 {
        w.remove(0);
    }
    let glued = |w: &[String]| w.join(" ");
    let phrase = glued(&w);
    let stripped = ["NO", "UN"]
        .iter()
        .find_map(|p| phrase.strip_prefix(p).map(str::to_string));
    // The longest option that starts the words, whole words only.
    let answer_of = |p: &str| -> Option<&'static str> {
        SETS.iter()
            .flat_map(|(names, answer)| names.iter().map(move |n| (*n, *answer)))
            .filter(|(n, _)| p == *n || p.starts_with(&format!("{n} ")))
            .max_by_key(|(n, _)| n.len())
            .map(|(_, a)| a)
    };
    answer_of(&phrase).or_else(|| stripped.as_deref().and_then(answer_of))
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
