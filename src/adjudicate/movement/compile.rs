//! Order compilation: every order checked against the board, the legal
//! ones turned into index-based commands ([`Cmd`]), the rest reported with
//! why (the unit holds, DATC 4.E.1); then supports and convoys matched to
//! the orders they name and indexed for the resolver.

use super::{Cmd, Compiled, NONE, OrderIndex, Slot};
use crate::adjudicate::Illegal;
use crate::adjudicate::rulebook::{ConvoyFallback, ConvoyIntent, DuplicateOrders};
use crate::map::{CoastId, PowerId, ProvinceId, RegionId, Terrain, Unit, UnitKind};
use crate::orders::{MainCommand, MainOrder, Place, UnitRef};

impl Compiled<'_> {
    /// Check every order, writing into `verdicts` (one entry per order)
    /// why each was not carried out, if it was not.
    pub(super) fn compile(&mut self, orders: &[MainOrder], verdicts: &mut Vec<Option<Illegal>>) {
        verdicts.clear();
        if verdicts.capacity() == 0 {
            // The one-shot judge hands its lists over: allocate this one
            // at its size, without the growing path.
            *verdicts = Vec::with_capacity(orders.len());
        }
        verdicts.resize(orders.len(), None);
        // What the passes after the loop have to do: most phases have no
        // conflicting orders, no unit found later and no convoy, and skip
        // those passes.
        let mut any_conflict = false;
        let mut any_named = false;
        let mut any_sea = false;
        let conflicts_hold = self.b.rules.duplicate_orders == DuplicateOrders::Hold;
        for (i, o) in orders.iter().enumerate() {
            if i >= OrderIndex::LIMIT {
                verdicts[i] = Some(Illegal::TooManyOrders);
                continue;
            }
            let u = self.find_unit(o);
            if u == NONE {
                verdicts[i] = Some(self.no_unit(o));
                continue;
            }
            let u = u as usize;
            self.slot[u].from_region = self.moves_from(u, o.unit.at.province);
            if self.b.units[u].power != o.power {
                verdicts[i] = Some(self.not_theirs(u, o));
                continue;
            }
            match self.check(u, &o.command) {
                Err(why) => verdicts[i] = Some(why),
                Ok(cmd) => {
                    // Looked at only for a support or convoy bound to
                    // nobody yet: most orders are moves.
                    let named = match cmd {
                        Cmd::SupMove { target: NONE, .. }
                        | Cmd::SupHold { target: NONE }
                        | Cmd::Convoy { army: NONE, .. } => match &o.command {
                            MainCommand::SupportMove { unit: t, .. }
                            | MainCommand::SupportHold { unit: t }
                            | MainCommand::Convoy { unit: t, .. } => Some((t.at.province, t.kind)),
                            _ => None,
                        },
                        _ => None,
                    };
                    any_named |= named.is_some();
                    any_sea |= matches!(cmd, Cmd::Convoy { .. } | Cmd::Move { via: true, .. });
                    // The unit's slot, found once for all it is told
                    // (issue #36: each `self.slot[u]` reloads the table
                    // and checks the index again).
                    let slot = &mut self.slot[u];
                    slot.named = named;
                    let prev = slot.order_of;
                    if prev != u32::MAX {
                        if conflicts_hold && slot.cmd != cmd {
                            slot.conflict = true;
                            any_conflict = true;
                        }
                        verdicts[prev as usize] = Some(Illegal::Replaced);
                    }
                    slot.cmd = cmd;
                    slot.order_of = i as u32;
                }
            }
        }
        if any_conflict {
            for s in &mut self.slot {
                if s.conflict {
                    s.cmd = Cmd::Hold;
                    verdicts[s.order_of as usize] = Some(Illegal::Conflicting);
                    s.order_of = u32::MAX;
                }
            }
        }
        if any_named {
            self.bind_named();
        }
        if any_sea {
            self.convoy_intent();
        }
    }

    /// Why an order names no unit: none there, or (Ard-Ri rule 7c) a unit
    /// built but still waiting off the board, told when it comes. Out of
    /// line, as are the other rare paths of [`compile`](Self::compile):
    /// the loop over the orders keeps its registers for the usual case
    /// (issue #36).
    #[cold]
    #[inline(never)]
    fn no_unit(&self, o: &MainOrder) -> Illegal {
        let waiting =
            self.b.questions.pending().iter().any(|w| {
                w.power == o.power && self.b.map.province_of(w.region) == o.unit.at.province
            });
        if waiting {
            Illegal::NotYetPlaced
        } else {
            Illegal::NoUnit
        }
    }

    /// Why an order for unit `u`, another power's, is not carried out.
    /// Whose unit stands where the orderer may not know (1066 rule 5) is
    /// not told: there is none of theirs there.
    #[cold]
    #[inline(never)]
    fn not_theirs(&self, u: usize, o: &MainOrder) -> Illegal {
        if self
            .b
            .questions
            .unseen(o.power, ProvinceId(self.slot[u].prov), self.b.phase)
        {
            Illegal::NoUnit
        } else {
            Illegal::ForeignUnit(self.b.units[u].power)
        }
    }

    /// Convoy intent (DATC 4.A.3): an army that could walk goes by sea
    /// when its order says so or a fleet of its own power convoys it.
    #[inline(never)]
    fn convoy_intent(&mut self) {
        let any_convoy = self
            .slot
            .iter()
            .any(|s| matches!(s.cmd, Cmd::Convoy { .. }));
        for u in 0..self.b.units.len() {
            if let Cmd::Move {
                to,
                needs_convoy: false,
                via,
                ..
            } = self.slot[u].cmd
                && self.b.units[u].kind.is_convoyable()
            {
                let own_fleet = any_convoy
                    && self.b.rules.convoy_intent == ConvoyIntent::Edition2023
                    && (0..self.b.units.len()).any(|f| {
                        self.power(f) == self.power(u)
                            && matches!(self.slot[f].cmd, Cmd::Convoy { army, to: t } if army as usize == u && t == to)
                    });
                if (via || own_fleet)
                    && let Cmd::Move { convoy, .. } = &mut self.slot[u].cmd
                {
                    *convoy = true;
                }
            }
        }
    }

    /// The unit an order is for. In a box there may be several: the order
    /// goes to the first of the power's units there (of the kind written,
    /// if any) that no earlier order has taken.
    pub(super) fn find_unit(&self, o: &MainOrder) -> u16 {
        // The usual case, inline: the power's own unit stands there.
        let p = o.unit.at.province;
        if !self.b.map.is_off_board(p) {
            let u = self.place[p.index()].unit;
            if u != NONE && self.b.units[u as usize].power == o.power {
                return u;
            }
        }
        self.find_unit_elsewhere(o)
    }

    /// [`find_unit`](Self::find_unit) when the power's own unit does not
    /// stand in the place named: another power's, or a box's.
    #[inline(never)]
    fn find_unit_elsewhere(&self, o: &MainOrder) -> u16 {
        let mut p = o.unit.at.province;
        if !self.b.map.is_off_board(p) {
            let u = self.place[p.index()].unit;
            // The power's own unit there, or none: that one. Otherwise the
            // name may be the rule text's for where its box's units wait.
            if u != NONE && self.b.units[u as usize].power == o.power {
                return u;
            }
            let named_box = self.b.questions.box_named(o.power, p);
            let waiting = named_box.is_some_and(|b| {
                (0..self.b.units.len()).any(|x| self.slot[x].in_box && self.slot[x].prov == b.0)
            });
            if u != NONE && !waiting {
                return u;
            }
            // Nobody on the board there: perhaps the rule text's name for
            // where a box's units wait.
            match named_box {
                Some(b) => p = b,
                None => return NONE,
            }
        }
        let taken = |u: usize| self.slot[u].order_of != u32::MAX;
        let mine = |u: &usize| {
            self.slot[*u].in_box && self.slot[*u].prov == p.0 && self.b.units[*u].power == o.power
        };
        (0..self.b.units.len())
            .filter(mine)
            .filter(|&u| o.unit.kind.is_none_or(|k| self.b.units[u].kind == k))
            .find(|&u| !taken(u))
            .or_else(|| (0..self.b.units.len()).find(mine))
            .map_or(NONE, |u| u as u16)
    }

    /// The box whose waiting units another unit's support or convoy
    /// naming `p` may mean: `p` itself, or the box the rules say waits
    /// there, when its units may be helped onto the board.
    pub(super) fn waiting_box(&self, p: ProvinceId) -> Option<u16> {
        let b = if self.b.map.is_off_board(p) {
            Some(p)
        } else {
            self.b.questions.box_waiting_at(p)
        };
        b.filter(|&b| self.b.questions.supported_out(b))
            .map(|b| b.0)
    }

    /// Box units an order naming `named` (and `kind`, if written) may mean:
    /// those waiting in its box that move, if at all, from there.
    pub(super) fn box_units_named(
        &self,
        named: ProvinceId,
        kind: Option<UnitKind>,
    ) -> impl Iterator<Item = usize> + '_ {
        let b = self.waiting_box(named);
        (0..self.b.units.len()).filter(move |&x| {
            self.slot[x].in_box
                && Some(self.slot[x].prov) == b
                && kind.is_none_or(|k| self.b.units[x].kind == k)
                && self.slot[x]
                    .from_region
                    .is_none_or(|r| self.b.map.province_of(r) == named)
        })
    }

    /// Whether the unit a support or convoy of `u` names at `target` is
    /// found only once every order is known: units wait in a box there
    /// (rules 4 and 7 of 1066: on-board units support and convoy them onto
    /// the board), or `u`'s player may not know what stands there (rule
    /// 5), so that the answer must not depend on it.
    pub(super) fn found_later(&self, u: usize, target: &crate::orders::UnitRef) -> bool {
        let p = target.at.province;
        self.b.questions.unseen(self.power(u), p, self.b.phase)
            || self.box_units_named(p, target.kind).next().is_some()
    }

    /// Bind each support and convoy whose unit is [found
    /// later](Self::found_later): to the unit named that moves where the
    /// order says (one in the box, or the one standing there), else to one
    /// of them, whose move it is not, so it is void; else to nobody, void.
    #[inline(never)]
    pub(super) fn bind_named(&mut self) {
        for s in 0..self.b.units.len() {
            let Some((named, kind)) = self.slot[s].named else {
                continue;
            };
            let to = match self.slot[s].cmd {
                Cmd::SupMove {
                    target: NONE, to, ..
                }
                | Cmd::Convoy { army: NONE, to } => to,
                _ => continue,
            };
            let convoy = matches!(self.slot[s].cmd, Cmd::Convoy { .. });
            let here = self.place[named.index()].unit;
            let standing = (here != NONE
                && here as usize != s
                && kind.is_none_or(|k| self.b.units[here as usize].kind == k))
            .then_some(here as usize);
            let candidates: Vec<usize> = standing
                .into_iter()
                .chain(self.box_units_named(named, kind))
                .filter(|&x| !convoy || self.b.units[x].kind.is_convoyable())
                .collect();
            let moving = candidates
                .iter()
                .copied()
                .find(|&x| matches!(self.slot[x].cmd, Cmd::Move { to: t, .. } if t == to));
            let bound = moving
                .or(candidates.first().copied())
                .map_or(NONE, |x| x as u16);
            match &mut self.slot[s].cmd {
                Cmd::SupMove { target, .. } => *target = bound,
                Cmd::Convoy { army, .. } => *army = bound,
                _ => {}
            }
        }
    }

    /// Whether unit `u` stands in ice this season (Abstraction II rule 5):
    /// a fleet in a frozen space, or an army where the ice holds armies.
    pub(super) fn icebound(&self, u: usize) -> bool {
        self.slot[u].ice
    }

    /// Where box unit `u` moves from when its order names `named`: that
    /// space, while its box's rule allows.
    pub(super) fn moves_from(&self, u: usize, named: ProvinceId) -> Option<RegionId> {
        if self.hooks.fixed_from(u).is_some() {
            return self.hooks.fixed_from(u);
        }
        if !self.slot[u].in_box
            || !self
                .b
                .questions
                .moves_from(ProvinceId(self.slot[u].prov), named, self.b.phase)
        {
            return None;
        }
        Some(self.b.map.province(named).main_region())
    }

    /// Check one order for unit `u` against the board.
    pub(super) fn check(&self, u: usize, c: &MainCommand) -> Result<Cmd, Illegal> {
        // The unit's slot, found once for the checks below (issue #36),
        // and the unit as its orders see it: where it moves from.
        let slot = &self.slot[u];
        let unit = match slot.from_region {
            Some(region) => Unit {
                region,
                ..self.b.units[u]
            },
            None => self.b.units[u],
        };
        self.check_may_act(u, slot, unit, c)?;
        match c {
            MainCommand::Destroy { target } => return self.check_destroy(u, target.at.province),
            MainCommand::Move { to, .. } if self.b.map.is_off_board(to.province) => {
                return self.check_enter_box(u, to.province);
            }
            MainCommand::SupportMove { to, .. } if self.b.map.is_off_board(to.province) => {
                return Err(Illegal::CannotSupportThere);
            }
            _ => {}
        }
        match c {
            MainCommand::Hold => Ok(Cmd::Hold),
            MainCommand::Move {
                to,
                via_convoy,
                route,
            } => self.check_move(u, unit, slot.prov, *to, *via_convoy || !route.is_empty()),
            MainCommand::SupportHold { unit: target } => self.check_support_hold(u, unit, target),
            MainCommand::SupportMove { unit: target, to } => {
                self.check_support_move(u, unit, target, *to)
            }
            MainCommand::Board { .. }
            | MainCommand::Disembark { .. }
            | MainCommand::Impulses { .. } => Err(Illegal::NotInThisGame),
            MainCommand::Destroy { .. } => unreachable!("handled above"),
            MainCommand::Convoy { unit: target, to } => self.check_convoy(u, unit, target, *to),
        }
    }

    /// What stops unit `u` (standing as `unit`) from carrying out `c` at
    /// all, whatever it names: waiting off the board, the ice, a defensive
    /// army's homeland. A unit of the standard game is in none of those
    /// cases: that is answered inline, the rules out of line.
    #[inline]
    fn check_may_act(
        &self,
        u: usize,
        slot: &Slot,
        unit: Unit,
        c: &MainCommand,
    ) -> Result<(), Illegal> {
        if !slot.in_box
            && !slot.ice
            && !self.b.map.has_marked_borders()
            && self.hooks.closed.is_empty()
            && unit.kind != UnitKind::DefensiveArmy
        {
            return Ok(());
        }
        self.check_may_act_by_rule(u, unit, c)
    }

    /// [`check_may_act`](Self::check_may_act) for a unit one of its rules
    /// may stop.
    #[inline(never)]
    fn check_may_act_by_rule(&self, u: usize, unit: Unit, c: &MainCommand) -> Result<(), Illegal> {
        let here = self.slot[u].prov;
        if self.slot[u].in_box {
            // Off the board a unit can only wait or come onto the board.
            match c {
                MainCommand::Hold => return Ok(()),
                MainCommand::Move { to, .. } => {
                    if !self.b.questions.may_leave(ProvinceId(here), self.b.phase) {
                        return Err(Illegal::NotNow);
                    }
                    if self.b.map.is_off_board(to.province) {
                        return Err(Illegal::NoEntry);
                    }
                }
                MainCommand::SupportHold { .. }
                | MainCommand::SupportMove { .. }
                | MainCommand::Convoy { .. } => {
                    return Err(Illegal::OffBoard);
                }
                _ => {}
            }
        }
        // Frozen fleets stand; armies held by the ice leave overland only.
        if self.icebound(u) {
            let fleet = unit.kind.mobility().intersects(crate::map::Mobility::FLEET);
            match c {
                MainCommand::Hold => {}
                MainCommand::Move { to, via_convoy, .. } if !fleet => {
                    let overland =
                        !via_convoy && self.b.map.reaches(unit.region, to.province, UnitKind::Army);
                    if !overland {
                        return Err(Illegal::Frozen);
                    }
                }
                _ if fleet => return Err(Illegal::Frozen),
                _ => {}
            }
        }
        // No support crosses a marked border (`map::crossing`).
        if self.b.map.has_marked_borders() {
            let dest = match c {
                MainCommand::SupportHold { unit: t } => Some(t.at.province),
                MainCommand::SupportMove { to, .. } => Some(to.province),
                _ => None,
            };
            if dest.is_some_and(|d| !self.b.map.crossing_from(unit.region, d).supports_across()) {
                return Err(Illegal::NoSupportAcross);
            }
        }
        // Nor crosses a border shut to the unit's power (`owner_borders`).
        if !self.hooks.closed.is_empty() {
            self.check_owner_borders(u, unit, c)?;
        }
        // The defensive army keeps to its homeland and supports only what
        // happens in it (1000 AD rule 7).
        if unit.kind == UnitKind::DefensiveArmy {
            let home = &self.b.map.power(unit.power).homeland;
            let outside = match c {
                MainCommand::Move { to, .. } => !home.contains(&to.province),
                MainCommand::SupportHold { unit: t } => !home.contains(&t.at.province),
                MainCommand::SupportMove { to, .. } => !home.contains(&to.province),
                _ => false,
            };
            if outside {
                return Err(Illegal::OutsideHomeland);
            }
        }
        Ok(())
    }

    /// A support in place of the unit named at `target`.
    #[inline(never)]
    fn check_support_hold(&self, u: usize, unit: Unit, target: &UnitRef) -> Result<Cmd, Illegal> {
        if self
            .b
            .questions
            .unseen(self.power(u), target.at.province, self.b.phase)
        {
            // Whatever stands there, or nobody (then void): the answer
            // must not tell.
            if !self
                .b
                .map
                .reaches(unit.region, target.at.province, unit.kind)
            {
                return Err(Illegal::CannotSupportThere);
            }
            return Ok(Cmd::SupHold {
                target: self.place[target.at.province.index()].unit,
            });
        }
        let t = self.place[target.at.province.index()].unit;
        if t == NONE {
            return Err(Illegal::NoSuchUnit);
        }
        if t as usize == u {
            return Err(Illegal::SupportSelf);
        }
        if !self
            .b
            .map
            .reaches(unit.region, target.at.province, unit.kind)
        {
            return Err(Illegal::CannotSupportThere);
        }
        Ok(Cmd::SupHold { target: t })
    }

    /// A support of the move of the unit named at `target` into `to`.
    #[inline(never)]
    fn check_support_move(
        &self,
        u: usize,
        unit: Unit,
        target: &UnitRef,
        to: Place,
    ) -> Result<Cmd, Illegal> {
        let here = self.slot[u].prov;
        // A landing from an A/F (`A(ENG)-Bre`) is supported as a
        // move of the army aboard, not of the fleet it is aboard.
        if let Some(a) = (0..self.b.units.len()).find(|&a| {
            self.hooks.aboard(a)
                && self.slot[a].prov == target.at.province.0
                && matches!(self.slot[a].cmd, Cmd::Move { to: t, .. } if t == to.province.0)
        }) {
            if !self.b.map.reaches(unit.region, to.province, unit.kind) {
                return Err(Illegal::CannotSupportThere);
            }
            return Ok(Cmd::SupMove {
                target: a as u16,
                to: to.province.0,
                coast: None,
            });
        }
        if self.found_later(u, target) {
            let dest = to.province;
            if dest.0 == here || !self.b.map.reaches(unit.region, dest, unit.kind) {
                return Err(Illegal::CannotSupportThere);
            }
            if dest == target.at.province {
                return Err(Illegal::ImpossibleMove);
            }
            return Ok(Cmd::SupMove {
                target: NONE,
                to: dest.0,
                coast: to.coast,
            });
        }
        let t = self.place[target.at.province.index()].unit;
        if t == NONE {
            return Err(Illegal::NoSuchUnit);
        }
        if t as usize == u {
            return Err(Illegal::SupportSelf);
        }
        let dest = to.province;
        if dest.0 == here || !self.b.map.reaches(unit.region, dest, unit.kind) {
            return Err(Illegal::CannotSupportThere);
        }
        if dest == target.at.province {
            return Err(Illegal::ImpossibleMove);
        }
        // The supported move must be possible, and possible without
        // the supporting unit convoying it (DATC 6.D.31).
        let tu = self.b.units[t as usize];
        let direct = self.b.map.reaches(tu.region, dest, tu.kind);
        let coast = self.support_coast(tu, to)?;
        if !direct {
            let by_sea = tu.kind.is_convoyable()
                && self.b.map.province(dest).terrain != Terrain::Sea
                && self.route_exists(target.at.province.0, dest.0, here, self.power(u));
            if !by_sea {
                return Err(Illegal::ImpossibleMove);
            }
        }
        Ok(Cmd::SupMove {
            target: t,
            to: dest.0,
            coast,
        })
    }

    /// A convoy of the army named at `target` into `to`.
    #[inline(never)]
    fn check_convoy(
        &self,
        u: usize,
        unit: Unit,
        target: &UnitRef,
        to: Place,
    ) -> Result<Cmd, Illegal> {
        let here = self.slot[u].prov;
        if !unit.kind.can_convoy() {
            return Err(Illegal::NotAFleet);
        }
        if !self.b.map.convoys_at(self.b.map.province_of(unit.region)) {
            return Err(Illegal::NotAtSea);
        }
        if self.found_later(u, target) {
            let dest = to.province;
            if dest == target.at.province {
                return Err(Illegal::SameProvince);
            }
            if !self
                .b
                .map
                .admits(self.b.map.province(dest).main_region(), UnitKind::Army)
            {
                return Err(Illegal::WrongTerrain);
            }
            // From the box its armies wait in, when they do.
            let from = self
                .box_units_named(target.at.province, target.kind)
                .next()
                .map_or(target.at.province.0, |x| self.slot[x].prov);
            if !self
                .b
                .questions
                .unseen(self.power(u), target.at.province, self.b.phase)
                && !self.on_some_route(here, from, dest.0)
            {
                return Err(Illegal::NotOnRoute);
            }
            return Ok(Cmd::Convoy {
                army: NONE,
                to: dest.0,
            });
        }
        let t = self.place[target.at.province.index()].unit;
        if t == NONE {
            return Err(Illegal::NoSuchUnit);
        }
        if !self.b.units[t as usize].kind.is_convoyable() {
            return Err(Illegal::NotAnArmy);
        }
        let dest = to.province;
        if dest == target.at.province {
            return Err(Illegal::SameProvince);
        }
        if !self
            .b
            .map
            .admits(self.b.map.province(dest).main_region(), UnitKind::Army)
        {
            return Err(Illegal::WrongTerrain);
        }
        if !self.on_some_route(here, target.at.province.0, dest.0) {
            return Err(Illegal::NotOnRoute);
        }
        Ok(Cmd::Convoy {
            army: t,
            to: dest.0,
        })
    }

    /// A move off the board: only into a box that takes units from here
    /// (a raid), in its season, by the kinds it takes.
    #[inline(never)]
    pub(super) fn check_enter_box(&self, u: usize, p: ProvinceId) -> Result<Cmd, Illegal> {
        self.b.questions.may_enter(
            &self.b.units[u],
            ProvinceId(self.slot[u].prov),
            p,
            self.b.phase,
        )?;
        Ok(Cmd::Move {
            to: p.0,
            region: self.b.map.province(p).main_region(),
            convoy: false,
            needs_convoy: false,
            via: false,
            into_box: true,
        })
    }

    /// The destroy order (1066 rule 4).
    #[inline(never)]
    pub(super) fn check_destroy(&self, u: usize, target: ProvinceId) -> Result<Cmd, Illegal> {
        self.b
            .questions
            .check_destroy(self.b.map, &self.b.units[u], target, self.b.phase)?;
        Ok(Cmd::Destroy)
    }

    /// A coast named in a support must be one the supported fleet could
    /// reach (DATC 4.B.4); an irrelevant coast is ignored (4.B.6).
    pub(super) fn support_coast(&self, tu: Unit, to: Place) -> Result<Option<CoastId>, Illegal> {
        let Some(c) = to.coast else { return Ok(None) };
        let Some(r) = self.b.map.coast_region(to.province, c) else {
            return Ok(None);
        };
        if tu.kind.mobility() == crate::map::Mobility::FLEET
            && !self.b.map.borders_region(tu.region, r, tu.kind.mobility())
        {
            return Err(Illegal::CoastUnreachable);
        }
        Ok(Some(c))
    }

    /// A move of unit `u`, standing as `unit` in province `here`, to `to`.
    pub(super) fn check_move(
        &self,
        u: usize,
        unit: Unit,
        here: u16,
        to: Place,
        via: bool,
    ) -> Result<Cmd, Illegal> {
        let dest = to.province;
        if dest.0 == here {
            return Err(Illegal::SameProvince);
        }
        let prov = self.b.map.province(dest);
        // Settle the destination region.
        let mut direct_region = None;
        if let Some(c) = to.coast
            && let Some(r) = self.b.map.coast_region(dest, c)
            && self.b.map.admits(r, unit.kind)
            && !self.b.map.admits(prov.main_region(), unit.kind)
        {
            // A named coast that exists and the unit stands on coasts only.
            if !self
                .b
                .map
                .borders_region(unit.region, r, unit.kind.mobility())
            {
                return Err(Illegal::CoastUnreachable);
            }
            direct_region = Some(r);
        } else if !prov.has_split_coasts() {
            // One region: reachable or not, from the map's reach table.
            direct_region = self
                .b
                .map
                .reaches(unit.region, dest, unit.kind)
                .then(|| prov.main_region());
        } else {
            let mut it = self.b.map.reachable_regions(unit.region, dest, unit.kind);
            if let Some(r) = it.next() {
                if it.next().is_some() {
                    return Err(Illegal::CoastNeeded);
                }
                direct_region = Some(r);
            }
        }
        if let Some(region) = direct_region {
            let convoyable = via && unit.kind.is_convoyable();
            return Ok(Cmd::Move {
                to: dest.0,
                region,
                convoy: false,
                needs_convoy: false,
                via: convoyable,
                into_box: false,
            });
        }
        self.check_move_by_sea(u, unit, dest)
    }

    /// [`check_move`](Self::check_move) to a place the unit cannot reach
    /// directly: only an army going by sea may go there.
    #[inline(never)]
    fn check_move_by_sea(&self, u: usize, unit: Unit, dest: ProvinceId) -> Result<Cmd, Illegal> {
        let here = self.slot[u].prov;
        let main = self.b.map.province(dest).main_region();
        if !self.b.map.admits(main, unit.kind) {
            return Err(Illegal::WrongTerrain);
        }
        if !unit.kind.is_convoyable()
            || self.b.map.province(crate::map::ProvinceId(here)).terrain == Terrain::Sea
            || !self.route_exists(here, dest.0, NONE, self.power(u))
        {
            return Err(Illegal::NotAdjacent);
        }
        Ok(Cmd::Move {
            to: dest.0,
            region: main,
            convoy: true,
            needs_convoy: true,
            via: true,
            into_box: false,
        })
    }

    /// Whether a fleet at sea in province `p` could take part in a convoy.
    pub(super) fn convoy_fleet_at(&self, p: u16) -> bool {
        let f = self.place[p as usize].unit;
        f != NONE
            && self.b.units[f as usize].kind.can_convoy()
            && self.b.map.convoys_at(ProvinceId(p))
    }

    pub(super) fn sea_touches(&self, sea: u16, p: u16) -> bool {
        let f = self.place[sea as usize].unit;
        let r = if f == NONE {
            self.b.map.province(ProvinceId(sea)).main_region()
        } else {
            self.b.units[f as usize].region
        };
        self.b.map.reaches(r, ProvinceId(p), UnitKind::Fleet)
    }

    /// Whether fleets now at sea could form a chain from `from` to `to`,
    /// leaving out province `skip`.
    ///
    /// A sea where `orderer`'s player may not know what stands (1066 rule
    /// 5) counts as if a fleet were there: whether the order is accepted
    /// must not tell. The move is then judged, and fails for want of a
    /// convoy unless one is given.
    pub(super) fn route_exists(&self, from: u16, to: u16, skip: u16, orderer: PowerId) -> bool {
        let unseen_sea = |p: u16| {
            self.b.map.province(ProvinceId(p)).terrain == Terrain::Sea
                && self
                    .b
                    .questions
                    .unseen(orderer, ProvinceId(p), self.b.phase)
        };
        let seas: Vec<u16> = (0..self.place.len() as u16)
            .filter(|&p| p != skip && (self.convoy_fleet_at(p) || unseen_sea(p)))
            .collect();
        let mut reached = vec![false; seas.len()];
        let mut stack: Vec<usize> = Vec::new();
        for (i, &s) in seas.iter().enumerate() {
            if self.sea_touches(s, from) {
                reached[i] = true;
                stack.push(i);
            }
        }
        while let Some(i) = stack.pop() {
            if self.sea_touches(seas[i], to) {
                return true;
            }
            for (k, &s) in seas.iter().enumerate() {
                if !reached[k] && self.sea_touches(seas[i], s) {
                    reached[k] = true;
                    stack.push(k);
                }
            }
        }
        false
    }

    /// Whether the fleet at sea `fleet` lies on some chordless chain of
    /// fleets from `from` to `to`: a fleet no route could need is not
    /// legally convoying (DATC 6.G.19).
    pub(super) fn on_some_route(&self, fleet: u16, from: u16, to: u16) -> bool {
        let seas: Vec<u16> = (0..self.place.len() as u16)
            .filter(|&p| self.convoy_fleet_at(p))
            .collect();
        let n = seas.len();
        let adj_from: Vec<bool> = seas.iter().map(|&s| self.sea_touches(s, from)).collect();
        let adj_to: Vec<bool> = seas.iter().map(|&s| self.sea_touches(s, to)).collect();
        let adj = |a: usize, b: usize| self.sea_touches(seas[a], seas[b]);
        let Some(target) = seas.iter().position(|&s| s == fleet) else {
            return false;
        };
        let mut budget = 200_000u32;
        let mut path: Vec<usize> = Vec::new();
        fn dfs(
            path: &mut Vec<usize>,
            n: usize,
            adj_from: &[bool],
            adj_to: &[bool],
            adj: &dyn Fn(usize, usize) -> bool,
            target: usize,
            budget: &mut u32,
        ) -> bool {
            if *budget == 0 {
                return true; // too many routes to check: accept
            }
            *budget -= 1;
            let last = *path.last().expect("path is never empty here");
            if adj_to[last] {
                return path.contains(&target);
            }
            for k in 0..n {
                if path.contains(&k) || adj_from[k] || !adj(last, k) {
                    continue;
                }
                // Chordless: k may touch only the last fleet of the path.
                if path[..path.len() - 1].iter().any(|&q| adj(q, k)) {
                    continue;
                }
                path.push(k);
                if dfs(path, n, adj_from, adj_to, adj, target, budget) {
                    return true;
                }
                path.pop();
            }
            false
        }
        for s in 0..n {
            if !adj_from[s] {
                continue;
            }
            path.clear();
            path.push(s);
            if dfs(&mut path, n, &adj_from, &adj_to, &adj, target, &mut budget) {
                return true;
            }
        }
        false
    }

    /// Match supports and convoys to the orders they name, and index moves,
    /// supports and convoys for the resolver.
    pub(super) fn link(&mut self) {
        let n = self.b.units.len();
        if self.b.rules.convoy_fallback == ConvoyFallback::LandRoute {
            self.fall_back_to_land();
        }
        // Whether each support and convoy matches the order it names, and
        // the moves into each province, supports and convoys of each unit:
        // a list each, in unit order, linked through the slots (built from
        // the last unit up, each going in at the front).
        for u in (0..n).rev() {
            let cmd = self.slot[u].cmd;
            let (t, is_sup) = match cmd {
                Cmd::Move { to, .. } => {
                    self.slot[u].next_att = self.place[to as usize].att;
                    self.place[to as usize].att = u as u16;
                    continue;
                }
                // Bound to nobody (a support or convoy of a unit that may
                // not be known to be there): void.
                Cmd::SupHold { target: NONE }
                | Cmd::SupMove { target: NONE, .. }
                | Cmd::Convoy { army: NONE, .. }
                | Cmd::Hold
                | Cmd::Destroy => continue,
                Cmd::SupHold { target } | Cmd::SupMove { target, .. } => (target as usize, true),
                Cmd::Convoy { army, .. } => (army as usize, false),
            };
            let valid = match (cmd, self.slot[t].cmd) {
                (Cmd::SupHold { .. }, target) => !matches!(target, Cmd::Move { .. }),
                (Cmd::SupMove { to, coast, .. }, Cmd::Move { to: t, region, .. }) => {
                    t == to
                        && coast.is_none_or(|c| {
                            self.b.map.region(region).coast.is_none_or(|rc| rc == c)
                        })
                }
                (Cmd::Convoy { to, .. }, Cmd::Move { to: t, convoy, .. }) => convoy && t == to,
                _ => false,
            };
            if !valid {
                continue;
            }
            self.slot[u].valid = true;
            if is_sup {
                self.slot[u].next = self.slot[t].sup;
                self.slot[t].sup = u as u16;
            } else {
                self.slot[u].next = self.slot[t].cvy;
                self.slot[t].cvy = u as u16;
            }
        }
    }

    /// DATC v2's fallback: an army that could walk, ordered by convoy, walks
    /// when the convoy orders given for it do not cover its way.
    pub(super) fn fall_back_to_land(&mut self) {
        for u in 0..self.b.units.len() {
            if self.hooks.aboard(u) {
                continue;
            }
            let Cmd::Move {
                to,
                convoy: true,
                needs_convoy: false,
                ..
            } = self.slot[u].cmd
            else {
                continue;
            };
            let fleets: Vec<usize> = (0..self.b.units.len())
                .filter(|&f| matches!(self.slot[f].cmd, Cmd::Convoy { army, to: t } if army as usize == u && t == to))
                .collect();
            let from = self.slot[u].prov;
            let touches = |f: usize, p: u16| {
                self.b
                    .map
                    .reaches(self.b.units[f].region, ProvinceId(p), UnitKind::Fleet)
            };
            let mut reached: Vec<usize> = fleets
                .iter()
                .copied()
                .filter(|&f| touches(f, from))
                .collect();
            let mut i = 0;
            let mut covered = false;
            while i < reached.len() {
                let f = reached[i];
                if touches(f, to) {
                    covered = true;
                    break;
                }
                for &g in &fleets {
                    if !reached.contains(&g) && touches(f, self.slot[g].prov) {
                        reached.push(g);
                    }
                }
                i += 1;
            }
            if !covered && let Cmd::Move { convoy, .. } = &mut self.slot[u].cmd {
                *convoy = false;
            }
        }
    }

    pub(super) fn has_decision(&self, u: usize) -> bool {
        match self.slot[u].cmd {
            Cmd::Move { .. } => true,
            Cmd::Hold => false,
            _ => self.slot[u].valid,
        }
    }
}
