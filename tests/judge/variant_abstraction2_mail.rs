//! Abstraction II played by mail where the rules of the A/F (rule 3) and
//! the exchanges (rule 6) once went wrong: each case through the judge's
//! own mail processing, as the players would see it.

use crate::support_judge;
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
    let row = zinejudge::testing::store::games::load(w.processor.store.conn(), "abs")
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

/// `text` with its lines joined and its spaces single.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Rule 6 by mail, as the two players read the replies to their offers:
/// one paragraph that wraps where the words allow, the giver told of its
/// own unit in its own words, and the second offerer told that the first
/// offer already matches.
#[test]
fn rule_6_by_mail_the_replies_to_matching_offers() {
    let mut w = game(&[]);
    let r = orders(
        &mut w,
        "France",
        "F Mar - GoL\nEXCHANGE Germany Mar FOR Dre",
    );
    assert!(
        flat(&r).contains(
            "Offer to Germany recorded: you give Mar for Dre. It is carried out at \
             the end of this move if Germany sends the matching offer: EXCHANGE \
             France Dre FOR Mar"
        ),
        "{r}"
    );
    // No word left alone on a line by a break in the middle of the sentence.
    assert!(
        !r.lines()
            .any(|l| l.trim() == "the" || l.trim() == "end of this move"),
        "{r}"
    );
    assert!(r.lines().all(|l| l.len() <= 72), "{r}");
    // France reads of its own fleet as its own.
    assert!(
        flat(&r).contains(
            "For now your own unit stands in Marseilles: it must be empty of your \
             units at the end of the move, or the exchange is not made."
        ),
        "{r}"
    );
    assert!(!r.contains("France's own unit"), "{r}");
    // Germany's offer matches the one France sent: it is not told to wait
    // for it.
    let r = orders(
        &mut w,
        "Germany",
        "A Dre - Sil\nEXCHANGE France Dre FOR Mar",
    );
    assert!(
        flat(&r).contains(
            "France has sent the matching offer, so the exchange is carried out at \
             the end of this move."
        ),
        "{r}"
    );
    assert!(!r.contains("if France sends"), "{r}");
    let results = process(&mut w, "Germany");
    assert!(
        flat(&results.body).contains("Exchanged: France gave Mar to Germany for Dre."),
        "{}",
        results.body
    );
}

/// Rule 3: the A/F is formed by an army boarding its own fleet, never
/// built; the refusal says so in words a player can use.
#[test]
fn rule_3_by_mail_an_a_f_is_never_built_and_the_refusal_says_how_one_is_formed() {
    // Germany loses its fleet in Kiel: one build due in September.
    let mut w = game(&["EDIT REMOVE Kie"]);
    process(&mut w, "Germany");
    process(&mut w, "Germany");
    process(&mut w, "Germany");
    let r = orders(&mut w, "Germany", "Build A/F(Kie)");
    let said = flat(&r);
    assert!(
        said.contains("an A/F is never built: it is formed when an army boards its own fleet"),
        "{r}"
    );
    assert!(!said.contains("a army/fleet"), "{r}");
    assert!(!said.contains("never rebuilt"), "{r}");
    // A fleet there is built.
    let r = orders(&mut w, "Germany", "Build F(Kie)");
    assert!(!r.contains("not accepted"), "{r}");
}

/// The removals the judge chooses at an adjustment say what the power
/// ordered, never "civil disorder" for a playing power that missed one
/// deadline under NMR HOLD (the game's setting; its seat is not in civil
/// disorder), nor "too few ordered" for a power nobody plays.
#[test]
fn rule_0_the_removals_the_judge_chooses_say_what_was_ordered() {
    let mut w = World::new();
    w.reply("gm@example.test", "CREATE abs abstraction2 gm-secret");
    for p in ["England", "France"] {
        w.reply(
            &format!("{p}@example.test"),
            &format!("JOIN abs pw-secret {p}"),
        );
    }
    w.reply("gm@example.test", "SIGNON GM abs gm-secret\nSTART");
    // England (played) and Turkey (nobody plays it) each keep two units
    // too many.
    let r = w.reply(
        "gm@example.test",
        "SIGNON GM abs gm-secret\nEDIT ADD England A Yor\nEDIT ADD England A Wal\n\
         EDIT ADD Turkey A Boh\nEDIT ADD Turkey A Sil",
    );
    assert_eq!(r.matches("added").count(), 4, "{r}");
    // July, August, September: on to the September adjustments.
    for _ in 0..3 {
        process(&mut w, "England");
    }
    // England sends nothing; the deadline passes, then the grace.
    let mut sent = w.advance(72 * 3600);
    sent.extend(w.advance(24 * 3600 + 60));
    let body = sent
        .iter()
        .find(|m| m.to_has("France@example.test") && m.body.contains("Adjustments:"))
        .unwrap_or_else(|| panic!("no adjustment results: {sent:#?}"))
        .body
        .clone();
    let said = flat(&body);
    assert!(
        said.contains("England: removes") && said.contains("Turkey: removes"),
        "{body}"
    );
    assert_eq!(
        said.matches("(no removals ordered: the judge's choice)")
            .count(),
        4,
        "{body}"
    );
    assert!(!said.contains("civil disorder"), "{body}");
    assert!(!said.contains("too few removals ordered"), "{body}");
}
