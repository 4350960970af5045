//! Versioned migrations. Each entry of [`MIGRATIONS`] takes the schema from
//! its index to the next; `PRAGMA user_version` records how far a database
//! has come. Migrations are only ever appended.

use super::{Result, StoreError};
use rusqlite::{Connection, TransactionBehavior};

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
    // 2: games.
    "CREATE TABLE games (
        name TEXT PRIMARY KEY COLLATE NOCASE,
        variant TEXT NOT NULL,
        gm_address TEXT NOT NULL,
        gm_hash TEXT NOT NULL,
        status TEXT NOT NULL,
        settings TEXT NOT NULL,
        position TEXT NOT NULL,
        deadline INTEGER,
        reminded INTEGER NOT NULL DEFAULT 0,
        grace_noticed INTEGER NOT NULL DEFAULT 0,
        result TEXT,
        created_at INTEGER NOT NULL
    );
    CREATE INDEX games_deadline ON games (status, deadline);
    CREATE TABLE seats (
        game TEXT NOT NULL COLLATE NOCASE REFERENCES games (name) ON DELETE CASCADE,
        power INTEGER NOT NULL,
        address TEXT,
        hash TEXT,
        status TEXT NOT NULL,
        ready INTEGER NOT NULL DEFAULT 0,
        draw INTEGER NOT NULL DEFAULT 0,
        concede INTEGER NOT NULL DEFAULT 0,
        failures INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game, power)
    );
    CREATE TABLE observers (
        game TEXT NOT NULL COLLATE NOCASE REFERENCES games (name) ON DELETE CASCADE,
        address TEXT NOT NULL COLLATE NOCASE,
        PRIMARY KEY (game, address)
    );
    CREATE TABLE orders (
        game TEXT NOT NULL COLLATE NOCASE REFERENCES games (name) ON DELETE CASCADE,
        power INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (game, power, seq)
    );
    CREATE TABLE history (
        game TEXT NOT NULL COLLATE NOCASE REFERENCES games (name) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        phase TEXT NOT NULL,
        kind TEXT NOT NULL,
        position TEXT NOT NULL,
        orders TEXT NOT NULL,
        report TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (game, seq)
    );
    CREATE TABLE senders (
        address TEXT PRIMARY KEY COLLATE NOCASE,
        window_start INTEGER NOT NULL,
        count INTEGER NOT NULL,
        warned INTEGER NOT NULL DEFAULT 0
    );",
    // 3: trust. Attempts count the times processing of a mail began, so a
    // mail that kills the process is given up after a few tries rather
    // than retried forever; the digest tells a different mail reusing a
    // known Message-ID from the same mail fetched twice; a game whose
    // deadline work fails is set aside (with the cause) rather than
    // blocking the clock; sign-on failures are counted per seat (power,
    // or -1 for the GM) across mails and addresses; answers are counted
    // per address answered, per day, to stop mail loops.
    "ALTER TABLE inbound ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE inbound ADD COLUMN digest TEXT;
    ALTER TABLE inbound ADD COLUMN redacted INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN fault TEXT;
    ALTER TABLE games ADD COLUMN fault_at INTEGER;
    CREATE TABLE signon_failures (
        game TEXT NOT NULL COLLATE NOCASE,
        seat INTEGER NOT NULL,
        failures INTEGER NOT NULL DEFAULT 0,
        locked_until INTEGER NOT NULL DEFAULT 0,
        last_at INTEGER NOT NULL,
        notified_at INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game, seat)
    );
    CREATE TABLE answered (
        address TEXT PRIMARY KEY COLLATE NOCASE,
        day_start INTEGER NOT NULL,
        count INTEGER NOT NULL,
        warned INTEGER NOT NULL DEFAULT 0,
        idle_at INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX inbound_processed ON inbound (state, processed_at);",
    // 4: a player's own choices: the picture attached to results (SET
    // PICTURE) and a display name (SET NAME).
    "ALTER TABLE seats ADD COLUMN picture TEXT;
    ALTER TABLE seats ADD COLUMN name TEXT;",
    // 5: bounded storage. A queued mail keeps its text; the parts drawn
    // at send time (the pictures of results) are described, not stored:
    // `parts` says what to draw, from the `mail_sources` row it names (one
    // per played phase, shared by every reader's mail, dropped with the
    // last outbox row that uses it). Press is archived with the game, since
    // sent mail is pruned. Sent mail is pruned by `sent_at`.
    "CREATE TABLE mail_sources (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        data BLOB NOT NULL,
        created_at INTEGER NOT NULL
    );
    ALTER TABLE outbox ADD COLUMN source_id INTEGER REFERENCES mail_sources (id);
    ALTER TABLE outbox ADD COLUMN parts TEXT;
    CREATE INDEX outbox_source ON outbox (source_id) WHERE source_id IS NOT NULL;
    CREATE INDEX outbox_done ON outbox (state, coalesce(sent_at, created_at));
    CREATE INDEX outbox_inbound ON outbox (inbound_id) WHERE inbound_id IS NOT NULL;
    CREATE TABLE press (
        game TEXT NOT NULL COLLATE NOCASE REFERENCES games (name) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        phase TEXT NOT NULL,
        sender TEXT NOT NULL,
        recipients TEXT NOT NULL,
        grey INTEGER NOT NULL,
        text TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (game, seq)
    );",
    // 6 (web): broadcast press, kept for the game's web page and feed
    // (src/web). Only press sent to everybody (BROADCAST, PRESS TO ALL)
    // is kept, never press to some powers; grey press is kept without its
    // sender (`sender` NULL), so no page can show who sent it.
    "CREATE TABLE broadcast_press (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL COLLATE NOCASE REFERENCES games (name) ON DELETE CASCADE,
        phase TEXT NOT NULL,
        sender TEXT,
        body TEXT NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE INDEX broadcast_press_game ON broadcast_press (game, id);",
    // 7: who played which power and when (for the roster, WHO, and the
    // end of the game: a replaced player stays on the record), and the
    // absences players announce (SET ABSENCE).
    "CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL COLLATE NOCASE REFERENCES games (name) ON DELETE CASCADE,
        power INTEGER NOT NULL,
        address TEXT NOT NULL,
        name TEXT,
        from_at INTEGER NOT NULL,
        to_at INTEGER,
        how TEXT
    );
    CREATE INDEX players_game ON players (game, power, id);
    CREATE TABLE absences (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL COLLATE NOCASE REFERENCES games (name) ON DELETE CASCADE,
        power INTEGER NOT NULL,
        from_at INTEGER NOT NULL,
        to_at INTEGER NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE INDEX absences_game ON absences (game, to_at);",
];

/// Bring the database up to date. The version is read and the migrations
/// applied under one write lock (`BEGIN IMMEDIATE`): two processes opening
/// a new store at once (the daemon starting while `zinejudge deliver`
/// stores a mail) would otherwise both see version 0, and the second would
/// fail on tables the first has just made.
pub fn migrate(conn: &mut Connection) -> Result<()> {
    let known = MIGRATIONS.len() as i64;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version == known {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if version > known {
        return Err(StoreError::TooNew {
            found: version,
            known,
        });
    }
    if version == known {
        return Ok(());
    }
    for sql in MIGRATIONS.iter().skip(version as usize) {
        tx.execute_batch(sql)?;
    }
    tx.pragma_update(None, "user_version", known)?;
    tx.commit()?;
    Ok(())
}
