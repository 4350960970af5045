//! Shared set-up for integration tests: `mod support;` in a test file.
//!
//! - [`mailsys`]: a real mail system (Dovecot and Postfix on 127.0.0.1)
//!   started by the test process, with helpers to send and fetch mail.
//! - [`postgres`]: a throw-away PostgreSQL server on 127.0.0.1, for the
//!   store's PostgreSQL backend (issue 25).
//! - [`sink`]: a minimal SMTP server that keeps what it is given, standing
//!   for the players' mail providers.

// Each test binary compiles this module and uses only part of it.
#![allow(dead_code, unused_imports)]

pub mod mailsys;
pub mod postgres;
pub mod sink;

pub use mailsys::{
    Account, ImapSession, JUDGE_ADDRESS, JUDGE_PASSWORD, MailSystem, Ports, TEST_DOMAIN, block_on,
    in_ci, message, missing_servers, password_for, wait_until,
};
