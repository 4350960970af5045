//! Partisan sites (DPjudge's `*SC` in a power's line, which its 1900 map
//! gives Russia in Siberia): a place that is not a supply centre, where
//! the power "will be eligible to build there if and only if the power
//! owns at least one, but not all of his original home supply centers"
//! (DPjudge's map file syntax page). While it may, each of its partisan
//! sites also counts as one more centre for its adjustments, as DPjudge
//! plays it (its `Game.ownership` gives the power an `SC*` per site, and
//! 1900's rules say so: Russia "is entitled to maintain one extra unit on
//! the map ... Additionally ... may use Siberia as a build site"); the
//! extra centre never counts towards victory. Losing the condition loses
//! the extra unit: the next adjustment owes a removal.
//!
//! `[[partisans]] power = "Russia", sites = ["Sib"]` switches it on. The
//! home centres are the map's, as at load (the "original" ones); the
//! rule reads who owns them now, so it keeps nothing in the position.

use super::RuleState;
use super::feature::{Feature, Load, Plugin};
use crate::adjudicate::Illegal;
use crate::adjudicate::questions::BuildSite;
use crate::map::{Map, PowerId, ProvinceId};
use serde::Deserialize;
use std::sync::Arc;
use toml::Spanned;

/// The feature's entry in the registry.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "partisans",
    rank: 58,
    tables: &["partisans"],
    load,
};

/// `[[partisans]]`: a power's partisan sites.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPartisans {
    power: Spanned<String>,
    sites: Vec<Spanned<String>>,
}

/// One power's partisan sites, with its original home centres.
#[derive(Debug, Clone)]
struct Sites {
    power: PowerId,
    sites: Vec<ProvinceId>,
    homes: Vec<ProvinceId>,
}

/// The variant's partisan sites, per power.
#[derive(Debug, Clone)]
struct Partisans(Vec<Sites>);

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    let raw: Vec<RawPartisans> = l.table("partisans")?;
    let mut out = Vec::new();
    for r in &raw {
        let power = l.power(&r.power);
        let sites = l.provinces(&r.sites);
        for (s, p) in r.sites.iter().zip(&sites) {
            if l.map.province(*p).supply_centre {
                l.problem_at(
                    s,
                    format!(
                        "`{}` is a supply centre: a partisan site is not",
                        s.get_ref()
                    ),
                );
            }
        }
        if let Some(power) = power {
            out.push(Sites {
                power,
                sites,
                homes: l.map.power(power).home_centres.clone(),
            });
        }
    }
    (!out.is_empty()).then(|| Arc::new(Partisans(out)) as Arc<dyn Feature>)
}

impl Sites {
    /// Whether the power owns at least one, but not all, of its home
    /// centres: when its partisan sites are open.
    fn roused(&self, owners: &[Option<PowerId>]) -> bool {
        let held = self
            .homes
            .iter()
            .filter(|h| owners.get(h.index()).copied().flatten() == Some(self.power))
            .count();
        held > 0 && held < self.homes.len()
    }
}

impl Feature for Partisans {
    fn refusals(&self) -> &'static [Illegal] {
        &[Illegal::PartisanSiteIdle]
    }

    /// A partisan site of `power` is open while the power holds some but
    /// not all of its homes; otherwise it says why not. Another power's
    /// partisan site is left to the standard rule (not a build site).
    fn build_site_in(
        &self,
        _map: &Map,
        _state: &RuleState,
        owners: &[Option<PowerId>],
        power: PowerId,
        p: ProvinceId,
        _owned: bool,
    ) -> Option<Result<BuildSite, Illegal>> {
        let s = self
            .0
            .iter()
            .find(|s| s.power == power && s.sites.contains(&p))?;
        Some(if s.roused(owners) {
            Ok(BuildSite::Open(None))
        } else {
            Err(Illegal::PartisanSiteIdle)
        })
    }

    /// One centre per partisan site while the sites are open.
    fn centres_beyond(&self, owners: &[Option<PowerId>], power: PowerId) -> u32 {
        self.0
            .iter()
            .filter(|s| s.power == power && s.roused(owners))
            .map(|s| u32::try_from(s.sites.len()).unwrap_or(u32::MAX))
            .sum()
    }

    /// `1 partisan site`: the chart says why the power keeps a unit more
    /// than it owns centres.
    fn centres_beyond_named(&self, owners: &[Option<PowerId>], power: PowerId) -> Option<String> {
        match self.centres_beyond(owners, power) {
            0 => None,
            1 => Some("1 partisan site".into()),
            n => Some(format!("{n} partisan sites")),
        }
    }
}
