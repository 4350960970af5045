//! Reading a DPjudge map file, directive by directive, into a [`Model`]:
//! the map as DPjudge itself keeps it (locations keyed as written, their
//! case saying who may go where), before anything is translated.
//!
//! The language is line-based (DPjudge's map file syntax page): a line is
//! a place name (`Name = abbr alias...`), a terrain with its borders
//! (`COAST SPA/NC ABUTS GAS MAO POR`), a power with its home centres, a
//! unit of the power last named, or a directive. Directives this judge
//! has no rule for are refused with their line, never skipped.

use super::Refusal;

/// DPjudge's terrain words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Terrain {
    Land,
    Coast,
    Water,
    Port,
    Shut,
}

/// A location: a province, or one coast of a province with split coasts
/// (`SPA/NC`), keyed as the file writes it: a province whose main part
/// fleets may not enter (`spa`) is written in lower case.
#[derive(Debug, Clone)]
pub(super) struct Loc {
    pub key: String,
    pub terrain: Terrain,
    /// The borders as written: `TUS` both, `tus` armies only, `Tys`
    /// fleets only (and convoys).
    pub abuts: Vec<String>,
}

/// A place's names.
#[derive(Debug, Clone)]
pub(super) struct PlaceName {
    /// The abbreviation, upper case (`ADR`, `BUL/EC`).
    pub abbr: String,
    pub name: String,
    pub aliases: Vec<String>,
    /// Aliases DPjudge marks ambiguous (`tyr?`).
    pub ambiguous: Vec<String>,
}

/// A power as the file declares it.
#[derive(Debug, Clone)]
pub(super) struct PowerDef {
    /// As written (`AUSTRIA`, `U+S+A`, `_NEUTRAL`).
    pub name: String,
    pub own_word: Option<String>,
    pub letter: Option<char>,
    /// Home centres, upper case.
    pub homes: Vec<String>,
    /// `OWNS` centres, upper case, when given, with the file and line.
    pub owns: Option<(Vec<String>, String, usize)>,
    /// Starting units: kind letter and location as written.
    pub units: Vec<(char, String)>,
    /// `DUMMY`: no player plays it.
    pub dummy: bool,
}

/// The map as read.
#[derive(Debug, Default)]
pub(super) struct Model {
    pub names: Vec<PlaceName>,
    pub locs: Vec<Loc>,
    pub powers: Vec<PowerDef>,
    pub unowned: Vec<String>,
    /// `FLOW`: its words in order (seasons, `NEWYEAR`, `IFYEARDIV`).
    pub flow: Vec<super::calendar::FlowWord>,
    /// `BEGIN`: season, year, phase word.
    pub begin: Option<(String, i64, String)>,
    pub victory: Option<u32>,
    pub build_any: bool,
    pub home_builds: bool,
    /// `RULE REMOTE_BUILDS`: any owned centre, while a home one is held.
    pub remote_builds: bool,
    /// `NEWHOMES year...`: the years whose adjustments give homes anew.
    pub new_homes: Vec<i32>,
    /// `RULE MOBILIZE`: no starting units; the game opens with builds in
    /// the home centres, in the adjustment phase before `BEGIN`'s.
    pub mobilize: bool,
    /// The places' points in the DPjudge PostScript map beside the map
    /// file (`super::ps`), by upper-case abbreviation; empty without one.
    pub ps_info: std::collections::BTreeMap<String, (f32, f32)>,
    /// Borders marked `*` or `~` (see [`super::ports`]).
    pub marks: Vec<super::ports::Mark>,
    /// Borders open only to some centres' owners (`AEG(CON)`: see
    /// [`super::owner_marks`]).
    pub owner_marks: Vec<super::owner_marks::OwnerMark>,
    /// What was read and deliberately left out (cosmetic or
    /// administrative lines), for the imported file's header.
    pub notes: Vec<String>,
    pub refusals: Vec<Refusal>,
    /// The dummy powers' rule words and `NO_DRAW` (`super::dummies`).
    pub dummy_words: super::dummies::DummyWords,
    /// `RULE FTF_PRESS`: face-to-face press (`super::press`).
    pub face_to_face: bool,
}

/// How deep `USE` may nest: deeper is a loop.
const MAX_DEPTH: usize = 8;

/// Where the reader is: the file and line, and the state lines carry.
struct Cursor<'a> {
    file: &'a str,
    line: usize,
}

impl Model {
    fn locate(&self, key: &str) -> Option<usize> {
        let up = key.to_uppercase();
        self.locs.iter().position(|l| same(&l.key, &up))
    }

    /// The terrain of the location `key`, whatever its case.
    pub fn terrain(&self, key: &str) -> Option<Terrain> {
        self.locate(key).map(|i| self.locs[i].terrain)
    }

    fn refuse(&mut self, at: &Cursor<'_>, what: &str, why: &str) {
        let r = Refusal {
            file: at.file.to_string(),
            line: at.line,
            what: what.to_string(),
            why: why.to_string(),
        };
        // A file included twice says the same thing twice.
        if !self.refusals.contains(&r) {
            self.refusals.push(r);
        }
    }

    fn power_index(&self, name: &str) -> Option<usize> {
        // DPjudge's `normPower`: case, `+` and spaces do not count
        // (Imperial's `U+S+A` is the military file's `USA`).
        let norm = |n: &str| n.to_uppercase().replace(['+', ' '], "");
        let name = norm(name);
        self.powers.iter().position(|p| norm(&p.name) == name)
    }
}

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
    read_file(name, fetch, &mut m, &mut st, &mut stack);
    m
}

fn read_file(
    name: &str,
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
            let (file, line) = stack
                .last()
                .map_or((name.to_string(), 0), |f| (f.clone(), 0));
            m.refusals.push(Refusal {
                file,
                line,
                what: format!("USE {name}"),
                why: format!("cannot read it: {e}"),
            });
            return;
        }
    };
    stack.push(name.to_string());
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
                read_file(&file, fetch, m, st, stack);
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
        place_name(line, at, m);
        return;
    }
    match first {
        "LAND" | "COAST" | "WATER" | "PORT" | "SHUT" | "AMEND" => terrain_line(words, at, m),
        "DROP" => {
            for w in &words[1..] {
                drop_place(w, m);
            }
        }
        "UNOWNED" | "NEUTRAL" => {
            st.current = None;
            centre_list(&words[1..], at, m, None);
        }
        "CENTERS" | "OWNS" => owns(words, first, at, m, st),
        "INHABITS" | "HOME" | "HOMES" => homes(words, first, at, m, st),
        "UNITS" => match st.current {
            Some(p) => m.powers[p].units.clear(),
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

/// `[old ->] Place Name = abbr alias...`
fn place_name(line: &str, at: &Cursor<'_>, m: &mut Model) {
    let (left, right) = line.split_once('=').unwrap_or((line, ""));
    let mut rights = right.split_whitespace();
    let Some(abbr) = rights.next() else {
        m.refuse(at, line, "a place name without an abbreviation");
        return;
    };
    let abbr = abbr.to_uppercase();
    let (old, name) = match left.split_once("->") {
        Some((old, name)) => (Some(old.trim().to_uppercase()), name.trim()),
        None => (None, left.trim()),
    };
    let mut aliases = Vec::new();
    let mut ambiguous = Vec::new();
    for a in rights {
        if let Some(a) = a.strip_suffix('?') {
            ambiguous.push(a.to_lowercase());
        } else {
            aliases.push(a.replace('+', " ").to_lowercase());
        }
    }
    if let Some(old) = old {
        rename(&old, &abbr, m);
    }
    m.names.retain(|n| n.abbr != abbr);
    m.names.push(PlaceName {
        abbr,
        name: name.to_string(),
        aliases,
        ambiguous,
    });
}

/// The case pattern of `like` applied to `to`: lower, upper or title.
fn same_case(like: &str, to: &str) -> String {
    if like == like.to_lowercase() {
        to.to_lowercase()
    } else if like == like.to_uppercase() {
        to.to_uppercase()
    } else {
        title(to)
    }
}

/// Python's `str.title()`, which DPjudge compares against: a letter after
/// a letter is lower case, any other letter upper case.
pub(super) fn title(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut after_letter = false;
    for c in s.chars() {
        if after_letter {
            out.extend(c.to_lowercase());
        } else {
            out.extend(c.to_uppercase());
        }
        after_letter = c.is_alphabetic();
    }
    out
}

/// Whether two names are the same but for case (DPjudge compares them in
/// capitals, accented letters included).
pub(super) fn same(a: &str, b: &str) -> bool {
    a.to_uppercase() == b.to_uppercase()
}

/// `OLD -> ...`: every mention of the location `old` takes the name `new`.
fn rename(old: &str, new: &str, m: &mut Model) {
    for l in &mut m.locs {
        if same(&l.key, old) {
            l.key = same_case(&l.key, new);
        }
        for a in &mut l.abuts {
            if same(a, old) {
                *a = same_case(a, new);
            }
        }
    }
    for p in &mut m.powers {
        for c in p
            .homes
            .iter_mut()
            .chain(p.owns.iter_mut().flat_map(|o| o.0.iter_mut()))
        {
            if same(c, old) {
                *c = new.to_string();
            }
        }
        for (_, u) in &mut p.units {
            if same(u, old) {
                *u = new.to_string();
            }
        }
    }
    for c in &mut m.unowned {
        if same(c, old) {
            *c = new.to_string();
        }
    }
    m.names.retain(|n| !same(&n.abbr, old));
    super::ports::rename_marks(&mut m.marks, old, new);
    super::owner_marks::rename(&mut m.owner_marks, old, new);
}

/// `DROP abbr`: the place, its coasts, and every border to them.
fn drop_place(w: &str, m: &mut Model) {
    let up = w.to_uppercase();
    let gone = |k: &str| {
        let k = k.to_uppercase();
        k == up || (!up.contains('/') && k.split('/').next() == Some(up.as_str()))
    };
    m.locs.retain(|l| !gone(&l.key));
    for l in &mut m.locs {
        l.abuts.retain(|a| !gone(a));
    }
    m.names.retain(|n| !gone(&n.abbr));
    super::ports::drop_marks(&mut m.marks, w);
    super::owner_marks::drop_place(&mut m.owner_marks, w);
}

/// `COAST SPA/NC ABUTS GAS MAO POR` and the other terrain words.
fn terrain_line(words: &[&str], at: &Cursor<'_>, m: &mut Model) {
    let line = words.join(" ");
    let Some(key) = words.get(1) else {
        m.refuse(at, &line, "a terrain without a place");
        return;
    };
    let kind = words[0].to_uppercase();
    let abuts: &[&str] = match words.get(2) {
        Some(w) if same(w, "ABUTS") => &words[3..],
        Some(_) => {
            m.refuse(at, &line, "expected ABUTS after the place");
            return;
        }
        None => &[],
    };
    let mut written: Vec<String> = Vec::with_capacity(abuts.len());
    for a in abuts {
        let bare = a.strip_prefix('-').unwrap_or(a);
        if bare.contains(':') {
            m.refuse(at, &line, &format!("`{a}`: borders open to some powers only (or one-way) are not a rule this judge has"));
            return;
        }
        if a.starts_with('-') {
            written.push((*a).to_string());
            continue;
        }
        let a = match super::owner_marks::owner_mark(&mut m.owner_marks, key, a) {
            Ok(a) => a,
            Err(why) => {
                m.refuse(at, &line, &why);
                return;
            }
        };
        match super::ports::border_mark(&mut m.marks, key, &a) {
            Ok(b) => written.push(b),
            Err(why) => {
                m.refuse(at, &line, &why);
                return;
            }
        }
    }
    let abuts: Vec<&str> = written.iter().map(String::as_str).collect();
    let abuts = abuts.as_slice();
    let terrain = match kind.as_str() {
        "LAND" => Terrain::Land,
        "COAST" => Terrain::Coast,
        "WATER" => Terrain::Water,
        "PORT" => Terrain::Port,
        "SHUT" => Terrain::Shut,
        _ => {
            amend(key, abuts, at, m);
            return;
        }
    };
    // A terrain with no ABUTS keeps the borders the place had, if it is
    // written in the same case (DPjudge's Map.load: renaissance.map's
    // `LAND SWI` opens Switzerland with the standard map's borders).
    let kept = m.locate(key).and_then(|i| {
        let old = m.locs.remove(i);
        (words.len() == 2 && old.key == *key).then_some(old.abuts)
    });
    m.locs.push(Loc {
        key: (*key).to_string(),
        terrain,
        abuts: kept.unwrap_or_else(|| abuts.iter().map(|a| (*a).to_string()).collect()),
    });
}

/// `AMEND abbr ABUTS X -Y`: the borders changed, the rest kept (in the
/// case `key` is written in now).
fn amend(key: &str, abuts: &[&str], at: &Cursor<'_>, m: &mut Model) {
    let Some(i) = m.locate(key) else {
        m.refuse(
            at,
            &format!("AMEND {key}"),
            "amends a place never given a terrain",
        );
        return;
    };
    m.locs[i].key = key.to_string();
    for a in abuts {
        let l = &mut m.locs[i];
        if let Some(gone) = a.strip_prefix('-') {
            l.abuts.retain(|x| !same(x, gone));
            super::ports::unmark(&mut m.marks, gone);
            super::owner_marks::unmark(&mut m.owner_marks, gone);
        } else {
            l.abuts.retain(|x| !same(x, a));
            l.abuts.push((*a).to_string());
        }
    }
}

/// A list of centres for `UNOWNED` (power `None`) or a power's homes:
/// `-X` takes one off.
fn centre_list(words: &[&str], at: &Cursor<'_>, m: &mut Model, power: Option<usize>) {
    for w in words {
        if let Some(c) = w.strip_prefix('-') {
            let c = c.to_uppercase();
            match power {
                Some(p) => m.powers[p].homes.retain(|x| *x != c),
                None => m.unowned.retain(|x| *x != c),
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
        if w.starts_with(['*', '@', '~']) {
            m.refuse(
                at,
                w,
                "partisan sites (*), alternative home centres (@) and hidden builds (~) \
                 are not rules this judge has",
            );
            continue;
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
        if !list.contains(&c) {
            list.push(c);
        }
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
        list.push(w.to_uppercase());
    }
    m.powers[p].owns = Some((list, at.file.to_string(), at.line));
}

/// `INHABITS c...` (added to) and `HOME(S) c...` (in place of) the homes.
fn homes(words: &[&str], first: &str, at: &Cursor<'_>, m: &mut Model, st: &mut State) {
    let Some(p) = st.current else {
        m.refuse(at, &words.join(" "), "no power is named before it");
        return;
    };
    if first != "INHABITS" {
        m.powers[p].homes.clear();
    }
    centre_list(&words[1..], at, m, Some(p));
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
    for pw in &mut m.powers {
        pw.units.retain(|(_, u)| base(u) != base(&place));
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
                homes: Vec::new(),
                owns: None,
                units: Vec::new(),
                dummy: false,
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
    centre_list(rest, at, m, Some(p));
}
