//! Remote builds: a power builds in any centre it owns, but only while it
//! still owns at least one of its home centres (DPjudge's `REMOTE_BUILDS`
//! rule word, which Aberration and Classical play: "requires that a power
//! must still own at least one of its original home centers to be
//! eligible to build", with `BUILD_ANY` silently included). The variant
//! file switches it on with an empty `[remote-builds]` table.
//!
//! The build sites are the `build_site` hook; a power cut off from every
//! home centre with builds due gives no adjustment orders (the `silenced`
//! hook), so its player is told why its builds are refused, and the
//! builds it is owed are not made. Removals are not touched: a power that
//! must remove units still chooses which.

use super::Position;
use super::feature::{Feature, Load, Plugin};
use crate::adjudicate::Illegal;
use crate::adjudicate::questions::BuildSite;
use crate::calendar::PhaseKind;
use crate::map::{Map, PowerId, ProvinceId};
use serde::Deserialize;
use std::sync::Arc;

/// The feature's entry in the registry.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "remote-builds",
    rank: 63,
    tables: &["remote-builds"],
    load,
};

/// `[remote-builds]`: the table switches the rule on; it has no keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRemoteBuilds {}

/// The variant builds anywhere owned, while a home centre is held. It
/// keeps the home centres of each power, by power index, as the map has
/// them at load (the loader's map is the game's).
#[derive(Debug, Clone)]
struct RemoteBuilds {
    homes: Vec<Vec<ProvinceId>>,
}

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    l.table::<RawRemoteBuilds>("remote-builds")?;
    let homes = l
        .map
        .power_ids()
        .map(|p| l.map.power(p).home_centres.clone())
        .collect();
    Some(Arc::new(RemoteBuilds { homes }))
}

impl RemoteBuilds {
    /// Whether `power` owns none of its home centres in `pos`.
    fn cut_off(&self, pos: &Position, power: PowerId) -> bool {
        let homes = self.homes.get(power.index()).map_or(&[][..], |h| h);
        !homes
            .iter()
            .any(|h| pos.owners.get(h.index()).copied().flatten() == Some(power))
    }
}

impl Feature for RemoteBuilds {
    /// Every owned centre is a site; a centre owned by another is not
    /// yours. A place that is no centre is left to the standard rule.
    fn build_site(
        &self,
        map: &Map,
        _power: PowerId,
        p: ProvinceId,
        owned: bool,
    ) -> Option<Result<BuildSite, Illegal>> {
        if !map.province(p).supply_centre {
            return None;
        }
        Some(if owned {
            Ok(BuildSite::Open(None))
        } else {
            Err(Illegal::NotOwned)
        })
    }

    /// In an adjustment with builds due (more centres owned than units), a
    /// power holding none of its home centres builds nothing.
    fn silenced(&self, pos: &Position, power: PowerId) -> bool {
        if pos.phase.kind != PhaseKind::Adjustment {
            return false;
        }
        let centres = pos.owners.iter().filter(|o| **o == Some(power)).count();
        let units = pos.units.iter().filter(|u| u.power == power).count();
        centres > units && self.cut_off(pos, power)
    }

    fn silenced_why(&self) -> &'static str {
        "Your power holds none of its home centres, and under this map's \
         remote builds (DPjudge's REMOTE_BUILDS) only a power that still \
         owns one of its home centres may build: no builds now."
    }
}
