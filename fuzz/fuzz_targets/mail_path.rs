//! The whole mail path: arbitrary bytes are one raw inbound mail, stored
//! and processed by the real processor and judge against a store holding
//! live games (a fresh copy of it for each input), followed by one clock
//! tick; every mail queued is then read back and checked. The fixture and
//! the properties are in `mail_path/harness.rs` (shared with
//! `tests/fuzz_regressions.rs`).

#![no_main]

#[path = "mail_path/harness.rs"]
mod harness;

use libfuzzer_sys::fuzz_target;
use std::cell::RefCell;

thread_local! {
    static HARNESS: RefCell<Option<harness::Harness>> = const { RefCell::new(None) };
}

fuzz_target!(|data: &[u8]| {
    HARNESS.with(|h| {
        let mut h = h.borrow_mut();
        let h = h.get_or_insert_with(harness::Harness::new);
        if let Err(e) = h.run(data) {
            panic!("mail_path: {e}");
        }
    });
});
