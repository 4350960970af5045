//! 1700 AD II rule 7: named leaders. A leader has three impulses, fights
//! at triple strength, is never built and never lost for want of a
//! retreat; the judges know the unit kind, and this feature puts it and
//! its names in the variant.

use super::feature::{Feature, Load, Plugin};
use crate::map::{PowerId, UnitKind};
use crate::orders::OrderSyntax;
use serde::Deserialize;
use std::sync::Arc;
use toml::Spanned;

/// The feature's entry in the registry.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "leaders",
    rank: 85,
    tables: &["leaders"],
    load,
};

/// `[leaders]`: named leaders.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawLeaders {
    /// The names written before `(place)`: `CXII`, `Mar`.
    names: Vec<String>,
    /// Each power's leader by the name the text lists him under, printed
    /// in the results (`Marlborough(Lon)-WCo`).
    #[serde(default)]
    full: Vec<RawLeaderName>,
}

/// One leader's name in `[leaders] full`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawLeaderName {
    /// The power he leads.
    power: Spanned<String>,
    /// His name as the rule text lists it.
    name: String,
}

/// The variant's leaders.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Leaders {
    /// The names orders write before `(place)`.
    names: Vec<String>,
    /// Each power's leader by his full name, for the results.
    full: Vec<(PowerId, String)>,
}

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    let raw: RawLeaders = l.table("leaders")?;
    let full = raw
        .full
        .iter()
        .filter_map(|x| Some((l.power(&x.power)?, x.name.clone())))
        .collect();
    // No names: no leaders (as the table's absence).
    (!raw.names.is_empty()).then(|| {
        Arc::new(Leaders {
            names: raw.names,
            full,
        }) as Arc<dyn Feature>
    })
}

impl Feature for Leaders {
    fn syntax(&self, s: &mut OrderSyntax) {
        s.leaders.clone_from(&self.names);
    }

    fn kinds(&self, k: &mut Vec<UnitKind>) {
        k.push(UnitKind::Leader);
    }

    fn leader_name(&self, power: PowerId) -> Option<&str> {
        self.full
            .iter()
            .find(|(p, _)| *p == power)
            .map(|(_, n)| n.as_str())
    }
}
