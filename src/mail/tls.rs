//! TLS settings shared by the IMAP and SMTP clients: rustls with the ring
//! provider, trusting the public web roots, or only the CA a GM names (a
//! private server, the test servers).

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, ServerName};
use std::sync::Arc;
use tokio_rustls::{TlsConnector, rustls};

/// How a connection is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TlsMode {
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    Implicit,
    /// Plain first, then `STARTTLS` (IMAP 143, submission 587).
    Starttls,
    /// No encryption: only for a server on this machine.
    None,
}

/// A TLS set-up problem.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// The CA file could not be read as PEM certificates.
    #[error("cannot read CA certificates")]
    Ca(#[source] rustls_pki_types::pem::Error),
    /// A certificate was refused.
    #[error("cannot use a CA certificate")]
    Cert(#[source] rustls::Error),
    /// The server name is not a valid TLS name.
    #[error("`{0}` is not a valid server name for TLS")]
    Name(String),
}

/// A connector trusting `ca_pem` when given, else the public roots.
pub(crate) fn connector(ca_pem: Option<&[u8]>) -> Result<TlsConnector, TlsError> {
    let mut roots = rustls::RootCertStore::empty();
    match ca_pem {
        Some(pem) => {
            for c in CertificateDer::pem_slice_iter(pem) {
                roots
                    .add(c.map_err(TlsError::Ca)?)
                    .map_err(TlsError::Cert)?;
            }
        }
        None => roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
    }
    let cfg = rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(TlsError::Cert)?
    .with_root_certificates(roots)
    .with_no_client_auth();
    Ok(TlsConnector::from(Arc::new(cfg)))
}

/// The name to verify the server certificate against.
pub(crate) fn server_name(name: &str) -> Result<ServerName<'static>, TlsError> {
    ServerName::try_from(name.to_string()).map_err(|_| TlsError::Name(name.to_string()))
}
