//! Reading the judge's mailbox over IMAP (async-imap, tokio, rustls).
//!
//! The loop: connect and log in; take every message in the mailbox, hand
//! each to the caller, who stores it durably, and only then move it to the
//! processed mailbox (or delete it); then wait for new mail with IDLE when
//! the server offers it, or sleep for the poll interval. Any failure drops
//! the connection and reconnects after a capped exponential backoff with
//! jitter, so a server restart costs a reconnect, never a mail: a message
//! is only removed from the mailbox once it is safe in the store, and one
//! stored twice (a crash between the two steps) is recognised by its
//! Message-ID.

use super::tls::{self, TlsMode};
use async_imap::{Client, Session};
use futures::TryStreamExt;
use std::fmt::Debug;
use std::future::Future;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::sync::watch;
use tracing::{debug, info, warn};

/// Where and how to read mail.
#[derive(Debug, Clone)]
pub struct ImapSettings {
    /// Server host.
    pub host: String,
    /// Port.
    pub port: u16,
    /// Encryption.
    pub tls: TlsMode,
    /// Name to check the certificate against (defaults to `host`).
    pub tls_name: Option<String>,
    /// Trust only this CA (PEM).
    pub ca_pem: Option<Vec<u8>>,
    /// Login.
    pub user: String,
    /// Password.
    pub password: String,
    /// Mailbox to read.
    pub mailbox: String,
    /// Where read mail goes; `None` deletes it.
    pub processed: Option<String>,
    /// How long to wait between checks without IDLE, and the longest IDLE.
    pub poll: Duration,
    /// Use IDLE when offered.
    pub idle: bool,
    /// Mails larger than this are fetched as headers only.
    pub max_bytes: u32,
}

/// One message taken from the mailbox.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The bytes: the whole mail, or its header when it was too large.
    pub raw: Vec<u8>,
    /// Size reported by the server.
    pub size: u32,
    /// Only the header was fetched.
    pub truncated: bool,
}

/// An IMAP failure (the loop logs it and reconnects).
#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    /// TCP connect failed.
    #[error("cannot connect to {0}")]
    Connect(String, #[source] std::io::Error),
    /// TLS set-up or handshake failed.
    #[error("TLS with the IMAP server failed")]
    Tls(#[source] std::io::Error),
    /// TLS configuration failed.
    #[error(transparent)]
    TlsSetup(#[from] tls::TlsError),
    /// The protocol failed.
    #[error("IMAP error")]
    Imap(#[from] async_imap::error::Error),
    /// Reading from the server failed.
    #[error("reading from the IMAP server failed")]
    Io(#[source] std::io::Error),
    /// The server sent no greeting.
    #[error("the IMAP server sent no greeting")]
    NoGreeting,
    /// The caller could not store a mail.
    #[error("cannot store a fetched mail: {0}")]
    Store(String),
}

trait Io: AsyncRead + AsyncWrite + Unpin + Send + Debug {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send + Debug> Io for T {}

type ImapSession = Session<Box<dyn Io>>;

async fn connect(s: &ImapSettings) -> Result<ImapSession, ImapError> {
    let addr = format!("{}:{}", s.host, s.port);
    let tcp = TcpStream::connect(&addr)
        .await
        .map_err(|e| ImapError::Connect(addr.clone(), e))?;
    let name = tls::server_name(s.tls_name.as_deref().unwrap_or(&s.host))?;
    let client: Client<Box<dyn Io>> = match s.tls {
        TlsMode::Implicit => {
            let stream = tls::connector(s.ca_pem.as_deref())?
                .connect(name, tcp)
                .await
                .map_err(ImapError::Tls)?;
            let mut c = Client::new(Box::new(stream) as Box<dyn Io>);
            c.read_response()
                .await
                .map_err(ImapError::Io)?
                .ok_or(ImapError::NoGreeting)?;
            c
        }
        TlsMode::Starttls => {
            let mut c = Client::new(tcp);
            c.read_response()
                .await
                .map_err(ImapError::Io)?
                .ok_or(ImapError::NoGreeting)?;
            c.run_command_and_check_ok("STARTTLS", None).await?;
            let stream = tls::connector(s.ca_pem.as_deref())?
                .connect(name, c.into_inner())
                .await
                .map_err(ImapError::Tls)?;
            Client::new(Box::new(stream) as Box<dyn Io>)
        }
        TlsMode::None => {
            let mut c = Client::new(Box::new(tcp) as Box<dyn Io>);
            c.read_response()
                .await
                .map_err(ImapError::Io)?
                .ok_or(ImapError::NoGreeting)?;
            c
        }
    };
    let mut session = client
        .login(&s.user, &s.password)
        .await
        .map_err(|(e, _)| e)?;
    if let Some(p) = &s.processed {
        // Already there is fine.
        let _ = session.create(p).await;
    }
    session.select(&s.mailbox).await?;
    Ok(session)
}

/// Read mail until `shutdown` turns true, handing each message to `store`
/// and removing it from the mailbox only when `store` succeeded. `notify`
/// is called after each batch (the daemon then processes the new mail).
pub async fn run<F, Fut>(s: ImapSettings, mut store: F, mut shutdown: watch::Receiver<bool>)
where
    F: FnMut(Fetched) -> Fut,
    Fut: Future<Output = Result<(), String>>,
{
    let mut backoff = Duration::from_secs(1);
    const MAX_BACKOFF: Duration = Duration::from_secs(300);
    while !*shutdown.borrow() {
        match session_loop(&s, &mut store, &mut shutdown).await {
            Ok(()) => return,
            Err(e) => {
                let jitter = 0.8 + fastrand::f64() * 0.4;
                let wait = backoff.mul_f64(jitter);
                warn!(error = %e, source = ?std::error::Error::source(&e).map(|s| s.to_string()), retry_in = ?wait, "IMAP connection lost");
                tokio::select! {
                    _ = tokio::time::sleep(wait) => {}
                    _ = shutdown.changed() => return,
                }
                backoff = (backoff * 2).min(MAX_BACKOFF);
            }
        }
    }
}

async fn session_loop<F, Fut>(
    s: &ImapSettings,
    store: &mut F,
    shutdown: &mut watch::Receiver<bool>,
) -> Result<(), ImapError>
where
    F: FnMut(Fetched) -> Fut,
    Fut: Future<Output = Result<(), String>>,
{
    let mut session = connect(s).await?;
    let caps = session.capabilities().await?;
    let can_idle = s.idle && caps.has_str("IDLE");
    let can_move = caps.has_str("MOVE");
    info!(host = %s.host, mailbox = %s.mailbox, idle = can_idle, "IMAP connected");
    loop {
        drain(&mut session, s, store, can_move).await?;
        if *shutdown.borrow() {
            let _ = session.logout().await;
            return Ok(());
        }
        if can_idle {
            let mut idle = session.idle();
            idle.init().await?;
            let (wait, stop) = idle.wait_with_timeout(s.poll.min(Duration::from_secs(25 * 60)));
            let stopped = tokio::select! {
                r = wait => { r?; false }
                _ = shutdown.changed() => true,
            };
            drop(stop);
            session = idle.done().await?;
            if stopped {
                let _ = session.logout().await;
                return Ok(());
            }
        } else {
            tokio::select! {
                _ = tokio::time::sleep(s.poll) => {}
                _ = shutdown.changed() => {
                    let _ = session.logout().await;
                    return Ok(());
                }
            }
            session.noop().await?;
        }
    }
}

/// Take every message now in the mailbox.
async fn drain<F, Fut>(
    session: &mut ImapSession,
    s: &ImapSettings,
    store: &mut F,
    can_move: bool,
) -> Result<(), ImapError>
where
    F: FnMut(Fetched) -> Fut,
    Fut: Future<Output = Result<(), String>>,
{
    let mut uids: Vec<u32> = session.uid_search("UNDELETED").await?.into_iter().collect();
    uids.sort_unstable();
    if uids.is_empty() {
        return Ok(());
    }
    debug!(count = uids.len(), "IMAP messages to take");
    for chunk in uids.chunks(100) {
        let set = chunk
            .iter()
            .map(|u| u.to_string())
            .collect::<Vec<_>>()
            .join(",");
        // Sizes first, so a huge mail is fetched as a header only.
        let sizes: Vec<(u32, u32)> = session
            .uid_fetch(&set, "(UID RFC822.SIZE)")
            .await?
            .try_filter_map(|f| async move { Ok(f.uid.map(|u| (u, f.size.unwrap_or(0)))) })
            .try_collect()
            .await?;
        let (small, big): (Vec<_>, Vec<_>) =
            sizes.into_iter().partition(|&(_, sz)| sz <= s.max_bytes);
        let mut done = Vec::new();
        for (list, truncated) in [(small, false), (big, true)] {
            if list.is_empty() {
                continue;
            }
            let set = list
                .iter()
                .map(|(u, _)| u.to_string())
                .collect::<Vec<_>>()
                .join(",");
            let query = if truncated {
                "(UID BODY.PEEK[HEADER])"
            } else {
                "(UID BODY.PEEK[])"
            };
            let fetched: Vec<(u32, Vec<u8>)> = session
                .uid_fetch(&set, query)
                .await?
                .try_filter_map(|f| async move {
                    let bytes = if truncated { f.header() } else { f.body() };
                    Ok(f.uid.zip(bytes.map(|b| b.to_vec())))
                })
                .try_collect()
                .await?;
            for (uid, raw) in fetched {
                let size = list.iter().find(|(u, _)| *u == uid).map_or(0, |(_, s)| *s);
                store(Fetched {
                    raw,
                    size,
                    truncated,
                })
                .await
                .map_err(ImapError::Store)?;
                done.push(uid);
            }
        }
        if done.is_empty() {
            continue;
        }
        let set = done
            .iter()
            .map(|u| u.to_string())
            .collect::<Vec<_>>()
            .join(",");
        match (&s.processed, can_move) {
            (Some(p), true) => session.uid_mv(&set, p).await?,
            (Some(p), false) => {
                session.uid_copy(&set, p).await?;
                mark_deleted(session, &set).await?;
            }
            (None, _) => mark_deleted(session, &set).await?,
        }
    }
    Ok(())
}

async fn mark_deleted(session: &mut ImapSession, set: &str) -> Result<(), ImapError> {
    session
        .uid_store(set, "+FLAGS.SILENT (\\Seen \\Deleted)")
        .await?
        .try_collect::<Vec<_>>()
        .await?;
    session.expunge().await?.try_collect::<Vec<_>>().await?;
    Ok(())
}
