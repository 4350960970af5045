//! The locations of a map being read, in DPjudge's order (a place given a
//! terrain anew moves to the end of its list), each found by its name in
//! any case without a search: a map of twenty thousand places reads in
//! time proportional to its length, not to its square.

use std::collections::HashMap;

/// DPjudge's terrain words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Terrain {
    Land,
    Coast,
    Water,
    Port,
    Shut,
}

/// A location: a province, or one coast of a province with split coasts
/// (`SPA/NC`), keyed as the file writes it: a province whose main part
/// fleets may not enter (`spa`) is written in lower case.
#[derive(Debug, Clone)]
pub(super) struct Loc {
    pub key: String,
    pub terrain: Terrain,
    /// The borders as written: `TUS` both, `tus` armies only, `Tys`
    /// fleets only (and convoys).
    pub abuts: Vec<String>,
}

/// The locations, by slot, with an index from each key in capitals to its
/// slot. A removed location leaves an empty slot behind, so the slots of
/// the others (and the index) stay right.
#[derive(Debug, Default)]
pub(super) struct Locs {
    slots: Vec<Option<Loc>>,
    index: HashMap<String, usize>,
}

impl Locs {
    /// The location written `key`, in any case.
    pub(super) fn get(&self, key: &str) -> Option<&Loc> {
        let slot = *self.index.get(&key.to_uppercase())?;
        self.slots.get(slot)?.as_ref()
    }

    /// Take out the location written `key`, in any case.
    pub(super) fn remove(&mut self, key: &str) -> Option<Loc> {
        let slot = self.index.remove(&key.to_uppercase())?;
        self.slots.get_mut(slot)?.take()
    }

    /// Put `loc` last, in place of any location of the same name.
    pub(super) fn push(&mut self, loc: Loc) {
        self.remove(&loc.key);
        self.index.insert(loc.key.to_uppercase(), self.slots.len());
        self.slots.push(Some(loc));
    }

    /// The locations, in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = &Loc> {
        self.slots.iter().flatten()
    }

    /// The locations, in order, to change (their keys may change case,
    /// not name: a renaming goes through [`Locs::rename`]).
    pub(super) fn iter_mut(&mut self) -> impl Iterator<Item = &mut Loc> {
        self.slots.iter_mut().flatten()
    }

    /// Keep the locations `keep` says to (a drop: rare, so a pass over
    /// them all).
    pub(super) fn retain(&mut self, mut keep: impl FnMut(&Loc) -> bool) {
        for slot in &mut self.slots {
            if slot.as_ref().is_some_and(|l| !keep(l)) {
                *slot = None;
            }
        }
        self.reindex();
    }

    /// Give every key `rename` returns a new name for that name (a
    /// renaming: rare, so a pass over them all).
    pub(super) fn rename(&mut self, mut rename: impl FnMut(&str) -> Option<String>) {
        for l in self.slots.iter_mut().flatten() {
            if let Some(new) = rename(&l.key) {
                l.key = new;
            }
        }
        self.reindex();
    }

    fn reindex(&mut self) {
        self.index = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, l)| l.as_ref().map(|l| (l.key.to_uppercase(), i)))
            .collect();
    }
}
