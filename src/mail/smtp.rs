//! Sending over SMTP (lettre, tokio, rustls).
//!
//! A mail is handed over once per attempt; the caller marks it sent only
//! when the server has accepted it, and retries later otherwise.

use super::tls::TlsMode;
use lettre::address::Envelope;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, CertificateStore, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use std::time::Duration;

/// Where and how to send.
#[derive(Debug, Clone)]
pub struct SmtpSettings {
    /// Server host name or address.
    pub host: String,
    /// Port.
    pub port: u16,
    /// Encryption.
    pub tls: TlsMode,
    /// Name to check the server certificate against (defaults to `host`).
    pub tls_name: Option<String>,
    /// Trust only this CA (PEM) instead of the public roots.
    pub ca_pem: Option<Vec<u8>>,
    /// Login, if the server wants one.
    pub user: Option<String>,
    /// Password for `user`.
    pub password: Option<String>,
    /// Give up on a stalled server after this long.
    pub timeout: Duration,
}

/// A sending failure.
#[derive(Debug, thiserror::Error)]
pub enum SmtpError {
    /// TLS could not be set up.
    #[error("cannot set up TLS for SMTP")]
    Tls(#[source] lettre::transport::smtp::Error),
    /// The CA certificate is unusable.
    #[error("cannot read the SMTP CA certificate")]
    Ca(#[source] lettre::transport::smtp::Error),
    /// An envelope address is malformed.
    #[error("cannot send to `{0}`")]
    Address(String),
    /// The server refused or could not be reached.
    #[error("the SMTP server did not take the mail")]
    Send(#[source] lettre::transport::smtp::Error),
    /// Building the envelope failed.
    #[error("cannot build the envelope")]
    Envelope(#[source] lettre::error::Error),
}

impl SmtpError {
    /// Whether trying again later may help (a refused recipient will not).
    pub fn is_permanent(&self) -> bool {
        match self {
            SmtpError::Send(e) => e.is_permanent(),
            SmtpError::Address(_) | SmtpError::Envelope(_) => true,
            _ => false,
        }
    }
}

/// An SMTP client with a connection pool.
pub struct SmtpSink {
    transport: AsyncSmtpTransport<Tokio1Executor>,
}

impl SmtpSink {
    /// Set up the client; it connects on first use.
    pub fn new(s: &SmtpSettings) -> Result<SmtpSink, SmtpError> {
        let name = s.tls_name.clone().unwrap_or_else(|| s.host.clone());
        let params = || -> Result<TlsParameters, SmtpError> {
            let mut b = TlsParameters::builder(name.clone());
            if let Some(pem) = &s.ca_pem {
                b = b
                    .certificate_store(CertificateStore::None)
                    .add_root_certificate(Certificate::from_pem(pem).map_err(SmtpError::Ca)?);
            }
            b.build_rustls().map_err(SmtpError::Tls)
        };
        let tls = match s.tls {
            TlsMode::None => Tls::None,
            TlsMode::Starttls => Tls::Required(params()?),
            TlsMode::Implicit => Tls::Wrapper(params()?),
        };
        let mut b = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&s.host)
            .port(s.port)
            .tls(tls)
            .timeout(Some(s.timeout));
        if let (Some(u), Some(p)) = (&s.user, &s.password) {
            b = b.credentials(Credentials::new(u.clone(), p.clone()));
        }
        Ok(SmtpSink {
            transport: b.build(),
        })
    }

    /// Send raw bytes from `from` to `to`.
    pub async fn send(&self, from: &str, to: &[String], raw: &[u8]) -> Result<(), SmtpError> {
        let from = from
            .parse()
            .map_err(|_| SmtpError::Address(from.to_string()))?;
        let to = to
            .iter()
            .map(|t| t.parse().map_err(|_| SmtpError::Address(t.clone())))
            .collect::<Result<Vec<_>, _>>()?;
        let env = Envelope::new(Some(from), to).map_err(SmtpError::Envelope)?;
        self.transport
            .send_raw(&env, raw)
            .await
            .map_err(SmtpError::Send)?;
        Ok(())
    }
}
