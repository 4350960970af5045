//! Issue #49's cases, each by mail through the processor: a line that
//! cannot be read never changes what the other lines did (a refused PHASE
//! or sign-on leaves the orders below it for nothing); njudge's
//! conditional orders for a later phase, chosen on the board that phase
//! really has; and the forms the issue names (LIST after a sign-on,
//! DPjudge's JOIN power@game and STATUS, SET MOVES, DIARY, HISTORY
//! EXCLSTART, a build with no keyword).

use crate::support_judge;
use support_judge::{Sent, World};

const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];
const GM: &str = "gm@example.test";

fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_lowercase())
}

fn pw(p: &str) -> String {
    format!("pw-{}-secret", p.to_lowercase())
}

/// A started standard game `g` with all seven players, Spring 1901.
fn started() -> World {
    let mut w = World::new();
    w.reply(
        GM,
        "CREATE g standard gm-secret\nSET PRESS GREY\nSET ASSIGNMENT FIRST-COME",
    );
    for p in POWERS {
        w.reply(&addr(p), &format!("JOIN g {} {p}", pw(p)));
    }
    w
}

/// Lines joined, spaces single: a sentence is found wherever the judge
/// wrapped it.
fn flat(t: &str) -> String {
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `p`'s mail, signed on njudge's way; the reply, flattened.
fn nj(w: &mut World, p: &str, body: &str) -> String {
    let letter = &p[..1];
    flat(&w.reply(&addr(p), &format!("SIGNON {letter}g {}\n{body}", pw(p))))
}

/// The GM's mail, signed on; the reply, flattened.
fn gm(w: &mut World, body: &str) -> String {
    flat(&w.reply(GM, &format!("SIGNON Mg gm-secret\n{body}")))
}

/// The GM processes the phase; returns what the judge sent.
fn process(w: &mut World) -> Vec<Sent> {
    w.mail(GM, "SIGNON GM g gm-secret\nPROCESS")
}

/// What `p` was mailed among `sent`, subjects and bodies, flattened.
fn mailed(sent: &[Sent], p: &str) -> String {
    flat(
        &sent
            .iter()
            .filter(|m| m.to_has(&addr(p)))
            .map(|m| format!("{}\n{}", m.subject, m.body))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// The results of the phase `sent` brought, as `p` got them.
fn results(sent: &[Sent], p: &str) -> String {
    flat(
        &sent
            .iter()
            .find(|m| m.to_has(&addr(p)) && m.subject.contains("results"))
            .unwrap_or_else(|| panic!("no results to {p}: {sent:#?}"))
            .body,
    )
}

#[test]
fn a_refused_phase_line_leaves_the_current_orders_as_they_were() {
    let mut w = started();
    nj(&mut w, "France", "A Par-Bur");
    // Spring 1907 is more than the judge keeps orders ahead for: the line
    // is refused, and the orders below it are for nothing, never for the
    // phase being played.
    let r = nj(&mut w, "France", "PHASE Spring 1907\nA Par-Pic\nA Mar H");
    assert!(r.contains("> PHASE Spring 1907 Not done"), "{r}");
    assert!(
        r.contains("which was not done, so they are orders for nothing")
            && r.contains("line 3: A Par-Pic"),
        "{r}"
    );
    assert!(!r.contains("A(Par)-Pic"), "{r}");
    let sent = process(&mut w);
    let res = results(&sent, "France");
    assert!(res.contains("A(Par)-Bur"), "{res}");
    assert!(!res.contains("Pic"), "{res}");
}

#[test]
fn a_refused_line_never_changes_what_the_lines_before_it_did() {
    let mut w = started();
    // A sign-on with the wrong password after a good one: the orders below
    // it are nobody's, not the first sign-on's power's.
    let r = nj(
        &mut w,
        "France",
        "A Par-Bur\nSIGNON Fg not-the-password\nA Par-Pic",
    );
    assert!(
        r.contains("which was not done, so they are orders for nothing"),
        "{r}"
    );
    // A PHASE line that names no phase, after one that does: the orders
    // below it go to neither phase.
    let r = nj(
        &mut w,
        "France",
        "PHASE Fall 1901\nA Bur-Mun\nPHASE Sprung 1902\nA Bur-Ruh",
    );
    assert!(r.contains("line 3: A(Bur)-Mun"), "{r}");
    assert!(!r.contains("A(Bur)-Ruh"), "{r}");
    assert!(r.contains("line 5: A Bur-Ruh"), "{r}");
    let sent = process(&mut w);
    let res = results(&sent, "France");
    assert!(res.contains("A(Par)-Bur") && !res.contains("Pic"), "{res}");
    // Fall 1901 holds only A(Bur)-Mun.
    let ahead = mailed(&sent, "France");
    assert!(
        ahead.contains("A(Bur)-Mun") && !ahead.contains("A(Bur)-Ruh"),
        "{ahead}"
    );
}

/// Spring 1901 played with Russia's army of Warsaw going to Galicia
/// (`russia_to_galicia`) or holding, after France sent its Fall orders
/// ahead under njudge's IF: what France is mailed when Fall comes, and
/// Fall's results.
fn fall_after_condition(russia_to_galicia: bool) -> (String, String) {
    let mut w = started();
    nj(&mut w, "France", "A Par-Bur");
    let r = nj(
        &mut w,
        "France",
        "PHASE Fall 1901 Movement\nIF Russian A Gal THEN\nA Bur-Mun\nELSE\nA Bur-Bel\nENDIF",
    );
    assert!(
        r.contains("line 3: IF Russian A Gal")
            && r.contains("line 4: A(Bur)-Mun")
            && r.contains("line 5: ELSE")
            && r.contains("line 6: A(Bur)-Bel")
            && r.contains("line 7: ENDIF"),
        "{r}"
    );
    nj(
        &mut w,
        "Russia",
        if russia_to_galicia {
            "A War-Gal"
        } else {
            "A War H"
        },
    );
    let spring = process(&mut w);
    let ahead = mailed(&spring, "France");
    let fall = process(&mut w);
    (ahead, results(&fall, "France"))
}

#[test]
fn conditional_orders_for_a_later_phase_take_the_branch_its_board_holds() {
    // Russia in Galicia as Fall begins: the IF's branch.
    let (ahead, res) = fall_after_condition(true);
    assert!(
        ahead.contains("A(Bur)-Mun") && !ahead.contains("A(Bur)-Bel"),
        "{ahead}"
    );
    assert!(
        res.contains("A(Bur)-Mun") && !res.contains("A(Bur)-Bel"),
        "{res}"
    );
    // Russia at home: the ELSE branch.
    let (ahead, res) = fall_after_condition(false);
    assert!(
        ahead.contains("A(Bur)-Bel") && !ahead.contains("A(Bur)-Mun"),
        "{ahead}"
    );
    assert!(
        res.contains("A(Bur)-Bel") && !res.contains("A(Bur)-Mun"),
        "{res}"
    );
}

#[test]
fn conditional_orders_nested_or_unreadable_are_refused_and_nothing_of_them_is_kept() {
    let mut w = started();
    nj(&mut w, "France", "A Par-Bur");
    // An IF inside an IF: refused, with the one IF to write instead.
    let r = nj(
        &mut w,
        "France",
        "PHASE Fall 1901\nIF Russian A Gal\nIF German A Mun\nA Bur-Ruh\nENDIF\nENDIF",
    );
    assert!(
        r.contains("IFs are not nested here") && r.contains("(IF Russian A Gal AND German A Mun)"),
        "{r}"
    );
    assert!(!r.contains("A(Bur)-Ruh"), "{r}");
    // A condition naming no power, kind or place of the map.
    let r = nj(
        &mut w,
        "France",
        "PHASE Fall 1901\nIF Martian A Gal\nA Bur-Ruh\nENDIF",
    );
    assert!(
        r.contains("`martian` is not a province, a power or a unit's kind on this map"),
        "{r}"
    );
    assert!(
        r.contains("line 4: \"A Bur-Ruh\" not taken, as line 3"),
        "{r}"
    );
    // An ELSE with no IF above it.
    let r = nj(&mut w, "France", "PHASE Fall 1901\nELSE\nA Bur-Ruh\nENDIF");
    assert!(r.contains("has no IF above it"), "{r}");
    // Nothing of them is kept for Fall.
    let sent = process(&mut w);
    let ahead = mailed(&sent, "France");
    assert!(!ahead.contains("Ruh"), "{ahead}");
}

#[test]
fn list_after_a_sign_on_lists_the_signed_on_game() {
    let mut w = started();
    w.reply("other-gm@example.test", "CREATE h standard other-gm-pw");
    let r = nj(&mut w, "France", "LIST");
    assert!(r.contains("g (Standard Diplomacy), active"), "{r}");
    // Its units and centres, France's marked.
    assert!(
        r.contains("France (you): 3 centres, 3 units Units: F(Bre), A(Mar), A(Par)"),
        "{r}"
    );
    assert!(!r.contains("h (Standard"), "{r}");
    // Not signed on, LIST is every game.
    let r = flat(&w.reply("someone@example.test", "LIST"));
    assert!(r.contains("h ") && r.contains("g "), "{r}");
}

#[test]
fn dpjudge_join_power_at_game_joins_wanting_that_power() {
    let mut w = World::new();
    w.reply(
        GM,
        "CREATE lobby standard gm-secret\nSET ASSIGNMENT FIRST-COME",
    );
    let r = flat(&w.reply("newcomer@example.test", "JOIN france@lobby new-secret-pw"));
    assert!(!r.contains("Not done"), "{r}");
    assert!(r.contains("France"), "{r}");
    // The power is theirs: they sign on to it.
    let r = flat(&w.reply("newcomer@example.test", "SIGNON france@lobby new-secret-pw"));
    assert!(r.contains("Signed on as France in lobby"), "{r}");
}

#[test]
fn set_moves_next_sets_the_next_movement_phases_deadline_not_the_current_one() {
    let mut w = started();
    let before = gm(&mut w, "LIST g");
    // The deadlines file's own example: NEXT is taken, DELAY is not, and
    // the reply says what this judge has instead.
    let r = gm(&mut w, "SET MOVES NEXT 48.0 DELAY 1.0");
    assert!(
        r.contains("movement phases last 48h (this judge's SET PHASE LENGTH)")
            && r.contains("The current deadline stays")
            && r.contains(
                "DELAY 1.0 was not taken: a phase here goes once every player's orders are complete"
            ),
        "{r}"
    );
    let deadline = |t: &str| {
        t.split("Deadline: ")
            .nth(1)
            .map(|d| d.split(" UTC").next().unwrap_or_default().to_string())
    };
    assert_eq!(deadline(&before), deadline(&gm(&mut w, "LIST g")));
    // Processed now (Sat 01 Jan 2028 12:00), Fall's deadline is 48 hours on.
    process(&mut w);
    let after = gm(&mut w, "LIST g");
    assert!(after.contains("Phase: Fall 1901 movement"), "{after}");
    assert_eq!(
        deadline(&after).as_deref(),
        Some("Mon 03 Jan 2028 12:00"),
        "{after}"
    );
}

#[test]
fn dpjudge_status_after_a_sign_on_shows_the_orders_held() {
    let mut w = started();
    let r = nj(&mut w, "France", "A Par-Bur\nSTATUS");
    assert!(
        r.contains("g (Standard Diplomacy): Spring 1901 movement"),
        "{r}"
    );
    assert!(
        r.contains("Orders held for France, Spring 1901 movement") && r.contains("A(Par)-Bur"),
        "{r}"
    );
}

#[test]
fn a_diary_is_kept_for_its_player_and_sent_to_everybody_at_the_end() {
    let mut w = started();
    let sent = w.mail(
        &addr("England"),
        "SIGNON Eg pw-england-secret\nDIARY\nFrance trusts me. Poor France.\nENDPRESS\nA Lvp-Yor",
    );
    // Only England is mailed, and the line after ENDPRESS is an order.
    assert_eq!(sent.len(), 1, "{sent:#?}");
    let r = flat(&sent[0].body);
    assert!(r.contains("Kept as diary entry 1 (1 line)"), "{r}");
    assert!(r.contains("A(Lvp)-Yor"), "{r}");
    let r = nj(&mut w, "England", "DIARY LIST");
    assert!(
        r.contains("Your diary entries: 1: Sat 01 Jan 2028 12:00 UTC"),
        "{r}"
    );
    let r = nj(&mut w, "England", "DIARY READ 1");
    assert!(r.contains("France trusts me. Poor France."), "{r}");
    // France cannot read it.
    let r = nj(&mut w, "France", "DIARY READ 1");
    assert!(!r.contains("Poor France"), "{r}");
    // The game's end: everybody reads it.
    let sent = w.mail(GM, "SIGNON Mg gm-secret\nEND DRAW");
    let last = mailed(&sent, "France");
    assert!(
        last.contains("The players' diaries: England, entry 1: France trusts me. Poor France."),
        "{last}"
    );
}

#[test]
fn history_exclstart_returns_the_phases_before_it() {
    let mut w = started();
    process(&mut w);
    process(&mut w);
    let sent = w.mail("someone@example.test", "HISTORY g EXCLSTART F1901M");
    let got = flat(
        &sent
            .iter()
            .map(|m| m.body.clone())
            .collect::<Vec<_>>()
            .join("\n"),
    );
    assert!(got.contains("Spring 1901 results"), "{got}");
    assert!(!got.contains("Fall 1901 results"), "{got}");
    // EXCLEND: what follows it too.
    let sent = w.mail(
        "someone@example.test",
        "HISTORY g EXCLSTART S1901M EXCLEND S1901M",
    );
    let got = flat(
        &sent
            .iter()
            .map(|m| m.body.clone())
            .collect::<Vec<_>>()
            .join("\n"),
    );
    assert!(
        got.contains("Fall 1901 results") && !got.contains("Spring 1901 results"),
        "{got}"
    );
}

#[test]
fn a_unit_written_alone_in_an_adjustment_phase_is_a_build_when_builds_are_due() {
    let mut w = started();
    nj(&mut w, "Austria", "A Bud-Ser\nF Tri-Alb\nA Vie H");
    process(&mut w);
    nj(&mut w, "Austria", "F Alb-Gre\nA Ser H\nA Vie H");
    process(&mut w);
    // Winter 1901: Austria has two builds due, and writes them with no
    // keyword, as njudge's <build> allows.
    let r = nj(&mut w, "Austria", "A Bud\nF Tri");
    assert!(
        r.contains("Build A(Bud)") && r.contains("Build F(Tri)"),
        "{r}"
    );
    assert!(!r.contains("Not accepted"), "{r}");
}

#[test]
fn dpjudge_comment_and_wireless_lines() {
    let mut w = started();
    // A line starting `//` is not read, in press neither.
    let sent = w.mail(
        &addr("France"),
        "SIGNON Fg pw-france-secret\n// A Par-Pic\nA Par-Bur\nPRESS TO E\nHello.\n// not for England\nENDPRESS",
    );
    let r = flat(
        &sent
            .iter()
            .find(|m| m.to_has(&addr("France")) && m.in_reply_to.is_some())
            .expect("a reply")
            .body,
    );
    assert!(
        r.contains("line 3: A(Par)-Bur") && !r.contains("Pic"),
        "{r}"
    );
    let press = mailed(&sent, "England");
    assert!(
        press.contains("Hello.") && !press.contains("not for England"),
        "{press}"
    );
    // `\\` and a separator: one line holding several (DPjudge's way round
    // a device that sends no new lines).
    let r = flat(&w.reply(
        &addr("France"),
        "\\\\; SIGNON Fg pw-france-secret; A Par-Bur; A Mar-Spa",
    ));
    assert!(
        r.contains("line 1: A(Par)-Bur") && r.contains("line 1: A(Mar)-Spa"),
        "{r}"
    );
}

#[test]
fn dpjudge_join_with_a_privacy_word_joins_the_word_named_as_ignored() {
    let mut w = World::new();
    w.reply(GM, "CREATE lobby standard gm-secret");
    let r = flat(&w.reply(
        "newcomer@example.test",
        "JOIN lobby new-secret-pw the-privacy-word",
    ));
    assert!(
        r.contains("(no power `the-privacy-word` in this game; ignored)")
            && r.contains("You have joined lobby"),
        "{r}"
    );
}

#[test]
fn dpjudge_orders_without_the_move_symbol_or_the_units_kind() {
    let mut w = started();
    // DPjudge's order format puts in the dash a player leaves out: in a
    // move, even with no unit kind, and in a supported move.
    let r = nj(
        &mut w,
        "France",
        "paris burgundy\nmarseilles S paris bur\nF Bre C A Par Pic",
    );
    assert!(
        r.contains("line 2: A(Par)-Bur") && r.contains("line 3: A(Mar) S A(Par)-Bur"),
        "{r}"
    );
    // A convoy, too (read, and refused for its own reason: Brest is no
    // sea).
    assert!(
        r.contains("line 4: \"F Bre C A Par Pic\" fleets can only convoy at sea"),
        "{r}"
    );
    // Two words that are no places stay chat.
    let r = nj(&mut w, "France", "good morning");
    assert!(!r.contains("Not accepted"), "{r}");
}

#[test]
fn press_to_all_but_names_whom_it_reaches() {
    let mut w = started();
    let r = nj(
        &mut w,
        "France",
        "PRESS TO ALL BUT G\nWatch the Kaiser.\nENDPRESS",
    );
    assert!(
        r.contains("Press sent to everybody but Germany (Austria, England, Italy, Russia, Turkey)"),
        "{r}"
    );
}
