//! What a game keeps for its rule features between phases, slice by slice.
//!
//! Each feature names what it keeps with [`Key`]s in its own file: a wire
//! name (the key of the position's `[state]` table), a serde-derived type,
//! and whether it is news (cleared once the results have told it). The
//! position holds the slices in a [`RuleState`], indexed by key
//! (`pos.state[anarchy::STANDING]`), so no list of every feature's state
//! exists anywhere: a feature with state of its own is still one file.
//!
//! A slice never set reads as its key's empty value; the standard game
//! keeps none, and an empty slice is never written.

use crate::map::wire::PerPower;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::any::Any;
use std::fmt;

/// A type a feature keeps between phases: serde for the wire, and what
/// the position needs to size, compare and order it.
pub trait Slice:
    Clone + PartialEq + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The empty value for a game of `n` powers.
    fn sized(n: usize) -> Self;
    /// Make room for `n` powers (a table read back names only the powers
    /// with a value).
    fn fit(&mut self, _n: usize) {}
    /// Whether nothing is kept (then nothing is written).
    fn is_empty(&self) -> bool;
    /// Put its lists in one order (what a round trip through the stored
    /// form may reorder), where the order means nothing.
    fn sort(&mut self) {}
}

/// One slice of a feature's state: its name on the wire and its type.
/// Keys are constants of the feature's file.
pub struct Key<T: 'static> {
    /// The key of the `[state]` table.
    pub name: &'static str,
    /// What the slice holds while nobody has set it.
    pub empty: &'static T,
    /// News: what the last results told, cleared on the way out of the
    /// next phase (units that arrived, exchanges made).
    pub news: bool,
    /// Its lists' order means nothing (see [`Slice::sort`]); where it
    /// does (the first three captures), it is kept.
    pub unordered: bool,
}

impl<T> Clone for Key<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Key<T> {}

impl<T: Slice> Key<T> {
    /// A key that is neither news nor unordered.
    pub const fn new(name: &'static str, empty: &'static T) -> Key<T> {
        Key {
            name,
            empty,
            news: false,
            unordered: false,
        }
    }

    /// The same key, cleared once told (see [`Key::news`]).
    pub const fn news(self) -> Key<T> {
        Key { news: true, ..self }
    }

    /// The same key, its lists in no particular order.
    pub const fn unordered(self) -> Key<T> {
        Key {
            unordered: true,
            ..self
        }
    }
}

/// A key with its type erased: what the registry lists, to read a
/// `[state]` table whose keys it does not know in advance.
pub trait AnyKey: Send + Sync {
    /// The wire name.
    fn name(&self) -> &'static str;
    /// Read a slice from its wire value.
    fn read(&self, value: toml::Value) -> Result<Box<dyn AnySlice>, String>;
    /// The key's flags: (news, unordered).
    fn flags(&self) -> (bool, bool);
}

impl<T: Slice> AnyKey for Key<T> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn read(&self, value: toml::Value) -> Result<Box<dyn AnySlice>, String> {
        T::deserialize(value)
            .map(|v| Box::new(v) as Box<dyn AnySlice>)
            .map_err(|e| format!("{}: {}", self.name, e.message().trim()))
    }
    fn flags(&self) -> (bool, bool) {
        (self.news, self.unordered)
    }
}

/// A slice with its type erased.
pub trait AnySlice: Send + Sync + fmt::Debug {
    /// A copy.
    fn clone_box(&self) -> Box<dyn AnySlice>;
    /// Whether it equals `other` (a slice of the same key).
    fn eq_dyn(&self, other: &dyn AnySlice) -> bool;
    /// See [`Slice::is_empty`].
    fn is_empty(&self) -> bool;
    /// See [`Slice::fit`].
    fn fit(&mut self, n: usize);
    /// See [`Slice::sort`].
    fn sort(&mut self);
    /// Empty it, for `n` powers.
    fn clear(&mut self, n: usize);
    /// The wire value.
    fn write(&self) -> Result<toml::Value, String>;
    /// For the typed accessors.
    fn as_any(&self) -> &dyn Any;
    /// For the typed accessors.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Slice> AnySlice for T {
    fn clone_box(&self) -> Box<dyn AnySlice> {
        Box::new(self.clone())
    }
    fn eq_dyn(&self, other: &dyn AnySlice) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn is_empty(&self) -> bool {
        Slice::is_empty(self)
    }
    fn fit(&mut self, n: usize) {
        Slice::fit(self, n);
    }
    fn sort(&mut self) {
        Slice::sort(self);
    }
    fn clear(&mut self, n: usize) {
        *self = T::sized(n);
    }
    fn write(&self) -> Result<toml::Value, String> {
        toml::Value::try_from(self).map_err(|e| e.to_string())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// One slice held: its key's name and flags, and its value.
struct Held {
    name: &'static str,
    news: bool,
    unordered: bool,
    value: Box<dyn AnySlice>,
}

impl Clone for Held {
    fn clone(&self) -> Self {
        Held {
            name: self.name,
            news: self.news,
            unordered: self.unordered,
            value: self.value.clone_box(),
        }
    }
}

/// What some variants keep beyond units and owners: the slices their
/// features set, per power where they are per power. Empty for the
/// standard game. On the wire it is the `[state]` table of a position, one
/// key per slice, in the order of the features' files.
#[derive(Clone, Default)]
pub struct RuleState {
    /// The number of powers, to size a slice made on first use.
    powers: usize,
    held: Vec<Held>,
}

impl RuleState {
    /// The empty state of a game of `n` powers.
    pub fn sized(n: usize) -> RuleState {
        RuleState {
            powers: n,
            held: Vec::new(),
        }
    }

    /// Make room for `n` powers in every per-power slice (a table read
    /// back names only the powers with a value).
    pub fn fit(&mut self, n: usize) {
        self.powers = self.powers.max(n);
        for h in &mut self.held {
            h.value.fit(n);
        }
    }

    /// Whether nothing is kept (the standard game).
    pub fn is_empty(&self) -> bool {
        self.held.iter().all(|h| h.value.is_empty())
    }

    /// The slice of `key`, if it was ever set.
    fn find(&self, name: &str) -> Option<&Held> {
        self.held.iter().find(|h| h.name == name)
    }

    /// The slice of `key`, to change.
    pub fn get_mut<T: Slice>(&mut self, key: Key<T>) -> &mut T {
        let i = match self.held.iter().position(|h| h.name == key.name) {
            Some(i) => i,
            None => {
                self.held.push(Held {
                    name: key.name,
                    news: key.news,
                    unordered: key.unordered,
                    value: Box::new(T::sized(self.powers)),
                });
                self.held.len() - 1
            }
        };
        match self.held[i].value.as_any_mut().downcast_mut::<T>() {
            Some(v) => v,
            // Two keys of one name and different types: a registry test
            // (`rules::tests`) keeps names unique, so this is a bug.
            None => panic!("state key `{}` used with two types", key.name),
        }
    }

    /// The slice of `key` (its empty value when never set).
    pub fn get<T: Slice>(&self, key: Key<T>) -> &T {
        self.find(key.name)
            .and_then(|h| h.value.as_any().downcast_ref::<T>())
            .unwrap_or(key.empty)
    }

    /// Clear the news of the last results (see [`Key::news`]).
    pub fn clear_news(&mut self) {
        let n = self.powers;
        for h in self.held.iter_mut().filter(|h| h.news) {
            h.value.clear(n);
        }
    }

    /// Put every unordered slice's lists in one order.
    pub fn sort(&mut self) {
        for h in self.held.iter_mut().filter(|h| h.unordered) {
            h.value.sort();
        }
    }

    /// The slices that hold something, in the registry's order (the
    /// order they are written in).
    fn written(&self) -> Vec<&Held> {
        let mut out: Vec<(usize, &Held)> = self
            .held
            .iter()
            .filter(|h| !h.value.is_empty())
            .map(|h| (super::registry::state_rank(h.name), h))
            .collect();
        out.sort_by_key(|(r, _)| *r);
        out.into_iter().map(|(_, h)| h).collect()
    }
}

impl<T: Slice> std::ops::Index<Key<T>> for RuleState {
    type Output = T;
    fn index(&self, key: Key<T>) -> &T {
        self.get(key)
    }
}

impl<T: Slice> std::ops::IndexMut<Key<T>> for RuleState {
    fn index_mut(&mut self, key: Key<T>) -> &mut T {
        self.get_mut(key)
    }
}

impl PartialEq for RuleState {
    /// Equal when every slice is: a slice never set equals an empty one.
    fn eq(&self, other: &RuleState) -> bool {
        let same = |a: &RuleState, b: &RuleState| {
            a.held.iter().all(|h| match b.find(h.name) {
                Some(o) => h.value.eq_dyn(&*o.value),
                None => h.value.is_empty(),
            })
        };
        same(self, other) && same(other, self)
    }
}

impl Eq for RuleState {}

impl fmt::Debug for RuleState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut m = f.debug_map();
        for h in self.held.iter().filter(|h| !h.value.is_empty()) {
            m.entry(&h.name, &h.value);
        }
        m.finish()
    }
}

impl Serialize for RuleState {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        for h in self.written() {
            let value = h.value.write().map_err(serde::ser::Error::custom)?;
            m.serialize_entry(h.name, &value)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for RuleState {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let table = toml::Table::deserialize(d)?;
        let mut state = RuleState::default();
        for (name, value) in table {
            let Some(key) = super::registry::state_key(&name) else {
                return Err(D::Error::custom(format!(
                    "unknown field `{name}`, expected one of {}",
                    super::registry::state_names()
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            };
            let (news, unordered) = key.flags();
            let value = key.read(value).map_err(D::Error::custom)?;
            state.held.push(Held {
                name: key.name(),
                news,
                unordered,
                value,
            });
        }
        Ok(state)
    }
}

// ---- The slice types the shipped features keep.

impl<T> Slice for PerPower<T>
where
    T: Clone + PartialEq + Default + fmt::Debug + Serialize + DeserializeOwned + Send + Sync,
    T: SortList + 'static,
{
    fn sized(n: usize) -> Self {
        PerPower::sized(n)
    }
    fn fit(&mut self, n: usize) {
        PerPower::fit(self, n);
    }
    fn is_empty(&self) -> bool {
        self.is_default()
    }
    fn sort(&mut self) {
        for v in self.values_mut() {
            v.sort_list();
        }
    }
}

impl<T> Slice for Vec<T>
where
    T: Clone + PartialEq + Ord + fmt::Debug + Serialize + DeserializeOwned + Send + Sync + 'static,
{
    fn sized(_n: usize) -> Self {
        Vec::new()
    }
    fn is_empty(&self) -> bool {
        Vec::is_empty(self)
    }
    fn sort(&mut self) {
        self.as_mut_slice().sort();
    }
}

/// A per-power value whose own order may mean nothing: a list is sorted,
/// anything else left as it is.
pub trait SortList {
    /// Sort, if a list.
    fn sort_list(&mut self) {}
}

impl<T: Ord> SortList for Vec<T> {
    fn sort_list(&mut self) {
        self.sort();
    }
}

impl SortList for u32 {}
