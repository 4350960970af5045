//! Abstraction II played by mail where the rules of the A/F (rule 3) and
//! the exchanges (rule 6) once went wrong: each case through the judge's
//! own mail processing, as the players would see it.

mod support_judge;
use support_judge::{Sent, World};

use zinejudge::game::Position;
use zinejudge::variant::{Variant, builtin};

const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

fn variant() -> Variant {
    builtin("abstraction2").expect("shipped").expect("loads")
}

/// A started game `abs` with every power joined, then the GM's EDIT lines.
fn game(edits: &[&str]) -> World {
    let mut w = World::new();
    w.reply("gm@example.test", "CREATE abs abstraction2 gm-secret");
    for p in POWERS {
        let r = w.reply(
            &format!("{p}@example.test"),
            &format!("JOIN abs pw-secret {p}"),
        );
        assert!(r.contains(&format!("asking for {p}")), "{r}");
    }
    w.reply("gm@example.test", "SIGNON GM abs gm-secret\nSTART");
    if !edits.is_empty() {
        let r = w.reply(
            "gm@example.test",
            &format!("SIGNON GM abs gm-secret\n{}", edits.join("\n")),
        );
        assert!(!r.contains("not ") || r.contains("added"), "{r}");
    }
    w
}

fn orders(w: &mut World, power: &str, lines: &str) -> String {
    w.reply(
        &format!("{power}@example.test"),
        &format!("SIGNON {power} abs pw-secret\n{lines}"),
    )
}

/// PROCESS, and the results mail `power` gets.
fn process(w: &mut World, power: &str) -> Sent {
    let sent = w.mail("gm@example.test", "SIGNON GM abs gm-secret\nPROCESS");
    sent.iter()
        .find(|m| m.to_has(&format!("{power}@example.test")) && m.subject.starts_with("abs: "))
        .unwrap_or_else(|| panic!("no results for {power}: {sent:#?}"))
        .clone()
}

/// The game's stored position, read back.
fn position(w: &mut World) -> Position {
    let row = zinejudge::store::games::load(w.processor.store.conn(), "abs")
        .expect("store")
        .expect("game");
    Position::from_toml(&variant(), &row.position).expect("the stored position reads back")
}

/// `Power K Prov` of every unit of `power`.
fn units_of(w: &mut World, power: &str) -> Vec<String> {
    let v = variant();
    let pos = position(w);
    let mut out: Vec<String> = pos
        .units
        .iter()
        .filter(|u| v.map.power(u.power).name == power)
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
fn rule_3_an_army_retreats_onto_its_own_fleet_by_mail_and_the_game_goes_on() {
    let mut w = game(&[
        "EDIT REMOVE Bre",
        "EDIT REMOVE Par",
        "EDIT ADD France A Bre",
        "EDIT ADD France F BoB",
        "EDIT ADD Germany A Par",
        "EDIT ADD Germany A Pic",
    ]);
    orders(&mut w, "Germany", "A(Par)-Bre\nA(Pic) S A(Par)-Bre");
    let results = process(&mut w, "France");
    // The results offer the sea the retreat phase will accept.
    assert!(
        results
            .body
            .contains("French A(Bre) (attacked from Par): may retreat to Gas, BoB"),
        "{}",
        results.body
    );
    // Every mail to the game is still answered.
    // The only retreat ordered, the phase goes at once.
    let sent = w.mail(
        "France@example.test",
        "SIGNON France abs pw-secret\nA(Bre)-BoB",
    );
    let r = &sent
        .iter()
        .find(|m| m.in_reply_to.is_some())
        .expect("a reply")
        .body;
    assert!(!r.contains("ot accepted"), "{r}");
    assert!(!r.contains("internal"), "{r}");
    let results = sent
        .iter()
        .find(|m| m.to_has("France@example.test") && m.subject.starts_with("abs: "))
        .unwrap_or_else(|| panic!("no retreat results: {sent:#?}"));
    assert!(results.body.contains("A(Bre)-BoB"), "{}", results.body);
    assert!(units_of(&mut w, "France").contains(&"A/F BoB".to_string()));
    let r = orders(&mut w, "France", "A/F(BoB)-MAO");
    assert!(!r.contains("not accepted"), "{r}");
}

#[test]
fn rule_3_by_mail_a_foreign_ferry_keeps_the_army_english_and_ones_own_keeps_it_aboard() {
    let mut w = game(&[
        "EDIT REMOVE Lon",
        "EDIT ADD England A Lon",
        "EDIT ADD France F ENG",
        "EDIT ADD Germany A Pic",
    ]);
    orders(&mut w, "England", "A(Lon)-Pic");
    orders(&mut w, "France", "F(ENG) C A(Lon)-Pic");
    let results = process(&mut w, "England");
    assert!(!results.body.contains("aboard"), "{}", results.body);
    assert!(units_of(&mut w, "England").contains(&"A Lon".to_string()));
    assert!(units_of(&mut w, "France").contains(&"F ENG".to_string()));
    // England's own fleet: the army that cannot land stays aboard, and the
    // results say the fleet is now an A/F.
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM abs gm-secret\nEDIT REMOVE ENG\nEDIT ADD England F ENG",
    );
    assert!(r.contains("added"), "{r}");
    orders(&mut w, "England", "A(Lon)-Pic\nF(ENG) C A(Lon)-Pic");
    let results = process(&mut w, "England");
    // The mark may wrap at 72 columns now that it says with whom.
    let words = results
        .body
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        words.contains("bounced with A(Pic), aboard its fleet: an A/F"),
        "{}",
        results.body
    );
    assert!(units_of(&mut w, "England").contains(&"A/F ENG".to_string()));
}

#[test]
fn rule_3_by_mail_what_the_replies_and_results_say() {
    let mut w = game(&[
        "EDIT REMOVE Lon",
        "EDIT ADD England A Lon",
        "EDIT ADD England F ENG",
        "EDIT ADD England A/F HBS",
        "EDIT ADD France A Lor",
    ]);
    // Boarding and landing in separate mails of one move.
    let r = orders(&mut w, "England", "A(Lon) boards F(ENG)");
    assert!(!r.contains("not accepted"), "{r}");
    let r = orders(&mut w, "England", "A/F(ENG) disembarks A(Pic)");
    assert!(!r.contains("not accepted"), "{r}");
    // An A/F never enters a coast.
    let r = orders(&mut w, "England", "A/F(HBS)-Edi");
    assert!(
        r.contains("an A/F may never enter a coastal province"),
        "{r}"
    );
    // Lorraine and Swabia do not touch: not adjacent, not a ferry question.
    let r = orders(&mut w, "France", "A(Lor)-Swa");
    assert!(r.contains("not adjacent"), "{r}");
    let results = process(&mut w, "England");
    let landing = results
        .body
        .lines()
        .find(|l| l.contains("disembarks"))
        .unwrap_or_else(|| panic!("{}", results.body));
    assert!(landing.contains("landed"), "{landing}");
    // The chart counts the A/F as the two units adjustments count.
    let row = results
        .body
        .lines()
        .find(|l| l.trim_start().starts_with("England") && l.contains("units"))
        .unwrap_or_else(|| panic!("{}", results.body));
    // F Edi, A Lvp, F Ply, A Pic, F ENG and the A/F (two).
    assert!(row.contains("units 7"), "{row}");
    // On to the September adjustments: 4 centres, 7 units, 3 removals.
    process(&mut w, "England");
    process(&mut w, "England");
    let r = orders(&mut w, "England", "Remove A/F(HBS)");
    assert!(r.contains("Still missing: 1 removal"), "{r}");
    let r = orders(&mut w, "England", "Remove A/F(HBS)\nRemove F(ENG)");
    assert!(!r.contains("Still missing"), "{r}");
}

#[test]
fn rule_3_by_mail_a_second_boarding_replaces_the_first_and_the_reply_says_so() {
    let mut w = game(&[
        "EDIT REMOVE Lon",
        "EDIT ADD England A Lon",
        "EDIT ADD England F ENG",
        "EDIT ADD England F ANG",
    ]);
    let r = orders(
        &mut w,
        "England",
        "A(Lon) boards F(ENG)\nA(Lon) boards F(ANG)",
    );
    assert!(r.contains("replaces"), "{r}");
    process(&mut w, "England");
    let u = units_of(&mut w, "England");
    assert!(u.contains(&"A/F ANG".to_string()), "{u:?}");
    assert!(u.contains(&"F ENG".to_string()), "{u:?}");
}

/// Rule 3's own example as a player copies it, on one line: the landing
/// written `A disembarks Por`, with no unit of its own, is the army of the
/// A/F ordered just before it, and the army lands in Portugal.
#[test]
fn rule_3_as_the_rule_text_writes_it_a_disembarks_por() {
    let mut w = game(&[
        "EDIT REMOVE Lon",
        "EDIT ADD England A Lon",
        "EDIT ADD England F ENG",
    ]);
    let r = orders(
        &mut w,
        "England",
        "A(Lon) boards F(ENG), A/F(ENG)-MAO, A disembarks Por",
    );
    assert!(
        !r.contains("not accepted") && !r.contains("not read"),
        "{r}"
    );
    assert!(r.contains("A/F(ENG) disembarks A(Por)"), "{r}");
    assert!(r.contains("A/F(ENG)-MAO"), "{r}");
    let results = process(&mut w, "England");
    let landing = results
        .body
        .lines()
        .find(|l| l.contains("disembarks"))
        .unwrap_or_else(|| panic!("{}", results.body));
    assert!(landing.contains("landed"), "{landing}");
    let units = units_of(&mut w, "England");
    assert!(units.contains(&"A Por".to_string()), "{units:?}");
    assert!(units.contains(&"F MAO".to_string()), "{units:?}");
    // With nothing boarded or ordered before it, the landing says what is
    // missing instead of guessing.
    let r = orders(&mut w, "England", "A disembarks Spa");
    assert!(r.contains("the A/F the army lands from"), "{r}");
}
