//! The map as read from a DPjudge map file ([`Model`]): its places,
//! powers, calendar and rule words, as DPjudge itself keeps them
//! (locations keyed as written, their case saying who may go where),
//! before anything is translated; and the reader's place in the files.

use super::Refusal;
use super::centres::Centres;
use super::locs::{Locs, Terrain};
use std::collections::{BTreeMap, HashMap};

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
    pub homes: Centres,
    /// `OWNS` centres, upper case, when given, with the file and line.
    pub owns: Option<(Vec<String>, String, usize)>,
    /// Starting units: kind letter and location as written.
    pub units: Vec<(char, String)>,
    /// `DUMMY`: no player plays it.
    pub dummy: bool,
    /// Its homes were last given by `INHABITS` or `HOME(S)`: DPjudge's
    /// next `INHABITS`, or line naming the power, gives them anew rather
    /// than adding to them (its `Map.inhabits` list).
    pub homes_given: bool,
    /// Its partisan sites (`*SIB`) and alternative home centres
    /// (`@CAL`): `super::sites`.
    pub special: super::sites::Special,
}

/// The map as read.
#[derive(Debug, Default)]
pub(super) struct Model {
    /// The places' names, by abbreviation (upper case).
    pub names: BTreeMap<String, PlaceName>,
    pub locs: Locs,
    /// Which power's starting unit stands in each province (upper case),
    /// made again when a line other than a unit's changes the units.
    pub units_at: Option<HashMap<String, usize>>,
    pub powers: Vec<PowerDef>,
    pub unowned: Centres,
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
    /// file (`super::ps`), by upper-case abbreviation (coasts' too:
    /// `BUL/EC`); empty without one.
    pub ps_info: std::collections::BTreeMap<String, (f32, f32)>,
    /// The PostScript map `ps_info` was read from.
    pub ps_file: Option<String>,
    /// `MAP name`: the map whose PostScript picture DPjudge draws this one
    /// on (the first such line's).
    pub root_map: Option<String>,
    /// Every file read, in order (the map first).
    pub files: Vec<String>,
    /// Borders marked `*` or `~` (see [`super::ports`]).
    pub marks: Vec<super::ports::Mark>,
    /// Borders open only to some centres' owners (`AEG(CON)`: see
    /// [`super::owner_marks`]).
    pub owner_marks: Vec<super::owner_marks::OwnerMark>,
    /// What was read and deliberately left out (cosmetic or
    /// administrative lines), for the imported file's header.
    pub notes: Vec<String>,
    pub refusals: Vec<Refusal>,
    /// The refusals made so far, to say each once without a search.
    pub refused: std::collections::HashSet<Refusal>,
    /// The dummy powers' rule words and `NO_DRAW` (`super::dummies`).
    pub dummy_words: super::dummies::DummyWords,
    /// `RULE FTF_PRESS`: face-to-face press (`super::press`).
    pub face_to_face: bool,
}
/// Where the reader is: the file and line, and the state lines carry.
pub(super) struct Cursor<'a> {
    pub file: &'a str,
    pub line: usize,
}

impl Model {
    /// The terrain of the location `key`, whatever its case.
    pub(super) fn terrain(&self, key: &str) -> Option<Terrain> {
        self.locs.get(key).map(|l| l.terrain)
    }

    pub(super) fn refuse(&mut self, at: &Cursor<'_>, what: &str, why: &str) {
        let r = Refusal {
            file: at.file.to_string(),
            line: at.line,
            what: what.to_string(),
            why: why.to_string(),
        };
        // A file included twice says the same thing twice.
        if self.refused.insert(r.clone()) {
            self.refusals.push(r);
        }
    }

    /// The starting units changed other than by a unit's line: which
    /// power stands where is worked out again at the next unit.
    pub(super) fn units_changed(&mut self) {
        self.units_at = None;
    }

    pub(super) fn power_index(&self, name: &str) -> Option<usize> {
        // DPjudge's `normPower`: case, `+` and spaces do not count
        // (Imperial's `U+S+A` is the military file's `USA`).
        let norm = |n: &str| n.to_uppercase().replace(['+', ' '], "");
        let name = norm(name);
        self.powers.iter().position(|p| norm(&p.name) == name)
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
