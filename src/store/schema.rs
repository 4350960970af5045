//! Versioned migrations. Each entry of [`MIGRATIONS`] takes the schema from
//! its index to the next; `PRAGMA user_version` records how far a database
//! has come. Migrations are only ever appended.

use super::{Result, StoreError};
use rusqlite::Connection;

/// The migrations, in order.
pub const MIGRATIONS: &[&str] = &[
    // 1: mail in and out.
    "CREATE TABLE inbound (
        id INTEGER PRIMARY KEY,
        message_id TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL,
        received_at INTEGER NOT NULL,
        size INTEGER NOT NULL,
        raw BLOB NOT NULL,
        truncated INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL DEFAULT 'new',
        processed_at INTEGER,
        note TEXT
    );
    CREATE INDEX inbound_state ON inbound (state, id);
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        inbound_id INTEGER REFERENCES inbound (id),
        message_id TEXT NOT NULL UNIQUE,
        recipients TEXT NOT NULL,
        raw BLOB NOT NULL,
        state TEXT NOT NULL DEFAULT 'queued',
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        last_error TEXT,
        created_at INTEGER NOT NULL,
        sent_at INTEGER
    );
    CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
];

/// Bring the database up to date.
pub fn migrate(conn: &mut Connection) -> Result<()> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let known = MIGRATIONS.len() as i64;
    if version > known {
        return Err(StoreError::TooNew {
            found: version,
            known,
        });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", (i + 1) as i64)?;
        tx.commit()?;
    }
    Ok(())
}
