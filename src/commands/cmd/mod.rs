//! One file per command: its spec (name, form, help), who may give it,
//! how its arguments are read, and what it does. The table that lists
//! them is [`super::registry::COMMANDS`].

pub mod absence;
pub mod clear;
pub mod concede;
pub mod confirm;
pub mod create;
pub mod draw;
pub mod edit;
pub mod eject;
pub mod end;
pub mod exchange;
pub mod help;
pub mod history;
pub mod join;
pub mod list;
pub mod nominate;
pub mod observe;
pub mod pause;
pub mod permit;
pub mod press;
pub mod preview;
pub mod process;
pub mod ready;
pub mod replace;
pub mod resign;
pub mod rollback;
pub mod set_address;
pub mod set_deadline;
pub mod set_name;
pub mod set_password;
pub mod set_picture;
pub mod settings;
pub mod signoff;
pub mod signon;
pub mod start;
pub mod status;
pub mod summary;
pub mod variants;
pub mod who;
