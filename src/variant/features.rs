//! The features a variant adds to standard Diplomacy, as data.
//!
//! Each feature is one optional table of the variant file, resolved here
//! against the map (names to ids) and checked with line numbers like the
//! map itself. The judges and the report ask the resolved [`Features`]
//! their rule questions; a variant without the table gets the standard
//! answer. Code that only one variant needs lives in a named hook module
//! and is switched on by its table, never by the variant's name.

use super::calendar::{Calendar, Phase};
use crate::map::builder::{LineIndex, Problem};
use crate::map::{Map, Named, PowerId, ProvinceId, Unit};
use serde::Deserialize;
use toml::Spanned;

/// `[[hidden]]`: units of a power whose whereabouts only it and the GM know
/// (1066 rule 5: Harald Hardrada's fleets for the first two moves).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawHidden {
    /// The power.
    pub power: Spanned<String>,
    /// While its units stand in these provinces...
    pub provinces: Vec<Spanned<String>>,
    /// ...up to and including this phase.
    pub until: Spanned<String>,
}

/// The raw feature tables of a variant file.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawFeatures {
    /// Hidden units.
    #[serde(default)]
    pub hidden: Vec<RawHidden>,
}

/// A resolved `[[hidden]]` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hidden {
    /// Whose units.
    pub power: PowerId,
    /// Where they are hidden.
    pub provinces: Vec<ProvinceId>,
    /// The last phase they are hidden in.
    pub until: Phase,
}

/// Who reads a result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    /// The GM: sees everything.
    Gm,
    /// A player of this power.
    Power(PowerId),
    /// An observer: sees what every player may see.
    Public,
}

/// A variant's features, resolved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Features {
    /// Hidden units.
    pub hidden: Vec<Hidden>,
}

impl Features {
    /// Whether the variant hides anything from anyone (then results are
    /// rendered per reader).
    pub fn hides_anything(&self) -> bool {
        !self.hidden.is_empty()
    }

    /// Whether `viewer` may not see where `u` stands in `phase`.
    pub fn hidden_from(&self, map: &Map, phase: Phase, u: &Unit, viewer: Viewer) -> bool {
        let owner = match viewer {
            Viewer::Gm => return false,
            Viewer::Power(p) => Some(p),
            Viewer::Public => None,
        };
        self.hidden.iter().any(|h| {
            h.power == u.power
                && owner != Some(u.power)
                && phase <= h.until
                && h.provinces.contains(&map.province_of(u.region))
        })
    }
}

fn province(
    map: &Map,
    s: &Spanned<String>,
    lines: &LineIndex,
    problems: &mut Vec<Problem>,
) -> Option<ProvinceId> {
    match map.lookup(s.get_ref()) {
        Some(Named::Province(p)) => Some(p),
        Some(Named::Region(r)) => Some(map.province_of(r)),
        None => {
            problems.push(Problem {
                line: lines.line(s.span().start),
                message: format!("unknown province `{}`", s.get_ref()),
            });
            None
        }
    }
}

fn power(
    map: &Map,
    s: &Spanned<String>,
    lines: &LineIndex,
    problems: &mut Vec<Problem>,
) -> Option<PowerId> {
    let p = map.lookup_power(s.get_ref());
    if p.is_none() {
        problems.push(Problem {
            line: lines.line(s.span().start),
            message: format!("unknown power `{}`", s.get_ref()),
        });
    }
    p
}

fn phase(
    cal: &Calendar,
    s: &Spanned<String>,
    lines: &LineIndex,
    problems: &mut Vec<Problem>,
) -> Option<Phase> {
    match cal.parse(s.get_ref()) {
        Ok(p) => Some(p),
        Err(e) => {
            problems.push(Problem {
                line: lines.line(s.span().start),
                message: e.to_string(),
            });
            None
        }
    }
}

/// Resolve the feature tables against the map and calendar.
pub fn resolve(
    raw: RawFeatures,
    map: &Map,
    cal: &Calendar,
    source: &str,
) -> Result<Features, Vec<Problem>> {
    let lines = LineIndex::new(source);
    let mut problems = Vec::new();
    let mut f = Features::default();
    for h in &raw.hidden {
        let pw = power(map, &h.power, &lines, &mut problems);
        let provs: Vec<ProvinceId> = h
            .provinces
            .iter()
            .filter_map(|p| province(map, p, &lines, &mut problems))
            .collect();
        let until = phase(cal, &h.until, &lines, &mut problems);
        if let (Some(power), Some(until)) = (pw, until) {
            f.hidden.push(Hidden {
                power,
                provinces: provs,
                until,
            });
        }
    }
    if problems.is_empty() {
        Ok(f)
    } else {
        Err(problems)
    }
}
