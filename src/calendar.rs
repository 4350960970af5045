//! Game time as data: which seasons a year has, which phases each season
//! holds, and where a game starts.
//!
//! Standard Diplomacy is Spring and Fall moves with a Winter adjustment, but
//! Abstraction II plays a move a month from July 1914, 1066 adjusts every
//! second month, 1000 AD opens with a Winter 999 placement and Ard-Ri with a
//! Winter 379 build. All of them are a list of seasons with their phases, so
//! none needs code of its own here. Phases are plain values; "now" and
//! deadlines are the game's business.

use serde::{Deserialize, Serialize};
use std::fmt;

pub use crate::orders::PhaseKind;

/// One season of the year with the phases it holds, in order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Season {
    /// Name as printed in results (`Spring`, `July`).
    pub name: String,
    /// Phases in this season, in order.
    pub phases: Vec<PhaseKind>,
    /// How many years go by on the way into this season (DPjudge's
    /// `NEWYEAR:5`: Hundred moves five years a turn). When no season says,
    /// the year goes on by one into the first season, as in the standard
    /// game; once one says, only those that say move the year.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_year: Option<i32>,
    /// The season is played only in the years this rule keeps; in the
    /// others the year goes back to its first season (DPjudge's
    /// `IFYEARDIV:10`: Hundred adjusts once a decade).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when_year: Option<YearRule>,
}

/// Which years a season is played in: those that leave `remainder` when
/// divided by `every` (the year as printed, so `B.C. 272` is even).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct YearRule {
    /// The divisor, at least 1.
    pub every: u32,
    /// The remainder wanted, below `every`.
    #[serde(default)]
    pub remainder: u32,
}

impl YearRule {
    /// Whether the printed year `shown` is one of the rule's.
    pub fn keeps(self, shown: i32) -> bool {
        self.every > 0
            && i64::from(shown).rem_euclid(i64::from(self.every)) == i64::from(self.remainder)
    }
}

impl Season {
    /// A season of these phases, the year moving as the standard game's.
    pub fn new(name: &str, phases: Vec<PhaseKind>) -> Season {
        Season {
            name: name.to_string(),
            phases,
            new_year: None,
            when_year: None,
        }
    }
}

/// A point in game time: year, season (index into the calendar) and phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Phase {
    /// Game year (1901, 379, 1914).
    pub year: i32,
    /// Index of the season in [`Calendar::seasons`].
    pub season: u8,
    /// What happens in it.
    pub kind: PhaseKind,
}

/// How a movement phase is played: the turn structure.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Turn {
    /// Each movement phase is one move of every unit, judged at once, with
    /// its own retreat and adjustment phases (the standard game).
    #[default]
    Moves,
    /// A whole year in one order sheet (1700 AD II rules 4 and 6): each unit
    /// acts in two impulses (a leader three), the impulses judged in rounds,
    /// retreats after each, then the builds of the same sheet.
    Impulses,
}

/// The year's seasons and the first phase of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Calendar {
    /// Seasons in order through the year.
    pub seasons: Vec<Season>,
    /// How a movement phase is played.
    pub turn: Turn,
    /// The phase a new game starts in.
    pub start: Phase,
    /// Printed after the year, as in `Winter 999 AD`; usually empty.
    pub era: String,
    /// The years count down as printed (`B.C. 273`, then `B.C. 272`):
    /// kept negated inside, so that a later phase is still a greater one
    /// wherever phases are compared, and only printing and reading turn
    /// them round.
    pub years_down: bool,
}

/// A phase name that does not fit the calendar.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot read `{text}` as a phase of this game: {why}")]
pub struct PhaseParseError {
    /// The text as given.
    pub text: String,
    /// What did not fit.
    pub why: String,
}

impl Calendar {
    /// The years a phase may name. Every phase the judge reads (a stored or
    /// hand-written position, a variant's start and last phase, a phase a
    /// command names) is read by [`Calendar::parse`], which refuses other
    /// years, so that the phases after it never run past `i32::MAX`: the
    /// offline tools once turned Winter 2147483647 into Spring
    /// -2147483648. A game would need some two thousand million years of
    /// play from the last of these to get there.
    pub const YEARS: std::ops::RangeInclusive<i32> = -999_999..=999_999;

    /// The standard Spring/Fall/Winter calendar starting in Spring 1901.
    pub fn standard() -> Calendar {
        Calendar {
            seasons: vec![
                Season::new("Spring", vec![PhaseKind::Movement, PhaseKind::Retreat]),
                Season::new("Fall", vec![PhaseKind::Movement, PhaseKind::Retreat]),
                Season::new("Winter", vec![PhaseKind::Adjustment]),
            ],
            turn: Turn::Moves,
            start: Phase {
                year: 1901,
                season: 0,
                kind: PhaseKind::Movement,
            },
            era: String::new(),
            years_down: false,
        }
    }

    /// Check the calendar's own consistency; the loader reports these.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.seasons.is_empty() {
            out.push("the calendar has no seasons".to_string());
        }
        if self.seasons.len() > 255 {
            out.push("the calendar has more than 255 seasons".to_string());
        }
        for s in &self.seasons {
            if s.phases.is_empty() {
                out.push(format!("season `{}` has no phases", s.name));
            }
            let mut seen = s.phases.clone();
            seen.sort();
            seen.dedup();
            if seen.len() != s.phases.len() {
                out.push(format!("season `{}` lists a phase twice", s.name));
            }
            if s.new_year.is_some_and(|n| n < 1) {
                out.push(format!(
                    "season `{}`: new-year must be at least 1 (years-down = true counts down)",
                    s.name
                ));
            }
            if let Some(w) = s.when_year
                && (w.every == 0 || w.remainder >= w.every)
            {
                out.push(format!(
                    "season `{}`: when-year needs every >= 1 and a remainder below it",
                    s.name
                ));
            }
        }
        if self.seasons.first().is_some_and(|s| s.when_year.is_some()) {
            out.push(
                "the first season cannot have when-year: it is where the others go back to"
                    .to_string(),
            );
        }
        if !self.contains(self.start) {
            out.push("the start phase is not in the calendar".to_string());
        }
        out
    }

    /// Whether `p` names a phase this calendar has.
    pub fn contains(&self, p: Phase) -> bool {
        self.seasons
            .get(p.season as usize)
            .is_some_and(|s| s.phases.contains(&p.kind))
    }

    /// The phase after `p`, wrapping into the next year after the last season.
    /// (The year saturates rather than wraps at `i32::MAX`, which no phase
    /// read within [`Calendar::YEARS`] comes near.) A season's `new-year`
    /// moves the year on the way into it; a season whose `when-year` does
    /// not keep the year is passed over for the first season, as DPjudge's
    /// `IFYEARDIV` goes back to the start of its `FLOW`.
    pub fn next(&self, p: Phase) -> Phase {
        let season = &self.seasons[p.season as usize];
        let i = season.phases.iter().position(|&k| k == p.kind).unwrap_or(0);
        if let Some(&k) = season.phases.get(i + 1) {
            return Phase { kind: k, ..p };
        }
        let mut year = p.year;
        let mut s = p.season as usize + 1;
        // Each pass either returns or goes back to the first season, which
        // has no `when-year`: two passes do it.
        for _ in 0..2 {
            if s >= self.seasons.len() {
                s = 0;
            }
            year = year.saturating_add(self.years_into(s));
            match self.seasons[s].when_year {
                Some(w) if s != 0 && !w.keeps(self.shown(year)) => s = 0,
                _ => break,
            }
        }
        Phase {
            year,
            season: s as u8,
            kind: self.seasons[s].phases[0],
        }
    }

    /// How many years go by on the way into season `s`.
    fn years_into(&self, s: usize) -> i32 {
        match self.seasons[s].new_year {
            Some(n) => n,
            None if s == 0 && self.seasons.iter().all(|x| x.new_year.is_none()) => 1,
            None => 0,
        }
    }

    /// A year as printed: turned round when the years count down.
    fn shown(&self, year: i32) -> i32 {
        if self.years_down { -year } else { year }
    }

    /// The year of `p` as printed (`273` for B.C. 273).
    pub fn shown_year(&self, p: Phase) -> i32 {
        self.shown(p.year)
    }

    /// The next phase of kind `kind` at or after `p`: for skipping phases in
    /// which nobody has a choice.
    pub fn next_of_kind(&self, p: Phase, kind: PhaseKind) -> Phase {
        let mut q = self.next(p);
        for _ in 0..self.seasons.len() * 4 + 4 {
            if q.kind == kind {
                return q;
            }
            q = self.next(q);
        }
        q
    }

    /// Season name of a phase.
    pub fn season_name(&self, p: Phase) -> &str {
        &self.seasons[p.season as usize].name
    }

    /// `Spring 1901`, `July 1914`, `Winter 999 AD`.
    pub fn season_year(&self, p: Phase) -> String {
        let year = self.shown_year(p);
        if self.era.is_empty() {
            format!("{} {year}", self.season_name(p))
        } else {
            format!("{} {year} {}", self.season_name(p), self.era)
        }
    }

    /// `Spring 1901 movement`: unambiguous and readable.
    pub fn label(&self, p: Phase) -> String {
        format!("{} {}", self.season_year(p), p.kind.word())
    }

    /// Short name such as `S1901M` (first letter of the season), the form
    /// the classic judges used in `HISTORY` commands.
    ///
    /// When two seasons share a first letter (months: March and May), the
    /// first three letters stand for the season: `Mar1066M`.
    pub fn short(&self, p: Phase) -> String {
        let name = &self.seasons[p.season as usize].name;
        let n = self.season_prefix_len();
        let mut prefix: String = name.chars().take(n).collect();
        if let Some(first) = prefix.get(..1) {
            prefix = format!("{}{}", first.to_ascii_uppercase(), &prefix[1..]);
        }
        format!("{prefix}{}{}", self.shown_year(p), p.kind.letter())
    }

    /// 1 when the seasons' first letters tell them apart, else 3.
    /// Seasons of one name (Hundred's `A.D.` moves and its `A.D.`
    /// adjustments) count once: the phase letter tells them apart.
    fn season_prefix_len(&self) -> usize {
        let mut names: Vec<&str> = Vec::new();
        for s in &self.seasons {
            if !names.iter().any(|n| n.eq_ignore_ascii_case(&s.name)) {
                names.push(&s.name);
            }
        }
        let firsts: Vec<char> = names
            .iter()
            .filter_map(|s| s.chars().next().map(|c| c.to_ascii_uppercase()))
            .collect();
        let unique = firsts
            .iter()
            .enumerate()
            .all(|(i, c)| !firsts[i + 1..].contains(c));
        if unique { 1 } else { 3 }
    }

    /// Read a phase as people and the DATC files write it: `Spring 1901
    /// movement`, `Fall 1901, Adjustment`, `S1901M`, `July 1914`. An
    /// adjustment written against a season without one (`Fall 1901,
    /// Adjustment` in a calendar with a Winter) means the next adjustment
    /// phase of that year.
    pub fn parse(&self, text: &str) -> Result<Phase, PhaseParseError> {
        let err = |why: &str| PhaseParseError {
            text: text.to_string(),
            why: why.to_string(),
        };
        let cleaned = text.replace(',', " ");
        let words: Vec<&str> = cleaned.split_whitespace().collect();
        if words.len() == 1 {
            return self.parse_short(words[0]).map_err(err);
        }
        if words.len() < 2 {
            return Err(err("expected a season and a year"));
        }
        let season = self
            .seasons
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(words[0]))
            .ok_or_else(|| {
                err(&format!(
                    "unknown season `{}` (this game has {})",
                    words[0],
                    self.seasons
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
        let year = self.shown(read_year(words[1]).map_err(err)?);
        let mut rest = &words[2..];
        if rest
            .first()
            .is_some_and(|w| w.eq_ignore_ascii_case(&self.era))
            && !self.era.is_empty()
        {
            rest = &rest[1..];
        }
        let kind = match rest.first() {
            None => self.seasons[season].phases[0],
            Some(w) => parse_kind(w).ok_or_else(|| err(&format!("unknown phase `{w}`")))?,
        };
        let p = Phase {
            year,
            season: season as u8,
            kind,
        };
        if self.contains(p) {
            return Ok(p);
        }
        // `Fall 1901, Adjustment` -> the next adjustment in the same year.
        for later in season + 1..self.seasons.len() {
            if self.seasons[later].phases.contains(&kind) {
                return Ok(Phase {
                    year,
                    season: later as u8,
                    kind,
                });
            }
        }
        Err(err(&format!(
            "{} has no {} phase",
            self.seasons[season].name,
            kind.word()
        )))
    }

    /// `S1901M`; why not, if it is not one.
    fn parse_short(&self, w: &str) -> Result<Phase, &'static str> {
        const NOT: &str = "expected a season and a year";
        if !w.is_ascii() || w.len() < 3 {
            return Err(NOT);
        }
        let n = w
            .find(|c: char| c.is_ascii_digit() || c == '-')
            .ok_or(NOT)?;
        let prefix = &w[..n];
        let k = w.chars().last().ok_or(NOT)?.to_ascii_uppercase();
        let year = match read_year(w.get(n..w.len() - 1).ok_or(NOT)?) {
            Ok(y) => self.shown(y),
            Err(why) if why == OUT_OF_RANGE => return Err(why),
            Err(_) => return Err(NOT),
        };
        if prefix.is_empty() || (prefix.len() != 1 && prefix.len() != self.season_prefix_len()) {
            return Err(NOT);
        }
        let kind = match k {
            'M' => PhaseKind::Movement,
            'R' => PhaseKind::Retreat,
            'A' | 'B' => PhaseKind::Adjustment,
            'P' => PhaseKind::Placement,
            _ => return Err(NOT),
        };
        // Seasons of one name are told apart by the phase.
        let matches: Vec<usize> = self
            .seasons
            .iter()
            .enumerate()
            .filter(|(_, x)| {
                x.name.len() >= prefix.len()
                    && x.name.is_char_boundary(prefix.len())
                    && x.name[..prefix.len()].eq_ignore_ascii_case(prefix)
                    && x.phases.contains(&kind)
            })
            .map(|(i, _)| i)
            .collect();
        let [season] = matches.as_slice() else {
            return Err(NOT);
        };
        let season = *season;
        let p = Phase {
            year,
            season: season as u8,
            kind,
        };
        if !self.contains(p) {
            return Err(NOT);
        }
        Ok(p)
    }
}

/// Why a year is refused.
const OUT_OF_RANGE: &str = "the year is out of range (-999999 to 999999)";

/// A year as written (`1901`, `-44`), within [`Calendar::YEARS`].
fn read_year(text: &str) -> Result<i32, &'static str> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("the year is not a number");
    }
    // All digits: a number too long for an i32 is out of range as well.
    match text.parse::<i32>() {
        Ok(y) if Calendar::YEARS.contains(&y) => Ok(y),
        _ => Err(OUT_OF_RANGE),
    }
}

fn parse_kind(w: &str) -> Option<PhaseKind> {
    match w.to_ascii_lowercase().as_str() {
        "movement" | "moves" | "move" | "m" => Some(PhaseKind::Movement),
        "retreat" | "retreats" | "r" => Some(PhaseKind::Retreat),
        "adjustment" | "adjustments" | "build" | "builds" | "a" => Some(PhaseKind::Adjustment),
        "placement" | "placements" | "p" => Some(PhaseKind::Placement),
        _ => None,
    }
}

impl fmt::Display for PhaseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn years_past_the_range_are_refused_and_the_last_goes_on() {
        let c = Calendar::standard();
        for text in [
            "Winter 2147483647",
            "W2147483647A",
            "Spring 1000000 movement",
            "S-1000000M",
            "Spring 99999999999",
        ] {
            let e = c.parse(text).unwrap_err();
            assert!(e.why.contains("out of range"), "{text}: {e}");
        }
        assert_eq!(
            c.parse("Spring x1901").unwrap_err().why,
            "the year is not a number"
        );
        let last = c.parse("Winter 999999").unwrap();
        assert_eq!(c.short(c.next(last)), "S1000000M");
        assert_eq!(c.parse("S-44M").unwrap().year, -44);
    }

    #[test]
    fn standard_year_runs_spring_fall_winter() {
        let c = Calendar::standard();
        let mut p = c.start;
        let mut seen = Vec::new();
        for _ in 0..6 {
            seen.push(c.short(p));
            p = c.next(p);
        }
        assert_eq!(
            seen,
            ["S1901M", "S1901R", "F1901M", "F1901R", "W1901A", "S1902M"]
        );
    }

    #[test]
    fn months_sharing_a_letter_get_three_letter_short_names() {
        let months = [
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ];
        let c = Calendar {
            seasons: months
                .iter()
                .map(|m| Season::new(m, vec![PhaseKind::Movement, PhaseKind::Retreat]))
                .collect(),
            turn: Turn::Moves,
            start: Phase {
                year: 1066,
                season: 2,
                kind: PhaseKind::Movement,
            },
            era: String::new(),
            years_down: false,
        };
        assert_eq!(c.short(c.start), "Mar1066M");
        assert_eq!(c.parse("Mar1066M").unwrap(), c.start);
        assert_eq!(c.parse("may1066r").unwrap().season, 4);
        assert!(c.parse("M1066M").is_err(), "ambiguous: March or May");
        assert_eq!(Calendar::standard().parse("s1901m").unwrap().season, 0);
    }

    #[test]
    fn datc_adjustment_after_fall_means_winter() {
        let c = Calendar::standard();
        let p = c.parse("Fall 1901, Adjustment").unwrap();
        assert_eq!(c.label(p), "Winter 1901 adjustment");
        assert_eq!(c.parse("S1902M").unwrap().year, 1902);
        assert!(c.parse("Summer 1901").is_err());
    }

    /// DPjudge's Hundred: `FLOW NEWYEAR:5 A.D.:MOVEMENT,RETREATS
    /// IFYEARDIV:10 A.D.:ADJUSTMENTS`.
    fn hundred() -> Calendar {
        let mut moves = Season::new("A.D.", vec![PhaseKind::Movement, PhaseKind::Retreat]);
        moves.new_year = Some(5);
        let mut adjust = Season::new("A.D.", vec![PhaseKind::Adjustment]);
        adjust.when_year = Some(YearRule {
            every: 10,
            remainder: 0,
        });
        let mut c = Calendar {
            seasons: vec![moves, adjust],
            ..Calendar::standard()
        };
        c.start = c.parse("A.D. 1425 movement").unwrap();
        c
    }

    #[test]
    fn five_years_a_turn_and_adjustments_once_a_decade() {
        let c = hundred();
        assert!(c.problems().is_empty(), "{:?}", c.problems());
        let mut p = c.start;
        let mut seen = Vec::new();
        for _ in 0..8 {
            seen.push(c.label(p));
            p = c.next(p);
        }
        assert_eq!(
            seen,
            [
                "A.D. 1425 movement",
                "A.D. 1425 retreat",
                "A.D. 1430 movement",
                "A.D. 1430 retreat",
                "A.D. 1430 adjustment",
                "A.D. 1435 movement",
                "A.D. 1435 retreat",
                "A.D. 1440 movement",
            ]
        );
        let adj = c.parse("A.D. 1430 adjustment").unwrap();
        assert_eq!(c.short(adj), "A1430A");
        assert_eq!(c.parse("A1430A").unwrap(), adj);
        assert_eq!(c.parse("A1435M").unwrap().season, 0);
    }

    #[test]
    fn years_counting_down_print_down_and_compare_up() {
        // Classical: NEWYEAR:-1, B.C. moves, IFYEARDIV:2, B.C. adjustments.
        let mut moves = Season::new("B.C.", vec![PhaseKind::Movement, PhaseKind::Retreat]);
        moves.new_year = Some(1);
        let mut adjust = Season::new("B.C.", vec![PhaseKind::Adjustment]);
        adjust.when_year = Some(YearRule {
            every: 2,
            remainder: 0,
        });
        let mut c = Calendar {
            seasons: vec![moves, adjust],
            years_down: true,
            ..Calendar::standard()
        };
        c.start = c.parse("B.C. 273 movement").unwrap();
        let mut p = c.start;
        let mut seen = Vec::new();
        for _ in 0..6 {
            let q = c.next(p);
            assert!(q > p, "{} after {}", c.label(q), c.label(p));
            seen.push(c.short(p));
            p = q;
        }
        assert_eq!(seen, ["B273M", "B273R", "B272M", "B272R", "B272A", "B271M"]);
        assert_eq!(c.season_year(p), "B.C. 271");
    }

    #[test]
    fn a_first_season_with_when_year_is_a_problem() {
        let mut c = Calendar::standard();
        c.seasons[0].when_year = Some(YearRule {
            every: 2,
            remainder: 0,
        });
        c.seasons[1].new_year = Some(0);
        let p = c.problems();
        assert!(p.iter().any(|m| m.contains("first season")), "{p:?}");
        assert!(p.iter().any(|m| m.contains("new-year")), "{p:?}");
    }
}
