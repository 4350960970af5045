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
pub const DEFAULT_TOML: &str = include_str!("../config/zinejudge.toml");

/// A configuration problem.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read {0}")]
    Read(PathBuf, #[source] std::io::Error),
    /// The file is not valid TOML or has unknown keys.
    #[error("{path}: {message}")]
    Parse {
        /// File.
        path: String,
        /// What is wrong (with line).
        message: String,
    },
    /// A value does not make sense.
    #[error("{0}")]
    Invalid(String),
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
    /// Database file.
    pub store: PathBuf,
    /// Mail in.
    pub source: Source,
    /// Mail out.
    pub sink: Sink,
    /// Largest mail read.
    pub max_mail_bytes: u64,
    /// Longest retry interval.
    pub max_retry: Duration,
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

fn secret(inline: &str, file: &Path, env: &str, what: &str) -> Result<String, ConfigError> {
    if let Ok(v) = std::env::var(env)
        && !v.is_empty()
    {
        return Ok(v);
    }
    if !file.as_os_str().is_empty() {
        let text =
            std::fs::read_to_string(file).map_err(|e| ConfigError::Read(file.to_path_buf(), e))?;
        let first = text.lines().next().unwrap_or("").trim_end().to_string();
        if first.is_empty() {
            return Err(ConfigError::Invalid(format!(
                "{what}: the password file {} is empty",
                file.display()
            )));
        }
        return Ok(first);
    }
    Ok(inline.to_string())
}

fn read_ca(path: &Path) -> Result<Option<Vec<u8>>, ConfigError> {
    if path.as_os_str().is_empty() {
        return Ok(None);
    }
    std::fs::read(path)
        .map(Some)
        .map_err(|e| ConfigError::Read(path.to_path_buf(), e))
}

fn non_empty(s: &str) -> Option<String> {
    (!s.trim().is_empty()).then(|| s.trim().to_string())
}

/// The template files of a directory that replace built-in ones; each is
/// checked now, so a broken template is refused with the configuration.
fn read_templates(dir: &Path) -> Result<Vec<(String, String)>, ConfigError> {
    if dir.as_os_str().is_empty() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for name in crate::report::templates::Templates::names() {
        let path = dir.join(name);
        if path.exists() {
            let text =
                std::fs::read_to_string(&path).map_err(|e| ConfigError::Read(path.clone(), e))?;
            out.push((name.to_string(), text));
        }
    }
    if out.is_empty() {
        return Err(ConfigError::Invalid(format!(
            "judge.templates: {} holds none of the templates ({})",
            dir.display(),
            crate::report::templates::Templates::names()
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    crate::report::templates::Templates::with_overrides(out.clone())
        .map_err(|e| ConfigError::Invalid(e.to_string()))?;
    Ok(out)
}

impl Config {
    /// Load `path` over the defaults (or the defaults alone) and resolve it.
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
                message: e.message().trim().to_string(),
            })?;
        Self::resolve(raw)
    }

    fn resolve(r: RawConfig) -> Result<Config, ConfigError> {
        let address = r.judge.address.trim().to_string();
        let Some((_, addr_domain)) = address.split_once('@') else {
            return Err(ConfigError::Invalid(format!(
                "judge.address `{address}` is not a mail address"
            )));
        };
        if address.parse::<lettre::Address>().is_err() {
            return Err(ConfigError::Invalid(format!(
                "judge.address `{address}` is not a mail address"
            )));
        }
        let domain = non_empty(&r.judge.domain).unwrap_or_else(|| addr_domain.to_string());
        if jiff::tz::TimeZone::get(&r.judge.timezone).is_err() {
            return Err(ConfigError::Invalid(format!(
                "judge.timezone `{}` is not a known time zone (use a name like Europe/London)",
                r.judge.timezone
            )));
        }
        let source = match r.inbound.source.as_str() {
            "maildir" => Source::Maildir {
                path: r.inbound.maildir,
                poll: Duration::from_secs(r.inbound.poll_seconds.max(1)),
            },
            "imap" => {
                let i = r.imap;
                let password = secret(
                    &i.password,
                    &i.password_file,
                    "ZINEJUDGE_IMAP_PASSWORD",
                    "imap",
                )?;
                if password.is_empty() {
                    return Err(ConfigError::Invalid(
                        "imap: no password (set imap.password-file or ZINEJUDGE_IMAP_PASSWORD)"
                            .into(),
                    ));
                }
                Source::Imap(ImapSettings {
                    host: i.host,
                    port: i.port,
                    tls: i.tls,
                    tls_name: non_empty(&i.tls_name),
                    ca_pem: read_ca(&i.ca_file)?,
                    user: i.user,
                    password,
                    mailbox: i.mailbox,
                    processed: non_empty(&i.processed_mailbox),
                    poll: Duration::from_secs(i.poll_seconds.max(1)),
                    idle: i.idle,
                    max_bytes: u32::try_from(r.limits.max_mail_bytes).unwrap_or(u32::MAX),
                })
            }
            "none" => Source::None,
            other => {
                return Err(ConfigError::Invalid(format!(
                    "inbound.source `{other}`: use \"maildir\", \"imap\" or \"none\""
                )));
            }
        };
        let sink = match r.outbound.sink.as_str() {
            "maildir" => Sink::Maildir(r.outbound.maildir),
            "smtp" => {
                let s = r.smtp;
                let password = secret(
                    &s.password,
                    &s.password_file,
                    "ZINEJUDGE_SMTP_PASSWORD",
                    "smtp",
                )?;
                let user = non_empty(&s.user);
                Sink::Smtp {
                    settings: SmtpSettings {
                        host: s.host,
                        port: s.port,
                        tls: s.tls,
                        tls_name: non_empty(&s.tls_name),
                        ca_pem: read_ca(&s.ca_file)?,
                        password: user.as_ref().map(|_| password),
                        user,
                        timeout: Duration::from_secs(s.timeout_seconds.max(1)),
                    },
                    connections: s.connections.clamp(1, 64),
                }
            }
            other => {
                return Err(ConfigError::Invalid(format!(
                    "outbound.sink `{other}`: use \"maildir\" or \"smtp\""
                )));
            }
        };
        let templates = read_templates(&r.judge.templates)?;
        if r.limits.max_mail_bytes < 1024 {
            return Err(ConfigError::Invalid(
                "limits.max-mail-bytes must be at least 1024".into(),
            ));
        }
        Ok(Config {
            identity: Identity {
                address,
                name: r.judge.name,
                domain,
            },
            timezone: r.judge.timezone,
            log: r.judge.log,
            templates,
            store: r.store.path,
            source,
            sink,
            max_mail_bytes: r.limits.max_mail_bytes,
            max_retry: Duration::from_secs(r.limits.max_retry_seconds.max(1)),
        })
    }

    /// A one-paragraph summary for `check-config` and the log.
    pub fn summary(&self) -> String {
        let source = match &self.source {
            Source::Maildir { path, .. } => format!("Maildir {}", path.display()),
            Source::Imap(i) => format!(
                "IMAP {}@{}:{} ({:?}) mailbox {}",
                i.user, i.host, i.port, i.tls, i.mailbox
            ),
            Source::None => "only `zinejudge deliver`".to_string(),
        };
        let sink = match &self.sink {
            Sink::Maildir(p) => format!("Maildir {}", p.display()),
            Sink::Smtp { settings: s, .. } => format!("SMTP {}:{} ({:?})", s.host, s.port, s.tls),
        };
        format!(
            "judge {} <{}>; store {}; mail in: {source}; mail out: {sink}; time zone {}",
            self.identity.name,
            self.identity.address,
            self.store.display(),
            self.timezone
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
        assert_eq!(c.store, PathBuf::from("var/zinejudge.sqlite"));
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
