//! Partisan sites (`src/rules/partisans.rs`, DPjudge's `*SC` in a power's
//! line: "the location is not a supply center, but the power will be
//! eligible to build there if and only if the power owns at least one,
//! but not all of his original home supply centers"). DPjudge's 1900 map
//! gives Russia Siberia (`RUSSIA ... MOS SEV STP WAR *SIB`), and 1900's
//! Russian Emergency Measures rule reads: "Whenever Russia possesses at
//! least one, but not all four, of its original home supply centers, it
//! is entitled to maintain one extra unit on the map ... Additionally ...
//! may use Siberia as a build site during the adjustment phase, if
//! Siberia is unoccupied." The map is imported from
//! tests/data/dpjudge/1900.map.

use crate::support_judge;
use crate::support_play;
use std::path::Path;
use zinejudge::adjudicate::{AdjustStatus, Illegal};
use zinejudge::game::Position;
use zinejudge::game::step::{PhaseResult, due};
use zinejudge::testing::import::dpjudge::{Imported, import};
use zinejudge::variant::Variant;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dpjudge");

fn imported() -> Imported {
    let mut fetch =
        |n: &str| std::fs::read_to_string(Path::new(DATA).join(n)).map_err(|e| e.to_string());
    import("1900.map", &mut fetch).expect("1900 imports")
}

fn adjust(v: &Variant, pos: &Position, lines: &[&str]) -> Vec<AdjustStatus> {
    let (result, _) = support_play::step(v, pos, lines);
    let PhaseResult::Adjustment(r) = result else {
        panic!("an adjustment result");
    };
    r.orders
}

/// Winter 1900: Russia holds `homes` of its four home centres (Germany
/// the others) and Rumania; its army of Warsaw is gone, so it has three
/// units (Moscow, Sevastopol, St Petersburg).
fn winter(v: &Variant, homes: &[&str]) -> Position {
    let mut pos = Position::initial(v);
    pos.phase = v.calendar.parse("Winter 1900 adjustment").expect("a phase");
    let russia = support_play::power(v, "Russia");
    let germany = support_play::power(v, "Germany");
    for h in ["Mos", "Sev", "Stp", "War"] {
        let owner = if homes.contains(&h) { russia } else { germany };
        pos.owners[support_play::prov(v, h).index()] = Some(owner);
    }
    pos.owners[support_play::prov(v, "Rum").index()] = Some(russia);
    let war = support_play::prov(v, "War");
    pos.units
        .retain(|u| !(u.power == russia && v.map.province_of(u.region) == war));
    pos
}

fn due_of(v: &Variant, pos: &Position, power: &str) -> i32 {
    due(v, pos)[support_play::power(v, power).index()]
}

#[test]
fn partisans_1900_imports_with_siberia_russia_s_partisan_site() {
    let i = imported();
    assert!(
        i.toml
            .contains("[[partisans]]\npower = \"Russia\"\nsites = [\"Sib\"]\n"),
        "{}",
        i.toml
    );
    let v = &i.variant;
    assert!(v.features.plugins.has("partisans"));
    // Siberia is no supply centre, and no home of Russia's.
    let sib = v.map.province(support_play::prov(v, "Sib"));
    assert!(!sib.supply_centre);
    assert_eq!(sib.home_of, None);
}

#[test]
fn partisans_owning_some_but_not_all_homes_the_partisan_site_is_a_build_site() {
    let v = imported().variant;
    // Mos, Sev, Stp held, War lost: three homes and Rum, three units,
    // one extra: two builds.
    let pos = winter(&v, &["Mos", "Sev", "Stp"]);
    assert_eq!(due_of(&v, &pos, "Russia"), 2);
    let got = adjust(&v, &pos, &["Russia: Build A Sib"]);
    assert!(
        matches!(got[..], [AdjustStatus::Built(u)]
            if v.map.province_of(u.region) == support_play::prov(&v, "Sib")),
        "{got:?}"
    );
    // One home is enough (Moscow, Rumania, Sweden, Norway: four
    // centres and the extra one for three units).
    let mut pos = winter(&v, &["Mos"]);
    let russia = support_play::power(&v, "Russia");
    for c in ["Swe", "Nwy"] {
        pos.owners[support_play::prov(&v, c).index()] = Some(russia);
    }
    assert_eq!(due_of(&v, &pos, "Russia"), 2);
    let got = adjust(&v, &pos, &["Russia: Build A Sib"]);
    assert!(matches!(got[..], [AdjustStatus::Built(_)]), "{got:?}");
}

#[test]
fn partisans_owning_all_homes_the_partisan_site_is_refused_and_no_unit_is_extra() {
    let v = imported().variant;
    // All four homes and Rum, three units: two builds (no extra), and
    // Siberia is no build site.
    let pos = winter(&v, &["Mos", "Sev", "Stp", "War"]);
    assert_eq!(due_of(&v, &pos, "Russia"), 2);
    let got = adjust(&v, &pos, &["Russia: Build A Sib", "Russia: Build A War"]);
    assert_eq!(got[0], AdjustStatus::Illegal(Illegal::PartisanSiteIdle));
    assert!(matches!(got[1], AdjustStatus::Built(_)), "{got:?}");
    assert_eq!(
        Illegal::PartisanSiteIdle.to_string(),
        "that place is a build site only while you own at least one, but not all, of your home centres"
    );
}

#[test]
fn partisans_owning_no_home_the_partisan_site_is_refused_and_no_unit_is_extra() {
    let v = imported().variant;
    // No home, Rum only, three units: two removals, no extra unit kept.
    let pos = winter(&v, &[]);
    assert_eq!(due_of(&v, &pos, "Russia"), -2);
    // With builds due (Rum, Swe, Nwy, Den; one unit left), Siberia is
    // still no site.
    let mut pos = pos;
    let russia = support_play::power(&v, "Russia");
    for c in ["Swe", "Nwy", "Den"] {
        pos.owners[support_play::prov(&v, c).index()] = Some(russia);
    }
    let mos = support_play::prov(&v, "Mos");
    pos.units
        .retain(|u| u.power != russia || v.map.province_of(u.region) == mos);
    assert_eq!(due_of(&v, &pos, "Russia"), 3);
    let got = adjust(&v, &pos, &["Russia: Build A Sib"]);
    assert_eq!(got, vec![AdjustStatus::Illegal(Illegal::PartisanSiteIdle)]);
}

#[test]
fn partisans_the_extra_unit_is_kept_while_the_condition_holds_and_lost_after() {
    let v = imported().variant;
    // Three homes and Rum with five units (armies in Ukraine and
    // Livonia too): "one more than the number of supply centers it
    // currently controls", kept: nothing owed.
    let mut pos = winter(&v, &["Mos", "Sev", "Stp"]);
    let russia = support_play::power(&v, "Russia");
    for p in ["Ukr", "Lvn"] {
        let region = v.map.province(support_play::prov(&v, p)).main_region();
        pos.units.push(zinejudge::map::Unit {
            power: russia,
            kind: zinejudge::map::UnitKind::Army,
            region,
        });
    }
    assert_eq!(due_of(&v, &pos, "Russia"), 0);
    // Warsaw retaken and Rumania lost: four centres, all of them homes,
    // five units: "the ability to maintain an extra unit is lost and
    // any excess units must be disbanded".
    pos.owners[support_play::prov(&v, "War").index()] = Some(russia);
    pos.owners[support_play::prov(&v, "Rum").index()] = None;
    assert_eq!(due_of(&v, &pos, "Russia"), -1);
}

#[test]
fn partisans_an_occupied_partisan_site_and_another_power_s_build_there_are_refused() {
    let v = imported().variant;
    let mut pos = winter(&v, &["Mos", "Sev", "Stp"]);
    let russia = support_play::power(&v, "Russia");
    let sib = v.map.province(support_play::prov(&v, "Sib")).main_region();
    // Moscow's army walked to Siberia: "if Siberia is unoccupied".
    let mos = support_play::prov(&v, "Mos");
    for u in &mut pos.units {
        if u.power == russia && v.map.province_of(u.region) == mos {
            u.region = sib;
        }
    }
    let got = adjust(&v, &pos, &["Russia: Build A Sib"]);
    assert_eq!(got, vec![AdjustStatus::Illegal(Illegal::Occupied)]);
    // Germany (owning Warsaw, with a build due) may not build in
    // Russia's partisan site.
    let pos = winter(&v, &["Mos", "Sev", "Stp"]);
    let got = adjust(&v, &pos, &["Germany: Build A Sib"]);
    assert_eq!(got, vec![AdjustStatus::Illegal(Illegal::NotABuildSite)]);
}

/// Write the imported 1900 where the judge of a test reads variants.
fn world() -> support_judge::World {
    let i = imported();
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("partisans-1900.toml");
    std::fs::write(&file, &i.toml).expect("write");
    support_judge::World::with_variant_file(&file)
}

const POWERS: [&str; 7] = [
    "Austria", "Britain", "France", "Germany", "Italy", "Russia", "Turkey",
];

/// A 1900 game by mail: everybody joins; then `moves` are played, one
/// phase each (a power's lines, or none), the GM processing each.
fn play(w: &mut support_judge::World, game: &str, moves: &[&[(&str, &str)]]) {
    let gm = "gm@example.test";
    w.reply(gm, &format!("CREATE {game} 1900 gm-secret"));
    for p in POWERS {
        w.reply(
            &format!("{p}@example.test"),
            &format!("JOIN {game} pw-{p} {p}"),
        );
    }
    for phase in moves {
        for (p, lines) in *phase {
            w.reply(
                &format!("{p}@example.test"),
                &format!("SIGNON {p} {game} pw-{p}\n{lines}"),
            );
        }
        w.mail(gm, &format!("SIGNON GM {game} gm-secret\nPROCESS"));
    }
}

/// By mail: Germany takes Warsaw in 1900 while Russia takes Rumania;
/// Russia, holding three of its four homes and Rumania with four units,
/// is owed one build (the extra unit) and makes it in Siberia; the chart
/// then shows it with one unit more than its centres, and says why (its
/// partisan site), as LIST does.
#[test]
fn partisans_by_mail_russia_having_lost_warsaw_builds_in_siberia() {
    let mut w = world();
    play(
        &mut w,
        "rem",
        &[
            &[("Germany", "A Ber-Sil"), ("Russia", "A War-Ukr\nF Sev-Rum")],
            &[("Germany", "A Sil-War")],
        ],
    );
    let ru = "Russia@example.test";
    // An army in Ukraine is refused: the free sites Russia is told
    // include Siberia.
    let r = w.reply(ru, "SIGNON Russia rem pw-Russia\nBuild A Ukr");
    let flat = r.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("Sib (Siberia)"), "{r}");
    let sent = w.mail(ru, "SIGNON Russia rem pw-Russia\nBuild A Sib");
    let reply = sent
        .iter()
        .find(|m| m.to_has(ru) && m.in_reply_to.is_some())
        .unwrap_or_else(|| panic!("no reply: {sent:#?}"));
    assert!(reply.body.contains("Winter 1900"), "{}", reply.body);
    assert!(
        !reply.body.contains("a build site only while"),
        "{}",
        reply.body
    );
    let sent = w.mail("gm@example.test", "SIGNON GM rem gm-secret\nPROCESS");
    let results = sent
        .iter()
        .find(|m| m.to_has(ru) && m.subject.contains("Winter 1900"))
        .unwrap_or_else(|| panic!("no results: {sent:#?}"));
    assert!(
        results.body.contains("Russia: builds A(Sib)"),
        "{}",
        results.body
    );
    // The chart says why Russia keeps a unit more than its centres: the
    // partisan site counts one more for its builds.
    assert!(
        results
            .body
            .contains("Russia         4 and 1 partisan site, units 5"),
        "{}",
        results.body
    );
    // LIST says it as the chart does; Germany, with no partisan site,
    // shows its count alone.
    let list = w.reply(ru, "LIST rem");
    assert!(
        list.contains("centres  4 (+1 partisan site), units  5"),
        "{list}"
    );
    assert_eq!(list.matches("partisan site").count(), 1, "{list}");
}

/// By mail: Russia keeps all four homes and takes Rumania; its order to
/// build in Siberia is answered with the rule's reason.
#[test]
fn partisans_by_mail_russia_holding_every_home_is_told_siberia_is_no_site() {
    let mut w = world();
    play(&mut w, "tsar", &[&[("Russia", "F Sev-Rum")], &[]]);
    let ru = "Russia@example.test";
    let sent = w.mail(ru, "SIGNON Russia tsar pw-Russia\nBuild A Sib");
    let reply = sent
        .iter()
        .find(|m| m.to_has(ru) && m.in_reply_to.is_some())
        .unwrap_or_else(|| panic!("no reply: {sent:#?}"));
    assert!(reply.body.contains("Winter 1900"), "{}", reply.body);
    let flat = reply.body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "\"Build A Sib\" that place is a build site only while you own at least one, \
             but not all, of your home centres"
        ),
        "{}",
        reply.body
    );
}

/// `zinejudge import dpjudge 1900.map` writes a file `check-game`
/// accepts, with Russia's partisan site in it.
#[test]
fn partisans_1900_imported_by_the_cli_passes_check_game() {
    let out = support_play::import_with_cli(
        &Path::new(DATA).join("1900.map"),
        &Path::new(env!("CARGO_TARGET_TMPDIR")).join("partisans-cli-1900.toml"),
        &[],
    );
    let written = std::fs::read_to_string(&out).expect("written");
    assert!(written.contains("[[partisans]]"), "{written}");
    let said = support_play::check_game_with_cli(&out);
    assert!(said.contains("39 supply centres, 7 powers"), "{said}");
}
