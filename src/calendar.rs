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
#[serde(deny_unknown_fields)]
pub struct Season {
    /// Name as printed in results (`Spring`, `July`).
    pub name: String,
    /// Phases in this season, in order.
    pub phases: Vec<PhaseKind>,
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
                Season {
                    name: "Spring".into(),
                    phases: vec![PhaseKind::Movement, PhaseKind::Retreat],
                },
                Season {
                    name: "Fall".into(),
                    phases: vec![PhaseKind::Movement, PhaseKind::Retreat],
                },
                Season {
                    name: "Winter".into(),
                    phases: vec![PhaseKind::Adjustment],
                },
            ],
            turn: Turn::Moves,
            start: Phase {
                year: 1901,
                season: 0,
                kind: PhaseKind::Movement,
            },
            era: String::new(),
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
    /// read within [`Calendar::YEARS`] comes near.)
    pub fn next(&self, p: Phase) -> Phase {
        let season = &self.seasons[p.season as usize];
        let i = season.phases.iter().position(|&k| k == p.kind).unwrap_or(0);
        if let Some(&k) = season.phases.get(i + 1) {
            return Phase { kind: k, ..p };
        }
        let (year, s) = if p.season as usize + 1 < self.seasons.len() {
            (p.year, p.season + 1)
        } else {
            (p.year.saturating_add(1), 0)
        };
        Phase {
            year,
            season: s,
            kind: self.seasons[s as usize].phases[0],
        }
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
        if self.era.is_empty() {
            format!("{} {}", self.season_name(p), p.year)
        } else {
            format!("{} {} {}", self.season_name(p), p.year, self.era)
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
        format!("{prefix}{}{}", p.year, p.kind.letter())
    }

    /// 1 when the seasons' first letters tell them apart, else 3.
    fn season_prefix_len(&self) -> usize {
        let firsts: Vec<char> = self
            .seasons
            .iter()
            .filter_map(|s| s.name.chars().next().map(|c| c.to_ascii_uppercase()))
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
        let year = read_year(words[1]).map_err(err)?;
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
            Ok(y) => y,
            Err(why) if why == OUT_OF_RANGE => return Err(why),
            Err(_) => return Err(NOT),
        };
        if prefix.is_empty() || (prefix.len() != 1 && prefix.len() != self.season_prefix_len()) {
            return Err(NOT);
        }
        let matches: Vec<usize> = self
            .seasons
            .iter()
            .enumerate()
            .filter(|(_, x)| {
                x.name.len() >= prefix.len() && x.name[..prefix.len()].eq_ignore_ascii_case(prefix)
            })
            .map(|(i, _)| i)
            .collect();
        let [season] = matches.as_slice() else {
            return Err(NOT);
        };
        let season = *season;
        let kind = match k {
            'M' => PhaseKind::Movement,
            'R' => PhaseKind::Retreat,
            'A' | 'B' => PhaseKind::Adjustment,
            'P' => PhaseKind::Placement,
            _ => return Err(NOT),
        };
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
                .map(|m| Season {
                    name: m.to_string(),
                    phases: vec![PhaseKind::Movement, PhaseKind::Retreat],
                })
                .collect(),
            turn: Turn::Moves,
            start: Phase {
                year: 1066,
                season: 2,
                kind: PhaseKind::Movement,
            },
            era: String::new(),
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
}
