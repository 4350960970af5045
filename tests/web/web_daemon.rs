//! The pages served by the real `zinejudge run`: the judge logs the address
//! it serves, the pages show what the judge has just done, results mails
//! link to the game's page under `web.base-url`, a reload serves the pages
//! again, a stop stops them, an address that is taken leaves the judge
//! handling mail all the same, and idle connections held up to the cap
//! leave the judge the files its mail needs, whatever its open-file limit.
//! Maildirs in, Maildirs out, 127.0.0.1 only.

use crate::web_support;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use web_support::{TempDir, get};

const BIN: &str = env!("CARGO_BIN_EXE_zinejudge");

/// `zinejudge run` in `dir`; killed on drop if still running.
struct Run {
    child: Child,
    log: std::path::PathBuf,
}

impl Run {
    fn start(dir: &Path, web: &str) -> Run {
        Run::start_with(dir, web, None)
    }

    /// The judge with its open-file limit (soft and hard) set to `files`,
    /// as `LimitNOFILE=` sets it.
    fn start_with(dir: &Path, web: &str, files: Option<u64>) -> Run {
        Run::start_bin(BIN, dir, web, files)
    }

    /// The same with the judge at `bin`.
    fn start_bin(bin: &str, dir: &Path, web: &str, files: Option<u64>) -> Run {
        std::fs::write(
            dir.join("zinejudge.toml"),
            format!(
                "[judge]\naddress = \"judge@example.test\"\nlog = \"info\"\n\n\
                 [trust]\nauthserv-id = \"{}\"\n\n[web]\n{web}",
                zinejudge::testing::trust::HARNESS_AUTHSERV_ID
            ),
        )
        .expect("config");
        let log = dir.join("judge.log");
        let mut cmd = Command::new(bin);
        if let Some(n) = files {
            use std::os::unix::process::CommandExt;
            // SAFETY: setrlimit is async-signal-safe, and the closure
            // touches nothing but its own copy of `n`.
            unsafe {
                cmd.pre_exec(move || {
                    let r = libc::rlimit {
                        rlim_cur: n,
                        rlim_max: n,
                    };
                    if libc::setrlimit(libc::RLIMIT_NOFILE, &r) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let child = cmd
            .args(["run", "--config", "zinejudge.toml"])
            .current_dir(dir)
            .env_remove("RUST_LOG")
            .env_remove("NOTIFY_SOCKET")
            .env_remove("WATCHDOG_USEC")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("log"))
            .spawn()
            .expect("start the judge");
        Run { child, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Wait until the log holds `n` lines with `needle`; the last one.
    fn wait_log(&self, needle: &str, n: usize) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let log = self.log();
            let lines: Vec<&str> = log.lines().filter(|l| l.contains(needle)).collect();
            if lines.len() >= n {
                return lines[n - 1].to_string();
            }
            assert!(
                Instant::now() < deadline,
                "no `{needle}` (x{n}) in the log:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The address of the `n`th "serving the game pages at" line.
    fn serving(&self, n: usize) -> std::net::SocketAddr {
        let line = self.wait_log("serving the game pages at http://", n);
        let url = line
            .split("serving the game pages at http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .expect("an address");
        url.parse().expect("IP:port")
    }

    fn signal(&self, sig: libc::c_int) {
        // SAFETY: kill has no memory-safety preconditions; the pid is an
        // unreaped child of ours.
        unsafe {
            libc::kill(self.child.id() as libc::pid_t, sig);
        }
    }

    fn wait_exit(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(s) = self.child.try_wait().expect("try_wait") {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "the judge did not stop:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Run {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Drop a mail into the judge's inbox.
fn deliver(dir: &Path, n: u32, from: &str, body: &str) {
    let new = dir.join("var/mail/inbox/new");
    std::fs::create_dir_all(&new).expect("inbox");
    // From a mailbox the judge's server authenticates.
    let raw = format!(
        "{}From: {from}\r\nTo: judge@example.test\r\nSubject: t{n}\r\nMessage-ID: <web-daemon-{n}-{}@example.test>\r\n\r\n{}\r\n",
        zinejudge::testing::trust::HARNESS_STAMP,
        std::process::id(),
        body.replace('\n', "\r\n")
    );
    let tmp = dir.join(format!("var/mail/inbox/tmp/{n}.eml"));
    std::fs::create_dir_all(tmp.parent().expect("tmp")).expect("tmp");
    std::fs::write(&tmp, raw).expect("write");
    std::fs::rename(&tmp, new.join(format!("{n}.eml"))).expect("deliver");
}

/// Mark `addresses` as confirmed in the store of the judge running in
/// `dir`: people who used the judge before, who count as wanting its mail.
fn confirmed(dir: &Path, addresses: &[&str]) {
    let path = dir.join("var/zinejudge.sqlite");
    wait_for("the store", || path.exists());
    let mut store = zinejudge::testing::store::Store::open(&path).expect("the store");
    for a in addresses {
        zinejudge::testing::store::confirm::set_confirmed(store.conn(), a, 0).expect("confirm");
    }
}

/// The mails in the judge's outbox: recipients, subject and text.
fn outbox(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for sub in ["new", "cur"] {
        if let Ok(rd) = std::fs::read_dir(dir.join("var/mail/outbox").join(sub)) {
            for e in rd.flatten() {
                let Ok(raw) = std::fs::read(e.path()) else {
                    continue;
                };
                let Some(m) = mail_parser::MessageParser::default().parse(&raw) else {
                    continue;
                };
                let to: Vec<String> = m
                    .to()
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| x.address())
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default();
                out.push(format!(
                    "To: {}\nSubject: {}\n\n{}",
                    to.join(", "),
                    m.subject().unwrap_or(""),
                    m.body_text(0).unwrap_or_default()
                ));
            }
        }
    }
    out
}

fn wait_for(what: &str, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !f() {
        assert!(Instant::now() < deadline, "waited in vain for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_judge_serves_the_pages_of_its_games_and_links_its_results_to_them() {
    let dir = TempDir::new("daemon");
    let mut run = Run::start(
        dir.path(),
        "address = \"127.0.0.1:0\"\nbase-url = \"https://diplomacy.example.test/zj\"\n",
    );
    let addr = run.serving(1);
    assert!(addr.ip().is_loopback(), "{addr}");
    let summary = run.wait_log("web pages on 127.0.0.1:0", 1);
    assert!(
        summary.contains("linked as https://diplomacy.example.test/zj/"),
        "{summary}"
    );
    let list = get(addr, "/");
    assert_eq!(list.status, 200);
    assert!(list.body.contains("No games yet"), "{}", list.body);

    let powers = [
        "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
    ];
    let players: Vec<String> = powers
        .iter()
        .map(|p| format!("{}@example.test", p.to_lowercase()))
        .chain(["gm@example.test".to_string()])
        .collect();
    confirmed(
        dir.path(),
        &players.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    // A game made by mail shows at once, linked under the base URL's path.
    deliver(
        dir.path(),
        1,
        "gm@example.test",
        "CREATE g1 standard gm-secret\nSET PRESS GREY",
    );
    wait_for("g1 on the list", || {
        get(addr, "/").body.contains("href=\"/zj/games/g1\"")
    });
    for (i, p) in powers.iter().enumerate() {
        deliver(
            dir.path(),
            10 + i as u32,
            &format!("{}@example.test", p.to_lowercase()),
            &format!("JOIN g1 pw-secret {p}"),
        );
    }
    deliver(
        dir.path(),
        20,
        "england@example.test",
        "SIGNON England g1 pw-secret\nF(Lon)-NTH\nBROADCAST\nHello, all.\nENDPRESS",
    );
    deliver(
        dir.path(),
        21,
        "gm@example.test",
        "SIGNON GM g1 gm-secret\nPROCESS",
    );
    // England's own copy: the results are written one reader at a time.
    wait_for("England's results", || {
        outbox(dir.path())
            .iter()
            .any(|m| m.contains("Spring 1901 results") && m.contains("To: england@example.test"))
    });
    let results: Vec<String> = outbox(dir.path())
        .into_iter()
        .filter(|m| m.contains("Spring 1901 results") && m.contains("To: england@example.test"))
        .collect();
    assert!(
        results
            .iter()
            .any(|m| m.contains("The game's page: https://diplomacy.example.test/zj/games/g1")),
        "{results:#?}"
    );
    let game = get(addr, "/games/g1");
    assert_eq!(game.status, 200);
    assert!(
        game.body.contains("<h2>Fall 1901 movement</h2>"),
        "{}",
        game.body
    );
    assert!(game.body.contains("Hello, all."), "{}", game.body);
    assert!(
        game.body.contains("href=\"/zj/games/g1/phases/S1901M\""),
        "{}",
        game.body
    );
    assert_eq!(get(addr, "/games/g1/phases/S1901M").status, 200);

    // A reload serves the pages again (port 0: a new port).
    run.signal(libc::SIGHUP);
    let again = run.serving(2);
    assert_eq!(get(again, "/games/g1").status, 200);

    // A stop stops them, cleanly.
    run.signal(libc::SIGTERM);
    let status = run.wait_exit();
    assert!(status.success(), "{status:?}\n{}", run.log());
    assert!(
        run.log().contains("stopped serving the game pages"),
        "{}",
        run.log()
    );
    assert!(std::net::TcpStream::connect(again).is_err(), "still served");
}

#[test]
fn an_address_that_is_taken_leaves_the_judge_handling_mail() {
    let dir = TempDir::new("taken");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = taken.local_addr().expect("address");
    let mut run = Run::start(dir.path(), &format!("address = \"{addr}\"\n"));
    let line = run.wait_log("cannot serve the game pages", 1);
    assert!(line.contains(&format!("http://{addr}/")), "{line}");
    // A warning that says what to change, not an error: the judge works.
    assert!(line.contains("WARN"), "{line}");
    assert!(
        line.contains("another program listens there") && line.contains("[web]"),
        "{line}"
    );
    deliver(dir.path(), 1, "someone@example.test", "HELP");
    wait_for("the HELP answer", || {
        outbox(dir.path())
            .iter()
            .any(|m| m.contains("someone@example.test"))
    });
    run.signal(libc::SIGTERM);
    assert!(run.wait_exit().success(), "{}", run.log());
    drop(taken);
}

#[test]
fn pages_switched_off_are_not_served() {
    let dir = TempDir::new("off");
    let probe = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = probe.local_addr().expect("address");
    drop(probe);
    let mut run = Run::start(
        dir.path(),
        &format!("enabled = false\naddress = \"{addr}\"\n"),
    );
    run.wait_log("web pages off", 1);
    deliver(dir.path(), 1, "someone@example.test", "HELP");
    wait_for("the HELP answer", || {
        outbox(dir.path())
            .iter()
            .any(|m| m.contains("someone@example.test"))
    });
    assert!(
        !run.log().contains("serving the game pages"),
        "{}",
        run.log()
    );
    assert!(std::net::TcpStream::connect(addr).is_err(), "served");
    run.signal(libc::SIGTERM);
    assert!(run.wait_exit().success());
}

/// Ask for `path` on a kept-alive connection; the answer's status, its
/// body read by its length. `None` if the connection is gone.
fn ask(s: &mut std::net::TcpStream, path: &str) -> Option<u16> {
    use std::io::{Read, Write};
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: judge\r\n\r\n").as_bytes())
        .ok()?;
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        let n = s.read(&mut chunk).ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
        let status: u16 = head.split(' ').nth(1)?.parse().ok()?;
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())?;
        while buf.len() < end + 4 + length {
            let n = s.read(&mut chunk).ok()?;
            if n == 0 {
                return None;
            }
            buf.extend_from_slice(&chunk[..n]);
        }
        return Some(status);
    }
}

/// The descriptors a process has open.
fn open_files(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count())
}

#[test]
fn idle_web_connections_leave_the_judge_the_files_its_mail_needs() {
    // 256 open files: 128 kept for the judge (Maildir mail) and 32 for
    // clients being turned away leave 96 web connections.
    const FILES: u64 = 256;
    const CAP: usize = 96;
    let dir = TempDir::new("files");
    let mut run = Run::start_with(dir.path(), "address = \"127.0.0.1:0\"\n", Some(FILES));
    let addr = run.serving(1);
    let line = run.wait_log("web connections capped at", 1);
    assert!(
        line.contains(&format!("capped at {CAP}, not 1024")) && line.contains("limit is 256"),
        "{line}"
    );
    // A client holding three times the cap in idle kept-alive connections,
    // each having asked once: those within the cap are served and kept,
    // the others are told 503 and closed, none waits. (A held connection
    // asks again every few seconds: the server closes one that stays
    // silent for 10.)
    let mut held: Vec<(std::net::TcpStream, Instant)> = Vec::new();
    let keep = |held: &mut Vec<(std::net::TcpStream, Instant)>, log: &dyn Fn() -> String| {
        for (s, asked) in held.iter_mut() {
            if asked.elapsed() > Duration::from_secs(3) {
                assert_eq!(ask(s, "/style.css"), Some(200), "{}", log());
                *asked = Instant::now();
            }
        }
    };
    let (mut served, mut refused) = (0, 0);
    for _ in 0..3 * CAP {
        let mut s = std::net::TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(30))).ok();
        match ask(&mut s, "/style.css") {
            Some(200) => {
                served += 1;
                held.push((s, Instant::now()));
            }
            Some(503) => refused += 1,
            other => panic!("a client got {other:?}:\n{}", run.log()),
        }
        keep(&mut held, &|| run.log());
    }
    assert_eq!(served, CAP, "{}", run.log());
    assert_eq!(refused, 2 * CAP);
    // A new client, while they are held: a 503 at once.
    let r = get(addr, "/");
    assert_eq!(r.status, 503, "{r:?}");
    assert_eq!(r.body, "Too busy: try again soon");
    // And a mail is answered meanwhile (the held connections asking again
    // now and then, as the server closes a connection idle for 10 s).
    deliver(dir.path(), 1, "someone@example.test", "HELP");
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut most = 0;
    while !outbox(dir.path())
        .iter()
        .any(|m| m.contains("someone@example.test"))
    {
        assert!(
            Instant::now() < deadline,
            "the mail was not answered:\n{}",
            run.log()
        );
        keep(&mut held, &|| run.log());
        most = most.max(open_files(run.child.id()));
        std::thread::sleep(Duration::from_millis(200));
    }
    eprintln!("the judge held at most {most} files of {FILES}");
    assert!(most < FILES as usize, "{most}");
    assert_eq!(get(addr, "/").status, 503);
    // Once they go, the pages are served to others again.
    drop(held);
    wait_for("the pages served again", || get(addr, "/").status == 200);
    let log = run.log();
    for fault in ["Too many open files", "os error 24"] {
        assert!(!log.contains(fault), "{log}");
    }
    // A reload reads the limit again.
    run.signal(libc::SIGHUP);
    let again = run.wait_log("web connections capped at", 2);
    assert!(again.contains(&format!("capped at {CAP}")), "{again}");
    run.signal(libc::SIGTERM);
    assert!(run.wait_exit().success(), "{}", run.log());
}

#[test]
fn the_gm_sets_how_many_readers_are_served_at_once() {
    // `[web] connections = 3`: three readers held on kept-alive
    // connections are served, the fourth is told 503 at once; once one
    // goes, the next is served.
    let dir = TempDir::new("conns");
    let mut run = Run::start_with(
        dir.path(),
        "address = \"127.0.0.1:0\"\nconnections = 3\n",
        None,
    );
    let addr = run.serving(1);
    let mut held = Vec::new();
    for _ in 0..3 {
        let mut s = std::net::TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(30))).ok();
        assert_eq!(ask(&mut s, "/style.css"), Some(200), "{}", run.log());
        held.push(s);
    }
    let r = get(addr, "/");
    assert_eq!(r.status, 503, "{r:?}");
    held.pop();
    wait_for("a reader served again", || get(addr, "/").status == 200);
    assert!(!run.log().contains("capped at"), "{}", run.log());
    run.signal(libc::SIGTERM);
    assert!(run.wait_exit().success(), "{}", run.log());
}

/// A process's memory figure from /proc (`VmHWM`, `VmRSS`: KiB), or
/// `Threads`.
fn status(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// The judge's memory while eight clients at once ask for the pages of a
/// game holding 100 broadcasts of 900 KB (once, eight such requests took
/// a judge to 1.42 GB): prints the peak (VmHWM) after each round.
///
///     cargo test --release --test web web_daemon -- --ignored --nocapture memory
///
/// `ZJ_WEB_JUDGE=/path/to/zinejudge` measures another build of the judge
/// (an older one, to compare).
#[test]
#[ignore = "a measurement: run by hand"]
fn memory_of_eight_concurrent_requests_for_a_game_of_huge_press() {
    let dir = TempDir::new("memory");
    let store = dir.path().join("var/zinejudge.sqlite");
    std::fs::create_dir_all(store.parent().expect("var")).expect("var");
    {
        let mut j = web_support::Judge::new(&store);
        web_support::standard_game(&mut j, "g1");
        j.sql(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
             INSERT INTO broadcast_press (game, phase, sender, body, created_at)
               SELECT 'g1', 'Winter 1901 adjustment', 'England',
                      printf('huge %03d ', i) || replace(hex(zeroblob(450000)), '0', 'x'),
                      1900000000 + i
               FROM n;",
        );
    }
    let bin = std::env::var("ZJ_WEB_JUDGE").unwrap_or_else(|_| BIN.to_string());
    let run = Run::start_bin(&bin, dir.path(), "address = \"127.0.0.1:0\"\n", None);
    let addr = run.serving(1);
    let pid = run.child.id();
    std::thread::sleep(Duration::from_secs(2));
    eprintln!(
        "{bin}: idle: VmRSS {} KiB, VmHWM {} KiB, {} threads",
        status(pid, "VmRSS"),
        status(pid, "VmHWM"),
        status(pid, "Threads")
    );
    let mut threads = 0;
    let mut answers_ok = true;
    for path in [
        "/games/g1",
        "/games/g1?tz=UTC",
        "/games/g1/feed.atom",
        "/games/g1/press?page=2",
        "/games/g1/press?page=3",
    ] {
        let answers: Vec<(u16, usize)> = std::thread::scope(|s| {
            let asks: Vec<_> = (0..8).map(|_| s.spawn(|| get(addr, path))).collect();
            for _ in 0..20 {
                threads = threads.max(status(pid, "Threads"));
                std::thread::sleep(Duration::from_millis(10));
            }
            asks.into_iter()
                .map(|a| {
                    let r = a.join().expect("a client");
                    (r.status, r.body.len())
                })
                .collect()
        });
        answers_ok &= answers.iter().all(|(status, _)| *status == 200);
        eprintln!(
            "{path}: 8 at once, answers (status, bytes) {answers:?}; VmRSS {} KiB, VmHWM {} KiB",
            status(pid, "VmRSS"),
            status(pid, "VmHWM")
        );
    }
    eprintln!("at most {threads} threads");
    assert!(
        answers_ok,
        "a page was not served: the judge's pages are not bounded"
    );
}
