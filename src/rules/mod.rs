//! The rule features variants add to standard Diplomacy, one home each.
//!
//! A feature's home owns what a game keeps for it between phases (its
//! slice of [`RuleState`], serialised by serde with the names of
//! [`crate::map::wire`]), and the code that keeps it. [`RuleState`] lists
//! the slices; the standard game keeps none of them, and an empty slice is
//! never written.
//!
//! A feature is a plug-in ([`feature::Feature`]): the files of this
//! directory that declare one are made modules, and listed in
//! [`PLUGINS`], by `build.rs`, so a new feature is its file alone. The
//! other files here are what the features share.

pub(crate) mod army_fleet;
pub(crate) mod exchange;
pub(crate) mod feature;
pub mod features;
pub mod position;
pub mod supply;
pub(crate) mod view;

use feature::Plugin;
include!(concat!(env!("OUT_DIR"), "/rules_registry.rs"));

use crate::map::wire::{PerPower, UnitAt};
use crate::map::{PowerId, ProvinceId, Unit};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;

pub use anarchy::Anarchy;
pub(crate) use exchange::{Exchange, Unmade};
pub(crate) use position::Position;

/// What the rules need of a variant: its map, calendar, features and
/// starting units. The variant implements it; the rules stay below it.
pub trait Ruleset {
    /// The board.
    fn map(&self) -> &crate::map::Map;
    /// Game time.
    fn calendar(&self) -> &crate::calendar::Calendar;
    /// The rule options (DATC section 4), for a feature's own judge.
    fn rulebook(&self) -> &crate::adjudicate::rulebook::Rulebook;
    /// The rule features.
    fn features(&self) -> &features::Features;
    /// Units on the board at the start.
    fn starting_units(&self) -> &[crate::map::builder::StartingUnit];
}

impl<T: Ruleset + ?Sized> Ruleset for std::sync::Arc<T> {
    fn map(&self) -> &crate::map::Map {
        (**self).map()
    }
    fn calendar(&self) -> &crate::calendar::Calendar {
        (**self).calendar()
    }
    fn rulebook(&self) -> &crate::adjudicate::rulebook::Rulebook {
        (**self).rulebook()
    }
    fn features(&self) -> &features::Features {
        (**self).features()
    }
    fn starting_units(&self) -> &[crate::map::builder::StartingUnit] {
        (**self).starting_units()
    }
}

/// What some variants keep beyond units and owners, per power where it is
/// per power. Empty for the standard game. On the wire it is the `[state]`
/// table of a position, one key per slice.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct RuleState {
    /// Centres each power has captured, in order (1066 rule 4: an
    /// invader's first three are build sites).
    #[serde(skip_serializing_if = "PerPower::is_default")]
    pub captures: PerPower<Vec<ProvinceId>>,
    /// Extra centres counted at the next adjustment (Ard-Ri rule 5:
    /// fleets back from raiding).
    #[serde(skip_serializing_if = "PerPower::is_default")]
    pub bonus: PerPower<u32>,
    /// Home centres nominated in place of lost ones (1066 rule 6).
    #[serde(skip_serializing_if = "PerPower::is_default")]
    pub homes: PerPower<Vec<ProvinceId>>,
    /// Home centres nominated since the last results, which announce them
    /// to every player (1066 rule 6: the others must know where a power
    /// may build).
    #[serde(skip_serializing_if = "PerPower::is_default")]
    pub nominated: PerPower<Vec<ProvinceId>>,
    /// Centres held off the board (Ard-Ri rule 7: the Vikings' three, one
    /// lost for each centre gained on the board).
    #[serde(skip_serializing_if = "PerPower::is_default")]
    pub reserve: PerPower<u32>,
    /// Units built off the board that are placed later (Ard-Ri rule 7c).
    #[serde(with = "by_power", skip_serializing_if = "Vec::is_empty")]
    pub pending: Vec<Unit>,
    /// Units placed on the way into this phase: what the last results
    /// report.
    #[serde(with = "by_power", skip_serializing_if = "Vec::is_empty")]
    pub arrived: Vec<Unit>,
    /// Units that could not be placed on the way into this phase, their
    /// place being taken: lost.
    #[serde(with = "by_power", skip_serializing_if = "Vec::is_empty")]
    pub blocked: Vec<Unit>,
    /// Powers that lost every home centre (1000 AD rule 13).
    #[serde(skip_serializing_if = "PerPower::is_default")]
    pub anarchy: PerPower<Anarchy>,
    /// Offers to exchange centres made during this move (Abstraction II
    /// rule 6); carried out at its end where two match.
    #[serde(with = "exchange::by_power", skip_serializing_if = "Vec::is_empty")]
    pub offers: Vec<Exchange>,
    /// The exchanges carried out at the end of the last move, for its
    /// results.
    #[serde(with = "exchange::by_power", skip_serializing_if = "Vec::is_empty")]
    pub exchanged: Vec<Exchange>,
    /// Matched exchanges that could not be made at the end of the last
    /// move, with why, for its results.
    #[serde(
        with = "exchange::unmade_by_power",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub unmade: Vec<Unmade>,
    /// Armed neutral centres not yet occupied (1700 AD II rule 10b); their
    /// strength is the variant's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub garrisons: Vec<ProvinceId>,
    /// Per power, the coastal provinces friendly to it, where its fleets
    /// may stand (1700 AD II rule 8).
    #[serde(skip_serializing_if = "PerPower::is_default")]
    pub friendly: PerPower<Vec<ProvinceId>>,
    /// Per power, the powers it lets into its provinces: their fleets may
    /// stand there, their supply lines pass its units (1700 AD II rules 8,
    /// 9: "with the permission of the owning player written in his
    /// orders").
    #[serde(skip_serializing_if = "PerPower::is_default")]
    pub permits: PerPower<Vec<PowerId>>,
    /// Per power, the centres it holds with the year it took them, where
    /// how long it has held them matters (1700 AD II rule 10a).
    #[serde(with = "held_since", skip_serializing_if = "PerPower::is_default")]
    pub held_since: PerPower<Vec<(ProvinceId, i32)>>,
    /// Per power, the sea each of its units waiting in its box stands in,
    /// one entry per unit of the power in the box, in the order of the
    /// position's units (1066 rule 5: Harald's A/Fs are "in Oceanus
    /// Germanicus or the Wash", a place fixed but known only to him and the
    /// GM). The units are alike, so only how many stand in each sea counts.
    #[serde(skip_serializing_if = "PerPower::is_default")]
    pub waiting: PerPower<Vec<ProvinceId>>,
}

impl RuleState {
    /// The empty state of a game of `n` powers.
    pub fn sized(n: usize) -> RuleState {
        let mut s = RuleState::default();
        s.fit(n);
        s
    }

    /// Make room for `n` powers in every per-power slice (a table read
    /// back names only the powers with a value).
    pub fn fit(&mut self, n: usize) {
        self.captures.fit(n);
        self.bonus.fit(n);
        self.homes.fit(n);
        self.nominated.fit(n);
        self.reserve.fit(n);
        self.anarchy.fit(n);
        self.friendly.fit(n);
        self.permits.fit(n);
        self.held_since.fit(n);
        self.waiting.fit(n);
    }

    /// Forget what the last results told (units arrived or lost on the
    /// way in, exchanges made or not, nominations): it is old news once
    /// the next phase is played.
    pub fn clear_news(&mut self) {
        self.arrived.clear();
        self.blocked.clear();
        self.exchanged.clear();
        self.unmade.clear();
        for n in self.nominated.values_mut() {
            n.clear();
        }
    }

    /// Take out what the features' steps after a move put in for the
    /// results (arrivals, exchanges), to keep it past the way to the next
    /// phase, which clears the old news.
    pub fn take_news(&mut self) -> RuleState {
        RuleState {
            arrived: std::mem::take(&mut self.arrived),
            blocked: std::mem::take(&mut self.blocked),
            exchanged: std::mem::take(&mut self.exchanged),
            unmade: std::mem::take(&mut self.unmade),
            ..RuleState::default()
        }
    }

    /// Put back news taken with [`RuleState::take_news`], after what the
    /// way to the next phase added.
    pub fn add_news(&mut self, news: RuleState) {
        self.arrived.extend(news.arrived);
        self.blocked.extend(news.blocked);
        self.exchanged.extend(news.exchanged);
        self.unmade.extend(news.unmade);
    }

    /// Whether nothing is kept (the standard game).
    pub fn is_empty(&self) -> bool {
        self.captures.is_default()
            && self.bonus.is_default()
            && self.homes.is_default()
            && self.nominated.is_default()
            && self.reserve.is_default()
            && self.pending.is_empty()
            && self.arrived.is_empty()
            && self.blocked.is_empty()
            && self.anarchy.is_default()
            && self.offers.is_empty()
            && self.exchanged.is_empty()
            && self.unmade.is_empty()
            && self.garrisons.is_empty()
            && self.friendly.is_default()
            && self.permits.is_default()
            && self.held_since.is_default()
            && self.waiting.is_default()
    }
}

/// Units of several powers, kept as a table of `A Lon` lists keyed by
/// power.
pub(crate) mod by_power {
    use super::*;

    /// Serialise.
    pub(crate) fn serialize<S: Serializer>(units: &[Unit], s: S) -> Result<S::Ok, S::Error> {
        let mut m: BTreeMap<PowerId, Vec<UnitAt>> = BTreeMap::new();
        for u in units {
            m.entry(u.power).or_default().push((*u).into());
        }
        m.serialize(s)
    }

    /// Deserialise.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Unit>, D::Error> {
        let m: BTreeMap<PowerId, Vec<UnitAt>> = BTreeMap::deserialize(d)?;
        Ok(m.into_iter()
            .flat_map(|(p, us)| us.into_iter().map(move |u| u.of(p)))
            .collect())
    }
}

/// Centres with the year they were taken, kept as `"Cri:1701"`.
mod held_since {
    use super::*;
    use serde::de::Error as _;

    pub(super) fn serialize<S: Serializer>(
        v: &PerPower<Vec<(ProvinceId, i32)>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Held(#[serde(serialize_with = "held")] (ProvinceId, i32));
        fn held<S: Serializer>(h: &(ProvinceId, i32), s: S) -> Result<S::Ok, S::Error> {
            let p = crate::map::wire::name_of_province(h.0).map_err(serde::ser::Error::custom)?;
            s.serialize_str(&format!("{p}:{}", h.1))
        }
        let m: BTreeMap<PowerId, Vec<Held>> = v
            .iter()
            .filter(|(_, l)| !l.is_empty())
            .map(|(p, l)| (p, l.iter().map(|h| Held(*h)).collect()))
            .collect();
        m.serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<PerPower<Vec<(ProvinceId, i32)>>, D::Error> {
        let m: BTreeMap<PowerId, Vec<String>> = BTreeMap::deserialize(d)?;
        let mut out: PerPower<Vec<(ProvinceId, i32)>> = PerPower::default();
        for (p, list) in m {
            out.fit(p.index() + 1);
            for text in list {
                let parsed = text.split_once(':').and_then(|(c, y)| {
                    let c = crate::map::wire::province_named(c).ok()?;
                    Some((c, y.trim().parse::<i32>().ok()?))
                });
                match parsed {
                    Some(h) => out[p].push(h),
                    None => {
                        return Err(D::Error::custom(format!(
                            "`{text}` should read like \"Cri:1701\""
                        )));
                    }
                }
            }
        }
        Ok(out)
    }
}
