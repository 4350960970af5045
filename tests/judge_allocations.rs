//! How much the movement judge allocates (issue #36): a judge kept from one
//! judgement to the next judges the standard opening without allocating,
//! and its results are the one-shot judge's. Counted by a global allocator
//! that counts the allocations of this thread while a flag is up; each
//! test binary has its own allocator, so this file holds these tests only.
//! The one-shot judge ([`adjudicate_movement`]) judges in a judge kept by
//! the thread: past its first judgement it allocates only the lists of the
//! result it hands over.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use zinejudge::adjudicate::movement::Board;
use zinejudge::adjudicate::{Judge, Outcome, adjudicate_movement};
use zinejudge::game::Position;
use zinejudge::testing::opening::standard_opening;
use zinejudge::variant;

struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // `try_with`: the thread's own values may be gone while it ends.
        if COUNTING.try_with(Cell::get).unwrap_or(false) {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.try_with(Cell::get).unwrap_or(false) {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The allocations `f` makes on this thread.
fn allocations<T>(f: impl FnOnce() -> T) -> (T, usize) {
    COUNT.with(|c| c.set(0));
    COUNTING.with(|c| c.set(true));
    let out = f();
    COUNTING.with(|c| c.set(false));
    (out, COUNT.with(Cell::get))
}

#[test]
fn a_kept_judge_judges_the_standard_opening_again_without_allocating() {
    let v = variant::builtin("standard").expect("ships").expect("loads");
    let pos = Position::initial(&v);
    let o = standard_opening(&v);
    let board = Board::standard(&v.map, &v.rules, &pos.units);
    let mut judge = Judge::new();
    // The first judgement grows the judge's tables.
    let first = judge.adjudicate(&board, &o).clone();
    let (bounced, n) = allocations(|| {
        let r = judge.adjudicate(&board, &o);
        // Sevastopol and Ankara stand each other off in the Black Sea.
        r.units
            .iter()
            .filter(|u| u.outcome != Outcome::Moved)
            .count()
    });
    assert_eq!(n, 0, "allocations in a second judgement");
    assert_eq!(bounced, 2);
    assert_eq!(judge.adjudicate(&board, &o), &first);
    assert_eq!(
        &first,
        &adjudicate_movement(&v.map, &v.rules, &pos.units, &o),
        "the kept judge and the one-shot judge agree"
    );
}

#[test]
fn the_one_shot_judge_reuses_the_threads_tables_and_allocates_only_its_result() {
    let v = variant::builtin("standard").expect("ships").expect("loads");
    let pos = Position::initial(&v);
    let o = standard_opening(&v);
    // The first judgement on this thread grows the thread's judge.
    let first = adjudicate_movement(&v.map, &v.rules, &pos.units, &o);
    let (again, n) = allocations(|| adjudicate_movement(&v.map, &v.rules, &pos.units, &o));
    // The result's three lists, handed over (units, orders, and the
    // contested provinces: the Black Sea's standoff); no table of the
    // judge is made again.
    assert_eq!(n, 3, "allocations in a second one-shot judgement");
    assert_eq!(again.contested.len(), 1);
    assert_eq!(again, first);
}
