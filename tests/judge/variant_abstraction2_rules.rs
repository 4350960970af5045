//! Abstraction II's rules played (shared/rules/001_f412e3ea295cd39d.txt):
//! the calendar (rule 2), frozen regions (rule 5), exchanges of centres
//! (rule 6) and the end (rule 7).

use crate::support_play;
use support_play::{movement as moves, power, prov};

use crate::support_judge;
use support_judge::World;

use zinejudge::adjudicate::Illegal;
use zinejudge::game::Position;
use zinejudge::game::end::game_end;
use zinejudge::game::step::{PhaseOrders, PhaseResult, play};
use zinejudge::map::PowerId;
use zinejudge::orders::AnyCommand;
use zinejudge::orders::parse::OrderParser;
use zinejudge::variant::{PhaseKind, Variant};

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/games/abstraction2.toml");

fn variant() -> Variant {
    Variant::from_toml(&std::fs::read_to_string(FILE).expect("the file")).expect("loads")
}

fn at(v: &Variant, pos: &Position, name: &str) -> Option<PowerId> {
    pos.units
        .iter()
        .find(|u| v.map.province_of(u.region) == prov(v, name))
        .map(|u| u.power)
}

fn board(v: &Variant, phase: &str, units: &str) -> Position {
    Position::from_toml(v, &format!("phase = \"{phase}\"\n[units]\n{units}\n")).expect("position")
}

#[test]
fn rule_2_monthly_moves_from_july_1914_adjustments_after_september_december_march_june() {
    let v = variant();
    let pos = Position::initial(&v);
    assert_eq!(v.calendar.label(pos.phase), "July 1914 movement");
    let adjust: Vec<String> = v
        .calendar
        .seasons
        .iter()
        .filter(|s| s.phases.contains(&PhaseKind::Adjustment))
        .map(|s| s.name.clone())
        .collect();
    assert_eq!(adjust, ["March", "June", "September", "December"]);
}

#[test]
fn rule_5_frozen_fleets_stand_and_cannot_be_dislodged() {
    let v = variant();
    let pos = board(
        &v,
        "February 1915 movement",
        "Russia = [\"F BAR\"]\nEngland = [\"F NWG\", \"F ARO\", \"A Nwy\"]\n",
    );
    let (r, next) = moves(
        &v,
        &pos,
        &[
            "Russia: F BAR - NWG",
            "England: F NWG - BAR",
            "England: F ARO S F NWG - BAR",
        ],
    );
    assert_eq!(
        r.orders[0],
        Some(Illegal::Frozen),
        "the frozen fleet stands"
    );
    assert_eq!(
        r.orders[2],
        Some(Illegal::Frozen),
        "ARO is frozen too: no support"
    );
    assert_eq!(at(&v, &next, "BAR"), Some(power(&v, "Russia")));
    assert!(next.dislodged.is_empty());
    // In May the ice is gone: two against one dislodges it.
    let mut may = pos.clone();
    may.phase = v.calendar.parse("May 1915 movement").expect("phase");
    let (_, next) = moves(
        &v,
        &may,
        &["England: F NWG - BAR", "England: F ARO S F NWG - BAR"],
    );
    assert_eq!(at(&v, &next, "BAR"), Some(power(&v, "England")));
    assert_eq!(next.dislodged.len(), 1);
}

#[test]
fn rule_5_armies_in_lapland_and_archangel_are_held_fast_but_may_leave_overland() {
    let v = variant();
    let pos = board(
        &v,
        "January 1915 movement",
        "Russia = [\"A Arc\"]\nEngland = [\"A Fin\", \"A StP\", \"A Lap\"]\n",
    );
    // Three against one, and the army in Archangel stays.
    let (_, next) = moves(
        &v,
        &pos,
        &[
            "England: A Fin - Arc",
            "England: A StP S A Fin - Arc",
            "England: A Lap S A Fin - Arc",
        ],
    );
    assert_eq!(at(&v, &next, "Arc"), Some(power(&v, "Russia")));
    assert!(next.dislodged.is_empty());
    // It may march out overland.
    let (r, next) = moves(&v, &pos, &["Russia: A Arc - Mos"]);
    assert_eq!(r.orders, vec![None]);
    assert_eq!(at(&v, &next, "Mos"), Some(power(&v, "Russia")));
}

#[test]
fn rule_6_two_powers_exchange_centres_by_matching_offers_at_the_end_of_a_move() {
    let mut w = World::with_variant("../../games/abstraction2.toml");
    w.reply("gm@example.test", "CREATE abs abstraction2 gm-secret");
    w.reply("fr@example.test", "JOIN abs pw-secret France");
    w.reply("de@example.test", "JOIN abs pw-secret Germany");
    w.reply("gm@example.test", "SIGNON GM abs gm-secret\nSTART");
    // Marseilles (once its fleet has left) for Dresden (once its army has):
    // occupation is judged at the end of the move, not when offered.
    let r = w.reply(
        "fr@example.test",
        "SIGNON France abs pw-secret\nF Mar - GoL\nEXCHANGE Germany Mar FOR Dre",
    );
    assert!(r.contains("Offer to Germany recorded"), "{r}");
    // Told to France, of France's own fleet.
    let said = r.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        said.contains("For now your own unit stands in Marseilles")
            && said.contains("must be empty of your units at the end of the move"),
        "{r}"
    );
    assert!(!said.contains("France's own unit"), "{r}");
    w.reply(
        "de@example.test",
        "SIGNON Germany abs pw-secret\nA Dre - Sil\nEXCHANGE France Dre FOR Mar",
    );
    let sent = w.mail("gm@example.test", "SIGNON GM abs gm-secret\nPROCESS");
    let results = sent
        .iter()
        .find(|m| m.to_has("fr@example.test") && m.subject.contains("July 1914"))
        .expect("the July results");
    assert!(
        results
            .body
            .contains("Exchanged: France gave Mar to Germany for Dre."),
        "{}",
        results.body
    );
    // August: Paris for Berlin, but both armies stay: not made, and the
    // results say why.
    w.reply(
        "fr@example.test",
        "SIGNON France abs pw-secret\nEXCHANGE Germany Par FOR Ber",
    );
    w.reply(
        "de@example.test",
        "SIGNON Germany abs pw-secret\nEXCHANGE France Ber FOR Par",
    );
    let sent = w.mail("gm@example.test", "SIGNON GM abs gm-secret\nPROCESS");
    let results = sent
        .iter()
        .find(|m| m.to_has("de@example.test") && m.subject.contains("August 1914"))
        .expect("the August results");
    assert!(
        results
            .body
            .contains("Exchange not made, France giving Par to Germany for Ber: Paris is")
            && results.body.contains("occupied by France's own unit"),
        "{}",
        results.body
    );
    assert!(!results.body.contains("Exchanged:"), "{}", results.body);
}

#[test]
fn rule_6_a_centre_still_occupied_by_its_giver_at_the_end_of_the_move_is_not_exchanged() {
    let v = variant();
    let france = power(&v, "France");
    let germany = power(&v, "Germany");
    let mut pos = board(
        &v,
        "July 1914 movement",
        "France = [\"F Mar\"]\nGermany = [\"A Dre\", \"F GoL\"]",
    );
    pos.owners[prov(&v, "Mar").index()] = Some(france);
    pos.owners[prov(&v, "Dre").index()] = Some(germany);
    let offer = |from, to, give: &str, take: &str| zinejudge::game::position::Exchange {
        from,
        to,
        give: vec![prov(&v, give)],
        take: vec![prov(&v, take)],
    };
    // Accepted while the fleet is still in Marseilles, with the condition.
    let waits =
        zinejudge::game::exchange::offer(&v, &mut pos, offer(france, germany, "Mar", "Dre"))
            .expect("accepted");
    assert_eq!(waits.len(), 1);
    zinejudge::game::exchange::offer(&v, &mut pos, offer(germany, france, "Dre", "Mar"))
        .expect("accepted");
    // The French fleet bounces on the German one in the Gulf of Lyon and
    // stays: no exchange.
    let (_, next) = moves(&v, &pos, &["France: F(Mar)-GoL", "Germany: A(Dre)-Sil"]);
    assert_eq!(next.owners[prov(&v, "Mar").index()], Some(france));
    assert_eq!(next.owners[prov(&v, "Dre").index()], Some(germany));
    assert_eq!(next.state.unmade.len(), 1);
    assert!(
        next.state.unmade[0].why.contains("Marseilles"),
        "{:?}",
        next.state.unmade
    );
    // The reason is kept with the position (for the results) and reads back.
    let back = Position::from_toml(&v, &next.to_toml(&v)).expect("reads back");
    assert_eq!(back.state.unmade, next.state.unmade);
}

#[test]
fn rule_6_unequal_or_unmatched_offers_change_nothing() {
    let v = variant();
    let mut pos = Position::initial(&v);
    let france = power(&v, "France");
    let germany = power(&v, "Germany");
    pos.units.clear();
    let offer = |give: &[&str], take: &[&str]| zinejudge::game::position::Exchange {
        from: france,
        to: germany,
        give: give.iter().map(|n| prov(&v, n)).collect(),
        take: take.iter().map(|n| prov(&v, n)).collect(),
    };
    assert_eq!(
        zinejudge::game::exchange::offer(&v, &mut pos, offer(&["Mar", "Par"], &["Dre"])),
        Err(zinejudge::game::exchange::ExchangeError::Unequal)
    );
    zinejudge::game::exchange::offer(&v, &mut pos, offer(&["Mar"], &["Dre"])).expect("offer");
    let (_, next) = moves(&v, &pos, &[]);
    assert_eq!(
        next.owners[prov(&v, "Mar").index()],
        Some(france),
        "no match"
    );
    assert!(next.state.offers.is_empty(), "offers last one move");
}

#[test]
fn rule_7_after_december_1918_the_power_with_most_units_wins() {
    let v = variant();
    let mut before = Position::initial(&v);
    before.phase = v.calendar.parse("December 1918 adjustment").expect("phase");
    let end = game_end(&v, &before, &before).expect("the end");
    // Russia starts with five units, the others with four.
    assert!(
        end.contains("won by Russia with 5 units on the board"),
        "{end}"
    );
    let mut tied = before.clone();
    let i = tied
        .units
        .iter()
        .position(|u| u.power == power(&v, "Russia"))
        .expect("a Russian unit");
    tied.units.remove(i);
    let end = game_end(&v, &tied, &tied).expect("the end");
    assert!(end.contains("drawn between"), "{end}");
}

#[test]
fn rule_5_russia_builds_fleets_or_armies_in_archangel_in_march() {
    let v = variant();
    let mut pos = board(&v, "March 1915 adjustment", "Russia = [\"A Mos\"]\n");
    pos.owners = Position::initial(&v).owners;
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    for build in ["Build F Arc", "Build A Arc"] {
        let AnyCommand::Adjust(command) = parser
            .parse(build, Some(PhaseKind::Adjustment))
            .expect("parses")
            .command
        else {
            panic!("{build}")
        };
        let o = PhaseOrders::Adjustment(vec![zinejudge::orders::AdjustOrder {
            power: power(&v, "Russia"),
            command,
        }]);
        let (PhaseResult::Adjustment(r), _) = play(&v, &pos, &o) else {
            panic!("adjustment")
        };
        assert!(
            matches!(r.orders[0], zinejudge::adjudicate::AdjustStatus::Built(_)),
            "{build}: {:?}",
            r.orders
        );
    }
}

/// Rule 6: "The number of supply centres exchanged by each Power must be
/// equal." The EXCHANGE command refuses an unequal offer; the judge must
/// too, for a position that holds matching unequal offers all the same (a
/// position file, an old game): at the end of the move nothing changes
/// hands, and the results say why.
#[test]
fn rule_6_unequal_offers_in_a_position_are_not_exchanged_at_the_end_of_the_move() {
    let v = variant();
    let france = power(&v, "France");
    let germany = power(&v, "Germany");
    let mut pos = board(
        &v,
        "July 1914 movement",
        "France = [\"A Par\"]\nGermany = [\"A Ber\"]",
    );
    for (name, owner) in [("Mar", france), ("Bre", france), ("Dre", germany)] {
        pos.owners[prov(&v, name).index()] = Some(owner);
    }
    let list = |names: &[&str]| names.iter().map(|n| prov(&v, n)).collect::<Vec<_>>();
    pos.state.offers = vec![
        zinejudge::game::position::Exchange {
            from: france,
            to: germany,
            give: list(&["Mar", "Bre"]),
            take: list(&["Dre"]),
        },
        zinejudge::game::position::Exchange {
            from: germany,
            to: france,
            give: list(&["Dre"]),
            take: list(&["Mar", "Bre"]),
        },
    ];
    // As a position file holds them, read back.
    let pos = Position::from_toml(&v, &pos.to_toml(&v)).expect("reads back");
    assert_eq!(pos.state.offers.len(), 2);
    let (_, next) = moves(&v, &pos, &[]);
    assert_eq!(next.owners[prov(&v, "Mar").index()], Some(france));
    assert_eq!(next.owners[prov(&v, "Bre").index()], Some(france));
    assert_eq!(next.owners[prov(&v, "Dre").index()], Some(germany));
    assert!(
        next.state.exchanged.is_empty(),
        "{:?}",
        next.state.exchanged
    );
    assert_eq!(next.state.unmade.len(), 1, "{:?}", next.state.unmade);
    assert!(
        next.state.unmade[0]
            .why
            .contains("each side must give as many centres as it takes"),
        "{:?}",
        next.state.unmade
    );
}
