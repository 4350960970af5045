//! 1066 rule 5 by mail: "Their exact location is known only by this player
//! and the GM until the end of the second move". A phase only Harald's
//! hidden A/Fs take part in (the retreat of one dislodged in March) is his
//! and the GM's: everyone else gets the same mails, replies and pictures
//! as in a game where nothing was dislodged there.

use crate::support_judge;
use support_judge::{Sent, World};

const NAMES: [(&str, &str); 7] = [
    ("william", "Duke William"),
    ("harald", "Harald Hardrada"),
    ("harold", "Harold Godwinson"),
    ("norse", "The Norse"),
    ("earls", "The Northern Earls"),
    ("scots", "The Scots"),
    ("welsh", "The Welsh"),
];

/// A 1066 game by mail with every power joined, an observer, and two
/// Scottish fleets the GM put in the Firth of Forth and Lothian, ready to
/// sail into Oceanus Germanicus with support.
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
    w.mail(
        "gm@example.test",
        "SIGNON GM hastings gm-secret\nEDIT ADD The Scots F FOF\nEDIT ADD The Scots F Lot",
    );
    w
}

/// A mail as read: subject, body and pictures (names and sizes).
type Read = (String, String, Vec<(String, usize)>);

/// What a reader got, in order.
fn got(sent: &[Sent], who: &str) -> Vec<Read> {
    sent.iter()
        .filter(|m| m.to_has(&format!("{who}@example.test")))
        .map(|m| (m.subject.clone(), m.body.clone(), m.attachments.clone()))
        .collect()
}

/// Play March 1066 (and Harald's retreat, if he has one) with Harald's
/// March orders `harald`: every mail sent until April is played, those
/// April's processing sent, and the replies to LIST (of the game, then of
/// every game) and SUMMARY read by the observer and the Scots after
/// March.
fn play(harald: &str) -> (Vec<Sent>, Vec<Sent>, Vec<String>) {
    let mut w = started();
    let mut sent = Vec::new();
    sent.extend(w.mail(
        "scots@example.test",
        "SIGNON Scots hastings pw-secret\nF(FOF)-GER\nF(Lot) S F(FOF)-GER",
    ));
    sent.extend(w.mail(
        "harald@example.test",
        &format!("SIGNON Harald hastings pw-secret\n{harald}"),
    ));
    sent.extend(w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS"));
    let mut replies = Vec::new();
    for who in ["obs", "scots"] {
        replies.push(w.reply(&format!("{who}@example.test"), "LIST hastings"));
        replies.push(w.reply(&format!("{who}@example.test"), "LIST"));
        replies.push(w.reply(&format!("{who}@example.test"), "SUMMARY hastings"));
    }
    // Harald retreats whatever was dislodged (in the game where nothing
    // was, the judge refuses the orders and only he is told).
    let retreat = w.mail(
        "harald@example.test",
        "SIGNON Harald hastings pw-secret\nA/F(GER)-Nth\nA/F(GER)-Nrd",
    );
    sent.extend(retreat);
    sent.extend(w.mail(
        "scots@example.test",
        "SIGNON Scots hastings pw-secret\nF(GER) H\nF(Lot)-FOF",
    ));
    let april = w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS");
    (sent, april, replies)
}

#[test]
fn rule_5_a_retreat_of_hidden_army_fleets_only_is_unseen_by_the_others() {
    // Two A/Fs wait in Oceanus Germanicus and are dislodged by the Scots'
    // supported attack; in the other game all four wait in the Wash and
    // the Scots sail into an empty sea.
    let (dislodged, april_d, replies_d) = play("A/F(GER) H\nA/F(GER) H\nA/F(WAS) H\nA/F(WAS) H");
    let (quiet, _, replies_q) = play("A/F(WAS) H\nA/F(WAS) H\nA/F(WAS) H\nA/F(WAS) H");
    // Harald and the GM are told of the retreat.
    let harald = got(&dislodged, "harald");
    assert!(
        harald.iter().any(|(s, b, _)| s.contains("March 1066")
            && s.contains("retreat")
            && b.contains("A/F(GER)")),
        "{harald:#?}"
    );
    assert!(
        got(&dislodged, "gm")
            .iter()
            .any(|(s, _, _)| s.contains("retreat")),
        "the GM is told"
    );
    // Everyone else reads exactly the same in both games until April is
    // played: every mail, every picture, the March results' next phase
    // and deadline.
    for (who, _) in NAMES
        .iter()
        .filter(|(w, _)| *w != "harald")
        .chain([&("obs", "")])
    {
        let (d, q) = (got(&dislodged, who), got(&quiet, who));
        assert!(!d.is_empty(), "{who} got nothing");
        assert_eq!(d.len(), q.len(), "{who}: {d:#?}\n-- vs --\n{q:#?}");
        for (a, b) in d.iter().zip(&q) {
            let differ: Vec<(&str, &str)> =
                a.1.lines()
                    .zip(b.1.lines())
                    .filter(|(x, y)| x != y)
                    .collect();
            assert!(differ.is_empty(), "{who}, {}: {differ:#?}", a.0);
            assert_eq!(a, b, "{who}");
        }
        assert!(
            !d.iter().any(|(s, _, _)| s.contains("retreat")),
            "{who}: {d:#?}"
        );
    }
    let march = got(&quiet, "obs")
        .into_iter()
        .find(|(s, _, _)| s.contains("March 1066"))
        .expect("March results");
    assert!(march.1.contains("April 1066"), "{}", march.1);
    // April's results (where the retreated A/Fs are seen on the board,
    // the secret being over) tell of no retreat phase.
    let april = &got(&april_d, "obs")[0];
    assert!(april.0.contains("April 1066"), "{april:#?}");
    assert!(!april.1.to_lowercase().contains("retreat"), "{}", april.1);
    // LIST and SUMMARY after March say the same to the others: the
    // phase, the deadline and Harald's four units.
    assert_eq!(replies_d, replies_q);
}

/// Rule 5: "Their exact location is known only by this player and the GM
/// until the end of the second move". When only a hidden A/F of Harald's
/// was dislodged in March, LIST (of every game, and of the game) and
/// SUMMARY tell everyone the game is in April 1066, as they do where
/// nothing was dislodged: a game shown in "March 1066 retreat" told that
/// something hidden had been dislodged.
#[test]
fn rule_5_list_and_summary_show_no_retreat_of_hidden_army_fleets_only() {
    let (_, _, dislodged) = play("A/F(GER) H\nA/F(GER) H\nA/F(WAS) H\nA/F(WAS) H");
    let (_, _, quiet) = play("A/F(WAS) H\nA/F(WAS) H\nA/F(WAS) H\nA/F(WAS) H");
    let names = ["LIST hastings", "LIST", "SUMMARY hastings"];
    for (i, (d, q)) in dislodged.iter().zip(&quiet).enumerate() {
        let what = names[i % names.len()];
        let body = |r: &str| r.split("-----").next().unwrap_or(r).to_string();
        assert!(!d.contains("1066 retreat"), "{what}: {d}");
        assert!(
            d.contains("April 1066 movement") || d.contains("now (Apr1066M)"),
            "{what}: {d}"
        );
        assert_eq!(body(d), body(q), "{what}");
    }
}

/// March 1066 played with Harald's orders `harald` (and the Scots' attack
/// on Oceanus Germanicus), then April 1066 by the Scots' mail `scots`
/// sent before Harald says anything more, then Harald's retreat of the
/// A/Fs in GER (refused where none was dislodged), then April played:
/// every mail the Scots and the observer got from March's results on,
/// and those April's processing sent.
fn orders_after_march(harald: &str, scots: &str) -> (Vec<Sent>, Vec<Sent>) {
    let mut w = started();
    w.mail(
        "scots@example.test",
        "SIGNON Scots hastings pw-secret\nF(FOF)-GER\nF(Lot) S F(FOF)-GER",
    );
    w.mail(
        "harald@example.test",
        &format!("SIGNON Harald hastings pw-secret\n{harald}"),
    );
    w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS");
    let mut sent = w.mail(
        "scots@example.test",
        &format!("SIGNON Scots hastings pw-secret\n{scots}"),
    );
    sent.extend(w.mail(
        "harald@example.test",
        "SIGNON Harald hastings pw-secret\nA/F(GER)-Nth\nA/F(GER)-Nrd",
    ));
    let april = w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS");
    (sent, april)
}

const DISLODGED: &str = "A/F(GER) H\nA/F(GER) H\nA/F(WAS) H\nA/F(WAS) H";
const QUIET: &str = "A/F(WAS) H\nA/F(WAS) H\nA/F(WAS) H\nA/F(WAS) H";

#[test]
fn rule_5_orders_sent_during_a_hidden_retreat_are_kept_and_answered_as_april_orders() {
    // The Scots, told after March that the game is in April 1066, send
    // their April orders while Harald's retreat (theirs not to know of)
    // goes on: they are read as April orders, the reply says so exactly
    // as it does where nothing was dislodged, and April plays them.
    let orders = "F(GER) H\nF(Lot)-FOF";
    let (sent_d, april_d) = orders_after_march(DISLODGED, orders);
    let (sent_q, _) = orders_after_march(QUIET, orders);
    for who in ["scots", "obs"] {
        assert_eq!(got(&sent_d, who), got(&sent_q, who), "{who}");
    }
    let reply = &got(&sent_d, "scots")[0].1;
    assert!(
        reply.contains("Orders held for The Scots, April 1066 movement:"),
        "{reply}"
    );
    assert!(reply.contains("F(Lot)-FOF"), "{reply}");
    assert!(!reply.to_lowercase().contains("retreat"), "{reply}");
    assert!(!reply.contains("Kept for"), "{reply}");
    // No "your orders sent ahead" mail when April comes: for the Scots it
    // had come already.
    assert_eq!(
        got(&sent_d, "scots").len(),
        1,
        "{:#?}",
        got(&sent_d, "scots")
    );
    // April's results carry out the Scots' orders.
    let (_, results, _) = got(&april_d, "scots")
        .into_iter()
        .find(|(s, _, _)| s.contains("April 1066"))
        .expect("April results");
    let scots = results
        .split("The Scots:\n")
        .nth(1)
        .and_then(|r| r.split("\n\n").next())
        .expect("the Scots' orders");
    assert!(scots.contains("F(Lot)-FOF"), "{results}");
    assert!(scots.contains("F(GER) H\n"), "{results}");
    assert!(!scots.contains("F(GER) H   "), "{results}");
}

#[test]
fn rule_5_a_phase_line_or_clear_during_a_hidden_retreat_is_for_april() {
    // PHASE April 1066 movement names what the Scots are told is the
    // current phase; PHASE March 1066 retreat is past for them; CLEAR
    // withdraws their April orders. Each reply is the one they get where
    // nothing was dislodged.
    for scots in [
        "PHASE April 1066 movement\nF(Lot)-FOF",
        "PHASE March 1066 retreat\nF(Lot)-FOF",
        "F(Lot)-FOF\nCLEAR",
    ] {
        let (sent_d, _) = orders_after_march(DISLODGED, scots);
        let (sent_q, _) = orders_after_march(QUIET, scots);
        assert_eq!(got(&sent_d, "scots"), got(&sent_q, "scots"), "{scots}");
    }
}

#[test]
fn rule_5_history_never_lists_a_retreat_of_hidden_units_only() {
    // HISTORY mails the results observers read, of the phases they know
    // of: the same phases, by the same names, whether or not a hidden
    // A/F was dislodged in March.
    let history = |harald: &str| {
        let mut w = started();
        w.mail(
            "scots@example.test",
            "SIGNON Scots hastings pw-secret\nF(FOF)-GER\nF(Lot) S F(FOF)-GER",
        );
        w.mail(
            "harald@example.test",
            &format!("SIGNON Harald hastings pw-secret\n{harald}"),
        );
        w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS");
        w.mail(
            "harald@example.test",
            "SIGNON Harald hastings pw-secret\nA/F(GER)-Nth\nA/F(GER)-Nrd",
        );
        w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS");
        let all = w.mail("obs@example.test", "HISTORY hastings");
        let one = w.reply("obs@example.test", "HISTORY hastings Mar1066R");
        let range = w.mail("obs@example.test", "HISTORY hastings Mar1066M Apr1066M");
        (all, one, range)
    };
    let (all_d, one_d, range_d) = history(DISLODGED);
    let (all_q, one_q, range_q) = history(QUIET);
    let subjects = |s: &[Sent]| -> Vec<String> { s.iter().map(|m| m.subject.clone()).collect() };
    assert_eq!(subjects(&all_d), subjects(&all_q));
    assert_eq!(subjects(&range_d), subjects(&range_q));
    assert_eq!(one_d, one_q);
    assert!(one_d.contains("no phase Mar1066R"), "{one_d}");
    let mailed = all_d
        .iter()
        .find(|m| m.subject.contains("history"))
        .expect("the history");
    assert!(
        mailed.subject.contains("Mar1066M to Apr1066M"),
        "{}",
        mailed.subject
    );
    assert!(!mailed.body.contains("retreat"), "{}", mailed.body);
    let reply = all_d
        .iter()
        .find(|m| !m.subject.contains("history"))
        .expect("the reply");
    assert!(
        reply.body.contains("The results of 2 phases"),
        "{}",
        reply.body
    );
}

#[test]
fn rule_5_a_support_cut_from_the_wash_names_the_cutter_as_it_was_ordered() {
    // In April 1066 an A/F waiting in the Wash attacks Deira, so acts
    // "outside these areas" and is seen: everybody reads the move as
    // `A/F(WAS)-Dei`, and the support it cuts says so by that name, never
    // by Harald's box.
    let mut w = started();
    w.mail(
        "gm@example.test",
        "SIGNON GM hastings gm-secret\nEDIT ADD The Northern Earls A Dei",
    );
    w.mail(
        "harald@example.test",
        &format!("SIGNON Harald hastings pw-secret\n{QUIET}"),
    );
    w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS");
    w.mail(
        "harald@example.test",
        "SIGNON Harald hastings pw-secret\nA/F(WAS)-Dei",
    );
    w.mail(
        "earls@example.test",
        "SIGNON Earls hastings pw-secret\nA(Dei) S A(Dre)",
    );
    let april = w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS");
    for who in ["obs", "earls", "scots", "harald"] {
        let (_, body, _) = got(&april, who)
            .into_iter()
            .find(|(s, _, _)| s.contains("April 1066"))
            .unwrap_or_else(|| panic!("{who}: April results"));
        assert!(body.contains("A/F(WAS)-Dei"), "{who}: {body}");
        let support = body
            .lines()
            .find(|l| l.contains("S A(Dre)"))
            .unwrap_or_else(|| panic!("{who}: {body}"));
        assert!(support.contains("cut by A/F(WAS)"), "{who}: {support}");
        assert!(!body.contains("(HAR)"), "{who}: {body}");
    }
}

/// March 1066 played with Harald's orders `harald` (and the Scots' attack
/// on Oceanus Germanicus); then the clock moved on an hour at a time, with
/// nobody sending April orders, until the first reminders, on until the
/// first notices that orders are late, and on until the Scots are sent
/// April's results: the hour of each (counted from the one before) and
/// the mails sent then.
fn clock_after_march(harald: &str) -> [(u32, Vec<Sent>); 3] {
    let mut w = started();
    w.mail(
        "scots@example.test",
        "SIGNON Scots hastings pw-secret\nF(FOF)-GER\nF(Lot) S F(FOF)-GER",
    );
    w.mail(
        "harald@example.test",
        &format!("SIGNON Harald hastings pw-secret\n{harald}"),
    );
    w.mail("gm@example.test", "SIGNON GM hastings gm-secret\nPROCESS");
    let mut until = |found: &dyn Fn(&Sent) -> bool| {
        for hour in 1..=24 * 30 {
            let sent = w.advance(3600);
            if sent.iter().any(found) {
                return (hour, sent);
            }
        }
        panic!("no such mail in thirty days");
    };
    let reminders = until(&|m| m.subject.contains("orders due"));
    let late = until(&|m| m.subject.contains("your orders are late"));
    let april = until(&|m| {
        m.to_has("scots@example.test")
            && m.subject.contains("April 1066")
            && !m.subject.contains("adjust")
    });
    [reminders, late, april]
}

#[test]
fn rule_5_during_a_hidden_retreat_the_others_are_reminded_of_april_and_harald_of_his_retreat() {
    // While Harald retreats A/Fs nobody else may know of, the others are
    // told the game is in April 1066, with April's deadline: they are
    // reminded of their April orders, and told they are late, at the same
    // hour and in the same words as where nothing was dislodged; Harald,
    // who owes the retreat, is reminded of it.
    let [reminders_d, late_d, _] = clock_after_march(DISLODGED);
    let [reminders_q, late_q, _] = clock_after_march(QUIET);
    assert_eq!(reminders_d.0, reminders_q.0, "the reminders' hour");
    assert_eq!(late_d.0, late_q.0, "the late notices' hour");
    for (who, _) in NAMES
        .iter()
        .filter(|(w, _)| *w != "harald")
        .chain([&("obs", "")])
    {
        let (d, q) = (got(&reminders_d.1, who), got(&reminders_q.1, who));
        assert_eq!(d, q, "{who}");
        let (d, q) = (got(&late_d.1, who), got(&late_q.1, who));
        assert_eq!(d, q, "{who}");
    }
    let scots = got(&reminders_d.1, "scots");
    assert_eq!(scots.len(), 1, "{scots:#?}");
    let flat = scots[0].1.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("the deadline of April 1066"), "{flat}");
    assert!(!flat.to_lowercase().contains("retreat"), "{flat}");
    let scots_late = got(&late_d.1, "scots");
    assert_eq!(scots_late.len(), 1, "{scots_late:#?}");
    assert!(scots_late[0].1.contains("April 1066"), "{scots_late:#?}");
    // Harald is reminded of the retreat he owes, and of nothing else.
    let harald = got(&reminders_d.1, "harald");
    assert_eq!(harald.len(), 1, "{harald:#?}");
    let flat = harald[0].1.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("March 1066 retreat"), "{flat}");
    assert!(flat.contains("A/F(GER)"), "{flat}");
    assert_eq!(got(&late_d.1, "harald").len(), 1, "{late_d:#?}");
}

#[test]
fn rule_5_a_hidden_retreat_that_runs_out_its_time_leaves_april_at_its_deadline() {
    // Harald never orders the retreat nobody else may know of, nobody
    // orders April: the retreat is played out when the grace ends, and
    // April with it, at the hour and in the words of a game where nothing
    // was dislodged. (April used to get a fresh deadline of its own then,
    // which told everyone there had been a phase in between.)
    let [_, late_d, april_d] = clock_after_march(DISLODGED);
    let [_, late_q, april_q] = clock_after_march(QUIET);
    assert_eq!(late_d.0, late_q.0, "the late notices' hour");
    assert_eq!(april_d.0, april_q.0, "the hour April is played");
    // The end of the second move shows the A/Fs left (rule 5), two in one
    // game and four in the other: the list of those not placed is all that
    // may differ.
    let placed = |m: Vec<Read>| -> Vec<Read> {
        m.into_iter()
            .map(|(s, b, a)| {
                let b: Vec<&str> = b
                    .split("\n\n")
                    .map(|p| p.split("Not placed").next().unwrap_or(p))
                    .collect();
                (s, b.join("\n\n"), a)
            })
            .collect()
    };
    for (who, _) in NAMES
        .iter()
        .filter(|(w, _)| *w != "harald")
        .chain([&("obs", "")])
    {
        let (d, q) = (got(&april_d.1, who), got(&april_q.1, who));
        assert!(!d.is_empty(), "{who}");
        assert_eq!(placed(d), placed(q), "{who}");
    }
    // Harald is told of his retreat, played without orders, before
    // April's results.
    let harald = got(&april_d.1, "harald");
    assert!(harald.len() >= 2, "{harald:#?}");
    assert!(harald[0].1.contains("A/F(GER)"), "{:#?}", harald[0]);
}
