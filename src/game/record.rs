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

/// When a phase may be adjudicated before its deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Early {
    /// As on njudge: a player whose orders are complete is ready unless
    /// they said `SET WAIT`; the phase goes once every player is ready.
    #[default]
    Complete,
    /// Only an explicit `READY` counts (the GM's choice, `SET EARLY READY`).
    Ready,
}

/// How the powers of a forming game are given to the players who join.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Assignment {
    /// As njudge and DPjudge: each player's preference list is kept, and
    /// at the start the powers are given by [`crate::game::lifecycle::assign`]
    /// (the most wishes met, ties broken at random).
    #[default]
    Preference,
    /// Each player gets the first free power of their list at JOIN (a
    /// JOIN whose powers are all taken is refused, never given another).
    FirstCome,
    /// The GM gives the powers (`ASSIGN`) before starting the game.
    Gm,
}

/// The days of the week a deadline may fall on, Monday first (bit 0) to
/// Sunday (bit 6); no bit set means every day.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Weekdays(pub u8);

impl Weekdays {
    /// Every day.
    pub const ALL: Weekdays = Weekdays(0);

    /// Whether a deadline may fall on `day` (0 = Monday).
    pub fn allows(self, day: u8) -> bool {
        self.0 & 0x7f == 0 || self.0 & (1 << day) != 0
    }

    /// The English names of the days, for replies.
    pub const NAMES: [&'static str; 7] = [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ];

    /// The allowed days as words (`Monday, Wednesday, Friday`), or
    /// `every day`.
    pub fn show(self) -> String {
        if self.0 & 0x7f == 0 || self.0 & 0x7f == 0x7f {
            return "every day".into();
        }
        let days: Vec<&str> = (0..7u8)
            .filter(|d| self.allows(*d))
            .map(|d| Self::NAMES[usize::from(d)])
            .collect();
        days.join(", ")
    }
}

/// A game's settings.
///
/// Durations are whole minutes, so a GM can give a two-minute grace in a
/// test game or a 90-minute phase in a live one. Stores written before
/// minutes were kept hold `*_hours`; they are read as that many hours.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "StoredSettings")]
pub struct Settings {
    /// Minutes from the start of a movement phase to its deadline.
    pub movement_minutes: u32,
    /// Minutes for retreat phases (and adjustment phases unless
    /// `adjustment_minutes` is set).
    pub short_minutes: u32,
    /// Minutes for adjustment (build) phases, when they differ from
    /// retreats.
    pub adjustment_minutes: Option<u32>,
    /// The time of day every deadline falls at, in minutes after midnight
    /// in the game's zone (`SET CLOCK 20:00`): a phase's length is then
    /// a least, the deadline the first such time after it.
    pub deadline_time: Option<u16>,
    /// The days deadlines may fall on (`SET CLOCK ... Mon-Fri`).
    pub weekdays: Weekdays,
    /// When a phase may go before its deadline.
    pub early: Early,
    /// How powers are given to the players who join.
    pub assignment: Assignment,
    /// Minutes after a deadline during which late orders are still taken.
    pub grace_minutes: u32,
    /// Minutes before a deadline when powers with missing orders are
    /// reminded (0: no reminders).
    pub reminder_minutes: u32,
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
    /// Whether a player's announced absence (`SET ABSENCE`) moves a
    /// deadline that falls inside it to its end, by at most
    /// `absence_cap_days` (the GM's choice; off by default, as on njudge).
    pub absence_extends: bool,
    /// The most days an absence may move one deadline.
    pub absence_cap_days: u32,
    /// Whether the roster (WHO) shows players' addresses to other players.
    pub roster_addresses: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            movement_minutes: 72 * 60,
            short_minutes: 24 * 60,
            adjustment_minutes: None,
            deadline_time: None,
            weekdays: Weekdays::ALL,
            early: Early::Complete,
            assignment: Assignment::Preference,
            grace_minutes: 24 * 60,
            reminder_minutes: 24 * 60,
            timezone: "UTC".into(),
            nmr: Nmr::Hold,
            press: Press::White,
            style: Style::Zine,
            last_year: None,
            absence_extends: false,
            absence_cap_days: 7,
            roster_addresses: false,
        }
    }
}

/// Settings as stored, old (hours) or new (minutes): read through this so
/// a game made before minutes keeps its phase lengths.
#[derive(Deserialize, Default)]
#[serde(default)]
struct StoredSettings {
    movement_minutes: Option<u32>,
    short_minutes: Option<u32>,
    adjustment_minutes: Option<u32>,
    deadline_time: Option<u16>,
    weekdays: Weekdays,
    early: Early,
    assignment: Assignment,
    grace_minutes: Option<u32>,
    reminder_minutes: Option<u32>,
    movement_hours: Option<u32>,
    short_hours: Option<u32>,
    grace_hours: Option<u32>,
    reminder_hours: Option<u32>,
    timezone: Option<String>,
    nmr: Nmr,
    press: Press,
    style: Style,
    last_year: Option<i32>,
    absence_extends: bool,
    absence_cap_days: Option<u32>,
    roster_addresses: bool,
}

impl From<StoredSettings> for Settings {
    fn from(s: StoredSettings) -> Settings {
        let d = Settings::default();
        let pick = |m: Option<u32>, h: Option<u32>, def: u32| {
            m.or(h.map(|h| h.saturating_mul(60))).unwrap_or(def)
        };
        Settings {
            movement_minutes: pick(s.movement_minutes, s.movement_hours, d.movement_minutes),
            short_minutes: pick(s.short_minutes, s.short_hours, d.short_minutes),
            adjustment_minutes: s.adjustment_minutes,
            deadline_time: s.deadline_time.filter(|m| *m < 24 * 60),
            weekdays: s.weekdays,
            early: s.early,
            assignment: s.assignment,
            grace_minutes: pick(s.grace_minutes, s.grace_hours, d.grace_minutes),
            reminder_minutes: pick(s.reminder_minutes, s.reminder_hours, d.reminder_minutes),
            timezone: s.timezone.unwrap_or(d.timezone),
            nmr: s.nmr,
            press: s.press,
            style: s.style,
            last_year: s.last_year,
            absence_extends: s.absence_extends,
            absence_cap_days: s.absence_cap_days.unwrap_or(d.absence_cap_days),
            roster_addresses: s.roster_addresses,
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
    /// From storage; `None` for a word no version of the judge wrote
    /// (a row that cannot be read is an error, never a guess).
    pub fn parse(s: &str) -> Option<Status> {
        match s {
            "forming" => Some(Status::Forming),
            "active" => Some(Status::Active),
            "paused" => Some(Status::Paused),
            "finished" => Some(Status::Finished),
            _ => None,
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
    /// An optional power left out when the game was created (Ard-Ri's
    /// Vikings without `WITH Vikings`): never played, never waited for,
    /// and not a seat to fill, so a game whose other seats are all taken
    /// starts.
    NotInGame,
    /// In civil disorder: its player sent no orders by a deadline in a
    /// game with `SET NMR CD`. Its units hold, it is not waited for (READY,
    /// grace) and it is told so; its player keeps the seat and leaves
    /// civil disorder by sending orders, or the GM replaces them.
    Disorder,
    /// A dummy power of the variant (`[dummies]`): nobody plays it, ever.
    /// Its seat is not offered, filled or waited for, and it does not
    /// vote on the game's end.
    Dummy,
}

impl SeatStatus {
    /// Whether, in a game not yet started, the seat is an optional power
    /// left out of it. Games made before [`SeatStatus::NotInGame`] existed
    /// stored such a seat as eliminated, and nothing else can be
    /// eliminated before a game starts.
    pub fn left_out_before_start(self) -> bool {
        matches!(self, SeatStatus::NotInGame | SeatStatus::Eliminated)
    }

    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            SeatStatus::Open => "open",
            SeatStatus::Playing => "playing",
            SeatStatus::Abandoned => "abandoned",
            SeatStatus::Eliminated => "eliminated",
            SeatStatus::NotInGame => "not in game",
            SeatStatus::Disorder => "civil disorder",
            SeatStatus::Dummy => "dummy",
        }
    }
    /// From storage; `None` for a word no version of the judge wrote.
    pub fn parse(s: &str) -> Option<SeatStatus> {
        match s {
            "open" => Some(SeatStatus::Open),
            "playing" => Some(SeatStatus::Playing),
            "abandoned" => Some(SeatStatus::Abandoned),
            "eliminated" => Some(SeatStatus::Eliminated),
            "not in game" => Some(SeatStatus::NotInGame),
            "civil disorder" => Some(SeatStatus::Disorder),
            "dummy" => Some(SeatStatus::Dummy),
            _ => None,
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
    /// The player said `SET WAIT`: complete orders do not make them ready
    /// (njudge's WAIT), until `SET NOWAIT`.
    pub wait: bool,
    /// The powers the player asked for at JOIN, in order (indices).
    pub prefs: Vec<u8>,
}
