//! Remote builds (`src/rules/remote_builds.rs`, DPjudge's `REMOTE_BUILDS`
//! rule word, which its Aberration and Classical maps play): a power
//! builds in any centre it owns, but only while it still owns at least
//! one of its home centres. The standard game with an empty
//! `[remote-builds]` table added.

use crate::support_play;
use zinejudge::adjudicate::{AdjustStatus, Illegal};
use zinejudge::game::Position;
use zinejudge::game::step::PhaseResult;
use zinejudge::variant::{PhaseKind, Variant};

/// The standard game, with `extra` added to its file.
fn standard_with(extra: &str) -> Variant {
    let standard = std::fs::read_to_string(format!(
        "{}/games/standard.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("standard.toml");
    Variant::from_toml(&format!("{standard}\n{extra}")).expect("loads")
}

/// Winter 1901 after France took Belgium and Spain (nobody's homes) and
/// left them empty: five centres, three units, two builds.
fn winter(v: &Variant) -> Position {
    let mut pos = Position::initial(v);
    pos.phase = v.calendar.parse("Winter 1901 adjustment").expect("a phase");
    let france = support_play::power(v, "France");
    for name in ["Bel", "Spa"] {
        pos.owners[support_play::prov(v, name).index()] = Some(france);
    }
    pos
}

/// The same, but Germany has taken all three French home centres: France
/// owns Belgium and Spain only, with one unit left.
fn cut_off(v: &Variant) -> Position {
    let mut pos = winter(v);
    let germany = support_play::power(v, "Germany");
    let france = support_play::power(v, "France");
    for name in ["Par", "Bre", "Mar"] {
        pos.owners[support_play::prov(v, name).index()] = Some(germany);
    }
    let mar = support_play::prov(v, "Mar");
    pos.units
        .retain(|u| u.power != france || v.map.province_of(u.region) == mar);
    pos
}

fn adjust(v: &Variant, pos: &Position, lines: &[&str]) -> Vec<AdjustStatus> {
    let (result, _) = support_play::step(v, pos, lines);
    let PhaseResult::Adjustment(r) = result else {
        panic!("an adjustment result");
    };
    r.orders
}

#[test]
fn remote_builds_a_centre_that_was_nobody_s_home_is_a_build_site() {
    let v = standard_with("[remote-builds]\n");
    let got = adjust(&v, &winter(&v), &["France: Build A Bel"]);
    assert!(
        matches!(got[..], [AdjustStatus::Built(u)]
            if v.map.province_of(u.region) == support_play::prov(&v, "Bel")),
        "{got:?}"
    );
    // Without the rule, the standard reason.
    let plain = standard_with("");
    let got = adjust(&plain, &winter(&plain), &["France: Build A Bel"]);
    assert_eq!(got, vec![AdjustStatus::Illegal(Illegal::NotABuildSite)]);
}

#[test]
fn remote_builds_a_centre_of_another_power_is_refused_as_not_yours() {
    let v = standard_with("[remote-builds]\n");
    let got = adjust(&v, &winter(&v), &["France: Build A Mun"]);
    assert_eq!(got, vec![AdjustStatus::Illegal(Illegal::NotOwned)]);
}

/// What France's player is told, and what the judge does: no build.
#[test]
fn remote_builds_a_power_holding_none_of_its_home_centres_builds_nothing() {
    use zinejudge::orders::parse::OrderParser;
    let v = standard_with("[remote-builds]\n");
    let pos = cut_off(&v);
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let order = |power: &str, text: &str| {
        let c = parser
            .parse(text, Some(PhaseKind::Adjustment))
            .expect("an order")
            .command;
        (support_play::power(&v, power), c)
    };
    let orders = [
        order("France", "Build A Bel"),
        order("Germany", "Build A Par"),
    ];
    let refused = zinejudge::game::check::refusals(&v, &pos, &orders);
    let why = refused[0].as_deref().expect("France's build refused");
    assert!(why.contains("none of its home centres"), "{why}");
    let (_, next) = support_play::step(&v, &pos, &["France: Build A Bel"]);
    let bel = support_play::prov(&v, "Bel");
    assert!(
        next.units
            .iter()
            .all(|u| v.map.province_of(u.region) != bel),
        "nothing built in Belgium: {:?}",
        next.units
    );
    // Once it holds a home centre again, it builds where it owns.
    let mut back = pos.clone();
    back.owners[support_play::prov(&v, "Mar").index()] = Some(support_play::power(&v, "France"));
    let got = adjust(&v, &back, &["France: Build A Bel"]);
    assert!(matches!(got[..], [AdjustStatus::Built(_)]), "{got:?}");
}

use crate::support_judge;
/// By mail, on DPjudge's standard board with Hundred's calendar and
/// Aberration's `RULE REMOTE_BUILDS` (`tests/data/dpjudge/decades.map`,
/// imported): Germany takes Holland, leaves it, and at the next decade's
/// adjustments builds there, a centre that was nobody's home; a build in
/// a centre it does not own is refused with the reason.
#[test]
fn remote_builds_by_mail_a_build_in_an_owned_centre_far_from_home_is_taken() {
    use std::path::Path;
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dpjudge");
    let mut fetch =
        |n: &str| std::fs::read_to_string(Path::new(data).join(n)).map_err(|e| e.to_string());
    let i = zinejudge::import::dpjudge::import("decades.map", &mut fetch).expect("imports");
    assert!(i.toml.contains("[remote-builds]"), "{}", i.toml);
    let mut w = support_judge::World::with_variant_text(&i.toml);
    let gm = "gm@example.test";
    let de = "germany@example.test";
    w.reply(gm, "CREATE rb decades gm-secret");
    for p in [
        "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
    ] {
        w.reply(&format!("{p}@example.test"), &format!("JOIN rb pw-{p} {p}"));
    }
    let process = |w: &mut support_judge::World| {
        w.mail(gm, "SIGNON GM rb gm-secret\nPROCESS");
    };
    // A.D. 1425: into Holland; 1430: held there at the decade's end.
    w.reply(de, "SIGNON Germany rb pw-Germany\nF Kie-Hol");
    process(&mut w);
    process(&mut w);
    // A.D. 1430 adjustments: no build (the GM moves on); 1435: out again.
    process(&mut w);
    w.reply(de, "SIGNON Germany rb pw-Germany\nF Hol-NTH");
    process(&mut w);
    process(&mut w);
    // A.D. 1440 adjustments: Holland, still German and empty, takes a build.
    // Germany's orders are then complete: the phase is played at once.
    let sent = w.mail(de, "SIGNON Germany rb pw-Germany\nBuild A Hol\nBuild A Bel");
    let reply = sent
        .iter()
        .find(|m| m.to_has(de) && m.in_reply_to.is_some())
        .unwrap_or_else(|| panic!("no reply: {sent:#?}"));
    assert!(
        reply.body.contains("that centre is not yours"),
        "{}",
        reply.body
    );
    assert!(
        !reply
            .body
            .contains("builds may only be made in home centres"),
        "{}",
        reply.body
    );
    let results = sent
        .iter()
        .find(|m| m.to_has(de) && m.subject.contains("A.D. 1440"))
        .unwrap_or_else(|| panic!("no results: {sent:#?}"));
    assert!(results.body.contains("A(Hol)"), "{}", results.body);
    assert!(
        results.body.contains("Germany        4, units 4"),
        "{}",
        results.body
    );
    assert!(
        results.body.contains("Next: A.D. 1445 movement"),
        "{}",
        results.body
    );
}
