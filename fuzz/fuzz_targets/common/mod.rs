//! Shared by the fuzz targets: the two boards, the phases, and the
//! properties every parse must keep.
//!
//! Each check panics with a message naming the property, so that libFuzzer
//! records the input as a crash.

#![allow(dead_code)]

use std::sync::LazyLock;
use zinejudge::map::UnitKind;
use zinejudge::orders::parse::{OrderParser, ParseError, ParsedOrder};
use zinejudge::orders::{
    AdjustCommand, AnyCommand, MainCommand, OrderSyntax, RetreatCommand, Step, UnitRef,
    format_order, format_order_long,
};
use zinejudge::variant::{self, PhaseKind, Variant};

/// Standard Diplomacy.
pub static STANDARD: LazyLock<Variant> =
    LazyLock::new(|| variant::builtin("standard").unwrap().unwrap());

/// The small board with every variant notation switched on.
pub static NOTATION: LazyLock<Variant> = LazyLock::new(|| {
    Variant::from_toml(include_str!("../../../tests/data/maps/notation.toml")).unwrap()
});

/// Every phase an order may be read for, and none.
pub const PHASES: [Option<PhaseKind>; 5] = [
    None,
    Some(PhaseKind::Movement),
    Some(PhaseKind::Retreat),
    Some(PhaseKind::Adjustment),
    Some(PhaseKind::Placement),
];

/// A board with the parser of its game: standard notation on the standard
/// map, every notation on the notation board (with Ard-Ri's `convert`,
/// which came after the board file and is not switched on in it).
pub struct Board {
    pub name: &'static str,
    pub variant: &'static Variant,
    pub parser: OrderParser<'static>,
}

pub fn boards() -> [Board; 2] {
    [
        Board {
            name: "standard",
            variant: &STANDARD,
            parser: OrderParser::new(&STANDARD.map),
        },
        Board {
            name: "notation",
            variant: &NOTATION,
            parser: OrderParser::with_syntax(
                &NOTATION.map,
                OrderSyntax {
                    convert: true,
                    ..NOTATION.syntax.clone()
                },
            ),
        },
    ]
}

/// Known failures of the round trip that the fuzzer would otherwise find
/// again and again, hiding anything new. Set `ZJ_FUZZ_STRICT=1` to check
/// them too.
///
/// Each class was reported to the lead (see fuzz/README.md and the
/// `#[ignore]`d cases in tests/board/parser_robustness.rs).
pub fn known_roundtrip_failure(
    command: &AnyCommand,
    phase: Option<PhaseKind>,
) -> Option<&'static str> {
    static STRICT: LazyLock<bool> =
        LazyLock::new(|| std::env::var_os("ZJ_FUZZ_STRICT").is_some_and(|v| v != "0"));
    if *STRICT {
        return None;
    }
    let units = units_of(command);
    // 1. A unit written without a kind (`Lon - Yor`) prints as `?(Lon)`,
    //    which no parser reads back.
    if units.iter().any(|u| u.kind.is_none()) {
        return Some("unit of unknown kind prints as `?(...)`");
    }
    // 2. A leader (`CXII(Got)`, `L(Mar) Lon`) prints as `L(Got)` without
    //    its name, which the parser does not read.
    if units.iter().any(|u| u.kind == Some(UnitKind::Leader)) {
        return Some("leader prints as `L(place)` without its name");
    }
    // 3. `Retreat A(Lvn)-War` outside a retreat phase is a retreat, but it
    //    prints as `A(Lvn)-War`, which there reads as a move.
    if matches!(command, AnyCommand::Retreat(_, RetreatCommand::Move { .. }))
        && phase != Some(PhaseKind::Retreat)
    {
        return Some("retreat outside a retreat phase prints as a move");
    }
    // 4. In a retreat phase, an order that does not start with a move word
    //    is read as a movement-phase order: `A Lon return Yor` as a move,
    //    `2A Lon H` (notation board) as impulses. They print with a dash
    //    after the unit (`A(Lon)-Yor`, `2A(Lon)-hold`), which in a retreat
    //    phase reads as a retreat.
    if phase == Some(PhaseKind::Retreat) {
        match command {
            AnyCommand::Main(_, MainCommand::Move { .. }) => {
                return Some("`return` in a retreat phase gives a movement order");
            }
            AnyCommand::Main(_, MainCommand::Impulses { steps, .. })
                if matches!(
                    steps.first(),
                    Some(Step::Hold | Step::Move(_) | Step::Convoy(..))
                ) =>
            {
                return Some("impulses in a retreat phase print as a retreat");
            }
            _ => {}
        }
    }
    None
}

/// Every unit an order names.
fn units_of(command: &AnyCommand) -> Vec<UnitRef> {
    let mut out = Vec::new();
    match command {
        AnyCommand::Main(u, c) => {
            out.push(*u);
            match c {
                MainCommand::SupportHold { unit }
                | MainCommand::SupportMove { unit, .. }
                | MainCommand::Convoy { unit, .. } => out.push(*unit),
                MainCommand::Board { fleet } => out.push(*fleet),
                MainCommand::Destroy { target } => out.push(*target),
                MainCommand::Impulses { steps, .. } => {
                    for s in steps {
                        match s {
                            Step::SupportHold(v) | Step::SupportMove(v, _) | Step::Convoy(v, _) => {
                                out.push(*v)
                            }
                            Step::Hold | Step::Move(_) => {}
                        }
                    }
                }
                MainCommand::Hold | MainCommand::Move { .. } | MainCommand::Disembark { .. } => {}
            }
        }
        AnyCommand::Retreat(u, _) => out.push(*u),
        AnyCommand::Adjust(AdjustCommand::Build { kind, at }) => out.push(UnitRef {
            kind: *kind,
            at: *at,
        }),
        AnyCommand::Adjust(AdjustCommand::Remove { unit })
        | AnyCommand::Adjust(AdjustCommand::Convert { unit, .. }) => out.push(*unit),
        AnyCommand::Adjust(AdjustCommand::Waive) => {}
    }
    out
}

/// The properties of one `parse` call on `line`.
pub fn check_parse(
    board: &Board,
    line: &str,
    phase: Option<PhaseKind>,
    result: &Result<ParsedOrder, ParseError>,
) {
    match result {
        Err(e) => {
            check_span(line, e, "parse");
            // Printing the error never panics either.
            let _ = e.to_string();
        }
        Ok(order) => check_roundtrip(board, line, phase, order),
    }
}

/// An error span lies inside `text` and on char boundaries.
pub fn check_span(text: &str, e: &ParseError, what: &str) {
    let s = &e.span;
    assert!(
        s.start <= s.end && s.end <= text.len(),
        "{what}: error span {s:?} outside the input of {} bytes: {e:?}",
        text.len()
    );
    assert!(
        text.is_char_boundary(s.start) && text.is_char_boundary(s.end),
        "{what}: error span {s:?} not on char boundaries of {text:?}: {e:?}"
    );
}

/// A parsed order, printed in zine notation, parses again (same board,
/// same phase) to the same command.
pub fn check_roundtrip(board: &Board, line: &str, phase: Option<PhaseKind>, order: &ParsedOrder) {
    let map = &board.variant.map;
    // The long (njudge) form never panics either.
    let _ = format_order_long(map, &order.command);
    let formatted = format_order(map, &order.command);
    if known_roundtrip_failure(&order.command, phase).is_some() {
        return;
    }
    match board.parser.parse(&formatted, phase) {
        Ok(again) => assert!(
            again.command == order.command,
            "round trip on {} ({phase:?}): {line:?} parsed as {:?}, printed as {formatted:?}, \
             which parses as {:?}",
            board.name,
            order.command,
            again.command
        ),
        Err(e) => panic!(
            "round trip on {} ({phase:?}): {line:?} parsed as {:?}, printed as {formatted:?}, \
             which does not parse: {e} ({e:?})",
            board.name, order.command
        ),
    }
}
