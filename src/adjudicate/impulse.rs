//! 1700 AD II's yearly turn (rules 4, 5 and 7) as rounds of the standard
//! movement judge: every unit has two impulses (a leader three), each an
//! action of standard Diplomacy; first impulses are judged together, then
//! second impulses, from where the first left each unit.
//!
//! - `(x2)`: a unit spends both impulses on one move or support at double
//!   strength, in the first round; a double support counts double only for
//!   a double move (rule 4: "a double strength support for a single impulse
//!   move ... would only count as a single support").
//! - Leaders (rule 7) move and support with triple strength; their second
//!   and third impulses come with everybody's second ones: here the second
//!   in the second round and the third in a round of leaders alone, or, with
//!   `(x2)`, the two together as one double action in the second round.
//! - A second impulse that no longer makes sense (the unit did not get
//!   where its first meant to take it) is judged like any order from where
//!   the unit stands; an impossible one leaves it standing (rule 4).
//! - Retreats come after the round of the attack (rule 5): the player's
//!   retreat order from the sheet if it fits, else the GM's rule: toward
//!   the nearest supply centre the power controls, home centres first, then
//!   alphabetically; a unit that cannot get closer is disbanded. A leader is
//!   never disbanded for want of an order, and displaces a friendly army.
//!
//! This is the land game of 1700 AD II; its fleets (stacks, harbours,
//! convoys by strength), supply lines and armed neutrals are still to come,
//! and the variant is not yet offered by the judge.

use super::Illegal;
use super::movement::{MovementResult, Outcome, Prepared, Resolved, adjudicate_movement_prepared};
use crate::map::{Map, PowerId, ProvinceId, RegionId, Unit, UnitKind};
use crate::orders::{MainCommand, MainOrder, Place, RetreatCommand, RetreatOrder, Step, UnitRef};
use crate::variant::features::Features;
use crate::variant::{Phase, Rulebook};

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
}

/// A whole turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// The rounds, in order.
    pub rounds: Vec<Round>,
    /// Per sheet order: `None` if it was used, else why not.
    pub orders: Vec<Option<Illegal>>,
    /// The board after the moves and retreats.
    pub units_after: Vec<Unit>,
    /// The armed neutrals still unoccupied, with their strength.
    pub garrisons_after: Vec<(ProvinceId, u32)>,
}

/// What each unit does in each round.
struct Plan {
    /// The unit's steps, one per round (leaders: a third round).
    steps: Vec<Option<(Step, bool)>>,
    /// The sheet order.
    order: usize,
}

/// The plan for one order: the steps of each round, with their double
/// mark.
fn plan(kind: UnitKind, command: &MainCommand) -> Result<Vec<Option<(Step, bool)>>, Illegal> {
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
        (true, false, n) if n <= 3 => {
            for (i, s) in steps.into_iter().enumerate() {
                out[i] = Some((s, false));
            }
        }
        _ => return Err(Illegal::TooManyImpulses),
    }
    Ok(out)
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
}

/// The power the armed neutrals' garrisons stand for in the judge: nobody's.
pub const NEUTRAL: PowerId = PowerId(u8::MAX);

/// Judge a turn of 1700 AD II.
pub fn adjudicate_turn(
    map: &Map,
    rules: &Rulebook,
    features: &Features,
    phase: Option<Phase>,
    input: TurnInput<'_>,
) -> Turn {
    let TurnInput {
        units,
        orders,
        retreats: retreat_orders,
        owners,
        garrisons,
    } = input;
    let mut garrisons: Vec<(ProvinceId, u32)> = garrisons.to_vec();
    let mut verdicts: Vec<Option<Illegal>> = vec![None; orders.len()];
    // Each unit's plan, by its index in `units` (the last order wins).
    let mut plans: Vec<Option<Plan>> = (0..units.len()).map(|_| None).collect();
    for (i, o) in orders.iter().enumerate() {
        let Some(u) = units
            .iter()
            .position(|x| map.province_of(x.region) == o.unit.at.province)
        else {
            verdicts[i] = Some(Illegal::NoUnit);
            continue;
        };
        if units[u].power != o.power {
            verdicts[i] = Some(Illegal::ForeignUnit(units[u].power));
            continue;
        }
        match plan(units[u].kind, &o.command) {
            Err(e) => verdicts[i] = Some(e),
            Ok(steps) => {
                if let Some(prev) = &plans[u] {
                    verdicts[prev.order] = Some(Illegal::Replaced);
                }
                plans[u] = Some(Plan { steps, order: i });
            }
        }
    }

    // The units, followed through the rounds: (unit, its plan index).
    let mut board: Vec<(Unit, usize)> = units.iter().copied().zip(0..).collect();
    let mut rounds = Vec::new();
    for round in 0..3 {
        let acting: Vec<usize> = (0..board.len())
            .filter(|&b| {
                plans[board[b].1]
                    .as_ref()
                    .is_some_and(|p| p.steps[round].is_some())
            })
            .collect();
        if round > 0 && acting.is_empty() {
            break;
        }
        // Round three is the leaders' alone.
        let mut here: Vec<Unit> = board.iter().map(|(u, _)| *u).collect();
        let mut judge_orders: Vec<(MainOrder, usize)> = Vec::new();
        let mut prep = Prepared::default();
        // An armed neutral centre defends itself (rule 10b): a garrison of
        // nobody's, which any power may support, and which is lost once a
        // unit occupies the centre.
        garrisons.retain(|(p, _)| !here.iter().any(|u| map.province_of(u.region) == *p));
        for &(p, strength) in &garrisons {
            prep.strength.push((here.len(), strength));
            here.push(Unit {
                power: NEUTRAL,
                kind: UnitKind::Army,
                region: map.province(p).main_region(),
            });
        }
        let double_move: Vec<bool> = (0..board.len())
            .map(|b| {
                plans[board[b].1]
                    .as_ref()
                    .and_then(|p| p.steps[round].as_ref())
                    .is_some_and(|(s, d)| *d && matches!(s, Step::Move(_)))
            })
            .collect();
        for &b in &acting {
            let (u, k) = board[b];
            let p = plans[k].as_ref().expect("acting units have a plan");
            let (mut step, double) = p.steps[round].clone().expect("acting");
            let base = u.kind.strength();
            // Mountains (Switzerland, rule 10c): any action across the
            // border takes both impulses and goes at single strength.
            let here_p = map.province_of(u.region);
            let there = match &step {
                Step::Move(to) | Step::SupportMove(_, to) => Some(to.province),
                Step::SupportHold(t) => Some(t.at.province),
                _ => None,
            };
            let crossing = there.is_some_and(|t| {
                features.mountains.contains(&t) != features.mountains.contains(&here_p)
            });
            if crossing {
                if !double {
                    if verdicts[p.order].is_none() {
                        verdicts[p.order] = Some(Illegal::MountainCrossing);
                    }
                    step = Step::Hold;
                } else if matches!(step, Step::Move(_)) {
                    prep.strength.push((b, base));
                } else {
                    prep.support.push((b, base));
                }
            }
            if double && !crossing {
                match step {
                    Step::Move(_) | Step::Hold => prep.strength.push((b, 2 * base)),
                    Step::SupportMove(t, _) | Step::SupportHold(t) => {
                        // Double only for a double move.
                        let target = board
                            .iter()
                            .position(|(x, _)| map.province_of(x.region) == t.at.province);
                        let doubled = target.is_some_and(|t| double_move[t]);
                        prep.support
                            .push((b, if doubled { 2 * base } else { base }));
                    }
                    Step::Convoy(..) => {}
                }
            }
            judge_orders.push((
                MainOrder {
                    power: u.power,
                    unit: UnitRef {
                        kind: Some(u.kind),
                        at: Place::of_region(map, u.region),
                    },
                    command: command_of(&step),
                },
                p.order,
            ));
        }
        // A unit that stays in the mountains defends double.
        for (b, (u, _)) in board.iter().enumerate() {
            let moving = judge_orders.iter().any(|(o, _)| {
                o.unit.at.province == map.province_of(u.region)
                    && matches!(o.command, MainCommand::Move { .. })
            });
            if features.mountains.contains(&map.province_of(u.region))
                && !moving
                && !prep.strength.iter().any(|(x, _)| *x == b)
            {
                prep.strength.push((b, 2 * u.kind.strength()));
            }
        }
        let plain: Vec<MainOrder> = judge_orders.iter().map(|(o, _)| o.clone()).collect();
        let result =
            adjudicate_movement_prepared(map, rules, features, phase, &here, &plain, &prep);
        // The first round speaks for the sheet order; later rounds only
        // when the order was not already refused.
        for (k, v) in result.orders.iter().enumerate() {
            let i = judge_orders[k].1;
            if round == 0 && verdicts[i].is_none() {
                verdicts[i] = *v;
            }
        }
        // Moves, then retreats.
        let mut next: Vec<(Unit, usize)> = Vec::new();
        let mut dislodged: Vec<(Unit, usize, Vec<RegionId>, ProvinceId)> = Vec::new();
        for (b, r) in result.units.iter().enumerate() {
            if b >= board.len() {
                // A garrison beaten out of its centre is gone for good.
                if r.dislodged.is_some() {
                    let p = map.province_of(here[b].region);
                    garrisons.retain(|(g, _)| *g != p);
                }
                continue;
            }
            let (u, k) = board[b];
            if let Some(d) = &r.dislodged {
                dislodged.push((u, k, d.retreats.clone(), d.from));
                continue;
            }
            let u = match (r.command, r.outcome) {
                (Resolved::Move { to, .. }, Outcome::Moved) => Unit { region: to, ..u },
                _ => u,
            };
            next.push((u, k));
        }
        let mut retreats = Vec::new();
        for (u, k, options, _) in dislodged {
            let taken: Vec<ProvinceId> = next
                .iter()
                .map(|(x, _)| map.province_of(x.region))
                .chain(result.contested.iter().copied())
                .collect();
            let options: Vec<RegionId> = options
                .into_iter()
                .filter(|r| !taken.contains(&map.province_of(*r)))
                .collect();
            let ordered = retreat_orders.iter().rev().find_map(|o| match o.command {
                RetreatCommand::Move { to }
                    if o.power == u.power && o.unit.at.province == map.province_of(u.region) =>
                {
                    options
                        .iter()
                        .copied()
                        .find(|r| map.province_of(*r) == to.province)
                }
                _ => None,
            });
            let to = ordered.or_else(|| gm_retreat(map, &u, &options, owners));
            match to {
                Some(r) => next.push((Unit { region: r, ..u }, k)),
                None if u.kind == UnitKind::Leader => {
                    // A leader is never lost for want of a retreat: it takes
                    // the place of a friendly army next to it.
                    let displaced = next.iter().position(|(x, _)| {
                        x.power == u.power
                            && x.kind == UnitKind::Army
                            && map.reaches(u.region, map.province_of(x.region), UnitKind::Army)
                    });
                    match displaced {
                        Some(i) => {
                            let (army, _) = next.remove(i);
                            retreats.push((army, None));
                            next.push((
                                Unit {
                                    region: army.region,
                                    ..u
                                },
                                k,
                            ));
                        }
                        None => retreats.push((u, None)),
                    }
                    continue;
                }
                None => {}
            }
            retreats.push((u, to));
        }
        rounds.push(Round {
            board: here,
            orders: judge_orders,
            result,
            retreats,
        });
        board = next;
    }
    garrisons.retain(|(p, _)| !board.iter().any(|(u, _)| map.province_of(u.region) == *p));
    Turn {
        rounds,
        orders: verdicts,
        units_after: board.into_iter().map(|(u, _)| u).collect(),
        garrisons_after: garrisons,
    }
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
