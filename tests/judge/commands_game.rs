//! The command language end to end through the real processor and store
//! (in memory), with a clock the test moves: a GM creates a standard game,
//! seven players join, and two game years are played with orders, press,
//! a late player reminded and then held in civil disorder and replaced, a
//! retreat, builds and removals, a rollback and a draw vote. Every mail
//! each address receives is checked.

use crate::support_judge;
use support_judge::{Sent, World};

const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];
const GM: &str = "gm@example.test";
const HOUR: u64 = 3600;

fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_lowercase())
}

/// Sign on and send orders, then READY.
fn order(w: &mut World, power: &str, orders: &str) -> String {
    let body = format!("SIGNON {power} g1 pw-{power}\n{orders}\nREADY\n");
    w.reply(&addr(power), &body)
}

fn to(sent: &[Sent], a: &str) -> Vec<Sent> {
    sent.iter().filter(|m| m.to_has(a)).cloned().collect()
}

fn results(sent: &[Sent]) -> Sent {
    sent.iter()
        .find(|m| {
            m.subject.contains("results")
                || m.subject.contains("retreats")
                || m.subject.contains("adjustments")
        })
        .cloned()
        .unwrap_or_else(|| panic!("no results among {sent:#?}"))
}

/// The GM creates and sets up the game, seven players join, the last one
/// starting it; a joiner after the start is refused.
fn created_and_joined(w: &mut World) {
    // The GM creates and sets up the game.
    let r = w.reply(
        GM,
        "CREATE g1 standard gm-secret\nSET NMR CD\nSET PRESS GREY\nSET TIMEZONE Europe/London\nSET PHASE LENGTH 72h 24h",
    );
    assert!(r.contains("Created g1 (Standard Diplomacy)"), "{r}");
    let flat = r.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "Set: a power without orders at the deadline goes into civil disorder (NMR CD)."
        ),
        "{r}"
    );
    assert!(
        r.contains("CREATE g1 standard ********"),
        "the password is not echoed: {r}"
    );

    // Seven players join; the last one starts the game.
    for (i, p) in POWERS.iter().enumerate() {
        let sent = w.mail(&addr(p), &format!("JOIN g1 pw-{p} {p}"));
        let reply = &to(&sent, &addr(p))[0].body;
        assert!(
            reply.contains(&format!("You have joined g1, asking for {p}")),
            "{reply}"
        );
        let gm: Vec<Sent> = to(&sent, GM);
        assert!(
            gm.iter().any(|m| m.subject == "g1: players joining"
                && m.body.contains(&format!("{} of 7 seats taken", i + 1))),
            "{gm:#?}"
        );
        if i == 6 {
            // Every player is told which power is theirs (each asked for
            // a different one, and has it); the GM gets the overview.
            for q in POWERS {
                let start = sent
                    .iter()
                    .find(|m| m.to_has(&addr(q)) && m.subject == format!("g1: you are {q}"))
                    .unwrap_or_else(|| panic!("{q} not told: {sent:#?}"));
                assert!(
                    start
                        .body
                        .contains(&format!("SIGNON {q} g1 <your password>"))
                );
                assert_eq!(start.attachments.len(), 1, "the map");
            }
            assert!(
                sent.iter()
                    .any(|m| m.to_has(GM) && m.subject == "g1: the game starts")
            );
            assert!(
                reply.contains("g1 has started: Spring 1901 movement."),
                "{reply}"
            );
            assert!(
                reply.contains("Deadline: Tue 04 Jan 2028 12:00 GMT."),
                "{reply}"
            );
        }
    }
    // A joiner after the start is refused.
    assert!(
        w.reply("late@example.test", "JOIN g1 pw-secret")
            .contains("not taking players")
    );
}

/// Spring 1901: six powers order, England sends press, a spy fails to
/// sign on, Austria is reminded, late, and in civil disorder at the end
/// of the grace.
fn spring_1901_with_press_and_a_late_power(w: &mut World) {
    // Spring 1901: six powers order; England sends press; Austria is silent.
    let r = order(
        w,
        "England",
        "F(Lon)-NTH\nF Edi - Norwegian Sea\nA Lvp-Yrk\nA(Lvp)-Yor",
    );
    assert!(r.contains("line 4: \"A Lvp-Yrk\""), "{r}");
    assert!(r.contains("Did you mean Yorkshire (Yor)?"), "{r}");
    assert!(r.contains("  A(Lvp)-Yor\n"), "{r}");
    assert!(r.contains("Your orders are complete."), "{r}");
    let sent = w.mail(
        &addr("England"),
        "SIGNON England g1 pw-England\nPRESS TO France\nShall we split the Channel?\nENDPRESS\nBROADCAST GREY\nSomebody is lying.\nENDPRESS",
    );
    let press_fr = to(&sent, &addr("France"));
    assert!(press_fr.iter().any(
        |m| m.body.contains("From England, to France") && m.body.contains("split the Channel")
    ));
    let grey = press_fr
        .iter()
        .find(|m| m.body.contains("Somebody is lying"))
        .expect("broadcast");
    assert!(
        !grey.body.contains("England"),
        "grey press hides the sender: {}",
        grey.body
    );
    assert!(
        to(&sent, GM)
            .iter()
            .any(|m| m.body.contains("From England (sent grey)")),
        "the GM sees the sender"
    );
    assert!(
        to(&sent, &addr("Germany"))
            .iter()
            .all(|m| !m.body.contains("split the Channel")),
        "press goes only where sent"
    );

    order(w, "France", "F Bre-MAO\nA Par-Bur\nA Mar-Spa");
    order(w, "Germany", "F Kie-Den\nA Ber-Kie\nA Mun-Ruh");
    order(w, "Italy", "F Nap-ION\nA Rom-Apu\nA Ven-Tyr");
    order(w, "Russia", "F StP/sc-BOT\nA Mos-Ukr\nA War-Gal\nF Sev-BLA");
    order(w, "Turkey", "F Ank-BLA\nA Con-Bul\nA Smy-Arm");

    // A player cannot see another's orders: signing on as Italy with the
    // wrong password fails, with the same words as an unknown power.
    let bad = w.reply("spy@example.test", "SIGNON Italy g1 wrong\nA Apu-Nap");
    let bad2 = w.reply("spy@example.test", "SIGNON Atlantis g1 wrong");
    assert!(
        bad.contains("sign-on failed: the game, power or password is not right"),
        "{bad}"
    );
    assert!(
        bad2.contains("sign-on failed: the game, power or password is not right"),
        "{bad2}"
    );

    // Reminder 24h before the deadline, to Austria only.
    let sent = w.advance(48 * HOUR + 60);
    assert_eq!(sent.len(), 1, "{sent:#?}");
    assert!(
        sent[0].to_has(&addr("Austria")) && sent[0].subject.starts_with("g1: orders due"),
        "{sent:#?}"
    );
    assert!(
        sent[0].body.contains("A(Bud)") && sent[0].body.contains("F(Tri)"),
        "{}",
        sent[0].body
    );

    // The deadline passes: Austria is late, the GM is told; grace 24h.
    let sent = w.advance(24 * HOUR);
    assert!(
        to(&sent, &addr("Austria"))
            .iter()
            .any(|m| m.subject == "g1: your orders are late")
    );
    assert!(
        to(&sent, GM)
            .iter()
            .any(|m| m.subject == "g1: late powers" && m.body.contains("Austria"))
    );

    // End of grace: processed; Austria in civil disorder; results to all.
    let sent = w.advance(24 * HOUR);
    let res = results(&sent);
    for a in POWERS.iter().map(|p| addr(p)).chain([GM.to_string()]) {
        let mine: Vec<&Sent> = sent
            .iter()
            .filter(|m| m.to_has(&a) && m.subject == res.subject)
            .collect();
        assert_eq!(mine.len(), 1, "{a} gets the results once");
        assert_eq!(mine[0].to.len(), 1, "nobody sees the others' addresses");
        assert_eq!(mine[0].body, res.body);
    }
    assert_eq!(res.subject, "g1: Spring 1901 results");
    let names: Vec<&str> = res.attachments.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        ["g1-S1901M.png", "g1-S1901M.svg"],
        "the map comes with the results"
    );
    assert!(res.attachments[0].1 > 20_000, "a real picture");
    let b = &res.body;
    assert!(b.contains("  F(Ank)-BLA") && b.contains("bounced"), "{b}");
    assert!(b.contains("  A(Bud) H") && b.contains("no order"), "{b}");
    assert!(b.contains("No orders received from: Austria."), "{b}");
    assert!(b.contains("Next: Fall 1901 movement, deadline"), "{b}");
    for l in b.lines() {
        assert!(l.chars().count() <= 72 && !l.contains('\t'), "{l}");
    }
    assert!(
        to(&sent, GM)
            .iter()
            .any(|m| m.subject.contains("no orders from Austria"))
    );
}

/// The GM replaces Austria (the new player gets a password by mail, which
/// is returned), and in Fall 1901 Italy dislodges Vienna.
fn austria_replaced_and_fall_1901(w: &mut World) -> String {
    // The GM replaces Austria; the new player gets a password by mail.
    let sent = w.mail(
        GM,
        "SIGNON GM g1 gm-secret\nREPLACE Austria newaus@example.test",
    );
    let welcome = to(&sent, "newaus@example.test");
    assert_eq!(welcome.len(), 1, "{sent:#?}");
    let pw_line = welcome[0]
        .body
        .lines()
        .find(|l| l.starts_with("Your password is: "))
        .unwrap();
    let new_pw = pw_line
        .trim_start_matches("Your password is: ")
        .trim()
        .to_string();
    assert!(
        to(&sent, &addr("Austria"))
            .iter()
            .any(|m| m.subject.contains("no longer play Austria"))
    );

    // Fall 1901: Italy dislodges Vienna with Russian support.
    let r = w.reply(
        "newaus@example.test",
        &format!("SIGNON Austria g1 {new_pw}\nA Vie H\nA Bud H\nF Tri-Alb\nREADY"),
    );
    assert!(r.contains("Your orders are complete."), "{r}");
    order(w, "Italy", "A Tyr-Vie\nF ION-Tun\nA Apu H");
    order(w, "England", "F NTH C A Yor-Nwy\nA Yor-Nwy\nF NWG H");
    order(w, "France", "F MAO-Por\nA Spa H\nA Bur H");
    order(w, "Germany", "F Den H\nA Kie-Hol\nA Ruh-Bel");
    order(w, "Turkey", "A Bul H\nF Ank-BLA\nA Arm H");
    let sent = w.mail(
        &addr("Russia"),
        "SIGNON Russia g1 pw-Russia\nA Gal S A(Tyr)-Vie\nA Ukr-Rum\nF Sev H\nF BOT-Swe\nREADY",
    );
    // Everyone ready: processed at once.
    let res = results(&sent);
    assert_eq!(res.subject, "g1: Fall 1901 results");
    assert!(
        res.body.contains("A(Vie) H") && res.body.contains("dislodged"),
        "{}",
        res.body
    );
    assert!(res.body.contains("may retreat to Boh"), "{}", res.body);
    assert!(res.body.contains("Next: Fall 1901 retreat"), "{}", res.body);
    new_pw
}

/// The retreat, where only Austria has a choice, and the Winter 1901
/// builds and removal.
fn retreat_and_winter_1901(w: &mut World, new_pw: &str) {
    // The retreat: only Austria has a choice.
    let sent = w.mail(
        "newaus@example.test",
        &format!("SIGNON Austria g1 {new_pw}\nA Vie - Gal\nA Vie-Boh\nREADY"),
    );
    let r = &to(&sent, "newaus@example.test")[0].body;
    assert!(r.contains("    a unit may only retreat"), "{r}");
    let res = results(&sent);
    assert_eq!(res.subject, "g1: Fall 1901 retreats");
    assert!(res.body.contains("Austria: A(Vie)-Boh"), "{}", res.body);
    assert!(
        res.body.contains("Next: Winter 1901 adjustment"),
        "{}",
        res.body
    );
    assert!(res.body.contains("Russia"), "{}", res.body);

    // Winter 1901: builds and a removal.
    let r = order(w, "England", "Build F Edi");
    assert!(r.contains("Build F(Edi)"), "{r}");
    order(w, "Russia", "Build A Mos\nBuild F StP/nc");
    let r = w.reply(
        "newaus@example.test",
        &format!("SIGNON Austria g1 {new_pw}\nRemove A Boh\nREADY"),
    );
    assert!(r.contains("Remove A(Boh)"), "{r}");
    order(w, "Italy", "Build F Nap\nWaive");
    order(w, "France", "Build A Par\nBuild F Mar");
    order(w, "Germany", "Build A Ber\nBuild A Mun\nBuild F Kie");
    let sent = w.mail(
        &addr("Turkey"),
        "SIGNON Turkey g1 pw-Turkey\nBuild A Smy\nREADY",
    );
    let res = results(&sent);
    assert_eq!(res.subject, "g1: Winter 1901 adjustments");
    assert!(res.body.contains("England: builds F(Edi)"), "{}", res.body);
    assert!(res.body.contains("Austria: removes A(Boh)"), "{}", res.body);
    assert!(
        res.body
            .contains("Italy: builds F(Nap)\n  Italy: waives a build"),
        "{}",
        res.body
    );
    assert!(
        res.body.contains("Next: Spring 1902 movement"),
        "{}",
        res.body
    );
}

/// Spring 1902, rolled back by the GM and played again.
fn spring_1902_rolled_back_and_played_again(w: &mut World, new_pw: &str) {
    // Spring 1902, then the GM rolls it back and it is played again.
    for p in POWERS {
        let body = match p {
            "Austria" => format!("SIGNON Austria g1 {new_pw}\nA Bud H\nF Alb H\nREADY"),
            _ => format!("SIGNON {p} g1 pw-{p}\nREADY"),
        };
        let who = if p == "Austria" {
            "newaus@example.test".to_string()
        } else {
            addr(p)
        };
        w.mail(&who, &body);
    }
    let sent = w.sent();
    assert!(
        sent.is_empty(),
        "READY with every unit holding was processed already"
    );
    let hist = w.reply(GM, "HISTORY g1");
    assert!(hist.contains("mailed to you separately"), "{hist}");
    let sent = w.mail(GM, "SIGNON GM g1 gm-secret\nROLLBACK");
    let r = &sent.iter().find(|m| m.in_reply_to.is_some()).unwrap().body;
    assert!(
        r.contains("Rolled back to the start of Spring 1902 movement"),
        "{r}"
    );
    assert!(
        to(&sent, &addr("England"))
            .iter()
            .any(|m| m.subject == "g1: rolled back to Spring 1902 movement")
    );

    // A draw: every survivor votes for it.
    for p in POWERS {
        let who = if p == "Austria" {
            "newaus@example.test".to_string()
        } else {
            addr(p)
        };
        let pw = if p == "Austria" {
            new_pw.to_string()
        } else {
            format!("pw-{p}")
        };
        let r = w.reply(&who, &format!("SIGNON {p} g1 {pw}\nDRAW"));
        if p == "Turkey" {
            assert!(r.contains("The game is over: a draw between"), "{r}");
        }
    }
    let list = w.reply("anyone@example.test", "LIST g1");
    assert!(list.contains("finished"), "{list}");
    assert!(
        list.contains("Result: a draw between Austria, England"),
        "{list}"
    );
}

#[test]
fn two_game_years_by_mail() {
    let mut w = World::new();
    created_and_joined(&mut w);
    spring_1901_with_press_and_a_late_power(&mut w);
    let new_pw = austria_replaced_and_fall_1901(&mut w);
    retreat_and_winter_1901(&mut w, &new_pw);
    spring_1902_rolled_back_and_played_again(&mut w, &new_pw);
}
