//! A list of centres as the reader keeps one (a power's home centres, the
//! unowned centres): in the order the file gives them, each once, and
//! asked "is this one in it?" without a search, so that a map listing
//! thousands of centres a line at a time reads in time proportional to
//! its length. The names are kept in capitals, as the reader writes them.

use std::collections::HashSet;

/// The centres, in order, each once.
#[derive(Debug, Clone, Default)]
pub(super) struct Centres {
    order: Vec<String>,
    held: HashSet<String>,
}

impl Centres {
    /// Add `c` (capitals) last, unless it is in the list already.
    pub(super) fn push(&mut self, c: String) {
        if self.held.insert(c.clone()) {
            self.order.push(c);
        }
    }

    /// Take `c` (capitals) out; whether it was in. A pass over the list
    /// only when it is.
    pub(super) fn remove(&mut self, c: &str) -> bool {
        if !self.held.remove(c) {
            return false;
        }
        self.order.retain(|x| x != c);
        true
    }

    /// Empty the list.
    pub(super) fn clear(&mut self) {
        self.order.clear();
        self.held.clear();
    }

    /// Call `old` (capitals) `new` where it is in the list.
    pub(super) fn rename(&mut self, old: &str, new: &str) {
        if !self.held.contains(old) {
            return;
        }
        let new = new.to_uppercase();
        if self.held.contains(&new) {
            // Already there under the new name: the old one goes.
            self.remove(old);
            return;
        }
        self.held.remove(old);
        self.held.insert(new.clone());
        for x in &mut self.order {
            if x == old {
                x.clone_from(&new);
            }
        }
    }

    /// The centres, in order.
    pub(super) fn iter(&self) -> std::slice::Iter<'_, String> {
        self.order.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::Centres;

    #[test]
    fn each_centre_is_kept_once_in_the_order_given() {
        let mut c = Centres::default();
        for x in ["VIE", "BUD", "VIE", "TRI"] {
            c.push(x.to_string());
        }
        assert_eq!(c.iter().cloned().collect::<Vec<_>>(), ["VIE", "BUD", "TRI"]);
        assert!(c.remove("BUD") && !c.remove("BUD"));
        c.rename("TRI", "Ven");
        assert_eq!(c.iter().cloned().collect::<Vec<_>>(), ["VIE", "VEN"]);
        c.rename("VEN", "VIE");
        assert_eq!(c.iter().cloned().collect::<Vec<_>>(), ["VIE"]);
    }
}
