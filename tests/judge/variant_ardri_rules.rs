//! Ard-Ri's rules played (shared/rules/002_7dcf1d22a54e6fbb.txt): the
//! Winter 379 start (rule 4), raiding (rules 6a-6e), the optional Vikings
//! (rule 7), victory (rule 5); with and without the Vikings, through the
//! engine and through the judge by mail.

use crate::support_play;
use support_play::{power, prov, step, units_in as at};

use crate::support_judge;
use support_judge::World;
use support_judge::bot::conquer;

use zinejudge::adjudicate::{AdjustStatus, Illegal};
use zinejudge::game::Position;
use zinejudge::game::step::{PhaseResult, due};
use zinejudge::map::{Unit, UnitKind};
use zinejudge::variant::{PhaseKind, Variant, builtin};

/// `text` with its lines joined and its spaces single, so that a check of
/// a sentence does not depend on where the reply wrapped it.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn variant() -> Variant {
    builtin("ardri").expect("Ard-Ri ships").expect("and loads")
}

/// The standard opening builds of the five great powers.
const BUILDS_379: &[&str] = &[
    "Ulaid: Build F Mag",
    "Ulaid: Build F Aic",
    "Ulaid: Build A Ema",
    "Connacht: Build A Mon",
    "Connacht: Build F Cru",
    "Connacht: Build A Tua",
    "Midhe: Build A Uis",
    "Midhe: Build A Gua",
    "Midhe: Build A Tem",
    "Laigin: Build A Naa",
    "Laigin: Build A Aie",
    "Laigin: Build F Alm",
    "Muma: Build A Eog",
    "Muma: Build A Edg",
    "Muma: Build F Anu",
];

/// Winter 379 with the builds above (and `more`), without the Vikings.
fn after_379(v: &Variant, more: &[&str]) -> Position {
    let mut pos = Position::initial(v);
    pos.leave_out(power(v, "Vikings"));
    let lines: Vec<&str> = BUILDS_379.iter().chain(more).copied().collect();
    let (r, next) = step(v, &pos, &lines);
    let PhaseResult::Adjustment(r) = r else {
        panic!("Winter 379 is an adjustment phase")
    };
    assert!(
        r.orders.iter().all(|s| matches!(s, AdjustStatus::Built(_))),
        "{:?}",
        r.orders
    );
    next
}

#[test]
fn rule_4_the_game_starts_with_builds_in_winter_379() {
    let v = variant();
    let pos = Position::initial(&v);
    assert_eq!(v.calendar.label(pos.phase), "Winter 379 AD adjustment");
    assert!(pos.units.is_empty());
    let d = due(&v, &pos);
    for p in ["Ulaid", "Connacht", "Midhe", "Laigin", "Muma"] {
        assert_eq!(d[power(&v, p).index()], 3, "{p}");
    }
    // A fleet only where the centre is on the coast.
    let (r, _) = step(&v, &pos, &["Midhe: Build F Uis"]);
    let PhaseResult::Adjustment(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![AdjustStatus::Illegal(Illegal::WrongTerrain)]);
    let next = after_379(&v, &[]);
    assert_eq!(next.units.len(), 15);
    assert_eq!(v.calendar.label(next.phase), "Spring 380 AD movement");
}

#[test]
fn rule_6_a_fleet_raids_in_spring_returns_in_fall_and_counts_a_centre_in_winter() {
    let v = variant();
    let pos = after_379(&v, &[]);
    // Spring 380: Laigin's fleet goes to the Erin Sea.
    let (_, pos) = step(&v, &pos, &["Laigin: F Alm - ERI"]);
    assert_eq!(v.calendar.label(pos.phase), "Fall 380 AD movement");
    // Fall 380: too late to raid.
    let (r, pos) = step(&v, &pos, &["Laigin: Fleet Erin Sea - Raiding"]);
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![Some(Illegal::NotNow)]);
    // Spring 381: the raid.
    assert_eq!(v.calendar.label(pos.phase), "Spring 381 AD movement");
    let (r, pos) = step(&v, &pos, &["Laigin: Fleet Erin Sea - Raiding"]);
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![None]);
    assert_eq!(at(&v, &pos, "RAID").len(), 1);
    assert!(at(&v, &pos, "ERI").is_empty());
    // Fall 381: home to the North Atlantic.
    let (r, pos) = step(&v, &pos, &["Laigin: Fleet Raiding Return - North Atlantic"]);
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![None]);
    assert_eq!(at(&v, &pos, "NAT").len(), 1);
    // Winter 381: three centres, three units, one fleet back: one build.
    assert_eq!(pos.phase.kind, PhaseKind::Adjustment);
    assert_eq!(due(&v, &pos)[power(&v, "Laigin").index()], 1);
    let (_, pos) = step(&v, &pos, &["Laigin: Build F Alm"]);
    assert_eq!(pos.state.bonus[power(&v, "Laigin")], 0);
    // The extra centre is for the adjustment only, not for victory.
    assert_eq!(pos.centre_counts(&v.map)[power(&v, "Laigin").index()], 3);
}

#[test]
fn rule_6a_only_from_the_four_outermost_seas() {
    let v = variant();
    let pos = after_379(&v, &[]);
    // From a coast, or from an inner sea: the refusal says the rule.
    let (_, pos) = step(&v, &pos, &["Ulaid: F Mag - TMB"]);
    let (r, _) = step(
        &v,
        &pos,
        &["Connacht: F Cru - Raiding", "Ulaid: F TMB - Raiding"],
    );
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    let outer = Some(Illegal::RaidOnlyFromOuterSeas);
    assert_eq!(r.orders, vec![outer, outer]);
    assert!(
        Illegal::RaidOnlyFromOuterSeas
            .to_string()
            .contains("only from one of the outermost seas"),
    );
}

#[test]
fn rule_6d_a_returning_fleet_that_bounces_is_removed() {
    let v = variant();
    let pos = after_379(&v, &[]);
    let (_, pos) = step(&v, &pos, &["Laigin: F Alm - ERI"]);
    let (_, pos) = step(&v, &pos, &["Ulaid: F Mag - TMB"]);
    let (_, pos) = step(&v, &pos, &["Laigin: F ERI - Raiding", "Ulaid: F TMB - ERI"]);
    assert_eq!(at(&v, &pos, "ERI")[0].power, power(&v, "Ulaid"));
    // Fall: back to the Erin Sea, where Ulaid's fleet holds.
    let (r, pos) = step(&v, &pos, &["Laigin: F Raiding - ERI"]);
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert!(r.units.iter().any(|u| u.destroyed()));
    assert!(at(&v, &pos, "RAID").is_empty());
    assert!(pos.dislodged.is_empty(), "it does not retreat");
    assert_eq!(
        pos.units
            .iter()
            .filter(|u| u.power == power(&v, "Laigin"))
            .count(),
        2
    );
}

#[test]
fn rule_6_a_raider_without_a_return_order_is_warned_and_stays_away() {
    let mut w = World::new();
    w.reply("gm@example.test", "CREATE eire ardri gm-secret");
    w.reply("laigin@example.test", "JOIN eire pw-secret Laigin");
    w.reply("gm@example.test", "SIGNON GM eire gm-secret\nSTART");
    let r = w.reply(
        "laigin@example.test",
        "SIGNON Laigin eire pw-secret\nBuild A Naa\nBuild A Aie\nBuild F Alm",
    );
    assert!(!r.contains("not accepted"), "{r}");
    w.mail("gm@example.test", "SIGNON GM eire gm-secret\nPROCESS");
    w.reply(
        "laigin@example.test",
        "SIGNON Laigin eire pw-secret\nF Alm - ERI",
    );
    w.mail("gm@example.test", "SIGNON GM eire gm-secret\nPROCESS");
    w.mail("gm@example.test", "SIGNON GM eire gm-secret\nPROCESS");
    // Winter 380: the silent powers have builds owed.
    w.mail("gm@example.test", "SIGNON GM eire gm-secret\nPROCESS");
    let r = w.reply(
        "laigin@example.test",
        "SIGNON Laigin eire pw-secret\nFleet Erin Sea - Raiding",
    );
    // The rule's own word, not a code (rules 6a, 6c).
    assert!(r.contains("F(ERI)-Raiding"), "{r}");
    w.mail("gm@example.test", "SIGNON GM eire gm-secret\nPROCESS");
    // Fall: the reply to any mail shows the raider with no return order.
    let r = w.reply(
        "laigin@example.test",
        "SIGNON Laigin eire pw-secret\nA Naa H",
    );
    assert!(
        r.contains("F(Raiding) (no return order: it stays away and counts nothing)"),
        "{r}"
    );
}

#[test]
fn rule_7_without_the_vikings_they_are_out_of_the_game() {
    let mut w = World::new();
    let r = w.reply("gm@example.test", "CREATE eire ardri gm-secret");
    assert!(r.contains("Vikings are not in this game"), "{r}");
    let r = w.reply("x@example.test", "JOIN eire pw-secret Vikings");
    assert!(!r.contains("asking for Vikings"), "{r}");
    // Never in silence: the reply says why the wish was passed over.
    assert!(r.contains("(Vikings are not in this game)"), "{r}");
    // The start mail says they are out, not in civil disorder.
    let sent = w.mail("gm@example.test", "SIGNON GM eire gm-secret\nSTART");
    let start = sent
        .iter()
        .find(|m| m.body.contains("has started") && m.body.contains("Powers:"))
        .expect("the start mail to the players");
    let line = start
        .body
        .lines()
        .find(|l| l.trim_start().starts_with("Vikings"))
        .unwrap_or_else(|| panic!("{}", start.body));
    assert!(line.contains("not in this game"), "{}", start.body);
    assert!(!line.contains("civil disorder"), "{}", start.body);
}

#[test]
fn rule_7_without_the_vikings_the_game_starts_when_the_five_others_have_joined() {
    let mut w = World::new();
    w.reply("gm@example.test", "CREATE eire ardri gm-secret");
    let five = ["Ulaid", "Connacht", "Midhe", "Laigin", "Muma"];
    let mut last = String::new();
    for p in five {
        last = w.reply(
            &format!("{p}@example.test"),
            &format!("JOIN eire pw-secret {p}"),
        );
        assert!(last.contains(&format!("asking for {p}")), "{last}");
    }
    // Every power in the game is taken: it starts without the GM's START.
    assert!(last.contains("has started"), "{last}");
    // Who plays: the Vikings are out of this game, not eliminated.
    let who = w.reply("x@example.test", "WHOGAME eire");
    let line = who
        .lines()
        .find(|l| l.trim_start().starts_with("Vikings"))
        .unwrap_or_else(|| panic!("{who}"));
    assert!(line.contains("not in this game"), "{who}");
    assert!(!line.contains("eliminated"), "{who}");
    // A phase later they are still out of it, not eliminated.
    for p in five {
        w.reply(
            &format!("{p}@example.test"),
            &format!("SIGNON {p} eire pw-secret\nREADY"),
        );
    }
    let who = w.reply("x@example.test", "WHOGAME eire");
    let line = who
        .lines()
        .find(|l| l.trim_start().starts_with("Vikings"))
        .unwrap_or_else(|| panic!("{who}"));
    assert!(line.contains("not in this game"), "{who}");
}

#[test]
fn rule_7a_7c_the_vikings_are_in_the_game_while_they_hold_centres_off_the_board() {
    let mut w = World::new();
    w.reply("gm@example.test", "CREATE vik ardri gm-secret WITH Vikings");
    w.reply("v@example.test", "JOIN vik pw-secret Vikings");
    // An Ulaid army, so that the Spring has orders to wait for (a phase
    // with nothing to order goes at once, and the Vikings would land).
    w.reply("u@example.test", "JOIN vik pw-secret Ulaid");
    w.reply("gm@example.test", "SIGNON GM vik gm-secret\nSTART");
    w.reply("u@example.test", "SIGNON Ulaid vik pw-secret\nBuild A Ema");
    let r = w.reply(
        "v@example.test",
        "SIGNON Vikings vik pw-secret\nBuild F NAT",
    );
    assert!(!r.contains("ot accepted"), "{r}");
    w.mail("gm@example.test", "SIGNON GM vik gm-secret\nPROCESS");
    let r = w.reply("v@example.test", "LIST vik");
    assert!(
        flat(&r).contains(
            "Vikings playing centres 0 (+3 off the board), units 0 (+1 waiting to be placed)"
        ),
        "{r}"
    );
}

#[test]
fn rule_7abc_viking_builds_at_sea_arrive_after_the_spring_retreats() {
    let v = variant();
    let vik = power(&v, "Vikings");
    let pos = Position::initial(&v);
    assert_eq!(due(&v, &pos)[vik.index()], 3, "three centres off the board");
    let mut lines: Vec<&str> = BUILDS_379.to_vec();
    lines.extend([
        "Vikings: Build F NAT",
        "Vikings: Build F ERI",
        "Vikings: Build F SOU",
    ]);
    let (r, pos) = step(&v, &pos, &lines);
    let PhaseResult::Adjustment(r) = r else {
        panic!()
    };
    assert_eq!(r.pending.len(), 3);
    assert!(
        pos.units.iter().all(|u| u.power != vik),
        "not yet on the board"
    );
    assert_eq!(due(&v, &pos)[vik.index()], 0, "built all the same");
    // Spring 380: Laigin sails into the Erin Sea.
    let (_, pos) = step(&v, &pos, &["Laigin: F Alm - ERI"]);
    // Fall 380: the fleets are placed, except in the taken Erin Sea.
    assert_eq!(v.calendar.label(pos.phase), "Fall 380 AD movement");
    assert_eq!(at(&v, &pos, "NAT")[0].power, vik);
    assert_eq!(at(&v, &pos, "SOU")[0].power, vik);
    assert_eq!(at(&v, &pos, "ERI")[0].power, power(&v, "Laigin"));
    assert!(pos.state.blocked.iter().any(|u| u.power == vik));
    assert!(pos.state.pending.is_empty());
    // 7g: no raiding for the Vikings.
    let mut spring = pos.clone();
    spring.phase = v.calendar.parse("Spring 381 movement").expect("phase");
    let (r, _) = step(&v, &spring, &["Vikings: F NAT - Raiding"]);
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![Some(Illegal::MayNotRaid)]);
}

#[test]
fn rule_7c_orders_for_viking_fleets_not_yet_placed_say_when_they_arrive() {
    let v = variant();
    let mut lines: Vec<&str> = BUILDS_379.to_vec();
    lines.push("Vikings: Build F NAT");
    let (_, pos) = step(&v, &Position::initial(&v), &lines);
    assert_eq!(v.calendar.label(pos.phase), "Spring 380 AD movement");
    let (r, _) = step(&v, &pos, &["Vikings: F NAT - NCH", "Vikings: F SOU - ERI"]);
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    // The one built waits for the Fall; the other was never built.
    assert_eq!(
        r.orders,
        vec![Some(Illegal::NotYetPlaced), Some(Illegal::NoUnit)]
    );
    assert!(
        Illegal::NotYetPlaced
            .to_string()
            .contains("placed after the Spring retreats, before the Fall moves")
    );
}

#[test]
fn rule_7b_7e_a_viking_build_elsewhere_is_refused_by_the_viking_rule() {
    let v = variant();
    let (r, _) = step(&v, &Position::initial(&v), &["Vikings: Build F MNB"]);
    let PhaseResult::Adjustment(r) = r else {
        panic!()
    };
    assert_eq!(
        r.orders,
        vec![AdjustStatus::Illegal(Illegal::NotReserveOrHeld)]
    );
    // By mail, the reply says where Vikings build.
    let mut w = World::new();
    let r = w.reply("gm@example.test", "CREATE vik ardri gm-secret WITH Vikings");
    assert!(!r.contains("not in this game"), "{r}");
    let r = w.reply("v@example.test", "JOIN vik pw-secret Vikings");
    assert!(r.contains("asking for Vikings"), "{r}");
    w.reply("gm@example.test", "SIGNON GM vik gm-secret\nSTART");
    let r = w.reply(
        "v@example.test",
        "SIGNON Vikings vik pw-secret\nBuild F MNB",
    );
    assert!(
        flat(&r).contains("outermost seas, and in any centre you hold"),
        "{r}"
    );
}

#[test]
fn rule_7d_7e_7f_centres_gained_cost_centres_off_the_board_builds_anywhere_fleets_become_armies() {
    let v = variant();
    let vik = power(&v, "Vikings");
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("Fall 380 movement").expect("phase");
    // A Viking fleet in the North Atlantic takes Cruachu.
    pos.units.push(Unit {
        power: vik,
        kind: UnitKind::Fleet,
        region: v.map.province(prov(&v, "NAT")).main_region(),
    });
    let (_, pos) = step(&v, &pos, &["Vikings: F NAT - Cru"]);
    assert_eq!(pos.phase.kind, PhaseKind::Adjustment);
    assert_eq!(pos.owners[prov(&v, "Cru").index()], Some(vik));
    assert_eq!(pos.state.reserve[vik], 2, "one off-board centre lost");
    // Three centres (one on, two off), one unit: two builds, one of them in
    // Cruachu itself although it is no home centre; and the fleet on land
    // becomes an army.
    assert_eq!(due(&v, &pos)[vik.index()], 2);
    let mut pos2 = pos.clone();
    pos2.units.retain(|u| u.power != vik);
    let (r, _) = step(&v, &pos2, &["Vikings: Build A Cru"]);
    let PhaseResult::Adjustment(r) = r else {
        panic!()
    };
    assert!(
        matches!(r.orders[0], AdjustStatus::Built(_)),
        "{:?}",
        r.orders
    );
    let (r, next) = step(
        &v,
        &pos,
        &["Vikings: F(Cru) becomes A", "Vikings: Build F NAT"],
    );
    let PhaseResult::Adjustment(r) = r else {
        panic!()
    };
    assert!(matches!(r.orders[0], AdjustStatus::Converted(u) if u.kind == UnitKind::Army));
    assert_eq!(at(&v, &next, "Cru")[0].kind, UnitKind::Army);
    // Others may not.
    let mut p3 = pos.clone();
    p3.units.push(Unit {
        power: power(&v, "Ulaid"),
        kind: UnitKind::Fleet,
        region: v.map.province(prov(&v, "Aic")).main_region(),
    });
    let (r, _) = step(&v, &p3, &["Ulaid: Convert F Aic to an army"]);
    let PhaseResult::Adjustment(r) = r else {
        panic!()
    };
    assert_eq!(
        r.orders,
        vec![AdjustStatus::Illegal(Illegal::NotInThisGame)]
    );
}

#[test]
fn rule_5_a_whole_game_to_all_fifteen_centres_by_mail() {
    let v = variant();
    let mut w = World::new();
    let p = conquer(&mut w, &v, "eire", "Midhe", "Midhe", 600);
    let r = p.result.expect("the game ends");
    assert!(r.contains("Midhe") && r.contains("15"), "{r}");
}

/// Rule 1 keeps the standard rules where Ard-Ri does not amend them, and
/// rule 6c makes the Raiding Return a move into one of the outer seas: so,
/// like any move, it may be supported from the board, and a supported
/// return dislodges the fleet standing in that sea rather than bouncing
/// (rule 6d removes only a return that bounces).
#[test]
fn rule_6c_a_raiding_return_can_be_supported_and_dislodges() {
    let mut w = World::new();
    w.reply("gm@example.test", "CREATE eire ardri gm-secret");
    w.reply("connacht@example.test", "JOIN eire pw-secret Connacht");
    w.reply("ulaid@example.test", "JOIN eire pw-secret Ulaid");
    w.reply("gm@example.test", "SIGNON GM eire gm-secret\nSTART");
    let connacht = |w: &mut World, lines: &str| {
        w.reply(
            "connacht@example.test",
            &format!("SIGNON Connacht eire pw-secret\n{lines}"),
        )
    };
    let ulaid = |w: &mut World, lines: &str| {
        w.reply(
            "ulaid@example.test",
            &format!("SIGNON Ulaid eire pw-secret\n{lines}"),
        )
    };
    let process = |w: &mut World| w.mail("gm@example.test", "SIGNON GM eire gm-secret\nPROCESS");
    // Winter 379.
    let r = connacht(&mut w, "Build F Cru\nBuild F Mon\nBuild A Tua");
    assert!(!r.contains("not accepted"), "{r}");
    let r = ulaid(&mut w, "Build F Aic\nBuild A Mag\nBuild A Ema");
    assert!(!r.contains("not accepted"), "{r}");
    process(&mut w);
    // Spring 380: to the North Atlantic and Mona Bay.
    connacht(&mut w, "F Cru - NAT\nF Mon - MNB");
    process(&mut w);
    process(&mut w); // Fall 380
    process(&mut w); // Winter 380: nothing owed
    // Spring 381: Connacht raids from the North Atlantic, Ulaid sails in.
    let r = connacht(&mut w, "F NAT - Raiding");
    assert!(!r.contains("not accepted"), "{r}");
    ulaid(&mut w, "F Aic - NAT");
    process(&mut w);
    // Fall 381: the return, supported from Mona Bay.
    let r = connacht(&mut w, "F Raiding Return - NAT\nF MNB S F Raiding - NAT");
    assert!(!r.contains("not accepted"), "{r}");
    assert!(!r.contains("not on the board"), "{r}");
    let sent = process(&mut w);
    let results = sent
        .iter()
        .find(|m| m.to_has("ulaid@example.test") && m.subject.starts_with("eire: "))
        .unwrap_or_else(|| panic!("no results: {sent:#?}"));
    let body = flat(&results.body);
    assert!(!body.contains("void"), "{}", results.body);
    assert!(body.contains("F(MNB) S F(Raiding)-NAT"), "{}", results.body);
    // Ulaid's fleet is dislodged, and may retreat; the raider is home.
    assert!(body.contains("dislodged"), "{}", results.body);
    assert!(body.contains("Ulaid F(NAT)"), "{}", results.body);
    assert!(!body.contains("destroyed"), "{}", results.body);
}
