//! The movement judge.
//!
//! Two steps. [`compile`](Judge::compile) checks every order against the
//! board and turns the legal ones into index-based commands (illegal ones
//! are reported and the unit holds, DATC 4.E.1). Then every move, support
//! and convoy is a yes/no *decision*, settled by the mutually recursive
//! `resolve` / `adjudicate` pair of DATC section 5: `adjudicate` states the
//! rule (attack against hold, defend and prevent strengths, cut support,
//! convoy paths) and calls `resolve` for the decisions it needs;
//! `resolve` caches results and runs Kruijswijk's guess algorithm (DATC
//! 5.F, with the `recursion_hits` refinement) when a decision depends on
//! itself. A cycle with one consistent answer takes it; a cycle with none or
//! two goes to the backup rule: circular movement succeeds, a convoy paradox
//! is settled by the rulebook's [`ParadoxRule`] (Szykman by default).
//!
//! Everything is kept in flat arrays indexed by unit or province, because a
//! judge serving many games, and the tests that run it many thousands of
//! times, should not pay for hashing.

use super::Illegal;
use super::questions::{RuleQuestions, Standard};
use super::rulebook::Rulebook;
use super::rulebook::{ConvoyFallback, ConvoyIntent, DuplicateOrders, ParadoxRule};
use crate::calendar::Phase;
use crate::map::{CoastId, Map, PowerId, ProvinceId, RegionId, Terrain, Unit, UnitKind};
use crate::orders::{MainCommand, MainOrder, Place};

const NONE: u16 = u16::MAX;
/// The hold strength of a unit the ice keeps from being dislodged.
const ICE: u32 = 1 << 20;

// Resolver state bits, one byte per unit.
const RESOLVED: u8 = 1;
const VISITED: u8 = 2;
const IN_CYCLE: u8 = 4;
const RESULT: u8 = 8;
const VALID: u8 = 16;
const PARADOX: u8 = 32;

/// What a unit was ordered to do, once checked: the command the judge
/// adjudicated, with unit indices into the input board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved {
    /// Held (also every unit without a legal order).
    Hold,
    /// Moved or tried to.
    Move {
        /// Destination region (the coast is settled).
        to: RegionId,
        /// Whether it travelled by convoy.
        convoy: bool,
    },
    /// Supported the unit at index `unit` in place.
    SupportHold {
        /// Index of the supported unit.
        unit: usize,
    },
    /// Supported the unit at index `unit` into `to`.
    SupportMove {
        /// Index of the supported unit.
        unit: usize,
        /// Where it was supported to.
        to: ProvinceId,
    },
    /// Convoyed the army at index `army` to `to`.
    Convoy {
        /// Index of the convoyed army.
        army: usize,
        /// Destination.
        to: ProvinceId,
    },
    /// Destroyed the units waiting in a box (1066 rule 4).
    Destroy,
}

/// What became of a unit's order: what the result mail prints beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Held (or had no legal order).
    Held,
    /// Moved.
    Moved,
    /// The move failed: a standoff, or a stronger defence.
    Bounced,
    /// The move needed a convoy and the convoy failed.
    NoConvoy,
    /// The support was given.
    Supported,
    /// The support was cut by the unit at this index.
    Cut(usize),
    /// The supported unit did something else: the support is void.
    SupportVoid,
    /// The army was carried.
    Convoyed,
    /// The convoy failed: the fleet was dislodged, or it was the fleet of a
    /// convoy paradox.
    ConvoyFailed,
    /// The named army did not move there by convoy: the convoy is void.
    ConvoyVoid,
    /// The destroy order was carried out.
    Destroying,
}

/// A dislodged unit and how it happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dislodgement {
    /// Index of the unit that dislodged it.
    pub by: usize,
    /// Province the attacker came from.
    pub from: ProvinceId,
    /// Whether the attacker came by convoy (then the dislodged unit may
    /// retreat to the attacker's province: 2023 rulebook, DATC 4.A.5).
    pub by_convoy: bool,
    /// Where it may retreat to.
    pub retreats: Vec<RegionId>,
}

/// The result for one unit of the input board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitResult {
    /// Index of the submitted order that was carried out, if any.
    pub order: Option<usize>,
    /// The command adjudicated.
    pub command: Resolved,
    /// What became of it.
    pub outcome: Outcome,
    /// Set when the unit was dislodged.
    pub dislodged: Option<Dislodgement>,
    /// The unit was destroyed where it stood (a box's waiting units under a
    /// destroy order; a raider whose return failed).
    pub destroyed: bool,
    /// The army went aboard a fleet (Abstraction II: it boarded, or its
    /// fast ferry could not land it): it is part of that fleet's A/F now.
    pub boarded: bool,
    /// What the unit is after the phase, when that changes (a fleet that
    /// took an army aboard becomes an A/F; an A/F that landed its army, a
    /// fleet).
    pub becomes: Option<UnitKind>,
    /// The army this A/F landed, and where.
    pub landed: Option<RegionId>,
    /// The disembarking order of this A/F, if any, and what became of it.
    pub landing: Option<(usize, Outcome)>,
    /// For a support that is worn down rather than cut (1000 AD's
    /// defensive army, rule 8) and that stood: what it was worth after the
    /// attacks on it, so the results let players check rule 8's table.
    pub support_left: Option<u32>,
}

impl UnitResult {
    fn plain(command: Resolved, outcome: Outcome) -> UnitResult {
        UnitResult {
            order: None,
            command,
            outcome,
            dislodged: None,
            destroyed: false,
            boarded: false,
            becomes: None,
            landed: None,
            landing: None,
            support_left: None,
        }
    }
}

/// What [`adjudicate_movement_prepared`] adds to a movement phase.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prepared {
    /// Armies disembarking from A/Fs: units of the board no order names.
    pub aboard: Vec<Aboard>,
    /// Pairs `(a, b)`: `a`'s move succeeds only if `b`'s does too.
    pub needs: Vec<(usize, usize)>,
    /// Armies carried by a fleet in one move (1000 AD's fast ferry): they
    /// move from where they stand to the province given, across the sea,
    /// and stay put if the landing fails.
    pub ferried: Vec<(usize, ProvinceId)>,
    /// Units whose own strength (moving, holding) is not their kind's
    /// (1700 AD: a double-strength move).
    pub strength: Vec<(usize, u32)>,
    /// Units whose support is worth other than their kind's strength
    /// (1700 AD: a double-strength support of a double-strength move).
    pub support: Vec<(usize, u32)>,
    /// Box units that move this phase from the region given, whatever
    /// their order names (1066 rule 5: each of Harald's waiting A/Fs from
    /// the sea it stands in).
    pub from: Vec<(usize, RegionId)>,
}

/// An army aboard an A/F that disembarks this move (Abstraction II): a
/// unit of its own for the judge, at the A/F's sea, that can be neither
/// attacked nor supported in place, moving to `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Aboard {
    /// Its index in the units given to the judge.
    pub unit: usize,
    /// Where it lands.
    pub to: ProvinceId,
}

/// The result of a movement phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovementResult {
    /// One entry per input unit, in input order.
    pub units: Vec<UnitResult>,
    /// One entry per submitted order: `None` if it was carried out (its
    /// unit's result says how), or why it was not.
    pub orders: Vec<Option<Illegal>>,
    /// Provinces left empty by a standoff: no retreat may go there.
    pub contested: Vec<ProvinceId>,
}

impl MovementResult {
    /// The board after the phase: units that moved stand at their
    /// destination; dislodged units are left out (they are in
    /// [`MovementResult::dislodged`]).
    pub fn units_after(&self, units: &[Unit]) -> Vec<Unit> {
        units
            .iter()
            .zip(&self.units)
            .filter(|(_, r)| r.dislodged.is_none() && !r.destroyed && !r.boarded)
            .flat_map(|(u, r)| {
                let mut here = match (r.command, r.outcome) {
                    (Resolved::Move { to, .. }, Outcome::Moved) => Unit { region: to, ..*u },
                    _ => *u,
                };
                if let Some(k) = r.becomes {
                    here.kind = k;
                }
                let landed = r.landed.map(|region| Unit {
                    power: u.power,
                    kind: UnitKind::Army,
                    region,
                });
                std::iter::once(here).chain(landed)
            })
            .collect()
    }

    /// Armies landed from A/Fs that were dislodged: they stand on the board
    /// although their fleet is dislodged.
    pub fn landed_from_dislodged(&self, units: &[Unit]) -> Vec<Unit> {
        units
            .iter()
            .zip(&self.units)
            .filter(|(_, r)| r.dislodged.is_some())
            .filter_map(|(u, r)| {
                r.landed.map(|region| Unit {
                    power: u.power,
                    kind: UnitKind::Army,
                    region,
                })
            })
            .collect()
    }

    /// The dislodged units with their retreat options.
    pub fn dislodged<'a>(
        &'a self,
        units: &'a [Unit],
    ) -> impl Iterator<Item = (Unit, &'a Dislodgement)> + 'a {
        units.iter().zip(&self.units).filter_map(|(u, r)| {
            r.dislodged.as_ref().map(|d| {
                let kind = r.becomes.unwrap_or(u.kind);
                (Unit { kind, ..*u }, d)
            })
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmd {
    Hold,
    Move {
        to: u16,
        region: RegionId,
        convoy: bool,
        needs_convoy: bool,
        via: bool,
        /// Off the board into a box: always succeeds, touches nobody.
        into_box: bool,
    },
    Destroy,
    SupHold {
        target: u16,
    },
    SupMove {
        target: u16,
        to: u16,
        coast: Option<CoastId>,
    },
    Convoy {
        army: u16,
        to: u16,
    },
}

/// Adjudicate a movement phase.
///
/// `units` is the board; `orders` are the orders given, in the order they
/// were received (later orders to the same unit replace earlier ones under
/// the default rulebook). Units without a legal order hold.
pub fn adjudicate_movement(
    map: &Map,
    rules: &Rulebook,
    units: &[Unit],
    orders: &[MainOrder],
) -> MovementResult {
    adjudicate_movement_in(map, rules, &Standard, None, units, orders)
}

/// Adjudicate a movement phase of a variant whose rules answer `q`
/// (off-board boxes, the destroy order, ice), in `phase`.
pub fn adjudicate_movement_in(
    map: &Map,
    rules: &Rulebook,
    q: &dyn RuleQuestions,
    phase: Option<Phase>,
    units: &[Unit],
    orders: &[MainOrder],
) -> MovementResult {
    let mut j = Judge::new(map, rules, units);
    j.q = q;
    j.phase = phase;
    let verdicts = j.compile(orders);
    j.link();
    for u in 0..units.len() {
        if j.has_decision(u) {
            j.resolve(u);
        }
    }
    j.results(verdicts)
}

/// [`adjudicate_movement_in`] with armies disembarking from A/Fs and the
/// moves that depend on each other (an A/F's fleet may sail only if its
/// army lands; an army lands from the sea its fleet sails to only if the
/// fleet gets there).
pub fn adjudicate_movement_prepared(
    map: &Map,
    rules: &Rulebook,
    q: &dyn RuleQuestions,
    phase: Option<Phase>,
    units: &[Unit],
    orders: &[MainOrder],
    prepared: &Prepared,
) -> MovementResult {
    let (aboard, needs) = (&prepared.aboard, &prepared.needs);
    let mut j = Judge::new(map, rules, units);
    j.q = q;
    j.phase = phase;
    for a in aboard {
        j.aboard[a.unit] = true;
        // Not "the unit in" the sea: the fleet element is.
        if j.unit_at[j.prov[a.unit] as usize] == a.unit as u16 {
            j.unit_at[j.prov[a.unit] as usize] = NONE;
        }
    }
    for u in 0..units.len() {
        if !j.aboard[u] && j.unit_at[j.prov[u] as usize] == NONE && !j.in_box[u] {
            j.unit_at[j.prov[u] as usize] = u as u16;
        }
    }
    for a in aboard {
        let prov = map.province(a.to);
        j.cmd[a.unit] = Cmd::Move {
            to: a.to.0,
            region: prov.main_region(),
            // Landed from a boat: no head-to-head with a unit coming the
            // other way.
            convoy: true,
            needs_convoy: false,
            via: false,
            into_box: false,
        };
    }
    for &(a, b) in needs.iter() {
        j.needs[a] = b as u16;
    }
    for &(u, v) in &prepared.strength {
        j.strength_of[u] = v;
    }
    for &(u, v) in &prepared.support {
        j.support_of[u] = v;
    }
    for &(u, r) in &prepared.from {
        j.fixed_from[u] = Some(r);
    }
    let verdicts = j.compile(orders);
    for &(a, to) in &prepared.ferried {
        j.aboard_path[a] = true;
        j.cmd[a] = Cmd::Move {
            to: to.0,
            region: map.province(to).main_region(),
            convoy: true,
            needs_convoy: true,
            via: true,
            into_box: false,
        };
    }
    j.link();
    for u in 0..units.len() {
        if j.has_decision(u) {
            j.resolve(u);
        }
    }
    j.results(verdicts)
}

struct Judge<'a> {
    map: &'a Map,
    rules: &'a Rulebook,
    /// The variant's answers to rule questions.
    q: &'a dyn RuleQuestions,
    phase: Option<Phase>,
    units: &'a [Unit],
    /// Units standing in an off-board box (any number per box).
    in_box: Vec<bool>,
    /// Armies aboard A/Fs, disembarking (Abstraction II).
    aboard: Vec<bool>,
    /// A unit whose move must also succeed for this unit's move to.
    needs: Vec<u16>,
    /// Moves carried by a ferry: no convoy chain needed.
    aboard_path: Vec<bool>,
    /// A box unit that moves this phase as if it stood in this region
    /// (1066: Harald's A/Fs, secretly in GER or WAS).
    from_region: Vec<Option<RegionId>>,
    /// Where a box unit moves from, fixed before the orders are read.
    fixed_from: Vec<Option<RegionId>>,
    /// A support or convoy whose unit is found once every order is known
    /// (a box unit coming onto the board, 1066 rules 4 and 7; a unit where
    /// the orderer may not know what stands): the place and kind named.
    named: Vec<Option<(ProvinceId, Option<UnitKind>)>>,
    /// Strength and support value overrides (0: the kind's).
    strength_of: Vec<u32>,
    support_of: Vec<u32>,
    prov: Vec<u16>,
    cmd: Vec<Cmd>,
    order_of: Vec<u32>,
    state: Vec<u8>,
    unit_at: Vec<u16>,
    /// CSR: moves into each province.
    att_off: Vec<u16>,
    att: Vec<u16>,
    /// CSR: valid supports of each unit.
    sup_off: Vec<u16>,
    sup: Vec<u16>,
    /// CSR: valid convoys of each army.
    cvy_off: Vec<u16>,
    cvy: Vec<u16>,
    cycle: Vec<u16>,
    recursion_hits: u32,
    guess_based: bool,
}

impl<'a> Judge<'a> {
    fn new(map: &'a Map, rules: &'a Rulebook, units: &'a [Unit]) -> Self {
        let n = units.len();
        let mut unit_at = vec![NONE; map.provinces().len()];
        let mut prov = Vec::with_capacity(n);
        let mut in_box = vec![false; n];
        for (i, u) in units.iter().enumerate() {
            let p = map.province_of(u.region).0;
            prov.push(p);
            // A box holds any number of units and can be neither attacked
            // nor supported: its units are not "the unit in" it.
            if map.province(ProvinceId(p)).terrain == Terrain::OffBoard {
                in_box[i] = true;
            } else {
                unit_at[p as usize] = i as u16;
            }
        }
        Judge {
            map,
            rules,
            q: &Standard,
            phase: None,
            units,
            in_box,
            aboard: vec![false; n],
            needs: vec![NONE; n],
            aboard_path: vec![false; n],
            from_region: vec![None; n],
            fixed_from: vec![None; n],
            named: vec![None; n],
            strength_of: vec![0; n],
            support_of: vec![0; n],
            prov,
            cmd: vec![Cmd::Hold; n],
            order_of: vec![u32::MAX; n],
            state: vec![0; n],
            unit_at,
            att_off: Vec::new(),
            att: Vec::new(),
            sup_off: Vec::new(),
            sup: Vec::new(),
            cvy_off: Vec::new(),
            cvy: Vec::new(),
            cycle: Vec::new(),
            recursion_hits: 0,
            guess_based: false,
        }
    }

    fn power(&self, u: usize) -> PowerId {
        self.units[u].power
    }

    // ----------------------------------------------------------------
    // Checking orders
    // ----------------------------------------------------------------

    fn compile(&mut self, orders: &[MainOrder]) -> Vec<Option<Illegal>> {
        let mut verdicts: Vec<Option<Illegal>> = vec![None; orders.len()];
        let mut conflict = vec![false; self.units.len()];
        for (i, o) in orders.iter().enumerate() {
            let u = self.find_unit(o);
            if u == NONE {
                // A unit built but still waiting off the board (Ard-Ri rule
                // 7c): say when it comes, not that there is none.
                let waiting = self.q.pending().iter().any(|w| {
                    w.power == o.power && self.map.province_of(w.region) == o.unit.at.province
                });
                verdicts[i] = Some(if waiting {
                    Illegal::NotYetPlaced
                } else {
                    Illegal::NoUnit
                });
                continue;
            }
            let u = u as usize;
            self.from_region[u] = self.moves_from(u, o.unit.at.province);
            if self.units[u].power != o.power {
                // Whose unit stands where the orderer may not know (1066
                // rule 5) is not told: there is none of theirs there.
                verdicts[i] = Some(
                    if self.q.unseen(o.power, ProvinceId(self.prov[u]), self.phase) {
                        Illegal::NoUnit
                    } else {
                        Illegal::ForeignUnit(self.units[u].power)
                    },
                );
                continue;
            }
            match self.check(u, &o.command) {
                Err(why) => verdicts[i] = Some(why),
                Ok(cmd) => {
                    self.named[u] = match (&o.command, cmd) {
                        (
                            MainCommand::SupportMove { unit: t, .. }
                            | MainCommand::SupportHold { unit: t }
                            | MainCommand::Convoy { unit: t, .. },
                            Cmd::SupMove { target: NONE, .. }
                            | Cmd::SupHold { target: NONE }
                            | Cmd::Convoy { army: NONE, .. },
                        ) => Some((t.at.province, t.kind)),
                        _ => None,
                    };
                    let prev = self.order_of[u];
                    if prev != u32::MAX {
                        if self.rules.duplicate_orders == DuplicateOrders::Hold
                            && self.cmd[u] != cmd
                        {
                            conflict[u] = true;
                        }
                        verdicts[prev as usize] = Some(Illegal::Replaced);
                    }
                    self.cmd[u] = cmd;
                    self.order_of[u] = i as u32;
                }
            }
        }
        for (u, &c) in conflict.iter().enumerate() {
            if c {
                self.cmd[u] = Cmd::Hold;
                verdicts[self.order_of[u] as usize] = Some(Illegal::Conflicting);
                self.order_of[u] = u32::MAX;
            }
        }
        self.bind_named();
        // Convoy intent (DATC 4.A.3): an army that could walk goes by sea
        // when its order says so or a fleet of its own power convoys it.
        let any_convoy = self.cmd.iter().any(|c| matches!(c, Cmd::Convoy { .. }));
        for u in 0..self.units.len() {
            if let Cmd::Move {
                to,
                needs_convoy: false,
                via,
                ..
            } = self.cmd[u]
                && self.units[u].kind.is_convoyable()
            {
                let own_fleet = any_convoy
                    && self.rules.convoy_intent == ConvoyIntent::Edition2023
                    && (0..self.units.len()).any(|f| {
                        self.power(f) == self.power(u)
                            && matches!(self.cmd[f], Cmd::Convoy { army, to: t } if army as usize == u && t == to)
                    });
                if (via || own_fleet)
                    && let Cmd::Move { convoy, .. } = &mut self.cmd[u]
                {
                    *convoy = true;
                }
            }
        }
        verdicts
    }

    /// The unit an order is for. In a box there may be several: the order
    /// goes to the first of the power's units there (of the kind written,
    /// if any) that no earlier order has taken.
    fn find_unit(&self, o: &MainOrder) -> u16 {
        let mut p = o.unit.at.province;
        if self.map.province(p).terrain != Terrain::OffBoard {
            let u = self.unit_at[p.index()];
            // The power's own unit there, or none: that one. Otherwise the
            // name may be the rule text's for where its box's units wait.
            if u != NONE && self.units[u as usize].power == o.power {
                return u;
            }
            let named_box = self.q.box_named(o.power, p);
            let waiting = named_box.is_some_and(|b| {
                (0..self.units.len()).any(|x| self.in_box[x] && self.prov[x] == b.0)
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
        let taken = |u: usize| self.order_of[u] != u32::MAX;
        let mine =
            |u: &usize| self.in_box[*u] && self.prov[*u] == p.0 && self.units[*u].power == o.power;
        (0..self.units.len())
            .filter(mine)
            .filter(|&u| o.unit.kind.is_none_or(|k| self.units[u].kind == k))
            .find(|&u| !taken(u))
            .or_else(|| (0..self.units.len()).find(mine))
            .map_or(NONE, |u| u as u16)
    }

    /// The box whose waiting units another unit's support or convoy
    /// naming `p` may mean: `p` itself, or the box the rules say waits
    /// there, when its units may be helped onto the board.
    fn waiting_box(&self, p: ProvinceId) -> Option<u16> {
        let b = if self.map.province(p).terrain == Terrain::OffBoard {
            Some(p)
        } else {
            self.q.box_waiting_at(p)
        };
        b.filter(|&b| self.q.supported_out(b)).map(|b| b.0)
    }

    /// Box units an order naming `named` (and `kind`, if written) may mean:
    /// those waiting in its box that move, if at all, from there.
    fn box_units_named(
        &self,
        named: ProvinceId,
        kind: Option<UnitKind>,
    ) -> impl Iterator<Item = usize> + '_ {
        let b = self.waiting_box(named);
        (0..self.units.len()).filter(move |&x| {
            self.in_box[x]
                && Some(self.prov[x]) == b
                && kind.is_none_or(|k| self.units[x].kind == k)
                && self.from_region[x].is_none_or(|r| self.map.province_of(r) == named)
        })
    }

    /// Whether the unit a support or convoy of `u` names at `target` is
    /// found only once every order is known: units wait in a box there
    /// (rules 4 and 7 of 1066: on-board units support and convoy them onto
    /// the board), or `u`'s player may not know what stands there (rule
    /// 5), so that the answer must not depend on it.
    fn found_later(&self, u: usize, target: &crate::orders::UnitRef) -> bool {
        let p = target.at.province;
        self.q.unseen(self.power(u), p, self.phase)
            || self.box_units_named(p, target.kind).next().is_some()
    }

    /// Bind each support and convoy whose unit is [found
    /// later](Self::found_later): to the unit named that moves where the
    /// order says (one in the box, or the one standing there), else to one
    /// of them, whose move it is not, so it is void; else to nobody, void.
    fn bind_named(&mut self) {
        for s in 0..self.units.len() {
            let Some((named, kind)) = self.named[s] else {
                continue;
            };
            let to = match self.cmd[s] {
                Cmd::SupMove {
                    target: NONE, to, ..
                }
                | Cmd::Convoy { army: NONE, to } => to,
                _ => continue,
            };
            let convoy = matches!(self.cmd[s], Cmd::Convoy { .. });
            let here = self.unit_at[named.index()];
            let standing = (here != NONE
                && here as usize != s
                && kind.is_none_or(|k| self.units[here as usize].kind == k))
            .then_some(here as usize);
            let candidates: Vec<usize> = standing
                .into_iter()
                .chain(self.box_units_named(named, kind))
                .filter(|&x| !convoy || self.units[x].kind.is_convoyable())
                .collect();
            let moving = candidates
                .iter()
                .copied()
                .find(|&x| matches!(self.cmd[x], Cmd::Move { to: t, .. } if t == to));
            let bound = moving
                .or(candidates.first().copied())
                .map_or(NONE, |x| x as u16);
            match &mut self.cmd[s] {
                Cmd::SupMove { target, .. } => *target = bound,
                Cmd::Convoy { army, .. } => *army = bound,
                _ => {}
            }
        }
    }

    /// Whether unit `u` stands in ice this season (Abstraction II rule 5):
    /// a fleet in a frozen space, or an army where the ice holds armies.
    fn icebound(&self, u: usize) -> bool {
        self.q
            .icebound(ProvinceId(self.prov[u]), self.units[u].kind, self.phase)
    }

    /// Where box unit `u` moves from when its order names `named`: that
    /// space, while its box's rule allows.
    fn moves_from(&self, u: usize, named: ProvinceId) -> Option<RegionId> {
        if self.fixed_from[u].is_some() {
            return self.fixed_from[u];
        }
        if !self.in_box[u]
            || !self
                .q
                .moves_from(ProvinceId(self.prov[u]), named, self.phase)
        {
            return None;
        }
        Some(self.map.province(named).main_region())
    }

    /// Unit `u` as its orders see it: where it moves from.
    fn origin(&self, u: usize) -> Unit {
        match self.from_region[u] {
            Some(region) => Unit {
                region,
                ..self.units[u]
            },
            None => self.units[u],
        }
    }

    /// Check one order for unit `u` against the board.
    fn check(&self, u: usize, c: &MainCommand) -> Result<Cmd, Illegal> {
        let unit = self.origin(u);
        let here = self.prov[u];
        if self.in_box[u] {
            // Off the board a unit can only wait or come onto the board.
            match c {
                MainCommand::Hold => return Ok(Cmd::Hold),
                MainCommand::Move { to, .. } => {
                    if !self.q.may_leave(ProvinceId(here), self.phase) {
                        return Err(Illegal::NotNow);
                    }
                    if self.map.province(to.province).terrain == Terrain::OffBoard {
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
                        !via_convoy && self.map.reaches(unit.region, to.province, UnitKind::Army);
                    if !overland {
                        return Err(Illegal::Frozen);
                    }
                }
                _ if fleet => return Err(Illegal::Frozen),
                _ => {}
            }
        }
        // The defensive army keeps to its homeland and supports only what
        // happens in it (1000 AD rule 7).
        if unit.kind == UnitKind::DefensiveArmy {
            let home = &self.map.power(unit.power).homeland;
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
        match c {
            MainCommand::Destroy { target } => return self.check_destroy(u, target.at.province),
            MainCommand::Move { to, .. }
                if self.map.province(to.province).terrain == Terrain::OffBoard =>
            {
                return self.check_enter_box(u, to.province);
            }
            MainCommand::SupportMove { to, .. }
                if self.map.province(to.province).terrain == Terrain::OffBoard =>
            {
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
            } => self.check_move(u, *to, *via_convoy || !route.is_empty()),
            MainCommand::SupportHold { unit: target }
                if self.q.unseen(self.power(u), target.at.province, self.phase) =>
            {
                // Whatever stands there, or nobody (then void): the answer
                // must not tell.
                if !self.map.reaches(unit.region, target.at.province, unit.kind) {
                    return Err(Illegal::CannotSupportThere);
                }
                Ok(Cmd::SupHold {
                    target: self.unit_at[target.at.province.index()],
                })
            }
            MainCommand::SupportHold { unit: target } => {
                let t = self.unit_at[target.at.province.index()];
                if t == NONE {
                    return Err(Illegal::NoSuchUnit);
                }
                if t as usize == u {
                    return Err(Illegal::SupportSelf);
                }
                if !self.map.reaches(unit.region, target.at.province, unit.kind) {
                    return Err(Illegal::CannotSupportThere);
                }
                Ok(Cmd::SupHold { target: t })
            }
            MainCommand::SupportMove { unit: target, to } => {
                // A landing from an A/F (`A(ENG)-Bre`) is supported as a
                // move of the army aboard, not of the fleet it is aboard.
                if let Some(a) = (0..self.units.len()).find(|&a| {
                    self.aboard[a]
                        && self.prov[a] == target.at.province.0
                        && matches!(self.cmd[a], Cmd::Move { to: t, .. } if t == to.province.0)
                }) {
                    if !self.map.reaches(unit.region, to.province, unit.kind) {
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
                    if dest.0 == here || !self.map.reaches(unit.region, dest, unit.kind) {
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
                let t = self.unit_at[target.at.province.index()];
                if t == NONE {
                    return Err(Illegal::NoSuchUnit);
                }
                if t as usize == u {
                    return Err(Illegal::SupportSelf);
                }
                let dest = to.province;
                if dest.0 == here || !self.map.reaches(unit.region, dest, unit.kind) {
                    return Err(Illegal::CannotSupportThere);
                }
                if dest == target.at.province {
                    return Err(Illegal::ImpossibleMove);
                }
                // The supported move must be possible, and possible without
                // the supporting unit convoying it (DATC 6.D.31).
                let tu = self.units[t as usize];
                let direct = self.map.reaches(tu.region, dest, tu.kind);
                let coast = self.support_coast(tu, *to)?;
                if !direct {
                    let by_sea = tu.kind.is_convoyable()
                        && self.map.province(dest).terrain != Terrain::Sea
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
            MainCommand::Board { .. }
            | MainCommand::Disembark { .. }
            | MainCommand::Impulses { .. } => Err(Illegal::NotInThisGame),
            MainCommand::Destroy { .. } => unreachable!("handled above"),
            MainCommand::Convoy { unit: target, to } => {
                if !unit.kind.can_convoy() {
                    return Err(Illegal::NotAFleet);
                }
                if self.map.province(self.map.province_of(unit.region)).terrain != Terrain::Sea {
                    return Err(Illegal::NotAtSea);
                }
                if self.found_later(u, target) {
                    let dest = to.province;
                    if dest == target.at.province {
                        return Err(Illegal::SameProvince);
                    }
                    if !self
                        .map
                        .admits(self.map.province(dest).main_region(), UnitKind::Army)
                    {
                        return Err(Illegal::WrongTerrain);
                    }
                    // From the box its armies wait in, when they do.
                    let from = self
                        .box_units_named(target.at.province, target.kind)
                        .next()
                        .map_or(target.at.province.0, |x| self.prov[x]);
                    if !self.q.unseen(self.power(u), target.at.province, self.phase)
                        && !self.on_some_route(here, from, dest.0)
                    {
                        return Err(Illegal::NotOnRoute);
                    }
                    return Ok(Cmd::Convoy {
                        army: NONE,
                        to: dest.0,
                    });
                }
                let t = self.unit_at[target.at.province.index()];
                if t == NONE {
                    return Err(Illegal::NoSuchUnit);
                }
                if !self.units[t as usize].kind.is_convoyable() {
                    return Err(Illegal::NotAnArmy);
                }
                let dest = to.province;
                if dest == target.at.province {
                    return Err(Illegal::SameProvince);
                }
                if !self
                    .map
                    .admits(self.map.province(dest).main_region(), UnitKind::Army)
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
        }
    }

    /// A move off the board: only into a box that takes units from here
    /// (a raid), in its season, by the kinds it takes.
    fn check_enter_box(&self, u: usize, p: ProvinceId) -> Result<Cmd, Illegal> {
        self.q
            .may_enter(&self.units[u], ProvinceId(self.prov[u]), p, self.phase)?;
        Ok(Cmd::Move {
            to: p.0,
            region: self.map.province(p).main_region(),
            convoy: false,
            needs_convoy: false,
            via: false,
            into_box: true,
        })
    }

    /// The destroy order (1066 rule 4).
    fn check_destroy(&self, u: usize, target: ProvinceId) -> Result<Cmd, Illegal> {
        self.q
            .check_destroy(self.map, &self.units[u], target, self.phase)?;
        Ok(Cmd::Destroy)
    }

    /// A coast named in a support must be one the supported fleet could
    /// reach (DATC 4.B.4); an irrelevant coast is ignored (4.B.6).
    fn support_coast(&self, tu: Unit, to: Place) -> Result<Option<CoastId>, Illegal> {
        let Some(c) = to.coast else { return Ok(None) };
        let Some(r) = self.map.coast_region(to.province, c) else {
            return Ok(None);
        };
        if tu.kind.mobility() == crate::map::Mobility::FLEET
            && !self.map.borders_region(tu.region, r, tu.kind.mobility())
        {
            return Err(Illegal::CoastUnreachable);
        }
        Ok(Some(c))
    }

    fn check_move(&self, u: usize, to: Place, via: bool) -> Result<Cmd, Illegal> {
        let unit = self.origin(u);
        let here = self.prov[u];
        let dest = to.province;
        if dest.0 == here {
            return Err(Illegal::SameProvince);
        }
        let prov = self.map.province(dest);
        // Settle the destination region.
        let mut direct_region = None;
        if let Some(c) = to.coast
            && let Some(r) = self.map.coast_region(dest, c)
            && self.map.admits(r, unit.kind)
            && !self.map.admits(prov.main_region(), unit.kind)
        {
            // A named coast that exists and the unit stands on coasts only.
            if !self
                .map
                .borders_region(unit.region, r, unit.kind.mobility())
            {
                return Err(Illegal::CoastUnreachable);
            }
            direct_region = Some(r);
        } else {
            let mut it = self.map.reachable_regions(unit.region, dest, unit.kind);
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
        // Not adjacent: only an army going by sea.
        let main = prov.main_region();
        if !self.map.admits(main, unit.kind) {
            return Err(Illegal::WrongTerrain);
        }
        if !unit.kind.is_convoyable()
            || self.map.province(crate::map::ProvinceId(here)).terrain == Terrain::Sea
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
    fn convoy_fleet_at(&self, p: u16) -> bool {
        let f = self.unit_at[p as usize];
        f != NONE
            && self.units[f as usize].kind.can_convoy()
            && self.map.province(ProvinceId(p)).terrain == Terrain::Sea
    }

    fn sea_touches(&self, sea: u16, p: u16) -> bool {
        let f = self.unit_at[sea as usize];
        let r = if f == NONE {
            self.map.province(ProvinceId(sea)).main_region()
        } else {
            self.units[f as usize].region
        };
        self.map.reaches(r, ProvinceId(p), UnitKind::Fleet)
    }

    /// Whether fleets now at sea could form a chain from `from` to `to`,
    /// leaving out province `skip`.
    ///
    /// A sea where `orderer`'s player may not know what stands (1066 rule
    /// 5) counts as if a fleet were there: whether the order is accepted
    /// must not tell. The move is then judged, and fails for want of a
    /// convoy unless one is given.
    fn route_exists(&self, from: u16, to: u16, skip: u16, orderer: PowerId) -> bool {
        let unseen_sea = |p: u16| {
            self.map.province(ProvinceId(p)).terrain == Terrain::Sea
                && self.q.unseen(orderer, ProvinceId(p), self.phase)
        };
        let seas: Vec<u16> = (0..self.unit_at.len() as u16)
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
    fn on_some_route(&self, fleet: u16, from: u16, to: u16) -> bool {
        let seas: Vec<u16> = (0..self.unit_at.len() as u16)
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
    fn link(&mut self) {
        let n = self.units.len();
        let np = self.unit_at.len();
        if self.rules.convoy_fallback == ConvoyFallback::LandRoute {
            self.fall_back_to_land();
        }
        // Validity of supports and convoys.
        for u in 0..n {
            let valid = match self.cmd[u] {
                // Bound to nobody (a support or convoy of a unit that may
                // not be known to be there): void.
                Cmd::SupHold { target: NONE }
                | Cmd::SupMove { target: NONE, .. }
                | Cmd::Convoy { army: NONE, .. } => false,
                Cmd::SupHold { target } => !matches!(self.cmd[target as usize], Cmd::Move { .. }),
                Cmd::SupMove { target, to, coast } => match self.cmd[target as usize] {
                    Cmd::Move { to: t, region, .. } => {
                        t == to
                            && coast.is_none_or(|c| {
                                self.map.region(region).coast.is_none_or(|rc| rc == c)
                            })
                    }
                    _ => false,
                },
                Cmd::Convoy { army, to } => matches!(
                    self.cmd[army as usize],
                    Cmd::Move { to: t, convoy: true, .. } if t == to
                ),
                _ => false,
            };
            if valid {
                self.state[u] |= VALID;
            }
        }
        // Moves into each province.
        let mut count = vec![0u16; np + 1];
        for u in 0..n {
            if let Cmd::Move { to, .. } = self.cmd[u] {
                count[to as usize + 1] += 1;
            }
        }
        for p in 0..np {
            count[p + 1] += count[p];
        }
        let mut fill = count.clone();
        self.att = vec![0; count[np] as usize];
        for u in 0..n {
            if let Cmd::Move { to, .. } = self.cmd[u] {
                let slot = &mut fill[to as usize];
                self.att[*slot as usize] = u as u16;
                *slot += 1;
            }
        }
        self.att_off = count;
        // Supports and convoys per target unit.
        let target_of = |c: Cmd| match c {
            Cmd::SupHold { target } | Cmd::SupMove { target, .. } => Some((target, true)),
            Cmd::Convoy { army, .. } => Some((army, false)),
            _ => None,
        };
        let mut sc = vec![0u16; n + 1];
        let mut cc = vec![0u16; n + 1];
        for u in 0..n {
            if self.state[u] & VALID != 0
                && let Some((t, is_sup)) = target_of(self.cmd[u])
            {
                if is_sup {
                    sc[t as usize + 1] += 1;
                } else {
                    cc[t as usize + 1] += 1;
                }
            }
        }
        for i in 0..n {
            sc[i + 1] += sc[i];
            cc[i + 1] += cc[i];
        }
        let mut sf = sc.clone();
        let mut cf = cc.clone();
        self.sup = vec![0; sc[n] as usize];
        self.cvy = vec![0; cc[n] as usize];
        for u in 0..n {
            if self.state[u] & VALID != 0
                && let Some((t, is_sup)) = target_of(self.cmd[u])
            {
                if is_sup {
                    self.sup[sf[t as usize] as usize] = u as u16;
                    sf[t as usize] += 1;
                } else {
                    self.cvy[cf[t as usize] as usize] = u as u16;
                    cf[t as usize] += 1;
                }
            }
        }
        self.sup_off = sc;
        self.cvy_off = cc;
    }

    /// DATC v2's fallback: an army that could walk, ordered by convoy, walks
    /// when the convoy orders given for it do not cover its way.
    fn fall_back_to_land(&mut self) {
        for u in 0..self.units.len() {
            if self.aboard[u] {
                continue;
            }
            let Cmd::Move {
                to,
                convoy: true,
                needs_convoy: false,
                ..
            } = self.cmd[u]
            else {
                continue;
            };
            let fleets: Vec<usize> = (0..self.units.len())
                .filter(|&f| matches!(self.cmd[f], Cmd::Convoy { army, to: t } if army as usize == u && t == to))
                .collect();
            let from = self.prov[u];
            let touches = |f: usize, p: u16| {
                self.map
                    .reaches(self.units[f].region, ProvinceId(p), UnitKind::Fleet)
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
                    if !reached.contains(&g) && touches(f, self.prov[g]) {
                        reached.push(g);
                    }
                }
                i += 1;
            }
            if !covered && let Cmd::Move { convoy, .. } = &mut self.cmd[u] {
                *convoy = false;
            }
        }
    }

    fn has_decision(&self, u: usize) -> bool {
        match self.cmd[u] {
            Cmd::Move { .. } => true,
            Cmd::Hold => false,
            _ => self.state[u] & VALID != 0,
        }
    }

    // ----------------------------------------------------------------
    // Resolver (DATC 5.F)
    // ----------------------------------------------------------------

    fn result(&self, u: usize) -> bool {
        self.state[u] & RESULT != 0
    }
    fn set_result(&mut self, u: usize, r: bool) {
        if r {
            self.state[u] |= RESULT;
        } else {
            self.state[u] &= !RESULT;
        }
    }
    fn settle(&mut self, u: usize, r: bool) {
        self.set_result(u, r);
        self.state[u] |= RESOLVED;
    }
    fn truncate_cycle(&mut self, len: usize) {
        for i in len..self.cycle.len() {
            let m = self.cycle[i] as usize;
            self.state[m] &= !IN_CYCLE;
        }
        self.cycle.truncate(len);
    }

    fn resolve(&mut self, u: usize) -> bool {
        let s = self.state[u];
        if s & RESOLVED != 0 {
            return s & RESULT != 0;
        }
        if s & IN_CYCLE != 0 {
            self.guess_based = true;
            return s & RESULT != 0;
        }
        if s & VISITED != 0 {
            self.cycle.push(u as u16);
            self.state[u] |= IN_CYCLE;
            self.guess_based = true;
            self.recursion_hits += 1;
            return s & RESULT != 0;
        }
        self.state[u] |= VISITED;
        let old_cycle_len = self.cycle.len();
        let old_guess_based = self.guess_based;
        self.guess_based = false;
        let old_hits = self.recursion_hits;
        self.set_result(u, false);
        let first = self.adjudicate(u);
        if !self.guess_based {
            self.guess_based = old_guess_based;
            self.settle(u, first);
            self.state[u] &= !VISITED;
            return first;
        }
        if self.state[u] & IN_CYCLE != 0 {
            self.recursion_hits -= 1;
        }
        if self.recursion_hits == old_hits {
            // This order is the ancestor of the whole cycle: try the other
            // guess.
            self.truncate_cycle(old_cycle_len);
            self.set_result(u, true);
            let second = self.adjudicate(u);
            if first == second {
                self.truncate_cycle(old_cycle_len);
                self.guess_based = old_guess_based;
                self.settle(u, first);
                self.state[u] &= !VISITED;
                return first;
            }
            // No single answer: the backup rule.
            self.backup_rule(old_cycle_len);
            self.truncate_cycle(old_cycle_len);
            self.guess_based = old_guess_based;
            self.state[u] &= !VISITED;
            return self.resolve(u);
        }
        if self.state[u] & IN_CYCLE == 0 {
            self.cycle.push(u as u16);
            self.state[u] |= IN_CYCLE;
        }
        self.set_result(u, first);
        self.state[u] &= !VISITED;
        first
    }

    /// Settle a cycle with no single consistent answer (DATC 5.B.9).
    fn backup_rule(&mut self, from: usize) {
        let members: Vec<usize> = self.cycle[from..].iter().map(|&m| m as usize).collect();
        let has_convoy = members
            .iter()
            .any(|&m| matches!(self.cmd[m], Cmd::Convoy { .. }));
        if has_convoy {
            match self.rules.paradox {
                ParadoxRule::Szykman => {
                    for &m in &members {
                        if matches!(self.cmd[m], Cmd::Convoy { .. }) {
                            self.settle(m, false);
                            self.state[m] |= PARADOX;
                        }
                    }
                }
                ParadoxRule::AllHold => {
                    for &m in &members {
                        self.settle(m, false);
                        if matches!(self.cmd[m], Cmd::Convoy { .. }) {
                            self.state[m] |= PARADOX;
                        }
                    }
                }
            }
        } else if members
            .iter()
            .all(|&m| matches!(self.cmd[m], Cmd::Move { .. }))
        {
            // Circular movement: everybody moves.
            for &m in &members {
                self.settle(m, true);
            }
        } else {
            for &m in &members {
                self.settle(m, false);
            }
        }
    }

    fn adjudicate(&mut self, u: usize) -> bool {
        match self.cmd[u] {
            Cmd::Move { .. } => self.adj_move(u),
            Cmd::SupHold { .. } | Cmd::SupMove { .. } => self.adj_support(u).is_none(),
            Cmd::Convoy { .. } => self.adj_convoy(u),
            Cmd::Hold | Cmd::Destroy => true,
        }
    }

    // ----------------------------------------------------------------
    // The rules (DATC 5.B)
    // ----------------------------------------------------------------

    fn move_dest(&self, u: usize) -> Option<(u16, bool)> {
        match self.cmd[u] {
            Cmd::Move { to, convoy, .. } => Some((to, convoy)),
            _ => None,
        }
    }

    /// The unit in a head-to-head battle with `u`: both moving into each
    /// other's province, neither by convoy.
    fn head_to_head(&self, u: usize) -> Option<usize> {
        let (to, convoy) = self.move_dest(u)?;
        if convoy {
            return None;
        }
        let v = self.unit_at[to as usize];
        if v == NONE {
            return None;
        }
        match self.move_dest(v as usize) {
            Some((t, false)) if t == self.prov[u] => Some(v as usize),
            _ => None,
        }
    }

    fn supporters(&self, u: usize) -> std::ops::Range<usize> {
        self.sup_off[u] as usize..self.sup_off[u + 1] as usize
    }
    fn attackers(&self, p: u16) -> std::ops::Range<usize> {
        self.att_off[p as usize] as usize..self.att_off[p as usize + 1] as usize
    }

    /// The unit's own strength and its successful supports', optionally
    /// leaving out those of one power.
    fn supported_strength(&mut self, u: usize, not_of: Option<PowerId>) -> u32 {
        let mut s = self.own_strength(u);
        for i in self.supporters(u) {
            let k = self.sup[i] as usize;
            if not_of.is_some_and(|p| self.power(k) == p) {
                continue;
            }
            if self.resolve(k) {
                s += self.support_value(k);
            }
        }
        s
    }

    /// The strength a unit brings alone: its kind's, unless the phase
    /// says otherwise.
    fn own_strength(&self, u: usize) -> u32 {
        match self.strength_of[u] {
            0 => self.units[u].kind.strength(),
            v => v,
        }
    }

    /// What a standing support adds. A defensive army's support of three
    /// loses the strength of the strongest attack that would have cut an
    /// ordinary support (1000 AD rule 8: "support left = 3 minus the
    /// strongest single attack", never below nothing).
    fn support_value(&mut self, k: usize) -> u32 {
        let kind = self.units[k].kind;
        let full = match self.support_of[k] {
            0 => kind.strength(),
            v => v,
        };
        if !kind.support_worn_down() {
            return full;
        }
        let p = self.prov[k];
        let aimed_at = match self.cmd[k] {
            Cmd::SupMove { to, .. } => to,
            _ => NONE,
        };
        let mut strongest = 0;
        for i in self.attackers(p) {
            let m = self.att[i] as usize;
            if self.power(m) == self.power(k) || self.prov[m] == aimed_at {
                continue;
            }
            strongest = strongest.max(self.attack_strength(m));
        }
        full.saturating_sub(strongest)
    }

    /// PATH: a move by land always has one; a convoyed move needs a chain
    /// of fleets, each with a successful convoy, from origin to destination.
    fn path(&mut self, u: usize) -> bool {
        if self.aboard[u] || self.aboard_path[u] {
            return true;
        }
        let Some((to, true)) = self.move_dest(u) else {
            return true;
        };
        let from = self.prov[u];
        let list_start = self.cvy_off[u] as usize;
        let list_end = self.cvy_off[u + 1] as usize;
        let len = list_end - list_start;
        if len == 0 {
            return false;
        }
        let mut good: u64 = 0;
        let mut bad: u64 = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..len.min(64) {
                let bit = 1u64 << i;
                if (good | bad) & bit != 0 {
                    continue;
                }
                let f = self.cvy[list_start + i] as usize;
                let fp = self.prov[f];
                let fr = self.units[f].region;
                let touches = self.map.reaches(fr, ProvinceId(from), UnitKind::Fleet)
                    || (0..len.min(64)).any(|k| {
                        good & (1u64 << k) != 0 && {
                            let g = self.cvy[list_start + k] as usize;
                            self.map
                                .reaches(self.units[g].region, ProvinceId(fp), UnitKind::Fleet)
                        }
                    });
                if !touches {
                    continue;
                }
                if self.resolve(f) {
                    good |= bit;
                    if self.map.reaches(fr, ProvinceId(to), UnitKind::Fleet) {
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

    fn attack_strength(&mut self, u: usize) -> u32 {
        if !self.path(u) {
            return 0;
        }
        let (to, _) = self.move_dest(u).expect("attack strength of a move");
        let v = self.unit_at[to as usize];
        if v == NONE {
            return self.supported_strength(u, None);
        }
        let v = v as usize;
        let h2h = self.head_to_head(u).is_some();
        if !h2h && self.move_dest(v).is_some() && self.resolve(v) {
            return self.supported_strength(u, None);
        }
        if self.power(v) == self.power(u) {
            return 0;
        }
        let pv = self.power(v);
        self.supported_strength(u, Some(pv))
    }

    fn hold_strength(&mut self, p: u16) -> u32 {
        let v = self.unit_at[p as usize];
        if v == NONE {
            return 0;
        }
        let v = v as usize;
        if self.move_dest(v).is_some() {
            return if self.resolve(v) {
                0
            } else if self.icebound(v) {
                ICE
            } else {
                self.own_strength(v)
            };
        }
        if self.icebound(v) {
            return ICE;
        }
        self.supported_strength(v, None)
    }

    fn prevent_strength(&mut self, u: usize) -> u32 {
        if !self.path(u) {
            return 0;
        }
        if let Some(v) = self.head_to_head(u)
            && self.resolve(v)
        {
            return 0;
        }
        self.supported_strength(u, None)
    }

    fn adj_move(&mut self, u: usize) -> bool {
        if matches!(self.cmd[u], Cmd::Move { into_box: true, .. }) {
            return true;
        }
        let (to, _) = self.move_dest(u).expect("a move");
        let need = self.needs[u];
        if need != NONE && !self.resolve(need as usize) {
            return false;
        }
        let attack = self.attack_strength(u);
        if attack == 0 {
            return false;
        }
        if let Some(v) = self.head_to_head(u) {
            if attack <= self.supported_strength(v, None) || self.icebound(v) {
                return false;
            }
        } else if attack <= self.hold_strength(to) {
            return false;
        }
        for i in self.attackers(to) {
            let w = self.att[i] as usize;
            if w != u && attack <= self.prevent_strength(w) {
                return false;
            }
        }
        true
    }

    /// `None` if the support stands, else the unit that cut it.
    fn adj_support(&mut self, s: usize) -> Option<usize> {
        let p = self.prov[s];
        let aimed_at = match self.cmd[s] {
            Cmd::SupMove { to, .. } => to,
            _ => NONE,
        };
        for i in self.attackers(p) {
            let m = self.att[i] as usize;
            if self.power(m) == self.power(s) {
                continue;
            }
            let cut = if self.prov[m] == aimed_at || self.units[s].kind.support_worn_down() {
                // An attack from where the support is aimed cuts it only by
                // dislodging the supporter; so does any attack on a
                // defensive army, whose support is worn down instead.
                self.resolve(m)
            } else {
                self.path(m)
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
    fn adj_convoy(&mut self, f: usize) -> bool {
        let p = self.prov[f];
        for i in self.attackers(p) {
            let m = self.att[i] as usize;
            let success = if self.state[m] & RESOLVED != 0 {
                self.result(m)
            } else {
                self.adjudicate(m)
            };
            if success {
                return false;
            }
        }
        true
    }

    // ----------------------------------------------------------------
    // Results
    // ----------------------------------------------------------------

    fn results(mut self, orders: Vec<Option<Illegal>>) -> MovementResult {
        let n = self.units.len();
        let np = self.unit_at.len();
        // Who stands where afterwards.
        let mut occupied = vec![false; np];
        for u in 0..n {
            match self.cmd[u] {
                Cmd::Move { to, .. } if self.result(u) => occupied[to as usize] = true,
                _ => occupied[self.prov[u] as usize] = true,
            }
        }
        // Standoffs: empty provinces where a move with strength bounced. A
        // move that failed only because the move it depends on failed (an
        // A/F's landing and its fleet's sailing, Abstraction II) met nobody
        // there: no standoff.
        let mut contested_flag = vec![false; np];
        for u in 0..n {
            let need = self.needs[u];
            if let Cmd::Move { to, .. } = self.cmd[u]
                && !self.result(u)
                && !occupied[to as usize]
                && self.prevent_strength(u) > 0
                && (need == NONE || self.result(need as usize))
            {
                contested_flag[to as usize] = true;
            }
        }
        let contested: Vec<ProvinceId> = (0..np)
            .filter(|&p| contested_flag[p])
            .map(|p| ProvinceId(p as u16))
            .collect();

        // The box whose waiting units an enemy has ordered destroyed.
        let destroy_box = self.q.destroy_box().map(|p| p.0);
        let destroyers: Vec<PowerId> = (0..n)
            .filter(|&u| self.cmd[u] == Cmd::Destroy)
            .map(|u| self.power(u))
            .collect();
        let mut out = Vec::with_capacity(n);
        for u in 0..n {
            let command = match self.cmd[u] {
                // Bound to nobody: void, and nobody to point at.
                Cmd::Hold
                | Cmd::SupHold { target: NONE }
                | Cmd::SupMove { target: NONE, .. }
                | Cmd::Convoy { army: NONE, .. } => Resolved::Hold,
                Cmd::Move { region, convoy, .. } => Resolved::Move { to: region, convoy },
                Cmd::SupHold { target } => Resolved::SupportHold {
                    unit: target as usize,
                },
                Cmd::SupMove { target, to, .. } => Resolved::SupportMove {
                    unit: target as usize,
                    to: ProvinceId(to),
                },
                Cmd::Convoy { army, to } => Resolved::Convoy {
                    army: army as usize,
                    to: ProvinceId(to),
                },
                Cmd::Destroy => Resolved::Destroy,
            };
            let valid = self.state[u] & VALID != 0;
            let outcome = match self.cmd[u] {
                Cmd::Hold => Outcome::Held,
                Cmd::Move { convoy, .. } => {
                    if self.result(u) {
                        Outcome::Moved
                    } else if convoy && !self.path(u) {
                        Outcome::NoConvoy
                    } else {
                        Outcome::Bounced
                    }
                }
                Cmd::SupHold { .. } | Cmd::SupMove { .. } => {
                    if !valid {
                        Outcome::SupportVoid
                    } else if self.result(u) {
                        Outcome::Supported
                    } else {
                        match self.adj_support(u) {
                            Some(m) => Outcome::Cut(m),
                            None => Outcome::Supported,
                        }
                    }
                }
                Cmd::Convoy { .. } => {
                    if !valid {
                        Outcome::ConvoyVoid
                    } else if self.result(u) {
                        Outcome::Convoyed
                    } else {
                        Outcome::ConvoyFailed
                    }
                }
                Cmd::Destroy => Outcome::Destroying,
            };
            let moved = matches!(self.cmd[u], Cmd::Move { .. }) && self.result(u);
            let mut dislodged = None;
            // Destroyed where it stands: waiting in a box an enemy ordered
            // destroyed, or failing to come out of a box whose rule is that
            // such units are lost (they cannot retreat).
            let destroyed = self.in_box[u]
                && !moved
                && ((destroy_box == Some(self.prov[u])
                    && self.q.destroys(self.units[u].kind)
                    && destroyers.iter().any(|&p| p != self.power(u)))
                    || (matches!(self.cmd[u], Cmd::Move { .. })
                        && self.q.failed_exit_destroyed(ProvinceId(self.prov[u]))));
            if !moved && !self.in_box[u] && !self.aboard[u] {
                for i in self.attackers(self.prov[u]) {
                    let m = self.att[i] as usize;
                    if self.result(m) {
                        let by_convoy = matches!(self.cmd[m], Cmd::Move { convoy: true, .. });
                        let from = ProvinceId(self.prov[m]);
                        let retreats =
                            self.retreat_options(u, from, by_convoy, &occupied, &contested_flag);
                        dislodged = Some(Dislodgement {
                            by: m,
                            from,
                            by_convoy,
                            retreats,
                        });
                        break;
                    }
                }
            }
            let support_left = (self.units[u].kind.support_worn_down()
                && outcome == Outcome::Supported)
                .then(|| self.support_value(u));
            out.push(UnitResult {
                order: (self.order_of[u] != u32::MAX).then_some(self.order_of[u] as usize),
                dislodged,
                destroyed,
                support_left,
                ..UnitResult::plain(command, outcome)
            });
        }
        MovementResult {
            units: out,
            orders,
            contested,
        }
    }

    fn retreat_options(
        &self,
        u: usize,
        attacker_from: ProvinceId,
        by_convoy: bool,
        occupied: &[bool],
        contested: &[bool],
    ) -> Vec<RegionId> {
        let unit = self.units[u];
        let m = unit.kind.mobility();
        // A defensive army is restricted to its homeland (1000 AD rule 7)
        // in retreats as in moves: with no retreat there it is destroyed.
        let homeland =
            (unit.kind == UnitKind::DefensiveArmy).then(|| &self.map.power(unit.power).homeland);
        self.map
            .borders(unit.region)
            .iter()
            .filter(|&&(r, b)| {
                let p = self.map.province_of(r);
                b.intersects(m)
                    && homeland.is_none_or(|h| h.contains(&p))
                    && self.map.admits(r, unit.kind)
                    && !occupied[p.index()]
                    && !contested[p.index()]
                    && (by_convoy || p != attacker_from)
                    && self.map.province(p).terrain != Terrain::OffBoard
            })
            .map(|&(r, _)| r)
            .collect()
    }
}
