//! A variant: its map, calendar, victory rule and rule options, loaded from
//! one `games/<variant>.toml` file (the format is documented at the top of
//! `games/standard.toml`).
//!
//! What a variant changes is data wherever it can be; what data cannot say is
//! a small named hook chosen by the variant record, never a test on the
//! variant's name in shared code.

/// The judge's rule options, re-exported where variants set them.
pub use crate::adjudicate::rulebook as rules;
/// Game time, re-exported where variants were always read from.
pub(crate) use crate::calendar;
/// A variant's rule features, whose homes are in [`crate::rules`].
pub use crate::rules::features;

pub use crate::adjudicate::rulebook::Rulebook;
pub use crate::calendar::{Calendar, Phase, PhaseKind, Season, Turn};
use crate::map::Map;
use crate::map::builder::{
    self, LineIndex, MapTables, Problem, RawPower, RawProvince, StartingUnit,
};
use crate::orders::OrderSyntax;
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

/// When a game is won or over.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Victory {
    /// A power owning this many centres after an adjustment phase wins
    /// (0: no such rule).
    #[serde(default)]
    pub centres: u32,
    /// Per power, a number in place of `centres` (1000 AD rule 12).
    #[serde(default)]
    pub by_power: BTreeMap<String, u32>,
    /// A power owning this many centres more than its home centres wins
    /// (1700 AD II rule 11).
    #[serde(default)]
    pub gain: Option<u32>,
    /// The game ends when only this many powers hold centres; the largest
    /// of them wins (1000 AD rule 12e).
    #[serde(default)]
    pub remaining: Option<u32>,
    /// The game ends after this phase if nobody has won (`December 1918
    /// adjustment`).
    #[serde(default)]
    pub last_phase: Option<String>,
    /// Who wins when the last phase has been played.
    #[serde(default)]
    pub at_end: AtEnd,
    /// The only years the GM may end the game after with `SET END` (1700
    /// AD II rule 11: "either 1713 ... or 1721"); empty: any year.
    #[serde(default)]
    pub end_years: Vec<i32>,
}

/// How a game that reaches its last phase ends.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AtEnd {
    /// The power with most centres wins; a tie is a draw among the tied.
    #[default]
    MostCentres,
    /// The power with most units on the board wins (Abstraction II rule
    /// 7); a tie is a draw among the tied.
    MostUnits,
    /// The power with most centres beyond its home centres wins (1700 AD
    /// II rule 11); a tie is a draw among the tied.
    MostGained,
    /// A draw among every power still in the game (1000 AD rule 11).
    Draw,
}

/// A loaded, checked variant.
#[derive(Debug, Clone)]
pub struct Variant {
    /// Short name used in commands (`standard`).
    pub name: String,
    /// Title for reports (`Standard Diplomacy`).
    pub title: String,
    /// The board.
    pub map: Map,
    /// Game time.
    pub calendar: Calendar,
    /// Victory.
    pub victory: Victory,
    /// Rule options.
    pub rules: Rulebook,
    /// Variant notations the game's orders may use: what its features
    /// need, derived from them (a notation never switches a rule on).
    pub syntax: OrderSyntax,
    /// What the variant adds to the standard rules.
    pub features: features::Features,
    /// Units on the board at the start.
    pub starting_units: Vec<StartingUnit>,
    /// The text it was loaded from, as written: what a game keeps of a
    /// variant from a file (see [`Variant::fingerprint`]), so that it
    /// plays the variant it started with whatever later happens to the
    /// file.
    pub source: std::sync::Arc<str>,
}

pub use crate::map::builder::LoadError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    variant: RawVariant,
    calendar: Spanned<RawCalendar>,
    victory: Victory,
    #[serde(default)]
    rules: Rulebook,
    /// The notation table of older files: the features now say it.
    #[serde(default)]
    orders: Option<toml::Value>,
    #[serde(default = "default_coasts")]
    coasts: BTreeMap<String, String>,
    #[serde(default)]
    powers: Vec<RawPower>,
    #[serde(default)]
    provinces: Vec<RawProvince>,
    #[serde(default, rename = "box")]
    boxes: Vec<features::RawBox>,
    #[serde(default)]
    destroy: Option<features::RawDestroy>,
    #[serde(default)]
    builds: features::RawBuilds,
    #[serde(default)]
    reserve: Vec<features::RawReserve>,
    #[serde(default)]
    garrisons: BTreeMap<toml::Spanned<String>, u32>,
    #[serde(default)]
    mountains: Vec<toml::Spanned<String>>,
    #[serde(default)]
    stacking: crate::map::Stacking,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    name: String,
    title: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCalendar {
    seasons: Vec<Season>,
    #[serde(default)]
    turn: calendar::Turn,
    start: String,
    #[serde(default)]
    era: String,
    #[serde(default)]
    years_down: bool,
}

/// The calendar of `[calendar]`, its problems reported at its line.
fn calendar_of(
    raw: Spanned<RawCalendar>,
    lines: &LineIndex,
    problems: &mut Vec<Problem>,
) -> Calendar {
    let cal_line = lines.line(raw.span().start);
    let rc = raw.into_inner();
    let mut calendar = Calendar {
        seasons: rc.seasons,
        turn: rc.turn,
        start: Phase {
            year: 0,
            season: 0,
            kind: PhaseKind::Movement,
        },
        era: rc.era,
        years_down: rc.years_down,
    };
    let calendar_ok = calendar.problems().is_empty();
    for m in calendar.problems() {
        if !m.contains("start phase") {
            problems.push(Problem {
                line: cal_line,
                message: m,
            });
        }
    }
    if calendar_ok || !calendar.seasons.is_empty() {
        match calendar.parse(&rc.start) {
            Ok(p) => calendar.start = p,
            Err(e) => problems.push(Problem {
                line: cal_line,
                message: format!("calendar start: {e}"),
            }),
        }
    }
    calendar
}

fn default_coasts() -> BTreeMap<String, String> {
    [
        ("nc", "north coast"),
        ("sc", "south coast"),
        ("ec", "east coast"),
        ("wc", "west coast"),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect()
}

impl Variant {
    /// Parse and check a variant file. Every problem found is reported, each
    /// with its line.
    pub fn from_toml(source: &str) -> Result<Variant, LoadError> {
        let fail = |e: toml::de::Error| {
            let line = e.span().map_or(0, |s| LineIndex::new(source).line(s.start));
            LoadError {
                problems: vec![Problem {
                    line,
                    message: e.message().trim().to_string(),
                }],
            }
        };
        // The rule features that are plug-ins read their own tables
        // (`rules::feature::load`); the rest of the file is read here.
        let mut root = toml::de::DeTable::parse(source).map_err(fail)?;
        let mut plugin_tables = toml::de::DeTable::new();
        for plugin in crate::rules::PLUGINS {
            for key in plugin.tables {
                if let Some((k, v)) = root.get_mut().remove_entry(*key) {
                    plugin_tables.insert(k, v);
                }
            }
        }
        let raw = RawFile::deserialize(toml::de::Deserializer::from(root)).map_err(fail)?;
        let lines = LineIndex::new(source);
        let mut problems = Vec::new();

        let calendar = calendar_of(raw.calendar, &lines, &mut problems);
        if let Some(last) = &raw.victory.last_phase
            && let Err(e) = calendar.parse(last)
        {
            problems.push(Problem {
                line: 0,
                message: format!("victory last-phase: {e}"),
            });
        }

        let built = builder::build(&MapTables {
            source,
            coasts: &raw.coasts,
            provinces: &raw.provinces,
            powers: &raw.powers,
            stacking: raw.stacking,
        });
        let (map, starting_units) = match built {
            Ok(x) => x,
            Err(mut p) => {
                problems.append(&mut p);
                problems.sort_by_key(|p| p.line);
                return Err(LoadError { problems });
            }
        };
        for name in raw.victory.by_power.keys() {
            if map.lookup_power(name).is_none() {
                problems.push(Problem {
                    line: 0,
                    message: format!("victory by-power: unknown power `{name}`"),
                });
            }
        }
        if raw.victory.centres as usize > map.supply_centre_count() {
            problems.push(Problem {
                line: 0,
                message: format!(
                    "victory needs {} centres but the map has only {}",
                    raw.victory.centres,
                    map.supply_centre_count()
                ),
            });
        }
        let mut features = match features::resolve(
            features::RawFeatures {
                boxes: raw.boxes,
                destroy: raw.destroy,
                builds: raw.builds,
                reserve: raw.reserve,
                garrisons: raw.garrisons,
                mountains: raw.mountains,
            },
            &map,
            &calendar,
            source,
        ) {
            Ok(f) => f,
            Err(mut p) => {
                problems.append(&mut p);
                features::Features::default()
            }
        };
        features.plugins = crate::rules::feature::load(
            &mut plugin_tables,
            &map,
            &calendar,
            &features,
            &lines,
            &mut problems,
        );
        if raw.orders.is_some() {
            problems.push(Problem {
                line: 0,
                message: "the [orders] table is no longer read: a variant's notation follows \
                          from its features ([army-fleet], [defensive-army], [leaders], \
                          [ferry], [destroy], [builds] convert, [calendar] turn)"
                    .into(),
            });
        }
        let syntax = features.syntax();
        if !problems.is_empty() {
            problems.sort_by_key(|p| p.line);
            return Err(LoadError { problems });
        }
        Ok(Variant {
            name: raw.variant.name,
            title: raw.variant.title,
            map,
            calendar,
            victory: raw.victory,
            rules: raw.rules,
            syntax,
            features,
            starting_units,
            source: source.into(),
        })
    }

    /// A fingerprint of the text the variant was loaded from: 12 hex
    /// digits of its BLAKE2b hash. Two files with the same fingerprint
    /// are the same variant; a file edited, if only in a comment, is
    /// another.
    pub fn fingerprint(&self) -> String {
        use blake2::{Blake2b512, Digest};
        let hash = Blake2b512::digest(self.source.as_bytes());
        hash.iter().take(6).map(|b| format!("{b:02x}")).collect()
    }

    /// The name the judge knows this copy of the variant by: a shipped
    /// variant's own name (`standard`), any other's name with its
    /// fingerprint (`hundred#1a2b3c...`), which stays the same whatever
    /// later happens to its file.
    pub fn key(&self) -> String {
        if BUILTIN
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(&self.name))
        {
            self.name.to_ascii_lowercase()
        } else {
            format!("{}#{}", self.name.to_ascii_lowercase(), self.fingerprint())
        }
    }

    /// The one-line summary `check-game` prints.
    pub fn summary(&self) -> String {
        format!(
            "{}: {} provinces, {} supply centres, {} powers, {} starting units",
            self.name,
            self.map
                .provinces()
                .iter()
                .filter(|p| p.terrain != crate::map::Terrain::Impassable)
                .count(),
            self.map.supply_centre_count(),
            self.map.powers().len(),
            self.starting_units.len()
        )
    }
}

impl crate::rules::Ruleset for Variant {
    fn map(&self) -> &Map {
        &self.map
    }
    fn rulebook(&self) -> &Rulebook {
        &self.rules
    }
    fn calendar(&self) -> &Calendar {
        &self.calendar
    }
    fn features(&self) -> &features::Features {
        &self.features
    }
    fn starting_units(&self) -> &[StartingUnit] {
        &self.starting_units
    }
}

/// Variant files shipped in the binary, so the judge runs with no `games/`
/// directory at hand. A GM may still load a file of their own.
pub const BUILTIN: &[(&str, &str)] = &[
    ("standard", include_str!("../../games/standard.toml")),
    ("1066", include_str!("../../games/1066.toml")),
    ("ardri", include_str!("../../games/ardri.toml")),
    ("1000ad", include_str!("../../games/1000ad.toml")),
    (
        "abstraction2",
        include_str!("../../games/abstraction2.toml"),
    ),
    ("1700ad", include_str!("../../games/1700ad.toml")),
];

/// Load a shipped variant by name.
pub fn builtin(name: &str) -> Option<Result<Variant, LoadError>> {
    BUILTIN
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, text)| Variant::from_toml(text))
}
