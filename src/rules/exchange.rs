//! Abstraction II rule 6: two powers exchange centres at the end of a move
//! when each has sent the matching offer.

use crate::map::{PowerId, ProvinceId};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

/// One power's offer: it gives `give` to `to` and takes `take` from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exchange {
    /// Who offers.
    pub from: PowerId,
    /// To whom.
    pub to: PowerId,
    /// Centres `from` gives.
    pub give: Vec<ProvinceId>,
    /// Centres `from` takes.
    pub take: Vec<ProvinceId>,
}

impl Exchange {
    /// Whether `other` is the matching offer from the other side.
    pub fn matches(&self, other: &Exchange) -> bool {
        let same = |a: &[ProvinceId], b: &[ProvinceId]| {
            let mut a = a.to_vec();
            let mut b = b.to_vec();
            a.sort();
            b.sort();
            a == b
        };
        self.from == other.to
            && self.to == other.from
            && same(&self.give, &other.take)
            && same(&self.take, &other.give)
    }
}

/// A matched exchange that could not be made at the end of a move, and why
/// (rule 6: a centre its giver still occupies cannot be exchanged).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unmade {
    /// The first of the two matching offers.
    pub offer: Exchange,
    /// Why it was not made, as the results say it.
    pub why: String,
}

/// Unmade exchanges kept as a table keyed by the offering power, each as
/// `"Germany: Hol for Bel | why"`.
pub(crate) mod unmade_by_power {
    use super::*;
    use serde::de::Error as _;

    /// Serialise.
    pub(crate) fn serialize<S: Serializer>(list: &[Unmade], s: S) -> Result<S::Ok, S::Error> {
        let mut m: BTreeMap<PowerId, Vec<String>> = BTreeMap::new();
        for x in list {
            let text = by_power::describe(&x.offer).map_err(serde::ser::Error::custom)?;
            m.entry(x.offer.from)
                .or_default()
                .push(format!("{text} | {}", x.why));
        }
        m.serialize(s)
    }

    /// Deserialise.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Unmade>, D::Error> {
        let m: BTreeMap<PowerId, Vec<String>> = BTreeMap::deserialize(d)?;
        let mut out = Vec::new();
        for (from, list) in m {
            for text in list {
                let (offer, why) = text.split_once(" | ").unwrap_or((text.as_str(), ""));
                out.push(Unmade {
                    offer: by_power::parse(from, offer).map_err(D::Error::custom)?,
                    why: why.trim().to_string(),
                });
            }
        }
        Ok(out)
    }
}

/// Offers kept as a table keyed by the offering power, each offer as
/// `"Germany: Hol for Bel"`.
pub(crate) mod by_power {
    use super::*;
    use serde::de::Error as _;

    /// Serialise.
    pub(crate) fn serialize<S: Serializer>(list: &[Exchange], s: S) -> Result<S::Ok, S::Error> {
        let mut m: BTreeMap<PowerId, Vec<String>> = BTreeMap::new();
        for x in list {
            let text = describe(x).map_err(serde::ser::Error::custom)?;
            m.entry(x.from).or_default().push(text);
        }
        m.serialize(s)
    }

    /// Deserialise.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Exchange>, D::Error> {
        let m: BTreeMap<PowerId, Vec<String>> = BTreeMap::deserialize(d)?;
        let mut out = Vec::new();
        for (from, list) in m {
            for text in list {
                out.push(parse(from, &text).map_err(D::Error::custom)?);
            }
        }
        Ok(out)
    }

    pub(super) fn describe(x: &Exchange) -> Result<String, String> {
        use crate::map::wire::{name_of_power, name_of_province};
        let list = |ps: &[ProvinceId]| -> Result<String, String> {
            Ok(ps
                .iter()
                .map(|p| name_of_province(*p))
                .collect::<Result<Vec<_>, _>>()?
                .join(" "))
        };
        Ok(format!(
            "{}: {} for {}",
            name_of_power(x.to)?,
            list(&x.give)?,
            list(&x.take)?
        ))
    }

    pub(super) fn parse(from: PowerId, text: &str) -> Result<Exchange, String> {
        use crate::map::wire::{power_named, province_named};
        let bad = || format!("`{text}` should read like \"Germany: Hol for Bel\"");
        let (to, rest) = text.split_once(':').ok_or_else(bad)?;
        let to = power_named(to.trim())?;
        let (give, take) = rest.split_once(" for ").ok_or_else(bad)?;
        let list = |s: &str| -> Result<Vec<ProvinceId>, String> {
            s.split_whitespace().map(province_named).collect()
        };
        Ok(Exchange {
            from,
            to,
            give: list(give)?,
            take: list(take)?,
        })
    }
}
