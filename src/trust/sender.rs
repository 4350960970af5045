//! Who wrote a mail, and how sure the judge is of it.

use super::authres;
use crate::mail::{Address, Inbound};

/// The judge's trust settings (`[trust]` in the configuration).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    /// The `authserv-id` the judge's own mail server stamps its
    /// `Authentication-Results` with; `None`: no such header is believed.
    pub authserv_id: Option<String>,
    /// Commands that register an address (JOIN, OBSERVE, CREATE, SET
    /// ADDRESS, TAKEOVER) are taken only from authenticated mail; others
    /// are refused, not held for a confirmation.
    pub require_authentication: bool,
    /// The judge checks each mail's DKIM signatures itself when it takes
    /// the mail in, and stamps the mail with its findings as
    /// `authserv_id` (see `daemon::dkim`): for a mailbox whose server stamps
    /// nothing.
    pub verify_signatures: bool,
}

/// How sure the judge is that a mail's From wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Assurance {
    /// The judge's own mail server found it authentic: what it found
    /// (`dmarc=pass header.from=example.org`).
    Authenticated(String),
    /// The From address answered a request that named this very mail: it
    /// was held, and is now carried out as confirmed.
    Confirmed,
    /// Only the header says so.
    Claimed,
}

/// A mail's writer, as far as the judge can tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sender {
    /// The `From` address: the one registered by what the mail registers.
    pub from: Address,
    /// Where the answer goes (`Reply-To`, else `From`).
    pub answer: Address,
    /// How sure the judge is that `from` wrote it.
    pub assurance: Assurance,
    /// What marks the mail as a robot's, if anything does: such a mail
    /// confirms nothing.
    pub robot: Option<String>,
}

impl Sender {
    /// Whether the From is more than a claim: authenticated by the judge's
    /// server, or confirmed for this mail.
    pub(crate) fn vouched(&self) -> bool {
        !matches!(self.assurance, Assurance::Claimed)
    }

    /// Whether the answer goes to the From address itself.
    pub(crate) fn answered_at_from(&self) -> bool {
        self.answer.email.eq_ignore_ascii_case(&self.from.email)
    }

    /// Whether the mail was authenticated by the judge's server.
    pub(crate) fn authenticated(&self) -> bool {
        matches!(self.assurance, Assurance::Authenticated(_))
    }
}

/// Who wrote `mail`, under `policy`. `confirmed_for` is the address that
/// confirmed this very mail, if it was held for one and released
/// (`trust::confirm::vouched`). `None` when the mail has no sender.
pub fn identify(mail: &Inbound, policy: &Policy, confirmed_for: Option<&str>) -> Option<Sender> {
    let from = mail.from.clone()?;
    let answer = mail.reply_to.clone().unwrap_or_else(|| from.clone());
    let domain = from.email.rsplit_once('@').map_or("", |(_, d)| d);
    let stamped = policy
        .authserv_id
        .as_deref()
        .map(|id| authres::own_stamps(&mail.auth_results, id))
        .and_then(|stamps| authres::authenticates(&stamps, domain));
    let assurance = match (stamped, confirmed_for) {
        (Some(how), _) => Assurance::Authenticated(how),
        (None, Some(a)) if a.eq_ignore_ascii_case(&from.email) => Assurance::Confirmed,
        _ => Assurance::Claimed,
    };
    Some(Sender {
        from,
        answer,
        assurance,
        robot: mail.robot.clone(),
    })
}
