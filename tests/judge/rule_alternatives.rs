//! Alternative home centres (`src/rules/alternatives.rs`, DPjudge's `@SC`
//! in a power's line, which its Zeus map gives the USA in California): "a
//! supply center where you may build if you forego building in a normal
//! owned and open home center. Otherwise stated, it increases the number
//! of build centers, but not the number of builds. Say you have 3 home
//! centers and 1 alternative home center, all open and owned by you, that
//! would allow you to build 3 units in any 3 of the 4 centers ...
//! `@CAL(NYO)` designates CAL as an alternative to NYO only" (DPjudge's
//! map file syntax page). The standard game with Warsaw an alternative
//! home centre of Russia's, and Zeus imported without its `IN W1939A`
//! lines (which stay refused).

use crate::support_judge;
use crate::support_play;
use std::path::Path;
use zinejudge::adjudicate::{AdjustStatus, Illegal};
use zinejudge::game::Position;
use zinejudge::game::step::{PhaseResult, due};
use zinejudge::variant::Variant;

fn standard_with(extra: &str) -> Variant {
    let standard = std::fs::read_to_string(format!(
        "{}/games/standard.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("standard.toml");
    Variant::from_toml(&format!("{standard}\n{extra}")).expect("loads")
}

fn adjust(v: &Variant, pos: &Position, lines: &[&str]) -> Vec<AdjustStatus> {
    let (result, _) = support_play::step(v, pos, lines);
    let PhaseResult::Adjustment(r) = result else {
        panic!("an adjustment result");
    };
    r.orders
}

/// Winter 1901: Russia owns its four homes and Rumania, Sweden, Norway,
/// with no unit left in its homes (its units stand in Finland and Ukraine,
/// Galicia taken too): seven centres, two units, five builds due.
fn winter(v: &Variant) -> Position {
    let mut pos = Position::initial(v);
    pos.phase = v.calendar.parse("Winter 1901 adjustment").expect("a phase");
    let russia = support_play::power(v, "Russia");
    for c in ["Rum", "Swe", "Nor"] {
        pos.owners[support_play::prov(v, c).index()] = Some(russia);
    }
    pos.units.retain(|u| u.power != russia);
    for p in ["Fin", "Ukr"] {
        let region = v.map.province(support_play::prov(v, p)).main_region();
        pos.units.push(zinejudge::map::Unit {
            power: russia,
            kind: zinejudge::map::UnitKind::Army,
            region,
        });
    }
    pos
}

fn built(got: &[AdjustStatus]) -> usize {
    got.iter()
        .filter(|s| matches!(s, AdjustStatus::Built(_)))
        .count()
}

#[test]
fn alternatives_three_homes_and_an_alternative_build_three_units_in_any_three() {
    let v = standard_with("[[alternatives]]\npower = \"Russia\"\nsite = \"War\"\n");
    let pos = winter(&v);
    // Any three of the four, the alternative among them.
    for three in [
        [
            "Russia: Build A War",
            "Russia: Build A Mos",
            "Russia: Build A Sev",
        ],
        [
            "Russia: Build A Mos",
            "Russia: Build A Sev",
            "Russia: Build F Stp/nc",
        ],
    ] {
        let got = adjust(&v, &pos, &three);
        assert_eq!(built(&got), 3, "{got:?}");
    }
    // Three builds are due, not five: "it increases the number of build
    // centers, but not the number of builds".
    let russia = support_play::power(&v, "Russia");
    assert_eq!(due(&v, &pos)[russia.index()], 3);
    assert_eq!(due(&standard_with(""), &pos)[russia.index()], 5);
    // Not the fourth: it is one more than due.
    let got = adjust(
        &v,
        &pos,
        &[
            "Russia: Build A War",
            "Russia: Build A Mos",
            "Russia: Build A Sev",
            "Russia: Build F Stp/nc",
        ],
    );
    assert_eq!(built(&got), 3, "{got:?}");
    assert_eq!(got[3], AdjustStatus::Illegal(Illegal::NoBuildsDue));
    // Without the rule all four are built.
    let plain = standard_with("");
    let got = adjust(
        &plain,
        &winter(&plain),
        &[
            "Russia: Build A War",
            "Russia: Build A Mos",
            "Russia: Build A Sev",
            "Russia: Build F Stp/nc",
        ],
    );
    assert_eq!(built(&got), 4, "{got:?}");
}

#[test]
fn alternatives_an_alternative_to_one_centre_only_is_not_built_with_it() {
    // `@WAR(MOS)`: Warsaw stands in for Moscow only.
    let v =
        standard_with("[[alternatives]]\npower = \"Russia\"\nsite = \"War\"\nfor = [\"Mos\"]\n");
    let pos = winter(&v);
    let got = adjust(&v, &pos, &["Russia: Build A War", "Russia: Build A Mos"]);
    assert!(matches!(got[0], AdjustStatus::Built(_)), "{got:?}");
    assert_eq!(got[1], AdjustStatus::Illegal(Illegal::AlternativeSites));
    // With Sevastopol and St Petersburg it is one of three.
    let got = adjust(
        &v,
        &pos,
        &[
            "Russia: Build A War",
            "Russia: Build A Sev",
            "Russia: Build F Stp/nc",
        ],
    );
    assert_eq!(built(&got), 3, "{got:?}");
    // Moscow occupied (not open): Warsaw stands in for nothing open, so
    // it is no place to build ("if you forego building in a normal owned
    // and open home center").
    let mut pos = winter(&v);
    let russia = support_play::power(&v, "Russia");
    let mos = v.map.province(support_play::prov(&v, "Mos")).main_region();
    pos.units.push(zinejudge::map::Unit {
        power: russia,
        kind: zinejudge::map::UnitKind::Army,
        region: mos,
    });
    let got = adjust(&v, &pos, &["Russia: Build A War"]);
    assert_eq!(got, vec![AdjustStatus::Illegal(Illegal::AlternativeSites)]);
}

#[test]
fn alternatives_a_site_that_is_no_home_centre_of_the_power_is_a_problem() {
    let standard = std::fs::read_to_string(format!(
        "{}/games/standard.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("standard.toml");
    let e = Variant::from_toml(&format!(
        "{standard}\n[[alternatives]]\npower = \"Russia\"\nsite = \"Rum\"\n"
    ))
    .expect_err("refused");
    let said = e
        .problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(said.contains("`Rum` is not a home centre"), "{said}");
}

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dpjudge");

/// Zeus without its `IN W1939A` lines (a change in its first phase,
/// still refused): `U+S+A ... @CAL HAW NYO WAS`.
fn zeus_without_in() -> zinejudge::testing::import::dpjudge::Imported {
    let map = std::fs::read_to_string(Path::new(DATA).join("zeus.map")).expect("fixture");
    let cut = map.split("\nIN W1939A").next().unwrap_or(&map).to_string();
    let mut fetch = |n: &str| {
        if n == "zeus.map" {
            Ok(cut.clone())
        } else {
            Err(format!("no file {n}"))
        }
    };
    zinejudge::testing::import::dpjudge::import("zeus.map", &mut fetch).expect("imports")
}

#[test]
fn alternatives_zeus_s_california_is_imported_as_the_usa_s_alternative() {
    let i = zeus_without_in();
    assert!(
        i.toml
            .contains("[[alternatives]]\npower = \"USA\"\nsite = \"Cal\"\n"),
        "{}",
        i.toml
    );
    assert!(
        i.toml
            .contains("home = [\"Cal\", \"Haw\", \"Nyo\", \"Was\"]"),
        "{}",
        i.toml
    );
    assert!(i.variant.features.plugins.has("alternatives"));
}

/// Zeus (without `IN W1939A`) by mail, opened and joined: it opens in
/// Winter 1939 with builds.
fn zeus_by_mail(file: &str) -> support_judge::World {
    let i = zeus_without_in();
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join(file);
    std::fs::write(&file, &i.toml).expect("write");
    let mut w = support_judge::World::with_variant_file(&file);
    w.reply(GM, "CREATE z zeus gm-secret");
    for p in [
        "Britain", "China", "France", "Germany", "Japan", "USA", "USSR",
    ] {
        w.reply(
            &format!("{p}@example.test"),
            &format!("JOIN z secret-{p} {p}"),
        );
    }
    w
}

const GM: &str = "gm@example.test";
const US: &str = "USA@example.test";

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// By mail, Zeus opens in Winter 1939 with builds: the USA owns four home
/// centres, one of them the alternative California, and no unit. It is
/// told of three builds due, not four ("it increases the number of build
/// centers, but not the number of builds"); a fourth build is one more
/// than due, with no free site left; the results show the three builds
/// and no build left unused.
#[test]
fn alternatives_by_mail_the_usa_is_told_of_three_builds_due_in_its_four_centres() {
    let mut w = zeus_by_mail("alternatives-zeus.toml");
    let sent = w.mail(
        US,
        "SIGNON USA z secret-USA\nBuild A Cal\nBuild A Haw\nBuild A Nyo\nBuild A Was",
    );
    let reply = sent
        .iter()
        .find(|m| m.to_has(US) && m.in_reply_to.is_some())
        .unwrap_or_else(|| panic!("no reply: {sent:#?}"));
    assert!(reply.body.contains("Winter 1939"), "{}", reply.body);
    let said = flat(&reply.body);
    assert!(said.contains("(3 builds due)"), "{}", reply.body);
    assert!(!said.contains("4 builds due"), "{}", reply.body);
    assert!(
        said.contains(
            "\"Build A Was\" no (more) builds are due; you have 3 builds due, and your \
             other builds use them all"
        ),
        "{}",
        reply.body
    );
    assert!(said.contains("Your orders are complete."), "{}", reply.body);
    let sent = w.mail(GM, "SIGNON GM z gm-secret\nPROCESS");
    let results = sent
        .iter()
        .find(|m| m.to_has(US) && m.subject.contains("Winter 1939"))
        .unwrap_or_else(|| panic!("no results: {sent:#?}"));
    let said = flat(&results.body);
    assert!(
        said.contains("USA: builds A(Cal) USA: builds A(Haw) USA: builds A(Nyo)"),
        "{}",
        results.body
    );
    assert!(!said.contains("USA: builds A(Was)"), "{}", results.body);
    assert!(!said.contains("USA: 1 build not used"), "{}", results.body);
}

/// The free sites the USA is told of, after a build refused, are those
/// still free beside its other builds: with California and Hawaii built,
/// New York and Washington; with New York and Washington built,
/// California (standing in for Hawaii) and Hawaii. The notice of the
/// phase in the reply counts three builds, and a build left out is
/// missing.
#[test]
fn alternatives_by_mail_the_free_sites_are_those_left_beside_the_other_builds() {
    let mut w = zeus_by_mail("alternatives-zeus-sites.toml");
    let r = w.reply(
        US,
        "SIGNON USA z secret-USA\nBuild A Cal\nBuild A Haw\nBuild A Lon",
    );
    let said = flat(&r);
    assert!(
        said.contains(
            "you have 3 builds due; free sites for an army: Nyo (New York) or Was (Washington)"
        ),
        "{r}"
    );
    assert!(said.contains("(3 builds due)"), "{r}");
    assert!(said.contains("1 build or waiver"), "{r}");
    let mut w = zeus_by_mail("alternatives-zeus-sites-2.toml");
    let r = w.reply(
        US,
        "SIGNON USA z secret-USA\nBuild A Nyo\nBuild A Was\nBuild A Lon",
    );
    let said = flat(&r);
    assert!(
        said.contains(
            "you have 3 builds due; free sites for an army: Cal (California) or Haw (Hawaii)"
        ),
        "{r}"
    );
}
