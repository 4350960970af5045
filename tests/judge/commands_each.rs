//! Every command of the judge, with its good form and its bad forms. Each
//! test names the behaviour it checks.

use crate::support_judge;
use support_judge::{Sent, World};

const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];
const GM: &str = "gm@example.test";

fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_lowercase())
}

/// A started standard game `g` with all seven players (password pw-Power).
fn started() -> World {
    let mut w = World::new();
    w.reply(GM, "CREATE g standard gm-secret");
    for p in POWERS {
        w.reply(&addr(p), &format!("JOIN g pw-{p} {p}"));
    }
    w
}

fn gm(w: &mut World, body: &str) -> String {
    w.reply(GM, &format!("SIGNON GM g gm-secret\n{body}"))
}

fn player(w: &mut World, p: &str, body: &str) -> String {
    w.reply(&addr(p), &format!("SIGNON {p} g pw-{p}\n{body}"))
}

fn subjects(sent: &[Sent], a: &str) -> Vec<String> {
    sent.iter()
        .filter(|m| m.to_has(a))
        .map(|m| m.subject.clone())
        .collect()
}

#[test]
fn help_lists_every_command_in_72_columns() {
    let mut w = World::new();
    let r = w.reply("x@example.test", "help");
    for name in [
        "SIGNON",
        "JOIN",
        "CREATE",
        "PRESS TO",
        "ROLLBACK",
        "EDIT ADD",
        "SET DEADLINE",
        "HISTORY",
    ] {
        assert!(r.contains(name), "{name} missing from HELP:\n{r}");
    }
    assert!(r.lines().all(|l| l.chars().count() <= 72), "{r}");
}

#[test]
fn a_mail_with_nothing_to_do_says_so() {
    let mut w = World::new();
    let r = w.reply("x@example.test", "Hello, is this the judge?");
    assert!(r.contains("found no commands or orders"), "{r}");
}

#[test]
fn orders_without_signon_are_refused_with_the_lines() {
    let mut w = World::new();
    let r = w.reply("x@example.test", "A(Lon)-Yor\nF Edi-NTH");
    assert!(r.contains("Orders need a SIGNON line before them"), "{r}");
    assert!(
        r.contains("line 1: A(Lon)-Yor") && r.contains("line 2: F Edi-NTH"),
        "{r}"
    );
}

#[test]
fn list_shows_forty_games_a_page_and_the_finished_games_apart() {
    let mut w = World::new();
    // 43 games; three of them end.
    let creates: Vec<String> = (1..=43)
        .map(|i| format!("CREATE p{i:02} standard gm-secret"))
        .collect();
    w.reply(GM, &creates.join("\n"));
    for i in [3, 7, 11] {
        let r = w.reply(GM, &format!("SIGNON GM p{i:02} gm-secret\nSTART\nEND DRAW"));
        assert!(r.contains("ended in a draw") || r.contains("draw"), "{r}");
    }
    let r = w.reply("x@example.test", "LIST");
    // The 40 games forming or in play, by name, on one page; the finished
    // ones are not among them, but counted.
    assert!(r.contains("p01 (standard), forming"), "{r}");
    assert!(r.contains("p43 (standard), forming"), "{r}");
    assert!(!r.contains("p03 (standard)"), "{r}");
    assert!(r.contains("and 3 finished games: LIST FINISHED"), "{r}");
    assert!(!r.contains("LIST PAGE 2"), "{r}");
    w.reply(GM, "CREATE p44 standard gm-secret");
    let r = w.reply("x@example.test", "LIST");
    assert!(
        r.contains("Games forming or in play: 1-40 of 41; next: LIST PAGE 2"),
        "{r}"
    );
    assert!(!r.contains("p44 (standard)"), "{r}");
    let r = w.reply("x@example.test", "LIST PAGE 2");
    assert!(r.contains("p44 (standard), forming"), "{r}");
    assert!(!r.contains("p01 (standard)"), "{r}");
    assert!(r.contains("Games forming or in play: 41-41 of 41"), "{r}");
    let r = w.reply("x@example.test", "list finished");
    assert!(r.contains("p03 (standard), finished"), "{r}");
    assert!(r.contains("p11 (standard), finished"), "{r}");
    assert!(!r.contains("p01 (standard)"), "{r}");
    // A page past the end says how many there are; a bad page is refused.
    let r = w.reply("x@example.test", "LIST PAGE 9");
    assert!(
        r.contains("There are 41 games forming or in play: 2 pages of 40"),
        "{r}"
    );
    let r = w.reply("x@example.test", "LIST PAGE zero");
    assert!(r.contains("a page is a number from 1"), "{r}");
    // A game cannot take the word.
    let r = w.reply(GM, "CREATE finished standard gm-secret");
    assert!(r.contains("is a word of LIST"), "{r}");
}

#[test]
fn list_and_variants() {
    let mut w = World::new();
    assert!(w.reply("x@example.test", "LIST").contains("No games yet"));
    let variants = w.reply("x@example.test", "VARIANTS");
    assert!(
        variants.contains("standard       Standard Diplomacy"),
        "{variants}"
    );
    // Every shipped variant is offered.
    for name in ["1066", "ardri", "1000ad", "abstraction2", "1700ad"] {
        assert!(variants.contains(name), "{name}: {variants}");
    }
    w.reply(GM, "CREATE g standard gm-secret");
    w.reply(&addr("England"), "JOIN g pw-secret England");
    let r = w.reply("x@example.test", "LIST");
    assert!(
        r.contains("g (standard), forming: Spring 1901 movement"),
        "{r}"
    );
    assert!(
        r.contains("open: Austria, France, Germany, Italy, Russia, Turkey"),
        "{r}"
    );
    let r = w.reply("x@example.test", "LIST g");
    assert!(r.contains("England  playing"), "{r}");
    assert!(r.contains("Austria  open"), "{r}");
    assert!(
        !r.contains("england@example.test"),
        "addresses are not shown: {r}"
    );
    assert!(
        w.reply("x@example.test", "LIST nosuch")
            .contains("there is no game called nosuch")
    );
}

#[test]
fn create_checks_name_variant_and_duplicates() {
    let mut w = World::new();
    let r = w.reply(GM, "CREATE g standard pw-secret");
    assert!(
        r.contains("Created g (Standard Diplomacy); you are its GM and signed on."),
        "{r}"
    );
    assert!(
        w.reply(GM, "CREATE G standard pw-secret")
            .contains("a game called G already exists")
    );
    // Neither `chess` nor `pw-secret` is a variant: either could be the
    // password (DPjudge writes it before the variant), so neither is
    // repeated; the variants the judge plays are.
    let r = w.reply(GM, "CREATE h chess pw-secret");
    let flat = r.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("neither word after the game's name is a variant the judge plays"),
        "{r}"
    );
    assert!(flat.contains("with one of: standard"), "{r}");
    assert!(!r.contains("pw-secret"), "{r}");
    assert!(
        w.reply(GM, "CREATE h standard")
            .contains("CREATE needs a game name, a variant and a password")
    );
    assert!(
        w.reply(GM, "CREATE h/i standard pw-secret")
            .contains("letters, digits")
    );
}

#[test]
fn join_takes_preferences_and_refuses_twice_or_full() {
    let mut w = World::new();
    w.reply(GM, "CREATE g standard gm-secret");
    let r = w.reply(&addr("a"), "JOIN g pw-secret Atlantis Italy");
    assert!(
        r.contains("no power `Atlantis`") && r.contains("You have joined g, asking for Italy"),
        "{r}"
    );
    assert!(
        w.reply(&addr("a"), "JOIN g pw2-secret")
            .contains("you already play in g")
    );
    assert!(
        w.reply(&addr("b"), "JOIN nosuch pw-secret")
            .contains("there is no game called nosuch")
    );
    assert!(
        w.reply(&addr("b"), "JOIN g")
            .contains("Not understood: write JOIN game password")
    );
    for i in 0..6 {
        w.reply(&format!("p{i}@example.test"), "JOIN g pw-secret");
    }
    assert!(
        w.reply(&addr("late"), "JOIN g pw-secret")
            .contains("not taking players")
    );
}

#[test]
fn signon_forms_and_one_answer_for_every_failure() {
    let mut w = started();
    assert!(
        w.reply("any@example.test", "SIGNON Eg pw-England")
            .contains("Signed on as England in g")
    );
    assert!(
        w.reply("any@example.test", "SIGNON england@g pw-England")
            .contains("Signed on as England in g")
    );
    assert!(
        w.reply("any@example.test", "SIGNON GM g gm-secret")
            .contains("Signed on as the GM of g")
    );
    assert!(
        w.reply("any@example.test", "SIGNON Mg gm-secret")
            .contains("Signed on as the GM of g")
    );
    let fail = "sign-on failed: the game, power or password is not right";
    for bad in [
        "SIGNON England g wrong",
        "SIGNON Atlantis g pw-England",
        "SIGNON England nosuch pw-England",
        "SIGNON GM g wrong",
    ] {
        let r = w.reply("spy@example.test", bad);
        assert!(r.contains(fail), "{bad}: {r}");
        assert!(
            !r.contains("wrong") && !r.contains("pw-England"),
            "no password echoed: {r}"
        );
    }
    // England's player was told of the failure, once (not of each).
    let sent = w.mail("spy@example.test", "SIGNON England g nope");
    assert!(
        !subjects(&sent, &addr("England"))
            .iter()
            .any(|s| s.contains("failed sign-on")),
        "told at most once an hour"
    );
    // The third failure in a row locks the seat, and that is told.
    let sent = w.mail("spy@example.test", "SIGNON England g nope");
    assert!(
        sent.iter().any(|m| m.to_has(&addr("England"))
            && m.subject == "England in g: failed sign-on"
            && m.body.contains("locked until")),
        "{sent:#?}"
    );
    // After a failed sign-on, orders are not taken.
    let r = w.reply("spy@example.test", "SIGNON England g nope\nF Lon-ENG");
    assert!(
        r.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .contains("which was not done, so they are orders for nothing"),
        "{r}"
    );
}

#[test]
fn signoff_ends_the_mail() {
    let mut w = started();
    let r = player(&mut w, "England", "SIGNOFF\nF Lon-ENG\n\nAlfred, of Wessex");
    assert!(
        r.contains("Signed off: the judge reads nothing after this line.")
            && r.contains("the 2 lines after it (from line")
            && r.contains("were not read")
            && !r.contains("F(Lon)-ENG"),
        "{r}"
    );
}

#[test]
fn clear_withdraws_orders_and_needs_a_power() {
    let mut w = started();
    player(&mut w, "England", "F Lon-ENG");
    let r = player(&mut w, "England", "CLEAR");
    assert!(
        r.contains("All your orders for this phase are withdrawn.")
            && r.contains("F(Lon) (no order: holds)"),
        "{r}"
    );
    assert!(
        w.reply("x@example.test", "CLEAR")
            .contains("sign on as a power first")
    );
}

#[test]
fn later_orders_replace_earlier_ones_for_the_same_unit() {
    let mut w = started();
    player(&mut w, "England", "F Lon-ENG\nF Edi-NTH");
    let r = player(&mut w, "England", "F Lon-NTH\nF Edi-NWG\nF Lon H");
    assert!(
        r.contains("  F(Lon) H\n") && r.contains("  F(Edi)-NWG\n"),
        "{r}"
    );
    // The reply says which held orders went, and holds only the new ones.
    assert!(
        r.contains("  line 2: F(Lon)-NTH\n    replaces F(Lon)-ENG (an earlier mail)\n")
            && r.contains("  line 4: F(Lon) H\n    replaces F(Lon)-NTH (line 2)\n"),
        "{r}"
    );
    let held = r
        .split("Orders held for England")
        .nth(1)
        .unwrap_or_else(|| panic!("{r}"));
    assert!(
        !held.contains("F(Lon)-ENG") && !held.contains("F(Lon)-NTH"),
        "{r}"
    );
    assert!(r.contains("Still missing: A(Lvp)."), "{r}");
}

#[test]
fn orders_for_other_powers_or_absent_units_are_refused_and_good_ones_kept() {
    let mut w = started();
    let r = player(
        &mut w,
        "England",
        "F Kie-Den\nA Mun-Ruh\nF Lon-Bel\nFrance: A Par-Bur\nF Edi-NTH",
    );
    assert!(
        r.contains("\"F Kie-Den\"\n    that unit belongs to another power"),
        "{r}"
    );
    assert!(r.contains("\"F Lon-Bel\"\n    not adjacent"), "{r}");
    // The refusal shows the way: where the fleet can go.
    assert!(
        r.contains("F(Lon) can move to ENG\n    (English Channel), NTH (North Sea), Wal (Wales) or Yor (Yorkshire)"),
        "{r}"
    );
    assert!(
        r.contains("you are signed on as England, not France"),
        "{r}"
    );
    assert!(r.contains("  F(Edi)-NTH\n"), "{r}");
}

/// A refused support or convoy says what the unit can do instead: where
/// it can support, which armies it can convoy and where to.
#[test]
fn a_refused_support_or_convoy_shows_what_the_unit_can_do() {
    let mut w = started();
    let r = player(&mut w, "England", "F Lon S A Lvp-Bel");
    let flat = r.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "F(Lon) can support into ENG (English Channel), NTH (North Sea), Wal (Wales) or Yor (Yorkshire)"
        ),
        "{r}"
    );
    // A fleet on a coast convoys nobody (the standard rules).
    let r = player(&mut w, "England", "F Edi C A Lvp-Nwy");
    let flat = r.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("F(Edi) has no army it could convoy now"),
        "{r}"
    );
    // Spring: the fleet goes to sea, the army to the shore.
    player(&mut w, "England", "F Lon-NTH\nA Lvp-Yor\nF Edi-NWG");
    gm(&mut w, "PROCESS");
    // Fall: a convoy from the North Sea to where no army stands shows the
    // armies it can carry and where to (Clyde through the Norwegian Sea).
    let r = player(&mut w, "England", "F NTH C A Lon-Hol");
    let flat = r.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("F(NTH) can convoy A(Yor) to Bel Cly Den Edi Hol Lon Nwy"),
        "{r}"
    );
}

#[test]
fn wrong_phase_orders_are_refused() {
    let mut w = started();
    let r = player(&mut w, "England", "Build F Lon");
    assert!(
        r.contains("    it is not an order for a movement phase\n"),
        "{r}"
    );
}

#[test]
fn ready_processes_only_when_everyone_is_ready() {
    let mut w = started();
    for p in &POWERS[..6] {
        let sent = w.mail(&addr(p), &format!("SIGNON {p} g pw-{p}\nREADY"));
        assert!(
            !sent.iter().any(|m| m.subject.contains("results")),
            "{p}: {sent:#?}"
        );
    }
    let r = player(&mut w, "Turkey", "NOT READY");
    assert!(r.contains("Not ready."));
    let sent = w.mail(&addr("Turkey"), "SIGNON Turkey g pw-Turkey\nREADY");
    let results = sent
        .iter()
        .find(|m| m.subject == "g: Spring 1901 results")
        .unwrap_or_else(|| panic!("{sent:#?}"));
    // READY with no orders is a choice to hold, not a missed move.
    assert!(
        !results.body.contains("No orders received"),
        "{}",
        results.body
    );
    assert!(
        !sent.iter().any(|m| m.subject.contains("no orders from")),
        "{sent:#?}"
    );
}

#[test]
fn a_short_phase_is_not_reminded_the_moment_it_opens() {
    let mut w = started();
    // Austria takes Serbia: a 24-hour Winter adjustment follows, with a
    // build owed; the 24-hour reminder waits until half of it has passed.
    gm(&mut w, "SET PHASE LENGTH 72h 24h");
    player(&mut w, "Austria", "A Bud - Ser");
    gm(&mut w, "PROCESS");
    gm(&mut w, "PROCESS");
    let list = w.reply(GM, "LIST g");
    assert!(list.contains("Winter 1901 adjustment"), "{list}");
    let sent = w.advance(60);
    assert!(
        !sent.iter().any(|m| m.subject.contains("orders due")),
        "{sent:#?}"
    );
    let sent = w.advance(13 * 3600);
    assert!(
        sent.iter().any(|m| m.subject.contains("orders due")),
        "{sent:#?}"
    );
}

#[test]
fn press_rules() {
    let mut w = started();
    let r = w.reply("x@example.test", "PRESS TO England\nhi\nENDPRESS");
    assert!(r.contains("sign on first"), "{r}");
    let r = player(&mut w, "France", "PRESS TO Atlantis\nhi\nENDPRESS");
    assert!(r.contains("no power `Atlantis`"), "{r}");
    let r = player(&mut w, "France", "PRESS TO England GREY\nhi\nENDPRESS");
    assert!(r.contains("allows only white press"), "{r}");
    let r = player(&mut w, "France", "PRESS TO England\nENDPRESS");
    assert!(r.contains("the press is empty"), "{r}");
    let r = player(&mut w, "France", "PRESS");
    assert!(r.contains("PRESS TO whom?"), "{r}");
    gm(&mut w, "SET PRESS NONE");
    let r = player(&mut w, "France", "PRESS TO England\nhi\nENDPRESS");
    assert!(r.contains("allows no press"), "{r}");
    gm(&mut w, "SET PRESS WHITE");
    let sent = w.mail(
        &addr("France"),
        "SIGNON France g pw-France\nPRESS TO England, Germany\nHello both.\nENDPRESS\nF Bre-MAO",
    );
    let e: Vec<&Sent> = sent.iter().filter(|m| m.to_has(&addr("England"))).collect();
    assert_eq!(e.len(), 1);
    assert_eq!(
        e[0].to.len(),
        1,
        "one mail per recipient: no addresses shown to others"
    );
    assert!(
        sent.iter()
            .any(|m| m.to_has(&addr("Germany")) && m.body == e[0].body)
    );
    assert!(!sent.iter().any(|m| m.to_has(&addr("Italy"))));
    assert!(
        e[0].body.contains("From France, to England, Germany:")
            && e[0].body.contains("Hello both.")
    );
    let reply = sent.iter().find(|m| m.in_reply_to.is_some()).unwrap();
    assert!(
        reply.body.contains("Press sent to England, Germany.") && reply.body.contains("F(Bre)-MAO"),
        "orders after ENDPRESS are read: {}",
        reply.body
    );
    // The GM's press is signed "the GM", not "The GM" mid-sentence.
    let sent = w.mail(
        GM,
        "SIGNON GM g gm-secret\nPRESS TO England\nPlay on.\nENDPRESS",
    );
    let e = sent
        .iter()
        .find(|m| m.to_has(&addr("England")))
        .expect("England reads the GM's press");
    assert!(e.body.contains("From the GM, to England:"), "{}", e.body);
}

#[test]
fn draw_needs_every_survivor_and_can_be_withdrawn() {
    let mut w = started();
    for p in &POWERS[..6] {
        let r = player(&mut w, p, "DRAW");
        assert!(r.contains("You vote for a draw."));
    }
    player(&mut w, "Austria", "NO DRAW");
    let r = player(&mut w, "Turkey", "DRAW");
    assert!(!r.contains("over"), "{r}");
    let r = player(&mut w, "Austria", "DRAW");
    assert!(r.contains("The game is over: a draw between"), "{r}");
}

#[test]
fn concession_wins_when_all_others_concede_to_the_same_power() {
    let mut w = started();
    assert!(player(&mut w, "France", "CONCEDE France").contains("cannot concede to yourself"));
    assert!(player(&mut w, "France", "CONCEDE").contains("write CONCEDE power"));
    for p in ["Austria", "England", "Germany", "Italy", "Russia"] {
        player(&mut w, p, "CONCEDE France");
    }
    player(&mut w, "Turkey", "CONCEDE Russia");
    let r = player(&mut w, "Turkey", "CONCEDE France");
    assert!(
        r.contains("The game is over: won by France (the others conceded)"),
        "{r}"
    );
}

#[test]
fn resign_opens_the_seat_and_tells_the_gm() {
    let mut w = started();
    // RESIGN alone, or chat that starts with the word, does nothing.
    let r = player(&mut w, "Italy", "RESIGN");
    assert!(r.contains("write RESIGN g alone on a line"), "{r}");
    let r = player(
        &mut w,
        "Italy",
        "Resign yourself to losing Venice, Austria!",
    );
    assert!(r.contains("Not understood"), "{r}");
    assert!(
        w.reply("x@example.test", "LIST g")
            .contains("Italy    playing")
    );
    let sent = w.mail(
        &addr("Italy"),
        "SIGNON Italy g pw-Italy\nRESIGN g\nA Ven-Tyr",
    );
    assert!(subjects(&sent, GM).contains(&"g: Italy resigned".to_string()));
    let reply = sent.iter().find(|m| m.in_reply_to.is_some()).unwrap();
    assert!(
        reply.body.contains("You have resigned Italy in g.")
            && reply.body.contains("Orders need a SIGNON"),
        "{}",
        reply.body
    );
    assert!(
        w.reply("x@example.test", "LIST g")
            .contains("Italy    abandoned")
    );
    // A power without a player is seated by the GM: the sign-on says so
    // (njudge's way, signing on to an abandoned power, is not this judge's).
    assert!(
        w.reply(&addr("Italy"), "SIGNON Italy g pw-Italy")
            .contains("Italy in g has no player now")
    );
}

#[test]
fn set_password_and_address() {
    let mut w = started();
    assert!(player(&mut w, "England", "SET PASSWORD new-password").contains("Password changed."));
    assert!(
        w.reply(&addr("England"), "SIGNON England g pw-England")
            .contains("sign-on failed")
    );
    assert!(
        w.reply(&addr("England"), "SIGNON England g new-password")
            .contains("Signed on as England")
    );
    assert!(
        w.reply(
            &addr("England"),
            "SIGNON England g new-password\nSET PASSWORD two words"
        )
        .contains("a password is one word")
    );
    // An address is registered only by mail from itself.
    let r = w.reply(
        &addr("England"),
        "SIGNON England g new-password\nSET ADDRESS eng2@example.test",
    );
    assert!(
        r.contains("registers only the address a mail comes from"),
        "{r}"
    );
    let sent = w.mail(
        "eng2@example.test",
        "SIGNON England g new-password\nSET ADDRESS eng2@example.test",
    );
    let r = &sent.iter().find(|m| m.in_reply_to.is_some()).unwrap().body;
    assert!(
        r.contains("The game's mail for England in g now goes to eng2@example.test."),
        "{r}"
    );
    // The address left behind is told.
    assert!(
        subjects(&sent, &addr("England"))
            .contains(&"England in g: mail now goes elsewhere".to_string()),
        "{sent:#?}"
    );
    let sent = w.mail(GM, "SIGNON GM g gm-secret\nPROCESS");
    assert!(sent.iter().any(|m| m.subject.contains("results")
        && m.to_has("eng2@example.test")
        && !m.to_has(&addr("England"))));
    assert!(
        w.reply("x@example.test", "SET PASSWORD x")
            .contains("sign on first")
    );
}

#[test]
fn gm_settings_and_their_bad_forms() {
    let mut w = started();
    let r = gm(&mut w, "SET DEADLINE 2028-01-10 18:00 Europe/Paris");
    assert!(
        r.contains("The deadline is now Mon 10 Jan 2028 17:00 UTC."),
        "shown in the game's zone: {r}"
    );
    assert!(gm(&mut w, "SET DEADLINE 2000-01-01 10:00").contains("is in the past"));
    assert!(gm(&mut w, "SET DEADLINE soon").contains("cannot read `soon`"));
    assert!(gm(&mut w, "SET DEADLINE 2028-01-10 18:00 Mars/Olympus").contains("unknown time zone"));
    assert!(
        gm(&mut w, "SET PHASE LENGTH 48h 12h")
            .contains("movement phases last 48h, retreats and adjustments 12h")
    );
    assert!(gm(&mut w, "SET PHASE LENGTH forever").contains("cannot read `forever`"));
    assert!(gm(&mut w, "SET GRACE 2d").contains("grace period 48h"));
    assert!(gm(&mut w, "SET REMINDER 0h").contains("reminders 0h"));
    assert!(gm(&mut w, "SET TIMEZONE Europe/Berlin").contains("time zone Europe/Berlin"));
    assert!(gm(&mut w, "SET TIMEZONE Berlin").contains("unknown time zone"));
    assert!(gm(&mut w, "SET NMR MAYBE").contains("SET NMR HOLD or SET NMR CD"));
    assert!(gm(&mut w, "SET PRESS LOUD").contains("SET PRESS WHITE, GREY or NONE"));
    assert!(gm(&mut w, "SET STYLE FANCY").contains("SET STYLE ZINE or SET STYLE JUDGE"));
    assert!(gm(&mut w, "SET COLOUR red").contains("SET what?"));
    let r = player(&mut w, "England", "SET DEADLINE +1h");
    assert!(r.contains("only the GM may do that"), "{r}");
    let r = w.reply(GM, "LIST g");
    assert!(
        r.contains("movement 48h, retreats 12h, adjustments 12h, grace 48h"),
        "{r}"
    );
}

#[test]
fn set_deadline_reads_the_forms_a_gm_writes() {
    let mut w = started();
    gm(&mut w, "START");
    // World's clock: Sat 1 Jan 2028 12:00 UTC.
    let r = gm(&mut w, "SET DEADLINE 2028-01-05 18:00");
    assert!(r.contains("now Wed 05 Jan 2028 18:00 UTC"), "{r}");
    // `+` moves the current deadline; `in` counts from now.
    let r = gm(&mut w, "SET DEADLINE +48h");
    assert!(r.contains("now Fri 07 Jan 2028 18:00 UTC"), "{r}");
    let r = gm(&mut w, "SET DEADLINE -24h");
    assert!(r.contains("now Thu 06 Jan 2028 18:00 UTC"), "{r}");
    let r = gm(&mut w, "SET DEADLINE in 48h");
    assert!(r.contains("now Mon 03 Jan 2028 12:00 UTC"), "{r}");
    let r = gm(&mut w, "SET DEADLINE Saturday 18:00");
    assert!(r.contains("now Sat 01 Jan 2028 18:00 UTC"), "{r}");
    // Shown in the game's zone and in UTC.
    gm(&mut w, "SET TIMEZONE America/New_York");
    let r = gm(&mut w, "SET DEADLINE tue 9:00");
    assert!(
        r.contains("now Tue 04 Jan 2028 09:00 EST (14:00 UTC)."),
        "{r}"
    );
    // The hour the clocks skip does not exist.
    let r = gm(&mut w, "SET DEADLINE 2028-03-12 02:30");
    assert!(r.contains("does not exist in America/New_York"), "{r}");
}

#[test]
fn a_deadline_set_then_processed_in_one_mail_sends_no_deadline_notice() {
    let mut w = started();
    gm(&mut w, "START");
    let sent = w.mail(GM, "SIGNON GM g gm-secret\nSET DEADLINE +36h\nPROCESS");
    for p in POWERS {
        let subjects = subjects(&sent, &addr(p));
        assert!(
            !subjects.contains(&"g: new deadline".to_string()),
            "{p}: {subjects:?}"
        );
        assert!(
            subjects.iter().any(|s| s.contains("results")),
            "{p}: {subjects:?}"
        );
    }
    let reply = sent
        .iter()
        .find(|m| m.to_has(GM) && m.subject.starts_with("Re:"))
        .expect("the GM's answer");
    assert!(
        reply
            .body
            .contains("No deadline notice goes out: the results give the next deadline."),
        "{}",
        reply.body
    );
}

#[test]
fn set_deadline_tells_the_players() {
    let mut w = started();
    let sent = w.mail(GM, "SIGNON GM g gm-secret\nSET DEADLINE +36h");
    for p in POWERS {
        assert!(
            subjects(&sent, &addr(p)).contains(&"g: new deadline".to_string()),
            "{p}"
        );
    }
}

#[test]
fn start_pause_resume_process() {
    let mut w = World::new();
    w.reply(GM, "CREATE g standard gm-secret");
    w.reply(&addr("England"), "JOIN g pw-England England");
    assert!(player(&mut w, "England", "START").contains("only the GM may do that"));
    let sent = w.mail(GM, "SIGNON GM g gm-secret\nSTART");
    assert!(subjects(&sent, &addr("England")).contains(&"g: you are England".to_string()));
    assert!(subjects(&sent, GM).contains(&"g: the game starts".to_string()));
    assert!(gm(&mut w, "START").contains("g has already started"));
    assert!(gm(&mut w, "PAUSE").contains("Paused"));
    assert!(gm(&mut w, "PAUSE").contains("g is not running"));
    // Paused: the clock does nothing.
    let sent = w.advance(10 * 86400);
    assert!(sent.is_empty(), "{sent:#?}");
    let r = gm(&mut w, "RESUME");
    assert!(r.contains("Resumed; the deadline is"), "{r}");
    assert!(gm(&mut w, "RESUME").contains("g is not paused"));
    let sent = w.mail(GM, "SIGNON GM g gm-secret\nPROCESS");
    let res = sent
        .iter()
        .find(|m| m.subject == "g: Spring 1901 results")
        .expect("processed");
    // Before the deadline the GM's PROCESS is early processing: nobody is
    // late for it (and open seats never are).
    assert!(
        !res.body.contains("No orders received"),
        "an early PROCESS calls nobody late: {}",
        res.body
    );
}

#[test]
fn preview_changes_nothing_and_goes_to_the_gm_only() {
    let mut w = started();
    player(&mut w, "England", "F Lon-ENG");
    let sent = w.mail(GM, "SIGNON GM g gm-secret\nPREVIEW");
    assert_eq!(sent.len(), 1);
    assert!(sent[0].to_has(GM));
    assert!(sent[0].body.contains("F(Lon)-ENG"), "{}", sent[0].body);
    let r = w.reply("x@example.test", "LIST g");
    assert!(r.contains("Spring 1901 movement"), "{r}");
}

#[test]
fn rollback_needs_history_and_finds_a_named_phase() {
    let mut w = started();
    assert!(gm(&mut w, "ROLLBACK").contains("nothing to roll back"));
    gm(&mut w, "PROCESS");
    gm(&mut w, "PROCESS");
    assert!(gm(&mut w, "ROLLBACK X1901M").contains("no phase X1901M"));
    let r = gm(&mut w, "ROLLBACK S1901M");
    assert!(
        r.contains("Rolled back to the start of Spring 1901 movement"),
        "{r}"
    );
    assert!(
        w.reply("x@example.test", "LIST g")
            .contains("Phase: Spring 1901 movement")
    );
}

#[test]
fn eject_and_replace() {
    let mut w = started();
    let sent = w.mail(GM, "SIGNON GM g gm-secret\nEJECT Italy");
    assert!(
        subjects(&sent, &addr("Italy"))
            .iter()
            .any(|s| s.contains("no longer play Italy"))
    );
    assert!(gm(&mut w, "EJECT Atlantis").contains("no power `Atlantis`"));
    assert!(gm(&mut w, "REPLACE Italy nowhere").contains("is not a mail address"));
    let sent = w.mail(GM, "SIGNON GM g gm-secret\nREPLACE Italy new@example.test");
    let m = sent.iter().find(|m| m.to_has("new@example.test")).unwrap();
    assert!(
        m.body.contains("Your password is: ") && m.body.contains("SIGNON Italy g "),
        "{}",
        m.body
    );
}

#[test]
fn edit_fixes_the_board_and_is_recorded() {
    let mut w = started();
    let sent = w.mail(
        GM,
        "SIGNON GM g gm-secret\nEDIT REMOVE Lon\nEDIT ADD England F Wal\nEDIT OWNER Bel France",
    );
    let reply = sent.iter().find(|m| m.in_reply_to.is_some()).unwrap();
    assert!(
        reply.body.contains("Edit: removed English F Lon."),
        "{}",
        reply.body
    );
    assert!(
        reply.body.contains("Edit: added English F Wal."),
        "{}",
        reply.body
    );
    assert!(
        reply.body.contains("Edit: Bel now belongs to France."),
        "{}",
        reply.body
    );
    assert!(subjects(&sent, &addr("Germany")).contains(&"g: board edited".to_string()));
    assert!(gm(&mut w, "EDIT ADD England A Wal").contains("already a unit in Wal"));
    assert!(gm(&mut w, "EDIT REMOVE Lon").contains("no unit in Lon"));
    assert!(gm(&mut w, "EDIT OWNER Ruh France").contains("not a supply centre"));
    assert!(gm(&mut w, "EDIT SHOVE Lon").contains("EDIT ADD power unit"));
    let r = player(&mut w, "England", "F Wal-ENG");
    assert!(
        r.contains("  F(Wal)-ENG"),
        "the edited board is played: {r}"
    );
}

#[test]
fn end_draw_or_win() {
    let mut w = started();
    assert!(gm(&mut w, "END WIN").contains("write END WIN power"));
    assert!(gm(&mut w, "END WIN Atlantis").contains("no power `Atlantis`"));
    let sent = w.mail(GM, "SIGNON GM g gm-secret\nEND WIN Italy");
    assert!(subjects(&sent, &addr("Italy")).contains(&"g: game over".to_string()));
    assert!(
        w.reply("x@example.test", "LIST g")
            .contains("won by Italy (declared by the GM)")
    );
    assert!(player(&mut w, "Italy", "A Ven-Tyr").contains("takes no orders now (it is over)"));
}

#[test]
fn observers_get_results_until_they_stop() {
    let mut w = started();
    assert!(
        w.reply("obs@example.test", "OBSERVE g")
            .contains("You will receive this game's results.")
    );
    let sent = w.mail(GM, "SIGNON GM g gm-secret\nPROCESS");
    assert!(
        sent.iter()
            .any(|m| m.subject.contains("results") && m.to_has("obs@example.test"))
    );
    w.reply("obs@example.test", "UNOBSERVE g");
    let sent = w.mail(GM, "SIGNON GM g gm-secret\nPROCESS");
    assert!(
        !sent
            .iter()
            .any(|m| m.to_has("obs@example.test") && m.subject.contains("results"))
    );
    assert!(
        w.reply("obs@example.test", "OBSERVE")
            .contains("write OBSERVE game")
    );
}

#[test]
fn history_and_summary() {
    let mut w = started();
    assert!(
        w.reply("x@example.test", "HISTORY g")
            .contains("No phase has been played yet.")
    );
    gm(&mut w, "PROCESS");
    // An address that has confirmed it wants the judge's mail (England's
    // player joined) gets the history in a mail of its own.
    let sent = w.mail(&addr("England"), "HISTORY g S1901M");
    let h = sent
        .iter()
        .find(|m| m.subject == "g: history S1901M to S1901M")
        .expect("history mail");
    assert!(h.body.contains("g: Spring 1901 results"), "{}", h.body);
    // An address that never did gets the one answer, the history in it.
    let sent = w.mail("x@example.test", "HISTORY g S1901M");
    assert_eq!(sent.len(), 1, "{sent:#?}");
    assert!(
        sent[0]
            .body
            .contains("----- g: history S1901M to S1901M -----")
            && sent[0].body.contains("g: Spring 1901 results"),
        "{}",
        sent[0].body
    );
    assert!(
        w.reply("x@example.test", "HISTORY g W1999A")
            .contains("no phase W1999A")
    );
    assert!(
        w.reply("x@example.test", "HISTORY")
            .contains("write HISTORY game")
    );
    let r = w.reply("x@example.test", "SUMMARY g");
    assert!(r.contains("now (F1901M)"), "{r}");
}

#[test]
fn a_flood_from_one_address_is_stopped() {
    let mut w = World::new();
    for _ in 0..60 {
        w.reply("flood@example.test", "LIST");
    }
    let r = w.reply("flood@example.test", "LIST");
    assert!(r.contains("60 mails an hour"), "{r}");
    let sent = w.mail("flood@example.test", "LIST");
    assert!(sent.is_empty(), "then silence: {sent:#?}");
    // Others are not affected.
    assert!(
        w.reply("calm@example.test", "LIST")
            .contains("No games yet")
    );
}

#[test]
fn unknown_command_forms_are_explained() {
    let mut w = World::new();
    let r = w.reply("x@example.test", "SIGNON");
    assert!(
        r.contains("Not understood: write SIGNON power game password"),
        "{r}"
    );
    let r = w.reply("x@example.test", "EJECT Italy");
    assert!(r.contains("only the GM may do that"), "{r}");
}

#[test]
fn the_judge_style_is_the_njudge_layout() {
    let mut w = started();
    gm(&mut w, "SET STYLE JUDGE");
    player(&mut w, "England", "F Lon-ENG\nA Lvp-Yor");
    player(&mut w, "France", "F Bre-ENG");
    let sent = w.mail(GM, "SIGNON GM g gm-secret\nPROCESS");
    let res = sent
        .iter()
        .find(|m| m.subject == "g: Spring 1901 results")
        .unwrap();
    let b = &res.body;
    assert!(
        b.starts_with(":: Judge: zinejudge  Game: g  Variant: standard"),
        "{b}"
    );
    assert!(
        b.contains("Movement results for Spring of 1901.  (g)"),
        "{b}"
    );
    assert!(
        b.contains("England: Fleet London -> English Channel.  (*bounce*)"),
        "{b}"
    );
    assert!(b.contains("England: Army Liverpool -> Yorkshire.\n"), "{b}");
    assert!(b.contains("Ownership of supply centers:"), "{b}");
    assert!(
        b.contains("England:   Edinburgh, Liverpool, London."),
        "{b}"
    );
    assert!(
        b.contains("The next phase of 'g' will be Fall of 1901"),
        "{b}"
    );
    assert!(
        b.lines()
            .all(|l| l.chars().count() <= 72 && !l.contains('\t')),
        "{b}"
    );
}

#[test]
fn set_picture_chooses_the_attachments_of_ones_results() {
    let mut w = started();
    assert!(player(&mut w, "France", "SET PICTURE none").contains("no picture"));
    assert!(player(&mut w, "Italy", "SET PICTURE svg").contains("an SVG picture"));
    assert!(player(&mut w, "Italy", "SET PICTURE gif").contains("Not understood"));
    let sent = w.mail(GM, "SIGNON GM g gm-secret\nPROCESS");
    let results = |p: &str| {
        sent.iter()
            .find(|m| m.to_has(&addr(p)) && m.subject.contains("results"))
            .unwrap_or_else(|| panic!("{p} got no results"))
            .attachments
            .iter()
            .map(|(name, _)| name.rsplit('.').next().unwrap_or("").to_string())
            .collect::<Vec<_>>()
    };
    assert!(results("France").is_empty());
    assert_eq!(results("Italy"), ["svg"]);
    assert_eq!(results("England"), ["png", "svg"], "the judge's default");
}
