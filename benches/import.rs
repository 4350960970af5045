//! DPjudge import speed (criterion, issue #52): maps of 5,000, 10,000 and
//! 20,000 places, written here as a grid of land and sea with seven
//! powers, imported as `zinejudge import dpjudge` imports a file. The
//! time must grow with the map's length, not its square (20,000 places
//! in under 2 s). Run with `cargo bench --bench import`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::fmt::Write as _;
use std::hint::black_box;
use zinejudge::testing::import::dpjudge::{ImportError, import};

/// A map of `n` places on a grid, each bordering those beside it, with
/// every kind of line a large map repeats: names with aliases, a terrain
/// line each, borders marked as straits (`~`), half-strength (`*`) and
/// open to a centre's owner (`P00012(P00034)`), homes given a few at a
/// time by `INHABITS` lines, starting armies, unowned centres one a
/// line, and a renaming and a drop at the end (each a pass over the map,
/// once). Each kind grows with the map, so a search of everything read
/// so far, once per line, shows as the time's square.
fn grid_map(n: usize) -> String {
    let w = (n as f64).sqrt() as usize;
    let cell = |i: usize| (i % w, i / w);
    let sea = |i: usize| {
        let (x, y) = cell(i);
        (x / 5 + y / 5) % 3 == 0
    };
    let abbr = |i: usize| format!("P{i:05}");
    let mut out = String::new();
    for i in 0..n {
        let _ = writeln!(out, "Place {i} = {} pl{i} place+{i}", abbr(i));
    }
    let land: Vec<usize> = (0..n).filter(|&i| !sea(i)).collect();
    for i in 0..n {
        let (x, y) = cell(i);
        let mut near = Vec::new();
        if x + 1 < w && i + 1 < n {
            near.push(i + 1);
        }
        if x > 0 {
            near.push(i - 1);
        }
        if i + w < n {
            near.push(i + w);
        }
        if y > 0 {
            near.push(i - w);
        }
        let kind = if sea(i) {
            "WATER"
        } else if near.iter().any(|&j| sea(j)) {
            "COAST"
        } else {
            "LAND"
        };
        // Marks on some borders, alike from both sides.
        let near: Vec<String> = near
            .into_iter()
            .map(|j| match ((i + j) % 13, sea(i) || sea(j)) {
                (0, false) => format!("~{}", abbr(j)),
                (1, false) => format!("*{}", abbr(j)),
                (2, true) => format!("{}({})", abbr(j), abbr(land[(i + j) % land.len()])),
                _ => abbr(j),
            })
            .collect();
        let _ = writeln!(out, "{kind} {} ABUTS {}", abbr(i), near.join(" "));
    }
    let powers = [
        "AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY",
    ];
    let per = (land.len() / 20 / powers.len()).max(1);
    let mut homes = land.chunks(per);
    for p in powers {
        let mine = homes.next().unwrap_or(&[]);
        let _ = writeln!(out, "{p}");
        for few in mine.chunks(4) {
            let list: Vec<String> = few.iter().map(|&i| abbr(i)).collect();
            let _ = writeln!(out, "INHABITS {}", list.join(" "));
        }
        for &i in mine {
            let _ = writeln!(out, "A {}", abbr(i));
        }
    }
    for &i in land.iter().skip(per * powers.len()).take(land.len() / 20) {
        let _ = writeln!(out, "UNOWNED {}", abbr(i));
    }
    let _ = writeln!(out, "P00000 -> Renamed = R00000 renamed");
    let _ = writeln!(out, "DROP {}", abbr(n - 1));
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("import_dpjudge");
    group.sample_size(10);
    for n in [5_000, 10_000, 20_000] {
        let map = grid_map(n);
        // Read and written whole, then refused by the check alone: a
        // refused line would end the import before the writing.
        let mut fetch = |_: &str| Ok(map.clone());
        match import("grid.map", &mut fetch) {
            Err(ImportError::Invalid { problems, .. })
                if problems
                    .iter()
                    .any(|p| p.contains("provinces; a map may have at most")) => {}
            Err(e) => panic!("{n}: {e}"),
            Ok(_) => panic!("{n}: a board of {n} places imported"),
        }
        group.bench_with_input(BenchmarkId::from_parameter(n), &map, |b, map| {
            b.iter(|| {
                let mut fetch = |name: &str| {
                    if name == "grid.map" {
                        Ok(map.clone())
                    } else {
                        Err(format!("no file {name}"))
                    }
                };
                // A board this size is more than a variant file may hold
                // (the map's limit), so the import ends refused: what is
                // timed is the reading and writing, and the check.
                black_box(import("grid.map", &mut fetch).is_ok())
            });
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
