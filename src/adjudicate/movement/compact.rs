//! Small types for the judge's results: an order's index in two bytes and
//! a short list of units without an allocation. A phase's result holds one
//! [`UnitResult`](super::UnitResult) per unit; kept small (40 bytes, see
//! the test below) the whole result of a standard phase fits a few cache
//! lines and the allocator's per-thread cache, and the result of a phase
//! where nobody is dislodged allocates nothing beyond its three lists.

use std::fmt;
use std::num::NonZeroU16;

/// The index of an order among the orders given to the judge, in two
/// bytes with room beside it for "none" (`Option<OrderIndex>` is two
/// bytes too). A phase takes at most [`OrderIndex::LIMIT`] orders; the
/// judge refuses any past that
/// ([`Illegal::TooManyOrders`](crate::adjudicate::Illegal::TooManyOrders)).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct OrderIndex(NonZeroU16);

impl OrderIndex {
    /// How many orders a phase takes: indices `0..LIMIT`.
    pub const LIMIT: usize = u16::MAX as usize;

    /// The index `i`, if it is below [`OrderIndex::LIMIT`].
    pub fn new(i: usize) -> Option<OrderIndex> {
        // Stored inverted, so that index 0 is not the zero `None` takes.
        u16::try_from(i)
            .ok()
            .and_then(|i| NonZeroU16::new(!i))
            .map(OrderIndex)
    }

    /// The index.
    pub fn get(self) -> usize {
        usize::from(!self.0.get())
    }
}

impl From<OrderIndex> for usize {
    fn from(i: OrderIndex) -> usize {
        i.get()
    }
}

impl fmt::Debug for OrderIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.get().fmt(f)
    }
}

/// How many units a [`UnitList`] holds without an allocation: enough for
/// every standoff of the standard map (a province has at most ten
/// neighbours, and most standoffs are of two or three units).
const INLINE: usize = 7;

#[derive(Clone)]
// A boxed `Vec` is a thin pointer: eight bytes beside the tag, where a
// `Vec` or a boxed slice would make every outcome larger. Only a list
// past `INLINE` units pays the second allocation.
#[allow(clippy::box_collection)]
enum Repr {
    Inline { len: u8, units: [u16; INLINE] },
    Heap(Box<Vec<u16>>),
}

/// A list of unit indices (into the units given to the judge), in
/// sixteen bytes: up to seven are kept in place, more on the heap. Read
/// it as indices with [`UnitList::iter`].
#[derive(Clone)]
pub struct UnitList(Repr);

impl UnitList {
    /// An empty list.
    pub const fn new() -> UnitList {
        UnitList(Repr::Inline {
            len: 0,
            units: [0; INLINE],
        })
    }

    /// The indices, as stored.
    pub fn as_slice(&self) -> &[u16] {
        match &self.0 {
            Repr::Inline { len, units } => &units[..usize::from(*len)],
            Repr::Heap(v) => v,
        }
    }

    /// The unit indices, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.as_slice().iter().map(|&u| usize::from(u))
    }

    /// How many units are listed.
    pub fn len(&self) -> usize {
        self.as_slice().len()
    }

    /// Whether no unit is listed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The unit indices in a vector.
    pub fn to_vec(&self) -> Vec<usize> {
        self.iter().collect()
    }

    /// Add unit `u` at the end. Unit indices are below `u16::MAX`: the
    /// judge numbers the units of a board in sixteen bits.
    pub fn push(&mut self, u: usize) {
        let u = u16::try_from(u).unwrap_or(u16::MAX);
        match &mut self.0 {
            Repr::Inline { len, units } if usize::from(*len) < INLINE => {
                units[usize::from(*len)] = u;
                *len += 1;
            }
            Repr::Inline { units, .. } => {
                let mut v = Vec::with_capacity(2 * INLINE);
                v.extend_from_slice(units);
                v.push(u);
                self.0 = Repr::Heap(Box::new(v));
            }
            Repr::Heap(v) => v.push(u),
        }
    }

    /// Replace each index `u` by `f(u)`: the same units numbered as
    /// another board numbers them.
    pub fn renumber(&mut self, mut f: impl FnMut(usize) -> usize) {
        let units: &mut [u16] = match &mut self.0 {
            Repr::Inline { len, units } => &mut units[..usize::from(*len)],
            Repr::Heap(v) => v,
        };
        for u in units {
            *u = u16::try_from(f(usize::from(*u))).unwrap_or(u16::MAX);
        }
    }
}

impl Default for UnitList {
    fn default() -> UnitList {
        UnitList::new()
    }
}

impl PartialEq for UnitList {
    fn eq(&self, other: &UnitList) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for UnitList {}

impl fmt::Debug for UnitList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<usize> for UnitList {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> UnitList {
        let mut l = UnitList::new();
        for u in iter {
            l.push(u);
        }
        l
    }
}

impl<const N: usize> From<[usize; N]> for UnitList {
    fn from(units: [usize; N]) -> UnitList {
        units.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Outcome, Resolved, UnitResult};
    use super::*;

    /// The sizes the speed of the judge was measured with (issue #36): a
    /// larger result misses the allocator's cache and costs every
    /// judgement.
    #[test]
    fn a_unit_result_takes_at_most_40_bytes() {
        assert!(size_of::<UnitResult>() <= 40, "{}", size_of::<UnitResult>());
        assert_eq!(size_of::<Outcome>(), 16);
        assert_eq!(size_of::<super::super::Special>(), 8);
        assert_eq!(size_of::<UnitList>(), 16);
        assert_eq!(size_of::<Resolved>(), 6);
        assert_eq!(size_of::<Option<OrderIndex>>(), 2);
    }

    #[test]
    fn order_indices_keep_their_value_up_to_the_limit() {
        for i in [0, 1, 2, 300, OrderIndex::LIMIT - 1] {
            assert_eq!(OrderIndex::new(i).map(OrderIndex::get), Some(i));
        }
        assert_eq!(OrderIndex::new(OrderIndex::LIMIT), None);
        assert_eq!(format!("{:?}", OrderIndex::new(5)), "Some(5)");
    }

    #[test]
    fn a_unit_list_keeps_its_units_in_order_past_the_inline_ones() {
        let mut l = UnitList::new();
        assert!(l.is_empty());
        for u in 0..20 {
            l.push(u * 3);
            assert_eq!(l.to_vec(), (0..=u).map(|x| x * 3).collect::<Vec<_>>());
        }
        let inline = UnitList::from([4, 2]);
        assert_eq!(inline.to_vec(), [4, 2]);
        assert_eq!(format!("{inline:?}"), "[4, 2]");
        l.renumber(|u| u + 1);
        assert_eq!(l.iter().next(), Some(1));
        assert_eq!(l.len(), 20);
        let copy: UnitList = l.iter().collect();
        assert_eq!(copy, l);
    }
}
