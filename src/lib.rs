//! zinejudge: a play-by-email judge for Diplomacy and its classic postal
//! variants.
//!
//! The public API is the pure core (no I/O, no clock): [`map`], [`orders`],
//! [`variant`], [`adjudicate`] and [`game`]; and [`cli::main`], the whole
//! of the binary. Everything else (the store, mail, daemon, commands,
//! report, web site, the DATC runner, the importers) is `pub(crate)`: the
//! integration tests and benches reach what they need of it through one
//! facade, [`testing`], which says why it exists. `unreachable_pub` is
//! denied so that an item only the crate uses says so (`pub(crate)`), and
//! `tests/module_graph.rs` checks the list of public modules below
//! (docs/development.md, "Public surface").
#![deny(missing_docs)]
#![deny(unreachable_pub)]

pub mod adjudicate;
pub(crate) mod calendar;
pub mod cli;
pub(crate) mod commands;
pub(crate) mod config;
pub(crate) mod daemon;
pub(crate) mod datc;
pub mod game;
pub(crate) mod import;
pub(crate) mod mail;
pub mod map;
pub mod orders;
pub(crate) mod report;
pub(crate) mod rules;
pub(crate) mod store;
pub mod testing;
pub(crate) mod time;
pub(crate) mod trust;
pub mod variant;
pub(crate) mod web;

/// The trait behind `params!` (`store::params`), public only because an
/// exported macro expands in other crates (the tests) and must name it by
/// a path they may use.
#[doc(hidden)]
pub use store::sql::ToValue as __StoreToValue;
