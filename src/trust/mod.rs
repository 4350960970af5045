//! Trust: for each mail, *who* wrote it and *how sure* the judge is, *what*
//! that writer may cause, *who pays* for every mail it causes, and which of
//! its words are *secrets*. One home for every rule that guards identity,
//! so that no command decides any of it on its own: commands ask here, the
//! store keeps the rows.
//!
//! - **Who, and how sure** ([`sender`]): a mail's `From` is only a claim,
//!   since anyone can write it. It is *authenticated* when the judge's own
//!   mail server stamped it so (RFC 8601 `Authentication-Results` with the
//!   configured `authserv-id`: DMARC passed, or a DKIM signature of the
//!   From's domain verified; [`authres`]), and *confirmed* when it is a mail
//!   held until its From answered a request naming it ([`confirm`]).
//! - **What it may cause**: a claimed From registers nothing by itself.
//!   Joining, observing, creating a game, taking a seat, moving a seat's
//!   address: each is carried out for a claimed From only once that
//!   address confirms that very mail ([`confirm`]); robots never confirm.
//!   A seat given by someone else (REPLACE, ASSIGN) is an offer until its
//!   address accepts. A seat's password opens the seat ([`signon`]), with
//!   guessing throttled without ever locking the seat's player out.
//! - **Who pays** ([`budget`]): every mail the judge sends besides an
//!   answer is charged to whoever caused it and to whoever receives it;
//!   an address that never confirmed gets one answer a mail and nothing
//!   more; the clock's mail to an address that never wrote to the judge is
//!   budgeted as other people's mail.
//! - **Secrets** ([`secrets`], [`password`]): passwords are stored as
//!   argon2 hashes and masked wherever else a mail's words appear, headers
//!   decoded first; display names carry no secret, no invisible character
//!   and no look-alike of another player's name ([`names`]).
//!
//! This module sits below the command language and the daemon (both ask
//! it) and above the store and the mail (whose rows and bytes it reads).

pub(crate) mod authres;
pub(crate) mod budget;
pub(crate) mod confirm;
pub(crate) mod names;
pub(crate) mod password;
pub(crate) mod secrets;
pub(crate) mod sender;
pub(crate) mod signon;

use crate::store::StoreError;

/// Why trust refused something, or could not decide.
#[derive(Debug, thiserror::Error)]
pub(crate) enum TrustError {
    /// Refused, for the reply: the text says why.
    #[error("{0}")]
    Refused(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The operating system gave no random bytes (for a code or a
    /// password).
    #[error("no random source: {0}")]
    Random(getrandom::Error),
}

/// The result of a trust decision.
pub(crate) type TrustResult<T = ()> = Result<T, TrustError>;

impl TrustError {
    /// A refusal with this text.
    pub(crate) fn refused(text: impl Into<String>) -> TrustError {
        TrustError::Refused(text.into())
    }
}
