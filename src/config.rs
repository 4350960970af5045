//! The daemon's configuration: raw TOML first, then resolved.
//!
//! The raw form mirrors `config/zinejudge.toml` key for key; that file is
//! also the built-in default, merged under whatever file the GM gives, so
//! every key has exactly one default and it is documented there. Resolving
//! reads secrets (password files, environment) and checks that the pieces
//! fit together, so that a bad configuration is reported by
//! `check-config` and at start-up, not at the first mail.

use crate::mail::Identity;
use crate::mail::imap::ImapSettings;
use crate::mail::smtp::SmtpSettings;
use crate::mail::tls::TlsMode;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The built-in defaults: the commented configuration file.
pub(crate) const DEFAULT_TOML: &str = include_str!("../config/zinejudge.toml");

/// A configuration problem. Each names the key and the value the GM wrote
/// and why it cannot work, with the operating system's reason as its
/// source, so that `check-config` says what to change.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The configuration file itself could not be read.
    #[error("cannot read the configuration file {}", .0.display())]
    Read(PathBuf, #[source] std::io::Error),
    /// The file is not valid TOML, has unknown keys or a value of the
    /// wrong type.
    #[error("{path}: {message}")]
    Parse {
        /// File.
        path: String,
        /// What is wrong (with line or key).
        message: String,
    },
    /// A value cannot work.
    #[error("{key} = {value}: {reason}")]
    Invalid {
        /// The key, as written in the file (`smtp.host`).
        key: &'static str,
        /// Its value, written as in TOML (strings quoted).
        value: String,
        /// Why it cannot work, and what would.
        reason: String,
    },
    /// A file or directory a key names cannot be used by this user.
    #[error("{key} = {}: {what}", quoted(&.path.display().to_string()))]
    Path {
        /// The key.
        key: &'static str,
        /// The path as written.
        path: PathBuf,
        /// What could not be done (`cannot write in /var/lib/zinejudge`).
        what: String,
        /// The operating system's reason.
        #[source]
        source: std::io::Error,
    },
    /// A CA file or TLS name that TLS cannot use.
    #[error("{key} = {value}: cannot be used for TLS")]
    Tls {
        /// The key.
        key: &'static str,
        /// Its value, quoted.
        value: String,
        /// What TLS said.
        #[source]
        source: crate::mail::tls::TlsError,
    },
    /// The store the configuration names cannot be used: the server
    /// cannot be reached, refuses the login, or the role cannot make or
    /// use the judge's tables.
    #[error("{key} = {value}")]
    Store {
        /// The key that chose what failed (`store.url`, `store.path`, or
        /// `store.password-file` for a login refused).
        key: &'static str,
        /// Its value, quoted.
        value: String,
        /// What failed, with the database's own words.
        #[source]
        problem: crate::store::Unusable,
    },
    /// A server the configuration names, or the web address, cannot be
    /// used as the judge would use it (`check-config`'s network checks):
    /// the cause, naming the server, is the source.
    #[error("{key} = {value}")]
    Server {
        /// The key that names what failed (`imap.host`, `imap.user` for a
        /// login refused, `web.address`).
        key: &'static str,
        /// Its value, quoted.
        value: String,
        /// What failed.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A template in `judge.templates` does not parse.
    #[error("judge.templates = {}: a template does not parse", quoted(&.0.display().to_string()))]
    Template(PathBuf, #[source] crate::report::templates::TemplateError),
}

/// A string as TOML writes it (close enough: Rust's escaping), so that an
/// empty value shows as `""` rather than as nothing.
fn quoted(s: &str) -> String {
    format!("{s:?}")
}

fn invalid(key: &'static str, value: &str, reason: impl Into<String>) -> ConfigError {
    ConfigError::Invalid {
        key,
        value: quoted(value),
        reason: reason.into(),
    }
}

fn invalid_number(key: &'static str, value: impl std::fmt::Display, reason: &str) -> ConfigError {
    ConfigError::Invalid {
        key,
        value: value.to_string(),
        reason: reason.to_string(),
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawConfig {
    judge: RawJudge,
    store: RawStore,
    inbound: RawInbound,
    imap: RawImap,
    outbound: RawOutbound,
    smtp: RawSmtp,
    limits: RawLimits,
    report: RawReport,
    web: RawWeb,
    variants: RawVariants,
    trust: RawTrust,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawTrust {
    authserv_id: String,
    require_authentication: bool,
    verify_signatures: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawVariants {
    dir: PathBuf,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawWeb {
    enabled: bool,
    address: String,
    base_url: String,
    connections: usize,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawJudge {
    address: String,
    name: String,
    domain: String,
    timezone: String,
    log: String,
    templates: PathBuf,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawStore {
    path: PathBuf,
    /// `sqlite:PATH` or `postgres://user@host:port/db`; empty: `path`.
    #[serde(default)]
    url: String,
    /// The PostgreSQL password, in a file of its own.
    #[serde(default)]
    password_file: PathBuf,
    keep_mail_days: u64,
    keep_sent_days: u64,
    vacuum_days: u64,
    /// This judge's name in the claims of a shared PostgreSQL store
    /// (empty: the host name); the process id is added.
    #[serde(default)]
    judge_name: String,
    /// How long a claim of a judge sharing a PostgreSQL store holds.
    #[serde(default = "default_lease_seconds")]
    lease_seconds: u64,
}

fn default_lease_seconds() -> u64 {
    crate::store::DEFAULT_LEASE.as_secs()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawReport {
    picture: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawInbound {
    source: String,
    maildir: PathBuf,
    poll_seconds: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawImap {
    host: String,
    port: u16,
    tls: TlsMode,
    tls_name: String,
    ca_file: PathBuf,
    user: String,
    password: String,
    password_file: PathBuf,
    mailbox: String,
    processed_mailbox: String,
    idle: bool,
    poll_seconds: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawOutbound {
    sink: String,
    maildir: PathBuf,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSmtp {
    host: String,
    port: u16,
    tls: TlsMode,
    tls_name: String,
    ca_file: PathBuf,
    user: String,
    password: String,
    password_file: PathBuf,
    timeout_seconds: u64,
    connections: usize,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawLimits {
    max_mail_bytes: u64,
    max_retry_seconds: u64,
    work_seconds: u64,
}

/// Where mail comes from.
#[derive(Debug, Clone)]
pub enum Source {
    /// A local Maildir.
    Maildir {
        /// Its root.
        path: PathBuf,
        /// Seconds between looks.
        poll: Duration,
    },
    /// An IMAP mailbox.
    Imap(ImapSettings),
    /// Only `zinejudge deliver`.
    None,
}

/// Where mail goes.
#[derive(Debug, Clone)]
pub enum Sink {
    /// A local Maildir.
    Maildir(PathBuf),
    /// An SMTP server.
    Smtp {
        /// Connection settings.
        settings: SmtpSettings,
        /// Parallel sends.
        connections: usize,
    },
}

/// The read-only web pages (`[web]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Web {
    /// Whether the judge serves them.
    pub enabled: bool,
    /// Where it listens (port 0: a free port, logged at start).
    pub address: std::net::SocketAddr,
    /// The pages' address as readers reach them, ending in `/`, for links
    /// in results mail and in the feeds; `None` when it cannot be known
    /// (pages off, or no `base-url` and an address that is no place to
    /// reach, such as 0.0.0.0 or port 0).
    pub base_url: Option<String>,
    /// The most connections served at once (fewer if the open-file limit
    /// is too low for them, said in the log).
    pub connections: usize,
}

/// Which keys chose the store ([`Config::check_store`] names them).
#[derive(Debug, Clone)]
pub struct StoreKeys {
    /// `store.url` when it is set, else `store.path`.
    pub location: &'static str,
    /// `store.password-file`, if set.
    pub password_file: Option<PathBuf>,
}

/// The resolved configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// Who the judge is.
    pub identity: Identity,
    /// Default time zone name.
    pub timezone: String,
    /// Log filter.
    pub log: String,
    /// Template overrides: (file name, text), read from `judge.templates`.
    pub templates: Vec<(String, String)>,
    /// Variants played besides the shipped ones, read from `variants.dir`.
    pub variants: Vec<std::sync::Arc<crate::variant::Variant>>,
    /// The files of `variants.dir` that did not load, each with why: the
    /// judge logs them and plays the others.
    pub variant_problems: Vec<String>,
    /// The store: an SQLite file (`[store] path`, or `url = "sqlite:..."`)
    /// or a PostgreSQL database (`url = "postgres://..."`).
    pub store: crate::store::Location,
    /// Which keys chose the store, for a refusal to name them.
    pub store_keys: StoreKeys,
    /// Mail in.
    pub source: Source,
    /// Mail out.
    pub sink: Sink,
    /// Largest mail read.
    pub max_mail_bytes: u64,
    /// Longest retry interval.
    pub max_retry: Duration,
    /// The work one mail may cost (CPU time) before it is failed.
    pub work_budget: Duration,
    /// How long processed mail is kept whole (passwords masked) before
    /// only its Message-ID, digest and note are kept.
    pub keep_mail: Duration,
    /// How long sent mail is kept (outbox rows, and the files of a Maildir
    /// sink) before it is dropped.
    pub keep_sent: Duration,
    /// How often the store is rewritten compactly (`VACUUM`).
    pub vacuum_every: Duration,
    /// Who this judge is in the claims of a store that several judges
    /// share (`[store] judge-name`, `lease-seconds`).
    pub claimant: crate::store::Claimant,
    /// The picture attached to results unless a player chose another.
    pub picture: crate::report::PictureFormat,
    /// The web pages.
    pub web: Web,
    /// Whose word the judge takes for who wrote a mail (`[trust]`).
    pub trust: crate::trust::sender::Policy,
}

/// Merge `over` into `base`, table by table.
fn merge(base: &mut toml::Table, over: toml::Table) {
    for (k, v) in over {
        match (base.get_mut(&k), v) {
            (Some(toml::Value::Table(b)), toml::Value::Table(o)) => merge(b, o),
            (_, v) => {
                base.insert(k, v);
            }
        }
    }
}

fn parse_table(text: &str, path: &str) -> Result<toml::Table, ConfigError> {
    text.parse::<toml::Table>().map_err(|e| {
        let line = e
            .span()
            .map(|s| text[..s.start].matches('\n').count() + 1)
            .map_or(String::new(), |l| format!("line {l}: "));
        ConfigError::Parse {
            path: path.to_string(),
            message: format!("{line}{}", e.message().trim()),
        }
    })
}

/// A password: the environment wins, then the file, then the inline value.
fn secret(
    inline: &str,
    file: &Path,
    env: &str,
    file_key: &'static str,
) -> Result<String, ConfigError> {
    if let Ok(v) = std::env::var(env)
        && !v.is_empty()
    {
        return Ok(v);
    }
    if !file.as_os_str().is_empty() {
        let text = std::fs::read_to_string(file).map_err(|source| ConfigError::Path {
            key: file_key,
            path: file.to_path_buf(),
            what: "cannot read the password file".into(),
            source,
        })?;
        let first = text.lines().next().unwrap_or("").trim_end().to_string();
        if first.is_empty() {
            return Err(invalid(
                file_key,
                &file.display().to_string(),
                "the password file is empty (the password is its first line)",
            ));
        }
        return Ok(first);
    }
    Ok(inline.to_string())
}

/// The CA certificates of `path`, checked now: a file that holds no
/// certificate would make every connection fail at the first mail.
fn read_ca(key: &'static str, path: &Path) -> Result<Option<Vec<u8>>, ConfigError> {
    if path.as_os_str().is_empty() {
        return Ok(None);
    }
    let pem = std::fs::read(path).map_err(|source| ConfigError::Path {
        key,
        path: path.to_path_buf(),
        what: "cannot read the CA file".into(),
        source,
    })?;
    let value = quoted(&path.display().to_string());
    use rustls_pki_types::pem::PemObject;
    let certs = rustls_pki_types::CertificateDer::pem_slice_iter(&pem).count();
    if certs == 0 {
        return Err(ConfigError::Invalid {
            key,
            value,
            reason: "holds no PEM certificate (-----BEGIN CERTIFICATE-----)".into(),
        });
    }
    crate::mail::tls::connector(Some(&pem)).map_err(|source| ConfigError::Tls {
        key,
        value,
        source,
    })?;
    Ok(Some(pem))
}

fn non_empty(s: &str) -> Option<String> {
    (!s.trim().is_empty()).then(|| s.trim().to_string())
}

/// The server host of the selected source or sink: present, and a host
/// name or address rather than a URL or `host:port`.
fn check_host(key: &'static str, host: &str, selected_by: &str) -> Result<String, ConfigError> {
    let h = host.trim();
    if h.is_empty() {
        return Err(invalid(
            key,
            host,
            format!("no host is set, and {selected_by} needs one"),
        ));
    }
    if h.parse::<std::net::IpAddr>().is_ok() {
        return Ok(h.to_string());
    }
    if h.contains("://") || h.contains(['/', ' ', '\t', '@']) {
        return Err(invalid(
            key,
            host,
            "is not a host name or address (write the name alone, such as \"mail.example.org\")",
        ));
    }
    if h.contains(':') {
        return Err(invalid(
            key,
            host,
            "is not a host name or address (the port has a key of its own)",
        ));
    }
    Ok(h.to_string())
}

fn check_port(key: &'static str, port: u16) -> Result<u16, ConfigError> {
    if port == 0 {
        return Err(invalid_number(
            key,
            port,
            "0 is not a port a server listens on",
        ));
    }
    Ok(port)
}

/// Seconds that must be at least one (a wait of zero would spin).
fn seconds(key: &'static str, n: u64) -> Result<Duration, ConfigError> {
    if n == 0 {
        return Err(invalid_number(key, n, "must be at least 1 second"));
    }
    Ok(Duration::from_secs(n))
}

/// The name the server's certificate must carry: `tls-name`, else the host.
fn check_tls_name(
    tls: TlsMode,
    name_key: &'static str,
    tls_name: &str,
    host_key: &'static str,
    host: &str,
) -> Result<Option<String>, ConfigError> {
    let name = non_empty(tls_name);
    if tls == TlsMode::None {
        return Ok(name);
    }
    let (key, value) = match &name {
        Some(n) => (name_key, n.as_str()),
        None => (host_key, host),
    };
    crate::mail::tls::server_name(value).map_err(|source| ConfigError::Tls {
        key,
        value: quoted(value),
        source,
    })?;
    Ok(name)
}

/// `[web]`: an address to listen on, and the address readers reach the
/// pages at (`base-url`), which must be a plain http(s) URL since it is
/// written into every results mail.
fn check_web(w: &RawWeb) -> Result<Web, ConfigError> {
    let address: std::net::SocketAddr = w.address.trim().parse().map_err(|_| {
        invalid(
            "web.address",
            &w.address,
            "is not an IP address and port (such as \"127.0.0.1:8080\", or \"[::1]:8080\")",
        )
    })?;
    let base = w.base_url.trim();
    let base_url = if base.is_empty() {
        (!address.ip().is_unspecified() && address.port() != 0)
            .then(|| format!("http://{address}/"))
    } else {
        let rest = base
            .strip_prefix("http://")
            .or_else(|| base.strip_prefix("https://"))
            .ok_or_else(|| {
                invalid(
                    "web.base-url",
                    &w.base_url,
                    "must begin with http:// or https:// (such as \"https://diplomacy.example.org/\")",
                )
            })?;
        let host = rest.split('/').next().unwrap_or("");
        if host.is_empty() {
            return Err(invalid("web.base-url", &w.base_url, "names no host"));
        }
        if let Some(c) = base
            .chars()
            .find(|c| c.is_whitespace() || c.is_control() || "<>\"'`{}|\\^?#".contains(*c))
        {
            return Err(invalid(
                "web.base-url",
                &w.base_url,
                format!("may not hold {c:?} (write the pages' address alone, without a query)"),
            ));
        }
        Some(if base.ends_with('/') {
            base.to_string()
        } else {
            format!("{base}/")
        })
    };
    if !(1..=65_536).contains(&w.connections) {
        return Err(invalid_number(
            "web.connections",
            w.connections,
            "must be from 1 to 65536",
        ));
    }
    Ok(Web {
        enabled: w.enabled,
        address,
        base_url: base_url.filter(|_| w.enabled),
        connections: w.connections,
    })
}

/// The levels a `judge.log` directive may name.
const LOG_LEVELS: [&str; 6] = ["error", "warn", "info", "debug", "trace", "off"];

/// `judge.log`: a level, or tracing directives (`info,zinejudge::mail=debug`)
/// of which one is a bare level for everything else.
///
/// tracing reads a word it does not know as a *target* (`verbose` means
/// "everything from the module `verbose`, nothing else"), so a misspelt
/// level silenced the whole judge, outbox failures included. Here every
/// directive must name a level, and the level for everything else must be
/// present and not `off`: errors are always logged.
fn check_log(value: &str) -> Result<String, ConfigError> {
    let v = value.trim();
    let levels = "use error, warn, info, debug or trace, optionally followed by \
                  module directives such as \"info,zinejudge::mail=debug\"";
    let mut default: Option<String> = None;
    for d in v.split(',').map(str::trim) {
        let (target, level) = match d.split_once('=') {
            Some((t, l)) => (Some(t.trim()), l.trim()),
            None => (None, d),
        };
        let level = level.to_ascii_lowercase();
        if !LOG_LEVELS.contains(&level.as_str()) {
            let what = if d.is_empty() {
                "an empty directive".to_string()
            } else {
                format!("`{d}` is not a log level")
            };
            return Err(invalid("judge.log", value, format!("{what} ({levels})")));
        }
        match target {
            Some(t) => {
                if t.is_empty() || !t.chars().all(|c| c.is_alphanumeric() || "_:-".contains(c)) {
                    return Err(invalid(
                        "judge.log",
                        value,
                        format!("`{t}` is not a module path ({levels})"),
                    ));
                }
            }
            None if default.is_some() => {
                return Err(invalid(
                    "judge.log",
                    value,
                    "names two levels for everything else; keep one",
                ));
            }
            None => default = Some(level),
        }
    }
    match default.as_deref() {
        None => Err(invalid(
            "judge.log",
            value,
            format!(
                "sets no level for everything else, so errors (even outbox failures) \
                 would not be logged; begin with one, such as \"warn,{v}\""
            ),
        )),
        Some("off") => Err(invalid(
            "judge.log",
            value,
            "would log nothing, not even outbox failures; the quietest level is \"error\"",
        )),
        Some(_) => {
            tracing_subscriber::EnvFilter::try_new(v)
                .map_err(|e| invalid("judge.log", value, format!("not a log filter: {e}")))?;
            Ok(v.to_string())
        }
    }
}

/// The variant files of `dir` that load, and why the others do not. A
/// bad file never stops the judge: the GM reads its problems in the log
/// (and from `check-config`), and the other variants are played.
fn read_variants(dir: &Path) -> (Vec<std::sync::Arc<crate::variant::Variant>>, Vec<String>) {
    let mut loaded: Vec<std::sync::Arc<crate::variant::Variant>> = Vec::new();
    let mut problems = Vec::new();
    if dir.as_os_str().is_empty() {
        return (loaded, problems);
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (loaded, problems),
        Err(e) => {
            problems.push(format!(
                "variants.dir = {}: {e}",
                quoted(&dir.display().to_string())
            ));
            return (loaded, problems);
        }
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    for f in files {
        let shown = f.display();
        let text = match std::fs::read_to_string(&f) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("{shown}: {e}"));
                continue;
            }
        };
        match crate::variant::Variant::from_toml(&text) {
            Ok(v) => {
                let name = v.name.to_ascii_lowercase();
                if crate::variant::builtin(&name).is_some() {
                    problems.push(format!(
                        "{shown}: `{name}` is a variant the judge ships; a file cannot replace it (rename it in its [variant] table)"
                    ));
                } else if loaded.iter().any(|o| o.name.eq_ignore_ascii_case(&name)) {
                    problems.push(format!(
                        "{shown}: another file already gives the variant `{name}`"
                    ));
                } else {
                    loaded.push(std::sync::Arc::new(v));
                }
            }
            Err(e) => {
                for p in &e.problems {
                    problems.push(format!("{shown}:{p}"));
                }
            }
        }
    }
    (loaded, problems)
}

/// The template files of a directory that replace built-in ones; each is
/// checked now, so a broken template is refused with the configuration.
fn read_templates(dir: &Path) -> Result<Vec<(String, String)>, ConfigError> {
    use crate::report::templates::Templates;
    if dir.as_os_str().is_empty() {
        return Ok(Vec::new());
    }
    let path_error = |what: String, source| ConfigError::Path {
        key: "judge.templates",
        path: dir.to_path_buf(),
        what,
        source,
    };
    // Read the directory first: a missing one is said to be missing, not
    // to "hold none of the templates".
    std::fs::read_dir(dir).map_err(|e| path_error("cannot read the directory".into(), e))?;
    let mut out = Vec::new();
    for name in Templates::names() {
        let path = dir.join(name);
        match std::fs::read_to_string(&path) {
            Ok(text) => out.push((name.to_string(), text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(path_error(format!("cannot read {}", path.display()), e)),
        }
    }
    if out.is_empty() {
        return Err(invalid(
            "judge.templates",
            &dir.display().to_string(),
            format!(
                "holds none of the templates ({})",
                Templates::names().collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    Templates::with_overrides(out.clone())
        .map_err(|e| ConfigError::Template(dir.to_path_buf(), e))?;
    Ok(out)
}

/// Check that this user can make and write files in `dir`: in it if it
/// exists, else in the nearest directory above it that does (where the
/// judge will create it). Tried for real, with a file created and removed,
/// because permissions alone do not tell (a read-only file system, ACLs,
/// systemd's `ProtectSystem=`).
fn check_dir_writable(key: &'static str, path: &Path, dir: &Path) -> Result<(), ConfigError> {
    let err = |what: String, source| ConfigError::Path {
        key,
        path: path.to_path_buf(),
        what,
        source,
    };
    let mut d = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    loop {
        match std::fs::metadata(d) {
            Ok(m) if m.is_dir() => break,
            Ok(_) => {
                return Err(err(
                    format!("{} is not a directory", d.display()),
                    std::io::Error::from(std::io::ErrorKind::NotADirectory),
                ));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                d = match d.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p,
                    _ => Path::new("."),
                };
            }
            Err(e) => return Err(err(format!("cannot look at {}", d.display()), e)),
        }
    }
    let probe = d.join(format!(".zinejudge-check-{}", std::process::id()));
    let what = if d == dir {
        format!("cannot write in {}", d.display())
    } else {
        format!(
            "cannot create {}: cannot write in {}",
            dir.display(),
            d.display()
        )
    };
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|e| err(what, e))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// `[judge]`: the judge's address, its domain (the address's unless
/// set) and its time zone.
fn resolve_identity(j: &RawJudge) -> Result<Identity, ConfigError> {
    let address = j.address.trim().to_string();
    let Some((_, addr_domain)) = address.split_once('@') else {
        return Err(invalid(
            "judge.address",
            &j.address,
            "is not a mail address",
        ));
    };
    if address.parse::<lettre::Address>().is_err() {
        return Err(invalid(
            "judge.address",
            &j.address,
            "is not a mail address",
        ));
    }
    let domain = non_empty(&j.domain).unwrap_or_else(|| addr_domain.to_string());
    if jiff::tz::TimeZone::get(&j.timezone).is_err() {
        return Err(invalid(
            "judge.timezone",
            &j.timezone,
            "is not a known time zone (use a name such as \"Europe/London\")",
        ));
    }
    Ok(Identity {
        address,
        name: j.name.clone(),
        domain,
    })
}

/// `[limits]`: a mail size a real mail fits in, and a work budget the
/// watchdog leaves room for. Returns the longest wait between retries.
fn check_limits(l: &RawLimits) -> Result<Duration, ConfigError> {
    if l.max_mail_bytes < 1024 {
        return Err(invalid_number(
            "limits.max-mail-bytes",
            l.max_mail_bytes,
            "must be at least 1024",
        ));
    }
    let max_retry = seconds("limits.max-retry-seconds", l.max_retry_seconds)?;
    if !(1..=25).contains(&l.work_seconds) {
        return Err(invalid_number(
            "limits.work-seconds",
            l.work_seconds,
            "must be 1 to 25: the systemd unit's watchdog (60 s) restarts a judge whose \
             processor shows no life for half of it, and a mail must be stopped by its \
             budget well before",
        ));
    }
    Ok(max_retry)
}

/// `[store]`'s numbers: the lease and the days things are kept.
fn check_store_numbers(st: &RawStore) -> Result<(), ConfigError> {
    if !(2..=3600).contains(&st.lease_seconds) {
        return Err(invalid_number(
            "store.lease-seconds",
            st.lease_seconds,
            "must be between 2 and 3600",
        ));
    }
    for (key, days) in [
        ("store.keep-mail-days", st.keep_mail_days),
        ("store.keep-sent-days", st.keep_sent_days),
        ("store.vacuum-days", st.vacuum_days),
    ] {
        if days == 0 || days > 36500 {
            return Err(invalid_number(key, days, "must be between 1 and 36500"));
        }
    }
    Ok(())
}

/// `[inbound]`, and `[imap]` when it is the source.
fn resolve_source(
    inbound: RawInbound,
    imap: RawImap,
    max_mail_bytes: u64,
) -> Result<Source, ConfigError> {
    match inbound.source.as_str() {
        "maildir" => Ok(Source::Maildir {
            path: inbound.maildir,
            poll: seconds("inbound.poll-seconds", inbound.poll_seconds)?,
        }),
        "imap" => resolve_imap(imap, max_mail_bytes).map(Source::Imap),
        "none" => Ok(Source::None),
        other => Err(invalid(
            "inbound.source",
            other,
            "use \"maildir\", \"imap\" or \"none\"",
        )),
    }
}

/// `[imap]`: a server to reach, a login and a password (the server needs
/// both), and a mailbox to read.
fn resolve_imap(i: RawImap, max_mail_bytes: u64) -> Result<ImapSettings, ConfigError> {
    let selected = "inbound.source = \"imap\"";
    let host = check_host("imap.host", &i.host, selected)?;
    let port = check_port("imap.port", i.port)?;
    let tls_name = check_tls_name(i.tls, "imap.tls-name", &i.tls_name, "imap.host", &host)?;
    let user = non_empty(&i.user).ok_or_else(|| {
        invalid(
            "imap.user",
            &i.user,
            "no login is set, and the IMAP server needs one",
        )
    })?;
    let password = secret(
        &i.password,
        &i.password_file,
        "ZINEJUDGE_IMAP_PASSWORD",
        "imap.password-file",
    )?;
    if password.is_empty() {
        return Err(invalid(
            "imap.password",
            "",
            "no password (set imap.password-file or ZINEJUDGE_IMAP_PASSWORD)",
        ));
    }
    let mailbox = non_empty(&i.mailbox)
        .ok_or_else(|| invalid("imap.mailbox", &i.mailbox, "no mailbox to read is set"))?;
    Ok(ImapSettings {
        host,
        port,
        tls: i.tls,
        tls_name,
        ca_pem: read_ca("imap.ca-file", &i.ca_file)?,
        user,
        password,
        mailbox,
        processed: non_empty(&i.processed_mailbox),
        poll: seconds("imap.poll-seconds", i.poll_seconds)?,
        idle: i.idle,
        max_bytes: u32::try_from(max_mail_bytes).unwrap_or(u32::MAX),
    })
}

/// `[outbound]`, and `[smtp]` when it is the sink.
fn resolve_sink(outbound: RawOutbound, smtp: RawSmtp) -> Result<Sink, ConfigError> {
    match outbound.sink.as_str() {
        "maildir" => Ok(Sink::Maildir(outbound.maildir)),
        "smtp" => resolve_smtp(smtp),
        other => Err(invalid(
            "outbound.sink",
            other,
            "use \"maildir\" or \"smtp\"",
        )),
    }
}

/// `[smtp]`: a server to reach, a password if there is a login (none is
/// fine: a local relay), and a sane number of connections.
fn resolve_smtp(s: RawSmtp) -> Result<Sink, ConfigError> {
    let selected = "outbound.sink = \"smtp\"";
    let host = check_host("smtp.host", &s.host, selected)?;
    let port = check_port("smtp.port", s.port)?;
    let tls_name = check_tls_name(s.tls, "smtp.tls-name", &s.tls_name, "smtp.host", &host)?;
    let password = secret(
        &s.password,
        &s.password_file,
        "ZINEJUDGE_SMTP_PASSWORD",
        "smtp.password-file",
    )?;
    let user = non_empty(&s.user);
    if user.is_some() && password.is_empty() {
        return Err(invalid(
            "smtp.password",
            "",
            "smtp.user is set but no password (set smtp.password-file or \
             ZINEJUDGE_SMTP_PASSWORD, or leave smtp.user empty for no login)",
        ));
    }
    if !(1..=64).contains(&s.connections) {
        return Err(invalid_number(
            "smtp.connections",
            s.connections,
            "must be from 1 to 64",
        ));
    }
    Ok(Sink::Smtp {
        settings: SmtpSettings {
            host,
            port,
            tls: s.tls,
            tls_name,
            ca_pem: read_ca("smtp.ca-file", &s.ca_file)?,
            password: user.as_ref().map(|_| password),
            user,
            timeout: seconds("smtp.timeout-seconds", s.timeout_seconds)?,
        },
        connections: s.connections,
    })
}

/// `[store] url` (or `path` when no URL is set), the PostgreSQL password
/// read from `password-file` or the environment.
fn resolve_store(r: &RawStore) -> Result<crate::store::Location, ConfigError> {
    if r.url.is_empty() {
        return Ok(crate::store::Location::Sqlite(r.path.clone()));
    }
    let file = (!r.password_file.as_os_str().is_empty()).then_some(r.password_file.as_path());
    crate::store::Location::parse(&r.url, file).map_err(|e| match e {
        crate::store::StoreError::PasswordFile(path, source) => ConfigError::Path {
            key: "store.password-file",
            path,
            what: "cannot read the database password".into(),
            source,
        },
        e => invalid("store.url", &r.url, e.to_string()),
    })
}

/// The store: the file (if it exists) opens for writing, and its directory
/// takes new files (SQLite's `-wal` and `-shm` beside it).
fn check_store_path(path: &Path) -> Result<(), ConfigError> {
    const KEY: &str = "store.path";
    if path.as_os_str().is_empty() {
        return Err(invalid(KEY, "", "no database file is set"));
    }
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => {
            return Err(invalid(
                KEY,
                &path.display().to_string(),
                "is a directory; name the database file in it (such as \"zinejudge.sqlite\")",
            ));
        }
        Ok(_) => {
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(path)
                .map_err(|source| ConfigError::Path {
                    key: KEY,
                    path: path.to_path_buf(),
                    what: "cannot open the database for writing".into(),
                    source,
                })?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(source) => {
            return Err(ConfigError::Path {
                key: KEY,
                path: path.to_path_buf(),
                what: "cannot look at the database".into(),
                source,
            });
        }
    }
    check_dir_writable(KEY, path, path.parent().unwrap_or(Path::new("")))
}

/// A Maildir the judge writes: its `new/`, `cur/` and `tmp/` each exist
/// and take files, or can be made.
fn check_maildir(key: &'static str, root: &Path) -> Result<(), ConfigError> {
    if root.as_os_str().is_empty() {
        return Err(invalid(key, "", "no Maildir is set"));
    }
    for sub in ["new", "cur", "tmp"] {
        check_dir_writable(key, root, &root.join(sub))?;
    }
    Ok(())
}

/// `[trust]`: an `authserv-id` is a host name's characters (letters,
/// digits, `.`, `-`, `_`), empty for none.
fn resolve_trust(t: RawTrust) -> Result<crate::trust::sender::Policy, ConfigError> {
    let id = t.authserv_id.trim();
    if !id
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
    {
        return Err(invalid(
            "trust.authserv-id",
            &t.authserv_id,
            "is not a server's name (letters, digits, dots and dashes)",
        ));
    }
    if t.require_authentication && id.is_empty() {
        return Err(invalid(
            "trust.require-authentication",
            "true",
            "needs trust.authserv-id: without it no mail is ever authenticated",
        ));
    }
    if t.verify_signatures && id.is_empty() {
        return Err(invalid(
            "trust.verify-signatures",
            "true",
            "needs trust.authserv-id: the name the judge stamps its findings with \
             (one your mail server does not use)",
        ));
    }
    Ok(crate::trust::sender::Policy {
        authserv_id: (!id.is_empty()).then(|| id.to_string()),
        require_authentication: t.require_authentication,
        verify_signatures: t.verify_signatures,
    })
}

/// How long `check-config` waits for each server it checks.
pub(crate) const NETWORK_CHECK: Duration = Duration::from_secs(5);

/// Whether the web address can be listened on: bound for a moment (with
/// `SO_REUSEPORT`, so that two checks at once do not take each other for
/// a server; the judge's own listener does not set it). An address a
/// judge's own pages already answer on (a judge running there, checked
/// again before a reload) is noted rather than refused. Runs in a Tokio
/// runtime (listening registers the socket with it).
fn check_bind(web: &Web) -> Result<Option<String>, ConfigError> {
    let refused = |e: std::io::Error| ConfigError::Server {
        key: "web.address",
        value: quoted(&web.address.to_string()),
        source: format!("cannot listen there: {e}").into(),
    };
    let listen = || -> std::io::Result<tokio::net::TcpListener> {
        let socket = match web.address {
            std::net::SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
            std::net::SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
        };
        socket.set_reuseport(true)?;
        socket.bind(web.address)?;
        socket.listen(1)
    };
    match listen() {
        Ok(_) => Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse && serves_pages(web.address) => {
            Ok(Some(format!(
                "web.address {} is in use by a judge's pages (a judge runs there): not checked",
                web.address
            )))
        }
        Err(e) => Err(refused(e)),
    }
}

/// Whether a judge's pages answer on `address` (asked within
/// [`NETWORK_CHECK`]): their footer says what they are.
fn serves_pages(address: std::net::SocketAddr) -> bool {
    use std::io::{Read, Write};
    let mut at = address;
    if at.ip().is_unspecified() {
        at.set_ip(match at {
            std::net::SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            std::net::SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    let Ok(mut tcp) = std::net::TcpStream::connect_timeout(&at, NETWORK_CHECK) else {
        return false;
    };
    let _ = tcp.set_read_timeout(Some(NETWORK_CHECK));
    let _ = tcp.set_write_timeout(Some(NETWORK_CHECK));
    if tcp
        .write_all(b"GET / HTTP/1.0\r\nHost: check-config\r\n\r\n")
        .is_err()
    {
        return false;
    }
    let mut page = Vec::new();
    let _ = tcp.take(256 * 1024).read_to_end(&mut page);
    String::from_utf8_lossy(&page).contains("a play-by-email judge")
}

impl Config {
    /// Load `path` over the defaults (or the defaults alone) and resolve it.
    ///
    /// This checks every value but touches no file except those it reads
    /// (password, CA and template files); [`Config::check_paths`] checks
    /// the files the judge will write.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let mut table = parse_table(DEFAULT_TOML, "built-in defaults")?;
        if let Some(p) = path {
            let text =
                std::fs::read_to_string(p).map_err(|e| ConfigError::Read(p.to_path_buf(), e))?;
            let over = parse_table(&text, &p.display().to_string())?;
            merge(&mut table, over);
        }
        let name = path.map_or("built-in defaults".to_string(), |p| p.display().to_string());
        let raw: RawConfig = table
            .try_into()
            .map_err(|e: toml::de::Error| ConfigError::Parse {
                path: name,
                message: e.to_string().trim().replace('\n', " "),
            })?;
        Self::resolve(raw)
    }

    /// Check, as the user this runs as, that the judge can create and write
    /// its store and the Maildirs it uses: so that `check-config` run as
    /// the service's user, and `run` at start, refuse a path the judge
    /// could not use rather than failing at the first mail. Relative paths
    /// are checked from the current directory, as the judge resolves them.
    pub fn check_paths(&self) -> Result<(), ConfigError> {
        if let Some(path) = self.store.path() {
            check_store_path(path)?;
        }
        if let Source::Maildir { path, .. } = &self.source {
            check_maildir("inbound.maildir", path)?;
        }
        if let Sink::Maildir(path) = &self.sink {
            check_maildir("outbound.maildir", path)?;
        }
        Ok(())
    }

    /// Check that the store can be used as `run` will use it: on
    /// PostgreSQL, connect and log in, and check that the role can make
    /// the judge's tables (or, once made, read and write each); an SQLite
    /// file that exists must be a store this program knows. Nothing is
    /// changed. A refusal names the key that chose what failed: the
    /// password file for a login refused, else the URL (or path).
    pub fn check_store(&self) -> Result<(), ConfigError> {
        use crate::store::{Location, Store, Unusable};
        Store::check(&self.store).map_err(|problem| {
            let (key, value) = match (&problem, &self.store_keys.password_file) {
                (Unusable::Login(_), Some(file)) => {
                    ("store.password-file", file.display().to_string())
                }
                _ => (
                    self.store_keys.location,
                    match &self.store {
                        Location::Postgres(pg) => pg.url.clone(),
                        Location::Sqlite(path) => path.display().to_string(),
                    },
                ),
            };
            ConfigError::Store {
                key,
                value: quoted(&value),
                problem,
            }
        })
    }

    /// Check what `check-config` can prove of the servers the judge will
    /// use, changing nothing: it logs in to the IMAP server (and looks at
    /// the mailbox) and to the SMTP server as the judge would, each within
    /// [`NETWORK_CHECK`], and binds the web address for a moment. Returns
    /// notes for the summary (a web address already served by a judge's
    /// pages, as when one runs there). `run` does not make these checks at
    /// start: a mail server down at boot is waited for, and a refused login
    /// is logged as an error.
    pub fn check_servers(&self) -> Result<Vec<String>, ConfigError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| ConfigError::Server {
                key: "inbound.source",
                value: "(network checks)".into(),
                source: Box::new(e),
            })?;
        if let Source::Imap(i) = &self.source {
            rt.block_on(crate::mail::imap::check_login(i, NETWORK_CHECK))
                .map_err(|e| {
                    let (key, value) = match &e {
                        crate::mail::imap::ImapError::Login { user, .. } => ("imap.user", user),
                        _ => ("imap.host", &i.host),
                    };
                    ConfigError::Server {
                        key,
                        value: quoted(value),
                        source: Box::new(e),
                    }
                })?;
        }
        if let Sink::Smtp { settings, .. } = &self.sink {
            let checked = crate::mail::smtp::SmtpSink::new(settings)
                .map(|sink| rt.block_on(async { sink.check_login(NETWORK_CHECK).await }));
            if let Err(e) | Ok(Err(e)) = checked {
                let (key, value) = match (&e, &settings.user) {
                    (crate::mail::smtp::SmtpError::Login { .. }, Some(user)) => {
                        ("smtp.user", user.as_str())
                    }
                    _ => ("smtp.host", settings.host.as_str()),
                };
                return Err(ConfigError::Server {
                    key,
                    value: quoted(value),
                    source: Box::new(e),
                });
            }
        }
        let mut notes = Vec::new();
        if self.web.enabled {
            notes.extend(rt.block_on(async { check_bind(&self.web) })?);
        }
        Ok(notes)
    }

    /// The raw file checked section by section, in the order a GM reads
    /// it (the judge, the limits, the store, the mail in and out), and the
    /// first problem found named with its key.
    fn resolve(r: RawConfig) -> Result<Config, ConfigError> {
        let identity = resolve_identity(&r.judge)?;
        let log = check_log(&r.judge.log)?;
        let max_retry = check_limits(&r.limits)?;
        check_store_numbers(&r.store)?;
        let picture = crate::report::PictureFormat::parse(&r.report.picture).ok_or_else(|| {
            invalid(
                "report.picture",
                &r.report.picture,
                "is none of \"png\", \"svg\", \"both\", \"none\"",
            )
        })?;
        let source = resolve_source(r.inbound, r.imap, r.limits.max_mail_bytes)?;
        let sink = resolve_sink(r.outbound, r.smtp)?;
        let templates = read_templates(&r.judge.templates)?;
        let (variants, variant_problems) = read_variants(&r.variants.dir);
        let web = check_web(&r.web)?;
        let store = resolve_store(&r.store)?;
        let store_keys = StoreKeys {
            location: if r.store.url.is_empty() {
                "store.path"
            } else {
                "store.url"
            },
            password_file: (!r.store.password_file.as_os_str().is_empty())
                .then(|| r.store.password_file.clone()),
        };
        Ok(Config {
            identity,
            timezone: r.judge.timezone,
            log,
            templates,
            variants,
            variant_problems,
            store,
            store_keys,
            source,
            sink,
            max_mail_bytes: r.limits.max_mail_bytes,
            max_retry,
            work_budget: Duration::from_secs(r.limits.work_seconds),
            keep_mail: Duration::from_secs(r.store.keep_mail_days * 86400),
            keep_sent: Duration::from_secs(r.store.keep_sent_days * 86400),
            vacuum_every: Duration::from_secs(r.store.vacuum_days * 86400),
            claimant: crate::store::Claimant::this_process(
                r.store.judge_name.trim(),
                Duration::from_secs(r.store.lease_seconds),
            ),
            picture,
            web,
            trust: resolve_trust(r.trust)?,
        })
    }

    /// A one-paragraph summary for `check-config` and the log. Paths are
    /// shown absolute, as the judge resolves them from its directory, so a
    /// GM checking by hand from elsewhere sees where they lead.
    pub fn summary(&self) -> String {
        let abs = |p: &Path| {
            std::path::absolute(p)
                .unwrap_or_else(|_| p.to_path_buf())
                .display()
                .to_string()
        };
        let source = match &self.source {
            Source::Maildir { path, .. } => format!("Maildir {}", abs(path)),
            Source::Imap(i) => format!(
                "IMAP {}@{}:{} ({:?}) mailbox {}",
                i.user, i.host, i.port, i.tls, i.mailbox
            ),
            Source::None => "only `zinejudge deliver`".to_string(),
        };
        let sink = match &self.sink {
            Sink::Maildir(p) => format!("Maildir {}", abs(p)),
            Sink::Smtp { settings: s, .. } => format!("SMTP {}:{} ({:?})", s.host, s.port, s.tls),
        };
        let web = match (&self.web, &self.web.base_url) {
            (w, _) if !w.enabled => "off".to_string(),
            (w, Some(base)) if *base != format!("http://{}/", w.address) => {
                format!("on {}, linked as {base}", w.address)
            }
            (w, _) => format!("on {}", w.address),
        };
        let trust = match (&self.trust.authserv_id, self.trust.require_authentication) {
            (None, _) => {
                "every From a claim (registering mail waits for a confirmation)".to_string()
            }
            (Some(id), false) => format!("Authentication-Results of {id} believed"),
            (Some(id), true) => {
                format!("Authentication-Results of {id} believed, and needed to register")
            }
        } + if self.trust.verify_signatures {
            " (DKIM checked by the judge, stamped as that)"
        } else {
            ""
        };
        format!(
            "judge {} <{}>; store {}; mail in: {source}; mail out: {sink}; time zone {}; log {}; web pages {web}; senders: {trust}{}",
            self.identity.name,
            self.identity.address,
            match &self.store {
                crate::store::Location::Sqlite(p) => abs(p),
                pg => pg.display().to_string(),
            },
            self.timezone,
            self.log,
            if self.variants.is_empty() {
                String::new()
            } else {
                format!(
                    "; variants from files: {}",
                    self.variants
                        .iter()
                        .map(|v| v.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_need_no_server() {
        let c = Config::load(None).unwrap();
        assert!(matches!(c.source, Source::Maildir { .. }));
        assert!(matches!(c.sink, Sink::Maildir(_)));
        assert_eq!(
            c.store,
            crate::store::Location::Sqlite(PathBuf::from("var/zinejudge.sqlite"))
        );
    }

    #[test]
    fn trust_names_a_server_or_none_and_requires_nothing_without_one() {
        let t = |id: &str, required: bool| {
            resolve_trust(RawTrust {
                authserv_id: id.into(),
                require_authentication: required,
                verify_signatures: false,
            })
        };
        assert_eq!(
            t("", false).unwrap(),
            crate::trust::sender::Policy::default()
        );
        assert_eq!(
            t(" mx.example.org ", true).unwrap().authserv_id.as_deref(),
            Some("mx.example.org")
        );
        let e = t("mx.example.org; dmarc=pass", false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("trust.authserv-id"), "{e}");
        let e = t("", true).unwrap_err().to_string();
        assert!(e.contains("needs trust.authserv-id"), "{e}");
    }

    #[test]
    fn links_to_the_pages_go_where_readers_can_reach_them() {
        let web = |enabled: bool, address: &str, base: &str| {
            check_web(&RawWeb {
                enabled,
                address: address.into(),
                base_url: base.into(),
                connections: 1024,
            })
            .unwrap()
        };
        let w = web(true, "127.0.0.1:8080", "");
        assert_eq!(w.base_url.as_deref(), Some("http://127.0.0.1:8080/"));
        assert_eq!(
            web(true, "[::1]:80", "").base_url.as_deref(),
            Some("http://[::1]:80/")
        );
        // No place to reach: no links.
        assert_eq!(web(true, "0.0.0.0:8080", "").base_url, None);
        assert_eq!(web(true, "127.0.0.1:0", "").base_url, None);
        assert_eq!(
            web(false, "127.0.0.1:8080", "https://x.org/").base_url,
            None
        );
        assert_eq!(
            web(true, "0.0.0.0:8080", "https://x.org/zj")
                .base_url
                .as_deref(),
            Some("https://x.org/zj/")
        );
    }

    #[test]
    fn a_file_overrides_only_what_it_says_and_unknown_keys_are_refused() {
        let dir = std::env::temp_dir().join(format!("zj-config-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("c.toml");
        std::fs::write(&f, "[judge]\naddress = \"gm@example.test\"\n").unwrap();
        let c = Config::load(Some(&f)).unwrap();
        assert_eq!(c.identity.address, "gm@example.test");
        assert_eq!(c.identity.domain, "example.test");
        std::fs::write(&f, "[judge]\nadress = \"gm@example.test\"\n").unwrap();
        let e = Config::load(Some(&f)).unwrap_err().to_string();
        assert!(e.contains("adress"), "{e}");
        std::fs::write(&f, "[inbound]\nsource = \"imap\"\n").unwrap();
        let e = Config::load(Some(&f)).unwrap_err().to_string();
        assert!(e.contains("no password"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
