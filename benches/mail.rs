//! A whole mail through the processor (criterion): what one hostile mail
//! can cost. `cargo bench --bench mail`.
//!
//! - `signon_flood_1mb`: a 1 MB mail of SIGNON lines for every power of a
//!   running game with wrong passwords, from a new address each time and
//!   with no seat locked yet (the worst case: the most password checks a
//!   mail may cause).
//! - `orders_mail`: a player's ordinary mail (SIGNON and seven orders).
//! - `html_1mb/*`: an HTML-only mail of 1 MB (the largest the judge reads)
//!   through the same path (`mail::read`, the HTML turned into text, the
//!   command reader, the answer queued), one for each shape tried as the
//!   slowest: nesting 125,000 deep (`ul_li`, `div`, `table`), unclosed
//!   inline tags, one tag of 80,000 attributes, entities, entity names
//!   that almost match, stray end tags, `</scrip>` inside a script,
//!   dashes in a comment, lines under a thousand nested quotes, 77,000
//!   lines, lines of entities, a sign-on and 40,000 orders, 25,000 sign-on
//!   guesses. The slowest are the ones with the most lines (the command
//!   reader, not the HTML): `lines` and `signon_guesses`, about 0.3 s on
//!   a loaded 2-core machine; the nesting that took 75 s for 480 KB with
//!   html2text takes 20 ms. README "What the judge promises" gives the
//!   figure.

use criterion::{Criterion, criterion_group, criterion_main};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use zinejudge::testing::commands::Judge;
use zinejudge::testing::daemon::process::{Limits, Processor};
use zinejudge::testing::mail::Identity;
use zinejudge::testing::store::Store;

const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

struct World {
    p: Processor,
    now: SystemTime,
    serial: u64,
}

impl World {
    /// Process one raw mail (headers from `from`, then `rest`: more
    /// headers, a blank line and the body) through the daemon's path;
    /// returns its note.
    fn raw(&mut self, from: &str, rest: &[u8]) -> String {
        self.serial += 1;
        let id = format!("b{}@bench.test", self.serial);
        let mut raw = format!("From: {from}\r\nMessage-ID: <{id}>\r\n").into_bytes();
        raw.extend_from_slice(rest);
        let t = zinejudge::testing::daemon::process::unix(self.now);
        self.p
            .store
            .insert_inbound(&id, "bench", &raw, raw.len() as i64, false, t)
            .expect("store");
        self.p
            .process_next(self.now)
            .expect("process")
            .expect("a mail")
            .note
    }

    fn mail(&mut self, from: &str, body: &str) -> usize {
        self.serial += 1;
        let id = format!("b{}@bench.test", self.serial);
        let raw = format!("From: {from}\r\nMessage-ID: <{id}>\r\n\r\n{body}\r\n");
        let t = zinejudge::testing::daemon::process::unix(self.now);
        self.p
            .store
            .insert_inbound(&id, "bench", raw.as_bytes(), raw.len() as i64, false, t)
            .expect("store");
        let done = self
            .p
            .process_next(self.now)
            .expect("process")
            .expect("a mail");
        done.replies
    }
}

fn world() -> World {
    let p = Processor::new(
        Store::in_memory().expect("store"),
        Box::new(Judge::new("zinejudge", "UTC")),
        Identity {
            address: "judge@bench.test".into(),
            name: "zinejudge".into(),
            domain: "bench.test".into(),
        },
        Limits::default(),
    );
    let mut w = World {
        p,
        now: UNIX_EPOCH + Duration::from_secs(1_830_340_800),
        serial: 0,
    };
    w.mail("gm@bench.test", "CREATE b standard gm-secret");
    for pw in POWERS {
        w.mail(
            &format!("{}@bench.test", pw.to_ascii_lowercase()),
            &format!("JOIN b pw-{pw} {pw}"),
        );
    }
    w
}

/// `unit` repeated to make about `bytes` bytes, then `end`.
fn fill(start: &str, unit: &str, end: &str, bytes: usize) -> String {
    let n = (bytes - start.len() - end.len()) / unit.len();
    format!("{start}{}{end}", unit.repeat(n))
}

/// HTML bodies of 1 MB (the largest mail the judge reads, with its
/// header), each of a shape meant to be slow to turn into text.
fn html_shapes() -> Vec<(&'static str, String)> {
    let size = 1_000_000 - 200;
    let attrs: String = (0..size / 12).map(|i| format!(" a{i:06}=\"x\"")).collect();
    vec![
        ("ul_li", fill("", "<ul><li>", "LIST", size)),
        ("div", fill("", "<div>", "LIST", size)),
        ("table", fill("", "<table><tr><td>", "LIST", size)),
        (
            "unclosed_inline",
            fill("", "<b><i><font color=red>", "LIST", size),
        ),
        (
            "attributes",
            format!("<div{}>LIST</div>", &attrs[..size - 20]),
        ),
        (
            "entities",
            fill(
                "",
                "&amp;&lt;&eacute;&#x1F600;&#128512;&nbsp;",
                "LIST",
                size,
            ),
        ),
        (
            "entity_near_miss",
            fill("", "&CounterClockwiseContourIntegra ", "LIST", size),
        ),
        ("end_tags", fill("", "</div></li>", "LIST", size)),
        (
            "script_near_ends",
            fill("<script>", "</scrip>", "</script>LIST", size),
        ),
        ("comment_dashes", fill("<!--", "- -", "-->LIST", size)),
        (
            "quoted_lines",
            fill(&"<blockquote>".repeat(1000), "x<br>", "", size),
        ),
        ("lines", fill("", "F Lon-ENG<br>", "", size)),
        ("entity_lines", fill("", "F&nbsp;Lon&#45;ENG<br>", "", size)),
        (
            "signed_on_orders",
            fill(
                "<div>SIGNON England b pw-England</div>",
                "<div>F Lon-ENG</div>",
                "",
                size,
            ),
        ),
        ("signon_guesses", {
            let mut s = String::new();
            let mut i = 0;
            while s.len() < size - 60 {
                s.push_str(&format!("<div>SIGNON {} b guess{i}</div>", POWERS[i % 7]));
                i += 1;
            }
            s
        }),
    ]
}

fn bench_html(c: &mut Criterion) {
    let mut w = world();
    let mut g = c.benchmark_group("html_1mb");
    g.sample_size(10);
    for (name, html) in html_shapes() {
        let rest = format!(
            "Subject: html\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{html}\r\n"
        );
        assert!(rest.len() < 1_000_000 - 60, "{name}: {}", rest.len());
        g.bench_function(name, |b| {
            b.iter(|| {
                // No seat locked yet: every mail may cause its checks.
                w.p.store
                    .conn()
                    .execute("DELETE FROM signon_failures", &[])
                    .expect("reset");
                let from = format!("h{}@bench.test", w.serial);
                let note = w.raw(&from, rest.as_bytes());
                assert!(!note.starts_with("failed"), "{name}: {note}");
                note
            })
        });
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    let mut w = world();
    let mut flood = String::new();
    let mut i = 0;
    while flood.len() < 1_000_000 {
        flood.push_str(&format!("SIGNON {} b guess{i}\n", POWERS[i % 7]));
        i += 1;
    }
    let mut g = c.benchmark_group("mail");
    g.sample_size(10);
    g.bench_function("signon_flood_1mb", |b| {
        b.iter(|| {
            // No seat locked yet: every mail may cause its checks.
            w.p.store
                .conn()
                .execute("DELETE FROM signon_failures", &[])
                .expect("reset");
            let from = format!("eve{}@bench.test", w.serial);
            let n = w.mail(&from, &flood);
            assert!(n >= 1, "the flood was read and answered");
            n
        })
    });
    g.bench_function("orders_mail", |b| {
        b.iter(|| {
            w.now += Duration::from_secs(60);
            w.mail(
                "england@bench.test",
                "SIGNON England b pw-England\nF Lon-ENG\nF Edi-NTH\nA Lvp-Yor",
            )
        })
    });
    g.finish();
}

criterion_group!(benches, bench, bench_html);
criterion_main!(benches);
