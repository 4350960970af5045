//! 1700 AD II played rule by rule (shared/rules/004_*): two impulses a
//! unit, three for a leader, double strength, the GM's retreats, fleets
//! and stacks, friendly coasts and permissions, supply lines, armed
//! neutrals, Switzerland, the end; offline and by mail, on the
//! reconstructed map.

use crate::support_play;
use support_play::{file, power, prov};

use zinejudge::adjudicate::Illegal;
use zinejudge::game::Position;
use zinejudge::map::UnitKind;
use zinejudge::orders::parse::OrderParser;
use zinejudge::orders::{AnyCommand, MainOrder, Order};
use zinejudge::testing::rules::impulses::judge::{Turn, TurnInput, adjudicate_turn, gm_retreat};
use zinejudge::variant::{PhaseKind, Variant};

fn variant() -> Variant {
    file("games/1700ad.toml")
}

fn board(v: &Variant, units: &str) -> Position {
    let mut pos = Position::from_toml(
        v,
        &format!("phase = \"Year 1700 movement\"\n[units]\n{units}\n"),
    )
    .expect("position");
    pos.owners = Position::initial(v).owners;
    pos
}

/// Play a year's moves (and retreat orders) written `Power: order`.
fn turn(v: &Variant, pos: &Position, lines: &[&str]) -> Turn {
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let (mut main, mut retreats) = (Vec::new(), Vec::new());
    for l in lines {
        let (pw, text) = l.split_once(':').expect("power: order");
        let p = power(v, pw.trim());
        let retreat = text.trim().starts_with("Retreat");
        let kind = if retreat {
            PhaseKind::Retreat
        } else {
            PhaseKind::Movement
        };
        let text = text.trim().trim_start_matches("Retreat").trim();
        match parser
            .parse(text, Some(kind))
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .command
        {
            AnyCommand::Main(unit, command) => main.push(MainOrder {
                power: p,
                unit,
                command,
            }),
            AnyCommand::Retreat(unit, command) => retreats.push(Order {
                power: p,
                unit,
                command,
            }),
            AnyCommand::Adjust(_) => panic!("{text}"),
        }
    }
    adjudicate_turn(
        &v.map,
        &v.rules,
        &zinejudge::variant::features::Ruled {
            features: &v.features,
            state: &pos.state,
            phase: pos.phase,
            owners: &pos.owners,
        },
        Some(pos.phase),
        TurnInput {
            units: &pos.units,
            orders: &main,
            retreats: &retreats,
            owners: &pos.owners,
            garrisons: &v.features.garrisons,
            friendly: &friendly(v, pos),
            permits: &[],
        },
    )
}

/// Provinces friendly to each power: its own centres, and where its land
/// units stand.
fn friendly(v: &Variant, pos: &Position) -> Vec<Option<zinejudge::map::PowerId>> {
    let mut f = pos.owners.clone();
    for u in pos.units.iter().filter(|u| u.kind != UnitKind::Fleet) {
        f[v.map.province_of(u.region).index()] = Some(u.power);
    }
    f
}

/// A board whose units may share provinces (fleets beside armies, stacks).
fn shared(v: &Variant, units: &[(&str, &str)]) -> Position {
    let mut pos = Position::initial(v);
    pos.units = units
        .iter()
        .map(|(p, u)| {
            let (kind, region) = zinejudge::game::position::parse_unit(&v.map, u).expect("a unit");
            zinejudge::map::Unit {
                power: power(v, p),
                kind,
                region,
            }
        })
        .collect();
    pos
}

fn at(v: &Variant, t: &Turn, name: &str) -> Option<(String, UnitKind)> {
    let p = prov(v, name);
    t.units_after
        .iter()
        .find(|u| v.map.province_of(u.region) == p)
        .map(|u| (v.map.power(u.power).name.clone(), u.kind))
}

#[test]
fn rule_4_a_unit_moves_two_areas_in_a_turn() {
    let v = variant();
    let pos = board(&v, "Russians = [\"A Mos\"]");
    let t = turn(&v, &pos, &["Russians: A(Mos)-Smo-WRu"]);
    assert_eq!(t.orders, vec![None]);
    assert_eq!(t.rounds.len(), 2);
    assert_eq!(at(&v, &t, "WRu"), Some(("Russia".into(), UnitKind::Army)));
    // Hold, then move; move, then support.
    let t = turn(&v, &pos, &["Russians: A(Mos)-hold-Smo"]);
    assert!(at(&v, &t, "Smo").is_some());
}

#[test]
fn rule_4_a_second_impulse_that_no_longer_makes_sense_stands() {
    let v = variant();
    let pos = board(&v, "Russians = [\"A Mos\"]\nPoles = [\"A Smo\"]");
    // The first move bounces off the Polish army; the second, Smo-WRu, is
    // judged from Moscow, where it makes no sense: the army stands.
    let t = turn(&v, &pos, &["Russians: A(Mos)-Smo-WRu"]);
    assert_eq!(at(&v, &t, "Mos"), Some(("Russia".into(), UnitKind::Army)));
    assert!(at(&v, &t, "WRu").is_none());
}

#[test]
fn rule_4_double_strength_moves_dislodge_a_single_defender() {
    let v = variant();
    let pos = board(&v, "Russians = [\"A Mos\"]\nPoles = [\"A Smo\"]");
    let t = turn(&v, &pos, &["Russians: A(Mos)-Smo (x2)"]);
    assert_eq!(at(&v, &t, "Smo"), Some(("Russia".into(), UnitKind::Army)));
    assert_eq!(t.rounds.len(), 1, "both impulses spent in the first round");
    // The Polish army was dislodged; with no order, the GM retreats it
    // toward its nearest centre.
    let retreat = &t.rounds[0].retreats;
    assert_eq!(retreat.len(), 1);
    assert!(retreat[0].1.is_some(), "{retreat:?}");
}

#[test]
fn rule_4_a_double_support_counts_double_only_for_a_double_move() {
    let v = variant();
    // Two against Smolensk's defender supported once (2): a single move
    // with a double support is 1 + 1 = 2, a bounce; a double move with a
    // double support is 2 + 2 = 4.
    let pos = board(
        &v,
        "Russians = [\"A Mos\", \"A Ore\"]\nPoles = [\"A Smo\", \"A WRu\"]",
    );
    let t = turn(
        &v,
        &pos,
        &[
            "Russians: A(Mos)-Smo",
            "Russians: A(Ore) S A(Mos)-Smo (x2)",
            "Poles: A(WRu) S A(Smo)",
        ],
    );
    assert_eq!(at(&v, &t, "Smo").map(|x| x.0), Some("Poland".into()));
    let t = turn(
        &v,
        &pos,
        &[
            "Russians: A(Mos)-Smo (x2)",
            "Russians: A(Ore) S A(Mos)-Smo (x2)",
            "Poles: A(WRu) S A(Smo)",
        ],
    );
    assert_eq!(at(&v, &t, "Smo").map(|x| x.0), Some("Russia".into()));
}

#[test]
fn rule_7_a_leader_has_three_impulses_and_triple_strength() {
    let v = variant();
    let pos = board(&v, "Russians = [\"L Mos\"]\nPoles = [\"A Smo\", \"A WRu\"]");
    // Triple strength: alone, it dislodges a supported army (2).
    let t = turn(
        &v,
        &pos,
        &["Russians: Mens(Mos)-Smo", "Poles: A(WRu) S A(Smo)"],
    );
    assert_eq!(at(&v, &t, "Smo"), Some(("Russia".into(), UnitKind::Leader)));
    // Three areas in a turn.
    let pos = board(&v, "Russians = [\"L Mos\"]");
    let t = turn(&v, &pos, &["Russians: Mens(Mos)-Smo-WRu-Lit"]);
    assert_eq!(t.orders, vec![None]);
    assert_eq!(at(&v, &t, "Lit"), Some(("Russia".into(), UnitKind::Leader)));
    // But no more than three, nor more than two for an army.
    let t = turn(&v, &pos, &["Russians: Mens(Mos)-Smo-WRu-Lit-Maz"]);
    assert_eq!(t.orders, vec![Some(Illegal::TooManyImpulses)]);
    let pos = board(&v, "Russians = [\"A Mos\"]");
    let t = turn(&v, &pos, &["Russians: A(Mos)-Smo-WRu-Lit"]);
    assert_eq!(t.orders, vec![Some(Illegal::TooManyImpulses)]);
}

#[test]
fn rule_5_the_player_s_retreat_order_is_used_else_the_gm_retreats_toward_a_centre() {
    let v = variant();
    let pos = board(&v, "Russians = [\"A Mos\", \"A Ore\"]\nPoles = [\"A Smo\"]");
    let t = turn(
        &v,
        &pos,
        &[
            "Russians: A(Mos)-Smo",
            "Russians: A(Ore) S A(Mos)-Smo",
            "Poles: Retreat A(Smo)-Psk",
        ],
    );
    let (_, to) = t.rounds[0].retreats[0];
    assert_eq!(to.map(|r| v.map.province_of(r)), Some(prov(&v, "Psk")));
    // The GM's choice: nearest controlled centre, home centres first.
    let poles = power(&v, "Poles");
    let u = pos.units.iter().find(|u| u.power == poles).expect("A Smo");
    let options: Vec<_> = ["Psk", "Ukr", "WRu"]
        .iter()
        .map(|n| v.map.province(prov(&v, n)).main_region())
        .collect();
    // Ukraine and West Russia are both one step from a Polish centre
    // (Volhynia; Lithuania, Mazovia, Volhynia), Pskov two: the tie goes
    // alphabetically, to Ukraine.
    let r = gm_retreat(&v.map, u, &options, &pos.owners).expect("a retreat");
    assert_eq!(v.map.province_of(r), prov(&v, "Ukr"));
    // Pskov alone is no nearer than Smolensk (two steps each): disbanded.
    assert_eq!(gm_retreat(&v.map, u, &options[..1], &pos.owners), None);
}

#[test]
fn rule_10b_armed_neutrals_need_a_double_or_supported_attack_and_any_power_may_support_them() {
    let v = variant();
    // Courland, an armed neutral of strength one.
    let pos = board(&v, "Poland = [\"A Lit\", \"A Maz\"]\nSweden = [\"A Liv\"]");
    let t = turn(&v, &pos, &["Poland: A(Lit)-Kur"]);
    assert!(at(&v, &t, "Kur").is_none(), "one against one: bounced");
    assert!(t.garrisons_after.iter().any(|(p, _)| *p == prov(&v, "Kur")));
    let t = turn(&v, &pos, &["Poland: A(Lit)-Kur (x2)"]);
    assert_eq!(at(&v, &t, "Kur").map(|x| x.0), Some("Poland".into()));
    assert!(
        !t.garrisons_after.iter().any(|(p, _)| *p == prov(&v, "Kur")),
        "once occupied, it loses its strength for good"
    );
    // Sweden supports the garrison: a double attack no longer enters.
    let t = turn(
        &v,
        &pos,
        &["Poland: A(Lit)-Kur (x2)", "Sweden: A(Liv) S Kur"],
    );
    assert!(at(&v, &t, "Kur").is_none());
}

#[test]
fn rule_10b_the_file_lists_nineteen_armed_neutrals_brandenburg_prussia_at_two() {
    let v = variant();
    assert_eq!(v.features.garrisons.len(), 19);
    assert!(v.features.garrisons.contains(&(prov(&v, "BPr"), 2)));
    let neutral_centres = v
        .map
        .province_ids()
        .filter(|p| v.map.province(*p).supply_centre && v.map.province(*p).home_of.is_none())
        .count();
    assert_eq!(neutral_centres, 19, "every neutral centre is armed");
}

#[test]
fn rule_9_units_must_trace_a_line_of_supply_to_a_centre_of_their_own() {
    use zinejudge::game::supply::out_of_supply;
    let v = variant();
    let garrisons: Vec<_> = v.features.garrisons.iter().map(|(p, _)| *p).collect();
    let swi = vec![prov(&v, "Swi")];
    let russia = power(&v, "Russians");
    let poland = power(&v, "Poles");
    // A Russian army in Podolia: home through Ukraine.
    let pos = board(&v, "Russians = [\"A Pod\"]");
    assert!(out_of_supply(&v, &pos, &garrisons, &swi, &[]).is_empty());
    // Cut off: Polish armies in Ukraine, Volhynia and Krakow, an Austrian
    // one in Hungary, Moldavia an armed neutral, and Yedisan's only ways
    // on lead through those or Turkish centres.
    let cut = board(
        &v,
        "Russians = [\"A Pod\"]\nPoles = [\"A Ukr\", \"A Vol\", \"A Kra\"]\nAustria = [\"A Hun\"]",
    );
    let out = out_of_supply(&v, &cut, &garrisons, &swi, &[]);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(out[0].power, russia);
    // Poland permits the Russian line through its army in Ukraine.
    let out = out_of_supply(&v, &cut, &garrisons, &swi, &[(poland, russia)]);
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn rule_10c_switzerland_takes_two_impulses_to_cross_and_defends_double() {
    let v = variant();
    let pos = board(&v, "France = [\"A Bur\"]");
    let t = turn(&v, &pos, &["France: A(Bur)-Swi"]);
    assert_eq!(t.orders, vec![Some(Illegal::MountainCrossing)]);
    assert!(at(&v, &t, "Swi").is_none());
    let t = turn(&v, &pos, &["France: A(Bur)-Swi (x2)"]);
    assert_eq!(t.orders, vec![None]);
    assert_eq!(at(&v, &t, "Swi").map(|x| x.0), Some("France".into()));
    // Holding in Switzerland it defends with two: an attack with one
    // support (each across the border, so at single strength: 2) does not
    // dislodge it; with two supports (3) it does.
    let pos = board(
        &v,
        "France = [\"A Swi\"]\nAustria = [\"A Tyr\", \"A Mil\", \"A Swa\"]",
    );
    let t = turn(
        &v,
        &pos,
        &[
            "Austria: A(Tyr)-Swi (x2)",
            "Austria: A(Mil) S A(Tyr)-Swi (x2)",
        ],
    );
    assert_eq!(at(&v, &t, "Swi").map(|x| x.0), Some("France".into()));
    let t = turn(
        &v,
        &pos,
        &[
            "Austria: A(Tyr)-Swi (x2)",
            "Austria: A(Mil) S A(Tyr)-Swi (x2)",
            "Austria: A(Swa) S A(Tyr)-Swi (x2)",
        ],
    );
    assert_eq!(at(&v, &t, "Swi").map(|x| x.0), Some("Austria".into()));
}

fn fleets_at(v: &Variant, t: &Turn, name: &str) -> Vec<String> {
    let p = prov(v, name);
    t.units_after
        .iter()
        .filter(|u| u.kind == UnitKind::Fleet && v.map.province_of(u.region) == p)
        .map(|u| v.map.power(u.power).name.clone())
        .collect()
}

#[test]
fn rule_8_fleets_share_provinces_with_armies_and_exert_no_influence_on_them() {
    let v = variant();
    // An Anglo-Dutch leader and fleet in London; a French army attacking
    // London with a fleet's "support" that cannot count.
    let pos = shared(
        &v,
        &[
            ("Anglo-Dutch", "L Lon"),
            ("Anglo-Dutch", "F Lon"),
            ("France", "F Pic"),
            ("France", "A Pic"),
        ],
    );
    let t = turn(
        &v,
        &pos,
        &["France: A(Pic)-Lon (x2)", "France: F(Pic) S A(Pic)-Lon"],
    );
    assert_eq!(at(&v, &t, "Lon").map(|x| x.1), Some(UnitKind::Leader));
    assert_eq!(fleets_at(&v, &t, "Lon"), ["Anglo-Dutch"]);
}

#[test]
fn rule_8_fleets_enter_only_friendly_coastal_provinces_and_stack_two_there() {
    let v = variant();
    let pos = shared(
        &v,
        &[
            ("France", "F Bri"),
            ("France", "F Lgd"),
            ("France", "F Pic"),
            ("France", "A Par"),
        ],
    );
    // Picardy is French: a second fleet may join the one there; a third
    // may not.
    let t = turn(&v, &pos, &["France: F(Bri)-ENG-Pic"]);
    assert_eq!(fleets_at(&v, &t, "Pic").len(), 2, "{:?}", t.orders);
    // Not into an enemy's coast (Spanish Netherlands).
    let t = turn(&v, &pos, &["France: F(Pic)-SNe"]);
    assert_eq!(t.orders, vec![Some(Illegal::NotFriendly)]);
}

#[test]
fn rule_8_a_fleet_sails_between_the_adriatic_and_rome_beside_a_friendly_army() {
    let v = variant();
    // Rule 8: "fleets may occupy coastal provinces simultaneously with
    // friendly land units". Rome, the Papal States, has its Adriatic
    // coast (Ancona): a Spanish fleet sails in from the Adriatic beside
    // the Spanish army holding it, and out again.
    let pos = shared(&v, &[("Spain", "A Rom"), ("Spain", "F ADR")]);
    let t = turn(&v, &pos, &["Spain: F(ADR)-Rom"]);
    assert_eq!(t.orders, vec![None], "{:?}", t.orders);
    assert_eq!(fleets_at(&v, &t, "Rom"), ["Spain"]);
    let pos = shared(&v, &[("Spain", "A Rom"), ("Spain", "F Rom")]);
    let t = turn(&v, &pos, &["Spain: F(Rom)-ADR"]);
    assert_eq!(t.orders, vec![None], "{:?}", t.orders);
    assert_eq!(fleets_at(&v, &t, "ADR"), ["Spain"]);
}

#[test]
fn rule_8_a_stack_of_two_fleets_moves_as_one_with_the_strength_of_two() {
    let v = variant();
    let pos = shared(
        &v,
        &[
            ("Sweden", "F Sca"),
            ("Sweden", "F Sca"),
            ("Anglo-Dutch", "F COS"),
        ],
    );
    let t = turn(&v, &pos, &["Sweden: 2F(Sca)-COS"]);
    assert_eq!(fleets_at(&v, &t, "COS"), ["Sweden", "Sweden"]);
}

#[test]
fn rule_6_the_swedish_order_sheet_of_the_rule_text() {
    // Sweden 1700: CXII(Got)-hold-Den (x2); 2F(Sca)-COS-C CXII(Got)-Den;
    // A(Sca)-Hold-Got; A(Liv) S A(Fin)-Kar (x2). Charles XII waits, then
    // crosses to Denmark on the two fleets that sailed to the Sound (which
    // carry two strength points: enough for the Danish garrison's one);
    // the army of Scania follows him into Gotaland.
    let v = variant();
    let pos = shared(
        &v,
        &[
            ("Sweden", "L Got"),
            ("Sweden", "F Sca"),
            ("Sweden", "F Sca"),
            ("Sweden", "A Sca"),
            ("Sweden", "A Liv"),
            ("Sweden", "A Fin"),
        ],
    );
    let t = turn(
        &v,
        &pos,
        &[
            "Sweden: CXII(Got)-hold-Den (x2)",
            "Sweden: 2F(Sca)-COS-C CXII(Got)-Den",
            "Sweden: A(Sca)-Hold-Got",
            "Sweden: A(Liv) S A(Fin)-Kar (x2)",
            "Sweden: A(Fin)-Kar",
        ],
    );
    assert_eq!(t.orders, vec![None; 5], "{:?}", t.orders);
    assert_eq!(at(&v, &t, "Den"), Some(("Sweden".into(), UnitKind::Leader)));
    assert_eq!(at(&v, &t, "Got"), Some(("Sweden".into(), UnitKind::Army)));
    assert_eq!(at(&v, &t, "Kar"), Some(("Sweden".into(), UnitKind::Army)));
    assert_eq!(fleets_at(&v, &t, "COS"), ["Sweden", "Sweden"]);
}

#[test]
fn rule_8_a_fleet_cannot_join_a_stack_it_cannot_reach() {
    let v = variant();
    let pos = shared(
        &v,
        &[
            ("France", "F Bri"),
            ("France", "F Pic"),
            ("France", "A Par"),
        ],
    );
    // Brittany is not next to Picardy by sea (the Channel is between).
    let t = turn(&v, &pos, &["France: F(Bri)-Pic"]);
    assert_eq!(fleets_at(&v, &t, "Pic").len(), 1, "{:?}", t.orders);
    assert_eq!(fleets_at(&v, &t, "Bri").len(), 1);
}

use crate::support_judge;
#[test]
fn rule_6_an_order_sheet_by_mail_is_played_as_one_yearly_turn() {
    let mut w = support_judge::World::with_variant("../../games/1700ad.toml");
    w.reply("gm@example.test", "CREATE y1700 1700ad gm-secret");
    w.reply("swe@example.test", "JOIN y1700 pw-secret Sweden");
    w.reply("gm@example.test", "SIGNON GM y1700 gm-secret\nSTART");
    // Sweden's is the only sheet the turn waits for: complete, it is
    // played at once.
    let sent = w.mail(
        "swe@example.test",
        "SIGNON Sweden y1700 pw-secret\n\
         Sweden 1700 Moves: CXII(Got)-hold-Den (x2);\n\
         2F(Sca)-COS-C CXII(Got)-Den;\n\
         A(Sca)-Hold-Got;\n\
         A(Liv) S A(Fin)-Kar (x2);\n\
         A(Fin)-Kar;\n\
         Retreats: A(Liv)-Kur;\n\
         Builds: A(Dal).",
    );
    let r = &sent
        .iter()
        .find(|m| m.in_reply_to.is_some())
        .expect("a reply")
        .body;
    assert!(!r.contains("ot accepted"), "{r}");
    // The reply names the leader as the results do (rule 7's names).
    assert!(
        r.contains("Charles XII of Sweden(Got)-hold-Den (x2)"),
        "{r}"
    );
    // So does the list of the orders held, below it.
    let held = r
        .split_once("Orders held for Sweden")
        .map(|x| x.1)
        .unwrap_or_default();
    assert!(held.contains("Charles XII of Sweden(Got)"), "{r}");
    assert!(!r.contains("L(Got)"), "{r}");
    let results = sent
        .iter()
        .find(|m| m.to_has("swe@example.test") && m.subject.contains("1700"))
        .unwrap_or_else(|| panic!("no results: {sent:#?}"));
    let body = &results.body;
    assert!(body.contains("2: Charles XII of Sweden(Got)-Den"), "{body}");
    assert!(body.contains("sea 1: 2F(Sca)-COS"), "{body}");
    assert!(body.contains("Sweden: builds A(Dal)"), "{body}");
    assert!(
        body.contains("2: 2F(COS) C Charles XII of Sweden(Got)-Den"),
        "{body}"
    );
    assert!(body.contains("Sweden         6 (+1)"), "{body}");
    assert!(body.contains("Next: Year 1701 movement"), "{body}");
}

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

#[test]
fn rule_8_a_permission_lets_an_ally_s_fleet_into_one_s_coast_when_the_turn_is_judged() {
    let mut w = game_by_mail(&["Spain", "France"]);
    // A French fleet in Picardy (moved there from Brittany by the GM, so
    // that no removal is due) may sail into the Spanish Netherlands only
    // with Spain's permission; the order is held before it comes, for
    // permissions count when the turn is judged.
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Bri\nEDIT ADD France F Pic",
    );
    assert!(r.contains("added"), "{r}");
    let r = w.reply(
        "France@example.test",
        "SIGNON France y1700 pw-secret\nF(Pic)-SNe",
    );
    assert!(!r.contains("not accepted"), "{r}");
    assert!(r.contains("F(Pic)-SNe"), "{r}");
    // Spain permits it later in the turn; the fleet stands beside the
    // Spanish army.
    let r = w.reply(
        "Spain@example.test",
        "SIGNON Spain y1700 pw-secret\nPERMIT France",
    );
    assert!(r.contains("France may now come into your provinces"), "{r}");
    let sent = w.mail("gm@example.test", "SIGNON GM y1700 gm-secret\nPROCESS");
    let body = &sent
        .iter()
        .find(|m| m.to_has("France@example.test") && m.subject.contains("results"))
        .expect("results")
        .body;
    assert!(body.contains("sea 1: F(Pic)-SNe"), "{body}");
    assert!(!body.contains("F(Pic)-SNe    void"), "{body}");
    assert!(!body.contains("removes"), "{body}");
    let sne = prov(&variant(), "SNe");
    assert!(
        stored(&mut w)
            .units
            .iter()
            .any(|u| u.kind == UnitKind::Fleet && variant().map.province_of(u.region) == sne),
        "the French fleet stands in the Spanish Netherlands"
    );
    w.advance(120);
    // Revoked, the fleet must leave at the end of the next turn.
    let r = w.reply(
        "Spain@example.test",
        "SIGNON Spain y1700 pw-secret\nREVOKE France",
    );
    assert!(r.contains("may no longer come"), "{r}");
    w.mail("gm@example.test", "SIGNON GM y1700 gm-secret\nPROCESS");
    let row = zinejudge::testing::store::games::load(w.processor.store.conn(), "y1700")
        .expect("store")
        .expect("game");
    let v = variant();
    let pos = zinejudge::game::Position::from_toml(&v, &row.position).expect("position");
    let sne = prov(&v, "SNe");
    assert!(
        !pos.units
            .iter()
            .any(|u| u.kind == UnitKind::Fleet && v.map.province_of(u.region) == sne),
        "the French fleet left the Spanish Netherlands"
    );
}

#[test]
fn rule_11_the_gm_may_end_the_game_after_1713_or_1721() {
    let mut w = game_by_mail(&["Sweden"]);
    // No other year: the text gives the GM these two treaties only.
    for year in ["1701", "1712", "1720", "1722"] {
        let r = w.reply(
            "gm@example.test",
            &format!("SIGNON GM y1700 gm-secret\nSET END {year}"),
        );
        assert!(r.contains("may end only after 1713 or 1721"), "{r}");
        assert!(!r.contains("the game ends after"), "{r}");
    }
    let r = w.reply("gm@example.test", "SIGNON GM y1700 gm-secret\nSET END 1721");
    assert!(r.contains("the game ends after 1721"), "{r}");
    let r = w.reply("gm@example.test", "SIGNON GM y1700 gm-secret\nSET END 1713");
    assert!(r.contains("the game ends after 1713"), "{r}");
    for _ in 1700..1713 {
        w.mail("gm@example.test", "SIGNON GM y1700 gm-secret\nPROCESS");
        w.advance(120);
    }
    let sent = w.mail("gm@example.test", "SIGNON GM y1700 gm-secret\nPROCESS");
    let body = &sent
        .iter()
        .find(|m| m.to_has("Sweden@example.test") && m.subject.contains("1713"))
        .expect("the 1713 results")
        .body;
    assert!(body.contains("The game is over"), "{body}");
    assert!(body.contains("more than at the start"), "{body}");
}

#[test]
fn a_game_of_five_years_by_mail() {
    use support_judge::bot::wander;
    use zinejudge::game::Position;
    let v = variant();
    let powers: Vec<String> = v.map.powers().iter().map(|p| p.name.clone()).collect();
    let names: Vec<&str> = powers.iter().map(String::as_str).collect();
    let mut w = game_by_mail(&names);
    let mut seed = 0x1700_u64;
    for year in 1700..1705 {
        let row = zinejudge::testing::store::games::load(w.processor.store.conn(), "y1700")
            .expect("store")
            .expect("game");
        assert!(row.result.is_none(), "{year}: {:?}", row.result);
        let pos = Position::from_toml(&v, &row.position).expect("the stored position");
        assert_eq!(pos.phase.year, year);
        for (i, p) in powers.iter().enumerate() {
            let me = zinejudge::map::PowerId(i as u8);
            // Land units wander; fleets keep to their coasts.
            let lines: Vec<String> = wander(&v, &pos, me, &mut seed)
                .into_iter()
                .filter(|l| !l.starts_with("F("))
                .collect();
            if !lines.is_empty() {
                let r = w.reply(
                    &format!("{p}@example.test"),
                    &format!("SIGNON {p} y1700 pw-secret\n{}", lines.join("\n")),
                );
                assert!(r.contains("Orders held"), "{r}");
            }
        }
        let sent = w.mail("gm@example.test", "SIGNON GM y1700 gm-secret\nPROCESS");
        let results: Vec<_> = sent
            .iter()
            .filter(|m| m.subject == format!("y1700: Year {year} results"))
            .collect();
        assert_eq!(
            results.len(),
            powers.len() + 1,
            "{year}: every player and the GM"
        );
        for m in &results {
            for l in m.body.lines() {
                assert!(l.chars().count() <= 72, "{l:?}");
            }
        }
        w.advance(120);
    }
    let row = zinejudge::testing::store::games::load(w.processor.store.conn(), "y1700")
        .expect("store")
        .expect("game");
    let pos = Position::from_toml(&v, &row.position).expect("position");
    assert_eq!(pos.phase.year, 1705);
}

#[test]
fn rule_10a_russia_builds_fleets_in_crimea_on_the_second_turn_of_holding_it_and_is_told_why_not_before()
 {
    use zinejudge::adjudicate::AdjustStatus;
    use zinejudge::game::step::{PhaseOrders, PhaseResult, play};
    let v = variant();
    let russia = power(&v, "Russia");
    let cri = prov(&v, "Cri");
    let build = |since: i32, year: i32| {
        let mut pos = shared(&v, &[("Russia", "A Cri"), ("Russia", "A Mos")]);
        pos.phase = v
            .calendar
            .parse(&format!("Year {year} movement"))
            .expect("phase");
        pos.owners[cri.index()] = Some(russia);
        pos.state.held_since[russia] = vec![(cri, since)];
        let parser = zinejudge::orders::parse::OrderParser::with_syntax(&v.map, v.syntax.clone());
        let zinejudge::orders::AnyCommand::Adjust(command) = parser
            .parse("Build F Cri", Some(PhaseKind::Adjustment))
            .expect("parses")
            .command
        else {
            panic!("a build")
        };
        let orders = PhaseOrders::Turn {
            moves: Vec::new(),
            retreats: Vec::new(),
            adjust: vec![zinejudge::orders::AdjustOrder {
                power: russia,
                command,
            }],
        };
        let (PhaseResult::Turn(t), _) = play(&v, &pos, &orders) else {
            panic!("a turn")
        };
        t.adjustments.orders[0]
    };
    // Taken in 1701: not in 1701, but in 1702.
    assert_eq!(
        build(1701, 1701),
        AdjustStatus::Illegal(Illegal::HeldTooShort(2)),
        "refused for the time it was held, not as no build site"
    );
    assert!(matches!(build(1701, 1702), AdjustStatus::Built(u) if u.kind == UnitKind::Fleet));
}

#[test]
fn rule_7_a_dislodged_leader_with_nowhere_to_go_displaces_a_friendly_army() {
    let v = variant();
    // Menshikov in Smolensk, surrounded: Moscow and Orel hold his own
    // armies, the rest Polish. Driven out, he takes an army's place.
    let pos = shared(
        &v,
        &[
            ("Russia", "L Smo"),
            ("Russia", "A Mos"),
            ("Russia", "A Ore"),
            ("Poland", "A WRu"),
            ("Poland", "A Ukr"),
            ("Poland", "A Psk"),
            ("Poland", "A Nov"),
            ("Poland", "A Lit"),
            ("Poland", "A Vol"),
        ],
    );
    let t = turn(
        &v,
        &pos,
        &[
            "Poland: A(WRu)-Smo (x2)",
            "Poland: A(Ukr) S A(WRu)-Smo (x2)",
            "Poland: A(Psk) S A(WRu)-Smo",
            "Poland: A(Nov) S A(WRu)-Smo",
        ],
    );
    let leader = t
        .units_after
        .iter()
        .find(|u| u.kind == UnitKind::Leader)
        .expect("the leader survives");
    let at = v.map.province_of(leader.region);
    assert!(at == prov(&v, "Mos") || at == prov(&v, "Ore"), "{at:?}");
    assert_eq!(
        t.units_after
            .iter()
            .filter(|u| u.power == power(&v, "Russia") && u.kind == UnitKind::Army)
            .count(),
        1,
        "one Russian army gave him its place"
    );
}

#[test]
fn rule_4_a_failed_impulse_voids_the_later_ones() {
    let v = variant();
    // A(Sla)-Ser-Bos bounces off the Turkish army in Serbia: its second
    // impulse no longer makes sense and becomes a stand order; it does not
    // go on from Slavonia into Bosnia.
    let pos = board(&v, "Austria = [\"A Sla\"]\nTurks = [\"A Ser\"]");
    let t = turn(&v, &pos, &["Austria: A(Sla)-Ser-Bos"]);
    assert_eq!(at(&v, &t, "Sla").map(|x| x.0), Some("Austria".into()));
    assert!(at(&v, &t, "Bos").is_none(), "{:?}", t.units_after);
    assert_eq!(t.rounds[1].voided.len(), 1, "the results say it was void");
    assert!(t.rounds[1].orders.is_empty(), "{:?}", t.rounds[1].orders);
}

#[test]
fn rule_4_a_dislodged_unit_stands_for_the_rest_of_the_turn() {
    let v = variant();
    // Poland's A(WRu)-hold-Liv is dislodged in the first impulse and
    // retreats to Lithuania: it does not go on into Livonia.
    let pos = board(
        &v,
        "Russians = [\"A Smo\"]\nPoles = [\"A WRu\"]\nSweden = [\"A Fin\"]",
    );
    let t = turn(
        &v,
        &pos,
        &[
            "Russians: A(Smo)-WRu (x2)",
            "Poles: A(WRu)-hold-Liv",
            "Poles: Retreat A(WRu)-Lit",
        ],
    );
    assert_eq!(at(&v, &t, "WRu").map(|x| x.0), Some("Russia".into()));
    assert_eq!(at(&v, &t, "Lit").map(|x| x.0), Some("Poland".into()));
    assert!(at(&v, &t, "Liv").is_none(), "{:?}", t.units_after);
    assert_eq!(t.rounds[1].voided.len(), 1);
}

#[test]
fn rule_5_a_double_impulse_conflict_s_retreat_is_made_after_the_turn() {
    let v = variant();
    // Russia's double move dislodges the Polish army from White Russia;
    // its retreat comes "after the ... turn, in double impulse conflicts"
    // (rule 5), so Sweden's second-impulse move takes empty Lithuania
    // first, and the Polish army's ordered retreat there no longer fits.
    let pos = board(
        &v,
        "Russians = [\"A Smo\"]\nPoles = [\"A WRu\"]\nSweden = [\"A Liv\"]",
    );
    let t = turn(
        &v,
        &pos,
        &[
            "Russians: A(Smo)-WRu (x2)",
            "Poles: A(WRu) H",
            "Poles: Retreat A(WRu)-Lit",
            "Sweden: A(Liv)-hold-Lit",
        ],
    );
    assert_eq!(at(&v, &t, "WRu").map(|x| x.0), Some("Russia".into()));
    assert_eq!(at(&v, &t, "Lit").map(|x| x.0), Some("Sweden".into()));
    assert!(at(&v, &t, "Liv").is_none(), "{:?}", t.units_after);
    let retreat = t.rounds.iter().flat_map(|r| &r.retreats).next();
    let (u, to) = retreat.expect("the Polish army's retreat is listed");
    assert_eq!(v.map.power(u.power).name, "Poland");
    assert_ne!(to.map(|r| v.map.province_of(r)), Some(prov(&v, "Lit")));
    // A single-impulse conflict still retreats after its impulse: the
    // Polish army reaches Lithuania before Sweden's second impulse.
    let pos = board(
        &v,
        "Russians = [\"A Smo\", \"A Psk\"]\nPoles = [\"A WRu\"]\nSweden = [\"A Liv\"]",
    );
    let t = turn(
        &v,
        &pos,
        &[
            "Russians: A(Smo)-WRu",
            "Russians: A(Psk) S A(Smo)-WRu",
            "Poles: A(WRu) H",
            "Poles: Retreat A(WRu)-Lit",
            "Sweden: A(Liv)-hold-Lit",
        ],
    );
    assert_eq!(at(&v, &t, "Lit").map(|x| x.0), Some("Poland".into()));
    assert_eq!(at(&v, &t, "Liv").map(|x| x.0), Some("Sweden".into()));
}

#[test]
fn rule_4_a_failed_impulse_voids_the_later_ones_by_mail() {
    let mut w = game_by_mail(&["Austria", "Turks"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT ADD Turks A Ser",
    );
    assert!(r.contains("added"), "{r}");
    let r = w.reply(
        "Austria@example.test",
        "SIGNON Austria y1700 pw-secret\nAustria 1700 Moves: A(Sla)-Ser-Bos;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "Austria");
    assert!(body.contains("2: A(Sla)-Bos"), "{body}");
    assert!(body.contains("the unit stands"), "{body}");
    let pos = stored(&mut w);
    let v = variant();
    let bos = prov(&v, "Bos");
    assert!(
        !pos.units.iter().any(|u| v.map.province_of(u.region) == bos),
        "{:?}",
        pos.units
    );
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

/// The game's stored position.
fn stored(w: &mut support_judge::World) -> Position {
    let row = zinejudge::testing::store::games::load(w.processor.store.conn(), "y1700")
        .expect("store")
        .expect("game");
    Position::from_toml(&variant(), &row.position).expect("position")
}

/// Prince Eugene in Vienna, driven out by four against his three, with
/// Tyrol the only free place beside him: no nearer to a centre than his
/// own Vienna, yet never lost for want of a retreat.
fn eugene_driven_from_vienna() -> (Variant, Position, Vec<&'static str>) {
    let v = variant();
    let pos = board(
        &v,
        "Austria = [\"L Vie\"]\nPoles = [\"A Bav\", \"A Boh\", \"A Hun\", \"A Sty\"]",
    );
    let orders = vec!["Poles: A(Bav)-Vie (x2)", "Poles: A(Boh) S A(Bav)-Vie (x2)"];
    (v, pos, orders)
}

#[test]
fn rule_7_a_leader_is_never_lost_for_want_of_a_retreat() {
    let (v, pos, orders) = eugene_driven_from_vienna();
    let t = turn(&v, &pos, &orders);
    assert_eq!(at(&v, &t, "Vie").map(|x| x.0), Some("Poland".into()));
    assert_eq!(
        at(&v, &t, "Tyr"),
        Some(("Austria".into(), UnitKind::Leader)),
        "{:?}",
        t.rounds[0].retreats
    );
}

#[test]
fn rule_7_a_leader_is_never_lost_for_want_of_a_retreat_by_mail() {
    let mut w = game_by_mail(&["Austria", "Poles"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Sla\nEDIT ADD Poles A Bav\nEDIT ADD Poles A Tyr",
    );
    assert!(r.contains("added"), "{r}");
    let r = w.reply(
        "Poles@example.test",
        "SIGNON Poles y1700 pw-secret\nPoles 1700 Moves: A(Bav)-Vie (x2);\nA(Tyr) S A(Bav)-Vie (x2);",
    );
    assert!(!r.contains("not accepted"), "{r}");
    // Styria alone is free, no nearer a centre (Slavonia) than Vienna: he
    // goes there all the same.
    let body = results_for(&mut w, "Austria");
    assert!(body.contains("Austria: Prince Eugene(Vie)-Sty"), "{body}");
    let pos = stored(&mut w);
    let v = variant();
    let sty = prov(&v, "Sty");
    assert!(
        pos.units
            .iter()
            .any(|u| u.kind == UnitKind::Leader && v.map.province_of(u.region) == sty),
        "{:?}",
        pos.units
    );
}

#[test]
fn rule_7_a_leader_s_second_and_third_impulses_are_simultaneous_with_the_others_second() {
    let v = variant();
    // Charles XII's third impulse and Russia's second both go for Pskov,
    // judged in one round: the Russian army never gets in to be thrown out
    // again.
    let pos = board(&v, "Russians = [\"A Smo\"]\nSweden = [\"L Liv\"]");
    let t = turn(
        &v,
        &pos,
        &[
            "Russians: A(Smo)-hold-Psk",
            "Sweden: CXII(Liv)-hold-hold-Psk",
        ],
    );
    assert_eq!(at(&v, &t, "Psk"), Some(("Sweden".into(), UnitKind::Leader)));
    assert_eq!(at(&v, &t, "Smo").map(|x| x.0), Some("Russia".into()));
    assert!(t.rounds.iter().all(|r| r.retreats.is_empty()), "{t:?}");
    assert_eq!(t.rounds.len(), 2, "no round of his own");
    // Moving in both: he passes Pskov and meets the Russian army's second
    // impulse at Smolensk in the same round.
    let pos = board(&v, "Russians = [\"A Mos\"]\nSweden = [\"L Liv\"]");
    let t = turn(
        &v,
        &pos,
        &[
            "Russians: A(Mos)-hold-Smo",
            "Sweden: CXII(Liv)-hold-Psk-Smo",
        ],
    );
    assert_eq!(at(&v, &t, "Smo"), Some(("Sweden".into(), UnitKind::Leader)));
    assert_eq!(at(&v, &t, "Mos").map(|x| x.0), Some("Russia".into()));
    assert!(t.rounds.iter().all(|r| r.retreats.is_empty()), "{t:?}");
}

#[test]
fn rule_7_a_leader_passing_through_meets_a_unit_entering_in_the_same_impulse() {
    let v = variant();
    // Menshikov's second and third impulses are "simultaneous with all
    // other second impulses" (rule 7): he cannot slip through Pskov while
    // the Polish army enters it in its second impulse. They meet there;
    // his triple strength wins Pskov and he goes no further.
    let pos = board(&v, "Russians = [\"L Smo\"]\nPoles = [\"A WRu\"]");
    let t = turn(
        &v,
        &pos,
        &["Russians: Mens(Smo)-hold-Psk-Liv", "Poles: A(WRu)-hold-Psk"],
    );
    assert_eq!(at(&v, &t, "Psk"), Some(("Russia".into(), UnitKind::Leader)));
    assert_eq!(at(&v, &t, "WRu").map(|x| x.0), Some("Poland".into()));
    assert!(at(&v, &t, "Liv").is_none(), "{:?}", t.units_after);
    // With Pskov left alone he passes through to Livonia.
    let t = turn(
        &v,
        &pos,
        &["Russians: Mens(Smo)-hold-Psk-Liv", "Poles: A(WRu)-hold-Lit"],
    );
    assert_eq!(at(&v, &t, "Liv"), Some(("Russia".into(), UnitKind::Leader)));
    assert!(at(&v, &t, "Psk").is_none(), "{:?}", t.units_after);
}

#[test]
fn rule_7_a_leader_s_second_and_third_impulses_are_simultaneous_by_mail() {
    let mut w = game_by_mail(&["Russians", "Sweden"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Got\nEDIT REMOVE Liv\nEDIT ADD Sweden L Liv\n\
         EDIT REMOVE Kaz\nEDIT ADD Russians A Smo",
    );
    assert!(r.contains("added"), "{r}");
    let r = w.reply(
        "Russians@example.test",
        "SIGNON Russians y1700 pw-secret\nRussians 1700 Moves: A(Smo)-hold-Psk;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    // Livonia to Pskov in the third impulse, against Russia's second.
    let r = w.reply(
        "Sweden@example.test",
        "SIGNON Sweden y1700 pw-secret\nSweden 1700 Moves: CXII(Liv)-hold-hold-Psk;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "Russians");
    assert!(!body.contains("3: "), "no third round: {body}");
    let pos = stored(&mut w);
    let v = variant();
    let smo = prov(&v, "Smo");
    assert!(
        pos.units
            .iter()
            .any(|u| u.kind == UnitKind::Army && v.map.province_of(u.region) == smo),
        "the Russian army stayed in Smolensk: {:?}",
        pos.units
    );
}

#[test]
fn rule_4_a_double_support_of_a_hold_counts_double() {
    let v = variant();
    // Russia: a double move (2) with a single support (1): 3. Poland: the
    // army holding (1) with a double support (2): 3. It stands.
    let pos = board(
        &v,
        "Russians = [\"A Smo\", \"A Psk\"]\nPoles = [\"A WRu\", \"A Lit\"]",
    );
    let t = turn(
        &v,
        &pos,
        &[
            "Russians: A(Smo)-WRu (x2)",
            "Russians: A(Psk) S A(Smo)-WRu",
            "Poles: A(Lit) S A(WRu) (x2)",
        ],
    );
    assert_eq!(at(&v, &t, "WRu").map(|x| x.0), Some("Poland".into()));
    // Supported once, it falls (3 against 2).
    let t = turn(
        &v,
        &pos,
        &[
            "Russians: A(Smo)-WRu (x2)",
            "Russians: A(Psk) S A(Smo)-WRu",
            "Poles: A(Lit) S A(WRu)",
        ],
    );
    assert_eq!(at(&v, &t, "WRu").map(|x| x.0), Some("Russia".into()));
}

#[test]
fn rule_4_a_double_support_of_a_hold_counts_double_by_mail() {
    let mut w = game_by_mail(&["Russians", "Poles"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Kaz\nEDIT REMOVE Ore\nEDIT REMOVE Sar\n\
         EDIT ADD Russians A Smo\nEDIT ADD Russians A Psk\nEDIT ADD Poles A WRu",
    );
    assert!(r.contains("added"), "{r}");
    w.reply(
        "Russians@example.test",
        "SIGNON Russians y1700 pw-secret\nRussians 1700 Moves: A(Smo)-WRu (x2);\nA(Psk) S A(Smo)-WRu;",
    );
    w.reply(
        "Poles@example.test",
        "SIGNON Poles y1700 pw-secret\nPoles 1700 Moves: A(Lit) S A(WRu) (x2);",
    );
    let body = results_for(&mut w, "Poles");
    assert!(!body.contains("dislodged"), "{body}");
    let pos = stored(&mut w);
    let v = variant();
    let wru = prov(&v, "WRu");
    let poles = power(&v, "Poles");
    assert!(
        pos.units
            .iter()
            .any(|u| u.power == poles && v.map.province_of(u.region) == wru),
        "{:?}",
        pos.units
    );
}

#[test]
fn rule_4_double_strength_conflicts_add_up_everything_across_the_turn() {
    let v = variant();
    // Two against two: Russia's double move against Poland's move and
    // support, both given in the second impulse. A standoff.
    let pos = board(&v, "Russians = [\"A Smo\"]\nPoles = [\"A Vol\", \"A Lit\"]");
    let t = turn(
        &v,
        &pos,
        &[
            "Russians: A(Smo)-WRu (x2)",
            "Poles: A(Vol)-hold-WRu",
            "Poles: A(Lit)-hold-S A(Vol)-WRu",
        ],
    );
    assert!(at(&v, &t, "WRu").is_none(), "{:?}", t.units_after);
    assert_eq!(at(&v, &t, "Smo").map(|x| x.0), Some("Russia".into()));
    assert_eq!(at(&v, &t, "Vol").map(|x| x.0), Some("Poland".into()));
    assert!(t.rounds.iter().all(|r| r.retreats.is_empty()), "{t:?}");
    // A hold supported in the second impulse: two against two, it stands.
    let pos = board(&v, "Russians = [\"A Smo\"]\nPoles = [\"A WRu\", \"A Lit\"]");
    let t = turn(
        &v,
        &pos,
        &[
            "Russians: A(Smo)-WRu (x2)",
            "Poles: A(WRu) H",
            "Poles: A(Lit)-hold-S A(WRu)",
        ],
    );
    assert_eq!(at(&v, &t, "WRu").map(|x| x.0), Some("Poland".into()));
    assert_eq!(at(&v, &t, "Smo").map(|x| x.0), Some("Russia".into()));
}

#[test]
fn rule_4_double_strength_conflicts_add_up_across_the_turn_by_mail() {
    let mut w = game_by_mail(&["Russians", "Poles"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Kaz\nEDIT ADD Russians A Smo",
    );
    assert!(r.contains("added"), "{r}");
    let r = w.reply(
        "Russians@example.test",
        "SIGNON Russians y1700 pw-secret\nRussians 1700 Moves: A(Smo)-WRu (x2);",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let r = w.reply(
        "Poles@example.test",
        "SIGNON Poles y1700 pw-secret\nPoles 1700 Moves: A(Vol)-hold-WRu;\nA(Lit)-hold-S A(Vol)-WRu;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "Russians");
    assert!(!body.contains("dislodged"), "{body}");
    let pos = stored(&mut w);
    let v = variant();
    let (wru, smo) = (prov(&v, "WRu"), prov(&v, "Smo"));
    assert!(
        !pos.units.iter().any(|u| v.map.province_of(u.region) == wru),
        "a standoff: {:?}",
        pos.units
    );
    assert!(pos.units.iter().any(|u| v.map.province_of(u.region) == smo));
}

#[test]
fn rule_8_a_coast_turns_friendly_in_the_impulse_a_friendly_army_enters_it() {
    let v = variant();
    let pos = shared(&v, &[("France", "A Pic"), ("France", "F Pic")]);
    // The army takes Normandy in the first impulse; the fleet follows in
    // the second.
    let t = turn(&v, &pos, &["France: A(Pic)-Nmd", "France: F(Pic)-hold-Nmd"]);
    assert_eq!(t.orders, vec![None, None], "{:?}", t.orders);
    assert_eq!(fleets_at(&v, &t, "Nmd"), ["France"]);
    // An army passing through leaves it friendly.
    let t = turn(&v, &pos, &["France: A(Pic)-Nmd-Loi"]);
    let france = power(&v, "France");
    assert_eq!(t.friendly_after[prov(&v, "Nmd").index()], Some(france));
}

#[test]
fn rule_8_a_coast_turns_friendly_impulse_by_impulse_by_mail() {
    let mut w = game_by_mail(&["France"]);
    let r = w.reply(
        "France@example.test",
        "SIGNON France y1700 pw-secret\nFrance 1700 Moves: A(Pic)-Nmd-Loi;\nF(Bri)-hold-Nmd;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    assert!(!r.contains("friendly"), "{r}");
    let body = results_for(&mut w, "France");
    assert!(body.contains("sea 2: F(Bri)-Nmd"), "{body}");
    let pos = stored(&mut w);
    let v = variant();
    let nmd = prov(&v, "Nmd");
    assert!(
        pos.units
            .iter()
            .any(|u| u.kind == UnitKind::Fleet && v.map.province_of(u.region) == nmd),
        "the fleet stays in Normandy, friendly since the army passed: {:?}",
        pos.units
    );
}

#[test]
fn rule_8_stacked_fleets_are_separate_fleets_and_a_stack_splits() {
    let v = variant();
    let pos = shared(&v, &[("Sweden", "F Sca"), ("Sweden", "F Sca")]);
    // One order for each fleet of the stack: each goes its own way.
    let t = turn(&v, &pos, &["Sweden: F(Sca)-COS", "Sweden: F(Sca)-EBA"]);
    assert_eq!(t.orders, vec![None, None], "{:?}", t.orders);
    assert_eq!(fleets_at(&v, &t, "COS"), ["Sweden"]);
    assert_eq!(fleets_at(&v, &t, "EBA"), ["Sweden"]);
    // An order for one of them moves that one; the other stays.
    let t = turn(&v, &pos, &["Sweden: F(Sca)-COS"]);
    assert_eq!(fleets_at(&v, &t, "COS"), ["Sweden"]);
    assert_eq!(fleets_at(&v, &t, "Sca"), ["Sweden"]);
    // A third order finds no fleet left: it replaces.
    let t = turn(
        &v,
        &pos,
        &[
            "Sweden: F(Sca)-COS",
            "Sweden: F(Sca)-EBA",
            "Sweden: F(Sca)-WBA",
        ],
    );
    assert_eq!(t.orders[0], Some(Illegal::Replaced));
    assert_eq!(fleets_at(&v, &t, "WBA"), ["Sweden"]);
    assert_eq!(fleets_at(&v, &t, "EBA"), ["Sweden"]);
}

#[test]
fn rule_8_a_stack_splits_by_mail() {
    let mut w = game_by_mail(&["Sweden"]);
    let r = w.reply(
        "Sweden@example.test",
        "SIGNON Sweden y1700 pw-secret\nSweden 1700 Moves: F(Sca)-COS;\nF(Sca)-EBA;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    assert!(!r.contains("replaced"), "{r}");
    assert!(r.contains("F(Sca)-COS") && r.contains("F(Sca)-EBA"), "{r}");
    let body = results_for(&mut w, "Sweden");
    assert!(body.contains("sea 1: F(Sca)-COS"), "{body}");
    assert!(body.contains("sea 1: F(Sca)-EBA"), "{body}");
    let pos = stored(&mut w);
    let v = variant();
    for sea in ["COS", "EBA"] {
        let p = prov(&v, sea);
        assert_eq!(
            pos.units
                .iter()
                .filter(|u| u.kind == UnitKind::Fleet && v.map.province_of(u.region) == p)
                .count(),
            1,
            "{sea}: {:?}",
            pos.units
        );
    }
}

#[test]
fn rule_8_a_fleet_leaving_an_enemy_coast_never_joins_another_power_s_fleets() {
    let v = variant();
    // Spain's army takes Normandy: the French fleet there must leave, and
    // the Channel, its only way out that is not Spanish, holds an
    // Anglo-Dutch fleet. Fleets of two powers never share a place (the
    // position could not be stored): it is lost.
    let pos = shared(
        &v,
        &[
            ("France", "F Nmd"),
            ("Spain", "A Pic"),
            ("Spain", "A Bri"),
            ("Anglo-Dutch", "F ENG"),
        ],
    );
    let t = turn(&v, &pos, &["Spain: A(Pic)-Nmd"]);
    assert_eq!(fleets_at(&v, &t, "ENG"), ["Anglo-Dutch"]);
    assert!(fleets_at(&v, &t, "Nmd").is_empty());
    let mut next = pos.clone();
    next.units = t.units_after.clone();
    let text = next.to_toml(&v);
    Position::from_toml(&v, &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
}

#[test]
fn rule_8_a_part_of_a_stack_sails_only_where_a_fleet_can() {
    let v = variant();
    let pos = shared(&v, &[("Sweden", "F Sca"), ("Sweden", "F Sca")]);
    // Finland is not next to Scania: that fleet stays.
    let t = turn(&v, &pos, &["Sweden: F(Sca)-COS", "Sweden: F(Sca)-Fin"]);
    assert_eq!(t.orders[1], Some(Illegal::NotAdjacent));
    assert_eq!(fleets_at(&v, &t, "COS"), ["Sweden"]);
    assert_eq!(fleets_at(&v, &t, "Sca"), ["Sweden"]);
    assert!(fleets_at(&v, &t, "Fin").is_empty());
}

#[test]
fn rule_8_fleets_and_land_units_do_not_support_each_other_and_the_results_say_why() {
    let v = variant();
    let pos = shared(
        &v,
        &[
            ("France", "F Pic"),
            ("France", "A Pic"),
            ("France", "A Par"),
        ],
    );
    let t = turn(
        &v,
        &pos,
        &[
            "France: F(Pic) S A(Pic)-Nmd",
            "France: A(Par) S F(Pic)",
            "France: A(Pic)-Nmd",
        ],
    );
    assert_eq!(
        t.orders,
        vec![Some(Illegal::FleetsApart), Some(Illegal::FleetsApart), None]
    );
    assert_eq!(at(&v, &t, "Nmd").map(|x| x.1), Some(UnitKind::Army));
    assert!(
        Illegal::FleetsApart
            .to_string()
            .contains("fleets support only fleets")
    );
}

#[test]
fn rule_8_a_third_fleet_built_on_a_coast_is_refused_for_the_stacking_limit() {
    use zinejudge::adjudicate::AdjustStatus;
    use zinejudge::game::step::{PhaseOrders, PhaseResult, play};
    let v = variant();
    let sweden = power(&v, "Sweden");
    // Two fleets in Scania, a home coastal centre, and builds due.
    let pos = shared(&v, &[("Sweden", "F Sca"), ("Sweden", "F Sca")]);
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let AnyCommand::Adjust(command) = parser
        .parse("Build F Sca", Some(PhaseKind::Adjustment))
        .expect("parses")
        .command
    else {
        panic!("a build")
    };
    let orders = PhaseOrders::Turn {
        moves: Vec::new(),
        retreats: Vec::new(),
        adjust: vec![zinejudge::orders::AdjustOrder {
            power: sweden,
            command,
        }],
    };
    let (PhaseResult::Turn(t), _) = play(&v, &pos, &orders) else {
        panic!("a turn")
    };
    assert_eq!(
        t.adjustments.orders[0],
        AdjustStatus::Illegal(Illegal::StackLimit)
    );
}

#[test]
fn rule_7_a_leader_holds_with_strength_one() {
    // Rule 7: a leader "behaves as a normal army with the following
    // exceptions ... may move and support with triple strength". Holding
    // is no exception: Prince Eugene holding Vienna is driven out by an
    // attack with one support, as any army would be.
    let mut w = game_by_mail(&["Austria", "Turks"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Hun\nEDIT REMOVE Boh\nEDIT ADD Turks A Hun\nEDIT ADD Turks A Boh",
    );
    assert!(r.contains("added"), "{r}");
    let r = w.reply(
        "Turks@example.test",
        "SIGNON Turks y1700 pw-secret\nTurks 1700 Moves: A(Hun)-Vie;\nA(Boh) S A(Hun)-Vie;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let r = w.reply(
        "Austria@example.test",
        "SIGNON Austria y1700 pw-secret\nAustria 1700 Moves: Euge(Vie) H;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "Austria");
    assert!(body.contains("dislodged"), "{body}");
    let pos = stored(&mut w);
    let v = variant();
    let vie = prov(&v, "Vie");
    let in_vienna: Vec<_> = pos
        .units
        .iter()
        .filter(|u| v.map.province_of(u.region) == vie)
        .collect();
    assert_eq!(in_vienna.len(), 1, "{:?}", pos.units);
    assert_eq!(v.map.power(in_vienna[0].power).name, "Turkey");
    assert_eq!(in_vienna[0].kind, UnitKind::Army);
}

#[test]
fn rule_8_a_fleet_left_in_an_enemy_coast_retreats_by_the_sheet_as_a_land_unit_would() {
    let v = variant();
    // Rule 8: fleets left in enemy coasts "must immediately be retreated as
    // a land unit would be", so by the sheet's retreat (rule 5) when it
    // fits: Spain takes Picardy, and France's `Retreats: F(Pic)-ENG` sends
    // the fleet to the Channel, not where the GM would.
    // A French army in Normandy leaves that coast friendly, and nearer
    // the French centres.
    let pos = shared(
        &v,
        &[("France", "F Pic"), ("France", "A Nmd"), ("Spain", "A SNe")],
    );
    let t = turn(
        &v,
        &pos,
        &["Spain: A(SNe)-Pic", "France: Retreat F(Pic)-ENG"],
    );
    assert_eq!(t.forced_out.len(), 1, "{:?}", t.forced_out);
    assert_eq!(fleets_at(&v, &t, "ENG"), ["France"], "{:?}", t.forced_out);
}

#[test]
fn rule_4_all_supports_for_the_whole_turn_count_from_a_unit_that_moved_first() {
    let v = variant();
    // Rule 4: "when a unit is using its double strength capability, all
    // attacks and supports for the whole turn are added up". Novgorod's
    // army marches to Pskov in the first impulse and supports the double
    // attack on White Russia from there in the second: three against the
    // Polish army's two.
    let pos = board(
        &v,
        "Russians = [\"A Smo\", \"A Nov\"]\nPoles = [\"A WRu\", \"A Lit\"]",
    );
    let t = turn(
        &v,
        &pos,
        &[
            "Russians: A(Smo)-WRu (x2)",
            "Russians: A(Nov)-Psk-S A(Smo)-WRu",
            "Poles: A(WRu) H",
            "Poles: A(Lit) S A(WRu)",
        ],
    );
    assert_eq!(
        at(&v, &t, "WRu").map(|x| x.0),
        Some("Russia".into()),
        "{t:?}"
    );
    assert_eq!(at(&v, &t, "Psk").map(|x| x.0), Some("Russia".into()));
    assert!(t.orders.iter().all(Option::is_none), "{:?}", t.orders);
    // Cut in its impulse by a Swedish attack on Pskov, it does not count:
    // two against two, the Polish army stands.
    let pos = board(
        &v,
        "Russians = [\"A Smo\", \"A Nov\"]\nPoles = [\"A WRu\", \"A Lit\"]\nSweden = [\"A Liv\"]",
    );
    let t = turn(
        &v,
        &pos,
        &[
            "Russians: A(Smo)-WRu (x2)",
            "Russians: A(Nov)-Psk-S A(Smo)-WRu",
            "Poles: A(WRu) H",
            "Poles: A(Lit) S A(WRu)",
            "Sweden: A(Liv)-hold-Psk",
        ],
    );
    assert_eq!(
        at(&v, &t, "WRu").map(|x| x.0),
        Some("Poland".into()),
        "{t:?}"
    );
    assert_eq!(at(&v, &t, "Smo").map(|x| x.0), Some("Russia".into()));
    // A move that fails leaves the army in Novgorod, from where it cannot
    // support into White Russia: its support does not count.
    let pos = board(
        &v,
        "Russians = [\"A Smo\", \"A Nov\"]\nPoles = [\"A WRu\", \"A Lit\", \"A Psk\"]",
    );
    let t = turn(
        &v,
        &pos,
        &[
            "Russians: A(Smo)-WRu (x2)",
            "Russians: A(Nov)-Psk-S A(Smo)-WRu",
            "Poles: A(WRu) H",
            "Poles: A(Lit) S A(WRu)",
        ],
    );
    assert_eq!(
        at(&v, &t, "WRu").map(|x| x.0),
        Some("Poland".into()),
        "{t:?}"
    );
    assert_eq!(at(&v, &t, "Nov").map(|x| x.0), Some("Russia".into()));
}

#[test]
fn rule_4_all_supports_for_the_whole_turn_count_from_a_unit_that_moved_first_by_mail() {
    let mut w = game_by_mail(&["Russians", "Poles"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Kaz\nEDIT ADD Russians A Smo\n\
         EDIT REMOVE Vol\nEDIT ADD Poles A WRu",
    );
    assert!(r.contains("added"), "{r}");
    let r = w.reply(
        "Russians@example.test",
        "SIGNON Russians y1700 pw-secret\nRussians 1700 Moves: A(Smo)-WRu (x2);\nA(Nov)-Psk-S A(Smo)-WRu;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let r = w.reply(
        "Poles@example.test",
        "SIGNON Poles y1700 pw-secret\nPoles 1700 Moves: A(WRu)-hold;\nA(Lit) S A(WRu);",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "Russians");
    // The second impulse's support is printed in its impulse, and counted.
    let line = body
        .lines()
        .find(|l| l.contains("2: A(Psk) S A(Smo)-WRu"))
        .unwrap_or_else(|| panic!("{body}"));
    assert!(!line.contains("void"), "{body}");
    assert!(body.contains("1: A(Smo)-WRu (x2)"), "{body}");
    let pos = stored(&mut w);
    let v = variant();
    let wru = prov(&v, "WRu");
    let russia = power(&v, "Russians");
    assert!(
        pos.units
            .iter()
            .any(|u| u.power == russia && v.map.province_of(u.region) == wru),
        "{body}\n{:?}",
        pos.units
    );
}

#[test]
fn rule_4_a_later_support_added_to_a_double_conflict_is_printed_as_written() {
    let mut w = game_by_mail(&["Poles"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Vol\nEDIT ADD Poles A Sil",
    );
    assert!(r.contains("added"), "{r}");
    // Saxony's support, given in the second impulse, joins the double
    // attack on Brandenburg-Prussia's garrison of two (rule 4: "all
    // attacks and supports for the whole turn are added up"): three
    // against two. Silesia's second-impulse support of the army in
    // Brandenburg-Prussia is for Poland's own army once it is in, not
    // for the garrison it attacks.
    let r = w.reply(
        "Poles@example.test",
        "SIGNON Poles y1700 pw-secret\nPoles 1700 Moves: A(WPr)-BPr (x2);\n\
         A(Sar)-hold-S A(WPr)-BPr;\nA(Sil)-hold-S A(BPr);",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "Poles");
    assert!(body.contains("1: A(Sar)-hold-S A(WPr)-BPr"), "{body}");
    assert!(!body.contains("1: A(Sar) S"), "{body}");
    let line = body
        .lines()
        .find(|l| l.contains("2: A(Sil) S A(BPr)"))
        .unwrap_or_else(|| panic!("{body}"));
    assert!(!line.contains("void"), "{body}");
    let pos = stored(&mut w);
    let v = variant();
    let bpr = prov(&v, "BPr");
    let poles = power(&v, "Poles");
    assert!(
        pos.units
            .iter()
            .any(|u| u.power == poles && v.map.province_of(u.region) == bpr),
        "{body}\n{:?}",
        pos.units
    );
}

#[test]
fn rule_7_a_retreating_leader_displaces_a_friendly_army_which_retreats_and_the_results_say_so() {
    let mut w = game_by_mail(&["Russians", "Poles"]);
    // Menshikov in Smolensk, every place around him held: Moscow by his
    // own army, the rest by Polish armies.
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Mos\nEDIT REMOVE Nov\nEDIT REMOVE Ukr\n\
         EDIT REMOVE Ore\nEDIT ADD Russians L Smo\nEDIT ADD Russians A Mos\n\
         EDIT ADD Poles A WRu\nEDIT ADD Poles A Ukr\nEDIT ADD Poles A Psk\n\
         EDIT ADD Poles A Nov\nEDIT ADD Poles A Ore",
    );
    assert!(!r.contains("rror"), "{r}");
    let r = w.reply(
        "Poles@example.test",
        "SIGNON Poles y1700 pw-secret\nPoles 1700 Moves: A(WRu)-Smo (x2);\n\
         A(Ukr) S A(WRu)-Smo (x2);\nA(Psk) S A(WRu)-Smo;\nA(Nov) S A(WRu)-Smo;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    // Rule 7: "when retreating a leader displaces a friendly army"; the
    // army displaced retreats as a dislodged unit would (rule 5), by the
    // sheet's retreat.
    let r = w.reply(
        "Russians@example.test",
        "SIGNON Russians y1700 pw-secret\nRussians 1700 Moves: A(Mos) H;\nRetreats: A(Mos)-Yar;\n\
         Removes: A(Kaz).",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "Russians");
    let body = body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        body.contains("Russia: Menshikov(Smo)-Mos (nowhere free: it displaces a friendly army)"),
        "{body}"
    );
    assert!(
        body.contains("Russia: A(Mos)-Yar (displaced by its own leader's retreat)"),
        "{body}"
    );
    let pos = stored(&mut w);
    let v = variant();
    let at = |name: &str| {
        pos.units
            .iter()
            .find(|u| v.map.province_of(u.region) == prov(&v, name))
            .map(|u| u.kind)
    };
    assert_eq!(at("Mos"), Some(UnitKind::Leader), "{:?}", pos.units);
    assert_eq!(at("Yar"), Some(UnitKind::Army), "{:?}", pos.units);
}

#[test]
fn rule_5_a_retreat_refused_by_an_armed_neutral_says_why() {
    let mut w = game_by_mail(&["Russians", "Poles"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Kaz\nEDIT ADD Russians A WRu",
    );
    assert!(!r.contains("rror"), "{r}");
    let r = w.reply(
        "Russians@example.test",
        "SIGNON Russians y1700 pw-secret\nRussians 1700 Moves: A(WRu)-Lit (x2);",
    );
    assert!(!r.contains("not accepted"), "{r}");
    // Courland is an armed neutral still held by its garrison: only an
    // attack enters it (rule 10b), so the sheet's retreat cannot be made;
    // and no free place is nearer a Polish centre than Lithuania, itself
    // one (rule 5): the army is disbanded, and the results say why.
    let r = w.reply(
        "Poles@example.test",
        "SIGNON Poles y1700 pw-secret\nPoles 1700 Moves: A(Lit) H;\nRetreats: A(Lit)-Kur.",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "Poles");
    let body = body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        body.contains(
            "Poland: A(Lit) disbanded (not to Kur: an armed neutral holds it, only an \
             attack enters it; no free place nearer a centre of its own)"
        ),
        "{body}"
    );
}

#[test]
fn rule_8_a_fleet_move_refused_at_judgement_is_printed_as_written_with_its_reason() {
    let mut w = game_by_mail(&["France"]);
    // Rule 8: "fleets may only occupy friendly coastal provinces", and
    // Provence is nobody's: the reply cannot know (an army may make it
    // friendly in the same impulse), the results say why it failed.
    let r = w.reply(
        "France@example.test",
        "SIGNON France y1700 pw-secret\nFrance 1700 Moves: F(Lgd)-Pro;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "France");
    let joined = body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        joined.contains("sea 1: F(Lgd)-Pro void: fleets may enter only friendly coastal provinces"),
        "{body}"
    );
    assert!(!body.contains("F(Lgd) H"), "{body}");
}

#[test]
fn rule_10c_a_single_impulse_across_the_swiss_border_is_shown_as_written_with_its_reason() {
    let v = variant();
    // Offline (`zinejudge adjudicate`) the order reaches the judge, which
    // holds the unit: the round shows the move as written, void, with the
    // reason ("all actions across the Swiss border require two impulses").
    let pos = board(&v, "France = [\"A Bur\"]");
    let t = turn(&v, &pos, &["France: A(Bur)-Swi"]);
    let round = &t.rounds[0];
    let k = round
        .orders
        .iter()
        .position(|(o, _)| o.unit.at.province == prov(&v, "Bur"))
        .expect("the order is shown");
    assert!(
        matches!(
            round.orders[k].0.command,
            zinejudge::orders::MainCommand::Move { .. }
        ),
        "{:?}",
        round.orders[k]
    );
    assert_eq!(round.result.orders[k], Some(Illegal::MountainCrossing));
    assert_eq!(at(&v, &t, "Bur").map(|x| x.0), Some("France".into()));
}

#[test]
fn rule_8_the_chart_says_a_centre_keeps_two_fleets() {
    let mut w = game_by_mail(&["France"]);
    // Rule 8: "each supply centre supports 2 fleets": France's four
    // centres keep its leader, two armies and two fleets, which the
    // chart counts as five units.
    let body = results_for(&mut w, "France");
    assert!(body.contains("France         4, units 5"), "{body}");
    assert!(
        body.contains("(Units count each fleet; a centre keeps one army or 2 fleets.)"),
        "{body}"
    );
}

#[test]
fn rule_4_all_attacks_for_the_whole_turn_count_from_a_unit_that_moved_first() {
    let v = variant();
    // Rule 4: "when a unit is using its double strength capability, all
    // attacks and supports for the whole turn are added up and compared to
    // all holds/attacks and supports with the greatest number succeeding".
    // Podolia's army marches to Volhynia in the first impulse and attacks
    // White Russia from there in the second, with Lithuania's and
    // Mazovia's second-impulse supports: three against Russia's double
    // move of two. Poland takes White Russia; Russia's army never gets in.
    let pos = board(
        &v,
        "Russians = [\"A Smo\"]\nPoles = [\"A Pod\", \"A Lit\", \"A Maz\"]",
    );
    let orders = [
        "Russians: A(Smo)-WRu (x2)",
        "Poles: A(Pod)-Vol-WRu",
        "Poles: A(Lit)-hold-S A(Vol)-WRu",
        "Poles: A(Maz)-hold-S A(Vol)-WRu",
    ];
    let t = turn(&v, &pos, &orders);
    assert_eq!(
        at(&v, &t, "WRu").map(|x| x.0),
        Some("Poland".into()),
        "{t:?}"
    );
    assert_eq!(at(&v, &t, "Smo").map(|x| x.0), Some("Russia".into()));
    assert!(at(&v, &t, "Pod").is_none(), "{:?}", t.units_after);
    // With one support, two against two: a standoff, nobody enters, and
    // the Polish army stays where its first impulse took it.
    let t = turn(&v, &pos, &orders[..3]);
    assert!(at(&v, &t, "WRu").is_none(), "{:?}", t.units_after);
    assert_eq!(at(&v, &t, "Smo").map(|x| x.0), Some("Russia".into()));
    assert_eq!(at(&v, &t, "Vol").map(|x| x.0), Some("Poland".into()));
    // Alone, one against two: the double move is made, and the later
    // attack is judged with it: it bounces in its impulse.
    let t = turn(&v, &pos, &orders[..2]);
    assert_eq!(at(&v, &t, "WRu").map(|x| x.0), Some("Russia".into()));
    assert_eq!(at(&v, &t, "Vol").map(|x| x.0), Some("Poland".into()));
    // An attack whose unit never gets where it attacks from is not
    // counted: Volhynia held, the march fails and the army stands.
    let pos = board(
        &v,
        "Russians = [\"A Smo\"]\nPoles = [\"A Pod\", \"A Lit\", \"A Maz\"]\nTurks = [\"A Vol\"]",
    );
    let t = turn(&v, &pos, &orders);
    assert_eq!(at(&v, &t, "WRu").map(|x| x.0), Some("Russia".into()));
    assert_eq!(at(&v, &t, "Pod").map(|x| x.0), Some("Poland".into()));
}

#[test]
fn rule_4_all_attacks_for_the_whole_turn_count_from_a_unit_that_moved_first_by_mail() {
    let mut w = game_by_mail(&["Russians", "Poles"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Kaz\nEDIT ADD Russians A Smo\n\
         EDIT REMOVE Vol\nEDIT ADD Poles A Pod",
    );
    assert!(r.contains("added"), "{r}");
    let r = w.reply(
        "Russians@example.test",
        "SIGNON Russians y1700 pw-secret\nRussians 1700 Moves: A(Smo)-WRu (x2);",
    );
    assert!(!r.contains("not accepted"), "{r}");
    // The march to Volhynia and on to White Russia, with a support from
    // Lithuania: two against Russia's double two, "the greatest number
    // succeeding" (rule 4): neither.
    let r = w.reply(
        "Poles@example.test",
        "SIGNON Poles y1700 pw-secret\nPoles 1700 Moves: A(Pod)-Vol-WRu;\n\
         A(Lit)-hold-S A(Vol)-WRu;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "Poles");
    let line = |needle: &str| {
        body.lines()
            .find(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("{needle}: {body}"))
            .to_string()
    };
    assert!(line("1: A(Smo)-WRu (x2)").contains("bounced"), "{body}");
    assert!(line("2: A(Vol)-WRu").contains("bounced"), "{body}");
    let pos = stored(&mut w);
    let v = variant();
    let wru = prov(&v, "WRu");
    assert!(
        !pos.units.iter().any(|u| v.map.province_of(u.region) == wru),
        "a standoff: {body}\n{:?}",
        pos.units
    );
}

#[test]
fn rule_4_a_void_support_says_what_the_unit_it_was_for_did_instead() {
    let mut w = game_by_mail(&["Russians"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Kaz\nEDIT ADD Russians A Smo",
    );
    assert!(r.contains("added"), "{r}");
    // Smolensk's army marches to Pskov in the first impulse: Ukraine's
    // support of it into White Russia in the same impulse, and Orenburg's
    // of it holding in the second, are void; the results say why.
    let r = w.reply(
        "Russians@example.test",
        "SIGNON Russians y1700 pw-secret\nRussians 1700 Moves: A(Smo)-Psk;\n\
         A(Ukr) S A(Smo)-WRu;\nA(Ore)-hold-S A(Smo);",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "Russians");
    let flat = body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("1: A(Ukr) S A(Smo)-WRu void: A(Smo) moved to Psk in impulse 1"),
        "{body}"
    );
    assert!(
        flat.contains("2: A(Ore) S A(Smo) void: A(Smo) moved to Psk in impulse 1"),
        "{body}"
    );
}

#[test]
fn rule_7_a_leader_whose_move_bounced_defends_with_one() {
    // Rule 7: a leader "behaves as a normal army with the following
    // exceptions ... may move and support with triple strength". A move
    // that fails leaves him holding, and he holds with one: Prince Eugene,
    // bounced off his own army in Bohemia, is driven from Vienna by an
    // attack with one support.
    let mut w = game_by_mail(&["Austria", "Turks"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Hun\nEDIT ADD Turks A Hun\nEDIT ADD Turks A Sty",
    );
    assert!(r.contains("added"), "{r}");
    let r = w.reply(
        "Turks@example.test",
        "SIGNON Turks y1700 pw-secret\nTurks 1700 Moves: A(Hun)-Vie;\nA(Sty) S A(Hun)-Vie;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let r = w.reply(
        "Austria@example.test",
        "SIGNON Austria y1700 pw-secret\nAustria 1700 Moves: Euge(Vie)-Boh;\nA(Boh) H;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "Austria");
    let flat = body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("1: Prince Eugene(Vie)-Boh bounced"), "{body}");
    assert!(body.contains("dislodged"), "{body}");
    let pos = stored(&mut w);
    let v = variant();
    let vie = prov(&v, "Vie");
    let in_vienna: Vec<_> = pos
        .units
        .iter()
        .filter(|u| v.map.province_of(u.region) == vie)
        .collect();
    assert_eq!(in_vienna.len(), 1, "{:?}", pos.units);
    assert_eq!(v.map.power(in_vienna[0].power).name, "Turkey");
}

#[test]
fn rule_4_a_unit_whose_double_move_failed_defends_with_one() {
    // Rule 4: a unit "may be ordered to move one area with double
    // strength": the double strength is the move's, both impulses spent on
    // it. A move that fails leaves the unit standing (rule 4: later orders
    // "become stand orders"), and under "the conventional rules of
    // Diplomacy" (rule 1) a unit whose move failed defends alone: the
    // Austrian army bounced off its own army in Bohemia at double
    // strength is driven from Vienna by an attack with one support.
    let mut w = game_by_mail(&["Austria", "Turks"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Vie\nEDIT ADD Austria A Vie\nEDIT REMOVE Hun\nEDIT ADD Turks A Hun\nEDIT ADD Turks A Sty",
    );
    assert!(r.contains("added"), "{r}");
    let r = w.reply(
        "Turks@example.test",
        "SIGNON Turks y1700 pw-secret\nTurks 1700 Moves: A(Hun)-Vie;\nA(Sty) S A(Hun)-Vie;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let r = w.reply(
        "Austria@example.test",
        "SIGNON Austria y1700 pw-secret\nAustria 1700 Moves: A(Vie)-Boh (x2);\nA(Boh) H;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "Austria");
    let flat = body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("A(Vie)-Boh (x2) bounced"), "{body}");
    assert!(flat.contains("dislodged"), "{body}");
    let pos = stored(&mut w);
    let v = variant();
    let vie = prov(&v, "Vie");
    let in_vienna: Vec<_> = pos
        .units
        .iter()
        .filter(|u| v.map.province_of(u.region) == vie)
        .collect();
    assert_eq!(in_vienna.len(), 1, "{:?}", pos.units);
    assert_eq!(v.map.power(in_vienna[0].power).name, "Turkey");
}

#[test]
fn rule_4_a_stack_whose_double_move_failed_defends_with_its_fleets() {
    let v = variant();
    // The same at sea (rule 8: "movement of fleets is as with regular land
    // units with two impulses"): a Swedish fleet sailing at double strength
    // from the Coast of Sweden bounces off two Anglo-Dutch fleets in the
    // North Sea, and defends with its one fleet against two more.
    let pos = shared(
        &v,
        &[
            ("Sweden", "F COS"),
            ("Anglo-Dutch", "F NTH"),
            ("Anglo-Dutch", "F NTH"),
            ("Anglo-Dutch", "F WBA"),
            ("Anglo-Dutch", "F WBA"),
        ],
    );
    let t = turn(
        &v,
        &pos,
        &["Sweden: F(COS)-NTH (x2)", "Anglo-Dutch: 2F(WBA)-COS"],
    );
    assert_eq!(t.orders, vec![None; 2], "{:?}", t.orders);
    assert_eq!(fleets_at(&v, &t, "NTH"), ["Anglo-Dutch", "Anglo-Dutch"]);
    assert_eq!(fleets_at(&v, &t, "COS"), ["Anglo-Dutch", "Anglo-Dutch"]);
    assert!(fleets_at(&v, &t, "WBA").is_empty(), "{:?}", t.units_after);
}

#[test]
fn rule_8_a_leader_carried_by_convoy_lands_with_one_strength_point_a_fleet() {
    let v = variant();
    // Rule 8: "convoys are as in regular Diplomacy with one fleet required
    // per strength point conveyed per impulse". Charles XII carried by
    // one fleet lands with one, not his three: he bounces off Denmark's
    // garrison of one, and stays in Gotaland.
    let one = shared(
        &v,
        &[
            ("Sweden", "L Got"),
            ("Sweden", "F COS"),
            ("Sweden", "A Fin"),
        ],
    );
    let orders = ["Sweden: CXII(Got)-Den", "Sweden: F(COS) C CXII(Got)-Den"];
    let t = turn(&v, &one, &orders);
    assert_eq!(t.orders, vec![None; 2], "{:?}", t.orders);
    assert_eq!(at(&v, &t, "Got"), Some(("Sweden".into(), UnitKind::Leader)));
    assert!(at(&v, &t, "Den").is_none(), "{:?}", t.units_after);
    // Two fleets carry two: enough for the garrison.
    let two = shared(
        &v,
        &[
            ("Sweden", "L Got"),
            ("Sweden", "F COS"),
            ("Sweden", "F COS"),
            ("Sweden", "A Fin"),
        ],
    );
    let orders = ["Sweden: CXII(Got)-Den", "Sweden: 2F(COS) C CXII(Got)-Den"];
    let t = turn(&v, &two, &orders);
    assert_eq!(t.orders, vec![None; 2], "{:?}", t.orders);
    assert_eq!(at(&v, &t, "Den"), Some(("Sweden".into(), UnitKind::Leader)));
}

#[test]
fn rule_7_a_power_has_one_leader_and_the_gm_cannot_add_a_second() {
    // Rule 7 names one leader a power ("Charles XII of Sweden"; the Turks,
    // "in the absence of any general of note", none), and "once destroyed
    // a leader may never be rebuilt". A second Swedish leader would be a
    // second Charles XII in the results: the GM's EDIT refuses him, and a
    // Turkish one, with the reason.
    let mut w = game_by_mail(&["Sweden", "Turks"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT ADD Sweden L Fin",
    );
    let r = r.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        r.contains("Charles XII of Sweden is already on the board (Got): a power has one leader"),
        "{r}"
    );
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT ADD Turks L Ana",
    );
    assert!(r.contains("Turkey has no leader"), "{r}");
    let pos = stored(&mut w);
    assert_eq!(
        pos.units
            .iter()
            .filter(|u| u.kind == UnitKind::Leader)
            .count(),
        7,
        "{:?}",
        pos.units
    );
    // Once he is gone, the GM may put him back (a correction).
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Got\nEDIT ADD Sweden L Got",
    );
    assert!(r.contains("added"), "{r}");
}

#[test]
fn rule_5_a_unit_waiting_off_the_board_to_retreat_acts_no_more_and_retreats_where_the_turn_left_room()
 {
    let mut w = game_by_mail(&["Russians", "Poles"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Kaz\nEDIT ADD Russians A Smo\n\
         EDIT REMOVE Vol\nEDIT ADD Poles A WRu",
    );
    assert!(r.contains("added"), "{r}");
    // Rule 5: retreats are "executed after the impulse (or turn, in double
    // impulse conflicts) of the attack". White Russia's army, told to wait
    // an impulse and march on, is dislodged by the double attack in the
    // first: it is off the board until the turn is over, so its march is
    // void, and its retreat to Volhynia, which Russia enters in the second
    // impulse, is no longer free when it is made.
    let r = w.reply(
        "Russians@example.test",
        "SIGNON Russians y1700 pw-secret\nRussians 1700 Moves: A(Smo)-WRu (x2);\nA(Ukr)-hold-Vol;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let r = w.reply(
        "Poles@example.test",
        "SIGNON Poles y1700 pw-secret\nPoles 1700 Moves: A(WRu)-hold-Psk;\nRetreats: A(WRu)-Vol;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "Poles");
    let flat = body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("2: A(WRu)-Psk void: the unit stands"),
        "{body}"
    );
    assert!(flat.contains("not to Vol: it is not free"), "{body}");
    let pos = stored(&mut w);
    let v = variant();
    let in_ = |name: &str| {
        pos.units
            .iter()
            .find(|u| v.map.province_of(u.region) == prov(&v, name))
            .map(|u| v.map.power(u.power).name.clone())
    };
    assert_eq!(in_("WRu").as_deref(), Some("Russia"), "{:?}", pos.units);
    assert_eq!(in_("Vol").as_deref(), Some("Russia"), "{:?}", pos.units);
}

#[test]
fn rule_8_a_fleet_left_in_an_enemy_coast_with_no_place_nearer_a_centre_is_disbanded() {
    // Rule 8: such fleets "must immediately be retreated as a land unit
    // would be", and rule 5: "if a unit cannot retreat closer to a
    // controlled supply centre it is disbanded". Spain takes Picardy; the
    // French fleet there has only the Channel, no nearer a French centre
    // than Picardy itself, which is next to Paris: it is disbanded, and
    // the results say why.
    let mut w = game_by_mail(&["France", "Spain"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT REMOVE Pic\nEDIT ADD France F Pic",
    );
    assert!(r.contains("added"), "{r}");
    let v = variant();
    let r = w.reply(
        "Spain@example.test",
        "SIGNON Spain y1700 pw-secret\nSpain 1700 Moves: A(SNe)-Pic;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "France");
    let flat = body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "F(Pic) disbanded (the coast is no longer friendly; no free place nearer a centre of its own)"
        ),
        "{body}"
    );
    let pos = stored(&mut w);
    let france = power(&v, "France");
    assert!(
        !pos.units.iter().any(|u| u.power == france
            && u.kind == UnitKind::Fleet
            && ![prov(&v, "Bri"), prov(&v, "Lgd")].contains(&v.map.province_of(u.region))),
        "{:?}",
        pos.units
    );
}

/// Rule 4: "All unit capabilities: convoy, support, hold, move etc. remain
/// the same as regular Diplomacy", and with double strength "all attacks
/// and supports for the whole turn are added up". A(Liv)'s double support
/// of A(Fin)-Kar (x2) takes both its impulses, so an attack on Livonia in
/// either cuts it, as in regular Diplomacy: two against the two of A(Kar)
/// supported from Novgorod, and nothing is dislodged. The attack from
/// Pskov in the second impulse (after a hold) did not cut it, and A(Kar)
/// was dislodged.
#[test]
fn rule_4_a_double_support_is_cut_by_an_attack_in_the_second_impulse() {
    let v = variant();
    let pos = board(
        &v,
        "Sweden = [\"A Fin\", \"A Liv\"]\nRussia = [\"A Kar\", \"A Nov\", \"A Psk\"]",
    );
    for attack in ["Russia: A(Psk)-Liv", "Russia: A(Psk)-hold-Liv"] {
        let t = turn(
            &v,
            &pos,
            &[
                "Sweden: A(Fin)-Kar (x2)",
                "Sweden: A(Liv) S A(Fin)-Kar (x2)",
                "Russia: A(Kar) H",
                "Russia: A(Nov) S A(Kar)",
                attack,
            ],
        );
        assert_eq!(
            at(&v, &t, "Kar"),
            Some(("Russia".into(), UnitKind::Army)),
            "{attack}: {t:#?}"
        );
        assert_eq!(
            at(&v, &t, "Fin"),
            Some(("Sweden".into(), UnitKind::Army)),
            "{attack}"
        );
        // The attack itself bounces: one against the army in Livonia.
        assert_eq!(
            at(&v, &t, "Liv"),
            Some(("Sweden".into(), UnitKind::Army)),
            "{attack}"
        );
        assert_eq!(
            at(&v, &t, "Psk"),
            Some(("Russia".into(), UnitKind::Army)),
            "{attack}"
        );
        // The results say the support was cut, in the first impulse.
        let first = &t.rounds[0];
        let liv = first
            .board
            .iter()
            .position(|u| v.map.province_of(u.region) == prov(&v, "Liv"))
            .expect("A(Liv) in the first impulse");
        assert!(
            matches!(
                first.result.units[liv].outcome,
                zinejudge::adjudicate::movement::Outcome::Cut(_)
            ),
            "{attack}: {:?}",
            first.result.units[liv]
        );
    }
}

/// Rule 4: "Second impulse orders which do not make sense because of first
/// impulse conflicts become stand orders." A(Liv)-Nov bounces off the
/// Russian army in Novgorod; its second impulse, `S A(Fin)-Kar`, can still
/// be given from Livonia (which borders Karelia), so it still makes sense
/// and counts: two against the army in Karelia, which is dislodged. It was
/// void ("an earlier impulse failed"), and A(Fin)-Kar bounced. A later
/// move of a unit whose move failed still stands: it sets out from where
/// the unit did not get.
#[test]
fn rule_4_a_second_impulse_support_that_still_makes_sense_counts_after_a_failed_move() {
    let v = variant();
    let pos = board(
        &v,
        "Sweden = [\"A Fin\", \"A Liv\"]\nRussia = [\"A Kar\", \"A Nov\"]",
    );
    let t = turn(
        &v,
        &pos,
        &[
            "Sweden: A(Liv)-Nov-S A(Fin)-Kar",
            "Sweden: A(Fin)-hold-Kar",
            "Russia: A(Kar) H",
            "Russia: A(Nov) H",
        ],
    );
    assert_eq!(
        at(&v, &t, "Kar"),
        Some(("Sweden".into(), UnitKind::Army)),
        "{t:#?}"
    );
    assert_eq!(at(&v, &t, "Liv"), Some(("Sweden".into(), UnitKind::Army)));
    assert_eq!(at(&v, &t, "Nov"), Some(("Russia".into(), UnitKind::Army)));
    assert!(t.rounds[1].voided.is_empty(), "{:?}", t.rounds[1].voided);
    assert_eq!(t.orders, vec![None, None, None, None]);
    // The same in a double-strength conflict, whose later supports are
    // added up (rule 4): A(Psk)-Liv bounces off the Swedish army, and its
    // support, given from Pskov, makes three against the two in White
    // Russia.
    let pos = board(
        &v,
        "Russia = [\"A Smo\", \"A Psk\"]\nPoland = [\"A WRu\", \"A Lit\"]\nSweden = [\"A Liv\"]",
    );
    let t = turn(
        &v,
        &pos,
        &[
            "Russia: A(Smo)-WRu (x2)",
            "Russia: A(Psk)-Liv-S A(Smo)-WRu",
            "Poland: A(WRu) H",
            "Poland: A(Lit) S A(WRu)",
        ],
    );
    assert_eq!(
        at(&v, &t, "WRu").map(|x| x.0),
        Some("Russia".into()),
        "{t:#?}"
    );
    assert_eq!(at(&v, &t, "Psk").map(|x| x.0), Some("Russia".into()));
    assert_eq!(at(&v, &t, "Liv").map(|x| x.0), Some("Sweden".into()));
}

/// Rule 4 by mail: the results show the support of the second impulse
/// given, not void.
#[test]
fn rule_4_by_mail_a_support_after_a_failed_move_is_given() {
    let mut w = game_by_mail(&["Sweden", "Russians"]);
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM y1700 gm-secret\nEDIT ADD Russians A Kar",
    );
    assert!(r.contains("added"), "{r}");
    let r = w.reply(
        "Sweden@example.test",
        "SIGNON Sweden y1700 pw-secret\nSweden 1700 Moves: A(Liv)-Nov-S A(Fin)-Kar;\nA(Fin)-hold-Kar;",
    );
    assert!(!r.contains("not accepted"), "{r}");
    let body = results_for(&mut w, "Sweden");
    let flat = body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("1: A(Liv)-Nov bounced with A(Nov)"), "{body}");
    assert!(flat.contains("2: A(Liv) S A(Fin)-Kar"), "{body}");
    assert!(!flat.contains("void"), "{body}");
    assert!(flat.contains("2: A(Fin)-Kar"), "{body}");
}
