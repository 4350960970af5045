//! DPjudge's `PORT` places and marked borders (`*`, `~`), imported as this
//! judge's map attributes (`port = true`, `half-strength`, `strait`: see
//! `map::crossing`); and the `RULE` words this judge cannot play for a
//! reason worth telling (press rules, hibernating units).
//!
//! DPjudge keeps a border's mark apart from the border (`Map.abutRules`:
//! the place, and the place the mark is written against), so the reader
//! strips the mark off the border and keeps it here, renamed, dropped and
//! amended away as DPjudge does.

use std::collections::HashMap;
use std::fmt::Write as _;

/// Whether two names are the same but for case (as the reader compares
/// them; this file does not read the reader's, which reads it).
fn same(a: &str, b: &str) -> bool {
    a.to_uppercase() == b.to_uppercase()
}

/// A marked border as the file writes it: from the location `from` (as
/// keyed), into the place `to` (upper case, no coast), `*` or `~`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Mark {
    pub from: String,
    pub to: String,
    pub mark: char,
}

/// The marks this judge plays.
const MARKS: [char; 2] = ['*', '~'];

/// A border written with special marks (`*MAO`, `naf~`): the border
/// without them, with the marks recorded for `from`; `Err` with why, for
/// a mark this judge has no rule for.
pub(super) fn border_mark(
    marks: &mut Vec<Mark>,
    from: &str,
    written: &str,
) -> Result<String, String> {
    let bare = written.trim_matches(|c: char| !c.is_alphanumeric());
    let written_marks: Vec<char> = written
        .chars()
        .filter(|c| !c.is_alphanumeric() && *c != '/')
        .collect();
    if bare.is_empty() {
        return Err(format!("`{written}`: a border with no place"));
    }
    if let Some(c) = written_marks.iter().find(|c| !MARKS.contains(c)) {
        return Err(format!(
            "`{written}`: the border mark `{c}` is not a rule this judge has"
        ));
    }
    let to = bare.split('/').next().unwrap_or(bare).to_uppercase();
    // A mark written twice is kept twice (the writer says it once):
    // no search of every mark for each.
    for &mark in &written_marks {
        marks.push(Mark {
            from: from.to_string(),
            to: to.clone(),
            mark,
        });
    }
    Ok(bare.to_string())
}

/// `AMEND x ABUTS -Y`: DPjudge forgets every mark that names `Y` (at
/// either end) with the border.
pub(super) fn unmark(marks: &mut Vec<Mark>, gone: &str) {
    let g: String = gone.chars().take(3).collect::<String>().to_uppercase();
    marks.retain(|k| {
        let from: String = k.from.chars().take(3).collect::<String>().to_uppercase();
        from != g && k.to != g
    });
}

/// `OLD -> ...`: the marks follow the renamed place.
pub(super) fn rename_marks(marks: &mut [Mark], old: &str, new: &str) {
    for k in marks {
        if same(&k.from, old) {
            k.from = new.to_string();
        }
        if same(&k.to, old) {
            k.to = new.to_uppercase();
        }
    }
}

/// `DROP x`: the marks from and to the place (and its coasts) go with it.
pub(super) fn drop_marks(marks: &mut Vec<Mark>, place: &str) {
    let up = place.to_uppercase();
    let gone = |k: &str| {
        let k = k.to_uppercase();
        k == up || k.split('/').next() == Some(up.as_str())
    };
    marks.retain(|k| !gone(&k.from) && !gone(&k.to));
}

/// The marks by the province they are written from (upper case, no
/// coast), gathered once for the writer.
pub(super) fn by_province(marks: &[Mark]) -> HashMap<String, Vec<&Mark>> {
    let mut out: HashMap<String, Vec<&Mark>> = HashMap::new();
    for k in marks {
        let base = k.from.split('/').next().unwrap_or("").to_uppercase();
        out.entry(base).or_default().push(k);
    }
    out
}

/// The lines a province adds to its `[[provinces]]` entry: `port`, and
/// the neighbours it borders across its `marks` (those written from it:
/// [`by_province`]; `id`: this judge's id of a DPjudge place).
pub(super) fn province_lines(
    out: &mut String,
    marks: &[&Mark],
    port: bool,
    id: &dyn Fn(&str) -> String,
) {
    if port {
        let _ = writeln!(out, "port = true");
    }
    for (mark, key) in [('*', "half-strength"), ('~', "strait")] {
        let mut to: Vec<String> = marks
            .iter()
            .filter(|k| k.mark == mark)
            .map(|k| id(&k.to))
            .collect();
        to.sort();
        to.dedup();
        if !to.is_empty() {
            let list: Vec<String> = to
                .iter()
                .map(|t| toml::Value::String(t.clone()).to_string())
                .collect();
            let _ = writeln!(out, "{key} = [{}]", list.join(", "));
        }
    }
}

/// Why a `RULE` word is refused, where there is more to say than that the
/// judge has no such rule: the press rules (a game's press here is its
/// GM's `SET PRESS`: white, grey or none; only `FTF_PRESS` is a rule of
/// the variant, `super::press`) and DPjudge's
/// rules for units in places that change during the game.
pub(super) fn rule_refusal(word: &str) -> Option<&'static str> {
    Some(match word {
        "NO_PRESS" | "PUBLIC_PRESS" | "GREY_PRESS" | "YELLOW_PRESS" | "WHITE_GREY"
        | "FAKE_PRESS" | "TOUCH_PRESS" | "REMOTE_PRESS" | "BACKSEAT_PRESS" | "PRESS_MASTER"
        | "LATE_SEND" => {
            "a press rule: press here is the GM's choice for each game (SET PRESS \
             WHITE, GREY or NONE), not the variant's, and this one is not among them"
        }
        "HIBERNATE" | "UNITS_ADAPT" => {
            "a rule for units in places that change terrain during the game, which \
             this judge does not play (the map's IN and FROM lines)"
        }
        _ => return None,
    })
}
