//! Hidden units (1066 rule 5): Harald Hardrada's A/Fs start "in Oceanus
//! Germanicus or the Wash", their "exact location ... known only by this
//! player and the GM until the end of the second move".
//!
//! The feature says what a reader may see: results, pages and pictures
//! ask `Features::visible` (and its two forms `hidden_from`,
//! `place_hidden_from`), which asks every feature's `visible`; and it
//! answers the judges that an order naming a hidden unit's place must not
//! be refused for what stands there (`unseen`).

use super::feature::{Feature, Load, Plugin, Sight};
use super::features::Viewer;
use crate::calendar::Phase;
use crate::map::{PowerId, ProvinceId};
use serde::Deserialize;
use std::sync::Arc;
use toml::Spanned;

/// The feature's entry in the registry.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "hidden",
    rank: 100,
    tables: &["hidden"],
    load,
};

/// `[[hidden]]`: units of a power whose whereabouts only it and the GM know.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawHidden {
    /// The power.
    power: Spanned<String>,
    /// While its units stand in these provinces...
    provinces: Vec<Spanned<String>>,
    /// ...up to and including this phase.
    until: Spanned<String>,
}

/// A resolved `[[hidden]]` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hidden {
    /// Whose units.
    pub power: PowerId,
    /// Where they are hidden.
    pub provinces: Vec<ProvinceId>,
    /// The last phase they are hidden in.
    pub until: Phase,
}

/// The variant's hidden units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HiddenUnits(pub Vec<Hidden>);

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    let raw: Vec<RawHidden> = l.table("hidden")?;
    let mut out = Vec::new();
    for h in &raw {
        let power = l.power(&h.power);
        let provinces = l.provinces(&h.provinces);
        let until = l.phase(&h.until);
        if let (Some(power), Some(until)) = (power, until) {
            out.push(Hidden {
                power,
                provinces,
                until,
            });
        }
    }
    (!out.is_empty()).then(|| Arc::new(HiddenUnits(out)) as Arc<dyn Feature>)
}

impl Feature for HiddenUnits {
    fn unseen(&self, orderer: PowerId, p: ProvinceId, phase: Option<Phase>) -> bool {
        self.0.iter().any(|h| {
            h.power != orderer && h.provinces.contains(&p) && phase.is_some_and(|ph| ph <= h.until)
        })
    }

    fn hides_anything(&self) -> bool {
        true
    }

    fn visible(&self, phase: Phase, viewer: Viewer, what: Sight) -> bool {
        let reader = match viewer {
            Viewer::Gm => return true,
            Viewer::Power(p) => Some(p),
            Viewer::Public => None,
        };
        !self.0.iter().any(|h| {
            phase <= h.until
                && match what {
                    Sight::Place(p) => reader != Some(h.power) && h.provinces.contains(&p),
                    Sight::Unit(power, p) => {
                        h.power == power && reader != Some(power) && h.provinces.contains(&p)
                    }
                }
        })
    }
}
