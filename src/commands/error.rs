//! What can go wrong with a command: the user's mistake, told in the
//! reply, or a fault of the judge, logged and never mailed.

use crate::store::StoreError;

/// Why a command was not done.
#[derive(Debug, thiserror::Error)]
pub enum CmdError {
    /// The command cannot be done as given (no such game, not your turn,
    /// a bad value); the text is for the reply.
    #[error("{0}")]
    Refused(String),
    /// The judge itself failed (the store, a broken stored position). The
    /// cause is logged for the judge's keeper; the reply only says that
    /// nothing of the command was done.
    #[error("internal fault")]
    Fault(#[source] anyhow::Error),
}

/// Result of a command.
pub(crate) type CmdResult<T = ()> = Result<T, CmdError>;

impl CmdError {
    /// A refusal with this text.
    pub fn refused(text: impl Into<String>) -> CmdError {
        CmdError::Refused(text.into())
    }
}

impl From<StoreError> for CmdError {
    fn from(e: StoreError) -> Self {
        CmdError::Fault(e.into())
    }
}

impl From<crate::trust::TrustError> for CmdError {
    fn from(e: crate::trust::TrustError) -> Self {
        match e {
            crate::trust::TrustError::Refused(why) => CmdError::Refused(why),
            other => CmdError::Fault(other.into()),
        }
    }
}

impl From<anyhow::Error> for CmdError {
    fn from(e: anyhow::Error) -> Self {
        CmdError::Fault(e)
    }
}

impl From<String> for CmdError {
    fn from(e: String) -> Self {
        CmdError::Refused(e)
    }
}

impl From<&str> for CmdError {
    fn from(e: &str) -> Self {
        CmdError::Refused(e.to_string())
    }
}
