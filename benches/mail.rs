//! A whole mail through the processor (criterion): what one hostile mail
//! can cost. `cargo bench --bench mail`.
//!
//! - `signon_flood_1mb`: a 1 MB mail of SIGNON lines for every power of a
//!   running game with wrong passwords, from a new address each time and
//!   with no seat locked yet (the worst case: the most password checks a
//!   mail may cause).
//! - `orders_mail`: a player's ordinary mail (SIGNON and seven orders).

use criterion::{Criterion, criterion_group, criterion_main};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use zinejudge::commands::Judge;
use zinejudge::daemon::process::{Limits, Processor};
use zinejudge::mail::Identity;
use zinejudge::store::Store;

const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

struct World {
    p: Processor,
    now: SystemTime,
    serial: u64,
}

impl World {
    fn mail(&mut self, from: &str, body: &str) -> usize {
        self.serial += 1;
        let id = format!("b{}@bench.test", self.serial);
        let raw = format!("From: {from}\r\nMessage-ID: <{id}>\r\n\r\n{body}\r\n");
        let t = zinejudge::daemon::process::unix(self.now);
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

criterion_group!(benches, bench);
criterion_main!(benches);
