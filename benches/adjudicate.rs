//! Adjudication speed (criterion). Run with `cargo bench --bench adjudicate`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use zinejudge::adjudicate::adjudicate_movement;
use zinejudge::game::Position;
use zinejudge::orders::parse::OrderParser;
use zinejudge::orders::{AnyCommand, MainOrder, Order};
use zinejudge::variant::{self, PhaseKind};

const OPENING: &str = "
Austria: A Vie-Gal
Austria: A Bud-Ser
Austria: F Tri-Alb
England: F Lon-NTH
England: F Edi-NWG
England: A Lvp-Yor
France: F Bre-MAO
France: A Par-Bur
France: A Mar-Spa
Germany: F Kie-Den
Germany: A Ber-Kie
Germany: A Mun-Ruh
Italy: F Nap-ION
Italy: A Rom-Apu
Italy: A Ven-Tyr
Russia: A War-Ukr
Russia: A Mos-StP
Russia: F Sev-BLA
Russia: F StP/sc-BOT
Turkey: F Ank-BLA
Turkey: A Con-Bul
Turkey: A Smy-Arm
";

fn orders(text: &str, parser: &OrderParser<'_>) -> Vec<MainOrder> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let p = parser
                .parse(l, Some(PhaseKind::Movement))
                .expect("bench orders parse");
            match p.command {
                AnyCommand::Main(unit, command) => Order {
                    power: p.power.expect("power given"),
                    unit,
                    command,
                },
                _ => panic!("not a movement order"),
            }
        })
        .collect()
}

fn opening(c: &mut Criterion) {
    let v = variant::builtin("standard").expect("ships").expect("loads");
    let parser = OrderParser::new(&v.map);
    let pos = Position::initial(&v);
    let o = orders(OPENING, &parser);
    assert_eq!(o.len(), 22);
    c.bench_function("zinejudge/opening_22_moves", |b| {
        b.iter(|| adjudicate_movement(&v.map, &v.rules, black_box(&pos.units), black_box(&o)))
    });
}

criterion_group!(benches, opening);
criterion_main!(benches);
