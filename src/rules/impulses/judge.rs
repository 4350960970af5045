//! 1700 AD II's yearly turn (rules 4, 5 and 7) as rounds of the standard
//! movement judge: every unit has two impulses (a leader three), each an
//! action of standard Diplomacy; first impulses are judged together, then
//! second impulses, from where the first left each unit.
//!
//! - `(x2)`: a unit spends both impulses on one move or support at double
//!   strength, in the first round; a double support of a move counts
//!   double only for a double move (rule 4: "a double strength support for
//!   a single impulse move ... would only count as a single support"), a
//!   double support of a hold always. "All attacks and supports for the
//!   whole turn are added up": a later impulse bearing on the province of
//!   a double action is brought into the first round, when the unit giving
//!   it still stands where it started; from a unit that moved (or acted)
//!   first, a later support or attack is judged in the first round from
//!   where that first impulse leaves it (`Late`, `LateAttack`). A unit
//!   giving a double support is in the conflict for both impulses: an
//!   attack on it in either cuts its support.
//! - A leader whose move fails holds with one, as he always holds (rule 7).
//! - Leaders (rule 7) move and support with triple strength; their second
//!   and third impulses are simultaneous with everybody's second: both go
//!   in the second round (a hold and an action as the action, two moves as
//!   one move through the first province), or, with `(x2)`, the two
//!   together as one double action there. Only a support with a move,
//!   which the judge cannot give one unit at once, leaves the third for
//!   straight after the second round.
//! - Later impulses that no longer make sense become stand orders (rule
//!   4): every one of a unit that was dislodged; the later moves of a unit
//!   whose move failed, for they set out from where it did not get. A
//!   hold, support or convoy of a unit whose move failed is given from
//!   where it stands, and counts (`Standing`). The results print the void
//!   ones as such.
//! - Retreats come after the round of the attack, or after the turn for a
//!   unit dislodged by a double-strength attack, which is off the board
//!   until then (rule 5: "executed after the impulse (or turn, in double
//!   impulse conflicts) of the attack"): the player's
//!   retreat order from the sheet if it fits, else the GM's rule: toward
//!   the nearest supply centre the power controls, home centres first, then
//!   alphabetically; a unit that cannot get closer is disbanded. A leader is
//!   never disbanded for want of an order: he goes to the best free place
//!   all the same, and displaces a friendly army only when none is free.
//!
//! - Fleets (rule 8) are judged apart, for they exert no influence on land
//!   units: each power's fleets in one province are one stack with the
//!   strength of its fleets (two at most in a coastal province, any number
//!   at sea), entering only friendly coastal provinces, friendly as the
//!   armies come and go impulse by impulse; own stacks sailing into the
//!   same space join there. Convoying stacks stand by for the land round
//!   and carry as many strength points as they have fleets.
//! - Armed neutral centres (rule 10b) defend themselves with their
//!   strength, supportable by any power, until first occupied;
//!   Switzerland (rule 10c) takes both impulses to cross at single
//!   strength, and a unit staying there defends double.

use crate::adjudicate::Illegal;
use crate::adjudicate::movement::{
    Aboard, MovementResult, OrderIndex, Outcome, Prepared, Resolved, adjudicate_movement_prepared,
};
use crate::adjudicate::questions::RuleQuestions;
use crate::adjudicate::rulebook::Rulebook;
use crate::calendar::Phase;
use crate::map::{Map, PowerId, ProvinceId, RegionId, Unit, UnitKind};
use crate::orders::{MainCommand, MainOrder, Place, RetreatCommand, RetreatOrder, Step, UnitRef};

/// One round of a turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    /// The board at its start.
    pub board: Vec<Unit>,
    /// The orders judged, each with the index of the sheet order it came
    /// from.
    pub orders: Vec<(MainOrder, usize)>,
    /// The judge's result.
    pub result: MovementResult,
    /// Dislodged units and where each went (`None`: disbanded).
    pub retreats: Vec<(Unit, Option<RegionId>)>,
    /// Why some of them went elsewhere than ordered, or nowhere: the
    /// results print it after the retreat.
    pub notes: Vec<(Unit, RetreatNote)>,
    /// The orders (indexes into `orders`) given at double strength.
    pub doubled: Vec<usize>,
    /// The impulses of this round not judged, each with its sheet order,
    /// because they no longer make sense (rule 4, [`Standing`]): the unit
    /// was dislodged, or it is a move of a unit whose earlier move failed.
    /// The results print them as void.
    pub voided: Vec<(MainOrder, usize)>,
    /// The orders (indexes into `orders`) given to a stack of more than
    /// one fleet, with how many fleets it holds: the results print them
    /// as the sheet writes them, `2F(Sca)-COS` (rule 6).
    pub stacked: Vec<(usize, u32)>,
    /// Likewise for `voided`.
    pub stacked_voided: Vec<(usize, u32)>,
}

/// A whole turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// The rounds of the land game, in order.
    pub rounds: Vec<Round>,
    /// The rounds of the sea game (fleet stacks), in order.
    pub sea_rounds: Vec<Round>,
    /// Per sheet order: `None` if it was used, else why not.
    pub orders: Vec<Option<Illegal>>,
    /// The board after the moves and retreats.
    pub units_after: Vec<Unit>,
    /// The armed neutrals still unoccupied, with their strength.
    pub garrisons_after: Vec<(ProvinceId, u32)>,
    /// Per province, the power it is friendly to after the turn.
    pub friendly_after: Vec<Option<PowerId>>,
    /// Fleets that had to leave a coast no longer friendly at the end of
    /// the turn (rule 8: an enemy army took it, or the ally revoked his
    /// permission), and where each went (`None`: lost).
    pub forced_out: Vec<(Unit, Option<RegionId>)>,
}

/// What each unit does in each round.
struct Plan {
    /// The unit's steps, one per round (leaders: a third round).
    steps: Vec<Option<(Step, bool)>>,
    /// The sheet order.
    order: usize,
    /// A leader moving in both his second and third impulses: the province
    /// his second-round move passes through (rule 7: both are simultaneous
    /// with everybody's second impulse).
    through: Option<ProvinceId>,
    /// The impulse a step judged in the first round was written for, when
    /// it was brought in from a later one to join a double-strength
    /// conflict (rule 4): the results show it as written, `A(Sar)-hold-S
    /// A(WPr)-BPr`.
    pulled_from: usize,
}

/// The plan for one order: the steps of each round, with their double
/// mark, and the province a leader's second-round move passes through.
type Steps = (Vec<Option<(Step, bool)>>, Option<ProvinceId>);

/// The plan for one order (see [`Steps`]).
fn plan(kind: UnitKind, command: &MainCommand) -> Result<Steps, Illegal> {
    let (steps, double): (Vec<Step>, bool) = match command {
        MainCommand::Impulses { steps, double, .. } => (steps.clone(), *double),
        MainCommand::Hold => (vec![Step::Hold], false),
        MainCommand::Move { to, route, .. } => {
            // A route written out is a move an impulse at a time.
            let mut s: Vec<Step> = route
                .iter()
                .map(|p| Step::Move(Place::province(*p)))
                .collect();
            s.push(Step::Move(*to));
            (s, false)
        }
        MainCommand::SupportHold { unit } => (vec![Step::SupportHold(*unit)], false),
        MainCommand::SupportMove { unit, to } => (vec![Step::SupportMove(*unit, *to)], false),
        MainCommand::Convoy { unit, to } => (vec![Step::Convoy(*unit, *to)], false),
        _ => return Err(Illegal::NotInThisGame),
    };
    let leader = kind == UnitKind::Leader;
    let mut out: Vec<Option<(Step, bool)>> = vec![None; 3];
    match (leader, double, steps.len()) {
        // One action at double strength with every impulse it has.
        (false, true, 1) => out[0] = Some((steps[0].clone(), true)),
        (false, true, _) => return Err(Illegal::TooManyImpulses),
        (false, false, n) if n <= 2 => {
            for (i, s) in steps.into_iter().enumerate() {
                out[i] = Some((s, false));
            }
        }
        (true, true, 1) => out[0] = Some((steps[0].clone(), true)),
        // A first impulse, then the second and third as one double action.
        (true, true, 2) => {
            out[0] = Some((steps[0].clone(), false));
            out[1] = Some((steps[1].clone(), true));
        }
        // A leader's second and third impulses are simultaneous with
        // everybody's second (rule 7): both go in the second round, as one
        // action where one of them is a hold, as one move through the
        // first province where both are moves.
        (true, false, 3) => {
            let mut steps = steps.into_iter();
            let (Some(first), Some(second), Some(third)) =
                (steps.next(), steps.next(), steps.next())
            else {
                return Err(Illegal::TooManyImpulses);
            };
            out[0] = Some((first, false));
            match (second, third) {
                (Step::Hold, s) | (s, Step::Hold) => out[1] = Some((s, false)),
                (Step::Move(a), Step::Move(b)) => {
                    out[1] = Some((Step::Move(b), false));
                    return Ok((out, Some(a.province)));
                }
                // Two actions that the judge cannot give one unit at once
                // (a support and a move): the third comes straight after
                // the second round, the others standing.
                (second, third) => {
                    out[1] = Some((second, false));
                    out[2] = Some((third, false));
                }
            }
        }
        (true, false, n) if n <= 3 => {
            for (i, s) in steps.into_iter().enumerate() {
                out[i] = Some((s, false));
            }
        }
        _ => return Err(Illegal::TooManyImpulses),
    }
    Ok((out, None))
}

/// Rule 4: "when a unit is using its double strength capability, all
/// attacks and supports for the whole turn are added up and compared to
/// all holds/attacks and supports". The first round judges each land
/// unit's double action; a later impulse that bears on the province it is
/// about (a move into it, a support of a move into it or of the unit
/// holding it) is brought into that round, when the unit giving it is
/// still where it started (its earlier impulses were holds): the conflict
/// is then judged once, with everything the turn brings to it.
fn sum_double_conflicts(
    map: &Map,
    units: &[Unit],
    plans: &mut [Option<Plan>],
) -> (Vec<Late>, Vec<LateAttack>) {
    let land = |k: usize| units[k].kind != UnitKind::Fleet;
    // The provinces of double actions, with the power of a double move
    // into one.
    let mut contested: Vec<(ProvinceId, Option<PowerId>)> = Vec::new();
    for (k, p) in plans.iter().enumerate().filter(|(k, _)| land(*k)) {
        let Some((step, true)) = p.as_ref().and_then(|p| p.steps[0].as_ref()) else {
            continue;
        };
        contested.push(match step {
            Step::Move(to) => (to.province, Some(units[k].power)),
            Step::SupportMove(_, to) => (to.province, None),
            Step::SupportHold(t) => (t.at.province, None),
            Step::Hold | Step::Convoy(..) => (map.province_of(units[k].region), None),
        });
        // A double support takes both the unit's impulses, and a support
        // is cut as in regular Diplomacy (rule 4: "all unit capabilities
        // ... remain the same"): an attack on its giver in either impulse
        // is one of the conflict's, judged with it.
        if matches!(step, Step::SupportMove(..) | Step::SupportHold(_)) {
            contested.push((map.province_of(units[k].region), None));
        }
    }
    if contested.is_empty() {
        return (Vec::new(), Vec::new());
    }
    // A later support of the unit in a province its own power attacks at
    // double strength is for its own army there once the attack is over,
    // not for the defender: it is left in its impulse.
    let bears = |step: &Step, power: PowerId| match step {
        Step::Move(to) | Step::SupportMove(_, to) => {
            contested.iter().any(|(p, _)| *p == to.province)
        }
        Step::SupportHold(t) => contested
            .iter()
            .any(|(p, by)| *p == t.at.province && *by != Some(power)),
        Step::Hold | Step::Convoy(..) => false,
    };
    for (k, p) in plans.iter_mut().enumerate() {
        let Some(p) = p.as_mut().filter(|_| land(k)) else {
            continue;
        };
        // The first impulse that is not a hold, if it comes later.
        let Some(r) = p
            .steps
            .iter()
            .position(|s| !matches!(s, None | Some((Step::Hold, false))))
        else {
            continue;
        };
        let later = r > 0 && !(r == 1 && p.through.is_some());
        if later
            && p.steps[r]
                .as_ref()
                .is_some_and(|(s, d)| !d && bears(s, units[k].power))
        {
            p.steps[0] = p.steps[r].take();
            p.pulled_from = r;
        }
    }
    // The rest of "all ... supports for the whole turn": a support bearing
    // on the conflict in a later impulse of a unit that did something else
    // in its first (moved, supported elsewhere) is counted in the first
    // round from where that first impulse leaves the unit (see
    // [`count_late_supports`]), and shown in its own impulse.
    //
    // And "all attacks": a later move into the province from a unit that
    // did something else first is an attack of the conflict too, judged
    // in the first round from where that first impulse leaves the unit
    // (see [`LateAttack`]). Not its own power's follow-up of its double
    // move, which no longer makes sense once that move is made (rule 4:
    // such orders "become stand orders"), and is judged in its impulse.
    let mut late = Vec::new();
    let mut attacks = Vec::new();
    for (k, p) in plans.iter().enumerate().filter(|(k, _)| land(*k)) {
        let Some(p) = p.as_ref().filter(|p| p.through.is_none()) else {
            continue;
        };
        if !matches!(&p.steps[0], Some((s, false)) if *s != Step::Hold) {
            continue;
        }
        let next =
            (1..p.steps.len()).find(|&j| !matches!(p.steps[j], None | Some((Step::Hold, false))));
        let Some(j) = next else {
            continue;
        };
        match &p.steps[j] {
            Some((s @ (Step::SupportMove(..) | Step::SupportHold(_)), false))
                if bears(s, units[k].power) =>
            {
                late.push(Late {
                    unit: k,
                    round: j,
                    fate: None,
                });
            }
            Some((Step::Move(to), false))
                if contested
                    .iter()
                    .any(|(c, by)| *c == to.province && *by != Some(units[k].power)) =>
            {
                attacks.push(LateAttack {
                    unit: k,
                    round: j,
                    to: to.province,
                    won: None,
                });
            }
            _ => {}
        }
    }
    (late, attacks)
}

/// A later impulse's move into the province of a double-strength
/// conflict, from a unit that did something else in its first impulse
/// (rule 4: "all attacks and supports for the whole turn are added up and
/// compared to all holds/attacks and supports with the greatest number
/// succeeding"). The first round judges it with the conflict, as an
/// attack from where the unit's first impulse leaves it; in its own
/// impulse it then bounces if the conflict went against it, or is made.
#[derive(Debug, Clone, Copy)]
struct LateAttack {
    /// The attacking unit's plan index.
    unit: usize,
    /// The impulse (round) it is written for.
    round: usize,
    /// The province attacked.
    to: ProvinceId,
    /// Whether it won the conflict, once the first round is judged.
    won: Option<bool>,
}

/// A later impulse's support bearing on a double-strength conflict, from a
/// unit that did something else in its first impulse (rule 4: "all
/// attacks and supports for the whole turn are added up").
#[derive(Debug, Clone, Copy)]
struct Late {
    /// The supporting unit's plan index.
    unit: usize,
    /// The impulse (round) it is written for.
    round: usize,
    /// What became of it, once the first round is judged.
    fate: Option<LateFate>,
}

/// What became of a [`Late`] support.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LateFate {
    /// Added to the conflict.
    Counted,
    /// Cut in its impulse by the unit with this plan index.
    Cut(usize),
    /// The supported unit does not make that move (or hold).
    Void,
    /// Refused, with the reason.
    Refused(Illegal),
}

/// The judge's order for `u` taking `step` from where it stands.
fn order_of(map: &Map, u: &Unit, step: &Step) -> MainOrder {
    MainOrder {
        power: u.power,
        unit: UnitRef {
            kind: Some(u.kind),
            at: Place::of_region(map, u.region),
        },
        command: command_of(step),
    }
}

fn command_of(step: &Step) -> MainCommand {
    match step {
        Step::Hold => MainCommand::Hold,
        Step::Move(to) => MainCommand::Move {
            to: *to,
            via_convoy: false,
            route: Vec::new(),
        },
        Step::SupportHold(u) => MainCommand::SupportHold { unit: *u },
        Step::SupportMove(u, to) => MainCommand::SupportMove { unit: *u, to: *to },
        Step::Convoy(u, to) => MainCommand::Convoy { unit: *u, to: *to },
    }
}

/// What a turn is judged from.
#[derive(Debug, Clone, Copy)]
pub struct TurnInput<'a> {
    /// The board.
    pub units: &'a [Unit],
    /// The moves of the order sheets.
    pub orders: &'a [MainOrder],
    /// Their retreats.
    pub retreats: &'a [RetreatOrder],
    /// Who controls each centre, for the GM's retreats.
    pub owners: &'a [Option<PowerId>],
    /// Armed neutral centres still unoccupied, with their strength (rule
    /// 10b).
    pub garrisons: &'a [(ProvinceId, u32)],
    /// Per province, the power it is friendly to (rule 8: last occupied by
    /// its army, or its own and not occupied since): where that power's
    /// fleets may go.
    pub friendly: &'a [Option<PowerId>],
    /// Pairs (owner, power): the owner lets the power's fleets into its
    /// provinces (rule 8's "allied ... with the permission").
    pub permits: &'a [(PowerId, PowerId)],
}

/// The power the armed neutrals' garrisons stand for in the judge: nobody's.
pub(crate) const NEUTRAL: PowerId = PowerId(u8::MAX);

/// Judge a turn of 1700 AD II.
pub fn adjudicate_turn(
    map: &Map,
    rules: &Rulebook,
    q: &dyn RuleQuestions,
    phase: Option<Phase>,
    input: TurnInput<'_>,
) -> Turn {
    let TurnInput {
        units,
        orders,
        retreats: retreat_orders,
        owners,
        garrisons,
        friendly,
        permits,
    } = input;
    let (mut plans, verdicts) = plan_orders(map, units, orders);
    let (late, late_attacks) = sum_double_conflicts(map, units, &mut plans);
    let mut t = Judging {
        map,
        rules,
        q,
        phase,
        retreat_orders,
        owners,
        permits,
        friendly_now: friendly.to_vec(),
        garrisons: garrisons.to_vec(),
        verdicts,
        plans,
        stands: vec![Standing::Free; units.len()],
        deferred: Vec::new(),
        late,
        late_attacks,
    };

    // The units, followed through the rounds: (unit, its plan index); the
    // land units and the fleets apart, for fleets exert no influence on
    // land units (rule 8).
    let all: Vec<(Unit, usize)> = units.iter().copied().zip(0..).collect();
    let mut board: Vec<(Unit, usize)> = all
        .iter()
        .copied()
        .filter(|(u, _)| u.kind != UnitKind::Fleet)
        .collect();
    let mut fleets: Vec<(Unit, usize)> = all
        .into_iter()
        .filter(|(u, _)| u.kind == UnitKind::Fleet)
        .collect();
    let mut rounds = Vec::new();
    let mut sea_rounds = Vec::new();
    for round in 0..3 {
        let plans = &t.plans;
        let acts = |k: usize| plans[k].as_ref().is_some_and(|p| p.steps[round].is_some());
        let waiting = t.deferred.iter().flat_map(|(d, _, _)| d);
        let waits = waiting.map(|(u, k, _, _)| (*u, *k)).collect::<Vec<_>>();
        if round > 0
            && !board
                .iter()
                .chain(&fleets)
                .chain(&waits)
                .any(|(_, k)| acts(*k))
        {
            break;
        }
        let (friendly_now, permits) = (&t.friendly_now, t.permits);
        let may_enter = |power: PowerId, p: ProvinceId| {
            map.province(p).terrain != crate::map::Terrain::Coast
                || friendly_now[p.index()]
                    .is_some_and(|f| f == power || permits.contains(&(f, power)))
        };
        // The sea first: fleet stacks move, support and hold among
        // themselves; those that convoy stand by for the land round.
        let (sea, convoys) = sea_round(
            map,
            rules,
            q,
            phase,
            round,
            &t.plans,
            &mut fleets,
            &mut t.verdicts,
            &mut t.stands,
            &may_enter,
            owners,
        );
        sea_rounds.push(sea);
        let (land, next) = land_round(&mut t, round, &board, &convoys);
        rounds.push(land);
        for (u, _) in &next {
            t.friendly_now[map.province_of(u.region).index()] = Some(u.power);
        }
        board = next;
    }
    // The retreats of double-strength conflicts, once the turn is over
    // (rule 5), listed with the round of the attack.
    for (dislodged, contested, round) in std::mem::take(&mut t.deferred) {
        let mut notes = Vec::new();
        let retreats = land_retreats(&t, &mut board, dislodged, &contested, &mut notes);
        for (u, to) in &retreats {
            if let Some(r) = to {
                t.friendly_now[map.province_of(*r).index()] = Some(u.power);
            }
        }
        rounds[round].retreats.extend(retreats);
        rounds[round].notes.extend(notes);
    }
    let mut garrisons = t.garrisons;
    garrisons.retain(|(p, _)| !board.iter().any(|(u, _)| map.province_of(u.region) == *p));
    // A province is friendly to the power whose army last stood in it.
    let friendly_after = t.friendly_now;
    let (kept, forced_out) = force_out_fleets(
        map,
        fleets,
        &friendly_after,
        permits,
        owners,
        retreat_orders,
    );
    let mut units_after: Vec<Unit> = board.into_iter().map(|(u, _)| u).collect();
    units_after.extend(kept.into_iter().map(|(u, _)| u));
    Turn {
        rounds,
        sea_rounds,
        orders: t.verdicts,
        units_after,
        garrisons_after: garrisons,
        friendly_after,
        forced_out,
    }
}

/// A turn being judged: what it is judged from, and what it carries from
/// round to round.
struct Judging<'a> {
    map: &'a Map,
    rules: &'a Rulebook,
    q: &'a dyn RuleQuestions,
    phase: Option<Phase>,
    /// The sheets' retreats.
    retreat_orders: &'a [RetreatOrder],
    /// Who controls each centre, for the GM's retreats.
    owners: &'a [Option<PowerId>],
    /// Pairs (owner, power) of rule 8's permissions.
    permits: &'a [(PowerId, PowerId)],
    /// Rule 8: a coast is friendly to the power whose army last occupied
    /// it, impulse by impulse: an army arriving in one impulse lets its
    /// fleets in the next, and one passing through leaves it friendly.
    friendly_now: Vec<Option<PowerId>>,
    /// The armed neutrals still unoccupied (rule 10b).
    garrisons: Vec<(ProvinceId, u32)>,
    /// Per sheet order: `None` if it was used, else why not.
    verdicts: Vec<Option<Illegal>>,
    /// Each unit's plan, by its index in the board.
    plans: Vec<Option<Plan>>,
    /// Per unit (by its index in `units`), which of its later impulses
    /// no longer make sense (rule 4: they "become stand orders").
    stands: Vec<Standing>,
    /// The units dislodged in a double-strength conflict, whose retreats
    /// wait for the end of the turn (rule 5: "executed after the impulse
    /// (or turn, in double impulse conflicts) of the attack"), with the
    /// standoffs of their round and the round's index.
    deferred: Vec<(Vec<Dislodged>, Vec<ProvinceId>, usize)>,
    /// Later impulses' supports of the first round's double-strength
    /// conflicts, from units that acted in their first impulse (rule 4).
    late: Vec<Late>,
    /// Likewise their later attacks (rule 4).
    late_attacks: Vec<LateAttack>,
}

/// Which later impulses of a unit still make sense after its earlier ones
/// (rule 4: "second impulse orders which do not make sense because of
/// first impulse conflicts become stand orders"). Ordered: a unit only
/// ever goes down the list.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
enum Standing {
    /// Every impulse is judged as written.
    #[default]
    Free,
    /// A move of its failed: its later moves set out from where it did not
    /// get, and become stand orders; a hold, support or convoy is still
    /// given from where it stands, and counts.
    MoveFailed,
    /// It was dislodged (and retreated, or waits to at the turn's end):
    /// every later impulse becomes a stand order.
    Dislodged,
}

impl Standing {
    /// Whether `step`, a later impulse of the unit, becomes a stand order.
    fn voids(self, step: &Step) -> bool {
        match self {
            Standing::Free => false,
            Standing::MoveFailed => matches!(step, Step::Move(_)),
            Standing::Dislodged => true,
        }
    }

    /// Mark the unit `now` (a unit never goes back up the list).
    fn mark(&mut self, now: Standing) {
        *self = (*self).max(now);
    }
}

/// A unit dislodged in a round: the unit, its plan index, the places it
/// may retreat to, and the province it was attacked from.
type Dislodged = (Unit, usize, Vec<RegionId>, ProvinceId);

/// Each unit's plan from the sheets' moves (by its index in `units`; the
/// last order wins), and each order refused with its reason.
fn plan_orders(
    map: &Map,
    units: &[Unit],
    orders: &[MainOrder],
) -> (Vec<Option<Plan>>, Vec<Option<Illegal>>) {
    let mut verdicts: Vec<Option<Illegal>> = vec![None; orders.len()];
    let mut plans: Vec<Option<Plan>> = (0..units.len()).map(|_| None).collect();
    for (i, o) in orders.iter().enumerate() {
        // Fleets share provinces with armies (rule 8): the order's kind,
        // or a stack mark, says which layer it is for.
        let wants_fleet = o.unit.kind == Some(UnitKind::Fleet)
            || matches!(o.command, MainCommand::Impulses { stack, .. } if stack > 1);
        let here = |x: &Unit| map.province_of(x.region) == o.unit.at.province;
        let layer = |x: &Unit| here(x) && (x.kind == UnitKind::Fleet) == wants_fleet;
        // The power's own unit first: fleets of several powers share a sea.
        let Some(u) = units
            .iter()
            .position(|x| layer(x) && x.power == o.power)
            .or_else(|| units.iter().position(layer))
            .or_else(|| units.iter().position(here))
        else {
            verdicts[i] = Some(Illegal::NoUnit);
            continue;
        };
        if units[u].power != o.power {
            verdicts[i] = Some(Illegal::ForeignUnit(units[u].power));
            continue;
        }
        // Stacked fleets are separate fleets (rule 8): an order moves as
        // many of the power's fleets there as it names (`2F`), those no
        // earlier order moves first; with none left, it replaces.
        let chosen: Vec<usize> = if units[u].kind == UnitKind::Fleet {
            let same = |x: &Unit| here(x) && x.kind == UnitKind::Fleet && x.power == o.power;
            let mine: Vec<usize> = (0..units.len()).filter(|&x| same(&units[x])).collect();
            let want = match o.command {
                MainCommand::Impulses { stack, .. } => usize::from(stack.max(1)),
                _ => 1,
            };
            let free: Vec<usize> = mine
                .iter()
                .copied()
                .filter(|&x| plans[x].is_none())
                .collect();
            if free.len() >= want {
                free[..want].to_vec()
            } else {
                mine.into_iter().take(want).collect()
            }
        } else {
            vec![u]
        };
        match plan(units[u].kind, &o.command) {
            Err(e) => verdicts[i] = Some(e),
            Ok((steps, through)) => {
                let mut replaced = Vec::new();
                for &x in &chosen {
                    if let Some(prev) = plans[x].take() {
                        replaced.push(prev.order);
                    }
                    plans[x] = Some(Plan {
                        steps: steps.clone(),
                        order: i,
                        through,
                        pulled_from: 0,
                    });
                }
                for prev in replaced {
                    if !plans.iter().flatten().any(|p| p.order == prev) {
                        verdicts[prev] = Some(Illegal::Replaced);
                    }
                }
            }
        }
    }
    (plans, verdicts)
}

/// The judge's orders of a land round, and what goes with them.
#[derive(Default)]
struct LandOrders {
    /// The orders, each with its sheet order.
    judge_orders: Vec<(MainOrder, usize)>,
    /// The orders given at double strength.
    doubled: Vec<usize>,
    /// The convoys of stacks of more than one fleet, with their size.
    stacked: Vec<(usize, u32)>,
    /// The strengths, ferries and needs the judge is given.
    prep: Prepared,
    /// The units (on the board) meaning to move this round: if they do
    /// not arrive, they stand for the rest of the turn.
    meant_move: Vec<usize>,
    /// Orders shown otherwise than the judge is given them: (judge order,
    /// the command shown). A leader moving twice in this round is judged
    /// as a ferried army and shown as his move; an impulse brought in from
    /// a later one is shown as written (`A(Sar)-hold-S A(WPr)-BPr`).
    shown: Vec<(usize, MainCommand)>,
    /// Later supports of a double-strength conflict given in this round
    /// (see [`Late`]): the judge holds them, the results show the support
    /// and what became of it.
    late_shown: Vec<(usize, LateFate)>,
    /// Later attacks that lost their double-strength conflict in the
    /// first round (see [`LateAttack`]), given in this round: the judge
    /// holds them, the results show the move bounced, with the unit that
    /// then stands in the province attacked (`None`: nobody).
    late_lost: Vec<(usize, Option<usize>)>,
    /// Orders refused before the judge (it holds their units), with the
    /// reason the results print.
    refused: Vec<(usize, Illegal)>,
}

/// One round of the land game: the acting units' impulses (the convoying
/// stacks `convoys` carrying), judged together, then the retreats.
/// Returns the round and the board after it.
fn land_round(
    t: &mut Judging<'_>,
    round: usize,
    board: &[(Unit, usize)],
    convoys: &[ConvoyStack],
) -> (Round, Vec<(Unit, usize)>) {
    let map = t.map;
    let acts = |k: usize| {
        t.plans[k]
            .as_ref()
            .is_some_and(|p| p.steps[round].is_some())
    };
    // An impulse that no longer makes sense after the unit's earlier ones.
    let voided_step = |k: usize| {
        t.plans[k]
            .as_ref()
            .and_then(|p| p.steps[round].as_ref())
            .is_some_and(|(s, _)| t.stands[k].voids(s))
    };
    // The impulses of standing units are void, and the results say so.
    // So are those of units waiting to retreat at the turn's end (rule 5).
    let mut voided: Vec<(MainOrder, usize)> = Vec::new();
    let waiting: Vec<(Unit, usize)> = t
        .deferred
        .iter()
        .flat_map(|(d, _, _)| d.iter().map(|(u, k, _, _)| (*u, *k)))
        .collect();
    for &(u, k) in board
        .iter()
        .chain(&waiting)
        .filter(|(_, k)| acts(*k) && voided_step(*k))
    {
        let p = t.plans[k].as_ref().expect("acting units have a plan");
        let (step, _) = p.steps[round].clone().expect("acting");
        voided.push((order_of(map, &u, &step), p.order));
    }
    let acting: Vec<usize> = (0..board.len())
        .filter(|&b| acts(board[b].1) && !voided_step(board[b].1))
        .collect();
    // Round three is the leaders' alone.
    let mut here: Vec<Unit> = board.iter().map(|(u, _)| *u).collect();
    let mut lo = LandOrders::default();
    // An armed neutral centre defends itself (rule 10b): a garrison of
    // nobody's, which any power may support, and which is lost once a
    // unit occupies the centre.
    t.garrisons
        .retain(|(p, _)| !here.iter().any(|u| map.province_of(u.region) == *p));
    for &(p, strength) in &t.garrisons {
        lo.prep.strength.push((here.len(), strength));
        here.push(Unit {
            power: NEUTRAL,
            kind: UnitKind::Army,
            region: map.province(p).main_region(),
        });
    }
    // The convoying stacks, each a fleet for the land judge, carrying
    // as many strength points as it has fleets (rule 8).
    let first_convoy = here.len();
    for c in convoys {
        here.push(c.fleet);
    }
    let double_move: Vec<bool> = (0..board.len())
        .map(|b| {
            t.plans[board[b].1]
                .as_ref()
                .and_then(|p| p.steps[round].as_ref())
                .is_some_and(|(s, d)| *d && matches!(s, Step::Move(_)))
        })
        .collect();
    for &b in &acting {
        land_order(t, round, board, &acting, &double_move, b, &mut lo);
    }
    hold_strengths(map, t.q, board, &mut lo);
    convoy_orders(map, board, convoys, &mut lo);
    let LandOrders {
        mut judge_orders,
        doubled,
        stacked,
        prep,
        meant_move,
        shown,
        late_shown,
        late_lost,
        refused,
    } = lo;
    let plain: Vec<MainOrder> = judge_orders.iter().map(|(o, _)| o.clone()).collect();
    let (mut result, attack_hit) = if round == 0 {
        let judged = Judged {
            board,
            here: &here,
            land: first_convoy,
            orders: &plain,
            prep: &prep,
        };
        judge_first_round(t, &judged, &acting, &meant_move)
    } else {
        let r = adjudicate_movement_prepared(map, t.rules, t.q, t.phase, &here, &plain, &prep);
        (r, Vec::new())
    };
    show_late_attacks(board, &late_lost, &mut result);
    for (k, shown) in shown {
        judge_orders[k].0.command = shown;
    }
    show_late_supports(board, &late_shown, &mut result);
    for (k, why) in refused {
        result.orders[k] = Some(why);
    }
    // The first round speaks for the sheet order; later rounds only
    // when the order was not already refused.
    for (k, v) in result.orders.iter().enumerate() {
        let i = judge_orders[k].1;
        if round == 0 && t.verdicts[i].is_none() {
            t.verdicts[i] = *v;
        }
    }
    let (mut next, dislodged) = land_moves(t, board, &here, &result, first_convoy, &meant_move);
    // Rule 5: a unit dislodged by a double-strength attack retreats when
    // the turn is over; until then it is off the board.
    let (later, now): (Vec<Dislodged>, Vec<Dislodged>) =
        dislodged.into_iter().partition(|(_, k, _, from)| {
            attack_hit.contains(k)
                || board
                    .iter()
                    .position(|(x, _)| map.province_of(x.region) == *from)
                    .is_some_and(|a| double_move[a])
        });
    if !later.is_empty() {
        t.deferred.push((later, result.contested.clone(), round));
    }
    let mut notes = Vec::new();
    let retreats = land_retreats(t, &mut next, now, &result.contested, &mut notes);
    (
        Round {
            board: here,
            orders: judge_orders,
            result,
            retreats,
            notes,
            doubled,
            voided,
            stacked,
            stacked_voided: Vec::new(),
        },
        next,
    )
}

/// The judge's order for acting unit `b` of the board this round, with
/// its strength: refused supports across the layers, a leader's two
/// moves, Switzerland and double strength (rules 4, 7, 8 and 10c).
fn land_order(
    t: &mut Judging<'_>,
    round: usize,
    board: &[(Unit, usize)],
    acting: &[usize],
    double_move: &[bool],
    b: usize,
    lo: &mut LandOrders,
) {
    let map = t.map;
    let (u, k) = board[b];
    let p = t.plans[k].as_ref().expect("acting units have a plan");
    let order = p.order;
    let (mut step, double) = p.steps[round].clone().expect("acting");
    // A later support already counted in its double-strength conflict
    // (rule 4): the judge holds the unit, the results show the support.
    if let Some(fate) = t
        .late
        .iter()
        .find(|l| l.unit == k && l.round == round)
        .and_then(|l| l.fate)
    {
        lo.late_shown.push((lo.judge_orders.len(), fate));
        lo.shown.push((lo.judge_orders.len(), command_of(&step)));
        lo.judge_orders
            .push((order_of(map, &u, &Step::Hold), order));
        return;
    }
    // A later attack already judged in its double-strength conflict, and
    // lost (rule 4): the unit stands, the results show the move bounced.
    if let Some(a) = t
        .late_attacks
        .iter()
        .find(|a| a.unit == k && a.round == round && a.won == Some(false))
    {
        let there = board
            .iter()
            .position(|(x, _)| map.province_of(x.region) == a.to);
        lo.meant_move.push(b);
        lo.late_lost.push((lo.judge_orders.len(), there));
        lo.shown.push((lo.judge_orders.len(), command_of(&step)));
        lo.judge_orders
            .push((order_of(map, &u, &Step::Hold), order));
        return;
    }
    // An impulse brought in from a later one is shown as written: the
    // holds before it, then it.
    if round == 0 && p.pulled_from > 0 {
        let mut steps = vec![Step::Hold; p.pulled_from];
        steps.push(step.clone());
        lo.shown.push((
            lo.judge_orders.len(),
            MainCommand::Impulses {
                stack: 1,
                steps,
                double: false,
            },
        ));
    }
    if matches!(step, Step::Move(_)) {
        lo.meant_move.push(b);
    }
    // An impulse refused here is held by the judge; the results show it as
    // written, void, with the reason.
    let written = step.clone();
    let mut refused = None;
    if let Step::SupportMove(s, _) | Step::SupportHold(s) = &step
        && supports_across(s, false)
    {
        refused = Some(Illegal::FleetsApart);
        step = Step::Hold;
    }
    let through = match (p.through.filter(|_| round == 1), &step) {
        (Some(a), Step::Move(to)) => {
            let to = *to;
            leader_through(t, round, board, acting, b, a, to, lo).or_else(|| {
                step = Step::Move(Place::province(a));
                None
            })
        }
        _ => None,
    };
    let base = u.kind.strength();
    // Mountains (Switzerland, rule 10c): any action across the
    // border takes both impulses and goes at single strength.
    let here_p = map.province_of(u.region);
    let there = match &step {
        Step::Move(to) | Step::SupportMove(_, to) => Some(to.province),
        Step::SupportHold(s) => Some(s.at.province),
        _ => None,
    };
    let crossing = there.is_some_and(|x| t.q.mountain(x) != t.q.mountain(here_p));
    if crossing {
        if !double {
            refused = Some(Illegal::MountainCrossing);
            step = Step::Hold;
        } else if matches!(step, Step::Move(_)) {
            lo.prep.strength.push((b, base));
        } else {
            lo.prep.support.push((b, base));
        }
    }
    if double && !crossing {
        match step {
            Step::Move(_) => lo.prep.strength.push((b, 2 * base)),
            Step::Hold => lo.prep.strength.push((b, 2 * holding_strength(u.kind))),
            // Rule 4 limits only the support of a single-impulse
            // move: a double support of a hold counts double.
            Step::SupportHold(_) => lo.prep.support.push((b, 2 * base)),
            Step::SupportMove(s, _) => {
                // Double only for a double move.
                let target = board
                    .iter()
                    .position(|(x, _)| map.province_of(x.region) == s.at.province);
                let doubled = target.is_some_and(|x| double_move[x]);
                lo.prep
                    .support
                    .push((b, if doubled { 2 * base } else { base }));
            }
            Step::Convoy(..) => {}
        }
    }
    if double {
        lo.doubled.push(lo.judge_orders.len());
    }
    // A unit whose move fails holds where it is, with its holding
    // strength: a leader with one (rule 7: only his moves and supports
    // are triple), a unit whose double move failed with its single one,
    // for both impulses were spent on the move (rule 4: a unit "may be
    // ordered to move one area with double strength"; rule 1: "all the
    // conventional rules of Diplomacy apply", where a unit whose move
    // failed defends alone).
    let moving = matches!(step, Step::Move(_)) || through.is_some();
    if moving && (u.kind == UnitKind::Leader || double) {
        lo.prep.held.push((b, holding_strength(u.kind)));
    }
    // The judge moves a leader passing through as it moves a
    // ferried army: his order to it is a hold, shown as the move.
    if let Some(shown) = through {
        lo.shown.push((lo.judge_orders.len(), shown));
        step = Step::Hold;
    }
    if let Some(why) = refused {
        t.verdicts[order].get_or_insert(why);
        lo.shown.push((lo.judge_orders.len(), command_of(&written)));
        lo.refused.push((lo.judge_orders.len(), why));
    }
    lo.judge_orders.push((order_of(map, &u, &step), order));
}

/// A first round as the judge was given it, for judging it again.
struct Judged<'a> {
    /// The land units, with their plan index.
    board: &'a [(Unit, usize)],
    /// The judge's units: the board, the garrisons, the convoying stacks.
    here: &'a [Unit],
    /// How many of `here` are land units and garrisons.
    land: usize,
    /// The judge's orders.
    orders: &'a [MainOrder],
    /// The strengths and the rest the judge was given.
    prep: &'a Prepared,
}

/// A later attack of [`LateAttack`] in the first round: the unit of the
/// attack (its index in `t.late_attacks`), its place on the board, and
/// where its first impulse leaves it, to attack from.
#[derive(Debug, Clone, Copy)]
struct Phantom {
    attack: usize,
    b: usize,
    at: RegionId,
}

/// The first round: the judge's orders (`j`), with the later attacks of
/// its double-strength conflicts added as attackers that cannot be
/// attacked where they stand (the judge's armies landing from a boat),
/// from where their units' first impulses leave them; then the later
/// supports (see [`count_late_supports`]). An attack whose unit does not
/// get there (its move failed, it was dislodged) is dropped and the round
/// judged again. Returns the result, as for the board (`j.here`) alone,
/// and the units (plan indexes) the later attacks dislodged: in a
/// double-impulse conflict, they retreat when the turn is over (rule 5).
fn judge_first_round(
    t: &mut Judging<'_>,
    j: &Judged<'_>,
    acting: &[usize],
    meant_move: &[usize],
) -> (MovementResult, Vec<usize>) {
    let map = t.map;
    let mut phantoms: Vec<Phantom> = Vec::new();
    for (attack, a) in t.late_attacks.iter().enumerate() {
        let Some(b) = j.board.iter().position(|(_, k)| *k == a.unit) else {
            continue;
        };
        let u = j.board[b].0;
        let first = t.plans[a.unit].as_ref().and_then(|p| p.steps[0].clone());
        let at = match first {
            Some((Step::Move(to), _)) => map.province(to.province).main_region(),
            _ => u.region,
        };
        if acting.contains(&b) && map.reaches(at, a.to, u.kind) {
            phantoms.push(Phantom { attack, b, at });
        }
    }
    let n = j.here.len();
    let (here, prep, result) = loop {
        let mut here = j.here.to_vec();
        let mut prep = j.prep.clone();
        for ph in &phantoms {
            let u = j.board[ph.b].0;
            let i = here.len();
            here.push(Unit { region: ph.at, ..u });
            prep.aboard.push(Aboard {
                unit: i,
                to: t.late_attacks[ph.attack].to,
            });
            prep.strength.push((i, u.kind.strength()));
        }
        let result =
            adjudicate_movement_prepared(map, t.rules, t.q, t.phase, &here, j.orders, &prep);
        let arrived = |ph: &Phantom| {
            let r = &result.units[ph.b];
            let moved = matches!((r.command, &r.outcome), (Resolved::Move { to, .. }, Outcome::Moved) if to == ph.at);
            r.dislodged.is_none()
                && (moved || (!meant_move.contains(&ph.b) && j.board[ph.b].0.region == ph.at))
        };
        let before = phantoms.len();
        phantoms.retain(arrived);
        if phantoms.len() == before {
            break (here, prep, result);
        }
    };
    let judged = Judged {
        here: &here,
        prep: &prep,
        ..*j
    };
    let mut result = if t.late.is_empty() {
        result
    } else {
        count_late_supports(t, &judged, result)
    };
    for (i, ph) in phantoms.iter().enumerate() {
        let won = matches!(result.units[n + i].outcome, Outcome::Moved);
        t.late_attacks[ph.attack].won = Some(won);
    }
    // The results speak of the attacking unit itself, where it stands.
    let real = |i: usize| if i >= n { phantoms[i - n].b } else { i };
    let mut hit = Vec::new();
    result.units.truncate(n);
    for (b, r) in result.units.iter_mut().enumerate() {
        if let Some(d) = r.dislodged.as_mut()
            && d.by >= n
        {
            d.by = real(d.by);
            if let Some((_, k)) = j.board.get(b) {
                hit.push(*k);
            }
        }
        match &mut r.outcome {
            Outcome::Bounced { with } if with.iter().any(|i| i >= n) => {
                let mut w = crate::adjudicate::movement::UnitList::default();
                for i in with.iter() {
                    w.push(real(i));
                }
                *with = w;
            }
            Outcome::Cut(by) => *by = real(*by),
            _ => {}
        }
    }
    (result, hit)
}

/// The later attacks of a double-strength conflict that lost it in the
/// first round, shown in their own impulse as bounced (the judge held
/// their units), with the unit standing in the province attacked.
fn show_late_attacks(
    board: &[(Unit, usize)],
    lost: &[(usize, Option<usize>)],
    result: &mut MovementResult,
) {
    for &(k, there) in lost {
        let Some(u) = result.units.iter_mut().find(|u| u.order_index() == Some(k)) else {
            continue;
        };
        let mut with = crate::adjudicate::movement::UnitList::default();
        if let Some(i) = there.filter(|&i| i < board.len()) {
            with.push(i);
        }
        u.outcome = Outcome::Bounced { with };
    }
}

/// Rule 4's "all attacks and supports for the whole turn are added up",
/// for the supports of [`Late`]: the first round is judged again with each
/// added to the strength of the unit it supports, where its giver stands
/// after the first round (moved there, or stayed; not dislodged), can
/// reach the province, the supported unit makes that move (or stays), and
/// no other power's unit moves against the giver in the support's impulse
/// (that cuts it, as in the standard game, unless it comes from the
/// province the support is given into). Judged again until every support
/// counted still has its giver where it gives it.
fn count_late_supports(
    t: &mut Judging<'_>,
    j: &Judged<'_>,
    first: MovementResult,
) -> MovementResult {
    let map = t.map;
    let board = j.board;
    let step_of = |k: usize, round: usize| {
        t.plans[k]
            .as_ref()
            .and_then(|p| p.steps[round].clone())
            .map(|(s, _)| s)
    };
    let moving: Vec<bool> = board
        .iter()
        .map(|(_, k)| matches!(step_of(*k, 0), Some(Step::Move(_))))
        .collect();
    // Where a land unit ends the first round, to give a later support
    // from: where it moved, or where it stood, its move failed or not (a
    // support still makes sense there, rule 4); `None` if it was
    // dislodged.
    let gives_from = |result: &MovementResult, b: usize| -> Option<RegionId> {
        let r = &result.units[b];
        match (r.command, &r.outcome) {
            _ if r.dislodged.is_some() => None,
            (Resolved::Move { to, .. }, Outcome::Moved) => Some(to),
            _ => Some(board[b].0.region),
        }
    };
    // Where it ends the first round to make a later move from; `None` also
    // if its move failed (its later moves set out from where it did not
    // get, and become stand orders).
    let after = |result: &MovementResult, b: usize| -> Option<RegionId> {
        match gives_from(result, b) {
            Some(_) if moving[b] && !matches!(result.units[b].outcome, Outcome::Moved) => None,
            x => x,
        }
    };
    let mut counted: Vec<(usize, usize, u32)> = Vec::new();
    for li in 0..t.late.len() {
        let l = t.late[li];
        let Some(b) = board.iter().position(|(_, k)| *k == l.unit) else {
            continue;
        };
        let (Some(x), Some(step)) = (gives_from(&first, b), step_of(l.unit, l.round)) else {
            continue;
        };
        let u = board[b].0;
        let (target, into) = match &step {
            Step::SupportMove(s, to) => (s, Some(to.province)),
            Step::SupportHold(s) => (s, None),
            _ => continue,
        };
        let tp = into.unwrap_or(target.at.province);
        let supported = (0..j.land).find(|&i| {
            i != b
                && map.province_of(j.here[i].region) == target.at.province
                && match (into, board.get(i)) {
                    (Some(to), Some((_, k))) => {
                        matches!(step_of(*k, 0), Some(Step::Move(d)) if d.province == to)
                    }
                    (Some(_), None) => false,
                    // A hold: the unit stays (a garrison always does).
                    (None, _) => !moving.get(i).copied().unwrap_or(false),
                }
        });
        // Or a later attack of the conflict (see [`LateAttack`]), from
        // where it is made.
        let supported = supported.or_else(|| {
            let to = into?;
            j.prep
                .aboard
                .iter()
                .find(|a| {
                    a.to == to && map.province_of(j.here[a.unit].region) == target.at.province
                })
                .map(|a| a.unit)
        });
        let cutter = board.iter().enumerate().find(|&(b2, (u2, k2))| {
            b2 != b
                && u2.power != u.power
                && after(&first, b2).is_some_and(|p2| into != Some(map.province_of(p2)))
                && matches!(step_of(*k2, l.round), Some(Step::Move(d)) if d.province == map.province_of(x))
        });
        let fate = if !map.reaches(x, tp, u.kind) {
            LateFate::Refused(Illegal::CannotSupportThere)
        } else if let Some(i) = supported {
            match cutter {
                Some((_, (_, k2))) => LateFate::Cut(*k2),
                None => {
                    counted.push((li, i, u.kind.strength()));
                    LateFate::Counted
                }
            }
        } else {
            LateFate::Void
        };
        t.late[li].fate = Some(fate);
    }
    loop {
        if counted.is_empty() {
            return first;
        }
        let mut prep = j.prep.clone();
        for &(_, i, v) in &counted {
            match prep.strength.iter_mut().find(|(x, _)| *x == i) {
                Some((_, s)) => *s += v,
                None => prep.strength.push((i, j.here[i].kind.strength() + v)),
            }
        }
        let result =
            adjudicate_movement_prepared(map, t.rules, t.q, t.phase, j.here, j.orders, &prep);
        // A giver that no longer gets where it gives its support: judged
        // again without it (it stands, its support void with it).
        let lost: Vec<usize> = counted
            .iter()
            .map(|(li, _, _)| *li)
            .filter(|&li| {
                let b = board.iter().position(|(_, k)| *k == t.late[li].unit);
                b.is_some_and(|b| gives_from(&result, b) != gives_from(&first, b))
            })
            .collect();
        if lost.is_empty() {
            return result;
        }
        for &li in &lost {
            t.late[li].fate = None;
        }
        counted.retain(|(li, _, _)| !lost.contains(li));
    }
}

/// The later supports of a double-strength conflict, shown in their own
/// impulse with what became of them (the judge held their units).
fn show_late_supports(
    board: &[(Unit, usize)],
    late: &[(usize, LateFate)],
    result: &mut MovementResult,
) {
    for &(k, fate) in late {
        if let LateFate::Refused(why) = fate {
            result.orders[k] = Some(why);
            continue;
        }
        let Some(u) = result.units.iter_mut().find(|u| u.order_index() == Some(k)) else {
            continue;
        };
        u.outcome = match fate {
            LateFate::Cut(by) => match board.iter().position(|(_, x)| *x == by) {
                Some(i) => Outcome::Cut(i),
                None => Outcome::Supported,
            },
            LateFate::Void => Outcome::SupportVoid,
            _ => Outcome::Supported,
        };
    }
}

/// A leader's second and third moves, both in this round (rule 7): he
/// passes through the first province `a` if it is free or being left and
/// no other unit enters it in the round, and
/// his move is judged for the second (the move shown is returned); else
/// (`None`) he attacks the first and goes no further.
#[allow(clippy::too_many_arguments)]
fn leader_through(
    t: &Judging<'_>,
    round: usize,
    board: &[(Unit, usize)],
    acting: &[usize],
    b: usize,
    a: ProvinceId,
    to: Place,
    lo: &mut LandOrders,
) -> Option<MainCommand> {
    let map = t.map;
    let u = board[b].0;
    let occupant = board
        .iter()
        .position(|(x, _)| map.province_of(x.region) == a);
    let leaves = occupant.is_some_and(|o| {
        acting.contains(&o)
            && t.plans[board[o].1]
                .as_ref()
                .and_then(|p| p.steps[round].as_ref())
                .is_some_and(|(s, _)| matches!(s, Step::Move(_)))
    });
    // His passage is simultaneous with everybody's second impulse (rule
    // 7): another unit entering the province in it meets him there.
    let entered = acting.iter().any(|&o| {
        o != b
            && t.plans[board[o].1]
                .as_ref()
                .and_then(|p| p.steps[round].as_ref())
                .is_some_and(|(s, _)| matches!(s, Step::Move(x) if x.province == a))
    });
    let passable = map.reaches(u.region, a, u.kind)
        && map.reaches(map.province(a).main_region(), to.province, u.kind)
        && to.province != map.province_of(u.region);
    if entered || !(passable && (occupant.is_none() || leaves)) {
        return None;
    }
    lo.prep.ferried.push((b, to.province));
    if let Some(o) = occupant {
        lo.prep.needs.push((b, o));
    }
    Some(MainCommand::Move {
        to,
        via_convoy: false,
        route: vec![a],
    })
}

/// The strengths of the units that stay where they are: a leader holds
/// with one, for only his moves and supports are triple (rule 7: he
/// "behaves as a normal army with the following exceptions ... may move
/// and support with triple strength"); a unit staying in the mountains
/// defends double (rule 10c).
fn hold_strengths(map: &Map, q: &dyn RuleQuestions, board: &[(Unit, usize)], lo: &mut LandOrders) {
    for (b, (u, _)) in board.iter().enumerate() {
        let moving = lo.judge_orders.iter().any(|(o, _)| {
            o.unit.at.province == map.province_of(u.region)
                && matches!(o.command, MainCommand::Move { .. })
        }) || lo.prep.ferried.iter().any(|(x, _)| *x == b);
        if moving || lo.prep.strength.iter().any(|(x, _)| *x == b) {
            continue;
        }
        let hold = holding_strength(u.kind);
        if q.mountain(map.province_of(u.region)) {
            lo.prep.strength.push((b, 2 * hold));
        } else if hold != u.kind.strength() {
            lo.prep.strength.push((b, hold));
        }
    }
}

/// The strength a unit holds with: a leader's is one (rule 7), for his
/// triple strength is for moves and supports only.
fn holding_strength(kind: UnitKind) -> u32 {
    match kind {
        UnitKind::Leader => 1,
        _ => kind.strength(),
    }
}

/// The convoying stacks' orders for the land judge: a convoy carries as
/// many strength points as it has fleets (rule 8), so a stronger unit
/// arrives with no more than that.
fn convoy_orders(map: &Map, board: &[(Unit, usize)], convoys: &[ConvoyStack], lo: &mut LandOrders) {
    for c in convoys {
        // A convoy carries as many strength points as it has fleets
        // (rule 8): a stronger unit arrives with no more than that.
        let carried = board
            .iter()
            .position(|(x, _)| map.province_of(x.region) == c.army_from);
        if let Some(b) = carried {
            let strength = lo
                .prep
                .strength
                .iter()
                .find(|(x, _)| *x == b)
                .map_or(board[b].0.kind.strength(), |(_, v)| *v);
            if strength > c.fleets {
                lo.prep.strength.retain(|(x, _)| *x != b);
                lo.prep.strength.push((b, c.fleets));
            }
        }
        if c.fleets > 1 {
            lo.stacked.push((lo.judge_orders.len(), c.fleets));
        }
        lo.judge_orders.push((
            MainOrder {
                power: c.fleet.power,
                unit: UnitRef {
                    kind: Some(UnitKind::Fleet),
                    at: Place::of_region(map, c.fleet.region),
                },
                command: MainCommand::Convoy {
                    unit: UnitRef {
                        kind: board
                            .iter()
                            .find(|(x, _)| map.province_of(x.region) == c.army_from)
                            .map(|(x, _)| x.kind),
                        at: Place::province(c.army_from),
                    },
                    to: Place::province(c.to),
                },
            },
            c.order,
        ));
    }
}

/// Where the land units end a round: moved, stood, or dislodged (with
/// their retreats and the province attacked from); garrisons beaten out of
/// their centres are gone for good.
#[allow(clippy::type_complexity)]
fn land_moves(
    t: &mut Judging<'_>,
    board: &[(Unit, usize)],
    here: &[Unit],
    result: &MovementResult,
    first_convoy: usize,
    meant_move: &[usize],
) -> (
    Vec<(Unit, usize)>,
    Vec<(Unit, usize, Vec<RegionId>, ProvinceId)>,
) {
    let map = t.map;
    let mut next: Vec<(Unit, usize)> = Vec::new();
    let mut dislodged: Vec<(Unit, usize, Vec<RegionId>, ProvinceId)> = Vec::new();
    for (b, r) in result.units.iter().enumerate() {
        if b >= first_convoy {
            continue;
        }
        if b >= board.len() {
            // A garrison beaten out of its centre is gone for good.
            if r.dislodged.is_some() {
                let p = map.province_of(here[b].region);
                t.garrisons.retain(|(g, _)| *g != p);
            }
            continue;
        }
        let (u, k) = board[b];
        if let Some(d) = &r.dislodged {
            t.stands[k].mark(Standing::Dislodged);
            dislodged.push((u, k, d.retreats.clone(), d.from));
            continue;
        }
        let u = match (r.command, &r.outcome) {
            (Resolved::Move { to, .. }, Outcome::Moved) => Unit { region: to, ..u },
            _ => {
                if meant_move.contains(&b) {
                    t.stands[k].mark(Standing::MoveFailed);
                }
                u
            }
        };
        next.push((u, k));
    }
    (next, dislodged)
}

/// The retreats of the units dislodged this round (rule 5): the sheet's
/// if it fits, else the GM's; a leader is never lost for want of one
/// (rule 7). Each retreat the results should explain gets a note.
fn land_retreats(
    t: &Judging<'_>,
    next: &mut Vec<(Unit, usize)>,
    dislodged: Vec<Dislodged>,
    contested: &[ProvinceId],
    notes: &mut Vec<(Unit, RetreatNote)>,
) -> Vec<(Unit, Option<RegionId>)> {
    let map = t.map;
    let mut retreats = Vec::new();
    for (u, k, options, _) in dislodged {
        let to = land_retreat(t, next, &u, options, contested, notes);
        match to {
            Some(r) => next.push((Unit { region: r, ..u }, k)),
            None if u.kind == UnitKind::Leader => {
                // Nowhere free: the leader takes the place of a friendly
                // army next to it (rule 7: "when retreating a leader
                // displaces a friendly army"), which is displaced in its
                // turn: it retreats as a dislodged unit would (rule 5).
                let displaced = next.iter().position(|(x, _)| {
                    x.power == u.power
                        && x.kind == UnitKind::Army
                        && map.reaches(u.region, map.province_of(x.region), UnitKind::Army)
                });
                let Some(i) = displaced else {
                    retreats.push((u, None));
                    continue;
                };
                let (army, ak) = next.remove(i);
                next.push((
                    Unit {
                        region: army.region,
                        ..u
                    },
                    k,
                ));
                let before = notes.iter().rposition(|(x, _)| *x == u);
                let refused = before.and_then(|i| notes.remove(i).1.refused);
                notes.push((
                    u,
                    RetreatNote {
                        refused,
                        why: Some(Disbanded::Displacing),
                        displaced: false,
                    },
                ));
                retreats.push((u, Some(army.region)));
                let options: Vec<RegionId> = map
                    .borders(army.region)
                    .iter()
                    .filter(|(r, m)| {
                        m.intersects(crate::map::Mobility::ARMY)
                            && map.admits(*r, UnitKind::Army)
                            && !t.garrisons.iter().any(|(g, _)| *g == map.province_of(*r))
                            && map.province_of(*r) != map.province_of(u.region)
                    })
                    .map(|(r, _)| *r)
                    .collect();
                let mut army_notes = Vec::new();
                let to = land_retreat(t, next, &army, options, contested, &mut army_notes);
                let note = army_notes.pop().map_or(
                    RetreatNote {
                        refused: None,
                        why: None,
                        displaced: true,
                    },
                    |(_, n)| RetreatNote {
                        displaced: true,
                        ..n
                    },
                );
                notes.push((army, note));
                if let Some(r) = to {
                    next.push((Unit { region: r, ..army }, ak));
                }
                retreats.push((army, to));
                continue;
            }
            None => {}
        }
        retreats.push((u, to));
    }
    retreats
}

/// Where dislodged unit `u` retreats among `options` (rule 5): the sheet's
/// retreat if it fits, else the GM's; for a leader (rule 7) the best free
/// place even if no nearer a centre. Notes why an ordered retreat was not
/// made, and why a unit with nowhere to go is disbanded.
fn land_retreat(
    t: &Judging<'_>,
    next: &[(Unit, usize)],
    u: &Unit,
    options: Vec<RegionId>,
    contested: &[ProvinceId],
    notes: &mut Vec<(Unit, RetreatNote)>,
) -> Option<RegionId> {
    let (map, owners) = (t.map, t.owners);
    let taken: Vec<ProvinceId> = next
        .iter()
        .map(|(x, _)| map.province_of(x.region))
        .chain(contested.iter().copied())
        .collect();
    let options: Vec<RegionId> = options
        .into_iter()
        .filter(|r| !taken.contains(&map.province_of(*r)))
        .collect();
    let written = t.retreat_orders.iter().rev().find_map(|o| match o.command {
        RetreatCommand::Move { to }
            if o.power == u.power && o.unit.at.province == map.province_of(u.region) =>
        {
            Some(to.province)
        }
        _ => None,
    });
    let ordered = written.and_then(|p| options.iter().copied().find(|r| map.province_of(*r) == p));
    // Why the sheet's retreat does not fit, for the results.
    let refused = written.filter(|_| ordered.is_none()).map(|p| {
        let why = if t.garrisons.iter().any(|(g, _)| *g == p) {
            Unfit::ArmedNeutral
        } else if map.reaches(u.region, p, u.kind) {
            Unfit::NotFree
        } else {
            Unfit::NotNext
        };
        (p, why)
    });
    let to = ordered.or_else(|| gm_retreat(map, u, &options, owners));
    // A leader is never lost for want of a retreat order (rule 7): with
    // none nearer a centre, he still goes to the best free place by the
    // GM's preferences.
    let to = match u.kind {
        UnitKind::Leader => to.or_else(|| preferred_retreat(map, u, &options, owners)),
        _ => to,
    };
    let why = match to {
        Some(_) => None,
        None if options.is_empty() => Some(Disbanded::Nowhere),
        None => Some(Disbanded::NoneNearer),
    };
    if refused.is_some() || why.is_some() {
        notes.push((
            *u,
            RetreatNote {
                refused,
                why,
                displaced: false,
            },
        ));
    }
    to
}

/// Why a retreat went elsewhere than ordered, or why a unit went nowhere,
/// for the results (rules 5, 7 and 10b).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetreatNote {
    /// The sheet's retreat, to this province, could not be made, and why.
    pub refused: Option<(ProvinceId, Unfit)>,
    /// Why the unit went nowhere (or, for a leader, onto a friendly army).
    pub why: Option<Disbanded>,
    /// An army displaced by its own leader's retreat (rule 7), retreating
    /// in its turn.
    pub displaced: bool,
}

impl RetreatNote {
    /// The note as the results print it, in brackets after the retreat.
    pub fn text(&self, map: &Map) -> String {
        let mut parts = Vec::new();
        if self.displaced {
            parts.push("displaced by its own leader's retreat".to_string());
        }
        if let Some((p, unfit)) = self.refused {
            let abbr = &map.province(p).abbr;
            parts.push(match unfit {
                Unfit::ArmedNeutral => {
                    format!("not to {abbr}: an armed neutral holds it, only an attack enters it")
                }
                Unfit::NotFree => format!("not to {abbr}: it is not free"),
                Unfit::NotNext => format!("not to {abbr}: it is not next to the unit"),
            });
        }
        if let Some(why) = self.why {
            parts.push(
                match why {
                    Disbanded::NoneNearer => "no free place nearer a centre of its own",
                    Disbanded::Nowhere => "nowhere free to retreat to",
                    Disbanded::Displacing => "nowhere free: it displaces a friendly army",
                }
                .to_string(),
            );
        } else if self.refused.is_some() {
            parts.push("the GM's retreat".into());
        }
        parts.join("; ")
    }
}

/// Why the sheet's retreat does not fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unfit {
    /// An armed neutral's garrison holds the centre (rule 10b: only an
    /// attack enters it).
    ArmedNeutral,
    /// Occupied, or left empty by a standoff.
    NotFree,
    /// Not next to the unit.
    NotNext,
}

/// Why a retreating unit went nowhere, or where the GM's rule would not
/// send it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disbanded {
    /// No free place nearer a centre the power controls (rule 5).
    NoneNearer,
    /// No free place at all.
    Nowhere,
    /// A leader with nowhere free, onto a friendly army (rule 7).
    Displacing,
}

/// Fleets left in a coastal province that is no longer friendly retreat
/// at once, as a land unit would (rule 8). Returns the fleets kept and
/// those forced out, with where each went.
#[allow(clippy::type_complexity)]
fn force_out_fleets(
    map: &Map,
    all_fleets: Vec<(Unit, usize)>,
    friendly_after: &[Option<PowerId>],
    permits: &[(PowerId, PowerId)],
    owners: &[Option<PowerId>],
    retreat_orders: &[RetreatOrder],
) -> (Vec<(Unit, usize)>, Vec<(Unit, Option<RegionId>)>) {
    let friendly_to = |f: &Unit| {
        let p = map.province_of(f.region);
        map.province(p).terrain != crate::map::Terrain::Coast
            || friendly_after[p.index()]
                .is_some_and(|o| o == f.power || permits.contains(&(o, f.power)))
    };
    let (mut kept, leave): (Vec<_>, Vec<_>) =
        all_fleets.into_iter().partition(|(f, _)| friendly_to(f));
    let mut forced_out = Vec::new();
    for (f, k) in leave {
        let options: Vec<RegionId> = map
            .borders(f.region)
            .iter()
            .filter(|(r, m)| {
                m.intersects(crate::map::Mobility::FLEET) && map.admits(*r, UnitKind::Fleet)
            })
            .map(|(r, _)| *r)
            .filter(|r| {
                let q = map.province_of(*r);
                (map.province(q).terrain != crate::map::Terrain::Coast
                    || friendly_after[q.index()] == Some(f.power))
                    && storable(map, &f, q, kept.iter().map(|(x, _)| *x))
            })
            .collect();
        // As a land unit would be (rule 5): the sheet's retreat if it
        // fits, else the GM's, disbanded if none is nearer a centre.
        let to = sheet_retreat(map, retreat_orders, &f, &options)
            .or_else(|| gm_retreat(map, &f, &options, owners));
        if let Some(r) = to {
            kept.push((Unit { region: r, ..f }, k));
        }
        forced_out.push((f, to));
    }
    (kept, forced_out)
}

/// The sheet's retreat for unit `u` (rule 5), if it is one of `options`:
/// the last order for the unit's place and layer (a fleet's `F(Pic)-ENG`
/// is not the army's beside it).
fn sheet_retreat(
    map: &Map,
    retreat_orders: &[RetreatOrder],
    u: &Unit,
    options: &[RegionId],
) -> Option<RegionId> {
    let fleet = u.kind == UnitKind::Fleet;
    retreat_orders.iter().rev().find_map(|o| match o.command {
        RetreatCommand::Move { to }
            if o.power == u.power
                && o.unit.at.province == map.province_of(u.region)
                && o.unit.kind.is_none_or(|k| (k == UnitKind::Fleet) == fleet) =>
        {
            options
                .iter()
                .copied()
                .find(|r| map.province_of(*r) == to.province)
        }
        _ => None,
    })
}

/// The GM's retreat (rule 5): the option nearest a supply centre the power
/// controls, home centres first on a tie, then alphabetically; none if no
/// option is nearer than where the unit was.
pub fn gm_retreat(
    map: &Map,
    u: &Unit,
    options: &[RegionId],
    owners: &[Option<PowerId>],
) -> Option<RegionId> {
    let mine: Vec<ProvinceId> = map
        .province_ids()
        .filter(|p| map.province(*p).supply_centre && owners[p.index()] == Some(u.power))
        .collect();
    if mine.is_empty() {
        return None;
    }
    let dist = map.distances_to(&mine);
    let homes: Vec<ProvinceId> = map.power(u.power).home_centres.clone();
    let home_dist = map.distances_to(&homes);
    let here = dist[map.province_of(u.region).index()];
    options
        .iter()
        .copied()
        .filter(|r| dist[map.province_of(*r).index()] < here)
        .min_by(|a, b| {
            let (pa, pb) = (map.province_of(*a), map.province_of(*b));
            dist[pa.index()]
                .cmp(&dist[pb.index()])
                .then(home_dist[pa.index()].cmp(&home_dist[pb.index()]))
                .then_with(|| map.province(pa).name.cmp(&map.province(pb).name))
        })
}

/// The retreat the GM's preferences (rule 5) rank first among `options`,
/// whether or not it comes nearer a centre: the nearest a supply centre
/// the power controls, home centres first, then alphabetically. For
/// leaders, who are never disbanded for want of a retreat (rule 7).
fn preferred_retreat(
    map: &Map,
    u: &Unit,
    options: &[RegionId],
    owners: &[Option<PowerId>],
) -> Option<RegionId> {
    let mine: Vec<ProvinceId> = map
        .province_ids()
        .filter(|p| map.province(*p).supply_centre && owners[p.index()] == Some(u.power))
        .collect();
    let dist = map.distances_to(&mine);
    let home_dist = map.distances_to(&map.power(u.power).home_centres);
    options.iter().copied().min_by(|a, b| {
        let (pa, pb) = (map.province_of(*a), map.province_of(*b));
        dist[pa.index()]
            .cmp(&dist[pb.index()])
            .then(home_dist[pa.index()].cmp(&home_dist[pb.index()]))
            .then_with(|| map.province(pa).name.cmp(&map.province(pb).name))
    })
}

/// Whether a support names a unit of the other layer (rule 8: fleets exert
/// no influence on land units): a fleet's (`from_fleet`) of a land unit,
/// or a land unit's of a fleet. The unit's kind must be written for it to
/// count; unwritten, the judge looks in the supporter's own layer.
fn supports_across(target: &UnitRef, from_fleet: bool) -> bool {
    target
        .kind
        .is_some_and(|k| (k == UnitKind::Fleet) != from_fleet)
}

/// Whether fleet `f` may stand in `q` beside the fleets `others` (those
/// elsewhere are ignored): the stacking rule a stored position is read
/// with (rule 8: fleets of one power only, two to a coast).
fn storable(map: &Map, f: &Unit, q: ProvinceId, others: impl Iterator<Item = Unit>) -> bool {
    let here: Vec<Unit> = others
        .filter(|x| x.kind == UnitKind::Fleet && map.province_of(x.region) == q)
        .collect();
    map.may_stand(q, f.power, UnitKind::Fleet, &here)
}

/// A stack of fleets that convoys in a round: the land judge's fleet.
struct ConvoyStack {
    /// The stack as one fleet.
    fleet: Unit,
    /// How many fleets: how many strength points it carries.
    fleets: u32,
    /// Where the army (or leader) it carries starts.
    army_from: ProvinceId,
    /// Where it goes.
    to: ProvinceId,
    /// The sheet order.
    order: usize,
}

/// One round of the sea game: each power's fleets in one province move as
/// one stack, with the strength of its fleets; own stacks sailing into the
/// same space join there (no stacking limit at sea, two in a coastal
/// province); a fleet enters a coastal province only where it is friendly.
#[allow(clippy::too_many_arguments)]
fn sea_round(
    map: &Map,
    rules: &Rulebook,
    q: &dyn RuleQuestions,
    phase: Option<Phase>,
    round: usize,
    plans: &[Option<Plan>],
    fleets: &mut Vec<(Unit, usize)>,
    verdicts: &mut [Option<Illegal>],
    stands: &mut [Standing],
    may_enter: &dyn Fn(PowerId, ProvinceId) -> bool,
    owners: &[Option<PowerId>],
) -> (Round, Vec<ConvoyStack>) {
    let (stacks, leaving) = sea_stacks(round, plans, fleets, stands);
    let board: Vec<Unit> = stacks.iter().map(|(s, _)| *s).collect();
    let mut sp = SeaPlan {
        prep: Prepared::default(),
        sailing: vec![None; stacks.len()],
        follows: vec![None; stacks.len()],
        joins: vec![None; stacks.len()],
    };
    // The orders of leaving parts, shown after the judge's own.
    let mut departures: Vec<(usize, MainOrder, usize)> = Vec::new();
    let mut orders: Vec<(MainOrder, usize)> = Vec::new();
    let mut doubled = Vec::new();
    let mut convoys = Vec::new();
    // A stack takes no step that no longer makes sense after its earlier
    // ones (rule 4).
    let standing =
        |t: usize, step: &Step| stacks[t].1.iter().any(|&m| stands[fleets[m].1].voids(step));
    let step_of = |t: usize| {
        stacks[t]
            .1
            .iter()
            .find_map(|&m| plans[fleets[m].1].as_ref())
            .and_then(|p| p.steps[round].clone())
            .filter(|(step, _)| !standing(t, step))
    };
    let mut voided = Vec::new();
    // Orders refused before the judge: (judge order, as written, why).
    let mut sea_refused: Vec<(usize, MainCommand, Illegal)> = Vec::new();
    let mut stacked: Vec<(usize, u32)> = Vec::new();
    let mut stacked_voided: Vec<(usize, u32)> = Vec::new();
    // The stacks meaning to sail this round.
    let mut meant_move: Vec<usize> = Vec::new();
    let stays = |t: usize| !matches!(step_of(t), Some((Step::Move(_), _)));
    for (s, (stack, members)) in stacks.iter().enumerate() {
        let size = members.len() as u32;
        if size > 1 {
            sp.prep.strength.push((s, size));
        }
        let Some(plan) = members.iter().find_map(|&m| plans[fleets[m].1].as_ref()) else {
            continue;
        };
        let Some((step, double)) = plan.steps[round].clone() else {
            continue;
        };
        if standing(s, &step) {
            if size > 1 {
                stacked_voided.push((voided.len(), size));
            }
            voided.push((order_of(map, stack, &step), plan.order));
            continue;
        }
        if matches!(step, Step::Move(_)) {
            meant_move.push(s);
        }
        let mut command = command_of(&step);
        // Refused here, the stack holds; the results show the order as
        // written, void, with the reason.
        let mut refused = None;
        match &step {
            Step::Move(to) => {
                let sea = SeaBoard {
                    stacks: &stacks,
                    leaving: &leaving,
                    fleets,
                };
                // A refused move holds, and the results say why.
                match sea_move(map, &sea, &stays, may_enter, s, *to, double, &mut sp) {
                    Ok(c) => command = c,
                    Err(why) => {
                        refused = Some(why);
                        command = MainCommand::Hold;
                    }
                }
            }
            Step::Convoy(u, to) => {
                convoys.push(ConvoyStack {
                    fleet: *stack,
                    fleets: size,
                    army_from: u.at.province,
                    to: to.province,
                    order: plan.order,
                });
                command = MainCommand::Hold;
            }
            Step::SupportMove(t, _) | Step::SupportHold(t) if supports_across(t, true) => {
                refused = Some(Illegal::FleetsApart);
                command = MainCommand::Hold;
            }
            Step::SupportMove(..) | Step::SupportHold(_) if double => {
                sp.prep.support.push((s, 2 * size));
            }
            _ => {}
        }
        if let Some(why) = refused {
            verdicts[plan.order].get_or_insert(why);
            if !leaving[s] {
                sea_refused.push((orders.len(), command_of(&step), why));
            }
        }
        let order = MainOrder {
            command,
            ..order_of(map, stack, &Step::Hold)
        };
        // A leaving part has no order for the judge (the place's order is
        // the staying part's), unless it could not sail: then it stays
        // with the rest, and its refused order is shown.
        if leaving[s] {
            if sp.prep.aboard.iter().any(|a| a.unit == s) {
                departures.push((s, order, plan.order));
            }
            continue;
        }
        if double {
            doubled.push(orders.len());
        }
        if size > 1 {
            stacked.push((orders.len(), size));
        }
        orders.push((order, plan.order));
    }
    let plain: Vec<MainOrder> = orders.iter().map(|(o, _)| o.clone()).collect();
    let mut result = adjudicate_movement_prepared(map, rules, q, phase, &board, &plain, &sp.prep);
    note_refusals(&mut orders, &mut result, sea_refused, round, verdicts);
    for (s, order, sheet) in departures {
        if stacks[s].1.len() > 1 {
            stacked.push((orders.len(), stacks[s].1.len() as u32));
        }
        result.units[s].order = OrderIndex::new(orders.len());
        result.orders.push(None);
        orders.push((order, sheet));
    }
    let (retreats, dislodged_stacks) = sea_outcome(
        map,
        &SeaMoves {
            stacks: &stacks,
            leaving: &leaving,
            follows: &sp.follows,
            joins: &sp.joins,
            meant_move: &meant_move,
        },
        &result,
        fleets,
        stands,
        may_enter,
        owners,
    );
    // A stack driven from its sea convoys nothing.
    convoys.retain(|c| !dislodged_stacks.contains(&c.fleet.region));
    (
        Round {
            board,
            orders,
            result,
            retreats,
            notes: Vec::new(),
            doubled,
            voided,
            stacked,
            stacked_voided,
        },
        convoys,
    )
}

/// A sea round's orders refused before the judge, shown as written with
/// their reason; then the first round's verdicts speak for the sheet
/// orders not already refused.
fn note_refusals(
    orders: &mut [(MainOrder, usize)],
    result: &mut MovementResult,
    refused: Vec<(usize, MainCommand, Illegal)>,
    round: usize,
    verdicts: &mut [Option<Illegal>],
) {
    for (k, shown, why) in refused {
        orders[k].0.command = shown;
        result.orders[k] = Some(why);
    }
    for (k, v) in result.orders.iter().enumerate() {
        let i = orders[k].1;
        if round == 0 && verdicts[i].is_none() {
            verdicts[i] = *v;
        }
    }
}

/// The stacks of a sea round and the fleets they are made of.
struct SeaBoard<'a> {
    /// The stacks (see [`sea_stacks`]).
    stacks: &'a [(Unit, Vec<usize>)],
    /// Whether each is a part leaving its place.
    leaving: &'a [bool],
    /// The fleets, with their plan index.
    fleets: &'a [(Unit, usize)],
}

/// What a sea round's orders give the judge besides the orders.
struct SeaPlan {
    /// The strengths, and the parts leaving a split stack.
    prep: Prepared,
    /// Where each stack sails this round, for joining and the coast limit.
    sailing: Vec<Option<ProvinceId>>,
    /// The stack each follows into a space, joining it on the way in.
    follows: Vec<Option<usize>>,
    /// The stack each joins where it stays.
    joins: Vec<Option<usize>>,
}

/// The judge's command for stack `s` sailing to `to`, or why it may not
/// (it then holds): a fleet enters only a friendly coastal province, two
/// to a coast (rule 8); a stack sailing where another of its power's stays
/// or goes joins it, adding its strength.
#[allow(clippy::too_many_arguments)]
fn sea_move(
    map: &Map,
    sea: &SeaBoard<'_>,
    stays: &dyn Fn(usize) -> bool,
    may_enter: &dyn Fn(PowerId, ProvinceId) -> bool,
    s: usize,
    to: Place,
    double: bool,
    sp: &mut SeaPlan,
) -> Result<MainCommand, Illegal> {
    let SeaBoard {
        stacks,
        leaving,
        fleets,
    } = *sea;
    let (stack, members) = (&stacks[s].0, &stacks[s].1);
    let size = members.len() as u32;
    let dest = to.province;
    let coastal = map.province(dest).terrain == crate::map::Terrain::Coast;
    let already: usize = fleets
        .iter()
        .filter(|(f, _)| f.power == stack.power && map.province_of(f.region) == dest)
        .count()
        + (0..s)
            .filter(|&o| sp.sailing[o] == Some(dest) && stacks[o].0.power == stack.power)
            .map(|o| stacks[o].1.len())
            .sum::<usize>();
    if !may_enter(stack.power, dest) {
        return Err(Illegal::NotFriendly);
    }
    if coastal && already + members.len() > 2 {
        return Err(Illegal::StackLimit);
    }
    if leaving[s]
        && !map.borders(stack.region).iter().any(|(r, m)| {
            m.intersects(crate::map::Mobility::FLEET)
                && map.province_of(*r) == dest
                && map.admits(*r, UnitKind::Fleet)
        })
    {
        // The judge does not check a leaving part's move: it must be a
        // fleet's move to a place next to it.
        return Err(Illegal::NotAdjacent);
    }
    sp.sailing[s] = Some(dest);
    if leaving[s] {
        sp.prep.aboard.push(Aboard { unit: s, to: dest });
    } else if let Some(host) = (0..stacks.len()).find(|&o| {
        o != s
            && stacks[o].0.power == stack.power
            && map.province_of(stacks[o].0.region) == dest
            && stays(o)
    }) {
        // Joining its own stack that stays there: it adds to that stack's
        // defence and comes in behind it.
        sp.joins[s] = Some(host);
        sp.prep.support.push((s, size));
        return Ok(MainCommand::SupportHold {
            unit: UnitRef {
                kind: Some(UnitKind::Fleet),
                at: Place::of_region(map, stacks[host].0.region),
            },
        });
    } else if let Some(lead) =
        (0..s).find(|&o| sp.sailing[o] == Some(dest) && stacks[o].0.power == stack.power)
    {
        // Joining another of its stacks on the way in: its strength goes
        // with the leader's move.
        sp.follows[s] = Some(lead);
        sp.prep.support.push((s, size));
        return Ok(MainCommand::SupportMove {
            unit: UnitRef {
                kind: Some(UnitKind::Fleet),
                at: Place::of_region(map, stacks[lead].0.region),
            },
            to,
        });
    }
    if double {
        // Rule 4: the double strength is the move's; a stack whose
        // double move fails defends with its fleets, as a land unit does.
        sp.prep.strength.retain(|(x, _)| *x != s);
        sp.prep.strength.push((s, 2 * size));
        sp.prep.held.push((s, size));
    }
    Ok(command_of(&Step::Move(to)))
}

/// The stacks of a sea round: (power, region, order) -> members, with
/// whether each is a part leaving its place. Stacked fleets are separate
/// fleets (rule 8): orders for part of a stack move that part; the fleets
/// of a place that stay there act as one stack.
#[allow(clippy::type_complexity)]
fn sea_stacks(
    round: usize,
    plans: &[Option<Plan>],
    fleets: &[(Unit, usize)],
    stands: &[Standing],
) -> (Vec<(Unit, Vec<usize>)>, Vec<bool>) {
    let order_at = |m: usize| plans[fleets[m].1].as_ref().map(|p| p.order);
    let sails = |m: usize| {
        plans[fleets[m].1]
            .as_ref()
            .and_then(|p| p.steps[round].as_ref())
            .is_some_and(|(s, _)| matches!(s, Step::Move(_)) && !stands[fleets[m].1].voids(s))
    };
    let mut stacks: Vec<(Unit, Vec<usize>)> = Vec::new();
    for (i, (f, _)) in fleets.iter().enumerate() {
        match stacks.iter_mut().find(|(s, m)| {
            s.power == f.power
                && s.region == f.region
                && (order_at(m[0]) == order_at(i) || (!sails(m[0]) && !sails(i)))
        }) {
            Some((_, m)) => m.push(i),
            None => stacks.push((*f, vec![i])),
        }
    }
    // Where a stack split, one part is the judge's unit in the place (the
    // one staying, else the first); the parts sailing away are judged as
    // units leaving it, as armies landing from a boat are. The judge's unit
    // comes last, for the judge takes the last unit it sees in a place.
    let resident = |t: usize, stacks: &[(Unit, Vec<usize>)]| {
        let same = |o: usize| {
            stacks[o].0.power == stacks[t].0.power && stacks[o].0.region == stacks[t].0.region
        };
        let staying = (0..stacks.len()).find(|&o| same(o) && !sails(stacks[o].1[0]));
        staying.or_else(|| (0..stacks.len()).find(|&o| same(o))) == Some(t)
    };
    let leaving: Vec<bool> = (0..stacks.len()).map(|t| !resident(t, &stacks)).collect();
    let mut order: Vec<usize> = (0..stacks.len()).collect();
    order.sort_by_key(|&t| !leaving[t]);
    let stacks: Vec<(Unit, Vec<usize>)> = order.iter().map(|&t| stacks[t].clone()).collect();
    let leaving: Vec<bool> = order.iter().map(|&t| leaving[t]).collect();
    (stacks, leaving)
}

/// How a sea round's stacks moved: what the outcome is read with.
struct SeaMoves<'a> {
    /// The stacks (see [`sea_stacks`]).
    stacks: &'a [(Unit, Vec<usize>)],
    /// Whether each is a part leaving its place.
    leaving: &'a [bool],
    /// The stack each follows into a space, joining it on the way in.
    follows: &'a [Option<usize>],
    /// The stack each joins where it stays.
    joins: &'a [Option<usize>],
    /// The stacks meaning to sail this round.
    meant_move: &'a [usize],
}

/// Where each stack ends a sea round: moved, stood (for the rest of the
/// turn if its move failed), retreated or lost. Returns the retreats and
/// the places the dislodged stacks were driven from.
#[allow(clippy::type_complexity)]
fn sea_outcome(
    map: &Map,
    m: &SeaMoves<'_>,
    result: &MovementResult,
    fleets: &mut Vec<(Unit, usize)>,
    stands: &mut [Standing],
    may_enter: &dyn Fn(PowerId, ProvinceId) -> bool,
    owners: &[Option<PowerId>],
) -> (Vec<(Unit, Option<RegionId>)>, Vec<RegionId>) {
    let SeaMoves {
        stacks,
        leaving,
        follows,
        joins,
        meant_move,
    } = *m;
    // Where each stack ends the round.
    let moved = |s: usize| {
        matches!(
            (result.units[s].command, &result.units[s].outcome),
            (Resolved::Move { .. }, Outcome::Moved)
        )
    };
    let mut retreats = Vec::new();
    let mut dislodged_stacks = Vec::new();
    // The dislodged fleets where they retreated to this round.
    let mut retreated: Vec<Unit> = Vec::new();
    for (s, (stack, members)) in stacks.iter().enumerate() {
        let r = &result.units[s];
        if let Some(d) = &r.dislodged {
            // Not where another retreating stack went, nor beyond what a
            // place may hold (the position must stay storable).
            let options: Vec<RegionId> = d
                .retreats
                .iter()
                .copied()
                .filter(|r| {
                    let q = map.province_of(*r);
                    may_enter(stack.power, q) && storable(map, stack, q, retreated.iter().copied())
                })
                .collect();
            let to = gm_retreat(map, stack, &options, owners);
            if let Some(region) = to {
                retreated.extend(members.iter().map(|_| Unit { region, ..*stack }));
            }
            for &m in members {
                match to {
                    Some(region) => fleets[m].0.region = region,
                    None => fleets[m].0.region = RegionId(u16::MAX),
                }
            }
            retreats.push((*stack, to));
            dislodged_stacks.push(stack.region);
            for &m in members {
                stands[fleets[m].1].mark(Standing::Dislodged);
            }
            continue;
        }
        let region = match (r.command, &r.outcome) {
            (Resolved::Move { to, .. }, Outcome::Moved) => Some(to),
            _ => follows[s]
                .filter(|&l| moved(l))
                .map(|l| match result.units[l].command {
                    Resolved::Move { to, .. } => to,
                    _ => stacks[l].0.region,
                })
                .or_else(|| {
                    // Only if it could sail there (its order stood).
                    joins[s]
                        .filter(|&h| r.order.is_some() && result.units[h].dislodged.is_none())
                        .map(|h| stacks[h].0.region)
                }),
        };
        match region {
            Some(region) => {
                for &m in members {
                    fleets[m].0.region = region;
                }
            }
            None if meant_move.contains(&s) => {
                for &m in members {
                    stands[fleets[m].1].mark(Standing::MoveFailed);
                }
            }
            None => {}
        }
    }
    // A part that could not leave shares the fate of the part it stayed
    // with.
    for s in (0..stacks.len()).filter(|&s| leaving[s] && !moved(s)) {
        let (power, region) = (stacks[s].0.power, stacks[s].0.region);
        let host = (0..stacks.len()).find(|&h| {
            !leaving[h]
                && stacks[h].0.power == power
                && stacks[h].0.region == region
                && result.units[h].dislodged.is_some()
        });
        if let Some(h) = host {
            let to = fleets[stacks[h].1[0]].0.region;
            for &m in &stacks[s].1 {
                fleets[m].0.region = to;
                stands[fleets[m].1].mark(Standing::Dislodged);
            }
        } else if fleets
            .iter()
            .any(|(f, _)| f.region == region && f.power != power && f.region != RegionId(u16::MAX))
        {
            // Its own part sailed away and another power's fleets came in:
            // it cannot stay beside them, and is lost.
            for &m in &stacks[s].1 {
                fleets[m].0.region = RegionId(u16::MAX);
            }
            retreats.push((stacks[s].0, None));
        }
    }
    fleets.retain(|(f, _)| f.region != RegionId(u16::MAX));
    (retreats, dislodged_stacks)
}
