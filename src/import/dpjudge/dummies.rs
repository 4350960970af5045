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

use super::Refusal;
use super::read::Model;
use std::fmt::Write as _;

/// Where a word was read: file and line.
pub(super) type At = (String, usize);

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

/// `DUMMY [ALL [EXCEPT]] [power...]` (also `DUMMIES`): mark powers as
/// dummies; without names, the power last named.
pub(super) fn directive(words: &[&str], at: At, current: Option<usize>, m: &mut Model) {
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
        match current {
            Some(p) => m.powers[p].dummy = true,
            None => refuse(m, &at, &words.join(" "), "no power is named before it"),
        }
    } else {
        for n in &named {
            if !m.powers.iter().any(|p| super::read::same(&p.name, n)) {
                refuse(m, &at, n, "no power of this name is declared before it");
            }
        }
        for p in &mut m.powers {
            let listed = named.iter().any(|n| super::read::same(n, &p.name));
            p.dummy |= match (all, except) {
                (true, true) => !listed,
                (true, false) => true,
                (false, _) => listed,
            };
        }
    }
    m.dummy_words.lines.push(at);
}

/// A `RULE` word about dummies or draws; `false`: not one of them.
pub(super) fn rule_word(word: &str, off: bool, at: At, m: &mut Model) -> bool {
    let w = &mut m.dummy_words;
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

/// `LEAGUE name [STRICT | BENIGN [league...]]` of the power last named.
pub(super) fn league(words: &[&str], at: At, current: Option<usize>, m: &mut Model) {
    match current {
        Some(p) => {
            let name = m.powers[p].name.clone();
            let rest = words[1..].iter().map(|w| w.to_uppercase()).collect();
            m.dummy_words.leagues.push((name, rest, at));
        }
        None => refuse(m, &at, &words.join(" "), "no power is named before it"),
    }
}

/// Once the whole map is read: refuse what cannot be played, note what
/// changes nothing here.
pub(super) fn settle(m: &mut Model) {
    let dummies: Vec<String> = m
        .powers
        .iter()
        .filter(|p| p.dummy)
        .map(|p| p.name.clone())
        .collect();
    let w = std::mem::take(&mut m.dummy_words);
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
    if !dummies.is_empty() && dummies.len() == m.powers.len() {
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
    m.dummy_words.no_draw = w.no_draw;
    m.dummy_words.cd_builds = w.cd_builds;
    m.dummy_words.cd_dummies = w.cd_dummies;
}

/// A rule word that changes nothing when the dummies only hold; refused
/// otherwise (a controlled dummy, which the importer refuses as well).
fn note_rule(m: &mut Model, at: &Option<At>, played_by_nobody: bool, word: &str, why: &str) {
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
pub(super) fn write(out: &mut String, m: &Model, name: &dyn Fn(&str) -> String) {
    let dummies: Vec<String> = m
        .powers
        .iter()
        .filter(|p| p.dummy)
        .map(|p| name(&p.name))
        .collect();
    if !dummies.is_empty() && m.dummy_words.cd_dummies.is_some() {
        let builds = if m.dummy_words.cd_builds.is_some() {
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
    if m.dummy_words.no_draw {
        let _ = writeln!(out, "[no-draw]\n");
    }
}

fn refuse(m: &mut Model, at: &At, what: &str, why: &str) {
    let r = Refusal {
        file: at.0.clone(),
        line: at.1,
        what: what.to_string(),
        why: why.to_string(),
    };
    if !m.refusals.contains(&r) {
        m.refusals.push(r);
    }
}
