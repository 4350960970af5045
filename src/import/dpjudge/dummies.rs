//! DPjudge's dummy powers and the rule words about them, imported as the
//! `[dummies]` table (powers nobody plays) and `[no-draw]`.
//!
//! DPjudge's `DUMMY` marks powers no player takes; `RULE CD_DUMMIES` puts
//! them in civil disorder for good (their units hold, a dislodged unit is
//! lost), `CD_BUILDS` has the judge build for them, `IMMOBILE_DUMMIES`
//! keeps their units from moving, and `DUMMY_FIRE` lets them dislodge
//! their own. This judge plays dummies in civil disorder, so:
//!
//! - `DUMMY` with `CD_DUMMIES` is a dummy of `[dummies]`, its builds
//!   `made` under `CD_BUILDS`, else waived;
//! - `IMMOBILE_DUMMIES` and `DUMMY_FIRE` change nothing for units that
//!   only hold, and are noted as such;
//! - `LEAGUE` restricts only supports and convoys of a power with
//!   `STRICT` or `BENIGN`: noted where the power is such a dummy or the
//!   league has neither word, refused for a power a player orders;
//! - a dummy that is not in civil disorder is ordered by another power or
//!   the GM (`CONTROL`), and `VASSAL_DUMMIES` gives dummies to the powers
//!   holding their homes: both are refused with their reason.
//! - `NO_DRAW` is `[no-draw]`.

use std::fmt::Write as _;

/// Where a word was read: file and line.
pub(super) type At = (String, usize);

/// A line refused: where, what, why (made a `Refusal` by the caller, so
/// that this file depends on neither the reader nor the writer).
pub(super) type Refused = (At, String, String);

/// What [`settle`] finds: the lines refused and the notes for the file's
/// header.
#[derive(Debug, Default)]
pub(super) struct Settled {
    pub refused: Vec<Refused>,
    pub notes: Vec<String>,
}

/// What the map says of its dummies, as read.
#[derive(Debug, Default)]
pub(super) struct DummyWords {
    /// Each `DUMMY` line with the powers it made dummies (indices into the
    /// model's powers at the time, resolved by name at once).
    pub lines: Vec<At>,
    pub cd_dummies: Option<At>,
    pub cd_builds: Option<At>,
    pub immobile: Option<At>,
    pub fire: Option<At>,
    pub vassals: Option<At>,
    pub no_draw: bool,
    /// `LEAGUE` lines: the power's name as then, the words, where.
    pub leagues: Vec<(String, Vec<String>, At)>,
}

/// `DUMMY [ALL [EXCEPT]] [power...]` (also `DUMMIES`): which of the
/// powers declared so far (`names`) it makes dummies; without names, the
/// power last named (`current`). `Err`: what is wrong, and why.
pub(super) fn directive(
    words: &[&str],
    current: Option<usize>,
    names: &[&str],
    same: fn(&str, &str) -> bool,
) -> Result<Vec<usize>, (String, String)> {
    let rest: Vec<String> = words[1..].iter().map(|w| w.to_uppercase()).collect();
    let (all, except) = match rest.first().map(String::as_str) {
        Some("ALL") => (true, rest.get(1).is_some_and(|w| w == "EXCEPT")),
        _ => (false, false),
    };
    let named: Vec<&String> = rest
        .iter()
        .skip(usize::from(all) + usize::from(except))
        .collect();
    if !all && named.is_empty() {
        return current
            .map(|p| vec![p])
            .ok_or_else(|| (words.join(" "), "no power is named before it".to_string()));
    }
    if let Some(n) = named.iter().find(|n| !names.iter().any(|p| same(p, n))) {
        return Err((
            (*n).clone(),
            "no power of this name is declared before it".to_string(),
        ));
    }
    Ok((0..names.len())
        .filter(|&i| {
            let listed = named.iter().any(|n| same(n, names[i]));
            match (all, except) {
                (true, true) => !listed,
                (true, false) => true,
                (false, _) => listed,
            }
        })
        .collect())
}

/// A `RULE` word about dummies or draws; `false`: not one of them.
pub(super) fn rule_word(word: &str, off: bool, at: At, w: &mut DummyWords) -> bool {
    let slot = match word {
        "CD_DUMMIES" => &mut w.cd_dummies,
        "CD_BUILDS" => &mut w.cd_builds,
        "IMMOBILE_DUMMIES" => &mut w.immobile,
        "DUMMY_FIRE" => &mut w.fire,
        "VASSAL_DUMMIES" => &mut w.vassals,
        "NO_DRAW" => {
            w.no_draw = !off;
            return true;
        }
        _ => return false,
    };
    *slot = (!off).then_some(at);
    true
}

/// `LEAGUE name [STRICT | BENIGN [league...]]` of `power` (the one last
/// named).
pub(super) fn league(words: &[&str], at: At, power: &str, w: &mut DummyWords) {
    let rest = words[1..].iter().map(|x| x.to_uppercase()).collect();
    w.leagues.push((power.to_string(), rest, at));
}

/// Once the whole map is read: refuse what cannot be played, note what
/// changes nothing here.
pub(super) fn settle(w: &DummyWords, dummies: &[String], powers: usize) -> Settled {
    let mut out = Settled::default();
    let m = &mut out;
    if let Some(at) = &w.vassals {
        refuse(
            m,
            at,
            "RULE VASSAL_DUMMIES",
            "vassal states (a dummy power ordered by the power that holds all its \
             home centres, keeping those centres, its centres counted for that \
             power's victory) are not a rule this judge has",
        );
    }
    let in_disorder = w.cd_dummies.is_some();
    if !dummies.is_empty() && !in_disorder && w.vassals.is_none() {
        for at in &w.lines {
            refuse(
                m,
                at,
                "DUMMY",
                "a dummy power not in civil disorder (no RULE CD_DUMMIES) is ordered by \
                 another power or the GM (CONTROL), which this judge does not have",
            );
        }
    }
    if !dummies.is_empty() && dummies.len() == powers {
        for at in &w.lines {
            refuse(
                m,
                at,
                "DUMMY",
                "every power a dummy: nobody could play (DPjudge's test games)",
            );
        }
    }
    let played_by_nobody = in_disorder && !dummies.is_empty();
    note_rule(
        m,
        &w.immobile,
        played_by_nobody,
        "IMMOBILE_DUMMIES",
        "the dummies' units only hold",
    );
    note_rule(
        m,
        &w.fire,
        played_by_nobody,
        "DUMMY_FIRE",
        "the dummies' units never attack",
    );
    if let Some(at) = &w.cd_builds {
        if played_by_nobody {
            m.notes.push(
                "RULE CD_BUILDS: the judge builds for the dummy powers; a player in civil \
                 disorder (SET NMR CD) still has his builds waived"
                    .into(),
            );
        } else {
            refuse(
                m,
                at,
                "RULE CD_BUILDS",
                "builds made by the judge for players in civil disorder are not a rule \
                 this judge has (only for dummy powers, with RULE CD_DUMMIES)",
            );
        }
    }
    if in_disorder && dummies.is_empty() {
        m.notes
            .push("RULE CD_DUMMIES: no dummy power, so it changes nothing".into());
    }
    for (power, words, at) in &w.leagues {
        let restricts = words.iter().any(|x| x == "STRICT" || x == "BENIGN");
        let dummy = dummies.iter().any(|d| d == power);
        let line = format!("LEAGUE {}", words.join(" "));
        if !restricts {
            m.notes.push(format!(
                "{power}: {line}: a league that restricts no order changes nothing"
            ));
        } else if dummy && in_disorder {
            m.notes.push(format!(
                "{power}: {line}: a dummy whose units only hold gives no support or \
                 convoy to restrict"
            ));
        } else {
            refuse(
                m,
                at,
                &line,
                "leagues that forbid a power's supports and convoys to other leagues' \
                 units are not a rule this judge has",
            );
        }
    }
    out
}

/// A rule word that changes nothing when the dummies only hold; refused
/// otherwise (a controlled dummy, which the importer refuses as well).
fn note_rule(m: &mut Settled, at: &Option<At>, played_by_nobody: bool, word: &str, why: &str) {
    let Some(at) = at else { return };
    if played_by_nobody {
        m.notes
            .push(format!("RULE {word}: changes nothing here: {why}"));
    } else {
        refuse(
            m,
            at,
            &format!("RULE {word}"),
            "a rule for dummy powers that someone orders, which this judge does not have",
        );
    }
}

/// The tables for the variant file: `[dummies]` with the dummies' names
/// as written out and quoted (`name`), and `[no-draw]`.
pub(super) fn write(out: &mut String, dummies: &[String], w: &DummyWords) {
    if !dummies.is_empty() && w.cd_dummies.is_some() {
        let builds = if w.cd_builds.is_some() {
            "made"
        } else {
            "waived"
        };
        let _ = writeln!(
            out,
            "[dummies]\npowers = [{}]\nbuilds = \"{builds}\"\n",
            dummies.join(", ")
        );
    }
    if w.no_draw {
        let _ = writeln!(out, "[no-draw]\n");
    }
}

fn refuse(m: &mut Settled, at: &At, what: &str, why: &str) {
    let r = (at.clone(), what.to_string(), why.to_string());
    if !m.refused.contains(&r) {
        m.refused.push(r);
    }
}
