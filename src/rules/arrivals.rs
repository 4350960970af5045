//! Units put on the board between phases by a rule, rather than built or
//! moved there: Ard-Ri's Viking units built off the board (rule 7c), the
//! invaders' waiting units of 1066 when their box settles (rule 5). The
//! features that place them record each here, and the results tell every
//! player where they arrived, or that they were lost, their place taken.
//!
//! Present in every variant; it reports nothing where nothing arrived.

use super::feature::{Feature, Load, Notes, Plugin, Ruleset};
use super::position::Position;
use super::state::{Key, Slice};
use crate::map::wire::{PerPower, UnitAt};
use crate::map::{PowerId, Unit};
use crate::orders::{Place, format_unit};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::any::Any;
use std::collections::BTreeMap;

/// The feature's entry in the registry.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "arrivals",
    rank: 900,
    tables: &[],
    state: &[&ARRIVED, &BLOCKED],
    load,
};

/// Units placed on the way into this phase: what the last results report.
pub const ARRIVED: Key<Units> = Key::new("arrived", &Units(Vec::new()))
    .news()
    .unordered();

/// Units that could not be placed on the way into this phase, their place
/// being taken: lost.
pub const BLOCKED: Key<Units> = Key::new("blocked", &Units(Vec::new()))
    .news()
    .unordered();

/// Units of several powers, kept as a table of `A Lon` lists keyed by
/// power.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Units(pub Vec<Unit>);

impl std::ops::Deref for Units {
    type Target = Vec<Unit>;
    fn deref(&self) -> &Vec<Unit> {
        &self.0
    }
}

impl std::ops::DerefMut for Units {
    fn deref_mut(&mut self) -> &mut Vec<Unit> {
        &mut self.0
    }
}

impl Serialize for Units {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m: BTreeMap<PowerId, Vec<UnitAt>> = BTreeMap::new();
        for u in &self.0 {
            m.entry(u.power).or_default().push((*u).into());
        }
        m.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Units {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Units, D::Error> {
        let m: BTreeMap<PowerId, Vec<UnitAt>> = BTreeMap::deserialize(d)?;
        Ok(Units(
            m.into_iter()
                .flat_map(|(p, us)| us.into_iter().map(move |u| u.of(p)))
                .collect(),
        ))
    }
}

impl Slice for Units {
    fn sized(_n: usize) -> Self {
        Units::default()
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    fn sort(&mut self) {
        self.0
            .sort_by_key(|u| (u.power, u.region, u.kind.letter()));
    }
}

/// Kept only so that a slice type of [`PerPower`] values may name it.
pub type PerPowerUnits = PerPower<Units>;

/// The feature.
#[derive(Debug, Clone, Copy)]
pub struct Arrivals;

fn load(_l: &mut Load<'_>) -> Option<Box<dyn Feature>> {
    Some(Box::new(Arrivals))
}

impl Feature for Arrivals {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn report(&self, v: &dyn Ruleset, _before: &Position, after: &Position, n: &mut Notes) {
        let map = v.map();
        let line = |u: &Unit| {
            format!(
                "{} {}",
                map.power(u.power).adjective,
                format_unit(map, Some(u.kind), Place::of_region(map, u.region))
            )
        };
        n.arrived = after.state[ARRIVED].iter().map(line).collect();
        n.arrival_lost = after.state[BLOCKED].iter().map(line).collect();
    }
}
