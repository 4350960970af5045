//! Versioned migrations, one list per backend with the same numbering:
//! entry N of [`MIGRATIONS`] (SQLite) and of [`POSTGRES_MIGRATIONS`] take
//! the schema from version N to N + 1, and the same code ([`migrate`])
//! runs them. SQLite records the version in `PRAGMA user_version`,
//! PostgreSQL in the one-row table `schema_version`. Migrations are only
//! ever appended, to both lists at once.
//!
//! The PostgreSQL schema says in its own types what SQLite's says by
//! affinity: `BIGINT` for every integer (flags too, 0 and 1, so that the
//! same SQL reads and writes them in both), `BYTEA` for bytes, identity
//! columns for SQLite's `INTEGER PRIMARY KEY`, and `CITEXT` (a trusted
//! extension shipped with PostgreSQL) for SQLite's `COLLATE NOCASE`: game
//! names and addresses compare without regard to case in both.

use super::sql::{Backend, Conn};
use super::{Result, StoreError, params};

/// The SQLite migrations, in order.
pub(crate) const MIGRATIONS: &[&str] = &[
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
    // 8: claims, for several judges sharing one database (PostgreSQL;
    // see the store's `# Several judges`): which judge holds a mail in or
    // out, and until when (Unix seconds on the database's clock). SQLite
    // has one judge and leaves them empty.
    "ALTER TABLE inbound ADD COLUMN claimed_by TEXT;
    ALTER TABLE inbound ADD COLUMN lease_until INTEGER;
    ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
    ALTER TABLE outbox ADD COLUMN lease_until INTEGER;",
    // 9: trust. Sign-on failures are counted per source as well as per
    // seat (source '*' stands for every address but the seat's own), so
    // that nobody can lock a player out by guessing from elsewhere. A
    // deadline that absences moved keeps the deadline it was moved from,
    // so that absences announced one after another move it by the cap
    // at most. Budgets count the mail each person causes and each address
    // receives, per window (see `daemon::guard`). Addresses confirm they
    // want the judge's mail before anything registers them; what waits
    // for a confirmation is pending (see `store::confirm`). Every address
    // that already had the judge's mail counts as confirmed.
    "ALTER TABLE signon_failures RENAME TO signon_failures_8;
    CREATE TABLE signon_failures (
        game TEXT NOT NULL COLLATE NOCASE,
        seat INTEGER NOT NULL,
        source TEXT NOT NULL COLLATE NOCASE,
        failures INTEGER NOT NULL DEFAULT 0,
        locked_until INTEGER NOT NULL DEFAULT 0,
        last_at INTEGER NOT NULL,
        notified_at INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game, seat, source)
    );
    INSERT INTO signon_failures (game, seat, source, failures, locked_until, last_at, notified_at)
        SELECT game, seat, '*', failures, locked_until, last_at, notified_at FROM signon_failures_8;
    DROP TABLE signon_failures_8;
    ALTER TABLE games ADD COLUMN deadline_base INTEGER;
    CREATE TABLE budgets (
        key TEXT NOT NULL COLLATE NOCASE,
        span INTEGER NOT NULL,
        start INTEGER NOT NULL,
        mails INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        PRIMARY KEY (key, span)
    );
    CREATE TABLE addresses (
        address TEXT PRIMARY KEY COLLATE NOCASE,
        confirmed_at INTEGER,
        code TEXT,
        code_key TEXT,
        code_at INTEGER,
        asked_at INTEGER
    );
    CREATE UNIQUE INDEX addresses_code ON addresses (code_key);
    INSERT OR IGNORE INTO addresses (address, confirmed_at)
        SELECT address, 0 FROM seats WHERE address IS NOT NULL;
    INSERT OR IGNORE INTO addresses (address, confirmed_at) SELECT address, 0 FROM observers;
    INSERT OR IGNORE INTO addresses (address, confirmed_at) SELECT gm_address, 0 FROM games;
    CREATE TABLE pending (
        id INTEGER PRIMARY KEY,
        address TEXT NOT NULL COLLATE NOCASE,
        inbound_id INTEGER,
        game TEXT COLLATE NOCASE,
        power INTEGER,
        asked_by TEXT,
        created_at INTEGER NOT NULL
    );
    CREATE INDEX pending_address ON pending (address);",
    // 10: orders sent ahead for a later phase (njudge's `PHASE season year
    // phase`), kept until that phase comes: each mail's lines are a batch,
    // read in order when it does.
    "CREATE TABLE later_orders (
        game TEXT NOT NULL COLLATE NOCASE REFERENCES games (name) ON DELETE CASCADE,
        power INTEGER NOT NULL,
        phase TEXT NOT NULL,
        batch INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (game, power, phase, batch, seq)
    );",
    // 11: a game as its players live it. A player's `SET WAIT` (complete
    // orders do not make them ready), and the powers they asked for at
    // JOIN, in order (power indices, comma-separated), for the assignment
    // at the start.
    "ALTER TABLE seats ADD COLUMN wait INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN prefs TEXT NOT NULL DEFAULT '';",
    // 12: one code a request (see `trust::confirm`): a request names the
    // one mail (or offer) its answer carries out, so that confirming a
    // mail of one's own never carries out others held for the same
    // address; an answered request's row stays until its mail is read
    // again, as the proof that its From confirmed it. Requests made
    // before keep their address's code.
    "ALTER TABLE pending ADD COLUMN code TEXT;
    ALTER TABLE pending ADD COLUMN code_key TEXT;
    ALTER TABLE pending ADD COLUMN asked_at INTEGER;
    ALTER TABLE pending ADD COLUMN confirmed_at INTEGER;
    UPDATE pending SET code = (SELECT code FROM addresses WHERE addresses.address = pending.address),
        code_key = (SELECT code_key FROM addresses WHERE addresses.address = pending.address);
    CREATE INDEX pending_code ON pending (code_key);
    CREATE INDEX pending_inbound ON pending (inbound_id);",
    // 13: a queued mail keeps its text, and its attachments (the board a
    // start or a MAP sends) apart, each distinct content once, by its
    // digest, however many readers get it: `kept_parts` counts a mail's
    // rows in `outbox_parts` (name and type of each, in order), whose bytes
    // are the `mail_parts` row of the digest, dropped once no mail uses it.
    // A long text is kept deflated (`packed`).
    "CREATE TABLE mail_parts (
        digest TEXT PRIMARY KEY,
        bytes BLOB NOT NULL,
        created_at INTEGER NOT NULL
    );
    CREATE TABLE outbox_parts (
        outbox_id INTEGER NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        name TEXT NOT NULL,
        mime TEXT NOT NULL,
        digest TEXT NOT NULL REFERENCES mail_parts (digest),
        PRIMARY KEY (outbox_id, seq)
    );
    CREATE INDEX outbox_parts_digest ON outbox_parts (digest);
    ALTER TABLE outbox ADD COLUMN kept_parts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE outbox ADD COLUMN packed INTEGER NOT NULL DEFAULT 0;",
    // 14: the variant each game plays, kept (issue #52). A copy of every
    // variant file a game was bound to, by its fingerprint (the variant's
    // name with a hash of its text), and each game's binding: the game
    // plays that copy whatever later happens to the file in the folder.
    // A shipped variant's game is bound with an empty fingerprint (it
    // follows the judge's own). `told`: what the GM was last told of the
    // folder's file (its fingerprint, `gone`; empty: the game's own).
    "CREATE TABLE variant_copies (
        fingerprint TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        toml TEXT NOT NULL,
        kept_at INTEGER NOT NULL
    );
    CREATE TABLE game_variants (
        game TEXT PRIMARY KEY COLLATE NOCASE REFERENCES games (name) ON DELETE CASCADE,
        fingerprint TEXT NOT NULL,
        told TEXT NOT NULL DEFAULT ''
    );",
    // 15: njudge's diaries: a player's entries, numbered per power (a
    // number is never used again), kept until the game ends and then sent
    // to everybody in it.
    "CREATE TABLE diaries (
        game TEXT NOT NULL COLLATE NOCASE REFERENCES games (name) ON DELETE CASCADE,
        power INTEGER NOT NULL,
        n INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        text TEXT NOT NULL,
        deleted INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game, power, n)
    );",
];

/// The PostgreSQL migrations, in order: entry N does what entry N of
/// [`MIGRATIONS`] does for SQLite.
pub(crate) const POSTGRES_MIGRATIONS: &[&str] = &[
    // 1: mail in and out.
    "CREATE EXTENSION IF NOT EXISTS citext;
    CREATE TABLE inbound (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        message_id TEXT NOT NULL UNIQUE,
        source TEXT NOT NULL,
        received_at BIGINT NOT NULL,
        size BIGINT NOT NULL,
        raw BYTEA NOT NULL,
        truncated BIGINT NOT NULL DEFAULT 0,
        state TEXT NOT NULL DEFAULT 'new',
        processed_at BIGINT,
        note TEXT
    );
    CREATE INDEX inbound_state ON inbound (state, id);
    CREATE TABLE outbox (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        inbound_id BIGINT REFERENCES inbound (id),
        message_id TEXT NOT NULL UNIQUE,
        recipients TEXT NOT NULL,
        raw BYTEA NOT NULL,
        state TEXT NOT NULL DEFAULT 'queued',
        attempts BIGINT NOT NULL DEFAULT 0,
        next_attempt_at BIGINT NOT NULL,
        last_error TEXT,
        created_at BIGINT NOT NULL,
        sent_at BIGINT
    );
    CREATE INDEX outbox_due ON outbox (state, next_attempt_at);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);",
    // 2: games.
    "CREATE TABLE games (
        name CITEXT PRIMARY KEY,
        variant TEXT NOT NULL,
        gm_address TEXT NOT NULL,
        gm_hash TEXT NOT NULL,
        status TEXT NOT NULL,
        settings TEXT NOT NULL,
        position TEXT NOT NULL,
        deadline BIGINT,
        reminded BIGINT NOT NULL DEFAULT 0,
        grace_noticed BIGINT NOT NULL DEFAULT 0,
        result TEXT,
        created_at BIGINT NOT NULL
    );
    CREATE INDEX games_deadline ON games (status, deadline);
    CREATE TABLE seats (
        game CITEXT NOT NULL REFERENCES games (name) ON DELETE CASCADE,
        power BIGINT NOT NULL,
        address TEXT,
        hash TEXT,
        status TEXT NOT NULL,
        ready BIGINT NOT NULL DEFAULT 0,
        draw BIGINT NOT NULL DEFAULT 0,
        concede BIGINT NOT NULL DEFAULT 0,
        failures BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (game, power)
    );
    CREATE TABLE observers (
        game CITEXT NOT NULL REFERENCES games (name) ON DELETE CASCADE,
        address CITEXT NOT NULL,
        PRIMARY KEY (game, address)
    );
    CREATE TABLE orders (
        game CITEXT NOT NULL REFERENCES games (name) ON DELETE CASCADE,
        power BIGINT NOT NULL,
        seq BIGINT NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (game, power, seq)
    );
    CREATE TABLE history (
        game CITEXT NOT NULL REFERENCES games (name) ON DELETE CASCADE,
        seq BIGINT NOT NULL,
        phase TEXT NOT NULL,
        kind TEXT NOT NULL,
        position TEXT NOT NULL,
        orders TEXT NOT NULL,
        report TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (game, seq)
    );
    CREATE TABLE senders (
        address CITEXT PRIMARY KEY,
        window_start BIGINT NOT NULL,
        count BIGINT NOT NULL,
        warned BIGINT NOT NULL DEFAULT 0
    );",
    // 3: trust.
    "ALTER TABLE inbound ADD COLUMN attempts BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE inbound ADD COLUMN digest TEXT;
    ALTER TABLE inbound ADD COLUMN redacted BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN fault TEXT;
    ALTER TABLE games ADD COLUMN fault_at BIGINT;
    CREATE TABLE signon_failures (
        game CITEXT NOT NULL,
        seat BIGINT NOT NULL,
        failures BIGINT NOT NULL DEFAULT 0,
        locked_until BIGINT NOT NULL DEFAULT 0,
        last_at BIGINT NOT NULL,
        notified_at BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (game, seat)
    );
    CREATE TABLE answered (
        address CITEXT PRIMARY KEY,
        day_start BIGINT NOT NULL,
        count BIGINT NOT NULL,
        warned BIGINT NOT NULL DEFAULT 0,
        idle_at BIGINT NOT NULL DEFAULT 0
    );
    CREATE INDEX inbound_processed ON inbound (state, processed_at);",
    // 4: a player's own choices.
    "ALTER TABLE seats ADD COLUMN picture TEXT;
    ALTER TABLE seats ADD COLUMN name TEXT;",
    // 5: bounded storage.
    "CREATE TABLE mail_sources (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        kind TEXT NOT NULL,
        data BYTEA NOT NULL,
        created_at BIGINT NOT NULL
    );
    ALTER TABLE outbox ADD COLUMN source_id BIGINT REFERENCES mail_sources (id);
    ALTER TABLE outbox ADD COLUMN parts TEXT;
    CREATE INDEX outbox_source ON outbox (source_id) WHERE source_id IS NOT NULL;
    CREATE INDEX outbox_done ON outbox (state, coalesce(sent_at, created_at));
    CREATE INDEX outbox_inbound ON outbox (inbound_id) WHERE inbound_id IS NOT NULL;
    CREATE TABLE press (
        game CITEXT NOT NULL REFERENCES games (name) ON DELETE CASCADE,
        seq BIGINT NOT NULL,
        phase TEXT NOT NULL,
        sender TEXT NOT NULL,
        recipients TEXT NOT NULL,
        grey BIGINT NOT NULL,
        text TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (game, seq)
    );",
    // 6 (web): broadcast press.
    "CREATE TABLE broadcast_press (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game CITEXT NOT NULL REFERENCES games (name) ON DELETE CASCADE,
        phase TEXT NOT NULL,
        sender TEXT,
        body TEXT NOT NULL,
        created_at BIGINT NOT NULL
    );
    CREATE INDEX broadcast_press_game ON broadcast_press (game, id);",
    // 7: who played which power and when; absences.
    "CREATE TABLE players (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game CITEXT NOT NULL REFERENCES games (name) ON DELETE CASCADE,
        power BIGINT NOT NULL,
        address TEXT NOT NULL,
        name TEXT,
        from_at BIGINT NOT NULL,
        to_at BIGINT,
        how TEXT
    );
    CREATE INDEX players_game ON players (game, power, id);
    CREATE TABLE absences (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        game CITEXT NOT NULL REFERENCES games (name) ON DELETE CASCADE,
        power BIGINT NOT NULL,
        from_at BIGINT NOT NULL,
        to_at BIGINT NOT NULL,
        created_at BIGINT NOT NULL
    );
    CREATE INDEX absences_game ON absences (game, to_at);",
    // 8: claims (see the SQLite list).
    "ALTER TABLE inbound ADD COLUMN claimed_by TEXT;
    ALTER TABLE inbound ADD COLUMN lease_until BIGINT;
    ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
    ALTER TABLE outbox ADD COLUMN lease_until BIGINT;",
    // 9: trust (see the SQLite list).
    "ALTER TABLE signon_failures ADD COLUMN source CITEXT NOT NULL DEFAULT '*';
    ALTER TABLE signon_failures DROP CONSTRAINT signon_failures_pkey;
    ALTER TABLE signon_failures ADD PRIMARY KEY (game, seat, source);
    ALTER TABLE signon_failures ALTER COLUMN source DROP DEFAULT;
    ALTER TABLE games ADD COLUMN deadline_base BIGINT;
    CREATE TABLE budgets (
        key CITEXT NOT NULL,
        span BIGINT NOT NULL,
        start BIGINT NOT NULL,
        mails BIGINT NOT NULL,
        bytes BIGINT NOT NULL,
        PRIMARY KEY (key, span)
    );
    CREATE TABLE addresses (
        address CITEXT PRIMARY KEY,
        confirmed_at BIGINT,
        code TEXT,
        code_key TEXT,
        code_at BIGINT,
        asked_at BIGINT
    );
    CREATE UNIQUE INDEX addresses_code ON addresses (code_key);
    INSERT INTO addresses (address, confirmed_at)
        SELECT address, 0 FROM seats WHERE address IS NOT NULL
        UNION SELECT address, 0 FROM observers
        UNION SELECT gm_address, 0 FROM games
        ON CONFLICT DO NOTHING;
    CREATE TABLE pending (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        address CITEXT NOT NULL,
        inbound_id BIGINT,
        game CITEXT,
        power BIGINT,
        asked_by TEXT,
        created_at BIGINT NOT NULL
    );
    CREATE INDEX pending_address ON pending (address);",
    // 10: orders sent ahead (see the SQLite list).
    "CREATE TABLE later_orders (
        game CITEXT NOT NULL REFERENCES games (name) ON DELETE CASCADE,
        power BIGINT NOT NULL,
        phase TEXT NOT NULL,
        batch BIGINT NOT NULL,
        seq BIGINT NOT NULL,
        text TEXT NOT NULL,
        PRIMARY KEY (game, power, phase, batch, seq)
    );",
    // 11: a player's WAIT and preference list (see the SQLite list).
    "ALTER TABLE seats ADD COLUMN wait BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN prefs TEXT NOT NULL DEFAULT '';",
    // 12: one code a request (see the SQLite list).
    "ALTER TABLE pending ADD COLUMN code TEXT;
    ALTER TABLE pending ADD COLUMN code_key TEXT;
    ALTER TABLE pending ADD COLUMN asked_at BIGINT;
    ALTER TABLE pending ADD COLUMN confirmed_at BIGINT;
    UPDATE pending SET code = a.code, code_key = a.code_key FROM addresses a
        WHERE a.address = pending.address;
    CREATE INDEX pending_code ON pending (code_key);
    CREATE INDEX pending_inbound ON pending (inbound_id);",
    // 13: attachments kept apart, once per content (see the SQLite list).
    "CREATE TABLE mail_parts (
        digest TEXT PRIMARY KEY,
        bytes BYTEA NOT NULL,
        created_at BIGINT NOT NULL
    );
    CREATE TABLE outbox_parts (
        outbox_id BIGINT NOT NULL REFERENCES outbox (id) ON DELETE CASCADE,
        seq BIGINT NOT NULL,
        name TEXT NOT NULL,
        mime TEXT NOT NULL,
        digest TEXT NOT NULL REFERENCES mail_parts (digest),
        PRIMARY KEY (outbox_id, seq)
    );
    CREATE INDEX outbox_parts_digest ON outbox_parts (digest);
    ALTER TABLE outbox ADD COLUMN kept_parts BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE outbox ADD COLUMN packed BIGINT NOT NULL DEFAULT 0;",
    // 14: the variant each game plays, kept (see the SQLite list).
    "CREATE TABLE variant_copies (
        fingerprint TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        toml TEXT NOT NULL,
        kept_at BIGINT NOT NULL
    );
    CREATE TABLE game_variants (
        game CITEXT PRIMARY KEY REFERENCES games (name) ON DELETE CASCADE,
        fingerprint TEXT NOT NULL,
        told TEXT NOT NULL DEFAULT ''
    );",
    // 15: njudge's diaries (see the SQLite list).
    "CREATE TABLE diaries (
        game CITEXT NOT NULL REFERENCES games (name) ON DELETE CASCADE,
        power BIGINT NOT NULL,
        n BIGINT NOT NULL,
        created_at BIGINT NOT NULL,
        text TEXT NOT NULL,
        deleted BIGINT NOT NULL DEFAULT 0,
        PRIMARY KEY (game, power, n)
    );",
];

/// A key for PostgreSQL's advisory lock that serializes migrations.
const MIGRATION_LOCK: i64 = 0x7a6a_6d69_6772; // "zjmigr"

/// The migrations of a backend.
fn migrations(b: Backend) -> &'static [&'static str] {
    match b {
        Backend::Sqlite => MIGRATIONS,
        Backend::Postgres => POSTGRES_MIGRATIONS,
    }
}

/// The schema version recorded in the database (0 for a new one).
fn version(c: &Conn) -> Result<i64> {
    match c.backend() {
        Backend::Sqlite => c.query_row("PRAGMA user_version", &[], |r| r.get(0)),
        Backend::Postgres => {
            let exists: bool = c.query_row(
                "SELECT count(*) > 0 FROM pg_catalog.pg_tables
                 WHERE schemaname = current_schema() AND tablename = 'schema_version'",
                &[],
                |r| r.get(0),
            )?;
            if !exists {
                return Ok(0);
            }
            Ok(
                c.query_opt("SELECT version FROM schema_version", &[], |r| r.get(0))?
                    .unwrap_or(0),
            )
        }
    }
}

fn set_version(c: &Conn, v: i64) -> Result<()> {
    match c.backend() {
        Backend::Sqlite => c.execute_batch(&format!("PRAGMA user_version = {v}")),
        Backend::Postgres => {
            c.execute_batch("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")?;
            c.execute("DELETE FROM schema_version", &[])?;
            c.execute(
                "INSERT INTO schema_version (version) VALUES (?1)",
                params![v],
            )?;
            Ok(())
        }
    }
}

/// Bring the database up to date. The version is read and the migrations
/// applied under one lock (SQLite's write lock, `BEGIN IMMEDIATE`;
/// PostgreSQL's transaction-scoped advisory lock): two processes opening a
/// new store at once (the daemon starting while `zinejudge deliver` stores
/// a mail, or two judges on one database) would otherwise both see version
/// 0, and the second would fail on tables the first has just made.
pub(crate) fn migrate(conn: &mut Conn) -> Result<()> {
    let all = migrations(conn.backend());
    let known = all.len() as i64;
    if version(conn)? == known {
        return Ok(());
    }
    // A migration may rewrite a table: it has longer than a statement.
    conn.set_patience(MIGRATION_PATIENCE);
    let r = migrate_now(conn, all);
    conn.set_patience(super::pg::ANSWER_TIMEOUT);
    r
}

/// How long a migration's statements may take (PostgreSQL): a judge
/// started under systemd must be ready within its start timeout anyway.
const MIGRATION_PATIENCE: std::time::Duration = std::time::Duration::from_secs(600);

fn migrate_now(conn: &mut Conn, all: &[&str]) -> Result<()> {
    let known = all.len() as i64;
    let tx = conn.transaction()?;
    if tx.backend() == Backend::Postgres {
        tx.execute_batch("SET LOCAL statement_timeout = 0; SET LOCAL lock_timeout = 0")?;
        tx.execute("SELECT pg_advisory_xact_lock(?1)", params![MIGRATION_LOCK])?;
    }
    let version = version(&tx)?;
    if version > known {
        return Err(StoreError::TooNew {
            found: version,
            known,
        });
    }
    if version == known {
        return Ok(());
    }
    for sql in all.iter().skip(version as usize) {
        tx.execute_batch(sql)?;
    }
    set_version(&tx, known)?;
    tx.commit()?;
    Ok(())
}

/// [`super::Store::check`]'s look at the schema: newer than this program
/// is refused; older (or none) is brought up to date in a transaction that
/// is rolled back, so that what the role may not do shows and nothing
/// changes (PostgreSQL's DDL is transactional; an SQLite file that is
/// older is migrated by the judge itself, which the file's directory being
/// writable is enough for); current, every table of the judge's must be
/// the role's to read and write.
pub(super) fn check(conn: &mut Conn) -> std::result::Result<(), super::Unusable> {
    use super::Unusable;
    let known = migrations(conn.backend()).len() as i64;
    let found = version(conn).map_err(Unusable::Store)?;
    if found > known {
        return Err(Unusable::Store(StoreError::TooNew { found, known }));
    }
    if conn.backend() == Backend::Sqlite {
        return Ok(());
    }
    if found < known {
        let tx = conn.transaction().map_err(Unusable::Schema)?;
        tx.execute("SELECT pg_advisory_xact_lock(?1)", params![MIGRATION_LOCK])
            .map_err(Unusable::Schema)?;
        for sql in migrations(tx.backend())
            .iter()
            .skip(version(&tx).map_err(Unusable::Schema)? as usize)
        {
            tx.execute_batch(sql).map_err(Unusable::Schema)?;
        }
        set_version(&tx, known).map_err(Unusable::Schema)?;
        return tx.rollback().map_err(Unusable::Schema);
    }
    let withheld: Option<(String, String)> = conn
        .query_opt(
            "SELECT t.tablename, p.p FROM pg_catalog.pg_tables AS t,
                 unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE']) AS p (p)
             WHERE t.schemaname = current_schema() AND t.tablename <> 'schema_version'
                 AND NOT has_table_privilege(
                     quote_ident(t.schemaname) || '.' || quote_ident(t.tablename), p.p)
             ORDER BY t.tablename, p.p LIMIT 1",
            &[],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .map_err(Unusable::Store)?;
    match withheld {
        Some((table, privilege)) => Err(Unusable::Privilege { table, privilege }),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_backends_have_the_same_migrations() {
        assert_eq!(MIGRATIONS.len(), POSTGRES_MIGRATIONS.len());
    }
}
