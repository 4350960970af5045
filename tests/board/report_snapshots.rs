//! Snapshots of the results mails, in both styles, for a movement, a
//! retreat and an adjustment phase (insta). Every line fits 72 columns.

use crate::support_play;
use zinejudge::game::Position;
use zinejudge::game::record::Style;
use zinejudge::game::step::{PhaseOrders, play};
use zinejudge::orders::parse::OrderParser;
use zinejudge::orders::{AnyCommand, Order};
use zinejudge::testing::report::templates::Templates;
use zinejudge::testing::report::{PhaseReport, data};
use zinejudge::variant::{self, PhaseKind, Variant};

/// Play `text` from `pos` and render it in both styles.
/// Orders from text, a `Power: order` line each.
fn orders(v: &Variant, kind: PhaseKind, text: &str) -> PhaseOrders {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    support_play::orders(v, kind, &lines)
}

fn both(v: &Variant, pos: &Position, text: &str) -> (String, String, Position) {
    let o = orders(v, pos.phase.kind, text);
    let (result, next) = play(v, pos, &o);
    let d = data(
        &PhaseReport {
            variant: v,
            game: "snap",
            before: pos,
            orders: &o,
            result: &result,
            after: &next,
            next_deadline: Some("Sat 08 Jan 2028 12:00 UTC".into()),
            ended: None,
            nmr: vec![],
        },
        "zinejudge",
    );
    let t = Templates::builtin();
    let zine = t.results(Style::Zine, &d).unwrap();
    let judge = t.results(Style::Judge, &d).unwrap();
    for l in zine.lines().chain(judge.lines()) {
        assert!(l.chars().count() <= 72 && !l.contains('\t'), "{l:?}");
    }
    (zine, judge, next)
}

#[test]
fn standard_movement_retreat_and_adjustment() {
    let v = variant::builtin("standard").unwrap().unwrap();
    let start = Position::from_toml(
        &v,
        r#"
phase = "Fall 1901 movement"
[units]
Austria = ["A Vie", "A Bud", "F Alb"]
England = ["F NTH", "F NWG", "A Yor"]
France = ["F MAO", "A Bur", "A Spa"]
Germany = ["F Den", "A Kie", "A Ruh"]
Italy = ["F ION", "A Apu", "A Tyr"]
Russia = ["A Gal", "A Ukr", "F Sev", "F BOT"]
Turkey = ["F Ank", "A Bul", "A Arm"]
[centres]
Austria = ["Bud", "Tri", "Vie"]
England = ["Edi", "Lon", "Lvp"]
France = ["Bre", "Mar", "Par"]
Germany = ["Ber", "Kie", "Mun"]
Italy = ["Nap", "Rom", "Ven"]
Russia = ["Mos", "Sev", "StP", "War"]
Turkey = ["Ank", "Con", "Smy"]
"#,
    )
    .unwrap();
    let (zine, judge, retreat) = both(
        &v,
        &start,
        "Austria: A Vie H\nAustria: A Bud H\nAustria: F Alb-Gre\n\
         England: F NTH C A Yor-Nwy\nEngland: A Yor-Nwy\nEngland: F NWG S A Yor-Nwy\n\
         France: F MAO-Por\nFrance: A Bur-Mar\nFrance: A Spa H\n\
         Germany: F Den-Swe\nGermany: A Kie-Hol\nGermany: A Ruh-Bel\n\
         Italy: A Tyr-Vie\nItaly: F ION-Tun\nItaly: A Apu-Rom\n\
         Russia: A Gal S A Tyr-Vie\nRussia: A Ukr-Rum\nRussia: F Sev-BLA\nRussia: F BOT-Swe\n\
         Turkey: F Ank-BLA\nTurkey: A Bul H\nTurkey: A Arm-Sev\n",
    );
    insta::assert_snapshot!("standard_movement_zine", zine);
    insta::assert_snapshot!("standard_movement_judge", judge);
    assert_eq!(retreat.phase.kind, PhaseKind::Retreat);
    let (zine, judge, adjust) = both(&v, &retreat, "Austria: A Vie-Boh\n");
    insta::assert_snapshot!("standard_retreat_zine", zine);
    insta::assert_snapshot!("standard_retreat_judge", judge);
    assert_eq!(adjust.phase.kind, PhaseKind::Adjustment);
    let (zine, judge, _) = both(
        &v,
        &adjust,
        "England: Build F Edi\nItaly: Build F Nap\nItaly: Waive\nAustria: Remove A Boh\nGermany: Build A Ber\n",
    );
    insta::assert_snapshot!("standard_adjustment_zine", zine);
    insta::assert_snapshot!("standard_adjustment_judge", judge);
}

/// 1066, March 1066: William lands, Harald's A/Fs move in secret. The GM's
/// copy shows all; Harold's (any other power's) leaves Harald's units out;
/// Harald's own shows them.
#[test]
fn variant_1066_march_per_reader() {
    use zinejudge::testing::report::data_for;
    use zinejudge::variant::features::Viewer;
    let v = variant::builtin("1066").unwrap().unwrap();
    let pos = Position::initial(&v);
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let mut main = Vec::new();
    for l in [
        "Duke William: A(SOD)-Has",
        "Duke William: A(SOD)-Can",
        "Harald Hardrada: A/F(GER) H",
        "Harald Hardrada: A/F(WAS)-GER",
        "Harold Godwinson: A(Win)-Has",
        "Harold Godwinson: A(Lun)-Chn",
        "The Scots: F(Fif)-FOF",
    ] {
        let o = parser.parse(l, Some(PhaseKind::Movement)).unwrap();
        let AnyCommand::Main(unit, command) = o.command else {
            panic!("{l}")
        };
        main.push(Order {
            power: o.power.unwrap(),
            unit,
            command,
        });
    }
    let o = PhaseOrders::Movement(main);
    let (result, next) = play(&v, &pos, &o);
    let pr = PhaseReport {
        variant: &v,
        game: "hastings",
        before: &pos,
        orders: &o,
        result: &result,
        after: &next,
        next_deadline: Some("Sat 08 Jan 2028 12:00 UTC".into()),
        ended: None,
        nmr: vec![],
    };
    let t = Templates::builtin();
    let render = |viewer| {
        let text = t
            .results(Style::Zine, &data_for(&pr, "zinejudge", viewer))
            .unwrap();
        for l in text.lines() {
            assert!(l.chars().count() <= 72 && !l.contains('\t'), "{l:?}");
        }
        text
    };
    let harald = v.map.lookup_power("Harald").unwrap();
    let harold = v.map.lookup_power("Harold").unwrap();
    insta::assert_snapshot!("1066_march_gm", render(Viewer::Gm));
    insta::assert_snapshot!("1066_march_harold", render(Viewer::Power(harold)));
    insta::assert_snapshot!("1066_march_harald", render(Viewer::Power(harald)));
}

/// 1066 through a movement with a dislodgement, its retreat and the
/// adjustments after April, in both styles.
#[test]
fn variant_1066_movement_retreat_and_adjustment() {
    let v = variant::builtin("1066").unwrap().unwrap();
    let start = Position::from_toml(
        &v,
        r#"
phase = "April 1066 movement"
[units]
"Duke William" = ["A Has", "A Can", "A WIL", "A WIL"]
"Harald Hardrada" = ["A/F GER", "A/F WAS", "A/F HAR", "A/F HAR"]
"Harold Godwinson" = ["A Glo", "A Wes", "A Win", "A Sus"]
"The Norse" = ["A/F Dub", "A/F Man", "A/F Sdr", "A/F Cum"]
"The Northern Earls" = ["A Dun", "A Rip", "A Mam", "A Dre"]
"The Scots" = ["F FOF", "A Sti", "A Edw", "A Brc"]
"The Welsh" = ["A Wwa", "A Mor", "A Ker", "A Gwy"]
[centres]
"Harold Godwinson" = ["Glo", "Wes", "Win", "Lun"]
"The Norse" = ["Dub", "Man", "Sdr", "Cum"]
"The Northern Earls" = ["Dun", "Rip", "Mam", "Dre"]
"The Scots" = ["Fif", "Sti", "Edw", "Brc"]
"The Welsh" = ["Wwa", "Mor", "Ker", "Gwy"]
"#,
    )
    .unwrap();
    let mut pos = start;
    for (name, text) in [
        (
            "movement",
            "Harold Godwinson: A(Win)-Has\nHarold Godwinson: A(Sus) S A(Win)-Has\n\
             Duke William: A(Can)-Chn\nDuke William: A(SOD)-Exs\n\
             Harald Hardrada: A/F(WAS)-Yor\nThe Scots: F(FOF)-GER",
        ),
        ("retreat", "Duke William: A(Has)-Can"),
        (
            "adjustment",
            "Harold Godwinson: Build A Win\nDuke William: Build A WIL",
        ),
    ] {
        assert_eq!(pos.phase.kind.word(), name, "{pos:?}");
        let o = orders(&v, pos.phase.kind, text);
        let (result, next) = play(&v, &pos, &o);
        let d = data(
            &PhaseReport {
                variant: &v,
                game: "hastings",
                before: &pos,
                orders: &o,
                result: &result,
                after: &next,
                next_deadline: Some("Sat 08 Jan 2028 12:00 UTC".into()),
                ended: None,
                nmr: vec![],
            },
            "zinejudge",
        );
        let t = Templates::builtin();
        let zine = t.results(Style::Zine, &d).unwrap();
        let judge = t.results(Style::Judge, &d).unwrap();
        for l in zine.lines().chain(judge.lines()) {
            assert!(l.chars().count() <= 72 && !l.contains('\t'), "{l:?}");
        }
        insta::assert_snapshot!(format!("1066_{name}_zine"), zine);
        insta::assert_snapshot!(format!("1066_{name}_judge"), judge);
        pos = next;
    }
}

/// Play `steps` (phase kind word, orders) from `pos`, snapshotting each
/// phase's results in both styles as `{prefix}_{n}_{kind}_{style}`.
fn sequence(v: &Variant, mut pos: Position, prefix: &str, steps: &[(&str, &str)]) {
    for (n, (kind, text)) in steps.iter().enumerate() {
        assert_eq!(pos.phase.kind.word(), *kind, "{pos:?}");
        let o = orders(v, pos.phase.kind, text);
        let (result, next) = play(v, &pos, &o);
        let d = data(
            &PhaseReport {
                variant: v,
                game: prefix,
                before: &pos,
                orders: &o,
                result: &result,
                after: &next,
                next_deadline: Some("Sat 08 Jan 2028 12:00 UTC".into()),
                ended: None,
                nmr: vec![],
            },
            "zinejudge",
        );
        let t = Templates::builtin();
        let zine = t.results(Style::Zine, &d).unwrap();
        let judge = t.results(Style::Judge, &d).unwrap();
        for l in zine.lines().chain(judge.lines()) {
            assert!(l.chars().count() <= 72 && !l.contains('\t'), "{l:?}");
        }
        insta::assert_snapshot!(format!("{prefix}_{n}_{kind}_zine"), zine);
        insta::assert_snapshot!(format!("{prefix}_{n}_{kind}_judge"), judge);
        pos = next;
    }
}

/// Ard-Ri with the Vikings: the Winter 379 builds (the Vikings' at sea, to
/// arrive later), a raid, the Vikings placed before the Fall moves, the
/// raider home and counted in Winter.
#[test]
fn variant_ardri_with_the_vikings() {
    let v = variant::builtin("ardri").unwrap().unwrap();
    let pos = Position::initial(&v);
    sequence(
        &v,
        pos,
        "ardri",
        &[
            (
                "adjustment",
                "Ulaid: Build F Mag\nUlaid: Build F Aic\nUlaid: Build A Ema\n\
                 Connacht: Build A Mon\nConnacht: Build F Cru\nConnacht: Build A Tua\n\
                 Midhe: Build A Uis\nMidhe: Build A Gua\nMidhe: Build A Tem\n\
                 Laigin: Build A Naa\nLaigin: Build A Aie\nLaigin: Build F Alm\n\
                 Muma: Build A Eog\nMuma: Build A Edg\nMuma: Build F Anu\n\
                 Vikings: Build F NAT\nVikings: Build F ERI\nVikings: Build F NCH",
            ),
            (
                "movement",
                "Muma: F Anu - SOU\nLaigin: F Alm - ERI\nUlaid: F Aic - NAT\n\
                 Midhe: A Gua - Mid\nConnacht: A Mon - Con",
            ),
            (
                "movement",
                "Ulaid: F Mag - ERI\nMuma: F SOU S F Mag - ERI\nVikings: F NCH - End",
            ),
            ("retreat", "Laigin: F ERI - Rat"),
            (
                "adjustment",
                "Vikings: F(End) becomes A\nVikings: Build F NCH",
            ),
            (
                "movement",
                "Muma: Fleet South Atlantic - Raiding\nVikings: A End - Aic",
            ),
            ("movement", "Muma: Fleet Raiding Return - South Atlantic"),
            ("adjustment", "Muma: Build F Anu"),
        ],
    );
}

/// 1000 AD: the Winter 999 placement with a defensive army, two moves, and
/// the Winter 1000 builds of units kept back.
#[test]
fn variant_1000ad_placement_moves_and_builds() {
    let v = variant::builtin("1000ad").unwrap().unwrap();
    let pos = Position::initial(&v);
    sequence(
        &v,
        pos,
        "millennium",
        &[
            (
                "placement",
                "British: Build F Lon\nBritish: Build A Yor\nBritish: Build 3D Mer\n\
                 Franks: Build A Par\nFranks: Build F Bri\nFranks: Build A Rho",
            ),
            (
                "movement",
                "British: F Lon - NTH\nBritish: A Yor - Dum\nFranks: A Par - Try\n\
                 Franks: F Bri - ENC\nFranks: A Rho - Lyo",
            ),
            ("movement", "British: F NTH - Fri\nFranks: F ENC - Nor"),
            (
                "adjustment",
                "British: Build A Lon\nFranks: Build A Par\nFranks: Build 3D Bor",
            ),
        ],
    );
}

/// Abstraction II: boarding, sailing and landing in one move, a landing
/// beside its fleet's move, a fast ferry that cannot land, the retreat and
/// the September adjustments; months for seasons.
#[test]
fn variant_abstraction2_army_fleets() {
    let v = variant::builtin("abstraction2").unwrap().unwrap();
    let pos = Position::initial(&v);
    sequence(
        &v,
        pos,
        "abs",
        &[
            (
                "movement",
                "England: A(Lvp) - Wal\nEngland: F(Lon) - ENG\nEngland: F(Ply) - IRI\n\
                 France: F(Bre) - MAO\nItaly: F(Nap) - TYS\nGermany: A(Mun) - Ruh",
            ),
            (
                "movement",
                "England: A(Wal) boards F(IRI)\nEngland: A/F(IRI) - MAO\n\
                 England: A/F(IRI) disembarks A(Leo)\nEngland: F(ENG) - Pic\n\
                 France: F(MAO) - Por\nItaly: F(TYS) - Tun\nGermany: A(Ruh) - Bel",
            ),
            (
                "movement",
                "France: A(Par) - Pic\nGermany: A(Bel) S A(Par) - Pic\n\
                 Italy: A(Rom) - Tus",
            ),
            ("retreat", "England: F(Pic) - Bre"),
            (
                "adjustment",
                "Germany: Build A Mun\nItaly: Build F Nap\nFrance: Build A Par",
            ),
        ],
    );
}

/// 1700 AD II: the Swedish order sheet of rule 6 and others' moves, a year
/// judged by impulses, land and sea, with the builds.
#[test]
fn variant_1700ad_a_yearly_turn() {
    use zinejudge::game::step::PhaseOrders;
    let v = variant::builtin("1700ad").unwrap().unwrap();
    let pos = Position::initial(&v);
    let lines = [
        "Sweden: CXII(Got)-hold-Den (x2)",
        "Sweden: 2F(Sca)-COS-C CXII(Got)-Den",
        "Sweden: A(Sca)-Hold-Got",
        "Sweden: A(Liv) S A(Fin)-Kar (x2)",
        "Sweden: A(Fin)-Kar",
        "Russia: Mens(Mos)-Smo-WRu",
        "Russia: A(Ukr)-Pod",
        "Poland: A(Lit)-Kur (x2)",
        "France: Vill(Par)-Lor (x2)",
        "Austria: Euge(Vie)-Bav (x2)",
    ];
    let PhaseOrders::Movement(moves) = support_play::orders(&v, PhaseKind::Movement, &lines) else {
        panic!("moves")
    };
    let builds = support_play::orders(
        &v,
        PhaseKind::Adjustment,
        &["Sweden: Build A Dal", "Poland: Build A Maz"],
    );
    let PhaseOrders::Adjustment(adjust) = builds else {
        panic!("builds")
    };
    let o = PhaseOrders::Turn {
        moves,
        retreats: Vec::new(),
        adjust,
    };
    let (result, next) = play(&v, &pos, &o);
    let d = data(
        &PhaseReport {
            variant: &v,
            game: "y1700",
            before: &pos,
            orders: &o,
            result: &result,
            after: &next,
            next_deadline: Some("Sat 08 Jan 2028 12:00 UTC".into()),
            ended: None,
            nmr: vec![],
        },
        "zinejudge",
    );
    let t = Templates::builtin();
    let zine = t.results(Style::Zine, &d).unwrap();
    let judge = t.results(Style::Judge, &d).unwrap();
    for l in zine.lines().chain(judge.lines()) {
        assert!(l.chars().count() <= 72 && !l.contains('\t'), "{l:?}");
    }
    insta::assert_snapshot!("1700ad_turn_zine", zine);
    insta::assert_snapshot!("1700ad_turn_judge", judge);
}
