//! Dormant powers, a house rule for a game that starts before every
//! player has joined: until the end of a given phase a dormant power
//! gives no orders (its units hold, it builds nothing, and removals it
//! owes are made for it, as for a power in civil disorder), then it plays
//! like any other.
//!
//! `[[dormant]] power = "Italy", until = "Fall 1901 movement"`
//!
//! The worked example of a rule feature as a plug-in (issue #36): this
//! file and its test are the whole of it.

use super::Position;
use super::feature::{Feature, Load, Plugin};
use crate::calendar::Phase;
use crate::map::PowerId;
use serde::Deserialize;
use std::sync::Arc;
use toml::Spanned;

/// The feature's entry in the registry.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "dormant",
    rank: 35,
    tables: &["dormant"],
    load,
};

/// `[[dormant]]`: a power that sits out the first phases.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawDormant {
    /// The power.
    power: Spanned<String>,
    /// The last phase it sits out.
    until: Spanned<String>,
}

/// The dormant powers, each with the last phase it sits out.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Dormant(Vec<(PowerId, Phase)>);

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    let raw: Vec<RawDormant> = l.table("dormant")?;
    let mut out = Vec::new();
    for d in &raw {
        if let (Some(power), Some(until)) = (l.power(&d.power), l.phase(&d.until)) {
            out.push((power, until));
        }
    }
    (!out.is_empty()).then(|| Arc::new(Dormant(out)) as Arc<dyn Feature>)
}

impl Feature for Dormant {
    fn silenced(&self, pos: &Position, power: PowerId) -> bool {
        self.0
            .iter()
            .any(|(p, until)| *p == power && pos.phase <= *until)
    }

    fn silenced_why(&self) -> &'static str {
        "Your power is dormant (the GM's house rule for this game): it gives \
         no orders until its phase has passed, and its units hold."
    }
}
