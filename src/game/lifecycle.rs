//! A game's life between its mails: the clock that sets each deadline,
//! the work due at a moment (a reminder, a grace period, adjudication),
//! who is ready, who goes into civil disorder, how powers are given to the
//! players who join, and who is told what.
//!
//! Everything here is a pure function of values passed in (the moment
//! "now", the time zone, the seats as the store holds them, a random seed
//! drawn at the edge), so each rule is tested at its boundaries without a
//! store or a clock. The commands and the deadline tick load, ask this
//! module what to do, save, and render the [`Notice`]s it returns with the
//! templates.

use crate::game::record::{Early, Nmr, SeatStatus, Settings, Weekdays};
use crate::map::PowerId;
use crate::variant::PhaseKind;
use jiff::Timestamp;
use jiff::tz::TimeZone;

/// Minutes a phase of `kind` lasts at least.
pub fn phase_minutes(s: &Settings, kind: PhaseKind) -> u32 {
    let m = match kind {
        PhaseKind::Movement => s.movement_minutes,
        PhaseKind::Retreat => s.short_minutes,
        PhaseKind::Adjustment | PhaseKind::Placement => {
            s.adjustment_minutes.unwrap_or(s.short_minutes)
        }
    };
    m.max(1)
}

/// The deadline of a phase of `kind` that opens at `start` (Unix
/// seconds): its length later, then on to the game clock's time of day
/// and allowed weekday in the game's zone `tz`. The same rule holds
/// however the phase opened (at the start, after a deadline, after early
/// processing), so deadlines stay where the players expect them.
pub fn next_deadline(s: &Settings, kind: PhaseKind, start: i64, tz: &TimeZone) -> i64 {
    let earliest = start.saturating_add(i64::from(phase_minutes(s, kind)) * 60);
    on_clock(s, earliest, tz)
}

/// The first moment at or after `t` the game clock allows: at the clock's
/// time of day (if it has one) on an allowed weekday. Whole minutes: the
/// seconds of `t` are dropped when a time of day is set.
pub fn on_clock(s: &Settings, t: i64, tz: &TimeZone) -> i64 {
    if s.deadline_time.is_none() && s.weekdays.0 & 0x7f == 0 {
        return t;
    }
    let Ok(ts) = Timestamp::from_second(t) else {
        return t;
    };
    let zoned = ts.to_zoned(tz.clone());
    let date = zoned.date();
    let time = match s.deadline_time {
        Some(m) => jiff::civil::Time::constant((m / 60) as i8, (m % 60) as i8, 0, 0),
        None => zoned.time(),
    };
    // A week and a day covers every allowed weekday and a time of day
    // earlier than `t`'s on its first day.
    for offset in 0..=8i64 {
        let Ok(day) = date.checked_add(jiff::Span::new().days(offset)) else {
            break;
        };
        let weekday = day.weekday().to_monday_zero_offset() as u8;
        if !allows(s.weekdays, weekday) {
            continue;
        }
        let Ok(candidate) = day.to_datetime(time).to_zoned(tz.clone()) else {
            continue;
        };
        let c = candidate.timestamp().as_second();
        if c >= t {
            return c;
        }
    }
    t
}

fn allows(w: Weekdays, day: u8) -> bool {
    w.allows(day)
}

/// Where a seat stands at a moment of a phase, as the store and the rules
/// say: what [`ready`], [`waiting_for`] and [`missed`] decide from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    /// The power.
    pub power: PowerId,
    /// The seat's state.
    pub seat: SeatStatus,
    /// The power has something to order this phase.
    pub choices: bool,
    /// Its orders are complete (nothing missing).
    pub complete: bool,
    /// It holds at least one order.
    pub any_orders: bool,
    /// Its player said READY this phase.
    pub ready: bool,
    /// Its player said SET WAIT.
    pub wait: bool,
}

/// Whether the phase need not wait for this seat. A power with nothing to
/// order, in civil disorder or without a player is never waited for; a
/// playing power is ready once its orders are complete unless its player
/// said WAIT (njudge), or, with `SET EARLY READY`, once they said READY.
pub fn ready(early: Early, s: &Standing) -> bool {
    if !s.choices || s.seat != SeatStatus::Playing {
        return true;
    }
    match early {
        Early::Complete => s.ready || (s.complete && !s.wait),
        Early::Ready => s.ready,
    }
}

/// The powers the phase still waits for before it may go early; none:
/// it goes now (so a retreat or adjustment phase with nothing left to
/// order goes at once).
pub fn waiting_for(early: Early, seats: &[Standing]) -> Vec<PowerId> {
    seats
        .iter()
        .filter(|s| !ready(early, s))
        .map(|s| s.power)
        .collect()
}

/// How a phase came to be adjudicated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// Its deadline (and grace) passed.
    Deadline,
    /// Every player was ready before the deadline.
    AllReady,
    /// The GM said PROCESS before the deadline.
    GmEarly,
}

impl Trigger {
    /// The trigger of a GM's PROCESS at `now`: at or after the deadline it
    /// is the deadline's (the GM only saves the clock a minute), before it
    /// an early processing that calls nobody late.
    pub fn of_gm(now: i64, deadline: Option<i64>) -> Trigger {
        match deadline {
            Some(d) if now >= d => Trigger::Deadline,
            _ => Trigger::GmEarly,
        }
    }
}

/// Who missed a phase, as the results and the seats record it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Missed {
    /// The powers the results list as having sent no orders: playing
    /// powers silent at the deadline, and powers already in civil
    /// disorder.
    pub shown: Vec<PowerId>,
    /// Playing powers that go into civil disorder now (`SET NMR CD`).
    pub newly_disordered: Vec<PowerId>,
}

/// Who missed the phase. Only a missed deadline makes anyone late: a
/// phase played early (every player ready, or the GM's PROCESS before the
/// deadline) calls nobody late and puts nobody in civil disorder. A
/// player who said READY without orders chose to hold. `survives` says
/// whether a power still has something after the phase (a power left with
/// nothing is out, not in disorder).
pub fn missed(
    trigger: Trigger,
    nmr: Nmr,
    seats: &[Standing],
    survives: impl Fn(PowerId) -> bool,
) -> Missed {
    let silent = |s: &&Standing| s.choices && !s.any_orders;
    let late: Vec<PowerId> = if trigger == Trigger::Deadline {
        seats
            .iter()
            .filter(silent)
            .filter(|s| s.seat == SeatStatus::Playing && !s.ready)
            .map(|s| s.power)
            .collect()
    } else {
        Vec::new()
    };
    let shown = seats
        .iter()
        .filter(silent)
        .filter(|s| late.contains(&s.power) || s.seat == SeatStatus::Disorder)
        .map(|s| s.power)
        .collect();
    let newly_disordered = match nmr {
        Nmr::CivilDisorder => late.into_iter().filter(|p| survives(*p)).collect(),
        Nmr::Hold => Vec::new(),
    };
    Missed {
        shown,
        newly_disordered,
    }
}

/// A seat's state once a phase is played.
pub fn seat_after(status: SeatStatus, has_nothing: bool, newly_disordered: bool) -> SeatStatus {
    match status {
        SeatStatus::NotInGame => SeatStatus::NotInGame,
        SeatStatus::Dummy => SeatStatus::Dummy,
        _ if has_nothing => SeatStatus::Eliminated,
        _ if newly_disordered => SeatStatus::Disorder,
        s => s,
    }
}

/// What a game's clock asks for at a moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// Nothing yet.
    Nothing,
    /// Remind the powers whose orders are incomplete.
    Remind,
    /// The deadline passed with orders missing: tell the late powers and
    /// the GM, and wait until `until` (the end of the grace period).
    Grace {
        /// The end of the grace period.
        until: i64,
    },
    /// Adjudicate now.
    Process,
}

/// The clock's state of a game, as the store keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// The current deadline.
    pub deadline: i64,
    /// Minutes of grace after it for late orders.
    pub grace_minutes: u32,
    /// Minutes before it to remind (0: never).
    pub reminder_minutes: u32,
    /// The phase's length in minutes (a reminder comes at most half of it
    /// before the deadline, so a short phase is not reminded the moment it
    /// opens).
    pub phase_minutes: u32,
    /// The reminders of this phase were sent.
    pub reminded: bool,
    /// The late powers of this phase were told.
    pub grace_noticed: bool,
}

/// What the clock asks for at `now`, with `late` telling whether any
/// playing power's orders are still incomplete. The phase is adjudicated
/// at the deadline when nobody is late, else at the end of the grace
/// period; the grace notices go once; reminders once, in their window.
pub fn work(now: i64, c: &Clock, late: bool) -> Work {
    let grace_end = c.deadline + i64::from(c.grace_minutes) * 60;
    if now >= c.deadline {
        if !late || now >= grace_end {
            return Work::Process;
        }
        if c.grace_noticed {
            return Work::Nothing;
        }
        return Work::Grace { until: grace_end };
    }
    let lead = c.reminder_minutes.min(c.phase_minutes / 2);
    if c.reminder_minutes > 0 && !c.reminded && late && now >= c.deadline - i64::from(lead) * 60 {
        return Work::Remind;
    }
    Work::Nothing
}

/// Give each player a power: `wishes[i]` is player i's list in order of
/// preference (possibly empty: any power will do), `powers` the powers to
/// give (at least as many as players). The most wishes are met, a first
/// choice weighing more than two second ones (the weight of a wish falls
/// as the square of its rank, so nobody is left with a last choice to
/// give someone else a small gain), and every tie is broken by `seed`, drawn
/// at random by the caller: a pure function of its inputs, fair over many
/// games. Returns the power of each player, in the players' order.
pub fn assign(wishes: &[Vec<PowerId>], powers: &[PowerId], seed: u64) -> Vec<PowerId> {
    let n = wishes.len();
    let m = powers.len();
    if n == 0 || m < n {
        return Vec::new();
    }
    // The weight of a wish: rank 0 (first choice) weighs most; a power not
    // asked for weighs nothing. A random jitter below one step of weight
    // breaks ties only.
    const JITTER: i64 = 1024;
    let step = JITTER * n as i64 + 1;
    let top = (m as i64 + 1) * (m as i64 + 1);
    let mut rng = SplitMix(seed);
    let weights: Vec<Vec<i64>> = wishes
        .iter()
        .map(|list| {
            powers
                .iter()
                .map(|p| {
                    let wish = list
                        .iter()
                        .position(|w| w == p)
                        .map_or(0, |r| top - (r as i64 + 1) * (r as i64 + 1));
                    wish * step + (rng.next() % JITTER as u64) as i64
                })
                .collect()
        })
        .collect();
    let Ok(matrix) = pathfinding::matrix::Matrix::from_rows(weights) else {
        return Vec::new();
    };
    let (_, columns) = pathfinding::kuhn_munkres::kuhn_munkres(&matrix);
    columns.into_iter().map(|c| powers[c]).collect()
}

/// A small generator of the tie-breaks of [`assign`] from its seed
/// (SplitMix64: every seed gives a different, well-mixed sequence).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// Who a notice is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum To {
    /// The player of a power.
    Player(PowerId),
    /// The game's GM.
    Gm,
    /// Every player, observer and the GM.
    Everybody,
}

/// What the judge tells the people of a game about its life, as values:
/// the templates (`templates/notice-*.txt`) say it in words. Times are
/// Unix seconds, shown in the game's zone and UTC.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// The deadline is near and the power's orders are incomplete.
    Reminder {
        /// The power.
        power: PowerId,
        /// The deadline.
        deadline: i64,
        /// What is still missing, as the order reply says it.
        missing: Vec<String>,
    },
    /// The deadline passed and the power's orders are incomplete.
    Late {
        /// The power.
        power: PowerId,
        /// The end of the grace period.
        until: i64,
        /// What happens to it if nothing comes.
        nmr: Nmr,
    },
    /// To the GM: who is late.
    LateGm {
        /// The late powers.
        powers: Vec<PowerId>,
        /// The end of the grace period.
        until: i64,
    },
    /// The power went into civil disorder at this deadline.
    Disorder {
        /// The power.
        power: PowerId,
        /// The next deadline, if the game goes on.
        deadline: Option<i64>,
    },
    /// To the GM: powers went into civil disorder.
    DisorderGm {
        /// The powers.
        powers: Vec<PowerId>,
    },
    /// A power in civil disorder is played again.
    Back {
        /// The power.
        power: PowerId,
    },
}

/// The notices when the deadline passes with `late` powers, whose grace
/// runs until `until`.
pub fn late_notices(late: &[PowerId], until: i64, nmr: Nmr) -> Vec<(To, Notice)> {
    let mut out: Vec<(To, Notice)> = late
        .iter()
        .map(|p| {
            (
                To::Player(*p),
                Notice::Late {
                    power: *p,
                    until,
                    nmr,
                },
            )
        })
        .collect();
    if !late.is_empty() {
        out.push((
            To::Gm,
            Notice::LateGm {
                powers: late.to_vec(),
                until,
            },
        ));
    }
    out
}

/// The notices when powers go into civil disorder.
pub fn disorder_notices(newly: &[PowerId], deadline: Option<i64>) -> Vec<(To, Notice)> {
    let mut out = Vec::new();
    if newly.is_empty() {
        return out;
    }
    out.push((
        To::Gm,
        Notice::DisorderGm {
            powers: newly.to_vec(),
        },
    ));
    for p in newly {
        out.push((
            To::Player(*p),
            Notice::Disorder {
                power: *p,
                deadline,
            },
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc() -> TimeZone {
        TimeZone::UTC
    }

    /// Sat 1 Jan 2028 12:00 UTC.
    const SAT_NOON: i64 = 1_830_340_800;

    fn standing(p: u8) -> Standing {
        Standing {
            power: PowerId(p),
            seat: SeatStatus::Playing,
            choices: true,
            complete: false,
            any_orders: false,
            ready: false,
            wait: false,
        }
    }

    #[test]
    fn a_deadline_is_the_phase_length_later_without_a_clock() {
        let s = Settings::default();
        assert_eq!(
            next_deadline(&s, PhaseKind::Movement, SAT_NOON + 7, &utc()),
            SAT_NOON + 7 + 72 * 3600
        );
        assert_eq!(
            next_deadline(&s, PhaseKind::Retreat, SAT_NOON, &utc()),
            SAT_NOON + 24 * 3600
        );
    }

    #[test]
    fn adjustment_phases_may_have_their_own_length() {
        let s = Settings {
            adjustment_minutes: Some(48 * 60),
            ..Settings::default()
        };
        assert_eq!(phase_minutes(&s, PhaseKind::Adjustment), 48 * 60);
        assert_eq!(phase_minutes(&s, PhaseKind::Retreat), 24 * 60);
    }

    #[test]
    fn the_clock_puts_a_deadline_at_its_time_of_day_never_earlier() {
        let s = Settings {
            deadline_time: Some(20 * 60),
            ..Settings::default()
        };
        // Processed early on Saturday at 02:21: 72 h later is Tuesday
        // 02:21, so the deadline is Tuesday 20:00.
        let start = SAT_NOON - 9 * 3600 - 39 * 60;
        let d = next_deadline(&s, PhaseKind::Movement, start, &utc());
        assert_eq!(d, SAT_NOON + 3 * 86400 + 8 * 3600);
        // At 20:00 exactly it stays; one second later it is the next day.
        let at = SAT_NOON + 8 * 3600;
        assert_eq!(on_clock(&s, at, &utc()), at);
        assert_eq!(on_clock(&s, at + 1, &utc()), at + 86400);
        assert_eq!(on_clock(&s, at - 1, &utc()), at);
    }

    #[test]
    fn the_clock_skips_days_not_allowed() {
        // Monday to Friday only, at 18:00.
        let s = Settings {
            deadline_time: Some(18 * 60),
            weekdays: Weekdays(0b001_1111),
            ..Settings::default()
        };
        // Saturday noon: the next allowed is Monday 18:00.
        assert_eq!(
            on_clock(&s, SAT_NOON, &utc()),
            SAT_NOON + 2 * 86400 + 6 * 3600
        );
        // Weekdays alone keep the time of day.
        let s = Settings {
            weekdays: Weekdays(0b001_1111),
            ..Settings::default()
        };
        assert_eq!(on_clock(&s, SAT_NOON, &utc()), SAT_NOON + 2 * 86400);
    }

    #[test]
    fn the_clock_reads_its_time_in_the_games_zone() {
        let tz = TimeZone::get("America/New_York").expect("zone");
        let s = Settings {
            deadline_time: Some(20 * 60),
            ..Settings::default()
        };
        // Sat noon UTC is 07:00 in New York: 20:00 there is 01:00 UTC Sunday.
        assert_eq!(on_clock(&s, SAT_NOON, &tz), SAT_NOON + 13 * 3600);
    }

    #[test]
    fn complete_orders_are_ready_unless_the_player_waits() {
        let mut s = standing(0);
        assert!(!ready(Early::Complete, &s));
        s.complete = true;
        s.any_orders = true;
        assert!(ready(Early::Complete, &s));
        s.wait = true;
        assert!(!ready(Early::Complete, &s), "WAIT holds the phase");
        s.ready = true;
        assert!(ready(Early::Complete, &s), "READY overrides WAIT");
    }

    #[test]
    fn with_early_ready_only_ready_counts() {
        let mut s = standing(0);
        s.complete = true;
        assert!(!ready(Early::Ready, &s));
        s.ready = true;
        assert!(ready(Early::Ready, &s));
    }

    #[test]
    fn the_last_powers_orders_make_the_phase_go() {
        let mut seats: Vec<Standing> = (0..3).map(standing).collect();
        for s in &mut seats[..2] {
            s.complete = true;
        }
        assert_eq!(waiting_for(Early::Complete, &seats), vec![PowerId(2)]);
        seats[2].complete = true;
        assert!(waiting_for(Early::Complete, &seats).is_empty());
    }

    #[test]
    fn a_phase_with_nothing_to_order_goes_at_once() {
        let mut seats: Vec<Standing> = (0..3).map(standing).collect();
        for s in &mut seats {
            s.choices = false;
        }
        assert!(waiting_for(Early::Ready, &seats).is_empty());
        // Nor is a power in civil disorder waited for.
        seats[1].choices = true;
        seats[1].seat = SeatStatus::Disorder;
        assert!(waiting_for(Early::Complete, &seats).is_empty());
    }

    #[test]
    fn only_a_missed_deadline_makes_anyone_late() {
        let seats: Vec<Standing> = (0..2).map(standing).collect();
        for t in [Trigger::GmEarly, Trigger::AllReady] {
            let m = missed(t, Nmr::CivilDisorder, &seats, |_| true);
            assert_eq!(m, Missed::default(), "{t:?}");
        }
        let m = missed(Trigger::Deadline, Nmr::CivilDisorder, &seats, |_| true);
        assert_eq!(m.shown, vec![PowerId(0), PowerId(1)]);
        assert_eq!(m.newly_disordered, vec![PowerId(0), PowerId(1)]);
        let m = missed(Trigger::Deadline, Nmr::Hold, &seats, |p| p.0 == 0);
        assert!(m.newly_disordered.is_empty());
    }

    #[test]
    fn ready_without_orders_is_holding_not_missing() {
        let mut seats: Vec<Standing> = (0..2).map(standing).collect();
        seats[0].ready = true;
        let m = missed(Trigger::Deadline, Nmr::CivilDisorder, &seats, |_| true);
        assert_eq!(m.newly_disordered, vec![PowerId(1)]);
    }

    #[test]
    fn a_power_left_with_nothing_is_out_not_in_disorder() {
        let seats = vec![standing(0)];
        let m = missed(Trigger::Deadline, Nmr::CivilDisorder, &seats, |_| false);
        assert!(m.newly_disordered.is_empty());
        assert_eq!(
            seat_after(SeatStatus::Playing, true, false),
            SeatStatus::Eliminated
        );
        assert_eq!(
            seat_after(SeatStatus::Playing, false, true),
            SeatStatus::Disorder
        );
        assert_eq!(
            seat_after(SeatStatus::NotInGame, true, false),
            SeatStatus::NotInGame
        );
    }

    #[test]
    fn a_gm_process_before_the_deadline_is_early_and_at_it_is_the_deadlines() {
        assert_eq!(Trigger::of_gm(99, Some(100)), Trigger::GmEarly);
        assert_eq!(Trigger::of_gm(100, Some(100)), Trigger::Deadline);
        assert_eq!(Trigger::of_gm(100, None), Trigger::GmEarly);
    }

    fn clock() -> Clock {
        Clock {
            deadline: 10_000,
            grace_minutes: 60,
            reminder_minutes: 24 * 60,
            phase_minutes: 72 * 60,
            reminded: false,
            grace_noticed: false,
        }
    }

    #[test]
    fn the_deadline_minus_one_second_is_not_the_deadline() {
        let c = Clock {
            reminded: true,
            ..clock()
        };
        assert_eq!(work(9_999, &c, true), Work::Nothing);
        assert_eq!(work(9_999, &c, false), Work::Nothing);
        assert_eq!(work(10_000, &c, false), Work::Process);
    }

    #[test]
    fn late_orders_open_a_grace_period_told_once() {
        let c = clock();
        assert_eq!(work(10_000, &c, true), Work::Grace { until: 13_600 });
        let told = Clock {
            grace_noticed: true,
            ..c
        };
        assert_eq!(work(13_599, &told, true), Work::Nothing);
        assert_eq!(work(13_600, &told, true), Work::Process);
        // Orders complete during the grace: processed at once.
        assert_eq!(work(10_001, &told, false), Work::Process);
        // No grace at all: the deadline is the end.
        let none = Clock {
            grace_minutes: 0,
            ..c
        };
        assert_eq!(work(10_000, &none, true), Work::Process);
    }

    #[test]
    fn reminders_come_once_at_most_half_a_phase_ahead() {
        let c = Clock {
            phase_minutes: 60,
            ..clock()
        };
        // Half of a 60-minute phase: 30 minutes before.
        assert_eq!(work(10_000 - 30 * 60 - 1, &c, true), Work::Nothing);
        assert_eq!(work(10_000 - 30 * 60, &c, true), Work::Remind);
        assert_eq!(work(10_000 - 30 * 60, &c, false), Work::Nothing);
        let reminded = Clock {
            reminded: true,
            ..c
        };
        assert_eq!(work(9_999, &reminded, true), Work::Nothing);
    }

    fn p(i: u8) -> PowerId {
        PowerId(i)
    }

    #[test]
    fn distinct_first_choices_are_all_met() {
        let powers: Vec<PowerId> = (0..7).map(p).collect();
        let wishes: Vec<Vec<PowerId>> = (0..7).rev().map(|i| vec![p(i)]).collect();
        for seed in 0..20 {
            let got = assign(&wishes, &powers, seed);
            assert_eq!(got, (0..7).rev().map(p).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_contested_first_choice_goes_by_chance_and_the_loser_gets_the_next() {
        let powers: Vec<PowerId> = (0..3).map(p).collect();
        let wishes = vec![vec![p(0), p(1)], vec![p(0), p(2)], vec![]];
        let mut firsts = [0; 2];
        for seed in 0..200 {
            let got = assign(&wishes, &powers, seed);
            assert_eq!(got.len(), 3);
            if got[0] == p(0) {
                firsts[0] += 1;
                assert_eq!(got[1], p(2));
            } else {
                firsts[1] += 1;
                assert_eq!((got[0], got[1]), (p(1), p(0)));
            }
            // The player who asked for nothing takes what is left.
            assert!(!got[..2].contains(&got[2]));
        }
        assert!(firsts[0] > 60 && firsts[1] > 60, "fair: {firsts:?}");
    }

    #[test]
    fn nobody_is_left_with_a_last_choice_when_two_wishes_can_be_met() {
        // Both want Austria; one gets it and the other their second
        // choice, never their third.
        let powers: Vec<PowerId> = (0..3).map(p).collect();
        let wishes = vec![vec![p(0), p(1), p(2)], vec![p(0), p(2), p(1)]];
        for seed in 0..20 {
            let got = assign(&wishes, &powers, seed);
            assert!(got.contains(&p(0)), "{got:?}");
            assert_ne!(got[0], p(2), "{got:?}");
            assert_ne!(got[1], p(1), "{got:?}");
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_powers() {
        let powers: Vec<PowerId> = (0..7).map(p).collect();
        let wishes: Vec<Vec<PowerId>> = (0..7).map(|_| Vec::new()).collect();
        assert_eq!(assign(&wishes, &powers, 42), assign(&wishes, &powers, 42));
        assert_ne!(assign(&wishes, &powers, 42), assign(&wishes, &powers, 43));
        assert!(
            assign(&wishes, &powers[..6], 1).is_empty(),
            "too few powers"
        );
    }

    #[test]
    fn who_is_told_of_lateness_and_disorder() {
        let n = late_notices(&[p(1)], 500, Nmr::Hold);
        assert_eq!(n.len(), 2);
        assert_eq!(n[0].0, To::Player(p(1)));
        assert_eq!(n[1].0, To::Gm);
        assert!(late_notices(&[], 500, Nmr::Hold).is_empty());
        let d = disorder_notices(&[p(2), p(3)], Some(9));
        assert_eq!(d.len(), 3);
        assert_eq!(d[0].0, To::Gm);
    }
}
