//! A second rule feature made as a plug-in alone (issue #36): building in
//! any power's home centre (`src/rules/home_builds.rs`, DPjudge's
//! `HOME_BUILDS`). The feature is that file and this test: the standard
//! game with an empty `[home-builds]` table added.

use crate::support_play;
use zinejudge::adjudicate::{AdjustStatus, Illegal};
use zinejudge::game::Position;
use zinejudge::game::step::PhaseResult;
use zinejudge::variant::Variant;

/// The standard game, with `extra` added to its file.
fn standard_with(extra: &str) -> Variant {
    let standard = std::fs::read_to_string(format!(
        "{}/games/standard.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("standard.toml");
    Variant::from_toml(&format!("{standard}\n{extra}")).expect("loads")
}

/// Winter 1901 after a fall in which France took Munich (a German home
/// centre) and Belgium (nobody's home) and left both empty: France has
/// five centres and three units, so two builds.
fn winter(v: &Variant) -> Position {
    let mut pos = Position::initial(v);
    pos.phase = v.calendar.parse("Winter 1901 adjustment").expect("a phase");
    let mun = support_play::prov(v, "Mun");
    pos.units.retain(|u| v.map.province_of(u.region) != mun);
    let france = support_play::power(v, "France");
    for name in ["Mun", "Bel"] {
        pos.owners[support_play::prov(v, name).index()] = Some(france);
    }
    pos
}

/// What became of France's orders.
fn french_builds(v: &Variant, lines: &[&str]) -> Vec<AdjustStatus> {
    let pos = winter(v);
    let (result, _) = support_play::step(v, &pos, lines);
    let PhaseResult::Adjustment(r) = result else {
        panic!("an adjustment result");
    };
    r.orders
}

#[test]
fn another_power_s_home_centre_one_owns_is_a_build_site() {
    let v = standard_with("[home-builds]\n");
    let got = french_builds(&v, &["France: Build A Mun"]);
    assert!(
        matches!(got[..], [AdjustStatus::Built(u)]
            if v.map.province_of(u.region) == support_play::prov(&v, "Mun")),
        "{got:?}"
    );
}

#[test]
fn a_centre_that_was_nobody_s_home_is_still_refused_with_the_standard_reason() {
    let v = standard_with("[home-builds]\n");
    let got = french_builds(&v, &["France: Build A Bel"]);
    assert_eq!(got, vec![AdjustStatus::Illegal(Illegal::NotABuildSite)]);
    assert_eq!(
        Illegal::NotABuildSite.to_string(),
        "builds may only be made in home centres"
    );
}

#[test]
fn another_power_s_home_centre_one_does_not_own_is_refused_as_not_yours() {
    let v = standard_with("[home-builds]\n");
    let got = french_builds(&v, &["France: Build A Ber"]);
    assert_eq!(got, vec![AdjustStatus::Illegal(Illegal::NotOwned)]);
}

#[test]
fn without_the_table_the_same_build_is_refused() {
    let v = standard_with("");
    let got = french_builds(&v, &["France: Build A Mun"]);
    assert_eq!(got, vec![AdjustStatus::Illegal(Illegal::NotABuildSite)]);
}

#[test]
fn a_key_in_the_table_is_refused_at_its_line() {
    let standard = std::fs::read_to_string(format!(
        "{}/games/standard.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("standard.toml");
    let e = Variant::from_toml(&format!("{standard}\n[home-builds]\nkinds = [\"army\"]\n"))
        .expect_err("an unknown key");
    let line = standard.lines().count() + 3;
    assert!(
        e.problems
            .iter()
            .any(|p| p.line == line && p.message.contains("kinds")),
        "{:?}",
        e.problems
    );
}
