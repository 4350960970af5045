//! Sending over SMTP (lettre's connection, tokio, rustls).
//!
//! A mail is handed over once per attempt; the caller marks it sent only
//! when the server has accepted it, and retries later otherwise.
//!
//! Connections are kept open between mails (one per parallel send): a new
//! connection costs a TCP and TLS handshake and a login, many times the
//! cost of the mail itself. A connection left idle for a while is checked
//! with NOOP before it is used again, and one idle for long is closed (the
//! server may have dropped it). Every step is bounded by the configured
//! timeout: a stalled server fails the attempt instead of holding the
//! outbox forever.

use super::tls::{self, TlsMode};
use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, DEFAULT_MECHANISMS};
use lettre::transport::smtp::client::{
    AsyncSmtpConnection, AsyncTokioStream, Certificate, CertificateStore, TlsParameters,
};
use lettre::transport::smtp::extension::ClientId;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Mutex;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// A pooled connection idle longer than this is checked with NOOP first.
const CHECK_AFTER: Duration = Duration::from_secs(5);
/// ... and one idle longer than this is closed rather than used.
const CLOSE_AFTER: Duration = Duration::from_secs(50);

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
pub(crate) enum SmtpError {
    /// TLS could not be set up.
    #[error("cannot set up TLS for SMTP")]
    Tls(#[source] lettre::transport::smtp::Error),
    /// The CA certificate is unusable.
    #[error("cannot read the SMTP CA certificate")]
    Ca(#[source] lettre::transport::smtp::Error),
    /// An envelope address is malformed.
    #[error("cannot send to `{0}`")]
    Address(String),
    /// The TCP connection or the TLS handshake (implicit TLS) failed.
    #[error("cannot connect to the SMTP server")]
    Io(#[source] io::Error),
    /// The TLS settings are unusable.
    #[error(transparent)]
    TlsSetup(#[from] tls::TlsError),
    /// The server could not be reached, or refused the login.
    #[error("cannot connect to the SMTP server")]
    Connect(#[source] lettre::transport::smtp::Error),
    /// The server refused or could not be reached.
    #[error("the SMTP server did not take the mail")]
    Send(#[source] lettre::transport::smtp::Error),
    /// The server did not answer in time.
    #[error("the SMTP server {0} did not answer within {secs} s", secs = .1.as_secs())]
    Timeout(String, Duration),
    /// The server refused the login: a wrong user or password.
    #[error("the SMTP server {server} refused the login of {user}")]
    Login {
        /// `host:port`.
        server: String,
        /// The login.
        user: String,
        /// The server's words.
        #[source]
        source: lettre::transport::smtp::Error,
    },
    /// Building the envelope failed.
    #[error("cannot build the envelope")]
    Envelope(#[source] lettre::error::Error),
}

impl SmtpError {
    /// Whether trying again cannot help (a refused recipient).
    /// A failure to connect or log in is never the mail's fault: it is
    /// tried again, whatever the server said.
    pub(crate) fn is_permanent(&self) -> bool {
        match self {
            SmtpError::Send(e) => e.is_permanent(),
            SmtpError::Address(_) | SmtpError::Envelope(_) => true,
            _ => false,
        }
    }
}

/// An SMTP client keeping its connections open.
pub(crate) struct SmtpSink {
    host: String,
    port: u16,
    tls: TlsMode,
    /// For STARTTLS (lettre upgrades the connection).
    params: Option<TlsParameters>,
    /// For implicit TLS.
    connector: Option<(
        tokio_rustls::TlsConnector,
        rustls_pki_types::ServerName<'static>,
    )>,
    credentials: Option<Credentials>,
    /// The login, for messages.
    user: Option<String>,
    hello: ClientId,
    timeout: Duration,
    /// Open connections not in use, with the time each was last used.
    idle: Mutex<Vec<(AsyncSmtpConnection, Instant)>>,
}

impl SmtpSink {
    /// Set up the client; it connects on first use.
    pub(crate) fn new(s: &SmtpSettings) -> Result<SmtpSink, SmtpError> {
        let name = s.tls_name.clone().unwrap_or_else(|| s.host.clone());
        let connector = match s.tls {
            TlsMode::Implicit => Some((
                tls::connector(s.ca_pem.as_deref())?,
                tls::server_name(&name)?,
            )),
            _ => None,
        };
        let params = match s.tls {
            TlsMode::None | TlsMode::Implicit => None,
            TlsMode::Starttls => {
                let mut b = TlsParameters::builder(name);
                if let Some(pem) = &s.ca_pem {
                    b = b
                        .certificate_store(CertificateStore::None)
                        .add_root_certificate(Certificate::from_pem(pem).map_err(SmtpError::Ca)?);
                }
                Some(b.build_rustls().map_err(SmtpError::Tls)?)
            }
        };
        let credentials = match (&s.user, &s.password) {
            (Some(u), Some(p)) => Some(Credentials::new(u.clone(), p.clone())),
            _ => None,
        };
        Ok(SmtpSink {
            host: s.host.clone(),
            port: s.port,
            tls: s.tls,
            params,
            connector,
            credentials,
            user: s.user.clone(),
            hello: ClientId::default(),
            timeout: s.timeout,
            idle: Mutex::new(Vec::new()),
        })
    }

    /// A new connection: TCP, TLS (implicit or STARTTLS), login. The
    /// socket is made here rather than by lettre to turn Nagle's algorithm
    /// off: lettre writes a mail's end (`.`) apart from its body, and the
    /// server's delayed acknowledgement then held each mail up for 40 ms.
    async fn connect(&self) -> Result<AsyncSmtpConnection, SmtpError> {
        let tcp = TcpStream::connect((self.host.as_str(), self.port))
            .await
            .map_err(SmtpError::Io)?;
        tcp.set_nodelay(true).map_err(SmtpError::Io)?;
        let stream: Box<dyn AsyncTokioStream> = match &self.connector {
            Some((connector, name)) => Box::new(TlsTcp(
                connector
                    .connect(name.clone(), tcp)
                    .await
                    .map_err(SmtpError::Io)?,
            )),
            None => Box::new(tcp),
        };
        let mut conn = AsyncSmtpConnection::connect_with_transport(stream, &self.hello)
            .await
            .map_err(SmtpError::Connect)?;
        if let (TlsMode::Starttls, Some(p)) = (self.tls, &self.params) {
            conn.starttls(p.clone(), &self.hello)
                .await
                .map_err(SmtpError::Connect)?;
        }
        if let (Some(c), Some(user)) = (&self.credentials, &self.user) {
            conn.auth(DEFAULT_MECHANISMS, c)
                .await
                .map_err(|e| SmtpError::Login {
                    server: self.server(),
                    user: user.clone(),
                    source: e,
                })?;
        }
        Ok(conn)
    }

    /// `host:port`, for messages.
    fn server(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }

    /// What `check-config` proves of the SMTP settings, sending nothing:
    /// the server answers, TLS works with the configured trust, and the
    /// login (if one is configured) is taken. The whole takes at most
    /// `within`, or fails naming the server.
    pub(crate) async fn check_login(&self, within: Duration) -> Result<(), SmtpError> {
        let conn = tokio::time::timeout(within, self.connect())
            .await
            .map_err(|_| SmtpError::Timeout(self.server(), within))??;
        self.close(conn).await;
        Ok(())
    }

    /// An open connection: a pooled one still alive, or a new one.
    async fn checkout(&self) -> Result<AsyncSmtpConnection, SmtpError> {
        loop {
            let taken = self.idle.lock().map_or(None, |mut v| v.pop());
            let Some((mut conn, since)) = taken else {
                break;
            };
            let idle = since.elapsed();
            if conn.has_broken() || idle > CLOSE_AFTER {
                self.close(conn).await;
                continue;
            }
            if idle < CHECK_AFTER || conn.test_connected().await {
                return Ok(conn);
            }
        }
        self.connect().await
    }

    async fn close(&self, mut conn: AsyncSmtpConnection) {
        let _ = tokio::time::timeout(Duration::from_secs(2), conn.quit()).await;
    }

    /// Send raw bytes from `from` to `to`.
    pub(crate) async fn send(
        &self,
        from: &str,
        to: &[String],
        raw: &[u8],
    ) -> Result<(), SmtpError> {
        let from = from
            .parse()
            .map_err(|_| SmtpError::Address(from.to_string()))?;
        let to = to
            .iter()
            .map(|t| t.parse().map_err(|_| SmtpError::Address(t.clone())))
            .collect::<Result<Vec<_>, _>>()?;
        let env = Envelope::new(Some(from), to).map_err(SmtpError::Envelope)?;
        let mut conn = tokio::time::timeout(self.timeout, self.checkout())
            .await
            .map_err(|_| SmtpError::Timeout(self.server(), self.timeout))??;
        // On an error lettre has already ended the connection: it is
        // dropped, not pooled.
        tokio::time::timeout(self.timeout, conn.send(&env, raw))
            .await
            .map_err(|_| SmtpError::Timeout(self.server(), self.timeout))?
            .map_err(SmtpError::Send)?;
        if let Ok(mut v) = self.idle.lock() {
            v.push((conn, Instant::now()));
        }
        Ok(())
    }

    /// Say goodbye on the pooled connections.
    pub(crate) async fn shutdown(&self) {
        let all: Vec<_> = self
            .idle
            .lock()
            .map_or_else(|_| Vec::new(), |mut v| std::mem::take(&mut *v));
        for (conn, _) in all {
            self.close(conn).await;
        }
    }
}

/// An implicit-TLS connection, in the form lettre takes a stream.
#[derive(Debug)]
struct TlsTcp(tokio_rustls::client::TlsStream<TcpStream>);

impl AsyncRead for TlsTcp {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for TlsTcp {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

impl AsyncTokioStream for TlsTcp {
    fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.0.get_ref().0.peer_addr()
    }
}
