//! The web pages: the server over HTTP, its bounds, and a real browser.
//!
//! One test binary for many files (each file a module), so the suite links
//! a few binaries instead of one per file.

#[path = "../support/mod.rs"]
mod support;
#[path = "../web_support/mod.rs"]
mod web_support;

mod web_1000ad;
mod web_1066_hidden;
mod web_1700ad;
mod web_bounds;
mod web_browser;
mod web_daemon;
mod web_http;
mod web_variants_kept;
