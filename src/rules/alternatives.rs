//! Alternative home centres (DPjudge's `@SC` in a power's line, which its
//! Zeus map gives the USA in California): "a supply center where you may
//! build if you forego building in a normal owned and open home center.
//! Otherwise stated, it increases the number of build centers, but not
//! the number of builds" (DPjudge's map file syntax page). `@CAL(NYO)`
//! "designates CAL as an alternative to NYO only"; without the brackets
//! it stands in for any of the power's other home centres.
//!
//! As DPjudge plays it (`Game.buildSites`, `buildLimit`,
//! `buildAlternatives`): the alternative is a home centre like the
//! others; a power builds no more units than it has open (owned,
//! unoccupied) home centres that are not alternatives, and that is the
//! number of builds due it is told of (and owes, or waives); and it may not
//! build in an alternative and in every open home centre it stands in
//! for (so with none of them open, not in the alternative at all).
//!
//! `[[alternatives]] power = "USA", site = "Cal", for = ["Nyo"]` (`for`
//! left out: any other home centre) switches it on; the site must be one
//! of the power's home centres.

use super::feature::{Feature, Load, Plugin};
use crate::adjudicate::Illegal;
use crate::map::{Map, PowerId, ProvinceId, Unit};
use serde::Deserialize;
use std::sync::Arc;
use toml::Spanned;

/// The feature's entry in the registry.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "alternatives",
    rank: 59,
    tables: &["alternatives"],
    load,
};

/// `[[alternatives]]`: one alternative home centre.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAlternative {
    power: Spanned<String>,
    site: Spanned<String>,
    #[serde(default, rename = "for")]
    stands_for: Vec<Spanned<String>>,
}

/// An alternative home centre and the home centres it stands in for.
#[derive(Debug, Clone)]
struct Alternative {
    power: PowerId,
    site: ProvinceId,
    stands_for: Vec<ProvinceId>,
}

/// The variant's alternative home centres, with every power's home
/// centres that are not alternatives.
#[derive(Debug, Clone)]
struct Alternatives {
    list: Vec<Alternative>,
    regular: Vec<Vec<ProvinceId>>,
}

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    let raw: Vec<RawAlternative> = l.table("alternatives")?;
    let mut list = Vec::new();
    for r in &raw {
        let (Some(power), Some(site)) = (l.power(&r.power), l.province(&r.site)) else {
            continue;
        };
        if l.map.province(site).home_of != Some(power) {
            l.problem_at(
                &r.site,
                format!("`{}` is not a home centre of that power", r.site.get_ref()),
            );
            continue;
        }
        let stands_for = l.provinces(&r.stands_for);
        list.push(Alternative {
            power,
            site,
            stands_for,
        });
    }
    let regular = l
        .map
        .power_ids()
        .map(|p| {
            l.map
                .power(p)
                .home_centres
                .iter()
                .copied()
                .filter(|h| !list.iter().any(|a| a.power == p && a.site == *h))
                .collect()
        })
        .collect();
    (!list.is_empty()).then(|| Arc::new(Alternatives { list, regular }) as Arc<dyn Feature>)
}

impl Alternatives {
    /// `power`'s open home centres (owned, with none of `units` in them)
    /// that are not alternatives.
    fn open_regular(
        &self,
        map: &Map,
        owners: &[Option<PowerId>],
        power: PowerId,
        units: &[Unit],
    ) -> Vec<ProvinceId> {
        let open = |p: &ProvinceId| {
            owners.get(p.index()).copied().flatten() == Some(power)
                && !units.iter().any(|u| map.province_of(u.region) == *p)
        };
        let regular = self.regular.get(power.index()).map_or(&[][..], |r| r);
        regular.iter().copied().filter(open).collect()
    }
}

impl Feature for Alternatives {
    fn refusals(&self) -> &'static [Illegal] {
        &[Illegal::AlternativeSites]
    }

    /// A power with an alternative builds no more units than it has open
    /// home centres that are not alternatives, so that is the number of
    /// builds due (DPjudge's `buildLimit`): the alternative "increases the
    /// number of build centers, but not the number of builds".
    fn builds_most(
        &self,
        map: &Map,
        owners: &[Option<PowerId>],
        power: PowerId,
        units: &[Unit],
    ) -> Option<u32> {
        if !self.list.iter().any(|a| a.power == power) {
            return None;
        }
        let n = self.open_regular(map, owners, power, units).len();
        Some(u32::try_from(n).unwrap_or(u32::MAX))
    }

    fn build_limited(
        &self,
        map: &Map,
        owners: &[Option<PowerId>],
        power: PowerId,
        at: ProvinceId,
        start: &[Unit],
        built: &[Unit],
    ) -> Option<Illegal> {
        let mine: Vec<&Alternative> = self.list.iter().filter(|a| a.power == power).collect();
        if mine.is_empty() {
            return None;
        }
        let open_regular = self.open_regular(map, owners, power, start);
        let used: Vec<ProvinceId> = built
            .iter()
            .filter(|u| u.power == power)
            .map(|u| map.province_of(u.region))
            .collect();
        // No more builds than open home centres that are no alternative.
        if used.len() >= open_regular.len() {
            return Some(Illegal::AlternativeSites);
        }
        // Not in an alternative and in all the open centres it stands in
        // for.
        for a in &mine {
            let group: Vec<ProvinceId> = std::iter::once(a.site)
                .chain(
                    open_regular
                        .iter()
                        .copied()
                        .filter(|h| a.stands_for.is_empty() || a.stands_for.contains(h)),
                )
                .collect();
            if group.contains(&at) && group.iter().all(|g| *g == at || used.contains(g)) {
                return Some(Illegal::AlternativeSites);
            }
        }
        None
    }
}
