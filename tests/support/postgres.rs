//! A throw-away PostgreSQL server for the tests, started by the test process
//! on 127.0.0.1 (never another address) from the Debian packages
//! (`postgresql`, installed by scripts/install-test-deps.sh): `initdb` into
//! a fresh temporary directory, password authentication (scram-sha-256)
//! for one role, `pg_ctl start` on a free port, and `pg_ctl stop -m
//! immediate` plus removal of the directory when dropped.
//!
//! PostgreSQL refuses to run as root, so when the tests run as root (CI)
//! the server runs as the `postgres` user the package creates, owning the
//! directory.

use std::fs;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// The role the tests connect as, and its password.
pub const PG_USER: &str = "zinejudge";
/// See [`PG_USER`].
pub const PG_PASSWORD: &str = "pg-test-secret";
/// The database made for the tests.
pub const PG_DATABASE: &str = "zinejudge";

/// A running server.
pub struct PgServer {
    /// Its data directory and socket directory live here.
    pub dir: PathBuf,
    /// The TCP port on 127.0.0.1.
    pub port: u16,
    bin: PathBuf,
    run_as: Option<String>,
    /// The options it was started with (port, addresses), to start it
    /// again after [`PgServer::stop`].
    opts: String,
}

/// The directory of PostgreSQL's server programs (Debian keeps them out of
/// PATH, under /usr/lib/postgresql/<version>/bin), the newest there is.
pub fn pg_bin() -> Option<PathBuf> {
    let mut versions: Vec<PathBuf> = fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|b| b.join("initdb").is_file() && b.join("pg_ctl").is_file())
        .collect();
    versions.sort_by_key(|b| {
        b.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(0)
    });
    versions.pop()
}

/// Why the server cannot start here, or `None`.
pub fn missing_postgres() -> Option<String> {
    pg_bin().is_none().then(|| {
        "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb); run \
         scripts/install-test-deps.sh as root"
            .to_string()
    })
}

/// The server the tests of one binary share while any of them runs (a
/// server per test would cost an `initdb` each): started by the first,
/// stopped when the last lets go.
static SHARED: std::sync::Mutex<std::sync::Weak<PgServer>> =
    std::sync::Mutex::new(std::sync::Weak::new());

/// A database of one test's own on a shared server.
pub struct PgDatabase {
    /// The server (kept running while this lives).
    pub server: std::sync::Arc<PgServer>,
    /// The database's name.
    pub name: String,
}

impl PgDatabase {
    /// Its URL, for `[store] url` (the password is given apart).
    pub fn url(&self) -> String {
        self.url_as(PG_USER)
    }

    /// Its URL for the role `user`.
    pub fn url_as(&self, user: &str) -> String {
        format!(
            "postgres://{user}@127.0.0.1:{}/{}",
            self.server.port, self.name
        )
    }

    /// Where the store is, with the password.
    pub fn location(&self) -> zinejudge::testing::store::Location {
        self.location_as(PG_USER)
    }

    /// Where the store is for the role `user` (whose password is
    /// [`PG_PASSWORD`], as [`PgDatabase::role`] makes it).
    pub fn location_as(&self, user: &str) -> zinejudge::testing::store::Location {
        zinejudge::testing::store::Location::Postgres(zinejudge::testing::store::PgLocation {
            url: self.url_as(user),
            password: Some(PG_PASSWORD.to_string()),
        })
    }

    /// Run SQL in this database as the test's superuser.
    pub fn psql(&self, sql: &str) -> Result<String, String> {
        self.server.psql_in(&self.name, sql)
    }

    /// A role that logs in with [`PG_PASSWORD`] and is no superuser (a
    /// superuser bypasses every privilege, so a privilege withheld shows
    /// only on another role), allowed everything on the tables and
    /// sequences in this database as they are now.
    pub fn role(&self, user: &str) -> Result<(), String> {
        self.server.psql_in(
            &self.name,
            &format!(
                "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{user}') THEN
                     CREATE ROLE {user} LOGIN PASSWORD '{PG_PASSWORD}'; END IF; END $$;
                 GRANT ALL ON ALL TABLES IN SCHEMA public TO {user};
                 GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {user};"
            ),
        )?;
        Ok(())
    }
}

impl PgServer {
    /// A fresh database for `test` on the server this binary's tests
    /// share, or a skip (outside CI) when PostgreSQL is not installed.
    pub fn database_or_skip(test: &str) -> Option<PgDatabase> {
        let server = {
            let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
            match shared.upgrade() {
                Some(s) => s,
                None => {
                    let s = std::sync::Arc::new(PgServer::start_or_skip(test)?);
                    *shared = std::sync::Arc::downgrade(&s);
                    s
                }
            }
        };
        Some(Self::database_on(server, test))
    }

    /// A fresh database for `test` on a server of its own, which the test
    /// may stop and restart without disturbing the others; or a skip, as
    /// [`PgServer::database_or_skip`].
    pub fn own_database_or_skip(test: &str) -> Option<PgDatabase> {
        let server = std::sync::Arc::new(PgServer::start_or_skip(test)?);
        Some(Self::database_on(server, test))
    }

    fn database_on(server: std::sync::Arc<PgServer>, test: &str) -> PgDatabase {
        static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let name = format!(
            "t{}_{}",
            std::process::id(),
            N.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
        );
        server
            .psql(&format!("CREATE DATABASE {name}"))
            .unwrap_or_else(|e| panic!("{test}: {e}"));
        PgDatabase { server, name }
    }

    /// Start a server, or skip the test (outside CI) when PostgreSQL is not
    /// installed; in CI its absence is a failure.
    pub fn start_or_skip(test: &str) -> Option<PgServer> {
        if let Some(reason) = missing_postgres() {
            if super::in_ci() {
                panic!("{test}: {reason} (CI is set, so this is a failure, not a skip)");
            }
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {reason}");
            return None;
        }
        Some(PgServer::start().unwrap_or_else(|e| panic!("{test}: {e}")))
    }

    /// Start a server.
    pub fn start() -> Result<PgServer, String> {
        let bin = pg_bin().ok_or("PostgreSQL is not installed")?;
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        let run_as = root.then(|| "postgres".to_string());
        let dir = temp_dir()?;
        let data = dir.join("data");
        let pwfile = dir.join("pw");
        fs::write(&pwfile, PG_PASSWORD).map_err(|e| e.to_string())?;
        if root {
            chown_postgres(&dir)?;
            chown_postgres(&pwfile)?;
        }
        let mut last = String::new();
        let mut server = PgServer {
            dir: dir.clone(),
            port: 0,
            bin,
            run_as,
            opts: String::new(),
        };
        let out = server.run(
            "initdb",
            &[
                "-D",
                path_str(&data)?,
                "-U",
                PG_USER,
                "--pwfile",
                path_str(&pwfile)?,
                "--auth=scram-sha-256",
                "--encoding=UTF8",
                "--locale=C",
                "--no-sync",
            ],
        )?;
        if !out.status.success() {
            return Err(format!("initdb failed: {}", text(&out)));
        }
        // A free port: taken by binding port 0, released, then used; a
        // race with another process is retried.
        for _ in 0..5 {
            let port = TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .map_err(|e| e.to_string())?
                .port();
            server.port = port;
            server.opts = format!(
                "-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={} \
                 -c fsync=off -c max_connections=60",
                path_str(&dir)?
            );
            let out = server.pg_ctl_start()?;
            if out.status.success() {
                server.create_database()?;
                return Ok(server);
            }
            last = format!(
                "{}\n{}",
                text(&out),
                fs::read_to_string(dir.join("server.log")).unwrap_or_default()
            );
        }
        Err(format!("PostgreSQL did not start: {last}"))
    }

    fn pg_ctl_start(&self) -> Result<Output, String> {
        let data = self.dir.join("data");
        self.run(
            "pg_ctl",
            &[
                "-D",
                path_str(&data)?,
                "-l",
                path_str(&self.dir.join("server.log"))?,
                "-o",
                &self.opts,
                "-w",
                "-t",
                "60",
                "start",
            ],
        )
    }

    /// Stop the server as an operator's `pg_ctl stop` does (fast: open
    /// sessions are ended, each told "terminating connection due to
    /// administrator command").
    pub fn stop(&self) -> Result<(), String> {
        let data = self.dir.join("data");
        let out = self.run(
            "pg_ctl",
            &[
                "-D",
                path_str(&data)?,
                "-m",
                "fast",
                "-w",
                "-t",
                "60",
                "stop",
            ],
        )?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!("pg_ctl stop failed: {}", text(&out)))
        }
    }

    /// Start the server again after [`PgServer::stop`], on the same port.
    pub fn start_again(&self) -> Result<(), String> {
        let out = self.pg_ctl_start()?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "pg_ctl start failed: {}\n{}",
                text(&out),
                fs::read_to_string(self.dir.join("server.log")).unwrap_or_default()
            ))
        }
    }

    /// Restart the server, as `pg_ctlcluster ... restart` does.
    pub fn restart(&self) -> Result<(), String> {
        self.stop()?;
        self.start_again()
    }

    /// The URL the judge's configuration takes (the password is given
    /// apart, from a file or the environment).
    pub fn url(&self) -> String {
        format!("postgres://{PG_USER}@127.0.0.1:{}/{PG_DATABASE}", self.port)
    }

    /// Run SQL through `psql` as the test role; returns its output.
    pub fn psql(&self, sql: &str) -> Result<String, String> {
        self.psql_in(PG_DATABASE, sql)
    }

    /// Run SQL through `psql` as the test role in the database `db`.
    pub fn psql_in(&self, db: &str, sql: &str) -> Result<String, String> {
        let out = Command::new(self.bin.join("psql"))
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string()])
            .args(["-U", PG_USER, "-d", db, "-At", "-v", "ON_ERROR_STOP=1"])
            .args(["-c", sql])
            .env("PGPASSWORD", PG_PASSWORD)
            .output()
            .map_err(|e| format!("cannot run psql: {e}"))?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
        } else {
            Err(text(&out))
        }
    }

    fn create_database(&self) -> Result<(), String> {
        let out = Command::new(self.bin.join("psql"))
            .args(["-h", "127.0.0.1", "-p", &self.port.to_string()])
            .args([
                "-U",
                PG_USER,
                "-d",
                "postgres",
                "-At",
                "-v",
                "ON_ERROR_STOP=1",
            ])
            .args(["-c", &format!("CREATE DATABASE {PG_DATABASE}")])
            .env("PGPASSWORD", PG_PASSWORD)
            .output()
            .map_err(|e| format!("cannot run psql: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!("CREATE DATABASE failed: {}", text(&out)))
        }
    }

    /// Run one of the server programs, as `postgres` when we are root.
    fn run(&self, program: &str, args: &[&str]) -> Result<Output, String> {
        let prog = self.bin.join(program);
        let mut c = match &self.run_as {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.args(["-u", user, "--"]).arg(&prog);
                c
            }
            None => Command::new(&prog),
        };
        c.args(args)
            .current_dir(&self.dir)
            .output()
            .map_err(|e| format!("cannot run {program}: {e}"))
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        if let Ok(data) = path_str(&self.dir.join("data")) {
            let _ = self.run("pg_ctl", &["-D", data, "-m", "immediate", "-w", "stop"]);
        }
        let _ = fs::remove_dir_all(&self.dir);
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn path_str(p: &Path) -> Result<&str, String> {
    p.to_str()
        .ok_or_else(|| format!("not UTF-8: {}", p.display()))
}

fn chown_postgres(p: &Path) -> Result<(), String> {
    let out = Command::new("chown")
        .args(["postgres:postgres"])
        .arg(p)
        .output()
        .map_err(|e| format!("cannot run chown: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("chown postgres {}: {}", p.display(), text(&out)))
    }
}

/// A new directory under /tmp (short: the socket path must fit 107 bytes).
fn temp_dir() -> Result<PathBuf, String> {
    let started = Instant::now();
    loop {
        let dir = PathBuf::from(format!(
            "/tmp/zjpg-{}-{:08x}",
            std::process::id(),
            fastrand_u32()
        ));
        match fs::create_dir(&dir) {
            Ok(()) => {
                fs::set_permissions(&dir, fs::Permissions::from_mode(0o700))
                    .map_err(|e| e.to_string())?;
                return Ok(dir);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(format!("cannot make {}: {e}", dir.display())),
        }
        if started.elapsed() > Duration::from_secs(5) {
            return Err("cannot make a temporary directory".into());
        }
    }
}

fn fastrand_u32() -> u32 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.finish() as u32
}
