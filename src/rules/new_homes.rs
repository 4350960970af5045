//! Home centres reassigned during the game (DPjudge's `NEWHOMES year...`
//! directive, which its 1897 map plays: "home supply centers [are]
//! completely reassigned to all players during the adjustment phase of the
//! specified game-year(s). Each power's home SCs will be all of the
//! centers he owns at the time"). Until the first reassignment no power
//! has home centres, and each builds in any centre it owns (DPjudge's
//! `Game.buildSites`); from then on each builds only in the centres it
//! owned at the last one.
//!
//! `[new-homes] years = [1899]` switches it on. The homes given are kept
//! in the position (`RuleState::homes`), so a stored game goes on with
//! them; the build sites are the `build_site_in` hook.

use super::feature::{Feature, Load, Plugin};
use super::{Position, RuleState, Ruleset};
use crate::adjudicate::Illegal;
use crate::adjudicate::questions::BuildSite;
use crate::map::{Map, PowerId, ProvinceId};
use serde::Deserialize;
use std::sync::Arc;

/// The feature's entry in the registry.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "new-homes",
    rank: 61,
    tables: &["new-homes"],
    load,
};

/// `[new-homes]`: the years (as printed) in whose adjustment phase the
/// homes are given anew.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNewHomes {
    years: Vec<i32>,
}

#[derive(Debug, Clone)]
struct NewHomes {
    /// The years as printed.
    years: Vec<i32>,
    /// The calendar counts the years down (kept negated inside).
    years_down: bool,
}

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    let raw = l.table::<RawNewHomes>("new-homes")?;
    Some(Arc::new(NewHomes {
        years: raw.years,
        years_down: l.calendar.years_down,
    }))
}

/// Whether the homes have been given yet: some power has some.
fn given(state: &RuleState) -> bool {
    state.homes.values().any(|h| !h.is_empty())
}

impl Feature for NewHomes {
    /// Before the first reassignment every owned centre is a site; after
    /// it, the power's new homes only (another centre is refused with the
    /// standard reason, which is then true).
    fn build_site_in(
        &self,
        map: &Map,
        state: &RuleState,
        _owners: &[Option<PowerId>],
        power: PowerId,
        p: ProvinceId,
        owned: bool,
    ) -> Option<Result<BuildSite, Illegal>> {
        if !map.province(p).supply_centre {
            return None;
        }
        let site = !given(state) || state.homes.get(power).is_some_and(|h| h.contains(&p));
        Some(match (site, owned) {
            (true, true) => Ok(BuildSite::Open(None)),
            (true, false) => Err(Illegal::NotOwned),
            (false, _) => Err(Illegal::NotABuildSite),
        })
    }

    /// On the way into the adjustment phase of a year listed: each power's
    /// homes become the centres it owns now.
    fn before_adjustment(&self, v: &dyn Ruleset, pos: &mut Position) {
        let year = if self.years_down {
            -pos.phase.year
        } else {
            pos.phase.year
        };
        if !self.years.contains(&year) {
            return;
        }
        let map = v.map();
        pos.state.homes.fit(map.powers().len());
        for power in map.power_ids() {
            let owned: Vec<ProvinceId> = map
                .province_ids()
                .filter(|p| pos.owners.get(p.index()).copied().flatten() == Some(power))
                .collect();
            if let Some(h) = pos.state.homes.get_mut(power) {
                *h = owned;
            }
        }
    }
}
