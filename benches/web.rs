//! The game page under load: a judge's store holding 1,000 games (each a
//! standard game two moves in, with its history and press), served on
//! 127.0.0.1 by the page server as the daemon runs it, and 200 clients
//! asking for random games' pages over kept-alive connections for a fixed
//! time, as browsers ask (taking gzip). Prints requests per second and
//! the p50, p90, p99 and longest
//! latencies, with the page cache on (the server as shipped: a page is
//! made once per change of the store) and off (every request makes its
//! page: the store read, the map drawn, the template laid out).
//!
//!     cargo bench --bench web                      # 1,000 games, 200 clients, 10 s a run
//!     ZJ_WEB_BENCH="games=1000 clients=200 seconds=10" cargo bench --bench web
//!
//! The clients share the machine's cores with the server, as a load test
//! on one machine does; under `cargo test` it runs a few seconds on a
//! small store only, to check that it works.

#[path = "../tests/web_support/mod.rs"]
mod web_support;

use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use web_support::{Judge, Pages, TempDir, standard_game};

struct Setup {
    games: usize,
    clients: usize,
    seconds: u64,
}

fn setup() -> Setup {
    let bench = std::env::args().any(|a| a == "--bench");
    let mut s = if bench {
        Setup {
            games: 1000,
            clients: 200,
            seconds: 10,
        }
    } else {
        Setup {
            games: 20,
            clients: 10,
            seconds: 1,
        }
    };
    if let Ok(spec) = std::env::var("ZJ_WEB_BENCH") {
        for kv in spec.split_whitespace() {
            match kv.split_once('=') {
                Some(("games", n)) => s.games = n.parse().expect("games=N"),
                Some(("clients", n)) => s.clients = n.parse().expect("clients=N"),
                Some(("seconds", n)) => s.seconds = n.parse().expect("seconds=N"),
                _ => panic!("ZJ_WEB_BENCH: `{kv}`? (games=N clients=N seconds=N)"),
            }
        }
    }
    s
}

/// A store with `games` games: one played by mail, copied row by row.
fn store(dir: &std::path::Path, games: usize) -> std::path::PathBuf {
    let path = dir.join("store.sqlite");
    let mut j = Judge::new(&path);
    standard_game(&mut j, "g0000");
    j.sql(&format!(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {last})
         INSERT INTO games (name, variant, gm_address, gm_hash, status, settings, position, deadline, reminded, grace_noticed, result, created_at)
           SELECT printf('g%04d', i), variant, gm_address, gm_hash, status, settings, position, deadline, reminded, grace_noticed, result, created_at
           FROM games, n WHERE name = 'g0000';
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {last})
         INSERT INTO seats (game, power, address, hash, status, name)
           SELECT printf('g%04d', i), power, address, hash, status, name FROM seats, n WHERE game = 'g0000';
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {last})
         INSERT INTO history (game, seq, phase, kind, position, orders, report, created_at)
           SELECT printf('g%04d', i), seq, phase, kind, position, orders, report, created_at FROM history, n WHERE game = 'g0000';
         WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {last})
         INSERT INTO broadcast_press (game, phase, sender, body, created_at)
           SELECT printf('g%04d', i), phase, sender, body, created_at FROM broadcast_press, n WHERE game = 'g0000';",
        last = games.saturating_sub(1)
    ));
    path
}

/// One kept-alive connection asking for random games until `until`;
/// the latency of each answer.
async fn client(addr: SocketAddr, games: usize, until: Instant) -> Vec<Duration> {
    let mut out = Vec::new();
    let Ok(mut s) = tokio::net::TcpStream::connect(addr).await else {
        return out;
    };
    let _ = s.set_nodelay(true);
    let mut buf = Vec::with_capacity(256 * 1024);
    let mut chunk = vec![0u8; 64 * 1024];
    while Instant::now() < until {
        let path = format!("/games/g{:04}", fastrand::usize(..games));
        let t = Instant::now();
        // As a browser asks (it takes gzip).
        let req = format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept-Encoding: gzip, deflate, br\r\n\r\n"
        );
        if s.write_all(req.as_bytes()).await.is_err() {
            break;
        }
        buf.clear();
        // The head, then as many bytes as it says.
        let (head_end, length) = loop {
            let n = match s.read(&mut chunk).await {
                Ok(0) | Err(_) => return out,
                Ok(n) => n,
            };
            buf.extend_from_slice(&chunk[..n]);
            if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buf[..i]).to_ascii_lowercase();
                assert!(head.starts_with("http/1.1 200"), "{head}");
                let len = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse::<usize>().ok())
                    .expect("a Content-Length");
                break (i + 4, len);
            }
        };
        while buf.len() < head_end + length {
            let n = match s.read(&mut chunk).await {
                Ok(0) | Err(_) => return out,
                Ok(n) => n,
            };
            buf.extend_from_slice(&chunk[..n]);
        }
        out.push(t.elapsed());
    }
    out
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn run(s: &Setup, store: &std::path::Path, cache: bool) {
    let pages = Pages::with(store, zinejudge::testing::web::Limits::default(), cache);
    let addr = pages.addr;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    if cache {
        // Every page made once, as readers over a day would.
        for i in 0..s.games {
            let r = pages.get(&format!("/games/g{i:04}"));
            assert_eq!(r.status, 200);
        }
    }
    let t0 = Instant::now();
    let until = t0 + Duration::from_secs(s.seconds);
    let mut all: Vec<Duration> = rt.block_on(async {
        let tasks: Vec<_> = (0..s.clients)
            .map(|_| tokio::spawn(client(addr, s.games, until)))
            .collect();
        let mut all = Vec::new();
        for t in tasks {
            all.extend(t.await.expect("a client"));
        }
        all
    });
    let took = t0.elapsed();
    all.sort();
    println!(
        "web: game page, {} games, {} clients, cache {}: {} requests in {:.1} s ({:.0}/s); p50 {}, p90 {}, p99 {}, max {}",
        s.games,
        s.clients,
        if cache { "on" } else { "off" },
        all.len(),
        took.as_secs_f64(),
        all.len() as f64 / took.as_secs_f64(),
        ms(percentile(&all, 0.50)),
        ms(percentile(&all, 0.90)),
        ms(percentile(&all, 0.99)),
        ms(all.last().copied().unwrap_or_default()),
    );
    assert!(!all.is_empty(), "no request was answered");
}

fn main() {
    let s = setup();
    let dir = TempDir::new("bench");
    let t = Instant::now();
    let path = store(dir.path(), s.games);
    eprintln!(
        "web: a store of {} games made in {:.1} s",
        s.games,
        t.elapsed().as_secs_f64()
    );
    run(&s, &path, true);
    run(&s, &path, false);
}
