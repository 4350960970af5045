//! Abstraction II's Army/Fleet (rule 3), as a layer around the movement
//! judge: the rules are rewritten into what the judge already knows, then
//! its answer is folded back onto the board as the players see it.
//!
//! - An A/F is a fleet with an army aboard. It fights as one fleet, so the
//!   judge sees a fleet; it may not ferry another army.
//! - `A(Lon) boards F(ENG)`: before the moves the army leaves London and
//!   the fleet becomes an A/F, whose orders (`A/F(ENG)-MAO`) follow.
//! - `A/F(TYS) disembarks A(Tun)`: the army lands as a unit of its own for
//!   the judge, moving from the sea, that can be neither attacked nor held
//!   by the attacks on its fleet. If the fleet sails elsewhere (`F(TYS)-
//!   WMS`) it may do so only if the army lands (else the army would
//!   drown); if the army lands from the sea the fleet sails to (`A/F(ENG)-
//!   MAO`, `A/F(ENG) disembarks A(Por)`), it lands only if the fleet gets
//!   there, and (the rule's exception) a landing that would change the
//!   outcome of its own fleet's move fails.
//! - `A/F(ENG) disembarks A(ENG)-Bre S by F(ENG)`: the fleet supports its
//!   own army's landing.
//! - The fast ferry is the standard convoy, one fleet across one sea; an
//!   army it cannot land stays aboard, and the fleet is an A/F.
//!
//! The variant file turns this on with `[army-fleet] laden = true` (the
//! A/F) or `[ferry] only = true` (the fast ferry alone): see `super`.

use crate::adjudicate::Illegal;
use crate::adjudicate::movement::{
    Aboard, MovementResult, OrderIndex, Outcome, Prepared, Resolved, Special,
    adjudicate_movement_prepared,
};
use crate::adjudicate::questions::RuleQuestions;
use crate::adjudicate::rulebook::Rulebook;
use crate::calendar::Phase;
use crate::map::{Map, ProvinceId, Terrain, Unit, UnitKind};
use crate::orders::{MainCommand, MainOrder, Place, UnitRef};

/// A landing planned from one A/F.
struct Landing {
    /// The A/F (index in the original units).
    af: usize,
    /// The disembarking order.
    order: usize,
    /// Where the army lands.
    to: ProvinceId,
    /// It lands from the sea its fleet sails to (not the one it is in).
    after_sailing: bool,
    /// 1000 AD's fast ferry: the army (index in the original units) that
    /// boarded this move and stays on the board until it lands.
    army: Option<usize>,
}

/// What a phase is judged from.
#[derive(Clone, Copy)]
struct Setting<'a> {
    map: &'a Map,
    q: &'a dyn RuleQuestions,
    phase: Option<Phase>,
    units: &'a [Unit],
    orders: &'a [MainOrder],
}

/// Who carries whom when the moves begin, from the boarding orders.
struct Boarding {
    /// A/Fs, and fleets boarded.
    laden: Vec<bool>,
    /// Armies that boarded: off the judge's board.
    boarded: Vec<bool>,
    /// Each army's boarding order.
    board_order: Vec<Option<usize>>,
    /// 1000 AD: the army each fleet ferries this move.
    ferry_of: Vec<Option<usize>>,
}

/// The judge's side of a phase: its board, orders and answer.
struct Judged {
    /// The judge's board (boarded armies left out, landing armies added).
    board: Vec<Unit>,
    /// Its answer.
    r: MovementResult,
    /// Each original unit's index on the judge's board.
    index_of: Vec<Option<usize>>,
    /// Each judge order's sheet order.
    judge_index: Vec<usize>,
    /// How many units the judge's board has before the landing armies.
    work_len: usize,
}

/// Adjudicate a movement phase of a game with A/Fs.
pub(crate) fn adjudicate_with_army_fleets(
    map: &Map,
    rules: &Rulebook,
    q: &dyn RuleQuestions,
    phase: Option<Phase>,
    units: &[Unit],
    orders: &[MainOrder],
) -> MovementResult {
    let s = Setting {
        map,
        q,
        phase,
        units,
        orders,
    };
    let mut verdicts: Vec<Option<Illegal>> = vec![None; orders.len()];
    let b = read_boardings(s, &mut verdicts);
    let (work, index_of) = judge_board(units, &b.boarded);
    let (judge_orders, judge_index, landings) = orders_for_judge(s, &b, &mut verdicts);

    let run = |landings: &[&Landing]| {
        let mut board = work.clone();
        let mut prep = Prepared::default();
        for l in landings {
            let fleet = index_of[l.af].expect("an A/F is on the judge's board");
            if let Some(army) = l.army {
                let a = index_of[army].expect("a ferried army stays on the board");
                prep.ferried.push((a, l.to));
                prep.needs.push((a, fleet));
                continue;
            }
            let a = board.len();
            board.push(Unit {
                power: units[l.af].power,
                kind: UnitKind::Army,
                region: units[l.af].region,
            });
            prep.aboard.push(Aboard { unit: a, to: l.to });
            if l.after_sailing {
                prep.needs.push((a, fleet));
            } else {
                prep.needs.push((fleet, a));
            }
        }
        let r = adjudicate_movement_prepared(map, rules, q, phase, &board, &judge_orders, &prep);
        (board, r)
    };
    let all: Vec<&Landing> = landings.iter().collect();
    let (mut board, mut r) = run(&all);
    // The exception: a landing after sailing may not decide its own
    // fleet's move. Where leaving it out changes the fleet's outcome, the
    // landing fails.
    let sailing: Vec<&Landing> = landings.iter().filter(|l| l.after_sailing).collect();
    if !sailing.is_empty() {
        let without: Vec<&Landing> = landings.iter().filter(|l| !l.after_sailing).collect();
        let (_, r0) = run(&without);
        let changed: Vec<usize> = sailing
            .iter()
            .filter(|l| {
                let f = index_of[l.af].expect("on the board");
                r0.units[f].outcome != r.units[f].outcome
            })
            .map(|l| l.af)
            .collect();
        if !changed.is_empty() {
            let kept: Vec<&Landing> = landings
                .iter()
                .filter(|l| !changed.contains(&l.af))
                .collect();
            (board, r) = run(&kept);
            for l in landings.iter().filter(|l| changed.contains(&l.af)) {
                verdicts[l.order] = Some(Illegal::LandingWouldDecideItsFleet);
            }
        }
    }

    // Fold the judge's answer back onto the players' board.
    for (k, v) in r.orders.iter().enumerate() {
        let i = judge_index[k];
        // A support added for a landing speaks for the landing's order only
        // if the landing itself was legal.
        if matches!(orders[i].command, MainCommand::Disembark { .. }) {
            continue;
        }
        verdicts[i] = *v;
    }
    let judged = Judged {
        board,
        r,
        index_of,
        judge_index,
        work_len: work.len(),
    };
    let (out, landed) = fold_units(s, &b, &judged, &landings, &verdicts);
    MovementResult {
        units: out,
        orders: verdicts,
        contested: judged.r.contested,
        landings: landed,
    }
}

/// The boarding orders: who carries an army when the moves begin (A/Fs,
/// and fleets boarded), each refused boarding with its reason.
fn read_boardings(s: Setting<'_>, verdicts: &mut [Option<Illegal>]) -> Boarding {
    let Setting {
        map,
        q,
        phase,
        units,
        orders,
    } = s;
    let n = units.len();
    let at = |p: ProvinceId| units.iter().position(|u| map.province_of(u.region) == p);
    let is_sea = |p: ProvinceId| map.province(p).terrain == Terrain::Sea;
    let mut laden: Vec<bool> = units
        .iter()
        .map(|u| u.kind == UnitKind::ArmyFleet)
        .collect();
    let mut boarded = vec![false; n];
    let mut board_order: Vec<Option<usize>> = vec![None; n];
    // The fleet each army boards (its latest boarding order's).
    let mut board_fleet: Vec<Option<usize>> = vec![None; n];
    // 1000 AD: the army each fleet ferries this move.
    let mut ferry_of: Vec<Option<usize>> = vec![None; n];
    let ferry_only = q.ferry_only();
    for (i, o) in orders.iter().enumerate() {
        let MainCommand::Board { fleet } = &o.command else {
            continue;
        };
        let army = at(o.unit.at.province);
        let ship = at(fleet.at.province);
        let why = match (army, ship) {
            (None, _) => Some(Illegal::NoUnit),
            (Some(a), _) if units[a].power != o.power => Some(Illegal::ForeignUnit(units[a].power)),
            // 1000 AD: the defensive army goes by the regular convoy only
            // (the struck-out draft's fast ferry speaks of "an army").
            (Some(a), _) if units[a].kind == UnitKind::DefensiveArmy => {
                Some(Illegal::FerryArmiesOnly)
            }
            (Some(a), _) if units[a].kind != UnitKind::Army => Some(Illegal::NotAnArmy),
            (_, None) => Some(Illegal::NoSuchUnit),
            // Rule 5: armies held by the ice leave overland only, and a
            // frozen fleet neither sails nor carries.
            (Some(a), Some(f))
                if q.icebound(map.province_of(units[a].region), UnitKind::Army, phase)
                    || q.icebound(map.province_of(units[f].region), UnitKind::Fleet, phase) =>
            {
                Some(Illegal::Frozen)
            }
            (Some(a), Some(f)) => {
                let fleet = units[f];
                let army = units[a];
                if fleet.power != o.power
                    || fleet.kind != UnitKind::Fleet
                    || laden[f]
                    || !is_sea(map.province_of(fleet.region))
                    || !map.reaches(
                        map.province(map.province_of(army.region)).main_region(),
                        map.province_of(fleet.region),
                        UnitKind::Fleet,
                    )
                {
                    Some(Illegal::CannotBoard)
                } else {
                    None
                }
            }
        };
        match why {
            Some(w) => verdicts[i] = Some(w),
            None => {
                let (a, f) = (army.unwrap_or(0), ship.unwrap_or(0));
                if ferry_only {
                    if let Some(prev) = board_order[a] {
                        verdicts[prev] = Some(Illegal::Replaced);
                    }
                    board_order[a] = Some(i);
                    ferry_of[f] = Some(a);
                    continue;
                }
                if boarded[a] {
                    // A second boarding order for the same army: the later
                    // one stands, as for any unit, and the fleet of the
                    // earlier one carries nobody (one army, one A/F).
                    if let Some(prev) = board_order[a] {
                        verdicts[prev] = Some(Illegal::Replaced);
                    }
                    if let Some(pf) = board_fleet[a] {
                        laden[pf] = false;
                    }
                }
                boarded[a] = true;
                board_order[a] = Some(i);
                board_fleet[a] = Some(f);
                laden[f] = true;
            }
        }
    }
    Boarding {
        laden,
        boarded,
        board_order,
        ferry_of,
    }
}

/// The units as the judge sees them, with each original unit's index
/// there: A/Fs are fleets, boarded armies are gone (parked in their own
/// province, ordered nothing and never counted).
fn judge_board(units: &[Unit], boarded: &[bool]) -> (Vec<Unit>, Vec<Option<usize>>) {
    // counted: they are left out of the judge's board below).
    let mut work: Vec<Unit> = Vec::new();
    let mut index_of: Vec<Option<usize>> = vec![None; units.len()];
    for (i, u) in units.iter().enumerate() {
        if boarded[i] {
            continue;
        }
        index_of[i] = Some(work.len());
        let kind = if u.kind == UnitKind::ArmyFleet {
            UnitKind::Fleet
        } else {
            u.kind
        };
        work.push(Unit { kind, ..*u });
    }

    (work, index_of)
}

/// The orders for the judge, each with its sheet order; disembarkings
/// become landings.
fn orders_for_judge(
    s: Setting<'_>,
    b: &Boarding,
    verdicts: &mut [Option<Illegal>],
) -> (Vec<MainOrder>, Vec<usize>, Vec<Landing>) {
    let Setting {
        map,
        q,
        phase,
        units,
        orders,
    } = s;
    let Boarding {
        laden,
        boarded,
        board_order,
        ferry_of,
    } = b;
    let ferry_only = q.ferry_only();
    let at = |p: ProvinceId| units.iter().position(|u| map.province_of(u.region) == p);
    let is_sea = |p: ProvinceId| map.province(p).terrain == Terrain::Sea;
    let mut judge_orders: Vec<MainOrder> = Vec::new();
    let mut judge_index: Vec<usize> = Vec::new();
    let mut landings: Vec<Landing> = Vec::new();
    let sails_to = |af: usize| {
        orders.iter().rev().find_map(|o| match &o.command {
            MainCommand::Move { to, .. }
                if map.province_of(units[af].region) == o.unit.at.province =>
            {
                Some(to.province)
            }
            _ => None,
        })
    };
    for (i, o) in orders.iter().enumerate() {
        if verdicts[i].is_some() || matches!(o.command, MainCommand::Board { .. }) {
            continue;
        }
        let u = at(o.unit.at.province);
        if let Some(u) = u
            && (boarded[u] || board_order[u].is_some())
        {
            verdicts[i] = Some(Illegal::Boarded);
            continue;
        }
        match &o.command {
            MainCommand::Disembark { to, .. } => {
                let Some(af) = u else {
                    verdicts[i] = Some(Illegal::NoUnit);
                    continue;
                };
                if units[af].power != o.power {
                    verdicts[i] = Some(Illegal::ForeignUnit(units[af].power));
                    continue;
                }
                if !laden[af] && ferry_of[af].is_none() {
                    verdicts[i] = Some(Illegal::NothingAboard);
                    continue;
                }
                if q.icebound(map.province_of(units[af].region), UnitKind::Fleet, phase) {
                    verdicts[i] = Some(Illegal::Frozen);
                    continue;
                }
                let coast = map.province(to.province);
                let lands = coast.terrain == Terrain::Coast;
                let here = map.province_of(units[af].region);
                let from_here = lands
                    && map.reaches(
                        map.province(here).main_region(),
                        to.province,
                        UnitKind::Fleet,
                    );
                let from_there = sails_to(af).filter(|&s| {
                    lands
                        && map.reaches(map.province(s).main_region(), to.province, UnitKind::Fleet)
                });
                // The fast ferry sails one sea and lands from there.
                let ferry = ferry_of[af].filter(|_| ferry_only);
                if (ferry.is_some() && from_there.is_none()) || (!from_here && from_there.is_none())
                {
                    verdicts[i] = Some(Illegal::CannotLand);
                    continue;
                }
                if let Some(k) = landings.iter().position(|l| l.af == af) {
                    verdicts[landings[k].order] = Some(Illegal::Replaced);
                    landings.remove(k);
                }
                landings.push(Landing {
                    af,
                    order: i,
                    to: to.province,
                    after_sailing: ferry.is_some() || !from_here,
                    army: ferry,
                });
            }
            MainCommand::Convoy { .. } if u.is_some_and(|f| laden[f]) => {
                verdicts[i] = Some(Illegal::LadenCannotFerry);
            }
            MainCommand::Move { to, .. } => {
                // Rule 3: an A/F "may never enter a coastal province"; its
                // army lands with `disembarks`.
                if let Some(f) = u
                    && laden[f]
                    && !is_sea(to.province)
                {
                    verdicts[i] = Some(Illegal::ArmyFleetAtSea);
                    continue;
                }
                // The fast ferry crosses one sea with one fleet (1000 AD
                // keeps the standard convoy). A move between places no sea
                // joins is simply not adjacent, for the judge to say.
                let coastal = |p: ProvinceId| map.province(p).terrain == Terrain::Coast;
                if !ferry_only
                    && let Some(a) = u
                    && units[a].kind == UnitKind::Army
                    && !map.reaches(units[a].region, to.province, UnitKind::Army)
                    && coastal(map.province_of(units[a].region))
                    && coastal(to.province)
                {
                    let from = map.province_of(units[a].region);
                    let one_sea = units.iter().enumerate().any(|(f, x)| {
                        !laden[f]
                            && x.kind == UnitKind::Fleet
                            && is_sea(map.province_of(x.region))
                            && map.reaches(x.region, from, UnitKind::Fleet)
                            && map.reaches(x.region, to.province, UnitKind::Fleet)
                    });
                    if !one_sea {
                        verdicts[i] = Some(Illegal::FerryOneSea);
                        continue;
                    }
                }
                judge_orders.push(o.clone());
                judge_index.push(i);
            }
            _ => {
                judge_orders.push(o.clone());
                judge_index.push(i);
            }
        }
    }
    landing_supports(s, &landings, &mut judge_orders, &mut judge_index);
    (judge_orders, judge_index, landings)
}

/// A fleet supporting its own army's landing (`... S by F(ENG)`) unless
/// the fleet was given another order.
fn landing_supports(
    s: Setting<'_>,
    landings: &[Landing],
    judge_orders: &mut Vec<MainOrder>,
    judge_index: &mut Vec<usize>,
) {
    let Setting {
        map, units, orders, ..
    } = s;
    for l in landings {
        let MainCommand::Disembark {
            to,
            fleet_supports: true,
        } = &orders[l.order].command
        else {
            continue;
        };
        let here = map.province_of(units[l.af].region);
        let ordered = judge_orders.iter().any(|o| o.unit.at.province == here);
        if !ordered {
            judge_orders.push(MainOrder {
                power: units[l.af].power,
                unit: UnitRef {
                    kind: Some(UnitKind::Fleet),
                    at: Place::province(here),
                },
                command: MainCommand::SupportMove {
                    unit: UnitRef {
                        kind: Some(UnitKind::Army),
                        at: Place::province(here),
                    },
                    to: *to,
                },
            });
            judge_index.push(l.order);
        }
    }
}

/// Fold the judge's answer back onto the players' board: each original
/// unit's result, the armies left aboard, and each A/F's or ferry's
/// landing (by unit, for [`MovementResult::landings`]).
fn fold_units(
    s: Setting<'_>,
    b: &Boarding,
    judged: &Judged,
    landings: &[Landing],
    verdicts: &[Option<Illegal>],
) -> (
    Vec<crate::adjudicate::movement::UnitResult>,
    Vec<(usize, crate::adjudicate::movement::Landing)>,
) {
    let Setting { map, q, units, .. } = s;
    let Judged {
        board,
        r,
        index_of,
        judge_index,
        work_len,
    } = judged;
    let n = units.len();
    let ferry_only = q.ferry_only();
    let (laden, boarded, board_order) = (&b.laden, &b.boarded, &b.board_order);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let mut ur = match index_of[i] {
            Some(w) => {
                let mut ur = r.units[w].clone();
                ur.order = ur
                    .order_index()
                    .and_then(|k| OrderIndex::new(judge_index[k]));
                if let Some(d) = &mut ur.dislodged {
                    d.by = original(index_of, d.by, board, units, map);
                }
                ur
            }
            None => crate::adjudicate::movement::UnitResult {
                order: board_order[i].and_then(OrderIndex::new),
                command: Resolved::Hold,
                outcome: Outcome::Held,
                dislodged: None,
                special: Special::Boarded,
            },
        };
        match &mut ur.command {
            Resolved::SupportHold { unit } | Resolved::SupportMove { unit, .. } => {
                *unit = original(index_of, usize::from(*unit), board, units, map) as u16;
            }
            Resolved::Convoy { army, .. } => {
                *army = original(index_of, usize::from(*army), board, units, map) as u16;
            }
            _ => {}
        }
        if let Outcome::Cut(by) = &mut ur.outcome {
            *by = original(index_of, *by, board, units, map);
        }
        if let Outcome::Bounced { with } = &mut ur.outcome {
            with.renumber(|by| original(index_of, by, board, units, map));
        }
        if laden[i] {
            ur.special = Special::Laden;
        }
        out.push(ur);
    }
    // Landings.
    let landed_units: Vec<(usize, usize)> = {
        // (A/F, index of its army on the judge's board), in the order run.
        landings
            .iter()
            .filter(|l| verdicts[l.order].is_none() && l.army.is_none())
            .zip(*work_len..)
            .map(|(l, a)| (l.af, a))
            .chain(
                landings
                    .iter()
                    .filter(|l| verdicts[l.order].is_none())
                    .filter_map(|l| Some((l.af, index_of[l.army?]?))),
            )
            .collect()
    };
    let mut landed_orders = Vec::new();
    for (af, a) in landed_units {
        let l = landings.iter().find(|l| l.af == af).expect("a landing");
        let res = &r.units[a];
        landed_orders.push((
            af,
            crate::adjudicate::movement::Landing {
                order: l.order,
                outcome: res.outcome.clone(),
            },
        ));
        out[af].special = if l.army.is_some() {
            // The ferried army's own line says where it went.
            Special::Ferried
        } else {
            let landed = (res.outcome == Outcome::Moved).then(|| map.province(l.to).main_region());
            Special::Disembarked { landed }
        };
    }
    // A ferried army's line is its boarding order.
    for i in 0..n {
        if ferry_only && board_order[i].is_some() && out[i].order.is_none() {
            out[i].order = board_order[i].and_then(OrderIndex::new);
        }
    }
    // Fast ferries that could not land their army: it stays aboard (not in
    // 1000 AD, where no A/F is ever formed).
    for i in (0..n).filter(|_| !ferry_only) {
        let ur = &out[i];
        if units[i].kind != UnitKind::Army || boarded[i] {
            continue;
        }
        let Resolved::Move { .. } = ur.command else {
            continue;
        };
        if !matches!(ur.outcome, Outcome::Bounced { .. }) {
            continue;
        }
        // Only one's own fleet may keep an army aboard: carried by another
        // power's fleet, an army that cannot land stays where it started,
        // and stays its own power's.
        let ferry = (0..n).find(|&f| {
            matches!(out[f].command, Resolved::Convoy { army, .. } if usize::from(army) == i)
                && out[f].outcome == Outcome::Convoyed
                && out[f].dislodged.is_none()
                && units[f].power == units[i].power
        });
        if let Some(f) = ferry {
            // Aboard, it is no longer where it started: an attack there
            // finds the place empty and dislodges nobody.
            out[i].special = Special::Boarded;
            out[i].dislodged = None;
            out[f].special = Special::Laden;
            // Laden, it tells no landing of its own.
            landed_orders.retain(|&(u, _)| u != f);
        }
    }
    (out, landed_orders)
}

/// The original index of unit `w` of the judge's board.
fn original(
    index_of: &[Option<usize>],
    w: usize,
    board: &[Unit],
    units: &[Unit],
    map: &Map,
) -> usize {
    if let Some(i) = index_of.iter().position(|x| *x == Some(w)) {
        return i;
    }
    // An army landing from an A/F: the A/F stands for it.
    let p = map.province_of(board[w].region);
    units
        .iter()
        .position(|u| map.province_of(u.region) == p)
        .unwrap_or(0)
}
