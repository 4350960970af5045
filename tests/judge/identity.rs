//! Who wrote a mail (issue #48's hostile audit): an identity a forger
//! cannot borrow. Each test is one row of the audit, tried as the forger
//! would, and what the judge must do instead.
//!
//! The promises tested are in docs/promises.md, "Who wrote this mail".

use crate::support_judge::{self, Sent, World};
use zinejudge::testing::trust::Policy;

const GM: &str = "gm@example.test";
const POWERS: [&str; 7] = [
    "England", "France", "Germany", "Italy", "Austria", "Russia", "Turkey",
];

fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_lowercase())
}

/// A standard game g, every seat taken, its players' and GM's mails
/// confirmed by them (the world answers the judge's requests as their
/// owners would, until a test turns that off to forge).
fn started_with(mut w: World) -> World {
    w.reply(GM, "CREATE g standard gm-secret");
    for p in POWERS {
        w.reply(&addr(p), &format!("JOIN g pw-{p} {p}"));
    }
    w
}

fn started() -> World {
    started_with(World::new())
}

fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn raw_mail(headers: &str, body: &str) -> Vec<u8> {
    format!("{headers}\r\n\r\n{}\r\n", body.replace('\n', "\r\n")).into_bytes()
}

fn code_of(m: &Sent) -> String {
    support_judge::confirm_code(&m.subject).unwrap_or_else(|| panic!("no code in {m:#?}"))
}

fn requests_to<'s>(sent: &'s [Sent], to: &str) -> Vec<&'s Sent> {
    sent.iter()
        .filter(|m| m.to_has(to) && support_judge::confirm_code(&m.subject).is_some())
        .collect()
}

/// Whether `who` receives game g's mail: a broadcast reaches it.
fn reads_g(w: &mut World, who: &str) -> bool {
    let sent = w.mail(GM, "SIGNON GM g gm-secret\nBROADCAST\nHello all.\nENDPRESS");
    sent.iter().any(|m| m.to_has(who))
}

/// Row 1: a forged OBSERVE (Reply-To: the forger). The victim's holiday
/// autoresponder, a quoting robot, and a reply from another address all
/// carry the request's Subject or code back: none of them confirms.
#[test]
fn row_1_no_robot_and_no_other_address_confirms_a_forged_observe() {
    let mut w = started();
    w.auto_confirm = false;
    let sent = w.raw(&raw_mail(
        "From: victim@x.test\r\nReply-To: eve@x.test\r\nSubject: hello",
        "OBSERVE g",
    ));
    let asked = requests_to(&sent, "victim@x.test");
    assert_eq!(asked.len(), 1, "{sent:#?}");
    let subject = asked[0].subject.clone();
    let code = code_of(asked[0]);
    // 1. A vacation responder (Sieve, RFC 5230): Auto-Submitted.
    // 2. Outlook's: X-Auto-Response-Suppress, and its own Subject.
    // 3. A list's robot: List-Id.
    // 4. A robot that quotes the request under another Subject.
    // 5. A reply that keeps the Subject, from another address.
    let robots = [
        format!("From: victim@x.test\r\nSubject: Re: {subject}\r\nAuto-Submitted: auto-replied"),
        format!("From: victim@x.test\r\nSubject: Re: {subject}\r\nX-Auto-Response-Suppress: All"),
        format!("From: victim@x.test\r\nSubject: Re: {subject}\r\nList-Id: <x.lists.test>"),
        "From: victim@x.test\r\nSubject: Your message".to_string(),
        format!("From: eve@x.test\r\nSubject: Re: {subject}"),
    ];
    for (i, headers) in robots.iter().enumerate() {
        let body = if i == 3 {
            format!("I am away.\n\n> Someone asked...\n> CONFIRM {code}\n")
        } else {
            "Thanks for your mail.".to_string()
        };
        let sent = w.raw(&raw_mail(
            &format!("{headers}\r\nMessage-ID: <r{i}@x.test>"),
            &body,
        ));
        assert!(
            sent.iter().all(|m| !m.body.contains("Confirmed")),
            "robot {i} confirmed: {sent:#?}"
        );
        assert!(
            !reads_g(&mut w, "victim@x.test"),
            "robot {i} subscribed the victim"
        );
    }
    // The victim itself, replying: only now is it done.
    let sent = w.raw(&raw_mail(
        &format!("From: victim@x.test\r\nSubject: Re: {subject}\r\nMessage-ID: <yes@x.test>"),
        "yes, that was me",
    ));
    assert!(
        sent.iter().any(|m| m.body.contains("Confirmed")),
        "{sent:#?}"
    );
    assert!(reads_g(&mut w, "victim@x.test"));
}

/// Row 2: From a player who has confirmed before, Reply-To the forger,
/// 100 OBSERVE lines: having confirmed once is no consent to this mail.
#[test]
fn row_2_a_confirmed_from_with_a_forgers_reply_to_registers_nothing() {
    let mut w = started();
    let mut games = String::new();
    for i in 0..100 {
        w.reply(
            &format!("gm{i}@example.test"),
            &format!("CREATE f{i} standard gm-secret"),
        );
        games.push_str(&format!("OBSERVE f{i}\n"));
    }
    w.auto_confirm = false;
    let england = addr("England");
    let sent = w.raw(&raw_mail(
        &format!("From: {england}\r\nReply-To: eve@x.test\r\nSubject: hi"),
        &games,
    ));
    let to_eve: Vec<&Sent> = sent.iter().filter(|m| m.to_has("eve@x.test")).collect();
    assert_eq!(to_eve.len(), 1, "{sent:#?}");
    assert!(
        to_eve[0].body.contains("Nothing in this mail was done yet"),
        "{}",
        to_eve[0].body
    );
    let asked = requests_to(&sent, &england);
    assert_eq!(asked.len(), 1, "England is told, once: {sent:#?}");
    let b = flat(&asked[0].body);
    assert!(
        b.contains("send this address the game f0's results, as an observer"),
        "{b}"
    );
    assert!(b.contains("and 92 more"), "{b}");
    assert!(
        asked[0].body.chars().count() < 2000,
        "{}",
        asked[0].body.len()
    );
    // England observes none of them: a broadcast in f7 does not reach it.
    let sent = w.mail(
        "gm7@example.test",
        "SIGNON GM f7 gm-secret\nBROADCAST\nHello.\nENDPRESS",
    );
    assert!(sent.iter().all(|m| !m.to_has(&england)), "{sent:#?}");
}

/// Row 3: four forged mails held for a victim, then the victim confirms
/// its own JOIN: only the JOIN is carried out.
#[test]
fn row_3_confirming_ones_own_mail_carries_out_that_mail_alone() {
    let mut w = started();
    for i in 0..4 {
        w.reply(GM, &format!("CREATE f{i} standard gm-secret"));
    }
    w.auto_confirm = false;
    for i in 0..4 {
        let sent = w.raw(&raw_mail(
            &format!("From: victim@x.test\r\nMessage-ID: <forged{i}@x.test>"),
            &format!("OBSERVE f{i}"),
        ));
        assert_eq!(requests_to(&sent, "victim@x.test").len(), 1, "{sent:#?}");
    }
    w.auto_confirm = true;
    w.reply(GM, "CREATE h standard gm-secret");
    w.auto_confirm = false;
    let sent = w.mail_once("victim@x.test", "OBSERVE h");
    let own = code_of(requests_to(&sent, "victim@x.test")[0]);
    let sent = w.mail_once("victim@x.test", &format!("CONFIRM {own}"));
    assert!(
        flat(&sent.iter().map(|m| m.body.clone()).collect::<String>())
            .contains("Confirmed: the mail you sent is carried out now"),
        "{sent:#?}"
    );
    let sent = w.mail(GM, "SIGNON GM h gm-secret\nBROADCAST\nHello h.\nENDPRESS");
    assert!(
        sent.iter().any(|m| m.to_has("victim@x.test")),
        "its own OBSERVE is done"
    );
    for i in 0..4 {
        let sent = w.mail(
            GM,
            &format!("SIGNON GM f{i} gm-secret\nBROADCAST\nHello.\nENDPRESS"),
        );
        assert!(
            sent.iter().all(|m| !m.to_has("victim@x.test")),
            "forged {i} carried out"
        );
    }
}

/// Row 4: REPLACE gives a power to an address that has had the judge's
/// mail, in many games with short phases: each is only an offer, the
/// address is asked once a day, and gets no game's mail until it accepts.
#[test]
fn row_4_a_seat_given_by_someone_else_is_an_offer_and_sends_no_clock_mail() {
    let mut w = started();
    w.reply("victim@x.test", "OBSERVE g");
    for i in 0..3 {
        w.reply(GM, &format!("CREATE r{i} standard gm-secret"));
        for p in POWERS {
            w.reply(&addr(p), &format!("JOIN r{i} pw-{p} {p}"));
        }
        w.reply(
            GM,
            &format!("SIGNON GM r{i} gm-secret\nSET PHASE LENGTH 1m 1m 1m\nSET NMR CD"),
        );
    }
    w.auto_confirm = false;
    let mut to_victim = Vec::new();
    for i in 0..3 {
        let sent = w.mail(
            GM,
            &format!("SIGNON GM r{i} gm-secret\nREPLACE Italy victim@x.test"),
        );
        to_victim.extend(sent.into_iter().filter(|m| m.to_has("victim@x.test")));
    }
    for _ in 0..12 {
        to_victim.extend(
            w.advance(60)
                .into_iter()
                .filter(|m| m.to_has("victim@x.test")),
        );
    }
    let offers = to_victim
        .iter()
        .filter(|m| flat(&m.body).contains("would like you to take over Italy"))
        .count();
    assert_eq!(
        offers,
        1,
        "{:#?}",
        to_victim.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    let of_r: Vec<&String> = to_victim
        .iter()
        .filter(|m| m.subject.starts_with('r'))
        .map(|m| &m.subject)
        .collect();
    assert!(
        of_r.is_empty(),
        "no game's mail before accepting: {of_r:#?}"
    );
}

/// Row 5: forged mails whose registering lines carry spam: the requests
/// are in the judge's words alone, short.
#[test]
fn row_5_a_request_carries_none_of_the_senders_words() {
    let mut w = started();
    for i in 0..100 {
        let sent = w.raw(&raw_mail(
            &format!("From: victim{i}@x.test\r\nMessage-ID: <spam{i}@x.test>"),
            "JOIN g pw-spammer-1 BUY-NOW-http://spam.example/cheap-pills\n\
             OBSERVE http://spam.example/cheap-pills\n\
             CREATE cheap-pills-at-spam-example standard pw-spammer-1 WITH Visit http://spam.example",
        ));
        let asked = requests_to(&sent, &format!("victim{i}@x.test"));
        assert_eq!(asked.len(), 1, "{sent:#?}");
        let r = asked[0];
        assert!(r.body.chars().count() < 2000, "{}", r.body.len());
        assert!(
            !r.body.contains("spam.example") && !r.body.contains("BUY-NOW"),
            "{}",
            r.body
        );
        assert!(!r.body.contains("pw-spammer"), "{}", r.body);
    }
}

/// Row 6: a password in an RFC 2047 encoded Subject or From name (base64,
/// or quoted-printable split in two) is masked in the copy the store keeps
/// and in the copy left beside it (Maildir `cur/`, IMAP).
#[test]
fn row_6_a_password_in_encoded_headers_is_masked_in_every_copy() {
    let mut w = started();
    // "pw-England" in base64 and in quoted-printable split in two.
    let b64 = "cHctRW5nbGFuZA==";
    for (i, (from_name, subject)) in [
        (format!("=?utf-8?B?{b64}?="), "orders".to_string()),
        ("Ann".to_string(), format!("=?utf-8?B?{b64}?=")),
        (
            "Ann".to_string(),
            "=?utf-8?Q?pw-Eng?= =?utf-8?Q?land?=".to_string(),
        ),
        (
            "=?utf-8?Q?pw-Eng?= =?utf-8?Q?land?=".to_string(),
            "x".to_string(),
        ),
    ]
    .iter()
    .enumerate()
    {
        let raw = raw_mail(
            &format!(
                "From: {from_name} <{}>\r\nSubject: {subject}\r\nMessage-ID: <enc{i}@x.test>",
                addr("England")
            ),
            "SIGNON England g pw-England\nA Lon-Yor",
        );
        w.raw(&raw);
        let kept: Vec<u8> = w
            .processor
            .store
            .conn()
            .query_row(
                "SELECT raw FROM inbound WHERE message_id = ?1",
                zinejudge::testing::store::params![format!("enc{i}@x.test")],
                |r| r.get(0),
            )
            .unwrap();
        let masker = w
            .processor
            .responder
            .masker("judge@example.test")
            .expect("a masker");
        let beside = masker(&raw).expect("the copy beside the store is masked");
        for (what, copy) in [("store", &kept), ("cur/", &beside)] {
            let m = mail_parser::MessageParser::default().parse(copy).unwrap();
            let seen = format!(
                "{:?} {:?} {}",
                m.subject(),
                m.from(),
                String::from_utf8_lossy(copy)
            );
            assert!(!seen.contains("pw-England"), "{i} {what}: {seen}");
            assert!(!seen.contains(b64), "{i} {what}: {seen}");
        }
    }
}

/// Row 7: a display name that is (or holds) the password just signed on
/// with is refused, so it shows nowhere.
#[test]
fn row_7_a_name_that_holds_a_password_is_refused() {
    let mut w = started();
    for name in ["pw-England", "I am pw-England!", "PW-ENGLAND"] {
        let r = w.reply(
            &addr("England"),
            &format!("SIGNON England g pw-England\nSET NAME {name}"),
        );
        assert!(
            flat(&r).contains("a name may not be or hold a password"),
            "{name}: {r}"
        );
    }
    let who = w.reply(&addr("France"), "WHO g");
    assert!(!who.to_lowercase().contains("pw-england"), "{who}");
    let r = w.reply(
        &addr("England"),
        "SIGNON England g pw-England\nSET NAME Anne Smith",
    );
    assert!(r.contains("You are Anne Smith"), "{r}");
}

/// Row 8: names lose what a reader cannot see (U+200B, U+202E), and a
/// look-alike of another player's name in the same game is refused.
#[test]
fn row_8_invisible_characters_go_and_look_alike_names_are_refused() {
    let mut w = started();
    let r = w.reply(
        &addr("England"),
        "SIGNON England g pw-England\nSET NAME \u{202E}retsaM emaG",
    );
    assert!(r.contains("You are retsaM emaG"), "{r}");
    let r = w.reply(
        &addr("France"),
        "SIGNON France g pw-France\nSET NAME Alice\u{200B} Smith",
    );
    assert!(r.contains("You are Alice Smith in"), "{r}");
    for lookalike in ["Аlice Smith", "A1ice Smith", "alice  smith"] {
        let r = w.reply(
            &addr("Germany"),
            &format!("SIGNON Germany g pw-Germany\nSET NAME {lookalike}"),
        );
        assert!(
            flat(&r).contains("which looks the same"),
            "{lookalike}: {r}"
        );
    }
    let who = w.reply(&addr("Italy"), "WHO g");
    assert!(
        !who.contains('\u{202E}') && !who.contains('\u{200B}'),
        "{who:?}"
    );
    assert_eq!(who.matches("Alice Smith").count(), 1, "{who}");
}

fn policy(id: &str, required: bool) -> Policy {
    Policy {
        authserv_id: Some(id.to_string()),
        require_authentication: required,
        verify_signatures: false,
    }
}

/// A mail its own server authenticated registers at once; one whose
/// stamp is forged (below the server's own, or of another server) waits
/// for a confirmation like any claim.
#[test]
fn an_authenticated_from_registers_at_once_and_a_forged_stamp_does_not() {
    let mut w = started_with(World::with_policy(policy("mx.judge.test", false)));
    let stamped = |from: &str, ar: &str, body: &str, id: &str| {
        raw_mail(
            &format!(
                "Authentication-Results: {ar}\r\nReceived: from a by mx.judge.test\r\n\
                 From: {from}\r\nSubject: hi\r\nMessage-ID: <{id}@x.test>"
            ),
            body,
        )
    };
    // DMARC passed at the judge's own server: done at once.
    let sent = w.raw(&stamped(
        "ann@example.org",
        "mx.judge.test; dkim=pass header.d=example.org; dmarc=pass header.from=example.org",
        "OBSERVE g",
        "a1",
    ));
    assert!(
        requests_to(&sent, "ann@example.org").is_empty(),
        "{sent:#?}"
    );
    assert!(
        sent.iter()
            .any(|m| m.body.contains("You will receive this game's results"))
    );
    assert!(reads_g(&mut w, "ann@example.org"));
    // Stamped by another server, or failed, or the pass brought in the
    // mail below the server's own: a claim.
    for (i, ar) in [
        "mx.elsewhere.test; dmarc=pass header.from=example.org".to_string(),
        "mx.judge.test; dmarc=fail header.from=example.org".to_string(),
        "mx.judge.test; dkim=pass header.d=evil.test".to_string(),
    ]
    .iter()
    .enumerate()
    {
        let sent = w.raw(&stamped(
            &format!("bob{i}@example.org"),
            ar,
            "OBSERVE g",
            &format!("b{i}"),
        ));
        assert_eq!(
            requests_to(&sent, &format!("bob{i}@example.org")).len(),
            1,
            "{ar}: {sent:#?}"
        );
    }
    let below = raw_mail(
        "Authentication-Results: mx.judge.test; dmarc=none\r\nReceived: from a by mx.judge.test\r\n\
         Authentication-Results: mx.judge.test; dmarc=pass header.from=example.org\r\n\
         From: carl@example.org\r\nMessage-ID: <c1@x.test>",
        "OBSERVE g",
    );
    let sent = w.raw(&below);
    assert_eq!(requests_to(&sent, "carl@example.org").len(), 1, "{sent:#?}");
}

/// `[trust] require-authentication`: a registering mail that is only a
/// claim is refused, with its reason, and nothing is held.
#[test]
fn with_authentication_required_a_claimed_from_is_refused() {
    let mut w = World::with_policy(policy("mx.judge.test", true));
    w.stamp = Some("mx.judge.test; dmarc=pass".into());
    let mut w = started_with(w);
    w.stamp = None;
    let sent = w.raw(&raw_mail(
        "From: dan@example.org\r\nSubject: hi",
        "OBSERVE g",
    ));
    assert_eq!(sent.len(), 1, "{sent:#?}");
    assert!(
        flat(&sent[0].body).contains("only from mail its own mail server has authenticated"),
        "{}",
        sent[0].body
    );
    assert!(support_judge::confirm_code(&sent[0].subject).is_none());
    assert!(!reads_g(&mut w, "dan@example.org"));
}

/// A mistyped code is shown as typed (issue #51), and a CONFIRM line only
/// in a quote says how to confirm.
#[test]
fn a_code_is_shown_as_typed_and_a_quoted_confirm_is_explained() {
    let mut w = started();
    w.auto_confirm = false;
    let sent = w.mail("newbie@x.test", "OBSERVE g");
    let code = code_of(&sent[0]);
    // An O for a 0: codes have no letter o, so this is always a typo.
    let typo = format!("O{}", &code[1..]);
    let r = w.reply("newbie@x.test", &format!("CONFIRM {typo}"));
    assert!(
        flat(&r).contains(&format!("no request waits for the code {typo}")),
        "{r}"
    );
    let r = w.reply(
        "newbie@x.test",
        &format!("Here you go.\n\n> Someone asked the judge\n> CONFIRM {code}\n"),
    );
    assert!(
        flat(&r).contains("still waits for your confirmation"),
        "{r}"
    );
    assert!(flat(&r).contains("send the CONFIRM line on its own"), "{r}");
    assert!(!reads_g(&mut w, "newbie@x.test"));
}

/// The clock's mail to an address that never said it wants the judge's
/// mail is budgeted as other people's mail (60 an hour); an address that
/// did gets the game's mail whatever else it received.
#[test]
fn clock_mail_to_an_address_that_never_confirmed_is_budgeted() {
    let mut w = started();
    w.reply(GM, "SIGNON GM g gm-secret\nSET GRACE 0h\nSET NMR CD");
    let deadline = zinejudge::testing::store::games::load(w.processor.store.conn(), "g")
        .unwrap()
        .and_then(|g| g.deadline)
        .expect("a deadline");
    // Just before the deadline, with nobody's orders in (no early phase).
    let wait = (deadline - w.unix() - 60).max(0) as u64;
    w.advance(wait);
    let now = w.unix();
    let c = w.processor.store.conn();
    // Italy's address never confirmed (an older store's seat); Italy's and
    // England's addresses have both had 60 mails caused by others this
    // hour.
    c.execute(
        "DELETE FROM addresses WHERE address = ?1",
        zinejudge::testing::store::params![addr("Italy")],
    )
    .unwrap();
    for who in ["Italy", "England"] {
        c.execute(
            "INSERT INTO budgets (key, span, start, mails, bytes) VALUES (?1, 3600, ?2, 60, 0)",
            zinejudge::testing::store::params![format!("to:{}", addr(who)), now],
        )
        .unwrap();
    }
    // The deadline passes (and its grace, if any): the clock's results.
    let mut sent = Vec::new();
    for _ in 0..30 {
        sent.extend(w.advance(120));
    }
    let results = |who: &str| {
        sent.iter()
            .any(|m| m.to_has(&addr(who)) && m.subject == "g: Spring 1901 results")
    };
    assert!(
        results("England"),
        "a confirmed address gets the results: {:#?}",
        sent.iter().map(|m| (&m.to, &m.subject)).collect::<Vec<_>>()
    );
    assert!(
        !results("Italy"),
        "over its budget, the never-confirmed one does not"
    );
}

/// The judge that checks DKIM signatures itself (`[trust]
/// verify-signatures`, for a mailbox whose server stamps nothing), as it
/// takes mail in: a mail signed by its From's domain, whose key the
/// domain publishes, authenticates the From; a mail altered after
/// signing, one signed by another domain, and a forged stamp of the
/// judge's own id (the mail brought it) are claims, held for a
/// confirmation.
#[test]
fn signatures_the_judge_checks_itself_authenticate_only_the_domain_that_signed() {
    use base64::Engine as _;
    use mail_auth::common::crypto::Ed25519Key;
    use mail_auth::common::headers::HeaderWriter as _;
    use mail_auth::dkim::DkimSigner;
    use zinejudge::testing::trust::{SET_ASIDE, Verifier};

    const OWN_ID: &str = "zinejudge.judge.test";
    // A key for each domain, generated here; the records say where to
    // find their public halves, as the domains' DNS would.
    let key = |domain: &str| {
        let pkcs8 = Ed25519Key::generate_pkcs8().expect("a key");
        let k = Ed25519Key::from_pkcs8_der(&pkcs8).expect("the key reads");
        let record = format!(
            "v=DKIM1; k=ed25519; p={}",
            base64::engine::general_purpose::STANDARD.encode(k.public_key())
        );
        (pkcs8, (format!("s1._domainkey.{domain}"), record))
    };
    let (org_key, org_record) = key("example.org");
    let (evil_key, evil_record) = key("evil.test");
    let verifier =
        Verifier::with_keys(OWN_ID, &[org_record, evil_record]).expect("the records read");
    let sign = |pkcs8: &[u8], domain: &str, raw: &[u8]| -> Vec<u8> {
        let k = Ed25519Key::from_pkcs8_der(pkcs8).expect("the key reads");
        let sig = DkimSigner::from_key(k)
            .domain(domain)
            .selector("s1")
            .headers(["From", "Subject", "Message-ID"])
            .sign(raw)
            .expect("signed");
        [sig.to_header().into_bytes(), raw.to_vec()].concat()
    };
    let mail = |from: &str, id: &str, extra: &str| {
        raw_mail(
            &format!("{extra}From: {from}\r\nSubject: hi\r\nMessage-ID: <{id}@x.test>"),
            "OBSERVE g",
        )
    };
    let mut policy = policy(OWN_ID, false);
    policy.verify_signatures = true;
    let mut w = started_with(World::with_policy(policy));

    // Signed by the From's own domain: observed at once, no request.
    let signed = verifier.stamp_blocking(&sign(
        &org_key,
        "example.org",
        &mail("ann@example.org", "a1", ""),
    ));
    let text = String::from_utf8_lossy(&signed).to_string();
    assert!(
        text.starts_with(&format!("Authentication-Results: {OWN_ID};"))
            && text.contains("dkim=pass"),
        "{text}"
    );
    let sent = w.raw(&signed);
    assert!(
        requests_to(&sent, "ann@example.org").is_empty(),
        "{sent:#?}"
    );
    assert!(reads_g(&mut w, "ann@example.org"));

    // Altered after signing (the body), signed by another domain, or
    // stamped by the sender itself with the judge's id: claims.
    let mut altered = sign(&org_key, "example.org", &mail("bob0@example.org", "b0", ""));
    altered.extend_from_slice(b"OBSERVE h\r\n");
    let forged_stamp =
        format!("Authentication-Results: {OWN_ID}; dkim=pass header.d=example.org; dmarc=pass\r\n");
    let cases = [
        ("bob0@example.org", altered),
        (
            "bob1@example.org",
            sign(&evil_key, "evil.test", &mail("bob1@example.org", "b1", "")),
        ),
        (
            "bob2@example.org",
            mail("bob2@example.org", "b2", &forged_stamp),
        ),
    ];
    for (who, raw) in cases {
        let stamped = verifier.stamp_blocking(&raw);
        let text = String::from_utf8_lossy(&stamped).to_string();
        assert!(
            text.starts_with(&format!("Authentication-Results: {OWN_ID};")),
            "{text}"
        );
        let sent = w.raw(&stamped);
        assert_eq!(requests_to(&sent, who).len(), 1, "{who}: {sent:#?}");
        assert!(!reads_g(&mut w, who), "{who}");
        if who == "bob2@example.org" {
            assert!(
                text.contains(&format!("{SET_ASIDE}: {OWN_ID}; dkim=pass")),
                "{text}"
            );
        }
    }
}
