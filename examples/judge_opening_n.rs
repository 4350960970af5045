//! Judge the standard opening (Spring 1901, 22 moves) N times: the
//! harness the adjudicator's speed is measured with in instructions,
//! which stay the same however busy the machine is (issue #36; the
//! criterion bench `benches/adjudicate.rs` gives the times).
//!
//! ```text
//! cargo build --release --example judge_opening_n
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/adj.cg.%p \
//!     target/release/examples/judge_opening_n one 1001
//! ```
//!
//! The first argument is `one` (each judgement through
//! `adjudicate_movement`, as a one-shot caller makes it) or `kept` (through
//! one `Judge` kept between judgements); the second is N. Run it with
//! N = 1 and N = 1001: the difference of the two totals, divided by 1000,
//! is the instructions of one judgement, without the start-up (loading
//! the map, parsing the orders).
use std::hint::black_box;
use zinejudge::adjudicate::movement::Board;
use zinejudge::adjudicate::{Judge, adjudicate_movement};
use zinejudge::game::Position;
use zinejudge::testing::opening::standard_opening;
use zinejudge::variant;

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let n: usize = args.next().map(|s| s.parse().unwrap()).unwrap_or(1);
    let v = variant::builtin("standard").unwrap().unwrap();
    let pos = Position::initial(&v);
    let o = standard_opening(&v);
    let mut judge = Judge::new();
    let mut total = 0usize;
    for _ in 0..n {
        if mode == "kept" {
            let board = Board::standard(&v.map, &v.rules, black_box(&pos.units));
            total += black_box(judge.adjudicate(&board, black_box(&o)).units.len());
        } else {
            total += black_box(adjudicate_movement(
                &v.map,
                &v.rules,
                black_box(&pos.units),
                black_box(&o),
            ))
            .units
            .len();
        }
    }
    println!("{total}");
}
