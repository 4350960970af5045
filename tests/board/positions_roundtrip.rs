//! Every shipped variant played for many phases with random legal orders
//! (every unit kind and every special order the variant has): after each
//! phase the position must read back from its stored form exactly, and the
//! phase sequence must go on. A rule that produces a position the judge
//! cannot store jams a game by mail; this finds it offline.
//!
//! `cargo test --test board positions_roundtrip` plays a bounded number of phases
//! in CI; the ignored `long_run` plays many more.

use std::collections::BTreeMap;
use zinejudge::game::Position;
use zinejudge::game::step::{
    PhaseOrders, PhaseResult, due, judge_adjustments, move_verdicts, play,
};
use zinejudge::map::{Map, PowerId, ProvinceId, RegionId, Terrain, Unit, UnitKind};
use zinejudge::orders::{
    AdjustCommand, AdjustOrder, MainCommand, MainOrder, Order, Place, RetreatCommand, Step, UnitRef,
};
use zinejudge::variant::{PhaseKind, Variant, builtin};

/// A small deterministic generator (xorshift), so a failure can be
/// replayed from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> Option<&'a T> {
        if xs.is_empty() {
            None
        } else {
            Some(&xs[self.below(xs.len())])
        }
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

fn uref(map: &Map, u: &Unit) -> UnitRef {
    UnitRef {
        kind: Some(u.kind),
        at: Place::of_region(map, u.region),
    }
}

/// Regions next to `r`, any mobility.
fn near(map: &Map, r: RegionId) -> Vec<RegionId> {
    map.borders(r).iter().map(|(to, _)| *to).collect()
}

/// Places a unit might be told to go from `u`: neighbours of its region
/// and, for a unit in a box, of the spaces the box is also named as.
fn targets(v: &Variant, u: &Unit) -> Vec<Place> {
    let map = &v.map;
    let mut from = vec![u.region];
    if let Some(b) = v.features.box_at(map.province_of(u.region)) {
        from.extend(b.also_named.iter().map(|p| map.province(*p).main_region()));
        from.extend(b.enter_from.iter().map(|p| map.province(*p).main_region()));
    }
    let mut out: Vec<Place> = Vec::new();
    for f in from {
        for r in near(map, f) {
            let p = Place::of_region(map, r);
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    // Boxes a unit may raid into.
    for b in &v.features.boxes {
        if b.enter_from.contains(&map.province_of(u.region)) {
            out.push(Place::province(b.province));
        }
    }
    out
}

/// A random movement order for `u`, of any kind the variant has.
fn random_main(v: &Variant, pos: &Position, u: &Unit, rng: &mut Rng) -> MainCommand {
    let map = &v.map;
    let tg = targets(v, u);
    let others: Vec<&Unit> = pos.units.iter().filter(|x| x.region != u.region).collect();
    let neighbour_units: Vec<&Unit> = others
        .iter()
        .copied()
        .filter(|x| tg.iter().any(|t| t.province == map.province_of(x.region)))
        .collect();
    if v.syntax.impulses {
        let steps = 1 + rng.below(2);
        let mut out = Vec::new();
        for _ in 0..steps {
            out.push(match rng.below(4) {
                0 => Step::Hold,
                1 => match rng.pick(&neighbour_units) {
                    Some(x) => Step::SupportHold(uref(map, x)),
                    None => Step::Hold,
                },
                _ => match rng.pick(&tg) {
                    Some(t) => Step::Move(*t),
                    None => Step::Hold,
                },
            });
        }
        let double = out.len() == 1 && rng.chance(30);
        return MainCommand::Impulses {
            stack: 1,
            steps: out,
            double,
        };
    }
    match rng.below(10) {
        0 => MainCommand::Hold,
        1 => match rng.pick(&neighbour_units) {
            Some(x) => MainCommand::SupportHold { unit: uref(map, x) },
            None => MainCommand::Hold,
        },
        2 => {
            // Support a neighbour into a place both reach.
            let Some(x) = rng.pick(&neighbour_units) else {
                return MainCommand::Hold;
            };
            let theirs = targets(v, x);
            let both: Vec<Place> = tg
                .iter()
                .copied()
                .filter(|t| theirs.iter().any(|y| y.province == t.province))
                .collect();
            match rng.pick(&both) {
                Some(t) => MainCommand::SupportMove {
                    unit: uref(map, x),
                    to: Place::province(t.province),
                },
                None => MainCommand::Hold,
            }
        }
        3 if u.kind.can_convoy() => {
            let armies: Vec<&Unit> = neighbour_units
                .iter()
                .copied()
                .filter(|x| x.kind.is_convoyable())
                .collect();
            let coasts: Vec<Place> = tg
                .iter()
                .copied()
                .filter(|t| map.province(t.province).terrain == Terrain::Coast)
                .collect();
            match (rng.pick(&armies), rng.pick(&coasts)) {
                (Some(a), Some(t)) => MainCommand::Convoy {
                    unit: uref(map, a),
                    to: Place::province(t.province),
                },
                _ => MainCommand::Hold,
            }
        }
        4 if v.syntax.boarding && u.kind == UnitKind::Army => {
            let fleets: Vec<&Unit> = neighbour_units
                .iter()
                .copied()
                .filter(|x| x.kind == UnitKind::Fleet)
                .collect();
            match rng.pick(&fleets) {
                Some(f) => MainCommand::Board {
                    fleet: uref(map, f),
                },
                None => MainCommand::Hold,
            }
        }
        5 if v.syntax.boarding && u.kind == UnitKind::ArmyFleet => {
            let coasts: Vec<Place> = tg
                .iter()
                .copied()
                .filter(|t| map.province(t.province).terrain == Terrain::Coast)
                .collect();
            match rng.pick(&coasts) {
                Some(t) => MainCommand::Disembark {
                    to: Place::province(t.province),
                    fleet_supports: rng.chance(30),
                },
                None => MainCommand::Hold,
            }
        }
        6 if v.syntax.destroy => match &v.features.destroy {
            Some(d) => {
                let target = v
                    .features
                    .box_at(d.province)
                    .and_then(|b| b.also_named.first().copied())
                    .unwrap_or(d.province);
                MainCommand::Destroy {
                    target: UnitRef {
                        kind: Some(UnitKind::Army),
                        at: Place::province(target),
                    },
                }
            }
            None => MainCommand::Hold,
        },
        _ => match rng.pick(&tg) {
            Some(t) => MainCommand::Move {
                to: *t,
                via_convoy: rng.chance(5),
                route: Vec::new(),
            },
            None => MainCommand::Hold,
        },
    }
}

/// Random legal movement orders: each unit's order is drawn until the
/// judge would take it (three tries), else it holds.
fn movement_orders(v: &Variant, pos: &Position, rng: &mut Rng) -> Vec<MainOrder> {
    let mut orders: Vec<MainOrder> = pos
        .units
        .iter()
        .map(|u| {
            // A unit waiting in a box is often named where the rule text
            // says it waits (1066: `A(SOD)`, Harald's `A/F(GER)`), which
            // also places Harald's A/Fs and moves them from their seas.
            let mut unit = uref(&v.map, u);
            if let Some(b) = v.features.box_at(v.map.province_of(u.region))
                && rng.chance(70)
                && let Some(&p) = rng.pick(&b.also_named)
            {
                unit.at = Place::province(p);
            }
            Order {
                power: u.power,
                unit,
                command: random_main(v, pos, u, rng),
            }
        })
        .collect();
    for _ in 0..3 {
        let verdicts = move_verdicts(v, pos, &orders);
        let mut again = false;
        for (i, verdict) in verdicts.iter().enumerate() {
            if verdict.is_some() && i < orders.len() {
                let u = pos.units[i];
                orders[i].command = random_main(v, pos, &u, rng);
                again = true;
            }
        }
        if !again {
            return orders;
        }
    }
    let verdicts = move_verdicts(v, pos, &orders);
    for (i, verdict) in verdicts.iter().enumerate() {
        if verdict.is_some() && i < orders.len() {
            orders[i].command = MainCommand::Hold;
        }
    }
    orders
}

fn retreat_orders(v: &Variant, pos: &Position, rng: &mut Rng) -> Vec<Order<RetreatCommand>> {
    pos.dislodged
        .iter()
        .map(|(u, opts)| Order {
            power: u.power,
            unit: uref(&v.map, u),
            command: match rng.pick(opts) {
                Some(r) if rng.chance(85) => RetreatCommand::Move {
                    to: Place::of_region(&v.map, *r),
                },
                _ => RetreatCommand::Disband,
            },
        })
        .collect()
}

const KINDS: [UnitKind; 5] = [
    UnitKind::Army,
    UnitKind::Fleet,
    UnitKind::ArmyFleet,
    UnitKind::DefensiveArmy,
    UnitKind::Leader,
];

fn adjustment_orders(v: &Variant, pos: &Position, rng: &mut Rng) -> Vec<AdjustOrder> {
    let owed = due(v, pos);
    let mut out: Vec<AdjustOrder> = Vec::new();
    for pw in v.map.power_ids() {
        let d = owed[pw.index()];
        if d < 0 {
            let mine: Vec<&Unit> = pos.units.iter().filter(|u| u.power == pw).collect();
            for _ in 0..(-d) {
                if let Some(u) = rng.pick(&mine) {
                    out.push(AdjustOrder {
                        power: pw,
                        command: AdjustCommand::Remove {
                            unit: uref(&v.map, u),
                        },
                    });
                }
            }
        } else if d > 0 {
            // Candidate builds everywhere the power owns a centre or has a
            // box, each kind; the judge keeps the legal ones.
            let mut sites: Vec<ProvinceId> = v
                .map
                .province_ids()
                .filter(|p| pos.owners[p.index()] == Some(pw))
                .collect();
            sites.extend(
                v.features
                    .boxes
                    .iter()
                    .filter(|b| b.owner == Some(pw))
                    .map(|b| b.province),
            );
            for _ in 0..(d * 3) {
                let (Some(p), Some(k)) = (rng.pick(&sites).copied(), rng.pick(&KINDS).copied())
                else {
                    break;
                };
                out.push(AdjustOrder {
                    power: pw,
                    command: AdjustCommand::Build {
                        kind: Some(k),
                        at: Place::province(p),
                    },
                });
            }
            if v.syntax.convert {
                for u in pos.units.iter().filter(|u| u.power == pw) {
                    if rng.chance(20) {
                        out.push(AdjustOrder {
                            power: pw,
                            command: AdjustCommand::Convert {
                                unit: uref(&v.map, u),
                                to: UnitKind::Army,
                            },
                        });
                    }
                }
            }
        }
    }
    // Keep the ones the judge takes.
    let r = judge_adjustments(v, pos, &out);
    out.into_iter()
        .zip(r.orders)
        .filter(|(_, st)| !matches!(st, zinejudge::adjudicate::AdjustStatus::Illegal(_)))
        .map(|(o, _)| o)
        .collect()
}

/// Play `phases` phases of `v` from its start with `seed`; panics on a
/// position that does not read back or a phase sequence that stops.
fn play_random(v: &Variant, with_optional: bool, seed: u64, phases: usize) -> usize {
    let mut rng = Rng(seed | 1);
    let mut pos = Position::initial(v);
    if !with_optional {
        let optional: Vec<PowerId> = v
            .map
            .power_ids()
            .filter(|p| v.map.power(*p).optional)
            .collect();
        for p in optional {
            pos.leave_out(p);
        }
    }
    let mut played = 0;
    for n in 0..phases {
        let orders = match pos.phase.kind {
            PhaseKind::Movement if v.syntax.impulses => PhaseOrders::Turn {
                moves: movement_orders(v, &pos, &mut rng),
                retreats: Vec::new(),
                adjust: Vec::new(),
            },
            PhaseKind::Movement => PhaseOrders::Movement(movement_orders(v, &pos, &mut rng)),
            PhaseKind::Retreat => PhaseOrders::Retreat(retreat_orders(v, &pos, &mut rng)),
            PhaseKind::Adjustment | PhaseKind::Placement => {
                PhaseOrders::Adjustment(adjustment_orders(v, &pos, &mut rng))
            }
        };
        let (result, next) = play(v, &pos, &orders);
        played += 1;
        let text = next.to_toml(v);
        let back = Position::from_toml(v, &text).unwrap_or_else(|e| {
            panic!(
                "{} seed {seed} phase {n} ({}): the next position does not read back: {e}\n{text}\n\
                 before:\n{}\norders: {orders:#?}\nresult: {result:#?}",
                v.name,
                v.calendar.label(pos.phase),
                pos.to_toml(v)
            )
        });
        assert_eq!(
            back.canonical(),
            next.canonical(),
            "{} seed {seed} phase {n} ({}): the position changed on the way back\n{text}",
            v.name,
            v.calendar.label(pos.phase)
        );
        assert_eq!(
            back.to_toml(v),
            text,
            "{}: the stored form is not stable",
            v.name
        );
        // The phase sequence goes on (a dislodged unit needs a retreat
        // phase; none without one).
        assert!(
            next.phase > pos.phase || next.phase.year > pos.phase.year,
            "{} seed {seed}: {} followed {}",
            v.name,
            v.calendar.label(next.phase),
            v.calendar.label(pos.phase)
        );
        assert_eq!(
            next.phase.kind == PhaseKind::Retreat,
            !next.dislodged.is_empty(),
            "{} seed {seed}: retreat phase and dislodged units disagree after {}",
            v.name,
            v.calendar.label(pos.phase)
        );
        if matches!(result, PhaseResult::Movement(_)) && next.units.is_empty() {
            break;
        }
        pos = back;
    }
    played
}

/// Play every variant with `seeds` seeds for up to `phases` phases each.
/// Returns the phases played per variant and every failure (the variant,
/// the seed and the message), each seed played on after another's failure.
fn run_all(seeds: u64, phases: usize) -> (BTreeMap<String, usize>, Vec<String>) {
    let mut total = BTreeMap::new();
    let mut failures = Vec::new();
    for (name, _) in zinejudge::variant::BUILTIN {
        let v = builtin(name).expect("shipped").expect("loads");
        let has_optional = v.map.powers().iter().any(|p| p.optional);
        for seed in 0..seeds {
            let s = 0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(seed + 1);
            let mut runs = vec![(true, s)];
            if has_optional {
                runs.push((false, s ^ 0xabcdef));
            }
            for (with_optional, s) in runs {
                match std::panic::catch_unwind(|| play_random(&v, with_optional, s, phases)) {
                    Ok(n) => *total.entry(name.to_string()).or_insert(0) += n,
                    Err(e) => {
                        let text = e
                            .downcast_ref::<String>()
                            .cloned()
                            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                            .unwrap_or_default();
                        failures.push(text.lines().take(12).collect::<Vec<_>>().join("\n"));
                    }
                }
            }
        }
    }
    eprintln!("phases played: {total:?}");
    (total, failures)
}

#[test]
fn every_variant_round_trips_after_every_phase() {
    let (total, failures) = run_all(3, 80);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    for (name, n) in &total {
        assert!(*n >= 100, "{name}: only {n} phases played");
    }
}

#[test]
#[ignore = "long: cargo test --release --test board positions_roundtrip -- --ignored"]
fn long_run() {
    let (_, failures) = run_all(40, 300);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn a_position_that_would_not_read_back_is_refused_not_stored() {
    let v = builtin("standard").expect("shipped").expect("loads");
    let mut pos = Position::initial(&v);
    assert!(pos.stored(&v).is_ok());
    // An A/F, a kind the standard game has not (a rule gone wrong would
    // make such a thing): the stored form could not be read again.
    pos.units[0].kind = UnitKind::ArmyFleet;
    let e = pos.stored(&v).expect_err("refused");
    assert!(e.to_string().contains("no units of that kind"), "{e}");
}

/// LIST reads each game's phase from the stored position's `phase` line
/// alone: for every shipped variant it is the label the whole position
/// reads as.
#[test]
fn the_phase_read_from_a_stored_positions_phase_line_is_its_label() {
    for (name, _) in zinejudge::variant::BUILTIN {
        let v = builtin(name).expect("ships").expect("loads");
        let pos = Position::initial(&v);
        let text = pos.to_toml(&v);
        assert_eq!(
            Position::stored_phase(&text).as_deref(),
            Some(v.calendar.label(pos.phase).as_str()),
            "{name}: {text}"
        );
    }
    assert_eq!(Position::stored_phase("[units]\nphase = \"x\"\n"), None);
}
