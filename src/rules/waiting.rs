//! Units that wait off the board in secret places on it (1066 rule 5:
//! Harald Hardrada's four A/Fs start "in Oceanus Germanicus or the Wash",
//! their "exact location ... known only by this player and the GM until
//! the end of the second move").
//!
//! Each such unit stands in its owner's box, with the sea it is in kept in
//! the position ([`RuleState::waiting`](super::RuleState::waiting)): the
//! place is fixed, so it is attacked and defends there like any unit, and
//! it moves from there only. The owner's orders of the box's
//! `placed-by-orders` phase say where each starts (the place is his to
//! know, so his to choose); the variant file's `waits-in` places the rest. Several may share a sea until the box
//! settles (the rule eliminates those "exceeding the normal limit of one
//! per area" at the end of the second move); they stand there together.
//!
//! The movement judge knows one unit per province, so the waiting units
//! reach it rewritten: in each sea one of them (a holder if any holds) is
//! "the unit in" the sea, on the board; the others stay in the box and
//! move from the sea (`Prepared::from`). Those that stay in a sea share
//! the fate of the one standing for them there: an attack that dislodges
//! it dislodges them all. Where that choice proves wrong once the moves
//! are known (the one chosen moved away while another stayed; another
//! moved out past a unit coming the other way, which would have been a
//! head-to-head battle), the judge runs again with the choice put right.

use super::{Position, Ruleset};
use crate::adjudicate::Illegal;
use crate::adjudicate::movement::{
    MovementResult, OrderIndex, Outcome, Prepared, Resolved, UnitList, adjudicate_movement_prepared,
};
use crate::adjudicate::questions::RuleQuestions;
use crate::adjudicate::rulebook::Rulebook;
use crate::map::wire::PerPower;
use crate::map::{ProvinceId, Unit};
use crate::orders::{MainCommand, MainOrder, Place, UnitRef};
use std::collections::BTreeMap;

/// Where each power's box units stand at the start of a game: the
/// variant file's `waits-in` (1066: two of Harald's A/Fs in each sea, a
/// placement the GM may change in the position before the first move).
pub(crate) fn starting_places(v: &(impl Ruleset + ?Sized)) -> PerPower<Vec<ProvinceId>> {
    let mut w: PerPower<Vec<ProvinceId>> = PerPower::sized(v.map().powers().len());
    for b in &v.features().boxes {
        if let Some(owner) = b.owner
            && let Some(list) = w.get_mut(owner)
        {
            list.extend(b.waits_in.iter().copied());
        }
    }
    w
}

/// The sea each unit of `pos` waits in (`None`: it does not), while its
/// box's units still move from the seas (1066: to the end of April 1066).
/// The first units of the owner in its box take the recorded seas in
/// turn: they are alike, so only how many wait in each sea matters.
pub(crate) fn seas(v: &(impl Ruleset + ?Sized), pos: &Position) -> Vec<Option<ProvinceId>> {
    let map = v.map();
    let mut out = vec![None; pos.units.len()];
    for b in &v.features().boxes {
        let Some(owner) = b.owner else { continue };
        if b.moves_from_until.is_none_or(|until| pos.phase > until) {
            continue;
        }
        let Some(list) = pos.state.waiting.get(owner) else {
            continue;
        };
        let in_box = pos
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.power == owner && map.province_of(u.region) == b.province);
        for ((i, _), &sea) in in_box.zip(list) {
            out[i] = Some(sea);
        }
    }
    out
}

/// [`seas`], as the orders of the phase leave them: in the phase whose
/// orders place the waiting units (1066: March 1066, Harald's first), each
/// order of the owner naming a sea of the box puts one there, taking
/// first one that already stands there; those no order names stay where
/// they stood.
pub(crate) fn seas_ordered(
    v: &(impl Ruleset + ?Sized),
    pos: &Position,
    orders: &[MainOrder],
) -> Vec<Option<ProvinceId>> {
    let map = v.map();
    let mut sea = seas(v, pos);
    for b in &v.features().boxes {
        if b.placed_by_orders != Some(pos.phase) {
            continue;
        }
        let Some(owner) = b.owner else { continue };
        let members: Vec<usize> = (0..pos.units.len())
            .filter(|&i| {
                sea[i].is_some()
                    && pos.units[i].power == owner
                    && map.province_of(pos.units[i].region) == b.province
            })
            .collect();
        let mut claimed = vec![false; pos.units.len()];
        for o in orders {
            let p = o.unit.at.province;
            let on_board = pos
                .units
                .iter()
                .any(|u| u.power == owner && map.province_of(u.region) == p);
            if o.power != owner || !b.also_named.contains(&p) || on_board {
                continue;
            }
            let pick = members
                .iter()
                .copied()
                .find(|&m| !claimed[m] && sea[m] == Some(p))
                .or_else(|| members.iter().copied().find(|&m| !claimed[m]));
            if let Some(m) = pick {
                claimed[m] = true;
                sea[m] = Some(p);
            }
        }
    }
    sea
}

/// `pos`'s units with each waiting one in its sea (as the phase's orders
/// place them): where the results and pictures show it to those who may
/// see it, and where it stands when dislodged.
pub fn seated(v: &(impl Ruleset + ?Sized), pos: &Position, orders: &[MainOrder]) -> Vec<Unit> {
    let map = v.map();
    pos.units
        .iter()
        .zip(seas_ordered(v, pos, orders))
        .map(|(u, s)| match s {
            Some(s) => Unit {
                region: map.province(s).main_region(),
                ..*u
            },
            None => *u,
        })
        .collect()
}

/// Which waiting unit each order of their owner is for, and what the
/// routing alone refuses.
struct Routes {
    /// Per order, its refusal so far.
    verdicts: Vec<Option<Illegal>>,
    /// Per order, whether it is for a waiting unit.
    routed: Vec<bool>,
    /// Per unit, the order it was given.
    order_for: Vec<Option<usize>>,
}

/// A move with units waiting in seas: what judging it works from.
struct Seas<'a> {
    map: &'a crate::map::Map,
    units: &'a [Unit],
    orders: &'a [MainOrder],
    /// Per unit, the sea it waits in.
    sea: Vec<Option<ProvinceId>>,
    /// The waiting units.
    members: Vec<usize>,
}

impl Seas<'_> {
    fn box_of(&self, i: usize) -> ProvinceId {
        self.map.province_of(self.units[i].region)
    }

    /// Which waiting unit each order of their owner is for: one standing
    /// in the sea the order names. An order naming a sea none of them is
    /// in, or the box itself, finds no unit: only their owner reads that
    /// reply.
    fn route(&self, v: &(impl Ruleset + ?Sized)) -> Routes {
        let (map, units, members, sea) = (self.map, self.units, &self.members, &self.sea);
        let mut verdicts: Vec<Option<Illegal>> = vec![None; self.orders.len()];
        let mut routed = vec![false; self.orders.len()];
        let mut order_for: Vec<Option<usize>> = vec![None; units.len()];
        for (i, o) in self.orders.iter().enumerate() {
            let p = o.unit.at.province;
            let Some(b) = v.features().boxes.iter().find(|b| {
                b.owner == Some(o.power)
                    && (b.province == p || b.also_named.contains(&p))
                    && members.iter().any(|&m| self.box_of(m) == b.province)
            }) else {
                continue;
            };
            // The owner's own unit on the board there takes the order.
            let on_board = units
                .iter()
                .any(|u| u.power == o.power && map.province_of(u.region) == p);
            if p != b.province && on_board {
                continue;
            }
            routed[i] = true;
            let here: Vec<usize> = members
                .iter()
                .copied()
                .filter(|&m| {
                    units[m].power == o.power
                        && sea[m] == Some(p)
                        && o.unit.kind.is_none_or(|k| units[m].kind == k)
                })
                .collect();
            let Some(m) = here
                .iter()
                .copied()
                .find(|&m| order_for[m].is_none())
                .or(here.first().copied())
            else {
                verdicts[i] = Some(Illegal::NoUnit);
                continue;
            };
            // Rule 7: a unit off the board has no effect until it moves.
            if matches!(
                o.command,
                MainCommand::SupportHold { .. }
                    | MainCommand::SupportMove { .. }
                    | MainCommand::Convoy { .. }
            ) {
                verdicts[i] = Some(Illegal::OffBoard);
                continue;
            }
            if let Some(prev) = order_for[m] {
                verdicts[prev] = Some(Illegal::Replaced);
            }
            order_for[m] = Some(i);
        }
        Routes {
            verdicts,
            routed,
            order_for,
        }
    }

    /// The orders the movement judge is given, with the index of the
    /// player's order each stands for: the orders for the board, the
    /// representative of each sea's orders from its sea, and the others
    /// found in the box in turn, each given its order (a hold where it has
    /// none, so that the next finds the next).
    fn judge_orders(
        &self,
        routes: &Routes,
        rep: &BTreeMap<ProvinceId, usize>,
        held_back: &[Option<Resolved>],
    ) -> (Vec<MainOrder>, Vec<Option<usize>>) {
        let orders = self.orders;
        let mut judge_orders: Vec<MainOrder> = Vec::new();
        let mut judge_index: Vec<Option<usize>> = Vec::new();
        for (i, o) in orders.iter().enumerate() {
            if !routes.routed[i] {
                judge_orders.push(o.clone());
                judge_index.push(Some(i));
            }
        }
        for (&s, &m) in rep {
            if let Some(i) = routes.order_for[m].filter(|_| held_back[m].is_none()) {
                let mut o = orders[i].clone();
                o.unit.at = Place::province(s);
                judge_orders.push(o);
                judge_index.push(Some(i));
            }
        }
        for &m in &self.members {
            if rep.values().any(|&x| x == m) {
                continue;
            }
            let unit = UnitRef {
                kind: Some(self.units[m].kind),
                at: Place::province(self.box_of(m)),
            };
            match routes.order_for[m].filter(|_| held_back[m].is_none()) {
                Some(i) => {
                    let mut o = orders[i].clone();
                    o.unit = unit;
                    judge_orders.push(o);
                    judge_index.push(Some(i));
                }
                None => {
                    judge_orders.push(MainOrder {
                        power: self.units[m].power,
                        unit,
                        command: MainCommand::Hold,
                    });
                    judge_index.push(None);
                }
            }
        }
        (judge_orders, judge_index)
    }
}

/// Judge a move in which units wait in seas; `None` when none does (the
/// plain judge then serves).
pub(crate) fn judge(
    v: &(impl Ruleset + ?Sized),
    rules: &Rulebook,
    q: &dyn RuleQuestions,
    pos: &Position,
    orders: &[MainOrder],
) -> Option<MovementResult> {
    let sea = seas_ordered(v, pos, orders);
    if sea.iter().all(Option::is_none) {
        return None;
    }
    let map = v.map();
    let units = &pos.units;
    let n = units.len();
    let members: Vec<usize> = (0..n).filter(|&i| sea[i].is_some()).collect();
    let seas = Seas {
        map,
        units,
        orders,
        sea,
        members,
    };
    let (sea, members) = (&seas.sea, &seas.members);
    let mut routes = seas.route(v);

    // The waiting units of each sea, and the one standing for them there.
    let mut groups: BTreeMap<ProvinceId, Vec<usize>> = BTreeMap::new();
    for &m in members {
        if let Some(s) = sea[m] {
            groups.entry(s).or_default().push(m);
        }
    }
    let moves = |m: usize| {
        routes.order_for[m].is_some_and(|i| matches!(orders[i].command, MainCommand::Move { .. }))
    };
    let mut rep: BTreeMap<ProvinceId, usize> = groups
        .iter()
        .map(|(&s, g)| (s, g.iter().copied().find(|&m| !moves(m)).unwrap_or(g[0])))
        .collect();
    // Waiting units kept from moving out past a unit coming the other way,
    // with the move they were ordered.
    let mut held_back: Vec<Option<Resolved>> = vec![None; n];

    let mut tries = 0;
    let (r, judge_index) = loop {
        tries += 1;
        let mut board = units.clone();
        let mut prep = Prepared::default();
        for (&s, &m) in &rep {
            board[m].region = map.province(s).main_region();
        }
        for &m in members {
            if rep.values().all(|&x| x != m)
                && let Some(s) = sea[m]
            {
                prep.from.push((m, map.province(s).main_region()));
            }
        }
        let (judge_orders, judge_index) = seas.judge_orders(&routes, &rep, &held_back);
        let r = adjudicate_movement_prepared(
            map,
            rules,
            q,
            Some(pos.phase),
            &board,
            &judge_orders,
            &prep,
        );
        if tries > 2 * members.len() + 2 {
            break (r, judge_index);
        }
        let moved = |m: usize| {
            matches!(r.units[m].command, Resolved::Move { .. })
                && r.units[m].outcome == Outcome::Moved
        };
        let mut again = false;
        for (s, g) in &groups {
            let here = rep[s];
            if moved(here)
                && let Some(stays) = g.iter().copied().find(|&m| m != here && !moved(m))
            {
                rep.insert(*s, stays);
                again = true;
            }
        }
        for &m in members {
            if rep.values().any(|&x| x == m) || !moved(m) {
                continue;
            }
            let (Resolved::Move { to, .. }, Some(s)) = (r.units[m].command, sea[m]) else {
                continue;
            };
            let there = map.province_of(to);
            let swapped = (0..n).any(|w| {
                map.province_of(board[w].region) == there
                    && r.units[w].outcome == Outcome::Moved
                    && matches!(r.units[w].command,
                        Resolved::Move { to: t, convoy: false } if map.province_of(t) == s)
            });
            if swapped {
                held_back[m] = Some(r.units[m].command);
                again = true;
            }
        }
        if !again {
            break (r, judge_index);
        }
    };

    // Fold the judge's answer back onto the units as they stand.
    for (k, why) in r.orders.iter().enumerate() {
        if let Some(i) = judge_index[k] {
            routes.verdicts[i] = *why;
        }
    }
    let mut out = r.clone();
    for (u, ur) in out.units.iter_mut().enumerate() {
        ur.order = r.units[u]
            .order_index()
            .and_then(|k| judge_index[k])
            .and_then(OrderIndex::new);
        if let Some(cmd) = held_back[u] {
            ur.order = routes.order_for[u].and_then(OrderIndex::new);
            ur.command = cmd;
            ur.outcome = Outcome::Bounced {
                with: UnitList::new(),
            };
        }
    }
    for (s, g) in &groups {
        let Some(d) = &r.units[rep[s]].dislodged else {
            continue;
        };
        for &m in g {
            let stayed = !(matches!(out.units[m].command, Resolved::Move { .. })
                && out.units[m].outcome == Outcome::Moved);
            if stayed {
                out.units[m].dislodged = Some(d.clone());
            }
        }
    }
    // No unit of a player who may not know what waits in a sea retreats
    // there: whether it is free would tell.
    for (u, ur) in out.units.iter_mut().enumerate() {
        if let Some(d) = &mut ur.dislodged {
            d.retreats
                .retain(|&reg| !q.unseen(units[u].power, map.province_of(reg), Some(pos.phase)));
        }
    }
    out.orders = routes.verdicts;
    Some(out)
}

/// The position after a move judged by [`judge`]: a waiting unit still
/// in a sea of its box (it held, bounced, or went from one to the other)
/// waits on there, back in the box with that sea recorded; one dislodged
/// retreats from its sea; the rest stand where the move left them.
pub(crate) fn after_move(
    v: &(impl Ruleset + ?Sized),
    pos: &Position,
    orders: &[MainOrder],
    r: &MovementResult,
    next: &mut Position,
) {
    let sea = seas_ordered(v, pos, orders);
    if sea.iter().all(Option::is_none) {
        return;
    }
    let map = v.map();
    let seated = seated(v, pos, orders);
    let mut waiting: PerPower<Vec<ProvinceId>> = PerPower::sized(map.powers().len());
    let mut units = Vec::new();
    for (i, (u, res)) in seated.iter().zip(&r.units).enumerate() {
        if res.dislodged.is_some() || res.destroyed() || res.boarded() {
            continue;
        }
        let mut here = match (res.command, &res.outcome) {
            (Resolved::Move { to, .. }, Outcome::Moved) => Unit { region: to, ..*u },
            _ => *u,
        };
        if let Some(k) = res.becomes() {
            here.kind = k;
        }
        if sea[i].is_some() {
            let b = map.province_of(pos.units[i].region);
            let p = map.province_of(here.region);
            let of_box = v
                .features()
                .box_at(b)
                .is_some_and(|x| x.also_named.contains(&p));
            if of_box && let Some(list) = waiting.get_mut(u.power) {
                list.push(p);
                here.region = pos.units[i].region;
            }
        }
        units.push(here);
    }
    next.units = units;
    next.dislodged = r
        .dislodged(&seated)
        .map(|(u, d)| (u, d.retreats.clone()))
        .collect();
    next.state.waiting = waiting;
}

/// The feature's entry in the registry: units waiting in the seas of a
/// `[[box]]` (`waits-in`, `moves-from-until`; the table itself is still
/// read with the others, `features::RawBox`).
pub(crate) const PLUGIN: super::feature::Plugin = super::feature::Plugin {
    name: "waiting",
    rank: 10,
    tables: &[],
    load,
};

/// Units waiting in seas of their box.
#[derive(Debug, Clone, Copy)]
struct Waiting;

fn load(l: &mut super::feature::Load<'_>) -> Option<std::sync::Arc<dyn super::feature::Feature>> {
    l.legacy
        .has_boxes()
        .then(|| std::sync::Arc::new(Waiting) as std::sync::Arc<dyn super::feature::Feature>)
}

impl super::feature::Feature for Waiting {
    fn judge_movement(
        &self,
        v: &dyn Ruleset,
        q: &dyn RuleQuestions,
        pos: &Position,
        orders: &[MainOrder],
    ) -> Option<MovementResult> {
        judge(v, v.rulebook(), q, pos, orders)
    }

    fn after_move(
        &self,
        v: &dyn Ruleset,
        pos: &Position,
        orders: &[MainOrder],
        r: &MovementResult,
        next: &mut Position,
    ) {
        after_move(v, pos, orders, r, next);
    }
}
