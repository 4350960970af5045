//! A minimal SMTP server on 127.0.0.1 that keeps what it is given: it
//! stands for the players' own mail providers, to which a deployed judge's
//! Postfix relays the answers. Postfix relays to it like to any server
//! (`smtp` transport, see [`crate::support::MailSystem::start_relaying`]),
//! so the answers still leave through the real Postfix; only their
//! delivery into mailboxes on the judge's machine is not done.
//!
//! Plain SMTP (no TLS, no AUTH), PIPELINING and 8BITMIME announced; the
//! messages are kept in memory with their recipients.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// A message the sink took.
#[derive(Clone, Debug)]
pub struct Taken {
    /// The envelope recipients.
    pub recipients: Vec<String>,
    /// The message, dot-unstuffed, as Postfix sent it.
    pub raw: Vec<u8>,
}

#[derive(Default)]
struct Shared {
    taken: Mutex<Vec<Taken>>,
    count: AtomicUsize,
    stop: AtomicBool,
}

/// The running sink; stops when dropped.
pub struct SmtpSink {
    port: u16,
    shared: Arc<Shared>,
}

impl SmtpSink {
    /// Listen on 127.0.0.1 on a port the system picks.
    pub fn start() -> std::io::Result<SmtpSink> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let port = listener.local_addr()?.port();
        let shared = Arc::new(Shared::default());
        let s = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("smtp-sink".into())
            .spawn(move || {
                for conn in listener.incoming() {
                    if s.stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let Ok(conn) = conn else { continue };
                    let s = Arc::clone(&s);
                    let _ = std::thread::Builder::new()
                        .name("smtp-sink-conn".into())
                        .spawn(move || {
                            let _ = session(conn, &s);
                        });
                }
            })?;
        Ok(SmtpSink { port, shared })
    }

    /// The port it listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// How many messages it took.
    pub fn count(&self) -> usize {
        self.shared.count.load(Ordering::Relaxed)
    }

    /// The messages it took, in order.
    pub fn taken(&self) -> Vec<Taken> {
        self.shared
            .taken
            .lock()
            .map(|t| t.clone())
            .unwrap_or_default()
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        // Wake the accept loop so that it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn session(conn: TcpStream, shared: &Shared) -> std::io::Result<()> {
    let mut out = conn.try_clone()?;
    let mut input = BufReader::new(conn);
    out.write_all(b"220 sink.example.test ESMTP test sink\r\n")?;
    let mut recipients = Vec::new();
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&line);
        let verb = text
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" => {
                b"250-sink.example.test\r\n250-PIPELINING\r\n250-8BITMIME\r\n250 SIZE 104857600\r\n"
            }
            "HELO" => b"250 sink.example.test\r\n",
            "MAIL" => {
                recipients.clear();
                b"250 2.1.0 ok\r\n"
            }
            "RCPT" => {
                let to = text
                    .split_once(':')
                    .map(|(_, a)| a.trim().trim_start_matches('<'))
                    .and_then(|a| a.split('>').next())
                    .unwrap_or("")
                    .to_string();
                recipients.push(to);
                b"250 2.1.5 ok\r\n"
            }
            "DATA" => {
                out.write_all(b"354 go ahead\r\n")?;
                let mut raw = Vec::new();
                loop {
                    line.clear();
                    if input.read_until(b'\n', &mut line)? == 0 {
                        return Ok(());
                    }
                    if line == b".\r\n" || line == b".\n" {
                        break;
                    }
                    let body = if line.starts_with(b"..") {
                        &line[1..]
                    } else {
                        &line[..]
                    };
                    raw.extend_from_slice(body);
                }
                if let Ok(mut t) = shared.taken.lock() {
                    t.push(Taken {
                        recipients: std::mem::take(&mut recipients),
                        raw,
                    });
                }
                shared.count.fetch_add(1, Ordering::Relaxed);
                b"250 2.0.0 taken\r\n"
            }
            "RSET" => {
                recipients.clear();
                b"250 2.0.0 ok\r\n"
            }
            "NOOP" => b"250 2.0.0 ok\r\n",
            "QUIT" => {
                out.write_all(b"221 2.0.0 bye\r\n")?;
                return Ok(());
            }
            _ => b"502 5.5.2 not implemented\r\n",
        };
        out.write_all(reply)?;
    }
}
