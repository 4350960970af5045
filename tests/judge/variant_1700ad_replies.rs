//! 1700 AD II (shared/rules/004_*) as the players read it: the reply to an
//! order sheet warns of the builds the judge will refuse and why, reads or
//! refuses every piece of a line, and the results name the leaders, print
//! stacks as the sheet writes them, show the fleets a revoked permission
//! sends away, and call civil disorder only what is. The offline
//! `adjudicate` plays a yearly turn from order sheets.

use crate::support_judge;
use std::process::Command;

/// A 1700 AD II game by mail with the given players joined and started.
fn game_by_mail(players: &[&str]) -> support_judge::World {
    let mut w = support_judge::World::with_variant("../../games/1700ad.toml");
    w.reply("gm@example.test", "CREATE y1700 1700ad gm-secret");
    for p in players {
        w.reply(
            &format!("{p}@example.test"),
            &format!("JOIN y1700 pw-secret {p}"),
        );
    }
    w.reply("gm@example.test", "SIGNON GM y1700 gm-secret\nSTART");
    w
}

/// `player`'s reply to an order sheet.
fn sheet(w: &mut support_judge::World, player: &str, text: &str) -> String {
    w.reply(
        &format!("{player}@example.test"),
        &format!("SIGNON {player} y1700 pw-secret\n{text}"),
    )
}

/// A GM command's reply.
fn gm(w: &mut support_judge::World, text: &str) -> String {
    w.reply(
        "gm@example.test",
        &format!("SIGNON GM y1700 gm-secret\n{text}"),
    )
}

/// The GM processes the turn; the results mailed to `player`.
fn results_for(w: &mut support_judge::World, player: &str) -> String {
    let sent = w.mail("gm@example.test", "SIGNON GM y1700 gm-secret\nPROCESS");
    sent.iter()
        .find(|m| m.to_has(&format!("{player}@example.test")) && m.subject.contains("results"))
        .unwrap_or_else(|| panic!("no results: {sent:#?}"))
        .body
        .clone()
}

/// The reply's text with its wrapping undone, to find a sentence in it.
fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn rule_7_a_leader_build_is_warned_and_refused_for_leaders_are_never_built() {
    let mut w = game_by_mail(&["Poles"]);
    let r = sheet(
        &mut w,
        "Poles",
        "Poles 1700 Moves: A(Lit) H;\nBuilds: L(Maz).",
    );
    let r = flat(&r);
    assert!(
        r.contains("Build L(Maz) warning: the judge will refuse it as the board stands: no leader is ever built"),
        "{r}"
    );
    let body = flat(&results_for(&mut w, "Poles"));
    assert!(
        body.contains("Build L(Maz) void: no leader is ever built"),
        "the rule, not that no build was due: {body}"
    );
}

#[test]
fn rule_3_a_build_where_the_same_sheet_moves_the_unit_away_is_not_warned() {
    // Rule 3: "each set of orders should include moves, possible retreats
    // and build/removals": a build hangs on the sheet's own moves, so a
    // centre its army leaves is not "already" occupied; one whose unit
    // stays still is.
    let mut w = game_by_mail(&["Poles"]);
    let r = flat(&sheet(
        &mut w,
        "Poles",
        "Poles 1700 Moves: A(Lit)-EPr;\nBuilds: A(Lit), A(Maz).",
    ));
    assert!(!r.contains("Build A(Lit) warning"), "{r}");
    assert!(
        r.contains("Build A(Maz) warning: the judge will refuse it as the board stands: a unit already stands there"),
        "{r}"
    );
}

#[test]
fn rule_10a_an_early_crimea_fleet_is_warned_not_before_the_second_turn_of_holding() {
    let mut w = game_by_mail(&["Russians"]);
    let r = flat(&sheet(
        &mut w,
        "Russians",
        "Russians 1700 Moves: A(Kaz) H;\nBuilds: F(Cri).",
    ));
    assert!(
        r.contains("Build F(Cri) warning: the judge will refuse it as the board stands: not before the second turn of holding that centre"),
        "{r}"
    );
    assert!(!r.contains("home centres"), "{r}");
    let body = flat(&results_for(&mut w, "Russians"));
    assert!(
        body.contains("Build F(Cri) void: not before the second turn of holding"),
        "{body}"
    );
}

#[test]
fn rule_8_a_third_fleet_on_a_coast_is_warned_for_the_stacking_limit() {
    let mut w = game_by_mail(&["Sweden"]);
    let r = flat(&sheet(
        &mut w,
        "Sweden",
        "Sweden 1700 Moves: A(Fin) H;\nBuilds: F(Sca).",
    ));
    assert!(
        r.contains("Build F(Sca) warning: the judge will refuse it as the board stands: at most two fleets may stand in a coastal province"),
        "{r}"
    );
    // A fleet where one of the stack stood a moment ago is no warning.
    let r = flat(&sheet(&mut w, "Sweden", "Builds: F(Got)."));
    assert!(r.contains("After the moves: Build F(Got)"), "{r}");
    assert!(!r.contains("Build F(Got) warning"), "{r}");
}

#[test]
fn rule_8_fleets_are_built_only_in_home_coastal_centres_and_the_reply_says_so() {
    let mut w = game_by_mail(&["Poles"]);
    let r = flat(&sheet(
        &mut w,
        "Poles",
        "Poles 1700 Moves: A(Lit) H;\nBuilds: F(BPr), F(Mor).",
    ));
    for b in ["F(BPr)", "F(Mor)"] {
        assert!(
            r.contains(&format!(
                "Build {b} warning: the judge will refuse it as the board stands: builds may only be made in home centres"
            )),
            "{b}: {r}"
        );
    }
}

#[test]
fn rule_8_a_fleet_supporting_an_army_is_refused_for_fleets_exert_no_influence_on_land_units() {
    let mut w = game_by_mail(&["Spain"]);
    let r = flat(&sheet(
        &mut w,
        "Spain",
        "Spain 1700 Moves: F(Nap) S A(Nap);",
    ));
    assert!(
        r.contains("\"F(Nap) S A(Nap)\" fleets and land units do not support each other"),
        "{r}"
    );
    assert!(!r.contains("not on the board"), "{r}");
}

#[test]
fn rule_6_a_build_with_an_unknown_unit_letter_is_refused_with_the_reason() {
    let mut w = game_by_mail(&["Russians"]);
    let r = flat(&sheet(
        &mut w,
        "Russians",
        "Russians 1700 Moves: A(Kaz) H;\nBuilds: Q(Mos).",
    ));
    assert!(r.contains("Not accepted: line 3: \"Q(Mos)\""), "{r}");
    assert!(r.contains("expected a unit's kind"), "{r}");
    // The full stop that ends the sheet is no fault: `A(Mos).` is read.
    let r = flat(&sheet(&mut w, "Russians", "Builds: A(Mos)."));
    assert!(r.contains("After the moves: Build A(Mos)"), "{r}");
    assert!(!r.contains("Not accepted"), "{r}");
}

#[test]
fn rule_4_impulses_after_a_comma_are_read_as_the_unit_s_next_impulse() {
    let mut w = game_by_mail(&["Poles"]);
    let r = sheet(&mut w, "Poles", "Poles 1700 Moves: A(Lit) H, S A(Vol);");
    assert!(r.contains("A(Lit)-hold-S A(Vol)"), "{r}");
    assert!(!r.contains("Not read"), "{r}");
    let body = results_for(&mut w, "Poles");
    assert!(body.contains("1: A(Lit) H"), "{body}");
    assert!(body.contains("2: A(Lit) S A(Vol)"), "{body}");
}

#[test]
fn rule_7_the_results_name_the_leaders_as_the_text_lists_them() {
    let mut w = game_by_mail(&["Sweden", "Austria"]);
    sheet(&mut w, "Sweden", "Sweden 1700 Moves: CXII(Got)-hold-Sca;");
    sheet(&mut w, "Austria", "Austria 1700 Moves: L(Vie)-Tyr;");
    let body = results_for(&mut w, "Sweden");
    assert!(body.contains("1: Charles XII of Sweden(Got) H"), "{body}");
    assert!(body.contains("2: Charles XII of Sweden(Got)-Sca"), "{body}");
    assert!(body.contains("1: Prince Eugene(Vie)-Tyr"), "{body}");
    assert!(!body.contains("L(Got)"), "{body}");
}

#[test]
fn rule_7_every_leader_of_the_text_has_his_name() {
    let v = support_play::file("games/1700ad.toml");
    let names: Vec<&str> = v
        .map
        .power_ids()
        .filter_map(|p| v.features.leader_name(p))
        .collect();
    // The text's list of leader units, in its order; the Turks have none.
    for n in [
        "Marlborough",
        "Prince Eugene",
        "Villars",
        "Augustus of Saxony",
        "Menshikov",
        "Berwick",
        "Charles XII of Sweden",
    ] {
        assert!(names.contains(&n), "{n}: {names:?}");
    }
    assert_eq!(names.len(), 7);
    let turks = v.map.lookup_power("Turks").expect("the Turks");
    assert_eq!(v.features.leader_name(turks), None);
}

use crate::support_play;
#[test]
fn rule_6_a_stack_s_order_is_printed_once_as_the_sheet_writes_it() {
    let mut w = game_by_mail(&["Sweden"]);
    let r = sheet(&mut w, "Sweden", "Sweden 1700 Moves: 2F(Sca)-COS;");
    assert!(!r.contains("read as"), "{r}");
    let body = results_for(&mut w, "Sweden");
    assert_eq!(body.matches("sea 1: 2F(Sca)-COS").count(), 1, "{body}");
    assert!(!body.contains("sea 1: F(Sca)"), "{body}");
}

#[test]
fn rule_8_a_fleet_sent_away_by_a_revoked_permission_is_shown_in_the_results() {
    let mut w = game_by_mail(&["Spain", "France"]);
    // The fleet of Brittany moved to Picardy by the GM (no removal due).
    let r = gm(&mut w, "EDIT REMOVE Bri\nEDIT ADD France F Pic");
    assert!(r.contains("added"), "{r}");
    sheet(&mut w, "France", "F(Pic)-SNe");
    sheet(&mut w, "Spain", "PERMIT France");
    let body = results_for(&mut w, "France");
    assert!(body.contains("sea 1: F(Pic)-SNe"), "{body}");
    w.advance(120);
    let r = sheet(&mut w, "Spain", "REVOKE France");
    assert!(r.contains("may no longer come"), "{r}");
    let body = flat(&results_for(&mut w, "France"));
    assert!(
        body.contains("France: F(SNe)-") && body.contains("(the coast is no longer friendly)"),
        "{body}"
    );
}

#[test]
fn rule_3_removals_the_judge_chooses_say_whether_the_power_ordered_none_or_too_few() {
    let mut w = game_by_mail(&["Sweden", "Russians"]);
    // Two armies more than each can keep.
    let r = gm(
        &mut w,
        "EDIT ADD Sweden A Kar\nEDIT ADD Sweden A Dal\nEDIT ADD Russians A Smo\nEDIT ADD Russians A Psk",
    );
    assert_eq!(r.matches("added").count(), 4, "{r}");
    // Sweden orders one removal of the two; Russia sends nothing.
    sheet(
        &mut w,
        "Sweden",
        "Sweden 1700 Moves: A(Fin) H;\nRemoves: A(Kar).",
    );
    // At the deadline (a GM's early PROCESS calls nobody in civil
    // disorder), then the grace for the missing Russian orders.
    let mut sent = w.advance(72 * 3600);
    sent.extend(w.advance(24 * 3600 + 60));
    let body = sent
        .iter()
        .find(|m| m.to_has("Sweden@example.test") && m.subject.contains("results"))
        .unwrap_or_else(|| panic!("no results: {sent:#?}"))
        .body
        .clone();
    let flat_body = flat(&body);
    assert!(flat_body.contains("Sweden: removes A(Kar)"), "{body}");
    assert!(
        flat_body.contains("(too few removals ordered: the judge's choice)"),
        "{body}"
    );
    let sweden: Vec<&str> = body
        .lines()
        .filter(|l| l.contains("Sweden: removes"))
        .collect();
    assert!(
        sweden.iter().all(|l| !l.contains("civil disorder")),
        "{sweden:?}"
    );
    // Russia missed the deadline under NMR HOLD (the default): not in
    // civil disorder, so its removals are the judge's choice too.
    assert!(
        flat_body.contains("(no removals ordered: the judge's choice)"),
        "{body}"
    );
    assert!(!flat_body.contains("civil disorder"), "{body}");
}

/// Run `zinejudge adjudicate` on a 1700 AD II position and order sheets.
fn adjudicate(position: &str, orders: &str) -> (String, String) {
    let dir = std::env::temp_dir().join(format!(
        "zinejudge-1700-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (p, o) = (dir.join("pos.toml"), dir.join("orders.txt"));
    std::fs::write(&p, position).expect("write");
    std::fs::write(&o, orders).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_zinejudge"))
        .args(["adjudicate", "--game", "1700ad", "--position"])
        .arg(&p)
        .arg("--orders")
        .arg(&o)
        .output()
        .expect("runs");
    let _ = std::fs::remove_dir_all(&dir);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn rule_6_adjudicate_plays_the_order_sheet_with_its_retreats_and_builds() {
    let (out, err) = adjudicate(
        "phase = \"Year 1700 movement\"\n\
         [units]\n\
         Sweden = [\"L Got\", \"A Fin\", \"A Liv\", \"A Sca\", \"F Sca\", \"F Sca\"]\n\
         Russia = [\"A Psk\", \"A Nov\"]\n\
         [centres]\n\
         Sweden = [\"Got\", \"Fin\", \"Liv\", \"Sca\", \"Dal\"]\n\
         Russia = [\"Nov\", \"Mos\"]\n",
        "# The text's own sheet (rule 6), and Russia's attack on Livonia.\n\
         Sweden 1700 Moves: CXII(Got)-hold-Den (x2);\n\
         2F(Sca)-COS-C CXII(Got)-Den;\n\
         A(Sca)-Hold-Got;\n\
         A(Liv) H;\n\
         A(Fin) H;\n\
         Retreats: A(Liv)-Kar;\n\
         Builds: A(Dal).\n\
         Russia 1700 Moves: A(Psk)-Liv (x2);\n\
         A(Nov) S A(Psk)-Liv (x2);\n",
    );
    assert!(err.is_empty(), "{err}");
    // Every order with what became of it, impulse by impulse.
    assert!(out.contains("1: A(Psk)-Liv (x2)"), "{out}");
    assert!(
        out.contains("2: Charles XII of Sweden(Got)-Den (x2)"),
        "{out}"
    );
    assert!(out.contains("sea 1: 2F(Sca)-COS"), "{out}");
    // The sheet's build and retreat are played: Denmark won, Livonia lost,
    // no build is due.
    assert!(
        out.contains("Sweden: Build A(Dal) void: no (more) builds are due"),
        "{out}"
    );
    // (Not the text's Kur: Courland's garrison still holds it here.)
    assert!(out.contains("Sweden: A(Liv)-Kar"), "{out}");
    assert!(out.contains("Next: Year 1701 movement"), "{out}");
}

#[test]
fn rule_10b_adjudicate_gives_a_position_without_state_its_armed_neutrals() {
    // Denmark's garrison (1) holds off a single attack; Brandenburg-
    // Prussia's (2) even a double one.
    let (out, _) = adjudicate(
        "phase = \"Year 1700 movement\"\n\
         [units]\n\
         Poland = [\"A WPr\"]\n\
         Sweden = [\"A Hst\"]\n\
         [centres]\n\
         Poland = [\"WPr\"]\n",
        "Poland: A(WPr)-BPr (x2)\nSweden: A(Hst)-Den\n",
    );
    // Words, not line breaks: the results wrap at 72 columns.
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    let bounced = |order: &str, garrison: &str| {
        flat.contains(&format!("{order} bounced with the garrison of {garrison}"))
    };
    assert!(bounced("1: A(Hst)-Den", "Denmark"), "{out}");
    assert!(
        bounced("1: A(WPr)-BPr (x2)", "Brandenburg-Prussia"),
        "{out}"
    );
    let next = out
        .split("# Next position")
        .nth(1)
        .expect("a next position");
    assert!(
        next.contains("\"BPr\"") && next.contains("\"Den\""),
        "{out}"
    );
}

#[test]
fn rule_4_a_comma_before_a_support_is_never_dropped_in_a_game_without_impulses() {
    use zinejudge::orders::mail::find_orders;
    use zinejudge::orders::parse::OrderParser;
    let v = zinejudge::variant::builtin("standard")
        .expect("loads")
        .expect("shipped");
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let found = find_orders(&parser, "A Lon H, S A Yor\nF Edi-NTH, A Lvp-Yor", None);
    // The first line is one order, refused with the reason; the second
    // still holds two.
    assert_eq!(found.len(), 3, "{found:?}");
    let e = found[0].result.as_ref().expect_err("refused");
    assert!(e.to_string().contains("several impulses"), "{e}");
    assert!(
        found[1].result.is_ok() && found[2].result.is_ok(),
        "{found:?}"
    );
}

#[test]
fn rule_6_the_shipped_example_sheets_adjudicate_cleanly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let out = Command::new(env!("CARGO_BIN_EXE_zinejudge"))
        .args(["adjudicate", "--game", "1700ad", "--position"])
        .arg(dir.join("year1700.toml"))
        .arg("--orders")
        .arg(dir.join("year1700-orders.txt"))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(!text.contains("void"), "{text}");
    assert!(text.contains("2: A(Ukr) S A(Ore)"), "{text}");
    assert!(text.contains("Sweden: builds A(Dal)"), "{text}");
}

/// Sheets headed with every power's full name, hyphenated and in the
/// plural (`Anglo-Dutch 1700 Moves:`, `Austro-Hungarians 1700 Moves:`),
/// and lines prefixed `Anglo-Dutch:`, are read as the power's orders.
#[test]
fn sheets_headed_anglo_dutch_and_austro_hungarians_are_read() {
    let mut w = game_by_mail(&["Anglo-Dutch", "Austria"]);
    let r = sheet(&mut w, "Anglo-Dutch", "Anglo-Dutch 1700 Moves: F(Lon)-NTH;");
    assert!(r.contains("F(Lon)-NTH"), "{r}");
    assert!(
        !r.contains("not read") && !r.contains("not accepted"),
        "{r}"
    );
    let r = sheet(
        &mut w,
        "Austria",
        "Austro-Hungarians 1700 Moves: A(Boh)-Sar;",
    );
    assert!(r.contains("A(Boh)-Sar"), "{r}");
    assert!(
        !r.contains("not read") && !r.contains("not accepted"),
        "{r}"
    );
    let r = sheet(&mut w, "Anglo-Dutch", "Anglo-Dutch: F(WCo)-IRS");
    assert!(r.contains("F(WCo)-IRS"), "{r}");
    assert!(r.contains("F(Lon)-NTH"), "the earlier order is kept: {r}");
    assert!(
        !r.contains("not read") && !r.contains("not accepted"),
        "{r}"
    );
}

/// The offline `adjudicate` reads `Anglo-Dutch: F(Lon)-NTH` lines of an
/// orders file, and both powers' orders are judged.
#[test]
fn an_offline_orders_file_with_anglo_dutch_lines_is_played() {
    let v = zinejudge::variant::builtin("1700ad")
        .expect("shipped")
        .expect("loads");
    let pos = zinejudge::game::Position::initial(&v);
    let dir = std::env::temp_dir().join(format!("zj-1700-ad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let p = dir.join("pos.toml");
    std::fs::write(&p, pos.to_toml(&v)).expect("written");
    let o = dir.join("orders.txt");
    std::fs::write(
        &o,
        "Anglo-Dutch: F(Lon)-NTH\nAustro-Hungarians: A(Boh)-Sar\n",
    )
    .expect("written");
    let out = Command::new(env!("CARGO_BIN_EXE_zinejudge"))
        .args(["adjudicate", "--game", "1700ad", "--position"])
        .arg(&p)
        .arg("--orders")
        .arg(&o)
        .output()
        .expect("runs");
    let t = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{t}");
    assert!(
        !t.contains("unknown power") && !t.contains("not read"),
        "{t}"
    );
    assert!(t.contains("sea 1: F(Lon)-NTH"), "{t}");
    assert!(t.contains("1: A(Boh)-Sar"), "{t}");
    let silent = t
        .lines()
        .find(|l| l.starts_with("No orders received from"))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(
        !silent.contains("Anglo-Dutch") && !silent.contains("Austria"),
        "{t}"
    );
}

/// Rules 2 and 6: a sheet is headed with the power's name and the year
/// (`Sweden 1700 Moves:`); the Anglo-Dutch and the Austro-Hungarians
/// write theirs in the second year as in the first.
#[test]
fn rule_6_sheets_headed_anglo_dutch_1701_and_austro_hungarians_1701_are_read() {
    let mut w = game_by_mail(&["Anglo-Dutch", "Austria"]);
    let _ = results_for(&mut w, "Austria");
    let r = sheet(
        &mut w,
        "Anglo-Dutch",
        "Anglo-Dutch 1701 Moves:\nF(Lon)-NTH;\nA(UPr)-hold-WCo;",
    );
    assert!(r.contains("F(Lon)-NTH"), "{r}");
    assert!(r.contains("A(UPr)-hold-WCo"), "{r}");
    assert!(
        !r.contains("not read") && !r.contains("not accepted"),
        "{r}"
    );
    let r = sheet(
        &mut w,
        "Austria",
        "Austro-Hungarians 1701 Moves:\nA(Boh)-Sar;\nEuge(Vie)-Boh;",
    );
    assert!(r.contains("A(Boh)-Sar"), "{r}");
    assert!(
        !r.contains("not read") && !r.contains("not accepted"),
        "{r}"
    );
}

/// The stored position's units in a province, as `power kind`.
fn units_in(w: &mut support_judge::World, name: &str) -> Vec<String> {
    let v = zinejudge::variant::builtin("1700ad")
        .expect("shipped")
        .expect("loads");
    let row = zinejudge::testing::store::games::load(w.processor.store.conn(), "y1700")
        .expect("store")
        .expect("game");
    let pos = zinejudge::game::Position::from_toml(&v, &row.position).expect("position");
    let Some(zinejudge::map::Named::Province(p)) = v.map.lookup(name) else {
        panic!("{name}: not a province");
    };
    pos.units
        .iter()
        .filter(|u| v.map.province_of(u.region) == p)
        .map(|u| format!("{} {:?}", v.map.power(u.power).name, u.kind))
        .collect()
}

/// Rule 8: "a player building/dispersing fleets does so at a rate of 2 per
/// supply centre": `Builds: 2F(Dal).` with one build due builds both.
#[test]
fn rule_8_fleets_are_built_two_to_a_centre() {
    let mut w = game_by_mail(&["Sweden"]);
    let r = gm(&mut w, "EDIT REMOVE Fin");
    assert!(r.contains("removed"), "{r}");
    let r = sheet(
        &mut w,
        "Sweden",
        "Sweden 1700 Moves: A(Liv) H;\nBuilds: 2F(Dal).",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let _ = results_for(&mut w, "Sweden");
    assert_eq!(
        units_in(&mut w, "Dal"),
        vec!["Sweden Fleet".to_string(), "Sweden Fleet".to_string()]
    );
}

/// Rule 8: fleets are dispersed two to a centre as they are built:
/// `Removes: 2F(Sca).` takes the two fleets of Scania, not the army that
/// stands beside them.
#[test]
fn rule_8_fleets_are_removed_two_to_a_centre() {
    let mut w = game_by_mail(&["Sweden"]);
    let r = gm(&mut w, "EDIT ADD Sweden A Dal");
    assert!(r.contains("added"), "{r}");
    let r = sheet(
        &mut w,
        "Sweden",
        "Sweden 1700 Moves: A(Liv) H;\nRemoves: 2F(Sca).",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let _ = results_for(&mut w, "Sweden");
    assert_eq!(units_in(&mut w, "Sca"), vec!["Sweden Army".to_string()]);
}

#[test]
fn rule_10c_adjudicate_prints_a_single_impulse_into_switzerland_as_written_with_its_reason() {
    // Offline there is no reply to refuse it: the results print the move
    // as written, void, with rule 10c's reason, never as a hold.
    let (out, err) = adjudicate(
        "phase = \"Year 1700 movement\"\n[units]\nFrance = [\"A Bur\"]\n\
         [centres]\nFrance = [\"Par\"]\n",
        "France 1700 Moves: A(Bur)-Swi;\n",
    );
    assert!(err.is_empty(), "{err}");
    let flat = flat(&out);
    assert!(
        flat.contains("1: A(Bur)-Swi void: an action across the Swiss border takes both impulses"),
        "{out}"
    );
    assert!(!flat.contains("A(Bur) H"), "{out}");
}
