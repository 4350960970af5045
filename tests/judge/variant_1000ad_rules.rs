//! 1000 AD's rules played (shared/rules/000_b6ed98f82e325da7.txt): the
//! defensive army of rules 7 and 8 (every row of rule 8's table) on a small
//! test board, and on the real map the Winter 999 placement (rules 5, 6),
//! Lombardy (rule 4), anarchy (rule 13), the end of the game (rules 11,
//! 12) and a whole game by mail.

use crate::support_play;
use support_play::{power, prov, step};

use crate::support_judge;
use support_judge::World;
use support_judge::bot::conquer;

use zinejudge::adjudicate::{AdjustStatus, Illegal};
use zinejudge::game::Position;
use zinejudge::game::end::game_end;
use zinejudge::game::position::Anarchy;
use zinejudge::game::step::{PhaseResult, advance, due};
use zinejudge::map::{PowerId, UnitKind};
use zinejudge::variant::{PhaseKind, Variant, builtin};

fn board(file: &str) -> Variant {
    let src = std::fs::read_to_string(format!(
        "{}/tests/data/maps/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("test board");
    Variant::from_toml(&src).expect("loads")
}

fn thousand() -> Variant {
    builtin("1000ad")
        .expect("1000 AD ships")
        .expect("and loads")
}

/// What is left of the 3D's support under `attacks` (Red's orders, with
/// Red's units standing where they start): found by letting Blue's
/// supported attack on Red's army in Tgt meet 0, 1 and 2 supports.
fn support_left(attacks: &[&str]) -> u32 {
    let v = board("triple.toml");
    let mut red_units: Vec<String> = attacks
        .iter()
        .map(|a| {
            let unit: Vec<&str> = a.split_whitespace().take(2).collect();
            format!("\"{}\"", unit.join(" "))
        })
        .collect();
    red_units.sort();
    red_units.dedup();
    let mut left = 0;
    for k in 0..=2 {
        let mut reds = red_units.clone();
        reds.push("\"A Tgt\"".into());
        let holders = ["T1", "T2"];
        for h in &holders[..k] {
            reds.push(format!("\"A {h}\""));
        }
        let pos = Position::from_toml(
            &v,
            &format!(
                "phase = \"Spring 1000 movement\"\n[units]\nBlue = [\"3D Hom\", \"A Att\"]\nRed = [{}]\n",
                reds.join(", ")
            ),
        )
        .expect("position");
        let mut lines: Vec<String> = vec![
            "Blue: A Att - Tgt".into(),
            "Blue: 3D Hom S A Att - Tgt".into(),
        ];
        lines.extend(attacks.iter().map(|a| format!("Red: {a}")));
        for h in &holders[..k] {
            lines.push(format!("Red: A {h} S A Tgt"));
        }
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let (_, next) = step(&v, &pos, &refs);
        let blue_in_tgt = next
            .units
            .iter()
            .any(|u| u.power.0 == 0 && v.map.province_of(u.region) == prov(&v, "Tgt"));
        if blue_in_tgt {
            left += 1;
        }
        // The 3D is never dislodged by these attacks (it holds with three).
        assert!(
            next.units.iter().any(|u| u.kind == UnitKind::DefensiveArmy),
            "{attacks:?}"
        );
    }
    left
}

#[test]
fn rule_8_an_untouched_defensive_army_supports_with_three() {
    assert_eq!(support_left(&[]), 3);
}

#[test]
fn rule_8_table_one_attack_leaves_2d() {
    assert_eq!(support_left(&["A X1 - Hom"]), 2);
}

#[test]
fn rule_8_table_a_supported_attack_leaves_d() {
    assert_eq!(support_left(&["A X1 - Hom", "A S1 S A X1 - Hom"]), 1);
}

#[test]
fn rule_8_table_two_unsupported_attacks_leave_2d() {
    assert_eq!(support_left(&["A X1 - Hom", "A X2 - Hom"]), 2);
}

#[test]
fn rule_8_table_an_attack_with_two_supports_leaves_nothing() {
    assert_eq!(
        support_left(&["A X1 - Hom", "A S1 S A X1 - Hom", "A S2 S A X1 - Hom"]),
        0
    );
}

#[test]
fn rule_8_table_three_unsupported_attacks_leave_2d() {
    assert_eq!(support_left(&["A X1 - Hom", "A X2 - Hom", "A X3 - Hom"]), 2);
}

#[test]
fn rule_8_table_a_supported_attack_and_another_leave_d() {
    assert_eq!(
        support_left(&["A X1 - Hom", "A S1 S A X1 - Hom", "A X2 - Hom"]),
        1
    );
}

#[test]
fn rule_7_the_defensive_army_keeps_to_its_homeland_and_supports_only_into_it() {
    let v = board("triple.toml");
    let pos = Position::from_toml(
        &v,
        "phase = \"Spring 1000 movement\"\n[units]\nBlue = [\"3D Tgt\", \"A Att\"]\n",
    )
    .expect("position");
    let (r, _) = step(&v, &pos, &["Blue: 3D Tgt - Far"]);
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![Some(Illegal::OutsideHomeland)]);
    let (r, _) = step(&v, &pos, &["Blue: 3D Tgt S A Att - Hom"]);
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![None], "into the homeland");
    let (r, _) = step(&v, &pos, &["Blue: 3D Tgt - Hom"]);
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![None], "within it");
}

#[test]
fn rule_7_a_defensive_army_attacks_and_holds_with_three() {
    let v = board("triple.toml");
    let pos = Position::from_toml(
        &v,
        "phase = \"Spring 1000 movement\"\n[units]\nBlue = [\"3D Hom\"]\nRed = [\"A X1\", \"A S1\", \"A S2\", \"A Tgt\", \"A T1\"]\n",
    )
    .expect("position");
    // Three against three: the 3D stands.
    let (_, next) = step(
        &v,
        &pos,
        &[
            "Red: A X1 - Hom",
            "Red: A S1 S A X1 - Hom",
            "Red: A S2 S A X1 - Hom",
        ],
    );
    assert!(next.dislodged.is_empty());
    // Three against two: the 3D takes Tgt.
    let (_, next) = step(&v, &pos, &["Blue: 3D Hom - Tgt", "Red: A T1 S A Tgt"]);
    assert!(next.units.iter().any(
        |u| u.kind == UnitKind::DefensiveArmy && v.map.province_of(u.region) == prov(&v, "Tgt")
    ));
}

#[test]
fn rule_7_a_defensive_army_costs_two_centres_and_each_power_has_one() {
    let v = board("triple.toml");
    let mut pos = Position::from_toml(
        &v,
        "phase = \"Winter 1000 adjustment\"\n[units]\nBlue = [\"3D Tgt\"]\n[centres]\nBlue = [\"Hom\", \"Att\", \"X1\"]\n",
    )
    .expect("position");
    assert_eq!(due(&v, &pos)[0], 1, "three centres, a 3D worth two");
    let (r, _) = step(&v, &pos, &["Blue: Build 3D Hom"]);
    let PhaseResult::Adjustment(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![AdjustStatus::Illegal(Illegal::NoBuildsDue)]);
    pos.owners[prov(&v, "T1").index()] = Some(PowerId(0));
    let (r, _) = step(&v, &pos, &["Blue: Build 3D Hom"]);
    let PhaseResult::Adjustment(r) = r else {
        panic!()
    };
    assert_eq!(
        r.orders,
        vec![AdjustStatus::Illegal(Illegal::OneDefensiveArmy)]
    );
    pos.units.clear();
    let (r, next) = step(&v, &pos, &["Blue: Build 3D Hom", "Blue: Build A Att"]);
    let PhaseResult::Adjustment(r) = r else {
        panic!()
    };
    assert!(matches!(r.orders[0], AdjustStatus::Built(u) if u.kind == UnitKind::DefensiveArmy));
    assert!(matches!(r.orders[1], AdjustStatus::Built(_)));
    assert_eq!(next.units.len(), 2);
    // Losing two centres costs the whole 3D, never a part of it.
    let mut short = next.clone();
    short.phase = v.calendar.parse("Winter 1001 adjustment").expect("phase");
    short.owners[prov(&v, "X1").index()] = None;
    short.owners[prov(&v, "T1").index()] = None;
    let (r, after) = step(&v, &short, &[]);
    let PhaseResult::Adjustment(r) = r else {
        panic!()
    };
    assert_eq!(r.civil_disorder.len(), 1);
    assert_eq!(after.units.len(), 1);
}

#[test]
fn rules_5_6_winter_999_placement_anywhere_in_the_homeland_some_kept_back() {
    let v = thousand();
    let pos = Position::initial(&v);
    assert_eq!(pos.phase.kind, PhaseKind::Placement);
    let brit = power(&v, "British");
    assert_eq!(due(&v, &pos)[brit.index()], 9);
    // A home centre and (once the homeland is wider than the centres) any
    // of its provinces; never outside it.
    let (r, next) = step(
        &v,
        &pos,
        &[
            "British: Build F Lon",
            "British: Build A Yor",
            "British: Build A Par",
            "British: Build 3D Mer",
        ],
    );
    let PhaseResult::Adjustment(r) = r else {
        panic!()
    };
    assert!(matches!(r.orders[0], AdjustStatus::Built(_)));
    assert!(matches!(r.orders[1], AdjustStatus::Built(_)));
    assert_eq!(r.orders[2], AdjustStatus::Illegal(Illegal::NotInHomeland));
    assert!(matches!(r.orders[3], AdjustStatus::Built(u) if u.kind == UnitKind::DefensiveArmy));
    // Straight on to the Spring 1000 moves; the five kept back are built
    // in a later build season.
    assert_eq!(v.calendar.label(next.phase), "Spring 1000 AD movement");
    let mut winter = next.clone();
    winter.phase = v.calendar.parse("Winter 1000 adjustment").expect("phase");
    assert_eq!(due(&v, &winter)[brit.index()], 5);
}

#[test]
fn rule_4_the_magyars_and_polacks_build_fleets_in_lombardy() {
    let v = thousand();
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("Winter 1001 adjustment").expect("phase");
    let mp = power(&v, "Magyars and Polacks");
    pos.owners[prov(&v, "Lom").index()] = Some(mp);
    let (r, _) = step(&v, &pos, &["Magyars and Polacks: Build F Lom"]);
    let PhaseResult::Adjustment(r) = r else {
        panic!()
    };
    assert!(matches!(r.orders[0], AdjustStatus::Built(u) if u.kind == UnitKind::Fleet));
    // Anyone else holding Lombardy may not build there.
    let franks = power(&v, "Franks");
    pos.owners[prov(&v, "Lom").index()] = Some(franks);
    let (r, _) = step(&v, &pos, &["Franks: Build F Lom"]);
    let PhaseResult::Adjustment(r) = r else {
        panic!()
    };
    assert_eq!(
        r.orders,
        vec![AdjustStatus::Illegal(Illegal::NotABuildSite)]
    );
}

#[test]
fn rule_13_a_power_without_home_centres_has_a_season_to_retake_one_or_falls_into_anarchy() {
    let v = thousand();
    let moors = power(&v, "Moors");
    let franks = power(&v, "Franks");
    // Fall 1001: the Moors hold Gafsa only (not a home of theirs? it is:
    // give every Moorish home to the Franks and Gafsa too, and a neutral
    // to the Moors), with an army next to Toledo.
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("Fall 1001 movement").expect("phase");
    for h in v.map.power(moors).home_centres.clone() {
        pos.owners[h.index()] = Some(franks);
    }
    pos.owners[prov(&v, "Lom").index()] = Some(moors);
    let cas = prov(&v, "Cas");
    pos.units.push(zinejudge::map::Unit {
        power: moors,
        kind: UnitKind::Army,
        region: v.map.province(cas).main_region(),
    });
    // Into the Winter: no home centre, so a season of grace.
    let pos = advance(&v, {
        let mut p = pos.clone();
        p.phase = v.calendar.parse("Fall 1001 retreat").expect("phase");
        p
    });
    assert_eq!(pos.state.anarchy[moors], Anarchy::Grace);
    let mut spring = pos.clone();
    spring.phase = v.calendar.parse("Spring 1002 movement").expect("phase");
    // Retaking Toledo in the Spring saves it.
    let (_, saved) = step(&v, &spring, &["Moors: A Cas - Tol"]);
    assert_eq!(saved.state.anarchy[moors], Anarchy::No);
    assert_eq!(saved.owners[prov(&v, "Tol").index()], Some(moors));
    // Failing to: anarchy, its orders refused from then on.
    let (_, lost) = step(&v, &spring, &["Moors: A Cas H"]);
    assert_eq!(lost.state.anarchy[moors], Anarchy::Yes);
    let (r, _) = step(&v, &lost, &["Moors: A Cas - Tol"]);
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert!(r.units.iter().all(|u| u.order.is_none()), "its units hold");
    // It survives while it holds a centre: not eliminated, still counted.
    assert!(lost.centre_counts(&v.map)[moors.index()] > 0);
}

#[test]
fn rule_12_each_power_wins_with_its_own_number_of_centres() {
    let v = thousand();
    let before = Position::initial(&v);
    let give = |pos: &mut Position, who: PowerId, n: usize| {
        let mut k = pos.owners.iter().filter(|o| **o == Some(who)).count();
        for p in v.map.province_ids() {
            if k >= n {
                break;
            }
            if v.map.province(p).supply_centre && pos.owners[p.index()].is_none() {
                pos.owners[p.index()] = Some(who);
                k += 1;
            }
        }
        while k > n {
            let i = pos
                .owners
                .iter()
                .position(|o| *o == Some(who))
                .expect("one");
            pos.owners[i] = None;
            k -= 1;
        }
    };
    let byz = power(&v, "Byzantines");
    let brit = power(&v, "British");
    let mut pos = before.clone();
    give(&mut pos, byz, 28);
    assert_eq!(
        game_end(&v, &before, &pos),
        None,
        "28 is not enough for Byzantium"
    );
    let mut pos = before.clone();
    give(&mut pos, brit, 25);
    let end = game_end(&v, &before, &pos).expect("over");
    assert!(end.contains("won by British"), "{end}");
}

#[test]
fn rule_12e_when_three_powers_remain_the_largest_wins_and_rule_11_1015_is_a_draw() {
    let v = thousand();
    let before = Position::initial(&v);
    let mut pos = before.clone();
    let keep = ["Byzantines", "Vikings", "Moors"].map(|n| power(&v, n));
    for o in pos.owners.iter_mut() {
        if o.is_some_and(|p| !keep.contains(&p)) {
            *o = Some(keep[0]);
        }
    }
    pos.units.clear();
    let end = game_end(&v, &before, &pos).expect("three left");
    assert!(end.contains("won by Byzantines"), "{end}");
    // Winter 1015 reached with nobody winning: a draw of all survivors.
    let mut last = Position::initial(&v);
    last.phase = v.calendar.parse("Winter 1015 adjustment").expect("phase");
    let end = game_end(&v, &last, &last).expect("the end");
    assert!(end.contains("drawn between all survivors"), "{end}");
}

#[test]
fn a_whole_game_from_the_winter_999_placement_by_mail() {
    let v = thousand();
    let mut w = World::new();
    let p = conquer(&mut w, &v, "millennium", "Franks", "Franks", 400);
    let r = p.result.expect("the game ends");
    eprintln!("1000 AD: {r} after {} phases", p.phases);
    assert!(r.contains("won by Franks"), "{r}");
}

/// A position of 1000 AD in Spring 1000 with the units given.
fn spring(v: &Variant, units: &str) -> Position {
    Position::from_toml(
        v,
        &format!("phase = \"Spring 1000 movement\"\n[units]\n{units}\n"),
    )
    .expect("position")
}

fn where_is(v: &Variant, pos: &Position, power: &str) -> Vec<String> {
    let p = v.map.lookup_power(power).expect("power");
    let mut out: Vec<String> = pos
        .units
        .iter()
        .filter(|u| u.power == p)
        .map(|u| {
            format!(
                "{} {}",
                u.kind.letter(),
                v.map.province(v.map.province_of(u.region)).abbr
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn rule_9_the_fast_ferry_boards_sails_one_sea_and_lands_in_one_move() {
    let v = thousand();
    let pos = spring(&v, "British = [\"A Lon\", \"F ENC\"]");
    let (r, next) = step(
        &v,
        &pos,
        &[
            "British: A(Lon) boards F(ENC)",
            "British: F(ENC) - NTH",
            "British: F(ENC) disembarks A(Fri)",
        ],
    );
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![None, None, None]);
    assert_eq!(where_is(&v, &next, "British"), ["A Fri", "F NTH"]);
}

#[test]
fn rule_14_a_ferried_army_that_cannot_land_stays_where_it_started() {
    let v = thousand();
    let pos = spring(&v, "British = [\"A Lon\", \"F ENC\"]\nFranks = [\"A Fri\"]");
    let (_, next) = step(
        &v,
        &pos,
        &[
            "British: A(Lon) boards F(ENC)",
            "British: F(ENC) - NTH",
            "British: F(ENC) disembarks A(Fri)",
        ],
    );
    assert_eq!(where_is(&v, &next, "British"), ["A Lon", "F NTH"]);
    // Nor if its fleet cannot sail: it never leaves London.
    let pos = spring(
        &v,
        "British = [\"A Lon\", \"F ENC\"]\nVikings = [\"F NTH\"]",
    );
    let (_, next) = step(
        &v,
        &pos,
        &[
            "British: A(Lon) boards F(ENC)",
            "British: F(ENC) - NTH",
            "British: F(ENC) disembarks A(Fri)",
        ],
    );
    assert_eq!(where_is(&v, &next, "British"), ["A Lon", "F ENC"]);
    // The standard convoy still works.
    let pos = spring(&v, "British = [\"A Lon\", \"F ENC\"]");
    let (_, next) = step(
        &v,
        &pos,
        &["British: A(Lon) - Nor", "British: F(ENC) C A(Lon) - Nor"],
    );
    assert_eq!(where_is(&v, &next, "British"), ["A Nor", "F ENC"]);
}

/// A 1000 AD game by mail, `game`, with the British, the Franks and the
/// Moors played (password `pw`), past a Winter 999 placement in which
/// nobody placed anything, and the GM's `edits` (`EDIT ...` lines) made
/// in Spring 1000.
fn by_mail(game: &str, edits: &[&str]) -> World {
    let mut w = World::new();
    let gm = "gm@example.test";
    w.reply(gm, &format!("CREATE {game} 1000ad gm-secret"));
    for p in ["British", "Franks", "Moors"] {
        let r = w.reply(
            &format!("{p}@example.test"),
            &format!("JOIN {game} pw-secret {p}"),
        );
        assert!(r.contains(&format!("asking for {p}")), "{r}");
    }
    w.reply(gm, &format!("SIGNON GM {game} gm-secret\nSTART"));
    // The board is set before the placements are played: with no units
    // the phases after them would have nothing to order and go at once.
    if !edits.is_empty() {
        let r = w.reply(
            gm,
            &format!("SIGNON GM {game} gm-secret\n{}", edits.join("\n")),
        );
        assert!(!r.contains("rror") && !r.contains("unknown"), "{r}");
    }
    w.mail(gm, &format!("SIGNON GM {game} gm-secret\nPROCESS"));
    w
}

/// The GM processes the phase; the results mail `power` gets.
fn process(w: &mut World, game: &str, power: &str) -> String {
    let sent = w.mail(
        "gm@example.test",
        &format!("SIGNON GM {game} gm-secret\nPROCESS"),
    );
    let to = format!("{power}@example.test");
    sent.into_iter()
        .find(|m| m.to_has(&to) && !m.subject.contains("Re:"))
        .map(|m| m.body)
        .unwrap_or_else(|| panic!("no results for {power}"))
}

#[test]
fn rule_14_a_dislodged_army_next_to_its_own_fleet_is_not_offered_the_sea() {
    let v = thousand();
    let pos = spring(
        &v,
        "British = [\"A Lon\", \"F NTH\"]\nFranks = [\"F ENC\", \"F WWa\"]",
    );
    let (_, next) = step(
        &v,
        &pos,
        &["Franks: F ENC - Lon", "Franks: F WWa S F ENC - Lon"],
    );
    assert_eq!(next.dislodged.len(), 1);
    let mut options: Vec<String> = next.dislodged[0]
        .1
        .iter()
        .map(|&r| v.map.region_abbr(r))
        .collect();
    options.sort();
    assert_eq!(options, ["Mal", "Mer"], "never the North Sea: no A/F");
    // The stored position reads back, and the game goes on.
    let again = Position::from_toml(&v, &next.to_toml(&v)).expect("reads back");
    let (_, after) = step(&v, &again, &["British: A Lon - Mer"]);
    assert_eq!(where_is(&v, &after, "British"), ["A Mer", "F NTH"]);
}

#[test]
fn rule_14_by_mail_the_dislodged_army_retreats_overland_and_the_game_goes_on() {
    let mut w = by_mail(
        "r14",
        &[
            "EDIT ADD British A Lon",
            "EDIT ADD British F NTH",
            "EDIT ADD Franks F ENC",
            "EDIT ADD Franks F WWa",
        ],
    );
    let r = w.reply(
        "Franks@example.test",
        "SIGNON Franks r14 pw-secret\nF ENC - Lon\nF WWa S F ENC - Lon",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let results = process(&mut w, "r14", "British");
    let line = results
        .lines()
        .find(|l| l.contains("A(Lon) (attacked from ENC)"))
        .unwrap_or_else(|| panic!("{results}"));
    assert!(
        line.contains("may retreat to") && line.contains("Mal") && line.contains("Mer"),
        "{results}"
    );
    assert!(!line.contains("NTH"), "{results}");
    let r = w.reply(
        "British@example.test",
        "SIGNON British r14 pw-secret\nA Lon - NTH",
    );
    assert!(r.contains("Not accepted"), "{r}");
    let r = w.reply(
        "British@example.test",
        "SIGNON British r14 pw-secret\nA Lon - Mer",
    );
    assert!(!r.contains("ot accepted") && !r.contains("rror"), "{r}");
    // The only retreat ordered, the phase goes at once.
    assert!(r.contains("the phase has been processed"), "{r}");
    // The next mail works: the game was not jammed.
    let r = w.reply(
        "British@example.test",
        "SIGNON British r14 pw-secret\nA Mer - Lon",
    );
    assert!(r.contains("Fall 1000 AD movement"), "{r}");
    assert!(r.contains("A(Mer)-Lon"), "{r}");
}

#[test]
fn rule_7_a_dislodged_defensive_army_retreats_only_within_its_homeland() {
    let v = board("triple.toml");
    let attack = [
        "Red: A X1 - Hom",
        "Red: A S1 S A X1 - Hom",
        "Red: A S2 S A X1 - Hom",
        "Red: A X2 S A X1 - Hom",
    ];
    let red = "Red = [\"A X1\", \"A S1\", \"A S2\", \"A X2\", \"A Tgt\"]";
    let pos = Position::from_toml(
        &v,
        &format!("phase = \"Spring 1000 movement\"\n[units]\nBlue = [\"3D Hom\"]\n{red}\n"),
    )
    .expect("position");
    let (_, next) = step(&v, &pos, &attack);
    assert_eq!(next.dislodged.len(), 1);
    let options: Vec<String> = next.dislodged[0]
        .1
        .iter()
        .map(|&r| v.map.region_abbr(r))
        .collect();
    // X3 is empty and next to Hom, but outside Blue's homeland.
    assert_eq!(options, ["Att"]);
    let (r, _) = step(&v, &next, &["Blue: 3D Hom - X3"]);
    let PhaseResult::Retreat(r) = r else { panic!() };
    assert_eq!(r.orders, vec![Some(Illegal::NoRetreatThere)]);
    // With its homeland full, it has no retreat: destroyed.
    let pos = Position::from_toml(
        &v,
        &format!(
            "phase = \"Spring 1000 movement\"\n[units]\nBlue = [\"3D Hom\", \"A Att\"]\n{red}\n"
        ),
    )
    .expect("position");
    let (_, next) = step(&v, &pos, &attack);
    assert!(next.dislodged[0].1.is_empty());
    let (_, after) = step(&v, &next, &[]);
    assert!(
        after
            .units
            .iter()
            .all(|u| u.kind != UnitKind::DefensiveArmy),
        "destroyed"
    );
}

#[test]
fn rule_7_a_defensive_army_may_be_convoyed_within_its_homeland_only() {
    let v = thousand();
    let pos = spring(&v, "Byzantines = [\"3D Cre\", \"F AEG\", \"F EMS\"]");
    // Crete to Othris, both Byzantine: by the regular convoy (rules 1, 9).
    let (r, next) = step(
        &v,
        &pos,
        &[
            "Byzantines: 3D Cre - Oth",
            "Byzantines: F AEG C 3D Cre - Oth",
        ],
    );
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders, vec![None, None]);
    assert!(where_is(&v, &next, "Byzantines").contains(&"3D Oth".to_string()));
    // Crete to Gafsa, a Moorish centre: out of its homeland, even by sea.
    let (r, next) = step(
        &v,
        &pos,
        &[
            "Byzantines: 3D Cre - Gaf",
            "Byzantines: F EMS C 3D Cre - Gaf",
        ],
    );
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders[0], Some(Illegal::OutsideHomeland));
    assert!(where_is(&v, &next, "Byzantines").contains(&"3D Cre".to_string()));
    // The fast ferry is for armies: the refusal says to use the convoy.
    let (r, _) = step(
        &v,
        &pos,
        &[
            "Byzantines: 3D(Cre) boards F(AEG)",
            "Byzantines: F(AEG) disembarks A(Oth)",
        ],
    );
    let PhaseResult::Movement(r) = r else {
        panic!()
    };
    assert_eq!(r.orders[0], Some(Illegal::FerryArmiesOnly));
}

#[test]
fn rule_8_the_results_show_what_is_left_of_a_defensive_armys_support() {
    use zinejudge::testing::report::{PhaseReport, render};
    let v = board("triple.toml");
    let pos = Position::from_toml(
        &v,
        "phase = \"Spring 1000 movement\"\n[units]\nBlue = [\"3D Hom\", \"A Att\"]\nRed = [\"A X1\", \"A Tgt\"]\n",
    )
    .expect("position");
    let lines = [
        "Blue: A Att - Tgt",
        "Blue: 3D Hom S A Att - Tgt",
        "Red: A X1 - Hom",
    ];
    let o = support_play::orders(&v, PhaseKind::Movement, &lines);
    let (result, next) = zinejudge::game::step::play(&v, &pos, &o);
    let PhaseResult::Movement(m) = &result else {
        panic!()
    };
    assert_eq!(m.units[0].support_left(), Some(2), "rule 8: u leaves 2D");
    let text = render(&PhaseReport {
        variant: &v,
        game: "t",
        before: &pos,
        orders: &o,
        result: &result,
        after: &next,
        next_deadline: None,
        ended: None,
        nmr: vec![],
    });
    let line = text
        .lines()
        .find(|l| l.contains("3D(Hom) S A(Att)-Tgt"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("support worn down to 2 of 3"), "{text}");
    // Untouched, it is worth three.
    let (result, next) = zinejudge::game::step::play(
        &v,
        &pos,
        &support_play::orders(&v, PhaseKind::Movement, &lines[..2]),
    );
    let o2 = support_play::orders(&v, PhaseKind::Movement, &lines[..2]);
    let text = render(&PhaseReport {
        variant: &v,
        game: "t",
        before: &pos,
        orders: &o2,
        result: &result,
        after: &next,
        next_deadline: None,
        ended: None,
        nmr: vec![],
    });
    assert!(text.contains("support worth 3"), "{text}");
}

#[test]
fn rules_6_7_by_mail_a_defensive_army_costs_two_of_the_builds_due() {
    let mut w = World::new();
    let gm = "gm@example.test";
    w.reply(gm, "CREATE r7b 1000ad gm-secret");
    w.reply("British@example.test", "JOIN r7b pw-secret British");
    w.reply(gm, "SIGNON GM r7b gm-secret\nSTART");
    // Nine due: a 3D (two) and seven units use them all; an eighth unit
    // is one too many. (SET WAIT: complete orders would play the phase.)
    let r = w.reply(
        "British@example.test",
        "SIGNON British r7b pw-secret\nSET WAIT\nBuild 3D Mer\nBuild A Yor\nBuild A Abe\nBuild A Dum\n\
         Build F Mth\nBuild F Wal\nBuild F Mal\nBuild F WWa\nBuild F Lon",
    );
    assert!(r.contains("no (more) builds are due"), "{r}");
    assert!(r.contains("Your orders are complete"), "{r}");
    assert!(!r.contains("Still missing"), "{r}");
    // Without the last two, one build is kept back (rule 6), not two.
    // (Builds merge site by site across mails, so the held ones are
    // withdrawn first.)
    let r = w.reply(
        "British@example.test",
        "SIGNON British r7b pw-secret\nCLEAR\nBuild 3D Mer\nBuild A Yor\nBuild A Abe\nBuild A Dum\n\
         Build F Mth\nBuild F Wal\nBuild F Mal",
    );
    assert!(
        r.contains("(1 build kept back for a later build season)"),
        "{r}"
    );
    // And the judge builds what the reply promised; the chart counts the
    // 3D as the two units its centres keep.
    let results = process(&mut w, "r7b", "British");
    assert!(results.contains("1 build not used"), "{results}");
    assert!(results.contains("units 8"), "{results}");
    // LIST counts the units as the chart does: the 3D as two.
    let list = flat(&w.reply("someone@example.test", "LIST r7b"));
    assert!(
        list.contains("British") && list.contains("units 8"),
        "LIST agrees with the chart: {list}"
    );
}

/// `text` with its lines joined and its spaces single, so that a check of
/// a sentence does not depend on where the results wrapped it.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn rule_13_the_results_announce_the_grace_and_the_fall_into_anarchy() {
    use zinejudge::testing::report::{PhaseReport, render};
    let v = thousand();
    let moors = power(&v, "Moors");
    let franks = power(&v, "Franks");
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("Fall 1001 movement").expect("phase");
    for h in v.map.power(moors).home_centres.clone() {
        pos.owners[h.index()] = Some(franks);
    }
    pos.owners[prov(&v, "Lom").index()] = Some(moors);
    pos.units.push(zinejudge::map::Unit {
        power: moors,
        kind: UnitKind::Army,
        region: v.map.province(prov(&v, "Cas")).main_region(),
    });
    let show = |before: &Position, lines: &[&str]| {
        let o = support_play::orders(&v, before.phase.kind, lines);
        let (result, after) = zinejudge::game::step::play(&v, before, &o);
        let text = render(&PhaseReport {
            variant: &v,
            game: "t",
            before,
            orders: &o,
            result: &result,
            after: &after,
            next_deadline: None,
            ended: None,
            nmr: vec![],
        });
        (text, after)
    };
    let (text, winter) = show(&pos, &[]);
    assert!(
        flat(&text).contains(
            "Moors: every home centre lost; the Spring 1002 AD movement is its season of grace"
        ),
        "{text}"
    );
    let mut spring = winter.clone();
    spring.phase = v.calendar.parse("Spring 1002 movement").expect("phase");
    let (text, _) = show(&spring, &["Moors: A Cas H"]);
    assert!(
        flat(&text).contains(
            "Moors: no home centre retaken in its season of grace, so in anarchy from now on"
        ),
        "{text}"
    );
    let (text, _) = show(&spring, &["Moors: A Cas - Tol"]);
    assert!(
        flat(&text).contains("Moors: a home centre retaken in its season of grace; no anarchy"),
        "{text}"
    );
}

#[test]
fn rule_13_by_mail_grace_and_anarchy_are_announced_and_an_anarchic_power_owes_nothing() {
    let mut edits: Vec<String> = [
        "And", "Alg", "Bon", "Gaf", "Lis", "Mor", "Ora", "Tol", "Val",
    ]
    .iter()
    .map(|c| format!("EDIT OWNER {c} Franks"))
    .collect();
    edits.push("EDIT OWNER Lom Moors".into());
    edits.push("EDIT ADD Moors A Cas".into());
    let refs: Vec<&str> = edits.iter().map(String::as_str).collect();
    let mut w = by_mail("r13", &refs);
    process(&mut w, "r13", "Moors");
    let results = process(&mut w, "r13", "Moors");
    assert!(
        flat(&results).contains(
            "Moors: every home centre lost; the Spring 1001 AD movement is its season of grace"
        ),
        "{results}"
    );
    // Past the Winter, the grace season: the Moors hold in Castile.
    process(&mut w, "r13", "Moors");
    let (r, results) = orders_then_results(&mut w, "r13", "Moors", "A Cas H");
    assert!(r.contains("Spring 1001 AD movement"), "{r}");
    assert!(
        flat(&results).contains("Moors: no home centre retaken"),
        "{results}"
    );
    // In anarchy: its orders refused, nothing "missing", and it is told why.
    let r = w.reply(
        "Moors@example.test",
        "SIGNON Moors r13 pw-secret\nA Cas - Tol",
    );
    assert!(r.contains("in anarchy"), "{r}");
    assert!(!r.contains("Still missing"), "{r}");
}

/// `power`'s mail `body` in `game`; its reply, and the results `power`
/// reads of the phase: at once when the mail completes every order the
/// phase waits for (it goes early), else after the GM's PROCESS.
fn orders_then_results(w: &mut World, game: &str, power: &str, body: &str) -> (String, String) {
    let to = format!("{power}@example.test");
    let sent = w.mail(&to, &format!("SIGNON {power} {game} pw-secret\n{body}"));
    let reply = sent
        .iter()
        .find(|m| m.in_reply_to.is_some())
        .map(|m| m.body.clone())
        .unwrap_or_else(|| panic!("no reply: {sent:#?}"));
    let results = match sent
        .into_iter()
        .find(|m| m.to_has(&to) && m.in_reply_to.is_none())
    {
        Some(m) => m.body,
        None => process(w, game, power),
    };
    (reply, results)
}

#[test]
fn rule_9_by_mail_the_fast_ferry_boards_sails_and_lands() {
    let mut w = by_mail("r9", &["EDIT ADD British A Lon", "EDIT ADD British F ENC"]);
    let (r, results) = orders_then_results(
        &mut w,
        "r9",
        "British",
        "A(Lon) boards F(ENC)\nF(ENC) - NTH\nF(ENC) disembarks A(Fri)",
    );
    assert!(!r.contains("ot accepted"), "{r}");
    assert!(results.contains("landed"), "{results}");
    let row = zinejudge::testing::store::games::load(w.processor.store.conn(), "r9")
        .expect("store")
        .expect("game");
    let v = thousand();
    let pos = Position::from_toml(&v, &row.position).expect("position");
    assert_eq!(
        where_is(&v, &pos, "British"),
        ["A Fri", "F NTH"],
        "{results}"
    );
}

/// The fast ferry as the Abstraction rule text writes a landing, with no
/// unit of its own: `A disembarks Fri` after the boarded fleet's order is
/// that fleet's army landing.
#[test]
fn rule_9_by_mail_a_disembarks_as_the_rule_text_writes_it() {
    let mut w = by_mail("r9c", &["EDIT ADD British A Lon", "EDIT ADD British F ENC"]);
    // The British orders complete, the only ones the phase waits for: it
    // goes at once.
    let (r, results) = orders_then_results(
        &mut w,
        "r9c",
        "British",
        "A(Lon) boards F(ENC), F(ENC)-NTH, A disembarks Fri",
    );
    assert!(!r.contains("ot accepted") && !r.contains("not read"), "{r}");
    assert!(r.contains("F(ENC) disembarks A(Fri)"), "{r}");
    assert!(results.contains("landed"), "{results}");
    let row = zinejudge::testing::store::games::load(w.processor.store.conn(), "r9c")
        .expect("store")
        .expect("game");
    let v = thousand();
    let pos = Position::from_toml(&v, &row.position).expect("position");
    assert_eq!(
        where_is(&v, &pos, "British"),
        ["A Fri", "F NTH"],
        "{results}"
    );
}

#[test]
fn rule_9_by_mail_the_fast_ferry_ordered_over_several_mails_in_long_words() {
    let mut w = by_mail("r9b", &["EDIT ADD British A Lon", "EDIT ADD British F ENC"]);
    let mut say = |body: &str| {
        let r = w.reply(
            "British@example.test",
            &format!("SIGNON British r9b pw-secret\n{body}"),
        );
        assert!(!r.contains("not accepted") && !r.contains("dropped"), "{r}");
        r
    };
    // SET WAIT: the phase waits for the orders to come, although those
    // of the first two mails are complete.
    say("SET WAIT\nArmy London boards Fleet English Channel");
    say("Fleet English Channel -> North Sea");
    let r = say("Fleet English Channel disembarks Army Frisia");
    // All three held, none replacing another.
    assert!(r.contains("A(Lon) boards F(ENC)"), "{r}");
    assert!(r.contains("F(ENC)-NTH"), "{r}");
    assert!(r.contains("F(ENC) disembarks A(Fri)"), "{r}");
    assert!(r.contains("Your orders are complete"), "{r}");
    let results = process(&mut w, "r9b", "British");
    assert!(results.contains("landed"), "{results}");
    let row = zinejudge::testing::store::games::load(w.processor.store.conn(), "r9b")
        .expect("store")
        .expect("game");
    let v = thousand();
    let pos = Position::from_toml(&v, &row.position).expect("position");
    assert_eq!(
        where_is(&v, &pos, "British"),
        ["A Fri", "F NTH"],
        "{results}"
    );
}

#[test]
fn rule_7_a_defensive_army_is_never_broken_down_into_d_or_2d() {
    let v = thousand();
    let parser = zinejudge::orders::parse::OrderParser::with_syntax(&v.map, v.syntax.clone());
    for line in ["Build 2D Mer", "Build 1D Mer"] {
        let e = parser
            .parse(line, Some(PhaseKind::Placement))
            .expect_err("refused");
        assert!(
            e.to_string()
                .contains("defensive armies of less than three (D, 2D; rule 7)"),
            "{line}: {e}"
        );
    }
    assert!(
        parser
            .parse("Build 3D Mer", Some(PhaseKind::Placement))
            .is_ok()
    );
}

/// Rule 6: "A player does not have to place all his units on the board in
/// the W 999 placements if he wants to keep some back for another build
/// season." Keeping some back is a choice, not something missing; and by
/// rule 7 ("Two supply centres will support a triple army") the chart
/// counts the 3D as the two units that the builds count.
#[test]
fn rule_6_by_mail_units_kept_back_are_not_missing_and_rule_7_a_3d_counts_two_in_the_chart() {
    let mut w = World::new();
    let gm = "gm@example.test";
    w.reply(gm, "CREATE r6 1000ad gm-secret");
    w.reply("British@example.test", "JOIN r6 pw-secret British");
    w.reply(gm, "SIGNON GM r6 gm-secret\nSTART");
    let r = w.reply(
        "British@example.test",
        "SIGNON British r6 pw-secret\nSET WAIT\nBuild 3D Mer\nBuild A Yor\nBuild F Lon\nBuild A Abe",
    );
    assert!(!r.contains("Still missing"), "{r}");
    assert!(
        r.contains("(4 builds kept back for a later build season)"),
        "{r}"
    );
    assert!(r.contains("Your orders are complete"), "{r}");
    let results = process(&mut w, "r6", "British");
    let row = results
        .lines()
        .find(|l| l.trim_start().starts_with("British") && l.contains("units"))
        .unwrap_or_else(|| panic!("{results}"));
    // A 3D (two) and three units, from nine centres: four builds kept.
    assert!(row.contains("9, units 5"), "{row}");
}

/// Rule 13: "the power is said to still survive until all sc's are lost".
/// A power that loses its last centre, home or not, is out: it has no
/// season of grace, and the results announce none; its units go at the
/// Winter adjustment.
#[test]
fn rule_13_by_mail_a_power_holding_no_centre_has_no_season_of_grace() {
    // The Moors hold Lombardy only, and the Franks take it in Spring 1000.
    let mut edits: Vec<String> = [
        "And", "Alg", "Bon", "Gaf", "Lis", "Mor", "Ora", "Tol", "Val",
    ]
    .iter()
    .map(|c| format!("EDIT OWNER {c} Franks"))
    .collect();
    edits.push("EDIT OWNER Lom Moors".into());
    edits.push("EDIT ADD Moors A Cas".into());
    edits.push("EDIT ADD Franks A Rho".into());
    let refs: Vec<&str> = edits.iter().map(String::as_str).collect();
    let mut w = by_mail("r13n", &refs);
    let r = w.reply(
        "Franks@example.test",
        "SIGNON Franks r13n pw-secret\nA Rho - Lom",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let spring = process(&mut w, "r13n", "Moors");
    assert!(flat(&spring).contains("A(Rho)-Lom"), "{spring}");
    let fall = process(&mut w, "r13n", "Moors");
    assert!(fall.contains("Fall 1000"), "{fall}");
    assert!(!flat(&fall).contains("season of grace"), "{fall}");
    // The Winter adjustment takes the unit it has no centre for.
    let winter = process(&mut w, "r13n", "Moors");
    assert!(flat(&winter).contains("Moors: removes A(Cas)"), "{winter}");
    assert!(!flat(&winter).contains("season of grace"), "{winter}");
}

/// Spring 1002: the Moors in anarchy (rule 13), their army in Castile, the
/// Franks' in Paris; Toledo is the Franks'.
fn in_anarchy(v: &Variant, phase: &str) -> Position {
    Position::from_toml(
        v,
        &format!(
            "phase = \"{phase}\"\n[units]\nMoors = [\"A Cas\", \"A Leo\"]\nFranks = [\"A Par\"]\n\
             [centres]\nMoors = [\"Lom\"]\nFranks = [\"Tol\", \"Par\", \"Bri\"]\n\
             [state.anarchy]\nMoors = \"anarchy\"\n"
        ),
    )
    .expect("position")
}

/// Rule 13: a power in anarchy gives no orders. Orders of its that reach
/// the judge all the same (an orders file, orders kept from before) are
/// void, each with its own verdict: the results, for every reader, and
/// the pictures say so of the Moors' orders and give the Franks' orders
/// their own outcomes. Judged with the Franks' orders alone, the result
/// was read beside every order given, and the results panicked ("index
/// out of bounds").
#[test]
fn rule_13_orders_of_a_power_in_anarchy_are_void_in_the_results_and_the_pictures() {
    use zinejudge::testing::report::picture::Picture;
    use zinejudge::testing::report::{PhaseReport, data_for, render};
    use zinejudge::variant::features::Viewer;
    let v = thousand();
    let moors = power(&v, "Moors");
    let franks = power(&v, "Franks");
    let cases: [(&str, &[&str]); 3] = [
        ("Spring 1002 movement", &["Moors: A Cas - Tol"]),
        (
            "Spring 1002 movement",
            &[
                "Moors: A Cas - Tol",
                "Franks: A Par - Nan",
                "Moors: A Leo S A Cas - Tol",
            ],
        ),
        (
            "Winter 1002 adjustment",
            &["Moors: Remove A Leo", "Franks: Build A Bri"],
        ),
    ];
    for (phase, lines) in cases {
        let before = in_anarchy(&v, phase);
        let o = support_play::orders(&v, before.phase.kind, lines);
        let (result, after) = zinejudge::game::step::play(&v, &before, &o);
        let r = PhaseReport {
            variant: &v,
            game: "t",
            before: &before,
            orders: &o,
            result: &result,
            after: &after,
            next_deadline: None,
            ended: None,
            nmr: vec![],
        };
        let text = flat(&render(&r));
        for viewer in [
            Viewer::Gm,
            Viewer::Public,
            Viewer::Power(moors),
            Viewer::Power(franks),
        ] {
            let d = data_for(&r, "zinejudge", viewer);
            assert!(!d.powers.is_empty() || !d.adjustments.is_empty(), "{phase}");
        }
        let svg = Picture::new(&v).phase_svg(&r, "anarchy", Viewer::Public);
        assert!(svg.contains("</svg>"), "{phase}");
        match before.phase.kind {
            PhaseKind::Movement => {
                assert!(
                    text.contains("A(Cas)-Tol void: its power gives no orders now"),
                    "{text}"
                );
                // Its units hold where they stood.
                assert!(where_is(&v, &after, "Moors").contains(&"A Cas".to_string()));
                if lines.len() > 1 {
                    assert!(text.contains("Franks: A(Par)-Nan Moors:"), "{text}");
                    assert!(
                        text.contains("A(Leo) S A(Cas)-Tol void: its power gives no orders"),
                        "{text}"
                    );
                    assert_eq!(where_is(&v, &after, "Franks"), ["A Nan"]);
                }
            }
            _ => {
                assert!(
                    text.contains("A(Leo) void: its power gives no orders now"),
                    "{text}"
                );
                assert!(text.contains("Franks: builds A(Bri)"), "{text}");
                // The judge removes what must go (one of two units).
                assert_eq!(where_is(&v, &after, "Moors").len(), 1, "{text}");
            }
        }
    }
}

/// Rule 13 by mail: orders kept in the store for a power in anarchy (kept
/// from before the judge refused them, or written there by hand) neither
/// stop the GM's PREVIEW nor the results and their pictures: the Moors'
/// order is void in both, the Franks' order is carried out. The results
/// panicked, and the game never moved on.
#[test]
fn rule_13_by_mail_orders_kept_for_a_power_in_anarchy_neither_stop_the_preview_nor_the_results() {
    use zinejudge::testing::store::games;
    let game = "r13k";
    let mut w = by_mail(game, &["EDIT ADD Moors A Cas", "EDIT ADD Franks A Par"]);
    let v = thousand();
    let conn = w.processor.store.conn();
    let mut row = games::load(conn, game).expect("store").expect("game");
    let pos = in_anarchy(&v, "Spring 1002 movement");
    row.position = pos.stored(&v).expect("stores");
    games::save(conn, &row).expect("save");
    let moors = power(&v, "Moors");
    games::set_orders(conn, game, moors.0, &["M|A Cas - Tol".into()]).expect("orders");
    let preview = w.reply(
        "gm@example.test",
        &format!("SIGNON GM {game} gm-secret\nPREVIEW"),
    );
    assert!(
        flat(&preview).contains("A(Cas)-Tol void: its power gives no orders now"),
        "{preview}"
    );
    // The Franks' orders are the last the phase waits for: it goes.
    let sent = w.mail(
        "Franks@example.test",
        &format!("SIGNON Franks {game} pw-secret\nA Par - Nan"),
    );
    let results = sent
        .iter()
        .find(|m| m.to_has("Franks@example.test") && m.subject.contains("Spring 1002"))
        .unwrap_or_else(|| panic!("no results: {sent:#?}"));
    let text = flat(&results.body);
    assert!(text.contains("Franks: A(Par)-Nan"), "{text}");
    assert!(
        text.contains("A(Cas)-Tol void: its power gives no orders now"),
        "{text}"
    );
    let row = games::load(w.processor.store.conn(), game)
        .expect("store")
        .expect("game");
    let after = Position::from_toml(&v, &row.position).expect("position");
    assert_eq!(where_is(&v, &after, "Franks"), ["A Nan"]);
    assert!(where_is(&v, &after, "Moors").contains(&"A Cas".to_string()));
    // The pictures are drawn as the mail goes, from the phase played again.
    assert!(
        results.attachments.iter().any(|(n, _)| n.ends_with(".svg")),
        "{:?}",
        results.attachments
    );
}

/// The results, the reports for every reader and the pictures read a
/// result beside its orders with `get`, never by index: a result judged
/// from fewer orders than it is shown with (as rule 13's silenced orders
/// once were) leaves the orders it has no verdict for out, and panics
/// nowhere.
#[test]
fn rule_13_results_shown_with_more_orders_than_were_judged_do_not_panic() {
    use zinejudge::game::step::PhaseOrders;
    use zinejudge::testing::report::picture::Picture;
    use zinejudge::testing::report::{PhaseReport, data_for, render};
    use zinejudge::variant::features::Viewer;
    let v = thousand();
    for (phase, lines) in [
        (
            "Spring 1002 movement",
            ["Franks: A Par - Nan", "Moors: A Cas - Tol"],
        ),
        (
            "Winter 1002 adjustment",
            ["Franks: Build A Bri", "Moors: Remove A Leo"],
        ),
    ] {
        let before = in_anarchy(&v, phase);
        let shown = support_play::orders(&v, before.phase.kind, &lines);
        // Judged with no orders at all.
        let judged = match before.phase.kind {
            PhaseKind::Movement => PhaseOrders::Movement(Vec::new()),
            _ => PhaseOrders::Adjustment(Vec::new()),
        };
        let (result, after) = zinejudge::game::step::play(&v, &before, &judged);
        let r = PhaseReport {
            variant: &v,
            game: "t",
            before: &before,
            orders: &shown,
            result: &result,
            after: &after,
            next_deadline: None,
            ended: None,
            nmr: vec![],
        };
        assert!(render(&r).contains("Supply centres"), "{phase}");
        for viewer in [
            Viewer::Gm,
            Viewer::Public,
            Viewer::Power(power(&v, "Moors")),
        ] {
            data_for(&r, "zinejudge", viewer);
        }
        assert!(
            Picture::new(&v)
                .phase_svg(&r, "t", Viewer::Public)
                .contains("</svg>")
        );
    }
}

/// Rules 4 and 7: Lombardy is "a special build centre for the M & P's.
/// This means that they are able to build fleets", not a part of their
/// homeland, and a defensive army "is restricted to the homeland". `Build
/// 3D Lom` was accepted, and the 3D stranded there: refused the next spring
/// any move (`3D Lom - Rom`). It is refused; fleets and armies are still
/// built there, and the 3D in the homeland.
#[test]
fn rules_4_7_a_defensive_army_is_not_built_in_lombardy_outside_the_homeland() {
    let v = thousand();
    let mut pos = Position::initial(&v);
    pos.phase = v.calendar.parse("Winter 1001 adjustment").expect("phase");
    let mp = power(&v, "Magyars and Polacks");
    pos.owners[prov(&v, "Lom").index()] = Some(mp);
    let (r, _) = step(&v, &pos, &["Magyars and Polacks: Build 3D Lom"]);
    let PhaseResult::Adjustment(r) = r else {
        panic!()
    };
    assert_eq!(
        r.orders,
        vec![AdjustStatus::Illegal(Illegal::OutsideHomeland)]
    );
    let (r, next) = step(
        &v,
        &pos,
        &[
            "Magyars and Polacks: Build A Lom",
            "Magyars and Polacks: Build 3D Vie",
        ],
    );
    let PhaseResult::Adjustment(r) = r else {
        panic!()
    };
    assert!(matches!(r.orders[0], AdjustStatus::Built(u) if u.kind == UnitKind::Army));
    assert!(matches!(r.orders[1], AdjustStatus::Built(u) if u.kind == UnitKind::DefensiveArmy));
    assert_eq!(
        where_is(&v, &next, "Magyars and Polacks"),
        ["3D Vie", "A Lom"]
    );
}

/// Rules 4 and 7 by mail: the order reply refuses `Build 3D Lom` with its
/// reason, and the results build nothing there.
#[test]
fn rules_4_7_by_mail_a_defensive_army_built_in_lombardy_is_refused_with_its_reason() {
    let mut w = World::new();
    let gm = "gm@example.test";
    w.reply(gm, "CREATE r4d 1000ad gm-secret");
    w.reply("mp@example.test", "JOIN r4d pw-secret Magyars and Polacks");
    w.reply(gm, "SIGNON GM r4d gm-secret\nSTART");
    let r = w.reply(
        gm,
        "SIGNON GM r4d gm-secret\nEDIT OWNER Lom Magyars and Polacks",
    );
    assert!(!r.contains("rror"), "{r}");
    // Nothing placed in Winter 999 (rule 6: kept back); with no unit on
    // the board the moves go at once, to the Winter 1000 builds.
    w.mail(gm, "SIGNON GM r4d gm-secret\nPROCESS");
    let r = flat(&w.reply(
        "mp@example.test",
        "SIGNON Magyars and Polacks r4d pw-secret\nSET WAIT\nBuild 3D Lom",
    ));
    assert!(r.contains("Winter 1000 AD adjustment"), "{r}");
    assert!(
        r.contains("a defensive army is restricted to its homeland"),
        "{r}"
    );
    // A fleet is built there, and the 3D in the homeland.
    let r = flat(&w.reply(
        "mp@example.test",
        "SIGNON Magyars and Polacks r4d pw-secret\nBuild F Lom\nBuild 3D Vie",
    ));
    assert!(!r.contains("Not accepted"), "{r}");
}
