//! `check-config` refuses a configuration that cannot work, naming the key,
//! the value and the cause, and `run` refuses the same one at start; a
//! configuration that works passes. Each test is one mistake a GM makes.

use crate::support;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use support::postgres::{PG_PASSWORD, PgServer};

/// A fresh directory for one test, removed when it ends.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("zj-config-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    /// Write `zinejudge.toml` with `body` and return its path. Unless
    /// `body` says where the pages go, they go on a free port: check-config
    /// binds the web address, and the default one (127.0.0.1:8080) may be
    /// another test's judge's, or anything else's on a shared machine.
    fn config(&self, body: &str) -> PathBuf {
        let p = self.0.join("zinejudge.toml");
        let body = if body.contains("[web]") {
            body.to_string()
        } else {
            format!("{body}\n[web]\naddress = \"127.0.0.1:0\"\n")
        };
        std::fs::write(&p, body).unwrap();
        p
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Run the judge in `dir` (relative paths resolve there): this build's, or
/// `ZJ_ZINEJUDGE_BIN` (another build, to compare).
fn zj(dir: &Path, args: &[&str]) -> Output {
    zj_within(dir, args, std::time::Duration::from_secs(60))
}

/// [`zj`], given at most `limit`: a judge still running then is killed,
/// and its output so far is returned with no exit code.
fn zj_within(dir: &Path, args: &[&str], limit: std::time::Duration) -> Output {
    let mut child = Command::new(crate::daemon_common::judge_bin())
        .args(args)
        .current_dir(dir)
        .env_remove("ZINEJUDGE_IMAP_PASSWORD")
        .env_remove("ZINEJUDGE_SMTP_PASSWORD")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + limit;
    while child.try_wait().unwrap().is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let _ = child.kill();
    child.wait_with_output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `check-config` on `body` fails, and its message holds every one of
/// `expect` (the key, the value, the cause).
fn refused(name: &str, body: &str, expect: &[&str]) -> String {
    let d = Dir::new(name);
    let c = d.config(body);
    let o = zj(d.path(), &["check-config", "--config", c.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "accepted:\n{body}\n{err}");
    for e in expect {
        assert!(err.contains(e), "`{e}` missing from: {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
    err
}

fn accepted(name: &str, body: &str) -> String {
    let d = Dir::new(name);
    let c = d.config(body);
    let o = zj(d.path(), &["check-config", "--config", c.to_str().unwrap()]);
    assert!(o.status.success(), "refused:\n{body}\n{}", stderr(&o));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn the_defaults_pass_and_the_summary_shows_where_relative_paths_lead() {
    let d = Dir::new("defaults");
    let o = zj(d.path(), &["check-config"]);
    let err = stderr(&o);
    // The defaults' pages go on 127.0.0.1:8080, which something else on
    // the machine may hold (another test's judge answers as a judge and
    // is noted): then only that may be refused.
    if !o.status.success() && err.contains("web.address = \"127.0.0.1:8080\": cannot listen there")
    {
        return;
    }
    assert!(o.status.success(), "{err}");
    let out = String::from_utf8_lossy(&o.stdout);
    let store = d.path().join("var/zinejudge.sqlite");
    assert!(out.contains(&format!("store {}", store.display())), "{out}");
    // Checking creates nothing: the probe file is gone again.
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 0);
}

#[test]
fn a_log_word_that_is_not_a_level_is_refused() {
    // tracing reads `verbose` as a module name: nothing would be logged.
    refused(
        "log-verbose",
        "[judge]\nlog = \"verbose\"\n",
        &["judge.log", "\"verbose\"", "not a log level"],
    );
}

#[test]
fn module_directives_need_a_level_for_everything_else() {
    refused(
        "log-no-default",
        "[judge]\nlog = \"zinejudge=debug\"\n",
        &[
            "judge.log",
            "errors (even outbox failures) would not be logged",
        ],
    );
    refused(
        "log-off",
        "[judge]\nlog = \"off\"\n",
        &["judge.log", "\"off\"", "would log nothing"],
    );
    refused(
        "log-bad-level",
        "[judge]\nlog = \"info,zinejudge=loud\"\n",
        &["judge.log", "`zinejudge=loud` is not a log level"],
    );
    let out = accepted("log-ok", "[judge]\nlog = \"WARN,zinejudge::mail=debug\"\n");
    assert!(out.contains("log WARN,zinejudge::mail=debug"), "{out}");
}

#[test]
fn the_smtp_sink_needs_an_smtp_host() {
    refused(
        "smtp-no-host",
        "[outbound]\nsink = \"smtp\"\n[smtp]\nhost = \"\"\n",
        &["smtp.host = \"\"", "outbound.sink = \"smtp\" needs one"],
    );
    // Only the selected sink counts: an empty host is fine with a Maildir.
    accepted("smtp-unused", "[smtp]\nhost = \"\"\n");
}

#[test]
fn the_imap_source_needs_an_imap_host_and_login() {
    refused(
        "imap-no-host",
        "[inbound]\nsource = \"imap\"\n[imap]\nhost = \" \"\npassword = \"pw\"\n",
        &["imap.host = \" \"", "inbound.source = \"imap\" needs one"],
    );
    refused(
        "imap-no-user",
        "[inbound]\nsource = \"imap\"\n[imap]\nuser = \"\"\npassword = \"pw\"\n",
        &["imap.user = \"\"", "no login"],
    );
}

#[test]
fn a_url_or_host_with_port_is_not_a_host() {
    refused(
        "smtp-url",
        "[outbound]\nsink = \"smtp\"\n[smtp]\nhost = \"smtp://mail.example.org\"\n",
        &["smtp.host = \"smtp://mail.example.org\"", "not a host name"],
    );
    refused(
        "smtp-port-in-host",
        "[outbound]\nsink = \"smtp\"\n[smtp]\nhost = \"mail.example.org:587\"\n",
        &["smtp.host", "the port has a key of its own"],
    );
    // An IPv6 address is a host: the check goes on to connect (to a port
    // where nothing listens).
    let closed = std::net::TcpListener::bind("[::1]:0")
        .or_else(|_| std::net::TcpListener::bind("127.0.0.1:0"))
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    refused(
        "smtp-ipv6",
        &format!(
            "[outbound]\nsink = \"smtp\"\n[smtp]\nhost = \"::1\"\nport = {closed}\ntls = \"none\"\n"
        ),
        &["smtp.host = \"::1\"", "cannot connect to the SMTP server"],
    );
}

#[test]
fn bad_ports_are_refused() {
    refused(
        "port-0",
        "[outbound]\nsink = \"smtp\"\n[smtp]\nport = 0\n",
        &["smtp.port = 0", "not a port"],
    );
    refused(
        "port-big",
        "[inbound]\nsource = \"imap\"\n[imap]\nport = 70000\npassword = \"pw\"\n",
        &["imap.port", "70000"],
    );
}

#[test]
fn a_store_that_cannot_be_created_is_refused_with_the_cause() {
    let d = Dir::new("store-under-file");
    std::fs::write(d.path().join("plain"), "").unwrap();
    let c = d.config("[store]\npath = \"plain/zinejudge.sqlite\"\n");
    let o = zj(d.path(), &["check-config", "--config", c.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("store.path = \"plain/zinejudge.sqlite\"") && err.contains("Not a directory"),
        "{err}"
    );
    refused(
        "store-is-dir",
        "[store]\npath = \"/tmp\"\n",
        &["store.path = \"/tmp\"", "is a directory"],
    );
    refused(
        "store-in-proc",
        "[store]\npath = \"/proc/zinejudge/zinejudge.sqlite\"\n",
        &["store.path", "cannot create /proc/zinejudge"],
    );
}

#[test]
fn a_maildir_that_cannot_be_written_is_refused() {
    let d = Dir::new("outbox-under-file");
    std::fs::write(d.path().join("plain"), "").unwrap();
    let c = d.config("[outbound]\nmaildir = \"plain/outbox\"\n");
    let o = zj(d.path(), &["check-config", "--config", c.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("outbound.maildir = \"plain/outbox\""), "{err}");
    // A Maildir that is not the selected source is not checked.
    std::fs::write(
        d.path().join("zinejudge.toml"),
        "[inbound]\nsource = \"none\"\nmaildir = \"plain/inbox\"\n[web]\nenabled = false\n",
    )
    .unwrap();
    let o = zj(d.path(), &["check-config", "--config", c.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// The service's user cannot write where root can: checked as another user
/// (nobody, through setpriv) when the tests run as root, as CI does.
#[test]
fn a_store_directory_this_user_cannot_write_is_refused() {
    let d = Dir::new("store-not-mine");
    let locked = d.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let c = d.config(&format!(
        "[store]\npath = \"{}/zinejudge.sqlite\"\n",
        locked.display()
    ));
    std::fs::set_permissions(&c, std::fs::Permissions::from_mode(0o644)).unwrap();
    let root = Command::new("id").arg("-u").output().unwrap().stdout == b"0\n";
    let o = if root {
        // A copy of the binary nobody may run (the build tree may be
        // closed to others).
        let bin = d.path().join("zinejudge");
        std::fs::copy(env!("CARGO_BIN_EXE_zinejudge"), &bin).unwrap();
        Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(&bin)
            .args(["check-config", "--config"])
            .arg(&c)
            .current_dir(d.path())
            .output()
            .expect("setpriv (util-linux) runs the judge as nobody")
    } else {
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
        zj(d.path(), &["check-config", "--config", c.to_str().unwrap()])
    };
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("store.path")
            && err.contains("cannot write in")
            && err.contains("Permission denied"),
        "{err}"
    );
}

#[test]
fn a_template_directory_that_does_not_exist_is_refused() {
    refused(
        "templates-missing",
        "[judge]\ntemplates = \"no-such-dir\"\n",
        &[
            "judge.templates = \"no-such-dir\"",
            "No such file or directory",
        ],
    );
}

#[test]
fn an_unreadable_password_file_is_refused_with_the_cause() {
    refused(
        "password-file",
        "[inbound]\nsource = \"imap\"\n[imap]\npassword-file = \"imap.pw\"\n",
        &[
            "imap.password-file = \"imap.pw\"",
            "No such file or directory",
        ],
    );
}

#[test]
fn an_smtp_login_needs_a_password() {
    refused(
        "smtp-user-no-pw",
        "[outbound]\nsink = \"smtp\"\n[smtp]\nuser = \"judge\"\n",
        &["smtp.password", "smtp.user is set but no password"],
    );
}

#[test]
fn a_ca_file_without_certificates_is_refused() {
    let d = Dir::new("ca");
    std::fs::write(d.path().join("ca.pem"), "not a certificate\n").unwrap();
    let c = d.config("[outbound]\nsink = \"smtp\"\n[smtp]\nca-file = \"ca.pem\"\n");
    let o = zj(d.path(), &["check-config", "--config", c.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("smtp.ca-file = \"ca.pem\": holds no PEM certificate"),
        "{err}"
    );
}

#[test]
fn waits_of_zero_and_impossible_counts_are_refused() {
    refused(
        "poll-0",
        "[inbound]\npoll-seconds = 0\n",
        &["inbound.poll-seconds = 0", "at least 1 second"],
    );
    refused(
        "connections-0",
        "[outbound]\nsink = \"smtp\"\n[smtp]\nconnections = 0\n",
        &["smtp.connections = 0", "from 1 to 64"],
    );
    refused(
        "web-connections-0",
        "[web]\nconnections = 0\n",
        &["web.connections = 0", "from 1 to 65536"],
    );
}

#[test]
fn run_refuses_what_check_config_refuses_before_touching_anything() {
    let d = Dir::new("run");
    let c = d.config("[judge]\nlog = \"verbose\"\n");
    let o = zj(d.path(), &["run", "--config", c.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("judge.log = \"verbose\""), "{err}");
    assert!(!d.path().join("var").exists(), "run created its store");
}

#[test]
fn deliver_with_a_broken_configuration_defers_the_mail_and_says_why() {
    let d = Dir::new("deliver");
    let c = d.config("[inbound]\nsource = \"imap\"\n[imap]\npassword-file = \"gone.pw\"\n");
    let o = zj(d.path(), &["deliver", "--config", c.to_str().unwrap()]);
    let err = stderr(&o);
    // 75 (EX_TEMPFAIL): the mail system keeps the mail and retries.
    assert_eq!(o.status.code(), Some(75), "{err}");
    assert!(
        err.contains("gone.pw") && err.contains("No such file or directory"),
        "{err}"
    );
}

#[test]
fn a_picture_format_or_retention_that_means_nothing_is_refused() {
    refused(
        "picture-gif",
        "[report]\npicture = \"gif\"\n",
        &["report.picture", "\"gif\"", "\"png\""],
    );
    refused(
        "keep-zero",
        "[store]\nkeep-mail-days = 0\n",
        &["store.keep-mail-days", "0"],
    );
    refused(
        "keep-sent-zero",
        "[store]\nkeep-sent-days = 0\n",
        &["store.keep-sent-days", "0"],
    );
    refused(
        "vacuum-forever",
        "[store]\nvacuum-days = 40000\n",
        &["store.vacuum-days", "40000"],
    );
    accepted("picture-none", "[report]\npicture = \"none\"\n");
    accepted(
        "retention",
        "[store]\nkeep-mail-days = 14\nkeep-sent-days = 7\nvacuum-days = 1\n",
    );
}

#[test]
fn a_web_address_or_base_url_that_cannot_work_is_refused() {
    refused(
        "web-host-name",
        "[web]\naddress = \"localhost:8080\"\n",
        &[
            "web.address = \"localhost:8080\"",
            "not an IP address and port",
        ],
    );
    refused(
        "web-no-port",
        "[web]\naddress = \"127.0.0.1\"\n",
        &["web.address = \"127.0.0.1\"", "not an IP address and port"],
    );
    refused(
        "web-ftp",
        "[web]\nbase-url = \"ftp://example.org/\"\n",
        &[
            "web.base-url = \"ftp://example.org/\"",
            "http:// or https://",
        ],
    );
    refused(
        "web-no-host",
        "[web]\nbase-url = \"https:///games\"\n",
        &["web.base-url", "names no host"],
    );
    refused(
        "web-space",
        "[web]\nbase-url = \"https://example.org/my games/\"\n",
        &["web.base-url", "may not hold ' '"],
    );
    refused(
        "web-query",
        "[web]\nbase-url = \"https://example.org/?x=1\"\n",
        &["web.base-url", "may not hold '?'"],
    );
}

#[test]
fn the_summary_says_where_the_pages_are_served_and_linked() {
    // The address is bound for a moment: a free one.
    let free = |at: &str| {
        std::net::TcpListener::bind(at)
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
    };
    let port = free("127.0.0.1:0").unwrap();
    let out = accepted(
        "web-default",
        &format!("[web]\naddress = \"127.0.0.1:{port}\"\n"),
    );
    assert!(
        out.contains(&format!("web pages on 127.0.0.1:{port}")),
        "{out}"
    );
    // Only where IPv6's loopback is.
    if let Ok(port) = free("[::1]:0") {
        let out = accepted(
            "web-public",
            &format!(
                "[web]\naddress = \"[::1]:{port}\"\nbase-url = \"https://diplomacy.example.org/zj\"\n"
            ),
        );
        assert!(
            out.contains(&format!(
                "web pages on [::1]:{port}, linked as https://diplomacy.example.org/zj/"
            )),
            "{out}"
        );
    }
    let out = accepted("web-off", "[web]\nenabled = false\n");
    assert!(out.contains("web pages off"), "{out}");
}

/// A PostgreSQL store, as `[store]` with the password in `pg.pw` (written
/// into the test's directory by [`pg_case`]).
fn pg_store(url: &str) -> String {
    format!("[store]\nurl = \"{url}\"\npassword-file = \"pg.pw\"\n")
}

/// `check-config` on a PostgreSQL store, the password file holding
/// `password`: its output, exit code and standard error.
fn pg_case(name: &str, url: &str, password: &str) -> (Option<i32>, String, String) {
    let d = Dir::new(name);
    std::fs::write(d.path().join("pg.pw"), format!("{password}\n")).unwrap();
    let c = d.config(&pg_store(url));
    let o = zj(d.path(), &["check-config", "--config", c.to_str().unwrap()]);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr(&o),
    )
}

/// The cases: a store `run` cannot open is refused by
/// `check-config`, naming the key, the value and the database's words,
/// and `run` refuses it too, at once; one it can is accepted, and checking
/// changes nothing in it.
#[test]
fn a_postgres_store_that_cannot_be_used_is_refused_with_the_key_and_cause() {
    let Some(db) = PgServer::database_or_skip("config_check_postgres") else {
        return;
    };
    let url = db.url();

    // Accepted, and the check made no tables: the judge makes them at its
    // first start.
    let (code, out, err) = pg_case("pg-good", &url, PG_PASSWORD);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains(&format!("store {url};")), "{out}");
    assert_eq!(
        db.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
            .unwrap(),
        "0",
        "the check made tables"
    );

    // A wrong password: the password file is named.
    let (code, _, err) = pg_case("pg-password", &url, "not-the-password");
    assert_eq!(code, Some(1), "{err}");
    for want in [
        "store.password-file = \"pg.pw\"",
        "the database refused the login",
        "password authentication failed",
    ] {
        assert!(err.contains(want), "`{want}` missing from: {err}");
    }
    assert!(!err.contains("not-the-password"), "{err}");

    // Nothing listens on the port.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let nowhere = format!("postgres://zinejudge@127.0.0.1:{closed}/zinejudge");
    let (code, _, err) = pg_case("pg-port", &nowhere, PG_PASSWORD);
    assert_eq!(code, Some(1), "{err}");
    for want in [
        format!("store.url = \"{nowhere}\""),
        "cannot connect to the database".to_string(),
        "Connection refused".to_string(),
    ] {
        assert!(err.contains(&want), "`{want}` missing from: {err}");
    }

    // A role that may not make the schema (PostgreSQL 15 lets only the
    // database's owner create in it, or add the `citext` extension the
    // schema needs).
    db.psql(&format!(
        "CREATE ROLE weak LOGIN PASSWORD '{PG_PASSWORD}'; GRANT CONNECT ON DATABASE {} TO weak",
        db.name
    ))
    .unwrap();
    let (code, _, err) = pg_case("pg-schema", &db.url_as("weak"), PG_PASSWORD);
    assert_eq!(code, Some(1), "{err}");
    // With the extension there, the schema itself.
    db.psql("CREATE EXTENSION citext").unwrap();
    let (code, _, err2) = pg_case("pg-schema-2", &db.url_as("weak"), PG_PASSWORD);
    assert_eq!(code, Some(1), "{err2}");
    assert!(
        err2.contains("permission denied for schema public"),
        "{err2}"
    );
    db.psql("DROP EXTENSION citext").unwrap();
    for want in [
        "store.url = \"postgres://weak@",
        "the role cannot make or update the judge's tables",
        "permission denied to create extension \"citext\"",
    ] {
        assert!(err.contains(want), "`{want}` missing from: {err}");
    }

    // Tables made, but one privilege the judge needs withheld (the issue's
    // INSERT on the outbox, which once had every mail given up).
    drop(zinejudge::testing::store::Store::open(&db.location()).unwrap());
    db.role("weak").unwrap();
    let (code, _, err) = pg_case("pg-granted", &db.url_as("weak"), PG_PASSWORD);
    assert_eq!(code, Some(0), "{err}");
    db.psql("REVOKE INSERT ON outbox FROM weak").unwrap();
    let (code, _, err) = pg_case("pg-privilege", &db.url_as("weak"), PG_PASSWORD);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("the role may not INSERT the table outbox"),
        "{err}"
    );

    // `run` refuses the same, before starting anything.
    let d = Dir::new("pg-run");
    std::fs::write(d.path().join("pg.pw"), "not-the-password\n").unwrap();
    let c = d.config(&pg_store(&url));
    let o = zj(d.path(), &["run", "--config", c.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("password authentication failed"), "{err}");
}

/// An SQLite store newer than this program is refused by `check-config`
/// as by `run`, rather than accepted and then refused at start.
#[test]
fn an_sqlite_store_newer_than_the_program_is_refused() {
    let d = Dir::new("sqlite-newer");
    let path = d.path().join("store.sqlite");
    drop(zinejudge::testing::store::Store::open(&path).unwrap());
    let c = rusqlite::Connection::open(&path).unwrap();
    c.pragma_update(None, "user_version", 9999).unwrap();
    drop(c);
    let cfg = d.config(&format!("[store]\npath = \"{}\"\n", path.display()));
    let o = zj(
        d.path(),
        &["check-config", "--config", cfg.to_str().unwrap()],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("store.path") && err.contains("newer than this program"),
        "{err}"
    );
}

/// A server on 127.0.0.1 that takes every connection and never says a
/// word (hung, or a pooler queueing its clients): the connections are held
/// open until it is dropped.
struct Silent {
    port: u16,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Silent {
    fn start() -> Silent {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let halt = std::sync::Arc::clone(&stop);
        std::thread::spawn(move || {
            let mut held = Vec::new();
            for c in listener.incoming() {
                if halt.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
                if let Ok(c) = c {
                    held.push(c);
                }
            }
        });
        Silent { port, stop }
    }
}

impl Drop for Silent {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let _ = std::net::TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// The case (#53, #48): a PostgreSQL address that takes the
/// connection and never answers once held `check-config` for good (killed
/// at 70 s) and `run` too. Both now give up within 10 s, naming the key,
/// the address and the wait; this needs no PostgreSQL.
#[test]
fn a_store_that_takes_the_connection_and_never_answers_is_refused_within_10_s() {
    let silent = Silent::start();
    let url = format!("postgres://zinejudge@127.0.0.1:{}/zinejudge", silent.port);
    let d = Dir::new("pg-silent");
    std::fs::write(d.path().join("pg.pw"), "a-password\n").unwrap();
    let c = d.config(&pg_store(&url));
    let limit = std::time::Duration::from_secs(10);
    let o = zj_within(
        d.path(),
        &["check-config", "--config", c.to_str().unwrap()],
        limit,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "not refused within 10 s: {err}");
    for want in [
        format!("store.url = \"{url}\""),
        "cannot connect to the database".to_string(),
        format!(
            "the database server 127.0.0.1:{} did not answer within 5 s",
            silent.port
        ),
    ] {
        assert!(err.contains(&want), "`{want}` missing from: {err}");
    }
    // The judge's start gives up as soon.
    let d = Dir::new("pg-silent-run");
    std::fs::write(d.path().join("pg.pw"), "a-password\n").unwrap();
    let c = d.config(&pg_store(&url));
    let o = zj_within(d.path(), &["run", "--config", c.to_str().unwrap()], limit);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "did not stop within 10 s: {err}");
    assert!(
        err.contains(&format!("127.0.0.1:{} did not answer", silent.port)),
        "{err}"
    );
}

/// IMAP and SMTP settings for the test mail system (Dovecot's IMAPS,
/// Postfix's submission port with STARTTLS and AUTH), with these
/// passwords, mail into and out of nothing else.
fn servers_config(
    ms: &crate::support::MailSystem,
    imap_password: &str,
    smtp_password: &str,
) -> String {
    let p = ms.ports();
    let ca = ms.ca_cert_path().display().to_string();
    format!(
        "[inbound]\nsource = \"imap\"\n\
         [imap]\nhost = \"127.0.0.1\"\nport = {}\ntls = \"implicit\"\ntls-name = \"localhost\"\n\
         ca-file = \"{ca}\"\nuser = \"{user}\"\npassword = \"{imap_password}\"\n\
         [outbound]\nsink = \"smtp\"\n\
         [smtp]\nhost = \"127.0.0.1\"\nport = {}\ntls = \"starttls\"\ntls-name = \"localhost\"\n\
         ca-file = \"{ca}\"\nuser = \"{user}\"\npassword = \"{smtp_password}\"\n\
         [web]\nenabled = false\n",
        p.imaps,
        p.submission,
        user = crate::support::JUDGE_ADDRESS,
    )
}

/// `check-config` proves the logins against the real Dovecot and Postfix:
/// the right passwords pass; a wrong IMAP password (once the only sign at
/// run time a WARN retried for ever) and a wrong SMTP password are refused
/// naming the server and the login, and the password is never shown. The
/// judge started with the wrong IMAP password says so once, as an ERROR.
#[test]
fn check_config_logs_in_to_imap_and_smtp_with_the_configured_passwords() {
    use crate::support::{JUDGE_ADDRESS, JUDGE_PASSWORD, MailSystem};
    let Some(ms) = MailSystem::start_or_skip("config_check_logins") else {
        return;
    };
    let p = ms.ports();
    accepted(
        "logins-good",
        &servers_config(&ms, JUDGE_PASSWORD, JUDGE_PASSWORD),
    );
    let err = refused(
        "imap-wrong-password",
        &servers_config(&ms, "not-the-imap-password", JUDGE_PASSWORD),
        &[
            &format!("imap.user = \"{JUDGE_ADDRESS}\""),
            &format!(
                "the IMAP server 127.0.0.1:{} refused the login of {JUDGE_ADDRESS}",
                p.imaps
            ),
        ],
    );
    assert!(!err.contains("not-the-imap-password"), "{err}");
    let err = refused(
        "smtp-wrong-password",
        &servers_config(&ms, JUDGE_PASSWORD, "not-the-smtp-password"),
        &[
            &format!("smtp.user = \"{JUDGE_ADDRESS}\""),
            &format!(
                "the SMTP server 127.0.0.1:{} refused the login of {JUDGE_ADDRESS}",
                p.submission
            ),
        ],
    );
    assert!(!err.contains("not-the-smtp-password"), "{err}");

    // The judge itself starts (a mail server may be down at boot), and
    // says once, as an error, that the login is refused.
    let d = Dir::new("imap-wrong-run");
    let c = d.config(&format!(
        "{}[store]\npath = \"store.sqlite\"\n",
        servers_config(&ms, "not-the-imap-password", JUDGE_PASSWORD)
    ));
    let log = d.path().join("judge.log");
    let mut child = Command::new(crate::daemon_common::judge_bin())
        .args(["run", "--config", c.to_str().unwrap()])
        .current_dir(d.path())
        .env_remove("ZINEJUDGE_IMAP_PASSWORD")
        .env_remove("ZINEJUDGE_SMTP_PASSWORD")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let text = loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if text.contains("the IMAP login is refused") || std::time::Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let _ = child.kill();
    let _ = child.wait();
    let line = text
        .lines()
        .find(|l| l.contains("the IMAP login is refused"))
        .unwrap_or_else(|| panic!("no error about the login in:\n{text}"));
    assert!(line.contains("ERROR"), "{line}");
    assert!(
        line.contains(&format!("refused the login of {JUDGE_ADDRESS}")),
        "{line}"
    );
    assert!(!text.contains("not-the-imap-password"), "{text}");
}

/// A mail server that takes the connection and never answers is refused
/// within 5 s, naming the key and the server.
#[test]
fn a_mail_server_that_never_answers_is_refused_within_5_s_naming_it() {
    let silent = Silent::start();
    let imap = format!(
        "[inbound]\nsource = \"imap\"\n[imap]\nhost = \"127.0.0.1\"\nport = {}\n\
         tls = \"none\"\npassword = \"pw\"\n[web]\nenabled = false\n",
        silent.port
    );
    let started = std::time::Instant::now();
    refused(
        "imap-silent",
        &imap,
        &[
            "imap.host = \"127.0.0.1\"",
            &format!(
                "the IMAP server 127.0.0.1:{} did not answer within 5 s",
                silent.port
            ),
        ],
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(9));
    let smtp = format!(
        "[outbound]\nsink = \"smtp\"\n[smtp]\nhost = \"127.0.0.1\"\nport = {}\n\
         tls = \"none\"\n[web]\nenabled = false\n",
        silent.port
    );
    let started = std::time::Instant::now();
    refused(
        "smtp-silent",
        &smtp,
        &[
            "smtp.host = \"127.0.0.1\"",
            &format!(
                "the SMTP server 127.0.0.1:{} did not answer within 5 s",
                silent.port
            ),
        ],
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(9));
}

/// A web address something else listens on is refused; one a judge's
/// own pages answer on (a judge running there) is noted, not refused.
#[test]
fn a_web_address_in_use_is_refused_unless_a_judge_serves_it() {
    use std::io::{Read, Write};
    let busy = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port();
    // Something that is not the judge: it answers, but not with its pages.
    let answer = |page: &'static str| {
        let l = busy.try_clone().unwrap();
        std::thread::spawn(move || {
            for c in l.incoming().flatten().take(1) {
                let mut c = c;
                let mut buf = [0u8; 1024];
                let _ = c.read(&mut buf);
                let _ = write!(
                    c,
                    "HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n{page}"
                );
            }
        })
    };
    let other = answer("<html>some other server</html>");
    refused(
        "web-busy",
        &format!("[web]\naddress = \"127.0.0.1:{port}\"\n"),
        &[
            &format!("web.address = \"127.0.0.1:{port}\""),
            "cannot listen there",
            "in use",
        ],
    );
    let _ = other.join();
    let judge = answer(
        "<footer>Read-only pages of Judge, a play-by-email judge: orders, press and \
         every command go by mail</footer>",
    );
    let out = accepted(
        "web-judge",
        &format!("[web]\naddress = \"127.0.0.1:{port}\"\n"),
    );
    let _ = judge.join();
    assert!(
        out.contains(&format!(
            "web.address 127.0.0.1:{port} is in use by a judge's pages"
        )),
        "{out}"
    );
}
