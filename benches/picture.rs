//! Map picture speed (criterion). Run with `cargo bench --bench picture`.
//!
//! The phase is the standard Spring 1901 opening with 22 orders (moves,
//! bounces, a support, a hold), judged outside the timed loop.
//! - `standard_phase_svg`: laying out the standard map (its outline file
//!   read, labels placed) and drawing the phase as SVG: what a results
//!   mail costs before any rasterising;
//! - `standard_phase_png`: the PNG of that phase as a results mail gets
//!   it, from a picture the judge keeps (the map's fixed layers drawn
//!   once, the phase drawn over them and encoded). Every iteration after
//!   the first finds the phase's units, marks and legend lines kept
//!   rasterised, as a judge does for the units that have not moved;
//! - `standard_phase_png_whole`: the same PNG rasterised from the whole
//!   SVG, as `picture::png` does for an SVG from elsewhere;
//! - `<variant>_phase_png`: a seed variant's opening (every unit holding)
//!   as a PNG, as `standard_phase_png`;
//! - `computed_map_layout`: laying out 1000 AD, the biggest map without an
//!   outline file (areas computed from its points and borders).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use zinejudge::game::Position;
use zinejudge::game::step::{PhaseOrders, play};
use zinejudge::orders::parse::OrderParser;
use zinejudge::orders::{AnyCommand, Order};
use zinejudge::testing::report::PhaseReport;
use zinejudge::testing::report::picture::{Picture, png};
use zinejudge::variant::features::Viewer;
use zinejudge::variant::{self, PhaseKind, Variant};

const OPENING: &str = "
Austria: A Vie-Gal
Austria: A Bud-Ser
Austria: F Tri-Alb
England: F Lon-NTH
England: F Edi-NWG
England: A Lvp-Yor
France: A Par-Bur
France: A Mar S A Par-Bur
France: F Bre-MAO
Germany: A Mun-Bur
Germany: A Ber-Kie
Germany: F Kie-Den
Italy: A Ven H
Italy: A Rom-Apu
Italy: F Nap-ION
Russia: A War-Gal
Russia: A Mos-Ukr
Russia: F Sev-BLA
Russia: F StP/sc-BOT
Turkey: F Ank-BLA
Turkey: A Con-Bul
Turkey: A Smy-Con
";

fn orders(v: &Variant) -> PhaseOrders {
    let parser = OrderParser::new(&v.map);
    let mut main = Vec::new();
    for l in OPENING.lines().filter(|l| !l.is_empty()) {
        let (pw, text) = l.split_once(':').expect("power: order");
        let power = v.map.lookup_power(pw).expect("power");
        match parser
            .parse(text.trim(), Some(PhaseKind::Movement))
            .expect("order")
            .command
        {
            AnyCommand::Main(unit, command) => main.push(Order {
                power,
                unit,
                command,
            }),
            _ => panic!("a move"),
        }
    }
    PhaseOrders::Movement(main)
}

/// Where `PICTURE_DUMP` names a directory, the pictures measured are
/// written there to be looked at.
fn dump(name: &str, png: &[u8]) {
    if let Some(dir) = std::env::var_os("PICTURE_DUMP") {
        let path = std::path::Path::new(&dir).join(format!("{name}.png"));
        std::fs::write(&path, png).expect("writes the picture");
    }
}

fn bench(c: &mut Criterion) {
    let v = variant::builtin("standard").expect("ships").expect("loads");
    let pos = Position::initial(&v);
    let o = orders(&v);
    let (result, after) = play(&v, &pos, &o);
    let r = PhaseReport {
        variant: &v,
        game: "bench",
        before: &pos,
        orders: &o,
        result: &result,
        after: &after,
        next_deadline: None,
        ended: None,
        nmr: vec![],
    };
    let mut g = c.benchmark_group("picture");
    g.sample_size(20);
    g.bench_function("standard_phase_svg", |b| {
        b.iter(|| {
            let pic = Picture::new(&v);
            black_box(pic.phase_svg(&r, "bench: Spring 1901 results", Viewer::Gm))
        })
    });
    let pic = Picture::new(&v);
    let title = "bench: Spring 1901 results";
    let svg = pic.phase_svg(&r, title, Viewer::Gm);
    let composed = pic.phase_png(&r, title, Viewer::Gm).expect("renders");
    dump("standard_opening", &composed);
    eprintln!(
        "standard_phase_png: {} bytes (whole SVG rasterised: {} bytes)",
        composed.len(),
        png(&svg).expect("renders").len()
    );
    g.bench_function("standard_phase_png", |b| {
        b.iter(|| black_box(pic.phase_png(&r, title, Viewer::Gm).expect("renders")))
    });
    g.bench_function("standard_phase_png_whole", |b| {
        b.iter(|| black_box(png(&svg).expect("renders")))
    });
    for name in ["1066", "ardri", "1000ad", "abstraction2", "1700ad"] {
        let sv = variant::builtin(name).expect("ships").expect("loads");
        let before = Position::initial(&sv);
        let none = PhaseOrders::Movement(vec![]);
        let (result, after) = play(&sv, &before, &none);
        let r = PhaseReport {
            variant: &sv,
            game: "bench",
            before: &before,
            orders: &none,
            result: &result,
            after: &after,
            next_deadline: None,
            ended: None,
            nmr: vec![],
        };
        let pic = Picture::new(&sv);
        let bytes = pic.phase_png(&r, title, Viewer::Gm).expect("renders");
        dump(&format!("{name}_opening"), &bytes);
        eprintln!("{name}_phase_png: {} bytes", bytes.len());
        g.bench_function(format!("{name}_phase_png"), |b| {
            b.iter(|| black_box(pic.phase_png(&r, title, Viewer::Gm).expect("renders")))
        });
    }
    let m = variant::builtin("1000ad").expect("ships").expect("loads");
    g.bench_function("computed_map_layout", |b| {
        b.iter(|| black_box(Picture::new(&m).geometry().areas.len()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
