//! Mail in and out, knowing nothing of games.
//!
//! [`read`] turns raw bytes into an [`Inbound`] mail: who wrote, what text
//! the body holds (text/plain preferred, HTML turned into text, attachments
//! ignored, any charset), and whether the judge may answer it at all (never
//! bounces, auto-replies, mailing lists, or its own mail: that is how mail
//! loops start). [`build`] turns an [`Outgoing`] mail into bytes with the
//! headers a well-behaved autoresponder sets (RFC 3834). The transports
//! (IMAP, Maildir, SMTP) live in the submodules.

pub(crate) mod clean;
pub(crate) mod html;
pub(crate) mod imap;
pub(crate) mod maildir;
pub(crate) mod smtp;
pub(crate) mod tls;

use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use mail_parser::{HeaderValue as ParsedValue, MessageParser, MimeHeaders};
use std::time::{Duration, SystemTime};

pub(crate) use clean::{clean_text, unsafe_char};

/// Makes the copy of a received mail to keep wherever the mail stays beside
/// the store (a Maildir's `cur/`, an IMAP processed mailbox): its passwords
/// masked as the store's copy has them, or `None` when it holds none and
/// may stay as it came. Which words are passwords is the command
/// language's business; the transports only apply it.
pub(crate) type Masker = std::sync::Arc<dyn Fn(&[u8]) -> Option<Vec<u8>> + Send + Sync>;

/// The first line of every answer the judge sends. A mail the judge reads
/// stops being read at this line (when it is not quoted): the judge's own
/// answer, sent back whole by an echoing robot or under a reply, is never
/// read as commands, and a mail that begins with it is the judge's own
/// answer come back, which is not answered. So a robot that echoes what
/// it gets is answered once at most (its echo of a results mail is read
/// and answered; its echo of that answer is not). It tells a person who
/// replies where to write, too. Results, press and notices go without it:
/// their look is the zine's.
pub const JUDGE_MARK: &str = "----- The judge's mail: nothing below this line is read -----";

/// A mail address with an optional display name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    /// Display name.
    pub name: Option<String>,
    /// `user@domain`, as written.
    pub email: String,
}

/// Why the judge will not answer a mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Silence {
    /// A delivery status notification.
    Bounce,
    /// An autoresponder's mail (RFC 3834 `Auto-Submitted`, vacation
    /// notices by their subjects, `Precedence: bulk`, robot addresses such
    /// as `noreply@`).
    AutoReply,
    /// A mailing list's own mail: its robot addresses (`-request@`,
    /// `-bounces@`, `owner-`) or a digest. A member's mail that came
    /// through a list is read (see [`Inbound::via_list`]).
    MailingList,
    /// The judge's own mail come back.
    FromJudge,
    /// No sender to answer.
    NoSender,
}

impl Silence {
    /// Words for the log and the store.
    pub fn as_str(self) -> &'static str {
        match self {
            Silence::Bounce => "bounce",
            Silence::AutoReply => "auto-reply",
            Silence::MailingList => "mailing list",
            Silence::FromJudge => "the judge's own mail",
            Silence::NoSender => "no sender",
        }
    }
}

/// A received mail, decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inbound {
    /// Message-ID without angle brackets.
    pub message_id: String,
    /// Where answers go: `Reply-To`, else `From`; `From` for mail that
    /// came through a list (its Reply-To is the list).
    pub reply_to: Option<Address>,
    /// The `From` address: who the mail is from, for everything that
    /// registers an address.
    pub from: Option<Address>,
    /// The mail came through a mailing list (`List-Id`, `Precedence:
    /// list`): it is answered to its author only, never to the list.
    pub via_list: bool,
    /// Subject (the judge ignores it for commands, but echoes it).
    pub subject: String,
    /// The body as plain text.
    pub text: String,
    /// `References` of the mail, for threading the answer.
    pub references: Vec<String>,
    /// Set when the judge must stay silent.
    pub silence: Option<Silence>,
    /// What says a robot sent it, if anything does (`Auto-Submitted:
    /// auto-replied`, `List-Id`, an autoresponder's Subject...): such a
    /// mail may be answered, when it is not silenced, but never confirms
    /// anything (see `trust::confirm`).
    pub robot: Option<String>,
    /// The `Authentication-Results` fields of the header, each with its
    /// place in the header (0: the top field), for `trust::authres`.
    pub auth_results: Vec<(usize, String)>,
    /// The work the mail may still cost (see [`Budget`]): what reading it
    /// took is already spent.
    pub budget: Budget,
}

/// How much work one mail may cost: the CPU time of the thread doing it,
/// counted while the mail's work runs ([`Budget::resume`] to
/// [`Budget::pause`]), against a limit. The daemon makes one for each mail
/// (`[limits] work-seconds`) and the mail carries it in [`Inbound::budget`];
/// the slow steps look at it ([`Budget::check`]): the HTML converter
/// between pieces of the body, the command reader between lines. A mail
/// whose work goes over is failed with that cause, its work rolled back.
///
/// CPU time rather than the wall clock, so that a machine busy with other
/// work never fails a mail that would have been done in time; what waits
/// without working (a lock, the disk) is left to the systemd watchdog. The
/// clock read is the calling thread's: a budget is checked on the thread
/// that does the mail's work (the daemon's processing thread).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// `None`: no limit.
    limit: Option<Duration>,
    /// Spent before the current run.
    spent: Duration,
    /// The thread's CPU time when the current run began; `None` when
    /// paused.
    since: Option<Duration>,
}

/// A mail's work went over its [`Budget`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("took more than {} s of work", seconds(*.limit))]
pub struct OverBudget {
    /// The budget it went over.
    pub limit: Duration,
}

/// Seconds as a person writes them: `10`, `0.5`.
pub(crate) fn seconds(d: Duration) -> String {
    if d.subsec_nanos() == 0 {
        d.as_secs().to_string()
    } else {
        format!("{}", d.as_secs_f64())
    }
}

/// The CPU time of the calling thread so far (zero if the system cannot
/// tell, and then no budget runs out: the watchdog is still there).
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec we own and reads
    // nothing else.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    if r != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        u64::try_from(t.tv_sec).unwrap_or(0),
        u32::try_from(t.tv_nsec).unwrap_or(0),
    )
}

impl Budget {
    /// No limit: for reading a mail outside the daemon (the command-line
    /// tools, tests).
    pub fn unlimited() -> Budget {
        Budget {
            limit: None,
            spent: Duration::ZERO,
            since: None,
        }
    }

    /// `limit` of work, counted from now.
    pub fn start(limit: Duration) -> Budget {
        Budget {
            limit: Some(limit),
            spent: Duration::ZERO,
            since: Some(thread_cpu()),
        }
    }

    /// Stop counting (the mail waits for its turn).
    pub fn pause(&mut self) {
        if let Some(since) = self.since.take() {
            self.spent += thread_cpu().saturating_sub(since);
        }
    }

    /// Count again, on the calling thread.
    pub fn resume(&mut self) {
        if self.since.is_none() {
            self.since = Some(thread_cpu());
        }
    }

    /// The work counted so far.
    pub fn spent(&self) -> Duration {
        self.spent
            + self
                .since
                .map_or(Duration::ZERO, |s| thread_cpu().saturating_sub(s))
    }

    /// An error once more than the limit was spent.
    pub fn check(&self) -> Result<(), OverBudget> {
        match self.limit {
            Some(limit) if self.spent() > limit => Err(OverBudget { limit }),
            _ => Ok(()),
        }
    }
}

/// The longest Message-ID kept as written; longer ones are replaced by a
/// hash of themselves, so that the judge's `In-Reply-To` and `References`
/// lines stay far within RFC 5322's 998 characters.
const MAX_ID: usize = 250;

/// The longest subject kept (characters); the rest is cut.
const MAX_SUBJECT: usize = 200;

/// The longest display name kept (characters).
const MAX_NAME: usize = 100;

/// Text copied from a sender's header made safe to put in the judge's own
/// headers: control characters (line breaks above all, which let a sender
/// write headers of their own or broke the mail library) become spaces,
/// runs of space become one, and the text is cut to `max` characters.
pub(crate) fn header_text(s: &str, max: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max));
    let mut space = false;
    for c in s.chars() {
        let c = if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
            ' '
        } else {
            c
        };
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        if out.chars().count() >= max {
            break;
        }
        out.push(c);
    }
    out
}

/// A message id as it may be written in the judge's headers: printable
/// ASCII without spaces or angle brackets, at most [`MAX_ID`] characters
/// (a longer one is replaced by a hash of itself). `None` if nothing is
/// left.
pub(crate) fn clean_id(id: &str) -> Option<String> {
    let kept: String = id
        .chars()
        .filter(|c| c.is_ascii_graphic() && !matches!(c, '<' | '>'))
        .collect();
    if kept.is_empty() {
        return None;
    }
    if kept.len() <= MAX_ID {
        return Some(kept);
    }
    let b = kept.as_bytes();
    Some(format!(
        "{:016x}{:016x}@long-message-id.invalid",
        fnv1a(b, 0xcbf2_9ce4_8422_2325),
        fnv1a(b, 0x8422_2325_cbf2_9ce4)
    ))
}

/// The Message-ID of a raw mail; one is made up from a hash of the bytes
/// for mails without one, so the same bytes always get the same id.
pub fn message_id_of(raw: &[u8]) -> String {
    if let Some(m) = MessageParser::default().parse_headers(raw)
        && let Some(id) = m.message_id()
        && let Some(id) = clean_id(id)
    {
        return id;
    }
    format!(
        "{:016x}{:016x}@no-message-id.invalid",
        fnv1a(raw, 0xcbf2_9ce4_8422_2325),
        fnv1a(raw, 0x8422_2325_cbf2_9ce4)
    )
}

/// FNV-1a, 64 bits: a hash that never changes between releases, for
/// made-up Message-IDs.
fn fnv1a(data: &[u8], seed: u64) -> u64 {
    let mut h = seed;
    for &b in data {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn first_address(v: &ParsedValue<'_>) -> Option<Address> {
    let addr = match v {
        ParsedValue::Address(a) => a.first()?,
        _ => return None,
    };
    let email = addr.address()?.trim().to_string();
    if !email.contains('@') {
        return None;
    }
    // An address with control characters or spaces in it is no address.
    if email.chars().any(|c| c.is_control() || c.is_whitespace()) || email.len() > 254 {
        return None;
    }
    Some(Address {
        name: addr
            .name()
            .map(|n| header_text(n, MAX_NAME))
            .filter(|n| !n.is_empty()),
        email,
    })
}

/// Subject prefixes and phrases of autoresponders that set no RFC 3834
/// header (Exchange, webmail vacation notices), in the languages most
/// often met; compared in lower case.
const AUTO_SUBJECTS: &[&str] = &[
    "automatic reply",
    "auto reply",
    "auto-reply",
    "autoreply",
    "auto response",
    "autoresponse",
    "out of office",
    "out of the office",
    "away from the office",
    "abwesenheitsnotiz",
    "automatische antwort",
    "abwesend",
    "réponse automatique",
    "reponse automatique",
    "absence du bureau",
    "respuesta automática",
    "respuesta automatica",
    "fuera de la oficina",
    "risposta automatica",
    "fuori ufficio",
    "automatisch antwoord",
    "afwezigheidsbericht",
    "afwezig",
];

/// Subjects of delivery failure reports from servers that send no DSN.
const BOUNCE_SUBJECTS: &[&str] = &[
    "undeliverable",
    "undelivered mail",
    "delivery status notification",
    "mail delivery failed",
    "delivery failure",
    "returned mail",
    "failure notice",
    "unzustellbar",
    "non remis",
];

/// Whether an address's local part is a robot's: bounces, list robots,
/// addresses that say no reply is read.
fn robot_kind(local: &str) -> Option<Silence> {
    let l = local.to_ascii_lowercase();
    if l == "mailer-daemon"
        || l == "postmaster"
        || l.ends_with("-bounces")
        || l.contains("-bounces+")
    {
        return Some(Silence::Bounce);
    }
    if l.ends_with("-request")
        || l.starts_with("owner-")
        || l.ends_with("-owner")
        || l == "listserv"
        || l == "majordomo"
        || l == "mailman"
    {
        return Some(Silence::MailingList);
    }
    let flat: String = l.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
    if flat == "noreply" || flat == "donotreply" || flat == "autoreply" || flat == "autoresponder" {
        return Some(Silence::AutoReply);
    }
    None
}

/// The text of a mail's first body: its plain text, or an HTML-only mail
/// converted to text ([`html::to_text`]: block elements such as `<div>`,
/// `<p>`, `<br>` and list items become lines, as the writer saw them), in
/// time linear in its size and within `budget`.
fn body_text(m: &mail_parser::Message<'_>, budget: &Budget) -> String {
    if let Some(part) = m.text_part(0)
        && part.is_text_html()
        && let Some(html) = part.text_contents()
    {
        return html::to_text(html, budget);
    }
    let text = m.body_text(0).map(|t| t.into_owned()).unwrap_or_default();
    // Thunderbird and others send `format=flowed` (RFC 3676): a line that
    // ends in a space goes on in the next one, so a long line of orders
    // wrapped by the client is one line again.
    let flowed = m
        .text_part(0)
        .and_then(|p| p.content_type())
        .and_then(|ct| {
            ct.attribute("format")
                .filter(|f| f.eq_ignore_ascii_case("flowed"))
                .map(|_| {
                    ct.attribute("delsp")
                        .is_some_and(|d| d.eq_ignore_ascii_case("yes"))
                })
        });
    let text = match flowed {
        Some(delsp) => unflow(&text, delsp),
        None => text,
    };
    // A lone carriage return (old Macintosh mail) ends a line too.
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text
    }
}

/// Undo RFC 3676's `format=flowed`: join soft-broken lines (those ending
/// in a space, except the signature separator `-- ` and quoted lines,
/// whose quote depth must match, kept simple here: quoted lines are left
/// as they are) and remove space-stuffing.
fn unflow(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut open = false;
    for raw in text.split('\n') {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let quoted = line.starts_with('>');
        let line = if quoted {
            line
        } else {
            line.strip_prefix(' ').unwrap_or(line)
        };
        let soft = !quoted && line.ends_with(' ') && line != "-- ";
        if soft {
            let kept = if delsp { &line[..line.len() - 1] } else { line };
            out.push_str(kept);
            open = true;
        } else {
            out.push_str(line);
            out.push('\n');
            open = false;
        }
    }
    if open {
        out.push('\n');
    }
    // `split` gave one more piece than there were line ends.
    if !text.ends_with('\n') && out.ends_with('\n') {
        out.pop();
    }
    out
}

/// Decode a raw mail. `judge` is the judge's own address (mail from it is
/// never answered). A mail that cannot be parsed at all still yields an
/// [`Inbound`] with whatever could be read. No limit on the work: see
/// [`read_within`].
pub fn read(raw: &[u8], judge: &str) -> Inbound {
    read_within(raw, judge, Budget::unlimited())
}

/// [`read`] within `budget`, which the [`Inbound`] then carries: reading
/// stops converting an HTML body once the budget is spent, and whoever
/// goes on with the mail finds it spent.
pub fn read_within(raw: &[u8], judge: &str, budget: Budget) -> Inbound {
    let message_id = message_id_of(raw);
    let Some(m) = MessageParser::default().parse(raw) else {
        return Inbound {
            message_id,
            reply_to: None,
            from: None,
            via_list: false,
            subject: String::new(),
            text: String::from_utf8_lossy(raw).into_owned(),
            references: Vec::new(),
            silence: Some(Silence::NoSender),
            robot: None,
            auth_results: Vec::new(),
            budget,
        };
    };
    let text = body_text(&m, &budget);
    inbound(&m, message_id, text, judge, budget)
}

/// The header of a raw mail only, as [`read`] reads it, with no text:
/// enough to answer it (who, subject, thread, whether to stay silent)
/// without reading its body, which may be what the judge could not read.
pub(crate) fn read_head(raw: &[u8], judge: &str) -> Inbound {
    let message_id = message_id_of(raw);
    let head = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4)
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n").map(|i| i + 2))
        .unwrap_or(raw.len());
    match MessageParser::default().parse_headers(&raw[..head]) {
        Some(m) => inbound(&m, message_id, String::new(), judge, Budget::unlimited()),
        None => Inbound {
            message_id,
            reply_to: None,
            from: None,
            via_list: false,
            subject: String::new(),
            text: String::new(),
            references: Vec::new(),
            silence: Some(Silence::NoSender),
            robot: None,
            auth_results: Vec::new(),
            budget: Budget::unlimited(),
        },
    }
}

/// The [`Inbound`] of a parsed mail whose body text is `text`.
fn inbound(
    m: &mail_parser::Message<'_>,
    message_id: String,
    text: String,
    judge: &str,
    budget: Budget,
) -> Inbound {
    let from = first_address(m.header("From").unwrap_or(&ParsedValue::Empty));
    let subject = header_text(m.subject().unwrap_or(""), MAX_SUBJECT);
    let references: Vec<String> = match m.header("References") {
        Some(ParsedValue::TextList(l)) => l.iter().filter_map(|s| clean_id(s)).collect(),
        Some(ParsedValue::Text(t)) => clean_id(t).into_iter().collect(),
        _ => Vec::new(),
    };

    let header_text = |name: &str| -> Option<String> {
        m.header_raw(name).map(|v| v.trim().to_ascii_lowercase())
    };
    let from_email = from
        .as_ref()
        .map(|a| a.email.to_ascii_lowercase())
        .unwrap_or_default();
    let local = from_email.split('@').next().unwrap_or("");
    let content_type = header_text("Content-Type").unwrap_or_default();
    let lower_subject = subject.to_lowercase();
    let bare_subject = strip_reply_prefixes(&lower_subject);
    let precedence = header_text("Precedence").unwrap_or_default();
    let via_list = precedence == "list"
        || header_text("List-Id").is_some()
        || header_text("List-Post").is_some()
        || header_text("Mailing-List").is_some();
    let silence = if from.is_none() {
        Some(Silence::NoSender)
    } else if from_email == judge.to_ascii_lowercase() {
        Some(Silence::FromJudge)
    } else if content_type.starts_with("multipart/report")
        || header_text("X-Failed-Recipients").is_some()
        || header_text("Return-Path").is_some_and(|r| r == "<>")
        || robot_kind(local) == Some(Silence::Bounce)
        || BOUNCE_SUBJECTS.iter().any(|b| bare_subject.starts_with(b))
    {
        Some(Silence::Bounce)
    } else if header_text("Auto-Submitted").is_some_and(|v| v != "no")
        || header_text("X-Autoreply").is_some()
        || header_text("X-Autorespond").is_some()
        || matches!(precedence.as_str(), "bulk" | "junk" | "auto_reply")
        || robot_kind(local) == Some(Silence::AutoReply)
        || AUTO_SUBJECTS.iter().any(|a| lower_subject.contains(a))
    {
        Some(Silence::AutoReply)
    } else if robot_kind(local) == Some(Silence::MailingList)
        || content_type.starts_with("multipart/digest")
        || m.parts.iter().any(|p| {
            p.content_type().is_some_and(|c| {
                c.c_type.eq_ignore_ascii_case("multipart")
                    && c.subtype()
                        .is_some_and(|s| s.eq_ignore_ascii_case("digest"))
            })
        })
        || (via_list && lower_subject.contains("digest"))
    {
        Some(Silence::MailingList)
    } else {
        None
    };
    // A list sets Reply-To to itself: its members' mail is answered to
    // them alone.
    let reply_to = if via_list {
        from.clone()
    } else {
        first_address(m.header("Reply-To").unwrap_or(&ParsedValue::Empty)).or_else(|| from.clone())
    };
    let robot = robot_mark(&header_text, &lower_subject, local, via_list);
    let auth_results = m
        .headers()
        .iter()
        .enumerate()
        .filter(|(_, h)| h.name().eq_ignore_ascii_case("Authentication-Results"))
        .map(|(i, h)| {
            let v = m
                .raw_message()
                .get(h.offset_start() as usize..h.offset_end() as usize)
                .unwrap_or_default();
            (i, String::from_utf8_lossy(v).into_owned())
        })
        .collect();
    Inbound {
        message_id,
        reply_to,
        from,
        via_list,
        subject,
        text,
        references,
        silence,
        robot,
        auth_results,
        budget,
    }
}

/// What marks a mail as a robot's (RFC 3834 and the headers robots are
/// seen to set: `Auto-Submitted` other than `no`, `Precedence: bulk`,
/// `junk`, `list` or `auto_reply`, `X-Autoreply`, `X-Autorespond`,
/// `X-Auto-Response-Suppress`, `List-Id`, an empty `Return-Path`, an
/// autoresponder's Subject or address), in words for the log.
fn robot_mark(
    header: &dyn Fn(&str) -> Option<String>,
    lower_subject: &str,
    local: &str,
    via_list: bool,
) -> Option<String> {
    if let Some(v) = header("Auto-Submitted").filter(|v| v != "no") {
        return Some(format!("Auto-Submitted: {v}"));
    }
    if let Some(v) = header("Precedence")
        .filter(|v| matches!(v.as_str(), "bulk" | "junk" | "list" | "auto_reply"))
    {
        return Some(format!("Precedence: {v}"));
    }
    for name in [
        "X-Autoreply",
        "X-Autorespond",
        "X-Auto-Response-Suppress",
        "List-Id",
    ] {
        if header(name).is_some() {
            return Some(name.to_string());
        }
    }
    if header("Return-Path").is_some_and(|r| r == "<>") {
        return Some("an empty Return-Path".into());
    }
    if via_list {
        return Some("a mailing list's headers".into());
    }
    if let Some(a) = AUTO_SUBJECTS.iter().find(|a| lower_subject.contains(*a)) {
        return Some(format!("an autoresponder's Subject (\"{a}\")"));
    }
    robot_kind(local).map(|k| format!("a robot's address ({})", k.as_str()))
}

/// A subject without its `Re:`, `Fwd:`, `AW:`... prefixes.
fn strip_reply_prefixes(s: &str) -> &str {
    let mut s = s.trim_start();
    loop {
        let Some((head, rest)) = s.split_once(':') else {
            return s;
        };
        if head.len() <= 4 && head.chars().all(|c| c.is_alphabetic()) {
            s = rest.trim_start();
        } else {
            return s;
        }
    }
}

/// The answer to `mail`, threaded and addressed to `to`.
pub fn reply_to(mail: &Inbound, to: &Address, body: String) -> Outgoing {
    let subject = if mail.subject.is_empty() {
        "Re: your mail to the judge".to_string()
    } else if mail.subject.to_ascii_lowercase().starts_with("re:") {
        mail.subject.clone()
    } else {
        format!("Re: {}", mail.subject)
    };
    Outgoing {
        to: vec![to.clone()],
        subject,
        body,
        in_reply_to: Some(mail.message_id.clone()),
        references: mail.references.clone(),
        attachments: Vec::new(),
        later: None,
    }
}

/// A mail to each address of `to` (each once, whatever its case), with
/// `subject` and `body`, the body's lines fitted to 72 columns. One mail
/// per recipient: players never see each other's addresses.
pub(crate) fn to_each<S: AsRef<str>>(to: &[S], subject: String, body: String) -> Vec<Outgoing> {
    let mut seen: Vec<String> = Vec::new();
    for t in to {
        let t = t.as_ref();
        if !seen.iter().any(|s| s.eq_ignore_ascii_case(t)) {
            seen.push(t.to_string());
        }
    }
    let body = crate::report::fit72(&body);
    seen.into_iter()
        .map(|email| Outgoing {
            to: vec![Address { name: None, email }],
            subject: subject.clone(),
            body: body.clone(),
            in_reply_to: None,
            references: Vec::new(),
            attachments: Vec::new(),
            later: None,
        })
        .collect()
}

/// Who the judge is, for the headers of its mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The judge's address.
    pub address: String,
    /// Display name.
    pub name: String,
    /// Domain for Message-IDs.
    pub domain: String,
}

/// A file attached to a mail (the map picture).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attached {
    /// File name.
    pub name: String,
    /// MIME type.
    pub mime: String,
    /// Content.
    pub bytes: Vec<u8>,
}

/// A mail the judge sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    /// Recipients.
    pub to: Vec<Address>,
    /// Subject.
    pub subject: String,
    /// Plain-text body.
    pub body: String,
    /// Message-ID of the mail answered, if it answers one.
    pub in_reply_to: Option<String>,
    /// Thread of the mail answered.
    pub references: Vec<String>,
    /// Attachments.
    pub attachments: Vec<Attached>,
    /// Attachments drawn when the mail is sent, not when it is queued
    /// (the pictures of results): the queued mail keeps only this
    /// description, and [`attach`] adds the parts to its bytes at send time.
    pub later: Option<Later>,
}

/// Parts of a queued mail that are made when it is sent: `spec` says what
/// (in the words of whoever queued it), `source` which stored record they
/// are made from (one record serves many mails, as one played phase serves
/// every reader's results).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Later {
    /// The record the parts are made from.
    pub source: i64,
    /// What to make for this mail.
    pub spec: String,
}

/// A failure to build a mail (an address the mail library rejects).
#[derive(Debug, thiserror::Error)]
pub(crate) enum BuildError {
    /// An address is malformed.
    #[error("cannot use address `{0}`")]
    Address(String),
    /// The mail library refused the message.
    #[error("cannot build the mail")]
    Message(#[source] lettre::error::Error),
    /// Parts were to be added to a mail that has no room for them (not
    /// built with [`Outgoing::later`]).
    #[error("the mail was not built to take attachments")]
    NoRoom,
}

/// The MIME boundary of the judge's mail with `message_id`: fixed by the
/// id, so that parts added at send time ([`attach`]) go where the mail
/// library would have put them. `=_` cannot occur in quoted-printable or
/// base64 text, so no part can contain it.
fn boundary_for(message_id: &str) -> String {
    use blake2::{Blake2b512, Digest};
    let d = Blake2b512::digest(message_id.as_bytes());
    let hex: String = d[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("zj=_{hex}")
}

/// Add `parts` to a mail built with [`Outgoing::later`] (`raw`, whose
/// Message-ID is `message_id`): the bytes are what [`build`] would have made
/// had the parts been attached from the start.
pub(crate) fn attach(
    raw: &[u8],
    message_id: &str,
    parts: &[Attached],
) -> Result<Vec<u8>, BuildError> {
    let boundary = boundary_for(message_id);
    let close = format!("--{boundary}--\r\n");
    if !raw.ends_with(close.as_bytes()) {
        return Err(BuildError::NoRoom);
    }
    let at = raw.len() - close.len();
    let mut out = Vec::with_capacity(
        raw.len()
            + parts
                .iter()
                .map(|p| p.bytes.len() * 4 / 3 + 512)
                .sum::<usize>(),
    );
    out.extend_from_slice(&raw[..at]);
    for p in parts {
        out.extend_from_slice(b"--");
        out.extend_from_slice(boundary.as_bytes());
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(&attachment(p).formatted());
    }
    out.extend_from_slice(close.as_bytes());
    Ok(out)
}

fn attachment(a: &Attached) -> SinglePart {
    let ct = ContentType::parse(&a.mime).unwrap_or(ContentType::TEXT_PLAIN);
    Attachment::new(a.name.clone()).body(a.bytes.clone(), ct)
}

fn mailbox(a: &Address) -> Result<Mailbox, BuildError> {
    let email = a
        .email
        .parse()
        .map_err(|_| BuildError::Address(a.email.clone()))?;
    let name = a
        .name
        .as_deref()
        .map(|n| header_text(n, MAX_NAME))
        .filter(|n| !n.is_empty());
    Ok(Mailbox::new(name, email))
}

/// The `References` of an answer: the thread's ids (cleaned) and the mail
/// answered, oldest dropped first so the header line stays within
/// RFC 5322's 998 characters.
fn references_line(refs: &[String], answered: &str) -> String {
    let mut ids: Vec<String> = refs.iter().filter_map(|r| clean_id(r)).collect();
    ids.extend(clean_id(answered));
    let mut kept: Vec<String> = Vec::new();
    let mut len = "References: ".len();
    for id in ids.iter().rev() {
        if len + id.len() + 3 > 900 {
            break;
        }
        len += id.len() + 3;
        kept.push(format!("<{id}>"));
    }
    kept.reverse();
    kept.join(" ")
}

/// The bytes of an outgoing mail, with the judge's headers: `Message-ID`
/// of its domain, `In-Reply-To` and `References` when it answers a mail,
/// and `Auto-Submitted: auto-replied` (RFC 3834) so that other robots do
/// not answer it.
pub(crate) fn build(
    out: &Outgoing,
    me: &Identity,
    message_id: &str,
    date: SystemTime,
) -> Result<Vec<u8>, BuildError> {
    assemble(out, me, message_id, date, &out.attachments)
}

/// `out` as [`build`] makes it, less its attachments but with room for
/// them: [`attach`] with them makes the bytes [`build`] does. For a mail
/// whose attachments the store keeps apart from its text, once for all
/// the mails that carry them.
pub(crate) fn build_kept(
    out: &Outgoing,
    me: &Identity,
    message_id: &str,
    date: SystemTime,
) -> Result<Vec<u8>, BuildError> {
    assemble(out, me, message_id, date, &[])
}

/// [`build`], with `parts` as the attachments written in.
fn assemble(
    out: &Outgoing,
    me: &Identity,
    message_id: &str,
    date: SystemTime,
    parts: &[Attached],
) -> Result<Vec<u8>, BuildError> {
    let from = mailbox(&Address {
        name: Some(me.name.clone()),
        email: me.address.clone(),
    })?;
    let mut b = lettre::Message::builder()
        .from(from)
        .subject(header_text(&out.subject, MAX_SUBJECT))
        .date(date)
        .message_id(Some(format!("<{message_id}>")))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            if out.in_reply_to.is_some() {
                "auto-replied".into()
            } else {
                "auto-generated".into()
            },
        ));
    for a in &out.to {
        b = b.to(mailbox(a)?);
    }
    if let Some(r) = out.in_reply_to.as_deref().and_then(clean_id) {
        b = b.in_reply_to(format!("<{r}>"));
        b = b.references(references_line(&out.references, &r));
    }
    let text = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        // Whatever the text holds, the mail is valid for its transfer
        // encoding: no NUL or other control character (a sender's text
        // echoed, press), and no lone CR, which RFC 5322 allows only in
        // CRLF and servers refuse or mangle.
        .body(if out.in_reply_to.is_some() {
            format!("{JUDGE_MARK}\n\n{}", clean_text(&out.body))
        } else {
            clean_text(&out.body).into_owned()
        });
    let msg = if out.attachments.is_empty() && out.later.is_none() {
        b.singlepart(text)
    } else {
        let mut mp = MultiPart::mixed()
            .boundary(boundary_for(message_id))
            .singlepart(text);
        for a in parts {
            mp = mp.singlepart(attachment(a));
        }
        b.multipart(mp)
    }
    .map_err(BuildError::Message)?;
    Ok(msg.formatted())
}

/// The envelope recipients of a built mail.
pub(crate) fn recipients(out: &Outgoing) -> Vec<String> {
    out.to.iter().map(|a| a.email.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const JUDGE: &str = "judge@example.test";

    #[test]
    fn plain_mail_is_answerable() {
        let m = read(
            b"From: Alice <alice@example.test>\r\nTo: judge@example.test\r\nSubject: orders\r\nMessage-ID: <1@a>\r\n\r\nA(Lon)-Yor\r\n",
            JUDGE,
        );
        assert_eq!(m.message_id, "1@a");
        assert_eq!(m.reply_to.unwrap().email, "alice@example.test");
        assert_eq!(m.text.trim(), "A(Lon)-Yor");
        assert_eq!(m.silence, None);
    }

    #[test]
    fn robots_and_loops_get_no_answer() {
        let cases: [(&[u8], Silence); 12] = [
            (
                b"From: MAILER-DAEMON@example.test\r\n\r\nx",
                Silence::Bounce,
            ),
            (
                b"From: bob@example.test\r\nAuto-Submitted: auto-replied\r\n\r\nI am away",
                Silence::AutoReply,
            ),
            (
                b"From: bob@example.test\r\nPrecedence: bulk\r\n\r\nx",
                Silence::AutoReply,
            ),
            (
                b"From: dip-request@example.test\r\nList-Id: <dip.example.test>\r\n\r\nx",
                Silence::MailingList,
            ),
            (
                b"From: Judge <JUDGE@example.test>\r\n\r\nx",
                Silence::FromJudge,
            ),
            // Exchange's out-of-office, with no RFC 3834 header.
            (
                b"From: bob@example.test\r\nSubject: Automatic reply: Re: orders\r\n\r\nI am away",
                Silence::AutoReply,
            ),
            (
                b"From: bob@example.test\r\nSubject: Abwesenheitsnotiz: Re: g1\r\n\r\nx",
                Silence::AutoReply,
            ),
            (
                b"From: dip-bounces@lists.example.test\r\n\r\nx",
                Silence::Bounce,
            ),
            (
                b"From: owner-dip@lists.example.test\r\n\r\nx",
                Silence::MailingList,
            ),
            (
                b"From: no-reply@example.test\r\n\r\nx",
                Silence::AutoReply,
            ),
            (
                b"From: dip@lists.example.test\r\nList-Id: <dip>\r\nSubject: dip Digest, Vol 3, Issue 7\r\n\r\nx",
                Silence::MailingList,
            ),
            (
                b"From: MAILER@example.test\r\nSubject: Undeliverable: orders\r\n\r\nx",
                Silence::Bounce,
            ),
        ];
        for (raw, want) in cases {
            assert_eq!(
                read(raw, JUDGE).silence,
                Some(want),
                "{}",
                String::from_utf8_lossy(raw)
            );
        }
        assert_eq!(
            read(b"Subject: hi\r\n\r\nbody", JUDGE).silence,
            Some(Silence::NoSender)
        );
    }

    #[test]
    fn a_members_mail_through_a_list_is_read_and_answered_to_the_member() {
        let m = read(
            b"From: Ann <ann@example.test>\r\nReply-To: dip@lists.example.test\r\nList-Id: <dip.lists.example.test>\r\nPrecedence: list\r\n\r\nSIGNON England g1 pw",
            JUDGE,
        );
        assert_eq!(m.silence, None);
        assert!(m.via_list);
        assert_eq!(m.reply_to.unwrap().email, "ann@example.test");
    }

    #[test]
    fn header_text_from_senders_cannot_break_headers() {
        let m = read(
            b"From: =?utf-8?q?A=0AB?= <eve@x.test>\r\nSubject: =?utf-8?q?hi=0D=0ABcc:_x@y?=\r\n\r\nHELP",
            JUDGE,
        );
        let from = m.from.clone().unwrap();
        assert_eq!(from.name.as_deref(), Some("A B"));
        assert!(!m.subject.contains(['\r', '\n']), "{:?}", m.subject);
        let me = Identity {
            address: JUDGE.into(),
            name: "Judge".into(),
            domain: "example.test".into(),
        };
        let long_id = "x".repeat(5000);
        let out = Outgoing {
            to: vec![Address {
                name: Some("A\nB\r\u{0}C".into()),
                email: "eve@x.test".into(),
            }],
            subject: format!("Re: {}\nBcc: victim@x.test", m.subject),
            body: "ok\n".into(),
            in_reply_to: Some(long_id.clone()),
            references: vec![long_id; 20],
            attachments: vec![],
            later: None,
        };
        let raw = build(&out, &me, "r1@example.test", SystemTime::UNIX_EPOCH).unwrap();
        let text = String::from_utf8(raw).unwrap();
        for line in text.split("\r\n") {
            assert!(
                line.len() <= 998,
                "{} characters: {}",
                line.len(),
                &line[..80]
            );
            assert!(!line.to_ascii_lowercase().starts_with("bcc:"), "{line}");
        }
    }

    #[test]
    fn html_only_mail_is_read_as_text() {
        let raw = b"From: a@example.test\r\nContent-Type: text/html\r\n\r\n<html><body><p>A(Lon)-Yor</p><p>F(Edi)-NTH</p></body></html>";
        let m = read(raw, JUDGE);
        assert!(
            m.text.contains("A(Lon)-Yor") && m.text.contains("F(Edi)-NTH"),
            "{:?}",
            m.text
        );
    }

    #[test]
    fn made_up_message_ids_are_stable() {
        let raw = b"From: a@example.test\r\n\r\nhello";
        assert_eq!(message_id_of(raw), message_id_of(raw));
        assert_ne!(
            message_id_of(raw),
            message_id_of(b"From: a@example.test\r\n\r\nhello!")
        );
    }

    #[test]
    fn replies_carry_threading_and_auto_submitted() {
        let me = Identity {
            address: JUDGE.into(),
            name: "Judge".into(),
            domain: "example.test".into(),
        };
        let out = Outgoing {
            to: vec![Address {
                name: None,
                email: "alice@example.test".into(),
            }],
            subject: "Re: orders".into(),
            body: "ok\n".into(),
            in_reply_to: Some("1@a".into()),
            references: vec!["0@a".into()],
            attachments: vec![],
            later: None,
        };
        let raw = build(&out, &me, "r1@example.test", SystemTime::UNIX_EPOCH).unwrap();
        let text = String::from_utf8(raw).unwrap();
        assert!(text.contains("In-Reply-To: <1@a>"), "{text}");
        assert!(text.contains("References: <0@a> <1@a>"), "{text}");
        assert!(text.contains("Auto-Submitted: auto-replied"), "{text}");
        assert!(text.contains("Message-ID: <r1@example.test>"), "{text}");
    }

    #[test]
    fn parts_added_at_send_time_make_the_mail_built_with_them() {
        let me = Identity {
            address: JUDGE.into(),
            name: "Judge".into(),
            domain: "example.test".into(),
        };
        let pictures = vec![
            Attached {
                name: "g-S1901M.png".into(),
                mime: "image/png".into(),
                bytes: vec![0x89, b'P', b'N', b'G', 0, 1, 2, 255],
            },
            Attached {
                name: "g-S1901M.svg".into(),
                mime: "image/svg+xml".into(),
                bytes: b"<svg/>".to_vec(),
            },
        ];
        let out = Outgoing {
            to: vec![Address {
                name: None,
                email: "alice@example.test".into(),
            }],
            subject: "g: results".into(),
            body: "A(Lon)-Yor\n".into(),
            in_reply_to: None,
            references: vec![],
            attachments: vec![],
            later: Some(Later {
                source: 1,
                spec: "gm png+svg".into(),
            }),
        };
        let queued = build(&out, &me, "r1@example.test", SystemTime::UNIX_EPOCH).unwrap();
        let whole = Outgoing {
            attachments: pictures.clone(),
            later: None,
            ..out.clone()
        };
        let direct = build(&whole, &me, "r1@example.test", SystemTime::UNIX_EPOCH).unwrap();
        let sent = attach(&queued, "r1@example.test", &pictures).unwrap();
        assert_eq!(sent, direct);
        let m = MessageParser::default().parse(&sent).unwrap();
        assert_eq!(m.attachments().count(), 2);
        assert_eq!(m.body_text(0).unwrap().trim(), "A(Lon)-Yor");
        // With none to add, the queued mail is a whole mail already.
        assert_eq!(attach(&queued, "r1@example.test", &[]).unwrap(), queued);
        let plain = build(
            &Outgoing { later: None, ..out },
            &me,
            "r2@example.test",
            SystemTime::UNIX_EPOCH,
        )
        .unwrap();
        assert!(matches!(
            attach(&plain, "r2@example.test", &pictures),
            Err(BuildError::NoRoom)
        ));
    }
}
