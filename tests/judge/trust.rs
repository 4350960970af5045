//! Trust: no mail can stop the judge, take a seat, read a password back or
//! start a loop. Each test is a case a hostile or careless sender tried;
//! each ends with the judge answering the next mail.

use crate::support_judge;
use std::time::SystemTime;
use support_judge::{Sent, World};
use zinejudge::testing::commands::Judge;
use zinejudge::testing::daemon::process::{Limits, Processor, Responder, Response};
use zinejudge::testing::mail::{Identity, Inbound};
use zinejudge::testing::store::Store;

const GM: &str = "gm@example.test";
const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_ascii_lowercase())
}

/// A started standard game `g` with every power taken.
fn started() -> World {
    let mut w = World::new();
    w.reply(GM, "CREATE g standard gm-secret");
    for p in POWERS {
        w.reply(&addr(p), &format!("JOIN g pw-{p} {p}"));
    }
    w
}

/// Text with its line breaks and indentation made single spaces, to find
/// a sentence however the reply wrapped it.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn reply_of(sent: &[Sent]) -> &Sent {
    sent.iter()
        .find(|m| m.in_reply_to.is_some())
        .unwrap_or_else(|| panic!("no reply in {sent:#?}"))
}

/// The judge still answers at once.
fn still_answers(w: &mut World) {
    let r = w.reply("later@example.test", "LIST");
    assert!(r.contains("g (standard)"), "{r}");
}

fn raw_mail(headers: &str, body: &str) -> Vec<u8> {
    format!("{headers}\r\n\r\n{}\r\n", body.replace('\n', "\r\n")).into_bytes()
}

#[test]
fn a_display_name_with_a_line_break_is_answered_and_changes_nothing() {
    let mut w = started();
    for headers in [
        "From: =?utf-8?q?A=0AB?= <eve@x.test>\r\nMessage-ID: <nl1@x.test>",
        "From: =?utf-8?q?A=0DB?= <eve@x.test>\r\nMessage-ID: <nl2@x.test>",
        "From: eve@x.test\r\nReply-To: =?utf-8?q?Eve=0D=0ABcc:_v@x.test?= <eve2@x.test>\r\nMessage-ID: <nl3@x.test>",
        "From: eve@x.test\r\nSubject: =?utf-8?q?orders=0ABcc:_v@x.test?=\r\nMessage-ID: <nl4@x.test>",
    ] {
        let sent = w.raw(&raw_mail(headers, "HELP"));
        let r = reply_of(&sent);
        assert!(r.body.contains("Commands are lines of a mail"), "{r:#?}");
        assert!(!r.to.iter().any(|t| t.contains("v@x.test")));
        assert!(!r.subject.contains('\n'));
    }
    still_answers(&mut w);
}

#[test]
fn a_header_of_5000_characters_gives_no_line_over_998() {
    let mut w = started();
    let id = "x".repeat(5000);
    let raw = raw_mail(
        &format!(
            "From: eve@x.test\r\nMessage-ID: <{id}@x.test>\r\nReferences: <{id}@a> <{id}@b>\r\nSubject: {}",
            "s".repeat(3000)
        ),
        "HELP",
    );
    w.raw(&raw);
    let out = w.processor.store.due_outbox(i64::MAX, 100_000).unwrap();
    let last = out.last().unwrap();
    let text = String::from_utf8_lossy(&last.raw);
    let head = text.split("\r\n\r\n").next().unwrap();
    for line in head.split("\r\n") {
        assert!(
            line.len() <= 998,
            "{} characters: {}",
            line.len(),
            &line[..60]
        );
    }
    assert!(head.contains("In-Reply-To: <"), "{head}");
}

/// A responder that panics on a marked mail and otherwise is the judge.
struct Fragile(Judge);

impl Responder for Fragile {
    fn respond(
        &mut self,
        tx: &zinejudge::testing::store::Tx<'_>,
        mail: &Inbound,
        sender: &zinejudge::testing::trust::Sender,
        now: SystemTime,
    ) -> anyhow::Result<Response> {
        assert!(!mail.text.contains("BOOM"), "a bug the mail found");
        self.0.respond(tx, mail, sender, now)
    }
}

fn fragile_world() -> Processor {
    Processor::new(
        Store::in_memory().unwrap(),
        Box::new(Fragile(Judge::new("zinejudge", "UTC"))),
        Identity {
            address: "judge@example.test".into(),
            name: "zinejudge".into(),
            domain: "example.test".into(),
        },
        Limits::default(),
    )
}

#[test]
fn a_mail_that_panics_the_judge_fails_alone_and_is_not_tried_again() {
    let mut p = fragile_world();
    let now = SystemTime::now();
    let t = zinejudge::testing::daemon::process::unix(now);
    let boom = raw_mail("From: a@x.test\r\nMessage-ID: <boom@x.test>", "BOOM");
    let fine = raw_mail("From: b@x.test\r\nMessage-ID: <fine@x.test>", "VARIANTS");
    p.store
        .insert_inbound("boom@x.test", "t", &boom, boom.len() as i64, false, t)
        .unwrap();
    p.store
        .insert_inbound("fine@x.test", "t", &fine, fine.len() as i64, false, t)
        .unwrap();
    let first = p.process_next(now).unwrap().unwrap();
    assert_eq!(first.message_id, "boom@x.test");
    assert!(first.note.starts_with("failed: panic"), "{first:?}");
    assert_eq!(first.replies, 1, "an apology");
    let second = p.process_next(now).unwrap().unwrap();
    assert_eq!(second.message_id, "fine@x.test");
    assert_eq!(second.note, "commands");
    assert!(
        p.process_next(now).unwrap().is_none(),
        "the failed mail is kept, not retried"
    );
    let apology = p.store.due_outbox(i64::MAX, 10).unwrap();
    let text = String::from_utf8_lossy(&apology[0].raw);
    assert!(text.contains("could not process this mail"), "{text}");
}

/// The daemon takes the mail waiting as a batch, made durable with one
/// wait for the disk: each mail is still its own transaction, so a mail
/// that panics the judge fails alone and the others are answered, and
/// commits wait for the disk again afterwards.
#[test]
fn a_queue_of_mail_is_processed_together_and_a_panic_still_fails_alone() {
    let mut p = fragile_world();
    let now = SystemTime::now();
    let t = zinejudge::testing::daemon::process::unix(now);
    for (id, body) in [("a", "VARIANTS"), ("boom", "BOOM"), ("b", "LIST")] {
        let raw = raw_mail(
            &format!("From: {id}@x.test\r\nMessage-ID: <{id}@x.test>"),
            body,
        );
        p.store
            .insert_inbound(
                &format!("{id}@x.test"),
                "t",
                &raw,
                raw.len() as i64,
                false,
                t,
            )
            .unwrap();
    }
    // One batch, or more when the machine is slow (a batch stops at the
    // tick budget): every mail is taken, each in its own transaction.
    let mut taken = 0;
    loop {
        match p.process_some(now, 64).unwrap() {
            0 => break,
            n => taken += n,
        }
    }
    assert_eq!(taken, 3);
    assert!(p.process_next(now).unwrap().is_none(), "all taken");
    let out = p.store.due_outbox(i64::MAX, 10).unwrap();
    assert_eq!(out.len(), 3, "two answers and an apology");
    let texts: Vec<String> = out
        .iter()
        .map(|m| String::from_utf8_lossy(&m.raw).to_string())
        .collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("could not process this mail"))
    );
    let sync: i64 = p
        .store
        .conn()
        .query_row("PRAGMA synchronous", &[], |r| r.get(0))
        .unwrap();
    assert_eq!(sync, 2, "FULL again after the batch");
}

#[test]
fn a_mail_the_process_died_on_three_times_is_given_up() {
    let mut p = fragile_world();
    let now = SystemTime::now();
    let t = zinejudge::testing::daemon::process::unix(now);
    let raw = raw_mail("From: a@x.test\r\nMessage-ID: <kill@x.test>", "LIST");
    let id = p
        .store
        .insert_inbound("kill@x.test", "t", &raw, raw.len() as i64, false, t)
        .unwrap()
        .unwrap();
    // Three starts that never finished (the process was killed).
    for _ in 0..3 {
        p.store.begin_attempt(id).unwrap();
    }
    let done = p.process_next(now).unwrap().unwrap();
    assert!(
        done.note
            .contains("stopped 3 times while processing this mail"),
        "{done:?}"
    );
    assert!(p.process_next(now).unwrap().is_none());
}

#[test]
fn guessing_in_one_mail_checks_one_password_a_power() {
    let mut w = started();
    let mut body: String = (0..200)
        .map(|i| format!("SIGNON France g guess{i}\n"))
        .collect();
    body.push_str("SIGNON France g pw-France\nA Par-Bur\n");
    let sent = w.mail("eve@x.test", &body);
    let r = &reply_of(&sent).body;
    assert!(!r.contains("Signed on as France"), "{r}");
    assert!(!r.contains("Orders held"), "{r}");
    assert!(
        r.contains("one password is checked per power and mail"),
        "{r}"
    );
    assert!(
        r.contains("more lines like these, with the same answer"),
        "{r}"
    );
    // One failure was counted, not 200.
    let notice = sent
        .iter()
        .find(|m| m.to_has(&addr("France")))
        .expect("France's player is told");
    assert!(
        flat(&notice.body).contains("(1 failure in a row from that address)"),
        "{}",
        notice.body
    );
    // Other seats: at most four passwords are checked in a mail.
    let body: String = POWERS
        .iter()
        .map(|p| format!("SIGNON {p} g wrong\n"))
        .collect();
    let r = w.reply("eve@x.test", &body);
    assert!(r.contains("checks at most 4 passwords a mail"), "{r}");
    still_answers(&mut w);
}

#[test]
fn a_huge_mail_of_sign_ons_is_read_to_a_bound() {
    let mut w = started();
    let body: String = (0..8000)
        .map(|i| format!("SIGNON France g guess{i}\n"))
        .collect();
    let sent = w.mail("eve@x.test", &body);
    let r = &reply_of(&sent).body;
    assert!(r.contains("carries out at most 100 commands a mail"), "{r}");
    assert!(r.len() < 64 * 1024, "{}", r.len());
    still_answers(&mut w);
}

#[test]
fn guessing_from_elsewhere_never_locks_the_player_or_the_gm_out() {
    let mut w = started();
    // Ten guessers, each from an address of its own (a From is free to
    // forge), and the forms njudge and DPjudge players write.
    for i in 0..10 {
        let line = match i % 3 {
            0 => "SIGNON GM g nope",
            1 => "SIGNON Mg nope",
            _ => "SIGNON gm@G nope",
        };
        w.mail(&format!("eve{i}@x.test"), line);
        w.mail(&format!("eve{i}@x.test"), "SIGNON France g nope");
    }
    // Every address but the seats' own is held back now ...
    let r = w.reply("eve99@x.test", "SIGNON GM g gm-secret");
    assert!(
        flat(&r).contains("from any address but its player's is locked until"),
        "{r}"
    );
    // ... a From forged as the GM's, with the answer going elsewhere, too
    let sent = w.raw(&raw_mail(
        &format!("From: {GM}\r\nReply-To: eve@x.test"),
        "SIGNON GM g gm-secret\nPROCESS",
    ));
    assert!(
        flat(&reply_of(&sent).body).contains("is locked until"),
        "{:#?}",
        reply_of(&sent)
    );
    // ... but the GM and France, writing from their own addresses, are in
    // at once, with no wait.
    let r = w.reply(GM, "SIGNON GM g gm-secret");
    assert!(r.contains("Signed on as the GM of g"), "{r}");
    let r = w.reply(&addr("France"), "SIGNON France g pw-France\nA Par-Bur");
    assert!(r.contains("A(Par)-Bur"), "{r}");
    // Their own typing errors lock nothing either.
    for _ in 0..5 {
        w.mail(GM, "SIGNON GM g gm-secret-typo");
    }
    let r = w.reply(GM, "SIGNON GM g gm-secret");
    assert!(r.contains("Signed on as the GM of g"), "{r}");
}

#[test]
fn one_guessing_address_is_locked_out_alone_and_the_player_is_told() {
    let mut w = started();
    let mut told = Vec::new();
    for _ in 0..3 {
        told.extend(w.mail("eve@x.test", "SIGNON England g nope"));
    }
    let r = w.reply("eve@x.test", "SIGNON England g pw-England");
    assert!(
        flat(&r).contains("from eve@x.test is locked until"),
        "the guesser's own address is locked, even with the right password: {r}"
    );
    assert!(
        told.iter().any(|m| m.to_has(&addr("England"))
            && flat(&m.body).contains("from that address is locked until")),
        "{told:#?}"
    );
    // Another address of the player's (not the registered one) still gets
    // in: three failures of one guesser do not lock everybody.
    let r = w.reply(
        "england-at-work@example.test",
        "SIGNON England g pw-England",
    );
    assert!(r.contains("Signed on as England in g"), "{r}");
    // The lock passes.
    w.advance(61);
    let r = w.reply("eve@x.test", "SIGNON England g pw-England");
    assert!(r.contains("Signed on as England in g"), "{r}");
}

#[test]
fn a_seat_taken_with_a_known_password_is_reported_to_its_owner() {
    let mut w = started();
    let sent = w.mail(
        "thief@x.test",
        "SIGNON England g pw-England\nF Lon-ENG\nSET PASSWORD stolen-pw",
    );
    let owner: Vec<&Sent> = sent.iter().filter(|m| m.to_has(&addr("England"))).collect();
    assert!(
        owner
            .iter()
            .any(|m| m.subject == "England in g: password changed"
                && m.body.contains("thief@x.test")),
        "{owner:#?}"
    );
    assert!(
        owner.iter().any(
            |m| m.subject == "g: orders or commands from another address"
                && m.body.contains("orders")
        ),
        "{owner:#?}"
    );
    // Moving the seat's mail to a third address is refused; to the
    // thief's own From it is done, and the owner is told.
    let r = w.reply(
        "thief@x.test",
        "SIGNON England g stolen-pw\nSET ADDRESS victim2@x.test",
    );
    assert!(
        r.contains("registers only the address a mail comes from"),
        "{r}"
    );
    let sent = w.mail("thief@x.test", "SIGNON England g stolen-pw\nSET ADDRESS");
    assert!(
        sent.iter()
            .any(|m| m.to_has(&addr("England")) && m.subject.contains("mail now goes elsewhere")),
        "{sent:#?}"
    );
}

#[test]
fn no_reply_ever_holds_a_password() {
    let mut w = started();
    let secret = "Xyzzy-4711";
    for body in [
        format!("SIGNON: England g {secret}"),
        format!("Signon. England g {secret}"),
        format!("signon england@g {secret}"),
        format!("SIGNON Eg {secret}"),
        format!("JOIN: g {secret}"),
        format!("Join g {secret} Italy"),
        format!("CREATE: g9 standard {secret}"),
        format!("create g10 nosuchvariant {secret}"),
        format!("SIGNON England g pw-England\nSET PASSWORD: {secret}"),
        format!("SIGNON England g pw-England\nset password {secret} extra"),
        format!("SIGNON England g {secret}A Lon-Yor F Edi-NTH"),
    ] {
        let sent = w.mail("me@x.test", &body);
        for m in &sent {
            assert!(!m.body.contains(secret), "{body}: {}", m.body);
        }
    }
    // An HTML-only mail whose lines run together.
    let raw = raw_mail(
        "From: me@x.test\r\nMessage-ID: <html1@x.test>\r\nContent-Type: text/html; charset=utf-8",
        &format!("<div>SIGNON England g {secret}</div><div>A Lon-Yor</div>"),
    );
    for m in w.raw(&raw) {
        assert!(!m.body.contains(secret), "{}", m.body);
    }
    // Nor does the copy of the mail the judge keeps.
    let kept: Vec<Vec<u8>> = {
        let c = w.processor.store.conn();
        c.query_map("SELECT raw FROM inbound", &[], |r| r.get(0))
            .unwrap()
    };
    for k in kept {
        let t = String::from_utf8_lossy(&k);
        assert!(!t.contains(secret), "kept: {t}");
    }
}

#[test]
fn reply_to_is_where_answers_go_not_who_registers() {
    let mut w = World::new();
    w.reply(GM, "CREATE g2 standard gm-secret");
    let raw = raw_mail(
        "From: attacker@evil.test\r\nReply-To: victim@victim.test\r\nMessage-ID: <rt1@evil.test>",
        "JOIN g2 pw-secret England",
    );
    let sent = w.raw(&raw);
    assert!(reply_of(&sent).to_has("victim@victim.test"));
    // Held until its From confirms: the request goes to the From alone.
    let request = sent
        .iter()
        .find(|m| m.to_has("attacker@evil.test"))
        .expect("the From is asked to confirm");
    let sent = w.mail_once(
        "attacker@evil.test",
        &format!("CONFIRM {}", code_of(request)),
    );
    assert!(
        sent.iter().any(|m| m.to_has("victim@victim.test")
            && m.body.contains("You have joined g2, asking for England")),
        "the held JOIN, carried out, is answered at its Reply-To: {sent:#?}"
    );
    let r = w.reply("x@x.test", "LIST g2");
    assert!(r.contains("England"), "{r}");
    let owner: Option<String> = w
        .processor
        .store
        .conn()
        .query_row(
            "SELECT address FROM seats WHERE game = 'g2' AND power = 1",
            &[],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(owner.as_deref(), Some("attacker@evil.test"));
    // 200 mails from one author with 200 Reply-To addresses: the author's
    // hourly limit stops the answers.
    let mut answered = 0;
    for i in 0..200 {
        let raw = raw_mail(
            &format!(
                "From: attacker@evil.test\r\nReply-To: v{i}@victim.test\r\nMessage-ID: <rt-{i}@evil.test>"
            ),
            "HELP",
        );
        answered += w.raw(&raw).len();
    }
    assert!(answered <= 61, "{answered} answers");
}

#[test]
fn chat_is_not_a_command() {
    let mut w = started();
    let r = w.reply(
        &addr("England"),
        "SIGNON England g pw-England\nF Lon-ENG\nA Lvp-Yor\n\
         Clear skies over the North Sea this spring, France.\n\
         Resign yourself to losing Belgium, Germany!\n\
         Draw the line at Munich, please.\n\
         Concede nothing!\n\
         Help me out here.",
    );
    assert!(
        r.contains("Not understood: CLEAR takes nothing after it"),
        "{r}"
    );
    assert!(r.contains("Not understood: write RESIGN game"), "{r}");
    assert!(!r.contains("withdrawn"), "{r}");
    let r = w.reply(&addr("England"), "SIGNON England g pw-England");
    assert!(r.contains("Signed on as England"), "not resigned: {r}");
    let list = w.reply("x@x.test", "LIST g");
    assert!(list.contains("England  playing"), "{list}");
    // The orders stand.
    let r = w.reply(&addr("England"), "SIGNON England g pw-England\nF Edi-NTH");
    assert!(r.contains("F(Lon)-ENG") && r.contains("A(Lvp)-Yor"), "{r}");
}

#[test]
fn a_different_mail_reusing_a_message_id_is_answered() {
    let mut w = started();
    let a = raw_mail("From: a@x.test\r\nMessage-ID: <same@x.test>", "VARIANTS");
    let b = raw_mail("From: a@x.test\r\nMessage-ID: <same@x.test>", "LIST g");
    assert!(reply_of(&w.raw(&a)).body.contains("The judge plays"));
    let sent = w.raw(&b);
    assert!(
        reply_of(&sent).body.contains("Phase: Spring 1901"),
        "{sent:#?}"
    );
    // The same bytes again are the same mail: not answered twice.
    assert!(w.raw(&a).is_empty());
}

#[test]
fn autoresponders_get_one_answer_at_most() {
    let mut w = started();
    // A naive autoresponder: no headers that say what it is.
    let mut answers = 0;
    for i in 0..5 {
        let raw = raw_mail(
            &format!(
                "From: away@x.test\r\nSubject: Re: Re: your mail to the judge\r\nMessage-ID: <away{i}@x.test>"
            ),
            "I am on holiday until Monday.",
        );
        answers += w.raw(&raw).len();
    }
    assert_eq!(answers, 1, "ping-pong stops after one answer");
    // Exchange without Auto-Submitted, list robots, digests: no answer.
    for (i, headers) in [
        "From: boss@x.test\r\nSubject: Automatic reply: g: Spring 1901 results",
        "From: dip-bounces@lists.x.test\r\nSubject: Your message awaits moderator approval",
        "From: dip-request@lists.x.test\r\nSubject: confirm 1234",
        "From: dip@lists.x.test\r\nList-Id: <dip.lists.x.test>\r\nSubject: dip Digest, Vol 1, Issue 2",
        "From: Auto <auto-reply@x.test>\r\nSubject: Thanks",
    ]
    .iter()
    .enumerate()
    {
        let raw = raw_mail(&format!("{headers}\r\nMessage-ID: <robot{i}@x.test>"), "LIST");
        assert!(w.raw(&raw).is_empty(), "{headers}");
    }
    still_answers(&mut w);
}

#[test]
fn a_players_mail_through_a_list_is_answered_to_the_player_only() {
    let mut w = started();
    let raw = raw_mail(
        "From: england@example.test\r\nReply-To: dip@lists.x.test\r\nList-Id: <dip.lists.x.test>\r\nPrecedence: list\r\nMessage-ID: <list1@x.test>",
        "SIGNON England g pw-England\nF Lon-ENG",
    );
    let sent = w.raw(&raw);
    let r = reply_of(&sent);
    assert_eq!(r.to, vec![addr("England")]);
    assert!(r.body.contains("F(Lon)-ENG"), "{}", r.body);
}

#[test]
fn an_answer_is_never_much_larger_than_the_mail() {
    let mut w = started();
    let line = "SET COLOUR of the sea to blue, please, and thank you very much\n";
    let body = line.repeat(118 * 1024 / line.len());
    let sent = w.mail("chatty@x.test", &body);
    let r = reply_of(&sent);
    assert!(r.body.len() <= 64 * 1024, "{} bytes", r.body.len());
    assert!(
        r.body.contains("more lines like these"),
        "{}",
        &r.body[..500]
    );
}

#[test]
fn a_game_whose_deadline_work_fails_is_set_aside_and_the_others_go_on() {
    let mut w = World::new();
    w.reply(GM, "CREATE bad standard gm-secret");
    w.reply(GM, "CREATE good standard gm-secret");
    for g in ["bad", "good"] {
        for p in POWERS {
            w.reply(
                &format!("{g}-{}", addr(p)),
                &format!("JOIN {g} pw-secret {p}"),
            );
        }
    }
    w.processor
        .store
        .conn()
        .execute(
            "UPDATE games SET position = 'garbage' WHERE name = 'bad'",
            &[],
        )
        .unwrap();
    let sent = w.advance(4 * 86400);
    assert!(
        sent.iter()
            .any(|m| m.to_has(GM) && m.subject == "bad: the judge could not process this game"),
        "{:#?}",
        sent.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    assert!(
        sent.iter()
            .any(|m| m.subject == "good: Spring 1901 results"),
        "the good game is played"
    );
    // Told once, not at every tick.
    let again = w.advance(60);
    assert!(
        !again.iter().any(|m| m.subject.starts_with("bad:")),
        "{again:#?}"
    );
}

#[test]
fn chained_absences_move_a_deadline_by_the_cap_at_most_with_one_notice_a_mail() {
    let mut w = started();
    // The deadline is Tue 04 Jan 2028 12:00 UTC; the GM lets absences move
    // it by 7 days at most.
    w.reply(GM, "SIGNON GM g gm-secret\nSET ABSENCES ON 7d");
    let day = |d: i64| {
        let t = 1_830_556_800 + d * 86_400; // Tue 04 Jan 2028 00:00 UTC
        jiff::Timestamp::from_second(t)
            .unwrap()
            .strftime("%Y-%m-%d")
            .to_string()
    };
    let chained: String = (0..99)
        .map(|d| format!("SET ABSENCE {} TO {}\n", day(d), day(d + 1)))
        .collect();
    let sent = w.mail(
        &addr("France"),
        &format!("SIGNON France g pw-France\n{chained}"),
    );
    let to_england: Vec<&Sent> = sent.iter().filter(|m| m.to_has(&addr("England"))).collect();
    assert_eq!(
        to_england.len(),
        1,
        "one notice for the mail, not one a line: {to_england:#?}"
    );
    assert!(
        flat(&to_england[0].body).contains("the deadline moves to Tue 11 Jan 2028 12:00 UTC"),
        "moved by the cap, 7 days: {}",
        to_england[0].body
    );
    let r = reply_of(&sent).body.clone();
    assert!(r.contains("at most 20 absences to come"), "{r}");
    // Another mail, another chain: the cap holds across mails, and
    // nothing moves, so nobody is told.
    let more: String = (0..5)
        .map(|d| format!("SET ABSENCE {} TO {}\n", day(d + 7), day(d + 30)))
        .collect();
    let sent = w.mail(&addr("Italy"), &format!("SIGNON Italy g pw-Italy\n{more}"));
    assert!(
        !sent
            .iter()
            .any(|m| m.to_has(&addr("England")) && m.subject == "g: new deadline"),
        "{sent:#?}"
    );
    assert!(
        w.reply("x@example.test", "LIST g")
            .contains("Deadline: Tue 11 Jan 2028 12:00 UTC")
    );
    // The GM hears of the absences in one mail per mail and power.
    let gm: Vec<&Sent> = sent.iter().filter(|m| m.to_has(GM)).collect();
    assert_eq!(gm.len(), 1, "{gm:#?}");
}

#[test]
fn a_deadline_the_gm_set_is_not_moved_by_an_absence() {
    let mut w = started();
    w.reply(
        GM,
        "SIGNON GM g gm-secret\nSET ABSENCES ON 7d\nSET DEADLINE 2028-01-05 12:00",
    );
    let r = w.reply(
        &addr("France"),
        "SIGNON France g pw-France\nSET ABSENCE 2028-01-04 TO 2028-01-08",
    );
    assert!(!r.contains("The deadline moves"), "{r}");
    assert!(
        w.reply("x@example.test", "LIST g")
            .contains("Deadline: Wed 05 Jan 2028 12:00 UTC")
    );
}

#[test]
fn a_mail_of_many_press_blocks_reaches_each_reader_once() {
    let mut w = started();
    for i in 0..3 {
        w.reply(&format!("watcher{i}@example.test"), "OBSERVE g");
    }
    let blocks: String = (0..90)
        .map(|i| format!("BROADCAST\nNews number {i}.\nENDPRESS\n"))
        .collect();
    let sent = w.mail(GM, &format!("SIGNON GM g gm-secret\n{blocks}"));
    // The reply, and one mail to each of the 7 players and 3 observers;
    // no copy of the GM's own press to the GM.
    assert_eq!(
        sent.len(),
        1 + 7 + 3,
        "{:#?}",
        sent.iter().map(|m| (&m.to, &m.subject)).collect::<Vec<_>>()
    );
    let france = sent
        .iter()
        .find(|m| m.to_has(&addr("France")))
        .expect("France reads it");
    assert_eq!(france.subject, "g: press (90 messages)");
    assert!(
        france.body.contains("News number 0.") && france.body.contains("News number 89."),
        "{}",
        france.body
    );
}

#[test]
fn press_is_bounded_per_message_per_mail_and_per_game() {
    let mut w = started();
    let big = "word ".repeat(4_100); // 20,500 characters
    let r = w.reply(
        &addr("France"),
        &format!("SIGNON France g pw-France\nBROADCAST\n{big}\nENDPRESS"),
    );
    assert!(flat(&r).contains("a press message is at most 20000"), "{r}");
    // Four messages of 19,000 characters: the fourth passes the 60,000 a
    // mail allows.
    let part = "word ".repeat(3_800);
    let four: String = (0..4)
        .map(|_| format!("PRESS TO England\n{part}\nENDPRESS\n"))
        .collect();
    let sent = w.mail(
        &addr("France"),
        &format!("SIGNON France g pw-France\n{four}"),
    );
    let r = &reply_of(&sent).body;
    assert_eq!(r.matches("Press sent to England").count(), 3, "{r}");
    assert!(
        flat(r).contains("one mail sends at most 60000 characters of press"),
        "{r}"
    );
    let to_england: Vec<&Sent> = sent.iter().filter(|m| m.to_has(&addr("England"))).collect();
    assert_eq!(to_england.len(), 1, "one mail for the three messages");
    // A day's press in a game: 250,000 characters, whoever sends it.
    let mut refused = None;
    for p in ["England", "Germany", "Italy", "Russia", "Turkey", "Austria"] {
        let r = w.reply(&addr(p), &format!("SIGNON {p} g pw-{p}\n{four}"));
        if flat(&r).contains("takes at most 250000 a day") {
            refused = Some(r);
            break;
        }
    }
    assert!(refused.is_some(), "the game's daily limit was never met");
    // A day later there is room again.
    w.advance(86_401);
    let r = w.reply(
        &addr("France"),
        "SIGNON France g pw-France\nPRESS TO England\nhello again\nENDPRESS",
    );
    assert!(r.contains("Press sent to England"), "{r}");
}

#[test]
fn one_mail_of_many_history_lines_sends_a_bounded_number_of_mails() {
    let mut w = started();
    // A phase played, so there is a history to send.
    w.reply(GM, "SIGNON GM g gm-secret\nPROCESS");
    let lines = "HISTORY g\n".repeat(99);
    // From a player, whose address confirmed when joining: ten of them.
    let sent = w.raw(&raw_mail(
        &format!("From: {0}\r\nReply-To: {0}", addr("England")),
        &lines,
    ));
    let history: Vec<&Sent> = sent
        .iter()
        .filter(|m| m.subject.contains("history"))
        .collect();
    assert_eq!(
        history.len(),
        10,
        "ten mails to one address a mail, not 99: {:#?}",
        sent.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    let r = &reply_of(&sent).body;
    assert!(
        flat(r).contains("were not sent: they were over what one mail may send to one address"),
        "{r}"
    );
    // The history goes where answers go, never to a From the answer
    // address did not write.
    let sent = w.raw(&raw_mail(
        "From: victim@x.test\r\nReply-To: eve@x.test",
        "HISTORY g",
    ));
    assert!(sent.iter().all(|m| !m.to_has("victim@x.test")), "{sent:#?}");
}

#[test]
fn a_hundred_histories_to_an_address_that_never_confirmed_are_one_answer_of_64_kib() {
    let mut w = started();
    w.reply(GM, "SIGNON GM g gm-secret\nPROCESS");
    let lines = "HISTORY g\n".repeat(100);
    let mail = raw_mail("From: eve@x.test\r\nReply-To: eve@x.test", &lines);
    assert!(mail.len() < 1300, "a 1.2 KB mail: {}", mail.len());
    let sent = w.raw(&mail);
    let to_eve: Vec<&Sent> = sent.iter().filter(|m| m.to_has("eve@x.test")).collect();
    assert_eq!(
        to_eve.len(),
        1,
        "{:#?}",
        to_eve.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    assert!(
        to_eve[0].body.len() <= 64 * 1024,
        "{}",
        to_eve[0].body.len()
    );
    assert!(
        to_eve[0].body.contains("g: Spring 1901 results"),
        "the history is in it"
    );
    assert!(
        flat(&to_eve[0].body).contains("the answer alone, of at most 64 KiB"),
        "and the answer says the rest was not sent: {}",
        to_eve[0].body
    );
}

#[test]
fn an_address_receives_a_bounded_number_of_mails_caused_by_others() {
    let mut w = started();
    // Two senders, 35 press mails each, to France: France gets 60 in the
    // hour, and the senders are told the rest were not sent.
    let mut told = false;
    let before = w
        .processor
        .store
        .conn()
        .query_row("SELECT max(id) FROM outbox", &[], |r| r.get::<i64>(0))
        .unwrap();
    for i in 0..35 {
        for p in ["England", "Germany"] {
            let sent = w.mail(
                &addr(p),
                &format!("SIGNON {p} g pw-{p}\nPRESS TO France\nnote {i}\nENDPRESS"),
            );
            told |= flat(&reply_of(&sent).body)
                .contains("over what one address may receive in an hour or a day");
        }
    }
    let n = w
        .processor
        .store
        .conn()
        .query_row(
            "SELECT count(*) FROM outbox WHERE recipients = ?1 AND id > ?2",
            &[&addr("France"), &before],
            |r| r.get::<i64>(0),
        )
        .unwrap();
    assert_eq!(
        n, 59,
        "France receives 60 mails in the hour caused by others' mail: the notice \
         that the game started (Turkey's JOIN) and 59 press"
    );
    assert!(told, "the senders were told");
    // An hour later France receives again.
    w.advance(3601);
    let sent = w.mail(
        &addr("England"),
        "SIGNON England g pw-England\nPRESS TO France\nagain\nENDPRESS",
    );
    assert!(sent.iter().any(|m| m.to_has(&addr("France"))));
}

/// A world whose addresses answer nothing by themselves.
fn strict() -> World {
    let mut w = started();
    w.auto_confirm = false;
    w
}

fn code_of(m: &Sent) -> String {
    support_judge::confirm_code(&m.subject).unwrap_or_else(|| panic!("no code in {m:#?}"))
}

#[test]
fn a_forged_from_subscribes_nobody_and_the_victim_gets_one_short_request() {
    let mut w = strict();
    let forged = |w: &mut World, body: &str| {
        w.raw(&raw_mail(
            "From: victim@x.test\r\nReply-To: eve@x.test",
            body,
        ))
    };
    let sent = forged(&mut w, "OBSERVE g");
    let to_victim: Vec<&Sent> = sent.iter().filter(|m| m.to_has("victim@x.test")).collect();
    assert_eq!(to_victim.len(), 1, "one request: {sent:#?}");
    assert!(
        flat(&to_victim[0].body).contains("send this address the game g's results, as an observer"),
        "the request says, in the judge's words, what was asked: {}",
        to_victim[0].body
    );
    let to_eve = &reply_of(&sent).body;
    assert!(
        to_eve.contains("Nothing in this mail was done yet") && !to_eve.contains("CONFIRM"),
        "the forger learns no code: {to_eve}"
    );
    // Again, and with JOIN, the same day: nothing more to the victim.
    for body in ["OBSERVE g", "JOIN g secret-password", "OBSERVE g"] {
        let sent = forged(&mut w, body);
        assert!(
            sent.iter().all(|m| !m.to_has("victim@x.test")),
            "{body}: {sent:#?}"
        );
    }
    // The victim observes nothing: a broadcast does not reach it.
    let sent = w.mail(GM, "SIGNON GM g gm-secret\nBROADCAST\nHello all.\nENDPRESS");
    assert!(sent.iter().all(|m| !m.to_has("victim@x.test")), "{sent:#?}");
    let who = w.reply("x@example.test", "WHO g");
    assert!(!who.contains("victim"), "{who}");
}

#[test]
fn a_new_address_confirms_by_replying_and_its_held_mail_is_then_carried_out() {
    let mut w = World::new();
    w.auto_confirm = false;
    // The GM's first mail: the answer is the request, and nothing is done.
    let sent = w.mail(GM, "CREATE g standard gm-secret");
    assert_eq!(sent.len(), 1, "{sent:#?}");
    let request = &sent[0];
    assert!(
        request
            .subject
            .starts_with("zinejudge: please confirm [CONFIRM "),
        "{}",
        request.subject
    );
    assert!(
        flat(&request.body).contains("create the game g (standard), with this address as its GM"),
        "{}",
        request.body
    );
    assert!(!request.body.contains("gm-secret"), "{}", request.body);
    assert!(
        w.reply("x@example.test", "LIST g")
            .contains("no game called g")
    );
    // Replying with the Subject kept confirms; the held CREATE is carried
    // out and answered.
    let code = code_of(request);
    let raw = format!(
        "From: {GM}\r\nTo: judge@example.test\r\nSubject: Re: {}\r\nMessage-ID: <confirm-1@example.test>\r\n\r\n> quoted request\r\n",
        request.subject
    );
    let sent = w.raw(raw.as_bytes());
    let confirmed = sent
        .iter()
        .find(|m| m.in_reply_to.as_deref() == Some("confirm-1@example.test"))
        .expect("the confirmation is answered");
    assert!(
        flat(&confirmed.body).contains("Confirmed: the mail you sent is carried out now"),
        "{}",
        confirmed.body
    );
    assert!(
        sent.iter()
            .any(|m| m.body.contains("Created g (Standard Diplomacy)")),
        "{sent:#?}"
    );
    // The code works once, and is shown as typed.
    let r = w.reply("gm@example.test", &format!("CONFIRM {code}"));
    assert!(
        flat(&r).contains(&format!("no request waits for the code {code}")),
        "{r}"
    );
    // Having confirmed once is no proof for the next mail: its From is
    // again only a claim, so it waits for its own confirmation.
    let sent = w.mail(GM, "CREATE h standard gm-secret");
    assert!(
        reply_of(&sent).subject.contains("[CONFIRM ")
            && !reply_of(&sent).body.contains("Created h"),
        "{sent:#?}"
    );
}

#[test]
fn thirty_replace_mails_send_one_request_and_no_password() {
    let mut w = strict();
    let mut to_victim = Vec::new();
    for _ in 0..30 {
        let sent = w.mail(GM, "SIGNON GM g gm-secret\nREPLACE Italy victim@x.test");
        to_victim.extend(sent.into_iter().filter(|m| m.to_has("victim@x.test")));
    }
    assert_eq!(to_victim.len(), 1, "{to_victim:#?}");
    assert!(
        flat(&to_victim[0].body).contains("would like you to take over Italy")
            && !to_victim[0].body.contains("password is"),
        "{}",
        to_victim[0].body
    );
    // Italy's player is still Italy's.
    let r = w.reply(&addr("Italy"), "SIGNON Italy g pw-Italy\nA Ven H");
    assert!(r.contains("Signed on as Italy in g"), "{r}");
    // If the address accepts, the power is its own, and the GM is told.
    let code = code_of(&to_victim[0]);
    let sent = w.mail("victim@x.test", &format!("CONFIRM {code}"));
    assert!(
        sent.iter()
            .any(|m| m.to_has("victim@x.test") && m.subject == "g: you now play Italy"),
        "{sent:#?}"
    );
    assert!(
        sent.iter()
            .any(|m| m.to_has(GM) && m.subject == "g: Italy accepted")
    );
}

#[test]
fn a_held_mail_lapses_after_seven_days() {
    let mut w = strict();
    let sent = w.mail("late@example.test", "OBSERVE g");
    let code = code_of(&sent[0]);
    w.advance(7 * 86_400 + 3601);
    let r = w.reply("late@example.test", &format!("CONFIRM {code}"));
    assert!(flat(&r).contains("no request waits for the code"), "{r}");
    let kept: Vec<u8> = w
        .processor
        .store
        .conn()
        .query_row(
            "SELECT raw FROM inbound WHERE note LIKE 'held for a confirmation that never came%'",
            &[],
            |r| r.get(0),
        )
        .unwrap();
    assert!(kept.is_empty(), "the held mail's bytes are dropped");
}

#[test]
fn an_echo_robot_gets_no_answer_to_the_judges_own_text() {
    let mut w = World::new();
    // The robot writes something, then sends back whatever it gets,
    // unquoted, with the judge's long refusal whose wrapped line starts
    // with a command word.
    let mut body = "CREATE".to_string();
    let mut rounds = 0;
    for _ in 0..10 {
        let sent = w.mail_once("echo-bot@x.test", &body);
        let Some(answer) = sent.iter().find(|m| m.to_has("echo-bot@x.test")) else {
            break;
        };
        rounds += 1;
        assert!(
            answer
                .body
                .starts_with("----- The judge's mail: nothing below this line is read -----"),
            "{}",
            answer.body
        );
        body = answer.body.clone();
    }
    assert_eq!(rounds, 1, "the echo of the answer is not answered");
    // A person who writes above the judge's answer (the way replies are
    // written) is read; what is below is not.
    let sent = w.mail_once("echo-bot@x.test", &format!("HELP SET DEADLINE\n\n{body}"));
    let r = &reply_of(&sent).body;
    assert!(r.contains("SET DEADLINE"), "{r}");
    assert!(!r.contains("Not understood: CREATE"), "{r}");
}
