//! The rules of the movement phase (DATC 5.B): attack, hold, defend and
//! prevent strengths, cut support, convoy paths, and what each decision
//! means, for the [resolver](super::resolve).
//!
//! The strengths take the variant's hooks here, where the rule text puts
//! them: a unit whose own strength is not its kind's (1700 AD's double
//! move), a support worth more or less (1700 AD; 1000 AD's defensive army,
//! worn down rather than cut), a unit the ice keeps in place (Abstraction
//! II), and a move that succeeds only with another (an A/F's fleet and the
//! army it lands).

use super::resolve::{Decisions, Resolver};
use super::{Cmd, Compiled, ICE, NONE};
use crate::adjudicate::rulebook::ParadoxRule;
use crate::map::{PowerId, ProvinceId, UnitKind};

impl Decisions for Compiled<'_> {
    fn decide(&self, r: &mut Resolver, u: usize) -> bool {
        match self.slot[u].cmd {
            Cmd::Move { .. } => self.adj_move(r, u),
            Cmd::SupHold { .. } | Cmd::SupMove { .. } => self.adj_support(r, u).is_none(),
            Cmd::Convoy { .. } => self.adj_convoy(r, u),
            Cmd::Hold | Cmd::Destroy => true,
        }
    }

    /// DATC 5.B.9: a cycle with a convoy is a paradox, settled by the
    /// rulebook's [`ParadoxRule`]; a cycle of moves only is circular
    /// movement, and everybody moves; any other fails.
    fn backup_rule(&self, members: &[usize]) -> Vec<Option<bool>> {
        let is_convoy = |m: usize| matches!(self.slot[m].cmd, Cmd::Convoy { .. });
        if members.iter().any(|&m| is_convoy(m)) {
            match self.b.rules.paradox {
                // The convoying fleets fail; the rest is decided again.
                ParadoxRule::Szykman => members
                    .iter()
                    .map(|&m| (is_convoy(m)).then_some(false))
                    .collect(),
                ParadoxRule::AllHold => vec![Some(false); members.len()],
            }
        } else if members
            .iter()
            .all(|&m| matches!(self.slot[m].cmd, Cmd::Move { .. }))
        {
            vec![Some(true); members.len()]
        } else {
            vec![Some(false); members.len()]
        }
    }
}

impl Compiled<'_> {
    #[inline]
    pub(super) fn move_dest(&self, u: usize) -> Option<(u16, bool)> {
        match self.slot[u].cmd {
            Cmd::Move { to, convoy, .. } => Some((to, convoy)),
            _ => None,
        }
    }

    /// The unit in a head-to-head battle with `u`: both moving into each
    /// other's province, neither by convoy.
    #[inline]
    pub(super) fn head_to_head(&self, u: usize) -> Option<usize> {
        let (to, convoy) = self.move_dest(u)?;
        self.head_to_head_with(u, convoy, self.place[to as usize].unit)
    }

    /// [`head_to_head`](Self::head_to_head) of the move of `u` (`convoy`:
    /// by sea) into the province unit `v` stands in (`NONE`: nobody).
    #[inline]
    fn head_to_head_with(&self, u: usize, convoy: bool, v: u16) -> Option<usize> {
        if convoy || v == NONE {
            return None;
        }
        match self.move_dest(v as usize) {
            Some((t, false)) if t == self.slot[u].prov => Some(v as usize),
            _ => None,
        }
    }

    /// The units whose valid support `u` has, in unit order.
    pub(super) fn supporters(&self, u: usize) -> Chain<'_, false> {
        Chain {
            slot: &self.slot,
            at: self.slot[u].sup,
        }
    }

    /// The units moving into province `p`, in unit order.
    pub(super) fn attackers(&self, p: u16) -> Chain<'_, true> {
        Chain {
            slot: &self.slot,
            at: self.place[p as usize].att,
        }
    }

    /// The unit's own strength and its successful supports', optionally
    /// leaving out those of one power.
    pub(super) fn supported_strength(
        &self,
        r: &mut Resolver,
        u: usize,
        not_of: Option<PowerId>,
    ) -> u32 {
        let mut s = self.crossed_strength(u);
        for k in self.supporters(u) {
            if not_of.is_some_and(|p| self.power(k) == p) {
                continue;
            }
            if r.resolve(self, k) {
                s += self.support_value(r, k);
            }
        }
        s
    }

    /// The strength a unit brings alone: its kind's, unless the phase
    /// says otherwise.
    #[inline]
    pub(super) fn own_strength(&self, u: usize) -> u32 {
        self.slot[u].strength
    }

    /// What a standing support adds. A defensive army's support of three
    /// loses the strength of the strongest attack that would have cut an
    /// ordinary support (1000 AD rule 8: "support left = 3 minus the
    /// strongest single attack", never below nothing).
    pub(super) fn support_value(&self, r: &mut Resolver, k: usize) -> u32 {
        let kind = self.b.units[k].kind;
        let full = self.slot[k].support;
        if !kind.support_worn_down() {
            return full;
        }
        let p = self.slot[k].prov;
        let aimed_at = match self.slot[k].cmd {
            Cmd::SupMove { to, .. } => to,
            _ => NONE,
        };
        let mut strongest = 0;
        for m in self.attackers(p) {
            if self.power(m) == self.power(k) || self.slot[m].prov == aimed_at {
                continue;
            }
            strongest = strongest.max(self.attack_strength(r, m));
        }
        // An attack's strength counts the attacker's presence once.
        full.saturating_sub(strongest.saturating_sub(super::marks::PRESENT))
    }

    /// PATH: a move by land always has one; a convoyed move needs a chain
    /// of fleets, each with a successful convoy, from origin to destination.
    /// (The move by land is asked for far more often: it is answered here,
    /// inline, and the chain apart.)
    #[inline]
    pub(super) fn path(&self, r: &mut Resolver, u: usize) -> bool {
        match self.move_dest(u) {
            Some((to, true)) if !self.hooks.aboard(u) && !self.hooks.aboard_path(u) => {
                self.convoy_path(r, u, to)
            }
            _ => true,
        }
    }

    /// The chain of convoying fleets of [`path`](Self::path).
    #[inline(never)]
    fn convoy_path(&self, r: &mut Resolver, u: usize, to: u16) -> bool {
        let from = self.slot[u].prov;
        // The first 64 convoys of the army, in unit order.
        let mut fleets = [0u16; 64];
        let mut len = 0;
        let convoys: Chain<'_, false> = Chain {
            slot: &self.slot,
            at: self.slot[u].cvy,
        };
        for f in convoys.take(64) {
            fleets[len] = f as u16;
            len += 1;
        }
        if len == 0 {
            return false;
        }
        let mut good: u64 = 0;
        let mut bad: u64 = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..len {
                let bit = 1u64 << i;
                if (good | bad) & bit != 0 {
                    continue;
                }
                let f = fleets[i] as usize;
                let fp = self.slot[f].prov;
                let fr = self.b.units[f].region;
                let touches = self.b.map.reaches(fr, ProvinceId(from), UnitKind::Fleet)
                    || (0..len).any(|k| {
                        good & (1u64 << k) != 0 && {
                            let g = fleets[k] as usize;
                            self.b.map.reaches(
                                self.b.units[g].region,
                                ProvinceId(fp),
                                UnitKind::Fleet,
                            )
                        }
                    });
                if !touches {
                    continue;
                }
                if r.resolve(self, f) {
                    good |= bit;
                    if self.b.map.reaches(fr, ProvinceId(to), UnitKind::Fleet) {
                        return true;
                    }
                    changed = true;
                } else {
                    bad |= bit;
                }
            }
        }
        false
    }

    pub(super) fn attack_strength(&self, r: &mut Resolver, u: usize) -> u32 {
        let (to, convoy) = self.move_dest(u).expect("attack strength of a move");
        let v = self.place[to as usize].unit;
        let h2h = self.head_to_head_with(u, convoy, v).is_some();
        self.attack_strength_of(r, u, convoy, v, h2h)
    }

    /// [`attack_strength`](Self::attack_strength) of the move of `u`
    /// (`convoy`: by sea) once its destination's unit `v` (`NONE`: none)
    /// and whether the two meet head to head are known, so that
    /// [`adj_move`](Self::adj_move) looks them up once.
    #[inline]
    fn attack_strength_of(
        &self,
        r: &mut Resolver,
        u: usize,
        convoy: bool,
        v: u16,
        h2h: bool,
    ) -> u32 {
        if convoy && !self.path(r, u) {
            return 0;
        }
        if v == NONE {
            return self.supported_strength(r, u, None);
        }
        let v = v as usize;
        if !h2h && self.move_dest(v).is_some() && r.resolve(self, v) {
            return self.supported_strength(r, u, None);
        }
        if self.power(v) == self.power(u) {
            return 0;
        }
        let pv = self.power(v);
        self.supported_strength(r, u, Some(pv))
    }

    #[inline]
    pub(super) fn hold_strength(&self, r: &mut Resolver, p: u16) -> u32 {
        self.hold_strength_of(r, self.place[p as usize].unit)
    }

    /// The hold strength of the province unit `v` stands in (`NONE`:
    /// nobody, none).
    #[inline]
    fn hold_strength_of(&self, r: &mut Resolver, v: u16) -> u32 {
        if v == NONE {
            return 0;
        }
        let v = v as usize;
        if self.move_dest(v).is_some() {
            return if r.resolve(self, v) {
                0
            } else if self.icebound(v) {
                ICE
            } else {
                self.hooks.held(v).unwrap_or_else(|| self.own_strength(v))
            };
        }
        if self.icebound(v) {
            return ICE;
        }
        self.supported_strength(r, v, None)
    }

    pub(super) fn prevent_strength(&self, r: &mut Resolver, u: usize) -> u32 {
        if !self.path(r, u) {
            return 0;
        }
        if let Some(v) = self.head_to_head(u)
            && r.resolve(self, v)
        {
            return 0;
        }
        self.supported_strength(r, u, None)
    }

    /// Whether the move of `u` into `to` (`convoy`: by sea) goes overland,
    /// unsupported, into a province nobody holds and nobody else enters:
    /// then there is nothing to weigh but the unit's own strength, which is
    /// never nothing on an ordinary border. Most moves of a phase are such
    /// (every one of the standard opening but the Black Sea's).
    #[inline]
    fn alone(&self, u: usize, to: u16, convoy: bool) -> bool {
        self.place[to as usize].unit == NONE && self.sole_mover(u, to, convoy)
    }

    /// Whether the move of `u` into `to` goes overland, unsupported, and
    /// nobody else moves there: [`alone`](Self::alone) and
    /// [`follows`](Self::follows) but for who stands there.
    #[inline]
    fn sole_mover(&self, u: usize, to: u16, convoy: bool) -> bool {
        let slot = &self.slot[u];
        !convoy
            && slot.sup == NONE
            && self.place[to as usize].att == u as u16
            && slot.next_att == NONE
    }

    /// Whether the move of `u` into `to` would be [alone](Self::alone) but
    /// for unit `v`, which stands there and is settled as having moved
    /// away, not into `u`'s province: nobody holds there then (DATC 5.B:
    /// a unit that moves away has no hold strength), and there is again
    /// nothing to weigh but `u`'s own strength. The moves that follow a
    /// unit out (Berlin into Kiel, Moscow into St Petersburg in the
    /// standard opening) are decided without the strengths' calls.
    #[inline]
    fn follows(&self, r: &Resolver, u: usize, to: u16, convoy: bool, v: usize) -> bool {
        self.sole_mover(u, to, convoy)
            && matches!(self.slot[v].cmd, Cmd::Move { to: t, .. } if t != self.slot[u].prov)
            && r.settled(v) == Some(true)
    }

    /// The decision of unit `u` when it is a move [alone](Self::alone)
    /// that needs no other move: it depends on no other decision, so the
    /// judge settles it without the resolver's bookkeeping (a call, the
    /// guess state saved and restored), which for the standard opening
    /// costs more than the answer (issue #36). `None`: any other unit,
    /// decided by [`adj_move`](Self::adj_move) and the rest as usual.
    #[inline]
    pub(super) fn unopposed(&self, u: usize) -> Option<bool> {
        match self.slot[u].cmd {
            Cmd::Move {
                to,
                convoy,
                into_box: false,
                ..
            } if self.hooks.needs(u) == NONE && self.alone(u, to, convoy) => {
                Some(self.crossed_strength(u) > 0)
            }
            _ => None,
        }
    }

    pub(super) fn adj_move(&self, r: &mut Resolver, u: usize) -> bool {
        let Cmd::Move {
            to,
            convoy,
            into_box,
            ..
        } = self.slot[u].cmd
        else {
            unreachable!("a move")
        };
        if into_box {
            return true;
        }
        let need = self.hooks.needs(u);
        if need != NONE && !r.resolve(self, need as usize) {
            return false;
        }
        if self.alone(u, to, convoy) {
            return self.crossed_strength(u) > 0;
        }
        // The unit at the destination and whether it comes this way,
        // looked up once for the attack and the defence.
        let v = self.place[to as usize].unit;
        if v != NONE && self.follows(r, u, to, convoy, v as usize) {
            return self.crossed_strength(u) > 0;
        }
        let h2h = self.head_to_head_with(u, convoy, v);
        let attack = self.attack_strength_of(r, u, convoy, v, h2h.is_some());
        if attack == 0 {
            return false;
        }
        if let Some(v) = h2h {
            if attack <= self.supported_strength(r, v, None) || self.icebound(v) {
                return false;
            }
        } else if attack <= self.hold_strength_of(r, v) {
            return false;
        }
        for w in self.attackers(to) {
            if w != u && attack <= self.prevent_strength(r, w) {
                return false;
            }
        }
        true
    }

    /// `None` if the support stands, else the unit that cut it.
    pub(super) fn adj_support(&self, r: &mut Resolver, s: usize) -> Option<usize> {
        let p = self.slot[s].prov;
        let aimed_at = match self.slot[s].cmd {
            Cmd::SupMove { to, .. } => to,
            _ => NONE,
        };
        for m in self.attackers(p) {
            if self.power(m) == self.power(s) {
                continue;
            }
            let cut = if let Some(cut) = self.cut_across(r, m) {
                cut
            } else if self.slot[m].prov == aimed_at || self.b.units[s].kind.support_worn_down() {
                // An attack from where the support is aimed cuts it only by
                // dislodging the supporter; so does any attack on a
                // defensive army, whose support is worn down instead.
                r.resolve(self, m)
            } else {
                self.path(r, m)
            };
            if cut {
                return Some(m);
            }
        }
        None
    }

    /// A convoy stands unless the fleet is dislodged. The attacks on the
    /// fleet are adjudicated directly rather than resolved (DATC 5.D): that
    /// keeps the attackers out of the dependency cycle of a convoy paradox
    /// such as Pandin's, so the cycle is a clean single one for the guess
    /// algorithm and the backup rule lands on the convoy.
    pub(super) fn adj_convoy(&self, r: &mut Resolver, f: usize) -> bool {
        let p = self.slot[f].prov;
        for m in self.attackers(p) {
            let success = match r.settled(m) {
                Some(s) => s,
                None => self.decide(r, m),
            };
            if success {
                return false;
            }
        }
        true
    }
}

/// A list of units linked through their slots: the moves into a province
/// (`ATT`: by [`Slot::next_att`](super::Slot::next_att)), or the supports
/// or convoys of a unit (by [`Slot::next`](super::Slot::next)).
pub(super) struct Chain<'c, const ATT: bool> {
    pub(super) slot: &'c [super::Slot],
    pub(super) at: u16,
}

impl<const ATT: bool> Iterator for Chain<'_, ATT> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.at == NONE {
            return None;
        }
        let u = self.at as usize;
        let s = &self.slot[u];
        self.at = if ATT { s.next_att } else { s.next };
        Some(u)
    }
}
