//! A whole mail body: arbitrary bytes, read as lossy UTF-8, handed to
//! `find_orders` on both boards for every phase.
//!
//! Properties: reading never panics; every order found names a line of the
//! body and its text is a piece of that line; an error span lies inside
//! that line and on char boundaries. When the body has no `:` (so no
//! heading or power line can be in force) each piece reads exactly as
//! `parse` reads it alone (except the rest of a line beside an order,
//! which is "no order here" when it does not look like one), and a parsed order printed with `format_order`
//! parses again to the same command.

#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use zinejudge::orders::mail::find_orders;
use zinejudge::orders::parse::ParseErrorKind;

fuzz_target!(|data: &[u8]| {
    let body = String::from_utf8_lossy(data);
    let lines: Vec<&str> = body.lines().collect();
    let no_context = !body.contains(':');
    for board in common::boards() {
        for phase in common::PHASES {
            let found = find_orders(&board.parser, &body, phase);
            let mut last_line = 0;
            for f in &found {
                assert!(
                    f.line >= 1 && f.line <= lines.len(),
                    "order on line {} of a body of {} lines",
                    f.line,
                    lines.len()
                );
                assert!(f.line >= last_line, "orders out of line order");
                last_line = f.line;
                let raw = lines[f.line - 1];
                assert!(
                    raw.contains(f.text.as_str()),
                    "order text {:?} is not a piece of line {} {raw:?}",
                    f.text,
                    f.line
                );
                assert!(!f.text.is_empty(), "empty order text on line {}", f.line);
                match &f.result {
                    Err(e) => {
                        common::check_span(raw, e, "find_orders");
                        let _ = e.to_string();
                    }
                    Ok(o) => {
                        let _ = zinejudge::orders::format_order(&board.variant.map, &o.command);
                    }
                }
                if no_context {
                    let alone = board.parser.parse(&f.text, phase);
                    match (&f.result, &alone) {
                        (Ok(a), Ok(b)) => {
                            assert_eq!(a, b, "{:?} reads differently in a mail and alone", f.text)
                        }
                        // The rest of a line that holds an order, when it
                        // does not look like an order itself (`Lvn)` after
                        // `Disband A,`), comes back as "no order here"
                        // (`Empty`) so that it is not dropped without a
                        // word; alone, the parser says what it expected.
                        (Err(a), Err(_)) if a.kind == ParseErrorKind::Empty && found.len() > 1 => {}
                        (Err(a), Err(b)) => {
                            assert!(
                                same_failure(&a.kind, &b.kind),
                                "{:?} fails differently in a mail ({:?}) and alone ({:?})",
                                f.text,
                                a.kind,
                                b.kind
                            );
                            assert_eq!(
                                a.span.len(),
                                b.span.len(),
                                "{:?}: error spans of different lengths in a mail and alone",
                                f.text
                            );
                        }
                        _ => panic!(
                            "{:?} reads differently in a mail ({:?}) and alone ({:?})",
                            f.text, f.result, alone
                        ),
                    }
                    common::check_parse(&board, &f.text, phase, &alone);
                }
            }
        }
    }
});

/// The same failure, but for the suggestions of an unknown name when one
/// side has none: a parser suggests names for its first hundred unknown
/// words only (`OrderParser::suggest`, so that a mail of thousands costs
/// little), and the target reuses one parser for every phase, the mail and
/// each piece alone, so a long body spends that budget before a later
/// parse of the same word.
fn same_failure(a: &ParseErrorKind, b: &ParseErrorKind) -> bool {
    match (a, b) {
        (
            ParseErrorKind::UnknownPlace {
                text: t,
                suggestions: s,
            },
            ParseErrorKind::UnknownPlace {
                text: u,
                suggestions: v,
            },
        ) => t == u && (s == v || s.is_empty() || v.is_empty()),
        _ => a == b,
    }
}
