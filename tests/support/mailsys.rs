//! A real, throw-away mail system for integration tests.
//!
//! [`MailSystem::start`] runs Dovecot (IMAP, IMAPS, LMTP) and Postfix (SMTP,
//! submission, smtps) on 127.0.0.1 only, as child processes of the test
//! process, with their configuration, certificates, queue and mailboxes in
//! a fresh temporary directory and a port base of their own (reserved with
//! a lock file in `$TMPDIR/zjmail-ports`), so any number of tests and test
//! binaries can run at once. Start-up takes about 0.3 s.
//!
//! Dropping it stops both servers (kill, then wait: nothing is left as a
//! zombie) and removes the directory. If the test panicked, the directory
//! is kept and the servers' log tails are printed; `ZJ_MAILTEST_KEEP=1`
//! keeps it always. A watchdog process kills the servers and removes the
//! directory if the test process dies without unwinding (a signal, abort).
//!
//! Mail to any address at any domain is accepted and delivered to that
//! address's own Maildir; nothing is relayed anywhere else. Every address
//! logs in to IMAP (and SMTP AUTH) with the full address and the password
//! `pw-<localpart>` ([`password_for`]); [`JUDGE_ADDRESS`] has
//! [`JUDGE_PASSWORD`]. The servers' certificate is for `localhost` and
//! `127.0.0.1`, signed by a CA made for this mail system
//! ([`MailSystem::ca_cert_path`]): connect to 127.0.0.1 and verify the name
//! `localhost`.
//!
//! Outages: [`MailSystem::stop_imap`] stops Dovecot (IMAP and delivery: Postfix
//! still accepts mail and queues it), [`MailSystem::stop_smtp`] stops Postfix
//! (connections refused; its queue is kept). Both return once the ports
//! refuse connections; the `start_*` twins bring them back on the same ports.
//!
//! The configuration is written by `scripts/mailtest-up.sh --config-only`,
//! the same script that starts a mail system by hand for trying the daemon.
//! The servers need root (Postfix's master must run as root) and Debian's
//! `dovecot-imapd`, `dovecot-lmtpd` and `postfix`: `scripts/install-test-deps.sh`.
//!
//! The mail helpers are async; each has a `*_blocking` twin for plain
//! `#[test]`s, which runs it on a thread of its own with its own runtime, so
//! it also works (blocking) from inside a tokio runtime. Process control
//! (`start`, `stop_*`, `start_*`, drop) is blocking and takes milliseconds.

use std::{
    collections::hash_map::RandomState,
    fmt,
    fs::{self, OpenOptions},
    future::Future,
    hash::BuildHasher,
    io::{BufRead, BufReader, Write},
    net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream as StdTcpStream},
    os::unix::{fs::PermissionsExt, io::AsRawFd, process::CommandExt},
    path::{Path, PathBuf},
    process::{Child, ChildStdin, Command, Stdio},
    sync::{
        Arc, Mutex, MutexGuard,
        atomic::{AtomicU64, Ordering},
    },
    thread,
    time::{Duration, Instant, SystemTime},
};

use futures::TryStreamExt;
use lettre::{
    Address, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor,
    address::Envelope,
    transport::smtp::{
        authentication::Credentials,
        client::{Certificate, CertificateStore, Tls, TlsParameters},
        extension::ClientId,
    },
};
use rustls_pki_types::{CertificateDer, ServerName, pem::PemObject};
use tokio::net::TcpStream;
use tokio_rustls::{TlsConnector, client::TlsStream, rustls};

/// The domain of the addresses [`MailSystem::address`] makes.
pub const TEST_DOMAIN: &str = "example.test";
/// The judge's account, configured in every mail system.
pub const JUDGE_ADDRESS: &str = "judge@example.test";
/// The judge's IMAP and SMTP AUTH password.
pub const JUDGE_PASSWORD: &str = "judgepw";
/// The name the servers' certificate is checked against.
const TLS_NAME: &str = "localhost";

const START_TIMEOUT: Duration = Duration::from_secs(30);
const STOP_TIMEOUT: Duration = Duration::from_secs(15);
const NET_TIMEOUT: Duration = Duration::from_secs(10);
const POLL: Duration = Duration::from_millis(25);

/// The errors of this module: anything, with a readable message.
pub type Error = Box<dyn std::error::Error + Send + Sync>;
/// `Result` with [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
/// An IMAP session over TLS (IMAPS, or IMAP after STARTTLS).
pub type ImapSession = async_imap::Session<TlsStream<TcpStream>>;

/// The mail system's listening ports, all on 127.0.0.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ports {
    /// IMAP; plain, STARTTLS offered (Dovecot).
    pub imap: u16,
    /// IMAP over implicit TLS (Dovecot).
    pub imaps: u16,
    /// LMTP: delivery straight into Dovecot, skipping Postfix.
    pub lmtp: u16,
    /// Dovecot's SASL service, used by Postfix for SMTP AUTH.
    pub sasl: u16,
    /// SMTP without authentication; loopback clients may send anything.
    pub smtp: u16,
    /// Submission: STARTTLS and AUTH required.
    pub submission: u16,
    /// SMTP over implicit TLS, AUTH required.
    pub smtps: u16,
}

impl Ports {
    fn from_base(base: u16) -> Ports {
        Ports {
            imap: base + 143,
            imaps: base + 993,
            lmtp: base + 24,
            sasl: base + 12,
            smtp: base + 25,
            submission: base + 587,
            smtps: base + 465,
        }
    }

    fn all(&self) -> [u16; 7] {
        [
            self.imap,
            self.imaps,
            self.lmtp,
            self.sasl,
            self.smtp,
            self.submission,
            self.smtps,
        ]
    }
}

/// A mail account: login (the full address) and password.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The address, also the login.
    pub address: String,
    /// The IMAP and SMTP AUTH password.
    pub password: String,
}

impl Account {
    /// The account of `address`, with the password the mail system gives it.
    pub fn new(address: &str) -> Account {
        Account {
            address: address.to_owned(),
            password: password_for(address),
        }
    }
}

/// The password of `address`: [`JUDGE_PASSWORD`] for the judge, otherwise
/// `pw-` and the lower-cased local part.
pub fn password_for(address: &str) -> String {
    if address.eq_ignore_ascii_case(JUDGE_ADDRESS) {
        return JUDGE_PASSWORD.to_owned();
    }
    let local = address.rsplit_once('@').map_or(address, |(l, _)| l);
    format!("pw-{}", local.to_lowercase())
}

/// Whether this is a CI run (`CI` set to anything but empty, `0` or `false`).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false" | "FALSE" | "False"))
}

/// Why the mail system cannot start on this machine: the programs it needs
/// that are missing, or `None` when all are present.
pub fn missing_servers() -> Option<String> {
    let missing: Vec<&str> = ["dovecot", "postfix", "postconf", "openssl", "bash"]
        .into_iter()
        .filter(|p| find_program(p).is_none())
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "mail servers not installed (missing: {}); run scripts/install-test-deps.sh as root",
            missing.join(", ")
        )
    })
}

/// A raw RFC 5322 message (with Date and Message-ID) for tests to send.
pub fn message(from: &str, to: &str, subject: &str, body: &str) -> Vec<u8> {
    Message::builder()
        .from(from.parse().expect("from address"))
        .to(to.parse().expect("to address"))
        .subject(subject)
        .message_id(None)
        .body(body.to_owned())
        .expect("message")
        .formatted()
}

/// Run `fut` to completion on a thread of its own with a current-thread
/// tokio runtime: async code from a plain test, or from async code that may
/// block (it does not need the caller's runtime).
pub fn block_on<F>(fut: F) -> F::Output
where
    F: Future + Send,
    F::Output: Send,
{
    thread::scope(|s| {
        s.spawn(|| {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("tokio runtime")
                .block_on(fut)
        })
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Poll `condition` every few milliseconds until it holds; after `timeout`,
/// panic saying `what` never happened.
pub fn wait_until(what: &str, timeout: Duration, mut condition: impl FnMut() -> bool) {
    let deadline = Instant::now() + timeout;
    while !condition() {
        assert!(Instant::now() < deadline, "{what}: not within {timeout:?}");
        thread::sleep(POLL);
    }
}

/// Dovecot and Postfix on 127.0.0.1, owned by this test. See the module docs.
pub struct MailSystem {
    dir: PathBuf,
    ports: Ports,
    /// Held for its lock; released (dropped) after the servers stop.
    port_claim: Option<PortClaim>,
    tag: String,
    programs: Programs,
    ca_path: PathBuf,
    ca_pem: Vec<u8>,
    tls: Arc<rustls::ClientConfig>,
    servers: Mutex<Servers>,
    next_address: AtomicU64,
    /// Recipients (by local-part prefix) relayed to an SMTP server on
    /// 127.0.0.1 instead of delivered into Dovecot: (prefix, port).
    relay: Option<(String, u16)>,
    watchdog: Option<(Child, ChildStdin)>,
}

#[derive(Default)]
struct Servers {
    dovecot: Option<Child>,
    postfix: Option<Child>,
}

impl fmt::Debug for MailSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MailSystem")
            .field("dir", &self.dir)
            .field("ports", &self.ports)
            .finish_non_exhaustive()
    }
}

impl MailSystem {
    /// Start a mail system, or panic saying why not (with the servers' logs).
    pub fn start() -> MailSystem {
        match MailSystem::try_start() {
            Ok(ms) => ms,
            Err(e) => panic!("cannot start the test mail system: {e}"),
        }
    }

    /// Start a mail system; when the servers are not installed, print why
    /// and return `None` so the test can return early — except in CI
    /// ([`in_ci`]), where missing servers are a failure (panic).
    pub fn start_or_skip(test: &str) -> Option<MailSystem> {
        if let Some(reason) = missing_servers() {
            if in_ci() {
                panic!("{test}: {reason} (CI is set, so this is a failure, not a skip)");
            }
            // Straight to stderr: libtest captures eprintln! of passing tests.
            let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
            return None;
        }
        Some(MailSystem::start())
    }

    /// Start a mail system.
    pub fn try_start() -> Result<MailSystem> {
        MailSystem::try_start_with(None)
    }

    /// As [`MailSystem::start_or_skip`], but mail to addresses whose local
    /// part starts with `prefix` is relayed by Postfix's `smtp` client to
    /// the server at 127.0.0.1:`port` (for example a
    /// [`crate::support::sink::SmtpSink`]) instead of being delivered into
    /// Dovecot: as a deployed judge's Postfix relays answers to the
    /// players' providers. Everything else is as in [`MailSystem::start`].
    pub fn start_relaying_or_skip(test: &str, prefix: &str, port: u16) -> Option<MailSystem> {
        if let Some(reason) = missing_servers() {
            if in_ci() {
                panic!("{test}: {reason} (CI is set, so this is a failure, not a skip)");
            }
            let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
            return None;
        }
        match MailSystem::try_start_with(Some((prefix.to_owned(), port))) {
            Ok(ms) => Some(ms),
            Err(e) => panic!("cannot start the test mail system: {e}"),
        }
    }

    fn try_start_with(relay: Option<(String, u16)>) -> Result<MailSystem> {
        if let Some(reason) = missing_servers() {
            return Err(reason.into());
        }
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } != 0 {
            return Err(
                "the test mail system needs root: Postfix's master runs only as root".into(),
            );
        }
        let programs = Programs::find()?;
        let dir = make_temp_dir()?;
        let watchdog = spawn_watchdog(&dir)
            .map_err(|e| format!("cannot start the watchdog: {e}"))
            .inspect_err(|_| {
                let _ = fs::remove_dir_all(&dir);
            })?;
        let tag = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("zjmail")
            .to_owned();
        let mut last_error: Error = "no attempt made".into();
        for _attempt in 0..6 {
            let claim = match claim_ports() {
                Ok(claim) => claim,
                Err(e) => {
                    last_error = e;
                    break;
                }
            };
            let mut ms = MailSystem {
                dir: dir.clone(),
                ports: claim.ports,
                port_claim: Some(claim),
                tag: tag.clone(),
                programs: programs.clone(),
                ca_path: dir.join("tls/ca.pem"),
                ca_pem: Vec::new(),
                tls: Arc::new(empty_tls_config()),
                servers: Mutex::new(Servers::default()),
                next_address: AtomicU64::new(1),
                relay: relay.clone(),
                watchdog: None,
            };
            match ms.launch() {
                Ok(()) => {
                    ms.watchdog = Some(watchdog);
                    return Ok(ms);
                }
                Err(e) => {
                    ms.stop_all_quietly();
                    // Not Drop: the directory stays for the next attempt.
                    // The port claim (a file) is closed; the rest is leaked.
                    drop(ms.port_claim.take());
                    std::mem::forget(ms);
                    // Another process took one of the ports between the
                    // check and the bind: try another port base.
                    let in_use = e.to_string().contains("Address already in use");
                    last_error = e;
                    if !in_use {
                        break;
                    }
                }
            }
        }
        let (mut child, stdin) = watchdog;
        drop(stdin); // the watchdog removes the directory
        let _ = child.wait();
        Err(last_error)
    }

    /// Write the configuration and start both servers.
    fn launch(&mut self) -> Result<()> {
        self.configure()?;
        self.start_server(Server::Dovecot)?;
        self.start_server(Server::Postfix)
    }

    fn configure(&mut self) -> Result<()> {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/mailtest-up.sh");
        let out = Command::new(&self.programs.bash)
            .arg(&script)
            .arg("--config-only")
            .arg(&self.dir)
            .arg((self.ports.imap - 143).to_string())
            .env("MAILTEST_TAG", &self.tag)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
        if !out.status.success() {
            return Err(format!(
                "{} failed ({}): {}{}",
                script.display(),
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
            .into());
        }
        self.ca_pem = fs::read(&self.ca_path)?;
        self.tls = Arc::new(tls_config(&self.ca_pem)?);
        if let Some((prefix, port)) = &self.relay {
            // A transport map wins over the virtual (Dovecot) transport;
            // only 127.0.0.1 is ever a next hop.
            let etc = self.dir.join("postfix/etc");
            let map = etc.join("relay.regexp");
            let escaped: String = prefix
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_string()
                    } else {
                        format!("\\{c}")
                    }
                })
                .collect();
            fs::write(&map, format!("/^{escaped}/ smtp:[127.0.0.1]:{port}\n"))?;
            let main_cf = etc.join("main.cf");
            let mut cf = fs::read_to_string(&main_cf)?;
            cf.push_str(&format!(
                "transport_maps = regexp:{}\nsmtp_tls_security_level = none\n",
                map.display()
            ));
            fs::write(&main_cf, cf)?;
            // Postfix waits while main.cf is younger than a second.
            let old = std::time::SystemTime::now() - Duration::from_secs(60);
            fs::File::options()
                .write(true)
                .open(&main_cf)?
                .set_modified(old)?;
        }
        Ok(())
    }

    /// The process ids of the servers' masters (Dovecot, Postfix), for
    /// accounting their CPU time with their children's.
    pub fn server_pids(&self) -> Vec<(&'static str, u32)> {
        let Ok(s) = self.servers.lock() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if let Some(c) = &s.dovecot {
            out.push(("dovecot", c.id()));
        }
        if let Some(c) = &s.postfix {
            out.push(("postfix", c.id()));
        }
        out
    }

    /// The directory holding configuration, logs, queue and mailboxes.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The listening ports.
    pub fn ports(&self) -> Ports {
        self.ports
    }

    /// Where the CA certificate (PEM) that signed the servers' certificate is.
    pub fn ca_cert_path(&self) -> &Path {
        &self.ca_path
    }

    /// The CA certificate, PEM.
    pub fn ca_cert_pem(&self) -> &[u8] {
        &self.ca_pem
    }

    /// A rustls client configuration (ring provider) trusting only the CA.
    pub fn rustls_config(&self) -> Arc<rustls::ClientConfig> {
        self.tls.clone()
    }

    /// A TLS connector trusting only the CA; verify the name `localhost`.
    pub fn tls_connector(&self) -> TlsConnector {
        TlsConnector::from(self.tls.clone())
    }

    /// lettre's TLS parameters trusting only the CA.
    pub fn smtp_tls_parameters(&self) -> Result<TlsParameters> {
        Ok(TlsParameters::builder(TLS_NAME.to_owned())
            .certificate_store(CertificateStore::None)
            .add_root_certificate(Certificate::from_pem(&self.ca_pem)?)
            .build_rustls()?)
    }

    /// A fresh address at [`TEST_DOMAIN`], unique in this mail system:
    /// `<label>-<n>@example.test`.
    pub fn address(&self, label: &str) -> String {
        let n = self.next_address.fetch_add(1, Ordering::Relaxed);
        format!("{label}-{n}@{TEST_DOMAIN}")
    }

    /// A fresh account ([`MailSystem::address`] and its password).
    pub fn account(&self, label: &str) -> Account {
        Account::new(&self.address(label))
    }

    /// The judge's account: [`JUDGE_ADDRESS`], [`JUDGE_PASSWORD`].
    pub fn judge(&self) -> Account {
        Account::new(JUDGE_ADDRESS)
    }

    /// Dovecot's log so far.
    pub fn dovecot_log(&self) -> String {
        read_lossy(&self.dir.join("dovecot/dovecot.log"))
    }

    /// Postfix's log so far.
    pub fn postfix_log(&self) -> String {
        read_lossy(&self.dir.join("postfix/postfix.log"))
    }

    /// How many messages wait in Postfix's queue (not yet delivered).
    pub fn queued_messages(&self) -> usize {
        let spool = self.dir.join("postfix/spool");
        ["maildrop", "incoming", "active", "deferred", "hold"]
            .iter()
            .map(|q| count_files(&spool.join(q)))
            .sum()
    }

    // ---- outages

    /// Stop Dovecot (IMAP, IMAPS, LMTP, SASL): returns once its ports refuse
    /// connections. Postfix keeps accepting mail and queues it meanwhile.
    /// Panics if it cannot be stopped.
    pub fn stop_imap(&self) {
        self.stop_server(Server::Dovecot)
            .unwrap_or_else(|e| panic!("stop_imap: {e}"));
    }

    /// Start Dovecot again on the same ports, with the same mailboxes;
    /// returns once it answers. Panics if it does not come up.
    pub fn start_imap(&self) {
        self.start_server(Server::Dovecot)
            .unwrap_or_else(|e| panic!("start_imap: {e}"));
    }

    /// Stop Postfix (SMTP, submission, smtps): returns once its ports refuse
    /// connections. Queued mail stays in the queue.
    pub fn stop_smtp(&self) {
        self.stop_server(Server::Postfix)
            .unwrap_or_else(|e| panic!("stop_smtp: {e}"));
    }

    /// Start Postfix again on the same ports with the same queue; returns
    /// once it answers. Panics if it does not come up.
    pub fn start_smtp(&self) {
        self.start_server(Server::Postfix)
            .unwrap_or_else(|e| panic!("start_smtp: {e}"));
    }

    /// Whether Dovecot is running (started and not stopped).
    pub fn imap_running(&self) -> bool {
        self.lock_servers().dovecot.is_some()
    }

    /// Whether Postfix is running (started and not stopped).
    pub fn smtp_running(&self) -> bool {
        self.lock_servers().postfix.is_some()
    }

    fn lock_servers(&self) -> MutexGuard<'_, Servers> {
        self.servers.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn start_server(&self, which: Server) -> Result<()> {
        let mut servers = self.lock_servers();
        if which.slot(&mut servers).is_some() {
            return Err(format!("{} is already running", which.name()).into());
        }
        let log = |name: &str| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(self.dir.join(which.dir_name()).join(name))
        };
        let mut cmd = match which {
            Server::Dovecot => {
                // A stale pid file could name an unreaped zombie: dovecot
                // would then refuse to start ("already running").
                let _ = fs::remove_file(self.dir.join("dovecot/run/master.pid"));
                let mut c = Command::new(&self.programs.dovecot);
                c.arg("-F")
                    .arg("-c")
                    .arg(self.dir.join("dovecot/dovecot.conf"));
                c
            }
            Server::Postfix => {
                // master itself, not `postfix start-fg` (a shell wrapper
                // around it); it makes itself a process group leader.
                let mut c = Command::new(&self.programs.postfix_master);
                c.arg("-s").arg("-c").arg(self.dir.join("postfix/etc"));
                c
            }
        };
        cmd.stdin(Stdio::null())
            .stdout(log("stdout.log")?)
            .stderr(log("stdout.log")?);
        if which == Server::Dovecot {
            // Its own process group, so that one kill reaches all of its
            // processes. Not Postfix's master: it calls setsid() itself,
            // which fails for a group leader, and master then exits 1
            // without a word.
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", which.name()))?;
        // For the watchdog: the group to kill should this process die.
        let _ = fs::write(self.pgid_file(which), child.id().to_string());
        if let Err(e) = self.wait_ready(which, &mut child) {
            let _ = self.terminate(which, child);
            return Err(format!("{e}\n{}", self.log_tails()).into());
        }
        *which.slot(&mut servers) = Some(child);
        Ok(())
    }

    fn wait_ready(&self, which: Server, child: &mut Child) -> Result<()> {
        let deadline = Instant::now() + START_TIMEOUT;
        let mut pending: Vec<(u16, &str)> = match which {
            Server::Dovecot => vec![(self.ports.imap, "a LOGOUT\r\n")],
            Server::Postfix => vec![
                (self.ports.smtp, "QUIT\r\n"),
                (self.ports.submission, "QUIT\r\n"),
            ],
        };
        loop {
            if let Some(status) = child.try_wait()? {
                return Err(format!("{} exited at start-up ({status})", which.name()).into());
            }
            pending.retain(|(port, bye)| !banner_has(*port, &self.tag, bye));
            if pending.is_empty() {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "{} did not answer with its banner on port(s) {:?} within {START_TIMEOUT:?}",
                    which.name(),
                    pending.iter().map(|p| p.0).collect::<Vec<_>>()
                )
                .into());
            }
            thread::sleep(POLL);
        }
    }

    fn stop_server(&self, which: Server) -> Result<()> {
        let mut servers = self.lock_servers();
        let child = which
            .slot(&mut servers)
            .take()
            .ok_or_else(|| format!("{} is not running", which.name()))?;
        self.terminate(which, child)
    }

    /// SIGTERM the server's process group, wait for its master (SIGKILL
    /// after STOP_TIMEOUT), kill what is left of the group, and wait until
    /// its ports refuse connections. Dovecot's master, sent SIGTERM alone,
    /// takes a second to wind its children down; the whole group at once
    /// stops in milliseconds.
    fn terminate(&self, which: Server, mut child: Child) -> Result<()> {
        let pid = child.id() as libc::pid_t;
        signal(pid, libc::SIGTERM);
        let deadline = Instant::now() + STOP_TIMEOUT;
        // Wait until it has exited but is not reaped yet: its pid cannot be
        // reused meanwhile, so its process group can still be killed safely.
        while !is_zombie(pid) {
            if Instant::now() >= deadline {
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        signal(pid, libc::SIGKILL);
        child.wait()?;
        let _ = fs::remove_file(self.pgid_file(which));
        let ports = which.ports(&self.ports);
        while let Some(port) = ports.iter().find(|p| port_open(**p)) {
            if Instant::now() >= deadline {
                return Err(format!(
                    "{} stopped but port {port} still accepts connections",
                    which.name()
                )
                .into());
            }
            thread::sleep(POLL);
        }
        Ok(())
    }

    fn stop_all_quietly(&self) {
        let mut servers = self.lock_servers();
        for which in [Server::Postfix, Server::Dovecot] {
            if let Some(child) = which.slot(&mut servers).take()
                && let Err(e) = self.terminate(which, child)
            {
                eprintln!("mail system: {e}");
            }
        }
    }

    fn pgid_file(&self, which: Server) -> PathBuf {
        self.dir.join(format!("{}.pgid", which.name()))
    }

    fn log_tails(&self) -> String {
        let mut out = String::new();
        for (name, path) in [
            ("dovecot.log", "dovecot/dovecot.log"),
            ("dovecot stdout", "dovecot/stdout.log"),
            ("postfix.log", "postfix/postfix.log"),
            ("postfix stdout", "postfix/stdout.log"),
        ] {
            let text = read_lossy(&self.dir.join(path));
            let lines: Vec<&str> = text.lines().collect();
            let tail = &lines[lines.len().saturating_sub(15)..];
            if !tail.is_empty() {
                out += &format!(
                    "---- {name} ({}):\n{}\n",
                    self.dir.join(path).display(),
                    tail.join("\n")
                );
            }
        }
        out
    }

    // ---- sending

    /// Send `raw` (a whole RFC 5322 message) from `from` to `to` over plain
    /// SMTP (no TLS, no AUTH), as a player's mail server would.
    pub async fn send(&self, from: &str, to: &str, raw: &[u8]) -> Result<()> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1")
            .port(self.ports.smtp)
            .tls(Tls::None)
            .hello_name(ClientId::Domain("client.example.test".into()))
            .timeout(Some(NET_TIMEOUT))
            .build();
        send_with(&transport, from, to, raw).await
    }

    /// Send `raw` as `account` through submission (STARTTLS verified
    /// against the CA, then AUTH), as the judge sends.
    pub async fn send_submission(&self, account: &Account, to: &str, raw: &[u8]) -> Result<()> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous("127.0.0.1")
            .port(self.ports.submission)
            .tls(Tls::Required(self.smtp_tls_parameters()?))
            .credentials(Credentials::new(
                account.address.clone(),
                account.password.clone(),
            ))
            .hello_name(ClientId::Domain("client.example.test".into()))
            .timeout(Some(NET_TIMEOUT))
            .build();
        send_with(&transport, &account.address, to, raw).await
    }

    /// [`MailSystem::send`], blocking.
    pub fn send_blocking(&self, from: &str, to: &str, raw: &[u8]) -> Result<()> {
        block_on(self.send(from, to, raw))
    }

    // ---- reading

    /// Connect to IMAPS (CA verified) and log in as `address` with its
    /// password ([`password_for`]).
    pub async fn imap_login(&self, address: &str) -> Result<ImapSession> {
        self.imap_login_as(&Account::new(address)).await
    }

    /// Connect to IMAPS (CA verified) and log in as `account`.
    pub async fn imap_login_as(&self, account: &Account) -> Result<ImapSession> {
        let tcp = tokio::time::timeout(
            NET_TIMEOUT,
            TcpStream::connect(("127.0.0.1", self.ports.imaps)),
        )
        .await??;
        let tls = tokio::time::timeout(
            NET_TIMEOUT,
            self.tls_connector()
                .connect(ServerName::try_from(TLS_NAME)?, tcp),
        )
        .await??;
        let mut client = async_imap::Client::new(tls);
        client
            .read_response()
            .await?
            .ok_or("IMAPS: connection closed before the greeting")?;
        login(client, account).await
    }

    /// Connect to plain IMAP, upgrade with STARTTLS (CA verified), and log
    /// in as `account`.
    pub async fn imap_login_starttls(&self, account: &Account) -> Result<ImapSession> {
        let tcp = tokio::time::timeout(
            NET_TIMEOUT,
            TcpStream::connect(("127.0.0.1", self.ports.imap)),
        )
        .await??;
        let mut client = async_imap::Client::new(tcp);
        client
            .read_response()
            .await?
            .ok_or("IMAP: connection closed before the greeting")?;
        client.run_command_and_check_ok("STARTTLS", None).await?;
        let tls = tokio::time::timeout(
            NET_TIMEOUT,
            self.tls_connector()
                .connect(ServerName::try_from(TLS_NAME)?, client.into_inner()),
        )
        .await??;
        // No greeting after STARTTLS.
        login(async_imap::Client::new(tls), account).await
    }

    /// Every message in `address`'s INBOX, raw, in mailbox order. Read-only
    /// (EXAMINE, BODY.PEEK): flags such as \Seen are left as they were.
    pub async fn fetch_all(&self, address: &str) -> Result<Vec<Vec<u8>>> {
        let mut session = self.imap_login(address).await?;
        let messages = fetch_inbox(&mut session, 0).await?.unwrap_or_default();
        let _ = session.logout().await;
        Ok(messages)
    }

    /// [`MailSystem::fetch_all`], blocking.
    pub fn fetch_all_blocking(&self, address: &str) -> Result<Vec<Vec<u8>>> {
        block_on(self.fetch_all(address))
    }

    /// Poll `address`'s INBOX over IMAP until it holds at least `count`
    /// messages, then return them all (as [`MailSystem::fetch_all`]). Errors
    /// (Dovecot down, say) are retried until the deadline; then the error
    /// says how many messages there were, or the last failure.
    pub async fn wait_for(
        &self,
        address: &str,
        count: usize,
        timeout: Duration,
    ) -> Result<Vec<Vec<u8>>> {
        let deadline = tokio::time::Instant::now() + timeout;
        let mut session: Option<ImapSession> = None;
        let mut last = String::from("no IMAP attempt finished");
        loop {
            if session.is_none() {
                match tokio::time::timeout_at(deadline, self.imap_login(address)).await {
                    Ok(Ok(s)) => session = Some(s),
                    Ok(Err(e)) => last = format!("IMAP login failed: {e}"),
                    Err(_) => {}
                }
            }
            if let Some(s) = session.as_mut() {
                match tokio::time::timeout_at(deadline, fetch_inbox(s, count)).await {
                    Ok(Ok(Ok(messages))) => {
                        let _ = s.logout().await;
                        return Ok(messages);
                    }
                    Ok(Ok(Err(exists))) => last = format!("INBOX holds {exists} message(s)"),
                    Ok(Err(e)) => {
                        last = format!("IMAP failed: {e}");
                        session = None;
                    }
                    Err(_) => {}
                }
            }
            if tokio::time::Instant::now() >= deadline {
                return Err(format!(
                    "{address}: still fewer than {count} message(s) after {timeout:?}; {last}"
                )
                .into());
            }
            tokio::time::sleep(POLL * 2).await;
        }
    }

    /// [`MailSystem::wait_for`], blocking.
    pub fn wait_for_blocking(
        &self,
        address: &str,
        count: usize,
        timeout: Duration,
    ) -> Result<Vec<Vec<u8>>> {
        block_on(self.wait_for(address, count, timeout))
    }
}

impl Drop for MailSystem {
    fn drop(&mut self) {
        let keep = thread::panicking() || std::env::var_os("ZJ_MAILTEST_KEEP").is_some();
        if thread::panicking() {
            eprintln!("mail system logs:\n{}", self.log_tails());
        }
        self.stop_all_quietly();
        if keep {
            let _ = fs::write(self.dir.join("keep"), b"");
            eprintln!("mail system files kept in {}", self.dir.display());
        }
        if let Some((mut child, stdin)) = self.watchdog.take() {
            drop(stdin); // end of input: the watchdog cleans up and exits
            let _ = child.wait();
        }
        if !keep {
            let _ = fs::remove_dir_all(&self.dir);
        }
    }
}

// ---- servers and programs

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Server {
    Dovecot,
    Postfix,
}

impl Server {
    fn name(self) -> &'static str {
        match self {
            Server::Dovecot => "dovecot",
            Server::Postfix => "postfix",
        }
    }

    fn dir_name(self) -> &'static str {
        self.name()
    }

    fn slot(self, servers: &mut Servers) -> &mut Option<Child> {
        match self {
            Server::Dovecot => &mut servers.dovecot,
            Server::Postfix => &mut servers.postfix,
        }
    }

    fn ports(self, p: &Ports) -> Vec<u16> {
        match self {
            Server::Dovecot => vec![p.imap, p.imaps, p.lmtp, p.sasl],
            Server::Postfix => vec![p.smtp, p.submission, p.smtps],
        }
    }
}

#[derive(Clone, Debug)]
struct Programs {
    bash: PathBuf,
    dovecot: PathBuf,
    postfix_master: PathBuf,
}

impl Programs {
    fn find() -> Result<Programs> {
        let need = |name: &str| find_program(name).ok_or_else(|| format!("{name} not found"));
        let postconf = need("postconf")?;
        let out = Command::new(&postconf)
            // -d: the compiled-in default; without it postconf reads
            // /etc/postfix/main.cf, which may not exist, and then waits 1 s
            .args(["-dh", "daemon_directory"])
            .stdin(Stdio::null())
            .output()?;
        let daemon_dir = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        let daemon_dir = if daemon_dir.is_empty() {
            "/usr/lib/postfix/sbin".to_owned()
        } else {
            daemon_dir
        };
        let postfix_master = Path::new(&daemon_dir).join("master");
        if !postfix_master.is_file() {
            return Err(format!("postfix master not found at {}", postfix_master.display()).into());
        }
        Ok(Programs {
            bash: need("bash")?,
            dovecot: need("dovecot")?,
            postfix_master,
        })
    }
}

/// `name` on PATH, or in the sbin directories a non-root PATH lacks.
fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/local/sbin"].map(PathBuf::from))
        .map(|d| d.join(name))
        .find(|p| {
            p.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

// ---- temporary directory, ports, watchdog

fn random_u64() -> u64 {
    RandomState::new().hash_one((std::process::id(), SystemTime::now()))
}

/// A new directory, world-traversable (the servers' unprivileged users read
/// their configuration there) and short: Dovecot's unix sockets live under
/// it, and a socket path has at most 107 bytes.
fn make_temp_dir() -> Result<PathBuf> {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    // `ZJ_MAILTEST_DIR`: where the servers' files go instead of the
    // temporary directory (for example a tmpfs, for measurements where the
    // servers' own file churn should not count: see daemon_throughput).
    let mut base = std::env::var_os("ZJ_MAILTEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    if base.as_os_str().len() > 40 {
        base = PathBuf::from("/tmp");
    }
    for _ in 0..100 {
        let seq = SEQ.fetch_add(1, Ordering::Relaxed);
        let dir = base.join(format!(
            "zjmail-{}-{seq}-{:04x}",
            std::process::id(),
            random_u64() & 0xffff
        ));
        match fs::create_dir(&dir) {
            Ok(()) => {
                fs::set_permissions(&dir, fs::Permissions::from_mode(0o755))?;
                return Ok(dir);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot create {}: {e}", dir.display()).into()),
        }
    }
    Err("cannot make a unique temporary directory".into())
}

/// The ports of one mail system, reserved against every other mail system
/// on this machine (other tests, other test binaries) while it lives: an
/// outage test stops a server, and its ports then look free to anyone.
/// The reservation is an flock()ed file per port base in
/// `$TMPDIR/zjmail-ports`; the kernel drops the lock when the file is
/// closed or the process dies.
struct PortClaim {
    ports: Ports,
    _lock: fs::File,
}

/// Port bases are `1000 * k + m` with `k` in 10..=31 and `m` in {0, 2, ..,
/// 10}: the ports of two such bases never coincide (the offsets 12, 24, 25,
/// 143, 465, 587, 993 differ by 1, 12, 13 or 118 to 981), so a lock per base
/// is enough, and the highest port (31 993) stays below Linux's ephemeral
/// range, where an outgoing connection could take it between check and bind.
const PORT_SLOTS: u64 = 22 * 6;

fn slot_base(slot: u64) -> u16 {
    (1000 * (10 + slot / 6) + 2 * (slot % 6)) as u16
}

/// A port base that no other mail system holds and none of whose ports is
/// bound by anyone.
fn claim_ports() -> Result<PortClaim> {
    let lock_dir = std::env::temp_dir().join("zjmail-ports");
    fs::create_dir_all(&lock_dir)
        .map_err(|e| format!("cannot create {}: {e}", lock_dir.display()))?;
    let first = random_u64() % PORT_SLOTS;
    for i in 0..PORT_SLOTS {
        let base = slot_base((first + i) % PORT_SLOTS);
        let ports = Ports::from_base(base);
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(lock_dir.join(base.to_string()))?;
        // SAFETY: flock on a descriptor we own; no memory is involved.
        if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
            continue;
        }
        if ports
            .all()
            .iter()
            .all(|p| TcpListener::bind((Ipv4Addr::LOCALHOST, *p)).is_ok())
        {
            return Ok(PortClaim { ports, _lock: lock });
        }
    }
    Err(format!("all {PORT_SLOTS} port bases for test mail systems are taken").into())
}

/// A shell that waits for end of input on a pipe only this process holds,
/// then kills the servers' process groups named in `DIR/*.pgid` and removes
/// DIR (unless `DIR/keep` exists). Drop closes the pipe after stopping the
/// servers itself; if the test process dies first, the kernel closes it.
fn spawn_watchdog(dir: &Path) -> Result<(Child, ChildStdin)> {
    const SCRIPT: &str = r#"
cat >/dev/null 2>&1
d=$1 found=
for f in "$d"/*.pgid; do
  [ -f "$f" ] || continue
  found=1; kill -TERM -- "-$(cat "$f")" 2>/dev/null
done
if [ -n "$found" ]; then
  sleep 2
  for f in "$d"/*.pgid; do [ -f "$f" ] && kill -KILL -- "-$(cat "$f")" 2>/dev/null; done
fi
[ -e "$d/keep" ] || rm -rf "$d"
"#;
    let bash = find_program("bash").ok_or("bash not found")?;
    let mut child = Command::new(bash)
        .arg("-c")
        .arg(SCRIPT)
        .arg("zjmail-watchdog")
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        // Its own group: a ^C to the test's group must not kill it first.
        .process_group(0)
        .spawn()?;
    let stdin = child.stdin.take().ok_or("watchdog without stdin")?;
    Ok((child, stdin))
}

// ---- small helpers

/// Send `sig` to the process group led by `pid` and to `pid` itself (in
/// case it has not made its group yet).
fn signal(pid: libc::pid_t, sig: libc::c_int) {
    // SAFETY: kill has no memory-safety preconditions; `pid` is an unreaped
    // child of ours, so neither it nor its group id can name anyone else.
    unsafe {
        libc::kill(-pid, sig);
        libc::kill(pid, sig);
    }
}

fn is_zombie(pid: libc::pid_t) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        // "pid (comm) S ...": comm may hold spaces, so read after the last ')'.
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
        Err(_) => true,
    }
}

fn port_open(port: u16) -> bool {
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    StdTcpStream::connect_timeout(&addr, Duration::from_secs(1)).is_ok()
}

/// Whether the server on `port` greets with a line containing `tag` (our
/// instance, not some other process on that port); then says `bye`.
fn banner_has(port: u16, tag: &str, bye: &str) -> bool {
    let addr = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let Ok(stream) = StdTcpStream::connect_timeout(&addr, Duration::from_secs(1)) else {
        return false;
    };
    let _ = stream.set_read_timeout(Some(Duration::from_secs(3)));
    let mut line = String::new();
    let mut reader = BufReader::new(&stream);
    let ok = reader.read_line(&mut line).is_ok() && line.contains(tag);
    let _ = (&stream).write_all(bye.as_bytes());
    ok
}

fn read_lossy(path: &Path) -> String {
    fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}

fn count_files(dir: &Path) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => count_files(&e.path()),
            Ok(t) if t.is_file() => 1,
            _ => 0,
        })
        .sum()
}

fn empty_tls_config() -> rustls::ClientConfig {
    rustls::ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .expect("ring supports the default protocol versions")
        .with_root_certificates(rustls::RootCertStore::empty())
        .with_no_client_auth()
}

/// rustls with the ring provider passed explicitly (no process default is
/// installed), trusting only the CA in `ca_pem`.
fn tls_config(ca_pem: &[u8]) -> Result<rustls::ClientConfig> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca_pem) {
        roots.add(cert?)?;
    }
    Ok(rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()?
    .with_root_certificates(roots)
    .with_no_client_auth())
}

async fn send_with(
    transport: &AsyncSmtpTransport<Tokio1Executor>,
    from: &str,
    to: &str,
    raw: &[u8],
) -> Result<()> {
    let envelope = Envelope::new(Some(from.parse::<Address>()?), vec![to.parse::<Address>()?])?;
    transport.send_raw(&envelope, raw).await?;
    Ok(())
}

async fn login(
    client: async_imap::Client<TlsStream<TcpStream>>,
    account: &Account,
) -> Result<ImapSession> {
    let login = client.login(&account.address, &account.password);
    match tokio::time::timeout(NET_TIMEOUT, login).await? {
        Ok(session) => Ok(session),
        Err((e, _)) => Err(format!("IMAP login as {} failed: {e}", account.address).into()),
    }
}

/// The INBOX's messages (all of them, raw, in order) if it holds at least
/// `min`, else how many it holds.
async fn fetch_inbox(
    session: &mut ImapSession,
    min: usize,
) -> Result<std::result::Result<Vec<Vec<u8>>, usize>> {
    let mailbox = session.examine("INBOX").await?;
    let exists = mailbox.exists as usize;
    if exists < min {
        return Ok(Err(exists));
    }
    if exists == 0 {
        return Ok(Ok(Vec::new()));
    }
    let fetches: Vec<_> = session
        .fetch("1:*", "BODY.PEEK[]")
        .await?
        .try_collect()
        .await?;
    let mut messages: Vec<(u32, Vec<u8>)> = fetches
        .iter()
        .map(|f| (f.message, f.body().unwrap_or_default().to_vec()))
        .collect();
    messages.sort_by_key(|(n, _)| *n);
    Ok(Ok(messages.into_iter().map(|(_, m)| m).collect()))
}
