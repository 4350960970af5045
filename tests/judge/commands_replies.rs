//! Every kind of reply a player or a GM gets, as a snapshot
//! (tests/judge/snapshots/judge__commands_replies__*.snap), so its layout is reviewed
//! like the results mails' and cannot change unnoticed: signing on (taken,
//! refused, locked), orders (accepted, partly refused, for another phase),
//! retreats and builds, the game's commands for anybody (HELP, LIST,
//! HISTORY, SUMMARY, WHO, VARIANTS, OBSERVE), forming a game (CREATE,
//! JOIN), each SET command, press, the GM's commands (PROCESS, PREVIEW,
//! PAUSE, RESUME, ROLLBACK, EJECT, REPLACE, EDIT, END), and the mails the
//! judge cannot act on (unknown commands, nothing to do, HTML only, too
//! large).
//!
//! The judge's clock starts at a fixed time (tests/support_judge), so the
//! dates in the replies are fixed too; only the passwords the judge makes
//! are masked.

use crate::support_judge;
use support_judge::{Sent, World};

const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];
const GM: &str = "gm@example.test";

fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_lowercase())
}

/// The reply without the judge's signature.
fn answer(reply: &str) -> String {
    reply
        .split("\n-- \n")
        .next()
        .unwrap_or(reply)
        .trim_end()
        .to_string()
}

/// The reply to a mail from `from`, without the signature.
fn reply(w: &mut World, from: &str, body: &str) -> String {
    answer(&w.reply(from, body))
}

/// Sign on as `power` (password `pw-<power>`) and send `body`.
fn as_power(w: &mut World, power: &str, body: &str) -> String {
    reply(
        w,
        &addr(power),
        &format!("SIGNON {power} g1 pw-{power}\n{body}"),
    )
}

/// Sign on as the GM of g1 and send `body`.
fn as_gm(w: &mut World, body: &str) -> String {
    reply(w, GM, &format!("SIGNON GM g1 gm-secret\n{body}"))
}

/// A standard game g1, without pictures, every power taken: started.
fn started() -> World {
    let mut w = World::new();
    w.mail(GM, "CREATE g1 standard gm-secret");
    for p in POWERS {
        w.mail(&addr(p), &format!("JOIN g1 pw-{p} {p}\nSET PICTURE NONE"));
    }
    w
}

/// Every power sends `orders(power)` and READY; the mails of the last.
fn everybody(w: &mut World, orders: impl Fn(&str) -> &'static str) -> Vec<Sent> {
    let mut last = Vec::new();
    for p in POWERS {
        last = w.mail(
            &addr(p),
            &format!("SIGNON {p} g1 pw-{p}\n{}\nREADY", orders(p)),
        );
    }
    last
}

/// Spring 1901 orders that set up a dislodgement of Vienna in the Fall:
/// Italy to Tyrolia, Russia to Galicia; the rest hold.
fn spring(p: &str) -> &'static str {
    match p {
        "Italy" => "A Ven-Tyr",
        "Russia" => "A War-Gal",
        "England" => "F Lon-NTH",
        _ => "",
    }
}

/// Fall 1901: Italy takes Vienna with Russian support (Austria's army
/// must retreat), Russia takes Rumania, England Norway.
fn fall(p: &str) -> &'static str {
    match p {
        "Italy" => "A Tyr-Vie",
        "Russia" => "A Gal S A Tyr-Vie\nF Sev-Rum",
        "England" => "F NTH-Nwy",
        _ => "",
    }
}

#[test]
fn replies_to_anybody_help_variants_list_observe_unknown() {
    let mut w = started();
    insta::assert_snapshot!("help", reply(&mut w, "new@example.test", "HELP"));
    insta::assert_snapshot!(
        "help_command",
        reply(&mut w, "new@example.test", "HELP SET DEADLINE")
    );
    insta::assert_snapshot!(
        "help_unknown",
        reply(&mut w, "new@example.test", "HELP FROBNICATE")
    );
    insta::assert_snapshot!("variants", reply(&mut w, "new@example.test", "VARIANTS"));
    insta::assert_snapshot!("list_all", reply(&mut w, "new@example.test", "LIST"));
    insta::assert_snapshot!("list_game", reply(&mut w, "new@example.test", "LIST g1"));
    insta::assert_snapshot!(
        "observe",
        reply(&mut w, "watcher@example.test", "OBSERVE g1\nUNOBSERVE g1")
    );
    insta::assert_snapshot!(
        "unknown_command",
        reply(
            &mut w,
            "new@example.test",
            "FROBNICATE g1\nSET COLOUR blue\nLIST g2"
        )
    );
    insta::assert_snapshot!("who", reply(&mut w, "new@example.test", "WHO g1"));
}

#[test]
fn replies_to_mails_the_judge_cannot_act_on() {
    let mut w = World::new();
    insta::assert_snapshot!(
        "nothing_to_do",
        reply(
            &mut w,
            "chatty@example.test",
            "Hello judge,\n\nhow are you today?\n\nCheers,\nBob"
        )
    );
    // HTML only: read as text, the command is carried out.
    let html = "From: web@example.test\r\nTo: judge@example.test\r\nSubject: html\r\n\
                Message-ID: <html1@example.test>\r\nMIME-Version: 1.0\r\n\
                Content-Type: text/html; charset=utf-8\r\n\r\n\
                <html><body><p>LIST</p><p>Thanks!</p></body></html>\r\n";
    let sent = w.raw(html.as_bytes());
    let r = sent
        .iter()
        .find(|m| m.to_has("web@example.test"))
        .expect("a reply to the HTML mail");
    insta::assert_snapshot!("html_only", answer(&r.body));
    // Too large: refused unread, whatever it holds.
    let big = format!(
        "From: big@example.test\r\nTo: judge@example.test\r\nSubject: big\r\n\
         Message-ID: <big1@example.test>\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n\
         --b\r\nContent-Type: text/plain\r\n\r\nLIST\r\n\
         --b\r\nContent-Type: application/octet-stream\r\n\
         Content-Disposition: attachment; filename=\"map.bin\"\r\n\
         Content-Transfer-Encoding: base64\r\n\r\n{}\r\n--b--\r\n",
        "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFB\r\n"
            .repeat(16_000)
    );
    let sent = w.raw(big.as_bytes());
    let r = sent
        .iter()
        .find(|m| m.to_has("big@example.test"))
        .expect("a reply to the large mail");
    // The size in bytes is of this test's making; the words are what a
    // reader sees.
    insta::assert_snapshot!("too_large", answer(&r.body));
}

#[test]
fn replies_to_creating_and_joining_a_game() {
    let mut w = World::new();
    insta::assert_snapshot!("create", reply(&mut w, GM, "CREATE g1 standard gm-secret"));
    insta::assert_snapshot!(
        "create_taken",
        reply(
            &mut w,
            "other@example.test",
            "CREATE g1 standard pw2-secret"
        )
    );
    insta::assert_snapshot!(
        "join",
        reply(&mut w, &addr("Austria"), "JOIN g1 pw-Austria Austria")
    );
    insta::assert_snapshot!(
        "join_taken",
        reply(&mut w, "late@example.test", "JOIN g1 pw-latecomer Austria")
    );
    // Austria and England (the latecomer's second choice) are taken.
    for p in ["France", "Germany", "Italy", "Russia"] {
        w.mail(&addr(p), &format!("JOIN g1 pw-{p} {p}"));
    }
    insta::assert_snapshot!(
        "join_starts",
        reply(&mut w, &addr("Turkey"), "JOIN g1 pw-Turkey Turkey")
    );
    insta::assert_snapshot!(
        "join_too_late",
        reply(&mut w, "late@example.test", "JOIN g1 pw-latecomer")
    );
}

#[test]
fn replies_to_signing_on() {
    let mut w = started();
    insta::assert_snapshot!("signon", as_power(&mut w, "England", ""));
    insta::assert_snapshot!(
        "signon_wrong_password",
        reply(&mut w, "spy@example.test", "SIGNON England g1 guess1")
    );
    // Three more failures lock the seat.
    for n in 2..5 {
        w.mail("spy@example.test", &format!("SIGNON England g1 guess{n}"));
    }
    insta::assert_snapshot!(
        "signon_locked",
        reply(&mut w, "spy@example.test", "SIGNON England g1 pw-England")
    );
    insta::assert_snapshot!("signoff", as_power(&mut w, "France", "SIGNOFF\nF Bre-MAO"));
}

#[test]
fn replies_to_orders_retreats_and_builds() {
    let mut w = started();
    insta::assert_snapshot!(
        "orders_accepted",
        as_power(&mut w, "England", "F Lon-NTH\nF Edi-NWG\nA Lvp-Yor")
    );
    insta::assert_snapshot!(
        "orders_partly_refused",
        as_power(
            &mut w,
            "France",
            "F Bre-MAO\nA Par-Mun\nA Mar-Spain\nA Kie-Ber\nthanks"
        )
    );
    insta::assert_snapshot!(
        "orders_wrong_phase",
        as_power(&mut w, "Germany", "Build A Ber\nA Vie-Boh")
    );
    insta::assert_snapshot!(
        "clear_and_ready",
        as_power(&mut w, "England", "CLEAR\nREADY\nNOT READY")
    );
    everybody(&mut w, spring);
    everybody(&mut w, fall);
    insta::assert_snapshot!(
        "retreat",
        as_power(&mut w, "Austria", "A Vie-Gal\nA Vie-Boh")
    );
    insta::assert_snapshot!(
        "retreat_ready_processes",
        as_power(&mut w, "Austria", "READY")
    );
    insta::assert_snapshot!(
        "builds",
        as_power(&mut w, "Russia", "Build A Mos\nBuild A Lon\nWaive")
    );
    insta::assert_snapshot!(
        "removal",
        as_power(&mut w, "Austria", "Build A Vie\nRemove A Boh")
    );
}

#[test]
fn replies_to_a_players_settings_press_and_votes() {
    let mut w = started();
    insta::assert_snapshot!(
        "player_settings",
        as_power(
            &mut w,
            "England",
            "SET NAME Ann of England\nSET PICTURE SVG\nSET ABSENCE 2028-02-01 TO 2028-02-10\n\
             SET PASSWORD new-secret"
        )
    );
    insta::assert_snapshot!(
        "set_address",
        reply(
            &mut w,
            "ann@elsewhere.test",
            "SIGNON England g1 new-secret\nSET ADDRESS"
        )
    );
    insta::assert_snapshot!(
        "press",
        as_power(
            &mut w,
            "France",
            "PRESS TO England Germany\nA word between us.\nENDPRESS\n\
             BROADCAST\nHello all.\nENDPRESS"
        )
    );
    insta::assert_snapshot!(
        "votes",
        as_power(&mut w, "Italy", "DRAW\nNO DRAW\nCONCEDE Turkey\nNO CONCEDE")
    );
    insta::assert_snapshot!(
        "variant_only_commands",
        as_power(
            &mut w,
            "Italy",
            "NOMINATE Tun\nPERMIT France\nREVOKE France\nEXCHANGE France Ven FOR Mar"
        )
    );
    insta::assert_snapshot!("resign", as_power(&mut w, "Turkey", "RESIGN g1"));
}

#[test]
fn replies_to_the_gm_settings() {
    let mut w = World::new();
    w.mail(GM, "CREATE g1 standard gm-secret");
    insta::assert_snapshot!(
        "gm_settings",
        as_gm(
            &mut w,
            "SET PHASE LENGTH 72h 48h\nSET GRACE 2h\nSET REMINDER 90m\n\
             SET TIMEZONE Europe/London\nSET NMR CD\nSET PRESS GREY\nSET STYLE JUDGE\n\
             SET END 1910\nSET ROSTER ADDRESSES\nSET ABSENCES ON 5d"
        )
    );
    insta::assert_snapshot!(
        "gm_settings_refused",
        as_gm(
            &mut w,
            "SET GRACE forever\nSET TIMEZONE Mars/Olympus\nSET NMR MAYBE\nSET DEADLINE in 2h"
        )
    );
    insta::assert_snapshot!("gm_start_early", as_gm(&mut w, "START"));
}

#[test]
fn replies_to_the_gm_running_a_game() {
    let mut w = started();
    insta::assert_snapshot!(
        "gm_deadline",
        as_gm(
            &mut w,
            "SET TIMEZONE Europe/London\nSET DEADLINE Saturday 18:00"
        )
    );
    insta::assert_snapshot!("gm_pause_resume", as_gm(&mut w, "PAUSE\nRESUME"));
    insta::assert_snapshot!("gm_preview", as_gm(&mut w, "PREVIEW"));
    insta::assert_snapshot!("gm_process", as_gm(&mut w, "PROCESS"));
    insta::assert_snapshot!("gm_history", reply(&mut w, GM, "HISTORY g1"));
    insta::assert_snapshot!("summary", reply(&mut w, GM, "SUMMARY g1"));
    insta::assert_snapshot!("gm_rollback", as_gm(&mut w, "ROLLBACK"));
    insta::assert_snapshot!(
        "gm_edit",
        as_gm(
            &mut w,
            "EDIT ADD Austria A Gal\nEDIT REMOVE Gal\nEDIT OWNER Bel France"
        )
    );
    insta::assert_snapshot!("gm_eject", as_gm(&mut w, "EJECT Germany"));
    let r = as_gm(&mut w, "REPLACE Germany newgermany@example.test");
    insta::assert_snapshot!("gm_replace", r);
    insta::assert_snapshot!("gm_end", as_gm(&mut w, "END DRAW"));
}

#[test]
fn a_deadline_made_obsolete_by_process_in_the_same_mail_is_not_announced() {
    let mut w = started();
    let sent = w.mail(GM, "SIGNON GM g1 gm-secret\nSET DEADLINE +48h\nPROCESS");
    let subjects: Vec<&str> = sent.iter().map(|m| m.subject.as_str()).collect();
    assert!(
        subjects.contains(&"g1: Spring 1901 results"),
        "{subjects:?}"
    );
    assert!(
        !subjects.contains(&"g1: new deadline"),
        "a deadline PROCESS replaced was announced: {subjects:?}"
    );
    // A deadline that stands is announced, once to each player.
    let sent = w.mail(GM, "SIGNON GM g1 gm-secret\nSET DEADLINE +48h");
    for p in POWERS {
        let n = sent
            .iter()
            .filter(|m| m.subject == "g1: new deadline" && m.to_has(&addr(p)))
            .count();
        assert_eq!(n, 1, "{p}: {sent:#?}");
    }
}

#[test]
fn replies_to_the_gm_ending_a_game_with_a_winner() {
    let mut w = started();
    insta::assert_snapshot!("gm_end_win", as_gm(&mut w, "END WIN Italy"));
    insta::assert_snapshot!(
        "orders_after_the_end",
        as_power(&mut w, "France", "A Par-Bur")
    );
}
