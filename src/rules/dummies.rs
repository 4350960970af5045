//! Dummy powers: powers on the board that no player ever plays (DPjudge's
//! `DUMMY` powers in civil disorder, `RULE CD_DUMMIES`). Sengoku's
//! neutral daimyo, Zeus's minor nations and Ambition & Empire's papal,
//! Catholic, Protestant and Muslim states are such powers: they start
//! with centres and units, defend them, and are there to be conquered.
//!
//! ```toml
//! [dummies]
//! powers = ["Neutral"]
//! builds = "made"      # or "waived" (the default)
//! ```
//!
//! A dummy power's seat is never offered to a player (CREATE marks it,
//! JOIN and START pass it over, and the game never waits for it); its
//! units hold, a dislodged unit of it is disbanded (nobody orders its
//! retreat); the judge makes the removals it owes, as for any power in
//! civil disorder, and its builds are waived, or made by the judge where
//! the variant says `builds = "made"` (DPjudge's `CD_BUILDS`). The
//! results' chart names it "(dummy)", so players see whom nobody plays.
//!
//! Only dummies in civil disorder are a rule here: a dummy ordered by a
//! player (DPjudge's `CONTROL`, or vassal states) is not, and the
//! importer refuses those words with their reason.

use super::Position;
use super::feature::{Feature, Load, Plugin};
use crate::map::PowerId;
use serde::Deserialize;
use std::sync::Arc;
use toml::Spanned;

/// The feature's entry in the registry.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "dummies",
    rank: 36,
    tables: &["dummies"],
    load,
};

/// `[dummies]`: who nobody plays, and what becomes of their builds.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawDummies {
    /// The dummy powers, by name.
    powers: Vec<Spanned<String>>,
    /// `waived` (the default) or `made`.
    #[serde(default)]
    builds: Option<Spanned<String>>,
}

/// The variant's dummy powers.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Dummies {
    powers: Vec<PowerId>,
    /// The judge builds what a dummy is owed (CD_BUILDS).
    builds_made: bool,
}

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    let raw: RawDummies = l.table("dummies")?;
    let mut powers = Vec::new();
    for name in &raw.powers {
        if let Some(p) = l.power(name) {
            if powers.contains(&p) {
                l.problem_at(
                    name,
                    format!("dummy power `{}` named twice", name.get_ref()),
                );
            } else {
                powers.push(p);
            }
        }
    }
    let builds_made = match raw.builds.as_ref().map(|b| b.get_ref().as_str()) {
        None | Some("waived") => false,
        Some("made") => true,
        Some(other) => {
            if let Some(b) = &raw.builds {
                l.problem_at(
                    b,
                    format!("[dummies] builds: `{other}` is neither `waived` nor `made`"),
                );
            }
            false
        }
    };
    if powers.len() == l.map.powers().len() {
        if let Some(first) = raw.powers.first() {
            l.problem_at(
                first,
                "[dummies]: every power is a dummy, so nobody could play".into(),
            );
        }
        return None;
    }
    (!powers.is_empty()).then(|| {
        Arc::new(Dummies {
            powers,
            builds_made,
        }) as Arc<dyn Feature>
    })
}

impl Feature for Dummies {
    fn unplayed(&self, power: PowerId) -> bool {
        self.powers.contains(&power)
    }

    fn silenced(&self, _pos: &Position, power: PowerId) -> bool {
        self.powers.contains(&power)
    }

    fn silenced_why(&self) -> &'static str {
        "This power is a dummy: nobody plays it, its units hold, and the \
         judge makes what must be made for it."
    }

    fn builds_for_silent(&self, power: PowerId) -> bool {
        self.builds_made && self.powers.contains(&power)
    }
}
