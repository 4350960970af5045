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
use async_imap::types::UnsolicitedResponse;
use async_imap::{Client, Session};
use futures::TryStreamExt;
use std::fmt::Debug;
use std::future::Future;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::sync::watch;
use tracing::{debug, error, info, warn};

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

/// What `store` gives back for a batch it kept: for each mail of the
/// batch, in order, the copy to leave in the processed mailbox in its
/// place (its passwords masked), or `None` to move the mail itself there.
pub(crate) type Kept = Vec<Option<Vec<u8>>>;

/// One message taken from the mailbox.
#[derive(Debug, Clone)]
pub(crate) struct Fetched {
    /// The bytes: the whole mail, or its header when it was too large.
    pub raw: Vec<u8>,
    /// Size reported by the server.
    pub size: u32,
    /// Only the header was fetched.
    pub truncated: bool,
}

/// An IMAP failure (the loop logs it and reconnects).
#[derive(Debug, thiserror::Error)]
pub(crate) enum ImapError {
    /// TCP connect failed.
    #[error("cannot connect to {0}")]
    Connect(String, #[source] std::io::Error),
    /// TLS set-up or handshake failed.
    #[error("TLS with the IMAP server {0} failed")]
    Tls(String, #[source] std::io::Error),
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
    /// The server refused the login: a wrong user or password, which no
    /// retry mends.
    #[error("the IMAP server {server} refused the login of {user}")]
    Login {
        /// `host:port`.
        server: String,
        /// The login.
        user: String,
        /// The server's words.
        #[source]
        source: async_imap::error::Error,
    },
    /// The server did not answer in time.
    #[error("the IMAP server {0} did not answer within {secs} s", secs = .1.as_secs())]
    Timeout(String, Duration),
}

trait Io: AsyncRead + AsyncWrite + Unpin + Send + Debug {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send + Debug> Io for T {}

type ImapSession = Session<Box<dyn Io>>;

/// `host:port` of the server, for messages.
fn server(s: &ImapSettings) -> String {
    format!("{}:{}", s.host, s.port)
}

/// Connect (TCP, TLS as configured) and read the greeting: a client ready
/// to log in.
async fn open(s: &ImapSettings) -> Result<Client<Box<dyn Io>>, ImapError> {
    let addr = server(s);
    let tcp = TcpStream::connect(&addr)
        .await
        .map_err(|e| ImapError::Connect(addr.clone(), e))?;
    let name = tls::server_name(s.tls_name.as_deref().unwrap_or(&s.host))?;
    Ok(match s.tls {
        TlsMode::Implicit => {
            let stream = tls::connector(s.ca_pem.as_deref())?
                .connect(name, tcp)
                .await
                .map_err(|e| ImapError::Tls(addr.clone(), e))?;
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
                .map_err(|e| ImapError::Tls(addr.clone(), e))?;
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
    })
}

/// Log in with the configured user and password. A refusal (NO or BAD)
/// is [`ImapError::Login`]: the credentials, not the network.
async fn login(s: &ImapSettings, client: Client<Box<dyn Io>>) -> Result<ImapSession, ImapError> {
    client
        .login(&s.user, &s.password)
        .await
        .map_err(|(e, _)| match e {
            async_imap::error::Error::No(_) | async_imap::error::Error::Bad(_) => {
                ImapError::Login {
                    server: server(s),
                    user: s.user.clone(),
                    source: e,
                }
            }
            e => ImapError::Imap(e),
        })
}

async fn connect(s: &ImapSettings) -> Result<ImapSession, ImapError> {
    let mut session = login(s, open(s).await?).await?;
    if let Some(p) = &s.processed {
        // Already there is fine.
        let _ = session.create(p).await;
    }
    session.select(&s.mailbox).await?;
    Ok(session)
}

/// What `check-config` proves of the IMAP settings, changing nothing:
/// the server answers, TLS works with the configured trust, the login is
/// taken, and the mailbox to read is there (`EXAMINE`, read only). The
/// whole takes at most `within`, or fails naming the server.
pub(crate) async fn check_login(s: &ImapSettings, within: Duration) -> Result<(), ImapError> {
    let check = async {
        let mut session = login(s, open(s).await?).await?;
        session.examine(&s.mailbox).await?;
        let _ = session.logout().await;
        Ok(())
    };
    tokio::time::timeout(within, check)
        .await
        .map_err(|_| ImapError::Timeout(server(s), within))?
}

/// Read mail until `shutdown` turns true, handing messages to `store` a
/// batch at a time and removing them from the mailbox only when `store`
/// succeeded.
pub(crate) async fn run<F, Fut>(s: ImapSettings, mut store: F, mut shutdown: watch::Receiver<bool>)
where
    F: FnMut(Vec<Fetched>) -> Fut,
    Fut: Future<Output = Result<Kept, String>>,
{
    const MIN_BACKOFF: Duration = Duration::from_secs(1);
    const MAX_BACKOFF: Duration = Duration::from_secs(300);
    let mut backoff = MIN_BACKOFF;
    // A refused login is told once as an error (the operator must mend
    // the configuration), then retried quietly until it is taken.
    let mut refusal_told = false;
    while !*shutdown.borrow() {
        let mut connected = false;
        match session_loop(&s, &mut store, &mut shutdown, &mut connected).await {
            Ok(()) => return,
            Err(e) => {
                // A connection that worked ends the series of failures: the
                // next wait starts short again.
                if connected {
                    backoff = MIN_BACKOFF;
                    refusal_told = false;
                }
                let jitter = 0.8 + fastrand::f64() * 0.4;
                let wait = backoff.mul_f64(jitter);
                let source = std::error::Error::source(&e).map(|s| s.to_string());
                match &e {
                    ImapError::Login { .. } if !refusal_told => {
                        refusal_told = true;
                        error!(error = %e, source = ?source, retry_in = ?wait, "the IMAP login is refused: no mail is read until imap.user and its password are right (zinejudge check-config tells); trying again");
                    }
                    ImapError::Login { .. } => {
                        warn!(error = %e, source = ?source, retry_in = ?wait, "the IMAP login is still refused");
                    }
                    _ => {
                        warn!(error = %e, source = ?source, retry_in = ?wait, "IMAP connection lost")
                    }
                }
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
    connected: &mut bool,
) -> Result<(), ImapError>
where
    F: FnMut(Vec<Fetched>) -> Fut,
    Fut: Future<Output = Result<Kept, String>>,
{
    let mut session = connect(s).await?;
    let caps = session.capabilities().await?;
    *connected = true;
    let can_idle = s.idle && caps.has_str("IDLE");
    let can_move = caps.has_str("MOVE");
    // The server announces mail that arrives while a command runs (EXISTS)
    // with that command's answer; the library puts such answers in a
    // channel (of 100: more are dropped), and IDLE then waits only for
    // mail that comes later. So: look again after every batch taken, and
    // before idling, unless the answers of the last (empty) look announced
    // nothing.
    let unsolicited = session.unsolicited_responses.clone();
    // Empty that channel; whether anything in it says the mailbox grew.
    let mail_announced = || {
        let mut grew = false;
        while let Ok(r) = unsolicited.try_recv() {
            grew |= matches!(
                r,
                UnsolicitedResponse::Exists(_) | UnsolicitedResponse::Recent(_)
            );
        }
        grew
    };
    info!(host = %s.host, mailbox = %s.mailbox, idle = can_idle, "IMAP connected");
    loop {
        mail_announced();
        let taken = drain(&mut session, s, store, can_move).await?;
        if *shutdown.borrow() {
            let _ = session.logout().await;
            return Ok(());
        }
        if taken > 0 || mail_announced() {
            continue;
        }
        if can_idle {
            let mut idle = session.idle();
            idle.init().await?;
            // Mail announced as IDLE started is not waited for again.
            let stopped = if mail_announced() {
                false
            } else {
                let (wait, stop) = idle.wait_with_timeout(s.poll.min(Duration::from_secs(25 * 60)));
                let stopped = tokio::select! {
                    r = wait => { r?; false }
                    _ = shutdown.changed() => true,
                };
                drop(stop);
                stopped
            };
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

/// At most this many bytes of mail are fetched (and held) at once.
const BATCH_BYTES: u64 = 8 << 20;

/// Take every message now in the mailbox; returns how many were taken.
/// Messages are fetched in batches (at most 100 messages, at most
/// [`BATCH_BYTES`] unless one message alone is larger), each handed to
/// `store` whole (the daemon keeps a batch in one transaction: one wait for
/// the disk, not one per mail) and then moved out of the mailbox.
async fn drain<F, Fut>(
    session: &mut ImapSession,
    s: &ImapSettings,
    store: &mut F,
    can_move: bool,
) -> Result<usize, ImapError>
where
    F: FnMut(Vec<Fetched>) -> Fut,
    Fut: Future<Output = Result<Kept, String>>,
{
    let mut uids: Vec<u32> = session.uid_search("UNDELETED").await?.into_iter().collect();
    uids.sort_unstable();
    if uids.is_empty() {
        return Ok(0);
    }
    let mut taken = 0;
    debug!(count = uids.len(), "IMAP messages to take");
    for chunk in uids.chunks(100) {
        // Sizes first, so a huge mail is fetched as a header only.
        let sizes: Vec<(u32, u32)> = session
            .uid_fetch(&uid_set(chunk.iter()), "(UID RFC822.SIZE)")
            .await?
            .try_filter_map(|f| async move { Ok(f.uid.map(|u| (u, f.size.unwrap_or(0)))) })
            .try_collect()
            .await?;
        let (small, big): (Vec<_>, Vec<_>) =
            sizes.into_iter().partition(|&(_, sz)| sz <= s.max_bytes);
        let mut batches: Vec<(Vec<(u32, u32)>, bool)> = Vec::new();
        let mut bytes = 0u64;
        for (uid, size) in small {
            match batches.last_mut() {
                Some((b, false)) if bytes + u64::from(size) <= BATCH_BYTES => b.push((uid, size)),
                _ => {
                    batches.push((vec![(uid, size)], false));
                    bytes = 0;
                }
            }
            bytes += u64::from(size);
        }
        if !big.is_empty() {
            batches.push((big, true));
        }
        for (list, truncated) in batches {
            let query = if truncated {
                "(UID BODY.PEEK[HEADER])"
            } else {
                "(UID BODY.PEEK[])"
            };
            let fetched: Vec<(u32, Vec<u8>)> = session
                .uid_fetch(&uid_set(list.iter().map(|(u, _)| u)), query)
                .await?
                .try_filter_map(|f| async move {
                    let bytes = if truncated { f.header() } else { f.body() };
                    Ok(f.uid.zip(bytes.map(|b| b.to_vec())))
                })
                .try_collect()
                .await?;
            if fetched.is_empty() {
                continue;
            }
            let done: Vec<u32> = fetched.iter().map(|(u, _)| *u).collect();
            let mails = fetched
                .into_iter()
                .map(|(uid, raw)| Fetched {
                    raw,
                    size: list.iter().find(|(u, _)| *u == uid).map_or(0, |(_, s)| *s),
                    truncated,
                })
                .collect();
            let kept = store(mails).await.map_err(ImapError::Store)?;
            // Stored: now it may leave the mailbox. A mail that held
            // passwords leaves a masked copy in the processed mailbox
            // instead of itself, as the store keeps it: the clear text is
            // kept nowhere once the judge has it.
            taken += done.len();
            let mut plain = Vec::new();
            let mut masked = Vec::new();
            for (i, uid) in done.iter().enumerate() {
                match kept.get(i).cloned().flatten() {
                    Some(copy) => masked.push((*uid, copy)),
                    None => plain.push(*uid),
                }
            }
            if !plain.is_empty() {
                let set = uid_set(plain.iter());
                match (&s.processed, can_move) {
                    (Some(p), true) => session.uid_mv(&set, p).await?,
                    (Some(p), false) => {
                        session.uid_copy(&set, p).await?;
                        mark_deleted(session, &set).await?;
                    }
                    (None, _) => mark_deleted(session, &set).await?,
                }
            }
            if !masked.is_empty() {
                if let Some(p) = &s.processed {
                    for (_, copy) in &masked {
                        session.append(p, Some("(\\Seen)"), None, copy).await?;
                    }
                }
                mark_deleted(session, &uid_set(masked.iter().map(|(u, _)| u))).await?;
            }
        }
    }
    Ok(taken)
}

fn uid_set<'a>(uids: impl Iterator<Item = &'a u32>) -> String {
    uids.map(|u| u.to_string()).collect::<Vec<_>>().join(",")
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
