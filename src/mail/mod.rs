//! Mail in and out, knowing nothing of games.
//!
//! [`read`] turns raw bytes into an [`Inbound`] mail: who wrote, what text
//! the body holds (text/plain preferred, HTML turned into text, attachments
//! ignored, any charset), and whether the judge may answer it at all (never
//! bounces, auto-replies, mailing lists, or its own mail: that is how mail
//! loops start). [`build`] turns an [`Outgoing`] mail into bytes with the
//! headers a well-behaved autoresponder sets (RFC 3834). The transports
//! (IMAP, Maildir, SMTP) live in the submodules.

pub mod imap;
pub mod maildir;
pub mod smtp;
pub mod tls;

use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use mail_parser::{HeaderValue as ParsedValue, MessageParser};
use std::time::SystemTime;

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
    /// notices, `Precedence: bulk`).
    AutoReply,
    /// A mailing list's copy.
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
    /// Where answers go: `Reply-To`, else `From`.
    pub reply_to: Option<Address>,
    /// The `From` address.
    pub from: Option<Address>,
    /// Subject (the judge ignores it for commands, but echoes it).
    pub subject: String,
    /// The body as plain text.
    pub text: String,
    /// `References` of the mail, for threading the answer.
    pub references: Vec<String>,
    /// Set when the judge must stay silent.
    pub silence: Option<Silence>,
}

/// The Message-ID of a raw mail; one is made up from a hash of the bytes
/// for mails without one, so the same bytes always get the same id.
pub fn message_id_of(raw: &[u8]) -> String {
    if let Some(m) = MessageParser::default().parse_headers(raw)
        && let Some(id) = m.message_id()
        && !id.trim().is_empty()
    {
        return id.trim().trim_matches(['<', '>']).to_string();
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
    Some(Address {
        name: addr
            .name()
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty()),
        email,
    })
}

/// Decode a raw mail. `judge` is the judge's own address (mail from it is
/// never answered). A mail that cannot be parsed at all still yields an
/// [`Inbound`] with whatever could be read.
pub fn read(raw: &[u8], judge: &str) -> Inbound {
    let message_id = message_id_of(raw);
    let Some(m) = MessageParser::default().parse(raw) else {
        return Inbound {
            message_id,
            reply_to: None,
            from: None,
            subject: String::new(),
            text: String::from_utf8_lossy(raw).into_owned(),
            references: Vec::new(),
            silence: Some(Silence::NoSender),
        };
    };
    let from = first_address(m.header("From").unwrap_or(&ParsedValue::Empty));
    let reply_to =
        first_address(m.header("Reply-To").unwrap_or(&ParsedValue::Empty)).or_else(|| from.clone());
    let subject = m.subject().unwrap_or("").trim().to_string();
    let text = m.body_text(0).map(|t| t.into_owned()).unwrap_or_default();
    let mut references: Vec<String> = match m.header("References") {
        Some(ParsedValue::TextList(l)) => l.iter().map(|s| s.to_string()).collect(),
        Some(ParsedValue::Text(t)) => vec![t.to_string()],
        _ => Vec::new(),
    };
    references.retain(|r| !r.is_empty());

    let header_text = |name: &str| -> Option<String> {
        m.header_raw(name).map(|v| v.trim().to_ascii_lowercase())
    };
    let from_email = from
        .as_ref()
        .map(|a| a.email.to_ascii_lowercase())
        .unwrap_or_default();
    let local = from_email.split('@').next().unwrap_or("");
    let content_type = header_text("Content-Type").unwrap_or_default();
    let silence = if from.is_none() {
        Some(Silence::NoSender)
    } else if from_email == judge.to_ascii_lowercase() {
        Some(Silence::FromJudge)
    } else if local == "mailer-daemon"
        || local == "postmaster"
        || content_type.starts_with("multipart/report")
        || header_text("X-Failed-Recipients").is_some()
        || header_text("Return-Path").is_some_and(|r| r == "<>")
    {
        Some(Silence::Bounce)
    } else if header_text("Auto-Submitted").is_some_and(|v| v != "no")
        || header_text("X-Autoreply").is_some()
        || header_text("X-Autorespond").is_some()
        || header_text("Precedence")
            .is_some_and(|p| matches!(p.as_str(), "bulk" | "junk" | "list" | "auto_reply"))
    {
        Some(Silence::AutoReply)
    } else if header_text("List-Id").is_some()
        || header_text("List-Unsubscribe").is_some()
        || header_text("List-Post").is_some()
        || header_text("Mailing-List").is_some()
    {
        Some(Silence::MailingList)
    } else {
        None
    };
    Inbound {
        message_id,
        reply_to,
        from,
        subject,
        text,
        references,
        silence,
    }
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
}

/// A failure to build a mail (an address the mail library rejects).
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// An address is malformed.
    #[error("cannot use address `{0}`")]
    Address(String),
    /// The mail library refused the message.
    #[error("cannot build the mail")]
    Message(#[source] lettre::error::Error),
}

fn mailbox(a: &Address) -> Result<Mailbox, BuildError> {
    let email = a
        .email
        .parse()
        .map_err(|_| BuildError::Address(a.email.clone()))?;
    Ok(Mailbox::new(a.name.clone(), email))
}

/// The bytes of an outgoing mail, with the judge's headers: `Message-ID`
/// of its domain, `In-Reply-To` and `References` when it answers a mail,
/// and `Auto-Submitted: auto-replied` (RFC 3834) so that other robots do
/// not answer it.
pub fn build(
    out: &Outgoing,
    me: &Identity,
    message_id: &str,
    date: SystemTime,
) -> Result<Vec<u8>, BuildError> {
    let from = mailbox(&Address {
        name: Some(me.name.clone()),
        email: me.address.clone(),
    })?;
    let mut b = lettre::Message::builder()
        .from(from)
        .subject(out.subject.clone())
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
    if let Some(r) = &out.in_reply_to {
        b = b.in_reply_to(format!("<{r}>"));
        let mut refs: Vec<String> = out
            .references
            .iter()
            .map(|x| format!("<{}>", x.trim_matches(['<', '>'])))
            .collect();
        refs.push(format!("<{r}>"));
        b = b.references(refs.join(" "));
    }
    let text = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .body(out.body.clone());
    let msg = if out.attachments.is_empty() {
        b.singlepart(text)
    } else {
        let mut mp = MultiPart::mixed().singlepart(text);
        for a in &out.attachments {
            let ct = ContentType::parse(&a.mime).unwrap_or(ContentType::TEXT_PLAIN);
            mp = mp.singlepart(Attachment::new(a.name.clone()).body(a.bytes.clone(), ct));
        }
        b.multipart(mp)
    }
    .map_err(BuildError::Message)?;
    Ok(msg.formatted())
}

/// The envelope recipients of a built mail.
pub fn recipients(out: &Outgoing) -> Vec<String> {
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
        let cases: [(&[u8], Silence); 5] = [
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
                b"From: list@example.test\r\nList-Id: <dip.example.test>\r\n\r\nx",
                Silence::MailingList,
            ),
            (
                b"From: Judge <JUDGE@example.test>\r\n\r\nx",
                Silence::FromJudge,
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
        };
        let raw = build(&out, &me, "r1@example.test", SystemTime::UNIX_EPOCH).unwrap();
        let text = String::from_utf8(raw).unwrap();
        assert!(text.contains("In-Reply-To: <1@a>"), "{text}");
        assert!(text.contains("References: <0@a> <1@a>"), "{text}");
        assert!(text.contains("Auto-Submitted: auto-replied"), "{text}");
        assert!(text.contains("Message-ID: <r1@example.test>"), "{text}");
    }
}
