//! Adjudication speed (criterion). Run with `cargo bench --bench adjudicate`
//! (add `-- --warm-up-time 1 --measurement-time 5` for a quick run).
//!
//! Group `zinejudge`:
//! - `opening_22_moves`: Spring 1901, every unit moves (the usual opening);
//! - `judge_opening_22_moves`: the same through one `Judge` kept from
//!   one judgement to the next (its tables and result reused);
//! - `opening_22_holds`: the opening position, every unit holds;
//! - `paradox_and_ring`: Pandin's paradox (DATC 6.F.16), Dad's army convoy
//!   (6.F.21) and a three-unit circular movement (6.C.1) on one board: two
//!   dependency cycles with convoys, settled by the Szykman rule, and one
//!   without, settled by the circular movement rule;
//! - `datc_v2.4_all_cases`: every case of godip's DATC v2.4 file, run
//!   through the case runner (reading names, building the board,
//!   adjudicating, comparing the outcome). The file is parsed once, outside
//!   the timed loop.
//!
//! Group `diplomacy`: the first three positions adjudicated by the
//! `diplomacy` crate 0.2.0 (TedDriggs), 2023 rulebook, for comparison. Its
//! orders are built outside the timed loop (and cloned outside it, as its
//! `Submission` takes them by value); the timed work is the submission
//! (its legality checks), the adjudication and the retreat start (the
//! dislodged units and their retreats), which together are what our
//! `adjudicate_movement` returns.

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use diplomacy::judge::{MappedMainOrder, Rulebook as DRulebook, Submission};
use diplomacy::{UnitPosition, geo::RegionKey};
use std::hint::black_box;
use zinejudge::adjudicate::movement::Board;
use zinejudge::adjudicate::{Judge, Outcome, adjudicate_movement};
use zinejudge::game::Position;
use zinejudge::game::position::parse_unit;
use zinejudge::map::Unit;
use zinejudge::orders::MainOrder;
use zinejudge::testing::datc::{Runner, parse_file, rules_for_file};
use zinejudge::testing::opening::{movement_orders as orders, standard_opening};
use zinejudge::variant::{self, Variant};

/// The same opening (`STANDARD_OPENING`) for the crate. Its shipped map lacks the BOT-StP/sc
/// border, so it finds `F stp(sc) -> bot` illegal and holds that fleet; the
/// other 21 orders are adjudicated as by us.
const OPENING_DIPLOMACY: &str = "
AUS: A vie -> gal
AUS: A bud -> ser
AUS: F tri -> alb
ENG: F lon -> nth
ENG: F edi -> nwg
ENG: A lvp -> yor
FRA: F bre -> mao
FRA: A par -> bur
FRA: A mar -> spa
GER: F kie -> den
GER: A ber -> kie
GER: A mun -> ruh
ITA: F nap -> ion
ITA: A rom -> apu
ITA: A ven -> tyr
RUS: A war -> ukr
RUS: A mos -> stp
RUS: F sev -> bla
RUS: F stp(sc) -> bot
TUR: F ank -> bla
TUR: A con -> bul
TUR: A smy -> arm
";

/// Pandin's paradox (6.F.16), Dad's army convoy (6.F.21) and a ring (6.C.1).
const PARADOX_AND_RING: &str = "
England: F Lon Supports F Wal - ENG
England: F Wal - ENG
France: A Bre - Lon
France: F ENG Convoys A Bre - Lon
Germany: F NTH Supports F Bel - ENG
Germany: F Bel - ENG
Russia: A Edi Supports A Nwy - Cly
Russia: F NWG Convoys A Nwy - Cly
Russia: A Nwy - Cly
France: F IRI Supports F MAO - NAO
France: F MAO - NAO
England: A Lvp - Cly via Convoy
England: F NAO Convoys A Lvp - Cly
England: F Cly Supports F NAO
Turkey: F Ank - Con
Turkey: A Con - Smy
Turkey: A Smy - Ank
";

const PARADOX_AND_RING_DIPLOMACY: &str = "
ENG: F lon supports F wal -> eng
ENG: F wal -> eng
FRA: A bre -> lon
FRA: F eng convoys A bre -> lon
GER: F nth supports F bel -> eng
GER: F bel -> eng
RUS: A edi supports A nwy -> cly
RUS: F nwg convoys A nwy -> cly
RUS: A nwy -> cly
FRA: F iri supports F mao -> nao
FRA: F mao -> nao
ENG: A lvp -> cly via convoy
ENG: F nao convoys A lvp -> cly
ENG: F cly supports F nao
TUR: F ank -> con
TUR: A con -> smy
TUR: A smy -> ank
";

/// The units the orders are addressed to (one order per unit).
fn units_of(text: &str, v: &Variant) -> Vec<Unit> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (power, rest) = l.split_once(':').expect("`Power: order`");
            let power = v.map.lookup_power(power.trim()).expect("power");
            let mut words = rest.split_whitespace();
            let unit = format!("{} {}", words.next().unwrap(), words.next().unwrap());
            let (kind, region) = parse_unit(&v.map, &unit).expect("unit");
            Unit {
                power,
                kind,
                region,
            }
        })
        .collect()
}

/// All holds for the opening position.
fn holds(pos: &Position, v: &Variant) -> Vec<MainOrder> {
    let text: String = pos
        .units
        .iter()
        .map(|u| {
            format!(
                "{}: {} {} Hold\n",
                v.map.power(u.power).name,
                u.kind.letter(),
                v.map.region_abbr(u.region)
            )
        })
        .collect();
    orders(&text, v)
}

/// The crate's orders and starting board (`NAT: K region` of each line).
fn d_orders(text: &str) -> (Vec<MappedMainOrder>, Vec<UnitPosition<'static, RegionKey>>) {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let orders = lines
        .iter()
        .map(|l| l.parse().expect("crate order parses"))
        .collect();
    let start = lines
        .iter()
        .map(|l| {
            let unit: Vec<&str> = l.split_whitespace().take(3).collect();
            unit.join(" ").parse().expect("unit position")
        })
        .collect();
    (orders, start)
}

fn d_holds(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut w = l.split_whitespace();
            format!(
                "{} {} {} holds\n",
                w.next().unwrap(),
                w.next().unwrap(),
                w.next().unwrap()
            )
        })
        .collect()
}

fn zinejudge_benches(c: &mut Criterion) {
    let v = variant::builtin("standard").expect("ships").expect("loads");
    let pos = Position::initial(&v);
    let mut g = c.benchmark_group("zinejudge");

    // (a) the opening, 22 moves.
    let o = standard_opening(&v);
    assert_eq!(o.len(), 22);
    g.bench_function("opening_22_moves", |b| {
        b.iter(|| adjudicate_movement(&v.map, &v.rules, black_box(&pos.units), black_box(&o)))
    });

    // (a') the same through a judge kept between judgements, as a daemon
    // or a test suite that judges many phases would: its tables and the
    // result are reused, nothing is allocated.
    let mut judge = Judge::new();
    g.bench_function("judge_opening_22_moves", |b| {
        b.iter(|| {
            let board = Board::standard(&v.map, &v.rules, black_box(&pos.units));
            black_box(judge.adjudicate(&board, black_box(&o)).units.len())
        })
    });

    // (b) the opening position, 22 holds.
    let h = holds(&pos, &v);
    assert_eq!(h.len(), 22);
    g.bench_function("opening_22_holds", |b| {
        b.iter(|| adjudicate_movement(&v.map, &v.rules, black_box(&pos.units), black_box(&h)))
    });

    // (c) paradoxes and a ring.
    let units = units_of(PARADOX_AND_RING, &v);
    let o = orders(PARADOX_AND_RING, &v);
    let r = adjudicate_movement(&v.map, &v.rules, &units, &o);
    let moved: Vec<bool> = r
        .units
        .iter()
        .map(|u| u.outcome == Outcome::Moved)
        .collect();
    // Pandin: nobody moves; Dad's army: MAO dislodges NAO, Nwy reaches Cly;
    // the ring turns.
    assert_eq!(
        moved,
        [
            false, false, false, false, false, false, false, false, true, false, true, false,
            false, false, true, true, true
        ]
    );
    g.bench_function("paradox_and_ring", |b| {
        b.iter(|| adjudicate_movement(&v.map, &v.rules, black_box(&units), black_box(&o)))
    });

    // (d) every case of the DATC v2.4 file.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/datc/godip_datc_v2.4_06.txt"
    ))
    .expect("DATC file");
    let cases = parse_file(&text).expect("DATC file parses");
    let runner = Runner::new(&v, rules_for_file(&v, &text));
    assert!(cases.iter().all(|c| runner.run(c).is_ok()));
    g.bench_function(format!("datc_v2.4_all_{}_cases", cases.len()), |b| {
        b.iter(|| {
            for case in black_box(&cases) {
                black_box(runner.run(case)).ok();
            }
        })
    });
    g.finish();
}

fn diplomacy_benches(c: &mut Criterion) {
    let map = diplomacy::geo::standard_map();
    let mut g = c.benchmark_group("diplomacy");
    let holds_text = d_holds(OPENING_DIPLOMACY);
    for (name, text) in [
        ("opening_22_moves", OPENING_DIPLOMACY),
        ("opening_22_holds", holds_text.as_str()),
        ("paradox_and_ring", PARADOX_AND_RING_DIPLOMACY),
    ] {
        let (orders, start) = d_orders(text);
        g.bench_function(name, |b| {
            b.iter_batched(
                || orders.clone(),
                |orders| {
                    let sub = Submission::new(map, black_box(&start), orders);
                    let out = sub.adjudicate(DRulebook::edition_2023());
                    let retreats = out.to_retreat_start();
                    black_box(retreats.dislodged().len())
                },
                BatchSize::SmallInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, zinejudge_benches, diplomacy_benches);
criterion_main!(benches);
