//! Shared set-up for the web page tests and the web bench: a judge with a
//! store on disk, games played into it by mail through the real processor,
//! the page server on 127.0.0.1 in a runtime of its own, and a small HTTP
//! client that shows the bytes as a browser gets them.

#![allow(dead_code)]

use mail_parser::MimeHeaders;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};
use zinejudge::testing::commands::Judge as Commands;
use zinejudge::testing::daemon::process::{Limits, Processor};
use zinejudge::testing::mail::Identity;
use zinejudge::testing::store::Store;
use zinejudge::testing::web::{Options, Server};

/// The seven powers of the standard game.
pub const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

/// Where the results mails link to in these tests.
pub const BASE: &str = "http://127.0.0.1:8080/";

/// A directory under the system's temporary directory, removed on drop
/// unless the test failed.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh directory named after `label`.
    pub fn new(label: &str) -> TempDir {
        static SEQ: AtomicU64 = AtomicU64::new(0);
        let d = std::env::temp_dir().join(format!(
            "zj-web-{label}-{}-{}",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temporary directory");
        TempDir(d)
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("test files kept in {}", self.0.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A mail the judge sent.
#[derive(Debug, Clone)]
pub struct Sent {
    pub to: Vec<String>,
    pub subject: String,
    pub body: String,
    /// Attachments: (file name, bytes).
    pub attachments: Vec<(String, Vec<u8>)>,
}

impl Sent {
    pub fn to_has(&self, addr: &str) -> bool {
        self.to.iter().any(|t| t.eq_ignore_ascii_case(addr))
    }

    /// The text without the judge's signature (after `-- `): what a page
    /// shows of a results mail.
    pub fn text(&self) -> &str {
        self.body
            .rfind("\n-- \n")
            .map_or(self.body.as_str(), |i| &self.body[..i])
    }
}

/// The judge over a store on disk (or on a PostgreSQL server), fed mail
/// by the test.
pub struct Judge {
    pub processor: Processor,
    serial: u32,
    seen: i64,
}

impl Judge {
    /// A judge whose results mails link under [`BASE`].
    pub fn new(store: &Path) -> Judge {
        Judge::at(&zinejudge::testing::store::Location::Sqlite(
            store.to_path_buf(),
        ))
    }

    /// The same over the store at `store`.
    pub fn at(store: &zinejudge::testing::store::Location) -> Judge {
        let mut commands = Commands::new("zinejudge", "UTC");
        commands.templates.link_pages(Some(BASE));
        Judge {
            processor: Processor::new(
                Store::open(store).expect("store"),
                Box::new(commands),
                Identity {
                    address: "judge@example.test".into(),
                    name: "zinejudge".into(),
                    domain: "example.test".into(),
                },
                Limits {
                    trust: zinejudge::testing::trust::harness_policy(),
                    ..Limits::default()
                },
            ),
            serial: 0,
            seen: 0,
        }
    }

    /// Mail `body` from `from`; every mail the judge sent since.
    pub fn mail(&mut self, from: &str, body: &str) -> Vec<Sent> {
        self.serial += 1;
        let id = format!("w{}-{}@example.test", self.serial, std::process::id());
        // The people of these games write from mailboxes the judge's
        // server authenticates.
        let stamp = zinejudge::testing::trust::HARNESS_STAMP;
        let raw = format!(
            "{stamp}From: {from}\r\nTo: judge@example.test\r\nSubject: test {}\r\nMessage-ID: <{id}>\r\n\r\n{}\r\n",
            self.serial,
            body.replace('\n', "\r\n")
        );
        let now = SystemTime::now();
        let unix = now
            .duration_since(SystemTime::UNIX_EPOCH)
            .expect("clock")
            .as_secs() as i64;
        // And they have used the judge before.
        zinejudge::testing::store::confirm::set_confirmed(self.processor.store.conn(), from, 0)
            .expect("confirm");
        self.processor
            .store
            .insert_inbound(&id, "test", raw.as_bytes(), raw.len() as i64, false, unix)
            .expect("store a mail");
        while self.processor.process_next(now).expect("process").is_some() {}
        self.sent()
    }

    /// Mails queued since the last look.
    pub fn sent(&mut self) -> Vec<Sent> {
        let all = self
            .processor
            .store
            .due_outbox(i64::MAX, 100_000)
            .expect("outbox");
        let mut out = Vec::new();
        for m in all {
            if m.id <= self.seen {
                continue;
            }
            self.seen = m.id;
            let p = mail_parser::MessageParser::default()
                .parse(&m.raw)
                .expect("a mail");
            out.push(Sent {
                to: m.recipients.clone(),
                subject: p.subject().unwrap_or("").to_string(),
                body: p
                    .body_text(0)
                    .map(|b| b.replace("\r\n", "\n"))
                    .unwrap_or_default(),
                attachments: p
                    .attachments()
                    .map(|a| {
                        (
                            a.attachment_name().unwrap_or("").to_string(),
                            a.contents().to_vec(),
                        )
                    })
                    .collect(),
            });
        }
        out
    }

    /// Run `sql` on the store (what no command does yet: display names,
    /// rows a hostile hand wrote).
    pub fn sql(&mut self, sql: &str) {
        self.processor
            .store
            .conn()
            .execute_batch(sql)
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
}

pub fn addr(p: &str) -> String {
    format!("{}@example.test", p.to_lowercase().replace(' ', "-"))
}

/// The results mail of `subject_part` sent to `to`.
pub fn results_for<'a>(sent: &'a [Sent], to: &str, subject_part: &str) -> &'a Sent {
    sent.iter()
        .find(|m| m.to_has(to) && m.subject.contains(subject_part))
        .unwrap_or_else(|| panic!("no mail `{subject_part}` to {to}: {sent:#?}"))
}

/// A standard game `name` two moves in: seven players (England and France
/// with display names, France's a hostile one), an observer, press signed,
/// grey and private, Spring and Fall 1901 played; now Winter 1901.
/// Returns every mail sent by the two phases' processing.
pub fn standard_game(j: &mut Judge, name: &str) -> Vec<Sent> {
    let gm = "gm@example.test";
    let r = j.mail(
        gm,
        &format!("CREATE {name} standard gm-secret\nSET PRESS GREY\nSET TIMEZONE Europe/London"),
    );
    assert!(
        r.iter()
            .any(|m| m.body.contains(&format!("Created {name}"))),
        "{r:#?}"
    );
    for p in POWERS {
        j.mail(&addr(p), &format!("JOIN {name} pw-{p} {p}"));
    }
    j.mail("watcher@example.test", &format!("OBSERVE {name}"));
    j.sql(&format!(
        "UPDATE seats SET name = 'Alice Liddell' WHERE game = '{name}' AND power = 1;
         UPDATE seats SET name = '<b>Bob</b> & \"Co\" <script>alert(1)</script>' WHERE game = '{name}' AND power = 2;"
    ));
    let sent = j.mail(
        &addr("England"),
        &format!(
            "SIGNON England {name} pw-England\nBROADCAST\nGreetings from London to <all> & sundry.\nENDPRESS\n\
             PRESS TO France\nA private word: shall we split the Channel?\nENDPRESS\n\
             BROADCAST GREY\nSomebody is lying <script>alert('grey')</script>\nENDPRESS"
        ),
    );
    assert!(
        sent.iter().any(|m| m.body.contains("A private word")),
        "private press went: {sent:#?}"
    );
    let spring: &[(&str, &str)] = &[
        ("England", "F(Lon)-NTH\nF(Edi)-NWG\nA(Lvp)-Yor"),
        ("France", "A(Par)-Bur\nA(Mar)-Spa\nF(Bre)-MAO"),
        ("Germany", "A(Ber)-Kie\nA(Mun)-Ruh\nF(Kie)-Den"),
        ("Italy", "A(Ven)-Pie\nA(Rom)-Apu\nF(Nap)-ION"),
        ("Austria", "A(Vie)-Gal\nA(Bud)-Ser\nF(Tri)-Alb"),
        (
            "Russia",
            "A(Mos)-Ukr\nA(War)-Gal\nF(Sev)-BLA\nF(StP/sc)-BOT",
        ),
        ("Turkey", "A(Con)-Bul\nA(Smy)-Con\nF(Ank)-BLA"),
    ];
    // Every power's orders complete: the last mail plays the Spring.
    let mut all = Vec::new();
    for (p, o) in spring {
        all.extend(j.mail(&addr(p), &format!("SIGNON {p} {name} pw-{p}\n{o}")));
    }
    assert!(
        all.iter().any(|m| m.subject.contains("Spring 1901")),
        "Spring 1901 was played: {all:#?}"
    );
    let fall: &[(&str, &str)] = &[
        ("England", "F(NTH)-Nwy\nF(NWG) S F(NTH)-Nwy\nA(Yor)-Lon"),
        ("France", "A(Bur)-Bel\nA(Spa)-Por\nF(MAO)-Spa/sc"),
        ("Germany", "A(Kie)-Hol\nF(Den) H\nA(Ruh) S A(Kie)-Hol"),
    ];
    for (p, o) in fall {
        j.mail(&addr(p), &format!("SIGNON {p} {name} pw-{p}\n{o}"));
    }
    all.extend(j.mail(gm, &format!("SIGNON GM {name} gm-secret\nPROCESS")));
    assert!(
        all.iter().any(|m| m.subject.contains("Fall 1901")),
        "Fall 1901 was played: {all:#?}"
    );
    all
}

/// The powers of 1066, with their addresses' names.
pub const POWERS_1066: [(&str, &str); 7] = [
    ("william", "Duke William"),
    ("harald", "Harald Hardrada"),
    ("harold", "Harold Godwinson"),
    ("norse", "The Norse"),
    ("earls", "The Northern Earls"),
    ("scots", "The Scots"),
    ("welsh", "The Welsh"),
];

/// A 1066 game `name` in its second move (April 1066): in March Harald's
/// A/Fs went from his box into Oceanus Germanicus and the Wash, hidden from
/// everyone but him and the GM, and two wait in his box. Returns the
/// March results mails.
pub fn hastings(j: &mut Judge, name: &str) -> Vec<Sent> {
    let gm = "gm@example.test";
    j.mail(gm, &format!("CREATE {name} 1066 gm-secret"));
    for (who, pw) in POWERS_1066 {
        j.mail(
            &format!("{who}@example.test"),
            &format!("JOIN {name} pw-secret {pw}"),
        );
    }
    j.mail("watcher@example.test", &format!("OBSERVE {name}"));
    j.mail(gm, &format!("SIGNON GM {name} gm-secret\nSTART"));
    j.mail(
        "harald@example.test",
        &format!("SIGNON Harald {name} pw-secret\nA/F(GER)-WAS\nA/F(WAS)-GER"),
    );
    j.mail(
        "william@example.test",
        &format!("SIGNON William {name} pw-secret\nA(SOD)-Has"),
    );
    let sent = j.mail(gm, &format!("SIGNON GM {name} gm-secret\nPROCESS"));
    let gm_copy = results_for(&sent, gm, "March 1066");
    assert!(
        gm_copy.body.contains("A/F(GER)-WAS"),
        "the GM sees Harald's moves: {}",
        gm_copy.body
    );
    sent
}

/// The page server on 127.0.0.1, in a runtime of its own.
pub struct Pages {
    rt: Option<tokio::runtime::Runtime>,
    server: Option<Server>,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Pages {
    /// Serve `store` with the default limits.
    pub fn start(store: &Path) -> Pages {
        Pages::with(store, zinejudge::testing::web::Limits::default(), true)
    }

    /// Serve `store` with `limits`, caching pages or not.
    pub fn with(store: &Path, limits: zinejudge::testing::web::Limits, cache: bool) -> Pages {
        Pages::over(store.to_path_buf().into(), limits, cache)
    }

    /// Serve the store at `store` (SQLite or PostgreSQL).
    pub fn over(
        store: zinejudge::testing::store::Location,
        limits: zinejudge::testing::web::Limits,
        cache: bool,
    ) -> Pages {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let options = Options {
            store,
            judge: "zinejudge".into(),
            base_url: Some(BASE.into()),
            cache,
            limits,
            variants: Vec::new(),
        };
        let server = rt.block_on(async {
            let l = zinejudge::testing::web::bind("127.0.0.1:0".parse().expect("address"))
                .expect("bind 127.0.0.1");
            Server::spawn(l, options)
        });
        let addr = server.address().expect("an address");
        Pages {
            rt: Some(rt),
            server: Some(server),
            addr,
        }
    }

    /// `http://127.0.0.1:PORT` and `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// GET `path`.
    pub fn get(&self, path: &str) -> Response {
        get(self.addr, path)
    }
}

impl Drop for Pages {
    fn drop(&mut self) {
        if let (Some(rt), Some(s)) = (self.rt.as_ref(), self.server.take()) {
            rt.block_on(s.stop());
        }
        if let Some(rt) = self.rt.take() {
            rt.shutdown_timeout(Duration::from_secs(5));
        }
    }
}

/// An HTTP answer.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Send `request` as it is, read the answer to the end.
pub fn raw(addr: SocketAddr, request: &[u8]) -> Response {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).ok();
    s.write_all(request).expect("send");
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).expect("read");
    parse(&buf).unwrap_or_else(|| panic!("not HTTP: {}", String::from_utf8_lossy(&buf)))
}

/// GET `path` (a new connection, closed after).
pub fn get(addr: SocketAddr, path: &str) -> Response {
    raw(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

/// Read an HTTP/1.1 answer (whole body, or chunked).
pub fn parse(buf: &[u8]) -> Option<Response> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = std::str::from_utf8(&buf[..end]).ok()?;
    let mut lines = head.split("\r\n");
    let status: u16 = lines.next()?.split(' ').nth(1)?.parse().ok()?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = buf[end + 4..].to_vec();
    if headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"))
    {
        let mut out = Vec::new();
        let mut rest = &body[..];
        loop {
            let nl = rest.windows(2).position(|w| w == b"\r\n")?;
            let size =
                usize::from_str_radix(std::str::from_utf8(&rest[..nl]).ok()?.trim(), 16).ok()?;
            if size == 0 {
                break;
            }
            out.extend_from_slice(rest.get(nl + 2..nl + 2 + size)?);
            rest = rest.get(nl + 4 + size..)?;
        }
        body = out;
    }
    Some(Response {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    })
}

/// Text as HTML writes it back (the entities minijinja writes).
pub fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#x27;", "'")
        .replace("&#x2f;", "/")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// The text between `start` (exclusive) and the next `end`.
pub fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let i = s.find(start)? + start.len();
    let j = s[i..].find(end)? + i;
    Some(&s[i..j])
}

/// The href of the first link whose text is `text`.
pub fn link_to<'a>(page: &'a str, text: &str) -> Option<&'a str> {
    let at = page.find(&format!(">{text}</a>"))?;
    let open = page[..at].rfind("<a ")?;
    between(&page[open..at], "href=\"", "\"")
}
