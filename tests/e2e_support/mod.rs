//! A post office for end-to-end games through the real mail system and the
//! real daemon: players' mails go in over SMTP (port 25), the judge
//! (`zinejudge run`) reads them over IMAPS and answers through submission,
//! and every address's INBOX is read back over IMAPS.
//!
//! [`Post`] keeps, for every address it watches, how many of its mails the
//! test has already looked at. Each [`Step`] (a command mail, or a wait for
//! the judge's clock) waits until the judge has processed everything and
//! the mail system has delivered everything, then takes the new mails of
//! *every* watched address: the test says exactly which subjects each
//! address got ([`Step::expect`]), so no mail goes unchecked, and
//! [`Post::finish`] makes sure nothing arrived afterwards.
//!
//! Every mail is also checked for what holds of all the judge's mail: it
//! comes from the judge, is addressed to its reader alone (players never see
//! each other's addresses), is marked `Auto-Submitted`, has a Message-ID of
//! the judge's domain, and no line longer than 72 characters. Replies are
//! threaded: exactly one per command mail, to its sender, `Re:` its
//! subject, with `In-Reply-To` and `References` naming it.

#![allow(dead_code)]

use crate::daemon_common::{Judge, new_message_id, order_mail, send_all};
use crate::support::{Account, JUDGE_ADDRESS, MailSystem, block_on};
use futures::TryStreamExt;
use mail_parser::{HeaderValue, MessageParser, MimeHeaders};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// How long one step may take before the test gives up.
pub const STEP_TIMEOUT: Duration = Duration::from_secs(60);

/// An attachment of a mail.
#[derive(Clone)]
pub struct Attachment {
    /// Its file name.
    pub name: String,
    /// `type/subtype`.
    pub mime: String,
    /// Its size, decoded, in bytes.
    pub size: usize,
    /// Its contents, decoded.
    pub data: Vec<u8>,
}

impl std::fmt::Debug for Attachment {
    /// Without the contents, which would drown a failing test's message.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Attachment")
            .field("name", &self.name)
            .field("mime", &self.mime)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

/// A mail the judge sent, as its reader got it.
#[derive(Clone, Debug)]
pub struct Mail {
    /// Whose mailbox it is in.
    pub owner: String,
    /// The addresses in `To`.
    pub to: Vec<String>,
    /// `From`: the address.
    pub from: String,
    /// `From`: the display name.
    pub from_name: String,
    /// Its Message-ID.
    pub message_id: String,
    /// `In-Reply-To`.
    pub in_reply_to: Option<String>,
    /// `References`.
    pub references: Vec<String>,
    /// `Auto-Submitted`.
    pub auto_submitted: String,
    /// Subject.
    pub subject: String,
    /// The text, with `\n` line ends.
    pub body: String,
    /// The attachments.
    pub attachments: Vec<Attachment>,
}

/// A line with its runs of blanks made one space, trimmed: column layout
/// does not matter to the checks.
pub fn norm(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Mail {
    /// Parse a raw mail found in `owner`'s mailbox.
    pub fn parse(owner: &str, raw: &[u8]) -> Mail {
        let m = MessageParser::default()
            .parse(raw)
            .unwrap_or_else(|| panic!("unparsable mail: {}", String::from_utf8_lossy(raw)));
        let texts = |v: Option<&HeaderValue>| -> Vec<String> {
            match v {
                Some(HeaderValue::Text(t)) => vec![t.to_string()],
                Some(HeaderValue::TextList(l)) => l.iter().map(|s| s.to_string()).collect(),
                _ => Vec::new(),
            }
        };
        let from = m.from().and_then(|f| f.first());
        Mail {
            owner: owner.to_string(),
            to: m
                .to()
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.address())
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
            from: from
                .and_then(|a| a.address())
                .unwrap_or_default()
                .to_string(),
            from_name: from.and_then(|a| a.name()).unwrap_or_default().to_string(),
            message_id: m.message_id().unwrap_or_default().to_string(),
            in_reply_to: texts(m.header("In-Reply-To")).into_iter().next(),
            references: texts(m.header("References")),
            auto_submitted: m
                .header_raw("Auto-Submitted")
                .unwrap_or_default()
                .trim()
                .to_string(),
            subject: m.subject().unwrap_or_default().to_string(),
            body: m
                .body_text(0)
                .map(|b| b.replace("\r\n", "\n"))
                .unwrap_or_default(),
            attachments: m
                .attachments()
                .map(|a| Attachment {
                    name: a.attachment_name().unwrap_or_default().to_string(),
                    mime: a
                        .content_type()
                        .map(|c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or_default()))
                        .unwrap_or_default(),
                    size: a.contents().len(),
                    data: a.contents().to_vec(),
                })
                .collect(),
        }
    }

    /// Whether some line of the body reads `line` (blanks normalised).
    pub fn has_line(&self, line: &str) -> bool {
        let want = norm(line);
        self.body.lines().any(|l| norm(l) == want)
    }

    /// Whether the body contains `text`, blanks and line ends normalised
    /// (so a sentence the judge wrapped over two lines is still found).
    pub fn mentions(&self, text: &str) -> bool {
        norm(&self.body).contains(&norm(text))
    }

    /// Panic unless every one of `lines` is a whole line of the body.
    #[track_caller]
    pub fn lines(&self, lines: &[&str]) -> &Mail {
        for l in lines {
            assert!(
                self.has_line(l),
                "{} (\"{}\"): no line {l:?} in:\n{}",
                self.owner,
                self.subject,
                self.body
            );
        }
        self
    }

    /// Panic unless the body mentions every one of `texts`.
    #[track_caller]
    pub fn says(&self, texts: &[&str]) -> &Mail {
        for t in texts {
            assert!(
                self.mentions(t),
                "{} (\"{}\"): {t:?} not found in:\n{}",
                self.owner,
                self.subject,
                self.body
            );
        }
        self
    }

    /// Panic if the body mentions any of `texts`.
    #[track_caller]
    pub fn never_says(&self, texts: &[&str]) -> &Mail {
        for t in texts {
            assert!(
                !self.mentions(t),
                "{} (\"{}\"): {t:?} should not be there:\n{}",
                self.owner,
                self.subject,
                self.body
            );
        }
        self
    }

    /// The rest of the first line starting with `prefix`.
    #[track_caller]
    pub fn after(&self, prefix: &str) -> String {
        self.body
            .lines()
            .find_map(|l| l.trim().strip_prefix(prefix))
            .unwrap_or_else(|| {
                panic!(
                    "{}: no line starting {prefix:?} in:\n{}",
                    self.owner, self.body
                )
            })
            .trim()
            .to_string()
    }
}

/// What a step brought: the reply to its command mail (if it was one) and
/// every other new mail of every watched address.
#[derive(Debug)]
pub struct Step {
    /// What the step was, for messages.
    pub what: String,
    /// The reply to the command mail.
    pub reply: Option<Mail>,
    /// The other new mails, by address (every watched address is a key).
    pub got: BTreeMap<String, Vec<Mail>>,
    /// The answer to the mail a confirmation let through ([`Post::confirm`]).
    pub carried: Option<Mail>,
}

/// Whether `subject` matches `pattern`: equal, or, when the pattern ends
/// with `*`, starting with the rest.
fn subject_matches(pattern: &str, subject: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => subject.starts_with(prefix),
        None => subject == pattern,
    }
}

impl Step {
    /// The reply to the command mail.
    #[track_caller]
    pub fn reply(&self) -> &Mail {
        self.reply
            .as_ref()
            .unwrap_or_else(|| panic!("{}: not a command mail", self.what))
    }

    /// Check that each address got exactly the mails with these subjects
    /// (besides the reply), in any order, and every address not named got
    /// nothing. A subject ending with `*` matches by prefix.
    #[track_caller]
    pub fn expect(&self, want: &[(&str, &[&str])]) -> &Step {
        for (addr, mails) in &self.got {
            let wanted: Vec<&str> = want
                .iter()
                .filter(|(a, _)| a.eq_ignore_ascii_case(addr))
                .flat_map(|(_, s)| s.iter().copied())
                .collect();
            let mut left: Vec<&str> = mails.iter().map(|m| m.subject.as_str()).collect();
            let mut missing = Vec::new();
            for w in &wanted {
                match left.iter().position(|s| subject_matches(w, s)) {
                    Some(i) => {
                        left.remove(i);
                    }
                    None => missing.push(*w),
                }
            }
            assert!(
                missing.is_empty() && left.is_empty(),
                "{}: {addr} should have got {wanted:?} but got {:?} (missing {missing:?}, \
                 unexpected {left:?})",
                self.what,
                mails.iter().map(|m| &m.subject).collect::<Vec<_>>()
            );
        }
        for (addr, _) in want {
            assert!(
                self.got.keys().any(|a| a.eq_ignore_ascii_case(addr)),
                "{}: {addr} is not watched",
                self.what
            );
        }
        self
    }

    /// The one mail `addr` got with `subject` (a `*` pattern allowed).
    #[track_caller]
    pub fn get(&self, addr: &str, subject: &str) -> &Mail {
        let found: Vec<&Mail> = self
            .got
            .get(addr)
            .unwrap_or_else(|| panic!("{}: {addr} is not watched", self.what))
            .iter()
            .filter(|m| subject_matches(subject, &m.subject))
            .collect();
        assert_eq!(
            found.len(),
            1,
            "{}: {addr} got {} mails \"{subject}\"",
            self.what,
            found.len()
        );
        found[0]
    }

    /// Every mail of the step with `subject`, whoever got it.
    pub fn all(&self, subject: &str) -> Vec<&Mail> {
        self.got
            .values()
            .flatten()
            .filter(|m| subject_matches(subject, &m.subject))
            .collect()
    }

    /// The mails `addr` got with a subject matching `subject`.
    pub fn of(&self, addr: &str, subject: &str) -> Vec<&Mail> {
        self.got
            .get(addr)
            .map(|v| {
                v.iter()
                    .filter(|m| subject_matches(subject, &m.subject))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// The code of a request to confirm an address, from its Subject.
pub fn confirm_code(subject: &str) -> Option<String> {
    let at = subject.find("[CONFIRM ")?;
    let rest = &subject[at + "[CONFIRM ".len()..];
    Some(rest.split(']').next()?.trim().to_string())
}

/// The players' side of the mail system, and the bookkeeping of what each
/// address has been seen to receive.
pub struct Post<'a> {
    /// The mail system.
    pub ms: &'a MailSystem,
    /// The daemon.
    pub judge: &'a Judge,
    /// The judge's display name, as its mail must carry it.
    pub judge_name: String,
    watched: Vec<String>,
    seen: BTreeMap<String, usize>,
    sent: i64,
    /// How long each step took: (what, seconds).
    pub timings: Vec<(String, f64)>,
    /// Send through submission (port 587: STARTTLS, then AUTH as the
    /// sender), as a player's mail program does, instead of plain SMTP
    /// on port 25, as a player's mail server does.
    pub submission: bool,
}

impl<'a> Post<'a> {
    /// A post office watching `addresses`.
    pub fn new(ms: &'a MailSystem, judge: &'a Judge, judge_name: &str, addresses: &[&str]) -> Self {
        let watched: Vec<String> = addresses.iter().map(|a| a.to_string()).collect();
        Post {
            ms,
            judge,
            judge_name: judge_name.to_string(),
            seen: watched.iter().map(|a| (a.clone(), 0)).collect(),
            watched,
            sent: 0,
            timings: Vec::new(),
            submission: false,
        }
    }

    /// How many mails `addr` has been seen to receive so far.
    pub fn seen(&self, addr: &str) -> usize {
        self.seen.get(addr).copied().unwrap_or(0)
    }

    /// How many command mails were sent so far.
    pub fn sent(&self) -> i64 {
        self.sent
    }

    /// Send a mail from `from` to the judge over SMTP; its Message-ID.
    pub fn send(&mut self, from: &str, subject: &str, body: &str) -> String {
        let id = new_message_id();
        let raw = order_mail(
            from,
            JUDGE_ADDRESS,
            &id,
            subject,
            &body.replace("\r\n", "\n").replace('\n', "\r\n"),
        );
        if self.submission {
            block_on(
                self.ms
                    .send_submission(&Account::new(from), JUDGE_ADDRESS, &raw),
            )
            .unwrap_or_else(|e| panic!("{from} sending through submission: {e}"));
        } else {
            send_all(
                self.ms,
                &[(from.to_string(), JUDGE_ADDRESS.to_string(), raw)],
                1,
            );
        }
        self.sent += 1;
        id
    }

    /// Send a command mail and take what it brought, once the judge and the
    /// mail system are done with it.
    #[track_caller]
    pub fn mail(&mut self, from: &str, subject: &str, body: &str) -> Step {
        self.mail_then(from, subject, body, &[])
    }

    /// [`Post::mail`], also waiting until each `(address, subject)` of
    /// `also` has arrived (mail the judge's clock sends soon after).
    #[track_caller]
    pub fn mail_then(
        &mut self,
        from: &str,
        subject: &str,
        body: &str,
        also: &[(&str, &str)],
    ) -> Step {
        self.mail_confirming(from, subject, body, also, true)
    }

    /// [`Post::mail`] without confirming: a mail the judge holds for its
    /// From to confirm has the request for its reply.
    #[track_caller]
    pub fn mail_unconfirmed(&mut self, from: &str, subject: &str, body: &str) -> Step {
        self.mail_confirming(from, subject, body, &[], false)
    }

    /// A mail from `from` that confirms the held mail `request` asks
    /// about (by hand: a CONFIRM line, a reply keeping the Subject): the
    /// step's reply answers this mail, and `carried` the held one, now
    /// carried out.
    #[track_caller]
    pub fn confirm(&mut self, from: &str, subject: &str, body: &str, request: &Mail) -> Step {
        let held = request
            .in_reply_to
            .clone()
            .expect("a request answers the mail it holds");
        let mut step = self.mail_held(from, subject, body, Some(&held));
        assert!(
            step.carried.is_some(),
            "{}: the held mail was not carried out",
            step.what
        );
        step.what = format!("{} (confirming)", step.what);
        step
    }

    #[track_caller]
    fn mail_held(&mut self, from: &str, subject: &str, body: &str, held: Option<&str>) -> Step {
        self.mail_with(from, subject, body, &[], false, held)
    }

    #[track_caller]
    fn mail_confirming(
        &mut self,
        from: &str,
        subject: &str,
        body: &str,
        also: &[(&str, &str)],
        confirm: bool,
    ) -> Step {
        self.mail_with(from, subject, body, also, confirm, None)
    }

    #[track_caller]
    fn mail_with(
        &mut self,
        from: &str,
        subject: &str,
        body: &str,
        also: &[(&str, &str)],
        confirm: bool,
        held: Option<&str>,
    ) -> Step {
        let t = Instant::now();
        let id = self.send(from, subject, body);
        let what = format!("mail from {from} \"{subject}\"");
        let mut step = self.settle(&what, also, STEP_TIMEOUT);
        if let Some(held) = held
            && let Some(mine) = step.got.get_mut(from)
            && let Some(i) = mine
                .iter()
                .position(|m| m.in_reply_to.as_deref() == Some(held))
        {
            step.carried = Some(mine.remove(i));
        }
        // A mail that registers an address new to the judge is held until
        // the address confirms: its owner answers the request at once, and
        // the step is what the mail then caused.
        let code = step
            .got
            .get(from)
            .and_then(|ms| ms.iter().find_map(|m| confirm_code(&m.subject)))
            .filter(|_| confirm);
        if let Some(code) = code {
            if let Some(ms) = step.got.get_mut(from) {
                ms.retain(|m| confirm_code(&m.subject).is_none());
            }
            let cid = self.send(from, "confirming", &format!("CONFIRM {code}"));
            let more = self.settle(&what, also, STEP_TIMEOUT);
            for (addr, mails) in more.got {
                step.got.entry(addr).or_default().extend(
                    mails
                        .into_iter()
                        .filter(|m| m.in_reply_to.as_deref() != Some(cid.as_str())),
                );
            }
        }
        // The reply: exactly one, to the sender, threaded.
        let mine = step
            .got
            .get_mut(from)
            .unwrap_or_else(|| panic!("{what}: the sender {from} is not watched"));
        let replies: Vec<usize> = (0..mine.len())
            .filter(|&i| mine[i].in_reply_to.as_deref() == Some(id.as_str()))
            .collect();
        assert_eq!(
            replies.len(),
            1,
            "{what}: {} replies; {from} got {:#?}",
            replies.len(),
            mine
        );
        let reply = mine.remove(replies[0]);
        if confirm || confirm_code(&reply.subject).is_none() {
            // A reply's reply is not "Re: Re:".
            let want = if subject.starts_with("Re: ") {
                subject.to_string()
            } else {
                format!("Re: {subject}")
            };
            assert_eq!(reply.subject, want, "{what}");
        }
        assert_eq!(reply.references.last(), Some(&id), "{what}: References");
        assert_eq!(reply.auto_submitted, "auto-replied", "{what}");
        // No other mail of the step answers anything.
        for m in step.got.values().flatten() {
            assert!(
                m.in_reply_to.is_none(),
                "{what}: {} got a stray reply {m:#?}",
                m.owner
            );
        }
        step.reply = Some(reply);
        self.timings.push((what, t.elapsed().as_secs_f64()));
        step
    }

    /// No mail sent: wait for what the judge's clock sends, each `(address,
    /// subject)` of `also`, within `timeout`, and take it.
    #[track_caller]
    pub fn clock(&mut self, what: &str, also: &[(&str, &str)], timeout: Duration) -> Step {
        let t = Instant::now();
        let step = self.settle(what, also, timeout);
        for m in step.got.values().flatten() {
            assert!(m.in_reply_to.is_none(), "{what}: a stray reply {m:#?}");
        }
        self.timings
            .push((format!("clock: {what}"), t.elapsed().as_secs_f64()));
        step
    }

    /// Wait until the judge processed every mail sent, each of `also` has
    /// arrived, and everything the judge sent is delivered; then take the
    /// new mail of every watched address.
    #[track_caller]
    fn settle(&mut self, what: &str, also: &[(&str, &str)], timeout: Duration) -> Step {
        let deadline = Instant::now() + timeout;
        self.judge.wait_settled(self.ms, self.sent, timeout);
        for (addr, subject) in also {
            loop {
                let new = self.fetch_new(&[addr.to_string()]);
                if new[0].iter().any(|m| subject_matches(subject, &m.subject)) {
                    break;
                }
                assert!(
                    Instant::now() < deadline,
                    "{what}: {addr} did not get \"{subject}\" within {timeout:?}; it got {:?}\n\
                     judge log:\n{}",
                    new[0].iter().map(|m| &m.subject).collect::<Vec<_>>(),
                    self.judge.log_tail(40)
                );
                std::thread::sleep(Duration::from_millis(200));
            }
        }
        self.judge.wait_settled(self.ms, self.sent, timeout);
        let new = self.fetch_new(&self.watched);
        let mut got = BTreeMap::new();
        for (addr, mails) in self.watched.iter().zip(new) {
            *self.seen.get_mut(addr).expect("watched") += mails.len();
            for m in &mails {
                self.check_common(what, m);
            }
            got.insert(addr.clone(), mails);
        }
        Step {
            what: what.to_string(),
            reply: None,
            got,
            carried: None,
        }
    }

    /// What holds of every mail the judge sends.
    #[track_caller]
    fn check_common(&self, what: &str, m: &Mail) {
        assert_eq!(m.from, JUDGE_ADDRESS, "{what}: From of {m:#?}");
        assert_eq!(m.from_name, self.judge_name, "{what}: From name");
        assert!(
            m.to.len() == 1 && m.to[0].eq_ignore_ascii_case(&m.owner),
            "{what}: {} got a mail addressed to {:?}",
            m.owner,
            m.to
        );
        assert!(
            m.message_id.ends_with("@example.test"),
            "{what}: Message-ID {}",
            m.message_id
        );
        let want = if m.in_reply_to.is_some() {
            "auto-replied"
        } else {
            "auto-generated"
        };
        assert_eq!(m.auto_submitted, want, "{what}: Auto-Submitted of {m:#?}");
        // Signed after RFC 3676's separator, `-- ` with its space, which
        // mail readers know a signature by (issue #51).
        assert!(
            m.body.lines().any(|l| l == "-- ") && !m.body.lines().any(|l| l == "--"),
            "{what}: {} (\"{}\") is not signed after `-- `:\n{}",
            m.owner,
            m.subject,
            m.body
        );
        for l in m.body.lines() {
            assert!(
                l.chars().count() <= 72 && !l.contains('\t'),
                "{what}: a line longer than 72 characters for {} (\"{}\"): {l:?}",
                m.owner,
                m.subject
            );
        }
    }

    /// The mails of each of `addrs` not yet seen, parsed (the bookkeeping
    /// is not moved).
    fn fetch_new(&self, addrs: &[String]) -> Vec<Vec<Mail>> {
        let ms = self.ms;
        let jobs = addrs.iter().map(|a| {
            let from = self.seen(a);
            async move {
                let raws = fetch_from(ms, a, from)
                    .await
                    .unwrap_or_else(|e| panic!("IMAP for {a}: {e}"));
                raws.iter().map(|r| Mail::parse(a, r)).collect::<Vec<_>>()
            }
        });
        block_on(futures::future::join_all(jobs))
    }

    /// After the last step: wait a few clock ticks, then check that no
    /// watched address got anything the test has not looked at, that the
    /// judge processed each mail sent, failed to send nothing and still
    /// runs, and that nothing came back to the judge.
    #[track_caller]
    pub fn finish(&mut self, quiet: Duration) -> String {
        std::thread::sleep(quiet);
        let c = self.judge.wait_settled(self.ms, self.sent, STEP_TIMEOUT);
        assert_eq!(c.inbound, self.sent, "{c:?}");
        assert_eq!(c.failed, 0, "{c:?}");
        let mut report = String::new();
        let all = self.fetch_new(&self.watched);
        for (addr, extra) in self.watched.iter().zip(&all) {
            assert!(
                extra.is_empty(),
                "{addr} got mail after the last step: {:?}",
                extra.iter().map(|m| &m.subject).collect::<Vec<_>>()
            );
            let _ = writeln!(report, "  {addr}: {} mails", self.seen(addr));
        }
        // Every answer reached someone watched: the outbox holds exactly
        // the mails the watched addresses got.
        let total: usize = self.seen.values().sum();
        assert_eq!(
            c.outbox as usize, total,
            "the judge sent {} mails, the watched addresses got {total}",
            c.outbox
        );
        // Nothing bounced back to the judge.
        let inbox = block_on(async {
            let mut s = self.ms.imap_login(JUDGE_ADDRESS).await.expect("IMAP login");
            let n = s.examine("INBOX").await.map_or(0, |m| m.exists as usize);
            let _ = s.logout().await;
            n
        });
        assert_eq!(inbox, 0, "mail left in (or bounced to) the judge's INBOX");
        report
    }
}

/// The messages of `address`'s INBOX after the first `from`, raw, in order.
async fn fetch_from(
    ms: &MailSystem,
    address: &str,
    from: usize,
) -> crate::support::mailsys::Result<Vec<Vec<u8>>> {
    let mut s = ms.imap_login(address).await?;
    let mailbox = s.examine("INBOX").await?;
    let exists = mailbox.exists as usize;
    let mut out = Vec::new();
    if exists > from {
        let fetches: Vec<_> = s
            .fetch(format!("{}:*", from + 1), "BODY.PEEK[]")
            .await?
            .try_collect()
            .await?;
        let mut messages: Vec<(u32, Vec<u8>)> = fetches
            .iter()
            .map(|f| (f.message, f.body().unwrap_or_default().to_vec()))
            .collect();
        messages.sort_by_key(|(n, _)| *n);
        out = messages.into_iter().map(|(_, m)| m).collect();
    }
    let _ = s.logout().await;
    Ok(out)
}
