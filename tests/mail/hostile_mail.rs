//! A corpus of hostile and careless mails through the real daemon, the real
//! Dovecot and the real Postfix: control characters in every header, a huge
//! count of lines, password guessing, a seat taken with a known password,
//! passwords written every way, Reply-To as a false identity, chat that
//! starts with command words, a reused Message-ID, autoresponders and list
//! robots, a 5,000-character Message-ID, a flood of bad lines. After all of
//! them the judge answers a normal mail at once, every mail is accounted
//! for, nothing failed, and no password went out in any mail.
//!
//! When the servers are not installed this test prints why and passes,
//! unless `CI` is set: then it fails.

use crate::daemon_common;
use crate::support;
use daemon_common::*;
use std::time::Duration;
use support::{JUDGE_ADDRESS, MailSystem, wait_until};

const SETTLE: Duration = Duration::from_secs(120);
const GAME: &str = "h1";
const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

/// What a hostile mail must get.
enum Want {
    /// One answer to this address, whose body says each of these.
    Answer(String, Vec<&'static str>),
    /// No answer, and this note in the store.
    Silent(&'static str),
}

struct Case {
    what: &'static str,
    id: String,
    want: Want,
}

fn mail(headers: &str, id: &str, body: &str) -> Vec<u8> {
    format!(
        "{headers}\r\nTo: {JUDGE_ADDRESS}\r\nMessage-ID: <{id}>\r\n\r\n{}\r\n",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// The first corpus, seen from the test: the daemon, the SMTP session the
/// hostile mails go through, the cases sent so far with what each must get,
/// the passwords that must never go out, and the addresses that wrote.
struct Corpus<'a> {
    ms: &'a MailSystem,
    judge: &'a Judge,
    smtp: Option<SmtpClient>,
    gm: String,
    seats: Vec<(&'static str, String)>,
    /// Named in a header of a hostile mail; must never get mail.
    bcc_victim: String,
    /// Given to SET ADDRESS by a thief; must never get mail.
    elsewhere: String,
    /// Mails sent to set up the game.
    sent: i64,
    /// Mails sent outside `cases`: the reused Message-ID, the naive
    /// autoresponder and the long Message-ID.
    extra: i64,
    cases: Vec<Case>,
    secrets: Vec<String>,
    /// Everybody who wrote or was named and may have got mail, besides the
    /// seats and the GM: none of them may ever see a password.
    people: Vec<String>,
    attacker: String,
    reuse: String,
    away: String,
    long: String,
}

/// The password of `p`'s seat.
fn pw(p: &str) -> String {
    format!("Secret-{p}-42")
}

impl<'a> Corpus<'a> {
    /// The GM and seven players, who have used the judge before (a first
    /// mail that registers an address new to the judge is held until the
    /// address confirms), open a game and take every power.
    fn every_power_taken(ms: &'a MailSystem, judge: &'a Judge) -> Corpus<'a> {
        let gm = ms.address("gm");
        let seats: Vec<(&str, String)> = POWERS
            .iter()
            .map(|p| (*p, ms.address(&p.to_ascii_lowercase())))
            .collect();
        let bcc_victim = ms.address("bcc-victim");
        let elsewhere = ms.address("elsewhere");
        let mut known: Vec<&str> = seats.iter().map(|(_, a)| a.as_str()).collect();
        known.push(gm.as_str());
        judge.confirmed(&known);
        let mut c = Corpus {
            ms,
            judge,
            smtp: Some(SmtpClient::connect(ms.ports().smtp).unwrap()),
            gm: gm.clone(),
            seats,
            bcc_victim,
            elsewhere,
            sent: 0,
            extra: 0,
            cases: Vec::new(),
            secrets: Vec::new(),
            people: Vec::new(),
            attacker: String::new(),
            reuse: String::new(),
            away: String::new(),
            long: String::new(),
        };
        c.send(
            &gm,
            &mail(
                &format!("{STAMP}From: {gm}"),
                &new_message_id(),
                &format!("CREATE {GAME} standard GmSecret-99"),
            ),
        );
        judge.wait_settled(ms, 1, SETTLE);
        for p in POWERS {
            let a = c.seat(p);
            c.send(
                &a,
                &mail(
                    &format!("{STAMP}From: {a}"),
                    &new_message_id(),
                    &format!("JOIN {GAME} {} {p}", pw(p)),
                ),
            );
        }
        judge.wait_settled(ms, 8, SETTLE);
        c.secrets = POWERS.iter().map(|p| pw(p)).collect();
        c.secrets.push("GmSecret-99".into());
        c
    }

    /// The address playing `p`.
    fn seat(&self, p: &str) -> String {
        self.seats
            .iter()
            .find(|(q, _)| *q == p)
            .map(|(_, a)| a.clone())
            .unwrap_or_default()
    }

    fn smtp(&mut self) -> &mut SmtpClient {
        self.smtp.as_mut().expect("the SMTP session is open")
    }

    /// Send one mail that sets up the game.
    fn send(&mut self, from: &str, raw: &[u8]) {
        self.smtp().send(from, JUDGE_ADDRESS, raw).unwrap();
        self.sent += 1;
    }

    /// Send one mail that is not a case of its own.
    fn send_extra(&mut self, from: &str, raw: &[u8]) {
        self.smtp().send(from, JUDGE_ADDRESS, raw).unwrap();
        self.extra += 1;
    }

    /// Send one hostile mail and remember what it must get.
    fn add(
        &mut self,
        what: &'static str,
        env_from: &str,
        headers: String,
        body: String,
        want: Want,
    ) {
        let id = new_message_id();
        self.smtp()
            .send(env_from, JUDGE_ADDRESS, &mail(&headers, &id, &body))
            .unwrap();
        self.cases.push(Case { what, id, want });
    }

    /// Senders put control characters in every header the judge copies
    /// into its answer: a line break in the From name, a bare CR in the
    /// Reply-To name, a Bcc smuggled into the Subject.
    fn control_characters_in_headers(&mut self) {
        let eve = self.ms.address("eve");
        self.add(
            "line break in the From name",
            &eve,
            format!("From: =?utf-8?q?A=0AB?= <{eve}>"),
            "HELP".into(),
            Want::Answer(eve.clone(), vec!["Commands are lines of a mail"]),
        );
        let eve2 = self.ms.address("eve2");
        self.add(
            "bare CR in the Reply-To name",
            &eve,
            format!("From: {eve}\r\nReply-To: =?utf-8?q?E=0Dve?= <{eve2}>"),
            "VARIANTS".into(),
            Want::Answer(eve2.clone(), vec!["The judge plays"]),
        );
        let eve3 = self.ms.address("eve3");
        let bcc_victim = self.bcc_victim.clone();
        self.add(
            "control characters in Subject, References and Content-Type",
            &eve3,
            format!(
                "From: {eve3}\r\nSubject: =?utf-8?q?hi=0D=0ABcc:_{bcc_victim}?=\r\nReferences: <a\u{1}b@x> <c@d>\r\n\
                 Content-Type: text/plain; charset=\"utf-8\u{7}\""
            ),
            "LIST".into(),
            Want::Answer(eve3.clone(), vec![GAME]),
        );
        self.people.extend([eve, eve2, eve3]);
    }

    /// One sender mails 8,000 sign-on lines; another guesses Germany's
    /// password 200 times, then gives the right one, in one mail.
    fn floods_of_sign_ons(&mut self) {
        let flood = self.ms.address("flood");
        self.add(
            "8,000 SIGNON lines",
            &flood,
            format!("From: {flood}"),
            (0..8000)
                .map(|i| format!("SIGNON France {GAME} guess{i}\n"))
                .collect(),
            Want::Answer(flood.clone(), vec!["at most 100 commands a mail"]),
        );
        let guess = self.ms.address("guesser");
        let mut body: String = (0..200)
            .map(|i| format!("SIGNON Germany {GAME} guess{i}\n"))
            .collect();
        body.push_str(&format!(
            "SIGNON Germany {GAME} {}\nA Mun-Bur\n",
            pw("Germany")
        ));
        self.add(
            "200 guesses then the right password",
            &guess,
            format!("From: {guess}"),
            body,
            Want::Answer(
                guess.clone(),
                vec!["one password is checked per power and mail"],
            ),
        );
        self.people.extend([flood, guess]);
    }

    /// A thief who knows England's password signs on from elsewhere,
    /// orders, changes the password and tries to move the seat to another
    /// address.
    fn a_seat_taken_with_a_known_password(&mut self) {
        let thief = self.ms.address("thief");
        let elsewhere = self.elsewhere.clone();
        self.add(
            "takeover",
            &thief,
            format!("From: {thief}"),
            format!(
                "SIGNON England {GAME} {}\nF Lon-ENG\nSET PASSWORD Stolen-1\nSET ADDRESS {}",
                pw("England"),
                elsewhere
            ),
            Want::Answer(
                thief.clone(),
                vec![
                    "Password changed",
                    "registers only the address a mail comes from",
                ],
            ),
        );
        self.secrets.push("Stolen-1".into());
        self.people.push(thief);
    }

    /// A player writes passwords every way: after a colon or a full stop,
    /// in JOIN, CREATE and SET PASSWORD, and in HTML that runs lines
    /// together.
    fn passwords_written_every_way(&mut self) {
        let pwm = self.ms.address("pwforms");
        self.judge.confirmed(&[&pwm]);
        for (what, body) in [
            ("SIGNON:", format!("SIGNON: Italy {GAME} {}", pw("Italy"))),
            ("Signon.", format!("Signon. Italy {GAME} {}", pw("Italy"))),
            ("JOIN:", format!("JOIN: {GAME} {}", pw("Italy"))),
            (
                "CREATE:",
                format!("CREATE: {GAME}x standard {}", pw("Italy")),
            ),
            (
                "SET PASSWORD:",
                format!(
                    "SIGNON Italy {GAME} {}\nSET PASSWORD: {}",
                    pw("Italy"),
                    pw("Italy")
                ),
            ),
        ] {
            self.add(
                what,
                &pwm,
                format!("{STAMP}From: {pwm}"),
                body,
                Want::Answer(pwm.clone(), vec![]),
            );
        }
        self.add(
            "HTML lines run together",
            &pwm,
            format!("{STAMP}From: {pwm}\r\nContent-Type: text/html; charset=utf-8"),
            format!(
                "<div>SIGNON Italy {GAME} {}</div><div>A Ven-Tyr</div>",
                pw("Italy")
            ),
            Want::Answer(pwm.clone(), vec![]),
        );
        self.people.push(pwm);
    }

    /// An attacker names a victim in Reply-To to make the victim observe;
    /// Turkey's player writes chat whose lines start with command words
    /// (Resign, Draw) after the orders.
    fn false_identity_and_chat(&mut self) {
        let attacker = self.ms.address("attacker");
        self.judge.confirmed(&[&attacker]);
        let victim = self.ms.address("victim");
        self.add(
            "Reply-To names somebody else",
            &attacker,
            // The attacker's own mailbox signs its mail: authenticated, it
            // registers its own address, never the Reply-To.
            format!("{STAMP}From: {attacker}\r\nReply-To: {victim}"),
            format!("OBSERVE {GAME}"),
            Want::Answer(
                victim.clone(),
                vec!["You will receive this game's results."],
            ),
        );
        let turkey = self.seat("Turkey");
        self.add(
            "chat",
            &turkey,
            format!("From: {turkey}"),
            format!(
                "SIGNON Turkey {GAME} {}\nF Ank-BLA\nClear skies over the Black Sea this spring.\n\
                 Resign yourself to losing Bulgaria, Russia!\nDraw your own conclusions.",
                pw("Turkey")
            ),
            Want::Answer(turkey.clone(), vec!["Not understood", "F(Ank)-BLA"]),
        );
        self.attacker = attacker.clone();
        self.people.extend([attacker, victim]);
    }

    /// Careless software: two mails under one Message-ID, a naive
    /// autoresponder answering twice, an Exchange automatic reply, list
    /// robots' bounces and requests, 118 KB of bad lines, and a
    /// 5,000-character Message-ID put straight into the judge's INBOX.
    fn robots_and_careless_software(&mut self) {
        let reuse = self.ms.address("reuse");
        let id = new_message_id();
        for body in ["VARIANTS", "HELP"] {
            self.send_extra(&reuse, &mail(&format!("From: {reuse}"), &id, body));
        }
        // (The naive autoresponder's two mails may arrive in either order:
        // one of them is answered.)
        let away = self.ms.address("away");
        for subject in ["Re: your mail", "Re: Re: your mail"] {
            self.send_extra(
                &away,
                &mail(
                    &format!("From: {away}\r\nSubject: {subject}"),
                    &new_message_id(),
                    "I am away.",
                ),
            );
        }
        let boss = self.ms.address("boss");
        self.add(
            "Exchange automatic reply",
            &boss,
            format!("From: {boss}\r\nSubject: Automatic reply: results"),
            "Out of the office.".into(),
            Want::Silent("ignored: auto-reply"),
        );
        let bounces = "dip-bounces@example.test".to_string();
        self.add(
            "list bounces address",
            &bounces,
            format!("From: {bounces}"),
            "LIST".into(),
            Want::Silent("ignored: bounce"),
        );
        let request = "dip-request@example.test".to_string();
        self.add(
            "list request address",
            &request,
            format!("From: {request}"),
            "LIST".into(),
            Want::Silent("ignored: mailing list"),
        );
        let chatty = self.ms.address("chatty");
        self.add(
            "118 KB of bad lines",
            &chatty,
            format!("From: {chatty}"),
            "SET COLOUR of the sea to blue please\n".repeat(3300),
            Want::Answer(chatty.clone(), vec!["more lines like these"]),
        );
        if let Some(smtp) = self.smtp.take() {
            smtp.quit();
        }
        let long = self.ms.address("longid");
        let long_id = format!("{}@x.test", "x".repeat(5000));
        append(
            self.ms,
            JUDGE_ADDRESS,
            "INBOX",
            &mail(&format!("From: {long}"), &long_id, "VARIANTS"),
        );
        self.extra += 1;
        self.people.extend([chatty, long.clone()]);
        self.reuse = reuse;
        self.away = away;
        self.long = long;
    }

    /// After all of them, somebody mails VARIANTS: the judge has dealt with
    /// every mail and answers this one at once.
    fn a_normal_mail_is_still_answered(&mut self) {
        let total = self.sent + self.cases.len() as i64 + self.extra;
        let c = self.judge.wait_settled(self.ms, total, SETTLE);
        assert_eq!(c.pending, 0);
        let normal = self.ms.address("normal");
        let nid = new_message_id();
        send_all(
            self.ms,
            &[(
                normal.clone(),
                JUDGE_ADDRESS.to_string(),
                mail(&format!("From: {normal}"), &nid, "VARIANTS"),
            )],
            1,
        );
        self.judge.wait_settled(self.ms, total + 1, SETTLE);
        let got = answers_for(self.ms, std::slice::from_ref(&normal));
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].in_reply_to, nid);
        self.people.push(normal);
    }

    /// Each hostile mail got what it must: one short answer saying what it
    /// should, or silence and a note in the store.
    fn each_case_got_what_it_must(&self) {
        for case in &self.cases {
            match &case.want {
                Want::Answer(to, says) => {
                    let mine: Vec<Answer> = answers_for(self.ms, std::slice::from_ref(to))
                        .into_iter()
                        .filter(|a| a.in_reply_to == case.id)
                        .collect();
                    assert_eq!(mine.len(), 1, "{}: {} answers", case.what, mine.len());
                    for s in says {
                        assert!(mine[0].body.contains(s), "{}: {}", case.what, mine[0].body);
                    }
                    assert!(mine[0].body.len() <= 64 * 1024, "{}", case.what);
                }
                Want::Silent(note) => {
                    assert_eq!(
                        self.judge.note(&case.id).as_deref(),
                        Some(*note),
                        "{}",
                        case.what
                    );
                }
            }
        }
    }

    /// The careless software got what it must: the naive autoresponder one
    /// answer for its two mails, both mails under one Message-ID an answer
    /// each, the 5,000-character Message-ID an answer whose header lines
    /// are all short; nobody named in a header got mail they did not ask
    /// for.
    fn careless_software_answered_sanely(&self) {
        let away_got = answers_for(self.ms, std::slice::from_ref(&self.away));
        assert_eq!(away_got.len(), 1);
        assert!(away_got[0].body.contains("found no commands or orders"));
        assert_eq!(
            answers_for(self.ms, std::slice::from_ref(&self.reuse)).len(),
            2
        );
        let raw = self.ms.fetch_all_blocking(&self.long).unwrap();
        assert_eq!(raw.len(), 1);
        let text = String::from_utf8_lossy(&raw[0]);
        let head = text.split("\r\n\r\n").next().unwrap_or_default();
        assert!(head.lines().all(|l| l.len() <= 998), "{head}");
        assert_eq!(mailbox_count(self.ms, &self.bcc_victim, "INBOX"), 0);
        assert_eq!(mailbox_count(self.ms, &self.elsewhere, "INBOX"), 0);
    }

    /// The owners of Germany and England heard of the guessing and of the
    /// takeover; Reply-To registered nobody (the observer is the author);
    /// the chat resigned nobody.
    fn the_players_kept_their_seats(&self) {
        let germany = answers_for(self.ms, &[self.seat("Germany")]);
        assert!(
            germany
                .iter()
                .any(|a| a.subject == format!("Germany in {GAME}: failed sign-on")),
            "{:?}",
            germany.iter().map(|a| &a.subject).collect::<Vec<_>>()
        );
        let england = answers_for(self.ms, &[self.seat("England")]);
        for s in [
            format!("England in {GAME}: password changed"),
            format!("{GAME}: orders or commands from another address"),
        ] {
            assert!(
                england.iter().any(|a| a.subject == s),
                "{s}: {:?}",
                england.iter().map(|a| &a.subject).collect::<Vec<_>>()
            );
        }
        let observer: String = self
            .judge
            .db()
            .query_row(
                "SELECT address FROM observers WHERE game = ?1",
                [GAME],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(observer, self.attacker);
        let turkey_status: String = self
            .judge
            .db()
            .query_row(
                "SELECT status FROM seats WHERE game = ?1 AND power = 6",
                [GAME],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(turkey_status, "playing");
    }

    /// No password in any mail anybody got, nor in the mail the judge
    /// keeps; nothing failed.
    fn no_password_went_out(&self) {
        let mut everyone: Vec<String> = POWERS.iter().map(|p| self.seat(p)).collect();
        everyone.push(self.gm.clone());
        everyone.extend(self.people.iter().cloned());
        for a in &everyone {
            for raw in self.ms.fetch_all_blocking(a).unwrap() {
                let t = String::from_utf8_lossy(&raw);
                for s in &self.secrets {
                    assert!(!t.contains(s.as_str()), "{a} got a password: {t}");
                }
            }
        }
        let db = self.judge.db();
        let mut st = db.prepare("SELECT raw FROM inbound").unwrap();
        for raw in st.query_map([], |r| r.get::<_, Vec<u8>>(0)).unwrap() {
            let t = String::from_utf8_lossy(&raw.unwrap()).into_owned();
            for s in &self.secrets {
                assert!(!t.contains(s.as_str()), "a kept mail holds a password: {t}");
            }
        }
        assert_eq!(self.judge.failures(), Vec::<String>::new());
    }
}

#[test]
fn hostile_mail_never_stops_the_judge_nor_leaks_a_password() {
    let Some(ms) =
        MailSystem::start_or_skip("hostile_mail_never_stops_the_judge_nor_leaks_a_password")
    else {
        return;
    };
    let tmp = TempDir::new("hostile");
    let judge = Judge::start(&ms, tmp.path(), &Opts::default());
    wait_until("the judge connected", SETTLE, || {
        judge.log_text().contains("IMAP connected")
    });
    let mut c = Corpus::every_power_taken(&ms, &judge);
    c.control_characters_in_headers();
    c.floods_of_sign_ons();
    c.a_seat_taken_with_a_known_password();
    c.passwords_written_every_way();
    c.false_identity_and_chat();
    c.robots_and_careless_software();
    c.a_normal_mail_is_still_answered();
    c.each_case_got_what_it_must();
    c.careless_software_answered_sanely();
    c.the_players_kept_their_seats();
    c.no_password_went_out();
}

/// The game the second corpus plays in: the GM and seven players, each
/// address confirmed (people who used the judge before), every power
/// taken. Returns the GM's address, the seats' addresses, and how many
/// mails were sent.
fn seven_at_the_table(
    ms: &MailSystem,
    judge: &Judge,
    game: &str,
) -> (String, Vec<(&'static str, String)>, i64) {
    let gm = ms.address("gm");
    let seats: Vec<(&str, String)> = POWERS
        .iter()
        .map(|p| (*p, ms.address(&p.to_ascii_lowercase())))
        .collect();
    let mut known: Vec<&str> = seats.iter().map(|(_, a)| a.as_str()).collect();
    known.push(&gm);
    judge.confirmed(&known);
    let mut mails = vec![(
        gm.clone(),
        JUDGE_ADDRESS.to_string(),
        mail(
            &format!("{STAMP}From: {gm}"),
            &new_message_id(),
            &format!("CREATE {game} standard GmSecret-99\nSET ABSENCES ON 7d"),
        ),
    )];
    send_all(ms, &mails, 1);
    judge.wait_settled(ms, 1, SETTLE);
    mails.clear();
    for (p, a) in &seats {
        mails.push((
            a.clone(),
            JUDGE_ADDRESS.to_string(),
            mail(
                &format!("{STAMP}From: {a}"),
                &new_message_id(),
                &format!("JOIN {game} Secret-{p}-42 {p}"),
            ),
        ));
    }
    send_all(ms, &mails, 1);
    judge.wait_settled(ms, 8, SETTLE);
    (gm, seats, 8)
}

/// Trust II: what a hostile or careless sender tried, through the real
/// daemon, Dovecot and Postfix. Forged From with another Reply-To
/// subscribes nobody and mails the victim one short request; a mail of
/// 90 broadcasts reaches each reader once; 99 HISTORY lines send 10
/// histories; 30 REPLACE mails send one request; guesses from elsewhere
/// never lock the player out; an echoing robot is answered once; press
/// with control characters goes out clean; a press of 900 KB is
/// refused; chained absences move the deadline by the cap and are told
/// once.
/// The second corpus's game, seen from the test: the daemon, the game,
/// its GM and seats, and how many mails the judge has been sent.
struct Table<'a> {
    ms: &'a MailSystem,
    judge: &'a Judge,
    g: &'a str,
    gm: String,
    seats: Vec<(&'static str, String)>,
    sent: i64,
}

impl Table<'_> {
    /// The address playing `p`.
    fn seat(&self, p: &str) -> String {
        self.seats.iter().find(|(q, _)| *q == p).unwrap().1.clone()
    }

    /// The answers `a` received.
    fn seen(&self, a: &str) -> Vec<Answer> {
        answers_for(self.ms, &[a.to_string()])
    }

    /// Send one mail and wait until the judge has dealt with it; its
    /// Message-ID.
    fn one(&mut self, from: &str, headers: String, body: &str) -> String {
        let id = new_message_id();
        send_all(
            self.ms,
            &[(
                from.to_string(),
                JUDGE_ADDRESS.to_string(),
                mail(&headers, &id, body),
            )],
            1,
        );
        self.sent += 1;
        self.judge.wait_settled(self.ms, self.sent, SETTLE);
        id
    }

    /// Forged From, the attacker's Reply-To: held; the victim asked once,
    /// the attacker told nothing was done. Returns the victim.
    fn forged_from_holds_and_asks_the_victim_once(&mut self) -> String {
        let g = self.g;
        // Forged From, the attacker's Reply-To: held; the victim asked once.
        let victim = self.ms.address("victim");
        let attacker = self.ms.address("attacker");
        for body in [
            format!("OBSERVE {g}"),
            format!("JOIN {g} Stolen-Seat-1"),
            format!("OBSERVE {g}"),
        ] {
            self.one(
                &victim,
                format!("From: {victim}\r\nReply-To: {attacker}"),
                &body,
            );
        }
        let to_victim = self.seen(&victim);
        assert_eq!(to_victim.len(), 1, "{to_victim:#?}");
        assert!(
            to_victim[0].subject.contains("[CONFIRM "),
            "{}",
            to_victim[0].subject
        );
        let to_attacker = self.seen(&attacker);
        assert_eq!(to_attacker.len(), 3);
        assert!(
            to_attacker
                .iter()
                .all(|a| a.body.contains("Nothing in this mail was done")
                    && !a.body.contains("CONFIRM ")),
            "{to_attacker:#?}"
        );
        let observers: i64 = self
            .judge
            .db()
            .query_row("SELECT count(*) FROM observers", [], |r| r.get(0))
            .unwrap();
        assert_eq!(observers, 0);
        victim
    }

    /// Ninety broadcasts in one GM mail: one mail to each reader, none to
    /// the `victim`.
    fn ninety_broadcasts_reach_each_reader_once(&mut self, victim: &str) {
        let g = self.g;
        let gm = self.gm.clone();
        // Ninety broadcasts in one GM mail: one mail to each reader.
        let before: Vec<usize> = self.seats.iter().map(|(_, a)| self.seen(a).len()).collect();
        let blocks: String = (0..90)
            .map(|i| format!("BROADCAST\nBulletin {i}.\nENDPRESS\n"))
            .collect();
        self.one(
            &gm,
            format!("From: {gm}"),
            &format!("SIGNON GM {g} GmSecret-99\n{blocks}"),
        );
        for ((p, a), n) in self.seats.iter().zip(&before) {
            let got = self.seen(a);
            assert_eq!(
                got.len(),
                n + 1,
                "{p}: {:?}",
                got.iter().map(|x| &x.subject).collect::<Vec<_>>()
            );
            assert_eq!(
                got.last().unwrap().subject,
                format!("{g}: press (90 messages)")
            );
        }
        assert_eq!(self.seen(victim).len(), 1, "the victim observes nothing");
    }

    /// Ninety-nine HISTORY lines: ten histories to a player; to an address
    /// that never confirmed it wants the judge's mail, one answer.
    fn ninety_nine_history_lines_send_ten(&mut self) {
        let g = self.g;
        let gm = self.gm.clone();
        self.one(
            &gm,
            format!("From: {gm}"),
            &format!("SIGNON GM {g} GmSecret-99\nPROCESS"),
        );
        let england = self.seat("England");
        self.one(
            &england,
            format!("From: {england}"),
            &format!("HISTORY {g}\n").repeat(99),
        );
        let got = self.seen(&england);
        assert_eq!(
            got.iter().filter(|a| a.subject.contains("history")).count(),
            10,
            "{:?}",
            got.iter().map(|a| &a.subject).collect::<Vec<_>>()
        );
        let historian = self.ms.address("historian");
        self.one(
            &historian,
            format!("From: {historian}"),
            &format!("HISTORY {g}\n").repeat(99),
        );
        let got = self.seen(&historian);
        assert_eq!(
            got.len(),
            1,
            "{:?}",
            got.iter().map(|a| &a.subject).collect::<Vec<_>>()
        );
        assert!(got[0].body.len() <= 64 * 1024, "{}", got[0].body.len());
        assert!(got[0].body.contains("history"), "{}", got[0].body);
    }

    /// Thirty REPLACE mails naming a stranger: one request, no password.
    fn thirty_replaces_send_one_request(&mut self) {
        let g = self.g;
        let gm = self.gm.clone();
        // Thirty REPLACE mails naming a stranger: one request, no password.
        let stranger = self.ms.address("stranger");
        for _ in 0..30 {
            self.one(
                &gm,
                format!("From: {gm}"),
                &format!("SIGNON GM {g} GmSecret-99\nREPLACE Italy {stranger}"),
            );
        }
        let got = self.seen(&stranger);
        assert_eq!(got.len(), 1, "{got:#?}");
        assert!(!got[0].body.contains("Your password is"), "{}", got[0].body);
    }

    /// Guesses from elsewhere, in every form, never lock France's player out.
    fn guesses_never_lock_the_player_out(&mut self) {
        let g = self.g;
        // Guesses from elsewhere, in every form, never lock France's player out.
        for (i, line) in [
            format!("SIGNON France {g} nope-nope"),
            format!("SIGNON F{g} nope-nope"),
            format!("SIGNON france@{} nope-nope", g.to_uppercase()),
        ]
        .iter()
        .cycle()
        .take(9)
        .enumerate()
        {
            let eve = self.ms.address(&format!("eve{i}"));
            self.one(&eve, format!("From: {eve}"), line);
        }
        let france = self.seat("France");
        let id = self.one(
            &france,
            format!("From: {france}"),
            &format!("SIGNON France {g} Secret-France-42\nA Par-Bur"),
        );
        let mine: Vec<Answer> = self
            .seen(&france)
            .into_iter()
            .filter(|a| a.in_reply_to == id)
            .collect();
        assert_eq!(mine.len(), 1);
        assert!(
            mine[0].body.contains("Signed on as France") && mine[0].body.contains("A(Par)-Bur"),
            "{}",
            mine[0].body
        );
    }

    /// An echoing robot: its echo of the answer is not answered.
    fn an_echo_is_not_answered(&mut self) {
        // An echoing robot: its echo of the answer is not answered.
        let bot = self.ms.address("echo-bot");
        self.one(&bot, format!("From: {bot}"), "CREATE");
        let answer = self
            .seen(&bot)
            .pop()
            .expect("the robot's first mail is answered");
        let echo = self.one(&bot, format!("From: {bot}"), &answer.body);
        assert_eq!(self.seen(&bot).len(), 1, "the echo got no answer");
        assert_eq!(
            self.judge.note(&echo).as_deref(),
            Some("ignored: the judge's own mail come back")
        );
    }

    /// Press with control characters goes out clean, as valid mail; a press
    /// of 900 KB is refused, with the reason.
    fn press_goes_out_clean(&mut self) {
        let g = self.g;
        // Press with control characters goes out clean, as valid mail.
        let england = self.seat("England");
        self.one(
            &england,
            format!("From: {england}"),
            &format!(
                "SIGNON England {g} Secret-England-42\nPRESS TO Germany\nA\u{0}B\u{8}C\u{1b}[31mD\u{fffe}E\nENDPRESS"
            ),
        );
        let raw = self
            .ms
            .fetch_all_blocking(&self.seat("Germany"))
            .unwrap()
            .pop()
            .unwrap();
        assert!(!raw.contains(&0u8) && !raw.contains(&0x1bu8) && !raw.contains(&8u8));
        let press = parse_answer(&self.seat("Germany"), &raw);
        // (Postfix may have turned the NUL into U+FFFD on its way in.)
        assert!(
            press.body.contains("C[31mDE")
                && !press
                    .body
                    .chars()
                    .any(|c| c != '\r' && zinejudge::testing::mail::unsafe_char(c)),
            "{:?}",
            press.body
        );

        // A press of 900 KB is refused, with the reason.
        let big = "lorem ipsum ".repeat(75_000);
        let id = self.one(
            &england,
            format!("From: {england}"),
            &format!("SIGNON England {g} Secret-England-42\nBROADCAST\n{big}\nENDPRESS"),
        );
        let mine: Vec<Answer> = self
            .seen(&england)
            .into_iter()
            .filter(|a| a.in_reply_to == id)
            .collect();
        assert!(
            mine[0]
                .body
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .contains("a press message is at most 20000"),
            "{}",
            mine[0].body
        );
    }

    /// Ninety-nine chained one-day absences: the deadline moves 7 days at
    /// most, and each other player hears of it once.
    fn chained_absences_move_the_deadline_by_the_cap(&mut self) {
        let g = self.g;
        // Ninety-nine chained one-day absences: the deadline moves 7 days at
        // most, and each other player hears of it once.
        let before = self.seen(&self.seat("Turkey")).len();
        let deadline: i64 = self
            .judge
            .db()
            .query_row("SELECT deadline FROM games WHERE name = ?1", [g], |r| {
                r.get(0)
            })
            .unwrap();
        let day = |d: i64| {
            jiff::Timestamp::from_second(deadline - 3600 + d * 86_400)
                .unwrap()
                .strftime("%Y-%m-%d %H:%M")
                .to_string()
        };
        let chain: String = (0..99)
            .map(|d| format!("SET ABSENCE {} TO {}\n", day(d), day(d + 1)))
            .collect();
        let russia = self.seat("Russia");
        self.one(
            &russia,
            format!("From: {russia}"),
            &format!("SIGNON Russia {g} Secret-Russia-42\n{chain}"),
        );
        let moved: i64 = self
            .judge
            .db()
            .query_row("SELECT deadline FROM games WHERE name = ?1", [g], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(moved, deadline + 7 * 86_400, "moved by the cap, 7 days");
        let got = self.seen(&self.seat("Turkey"));
        assert_eq!(
            got.len(),
            before + 1,
            "{:?}",
            got.iter().map(|a| &a.subject).collect::<Vec<_>>()
        );
    }

    /// The copies of the mails the judge keeps in its processed mailbox have
    /// their passwords masked, as the store's have.
    fn kept_copies_are_masked(&mut self) {
        // The copies of the mails the judge keeps in its processed mailbox
        // have their passwords masked, as the store's have.
        let kept = mailbox_messages(self.ms, JUDGE_ADDRESS, "zinejudge-processed");
        assert!(kept.len() >= 40, "{} kept", kept.len());
        let mut passwords: Vec<String> = POWERS.iter().map(|p| format!("Secret-{p}-42")).collect();
        passwords.extend(["GmSecret-99".into(), "Stolen-Seat-1".into()]);
        for raw in &kept {
            let text = String::from_utf8_lossy(raw);
            for p in &passwords {
                assert!(!text.contains(p.as_str()), "{p} kept in clear:\n{text}");
            }
        }
    }
}

#[test]
fn a_hostile_sender_gets_nothing_through_the_real_daemon() {
    let Some(ms) =
        MailSystem::start_or_skip("a_hostile_sender_gets_nothing_through_the_real_daemon")
    else {
        return;
    };
    let tmp = TempDir::new("hostile2");
    let judge = Judge::start(&ms, tmp.path(), &Opts::default());
    wait_until("the judge connected", SETTLE, || {
        judge.log_text().contains("IMAP connected")
    });
    let g = "t2";
    let (gm, seats, sent) = seven_at_the_table(&ms, &judge, g);
    let mut t = Table {
        ms: &ms,
        judge: &judge,
        g,
        gm,
        seats,
        sent,
    };
    let victim = t.forged_from_holds_and_asks_the_victim_once();
    t.ninety_broadcasts_reach_each_reader_once(&victim);
    t.ninety_nine_history_lines_send_ten();
    t.thirty_replaces_send_one_request();
    t.guesses_never_lock_the_player_out();
    t.an_echo_is_not_answered();
    t.press_goes_out_clean();
    t.chained_absences_move_the_deadline_by_the_cap();
    t.kept_copies_are_masked();
    // Nothing failed, and the judge answers the next mail.
    assert!(judge.failures().is_empty(), "{:?}", judge.failures());
    let normal = ms.address("normal");
    let id = t.one(&normal, format!("From: {normal}"), "VARIANTS");
    assert_eq!(t.seen(&normal)[0].in_reply_to, id);
}
