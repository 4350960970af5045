//! One order line: arbitrary bytes, read as lossy UTF-8, parsed on the
//! standard map and on the notation board for every phase.
//!
//! Properties: parsing never panics; an error span lies inside the line and
//! on char boundaries; a parsed order printed with `format_order` parses
//! again to the same command on the same board and phase.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    for board in common::boards() {
        for phase in common::PHASES {
            let result = board.parser.parse(&line, phase);
            common::check_parse(&board, &line, phase, &result);
        }
    }
});
