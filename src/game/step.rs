//! Playing one phase: orders in, results and the next position out.
//!
//! Between phases the calendar decides what comes next, with two rules of
//! the judge: a retreat phase in which nobody was dislodged, and an
//! adjustment phase in which nobody owes or is owed a unit, are skipped
//! (nobody has a choice to make); and centres change hands on the way into
//! an adjustment phase, when the units standing on them take them.

use crate::adjudicate::adjust::{adjudicate_adjustments_with, adjustments_due_with};
use crate::adjudicate::movement::{Outcome, Resolved, adjudicate_movement_in};
use crate::adjudicate::{
    AdjustResult, MovementResult, RetreatResult, RetreatSituation, adjudicate_retreats,
};
use crate::game::Position;
use crate::game::position::{Anarchy, RuleState};
use crate::map::{ProvinceId, Unit};
use crate::orders::{AdjustOrder, MainOrder, RetreatOrder};
use crate::variant::features::Ruled;
use crate::variant::{PhaseKind, Turn, Variant};

/// The result of any phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PhaseResult {
    /// A movement phase.
    Movement(MovementResult),
    /// A retreat phase.
    Retreat(RetreatResult),
    /// An adjustment (or placement) phase.
    Adjustment(AdjustResult),
    /// A whole yearly turn of impulses (1700 AD II).
    Turn(Box<TurnResult>),
}

/// A yearly turn of 1700 AD II: the impulses with their retreats, the units
/// out of supply, then the builds and removals of the same order sheets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnResult {
    /// The impulses.
    pub turn: crate::adjudicate::impulse::Turn,
    /// Units disbanded for want of a line of supply (rule 9).
    pub out_of_supply: Vec<Unit>,
    /// The builds and removals.
    pub adjustments: AdjustResult,
    /// The board before the builds and removals (after the moves, the
    /// retreats and the supply check), for the report's centre chart.
    pub before_builds: Vec<Unit>,
}

/// Orders for a phase, of the kind the phase takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PhaseOrders {
    /// Movement orders.
    Movement(Vec<MainOrder>),
    /// Retreat orders.
    Retreat(Vec<RetreatOrder>),
    /// Adjustment orders.
    Adjustment(Vec<AdjustOrder>),
    /// A yearly order sheet of 1700 AD II: moves, retreats, builds.
    Turn {
        /// Moves.
        moves: Vec<MainOrder>,
        /// Retreats, used where they fit.
        retreats: Vec<RetreatOrder>,
        /// Builds and removals.
        adjust: Vec<AdjustOrder>,
    },
}

/// Adjudicate the phase of `pos` with `orders` (orders of another kind are
/// ignored: the phase is played as if none were given) and return the
/// result with the position at the start of the next phase.
pub fn play(v: &Variant, pos: &Position, orders: &PhaseOrders) -> (PhaseResult, Position) {
    if v.calendar.turn == Turn::Impulses && pos.phase.kind == PhaseKind::Movement {
        return play_turn(v, pos, orders);
    }
    match pos.phase.kind {
        PhaseKind::Movement => {
            let empty = Vec::new();
            let o = match orders {
                PhaseOrders::Movement(o) => o,
                _ => &empty,
            };
            // Powers in anarchy give no orders: their units hold.
            let heard: Vec<MainOrder>;
            let o = if pos.state.anarchy.contains(&Anarchy::Yes) {
                heard = o
                    .iter()
                    .filter(|x| !in_anarchy(pos, x.power))
                    .cloned()
                    .collect();
                &heard
            } else {
                o
            };
            let r = judge_movement(v, pos, o);
            let mut state = pos.state.clone();
            record_box_exits(v, &pos.units, &r, &mut state);
            let next = Position {
                phase: pos.phase,
                units: r.units_after(&pos.units),
                owners: pos.owners.clone(),
                dislodged: r
                    .dislodged(&pos.units)
                    .map(|(u, d)| (u, d.retreats.clone()))
                    .collect(),
                state,
            };
            let mut next = next;
            if v.features.laden() {
                board_retreats(v, &r, &pos.units, &mut next);
            }
            end_grace(v, &mut next);
            let settled = settle_boxes(v, pos.phase, &mut next);
            // Centres exchanged at the end of the move (Abstraction II).
            let exchanged = crate::game::exchange::carry_out(v, &mut next);
            let mut after = advance(v, next);
            after.state.exchanged = exchanged;
            for (u, placed) in settled {
                if placed {
                    after.state.arrived.push(u);
                } else {
                    after.state.blocked.push(u);
                }
            }
            (PhaseResult::Movement(r), after)
        }
        PhaseKind::Retreat => {
            let empty = Vec::new();
            let o = match orders {
                PhaseOrders::Retreat(o) => o,
                _ => &empty,
            };
            let situation = RetreatSituation {
                units: pos.units.clone(),
                dislodged: pos.dislodged.clone(),
            };
            let r = adjudicate_retreats(&v.map, &situation, o);
            let mut units = r.units_after.clone();
            if v.features.laden() {
                settle_army_fleets(v, &mut units);
            }
            let next = Position {
                phase: pos.phase,
                units,
                owners: pos.owners.clone(),
                dislodged: Vec::new(),
                state: pos.state.clone(),
            };
            (PhaseResult::Retreat(r), advance(v, next))
        }
        PhaseKind::Adjustment | PhaseKind::Placement => {
            let empty = Vec::new();
            let o = match orders {
                PhaseOrders::Adjustment(o) => o,
                _ => &empty,
            };
            let heard: Vec<AdjustOrder> = o
                .iter()
                .filter(|x| !in_anarchy(pos, x.power))
                .copied()
                .collect();
            let r = judge_adjustments(v, pos, &heard);
            let mut state = pos.state.clone();
            state.bonus.values_mut().for_each(|b| *b = 0);
            state.pending.extend(r.pending.iter().copied());
            let next = Position {
                phase: pos.phase,
                units: r.units_after.clone(),
                owners: pos.owners.clone(),
                dislodged: Vec::new(),
                state,
            };
            (PhaseResult::Adjustment(r), advance(v, next))
        }
    }
}

fn in_anarchy(pos: &Position, p: crate::map::PowerId) -> bool {
    pos.state.anarchy.get(p) == Some(&Anarchy::Yes)
}

/// After a movement season of grace (1000 AD rule 13): a power that has
/// a unit on one of its home centres has retaken it; one that has not
/// falls into anarchy.
fn end_grace(v: &Variant, pos: &mut Position) {
    for pw in v.map.power_ids() {
        if pos.state.anarchy.get(pw) != Some(&Anarchy::Grace) {
            continue;
        }
        let homes = &v.map.power(pw).home_centres;
        let retaken: Vec<ProvinceId> = pos
            .units
            .iter()
            .filter(|u| u.power == pw)
            .map(|u| v.map.province_of(u.region))
            .filter(|p| homes.contains(p))
            .collect();
        for p in &retaken {
            pos.owners[p.index()] = Some(pw);
        }
        pos.state.anarchy[pw] = if retaken.is_empty() {
            Anarchy::Yes
        } else {
            Anarchy::No
        };
    }
}

/// On the way into an adjustment phase: a power left with no home centre
/// gets its season of grace (1000 AD rule 13).
fn start_grace(v: &Variant, pos: &mut Position) {
    if !v.features.anarchy {
        return;
    }
    for pw in v.map.power_ids() {
        let homes = &v.map.power(pw).home_centres;
        if homes.is_empty() || pos.state.anarchy.get(pw) != Some(&Anarchy::No) {
            continue;
        }
        if homes.iter().all(|h| pos.owners[h.index()] != Some(pw)) {
            pos.state.anarchy[pw] = Anarchy::Grace;
        }
    }
}

/// Abstraction II after a move: armies landed from dislodged A/Fs stand on
/// the board, and a dislodged army may also retreat onto an adjacent fleet
/// of its own at sea (rule 3).
fn board_retreats(v: &Variant, r: &MovementResult, before: &[Unit], next: &mut Position) {
    next.units.extend(r.landed_from_dislodged(before));
    let fleets: Vec<Unit> = next
        .units
        .iter()
        .copied()
        .filter(|u| u.kind == crate::map::UnitKind::Fleet)
        .filter(|u| v.map.province(v.map.province_of(u.region)).terrain == crate::map::Terrain::Sea)
        .collect();
    for (u, options) in &mut next.dislodged {
        if u.kind != crate::map::UnitKind::Army {
            continue;
        }
        let from = v.map.province(v.map.province_of(u.region)).main_region();
        for f in fleets.iter().filter(|f| f.power == u.power) {
            if v.map.reaches(
                from,
                v.map.province_of(f.region),
                crate::map::UnitKind::Fleet,
            ) && !options.contains(&f.region)
            {
                options.push(f.region);
            }
        }
    }
}

/// Abstraction II after retreats: an army that retreated onto its fleet at
/// sea makes an A/F; an A/F that retreated to a coast is a fleet, its army
/// lost (rule 3).
fn settle_army_fleets(v: &Variant, units: &mut Vec<Unit>) {
    use crate::map::{Terrain, UnitKind};
    let sea = |u: &Unit| v.map.province(v.map.province_of(u.region)).terrain == Terrain::Sea;
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        if u.kind == UnitKind::Army && sea(&u) {
            if let Some(f) = units.iter().position(|f| {
                f.kind == UnitKind::Fleet && f.power == u.power && f.region == u.region
            }) {
                units[f].kind = UnitKind::ArmyFleet;
            }
            units.remove(i);
            continue;
        }
        if u.kind == UnitKind::ArmyFleet && !sea(&u) {
            units[i].kind = UnitKind::Fleet;
        }
        i += 1;
    }
}

/// After the movement of `phase`: a box whose units must now stand on the
/// board puts each in one of its spaces that is empty, the rest are lost
/// (1066: Harald's A/Fs beyond one per sea at the end of the second move).
fn settle_boxes(
    v: &Variant,
    phase: crate::variant::Phase,
    pos: &mut Position,
) -> Vec<(Unit, bool)> {
    let mut out = Vec::new();
    for b in v
        .features
        .boxes
        .iter()
        .filter(|b| b.settle_after == Some(phase))
    {
        let mut spaces = b.also_named.clone();
        let mut i = 0;
        while i < pos.units.len() {
            let u = pos.units[i];
            if v.map.province_of(u.region) != b.province {
                i += 1;
                continue;
            }
            pos.units.remove(i);
            let free = spaces.iter().position(|&p| {
                !pos.units.iter().any(|x| v.map.province_of(x.region) == p)
                    && !pos
                        .dislodged
                        .iter()
                        .any(|(x, _)| v.map.province_of(x.region) == p)
                    && v.map.admits(v.map.province(p).main_region(), u.kind)
            });
            match free {
                Some(k) => {
                    let p = spaces.remove(k);
                    let placed = Unit {
                        region: v.map.province(p).main_region(),
                        ..u
                    };
                    pos.units.insert(i, placed);
                    out.push((placed, true));
                    i += 1;
                }
                None => out.push((u, false)),
            }
        }
    }
    out
}

/// The movement judge with the variant's features, in `pos`'s phase.
pub fn judge_movement(v: &Variant, pos: &Position, orders: &[MainOrder]) -> MovementResult {
    if v.features.boarding() {
        return crate::adjudicate::ferry::adjudicate_with_army_fleets(
            &v.map,
            &v.rules,
            &ruled(v, pos),
            Some(pos.phase),
            &pos.units,
            orders,
        );
    }
    adjudicate_movement_in(
        &v.map,
        &v.rules,
        &ruled(v, pos),
        Some(pos.phase),
        &pos.units,
        orders,
    )
}

/// Why each of the movement orders would be refused (`None`: it stands),
/// by the judge the variant plays: the order replies use it.
pub fn move_verdicts(
    v: &Variant,
    pos: &Position,
    orders: &[MainOrder],
) -> Vec<Option<crate::adjudicate::Illegal>> {
    if v.calendar.turn == Turn::Impulses {
        let (PhaseResult::Turn(t), _) = play_turn(v, pos, &PhaseOrders::Movement(orders.to_vec()))
        else {
            return vec![None; orders.len()];
        };
        return t.turn.orders;
    }
    judge_movement(v, pos, orders).orders
}

/// The adjustment judge with the variant's build rules and the game's
/// state.
pub fn judge_adjustments(v: &Variant, pos: &Position, orders: &[AdjustOrder]) -> AdjustResult {
    adjudicate_adjustments_with(
        &v.map,
        &v.rules,
        &ruled(v, pos),
        &pos.units,
        &pos.owners,
        orders,
    )
}

/// Builds (positive) or removals (negative) due per power in `pos`.
pub fn due(v: &Variant, pos: &Position) -> Vec<i32> {
    adjustments_due_with(&v.map, &ruled(v, pos), &pos.units, &pos.owners)
}

/// The variant's rules in `pos`: what answers the judges' questions.
fn ruled<'a>(v: &'a Variant, pos: &'a Position) -> Ruled<'a> {
    Ruled {
        features: &v.features,
        state: &pos.state,
        phase: pos.phase,
    }
}

/// A yearly turn of impulses (1700 AD II): the moves and their retreats,
/// the supply check (rule 9), the centres changing hands (fleets hold none),
/// then the sheets' builds and removals; the next position is next year's.
fn play_turn(v: &Variant, pos: &Position, orders: &PhaseOrders) -> (PhaseResult, Position) {
    use crate::adjudicate::impulse::{TurnInput, adjudicate_turn};
    let none = (Vec::new(), Vec::new(), Vec::new());
    let (moves, retreats, adjust) = match orders {
        PhaseOrders::Turn {
            moves,
            retreats,
            adjust,
        } => (moves.clone(), retreats.clone(), adjust.clone()),
        PhaseOrders::Movement(m) => (m.clone(), Vec::new(), Vec::new()),
        _ => none,
    };
    let map = &v.map;
    let mut friendly = vec![None; map.provinces().len()];
    for pw in map.power_ids() {
        if let Some(list) = pos.state.friendly.get(pw) {
            for p in list {
                friendly[p.index()] = Some(pw);
            }
        }
    }
    let garrisons: Vec<(ProvinceId, u32)> = v
        .features
        .garrisons
        .iter()
        .copied()
        .filter(|(p, _)| pos.state.garrisons.contains(p))
        .collect();
    let permits: Vec<(crate::map::PowerId, crate::map::PowerId)> = map
        .power_ids()
        .flat_map(|owner| {
            pos.state
                .permits
                .get(owner)
                .into_iter()
                .flatten()
                .map(move |p| (owner, *p))
        })
        .collect();
    let turn = adjudicate_turn(
        map,
        &v.rules,
        &ruled(v, pos),
        Some(pos.phase),
        TurnInput {
            units: &pos.units,
            orders: &moves,
            retreats: &retreats,
            owners: &pos.owners,
            garrisons: &garrisons,
            friendly: &friendly,
            permits: &permits,
        },
    );
    let mut next = pos.clone();
    next.units = turn.units_after.clone();
    next.dislodged = Vec::new();
    next.state.garrisons = turn.garrisons_after.iter().map(|(p, _)| *p).collect();
    next.state.friendly = map
        .power_ids()
        .map(|pw| {
            map.province_ids()
                .filter(|p| {
                    turn.friendly_after[p.index()] == Some(pw)
                        && map.province(*p).terrain == crate::map::Terrain::Coast
                })
                .collect()
        })
        .collect();
    // Centres change hands where land units stand (fleets hold none);
    // then rule 9: units with no line of supply are disbanded.
    take_centres(v, &mut next);
    let out_of_supply = crate::game::supply::out_of_supply(
        v,
        &next,
        &next.state.garrisons,
        &v.features.mountains,
        &permits,
    );
    for u in &out_of_supply {
        if let Some(i) = next.units.iter().position(|x| x == u) {
            next.units.remove(i);
        }
    }
    let before_builds = next.units.clone();
    let adjustments = judge_adjustments(v, &next, &adjust);
    next.units = adjustments.units_after.clone();
    let after = advance(v, next);
    (
        PhaseResult::Turn(Box::new(TurnResult {
            turn,
            out_of_supply,
            adjustments,
            before_builds,
        })),
        after,
    )
}

/// Units that came back from a box with a bonus (Ard-Ri's raiders) count
/// one centre each for their power at the next adjustment.
fn record_box_exits(v: &Variant, units: &[Unit], r: &MovementResult, state: &mut RuleState) {
    for (u, res) in units.iter().zip(&r.units) {
        let from_bonus_box = v
            .features
            .box_at(v.map.province_of(u.region))
            .is_some_and(|b| b.exit_bonus);
        if from_bonus_box
            && matches!(res.command, Resolved::Move { .. })
            && res.outcome == Outcome::Moved
            && let Some(b) = state.bonus.get_mut(u.power)
        {
            *b += 1;
        }
    }
}

/// Move `pos` (whose phase is the one just played) on to the next phase in
/// which somebody has a choice.
pub fn advance(v: &Variant, mut pos: Position) -> Position {
    // What arrived on the way into the phase just played is old news.
    pos.state.arrived.clear();
    pos.state.blocked.clear();
    pos.state.exchanged.clear();
    let mut q = v.calendar.next(pos.phase);
    // The placement opens the game: the rest of its season is skipped
    // (units kept back are built in a later build season).
    if pos.phase.kind == PhaseKind::Placement {
        while q.season == pos.phase.season && q.year == pos.phase.year {
            q = v.calendar.next(q);
        }
    }
    // A calendar of any length comes round within a few years.
    for _ in 0..(v.calendar.seasons.len() * 4 + 8) {
        match q.kind {
            PhaseKind::Retreat if pos.dislodged.is_empty() => {}
            PhaseKind::Retreat => break,
            // Placement happens once, at the start.
            PhaseKind::Placement => {}
            PhaseKind::Adjustment => {
                take_centres(v, &mut pos);
                start_grace(v, &mut pos);
                if due(v, &pos).iter().any(|&d| d != 0) {
                    break;
                }
                // Skipped: a bonus for it is spent all the same.
                pos.state.bonus.values_mut().for_each(|b| *b = 0);
            }
            _ => break,
        }
        q = v.calendar.next(q);
    }
    pos.phase = q;
    if q.kind == PhaseKind::Movement {
        place_arrivals(v, &mut pos);
    }
    pos
}

/// Units built off the board whose season has come are placed before its
/// moves, each where it was built if nobody stands there; otherwise it is
/// lost (Ard-Ri rule 7c).
fn place_arrivals(v: &Variant, pos: &mut Position) {
    let due = |u: &Unit| {
        v.features
            .reserve_of(u.power)
            .is_some_and(|r| r.arrive.is_none_or(|s| s == pos.phase.season))
    };
    let (now, later): (Vec<Unit>, Vec<Unit>) = std::mem::take(&mut pos.state.pending)
        .into_iter()
        .partition(|u| due(u));
    pos.state.pending = later;
    for u in now {
        let p = v.map.province_of(u.region);
        let free = !pos.units.iter().any(|x| v.map.province_of(x.region) == p);
        if free {
            pos.units.push(u);
        }
        if free {
            pos.state.arrived.push(u);
        } else {
            pos.state.blocked.push(u);
        }
    }
}

/// Each supply centre with a unit on it now belongs to the unit's power.
/// Where the variant makes a power's first captures build sites, the
/// centres it takes are remembered in order.
pub fn take_centres(v: &Variant, pos: &mut Position) {
    // Where fleets stand beside armies (1700 AD II), they hold no centre.
    let fleets_hold = !v.map.stacking().fleets_beside_armies;
    for u in &pos.units {
        if u.kind == crate::map::UnitKind::Fleet && !fleets_hold {
            continue;
        }
        let p = v.map.province_of(u.region);
        if !v.map.province(p).supply_centre || pos.owners[p.index()] == Some(u.power) {
            continue;
        }
        pos.owners[p.index()] = Some(u.power);
        // Where holding a centre long enough matters (1700 AD II rule 10a),
        // note since when.
        if v.features.builds.sites.iter().any(|s| s.1 == p && s.3 > 0) {
            for list in pos.state.held_since.values_mut() {
                list.retain(|(q, _)| *q != p);
            }
            if let Some(list) = pos.state.held_since.get_mut(u.power) {
                list.push((p, pos.phase.year));
            }
        }
        // A centre gained on the board costs one held off it.
        if v.features
            .reserve_of(u.power)
            .is_some_and(|r| r.lose_on_gain)
            && let Some(r) = pos.state.reserve.get_mut(u.power)
        {
            *r = r.saturating_sub(1);
        }
        let counts = v
            .features
            .builds
            .captures
            .iter()
            .any(|(pw, _, _)| *pw == u.power);
        if counts
            && let Some(list) = pos.state.captures.get_mut(u.power)
            && !list.contains(&p)
        {
            list.push(p);
        }
    }
}
