//! Running the real `zinejudge run` against the test mail system, for the
//! `daemon_*` tests: a [`Judge`] is the daemon as a child process (IMAPS in
//! from the test Dovecot, submission out to the test Postfix, its store in a
//! temporary directory), with its log, its memory and its store at hand;
//! [`SmtpClient`] sends many mails fast over one plain SMTP connection;
//! [`answers_for`] reads what the players got back.
//!
//! Every wait polls with a deadline ([`crate::support::wait_until`]).

#![allow(dead_code)]

use crate::support::{JUDGE_ADDRESS, JUDGE_PASSWORD, MailSystem, block_on};
use mail_parser::{HeaderValue, MessageParser};
use std::collections::HashMap;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The daemon under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_zinejudge");

/// The binary [`Judge`] runs: [`BIN`], or `ZJ_ZINEJUDGE_BIN` (to compare
/// two builds with the same harness).
pub fn judge_bin() -> String {
    std::env::var("ZJ_ZINEJUDGE_BIN").unwrap_or_else(|_| BIN.to_string())
}

/// A directory under the system's temporary directory, removed on drop
/// unless the test panicked (then kept, and its path printed).
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh directory named after `label`.
    pub fn new(label: &str) -> TempDir {
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let dir = std::env::temp_dir().join(format!(
            "zj-{label}-{}-{}-{:x}",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed),
            fastrand::u32(..)
        ));
        fs::create_dir_all(&dir).expect("temporary directory");
        TempDir(dir)
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::thread::panicking() || std::env::var_os("ZJ_MAILTEST_KEEP").is_some() {
            eprintln!("test files kept in {}", self.0.display());
        } else {
            let _ = fs::remove_dir_all(&self.0);
        }
    }
}

/// The id the harness's judges believe in `Authentication-Results`, as a
/// judge believes its own mail server's (`[trust] authserv-id`).
pub const AUTHSERV_ID: &str = zinejudge::testing::trust::HARNESS_AUTHSERV_ID;

/// The header a mail server that checked DKIM and DMARC puts on top of a
/// mail it received: a test mail that starts with it comes from a sender
/// the judge's server authenticated (docs/operations.md, "Authenticated
/// senders"). Tests whose subject is not who wrote a mail stamp their
/// players' mails with it, as a judge behind such a server sees them.
pub const STAMP: &str = zinejudge::testing::trust::HARNESS_STAMP;

/// The configuration file of a judge reading the test Dovecot over IMAPS
/// and sending through the test Postfix's submission port (STARTTLS and
/// AUTH), both checked against the test CA; `extra` is appended (TOML
/// tables the test adds; they must not repeat a table written here, so the
/// tables below take their values from `opts`).
pub fn config_text(ms: &MailSystem, dir: &Path, opts: &Opts) -> String {
    let p = ms.ports();
    let ca = ms.ca_cert_path().display().to_string();
    format!(
        r#"[judge]
address = "{JUDGE_ADDRESS}"
name = "{name}"
log = "{log}"

[store]
path = "{store}"

[inbound]
source = "imap"

[imap]
host = "127.0.0.1"
port = {imaps}
tls = "implicit"
tls-name = "localhost"
ca-file = "{ca}"
user = "{JUDGE_ADDRESS}"
password = "{JUDGE_PASSWORD}"

[outbound]
sink = "smtp"

[smtp]
host = "127.0.0.1"
port = {submission}
tls = "starttls"
tls-name = "localhost"
ca-file = "{ca}"
user = "{JUDGE_ADDRESS}"
password = "{JUDGE_PASSWORD}"
timeout-seconds = 10
connections = {connections}

[limits]
max-retry-seconds = {max_retry}

[trust]
authserv-id = "{AUTHSERV_ID}"
{extra}"#,
        name = opts.name,
        log = opts.log,
        store = dir.join("store.sqlite").display(),
        imaps = p.imaps,
        submission = p.submission,
        connections = opts.connections,
        max_retry = opts.max_retry_seconds,
        extra = opts.extra,
    )
}

/// What a test varies in the configuration.
#[derive(Clone, Debug)]
pub struct Opts {
    /// `judge.name`.
    pub name: String,
    /// `judge.log`.
    pub log: String,
    /// `smtp.connections`.
    pub connections: usize,
    /// `limits.max-retry-seconds`: short, so that an SMTP outage ends
    /// in seconds.
    pub max_retry_seconds: u64,
    /// More TOML, appended.
    pub extra: String,
}

impl Default for Opts {
    fn default() -> Opts {
        Opts {
            name: "zinejudge test".into(),
            log: "info,zinejudge=debug".into(),
            connections: 4,
            max_retry_seconds: 2,
            extra: String::new(),
        }
    }
}

/// Mail counts of the store, read straight from SQLite.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Inbound mails stored.
    pub inbound: i64,
    /// ... of which still waiting.
    pub pending: i64,
    /// Outbox rows.
    pub outbox: i64,
    /// ... of which not sent yet (queued or sending).
    pub unsent: i64,
    /// ... refused for good.
    pub failed: i64,
}

/// `zinejudge run` as a child process; SIGKILLed on drop.
pub struct Judge {
    /// The test's directory (config, store, log).
    pub dir: PathBuf,
    /// The configuration file.
    pub config: PathBuf,
    /// The SQLite store.
    pub store: PathBuf,
    /// The daemon's standard error, appended over restarts.
    pub log: PathBuf,
    child: Option<Child>,
    /// How many times it was started.
    pub starts: usize,
}

impl Judge {
    /// Write the configuration into `dir` and start the daemon.
    pub fn start(ms: &MailSystem, dir: &Path, opts: &Opts) -> Judge {
        let config = dir.join("zinejudge.toml");
        fs::write(&config, config_text(ms, dir, opts)).expect("write the configuration");
        let mut j = Judge {
            dir: dir.to_path_buf(),
            config,
            store: dir.join("store.sqlite"),
            log: dir.join("zinejudge.log"),
            child: None,
            starts: 0,
        };
        j.spawn();
        j
    }

    /// Write `config` (a whole configuration file, its store at
    /// `dir/store.sqlite`) into `dir` and start the daemon: for harnesses
    /// that need no mail servers (Maildir in and out).
    pub fn start_with(dir: &Path, config: &str) -> Judge {
        let path = dir.join("zinejudge.toml");
        fs::write(&path, config).expect("write the configuration");
        let mut j = Judge {
            dir: dir.to_path_buf(),
            config: path,
            store: dir.join("store.sqlite"),
            log: dir.join("zinejudge.log"),
            child: None,
            starts: 0,
        };
        j.spawn();
        j
    }

    /// Start it (again).
    pub fn spawn(&mut self) {
        assert!(self.child.is_none(), "the judge is already running");
        let log = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .expect("log file");
        let child = Command::new(judge_bin())
            .arg("run")
            .arg("--config")
            .arg(&self.config)
            .current_dir(&self.dir)
            .env_remove("RUST_LOG")
            .env_remove("ZINEJUDGE_IMAP_PASSWORD")
            .env_remove("ZINEJUDGE_SMTP_PASSWORD")
            .env_remove("NOTIFY_SOCKET")
            .env_remove("WATCHDOG_USEC")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::from(log))
            .spawn()
            .expect("start zinejudge run");
        self.child = Some(child);
        self.starts += 1;
    }

    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("the judge is not running").id()
    }

    /// Send `sig` to it.
    pub fn signal(&self, sig: libc::c_int) {
        // SAFETY: kill has no memory-safety preconditions; the pid is an
        // unreaped child of ours.
        unsafe {
            libc::kill(self.pid() as libc::pid_t, sig);
        }
    }

    /// SIGKILL it and reap it.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Whether it is still running (not exited).
    pub fn running(&mut self) -> bool {
        match self.child.as_mut() {
            Some(c) => c.try_wait().expect("try_wait").is_none(),
            None => false,
        }
    }

    /// Its exit status if it has exited (then it is no longer running),
    /// without waiting.
    pub fn try_exit(&mut self) -> Option<ExitStatus> {
        let status = self.child.as_mut()?.try_wait().expect("try_wait")?;
        self.child = None;
        Some(status)
    }

    /// Wait for it to exit by itself; panics after `timeout`.
    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        let c = self.child.as_mut().expect("the judge is not running");
        loop {
            if let Some(s) = c.try_wait().expect("try_wait") {
                self.child = None;
                return s;
            }
            if Instant::now() >= deadline {
                panic!(
                    "the judge did not exit within {timeout:?}; log:\n{}",
                    self.log_tail(40)
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The log so far.
    pub fn log_text(&self) -> String {
        fs::read(&self.log)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default()
    }

    /// Whether its latest start is over (it logged
    /// [`zinejudge::testing::daemon::RUNNING`] once for each start).
    pub fn is_running(&self) -> bool {
        self.log_text()
            .matches(zinejudge::testing::daemon::RUNNING)
            .count()
            >= self.starts
    }

    /// The last `n` lines of the log.
    pub fn log_tail(&self, n: usize) -> String {
        let text = self.log_text();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(n)..].join("\n")
    }

    /// A `/proc/<pid>/status` figure in kB (`VmRSS`, `VmHWM`).
    pub fn status_kb(&self, key: &str) -> Option<u64> {
        proc_status_kb(self.pid(), key)
    }

    /// A read-only connection to its store.
    pub fn db(&self) -> rusqlite::Connection {
        let c = rusqlite::Connection::open_with_flags(
            &self.store,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .expect("open the store");
        c.busy_timeout(Duration::from_secs(30)).unwrap();
        c
    }

    /// A connection to its store through the store's own interface, for
    /// the store's functions (the judge keeps running).
    #[allow(dead_code)]
    pub fn store(&self) -> zinejudge::testing::store::Store {
        zinejudge::testing::store::Store::open(&self.store).expect("open the store")
    }

    /// Mark `addresses` as having confirmed before: people who used the
    /// judge, who count as wanting its mail (what it sends them besides
    /// answers is not folded into the answer). A mail of theirs that
    /// registers its From still needs its own confirmation, or a stamp of
    /// the judge's mail server ([`STAMP`]); tests/judge/identity.rs and
    /// tests/mail/e2e_game.rs go through that.
    #[allow(dead_code)]
    pub fn confirmed(&self, addresses: &[&str]) {
        // The judge makes its store as it starts: wait for it.
        let deadline = Instant::now() + Duration::from_secs(60);
        while !(self.store.exists()
            && self
                .db()
                .query_row(
                    "SELECT count(*) FROM sqlite_master WHERE name = 'addresses'",
                    [],
                    |r| r.get::<_, i64>(0),
                )
                .is_ok_and(|n| n == 1))
        {
            assert!(Instant::now() < deadline, "the judge made no store");
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut s = self.store();
        for a in addresses {
            zinejudge::testing::store::confirm::set_confirmed(s.conn(), a, 0).expect("confirm");
        }
    }

    /// Mail counts of the store (zero before it exists).
    pub fn counts(&self) -> Counts {
        if !self.store.exists() {
            return Counts::default();
        }
        let db = self.db();
        let one = |sql: &str| -> i64 { db.query_row(sql, [], |r| r.get(0)).unwrap_or(0) };
        Counts {
            inbound: one("SELECT count(*) FROM inbound"),
            pending: one("SELECT count(*) FROM inbound WHERE state = 'new'"),
            outbox: one("SELECT count(*) FROM outbox"),
            unsent: one("SELECT count(*) FROM outbox WHERE state IN ('queued', 'sending')"),
            failed: one("SELECT count(*) FROM outbox WHERE state = 'failed'"),
        }
    }

    /// The note the processor stored for the mail with `message_id`.
    pub fn note(&self, message_id: &str) -> Option<String> {
        self.db()
            .query_row(
                "SELECT note FROM inbound WHERE message_id = ?1",
                [message_id],
                |r| r.get(0),
            )
            .ok()
            .flatten()
    }

    /// The notes of mails whose processing failed (answered with an
    /// internal error), and the log's panics: there should be none.
    pub fn failures(&self) -> Vec<String> {
        let mut out: Vec<String> = if self.store.exists() {
            let db = self.db();
            let mut st = db
                .prepare("SELECT message_id || ': ' || note FROM inbound WHERE note LIKE 'failed%'")
                .unwrap();
            st.query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        } else {
            Vec::new()
        };
        out.extend(
            self.log_text()
                .lines()
                .filter(|l| l.contains("panicked"))
                .map(str::to_string),
        );
        out
    }

    /// Wait until `inbound` mails are stored and processed and every answer
    /// was handed to the SMTP server, and the server delivered them all
    /// (its queue is empty); panics with the log after `timeout`.
    pub fn wait_settled(&self, ms: &MailSystem, inbound: i64, timeout: Duration) -> Counts {
        let deadline = Instant::now() + timeout;
        loop {
            let c = self.counts();
            if c.inbound >= inbound && c.pending == 0 && c.unsent == 0 && ms.queued_messages() == 0
            {
                return c;
            }
            if Instant::now() >= deadline {
                panic!(
                    "not settled within {timeout:?}: {c:?} (want {inbound} inbound), \
                     {} in the Postfix queue; judge log:\n{}",
                    ms.queued_messages(),
                    self.log_tail(60)
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Judge {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("judge log ({}):\n{}", self.log.display(), self.log_tail(80));
        }
        self.kill();
    }
}

/// The configuration of a judge that reads the Maildir `dir/in` and
/// writes its mail into the Maildir `dir/out` (no mail servers), its store
/// `dir/store.sqlite`; `extra` is appended.
pub fn maildir_config(dir: &Path, extra: &str) -> String {
    let store = format!("path = \"{}\"\n", dir.join("store.sqlite").display());
    maildir_config_with_store(dir, &store, extra)
}

/// As [`maildir_config`], with the store a PostgreSQL database at `url`
/// (password in `pwfile`) and the judge named `name`; `store_extra` goes
/// into the `[store]` section, `extra` at the end.
pub fn postgres_maildir_config(
    dir: &Path,
    url: &str,
    pwfile: &Path,
    name: &str,
    store_extra: &str,
    extra: &str,
) -> String {
    let store = format!(
        "url = \"{url}\"\npassword-file = \"{}\"\njudge-name = \"{name}\"\n{store_extra}",
        pwfile.display()
    );
    maildir_config_with_store(dir, &store, extra)
}

fn maildir_config_with_store(dir: &Path, store: &str, extra: &str) -> String {
    format!(
        r#"[judge]
address = "judge@example.test"
name = "zinejudge harness"
log = "info"

[store]
{store}
[inbound]
source = "maildir"
maildir = "{inbox}"
poll-seconds = 1

[outbound]
sink = "maildir"
maildir = "{outbox}"

[trust]
authserv-id = "{AUTHSERV_ID}"
{extra}"#,
        inbox = dir.join("in").display(),
        outbox = dir.join("out").display(),
    )
}

/// The total size in bytes of the files under `path` (0 if none).
pub fn tree_bytes(path: &Path) -> u64 {
    let Ok(entries) = fs::read_dir(path) else {
        return fs::metadata(path).map_or(0, |m| m.len());
    };
    entries
        .filter_map(|e| e.ok())
        .map(|e| {
            let p = e.path();
            if p.is_dir() {
                tree_bytes(&p)
            } else {
                fs::metadata(&p).map_or(0, |m| m.len())
            }
        })
        .sum()
}

/// CPU seconds (user + system) a process has used so far.
pub fn cpu_seconds(pid: u32) -> f64 {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // "pid (comm) state ...": fields after the last ')'; utime and stime
    // are the 14th and 15th fields of the line.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    (ticks(11) + ticks(12)) / hz
}

/// CPU seconds used by `root` and every process it started, whether they
/// still run or were waited for (a mail server's master starts a process
/// per connection or per delivery, and these come and go).
pub fn tree_cpu_seconds(root: u32) -> f64 {
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    descendants(root)
        .into_iter()
        .map(|pid| {
            // Own and waited-for children's user and system ticks: the
            // 14th to 17th fields of the line, after "pid (comm)".
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
            rest.split_whitespace()
                .skip(11)
                .take(4)
                .filter_map(|v| v.parse::<f64>().ok())
                .sum::<f64>()
        })
        .sum::<f64>()
        / hz
}

/// A number from the environment, or `default`.
pub fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A count read from the store (`-1` if the query fails).
pub fn count(store: &mut zinejudge::testing::store::Store, sql: &str) -> i64 {
    store.conn().query_row(sql, &[], |r| r.get(0)).unwrap_or(-1)
}

/// The median of a harness's runs.
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// A `/proc/<pid>/status` figure in kB.
pub fn proc_status_kb(pid: u32, key: &str) -> Option<u64> {
    let text = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

// ---- mail to send

static MAIL_SEQ: AtomicU64 = AtomicU64::new(0);

/// A unique Message-ID (without brackets).
pub fn new_message_id() -> String {
    format!(
        "t{}.{}.{:08x}@players.example.test",
        std::process::id(),
        MAIL_SEQ.fetch_add(1, Ordering::Relaxed),
        fastrand::u32(..)
    )
}

/// A plain-text mail with the given Message-ID.
pub fn order_mail(from: &str, to: &str, message_id: &str, subject: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nDate: Mon, 1 Jan 2024 00:00:00 +0000\r\n\
         Message-ID: <{message_id}>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}"
    )
    .into_bytes()
}

/// A plain SMTP client for the test Postfix's port 25 (no TLS, no AUTH),
/// sending any number of mails over one connection.
pub struct SmtpClient {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl SmtpClient {
    /// Connect to `port` on 127.0.0.1 and say EHLO.
    pub fn connect(port: u16) -> std::io::Result<SmtpClient> {
        let stream = TcpStream::connect(("127.0.0.1", port))?;
        stream.set_read_timeout(Some(Duration::from_secs(30)))?;
        stream.set_nodelay(true)?;
        let mut c = SmtpClient {
            reader: BufReader::new(stream.try_clone()?),
            writer: stream,
        };
        c.reply(220)?;
        c.command("EHLO client.example.test", 250)?;
        Ok(c)
    }

    fn reply(&mut self, want: u16) -> std::io::Result<String> {
        let mut all = String::new();
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line)? == 0 {
                return Err(std::io::Error::other("SMTP connection closed"));
            }
            all.push_str(&line);
            if line.len() < 4 || line.as_bytes()[3] != b'-' {
                break;
            }
        }
        if !all.starts_with(&want.to_string()) {
            return Err(std::io::Error::other(format!(
                "SMTP: wanted {want}, got {all}"
            )));
        }
        Ok(all)
    }

    fn command(&mut self, line: &str, want: u16) -> std::io::Result<String> {
        self.writer.write_all(line.as_bytes())?;
        self.writer.write_all(b"\r\n")?;
        self.reply(want)
    }

    /// Send `raw` from `from` (empty: the null sender of bounces) to `to`.
    pub fn send(&mut self, from: &str, to: &str, raw: &[u8]) -> std::io::Result<()> {
        self.command(&format!("MAIL FROM:<{from}>"), 250)?;
        self.command(&format!("RCPT TO:<{to}>"), 250)?;
        self.command("DATA", 354)?;
        let mut data = Vec::with_capacity(raw.len() + 64);
        for line in raw.split_inclusive(|&b| b == b'\n') {
            if line.first() == Some(&b'.') {
                data.push(b'.');
            }
            data.extend_from_slice(line);
        }
        if !data.ends_with(b"\r\n") {
            data.extend_from_slice(b"\r\n");
        }
        data.extend_from_slice(b".\r\n");
        self.writer.write_all(&data)?;
        self.reply(250)?;
        Ok(())
    }

    /// Say QUIT.
    pub fn quit(mut self) {
        let _ = self.command("QUIT", 221);
    }
}

/// Send each `(from, to, raw)` over plain SMTP, on `connections` parallel
/// connections; panics on a refusal.
pub fn send_all(ms: &MailSystem, mails: &[(String, String, Vec<u8>)], connections: usize) {
    let port = ms.ports().smtp;
    let per = mails.len().div_ceil(connections.max(1)).max(1);
    std::thread::scope(|s| {
        for chunk in mails.chunks(per) {
            s.spawn(move || {
                let mut c = SmtpClient::connect(port).expect("SMTP connect");
                for (from, to, raw) in chunk {
                    c.send(from, to, raw)
                        .unwrap_or_else(|e| panic!("sending to {to}: {e}"));
                }
                c.quit();
            });
        }
    });
}

// ---- IMAP

/// Put `raw` straight into `address`'s `mailbox` (IMAP APPEND), skipping
/// Postfix, which would add headers (From, Message-ID) and refuses mails
/// over 10 MB.
pub fn append(ms: &MailSystem, address: &str, mailbox: &str, raw: &[u8]) {
    block_on(async {
        let mut s = ms.imap_login(address).await.expect("IMAP login");
        s.append(mailbox, None, None, raw).await.expect("APPEND");
        let _ = s.logout().await;
    })
}

/// How many messages `address`'s `mailbox` holds (0 if it does not exist).
pub fn mailbox_count(ms: &MailSystem, address: &str, mailbox: &str) -> usize {
    block_on(async {
        let mut s = ms.imap_login(address).await.expect("IMAP login");
        let n = s.examine(mailbox).await.map_or(0, |m| m.exists as usize);
        let _ = s.logout().await;
        n
    })
}

/// Every message of `address`'s `mailbox`, raw (read-only: flags stay).
#[allow(dead_code)]
pub fn mailbox_messages(ms: &MailSystem, address: &str, mailbox: &str) -> Vec<Vec<u8>> {
    use futures::TryStreamExt;
    block_on(async {
        let mut s = ms.imap_login(address).await.expect("IMAP login");
        let n = s.examine(mailbox).await.map_or(0, |m| m.exists);
        let mut out = Vec::new();
        if n > 0 {
            let fetched: Vec<_> = s
                .fetch("1:*", "BODY.PEEK[]")
                .await
                .expect("fetch")
                .try_collect()
                .await
                .expect("fetch");
            for f in &fetched {
                if let Some(b) = f.body() {
                    out.push(b.to_vec());
                }
            }
        }
        let _ = s.logout().await;
        out
    })
}

/// One of the judge's answers, as a player got it.
#[derive(Clone, Debug)]
pub struct Answer {
    /// Who got it.
    pub to: String,
    /// Its Message-ID.
    pub message_id: String,
    /// The Message-ID it answers.
    pub in_reply_to: String,
    /// `References`, as ids.
    pub references: Vec<String>,
    /// The `From` display name.
    pub from_name: String,
    /// The `From` address.
    pub from_address: String,
    /// `Auto-Submitted`.
    pub auto_submitted: String,
    /// Subject.
    pub subject: String,
    /// Body text.
    pub body: String,
}

/// Parse a mail the judge sent.
pub fn parse_answer(to: &str, raw: &[u8]) -> Answer {
    let m = MessageParser::default()
        .parse(raw)
        .unwrap_or_else(|| panic!("unparsable answer: {}", String::from_utf8_lossy(raw)));
    let text = |v: Option<&HeaderValue>| -> Vec<String> {
        match v {
            Some(HeaderValue::Text(t)) => vec![t.to_string()],
            Some(HeaderValue::TextList(l)) => l.iter().map(|s| s.to_string()).collect(),
            _ => Vec::new(),
        }
    };
    let from = m.from().and_then(|f| f.first());
    Answer {
        to: to.to_string(),
        message_id: m.message_id().unwrap_or_default().to_string(),
        in_reply_to: text(m.header("In-Reply-To"))
            .into_iter()
            .next()
            .unwrap_or_default(),
        references: text(m.header("References")),
        from_name: from.and_then(|a| a.name()).unwrap_or_default().to_string(),
        from_address: from
            .and_then(|a| a.address())
            .unwrap_or_default()
            .to_string(),
        auto_submitted: m
            .header_raw("Auto-Submitted")
            .unwrap_or_default()
            .trim()
            .to_string(),
        subject: m.subject().unwrap_or_default().to_string(),
        body: m.body_text(0).map(|b| b.into_owned()).unwrap_or_default(),
    }
}

/// Every mail in each of `addresses`' INBOX, parsed as answers.
pub fn answers_for(ms: &MailSystem, addresses: &[String]) -> Vec<Answer> {
    let mut out = Vec::new();
    for a in addresses {
        for raw in ms
            .fetch_all_blocking(a)
            .unwrap_or_else(|e| panic!("fetch {a}: {e}"))
        {
            out.push(parse_answer(a, &raw));
        }
    }
    out
}

/// Answers grouped by the Message-ID they answer.
pub fn by_in_reply_to(answers: &[Answer]) -> HashMap<String, Vec<&Answer>> {
    let mut m: HashMap<String, Vec<&Answer>> = HashMap::new();
    for a in answers {
        m.entry(a.in_reply_to.clone()).or_default().push(a);
    }
    m
}

// ---- CPU groups

/// The judge and the mail servers in CPU control groups of their own, with
/// equal weight, as systemd runs each service (`postfix.service`,
/// `dovecot.service`, `zinejudge.service`) in a cgroup of its own. Without
/// it, on a small machine, the scheduler shares the CPU per thread, and
/// the mail servers' forty-odd busy processes leave the judge's one
/// processing thread a small slice whenever mail floods in.
///
/// Best effort: where no cgroup `cpu` controller can be written (not root,
/// a container), [`ServiceGroups::new`] returns `None` and nothing moves.
/// Dropping it moves what is left back to the root group and removes the
/// groups.
pub struct ServiceGroups {
    root: std::path::PathBuf,
    groups: Vec<std::path::PathBuf>,
}

impl ServiceGroups {
    /// Make one group per service, named after it, and move each service's
    /// processes (a root process and everything it started) into its
    /// group.
    pub fn new(services: &[(&str, u32)]) -> Option<ServiceGroups> {
        let v1 = std::path::Path::new("/sys/fs/cgroup/cpu");
        let v2 = std::path::Path::new("/sys/fs/cgroup");
        let root = if v1.join("cpu.shares").exists() {
            v1.to_path_buf()
        } else if fs::read_to_string(v2.join("cgroup.subtree_control"))
            .is_ok_and(|c| c.split_whitespace().any(|x| x == "cpu"))
        {
            v2.to_path_buf()
        } else {
            return None;
        };
        let mut me = ServiceGroups {
            root: root.clone(),
            groups: Vec::new(),
        };
        for (name, pid) in services {
            let g = root.join(format!("zj-{}-{name}", std::process::id()));
            fs::create_dir(&g).ok()?;
            me.groups.push(g.clone());
            for p in descendants(*pid) {
                // A process may have ended meanwhile.
                let _ = fs::write(g.join("cgroup.procs"), p.to_string());
            }
        }
        Some(me)
    }
}

impl Drop for ServiceGroups {
    fn drop(&mut self) {
        for g in &self.groups {
            if let Ok(procs) = fs::read_to_string(g.join("cgroup.procs")) {
                for p in procs.lines() {
                    let _ = fs::write(self.root.join("cgroup.procs"), p);
                }
            }
            let _ = fs::remove_dir(g);
        }
    }
}

/// `root` and every living process it started.
pub fn descendants(root: u32) -> Vec<u32> {
    let mut parent: HashMap<u32, u32> = HashMap::new();
    if let Ok(dir) = fs::read_dir("/proc") {
        for e in dir.flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else {
                continue;
            };
            let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, r)| r.split_whitespace().nth(1))
                .and_then(|p| p.parse().ok())
                .unwrap_or(0);
            parent.insert(pid, ppid);
        }
    }
    let mut out: Vec<u32> = parent
        .keys()
        .copied()
        .filter(|&p| {
            let mut q = p;
            for _ in 0..64 {
                if q == root {
                    return true;
                }
                match parent.get(&q) {
                    Some(&pp) if pp != 0 => q = pp,
                    _ => return false,
                }
            }
            false
        })
        .collect();
    out.sort_unstable();
    out
}
