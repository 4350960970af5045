//! Ids on the wire: the names a position file and the store use.
//!
//! Past the parser the judge speaks in ids ([`ProvinceId`], [`PowerId`],
//! [`Unit`]), but what it keeps must read back after the variant file has
//! gained a province, and a GM must be able to write it by hand: on the
//! wire a province is its abbreviation, a power its name, a unit `A Lon`.
//! Turning an id into a name needs the map, which serde cannot pass down,
//! so (de)serialising these types is done within [`with_map`], which lends
//! the map to the impls below for the duration (the `scoped-tls` pattern:
//! the borrow is held across the call and released however it ends).
//! Outside it they fail with an error saying so.
//!
//! [`PerPower`] is a value per power, kept as a table keyed by power name
//! with the default values left out.

use super::{Map, Named, PowerId, ProvinceId, Unit, UnitKind};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::marker::PhantomData;

scoped_tls::scoped_thread_local!(static MAP: Map);

/// Run `f` with `map` lent to the (de)serialisers of ids.
pub fn with_map<R>(map: &Map, f: impl FnOnce() -> R) -> R {
    MAP.set(map, f)
}

/// The map lent by [`with_map`], for a (de)serialiser.
fn lent<R>(what: &str, f: impl FnOnce(&Map) -> R) -> Result<R, String> {
    if MAP.is_set() {
        Ok(MAP.with(f))
    } else {
        Err(format!("cannot write or read a {what} without its map"))
    }
}

/// A province's abbreviation, from the lent map.
pub fn name_of_province(p: ProvinceId) -> Result<String, String> {
    lent("province", |m| m.province(p).abbr.clone())
}

/// A power's name, from the lent map.
pub fn name_of_power(p: PowerId) -> Result<String, String> {
    lent("power", |m| m.power(p).name.clone())
}

/// The province a name means, on the lent map.
pub fn province_named(text: &str) -> Result<ProvinceId, String> {
    lent("province", |m| match m.lookup(text) {
        Some(Named::Province(p)) => Ok(p),
        Some(Named::Region(r)) => Ok(m.province_of(r)),
        None => Err(format!("unknown province `{text}`")),
    })?
}

/// The power a name means, on the lent map.
pub fn power_named(text: &str) -> Result<PowerId, String> {
    lent("power", |m| {
        m.lookup_power(text)
            .ok_or_else(|| format!("unknown power `{text}`"))
    })?
}

impl Serialize for ProvinceId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&name_of_province(*self).map_err(serde::ser::Error::custom)?)
    }
}

impl<'de> Deserialize<'de> for ProvinceId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        province_named(&String::deserialize(d)?).map_err(de::Error::custom)
    }
}

impl Serialize for PowerId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&name_of_power(*self).map_err(serde::ser::Error::custom)?)
    }
}

impl<'de> Deserialize<'de> for PowerId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        power_named(&String::deserialize(d)?).map_err(de::Error::custom)
    }
}

/// A unit of a known power as the wire writes it: `A Lon`, `F StP/sc`
/// (its power is the key it is listed under).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnitAt {
    /// Kind.
    pub kind: UnitKind,
    /// Where.
    pub region: super::RegionId,
}

impl UnitAt {
    /// The unit, with its power.
    pub fn of(self, power: PowerId) -> Unit {
        Unit {
            power,
            kind: self.kind,
            region: self.region,
        }
    }
}

impl From<Unit> for UnitAt {
    fn from(u: Unit) -> UnitAt {
        UnitAt {
            kind: u.kind,
            region: u.region,
        }
    }
}

impl Serialize for UnitAt {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let text = lent("unit", |m| {
            format!("{} {}", self.kind.letter(), m.region_abbr(self.region))
        })
        .map_err(serde::ser::Error::custom)?;
        s.serialize_str(&text)
    }
}

impl<'de> Deserialize<'de> for UnitAt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        lent("unit", |m| parse_unit(m, &text))
            .and_then(|r| r)
            .map(|(kind, region)| UnitAt { kind, region })
            .map_err(de::Error::custom)
    }
}

/// `A Lon`, `F StP/sc` -> kind and region.
pub fn parse_unit(map: &Map, text: &str) -> Result<(UnitKind, super::RegionId), String> {
    let text = text.trim();
    let (k, place) = text
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("`{text}` should read like `A Lon` or `F StP/sc`"))?;
    let kind =
        UnitKind::from_letter(k).ok_or_else(|| format!("unknown unit kind `{k}` in `{text}`"))?;
    let region = parse_region(map, place, kind).ok_or_else(|| {
        format!(
            "`{text}`: no such place, or a {} cannot stand there",
            kind.word()
        )
    })?;
    Ok((kind, region))
}

/// A place name, with an optional `/coast` or `(coast)`, as a region for a
/// unit of kind `kind`.
pub fn parse_region(map: &Map, place: &str, kind: UnitKind) -> Option<super::RegionId> {
    let place = place.trim().trim_end_matches(')');
    let (p, c) = match place.split_once(['/', '(']) {
        Some((p, c)) => (p, Some(c)),
        None => (place, None),
    };
    let prov = match map.lookup(p)? {
        Named::Province(p) => p,
        Named::Region(r) => return map.admits(r, kind).then_some(r),
    };
    if let Some(c) = c {
        let cid = map.lookup_coast(c)?;
        return map.coast_region(prov, cid).filter(|&r| map.admits(r, kind));
    }
    map.default_region(prov, kind)
}

/// A value per power, indexed by [`PowerId`]; on the wire a table keyed by
/// power name, the powers whose value is the default left out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PerPower<T>(pub Vec<T>);

impl<T: Default + Clone> PerPower<T> {
    /// The default value for each of `n` powers.
    pub fn sized(n: usize) -> PerPower<T> {
        PerPower(vec![T::default(); n])
    }
}

impl<T: Default + Clone> PerPower<T> {
    /// Make room for `n` powers (a table read back names only the powers
    /// with a value).
    pub fn fit(&mut self, n: usize) {
        if self.0.len() < n {
            self.0.resize(n, T::default());
        }
    }
}

impl<T> PerPower<T> {
    /// The value of `p`, if `p` is a power of the map.
    pub fn get(&self, p: PowerId) -> Option<&T> {
        self.0.get(p.index())
    }

    /// The value of `p`, to change.
    pub fn get_mut(&mut self, p: PowerId) -> Option<&mut T> {
        self.0.get_mut(p.index())
    }

    /// Every power's value, by power id.
    pub fn iter(&self) -> impl Iterator<Item = (PowerId, &T)> {
        self.0
            .iter()
            .enumerate()
            .map(|(i, v)| (PowerId(i as u8), v))
    }

    /// Every power's value.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter()
    }

    /// Every power's value, to change.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.0.iter_mut()
    }
}

impl<T: PartialEq> PerPower<T> {
    /// Whether some power's value is `v`.
    pub fn contains(&self, v: &T) -> bool {
        self.0.contains(v)
    }
}

impl<T: Default + PartialEq> PerPower<T> {
    /// Whether every power's value is the default.
    pub fn is_default(&self) -> bool {
        let d = T::default();
        self.0.iter().all(|v| *v == d)
    }
}

impl<'a, T> IntoIterator for &'a PerPower<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T> FromIterator<T> for PerPower<T> {
    fn from_iter<I: IntoIterator<Item = T>>(it: I) -> Self {
        PerPower(it.into_iter().collect())
    }
}

impl<T> std::ops::Index<PowerId> for PerPower<T> {
    type Output = T;
    fn index(&self, p: PowerId) -> &T {
        &self.0[p.index()]
    }
}

impl<T> std::ops::IndexMut<PowerId> for PerPower<T> {
    fn index_mut(&mut self, p: PowerId) -> &mut T {
        &mut self.0[p.index()]
    }
}

impl<T: Serialize + Default + PartialEq> Serialize for PerPower<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let d = T::default();
        let mut m = s.serialize_map(None)?;
        for (p, v) in self.iter() {
            if *v != d {
                m.serialize_entry(&p, v)?;
            }
        }
        m.end()
    }
}

impl<'de, T: Deserialize<'de> + Default + Clone> Deserialize<'de> for PerPower<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de> + Default + Clone> Visitor<'de> for V<T> {
            type Value = PerPower<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a table keyed by power")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<PerPower<T>, A::Error> {
                let n = lent("power table", |m| m.powers().len()).map_err(de::Error::custom)?;
                let mut out = PerPower::sized(n);
                while let Some((p, v)) = a.next_entry::<PowerId, T>()? {
                    out[p] = v;
                }
                Ok(out)
            }
        }
        d.deserialize_map(V(PhantomData))
    }
}
