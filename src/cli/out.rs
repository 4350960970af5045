//! Standard output of the commands that print.
//!
//! A reader that stops early (`zinejudge adjudicate ... | head`) closes the
//! pipe, and the next write fails with EPIPE: the Rust runtime ignores
//! SIGPIPE, so nothing ends the process as it would a C tool, and `print!`
//! panics ("failed printing to stdout: Broken pipe"). SIGPIPE stays
//! ignored (`run` writes to sockets that may close, and must not die of
//! it); every command prints through here instead, where a closed pipe is
//! [`Closed`], on which `main` ends quietly with status 0, as ripgrep does:
//! nobody is left to read anything more.

use std::fmt;
use std::io::{self, Write};

/// The reader of standard output has gone: printing stopped.
#[derive(Debug, thiserror::Error)]
#[error("standard output was closed")]
pub(super) struct Closed;

/// Write `text` to standard output and flush it, so that a closed pipe is
/// found here, not at exit.
pub(super) fn print(text: fmt::Arguments<'_>) -> anyhow::Result<()> {
    write_bytes(text.to_string().as_bytes())
}

/// Write `bytes` to standard output and flush them (see [`print`]).
pub(super) fn write_bytes(bytes: &[u8]) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            io::ErrorKind::BrokenPipe => anyhow::Error::new(Closed),
            _ => anyhow::Error::new(e).context("cannot write to standard output"),
        })
}

/// Whether `e` is, or was caused by, a closed standard output.
pub(super) fn closed(e: &anyhow::Error) -> bool {
    e.downcast_ref::<Closed>().is_some()
}
