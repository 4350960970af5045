//! The daemon (`zinejudge run`) against real mail servers: each test starts
//! its own Dovecot and Postfix on 127.0.0.1 (tests/support/mailsys.rs) and
//! the real binary as a child process, reading the judge's mailbox over
//! IMAPS and sending through submission (STARTTLS, AUTH), both checked
//! against the test CA; the store lives in a temporary directory.
//!
//! When the servers are not installed these tests print why and pass,
//! unless `CI` is set: then they fail.

use crate::daemon_common;
use crate::support;
use daemon_common::*;
use std::collections::HashSet;
use std::time::{Duration, Instant};
use support::{JUDGE_ADDRESS, MailSystem, wait_until};

const SETTLE: Duration = Duration::from_secs(60);

#[test]
fn an_answer_is_threaded_and_lands_in_the_senders_mailbox() {
    let Some(ms) =
        MailSystem::start_or_skip("an_answer_is_threaded_and_lands_in_the_senders_mailbox")
    else {
        return;
    };
    let tmp = TempDir::new("answer");
    let judge = Judge::start(&ms, tmp.path(), &Opts::default());

    let player = ms.address("england");
    let id = new_message_id();
    let mut raw = order_mail(
        &player,
        JUDGE_ADDRESS,
        &id,
        "Spring 1901",
        "A(Lon)-Yor\r\nF(Edi)-NTH\r\nF(Lon)-ENG\r\n",
    );
    // A mail that is itself part of a thread.
    let head = b"References: <earlier@players.example.test>\r\n".to_vec();
    raw.splice(0..0, head);
    let t0 = Instant::now();
    send_all(&ms, &[(player.clone(), JUDGE_ADDRESS.into(), raw)], 1);

    let got = ms
        .wait_for_blocking(&player, 1, SETTLE)
        .unwrap_or_else(|e| panic!("{e}\njudge log:\n{}", judge.log_tail(40)));
    eprintln!("answered in {:?}", t0.elapsed());
    assert_eq!(got.len(), 1);
    let a = parse_answer(&player, &got[0]);
    assert_eq!(a.in_reply_to, id);
    assert_eq!(
        a.references,
        ["earlier@players.example.test".to_string(), id.clone()]
    );
    assert_eq!(a.auto_submitted, "auto-replied");
    assert!(
        a.message_id.ends_with("@example.test") && a.message_id != id,
        "{}",
        a.message_id
    );
    assert_eq!(a.from_address, JUDGE_ADDRESS);
    assert_eq!(a.from_name, "zinejudge test");
    assert_eq!(a.subject, "Re: Spring 1901");
    for order in ["A(Lon)-Yor", "F(Edi)-NTH", "F(Lon)-ENG"] {
        assert!(a.body.contains(order), "{order} not in {:?}", a.body);
    }

    // The mail left the judge's INBOX for the processed mailbox.
    wait_until("the INBOX emptied", SETTLE, || {
        mailbox_count(&ms, JUDGE_ADDRESS, "INBOX") == 0
    });
    assert_eq!(mailbox_count(&ms, JUDGE_ADDRESS, "zinejudge-processed"), 1);
    let c = judge.wait_settled(&ms, 1, SETTLE);
    assert_eq!((c.inbound, c.outbox, c.failed), (1, 1, 0), "{c:?}");
}

/// Mails from `players` (round robin), `n` of them, each with its own
/// Message-ID: `(from, to, raw)` and the ids.
fn order_mails(players: &[String], n: usize, from_index: usize) -> Vec<(String, String, Vec<u8>)> {
    (from_index..from_index + n)
        .map(|i| {
            let p = &players[i % players.len()];
            let id = new_message_id();
            let body = format!("Mail {i}\r\nA(Lon)-Yor\r\nF(Edi)-NTH\r\nA(Lvp) S A(Lon)-Yor\r\n");
            (
                p.clone(),
                JUDGE_ADDRESS.to_string(),
                order_mail(p, JUDGE_ADDRESS, &id, &format!("Orders {i}"), &body),
            )
        })
        .collect()
}

fn id_of(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let line = text
        .lines()
        .find(|l| l.starts_with("Message-ID: <"))
        .expect("Message-ID");
    line["Message-ID: <".len()..line.len() - 1].to_string()
}

/// What the players' mailboxes say about the mails `sent`: lost ones,
/// duplicates that are the same answer sent twice (a resend: the SMTP
/// server took it but the outbox did not record that), and duplicates
/// that are different answers (the mail processed twice), and answers to
/// nothing sent.
#[derive(Debug, Default)]
struct Tally {
    answers: usize,
    lost: Vec<String>,
    resent: Vec<String>,
    reprocessed: Vec<String>,
    stray: Vec<String>,
}

fn tally(ms: &MailSystem, players: &[String], sent: &[String]) -> Tally {
    let answers = answers_for(ms, players);
    let groups = by_in_reply_to(&answers);
    let mut t = Tally {
        answers: answers.len(),
        ..Tally::default()
    };
    let sent_set: HashSet<&String> = sent.iter().collect();
    for id in sent {
        match groups.get(id) {
            None => t.lost.push(id.clone()),
            Some(g) if g.len() > 1 => {
                let ids: HashSet<&str> = g.iter().map(|a| a.message_id.as_str()).collect();
                if ids.len() == 1 {
                    t.resent.push(id.clone());
                } else {
                    t.reprocessed.push(id.clone());
                }
            }
            Some(_) => {}
        }
    }
    for k in groups.keys() {
        if !sent_set.contains(k) {
            t.stray.push(k.clone());
        }
    }
    t
}

#[test]
fn every_mail_is_answered_exactly_once_through_repeated_sigkills() {
    let Some(ms) =
        MailSystem::start_or_skip("every_mail_is_answered_exactly_once_through_repeated_sigkills")
    else {
        return;
    };
    const TOTAL: usize = 500;
    const BEFORE: usize = 200;
    const MIN_BUSY_KILLS: usize = 5;
    const MAX_KILLS: usize = 14;
    let players: Vec<String> = (0..50).map(|_| ms.address("player")).collect();
    let mails = order_mails(&players, TOTAL, 0);
    let sent: Vec<String> = mails.iter().map(|(_, _, raw)| id_of(raw)).collect();
    let tmp = TempDir::new("crash");
    let t0 = Instant::now();

    // Part waits in the judge's mailbox before the daemon first starts.
    send_all(&ms, &mails[..BEFORE], 2);
    let mut judge = Judge::start(&ms, tmp.path(), &Opts::default());

    let mut kills = Vec::new();
    std::thread::scope(|s| {
        // The rest comes in while the daemon works and dies.
        let later = &mails[BEFORE..];
        let feeder = s.spawn(|| {
            let mut c = SmtpClient::connect(ms.ports().smtp).expect("SMTP");
            for chunk in later.chunks(10) {
                for (from, to, raw) in chunk {
                    c.send(from, to, raw).expect("send");
                }
                // Pacing, not correctness: spread the mail over the kills.
                std::thread::sleep(Duration::from_millis(250));
            }
            c.quit();
        });
        let mut busy = 0;
        while busy < MIN_BUSY_KILLS && kills.len() < MAX_KILLS {
            // A random moment: from just after start-up to well into work.
            std::thread::sleep(Duration::from_millis(fastrand::u64(150..1500)));
            judge.kill();
            let c = judge.counts();
            let inbox = mailbox_count(&ms, JUDGE_ADDRESS, "INBOX");
            let working = c.pending > 0 || c.unsent > 0 || inbox > 0;
            busy += usize::from(working);
            kills.push((c, inbox, working));
            judge.spawn();
        }
        feeder.join().expect("feeder");
    });
    let c = judge.wait_settled(&ms, TOTAL as i64, Duration::from_secs(240));
    wait_until("the judge's INBOX emptied", SETTLE, || {
        mailbox_count(&ms, JUDGE_ADDRESS, "INBOX") == 0
    });
    let elapsed = t0.elapsed();
    let t = tally(&ms, &players, &sent);
    let resent_rows: i64 = judge
        .db()
        .query_row("SELECT count(*) FROM outbox WHERE attempts > 1", [], |r| {
            r.get(0)
        })
        .unwrap();
    eprintln!(
        "{TOTAL} mails, {} kills ({} with work in hand), settled in {elapsed:?}: \
         {} answers, {} lost, {} resent (same answer twice), {} reprocessed, {} stray; \
         outbox rows tried more than once: {resent_rows}",
        kills.len(),
        kills.iter().filter(|k| k.2).count(),
        t.answers,
        t.lost.len(),
        t.resent.len(),
        t.reprocessed.len(),
        t.stray.len(),
    );
    for (i, (c, inbox, _)) in kills.iter().enumerate() {
        eprintln!(
            "  kill {}: {} stored, {} waiting, {} in the judge's INBOX, {} answers unsent",
            i + 1,
            c.inbound,
            c.pending,
            inbox,
            c.unsent
        );
    }
    assert!(
        kills.iter().filter(|k| k.2).count() >= MIN_BUSY_KILLS,
        "too few kills hit the daemon at work: {kills:?}"
    );
    assert_eq!(
        (c.inbound, c.outbox, c.failed),
        (TOTAL as i64, TOTAL as i64, 0),
        "{c:?}"
    );
    assert_eq!(judge.failures(), Vec::<String>::new());
    assert!(t.lost.is_empty(), "lost: {:?}", t.lost);
    assert!(
        t.reprocessed.is_empty(),
        "processed twice: {:?}",
        t.reprocessed
    );
    assert!(
        t.stray.is_empty(),
        "answers to mails never sent: {:?}",
        t.stray
    );
    // A resend needs a kill between the server's 250 and the outbox's
    // commit: at most one per connection per kill, and only for a row the
    // store saw tried more than once.
    assert!(
        t.resent.len() <= kills.len() * Opts::default().connections,
        "{} resends for {} kills",
        t.resent.len(),
        kills.len()
    );
    assert!(
        t.resent.len() as i64 <= resent_rows,
        "{} answers doubled but only {resent_rows} outbox rows were tried twice",
        t.resent.len()
    );
    // Each doubled answer is an outbox row that was being sent when the
    // daemon died (tried again after the restart), not a mail processed
    // twice: one row, tried more than once.
    for id in &t.resent {
        let rows: Vec<i64> = judge
            .db()
            .prepare(
                "SELECT o.attempts FROM outbox o JOIN inbound i ON o.inbound_id = i.id
                 WHERE i.message_id = ?1",
            )
            .unwrap()
            .query_map([id], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(
            rows.len() == 1 && rows[0] > 1,
            "{id}: outbox rows (attempts) {rows:?}"
        );
    }
}

/// How often `needle` occurs in the judge's log.
fn log_count(judge: &Judge, needle: &str) -> usize {
    judge.log_text().matches(needle).count()
}

#[test]
fn outages_of_imap_and_smtp_are_survived_without_loss_or_duplicates() {
    let Some(ms) = MailSystem::start_or_skip(
        "outages_of_imap_and_smtp_are_survived_without_loss_or_duplicates",
    ) else {
        return;
    };
    let players: Vec<String> = (0..10).map(|_| ms.address("outage")).collect();
    let tmp = TempDir::new("outage");
    let mut judge = Judge::start(&ms, tmp.path(), &Opts::default());
    let mut sent = Vec::new();
    let mut total = 0;
    let mut send = |n: usize, sent: &mut Vec<String>| {
        let mails = order_mails(&players, n, total);
        total += n;
        sent.extend(mails.iter().map(|m| id_of(&m.2)));
        send_all(&ms, &mails, 1);
    };

    send(10, &mut sent);
    judge.wait_settled(&ms, 10, SETTLE);

    // IMAP down twice: mail sent meanwhile waits in Postfix's queue; the
    // daemon reconnects by itself, and as quickly the second time (its
    // backoff starts over after a good connection).
    for round in 1..=2 {
        let lost_before = log_count(&judge, "IMAP connection lost");
        ms.stop_imap();
        send(10, &mut sent);
        // Down long enough for a few failed reconnects.
        wait_until("failed IMAP reconnects", SETTLE, || {
            log_count(&judge, "IMAP connection lost") >= lost_before + 3
        });
        let t = Instant::now();
        ms.start_imap();
        let want = (10 + 10 * round) as i64;
        judge.wait_settled(&ms, want, SETTLE);
        let recovered = t.elapsed();
        eprintln!("IMAP outage {round}: recovered {recovered:?} after the restart");
        assert!(
            recovered < Duration::from_secs(15),
            "IMAP outage {round}: took {recovered:?} to recover"
        );
        assert!(judge.running());
    }

    // SMTP down: the answers wait in the outbox, retried, until it is back.
    ms.stop_smtp();
    let mails = order_mails(&players, 10, total);
    for (_, _, raw) in &mails {
        // Postfix is down: straight into the judge's mailbox.
        append(&ms, JUDGE_ADDRESS, "INBOX", raw);
        sent.push(id_of(raw));
    }
    wait_until("answers queued in the outbox", SETTLE, || {
        let c = judge.counts();
        c.inbound == 40 && c.pending == 0 && c.unsent == 10
    });
    wait_until("sending retried", SETTLE, || {
        judge
            .db()
            .query_row(
                "SELECT count(*) FROM outbox WHERE attempts >= 2 AND state != 'sent'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .unwrap()
            > 0
    });
    assert!(judge.running());
    let t = Instant::now();
    ms.start_smtp();
    let c = judge.wait_settled(&ms, 40, SETTLE);
    eprintln!(
        "SMTP outage: outbox drained {:?} after the restart",
        t.elapsed()
    );
    assert_eq!((c.outbox, c.failed), (40, 0), "{c:?}");

    let t = tally(&ms, &players, &sent);
    assert_eq!(t.answers, 40, "{t:?}");
    assert!(
        t.lost.is_empty() && t.resent.is_empty() && t.reprocessed.is_empty() && t.stray.is_empty(),
        "{t:?}"
    );
    assert_eq!(mailbox_count(&ms, JUDGE_ADDRESS, "INBOX"), 0);
    assert_eq!(judge.failures(), Vec::<String>::new());
}

/// The odd mails sent to the judge, and what became of each.
struct OddMail<'a> {
    ms: &'a MailSystem,
    /// (player, Message-ID, what): answered once each.
    answered: Vec<(String, String, &'static str)>,
    /// (Message-ID, note): never answered, noted so.
    silent: Vec<(String, &'static str)>,
    /// The mail with no From, named in the log.
    no_from_id: String,
    /// The 30 MB mail's size, quoted in its answer.
    huge_size: usize,
}

impl OddMail<'_> {
    /// Mail players' programs get wrong: broken MIME, 8-bit text with no
    /// charset, HTML only, an empty body. Each is answered.
    fn send_malformed(&mut self, smtp: &mut SmtpClient) {
        let j = JUDGE_ADDRESS;
        // Broken MIME: a multipart whose closing boundary never comes.
        let p = self.ms.address("broken");
        let id = new_message_id();
        let raw = format!(
            "From: {p}\r\nTo: {j}\r\nSubject: broken\r\nMessage-ID: <{id}>\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/mixed; boundary=\"XYZ\"\r\n\r\n\
         --XYZ\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\nA(Lon)-Yor\r\nF(Edi)-NTH\r\n\
         --XYZ\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n\
         AAAAAAAA\r\nAAAA"
        );
        smtp.send(&p, j, raw.as_bytes()).unwrap();
        self.answered.push((p, id, "broken MIME"));

        // 8-bit text with no charset (Latin-1 bytes).
        let p = self.ms.address("eightbit");
        let id = new_message_id();
        let mut raw = format!(
            "From: {p}\r\nTo: {j}\r\nSubject: orders\r\nMessage-ID: <{id}>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        )
        .into_bytes();
        raw.extend_from_slice(b"Gr\xfc\xdfe aus M\xfcnchen\r\nA(Lon)-Yor\r\nF(Edi)-NTH\r\n");
        smtp.send(&p, j, &raw).unwrap();
        self.answered.push((p, id, "8-bit"));

        // HTML only.
        let p = self.ms.address("html");
        let id = new_message_id();
        let raw = format!(
            "From: {p}\r\nTo: {j}\r\nSubject: orders\r\nMessage-ID: <{id}>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/html; charset=utf-8\r\n\r\n\
         <html><body><p>A(Lon)-Yor</p><div>F(Edi)-NTH</div></body></html>\r\n"
        );
        smtp.send(&p, j, raw.as_bytes()).unwrap();
        self.answered.push((p, id, "HTML"));

        // An empty body.
        let p = self.ms.address("empty");
        let id = new_message_id();
        let raw = format!("From: {p}\r\nTo: {j}\r\nSubject: nothing\r\nMessage-ID: <{id}>\r\n\r\n");
        smtp.send(&p, j, raw.as_bytes()).unwrap();
        self.answered.push((p, id, "empty"));
    }

    /// Mail from robots and from the judge itself: a bounce, an
    /// autoresponder, the judge's own. None is answered (a loop).
    fn send_robots(&mut self, smtp: &mut SmtpClient) {
        let j = JUDGE_ADDRESS;
        // A bounce (null sender, delivery report).
        let id = new_message_id();
        let raw = format!(
            "From: MAILER-DAEMON@example.test\r\nTo: {j}\r\nSubject: Undelivered Mail\r\n\
         Message-ID: <{id}>\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\r\n\r\n\
         --B\r\nContent-Type: text/plain\r\n\r\nYour mail could not be delivered.\r\nA(Lon)-Yor\r\n--B--\r\n"
        );
        smtp.send("", j, raw.as_bytes()).unwrap();
        self.silent.push((id, "ignored: bounce"));

        // An autoresponder.
        let away = self.ms.address("away");
        let id = new_message_id();
        let raw = format!(
            "From: {away}\r\nTo: {j}\r\nSubject: Out of office\r\nMessage-ID: <{id}>\r\n\
         Auto-Submitted: auto-replied\r\n\r\nI am away until Monday.\r\n"
        );
        smtp.send(&away, j, raw.as_bytes()).unwrap();
        self.silent.push((id, "ignored: auto-reply"));

        // The judge's own address.
        let id = new_message_id();
        let raw = format!(
            "From: zinejudge <{j}>\r\nTo: {j}\r\nSubject: Re: orders\r\nMessage-ID: <{id}>\r\n\r\nA(Lon)-Yor\r\n"
        );
        smtp.send(j, j, raw.as_bytes()).unwrap();
        self.silent.push((id, "ignored: the judge's own mail"));
    }

    /// Mail Postfix would not pass, put straight into the mailbox: one
    /// with no From (ignored) and one of 30 MB (answered, not read).
    fn append_unsendable(&mut self) {
        let j = JUDGE_ADDRESS;
        // No From at all (Postfix would add one: straight into the mailbox).
        let id = new_message_id();
        let raw =
            format!("To: {j}\r\nSubject: anonymous\r\nMessage-ID: <{id}>\r\n\r\nA(Lon)-Yor\r\n");
        append(self.ms, j, "INBOX", raw.as_bytes());
        self.silent.push((id.clone(), "ignored: no sender"));
        self.no_from_id = id;

        // 30 MB (Postfix takes at most 10 MB: straight into the mailbox).
        let p = self.ms.address("huge");
        let id = new_message_id();
        let mut raw = format!(
            "From: {p}\r\nTo: {j}\r\nSubject: huge\r\nMessage-ID: <{id}>\r\n\
         Content-Type: text/plain; charset=us-ascii\r\n\r\n"
        )
        .into_bytes();
        while raw.len() < 30 * 1024 * 1024 {
            raw.extend_from_slice(
                b"A(Lon)-Yor F(Edi)-NTH A(Lvp) S A(Lon)-Yor and more words here\r\n",
            );
        }
        self.huge_size = raw.len();
        append(self.ms, j, "INBOX", &raw);
        drop(raw);
        self.answered.push((p, id, "30 MB"));
    }
}

/// Each answerable odd mail got one answer saying what the judge made of
/// it, and each unanswerable one its note.
fn check_odd_answers(odd: &OddMail<'_>, judge: &Judge) {
    for (player, id, what) in &odd.answered {
        let got = odd.ms.fetch_all_blocking(player).unwrap();
        assert_eq!(got.len(), 1, "{what}: {} answers", got.len());
        let a = parse_answer(player, &got[0]);
        assert_eq!(&a.in_reply_to, id, "{what}");
        match *what {
            "30 MB" => {
                assert!(
                    a.body
                        .contains(&format!("was {} bytes long", odd.huge_size))
                        && a.body.contains("not read"),
                    "{what}: {}",
                    a.body
                );
                assert!(!a.body.contains("A(Lon)-Yor"), "{what}: read anyway");
                assert_eq!(judge.note(id).as_deref(), Some("refused: too large"));
            }
            // The order checker says "found no orders", the command
            // language "found no commands or orders".
            "empty" => assert!(a.body.contains("found no"), "{what}: {}", a.body),
            _ => {
                assert!(
                    a.body.contains("A(Lon)-Yor") && a.body.contains("F(Edi)-NTH"),
                    "{what}: orders not read: {}",
                    a.body
                );
            }
        }
    }
    for (id, note) in &odd.silent {
        assert_eq!(judge.note(id).as_deref(), Some(*note), "{id}");
    }
}

#[test]
fn malformed_and_robot_mail_each_get_the_right_treatment() {
    let Some(ms) =
        MailSystem::start_or_skip("malformed_and_robot_mail_each_get_the_right_treatment")
    else {
        return;
    };
    let tmp = TempDir::new("malformed");
    let mut judge = Judge::start(&ms, tmp.path(), &Opts::default());
    wait_until("the judge connected", SETTLE, || {
        log_count(&judge, "IMAP connected") >= 1
    });
    let j = JUDGE_ADDRESS;
    let mut odd = OddMail {
        ms: &ms,
        answered: Vec::new(),
        silent: Vec::new(),
        no_from_id: String::new(),
        huge_size: 0,
    };
    let mut smtp = SmtpClient::connect(ms.ports().smtp).unwrap();
    odd.send_malformed(&mut smtp);
    odd.send_robots(&mut smtp);
    smtp.quit();
    let hwm_before = judge.status_kb("VmHWM").unwrap();
    odd.append_unsendable();
    let first = (odd.answered.len() + odd.silent.len()) as i64;
    wait_until("the odd mails processed", SETTLE, || {
        let c = judge.counts();
        c.inbound == first && c.pending == 0
    });
    let hwm_after = judge.status_kb("VmHWM").unwrap();
    eprintln!("daemon peak RSS: {hwm_before} kB before the 30 MB mail, {hwm_after} kB after");
    assert!(
        hwm_after < hwm_before + 16 * 1024,
        "the 30 MB mail grew the daemon from {hwm_before} kB to {hwm_after} kB"
    );

    // Still alive: a normal mail after them is answered.
    let p = ms.address("normal");
    let id = new_message_id();
    send_all(
        &ms,
        &[(
            p.clone(),
            j.to_string(),
            order_mail(&p, j, &id, "orders", "A(Lon)-Yor\r\nF(Edi)-NTH\r\n"),
        )],
        1,
    );
    odd.answered.push((p, id, "normal"));
    let c = judge.wait_settled(&ms, first + 1, SETTLE);
    assert!(judge.running(), "the daemon died");
    assert_eq!(
        (c.outbox, c.failed),
        (odd.answered.len() as i64, 0),
        "one answer for each answerable mail, none for the rest: {c:?}"
    );

    check_odd_answers(&odd, &judge);
    // Nobody else got mail: the robots, the judge itself.
    for who in ["MAILER-DAEMON@example.test", JUDGE_ADDRESS] {
        assert_eq!(mailbox_count(&ms, who, "INBOX"), 0, "{who} got mail");
    }
    assert_eq!(
        mailbox_count(&ms, JUDGE_ADDRESS, "zinejudge-processed"),
        first as usize + 1
    );
    // The mail without a sender is in the log.
    let log = judge.log_text();
    assert!(
        log.lines()
            .any(|l| l.contains(&odd.no_from_id) && l.contains("ignored: no sender")),
        "no log line for the mail without From"
    );
    assert_eq!(judge.failures(), Vec::<String>::new());
}

/// Rewrite the judge's configuration with `opts` (a reload reads it).
fn rewrite_config(ms: &MailSystem, judge: &Judge, opts: &Opts) {
    std::fs::write(&judge.config, config_text(ms, &judge.dir, opts)).unwrap();
}

/// Send one order mail from `player`; its Message-ID.
fn send_one(ms: &MailSystem, player: &str) -> String {
    let id = new_message_id();
    let raw = order_mail(player, JUDGE_ADDRESS, &id, "orders", "A(Lon)-Yor\r\n");
    send_all(
        ms,
        &[(player.to_string(), JUDGE_ADDRESS.to_string(), raw)],
        1,
    );
    id
}

#[test]
fn sighup_reloads_the_configuration_and_an_invalid_one_is_refused() {
    let Some(ms) =
        MailSystem::start_or_skip("sighup_reloads_the_configuration_and_an_invalid_one_is_refused")
    else {
        return;
    };
    let tmp = TempDir::new("sighup");
    let mut opts = Opts {
        name: "Judge One".into(),
        ..Opts::default()
    };
    let mut judge = Judge::start(&ms, tmp.path(), &opts);
    let player = ms.address("reload");
    // The n-th answer the player got.
    let answer_n = |judge: &Judge, n: usize| -> Answer {
        let got = ms
            .wait_for_blocking(&player, n, SETTLE)
            .unwrap_or_else(|e| panic!("{e}\n{}", judge.log_tail(30)));
        assert_eq!(got.len(), n);
        parse_answer(&player, &got[n - 1])
    };

    let id = send_one(&ms, &player);
    let a = answer_n(&judge, 1);
    assert_eq!(
        (a.in_reply_to.as_str(), a.from_name.as_str()),
        (id.as_str(), "Judge One")
    );

    // A new name, then SIGHUP: the next answer carries it.
    opts.name = "Judge Two".into();
    rewrite_config(&ms, &judge, &opts);
    let connected = log_count(&judge, "IMAP connected");
    judge.signal(libc::SIGHUP);
    // The new configuration's tasks are up once it reads the mailbox again.
    wait_until("the reload", SETTLE, || {
        log_count(&judge, "IMAP connected") > connected
    });
    assert!(
        judge
            .log_text()
            .contains("SIGHUP: reloading the configuration")
    );
    let id = send_one(&ms, &player);
    let a = answer_n(&judge, 2);
    assert_eq!(
        (a.in_reply_to.as_str(), a.from_name.as_str()),
        (id.as_str(), "Judge Two")
    );

    // An invalid configuration: refused, and the daemon goes on as it was.
    for bad in [
        "[judge]\naddress = \"not an address\"\n",
        "[judge\nname = \"broken TOML\"\n",
        "[judge]\nnmae = \"a misspelt key\"\n",
    ] {
        let refused = log_count(&judge, "the new configuration is not valid");
        std::fs::write(&judge.config, bad).unwrap();
        judge.signal(libc::SIGHUP);
        wait_until("the refusal", SETTLE, || {
            log_count(&judge, "the new configuration is not valid") > refused
        });
        assert!(judge.running(), "the daemon stopped on {bad:?}");
    }
    let id = send_one(&ms, &player);
    let a = answer_n(&judge, 3);
    assert_eq!(
        (a.in_reply_to.as_str(), a.from_name.as_str()),
        (id.as_str(), "Judge Two")
    );

    // A valid one after the refusals is taken.
    opts.name = "Judge Three".into();
    rewrite_config(&ms, &judge, &opts);
    let connected = log_count(&judge, "IMAP connected");
    judge.signal(libc::SIGHUP);
    wait_until("the second reload", SETTLE, || {
        log_count(&judge, "IMAP connected") > connected
    });
    let id = send_one(&ms, &player);
    let a = answer_n(&judge, 4);
    assert_eq!(
        (a.in_reply_to.as_str(), a.from_name.as_str()),
        (id.as_str(), "Judge Three")
    );
    let c = judge.wait_settled(&ms, 4, SETTLE);
    assert_eq!((c.outbox, c.failed), (4, 0), "{c:?}");
    assert_eq!(ms.fetch_all_blocking(&player).unwrap().len(), 4);
}

#[test]
fn sigterm_finishes_the_mail_in_hand_flushes_the_outbox_and_exits_0() {
    let Some(ms) = MailSystem::start_or_skip(
        "sigterm_finishes_the_mail_in_hand_flushes_the_outbox_and_exits_0",
    ) else {
        return;
    };
    const N: usize = 60;
    let players: Vec<String> = (0..12).map(|_| ms.address("term")).collect();
    let mails = order_mails(&players, N, 0);
    let sent: Vec<String> = mails.iter().map(|m| id_of(&m.2)).collect();
    let tmp = TempDir::new("sigterm");
    // One SMTP connection: answers pile up in the outbox faster than they
    // leave, so the stop has some to flush.
    let opts = Opts {
        connections: 1,
        ..Opts::default()
    };
    let mut judge = Judge::start(&ms, tmp.path(), &opts);
    send_all(&ms, &mails, 2);
    wait_until("work under way", SETTLE, || {
        let c = judge.counts();
        c.inbound - c.pending >= 5 && c.unsent > 0
    });
    let at_term = judge.counts();
    judge.signal(libc::SIGTERM);
    let status = judge.wait_exit(Duration::from_secs(60));
    let after = judge.counts();
    eprintln!("at SIGTERM: {at_term:?}; after the exit: {after:?}");
    assert_eq!(status.code(), Some(0), "{status:?}\n{}", judge.log_tail(20));
    assert!(judge.log_text().contains("stopped"));
    // Every answer queued before the exit was sent before it.
    assert_eq!(after.unsent, 0, "answers left in the outbox: {after:?}");
    assert_eq!(after.outbox, after.inbound - after.pending, "{after:?}");

    // What was not processed waits for the next start; nothing is doubled.
    judge.spawn();
    judge.wait_settled(&ms, N as i64, SETTLE);
    let t = tally(&ms, &players, &sent);
    assert_eq!(t.answers, N, "{t:?}");
    assert_eq!(judge.failures(), Vec::<String>::new());
    assert!(
        t.lost.is_empty() && t.resent.is_empty() && t.reprocessed.is_empty() && t.stray.is_empty(),
        "{t:?}"
    );
}

#[test]
fn deliver_stores_a_mail_the_running_daemon_answers_and_exits_75_without_a_store() {
    let Some(ms) = MailSystem::start_or_skip(
        "deliver_stores_a_mail_the_running_daemon_answers_and_exits_75_without_a_store",
    ) else {
        return;
    };
    let tmp = TempDir::new("deliver");
    let judge = Judge::start(&ms, tmp.path(), &Opts::default());
    let player = ms.address("piped");
    let id = new_message_id();
    let raw = order_mail(&player, JUDGE_ADDRESS, &id, "piped", "A(Lon)-Yor\r\n");
    let deliver = |config: &std::path::Path, raw: &[u8]| {
        use std::io::Write;
        let mut child = std::process::Command::new(BIN)
            .arg("deliver")
            .arg("--config")
            .arg(config)
            .env_remove("RUST_LOG")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // A deliver that fails early may exit before it reads: a broken
        // pipe then, and its exit status says why.
        let _ = child.stdin.take().unwrap().write_all(raw);
        child.wait_with_output().unwrap()
    };

    // Stored while the daemon runs (it holds the same store), answered.
    let out = deliver(&judge.config, &raw);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let got = ms
        .wait_for_blocking(&player, 1, SETTLE)
        .unwrap_or_else(|e| panic!("{e}\n{}", judge.log_tail(30)));
    assert_eq!(parse_answer(&player, &got[0]).in_reply_to, id);
    // The same mail again (the mail system retried): stored once, one answer.
    let out = deliver(&judge.config, &raw);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let c = judge.wait_settled(&ms, 1, SETTLE);
    assert_eq!((c.inbound, c.outbox), (1, 1), "{c:?}");
    assert_eq!(ms.fetch_all_blocking(&player).unwrap().len(), 1);

    // A store that cannot be opened (its directory is a file): 75, so the
    // mail system keeps the mail and tries again later.
    let blocker = tmp.path().join("not-a-directory");
    std::fs::write(&blocker, "").unwrap();
    let bad = tmp.path().join("bad.toml");
    std::fs::write(
        &bad,
        format!(
            "[store]\npath = \"{}\"\n",
            blocker.join("store.sqlite").display()
        ),
    )
    .unwrap();
    let out = deliver(&bad, &raw);
    assert_eq!(out.status.code(), Some(75), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cannot open the store"),
        "{out:?}"
    );
    // An unreadable configuration is a temporary failure too.
    let out = deliver(&tmp.path().join("missing.toml"), &raw);
    assert_eq!(out.status.code(), Some(75), "{out:?}");
}

/// The copy of a mail left in the inbox Maildir's `cur/` once it is
/// stored has its passwords masked, as the store's copy has; copies an
/// older judge left there in clear are masked when the judge starts.
#[test]
fn the_copies_in_the_inbox_maildir_keep_no_password() {
    let tmp = TempDir::new("maildir-mask");
    let dir = tmp.path();
    let inbox = zinejudge::testing::mail::maildir::Maildir::open(&dir.join("in")).expect("inbox");
    // An older judge's copy, password in clear.
    std::fs::write(
        dir.join("in/cur/old.eml:2,S"),
        "From: ann@example.test\r\nMessage-ID: <old@x>\r\n\r\nJOIN g Old-Secret-1 France\r\n",
    )
    .expect("old copy");
    let judge = Judge::start_with(dir, &maildir_config(dir, ""));
    inbox
        .deliver(
            "m1.eml",
            b"From: bob@example.test\r\nSubject: SIGNON England g New-Secret-2\r\nMessage-ID: <m1@x>\r\n\r\nhello\r\nSIGNON England g New-Secret-2\r\nA Lvp-Yor\r\n",
        )
        .expect("deliver");
    wait_until(
        "the mail is stored and its copy in cur/",
        Duration::from_secs(60),
        || {
            std::fs::read_dir(dir.join("in/cur"))
                .map(|d| d.count() == 2)
                .unwrap_or(false)
                && std::fs::read_dir(dir.join("in/new"))
                    .map(|d| d.count() == 0)
                    .unwrap_or(false)
        },
    );
    wait_until("the old copy masked", Duration::from_secs(60), || {
        !String::from_utf8_lossy(&std::fs::read(dir.join("in/cur/old.eml:2,S")).unwrap_or_default())
            .contains("Old-Secret-1")
    });
    for e in std::fs::read_dir(dir.join("in/cur")).expect("cur") {
        let text = String::from_utf8_lossy(&std::fs::read(e.expect("entry").path()).expect("copy"))
            .into_owned();
        assert!(
            !text.contains("New-Secret-2") && !text.contains("Old-Secret-1"),
            "{text}"
        );
    }
    let copy = std::fs::read_to_string(dir.join("in/cur/m1.eml:2,S")).expect("the copy");
    assert!(
        copy.contains("A Lvp-Yor") && copy.contains("SIGNON ********"),
        "{copy}"
    );
    drop(judge);
}
