//! DKIM signatures checked by the judge itself, for a mailbox whose server
//! stamps no `Authentication-Results` (`[trust] verify-signatures`).
//!
//! The judge then does at intake what OpenDKIM does in a Postfix: it
//! verifies every `DKIM-Signature` of a mail (the signing domain's key
//! looked up in DNS), and stamps the mail with what it found under its own
//! `authserv-id`, setting aside the fields of that id the mail brought
//! (`trust::authres::restamp`). The stamp is kept with the mail in the
//! store, so a mail read again after a crash is judged by what was found
//! when it came, and `trust::sender::identify` reads it as it reads a
//! server's. SPF is not checked: the judge does not see which host handed
//! the mail over. DMARC is not evaluated either: without SPF it passes
//! exactly when a signature aligned with the From's domain verifies, which
//! `identify` already takes as authentication.
//!
//! The verifying is the `mail-auth` crate's (the mail-parser authors'
//! library). A slow or absent resolver costs a mail at most
//! [`LOOKUP_TIMEOUT`]: its signature is then `temperror`, the From stays a
//! claim, and the mail is handled like any unauthenticated one.

use crate::trust::authres;
use mail_auth::common::headers::HeaderWriter;
use mail_auth::common::resolver::ToFqdn;
use mail_auth::hickory_resolver::config::{NameServerConfig, ResolverConfig, ResolverOpts};
use mail_auth::{
    AuthenticatedMessage, AuthenticationResults, MessageAuthenticator, Parameters, ResolverCache,
    Txt,
};
use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long one key lookup may take (one attempt).
pub(crate) const LOOKUP_TIMEOUT: Duration = Duration::from_secs(3);

/// At most this many DNS answers are remembered (each until its TTL ends);
/// past it the expired ones go, then all of them.
const CACHED: usize = 4096;

/// Why signatures cannot be checked at all.
#[derive(Debug, thiserror::Error)]
pub enum DkimError {
    /// The system's resolver configuration cannot be read.
    #[error("cannot use the system's DNS resolver (/etc/resolv.conf): {0}")]
    Resolver(String),
    /// A key given for the tests does not read as a DKIM key record.
    #[error("`{0}` is not a DKIM key record: {1}")]
    Key(String, String),
}

/// The judge's DKIM checker: a resolver, its answers remembered.
pub struct Verifier {
    /// `None`: no resolver could be made, and every signature is a
    /// temporary error (the mail is still stamped, so that no field the
    /// mail brought under the judge's id is believed).
    auth: Option<MessageAuthenticator>,
    keys: Answers,
    authserv_id: String,
}

impl std::fmt::Debug for Verifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Verifier")
            .field("authserv_id", &self.authserv_id)
            .finish_non_exhaustive()
    }
}

impl Verifier {
    /// A checker that asks the system's resolver, stamping as
    /// `authserv_id`. Without a usable resolver it still stamps (every
    /// signature a temporary error), and says why once, here.
    pub fn system(authserv_id: &str) -> Self {
        let made = mail_auth::hickory_resolver::system_conf::read_system_conf()
            .map_err(|e| DkimError::Resolver(e.to_string()))
            .and_then(|(config, mut opts)| {
                opts.timeout = LOOKUP_TIMEOUT;
                opts.attempts = 1;
                Self::with(config, opts, authserv_id)
            });
        made.unwrap_or_else(|e| {
            tracing::error!(error = %e, "DKIM signatures cannot be checked: every From stays a claim");
            Verifier {
                auth: None,
                keys: Answers::default(),
                authserv_id: authserv_id.to_string(),
            }
        })
    }

    /// A checker that knows the key records `keys` (`(name, TXT text)`,
    /// the name as `selector._domainkey.domain`) and asks no server for
    /// them: for tests, which must send no traffic anywhere. Anything else
    /// is asked of 127.0.0.1 only.
    pub fn with_keys(authserv_id: &str, keys: &[(String, String)]) -> Result<Self, DkimError> {
        use mail_auth::common::parse::TxtRecordParser;
        let loopback = ResolverConfig::from_parts(
            None,
            Vec::new(),
            vec![NameServerConfig::udp(std::net::Ipv4Addr::LOCALHOST.into())],
        );
        let mut opts = ResolverOpts::default();
        opts.timeout = Duration::from_millis(200);
        opts.attempts = 1;
        let v = Self::with(loopback, opts, authserv_id)?;
        let forever = Instant::now() + Duration::from_secs(365 * 24 * 3600);
        for (name, txt) in keys {
            let key = mail_auth::common::verify::DomainKey::parse(txt.as_bytes())
                .map_err(|e| DkimError::Key(name.clone(), e.to_string()))?;
            v.keys
                .insert(name.to_fqdn().into_owned().into(), Txt::from(key), forever);
        }
        Ok(v)
    }

    fn with(
        config: ResolverConfig,
        opts: ResolverOpts,
        authserv_id: &str,
    ) -> Result<Self, DkimError> {
        let auth = MessageAuthenticator::new(config, opts)
            .map_err(|e| DkimError::Resolver(e.to_string()))?;
        Ok(Verifier {
            auth: Some(auth),
            keys: Answers::default(),
            authserv_id: authserv_id.to_string(),
        })
    }

    /// `raw` stamped with what its signatures show (see the module's
    /// comment). A mail that does not read as one is stamped `none`.
    pub async fn stamp(&self, raw: &[u8]) -> Vec<u8> {
        let header = match (AuthenticatedMessage::parse(raw), &self.auth) {
            (Some(msg), Some(auth)) => {
                let found = auth
                    .verify_dkim(Parameters::new(&msg).with_txt_cache(&self.keys))
                    .await;
                AuthenticationResults::new(&self.authserv_id)
                    .with_dkim_results(&found, msg.from())
                    .to_header()
            }
            (Some(_), None) => self.unchecked(),
            (None, _) => AuthenticationResults::new(&self.authserv_id).to_header(),
        };
        authres::restamp(raw, &self.authserv_id, &header)
    }

    /// The stamp of a mail whose signatures could not be checked.
    fn unchecked(&self) -> String {
        format!(
            "Authentication-Results: {}; dkim=temperror\r\n",
            self.authserv_id
        )
    }

    /// [`Verifier::stamp`] from code that is not async: on the runtime the
    /// caller runs in (a blocking task's), else on one made for it.
    pub fn stamp_blocking(&self, raw: &[u8]) -> Vec<u8> {
        match tokio::runtime::Handle::try_current() {
            Ok(h) => h.block_on(self.stamp(raw)),
            Err(_) => match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(rt) => rt.block_on(self.stamp(raw)),
                // Without a runtime nothing can be looked up: every
                // signature is a temporary error, and the From a claim.
                Err(e) => {
                    tracing::warn!(error = %e, "cannot check a mail's signatures");
                    authres::restamp(raw, &self.authserv_id, &self.unchecked())
                }
            },
        }
    }
}

/// DNS answers remembered until their TTL ends (mail-auth's cache
/// interface), a few thousand at most.
#[derive(Default)]
struct Answers(Mutex<HashMap<Box<str>, (Txt, Instant)>>);

impl ResolverCache<Box<str>, Txt> for Answers {
    fn get<Q>(&self, name: &Q) -> Option<Txt>
    where
        Box<str>: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let map = self.0.lock().ok()?;
        map.get(name)
            .filter(|(_, until)| *until > Instant::now())
            .map(|(t, _)| t.clone())
    }

    fn remove<Q>(&self, name: &Q) -> Option<Txt>
    where
        Box<str>: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.0.lock().ok()?.remove(name).map(|(t, _)| t)
    }

    fn insert(&self, key: Box<str>, value: Txt, valid_until: Instant) {
        let Ok(mut map) = self.0.lock() else {
            return;
        };
        if map.len() >= CACHED {
            let now = Instant::now();
            map.retain(|_, (_, until)| *until > now);
            if map.len() >= CACHED {
                map.clear();
            }
        }
        map.insert(key, (value, valid_until));
    }
}
