//! A game as the judge keeps it: settings, seats, status and deadlines.
//!
//! Times are Unix seconds in UTC; a game's time zone only decides how they
//! are shown and how a GM's `SET DEADLINE` is read, so daylight saving can
//! never move a stored deadline.

use serde::{Deserialize, Serialize};

/// What happens to a power that sends no orders by the deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Nmr {
    /// Its units hold (and it waives builds, disbands by the rules).
    #[default]
    Hold,
    /// It goes into civil disorder: the same on the board, and the GM is
    /// asked to find a replacement.
    CivilDisorder,
}

/// Who may send press.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Press {
    /// Signed press, to anyone.
    #[default]
    White,
    /// Press may also be sent unsigned (the sender's power hidden).
    Grey,
    /// No press at all.
    None,
}

/// How results are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Style {
    /// Orders in the zine notation, grouped by power.
    #[default]
    Zine,
    /// The njudge layout that mapping tools read.
    Judge,
}

/// A game's settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Hours from the start of a movement phase to its deadline.
    pub movement_hours: u32,
    /// Hours for retreat and adjustment phases.
    pub short_hours: u32,
    /// Hours after a deadline during which late orders are still taken.
    pub grace_hours: u32,
    /// Hours before a deadline when powers with missing orders are
    /// reminded (0: no reminders).
    pub reminder_hours: u32,
    /// IANA time zone for showing and reading times.
    pub timezone: String,
    /// No-move-received handling.
    pub nmr: Nmr,
    /// Press.
    pub press: Press,
    /// Results layout.
    pub style: Style,
    /// The GM's last year, where the variant lets the GM choose one (1700
    /// AD II: 1713 or 1721); the game ends after it.
    pub last_year: Option<i32>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            movement_hours: 72,
            short_hours: 24,
            grace_hours: 24,
            reminder_hours: 24,
            timezone: "UTC".into(),
            nmr: Nmr::Hold,
            press: Press::White,
            style: Style::Zine,
            last_year: None,
        }
    }
}

/// Where a game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Taking players.
    Forming,
    /// Being played.
    Active,
    /// Stopped by the GM; deadlines do not run.
    Paused,
    /// Over.
    Finished,
}

impl Status {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Forming => "forming",
            Status::Active => "active",
            Status::Paused => "paused",
            Status::Finished => "finished",
        }
    }
    /// From storage.
    pub fn parse(s: &str) -> Status {
        match s {
            "active" => Status::Active,
            "paused" => Status::Paused,
            "finished" => Status::Finished,
            _ => Status::Forming,
        }
    }
}

/// A seat's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeatStatus {
    /// Nobody plays it.
    Open,
    /// A player plays it.
    Playing,
    /// The player left or was ejected: open for a replacement.
    Abandoned,
    /// It has no units and no centres left.
    Eliminated,
}

impl SeatStatus {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            SeatStatus::Open => "open",
            SeatStatus::Playing => "playing",
            SeatStatus::Abandoned => "abandoned",
            SeatStatus::Eliminated => "eliminated",
        }
    }
    /// From storage.
    pub fn parse(s: &str) -> SeatStatus {
        match s {
            "playing" => SeatStatus::Playing,
            "abandoned" => SeatStatus::Abandoned,
            "eliminated" => SeatStatus::Eliminated,
            _ => SeatStatus::Open,
        }
    }
}

/// A power's seat in a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// The power's index.
    pub power: u8,
    /// The player's address.
    pub address: Option<String>,
    /// The player's password hash (argon2, PHC string).
    pub hash: Option<String>,
    /// State.
    pub status: SeatStatus,
    /// The player said READY this phase.
    pub ready: bool,
    /// The player votes for a draw (among the survivors).
    pub draw: bool,
    /// The power this player concedes victory to, if any.
    pub concede: Option<u8>,
    /// Failed sign-ons since the last good one (older stores; the count
    /// now lives with the sign-on checks).
    pub failures: u32,
    /// The picture the player wants with results (`SET PICTURE`); `None`:
    /// the judge's default.
    pub picture: Option<String>,
    /// The player's display name (`SET NAME`).
    pub name: Option<String>,
}
