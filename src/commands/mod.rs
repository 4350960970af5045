//! The command language: what turns the adjudicator into a judge.
//!
//! A mail is read line by line (`mailrun`). Command lines (the table in
//! [`registry`], one file per command in `cmd/`) are carried out in order,
//! each in a savepoint of its own so that a refused command leaves nothing
//! half-done; `SIGNON` sets who the following lines speak for; the other
//! lines after a sign-on are orders for that power. Everything a mail does
//! happens in the one transaction the daemon opens for it, and the sender
//! gets one reply saying what each command did and, for orders, the whole
//! order set now held and what is still missing.
//!
//! The clock is passed in: the daemon asks which games are due and then
//! works on each in a transaction of its own (see [`Judge`]'s
//! [`Responder`] methods) to send reminders, open grace periods and
//! adjudicate games whose deadline has passed.

mod body;
mod changes;
mod cmd;
pub(crate) mod command;
mod common;
mod conditional;
mod drawn;
mod ending;
pub(crate) mod error;
mod foreign;
mod held;
mod helptext;
mod judge;
pub(crate) mod kept_copies;
mod later;
mod mailrun;
mod play;
pub(crate) mod pressform;
pub(crate) mod registry;
mod respond;
mod session;
pub(crate) mod submit;
pub(crate) mod variants_kept;

/// Times as the commands show and read them (shared with the web pages).
pub(crate) use crate::time;
pub(crate) use common::{find_power, load, mail_to, position, power_letters, stored};
pub use judge::{Chance, Judge};
pub(crate) use session::{Ctx, PressOut, Session, everybody, notify_all};
