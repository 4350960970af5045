//! Home centres given anew during the game (`src/rules/new_homes.rs`,
//! DPjudge's `NEWHOMES year...`, which its 1897 map plays): until the
//! adjustments of a year listed every power builds in any centre it owns;
//! at them each power's homes become the centres it owns then, and from
//! then on it builds only there. The standard game with `[new-homes]`.

use crate::support_play;
use zinejudge::adjudicate::{AdjustStatus, Illegal};
use zinejudge::game::Position;
use zinejudge::game::step::PhaseResult;
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

/// Fall 1901, the French army of Paris standing in Belgium.
fn fall_in_belgium(v: &Variant) -> Position {
    let mut pos = Position::initial(v);
    pos.phase = v.calendar.parse("Fall 1901 movement").expect("a phase");
    let par = support_play::prov(v, "Par");
    let bel = v.map.province(support_play::prov(v, "Bel")).main_region();
    for u in &mut pos.units {
        if v.map.province_of(u.region) == par {
            u.region = bel;
        }
    }
    pos
}

#[test]
fn newhomes_before_the_year_any_owned_centre_is_a_build_site() {
    let v = standard_with("[new-homes]\nyears = [1905]\n");
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("Winter 1901 adjustment").expect("a phase");
    let france = support_play::power(&v, "France");
    pos.owners[support_play::prov(&v, "Bel").index()] = Some(france);
    let got = adjust(&v, &pos, &["France: Build A Bel"]);
    assert!(matches!(got[..], [AdjustStatus::Built(_)]), "{got:?}");
}

#[test]
fn newhomes_at_the_year_s_adjustments_the_homes_become_the_centres_owned() {
    let v = standard_with("[new-homes]\nyears = [1901]\n");
    let pos = fall_in_belgium(&v);
    let (_, winter) = support_play::step(&v, &pos, &[]);
    assert_eq!(v.calendar.label(winter.phase), "Winter 1901 adjustment");
    let france = support_play::power(&v, "France");
    let mut homes: Vec<String> = winter
        .state
        .homes
        .get(france)
        .expect("homes given")
        .iter()
        .map(|p| v.map.province(*p).abbr.clone())
        .collect();
    homes.sort();
    assert_eq!(homes, ["Bel", "Bre", "Mar", "Par"]);
    // Spain, owned after the homes were given, is not one of them: its
    // build is refused with the standard reason; Paris, a home, builds.
    let mut later = winter.clone();
    later.owners[support_play::prov(&v, "Spa").index()] = Some(france);
    let got = adjust(&v, &later, &["France: Build A Spa", "France: Build A Par"]);
    assert_eq!(
        got[0],
        AdjustStatus::Illegal(Illegal::NotABuildSite),
        "{got:?}"
    );
    assert!(matches!(got[1], AdjustStatus::Built(_)), "{got:?}");
}

#[test]
fn newhomes_a_year_not_listed_gives_no_homes() {
    let v = standard_with("[new-homes]\nyears = [1902]\n");
    let (_, winter) = support_play::step(&v, &fall_in_belgium(&v), &[]);
    assert!(
        winter.state.homes.values().all(|h| h.is_empty()),
        "{:?}",
        winter.state.homes
    );
}

use crate::support_judge;
/// By mail, on DPjudge's standard board with `NEWHOMES 1901`
/// (`tests/data/dpjudge/newhomes.map`, imported): Germany takes Holland
/// in 1901, so Holland is one of its homes from the Winter 1901
/// adjustments on; it leaves, and in Winter 1902 builds there, which the
/// standard game refuses.
#[test]
fn newhomes_by_mail_a_centre_owned_at_the_year_s_adjustments_is_a_home_to_build_in() {
    use std::path::Path;
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dpjudge");
    let mut fetch =
        |n: &str| std::fs::read_to_string(Path::new(data).join(n)).map_err(|e| e.to_string());
    let i = zinejudge::import::dpjudge::import("newhomes.map", &mut fetch).expect("imports");
    assert!(i.toml.contains("[new-homes]\nyears = [1901]"), "{}", i.toml);
    let mut w = support_judge::World::with_variant_text(&i.toml);
    let gm = "gm@example.test";
    let de = "germany@example.test";
    w.reply(gm, "CREATE nh newhomes gm-secret");
    for p in [
        "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
    ] {
        w.reply(&format!("{p}@example.test"), &format!("JOIN nh pw-{p} {p}"));
    }
    let process = |w: &mut support_judge::World| {
        w.mail(gm, "SIGNON GM nh gm-secret\nPROCESS");
    };
    // 1901: into Holland, held there through the fall.
    w.reply(de, "SIGNON Germany nh pw-Germany\nF Kie-Hol");
    process(&mut w);
    process(&mut w);
    // Winter 1901: homes given; no build (the GM moves on). 1902: out.
    process(&mut w);
    w.reply(de, "SIGNON Germany nh pw-Germany\nF Hol-NTH");
    process(&mut w);
    process(&mut w);
    // Winter 1902: Holland, a home now, takes Germany's build.
    let sent = w.mail(de, "SIGNON Germany nh pw-Germany\nBuild A Hol");
    let reply = sent
        .iter()
        .find(|m| m.to_has(de) && m.in_reply_to.is_some())
        .unwrap_or_else(|| panic!("no reply: {sent:#?}"));
    assert!(reply.body.contains("Winter 1902"), "{}", reply.body);
    assert!(
        !reply
            .body
            .contains("builds may only be made in home centres"),
        "{}",
        reply.body
    );
    let results = sent
        .iter()
        .find(|m| m.to_has(de) && m.subject.contains("Winter 1902"))
        .unwrap_or_else(|| panic!("no results: {sent:#?}"));
    assert!(results.body.contains("A(Hol)"), "{}", results.body);
    assert!(
        results.body.contains("Germany        4, units 4"),
        "{}",
        results.body
    );
}
