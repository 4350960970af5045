//! Build sites a power earns by taking centres: 1066 rule 4 (an invader's
//! first three captures are build sites) and 1700 AD II rule 10a (a site
//! is one only on the second turn of holding it without a break). What
//! the taking of a centre must remember for them lives here; the build
//! rules that read it are `features::Ruled::build_site`'s.

use super::feature::{Feature, Load, Plugin};
use super::{Position, Ruleset};
use crate::map::{ProvinceId, Unit};
use std::sync::Arc;

/// The feature's entry in the registry: `[[builds.captures]]` and
/// `[[builds.sites]]` with `after-turns` (the tables themselves are still
/// read with the others, `features::RawBuilds`).
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "captures",
    rank: 65,
    tables: &[],
    load,
};

/// Centres remembered as they are taken.
#[derive(Debug, Clone, Copy)]
struct Captures;

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    l.legacy
        .remembers_captures()
        .then(|| Arc::new(Captures) as Arc<dyn Feature>)
}

impl Feature for Captures {
    fn on_centre_taken(&self, v: &dyn Ruleset, pos: &mut Position, u: &Unit, p: ProvinceId) {
        let builds = &v.features().builds;
        // Where holding a centre long enough matters, note since when.
        if builds.sites.iter().any(|s| s.1 == p && s.3 > 0) {
            for list in pos.state.held_since.values_mut() {
                list.retain(|(q, _)| *q != p);
            }
            if let Some(list) = pos.state.held_since.get_mut(u.power) {
                list.push((p, pos.phase.year));
            }
        }
        // The first captures of a power that builds on them, in order.
        let counts = builds.captures.iter().any(|(pw, _, _)| *pw == u.power);
        if counts
            && let Some(list) = pos.state.captures.get_mut(u.power)
            && !list.contains(&p)
        {
            list.push(p);
        }
    }
}
