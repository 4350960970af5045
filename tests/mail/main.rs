//! The daemon and the store with real parts: Dovecot and Postfix, PostgreSQL,
//! a judge process, each test with its own servers on 127.0.0.1.
//!
//! One test binary for many files (each file a module), so the suite links
//! a few binaries instead of one per file.

#[path = "../daemon_common/mod.rs"]
mod daemon_common;
#[path = "../e2e_support/mod.rs"]
mod e2e_support;
#[path = "../games_support/mod.rs"]
mod games_support;
#[path = "../picture_support/mod.rs"]
mod picture_support;
#[path = "../support/mod.rs"]
mod support;
#[path = "../support_judge/mod.rs"]
mod support_judge;
#[path = "../support_play/mod.rs"]
mod support_play;

mod client_mails;
mod config_check;
mod daemon_mail;
mod e2e_game;
mod hostile_mail;
mod import_dpjudge_mail;
mod mail_system;
mod multi_judge_imap;
mod newcomer_game;
mod njudge_forms;
mod postgres_server;
mod store_claims;
mod store_contract;
mod store_daemon_postgres;
mod store_outage;
mod store_pictures;
mod store_stop;
mod trust_work;
