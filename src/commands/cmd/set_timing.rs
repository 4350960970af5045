//! njudge's deadline settings, `SET MOVES NEXT 48.0 DELAY 1.0`, `SET
//! RETREATS NEXT 23`, `SET MOVE CLOCK 1410 DAYS -MTWTF-` (its deadlines
//! file): each parameter as this judge has it. NEXT (hours from the start
//! of a phase to its deadline) is the phase's length (SET PHASE LENGTH);
//! retreats and adjustments share one length here, so either sets both.
//! CLOCK (minutes past midnight) and DAYS (the days a deadline may fall
//! on, `SMTWTFS`) are the game clock (SET CLOCK), one for every kind of
//! phase; GRACE is the one grace period (SET GRACE). MIN and DELAY have no
//! counterpart: they are said not taken, with what this judge has instead,
//! and the line's other parameters are taken.

use super::settings::set_told;
use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, time};
use crate::game::record::Weekdays;

/// The parameters of one line.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Timing {
    /// NEXT, in minutes.
    next: Option<u32>,
    /// CLOCK, minutes past midnight (negative: none).
    clock: Option<i32>,
    /// DAYS.
    days: Option<Weekdays>,
    /// GRACE, in minutes.
    grace: Option<u32>,
    /// MIN and DELAY, as written: not taken.
    not_taken: Vec<String>,
}

/// SET MOVES ...
pub(crate) struct SetMovesTiming(Timing);
/// SET RETREATS|ADJUSTS|BUILDS ...
pub(crate) struct SetShortTiming(Timing);

/// Decimal hours as minutes (`48.0`, `0.5`).
fn hours(key: &str, value: &str, spec: &Spec) -> Result<u32, String> {
    let h: f64 = value
        .parse()
        .map_err(|_| format!("{key} takes hours, as 48.0 (write {})", spec.usage))?;
    if !(0.0..=24.0 * 366.0).contains(&h) {
        return Err(format!("{key} is at most a year of hours"));
    }
    Ok((h * 60.0).round() as u32)
}

/// njudge's DAYS: seven letters from Sunday (`-MTWTF-`), a letter a day a
/// deadline may fall on, `-` one it may not (a small letter, "after noon",
/// is a day it may).
fn days(value: &str) -> Result<Weekdays, String> {
    let chars: Vec<char> = value.chars().collect();
    if chars.len() != 7 {
        return Err("DAYS takes seven letters, from Sunday: -MTWTF- (weekdays)".into());
    }
    let mut bits = 0u8;
    for (i, c) in chars.iter().enumerate() {
        if *c != '-' {
            // Sunday first there; Monday is 0 here.
            bits |= 1 << ((i + 6) % 7);
        }
    }
    if bits == 0 {
        return Err("DAYS leaves no day for a deadline".into());
    }
    Ok(Weekdays(bits))
}

/// The parameters of `SET MOVES ...`.
fn read(args: &Args, spec: &Spec) -> Result<Timing, String> {
    let w = args.bare().words;
    if w.is_empty() {
        return Err(format!("write {}", spec.usage));
    }
    let mut t = Timing::default();
    for pair in w.chunks(2) {
        let key = pair[0].to_ascii_uppercase();
        let value = pair
            .get(1)
            .ok_or_else(|| format!("{key} needs a value (write {})", spec.usage))?;
        match key.as_str() {
            "NEXT" => t.next = Some(hours(&key, value, spec)?),
            "GRACE" => t.grace = Some(hours(&key, value, spec)?),
            "CLOCK" => {
                let m: f64 = value
                    .parse()
                    .map_err(|_| "CLOCK takes minutes past midnight (1410: 23:30)".to_string())?;
                if m >= 24.0 * 60.0 {
                    return Err("CLOCK is under 1440 minutes past midnight".into());
                }
                t.clock = Some(m as i32);
            }
            "DAYS" => t.days = Some(days(value)?),
            "MIN" | "DELAY" => t.not_taken.push(format!("{key} {value}")),
            _ => {
                return Err(format!(
                    "`{}` is no parameter of {} here (NEXT, CLOCK, DAYS, GRACE)",
                    pair[0], spec.name
                ));
            }
        }
    }
    Ok(t)
}

/// What this judge has instead of MIN and DELAY.
fn instead(not_taken: &[String]) -> String {
    not_taken
        .iter()
        .map(|p| {
            if p.starts_with("MIN") {
                format!(
                    "{p} was not taken: a phase here lasts at least its length (SET PHASE \
                     LENGTH)"
                )
            } else {
                format!(
                    "{p} was not taken: a phase here goes once every player's orders are \
                     complete (SET WAIT holds it for a player, SET EARLY READY until every \
                     player sends READY)"
                )
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Set what `t` says; `movement`: the line was SET MOVES.
fn apply(s: &mut Session<'_, '_>, game: &str, t: Timing, movement: bool) -> CmdResult {
    if t.next.is_none() && t.clock.is_none() && t.days.is_none() && t.grace.is_none() {
        return Err(instead(&t.not_taken).into());
    }
    let not_taken = t.not_taken.clone();
    set_told(s, game, |st| {
        let mut said = Vec::new();
        if let Some(m) = t.next {
            if movement {
                st.movement_minutes = m.max(1);
                said.push(format!(
                    "movement phases last {} (this judge's SET PHASE LENGTH)",
                    time::show_duration(st.movement_minutes)
                ));
            } else {
                st.short_minutes = m.max(1);
                st.adjustment_minutes = None;
                said.push(format!(
                    "retreat and adjustment phases last {} (they share one length here: this \
                     judge's SET PHASE LENGTH)",
                    time::show_duration(st.short_minutes)
                ));
            }
        }
        match t.clock {
            Some(m) if m >= 0 => {
                st.deadline_time = Some(m as u16);
                said.push(format!(
                    "deadlines fall at {:02}:{:02} ({}), for every kind of phase (this \
                     judge's SET CLOCK)",
                    m / 60,
                    m % 60,
                    st.timezone
                ));
            }
            Some(_) => said.push(
                "CLOCK -1 was not taken: the game clock is one for every kind of phase here \
                 (SET CLOCK NONE removes it)"
                    .into(),
            ),
            None => {}
        }
        if let Some(d) = t.days {
            st.weekdays = d;
            said.push(format!("deadlines fall on {} (SET CLOCK)", d.show()));
        }
        if let Some(g) = t.grace {
            st.grace_minutes = g;
            said.push(format!(
                "the grace period is {} for every phase (this judge's SET GRACE)",
                time::show_duration(g)
            ));
        }
        Ok(said.join("; "))
    })?;
    if !not_taken.is_empty() {
        s.say(&crate::report::wrap(
            &format!("  {}.", instead(&not_taken)),
            72,
            "  ",
        ));
    }
    s.say("  The current deadline stays.");
    Ok(())
}

impl Command for SetMovesTiming {
    const SPEC: Spec = Spec {
        other_judges: true,
        also: &["SET MOVE", "SET MOVEMENT"],
        ..Spec::new(
            "SET MOVES",
            "SET MOVES NEXT 48.0 [CLOCK 1410] [DAYS -MTWTF-] [GRACE 24]  (njudge; SET PHASE LENGTH 48h, SET CLOCK)",
            "njudge's movement deadline settings: NEXT the phase's length, CLOCK and DAYS the game clock, GRACE the grace period.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        read(args, &Self::SPEC).map(SetMovesTiming)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        apply(s, &game, self.0, true)
    }
}

impl Command for SetShortTiming {
    const SPEC: Spec = Spec {
        other_judges: true,
        also: &[
            "SET RETREAT",
            "SET ADJUST",
            "SET ADJUSTS",
            "SET ADJUSTMENT",
            "SET ADJUSTMENTS",
            "SET BUILD",
            "SET BUILDS",
        ],
        ..Spec::new(
            "SET RETREATS",
            "SET RETREATS NEXT 23.0  (njudge; also SET BUILDS; SET PHASE LENGTH 72h 23h)",
            "njudge's retreat and adjustment deadline settings (one length for both here).",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        read(args, &Self::SPEC).map(SetShortTiming)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        apply(s, &game, self.0, false)
    }
}
