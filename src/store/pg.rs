//! A PostgreSQL client whose every wait has an end.
//!
//! A server that takes the TCP connection and then says nothing (hung, a
//! pooler queueing its clients, a firewall that swallows packets after the
//! handshake) never fails a call by itself: the kernel acknowledges what
//! the judge writes, so neither TCP keepalives nor `tcp_user_timeout`
//! notice, and the `postgres` crate's calls wait for ever. So the judge
//! drives `tokio_postgres` on a small runtime of each connection's own and
//! bounds every wait:
//!
//! - making the connection (TCP, the start-up exchange, the login) takes
//!   at most [`CONNECT_TIMEOUT`];
//! - the server cancels a statement after [`STATEMENT_TIMEOUT`]
//!   (`statement_timeout`, SQLSTATE 57014: the work's, as a statement a
//!   mail made slow is) and a wait for a lock after [`LOCK_TIMEOUT`]
//!   (`lock_timeout`, 55P03: the store's, tried again later, as another
//!   judge holding the work lock is no fault of the mail);
//! - a call the server does not answer at all within [`ANSWER_TIMEOUT`]
//!   (longer than the server's own limits, so a live server always answers
//!   first) fails with [`StoreError::Timeout`], naming the server: a fault
//!   of the store, waited out like a lost connection (the connection is
//!   made again for the next call).
//!
//! All of them stay under half of the systemd watchdog's 60 s, so a judge
//! whose database went silent logs that it waits for it rather than being
//! killed as stuck.

use super::{Result, StoreError};
use std::future::Future;
use std::time::Duration;

/// The longest a new connection may take, login included.
pub(crate) const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The server cancels a statement that runs longer (`statement_timeout`).
pub(crate) const STATEMENT_TIMEOUT: Duration = Duration::from_secs(20);

/// The server gives up waiting for a lock after this long (`lock_timeout`).
pub(crate) const LOCK_TIMEOUT: Duration = Duration::from_secs(10);

/// The longest the judge waits for any answer of the server.
pub(crate) const ANSWER_TIMEOUT: Duration = Duration::from_secs(25);

/// A connected client: the `tokio_postgres` client, the task that drives
/// its connection, and the runtime both run on while a call waits.
pub(super) struct Client {
    rt: tokio::runtime::Runtime,
    client: tokio_postgres::Client,
    connection: tokio::task::JoinHandle<()>,
    /// `host:port`, for messages.
    server: String,
    /// How long a call may wait for its answer ([`ANSWER_TIMEOUT`], or
    /// longer while the schema is migrated).
    patience: Duration,
}

/// `host:port` of the first server `config` names, for messages.
pub(super) fn server_of(config: &tokio_postgres::Config) -> String {
    use tokio_postgres::config::Host;
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(h)) => h.clone(),
        Some(Host::Unix(p)) => p.display().to_string(),
        None => config
            .get_hostaddrs()
            .first()
            .map_or_else(|| "localhost".to_string(), ToString::to_string),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432);
    format!("{host}:{port}")
}

impl Client {
    /// Connect with `config`, within [`CONNECT_TIMEOUT`], and set the
    /// server's own limits for the session.
    pub(super) fn connect(config: &tokio_postgres::Config) -> Result<Client> {
        let server = server_of(config);
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(StoreError::Runtime)?;
        // The timer is made inside the runtime, whose clock it needs.
        let made = rt.block_on(async {
            tokio::time::timeout(CONNECT_TIMEOUT, config.connect(tokio_postgres::NoTls)).await
        });
        let (client, connection) = match made {
            Ok(r) => r?,
            Err(_) => {
                return Err(StoreError::Timeout {
                    server,
                    waiting: "to connect",
                    after: CONNECT_TIMEOUT,
                });
            }
        };
        let connection = rt.spawn(async move {
            let _ = connection.await;
        });
        let c = Client {
            rt,
            client,
            connection,
            server,
            patience: ANSWER_TIMEOUT,
        };
        c.batch_execute(&format!(
            "SET statement_timeout = {}; SET lock_timeout = {}",
            STATEMENT_TIMEOUT.as_millis(),
            LOCK_TIMEOUT.as_millis()
        ))?;
        Ok(c)
    }

    /// Wait for `call`'s answer, at most [`Client::patience`].
    fn wait<T>(
        &self,
        call: impl Future<Output = std::result::Result<T, tokio_postgres::Error>>,
    ) -> Result<T> {
        match self
            .rt
            .block_on(async { tokio::time::timeout(self.patience, call).await })
        {
            Ok(r) => Ok(r?),
            Err(_) => Err(StoreError::Timeout {
                server: self.server.clone(),
                waiting: "for an answer",
                after: self.patience,
            }),
        }
    }

    /// Wait up to `patience` for each answer from now on (a migration,
    /// whose statements may rewrite a table, waits longer).
    pub(super) fn set_patience(&mut self, patience: Duration) {
        self.patience = patience;
    }

    pub(super) fn prepare(&self, sql: &str) -> Result<tokio_postgres::Statement> {
        self.wait(self.client.prepare(sql))
    }

    pub(super) fn query(
        &self,
        st: &tokio_postgres::Statement,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<tokio_postgres::Row>> {
        self.wait(self.client.query(st, params))
    }

    pub(super) fn execute(
        &self,
        st: &tokio_postgres::Statement,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<u64> {
        self.wait(self.client.execute(st, params))
    }

    pub(super) fn batch_execute(&self, sql: &str) -> Result<()> {
        self.wait(self.client.batch_execute(sql))
    }

    /// Whether the connection is known to be closed (learnt by a call).
    pub(super) fn is_closed(&self) -> bool {
        self.client.is_closed() || self.connection.is_finished()
    }

    /// Say goodbye to the server (briefly: a silent one is not waited
    /// for) and drop the runtime. Must run outside any other runtime.
    pub(super) fn close(self) {
        let Client {
            rt,
            client,
            connection,
            ..
        } = self;
        drop(client);
        let _ =
            rt.block_on(async { tokio::time::timeout(Duration::from_secs(1), connection).await });
    }
}
