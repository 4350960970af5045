//! 1066's rules played: the invaders off the board (rules 4, 5, 7), who
//! builds A/Fs (rule 3), replacement home centres (rule 6), Harald's hidden
//! fleets in the results (rule 5), each through the real judge where a
//! player would see it.

use crate::support_play;
use support_play::{orders, power, prov};

use crate::support_judge;
use support_judge::World;

use zinejudge::adjudicate::{AdjustStatus, Illegal, Outcome};
use zinejudge::game::Position;
use zinejudge::game::homes::{NominateError, nominate};
use zinejudge::game::step::{PhaseResult, play};
use zinejudge::map::{Unit, UnitKind};
use zinejudge::variant::features::Viewer;
use zinejudge::variant::{PhaseKind, Variant, builtin};

fn variant() -> Variant {
    builtin("1066").expect("1066 ships").expect("and loads")
}

fn count_in(v: &Variant, pos: &Position, name: &str) -> usize {
    let p = prov(v, name);
    pos.units
        .iter()
        .filter(|u| v.map.province_of(u.region) == p)
        .count()
}

#[test]
fn rule_4_william_lands_from_the_straits_on_the_first_move() {
    let v = variant();
    let pos = Position::initial(&v);
    let o = orders(
        &v,
        PhaseKind::Movement,
        &[
            "Duke William: A(SOD)-Has",
            "Duke William: A(SOD)-Can",
            "Duke William: A(SOD)-Chn",
        ],
    );
    let (PhaseResult::Movement(r), next) = play(&v, &pos, &o) else {
        panic!("movement")
    };
    assert!(r.orders.iter().all(Option::is_none), "{:?}", r.orders);
    for p in ["Has", "Can", "Chn"] {
        assert_eq!(count_in(&v, &next, p), 1, "{p}");
    }
    assert_eq!(count_in(&v, &next, "WIL"), 1, "one army still waits");
}

#[test]
fn rule_4_from_the_third_move_an_enemy_fleet_destroys_the_armies_still_waiting() {
    let v = variant();
    let mut pos = Position::initial(&v);
    // A Scottish fleet in the Channel (placed by hand for the test).
    pos.units.push(Unit {
        power: power(&v, "Scots"),
        kind: UnitKind::Fleet,
        region: v.map.province(prov(&v, "CHA")).main_region(),
    });
    let destroy = ["The Scots: F(CHA) destroys A(SOD)"];
    // March 1066, the first move: not yet.
    let (PhaseResult::Movement(r), _) = play(&v, &pos, &orders(&v, PhaseKind::Movement, &destroy))
    else {
        panic!("movement")
    };
    assert_eq!(r.orders, vec![Some(Illegal::NotNow)]);
    // May 1066, the third move: the four armies are destroyed.
    pos.phase = v.calendar.parse("May 1066 movement").expect("phase");
    let (PhaseResult::Movement(r), next) =
        play(&v, &pos, &orders(&v, PhaseKind::Movement, &destroy))
    else {
        panic!("movement")
    };
    assert_eq!(r.orders, vec![None]);
    assert_eq!(r.units.iter().filter(|u| u.destroyed()).count(), 4);
    assert_eq!(count_in(&v, &next, "WIL"), 0);
    assert!(next.units.iter().all(|u| u.power != power(&v, "William")));
}

#[test]
fn rule_3_only_harald_and_the_norse_build_army_fleets_and_rule_4_william_builds_off_board() {
    let v = variant();
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("April 1066 adjustment").expect("phase");
    // Scots lose their fleet; William has taken Hastings and lost three armies.
    let fif = prov(&v, "Fif");
    let wil = prov(&v, "WIL");
    pos.units.retain(|u| v.map.province_of(u.region) != fif);
    let mut dropped = 0;
    pos.units.retain(|u| {
        let w = v.map.province_of(u.region) == wil && dropped < 3;
        dropped += usize::from(w);
        !w
    });
    for c in ["Has", "Can"] {
        pos.owners[prov(&v, c).index()] = Some(power(&v, "William"));
        pos.state.captures[power(&v, "William")].push(prov(&v, c));
    }
    let o = orders(
        &v,
        PhaseKind::Adjustment,
        &["The Scots: Build A/F Fif", "Duke William: Build F Has"],
    );
    let (PhaseResult::Adjustment(r), _) = play(&v, &pos, &o) else {
        panic!("adjustment")
    };
    assert_eq!(
        r.orders[0],
        AdjustStatus::Illegal(Illegal::KindNotHere(UnitKind::ArmyFleet))
    );
    assert_eq!(
        r.orders[1],
        AdjustStatus::Illegal(Illegal::KindNotHere(UnitKind::Fleet)),
        "armies only in his first captures"
    );
    let o = orders(&v, PhaseKind::Adjustment, &["Duke William: Build F WIL"]);
    let (PhaseResult::Adjustment(r), _) = play(&v, &pos, &o) else {
        panic!("adjustment")
    };
    assert!(matches!(r.orders[0], AdjustStatus::Built(u) if u.kind == UnitKind::Fleet));
}

#[test]
fn rule_6_a_power_that_lost_a_home_centre_may_nominate_a_neutral_one_it_holds() {
    let v = variant();
    let mut pos = Position::initial(&v);
    let welsh = power(&v, "Welsh");
    let her = prov(&v, "Her");
    let dyf = prov(&v, "Dyf");
    pos.owners[her.index()] = Some(welsh);
    pos.owners[dyf.index()] = Some(welsh);
    assert_eq!(
        nominate(&v, &mut pos, welsh, her),
        Err(NominateError::NothingLost("Hereford".into())),
        "all four homes still held"
    );
    pos.owners[prov(&v, "Gwy").index()] = Some(power(&v, "Norse"));
    assert_eq!(
        nominate(&v, &mut pos, welsh, prov(&v, "Mor"))
            .map_err(|e| matches!(e, NominateError::NotNeutral(_))),
        Err(true)
    );
    assert_eq!(nominate(&v, &mut pos, welsh, her), Ok(()));
    assert_eq!(
        nominate(&v, &mut pos, welsh, dyf),
        Err(NominateError::NothingLost("Dyfed".into())),
        "one lost, one nominated"
    );
    assert_eq!(
        nominate(&v, &mut pos, power(&v, "William"), her),
        Err(NominateError::NotInThisGame)
    );
    // Hereford is now a build site for the Welsh.
    pos.phase = v.calendar.parse("April 1066 adjustment").expect("phase");
    let mor = prov(&v, "Mor");
    pos.units.retain(|u| v.map.province_of(u.region) != mor);
    let o = orders(&v, PhaseKind::Adjustment, &["The Welsh: Build A Her"]);
    let (PhaseResult::Adjustment(r), _) = play(&v, &pos, &o) else {
        panic!("adjustment")
    };
    assert!(
        matches!(r.orders[0], AdjustStatus::Built(_)),
        "{:?}",
        r.orders
    );
}

#[test]
fn rule_6_nominate_by_mail() {
    let mut w = World::new();
    w.reply("gm@example.test", "CREATE hastings 1066 gm-secret");
    let r = w.reply("welsh@example.test", "JOIN hastings pw-secret Welsh");
    assert!(r.to_lowercase().contains("welsh"), "{r}");
    let r = w.reply(
        "welsh@example.test",
        "SIGNON Welsh hastings pw-secret\nNOMINATE Hereford",
    );
    assert!(r.contains("you do not hold Hereford"), "{r}");
}

#[test]
fn rule_5_haralds_units_are_hidden_from_the_others_in_the_results() {
    let mut w = World::new();
    w.reply("gm@example.test", "CREATE hastings 1066 gm-secret");
    let names = [
        ("william", "Duke William"),
        ("harald", "Harald Hardrada"),
        ("harold", "Harold Godwinson"),
        ("norse", "The Norse"),
        ("earls", "The Northern Earls"),
        ("scots", "The Scots"),
        ("welsh", "The Welsh"),
    ];
    for (who, pw) in names {
        w.reply(
            &format!("{who}@example.test"),
            &format!("JOIN hastings pw-secret {pw}"),
        );
    }
    w.reply("gm@example.test", "SIGNON GM hastings gm-secret\nSTART");
    let r = w.reply(
        "harald@example.test",
        "SIGNON Harald hastings pw-secret\nA/F(WAS)-GER\nA/F(GER) H",
    );
    assert!(!r.contains("void"), "{r}");
    w.reply(
        "william@example.test",
        "SIGNON William hastings pw-secret\nA(SOD)-Has",
    );
    let sent = w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS");
    let results = |a: &str| {
        sent.iter()
            .find(|m| m.to_has(a) && m.subject.contains("March 1066"))
            .unwrap_or_else(|| panic!("no results for {a}: {sent:#?}"))
            .body
            .clone()
    };
    let harald = results("harald@example.test");
    let gm = results("gm@example.test");
    let harold = results("harold@example.test");
    assert!(harald.contains("A/F(WAS)-GER"), "{harald}");
    assert!(gm.contains("A/F(WAS)-GER"), "{gm}");
    assert!(
        !harold.contains("HAR)") && !harold.contains("GER"),
        "{harold}"
    );
    assert!(
        harold.contains("A(SOD)-Has") || harold.contains("A(WIL)-Has"),
        "{harold}"
    );
    // Every other power's copy, and its picture, leaves them out.
    for other in ["william", "norse", "earls", "scots", "welsh"] {
        let body = results(&format!("{other}@example.test"));
        assert!(
            !body.contains("HAR)") && !body.contains("GER") && !body.contains("(WAS"),
            "{other}: {body}"
        );
    }
    let svg_size = |a: &str| {
        sent.iter()
            .find(|m| m.to_has(a) && m.subject.contains("March 1066"))
            .and_then(|m| m.attachments.iter().find(|(n, _)| n.ends_with(".svg")))
            .map(|(_, n)| *n)
            .expect("a picture")
    };
    assert!(svg_size("welsh@example.test") < svg_size("gm@example.test"));
    assert_eq!(
        svg_size("welsh@example.test"),
        svg_size("scots@example.test")
    );
}

#[test]
fn rule_5_haralds_af_moves_from_the_sea_it_is_secretly_in() {
    let v = variant();
    let pos = Position::initial(&v);
    let o = orders(
        &v,
        PhaseKind::Movement,
        &[
            "Harald Hardrada: A/F(GER)-Nth",
            "Harald Hardrada: A/F(WAS)-Yor",
        ],
    );
    let (PhaseResult::Movement(r), next) = play(&v, &pos, &o) else {
        panic!("movement")
    };
    assert_eq!(r.orders, vec![None, None]);
    assert_eq!(count_in(&v, &next, "Nth"), 1);
    assert_eq!(count_in(&v, &next, "Yor"), 1);
    assert_eq!(count_in(&v, &next, "HAR"), 2);
}

#[test]
fn rule_5_at_the_end_of_the_second_move_one_af_per_sea_the_rest_eliminated() {
    let v = variant();
    let pos = Position::initial(&v);
    let (_, april) = play(&v, &pos, &orders(&v, PhaseKind::Movement, &[]));
    assert_eq!(v.calendar.label(april.phase), "April 1066 movement");
    let o = orders(&v, PhaseKind::Movement, &["Harald Hardrada: A/F(GER)-Nth"]);
    let (_, next) = play(&v, &april, &o);
    // Three waited: one to GER, one to WAS, one eliminated.
    assert_eq!(count_in(&v, &next, "HAR"), 0);
    assert_eq!(count_in(&v, &next, "GER"), 1);
    assert_eq!(count_in(&v, &next, "WAS"), 1);
    let harald = power(&v, "Harald Hardrada");
    assert_eq!(next.units.iter().filter(|u| u.power == harald).count(), 3);
    assert_eq!(next.state.blocked.len(), 1);
}

/// A unit of `who` placed by hand in `at`.
fn place(v: &Variant, pos: &mut Position, who: &str, kind: UnitKind, at: &str) {
    pos.units.push(Unit {
        power: power(v, who),
        kind,
        region: v.map.province(prov(v, at)).main_region(),
    });
}

/// The power of the one unit standing in `name`, if any.
fn owner_in(v: &Variant, pos: &Position, name: &str) -> Option<String> {
    let p = prov(v, name);
    pos.units
        .iter()
        .find(|u| v.map.province_of(u.region) == p)
        .map(|u| v.map.power(u.power).name.clone())
}

#[test]
fn rule_7_on_board_units_support_a_box_army_onto_the_board() {
    let v = variant();
    let mut pos = Position::initial(&v);
    // A Scottish army in Bedeford and a Norman one already landed in
    // Chenth (placed by hand).
    place(&v, &mut pos, "Scots", UnitKind::Army, "Bed");
    place(&v, &mut pos, "William", UnitKind::Army, "Chn");
    // Unsupported, the landing bounces off Harold's army in London.
    let (r, next) = support_play::movement(&v, &pos, &["Duke William: A(SOD)-Lun"]);
    assert_eq!(r.orders, vec![None]);
    assert_eq!(
        owner_in(&v, &next, "Lun").as_deref(),
        Some("Harold Godwinson")
    );
    // Supported from the board, in every notation, by another power or by
    // William's own landed army, it dislodges it.
    for support in [
        "The Scots: A(Bed) S A(SOD)-Lun",
        "The Scots: A(Bed) S A(WIL)-Lun",
        "The Scots: A Bed S A SOD - Lun",
        "The Scots: Army Bedeford supports Army Straits of Dover -> Lundonia",
        "The Scots: A(Bed) S SOD-Lun",
        "Duke William: A(Chn) S A(SOD)-Lun",
    ] {
        let (r, next) = support_play::movement(&v, &pos, &[support, "Duke William: A(SOD)-Lun"]);
        assert_eq!(r.orders, vec![None, None], "{support}");
        assert_eq!(
            owner_in(&v, &next, "Lun").as_deref(),
            Some("Duke William"),
            "{support}"
        );
        assert_eq!(next.dislodged.len(), 1, "{support}");
    }
    // The support binds to the waiting army that moves there: another
    // one moving elsewhere first does not take it.
    let (_, next) = support_play::movement(
        &v,
        &pos,
        &[
            "Duke William: A(SOD)-Has",
            "The Scots: A(Bed) S A(SOD)-Lun",
            "Duke William: A(SOD)-Lun",
        ],
    );
    assert_eq!(owner_in(&v, &next, "Lun").as_deref(), Some("Duke William"));
    // Units off the board still support nothing.
    let (r, _) = support_play::movement(
        &v,
        &pos,
        &[
            "Duke William: A(SOD) S A(SOD)-Lun",
            "Duke William: A(SOD)-Lun",
        ],
    );
    assert_eq!(r.orders[0], Some(Illegal::OffBoard));
}

#[test]
fn rule_7_on_board_units_support_a_waiting_army_fleet_onto_the_board() {
    let v = variant();
    let mut pos = Position::initial(&v);
    place(&v, &mut pos, "Scots", UnitKind::Army, "Nth");
    let (r, next) = support_play::movement(
        &v,
        &pos,
        &[
            "The Scots: A(Nth) S A/F(GER)-Dun",
            "Harald Hardrada: A/F(GER)-Dun",
        ],
    );
    assert_eq!(r.orders, vec![None, None]);
    assert_eq!(
        owner_in(&v, &next, "Dun").as_deref(),
        Some("Harald Hardrada")
    );
    assert_eq!(next.dislodged.len(), 1, "the Earls' army is dislodged");
}

#[test]
fn rule_7_support_onto_the_board_by_mail() {
    let mut w = started();
    let r = w.reply(
        "scots@example.test",
        "SIGNON Scots hastings pw-secret\nA(Edw) S A(SOD)-Lun\nA(Brc) S A/F(GER)-Nth",
    );
    assert!(!r.contains("not on the board"), "{r}");
    // Edwins Burgh cannot reach London: refused for that, not for the box.
    assert!(r.contains("A(Edw) S A(SOD)-Lun"), "{r}");
    let r = w.reply(
        "harold@example.test",
        "SIGNON Harold hastings pw-secret\nA(Win) S A(SOD)-Lun\nA(Lun) S A(WIL)-Chn",
    );
    assert!(
        !r.contains("not on the board") && !r.contains("void"),
        "{r}"
    );
}

#[test]
fn rule_4_armies_are_convoyed_from_off_the_board() {
    let v = variant();
    let mut pos = Position::initial(&v);
    place(&v, &mut pos, "Scots", UnitKind::Fleet, "CHA");
    for convoy in [
        "The Scots: F(CHA) C A(SOD)-Dor",
        "The Scots: F(CHA) C A(WIL)-Dor",
    ] {
        let (r, next) = support_play::movement(&v, &pos, &[convoy, "Duke William: A(SOD)-Dor"]);
        assert_eq!(r.orders, vec![None, None], "{convoy}");
        assert_eq!(owner_in(&v, &next, "Dor").as_deref(), Some("Duke William"));
        assert_eq!(count_in(&v, &next, "WIL"), 3);
    }
    // With only one army waiting too.
    let wil = prov(&v, "WIL");
    let mut kept = 0;
    pos.units.retain(|u| {
        let w = v.map.province_of(u.region) == wil;
        kept += usize::from(w);
        !w || kept == 1
    });
    let (r, next) = support_play::movement(
        &v,
        &pos,
        &["The Scots: F(CHA) C A(SOD)-Dor", "Duke William: A(WIL)-Dor"],
    );
    assert_eq!(r.orders, vec![None, None]);
    assert_eq!(owner_in(&v, &next, "Dor").as_deref(), Some("Duke William"));
    // No convoy, no landing in Dorsete.
    let (r, _) = support_play::movement(&v, &pos, &["Duke William: A(SOD)-Dor"]);
    assert_eq!(r.orders, vec![None]);
    assert_eq!(
        r.units
            .iter()
            .filter(|u| u.outcome == Outcome::NoConvoy)
            .count(),
        1
    );
}

/// A 1066 game by mail with every power joined and started.
fn started() -> World {
    let mut w = World::new();
    w.reply("gm@example.test", "CREATE hastings 1066 gm-secret");
    for (who, pw) in NAMES {
        w.reply(
            &format!("{who}@example.test"),
            &format!("JOIN hastings pw-secret {pw}"),
        );
    }
    w.reply("obs@example.test", "OBSERVE hastings");
    w.reply("gm@example.test", "SIGNON GM hastings gm-secret\nSTART");
    w
}

const NAMES: [(&str, &str); 7] = [
    ("william", "Duke William"),
    ("harald", "Harald Hardrada"),
    ("harold", "Harold Godwinson"),
    ("norse", "The Norse"),
    ("earls", "The Northern Earls"),
    ("scots", "The Scots"),
    ("welsh", "The Welsh"),
];

#[test]
fn rule_4_the_destroy_order_destroys_only_the_waiting_armies() {
    let v = variant();
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("May 1066 movement").expect("phase");
    let wil = prov(&v, "WIL");
    let mut kept = 0;
    pos.units.retain(|u| {
        let w = v.map.province_of(u.region) == wil;
        kept += usize::from(w);
        !w || kept == 1
    });
    place(&v, &mut pos, "William", UnitKind::Fleet, "WIL");
    place(&v, &mut pos, "Harald", UnitKind::ArmyFleet, "CHA");
    let (r, next) =
        support_play::movement(&v, &pos, &["Harald Hardrada: A/F(CHA) destroys A(SOD)"]);
    assert_eq!(r.orders, vec![None]);
    assert_eq!(r.units.iter().filter(|u| u.destroyed()).count(), 1);
    let waiting = units_in_box(&v, &next);
    assert_eq!(waiting, vec![UnitKind::Fleet], "the waiting fleet survives");
    // Offline, as in the results mail, the destroyed army is printed
    // destroyed, the fleet beside it as holding (with no order).
    let dir = std::env::temp_dir().join(format!("zj-1066-destroy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("pos.toml"), pos.to_toml(&v)).expect("position");
    std::fs::write(
        dir.join("orders.txt"),
        "Harald Hardrada: A/F(CHA) destroys A(SOD)\n",
    )
    .expect("orders");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_zinejudge"))
        .args(["adjudicate", "--game", "1066", "--position"])
        .arg(dir.join("pos.toml"))
        .arg("--orders")
        .arg(dir.join("orders.txt"))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let results = text.split("# Next position").next().unwrap_or_default();
    let line = |unit: &str| {
        results
            .lines()
            .find(|l| l.trim_start().starts_with(unit))
            .unwrap_or_else(|| panic!("no {unit}: {results}"))
            .trim_end()
            .to_string()
    };
    assert!(line("A(WIL)").ends_with("destroyed"), "{results}");
    assert!(line("F(WIL)").ends_with("no order"), "{results}");
}

fn units_in_box(v: &Variant, pos: &Position) -> Vec<UnitKind> {
    let wil = prov(v, "WIL");
    pos.units
        .iter()
        .filter(|u| v.map.province_of(u.region) == wil)
        .map(|u| u.kind)
        .collect()
}

/// Every reader's copy of the results of `phase` in `sent`.
fn results_of<'a>(
    sent: &'a [support_judge::Sent],
    who: &str,
    phase: &str,
) -> &'a support_judge::Sent {
    sent.iter()
        .find(|m| m.to_has(&format!("{who}@example.test")) && m.subject.contains(phase))
        .unwrap_or_else(|| panic!("no {phase} results for {who}: {sent:#?}"))
}

/// Lines of `text` that name a place where Harald's A/Fs may hide, other
/// than the Earls' own orders naming them (seen by all, marked alike).
fn traces(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.contains("S A/F("))
        .filter(|l| {
            [
                "GER",
                "WAS",
                "HAR",
                "Oceanus",
                "Germanicus",
                "Wash",
                "Harald's",
            ]
            .iter()
            .any(|w| l.contains(w))
        })
        .collect()
}

#[test]
fn rule_5_hidden_army_fleets_leave_no_trace_for_the_others_by_mail() {
    let mut w = started();
    // Harald: both A/Fs waiting in Oceanus Germanicus sail for the Wash,
    // where the other two hold (bounces only he may know of).
    let r = w.reply(
        "harald@example.test",
        "SIGNON Harald hastings pw-secret\nA/F(GER)-WAS\nA/F(GER)-WAS\nA/F(WAS) H",
    );
    assert!(!r.contains("void"), "{r}");
    // The Earls support A/Fs they cannot see: one is there, one is not.
    // The replies must not tell which, in March or in April.
    let earls = "SIGNON Earls hastings pw-secret\nA(Dun) S A/F(GER)-Nth\nA(Dre) S A/F(WAS)-Dei";
    let march_reply = w.reply("earls@example.test", earls);
    assert!(!march_reply.contains("not on the board"), "{march_reply}");
    let sent = w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS");
    let gm = &results_of(&sent, "gm", "March 1066").body;
    assert!(gm.contains("A/F(GER)-WAS"), "the GM is told: {gm}");
    let harald = &results_of(&sent, "harald", "March 1066").body;
    assert!(harald.contains("A/F(GER)-WAS"), "{harald}");
    for (who, _) in NAMES
        .iter()
        .filter(|(w, _)| *w != "harald")
        .chain([&("obs", "")])
    {
        let m = results_of(&sent, who, "March 1066");
        assert!(traces(&m.body).is_empty(), "{who}: {}", m.body);
        // The Earls' two supports, one of an A/F there, one of none, are
        // marked alike.
        let marks: Vec<String> = m
            .body
            .lines()
            .filter(|l| l.contains("S A/F("))
            .filter_map(|l| l.split_once("-Nth").or(l.split_once("-Dei")))
            .map(|x| x.1.trim().to_string())
            .collect();
        assert_eq!(marks.len(), 2, "{who}: {}", m.body);
        assert_eq!(marks[0], marks[1], "{who}: {}", m.body);
        assert!(!m.body.contains("Standoff"), "{who}: {}", m.body);
    }
    // April: the A/Fs stand where they stood.
    let april_reply = w.reply("earls@example.test", earls);
    assert!(!april_reply.contains("not on the board"), "{april_reply}");
    let strip = |r: &str| {
        r.lines()
            .filter(|l| l.contains("S A/F("))
            .map(|l| l.replace("GER)-Nth", "X").replace("WAS)-Dei", "X"))
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&march_reply), strip(&april_reply));
    // Each support twice: as read from the mail, and among the orders held.
    assert_eq!(strip(&april_reply).len(), 4, "{april_reply}");
    // HISTORY and SUMMARY, to a player and to an observer.
    for who in ["scots", "obs"] {
        let h = w.reply(&format!("{who}@example.test"), "HISTORY hastings");
        assert!(
            traces(&h).is_empty() && !h.contains("Standoff"),
            "{who}: {h}"
        );
        let s = w.reply(&format!("{who}@example.test"), "SUMMARY hastings");
        assert!(traces(&s).is_empty(), "{who}: {s}");
    }
    // The pictures: every other reader's is the observer's.
    let svg = |who: &str| {
        results_of(&sent, who, "March 1066")
            .attachments
            .iter()
            .find(|(n, _)| n.ends_with(".svg"))
            .map(|(_, n)| *n)
            .expect("a picture")
    };
    for (who, _) in NAMES
        .iter()
        .filter(|(w, _)| !["harald", "earls"].contains(w))
    {
        assert_eq!(svg(who), svg("obs"), "{who}");
    }
    assert!(svg("obs") < svg("gm"));
}

#[test]
fn rule_6_a_centre_another_power_nominated_cannot_be_nominated_again() {
    let v = variant();
    let mut pos = Position::initial(&v);
    let (earls, welsh) = (power(&v, "Earls"), power(&v, "Welsh"));
    let her = prov(&v, "Her");
    pos.owners[prov(&v, "Dun").index()] = Some(power(&v, "Scots"));
    pos.owners[her.index()] = Some(earls);
    assert_eq!(nominate(&v, &mut pos, earls, her), Ok(()));
    // The Welsh take Hereford, having lost Gwynedd: it is the Earls' home.
    pos.owners[her.index()] = Some(welsh);
    pos.owners[prov(&v, "Gwy").index()] = Some(power(&v, "Norse"));
    assert_eq!(
        nominate(&v, &mut pos, welsh, her),
        Err(NominateError::NotNeutral("Hereford".into()))
    );
}

#[test]
fn rule_6_never_more_than_four_home_centres_after_a_lost_home_is_retaken() {
    let v = variant();
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("April 1066 movement").expect("phase");
    let welsh = power(&v, "Welsh");
    let (her, gwy) = (prov(&v, "Her"), prov(&v, "Gwy"));
    pos.owners[gwy.index()] = Some(power(&v, "Norse"));
    pos.owners[her.index()] = Some(welsh);
    assert_eq!(nominate(&v, &mut pos, welsh, her), Ok(()));
    // The Welsh army still in Gwynedd takes it back at the end of April.
    let (_, next) = support_play::movement(&v, &pos, &[]);
    assert_eq!(next.owners[gwy.index()], Some(welsh));
    assert_eq!(v.calendar.label(next.phase), "April 1066 adjustment");
    // Five centres, four units: one build, but Hereford is a home no more.
    let (PhaseResult::Adjustment(r), _) =
        support_play::step(&v, &next, &["The Welsh: Build A Her"])
    else {
        panic!("adjustment")
    };
    assert_eq!(r.orders[0], AdjustStatus::Illegal(Illegal::NotABuildSite));
}

#[test]
fn rule_6_nominations_are_announced_in_the_results() {
    let v = variant();
    let mut pos = Position::initial(&v);
    let welsh = power(&v, "Welsh");
    let her = prov(&v, "Her");
    pos.owners[prov(&v, "Gwy").index()] = Some(power(&v, "Norse"));
    pos.owners[her.index()] = Some(welsh);
    assert_eq!(nominate(&v, &mut pos, welsh, her), Ok(()));
    let o = orders(&v, PhaseKind::Movement, &[]);
    let (result, after) = play(&v, &pos, &o);
    let r = zinejudge::testing::report::PhaseReport {
        variant: &v,
        game: "hastings",
        before: &pos,
        orders: &o,
        result: &result,
        after: &after,
        next_deadline: None,
        ended: None,
        nmr: Vec::new(),
    };
    for viewer in [Viewer::Public, Viewer::Power(power(&v, "Scots"))] {
        let d = zinejudge::testing::report::data_for(&r, "zj", viewer);
        assert_eq!(d.nominated, vec!["The Welsh: Hereford".to_string()]);
    }
    assert!(
        zinejudge::testing::report::render(&r)
            .contains("Home centre nominated: The Welsh: Hereford."),
        "{}",
        zinejudge::testing::report::render(&r)
    );
    // Announced once: the next results do not repeat it.
    assert!(after.state.nominated.values().all(Vec::is_empty));
    assert_eq!(after.state.homes.get(welsh), Some(&vec![her]));
}

#[test]
fn rule_4_build_and_remove_replies_name_williams_box_and_his_first_captures() {
    let v = variant();
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("April 1066 adjustment").expect("phase");
    let william = power(&v, "William");
    // He has landed three armies and holds five centres, taken in order.
    let wil = prov(&v, "WIL");
    let mut moved = 0;
    for u in pos.units.iter_mut() {
        if v.map.province_of(u.region) == wil && moved < 3 {
            u.region = v
                .map
                .province(prov(&v, ["Has", "Can", "Chn"][moved]))
                .main_region();
            moved += 1;
        }
    }
    for c in ["Has", "Can", "Exs", "Lun", "Oxe"] {
        pos.owners[prov(&v, c).index()] = Some(william);
        pos.state.captures[william].push(prov(&v, c));
    }
    let lun = prov(&v, "Lun");
    pos.units.retain(|u| v.map.province_of(u.region) != lun);
    let (PhaseResult::Adjustment(r), _) = support_play::step(
        &v,
        &pos,
        &["Duke William: Build A Lun", "Duke William: Build A SOD"],
    ) else {
        panic!("adjustment")
    };
    assert_eq!(
        r.orders[0],
        AdjustStatus::Illegal(Illegal::NotAFirstCapture)
    );
    assert!(
        !Illegal::NotAFirstCapture
            .to_string()
            .contains("home centres")
    );
    assert!(
        matches!(r.orders[1], AdjustStatus::Built(u) if u.region == v.map.province(wil).main_region()),
        "{:?}",
        r.orders
    );
    // Too many units: his waiting army is removed by the name he moves it by.
    for c in ["Exs", "Lun", "Oxe"] {
        pos.owners[prov(&v, c).index()] = None;
    }
    let (PhaseResult::Adjustment(r), next) =
        support_play::step(&v, &pos, &["Duke William: Remove A(SOD)"])
    else {
        panic!("adjustment")
    };
    assert!(
        matches!(r.orders[0], AdjustStatus::Removed(_)),
        "{:?}",
        r.orders
    );
    assert_eq!(count_in(&v, &next, "WIL"), 0);
}

#[test]
fn rule_4_results_write_williams_waiting_army_as_he_named_it() {
    let v = variant();
    let pos = Position::initial(&v);
    let o = orders(&v, PhaseKind::Movement, &["Duke William: A(SOD)-Has"]);
    let (result, after) = play(&v, &pos, &o);
    let r = zinejudge::testing::report::PhaseReport {
        variant: &v,
        game: "hastings",
        before: &pos,
        orders: &o,
        result: &result,
        after: &after,
        next_deadline: None,
        ended: None,
        nmr: Vec::new(),
    };
    let text = zinejudge::testing::report::render(&r);
    assert!(text.contains("A(SOD)-Has"), "{text}");
    assert!(!text.contains("A(WIL)-Has"), "{text}");
}

#[test]
fn summary_tells_the_powers_of_1066_apart() {
    let mut w = started();
    let s = w.reply("obs@example.test", "SUMMARY hastings");
    let header = s
        .lines()
        .find(|l| l.contains("Duk Har"))
        .unwrap_or_else(|| panic!("{s}"));
    let names: Vec<&str> = header.split_whitespace().collect();
    assert_eq!(
        names,
        ["Duk", "Har", "God", "Nor", "Ear", "Sco", "Wel"],
        "{s}"
    );
}

#[test]
fn rule_5_a_convoyed_move_past_the_hidden_seas_is_answered_alike_whether_an_af_is_there() {
    let v = variant();
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("April 1066 movement").expect("phase");
    let earls = ["The Northern Earls: A(Dun)-Nrd"];
    // Nobody in Oceanus Germanicus: accepted, and no convoy.
    let (r, _) = support_play::movement(&v, &pos, &earls);
    assert_eq!(r.orders, vec![None]);
    assert_eq!(
        r.units
            .iter()
            .filter(|u| u.outcome == Outcome::NoConvoy)
            .count(),
        1
    );
    // One of Harald's A/Fs there, hidden, giving no convoy: the same.
    place(&v, &mut pos, "Harald", UnitKind::ArmyFleet, "GER");
    let (r, _) = support_play::movement(&v, &pos, &earls);
    assert_eq!(r.orders, vec![None]);
    assert_eq!(
        r.units
            .iter()
            .filter(|u| u.outcome == Outcome::NoConvoy)
            .count(),
        1
    );
    // Once nothing is hidden any more, a move with no fleet to carry it is
    // refused as before.
    pos.units.pop();
    pos.phase = v.calendar.parse("May 1066 movement").expect("phase");
    let (r, _) = support_play::movement(&v, &pos, &earls);
    assert_eq!(r.orders, vec![Some(Illegal::NotAdjacent)]);
}

#[test]
fn rule_5_a_support_of_a_unit_at_a_hidden_place_is_marked_alike_whether_it_is_there() {
    let v = variant();
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("April 1066 movement").expect("phase");
    // A Scottish fleet in Lincolia supports whatever holds in the Wash.
    place(&v, &mut pos, "Scots", UnitKind::Fleet, "Lin");
    let scots = ["The Scots: F(Lin) S A/F(WAS)"];
    let marks = |pos: &Position| {
        let o = orders(&v, PhaseKind::Movement, &scots);
        let (result, after) = play(&v, pos, &o);
        assert_eq!(result_orders(&result), vec![None]);
        let r = zinejudge::testing::report::PhaseReport {
            variant: &v,
            game: "hastings",
            before: pos,
            orders: &o,
            result: &result,
            after: &after,
            next_deadline: None,
            ended: None,
            nmr: Vec::new(),
        };
        let d = zinejudge::testing::report::data_for(&r, "zj", Viewer::Power(power(&v, "Scots")));
        d.powers
            .iter()
            .flat_map(|p| p.orders.clone())
            .find(|l| l.zine.contains("S A/F(WAS)"))
            .map(|l| l.marks)
            .expect("the support is printed")
    };
    let none_there = marks(&pos);
    place(&v, &mut pos, "Harald", UnitKind::ArmyFleet, "WAS");
    let one_there = marks(&pos);
    assert_eq!(none_there, one_there);
}

fn result_orders(r: &PhaseResult) -> Vec<Option<Illegal>> {
    match r {
        PhaseResult::Movement(m) => m.orders.clone(),
        other => panic!("not a movement: {other:?}"),
    }
}

#[test]
fn rule_5_an_order_for_a_hidden_unit_by_another_power_is_refused_alike_whether_it_is_there() {
    let v = variant();
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("April 1066 movement").expect("phase");
    let earls = ["The Northern Earls: A/F(GER)-Nth"];
    let (r, _) = support_play::movement(&v, &pos, &earls);
    assert_eq!(r.orders, vec![Some(Illegal::NoUnit)]);
    place(&v, &mut pos, "Harald", UnitKind::ArmyFleet, "GER");
    let (r, _) = support_play::movement(&v, &pos, &earls);
    assert_eq!(
        r.orders,
        vec![Some(Illegal::NoUnit)],
        "not 'that unit is Harald's'"
    );
}

// ---- Rule 5: each waiting A/F has a place of its own (issue 20, item 5).

/// The seas Harald's waiting A/Fs stand in, as the position records them,
/// sorted.
fn waiting(v: &Variant, pos: &Position) -> Vec<String> {
    let h = power(v, "Harald Hardrada");
    let mut s: Vec<String> = pos
        .state
        .waiting
        .get(h)
        .map(|l| l.iter().map(|p| v.map.province(*p).abbr.clone()).collect())
        .unwrap_or_default();
    s.sort();
    s
}

/// The start with Harald's four A/Fs waiting in `seas` (as the GM may set
/// them before the first move).
fn waiting_in(v: &Variant, seas: &[&str]) -> Position {
    let mut pos = Position::initial(v);
    let h = power(v, "Harald Hardrada");
    if let Some(l) = pos.state.waiting.get_mut(h) {
        *l = seas.iter().map(|s| prov(v, s)).collect();
    }
    pos
}

#[test]
fn rule_5_each_waiting_af_stands_in_a_sea_of_its_own_kept_in_the_position() {
    let v = variant();
    let pos = Position::initial(&v);
    // The default placement: two in each sea.
    assert_eq!(waiting(&v, &pos), ["GER", "GER", "WAS", "WAS"]);
    let text = pos.to_toml(&v);
    assert!(text.contains("[state.waiting]"), "{text}");
    let back = Position::from_toml(&v, &text).expect("reads back");
    assert_eq!(back.canonical(), pos.canonical());
    // One moves out of each sea; the two left keep their seas into April,
    // through the stored form too.
    let (r, april) = support_play::movement(
        &v,
        &pos,
        &[
            "Harald Hardrada: A/F(GER)-Nth",
            "Harald Hardrada: A/F(WAS)-Yor",
        ],
    );
    assert_eq!(r.orders, vec![None, None]);
    assert_eq!(waiting(&v, &april), ["GER", "WAS"]);
    assert_eq!(count_in(&v, &april, "HAR"), 2);
    let stored = april.stored(&v).expect("stores");
    let back = Position::from_toml(&v, &stored).expect("reads back");
    assert_eq!(waiting(&v, &back), ["GER", "WAS"]);
    // After the second move they stand on the board, nothing waits.
    let (_, may) = play(&v, &april, &orders(&v, PhaseKind::Movement, &[]));
    assert!(waiting(&v, &may).is_empty());
    assert_eq!(count_in(&v, &may, "GER"), 1);
    assert_eq!(count_in(&v, &may, "WAS"), 1);
}

#[test]
fn rule_5_an_af_moves_only_from_the_sea_it_waits_in() {
    let v = variant();
    // April, the second move: the places are fixed.
    let mut pos = waiting_in(&v, &["GER", "GER", "GER", "GER"]);
    pos.phase = v.calendar.parse("April 1066 movement").expect("phase");
    let (r, next) = support_play::movement(
        &v,
        &pos,
        &[
            "Harald Hardrada: A/F(WAS)-Yor",
            "Harald Hardrada: A/F(GER)-Cly",
        ],
    );
    assert_eq!(r.orders, vec![Some(Illegal::NoUnit), None]);
    assert_eq!(count_in(&v, &next, "Yor"), 0);
    assert_eq!(
        owner_in(&v, &next, "Cly").as_deref(),
        Some("Harald Hardrada")
    );
    // The three left: one stays in GER, two are eliminated (none goes to
    // the empty Wash).
    assert_eq!(count_in(&v, &next, "GER"), 1);
    assert_eq!(count_in(&v, &next, "WAS"), 0);
    // Nor does the box itself name one: they are in the seas.
    let (r, _) = support_play::movement(&v, &pos, &["Harald Hardrada: A/F(HAR)-Nth"]);
    assert_eq!(r.orders, vec![Some(Illegal::NoUnit)]);
}

#[test]
fn rule_5_an_af_that_sails_to_the_other_hidden_sea_waits_on_there() {
    let v = variant();
    let pos = waiting_in(&v, &["GER", "GER", "GER", "GER"]);
    let (r, next) = support_play::movement(&v, &pos, &["Harald Hardrada: A/F(GER)-WAS"]);
    assert_eq!(r.orders, vec![None]);
    assert_eq!(waiting(&v, &next), ["GER", "GER", "GER", "WAS"]);
    assert_eq!(count_in(&v, &next, "HAR"), 4);
    assert_eq!(count_in(&v, &next, "WAS"), 0, "still hidden, in the box");
}

#[test]
fn rule_5_an_enemy_fleet_sailing_into_the_sea_meets_the_waiting_af() {
    let v = variant();
    for (seas, bounces) in [
        (["GER", "GER", "WAS", "WAS"], true),
        (["WAS", "WAS", "WAS", "WAS"], false),
    ] {
        let mut pos = waiting_in(&v, &seas);
        place(&v, &mut pos, "Scots", UnitKind::Fleet, "FOF");
        let (r, next) = support_play::movement(&v, &pos, &["The Scots: F(FOF)-GER"]);
        let scots = r.units.len() - 1;
        assert_eq!(
            matches!(r.units[scots].outcome, Outcome::Bounced { .. }),
            bounces,
            "{seas:?}"
        );
        assert_eq!(
            r.units[scots].outcome == Outcome::Moved,
            !bounces,
            "{seas:?}"
        );
        assert_eq!(
            owner_in(&v, &next, "GER").as_deref(),
            (!bounces).then_some("The Scots"),
            "{seas:?}"
        );
        assert!(next.dislodged.is_empty());
        assert_eq!(waiting(&v, &next).len(), 4);
    }
}

#[test]
fn rule_5_a_supported_attack_dislodges_every_af_waiting_in_that_sea() {
    let v = variant();
    let mut pos = waiting_in(&v, &["GER", "GER", "WAS", "WAS"]);
    place(&v, &mut pos, "Scots", UnitKind::Fleet, "FOF");
    place(&v, &mut pos, "Scots", UnitKind::Fleet, "Lot");
    let (_, next) = support_play::movement(
        &v,
        &pos,
        &["The Scots: F(FOF)-GER", "The Scots: F(Lot) S F(FOF)-GER"],
    );
    assert_eq!(owner_in(&v, &next, "GER").as_deref(), Some("The Scots"));
    let ger = prov(&v, "GER");
    let harald = power(&v, "Harald Hardrada");
    let out: Vec<_> = next
        .dislodged
        .iter()
        .filter(|(u, _)| u.power == harald && v.map.province_of(u.region) == ger)
        .collect();
    assert_eq!(out.len(), 2, "{:?}", next.dislodged);
    assert_eq!(waiting(&v, &next), ["WAS", "WAS"]);
    // They retreat from the sea like any unit (not back into the box).
    let har = prov(&v, "HAR");
    for (_, options) in out {
        assert!(
            options.iter().all(|r| v.map.province_of(*r) != har),
            "{options:?}"
        );
    }
}

#[test]
fn rule_5_a_waiting_af_may_be_supported_to_hold_by_haralds_unit_on_the_board() {
    let v = variant();
    let mut pos = waiting_in(&v, &["GER", "WAS", "WAS", "WAS"]);
    place(&v, &mut pos, "Scots", UnitKind::Fleet, "FOF");
    place(&v, &mut pos, "Scots", UnitKind::Fleet, "Lot");
    place(&v, &mut pos, "Harald", UnitKind::ArmyFleet, "Nth");
    let (r, next) = support_play::movement(
        &v,
        &pos,
        &[
            "The Scots: F(FOF)-GER",
            "The Scots: F(Lot) S F(FOF)-GER",
            "Harald Hardrada: A/F(Nth) S A/F(GER)",
        ],
    );
    assert_eq!(r.orders, vec![None, None, None]);
    assert!(next.dislodged.is_empty(), "{:?}", next.dislodged);
    assert_eq!(owner_in(&v, &next, "FOF").as_deref(), Some("The Scots"));
    assert_eq!(waiting(&v, &next), ["GER", "WAS", "WAS", "WAS"]);
    // A waiting A/F itself supports nothing (rule 7: off the board it has
    // no effect until it moves).
    let (r, _) = support_play::movement(&v, &pos, &["Harald Hardrada: A/F(WAS) S A/F(GER)"]);
    assert_eq!(r.orders, vec![Some(Illegal::OffBoard)]);
}

#[test]
fn rule_5_an_af_leaving_its_sea_meets_a_unit_coming_the_other_way_head_on() {
    let v = variant();
    // Alone in the sea: the two bounce, neither gets through.
    let mut pos = waiting_in(&v, &["GER", "WAS", "WAS", "WAS"]);
    place(&v, &mut pos, "Scots", UnitKind::Fleet, "FOF");
    let (_, next) = support_play::movement(
        &v,
        &pos,
        &["The Scots: F(FOF)-GER", "Harald Hardrada: A/F(GER)-FOF"],
    );
    assert_eq!(owner_in(&v, &next, "FOF").as_deref(), Some("The Scots"));
    assert_eq!(waiting(&v, &next), ["GER", "WAS", "WAS", "WAS"]);
    // With another holding beside it, a supported attack beats both: the
    // one sailing out does not slip past the attacker into its sea.
    let mut pos = waiting_in(&v, &["GER", "GER", "WAS", "WAS"]);
    place(&v, &mut pos, "Scots", UnitKind::Fleet, "FOF");
    place(&v, &mut pos, "Scots", UnitKind::Fleet, "Lot");
    let (r, next) = support_play::movement(
        &v,
        &pos,
        &[
            "The Scots: F(FOF)-GER",
            "The Scots: F(Lot) S F(FOF)-GER",
            "Harald Hardrada: A/F(GER)-FOF",
        ],
    );
    assert_eq!(r.orders, vec![None, None, None]);
    assert_eq!(owner_in(&v, &next, "GER").as_deref(), Some("The Scots"));
    assert_eq!(owner_in(&v, &next, "FOF"), None);
    assert_eq!(next.dislodged.len(), 2, "{:?}", next.dislodged);
}

#[test]
fn rule_5_at_the_end_of_the_second_move_each_af_stays_in_its_own_sea() {
    let v = variant();
    let mut pos = waiting_in(&v, &["GER", "GER", "GER", "GER"]);
    pos.phase = v.calendar.parse("April 1066 movement").expect("phase");
    let (_, next) = play(&v, &pos, &orders(&v, PhaseKind::Movement, &[]));
    // All four were in Oceanus Germanicus: one stays, three are
    // eliminated; none moves to the empty Wash.
    assert_eq!(count_in(&v, &next, "GER"), 1);
    assert_eq!(count_in(&v, &next, "WAS"), 0);
    assert_eq!(count_in(&v, &next, "HAR"), 0);
    assert_eq!(next.state.blocked.len(), 3);
}

/// The results of a move from `pos` with `lines`, as `viewer` reads them.
fn read_by(v: &Variant, pos: &Position, lines: &[&str], viewer: Viewer) -> String {
    use zinejudge::game::record::Style;
    use zinejudge::testing::report::{PhaseReport, data_for, templates::Templates};
    let o = orders(v, PhaseKind::Movement, lines);
    let (result, next) = play(v, pos, &o);
    let pr = PhaseReport {
        variant: v,
        game: "hastings",
        before: pos,
        orders: &o,
        result: &result,
        after: &next,
        next_deadline: None,
        ended: None,
        nmr: vec![],
    };
    Templates::builtin()
        .results(Style::Zine, &data_for(&pr, "zinejudge", viewer))
        .expect("laid out")
}

#[test]
fn rule_5_the_others_read_the_same_results_wherever_the_afs_wait() {
    let v = variant();
    let scots = power(&v, "Scots");
    let earls = power(&v, "Earls");
    let harald = power(&v, "Harald Hardrada");
    // A Scottish fleet sails into Oceanus Germanicus (and is seen to
    // bounce: its own move's outcome), supported or not; the Earls support
    // an A/F they cannot see. Harald's placements differ, never what any
    // other reader is told.
    let cases: [(&[&str], [&str; 4], [&str; 4]); 2] = [
        (
            &[
                "The Scots: F(FOF)-GER",
                "The Northern Earls: A(Dun) S A/F(GER)",
            ],
            ["GER", "GER", "WAS", "WAS"],
            ["GER", "WAS", "WAS", "WAS"],
        ),
        (
            &[
                "The Scots: F(FOF)-GER",
                "The Scots: F(Lot) S F(FOF)-GER",
                "Harald Hardrada: A/F(WAS)-GER",
            ],
            ["GER", "GER", "WAS", "WAS"],
            ["WAS", "WAS", "WAS", "WAS"],
        ),
    ];
    for (lines, a, b) in cases {
        let at = |seas: &[&str; 4]| {
            let mut pos = waiting_in(&v, seas);
            place(&v, &mut pos, "Scots", UnitKind::Fleet, "FOF");
            place(&v, &mut pos, "Scots", UnitKind::Fleet, "Lot");
            pos
        };
        let (pa, pb) = (at(&a), at(&b));
        for viewer in [Viewer::Public, Viewer::Power(scots), Viewer::Power(earls)] {
            let (ta, tb) = (
                read_by(&v, &pa, lines, viewer),
                read_by(&v, &pb, lines, viewer),
            );
            assert_eq!(ta, tb, "{viewer:?} {lines:?}");
            assert!(
                !ta.contains("A/F(GER)") || ta.contains("S A/F(GER)"),
                "{ta}"
            );
            assert!(!ta.contains("A/F(WAS)") && !ta.contains("Standoff"), "{ta}");
        }
        // Harald and the GM are told where his A/Fs were.
        for viewer in [Viewer::Gm, Viewer::Power(harald)] {
            assert_ne!(
                read_by(&v, &pa, lines, viewer),
                read_by(&v, &pb, lines, viewer),
                "{viewer:?}"
            );
        }
    }
}

#[test]
fn rule_5_no_other_power_retreats_into_a_sea_where_the_afs_may_wait() {
    let v = variant();
    let scots = power(&v, "Scots");
    let harald = power(&v, "Harald Hardrada");
    let ger = prov(&v, "GER");
    // The A/F waiting alone in Oceanus Germanicus sails out, supported
    // from the board, and dislodges the Scottish fleet in the Forth; an
    // empty GER is no retreat for the Scots, whatever waits there, and no
    // standoff there is told to them.
    let mut pos = waiting_in(&v, &["GER", "WAS", "WAS", "WAS"]);
    place(&v, &mut pos, "Scots", UnitKind::Fleet, "FOF");
    place(&v, &mut pos, "Harald", UnitKind::ArmyFleet, "Lot");
    let lines = [
        "Harald Hardrada: A/F(GER)-FOF",
        "Harald Hardrada: A/F(Lot) S A/F(GER)-FOF",
    ];
    let (r, next) = support_play::movement(&v, &pos, &lines);
    assert_eq!(r.orders, vec![None, None]);
    let (_, options) = next
        .dislodged
        .iter()
        .find(|(u, _)| u.power == scots)
        .expect("the Scots fleet is dislodged");
    assert!(!options.is_empty());
    assert!(
        options.iter().all(|o| v.map.province_of(*o) != ger),
        "{options:?}"
    );
    // Harald's own units may: he knows what is there.
    let mut pos = waiting_in(&v, &["WAS", "WAS", "WAS", "WAS"]);
    place(&v, &mut pos, "Harald", UnitKind::ArmyFleet, "FOF");
    place(&v, &mut pos, "Scots", UnitKind::Fleet, "HEB");
    place(&v, &mut pos, "Scots", UnitKind::Fleet, "Alb");
    let (_, next) = support_play::movement(
        &v,
        &pos,
        &["The Scots: F(HEB)-FOF", "The Scots: F(Alb) S F(HEB)-FOF"],
    );
    let (_, options) = next
        .dislodged
        .iter()
        .find(|(u, _)| u.power == harald)
        .expect("Harald's A/F is dislodged");
    assert!(
        options.iter().any(|o| v.map.province_of(*o) == ger),
        "{options:?}"
    );
}

#[test]
fn rule_5_a_fleet_bouncing_off_a_hidden_af_by_mail_names_no_af_to_the_others() {
    let mut w = started();
    // March: the Scots sail into the Forth; Harald gives his waiting A/Fs
    // orders, one refused as only he may be told (rule 7: off the board
    // they support nothing).
    let scots = w.reply(
        "scots@example.test",
        "SIGNON Scots hastings pw-secret\nF(Fif)-FOF",
    );
    assert!(!scots.contains("void"), "{scots}");
    let harald = w.reply(
        "harald@example.test",
        "SIGNON Harald hastings pw-secret\nA/F(GER) H\nA/F(WAS) S A/F(GER)",
    );
    assert!(
        harald.contains("units off the board can neither support nor convoy"),
        "{harald}"
    );
    let march = w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS");
    // April: the Scots sail on into Oceanus Germanicus, where two A/Fs
    // wait, and bounce.
    w.reply(
        "scots@example.test",
        "SIGNON Scots hastings pw-secret\nF(FOF)-GER",
    );
    let april = w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS");
    let gm = &results_of(&april, "gm", "April 1066").body;
    assert!(gm.contains("A/F(GER) H"), "{gm}");
    let own = |body: &str| {
        body.lines()
            .filter(|l| !l.contains("F(FOF)-GER"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    for (who, _) in NAMES
        .iter()
        .filter(|(w, _)| *w != "harald")
        .chain([&("obs", "")])
    {
        for (sent, phase) in [(&march, "March 1066"), (&april, "April 1066")] {
            let body = &results_of(sent, who, phase).body;
            // The end of the second move ends the secret: April's results
            // tell where the A/Fs were put and which were lost.
            let moves = body.split("Placed on the board").next().unwrap_or(body);
            assert!(traces(&own(moves)).is_empty(), "{who}: {body}");
            assert!(!body.contains("Standoff"), "{who}: {body}");
            assert!(!body.contains("neither support"), "{who}: {body}");
        }
        // The Scots' own move is seen to bounce: its outcome, not a unit.
        let body = &results_of(&april, who, "April 1066").body;
        let line = body
            .lines()
            .find(|l| l.contains("F(FOF)-GER"))
            .unwrap_or_else(|| panic!("{who}: {body}"));
        assert!(line.contains("bounced"), "{who}: {line}");
        let h = w.reply(&format!("{who}@example.test"), "HISTORY hastings");
        assert!(traces(&own(&h)).is_empty(), "{who}: {h}");
    }
    let svg = |who: &str| {
        results_of(&april, who, "April 1066")
            .attachments
            .iter()
            .find(|(n, _)| n.ends_with(".svg"))
            .map(|(_, n)| *n)
            .expect("a picture")
    };
    for (who, _) in NAMES.iter().filter(|(w, _)| *w != "harald") {
        assert_eq!(svg(who), svg("obs"), "{who}");
    }
}

#[test]
fn rule_5_haralds_first_orders_say_where_each_af_waits() {
    let v = variant();
    let pos = Position::initial(&v);
    // March 1066: four orders naming Oceanus Germanicus put all four
    // there (the default was two in each sea); a fifth, for the Wash,
    // finds none left.
    let (r, april) = support_play::movement(
        &v,
        &pos,
        &[
            "Harald Hardrada: A/F(GER) H",
            "Harald Hardrada: A/F(GER) H",
            "Harald Hardrada: A/F(GER) H",
            "Harald Hardrada: A/F(GER)-Nth",
            "Harald Hardrada: A/F(WAS)-Yor",
        ],
    );
    assert_eq!(
        r.orders,
        vec![None, None, None, None, Some(Illegal::NoUnit)]
    );
    assert_eq!(waiting(&v, &april), ["GER", "GER", "GER"]);
    assert_eq!(count_in(&v, &april, "Yor"), 0);
    // From April the places are fixed: an order naming the Wash finds
    // none there.
    let (r, _) = support_play::movement(&v, &april, &["Harald Hardrada: A/F(WAS)-Yor"]);
    assert_eq!(r.orders, vec![Some(Illegal::NoUnit)]);
    // Those no order names stay where the variant file put them.
    let (_, april) = support_play::movement(&v, &pos, &["Harald Hardrada: A/F(WAS)-GER"]);
    assert_eq!(waiting(&v, &april), ["GER", "GER", "WAS", "WAS"]);
}

#[test]
fn rule_5_the_afs_dislodged_together_from_a_sea_each_retreat_on_its_own_order() {
    let v = variant();
    let mut pos = waiting_in(&v, &["GER", "GER", "WAS", "WAS"]);
    place(&v, &mut pos, "Scots", UnitKind::Fleet, "FOF");
    place(&v, &mut pos, "Scots", UnitKind::Fleet, "Lot");
    let (_, retreat) = support_play::movement(
        &v,
        &pos,
        &["The Scots: F(FOF)-GER", "The Scots: F(Lot) S F(FOF)-GER"],
    );
    assert_eq!(retreat.phase.kind, PhaseKind::Retreat);
    let (PhaseResult::Retreat(r), april) = support_play::step(
        &v,
        &retreat,
        &[
            "Harald Hardrada: A/F(GER)-Nth",
            "Harald Hardrada: A/F(GER)-Cly",
        ],
    ) else {
        panic!("retreat")
    };
    assert_eq!(r.orders, vec![None, None]);
    assert_eq!(
        owner_in(&v, &april, "Nth").as_deref(),
        Some("Harald Hardrada")
    );
    assert_eq!(
        owner_in(&v, &april, "Cly").as_deref(),
        Some("Harald Hardrada")
    );
}

#[test]
fn rule_5_afs_leaving_one_sea_two_ways_meet_an_attacker_head_on_as_units_would() {
    let v = variant();
    for (supported, fof_after, dislodged) in [(false, Some("The Scots"), 0), (true, None, 1)] {
        let mut pos = waiting_in(&v, &["GER", "GER", "WAS", "WAS"]);
        place(&v, &mut pos, "Scots", UnitKind::Fleet, "FOF");
        place(&v, &mut pos, "Scots", UnitKind::Fleet, "Lot");
        let mut lines = vec![
            "Harald Hardrada: A/F(GER)-Nth",
            "Harald Hardrada: A/F(GER)-FOF",
            "The Scots: F(FOF)-GER",
        ];
        if supported {
            lines.push("The Scots: F(Lot) S F(FOF)-GER");
        }
        let (_, next) = support_play::movement(&v, &pos, &lines);
        // One A/F gets away to Northumberland; the one sailing for the
        // Forth meets the fleet coming the other way: they bounce, or the
        // supported fleet wins and dislodges it in its sea.
        assert_eq!(
            owner_in(&v, &next, "Nth").as_deref(),
            Some("Harald Hardrada")
        );
        assert_eq!(
            owner_in(&v, &next, "FOF").as_deref(),
            fof_after,
            "{supported}"
        );
        assert_eq!(next.dislodged.len(), dislodged, "{supported}");
        let left_in_ger = waiting(&v, &next).iter().filter(|s| *s == "GER").count();
        assert_eq!(left_in_ger, 1 - dislodged, "{supported}");
    }
}

#[test]
fn rule_6_builds_by_mail_in_at_most_four_home_centres() {
    // Rule 6: a power that lost home centres "may nominate any neutral
    // supply centres they hold as replacements, subject to the maximum
    // limit of four home centres per player". The Welsh, having lost
    // Gwynedd and Morgannwg, nominate Hereford and Dyfed; they retake
    // Gwynedd in April, so at April's builds their four home centres are
    // West Wales, Keredwigyawn, Gwynedd and Hereford (the first nominated):
    // Dyfed, still held, is a build site no more.
    let mut w = World::new();
    w.reply("gm@example.test", "CREATE hastings 1066 gm-secret");
    for (who, pw) in [
        ("william", "Duke William"),
        ("harald", "Harald Hardrada"),
        ("harold", "Harold Godwinson"),
        ("norse", "The Norse"),
        ("earls", "The Northern Earls"),
        ("scots", "The Scots"),
        ("welsh", "The Welsh"),
    ] {
        w.reply(
            &format!("{who}@example.test"),
            &format!("JOIN hastings pw-secret {pw}"),
        );
    }
    w.reply("gm@example.test", "SIGNON GM hastings gm-secret\nSTART");
    w.reply(
        "gm@example.test",
        "SIGNON GM hastings gm-secret\nEDIT REMOVE Mor\nEDIT OWNER Gwy The Norse\n\
         EDIT OWNER Mor The Norse\nEDIT OWNER Her The Welsh\nEDIT OWNER Dyf The Welsh",
    );
    let r = w.reply(
        "welsh@example.test",
        "SIGNON Welsh hastings pw-secret\nNOMINATE Hereford\nNOMINATE Dyfed",
    );
    assert!(!r.contains("refused"), "{r}");
    // A third is refused: two homes lost, two nominated.
    let r = w.reply(
        "welsh@example.test",
        "SIGNON Welsh hastings pw-secret\nNOMINATE Chester",
    );
    assert!(
        r.contains("you do not hold Chester") || r.contains("lost no home"),
        "{r}"
    );
    w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS");
    w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS");
    // April's adjustment: five centres, three armies, two builds due.
    let r = w.reply(
        "welsh@example.test",
        "SIGNON Welsh hastings pw-secret\nBuild A Her\nBuild A Dyf",
    );
    assert!(r.contains("2 builds due"), "{r}");
    let refused = r
        .split("Not accepted:")
        .nth(1)
        .unwrap_or_else(|| panic!("{r}"));
    assert!(refused.contains("Build A Dyf"), "{r}");
    let read = r.split("Not accepted:").next().unwrap_or_default();
    assert!(
        read.contains("Build A Her") || read.contains("Build A(Her)"),
        "{r}"
    );
}
