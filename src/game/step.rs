//! Playing one phase: orders in, results and the next position out.
//!
//! Between phases the calendar decides what comes next, with two rules of
//! the judge: a retreat phase in which nobody was dislodged, and an
//! adjustment phase in which nobody owes or is owed a unit, are skipped
//! (nobody has a choice to make); and centres change hands on the way into
//! an adjustment phase, when the units standing on them take them.

use crate::adjudicate::adjust::{adjudicate_adjustments_with, adjustments_due_with};
use crate::adjudicate::movement::adjudicate_movement_in;
use crate::adjudicate::{
    AdjustResult, MovementResult, RetreatResult, RetreatSituation, adjudicate_retreats,
};
use crate::game::Position;
use crate::map::{ProvinceId, Unit};
use crate::orders::{AdjustOrder, MainOrder, RetreatOrder};
use crate::rules::Anarchy;
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
                    .filter(|x| !crate::rules::anarchy::silenced(pos, x.power))
                    .cloned()
                    .collect();
                &heard
            } else {
                o
            };
            let r = judge_movement(v, pos, o);
            let mut state = pos.state.clone();
            crate::rules::boxes::record_exits(v, &pos.units, &r, &mut state);
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
            crate::rules::waiting::after_move(v, pos, o, &r, &mut next);
            if v.features.laden() {
                crate::rules::army_fleet::board_retreats(v, &r, &pos.units, &mut next);
            }
            crate::rules::anarchy::end_grace(v, &mut next);
            let settled = crate::rules::boxes::settle(v, pos.phase, &mut next);
            // Centres exchanged at the end of the move (Abstraction II).
            let (exchanged, unmade) = crate::game::exchange::carry_out(v, &mut next);
            let mut after = advance(v, next);
            after.state.exchanged = exchanged;
            after.state.unmade = unmade;
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
                crate::rules::army_fleet::settle(v, &mut units);
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
                .filter(|x| !crate::rules::anarchy::silenced(pos, x.power))
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

/// The movement judge with the variant's features, in `pos`'s phase.
pub fn judge_movement(v: &Variant, pos: &Position, orders: &[MainOrder]) -> MovementResult {
    if let Some(r) = crate::rules::waiting::judge(v, &v.rules, &ruled(v, pos), pos, orders) {
        return r;
    }
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

/// Why each build in `orders` would be refused in `pos`, builds due or
/// not: what the reply to a yearly order sheet warns of (1700 AD II).
pub fn build_refusals(
    v: &Variant,
    pos: &Position,
    orders: &[AdjustOrder],
) -> Vec<Option<crate::adjudicate::Illegal>> {
    crate::adjudicate::adjust::build_refusals(
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

/// Move `pos` (whose phase is the one just played) on to the next phase in
/// which somebody has a choice.
pub fn advance(v: &Variant, mut pos: Position) -> Position {
    // What arrived on the way into the phase just played is old news.
    pos.state.arrived.clear();
    pos.state.blocked.clear();
    pos.state.exchanged.clear();
    pos.state.unmade.clear();
    for n in pos.state.nominated.values_mut() {
        n.clear();
    }
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
                crate::rules::anarchy::start_grace(v, &mut pos);
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
        crate::rules::reserve::place_arrivals(v, &mut pos);
    }
    pos
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
    } // A retaken home centre takes back the place of a nomination (1066
    // rule 6: never more home centres than the limit).
    crate::rules::nominations::lapse(v, pos);
}
