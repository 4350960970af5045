//! Golden tests of the order notation: every form players of the postal
//! zines wrote, read and printed back in canonical zine notation.

use zinejudge::map::normalize_name;
use zinejudge::orders::mail::find_orders;
use zinejudge::orders::parse::{OrderParser, ParseErrorKind};
use zinejudge::orders::{AnyCommand, MainCommand, Step, format_order};
use zinejudge::variant::{self, PhaseKind, Variant};

fn standard() -> Variant {
    variant::builtin("standard").unwrap().unwrap()
}

fn notation_board() -> Variant {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/maps/notation.toml"
    ))
    .unwrap();
    Variant::from_toml(&text).unwrap()
}

/// Parse `input` alone and print it canonically.
fn canon(v: &Variant, input: &str, phase: Option<PhaseKind>) -> String {
    let p = OrderParser::with_syntax(&v.map, v.syntax.clone());
    match p.parse(input, phase) {
        Ok(o) => format_order(&v.map, &o.command),
        Err(e) => format!("error: {e}"),
    }
}

fn assert_all(v: &Variant, phase: Option<PhaseKind>, cases: &[(&str, &str)]) {
    let mut bad = Vec::new();
    for (input, want) in cases {
        let got = canon(v, input, phase);
        if got != *want {
            bad.push(format!("{input:?}: got {got:?}, want {want:?}"));
        }
    }
    assert!(bad.is_empty(), "\n{}", bad.join("\n"));
}

#[test]
fn movement_orders_in_every_style_players_use() {
    let v = standard();
    assert_all(
        &v,
        Some(PhaseKind::Movement),
        &[
            ("A(Lon)-Yor", "A(Lon)-Yor"),
            ("A Lon - Yor", "A(Lon)-Yor"),
            ("A Lon->Yor", "A(Lon)-Yor"),
            ("A Lon–Yor", "A(Lon)-Yor"),
            ("A Lon — Yor", "A(Lon)-Yor"),
            ("a lon-yor", "A(Lon)-Yor"),
            ("A LON - YOR", "A(Lon)-Yor"),
            ("Army London moves to York", "A(Lon)-Yor"),
            ("Army London -> Yorkshire.", "A(Lon)-Yor"),
            ("F(ENG) C A(Lon)-Bre", "F(ENG) C A(Lon)-Bre"),
            (
                "F English Channel convoys A London - Brest",
                "F(ENG) C A(Lon)-Bre",
            ),
            ("F(Bla) S A(Sev)-Rum", "F(BLA) S A(Sev)-Rum"),
            ("A(Bud) S A(Vie)", "A(Bud) S A(Vie)"),
            ("A Budapest supports A Vienna", "A(Bud) S A(Vie)"),
            ("F(Nth) H", "F(NTH) H"),
            ("F North Sea holds", "F(NTH) H"),
            ("A Lon stands", "A(Lon) H"),
            ("A(Lon)-ENG-Bre", "A(Lon)-ENG-Bre"),
            ("A Lon-Bre via convoy", "A(Lon)-Bre via convoy"),
            ("A Lon - Bre by convoy", "A(Lon)-Bre via convoy"),
            ("F(StP/nc)-Bar", "F(StP/nc)-BAR"),
            ("F StP(nc) - Bar", "F(StP/nc)-BAR"),
            ("F St Petersburg north coast - Barents Sea", "F(StP/nc)-BAR"),
            (
                "F St. Petersburg (south coast) - Gulf of Bothnia",
                "F(StP/sc)-BOT",
            ),
            ("F Mid-Atlantic Ocean - Spain (nc)", "F(MAO)-Spa/nc"),
            ("F Mid Atlantic - Spa/sc", "F(MAO)-Spa/sc"),
            (
                "F Gulf of Lyons S F Spain south coast - Marseilles",
                "F(LYO) S F(Spa/sc)-Mar",
            ),
            ("A Tyrolia S Turkish A Vie - Bud", "A(Tyr) S A(Vie)-Bud"),
            ("Lon - Yor", "Lon-Yor"),
            ("F Lon-ENG.", "F(Lon)-ENG"),
            ("England: F Lon-ENG", "F(Lon)-ENG"),
        ],
    );
}

#[test]
fn retreat_and_adjustment_orders() {
    let v = standard();
    assert_all(
        &v,
        Some(PhaseKind::Retreat),
        &[
            ("A(Lvn)-War", "A(Lvn)-War"),
            ("A(Lvn) R War", "A(Lvn)-War"),
            ("A Livonia retreats to Warsaw", "A(Lvn)-War"),
            ("Retreat A(Lvn)-War", "A(Lvn)-War"),
            ("Disband A(Lvn)", "Disband A(Lvn)"),
            ("A Lvn disbands", "Disband A(Lvn)"),
        ],
    );
    assert_all(
        &v,
        Some(PhaseKind::Adjustment),
        &[
            ("Build F(Lon)", "Build F(Lon)"),
            ("Builds A Edi", "Build A(Edi)"),
            ("build fleet St Petersburg north coast", "Build F(StP/nc)"),
            ("Build A Moscow", "Build A(Mos)"),
            ("F stp/nc build", "Build F(StP/nc)"),
            ("Remove A(Par)", "Remove A(Par)"),
            ("Disband F Kiel", "Remove F(Kie)"),
            ("A pic disband", "Remove A(Pic)"),
            ("Waive", "Build waived"),
            ("Build waived", "Build waived"),
            ("waive build", "Build waived"),
            ("no build", "Build waived"),
        ],
    );
}

#[test]
fn rule_text_examples_of_the_postal_variants() {
    let v = notation_board();
    assert_all(
        &v,
        Some(PhaseKind::Movement),
        &[
            // Abstraction II, rule 3.
            ("A(Lon) boards F(ENG)", "A(Lon) boards F(ENG)"),
            ("A(Lon) embarks F(ENG)", "A(Lon) boards F(ENG)"),
            ("A/F(ENG)-MAO", "A/F(ENG)-MAO"),
            ("A/F(TYS) disembarks A(Tun)", "A/F(TYS) disembarks A(Tun)"),
            ("F(TYS)-WMS", "F(TYS)-WMS"),
            (
                "A/F(ENG) disembarks A(ENG)-Bre S by F(ENG)",
                "A/F(ENG) disembarks A(Bre) S by F(ENG)",
            ),
            // 1000 AD, rule 7.
            ("3D(Par) H", "3D(Par) H"),
            // Ard-Ri, rule 6.
            ("Fleet Erin Sea - Raiding", "F(ERI)-Raid"),
            ("Fleet Raiding Return - North Atlantic", "F(Raid)-NAO"),
            // 1066, rule 4.
            ("F(CHA) destroys A(SOD)", "F(CHA) destroys A(SOD)"),
            ("A/F Channel destroy SOD", "A/F(CHA) destroys SOD"),
            // 1700 AD, rule 6.
            ("CXII(Got)-hold-Den (x2)", "L(Got)-hold-Den (x2)"),
            ("2F(Sca)-COS-C CXII(Got)-Den", "2F(Sca)-COS-C L(Got)-Den"),
            ("A(Sca)-Hold-Got", "A(Sca)-hold-Got"),
            ("A(Liv) S A(Fin)-Kar (x2)", "A(Liv) S A(Fin)-Kar (x2)"),
            ("A(Liv) S A(Fin)-Kar", "A(Liv) S A(Fin)-Kar"),
            ("L(Mar) Lon H", "L(Lon) H"),
        ],
    );
    assert_all(
        &v,
        Some(PhaseKind::Retreat),
        &[("A(Liv)-Kur", "A(Liv)-Kur")],
    );
}

#[test]
fn the_1700_order_sheet_reads_as_written() {
    let v = notation_board();
    let p = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let sheet = "Sweden 1700 Moves: CXII(Got)-hold-Den (x2);\n\
                 2F(Sca)-COS-C CXII(Got)-Den;\n\
                 A(Sca)-Hold-Got;\n\
                 A(Liv) S A(Fin)-Kar (x2);\n\
                 Retreats: A(Liv)-Kur;\n\
                 Builds: A(Fin), A(Dal).\n\
                 Removes: A(Got).\n";
    let found = find_orders(&p, sheet, Some(PhaseKind::Movement));
    let got: Vec<String> = found
        .iter()
        .map(|f| match &f.result {
            Ok(o) => format!("{}: {}", f.line, format_order(&v.map, &o.command)),
            Err(e) => format!("{}: error {e}", f.line),
        })
        .collect();
    assert_eq!(
        got,
        [
            "1: L(Got)-hold-Den (x2)",
            "2: 2F(Sca)-COS-C L(Got)-Den",
            "3: A(Sca)-hold-Got",
            "4: A(Liv) S A(Fin)-Kar (x2)",
            "5: A(Liv)-Kur",
            "6: Build A(Fin)",
            "6: Build A(Dal)",
            "7: Remove A(Got)",
        ]
    );
    let sweden = v.map.lookup_power("Sweden");
    assert!(
        found.iter().all(|f| f.power == sweden),
        "the heading names the power"
    );
    match &found[0].result.as_ref().unwrap().command {
        AnyCommand::Main(_, MainCommand::Impulses { steps, double, .. }) => {
            assert_eq!(steps.len(), 2);
            assert!(matches!(steps[0], Step::Hold));
            assert!(*double);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn variant_orders_are_refused_in_games_without_them() {
    let v = standard();
    let p = OrderParser::new(&v.map);
    for (input, what) in [
        ("A/F(ENG)-MAO", "A/F units"),
        ("A(Lon) boards F(ENG)", "boarding"),
        ("3D(Par) H", "defensive armies"),
        ("F(ENG) destroys A(Lon)", "destroy"),
        ("F ENG - Raiding", "raids"),
        ("2F(NTH)-ENG", "stacked fleets"),
        ("A(Lvn) S A(Mos)-StP (x2)", "double-strength"),
        ("A(Lon)-Hold-Yor", "several impulses"),
    ] {
        match p.parse(input, Some(PhaseKind::Movement)) {
            Err(e) => match &e.kind {
                ParseErrorKind::NotInThisGame { what: w } => {
                    assert!(w.contains(what), "{input}: {w}");
                    assert!(e.to_string().contains("not part of this game"), "{e}");
                }
                other => panic!("{input}: wrong error {other:?}"),
            },
            Ok(o) => panic!("{input}: accepted as {:?}", o.command),
        }
    }
}

#[test]
fn unknown_and_ambiguous_names_are_explained() {
    let v = standard();
    let p = OrderParser::new(&v.map);
    let e = p.parse("A Lon-Yrk", Some(PhaseKind::Movement)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown province `Yrk`. Did you mean Yorkshire (Yor)?"
    );
    let e = p.parse("F Nor - NTH", Some(PhaseKind::Movement));
    assert!(e.is_ok(), "`Nor` is an alias of Norway");
    let e = p
        .parse("F Nort - ENG", Some(PhaseKind::Movement))
        .unwrap_err();
    match &e.kind {
        ParseErrorKind::AmbiguousPlace { candidates, .. } => {
            assert_eq!(
                candidates,
                &[
                    "North Africa (Naf)",
                    "North Atlantic Ocean (NAO)",
                    "North Sea (NTH)"
                ]
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        e.to_string(),
        "`Nort` could be North Africa (Naf), North Atlantic Ocean (NAO), North Sea (NTH): write more of the name"
    );
    // A unique prefix of three letters or more is read.
    assert_eq!(
        canon(&v, "A Bulg - Rum", Some(PhaseKind::Movement)),
        "A(Bul)-Rum"
    );
    // Spans point at the bad word.
    let e = p
        .parse("A Lon - Atlantis", Some(PhaseKind::Movement))
        .unwrap_err();
    assert_eq!(&"A Lon - Atlantis"[e.span.clone()], "Atlantis");
}

#[test]
fn orders_are_found_among_the_noise_of_a_mail() {
    let v = standard();
    let p = OrderParser::new(&v.map);
    let body = "Dear GM,\n\
                \n\
                here are England's orders (sorry they are late):\n\
                \n\
                1. F(Lon)-ENG\n\
                2) F Edi -> NTH; A Lvp S A(Lon)-Yor.\n\
                * A Yor - Nwy via convoy\n\
                - F Nth C A Yor-Nwy\n\
                A Wal H, F(Iri) H\n\
                A Lon - Yrk\n\
                I think Germany is lying to me.\n\
                A good day to you.\n\
                \n\
                > F(Lon)-NTH\n\
                > quoted from the last mail\n\
                -- \n\
                Alice\n\
                A(Lon)-Wal\n";
    let found = find_orders(&p, body, Some(PhaseKind::Movement));
    let got: Vec<String> = found
        .iter()
        .map(|f| match &f.result {
            Ok(o) => format!("{}: {}", f.line, format_order(&v.map, &o.command)),
            Err(e) => format!("{}: `{}` {e}", f.line, f.text),
        })
        .collect();
    assert_eq!(
        got,
        [
            "5: F(Lon)-ENG",
            "6: F(Edi)-NTH",
            "6: A(Lvp) S A(Lon)-Yor",
            "7: A(Yor)-Nwy via convoy",
            "8: F(NTH) C A(Yor)-Nwy",
            "9: A(Wal) H",
            "9: F(IRI) H",
            "10: `A Lon - Yrk` unknown province `Yrk`. Did you mean Yorkshire (Yor)?",
        ]
    );
}

#[test]
fn every_order_of_the_jdip_datc_file_parses() {
    // jDip spells provinces as people do ("liverpool", "North Sea").
    let v = standard();
    let p = OrderParser::new(&v.map);
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/datc/jdip_datc_v2.4_06.txt"
    ))
    .unwrap();
    let cases = zinejudge::testing::datc::parse_file(&text).unwrap();
    let mut n = 0;
    let mut bad = Vec::new();
    for c in &cases {
        let phase = c
            .phase
            .as_ref()
            .map(|l| v.calendar.parse(&l.text).unwrap().kind);
        for l in &c.orders {
            n += 1;
            // The power (with jDip's deliberate typo `Germnay`) is the
            // runner's business; the order is the parser's.
            let (_, order) = l.text.split_once(':').unwrap();
            if let Err(e) = p.parse(order, phase) {
                bad.push(format!("line {}: {}: {e}", l.line, l.text));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(n > 500, "only {n} orders");
}

#[test]
fn names_normalise_without_dots_apostrophes_or_case() {
    assert_eq!(
        normalize_name("St. Petersburg"),
        normalize_name("st petersburg")
    );
    let v = standard();
    assert_eq!(
        canon(&v, "A st.petersburg - mos", Some(PhaseKind::Movement)),
        "A(StP)-Mos"
    );
    assert_eq!(
        canon(&v, "A ST PETERSBURG - MOSCOW", Some(PhaseKind::Movement)),
        "A(StP)-Mos"
    );
}
