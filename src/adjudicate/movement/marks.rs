//! Moves across marked borders (`map::crossing`): DPjudge's half-strength
//! (`*`, the 1900 variant's Cape of Good Hope) and strait (`~`, Loeb9)
//! borders, in the one place the movement judge asks about them.
//!
//! Each move's crossing is found once, after the orders are linked: the
//! border it crosses or, for an army carried by sea, the border its
//! convoy's last step crosses (DPjudge: "this includes convoyed movement
//! whose final step is the crossing"); with fleets on several last steps,
//! the best of them. A map without marks skips all of it.
//!
//! Strengths are counted in [`UNIT`]s so that half a unit is a whole
//! number, and every unit's own strength carries [`PRESENT`] once: a move
//! across a strait has no strength of its own, yet still enters an empty
//! province nobody else contests (DPjudge: the strongest move in a
//! province wins), while it loses to any unit's strength there.

use super::resolve::Resolver;
use super::{Cmd, Compiled, NONE};
use crate::map::{Crossing, ProvinceId, UnitKind};

/// One unit's strength, in the judge's count: halves of a unit are whole.
pub(super) const UNIT: u32 = 2;

/// Added once to a unit's own strength (never to a support): present,
/// though with no strength of its own.
pub(super) const PRESENT: u32 = 1;

/// The judge's count of a unit's own strength `k` (in units).
#[inline]
pub(super) const fn own(k: u32) -> u32 {
    k * UNIT + PRESENT
}

impl Compiled<'_> {
    /// Find how each move crosses its border, where the map marks any.
    pub(super) fn mark_crossings(&mut self) {
        if !self.b.map.has_marked_borders() {
            return;
        }
        let n = self.b.units.len();
        for u in 0..n {
            let Cmd::Move { to, convoy, .. } = self.slot[u].cmd else {
                continue;
            };
            let dest = ProvinceId(to);
            let how = if convoy {
                // The best last step of the fleets convoying the army.
                let mut best: Option<Crossing> = None;
                let mut f = self.slot[u].cvy;
                while f != NONE {
                    let fleet = self.b.units[f as usize].region;
                    if self.b.map.reaches(fleet, dest, UnitKind::Fleet) {
                        let c = self.b.map.crossing_from(fleet, dest);
                        best = Some(best.map_or(c, |b: Crossing| b.max(c)));
                    }
                    f = self.slot[f as usize].next;
                }
                best.unwrap_or(Crossing::Full)
            } else {
                self.b.map.crossing_from(self.b.units[u].region, dest)
            };
            if how != Crossing::Full {
                self.hooks
                    .set(n, |h| &mut h.crossing, Crossing::Full, u, how);
            }
        }
    }

    /// The strength unit `u` brings of its own to its move, or to its
    /// hold: across a marked border, half or none of it.
    #[inline]
    pub(super) fn crossed_strength(&self, u: usize) -> u32 {
        let s = self.own_strength(u);
        match self.hooks.crossing(u) {
            Crossing::Full => s,
            how => how.own_strength(s.saturating_sub(PRESENT)) + PRESENT,
        }
    }

    /// Whether the attack `m` on a supporting unit cuts its support, where
    /// its crossing decides it: across a half-strength border only by
    /// dislodging the supporter; across a strait only with support of its
    /// own. `None`: an ordinary crossing, decided as usual.
    pub(super) fn cut_across(&self, r: &mut Resolver, m: usize) -> Option<bool> {
        match self.hooks.crossing(m) {
            Crossing::Full => None,
            Crossing::Half => Some(r.resolve(self, m)),
            Crossing::Strait => Some(
                self.path(r, m) && {
                    let mut supported = false;
                    for k in self.supporters(m) {
                        if r.resolve(self, k) {
                            supported = true;
                            break;
                        }
                    }
                    supported
                },
            ),
        }
    }
}
