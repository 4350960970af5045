//! 1000 AD rules 6-8: the defensive army, `3D`. It costs two builds, is
//! three strong, keeps to its homeland, and a power has one at most. The
//! judges know the unit kind and its rules, which are fixed; the
//! `[defensive-army]` table puts it in the variant.

use super::feature::{Feature, Load, Plugin};
use crate::map::{Unit, UnitKind};
use crate::orders::OrderSyntax;
use serde::Deserialize;
use std::sync::Arc;

/// The feature's entry in the registry.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "defensive-army",
    rank: 80,
    tables: &["defensive-army"],
    load,
};

/// `[defensive-army]`: the table switches the rules on.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawDefensiveArmy {}

/// The variant has defensive armies.
#[derive(Debug, Clone, Copy)]
struct DefensiveArmy;

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    l.table::<RawDefensiveArmy>("defensive-army")?;
    Some(Arc::new(DefensiveArmy))
}

impl Feature for DefensiveArmy {
    fn syntax(&self, s: &mut OrderSyntax) {
        s.defensive_army = true;
    }

    fn kinds(&self, k: &mut Vec<UnitKind>) {
        k.push(UnitKind::DefensiveArmy);
    }

    /// Rule 7: "Two supply centres will support a triple army". The chart
    /// counts a 3D as the two units its centres keep, as the builds and
    /// removals do, so that centres less units is what is due.
    fn units_in(&self, u: &Unit) -> Option<i64> {
        (u.kind == UnitKind::DefensiveArmy).then_some(2)
    }
}
