//! The order parser on hostile input: huge lines, deep nesting, random
//! bytes. Each case must just finish without a panic (no timing
//! assertions), and error spans must lie inside the input on char
//! boundaries. The inputs the fuzzer (fuzz/, see fuzz/README.md) found are
//! kept at the end as regression cases.

use std::sync::LazyLock;
use zinejudge::orders::format_order;
use zinejudge::orders::mail::find_orders;
use zinejudge::orders::parse::{OrderParser, ParseError, ParsedOrder};
use zinejudge::variant::{self, PhaseKind, Variant};

const MB: usize = 1 << 20;

const PHASES: [Option<PhaseKind>; 5] = [
    None,
    Some(PhaseKind::Movement),
    Some(PhaseKind::Retreat),
    Some(PhaseKind::Adjustment),
    Some(PhaseKind::Placement),
];

static STANDARD: LazyLock<Variant> =
    LazyLock::new(|| variant::builtin("standard").unwrap().unwrap());

static NOTATION: LazyLock<Variant> =
    LazyLock::new(|| Variant::from_toml(include_str!("../data/maps/notation.toml")).unwrap());

fn standard() -> &'static Variant {
    &STANDARD
}

fn check_span(text: &str, e: &ParseError) {
    let s = &e.span;
    assert!(
        s.start <= s.end && s.end <= text.len(),
        "span {s:?} outside {} bytes: {e:?}",
        text.len()
    );
    assert!(
        text.is_char_boundary(s.start) && text.is_char_boundary(s.end),
        "span {s:?} not on char boundaries: {e:?}"
    );
}

fn check(text: &str, r: &Result<ParsedOrder, ParseError>) {
    if let Err(e) = r {
        check_span(text, e);
        let _ = e.to_string();
    }
}

/// Parse `line` on both boards in one phase, and read it as a mail.
fn parse_everywhere_in(line: &str, phase: Option<PhaseKind>) {
    for v in [&*STANDARD, &*NOTATION] {
        let p = OrderParser::with_syntax(&v.map, v.syntax.clone());
        let r = p.parse(line, phase);
        check(line, &r);
        if let Ok(o) = &r {
            let _ = format_order(&v.map, &o.command);
        }
        for f in find_orders(&p, line, phase) {
            let raw = line.lines().nth(f.line - 1).expect("line number in range");
            if let Err(e) = &f.result {
                check_span(raw, e);
            }
        }
    }
}

/// Parse `line` on both boards in every phase, and read it as a mail.
fn parse_everywhere(line: &str) {
    for phase in PHASES {
        parse_everywhere_in(line, phase);
    }
}

/// `s` repeated to at least `len` bytes.
fn repeat_to(s: &str, len: usize) -> String {
    s.repeat(len.div_ceil(s.len()))
}

/// Parse `line` once on each board and read it once as a mail: for the
/// huge inputs, which take long in a debug build.
fn parse_once(line: &str, phase: Option<PhaseKind>) {
    for v in [&*STANDARD, &*NOTATION] {
        let p = OrderParser::with_syntax(&v.map, v.syntax.clone());
        check(line, &p.parse(line, phase));
        for f in find_orders(&p, line, phase) {
            if let Err(e) = &f.result {
                check_span(line, e);
            }
        }
    }
}

#[test]
fn a_megabyte_of_a_lon_dash() {
    parse_once(&repeat_to("A Lon-", MB), Some(PhaseKind::Movement));
    // Also as a long chain of moves, and as many orders on one line.
    parse_once(
        &format!("A Lon{}", repeat_to("-Yor", MB)),
        Some(PhaseKind::Movement),
    );
    parse_once(&repeat_to("A Lon-Yor. ", MB / 4), Some(PhaseKind::Movement));
    parse_everywhere(&repeat_to("A Lon-", 64 * 1024));
}

#[test]
fn a_megabyte_of_one_word() {
    // An unknown word is looked up, searched as a prefix and compared with
    // every name for suggestions. All of it is linear in the word's length,
    // but the suggestions cost about 1.3 s per megabyte in a release build
    // (tens of seconds in a debug one; reported): so the megabyte goes to
    // the standard board only, once.
    let v = standard();
    let p = OrderParser::new(&v.map);
    let word = "x".repeat(MB);
    check(&word, &p.parse(&word, Some(PhaseKind::Movement)));
    // In every place a word can stand, at a smaller size, on both boards.
    let word = "x".repeat(8 * 1024);
    for line in [
        word.clone(),
        format!("A {word} - Lon"),
        format!("A Lon - {word}"),
        format!("F StP/{word} - Bar"),
        format!("F StP({word}) - Bar"),
        format!("{word}: A Lon - Yor"),
        format!("Build A {word}"),
        format!("A Lon S {word}"),
    ] {
        parse_once(&line, Some(PhaseKind::Movement));
    }
}

#[test]
fn many_short_words() {
    for w in [
        "A ",
        "Lon ",
        "north ",
        "St. ",
        "x ",
        "A Lon S ",
        "England: ",
    ] {
        parse_once(&repeat_to(w, MB / 4), Some(PhaseKind::Movement));
    }
}

#[test]
fn deeply_nested_parentheses() {
    let n = 100_000;
    for line in [
        format!("{}{}", "(".repeat(n), ")".repeat(n)),
        format!("A{}Lon{}-Yor", "(".repeat(n), ")".repeat(n)),
        format!("A(Lon)-{}Yor{}", "[".repeat(n), "]".repeat(n)),
        format!("F StP{}nc{}", "(".repeat(n), ")".repeat(n)),
        "(A(".repeat(n),
    ] {
        parse_once(&line, Some(PhaseKind::Movement));
    }
}

#[test]
fn a_hundred_thousand_commas() {
    let n = 100_000;
    parse_once(&",".repeat(n), Some(PhaseKind::Movement));
    parse_once(&format!("A Lon-Yor{}", ",".repeat(n)), None);
    parse_once(&"A Lon-Yor,".repeat(n), Some(PhaseKind::Movement));
    parse_once(&"A,".repeat(n), Some(PhaseKind::Movement));
    parse_once(&";.".repeat(n), Some(PhaseKind::Adjustment));
}

#[test]
fn many_lines_and_long_lines_in_a_mail() {
    let v = standard();
    let p = OrderParser::new(&v.map);
    let body = "A Lon-Yor\n".repeat(100_000);
    assert_eq!(
        find_orders(&p, &body, Some(PhaseKind::Movement)).len(),
        100_000
    );
    let body = "England:\n".repeat(100_000);
    assert!(find_orders(&p, &body, None).is_empty());
    let body = format!("Builds: {}\n", "A(Lon), ".repeat(100_000));
    find_orders(&p, &body, Some(PhaseKind::Adjustment));
    let body = "\n".repeat(MB);
    assert!(find_orders(&p, &body, None).is_empty());
}

/// A small deterministic generator (xorshift), so that the test needs no
/// crate and fails the same way every time.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn random_bytes() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    // Many short lines, a few long ones.
    for i in 0..2000 {
        let len = if i % 100 == 0 {
            64 * 1024
        } else {
            (rng.next() % 80) as usize
        };
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let line = String::from_utf8_lossy(&bytes);
        parse_everywhere_in(&line, PHASES[i % PHASES.len()]);
    }
}

#[test]
fn random_order_words() {
    // Random sequences of the pieces orders are made of: these reach far
    // deeper into the grammar than random bytes.
    const PIECES: &[&str] = &[
        "A",
        "F",
        "A/F",
        "3D",
        "2F",
        "L",
        "CXII",
        "Army",
        "Fleet",
        "Lon",
        "London",
        "Yor",
        "StP",
        "St.",
        "Petersburg",
        "nc",
        "sc",
        "north",
        "coast",
        "Mid-Atlantic",
        "Ocean",
        "Spa",
        "ENG",
        "Got",
        "Den",
        "Sca",
        "COS",
        "Raiding",
        "Raid",
        "Nort",
        "-",
        "->",
        "—",
        "(",
        ")",
        "[",
        "]",
        "/",
        ":",
        ",",
        ";",
        ".",
        "S",
        "C",
        "H",
        "R",
        "to",
        "via",
        "convoy",
        "by",
        "build",
        "remove",
        "disband",
        "waive",
        "no",
        "retreat",
        "return",
        "boards",
        "disembarks",
        "destroys",
        "hold",
        "x2",
        "(x2)",
        "England",
        "Sweden",
        "Turkish",
        "Builds",
        "Moves",
        "1.",
        "*",
        ">",
        "\n",
        "-- ",
        " ",
        "é",
        "İ",
        "\u{2019}",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..1500 {
        let n = (rng.next() % 12) as usize + 1;
        let mut line = String::new();
        for _ in 0..n {
            line.push_str(PIECES[(rng.next() % PIECES.len() as u64) as usize]);
            if !rng.next().is_multiple_of(3) {
                line.push(' ');
            }
        }
        parse_everywhere(&line);
    }
}

// ---------------------------------------------------------------------
// Regression cases found by the fuzzers (fuzz/README.md).
//
// The fuzzers check that a parsed order, printed with `format_order`,
// parses again to the same command on the same board and phase. These
// inputs break that round trip; they are reported and ignored until the
// printer or the parser is fixed. None of them panics.
// ---------------------------------------------------------------------

/// Parse `line`, print it, parse the print: the same command comes back.
fn assert_roundtrip(v: &Variant, line: &str, phase: Option<PhaseKind>) {
    let p = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let first = p.parse(line, phase).expect("the input parses");
    let printed = format_order(&v.map, &first.command);
    match p.parse(&printed, phase) {
        Ok(again) => assert_eq!(
            again.command, first.command,
            "{line:?} printed as {printed:?} reads as another order"
        ),
        Err(e) => panic!("{line:?} printed as {printed:?}, which does not parse: {e}"),
    }
}

#[test]
fn roundtrip_of_ordinary_orders() {
    // The round trip holds for the orders the failures below are not about.
    let v = standard();
    for line in [
        "A Lon-Yor",
        "F(ENG) C A(Lon)-Bre",
        "A Lon-ENG-Bre",
        "A Lon - Bre by convoy",
        "F St Petersburg north coast - Barents Sea",
        "A Tyrolia S Turkish A Vie - Bud",
        "Build fleet St Petersburg north coast",
        "Build waived",
    ] {
        assert_roundtrip(v, line, Some(PhaseKind::Movement));
    }
    assert_roundtrip(v, "A Livonia retreats to Warsaw", Some(PhaseKind::Retreat));
    let v = &*NOTATION;
    for line in [
        "A/F(TYS) disembarks A(Tun)",
        "A/F(ENG) disembarks A(ENG)-Bre S by F(ENG)",
        "2F(Sca)-COS",
        "A(Liv) S A(Fin)-Kar (x2)",
        "A(Sca)-Hold-Got",
        "3D(Par) H",
    ] {
        assert_roundtrip(v, line, Some(PhaseKind::Movement));
    }
}

/// Fuzzer finding 1 (fixed): a unit written without its kind (`Lon -
/// Yor`, also `Build Lon`, `A/F Channel destroy SOD`) printed as
/// `?(Lon)-Yor`, which did not parse; it now prints as written.
#[test]
fn roundtrip_unit_without_kind() {
    assert_roundtrip(standard(), "Lon-Yor", Some(PhaseKind::Movement));
    assert_roundtrip(standard(), "Build Lon", Some(PhaseKind::Adjustment));
}

/// Fuzzer finding 2 (fixed): a leader (`CXII(Got)`, `L(Mar) Lon`) prints
/// as `L(Got)`, without the leader's name; the parser now reads `L(Got)`
/// as the leader standing there.
#[test]
fn roundtrip_leader() {
    assert_roundtrip(&NOTATION, "CXII(Got) H", Some(PhaseKind::Movement));
}

/// Fuzzer finding 3: `Retreat A(Lvn)-War` in a movement phase (or with no
/// phase) parses as a retreat, but prints as `A(Lvn)-War`, which in that
/// phase reads as a move.
#[test]
#[ignore = "fuzzer finding 3, reported: a retreat outside a retreat phase prints as a move"]
fn roundtrip_retreat_outside_a_retreat_phase() {
    assert_roundtrip(standard(), "Retreat A Lvn-War", Some(PhaseKind::Movement));
}

/// Fuzzer finding 4: in a retreat phase `A Lon return Yor` (the Ard-Ri
/// `Raiding Return - North Atlantic` form, read on every board) parses as
/// a movement-phase move, which prints as `A(Lon)-Yor`, which in a retreat
/// phase reads as a retreat.
#[test]
#[ignore = "fuzzer finding 4, reported: `return` in a retreat phase gives a movement order"]
fn roundtrip_return_in_a_retreat_phase() {
    assert_roundtrip(standard(), "A Lon return Yor", Some(PhaseKind::Retreat));
}

/// Fuzzer finding 5 (`mail_body`, minimised by `cargo fuzz tmin` to the
/// body "\n2A Lon H"): on the notation board in a retreat phase, `2A Lon H`
/// is read as a movement-phase order (a stack of two holding), printed as
/// `2A(Lon)-hold`, which in a retreat phase reads as a retreat to the
/// province `hold`: "unknown province `hold`". The same holds for
/// `A Lon H-Got` (`A(Lon)-hold-Got`). Finding 4 is the same gap with a
/// plain move.
#[test]
#[ignore = "fuzzer finding 5, reported: impulses in a retreat phase print as a retreat"]
fn roundtrip_impulses_in_a_retreat_phase() {
    assert_roundtrip(&NOTATION, "2A Lon H", Some(PhaseKind::Retreat));
}
