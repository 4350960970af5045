//! zinejudge: a play-by-email judge for Diplomacy and its classic postal
//! variants.
//!
//! The pure core (no I/O, no clock) is [`map`], [`orders`], [`variant`],
//! [`adjudicate`] and [`game`]; the tools built on it ([`datc`]) take text
//! in and give text out, and the binary wires files and terminals to them.
#![deny(missing_docs)]

pub mod adjudicate;
pub mod calendar;
pub mod cli;
pub mod commands;
pub mod config;
pub mod daemon;
pub mod datc;
pub mod game;
pub mod import;
pub mod mail;
pub mod map;
pub mod orders;
pub mod report;
pub mod rules;
pub mod store;
pub mod time;
pub mod variant;
pub mod web;
