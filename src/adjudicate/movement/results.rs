//! Building each unit's result once every decision is settled: what the
//! result mail prints beside each order, who was dislodged and where they
//! may retreat, and where a standoff left a province empty.

use super::resolve::Resolver;
use super::{
    Cmd, Compiled, Dislodgement, MovementResult, NONE, OrderIndex, Outcome, Resolved, Special,
    UnitList, UnitResult,
};
use crate::map::{PowerId, ProvinceId, RegionId, UnitKind};

/// A unit stands in the province after the phase.
pub(super) const OCCUPIED: u8 = 1;
/// A standoff left the province empty: no retreat may go there.
pub(super) const CONTESTED: u8 = 2;

impl Compiled<'_> {
    /// Write each unit's result and the contested provinces into `out`
    /// (whose verdicts on the orders [`compile`](Self::compile) wrote).
    pub(super) fn results(&mut self, r: &mut Resolver, out: &mut MovementResult) {
        let n = self.b.units.len();
        // Who stands where afterwards, and where a standoff left nobody:
        // the flags of each place.
        for u in 0..n {
            let p = match self.slot[u].cmd {
                Cmd::Move { to, .. } if r.result(u) => to,
                _ => self.slot[u].prov,
            };
            self.place[p as usize].flags |= OCCUPIED;
        }
        // Standoffs: empty provinces where a move with strength bounced. A
        // move that failed only because the move it depends on failed (an
        // A/F's landing and its fleet's sailing, Abstraction II) met nobody
        // there: no standoff.
        let contested = &mut out.contested;
        contested.clear();
        for u in 0..n {
            let need = self.hooks.needs(u);
            if let Cmd::Move { to, .. } = self.slot[u].cmd
                && !r.result(u)
                && self.place[to as usize].flags & OCCUPIED == 0
                && self.prevent_strength(r, u) > 0
                && (need == NONE || r.result(need as usize))
            {
                if self.place[to as usize].flags & CONTESTED == 0 {
                    contested.push(ProvinceId(to));
                }
                self.place[to as usize].flags |= CONTESTED;
            }
        }
        contested.sort_unstable();

        // The box whose waiting units an enemy has ordered destroyed.
        let destroy_box = self.b.questions.destroy_box().map(|p| p.0);
        let destroyers: Vec<PowerId> = match destroy_box {
            Some(_) => (0..n)
                .filter(|&u| self.slot[u].cmd == Cmd::Destroy)
                .map(|u| self.power(u))
                .collect(),
            None => Vec::new(),
        };
        out.landings.clear();
        out.units.clear();
        if out.units.capacity() == 0 {
            out.units = Vec::with_capacity(n);
        }
        out.units
            .extend((0..n).map(|u| self.unit_result(r, u, destroy_box, &destroyers)));
    }

    /// What became of unit `u`, once every decision is settled.
    #[inline(always)]
    fn unit_result(
        &self,
        r: &mut Resolver,
        u: usize,
        destroy_box: Option<u16>,
        destroyers: &[PowerId],
    ) -> UnitResult {
        let slot = &self.slot[u];
        let result = r.result(u);
        let valid = slot.valid;
        let support = |r: &mut Resolver| {
            if !valid {
                Outcome::SupportVoid
            } else if result {
                Outcome::Supported
            } else {
                match self.adj_support(r, u) {
                    Some(m) => Outcome::Cut(m),
                    None => Outcome::Supported,
                }
            }
        };
        let convoyed = || {
            if !valid {
                Outcome::ConvoyVoid
            } else if result {
                Outcome::Convoyed
            } else {
                Outcome::ConvoyFailed
            }
        };
        // The command adjudicated and what became of it, in one match.
        let (command, outcome) = match slot.cmd {
            Cmd::Hold => (Resolved::Hold, Outcome::Held),
            Cmd::Move { region, convoy, .. } => {
                let outcome = if result {
                    Outcome::Moved
                } else if convoy && !self.path(r, u) {
                    Outcome::NoConvoy
                } else {
                    Outcome::Bounced {
                        with: self.bounced_list(r, u),
                    }
                };
                (Resolved::Move { to: region, convoy }, outcome)
            }
            // Bound to nobody: void, and nobody to point at.
            Cmd::SupHold { target: NONE } | Cmd::SupMove { target: NONE, .. } => {
                (Resolved::Hold, support(r))
            }
            Cmd::Convoy { army: NONE, .. } => (Resolved::Hold, convoyed()),
            Cmd::SupHold { target } => (Resolved::SupportHold { unit: target }, support(r)),
            Cmd::SupMove { target, to, .. } => (
                Resolved::SupportMove {
                    unit: target,
                    to: ProvinceId(to),
                },
                support(r),
            ),
            Cmd::Convoy { army, to } => (
                Resolved::Convoy {
                    army,
                    to: ProvinceId(to),
                },
                convoyed(),
            ),
            Cmd::Destroy => (Resolved::Destroy, Outcome::Destroying),
        };
        let moved = matches!(outcome, Outcome::Moved);
        let mut dislodged = None;
        // Destroyed where it stands: waiting in a box an enemy ordered
        // destroyed, or failing to come out of a box whose rule is that
        // such units are lost (they cannot retreat).
        let destroyed = slot.in_box
            && !moved
            && ((destroy_box == Some(slot.prov)
                && self.b.questions.destroys(self.b.units[u].kind)
                && destroyers.iter().any(|&p| p != self.power(u)))
                || (matches!(slot.cmd, Cmd::Move { .. })
                    && self
                        .b
                        .questions
                        .failed_exit_destroyed(ProvinceId(slot.prov))));
        if !moved && !slot.in_box && !self.hooks.aboard(u) {
            for m in self.attackers(slot.prov) {
                if r.result(m) {
                    let by_convoy = matches!(self.slot[m].cmd, Cmd::Move { convoy: true, .. });
                    let from = ProvinceId(self.slot[m].prov);
                    let retreats = self.retreat_options(u, from, by_convoy);
                    dislodged = Some(Box::new(Dislodgement {
                        by: m,
                        from,
                        by_convoy,
                        retreats,
                    }));
                    break;
                }
            }
        }
        // A unit destroyed where it stands has no support left to
        // tell (a defensive army never waits in a box).
        let special = if destroyed {
            Special::Destroyed
        } else if matches!(outcome, Outcome::Supported) && self.b.units[u].kind.support_worn_down()
        {
            Special::SupportLeft(self.support_value(r, u) / super::marks::UNIT)
        } else {
            Special::None
        };
        UnitResult {
            order: OrderIndex::new(slot.order_of as usize),
            command,
            outcome,
            dislodged,
            special,
        }
    }

    /// [`bounced_with`](Self::bounced_with) as a list.
    fn bounced_list(&self, r: &mut Resolver, u: usize) -> UnitList {
        let mut with = UnitList::new();
        self.bounced_with(r, u, |w| with.push(w));
        with
    }

    /// The units that stopped the failed move of `u`: the same comparisons
    /// as [`adj_move`](Self::adj_move), kept to say who.
    pub(super) fn bounced_with(&self, r: &mut Resolver, u: usize, mut with: impl FnMut(usize)) {
        let Some((to, _)) = self.move_dest(u) else {
            return;
        };
        let need = self.hooks.needs(u);
        if need != NONE && !r.result(need as usize) {
            return;
        }
        let attack = self.attack_strength(r, u);
        if let Some(v) = self.head_to_head(u) {
            if attack <= self.supported_strength(r, v, None) || self.icebound(v) {
                with(v);
            }
        } else {
            let v = self.place[to as usize].unit;
            if v != NONE && v as usize != u && attack <= self.hold_strength(r, to) {
                with(v as usize);
            }
        }
        for w in self.attackers(to) {
            if w != u && attack <= self.prevent_strength(r, w) {
                with(w);
            }
        }
    }

    pub(super) fn retreat_options(
        &self,
        u: usize,
        attacker_from: ProvinceId,
        by_convoy: bool,
    ) -> Vec<RegionId> {
        let unit = self.b.units[u];
        let m = unit.kind.mobility();
        // A defensive army is restricted to its homeland (1000 AD rule 7)
        // in retreats as in moves: with no retreat there it is destroyed.
        let homeland =
            (unit.kind == UnitKind::DefensiveArmy).then(|| &self.b.map.power(unit.power).homeland);
        self.b
            .map
            .borders(unit.region)
            .iter()
            .filter(|&&(r, b)| {
                let p = self.b.map.province_of(r);
                b.intersects(m)
                    && homeland.is_none_or(|h| h.contains(&p))
                    && self.b.map.admits(r, unit.kind)
                    && self.place[p.index()].flags & (OCCUPIED | CONTESTED) == 0
                    && (by_convoy || p != attacker_from)
                    && !self.b.map.is_off_board(p)
                    && self
                        .closed_to(unit.power, ProvinceId(self.slot[u].prov), p)
                        .is_none()
            })
            .map(|&(r, _)| r)
            .collect()
    }
}
