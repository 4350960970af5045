//! Building in any home centre: a power may build in every centre it owns
//! that was a home centre of any power at the start, not only in its own
//! (DPjudge's `HOME_BUILDS` rule word, which GMs of its games know). The
//! variant file switches it on with an empty `[home-builds]` table.
//!
//! The whole feature is this file: the build-site question is a hook of
//! [`Feature`], so the shared judges and the variant loader do not change.
//! A centre that was nobody's home is still refused with the standard
//! reason ("builds may only be made in home centres"), which stays true.

use super::feature::{Feature, Load, Plugin};
use crate::adjudicate::Illegal;
use crate::adjudicate::questions::BuildSite;
use crate::map::{Map, PowerId, ProvinceId};
use serde::Deserialize;
use std::sync::Arc;

/// The feature's entry in the registry.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "home-builds",
    rank: 62,
    tables: &["home-builds"],
    load,
};

/// `[home-builds]`: the table switches the rule on; it has no keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHomeBuilds {}

/// The variant builds in any power's home centres.
#[derive(Debug, Clone, Copy)]
struct HomeBuilds;

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    l.table::<RawHomeBuilds>("home-builds")?;
    Some(Arc::new(HomeBuilds))
}

impl Feature for HomeBuilds {
    /// Another power's home centre is a site once owned; the power's own
    /// and the centres that were nobody's home are left to the standard
    /// rule, so its reasons are the ones a player is told there.
    fn build_site(
        &self,
        map: &Map,
        power: PowerId,
        p: ProvinceId,
        owned: bool,
    ) -> Option<Result<BuildSite, Illegal>> {
        let prov = map.province(p);
        let someone_elses_home = prov.supply_centre && prov.home_of.is_some_and(|h| h != power);
        let answer = if owned {
            Ok(BuildSite::Open(None))
        } else {
            Err(Illegal::NotOwned)
        };
        someone_elses_home.then_some(answer)
    }
}
