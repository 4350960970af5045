//! The backend-neutral SQL layer the store is written on: one connection
//! type ([`Conn`]) over SQLite (rusqlite) or PostgreSQL (`tokio_postgres`
//! driven synchronously, every wait bounded: [`super::pg`]), transactions ([`Tx`]), typed parameters ([`ToValue`], the
//! [`params!`](crate::store::params) macro) and typed columns
//! ([`FromValue`], [`Row::get`]).
//!
//! SQL is written once, in the dialect both backends share: `?1`-style
//! placeholders (translated to `$1` for PostgreSQL, once per statement,
//! then cached with the prepared statement), `INSERT ... ON CONFLICT DO
//! NOTHING`, `RETURNING id` rather than `last_insert_rowid()`, `CAST(..
//! AS BIGINT)`. Values cross the layer borrowed ([`ValueRef`]): a mail's
//! bytes are not copied on their way in or out.
//!
//! PostgreSQL is strict about types where SQLite is not; this layer makes
//! up the difference in one place: a parameter is encoded as whatever type
//! the server inferred for its placeholder (an `i64` into an `integer`, a
//! `bool` into the `bigint` the schema uses for flags), and a column is
//! read from whatever type it has (int2/4/8, bool, bytea, text, citext).
//!
//! The PostgreSQL client runs each call on a small Tokio runtime of its
//! own ([`super::pg::Client`]), which panics if blocked on from a thread
//! that is inside another runtime. The store is already used only off the
//! async threads (the processor's own thread, `spawn_blocking`), except
//! when the daemon opens its connections from its async supervisor;
//! `off_runtime` covers that case (and any other) by stepping out of the
//! runtime first. Closing a client runs its runtime too, and dropping that
//! runtime inside another panics as well: a client is therefore always
//! closed on a thread of its own (`close_client`), wherever the connection
//! is dropped (a web page's pooled connection, the outbox's, all dropped as
//! the daemon's runtime stops).
//!
//! A PostgreSQL connection that is lost (the server restarted, the network
//! failed) is made again by the next call outside a transaction, with the
//! session's settings and locks (`Conn::keep_session`) taken again; the
//! call that met the loss fails, and so does the rest of a transaction it
//! was in. What is a fault of the store rather than of the work asked of
//! it is [`StoreError::is_unavailable`]; a connection remembers the first
//! such fault met in a transaction, and that transaction then refuses to
//! commit ([`Tx::commit`]), even if the fault was handled along the way (a
//! command's savepoint rolled back and the work went on): work done with a
//! part missing because the store failed is not work to keep.

use super::{Result, StoreError};
use std::cell::RefCell;
use std::collections::HashMap;

/// A value passed to or read from the database, borrowed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ValueRef<'a> {
    /// SQL NULL.
    Null,
    /// An integer (flags are integers 0 and 1 in both backends).
    Integer(i64),
    /// A floating-point number.
    Real(f64),
    /// Text.
    Text(&'a str),
    /// Bytes.
    Blob(&'a [u8]),
}

impl ValueRef<'_> {
    fn kind(&self) -> &'static str {
        match self {
            ValueRef::Null => "null",
            ValueRef::Integer(_) => "integer",
            ValueRef::Real(_) => "real",
            ValueRef::Text(_) => "text",
            ValueRef::Blob(_) => "blob",
        }
    }
}

/// What can be a statement parameter.
pub trait ToValue: Sync {
    /// The value, borrowed from `self`.
    fn to_value(&self) -> ValueRef<'_>;
}

macro_rules! int_to_value {
    ($($t:ty),*) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> ValueRef<'_> {
                ValueRef::Integer(*self as i64)
            }
        }
    )*};
}
int_to_value!(i64, i32, i16, i8, u32, u16, u8);

impl ToValue for bool {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Integer(i64::from(*self))
    }
}
impl ToValue for f64 {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Real(*self)
    }
}
impl ToValue for str {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Text(self)
    }
}
impl ToValue for String {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Text(self)
    }
}
impl ToValue for [u8] {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Blob(self)
    }
}
impl<const N: usize> ToValue for [u8; N] {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Blob(self)
    }
}
impl ToValue for Vec<u8> {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Blob(self)
    }
}
impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> ValueRef<'_> {
        (**self).to_value()
    }
}
impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> ValueRef<'_> {
        match self {
            Some(v) => v.to_value(),
            None => ValueRef::Null,
        }
    }
}

/// The parameters of a statement, built with
/// [`params!`](crate::store::params) (or `&[]` for none).
pub type Params<'a> = &'a [&'a dyn ToValue];

/// Statement parameters: `params![a, b]` is `&[&a, &b]` as
/// [`Params`](crate::store::sql::Params). Its path to `ToValue` is the
/// crate root's hidden re-export: an exported macro expands in the tests'
/// crates too, where `store` is private.
#[macro_export]
#[doc(hidden)]
macro_rules! __store_params {
    ($($p:expr),* $(,)?) => {
        &[$(&$p as &dyn $crate::__StoreToValue),*] as &[&dyn $crate::__StoreToValue]
    };
}

/// What a column can be read as.
pub trait FromValue: Sized {
    /// The value, or why it is not one of these.
    fn from_value(v: ValueRef<'_>) -> std::result::Result<Self, &'static str>;
}

impl FromValue for i64 {
    fn from_value(v: ValueRef<'_>) -> std::result::Result<Self, &'static str> {
        match v {
            ValueRef::Integer(i) => Ok(i),
            _ => Err("integer"),
        }
    }
}
impl FromValue for i32 {
    fn from_value(v: ValueRef<'_>) -> std::result::Result<Self, &'static str> {
        match v {
            ValueRef::Integer(i) => i32::try_from(i).map_err(|_| "32-bit integer"),
            _ => Err("integer"),
        }
    }
}
impl FromValue for bool {
    fn from_value(v: ValueRef<'_>) -> std::result::Result<Self, &'static str> {
        match v {
            ValueRef::Integer(i) => Ok(i != 0),
            _ => Err("integer"),
        }
    }
}
impl FromValue for f64 {
    fn from_value(v: ValueRef<'_>) -> std::result::Result<Self, &'static str> {
        match v {
            ValueRef::Real(f) => Ok(f),
            ValueRef::Integer(i) => Ok(i as f64),
            _ => Err("real"),
        }
    }
}
impl FromValue for String {
    fn from_value(v: ValueRef<'_>) -> std::result::Result<Self, &'static str> {
        match v {
            ValueRef::Text(s) => Ok(s.to_string()),
            _ => Err("text"),
        }
    }
}
impl FromValue for Vec<u8> {
    fn from_value(v: ValueRef<'_>) -> std::result::Result<Self, &'static str> {
        match v {
            ValueRef::Blob(b) => Ok(b.to_vec()),
            // SQLite keeps what was written; a text written where bytes
            // belong reads as its bytes, as rusqlite did.
            ValueRef::Text(s) => Ok(s.as_bytes().to_vec()),
            _ => Err("blob"),
        }
    }
}
impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: ValueRef<'_>) -> std::result::Result<Self, &'static str> {
        match v {
            ValueRef::Null => Ok(None),
            v => T::from_value(v).map(Some),
        }
    }
}

/// One row of a result, read by column index.
pub struct Row<'a>(RowInner<'a>);

enum RowInner<'a> {
    Sqlite(&'a rusqlite::Row<'a>),
    Postgres(&'a tokio_postgres::Row),
}

impl Row<'_> {
    /// Column `i` (from 0) as a `T`.
    pub fn get<T: FromValue>(&self, i: usize) -> Result<T> {
        let wrong = |found: &'static str, expected: &'static str| StoreError::Type {
            column: i,
            expected,
            found,
        };
        match &self.0 {
            RowInner::Sqlite(r) => {
                let v = r.get_ref(i)?;
                let v = match v {
                    rusqlite::types::ValueRef::Null => ValueRef::Null,
                    rusqlite::types::ValueRef::Integer(i) => ValueRef::Integer(i),
                    rusqlite::types::ValueRef::Real(f) => ValueRef::Real(f),
                    rusqlite::types::ValueRef::Text(t) => {
                        ValueRef::Text(std::str::from_utf8(t).map_err(|_| wrong("bytes", "text"))?)
                    }
                    rusqlite::types::ValueRef::Blob(b) => ValueRef::Blob(b),
                };
                T::from_value(v).map_err(|e| wrong(v.kind(), e))
            }
            RowInner::Postgres(r) => {
                let v: PgValue<'_> = r.try_get(i)?;
                T::from_value(v.0).map_err(|e| wrong(v.0.kind(), e))
            }
        }
    }
}

/// Which database a connection talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// SQLite, a file (or memory) of this process.
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// A connection to either backend. Calls take `&self`, as rusqlite's do,
/// so that a transaction can be shared by the functions of one unit of
/// work; the PostgreSQL client, which wants `&mut`, sits in a `RefCell`.
pub struct Conn {
    inner: ConnInner,
    /// The first fault of the store ([`StoreError::is_unavailable`]) met
    /// since the current transaction began, as text: the transaction will
    /// not commit (see the module doc).
    fault: RefCell<Option<String>>,
}

enum ConnInner {
    Sqlite(rusqlite::Connection),
    Postgres(Box<RefCell<Pg>>),
}

/// A PostgreSQL client and its prepared statements, by the SQL as written
/// (before `?N` became `$N`), and what it takes to make the connection
/// again when it is lost.
pub(super) struct Pg {
    /// The client; `None` after a connection that could not be made again.
    client: Option<super::pg::Client>,
    /// How to connect (again).
    config: tokio_postgres::Config,
    prepared: HashMap<String, tokio_postgres::Statement>,
    /// Statements that set the session up, run again, in order, on each
    /// new connection: settings and session locks ([`Conn::keep_session`]).
    session: Vec<(&'static str, String)>,
    /// The connection was lost: the next call outside a transaction makes
    /// it again. (The client itself learns that its connection is closed
    /// only when a call finds it so.)
    lost: bool,
    /// A transaction is open: a lost connection is not replaced until it
    /// ends, since the new one would run the rest of the transaction's
    /// statements outside it.
    in_tx: bool,
    /// How long a call waits for its answer (see [`Conn::set_patience`]).
    patience: std::time::Duration,
}

impl Pg {
    /// The client, connected: made again first if the connection was lost
    /// and no transaction is open.
    fn client(&mut self) -> Result<&mut super::pg::Client> {
        let lost = self.lost
            || self
                .client
                .as_ref()
                .is_none_or(super::pg::Client::is_closed);
        if lost && !self.in_tx {
            self.reconnect()?;
        }
        self.client.as_mut().ok_or(StoreError::Lost)
    }

    /// Connect again (the old client, if any, is closed), and set the new
    /// session up as the old one was.
    fn reconnect(&mut self) -> Result<()> {
        if let Some(old) = self.client.take() {
            close_client(old);
        }
        self.prepared.clear();
        let config = &self.config;
        let mut client = off_runtime(|| super::pg::Client::connect(config))?;
        client.set_patience(self.patience);
        for (_, sql) in &self.session {
            let c = &client;
            if let Err(e) = off_runtime(|| c.batch_execute(sql)) {
                close_client(client);
                return Err(e);
            }
        }
        self.client = Some(client);
        self.lost = false;
        Ok(())
    }

    /// Note a failed call: a fault that lost the connection (or left it
    /// waiting for an answer that did not come) makes the next call
    /// outside a transaction connect again.
    fn noted<T>(&mut self, r: Result<T>) -> Result<T> {
        if let Err(e) = &r {
            let lost = match e {
                StoreError::Pg(e) => connection_lost(e),
                StoreError::Timeout { .. } => true,
                _ => false,
            };
            if lost {
                self.lost = true;
            }
        }
        r
    }

    fn statement(&mut self, sql: &str) -> Result<tokio_postgres::Statement> {
        if let Some(s) = self.prepared.get(sql) {
            return Ok(s.clone());
        }
        let translated = dollar_placeholders(sql);
        let client = self.client()?;
        let st = off_runtime(|| client.prepare(&translated));
        let st = self.noted(st)?;
        if self.prepared.len() > 512 {
            self.prepared.clear();
        }
        self.prepared.insert(sql.to_string(), st.clone());
        Ok(st)
    }

    fn query(&mut self, sql: &str, params: Params<'_>) -> Result<Vec<tokio_postgres::Row>> {
        self.call(sql, params, |client, st, refs| client.query(st, refs))
    }

    fn execute(&mut self, sql: &str, params: Params<'_>) -> Result<usize> {
        Ok(self.call(sql, params, |client, st, refs| client.execute(st, refs))? as usize)
    }

    /// Run `f` with the prepared statement of `sql` and `params` as the
    /// client takes them, off the async threads.
    fn call<T: Send>(
        &mut self,
        sql: &str,
        params: Params<'_>,
        f: impl FnOnce(
            &super::pg::Client,
            &tokio_postgres::Statement,
            &[&(dyn tokio_postgres::types::ToSql + Sync)],
        ) -> Result<T>
        + Send,
    ) -> Result<T> {
        // Connected first: a new connection has no prepared statements.
        self.client()?;
        let st = self.statement(sql)?;
        let values: Vec<PgValue<'_>> = params.iter().map(|p| PgValue(p.to_value())).collect();
        let refs: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = values
            .iter()
            .map(|v| v as &(dyn tokio_postgres::types::ToSql + Sync))
            .collect();
        let client = self.client()?;
        let r = off_runtime(|| f(client, &st, &refs));
        self.noted(r)
    }

    fn batch(&mut self, sql: &str) -> Result<()> {
        let client = self.client()?;
        let r = off_runtime(|| client.batch_execute(sql));
        self.noted(r)
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        if let Some(c) = self.client.take() {
            close_client(c);
        }
    }
}

/// Close a PostgreSQL client on a thread of its own. Closing runs the
/// client's own runtime, and then drops it: inside another runtime (the
/// daemon's, whose tasks hold connections and are dropped as it stops)
/// either panics, and in a destructor that aborts the process. A thread
/// of its own is outside any runtime whatever the caller's thread is.
/// Should no thread start, the client is leaked: its socket closes when
/// the process ends, which is better than an abort.
fn close_client(client: super::pg::Client) {
    let mut slot = Some(client);
    std::thread::scope(|s| {
        let taken = &mut slot;
        let closing = std::thread::Builder::new()
            .name("pg-close".into())
            .spawn_scoped(s, move || {
                if let Some(c) = taken.take() {
                    c.close();
                }
            });
        if let Ok(h) = closing {
            let _ = h.join();
        }
    });
    if let Some(c) = slot {
        std::mem::forget(c);
    }
}

/// Whether a PostgreSQL error means the connection is gone (or useless,
/// as a standby's is for writing), so that it must be made again.
fn connection_lost(e: &tokio_postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    match e.code() {
        Some(code) => {
            let c = code.code();
            c.starts_with("08")
                || matches!(c, "57P01" | "57P02" | "57P03" | "57P04" | "25006" | "3D000")
        }
        None => no_answer(e),
    }
}

/// A PostgreSQL error without an answer from the server: the connection
/// itself failed (I/O, connecting, a timeout).
fn no_answer(e: &tokio_postgres::Error) -> bool {
    std::error::Error::source(e).is_some_and(|s| s.is::<std::io::Error>())
        || e.to_string() == "timeout waiting for server"
}

/// Whether a PostgreSQL error is the store's fault rather than the work's
/// (see [`StoreError::is_unavailable`]): the connection, the login, the
/// server's resources (disk full, out of memory, too many connections),
/// an operator's intervention (shutdown, restart), a privilege withheld, a
/// standby that cannot write, data the server finds corrupt, a conflict
/// that goes away when tried again (serialization, deadlock, a lock not
/// available). Not a cancelled statement (57014): a statement timeout may
/// be the work's own doing, and a mail that made one would otherwise be
/// tried again for ever, holding up the mail behind it.
pub(super) fn pg_unavailable(e: &tokio_postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    let Some(code) = e.code() else {
        return no_answer(e);
    };
    let c = code.code();
    ["08", "28", "40", "53", "57P", "58"]
        .iter()
        .any(|class| c.starts_with(class))
        || matches!(
            c,
            "57000" | "42501" | "25006" | "3D000" | "55P03" | "55006" | "XX001" | "XX002"
        )
}

/// Whether an SQLite error is the store's fault rather than the work's:
/// the file (locked by another process, the disk full or failing, read
/// only, not to be opened) or the memory.
pub(super) fn sqlite_unavailable(e: &rusqlite::Error) -> bool {
    use rusqlite::ErrorCode as C;
    match e {
        rusqlite::Error::SqliteFailure(f, _) => matches!(
            f.code,
            C::DatabaseBusy
                | C::DatabaseLocked
                | C::DiskFull
                | C::SystemIoFailure
                | C::ReadOnly
                | C::CannotOpen
                | C::PermissionDenied
                | C::OutOfMemory
                | C::FileLockingProtocolFailed
                | C::NoLargeFileSupport
        ),
        _ => false,
    }
}

/// Whether an SQLite error is a lock held past the busy timeout.
pub(super) fn sqlite_busy(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _)
        if matches!(f.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked))
}

/// Run `f` (a call of the sync PostgreSQL client) where it may block: as
/// is on a thread outside any Tokio runtime; through `block_in_place` on a
/// multi-threaded runtime (it steps out of the runtime); on a short-lived
/// thread of its own on a current-thread runtime.
pub(super) fn off_runtime<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    match Handle::try_current() {
        Err(_) => f(),
        Ok(h) if h.runtime_flavor() == RuntimeFlavor::MultiThread => tokio::task::block_in_place(f),
        Ok(_) => std::thread::scope(|s| match s.spawn(f).join() {
            Ok(v) => v,
            Err(panic) => std::panic::resume_unwind(panic),
        }),
    }
}

/// `?N` placeholders as PostgreSQL's `$N`, outside quoted strings and
/// names.
pub(super) fn dollar_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quote: Option<char> = None;
    for c in sql.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '?' => {
                out.push('$');
                continue;
            }
            None => {}
        }
        out.push(c);
    }
    out
}

impl Conn {
    /// A connection over SQLite.
    pub(super) fn sqlite(c: rusqlite::Connection) -> Conn {
        c.set_prepared_statement_cache_capacity(64);
        Conn {
            inner: ConnInner::Sqlite(c),
            fault: RefCell::new(None),
        }
    }

    /// A connection over PostgreSQL, made with `config` (and made again
    /// with it when lost).
    pub(super) fn postgres(config: tokio_postgres::Config) -> Result<Conn> {
        let mut pg = Pg {
            client: None,
            config,
            prepared: HashMap::new(),
            session: Vec::new(),
            lost: false,
            in_tx: false,
            patience: super::pg::ANSWER_TIMEOUT,
        };
        pg.reconnect()?;
        Ok(Conn {
            inner: ConnInner::Postgres(Box::new(RefCell::new(pg))),
            fault: RefCell::new(None),
        })
    }

    /// The SQLite connection, for what only SQLite has (pragmas, backup).
    pub(super) fn as_sqlite(&self) -> Option<&rusqlite::Connection> {
        match &self.inner {
            ConnInner::Sqlite(c) => Some(c),
            ConnInner::Postgres(_) => None,
        }
    }

    /// Which backend this is.
    pub fn backend(&self) -> Backend {
        match &self.inner {
            ConnInner::Sqlite(_) => Backend::Sqlite,
            ConnInner::Postgres(_) => Backend::Postgres,
        }
    }

    /// PostgreSQL: run `sql` now, and again on every new connection made
    /// after a loss, in the order first given; `key` names it, so that a
    /// later call with the same key replaces it (a setting changed), and
    /// `None` forgets it. A session lock kept this way is taken again on
    /// the new connection, and may have been held by another session in
    /// between. Nothing on SQLite, whose connection is never lost.
    pub(super) fn keep_session(&self, key: &'static str, sql: Option<String>) -> Result<()> {
        let ConnInner::Postgres(pg) = &self.inner else {
            return Ok(());
        };
        if let Some(sql) = &sql {
            self.execute_batch(sql)?;
        }
        let mut pg = pg.borrow_mut();
        match (pg.session.iter().position(|(k, _)| *k == key), sql) {
            (Some(i), Some(sql)) => pg.session[i].1 = sql,
            (Some(i), None) => {
                pg.session.remove(i);
            }
            (None, Some(sql)) => pg.session.push((key, sql)),
            (None, None) => {}
        }
        Ok(())
    }

    /// PostgreSQL: wait up to `patience` for each answer of the server
    /// from now on ([`super::pg::ANSWER_TIMEOUT`] unless set). Nothing on
    /// SQLite.
    pub(super) fn set_patience(&self, patience: std::time::Duration) {
        if let ConnInner::Postgres(pg) = &self.inner {
            let mut pg = pg.borrow_mut();
            pg.patience = patience;
            if let Some(c) = pg.client.as_mut() {
                c.set_patience(patience);
            }
        }
    }

    /// Remember the first fault of the store in `r` (see
    /// [`Conn::fault`]), and pass `r` on.
    fn note_fault<T>(&self, r: Result<T>) -> Result<T> {
        if let Err(e) = &r
            && e.is_unavailable()
        {
            self.fault
                .borrow_mut()
                .get_or_insert_with(|| format!("{e:#}"));
        }
        r
    }

    /// The first fault of the store met since the current transaction
    /// began (or, outside one, since the last began), as text.
    pub fn fault(&self) -> Option<String> {
        self.fault.borrow().clone()
    }

    fn set_in_tx(&self, open: bool) {
        if let ConnInner::Postgres(pg) = &self.inner {
            pg.borrow_mut().in_tx = open;
        }
    }

    /// Run a statement; the number of rows it changed.
    pub fn execute(&self, sql: &str, params: Params<'_>) -> Result<usize> {
        self.note_fault(match &self.inner {
            ConnInner::Sqlite(c) => c
                .prepare_cached(sql)
                .and_then(|mut st| {
                    st.execute(rusqlite::params_from_iter(
                        params.iter().map(|p| SqliteValue(p.to_value())),
                    ))
                })
                .map_err(StoreError::from),
            ConnInner::Postgres(pg) => pg.borrow_mut().execute(sql, params),
        })
    }

    /// Run statements without parameters, separated by `;`.
    pub fn execute_batch(&self, sql: &str) -> Result<()> {
        self.note_fault(match &self.inner {
            ConnInner::Sqlite(c) => c.execute_batch(sql).map_err(StoreError::from),
            ConnInner::Postgres(pg) => pg.borrow_mut().batch(sql),
        })
    }

    /// Every row of a query, each made by `f`.
    pub fn query_map<T>(
        &self,
        sql: &str,
        params: Params<'_>,
        mut f: impl FnMut(&Row<'_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        self.note_fault(match &self.inner {
            ConnInner::Sqlite(c) => (|| {
                let mut st = c.prepare_cached(sql)?;
                let mut rows = st.query(rusqlite::params_from_iter(
                    params.iter().map(|p| SqliteValue(p.to_value())),
                ))?;
                let mut out = Vec::new();
                while let Some(r) = rows.next()? {
                    out.push(f(&Row(RowInner::Sqlite(r)))?);
                }
                Ok(out)
            })(),
            ConnInner::Postgres(pg) => (|| {
                let rows = pg.borrow_mut().query(sql, params)?;
                rows.iter()
                    .map(|r| f(&Row(RowInner::Postgres(r))))
                    .collect()
            })(),
        })
    }

    /// The first row of a query made by `f`, or `None`.
    pub fn query_opt<T>(
        &self,
        sql: &str,
        params: Params<'_>,
        f: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<Option<T>> {
        self.note_fault(match &self.inner {
            ConnInner::Sqlite(c) => (|| {
                let mut st = c.prepare_cached(sql)?;
                let mut rows = st.query(rusqlite::params_from_iter(
                    params.iter().map(|p| SqliteValue(p.to_value())),
                ))?;
                match rows.next()? {
                    Some(r) => Ok(Some(f(&Row(RowInner::Sqlite(r)))?)),
                    None => Ok(None),
                }
            })(),
            ConnInner::Postgres(pg) => (|| {
                let rows = pg.borrow_mut().query(sql, params)?;
                match rows.first() {
                    Some(r) => Ok(Some(f(&Row(RowInner::Postgres(r)))?)),
                    None => Ok(None),
                }
            })(),
        })
    }

    /// The first row of a query made by `f`; [`StoreError::NoRows`] if
    /// there is none (`.optional()` from [`OptionalExt`] makes that
    /// `None`).
    pub fn query_row<T>(
        &self,
        sql: &str,
        params: Params<'_>,
        f: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<T> {
        self.query_opt(sql, params, f)?.ok_or(StoreError::NoRows)
    }

    /// Start a transaction that writes. In SQLite it takes the write lock
    /// at once (`BEGIN IMMEDIATE`), waiting for other writers: a deferred
    /// transaction that reads first and writes later fails at once with
    /// "database is locked" if another connection wrote in between.
    pub fn transaction(&mut self) -> Result<Tx<'_>> {
        self.begin(match self.backend() {
            Backend::Sqlite => "BEGIN IMMEDIATE",
            Backend::Postgres => "BEGIN",
        })
    }

    /// Start a transaction that only reads, on one snapshot.
    pub fn read_transaction(&mut self) -> Result<Tx<'_>> {
        self.begin(match self.backend() {
            Backend::Sqlite => "BEGIN DEFERRED",
            Backend::Postgres => "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
        })
    }

    fn begin(&mut self, sql: &str) -> Result<Tx<'_>> {
        self.fault.borrow_mut().take();
        self.execute_batch(sql)?;
        self.set_in_tx(true);
        Ok(Tx {
            conn: self,
            done: false,
        })
    }
}

/// A transaction: committed by [`Tx::commit`], rolled back when dropped
/// uncommitted. It derefs to its [`Conn`], so a function taking `&Conn`
/// works inside one.
pub struct Tx<'c> {
    conn: &'c mut Conn,
    done: bool,
}

impl Tx<'_> {
    /// Commit; or, if the store failed earlier in the transaction (see the
    /// module doc), roll back and say so ([`StoreError::Failed`]).
    pub fn commit(mut self) -> Result<()> {
        if let Some(fault) = self.conn.fault() {
            return Err(StoreError::Failed(fault));
        }
        self.done = true;
        let r = self.conn.execute_batch("COMMIT");
        self.conn.set_in_tx(false);
        r
    }

    /// Roll back (as dropping does, but with the error, if any).
    pub fn rollback(mut self) -> Result<()> {
        self.done = true;
        let r = self.conn.execute_batch("ROLLBACK");
        self.conn.set_in_tx(false);
        r
    }
}

impl std::ops::Deref for Tx<'_> {
    type Target = Conn;
    fn deref(&self) -> &Conn {
        self.conn
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if !self.done {
            let _ = self.conn.execute_batch("ROLLBACK");
            self.conn.set_in_tx(false);
        }
    }
}

/// `.optional()` on a store result: [`StoreError::NoRows`] becomes `None`.
pub(crate) trait OptionalExt<T> {
    /// `Ok(None)` for no row, `Ok(Some(_))` for a row, other errors as
    /// they are.
    fn optional(self) -> Result<Option<T>>;
}

impl<T> OptionalExt<T> for Result<T> {
    fn optional(self) -> Result<Option<T>> {
        match self {
            Ok(v) => Ok(Some(v)),
            Err(StoreError::NoRows) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// A value as rusqlite takes it (borrowed).
struct SqliteValue<'a>(ValueRef<'a>);

impl rusqlite::ToSql for SqliteValue<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef as R};
        Ok(ToSqlOutput::Borrowed(match self.0 {
            ValueRef::Null => R::Null,
            ValueRef::Integer(i) => R::Integer(i),
            ValueRef::Real(f) => R::Real(f),
            ValueRef::Text(t) => R::Text(t.as_bytes()),
            ValueRef::Blob(b) => R::Blob(b),
        }))
    }
}

/// A value as the PostgreSQL client takes and gives it: encoded as the
/// type the server inferred for the placeholder, decoded from the type the
/// column has.
#[derive(Debug)]
struct PgValue<'a>(ValueRef<'a>);

type BoxError = Box<dyn std::error::Error + Sync + Send>;

fn is_text(ty: &tokio_postgres::types::Type) -> bool {
    use tokio_postgres::types::Type;
    matches!(
        *ty,
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN
    ) || ty.name() == "citext"
}

impl tokio_postgres::types::ToSql for PgValue<'_> {
    fn to_sql(
        &self,
        ty: &tokio_postgres::types::Type,
        out: &mut bytes::BytesMut,
    ) -> std::result::Result<tokio_postgres::types::IsNull, BoxError> {
        use bytes::BufMut;
        use tokio_postgres::types::{IsNull, Type};
        match (self.0, ty) {
            (ValueRef::Null, _) => return Ok(IsNull::Yes),
            (ValueRef::Integer(i), &Type::INT8) => out.put_i64(i),
            (ValueRef::Integer(i), &Type::INT4) => out.put_i32(i32::try_from(i)?),
            (ValueRef::Integer(i), &Type::INT2) => out.put_i16(i16::try_from(i)?),
            (ValueRef::Integer(i), &Type::BOOL) => out.put_u8(u8::from(i != 0)),
            (ValueRef::Integer(i), &Type::FLOAT8) => out.put_f64(i as f64),
            (ValueRef::Integer(i), t) if is_text(t) => out.put_slice(i.to_string().as_bytes()),
            (ValueRef::Real(f), &Type::FLOAT8) => out.put_f64(f),
            (ValueRef::Real(f), &Type::FLOAT4) => out.put_f32(f as f32),
            (ValueRef::Text(s), t) if is_text(t) => out.put_slice(s.as_bytes()),
            (ValueRef::Text(s), &Type::BYTEA) => out.put_slice(s.as_bytes()),
            (ValueRef::Blob(b), &Type::BYTEA) => out.put_slice(b),
            (v, t) => {
                return Err(format!("cannot pass a {} as {}", v.kind(), t.name()).into());
            }
        }
        Ok(IsNull::No)
    }

    fn accepts(_: &tokio_postgres::types::Type) -> bool {
        true
    }

    tokio_postgres::types::to_sql_checked!();
}

impl<'a> tokio_postgres::types::FromSql<'a> for PgValue<'a> {
    fn from_sql(
        ty: &tokio_postgres::types::Type,
        raw: &'a [u8],
    ) -> std::result::Result<Self, BoxError> {
        use tokio_postgres::types::Type;
        Ok(PgValue(match *ty {
            Type::INT8 => ValueRef::Integer(i64::from_be_bytes(raw.try_into()?)),
            Type::INT4 => ValueRef::Integer(i32::from_be_bytes(raw.try_into()?).into()),
            Type::INT2 => ValueRef::Integer(i16::from_be_bytes(raw.try_into()?).into()),
            Type::OID => ValueRef::Integer(u32::from_be_bytes(raw.try_into()?).into()),
            Type::BOOL => ValueRef::Integer(i64::from(raw.first().is_some_and(|b| *b != 0))),
            Type::FLOAT8 => ValueRef::Real(f64::from_be_bytes(raw.try_into()?)),
            Type::FLOAT4 => ValueRef::Real(f32::from_be_bytes(raw.try_into()?).into()),
            Type::BYTEA => ValueRef::Blob(raw),
            Type::NUMERIC => numeric(raw)?,
            ref t if is_text(t) => ValueRef::Text(std::str::from_utf8(raw)?),
            ref t => return Err(format!("cannot read a column of type {}", t.name()).into()),
        }))
    }

    fn from_sql_null(_: &tokio_postgres::types::Type) -> std::result::Result<Self, BoxError> {
        Ok(PgValue(ValueRef::Null))
    }

    fn accepts(_: &tokio_postgres::types::Type) -> bool {
        true
    }
}

/// A PostgreSQL `numeric` (what `sum` of integers gives) in its binary
/// form: a whole number as an integer, anything else as a real.
fn numeric(raw: &[u8]) -> std::result::Result<ValueRef<'static>, BoxError> {
    let word = |i: usize| -> std::result::Result<i16, BoxError> {
        let b = raw.get(i..i + 2).ok_or("a short numeric")?;
        Ok(i16::from_be_bytes([b[0], b[1]]))
    };
    let (ndigits, weight, sign) = (word(0)? as usize, word(2)? as i32, word(4)? as u16);
    if sign == 0xC000 {
        return Err("NaN".into());
    }
    let digits: Vec<i64> = (0..ndigits)
        .map(|i| word(8 + 2 * i).map(i64::from))
        .collect::<std::result::Result<_, _>>()?;
    let negative = sign == 0x4000;
    let whole = (ndigits as i32) <= weight + 1;
    if whole {
        let mut v: i128 = 0;
        for (i, d) in digits.iter().enumerate() {
            v += i128::from(*d) * 10_000i128.pow((weight - i as i32) as u32);
        }
        let v = if negative { -v } else { v };
        return Ok(ValueRef::Integer(i64::try_from(v)?));
    }
    let mut v = 0f64;
    for (i, d) in digits.iter().enumerate() {
        v += *d as f64 * 10_000f64.powi(weight - i as i32);
    }
    Ok(ValueRef::Real(if negative { -v } else { v }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_faults_of_the_file_are_the_stores_and_refusals_of_the_data_are_not() {
        let failure = |code| rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(code), None);
        for code in [
            rusqlite::ffi::SQLITE_FULL,
            rusqlite::ffi::SQLITE_BUSY,
            rusqlite::ffi::SQLITE_IOERR,
            rusqlite::ffi::SQLITE_READONLY,
        ] {
            assert!(sqlite_unavailable(&failure(code)), "{code}");
        }
        for code in [
            rusqlite::ffi::SQLITE_CONSTRAINT,
            rusqlite::ffi::SQLITE_TOOBIG,
        ] {
            assert!(!sqlite_unavailable(&failure(code)), "{code}");
        }
        assert!(!sqlite_unavailable(&rusqlite::Error::QueryReturnedNoRows));
    }

    #[test]
    fn placeholders_become_dollars_outside_quotes() {
        assert_eq!(
            dollar_placeholders("SELECT '?1', ?1 FROM t WHERE a = ?12 AND \"?\" = ?2"),
            "SELECT '?1', $1 FROM t WHERE a = $12 AND \"?\" = $2"
        );
    }

    #[test]
    fn postgres_numerics_read_as_numbers() {
        // 12345678: two base-10000 digits, weight 1.
        let raw = [0, 2, 0, 1, 0, 0, 0, 0, 0x04, 0xD2, 0x16, 0x2E];
        assert_eq!(numeric(&raw).unwrap(), ValueRef::Integer(12_345_678));
        // -20000: one digit (2), weight 1, negative.
        let raw = [0, 1, 0, 1, 0x40, 0, 0, 0, 0, 2];
        assert_eq!(numeric(&raw).unwrap(), ValueRef::Integer(-20_000));
        // 0: no digits.
        assert_eq!(
            numeric(&[0, 0, 0, 0, 0, 0, 0, 0]).unwrap(),
            ValueRef::Integer(0)
        );
        // 1.5: digits 1 and 5000, weight 0.
        let raw = [0, 2, 0, 0, 0, 0, 0, 1, 0, 1, 0x13, 0x88];
        assert_eq!(numeric(&raw).unwrap(), ValueRef::Real(1.5));
    }
}
