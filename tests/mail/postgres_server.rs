//! The test PostgreSQL server (tests/support/postgres.rs) starts on
//! 127.0.0.1 from the Debian packages, as the `postgres` user when the
//! tests run as root, and takes a password login over TCP only with the
//! right password: what the store's PostgreSQL backend will be tested on.

use crate::support;
use support::postgres::PgServer;

#[test]
fn a_throw_away_server_starts_on_localhost_and_checks_passwords() {
    let Some(pg) = PgServer::start_or_skip("postgres_server") else {
        return;
    };
    assert!(pg.url().starts_with("postgres://zinejudge@127.0.0.1:"));
    assert_eq!(pg.psql("SELECT 1 + 1").expect("a query"), "2");
    // It listens on 127.0.0.1 only.
    assert_eq!(
        pg.psql("SHOW listen_addresses").expect("a query"),
        "127.0.0.1"
    );
    // A wrong password is refused.
    let out = std::process::Command::new("psql")
        .args(["-h", "127.0.0.1", "-p", &pg.port.to_string()])
        .args([
            "-U",
            "zinejudge",
            "-d",
            "zinejudge",
            "-At",
            "-c",
            "SELECT 1",
        ])
        .env("PGPASSWORD", "wrong")
        .output();
    if let Ok(out) = out {
        assert!(!out.status.success());
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("password authentication failed"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let dir = pg.dir.clone();
    drop(pg);
    assert!(!dir.exists(), "the server's directory is removed");
}
