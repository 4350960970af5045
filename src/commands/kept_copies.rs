//! What the judge knows of the copies of variants its games play (issue
//! #52; see `variants_kept`, which binds games to them). Apart from
//! `variants_kept` so that the judge can hold it without the two files
//! importing each other.

use crate::variant::{BUILTIN, Variant};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// What the judge knows of the copies of variants: the folder's files
/// and the copies kept in the store that games play, each by its key.
#[derive(Debug, Default)]
pub(crate) struct Kept {
    /// Copies by key (`hundred#<fingerprint>`, lower case).
    pub(super) copies: HashMap<String, Arc<Variant>>,
    /// The folder's variants: fingerprint by name (lower case).
    pub(super) folder: HashMap<String, String>,
    /// The fingerprints whose copies were read from the store (or found
    /// broken: said once in the log).
    pub(super) loaded: HashSet<String>,
    /// The games found with a variant nobody can bind them to (said once
    /// in the log).
    pub(super) unbindable: HashSet<String>,
    /// The games were settled against the folder since this judge started
    /// (a reload starts another judge).
    pub(super) settled: bool,
}

impl Kept {
    /// The copy known by `key` (lower case).
    pub(crate) fn get(&self, key: &str) -> Option<Arc<Variant>> {
        self.copies.get(key).cloned()
    }

    /// A variant of the folder (or a test's board), known by its name
    /// and by its key.
    pub(crate) fn add_folder(&mut self, v: &Arc<Variant>) {
        let fp = v.fingerprint();
        self.folder.insert(v.name.to_ascii_lowercase(), fp.clone());
        self.copies.insert(v.key(), Arc::clone(v));
        self.loaded.insert(fp);
    }

    pub(super) fn add_copy(&mut self, v: Variant) {
        let v = Arc::new(v);
        self.copies.insert(v.key(), v);
    }

    /// Whether a game whose row names `variant` can be bound to it.
    pub(super) fn can_bind(&self, variant: &str) -> bool {
        let v = variant.to_ascii_lowercase();
        shipped(&v) || self.folder.contains_key(&v) || self.copies.contains_key(&v)
    }
}

pub(super) fn shipped(name: &str) -> bool {
    BUILTIN.iter().any(|(n, _)| n.eq_ignore_ascii_case(name))
}
