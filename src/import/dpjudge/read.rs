//! Reading a DPjudge map file, directive by directive, into a [`Model`]:
//! the map as DPjudge itself keeps it (`super::model`).
//!
//! The language is line-based (DPjudge's map file syntax page): a line is
//! a place name (`Name = abbr alias...`), a terrain with its borders
//! (`COAST SPA/NC ABUTS GAS MAO POR`), a power with its home centres, a
//! unit of the power last named, or a directive. Directives this judge
//! has no rule for are refused with their line, never skipped.

use super::Refusal;
use super::model::{Cursor, Model, PowerDef, same};
use super::places;

/// How deep `USE` may nest: deeper is a loop.
const MAX_DEPTH: usize = 8;

/// The reader's state between lines.
#[derive(Default)]
struct State {
    current: Option<usize>,
    /// Inside a `DIRECTIVES` stanza for another rules variant: skipped.
    skipping_stanza: bool,
    /// After a refused multi-line `IN`/`FROM`: its lines are not read.
    skipping_dynamic: bool,
}

/// Read `name` (and what it includes) into a model.
pub(super) fn read(name: &str, fetch: &mut dyn FnMut(&str) -> Result<String, String>) -> Model {
    let mut m = Model::default();
    let mut st = State::default();
    let mut stack = Vec::new();
    read_file(name, 0, fetch, &mut m, &mut st, &mut stack);
    m
}

/// Read the file `name`, included at line `used_at` of the file on top
/// of `stack` (0: the map itself).
fn read_file(
    name: &str,
    used_at: usize,
    fetch: &mut dyn FnMut(&str) -> Result<String, String>,
    m: &mut Model,
    st: &mut State,
    stack: &mut Vec<String>,
) {
    let text = match fetch(name).or_else(|e| {
        if name.contains('.') {
            Err(e)
        } else {
            fetch(&format!("{name}.map")).map_err(|_| e)
        }
    }) {
        Ok(t) => t,
        Err(e) => {
            let file = stack.last().map_or_else(|| name.to_string(), Clone::clone);
            let r = Refusal {
                file,
                line: used_at,
                what: format!("USE {name}"),
                why: format!("cannot read it: {e}"),
            };
            if m.refused.insert(r.clone()) {
                m.refusals.push(r);
            }
            return;
        }
    };
    stack.push(name.to_string());
    m.files.push(name.to_string());
    for (i, raw) in text.lines().enumerate() {
        let at = Cursor {
            file: name,
            line: i + 1,
        };
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let first = words[0].to_uppercase();
        if matches!(first.as_str(), "USE" | "USES" | "MAP") {
            if first == "MAP" && m.root_map.is_none() {
                m.root_map = words
                    .get(1)
                    .map(|w| w.split('.').next().unwrap_or(w).to_string());
            }
            for w in &words[1..] {
                let file = if first == "MAP" && !w.contains('.') {
                    format!("{w}.map")
                } else {
                    (*w).to_string()
                };
                if stack.len() >= MAX_DEPTH || stack.iter().any(|f| same(f, &file)) {
                    m.refuse(&at, line, "the files include each other in a loop");
                    continue;
                }
                read_file(&file, at.line, fetch, m, st, stack);
            }
            continue;
        }
        directive(line, &words, &first, &at, m, st);
    }
    stack.pop();
}

/// One line that is not an include.
fn directive(
    line: &str,
    words: &[&str],
    first: &str,
    at: &Cursor<'_>,
    m: &mut Model,
    st: &mut State,
) {
    if first == "END" {
        st.skipping_stanza = false;
        return;
    }
    if st.skipping_stanza {
        return;
    }
    if first == "FROM" && words.get(1).is_some_and(|w| same(w, "START")) {
        st.skipping_dynamic = false;
        return;
    }
    if st.skipping_dynamic {
        return;
    }
    if line.contains('=') {
        places::place_name(line, at, m);
        return;
    }
    match first {
        "LAND" | "COAST" | "WATER" | "PORT" | "SHUT" | "AMEND" => {
            places::terrain_line(words, at, m)
        }
        "DROP" => {
            for w in &words[1..] {
                places::drop_place(w, m, false);
            }
        }
        "UNOWNED" | "NEUTRAL" => {
            st.current = None;
            centre_list(&words[1..], at, m, None);
        }
        "CENTERS" | "OWNS" => owns(words, first, at, m, st),
        "INHABITS" | "HOME" | "HOMES" => homes(words, first, at, m, st),
        "UNITS" => match st.current {
            Some(p) => {
                m.powers[p].units.clear();
                m.units_changed();
            }
            None => m.refuse(at, line, "no power is named before it"),
        },
        "FLOW" => flow(words, at, m),
        "BEGIN" => begin(words, at, m),
        "VICTORY" => victory(words, at, m),
        "RULE" | "RULES" => {
            for w in &words[1..] {
                rule(w, at, m);
            }
        }
        "UNPLAYED" => unplayed(words, at, m, st),
        "TEXTONLY" => m.notes.push("TEXTONLY: the picture is drawn anyway".into()),
        "FLAG" | "FLAGS" => {}
        "NOTIFY" => m
            .notes
            .push("NOTIFY (an address DPjudge mailed about games of the map) left out".into()),
        "DIRECTIVE" | "DIRECTIVES" => {}
        "IN" | "FROM" => {
            m.refuse(
                at,
                line,
                "map changes during the game are not a rule this judge has",
            );
            st.skipping_dynamic = !line.contains(':');
        }
        "DUMMY" | "DUMMIES" => dummy(words, at, m, st),
        "LEAGUE" => match st.current {
            Some(p) => {
                let name = m.powers[p].name.clone();
                let at = (at.file.to_string(), at.line);
                super::dummies::league(words, at, &name, &mut m.dummy_words);
            }
            None => m.refuse(at, line, "no power is named before it"),
        },
        "CONTROL" | "ROTATE" => m.refuse(
            at,
            line,
            "a dummy power ordered by another power (CONTROL, ROTATE) is not a rule \
             this judge has (dummies in civil disorder are)",
        ),
        "TEAM" | "TEAMS" => m.refuse(at, line, "team games are not a rule this judge has"),
        "NEWHOMES" => match words[1..].iter().map(|w| w.parse::<i32>()).collect() {
            Ok(years) => m.new_homes = years,
            Err(_) => m.refuse(at, line, "the years are not numbers"),
        },
        "RESERVES" | "MILITIA" => m.refuse(
            at,
            line,
            "units kept beyond the centre count are not a rule this judge has",
        ),
        _ if words.len() >= 2 && same(words[1], "DIRECTIVES")
            || words.len() >= 2 && same(words[1], "DIRECTIVE") =>
        {
            // A stanza for one rules variant (PAYOLA DIRECTIVES): in
            // force only in games of that variant; this judge plays the
            // standard rules, so only STANDARD's stanza is read.
            if !same(first, "STANDARD") {
                st.skipping_stanza = true;
                m.notes.push(format!(
                    "{line}: the stanza for that rules variant left out"
                ));
            }
        }
        _ if words.len() == 2 && matches!(first, "A" | "F") => unit(words, at, m, st),
        _ => power_line(words, at, m, st),
    }
}

/// A list of centres for `UNOWNED` (power `None`) or a power's homes:
/// `-X` takes one off.
fn centre_list(words: &[&str], at: &Cursor<'_>, m: &mut Model, power: Option<usize>) {
    for w in words {
        if let Some(c) = w.strip_prefix('-') {
            let c = c.to_uppercase();
            match power {
                Some(p) => {
                    // DPjudge's `addHomes`: a home centre a power loses
                    // stays a centre, owned by nobody (1897's `RUSSIA
                    // -STP`: St Petersburg is a neutral centre).
                    if m.powers[p].homes.remove(&c) {
                        m.unowned.push(c.clone());
                    }
                    super::sites::forget(&mut m.powers[p].special, &c);
                }
                None => {
                    m.unowned.remove(&c);
                }
            }
            continue;
        }
        if w.starts_with('&') {
            m.refuse(
                at,
                w,
                "claiming new home centres is not a rule this judge has",
            );
            continue;
        }
        let def = power.map(|p| {
            let def = &mut m.powers[p];
            (&mut def.special, &mut def.homes)
        });
        match super::sites::centre_word(w, def) {
            Ok(true) => continue,
            Ok(false) => {}
            Err(why) => {
                m.refuse(at, w, why);
                continue;
            }
        }
        if w.starts_with('+') || w.ends_with('!') || w.ends_with('?') {
            m.refuse(at, w, "building outside the home centres (factories, unowned homes) is not a rule this judge has");
            continue;
        }
        let c = w.to_uppercase();
        let list = match power {
            Some(p) => &mut m.powers[p].homes,
            None => &mut m.unowned,
        };
        list.push(c);
    }
}

/// `OWNS c...` (added to) and `CENTERS c...` (in place of what was owned);
/// `CENTERS` with no power named is `UNOWNED`.
fn owns(words: &[&str], first: &str, at: &Cursor<'_>, m: &mut Model, st: &mut State) {
    let Some(p) = st.current else {
        if first == "CENTERS" {
            centre_list(&words[1..], at, m, None);
        } else {
            m.refuse(at, &words.join(" "), "no power is named before it");
        }
        return;
    };
    let mut list = match (&m.powers[p].owns, first) {
        (Some((l, _, _)), "OWNS") => l.clone(),
        _ => Vec::new(),
    };
    for w in &words[1..] {
        if w.ends_with('!') || w.ends_with('?') {
            m.refuse(
                at,
                w,
                "building in home centres one does not own is not a rule this judge has",
            );
            continue;
        }
        // DPjudge's `OWNS` adds what is not owned already; `CENTERS`
        // takes the list as written.
        let c = w.to_uppercase();
        if first == "CENTERS" || !list.contains(&c) {
            list.push(c);
        }
    }
    m.powers[p].owns = Some((list, at.file.to_string(), at.line));
}

/// `HOME(S) c...`: the homes in place of those the power had.
/// `INHABITS c...`: the same the first time, and added to them by the
/// next `INHABITS` lines (DPjudge's `Map.load`); after either, the line
/// naming the power again gives its homes anew (`power_line`).
fn homes(words: &[&str], first: &str, at: &Cursor<'_>, m: &mut Model, st: &mut State) {
    let Some(p) = st.current else {
        m.refuse(at, &words.join(" "), "no power is named before it");
        return;
    };
    if first != "INHABITS" || !m.powers[p].homes_given {
        forget_homes(&mut m.powers[p]);
    }
    m.powers[p].homes_given = true;
    centre_list(&words[1..], at, m, Some(p));
}

/// The power's homes, its partisan sites and alternative homes gone
/// (DPjudge's `addHomes` with `reinit`): no longer centres unless another
/// line names them.
fn forget_homes(p: &mut PowerDef) {
    p.homes.clear();
    p.special = super::sites::Special::default();
}

/// `FLOW season:phase,phase ...`; a bare `FLOW` starts again. The words
/// are read, and made a calendar, in `super::calendar`.
fn flow(words: &[&str], at: &Cursor<'_>, m: &mut Model) {
    if words.len() == 1 {
        m.flow.clear();
    }
    for w in &words[1..] {
        match super::calendar::flow_word(w) {
            Ok(item) => m.flow.push(super::calendar::FlowWord {
                item,
                file: at.file.to_string(),
                line: at.line,
            }),
            Err(why) => m.refuse(at, w, &why),
        }
    }
}

/// `BEGIN season year phase`.
fn begin(words: &[&str], at: &Cursor<'_>, m: &mut Model) {
    let line = words.join(" ");
    match words {
        [_, season, year, phase] => match year.parse::<i64>() {
            Ok(y) => {
                m.begin = Some((season.to_uppercase(), y, phase.to_uppercase()));
            }
            Err(_) => m.refuse(at, &line, "the year is not a number"),
        },
        _ => m.refuse(at, &line, "expected BEGIN season year phase"),
    }
}

/// `VICTORY n...`: one count for every year.
fn victory(words: &[&str], at: &Cursor<'_>, m: &mut Model) {
    let line = words.join(" ");
    let counts: Result<Vec<u32>, _> = words[1..].iter().map(|w| w.parse::<u32>()).collect();
    match counts {
        Ok(c) if c.is_empty() => m.victory = None,
        Ok(c) if c.iter().all(|x| *x == c[0]) => m.victory = Some(c[0]),
        Ok(_) => m.refuse(
            at,
            &line,
            "a victory count that changes year by year is not a rule this judge has",
        ),
        Err(_) => m.refuse(at, &line, "the counts are not numbers"),
    }
}

/// A `RULE` word.
fn rule(w: &str, at: &Cursor<'_>, m: &mut Model) {
    let (off, word) = match w.strip_prefix('!') {
        Some(x) => (true, x.to_uppercase()),
        None => (false, w.to_uppercase()),
    };
    match word.as_str() {
        "BUILD_ANY" => m.build_any = !off,
        "MOBILIZE" => m.mobilize = !off,
        "HOME_BUILDS" => m.home_builds = !off,
        "REMOTE_BUILDS" => m.remote_builds = !off,
        w if super::press::rule_word(w, off, &mut m.face_to_face) => {}
        w if super::dummies::rule_word(
            w,
            off,
            (at.file.to_string(), at.line),
            &mut m.dummy_words,
        ) => {}
        // Turning off a rule this judge never plays changes nothing.
        _ if off => {}
        _ => m.refuse(
            at,
            &format!("RULE {word}"),
            super::ports::rule_refusal(&word).unwrap_or("not a rule this judge has"),
        ),
    }
}

/// `UNPLAYED [ALL [EXCEPT]] [power...]`: those powers and all they had
/// are taken out.
fn unplayed(words: &[&str], at: &Cursor<'_>, m: &mut Model, st: &mut State) {
    let rest: Vec<String> = words[1..].iter().map(|w| w.to_uppercase()).collect();
    let (all, except) = match rest.first().map(String::as_str) {
        Some("ALL") => (true, rest.get(1).is_some_and(|w| w == "EXCEPT")),
        _ => (false, false),
    };
    let named: Vec<&String> = rest
        .iter()
        .skip(usize::from(all) + usize::from(except))
        .collect();
    let goes = |name: &str| -> bool {
        let listed = named.iter().any(|n| same(n, name));
        match (all, except) {
            (true, true) => !listed,
            (true, false) => true,
            (false, _) => listed,
        }
    };
    m.units_changed();
    if !all && named.is_empty() {
        match st.current {
            Some(p) => {
                m.powers.remove(p);
            }
            None => m.refuse(at, &words.join(" "), "no power is named before it"),
        }
    } else {
        m.powers.retain(|p| !goes(&p.name));
    }
    st.current = None;
}

/// `DUMMY [ALL [EXCEPT]] [power...]`: the powers it names are dummies
/// (`super::dummies`).
fn dummy(words: &[&str], at: &Cursor<'_>, m: &mut Model, st: &State) {
    let names: Vec<&str> = m.powers.iter().map(|p| p.name.as_str()).collect();
    match super::dummies::directive(words, st.current, &names, same) {
        Ok(list) => {
            for p in list {
                m.powers[p].dummy = true;
            }
        }
        Err((what, why)) => m.refuse(at, &what, &why),
    }
    m.dummy_words.lines.push((at.file.to_string(), at.line));
}

/// `A BUD`: a starting unit of the power last named.
fn unit(words: &[&str], at: &Cursor<'_>, m: &mut Model, st: &mut State) {
    let Some(p) = st.current else {
        m.refuse(at, &words.join(" "), "a unit before any power is named");
        return;
    };
    let kind = if same(words[0], "A") { 'A' } else { 'F' };
    let place = words[1].to_string();
    // A unit replaces whatever unit was listed in its province, any
    // power's (DPjudge's rule: a variant moves a starting unit so).
    let base = |s: &str| s.split('/').next().unwrap_or(s).to_uppercase();
    let at_base = base(&place);
    let powers = &m.powers;
    let units_at = m.units_at.get_or_insert_with(|| {
        powers
            .iter()
            .enumerate()
            .flat_map(|(i, pw)| pw.units.iter().map(move |(_, u)| (base(u), i)))
            .collect()
    });
    if let Some(other) = units_at.insert(at_base.clone(), p) {
        m.powers[other].units.retain(|(_, u)| base(u) != at_base);
    }
    m.powers[p].units.push((kind, place));
}

/// `[old ->] NAME [(own[:letter])] [centre...]`: a power (declared, or
/// named again so that the lines below are its).
fn power_line(words: &[&str], at: &Cursor<'_>, m: &mut Model, st: &mut State) {
    let (old, rest) = match words {
        [old, arrow, rest @ ..] if *arrow == "->" => (Some(*old), rest),
        _ => (None, words),
    };
    let Some((name, rest)) = rest.split_first() else {
        m.refuse(at, &words.join(" "), "a renamed power without a new name");
        return;
    };
    let (own, rest) = match rest.split_first() {
        Some((w, r)) if w.starts_with('(') => (Some(w.trim_matches(|c| c == '(' || c == ')')), r),
        _ => (None, rest),
    };
    let found = old
        .and_then(|o| m.power_index(o))
        .or_else(|| m.power_index(name));
    let p = match found {
        Some(p) => {
            // A rename takes the new name; the power named again keeps
            // its first spelling (`U+S+A`'s capitals, not `USA`'s).
            if old.is_some() {
                m.powers[p].name = (*name).to_string();
            }
            p
        }
        None => {
            m.powers.push(PowerDef {
                name: (*name).to_string(),
                own_word: None,
                letter: None,
                homes: Default::default(),
                owns: None,
                units: Vec::new(),
                dummy: false,
                homes_given: false,
                special: super::sites::Special::default(),
            });
            m.powers.len() - 1
        }
    };
    if let Some(own) = own {
        let (word, letter) = own.split_once(':').unwrap_or((own, ""));
        if !word.is_empty() {
            m.powers[p].own_word = Some(word.to_string());
        }
        m.powers[p].letter = letter.chars().next();
    }
    st.current = Some(p);
    if m.powers[p].homes_given {
        m.powers[p].homes_given = false;
        forget_homes(&mut m.powers[p]);
    }
    centre_list(rest, at, m, Some(p));
}
