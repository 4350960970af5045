//! Abstraction II rule 5: seas and lands frozen in some seasons. Fleets
//! in a frozen space stand, support and convoy nothing, and cannot be
//! dislodged; where the ice holds armies too, they cannot be dislodged
//! either and leave only overland. The movement judge asks
//! `RuleQuestions::icebound`; this feature answers.

use super::feature::{Feature, Load, Plugin};
use crate::calendar::Phase;
use crate::map::{Mobility, ProvinceId, UnitKind};
use serde::Deserialize;
use std::sync::Arc;
use toml::Spanned;

/// The feature's entry in the registry.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "ice",
    rank: 90,
    tables: &["frozen"],
    load,
};

/// `[[frozen]]`: spaces frozen in some seasons.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawFrozen {
    /// The frozen spaces: fleets there stand, support and convoy nothing,
    /// and cannot be dislodged.
    provinces: Vec<Spanned<String>>,
    /// The seasons they are frozen in.
    seasons: Vec<Spanned<String>>,
    /// Of those, where armies cannot be dislodged either, and may leave
    /// only overland.
    #[serde(default)]
    armies_held: Vec<Spanned<String>>,
}

/// A resolved `[[frozen]]`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Frozen {
    /// The frozen spaces.
    provinces: Vec<ProvinceId>,
    /// Season indexes.
    seasons: Vec<u8>,
    /// Where armies are held fast too.
    armies_held: Vec<ProvinceId>,
}

/// The variant's ice.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Ice(Vec<Frozen>);

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    let raw: Vec<RawFrozen> = l.table("frozen")?;
    let mut out = Vec::new();
    for fr in &raw {
        let provinces = l.provinces(&fr.provinces);
        let seasons = fr.seasons.iter().filter_map(|s| l.season(s)).collect();
        let armies_held = l.provinces(&fr.armies_held);
        out.push(Frozen {
            provinces,
            seasons,
            armies_held,
        });
    }
    (!out.is_empty()).then(|| Arc::new(Ice(out)) as Arc<dyn Feature>)
}

impl Feature for Ice {
    fn has_ice(&self) -> bool {
        true
    }

    fn icebound(&self, p: ProvinceId, kind: UnitKind, phase: Phase) -> bool {
        let fleet = kind.mobility().intersects(Mobility::FLEET);
        self.0.iter().any(|f| {
            f.seasons.contains(&phase.season)
                && if fleet {
                    f.provinces.contains(&p)
                } else {
                    f.armies_held.contains(&p)
                }
        })
    }
}
