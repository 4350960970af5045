//! The GM's settings of a game: phase lengths, grace, reminders, time
//! zone, NMR handling, press, the results' style, the last year. Each is a
//! SET command of its own.

use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, load, time};
use crate::game::record::{Assignment, Early, Nmr, Press, Settings, Style, Weekdays};
use crate::store::games;

/// Apply `f` to the settings of the GM's game and say what was set.
fn set(
    s: &mut Session<'_, '_>,
    game: &str,
    f: impl FnOnce(&mut Settings) -> Result<String, String>,
) -> CmdResult {
    let mut g = load(s.tx, game)?;
    let what = f(&mut g.settings)?;
    games::save(s.tx, &g)?;
    s.say(&format!("  Set: {what}."));
    Ok(())
}

/// [`set`], for a setting the players live by (the clock, NMR, press,
/// the time zone...): they are told of the change, in one notice per
/// mail however many settings it changes.
pub(crate) fn set_told(
    s: &mut Session<'_, '_>,
    game: &str,
    f: impl FnOnce(&mut Settings) -> Result<String, String>,
) -> CmdResult {
    let mut g = load(s.tx, game)?;
    let before = g.settings.clone();
    let what = f(&mut g.settings)?;
    games::save(s.tx, &g)?;
    s.say(&format!("  Set: {what}."));
    if g.settings != before {
        let mut first = what.chars();
        let line = first
            .next()
            .map(|c| c.to_uppercase().collect::<String>() + first.as_str())
            .unwrap_or_default();
        s.notice_change(&g, &format!("{line}."));
    }
    Ok(())
}

/// The value of a SET line: its words, at least one.
fn value(args: &Args, spec: &Spec) -> Result<String, String> {
    let a = args.bare();
    if a.is_empty() {
        return Err(format!("write {}", spec.usage));
    }
    Ok(a.rest(0))
}

/// SET PHASE LENGTH.
pub(crate) struct SetPhaseLength(String);
/// SET GRACE.
pub(crate) struct SetGrace(String);
/// SET REMINDER.
pub(crate) struct SetReminder(String);
/// SET TIMEZONE.
pub(crate) struct SetTimezone(String);
/// SET NMR.
pub(crate) struct SetNmr(String);
/// SET PRESS.
pub(crate) struct SetPress(String);
/// SET STYLE.
pub(crate) struct SetStyle(String);
/// SET END.
pub(crate) struct SetEnd(String);

impl Command for SetPhaseLength {
    const SPEC: Spec = Spec::new(
        "SET PHASE LENGTH",
        "SET PHASE LENGTH 72h [24h [48h]]",
        "How long movement phases last at least [retreats] [adjustments]: 72h, 3d, 90m; SET CLOCK puts the deadline at a time of day.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        let v = value(args, &Self::SPEC)?;
        if v.split_whitespace().count() > 3 {
            return Err(format!("write {}", Self::SPEC.usage));
        }
        Ok(SetPhaseLength(v))
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set_told(s, &game, |st| {
            let parts: Vec<&str> = self.0.split_whitespace().collect();
            st.movement_minutes = time::parse_duration(parts[0])?.max(1);
            if let Some(second) = parts.get(1) {
                st.short_minutes = time::parse_duration(second)?.max(1);
                st.adjustment_minutes = None;
            }
            if let Some(third) = parts.get(2) {
                st.adjustment_minutes = Some(time::parse_duration(third)?.max(1));
            }
            Ok(match st.adjustment_minutes {
                None => format!(
                    "movement phases last {}, retreats and adjustments {}",
                    time::show_duration(st.movement_minutes),
                    time::show_duration(st.short_minutes)
                ),
                Some(a) => format!(
                    "movement phases last {}, retreats {}, adjustments {}",
                    time::show_duration(st.movement_minutes),
                    time::show_duration(st.short_minutes),
                    time::show_duration(a)
                ),
            })
        })
    }
}

impl Command for SetGrace {
    const SPEC: Spec = Spec::new(
        "SET GRACE",
        "SET GRACE 24h",
        "How long after a deadline late orders are still taken (24h, 2m, 1h30m).",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        value(args, &Self::SPEC).map(SetGrace)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        // njudge's `SET GRACE date` ends the current phase's grace at a
        // date; the grace here is one length after every deadline.
        if time::parse_duration(&self.0).is_err() && self.0.split_whitespace().count() > 1 {
            return Err(format!(
                "the grace here is a length after every deadline, not a date (njudge's SET \
                 GRACE date): write SET GRACE 72h; SET DEADLINE {} moves this phase's deadline \
                 instead",
                crate::mail::header_text(&self.0, 40)
            )
            .into());
        }
        set_told(s, &game, |st| {
            st.grace_minutes = time::parse_duration(&self.0)?;
            Ok(format!(
                "grace period {}",
                time::show_duration(st.grace_minutes)
            ))
        })
    }
}

impl Command for SetReminder {
    const SPEC: Spec = Spec::new(
        "SET REMINDER",
        "SET REMINDER 24h",
        "How long before a deadline players with missing orders are reminded (0h: never).",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        value(args, &Self::SPEC).map(SetReminder)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set(s, &game, |st| {
            st.reminder_minutes = time::parse_duration(&self.0)?;
            Ok(format!(
                "reminders {} before the deadline",
                time::show_duration(st.reminder_minutes)
            ))
        })
    }
}

impl Command for SetTimezone {
    const SPEC: Spec = Spec {
        also: &["SET TIME ZONE"],
        ..Spec::new(
            "SET TIMEZONE",
            "SET TIMEZONE Europe/London",
            "The game's time zone, for showing and reading times.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        value(args, &Self::SPEC).map(SetTimezone)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set_told(s, &game, |st| {
            if !time::valid_zone(&self.0) {
                return Err(format!(
                    "unknown time zone `{}` (use a name like Europe/London)",
                    crate::mail::header_text(&self.0, 40)
                ));
            }
            st.timezone = self.0.clone();
            Ok(format!("time zone {}", self.0))
        })
    }
}

impl Command for SetNmr {
    const SPEC: Spec = Spec::new(
        "SET NMR",
        "SET NMR HOLD|CD  (njudge's SET NMR and SET CD: CD; SET NO NMR, SET NO CD: HOLD)",
        "A power without orders holds, or is put in civil disorder.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        // njudge's `SET NMR` alone: late powers are processed in civil
        // disorder.
        if args.bare().is_empty() {
            return Ok(SetNmr("CD".into()));
        }
        value(args, &Self::SPEC).map(SetNmr)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set_told(s, &game, |st| {
            st.nmr = match self.0.to_ascii_uppercase().as_str() {
                "HOLD" => Nmr::Hold,
                "CD" | "CIVIL DISORDER" => Nmr::CivilDisorder,
                _ => return Err("SET NMR HOLD or SET NMR CD".into()),
            };
            Ok(match st.nmr {
                Nmr::Hold => "a power without orders at the deadline holds (NMR HOLD)".into(),
                Nmr::CivilDisorder => {
                    "a power without orders at the deadline goes into civil disorder \
                     (NMR CD)"
                        .into()
                }
            })
        })
    }
}

impl Command for SetPress {
    const SPEC: Spec = Spec::new(
        "SET PRESS",
        "SET PRESS WHITE|GREY|NONE",
        "What press the game allows.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        value(args, &Self::SPEC).map(SetPress)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set_told(s, &game, |st| {
            st.press = match self.0.to_ascii_uppercase().as_str() {
                "WHITE" => Press::White,
                "GREY" | "GRAY" => Press::Grey,
                "NONE" | "NO" => Press::None,
                _ => return Err("SET PRESS WHITE, GREY or NONE".into()),
            };
            Ok(match st.press {
                Press::White => "press is white: signed, to anyone".to_string(),
                Press::Grey => "press may be grey: sent without the sender's name".to_string(),
                Press::None => "no press: players may not send press".to_string(),
            })
        })
    }
}

impl Command for SetStyle {
    const SPEC: Spec = Spec::new(
        "SET STYLE",
        "SET STYLE ZINE|JUDGE",
        "The layout of the results.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        value(args, &Self::SPEC).map(SetStyle)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set(s, &game, |st| {
            st.style = match self.0.to_ascii_uppercase().as_str() {
                "ZINE" => Style::Zine,
                "JUDGE" => Style::Judge,
                _ => return Err("SET STYLE ZINE or SET STYLE JUDGE".into()),
            };
            Ok(match st.style {
                Style::Zine => "results in the zine style".to_string(),
                Style::Judge => "results in the judge style".to_string(),
            })
        })
    }
}

impl Command for SetEnd {
    const SPEC: Spec = Spec::new(
        "SET END",
        "SET END year|NONE",
        "End the game after that year (1700 AD II: 1713 or 1721); most centres gained wins.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        value(args, &Self::SPEC).map(SetEnd)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        // The variant may name the only years its game can end in.
        let g = load(s.tx, &game)?;
        let years = judge.variant(&g.variant)?.victory.end_years.clone();
        set_told(s, &game, |st| {
            if self.0.eq_ignore_ascii_case("none") {
                st.last_year = None;
                return Ok("no last year".to_string());
            }
            let y: i32 = self
                .0
                .parse()
                .map_err(|_| "SET END year (the game ends after it), or SET END NONE")?;
            if !years.is_empty() && !years.contains(&y) {
                let list: Vec<String> = years.iter().map(i32::to_string).collect();
                return Err(format!(
                    "this game may end only after {}",
                    list.join(" or ")
                ));
            }
            st.last_year = Some(y);
            Ok(format!("the game ends after {y}"))
        })
    }
}

/// SET ROSTER.
pub(crate) struct SetRoster(bool);

impl Command for SetRoster {
    const SPEC: Spec = Spec::new(
        "SET ROSTER",
        "SET ROSTER NAMES|ADDRESSES",
        "What WHO shows the players: their names only (the default), or their addresses too.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [w] if w.eq_ignore_ascii_case("names") => Ok(SetRoster(false)),
            [w] if w.eq_ignore_ascii_case("addresses") => Ok(SetRoster(true)),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set(s, &game, |st| {
            st.roster_addresses = self.0;
            Ok(if self.0 {
                "the roster shows players' names and addresses".to_string()
            } else {
                "the roster shows players' names only".to_string()
            })
        })
    }
}

/// SET CLOCK: the game clock, every deadline's time of day and days.
pub(crate) struct SetClock(Option<(u16, Weekdays)>);

/// Read a time of day, `20:00` or `8:30pm`, as minutes after midnight.
fn time_of_day(w: &str) -> Option<u16> {
    let lower = w.to_ascii_lowercase();
    let (t, pm) = if let Some(t) = lower.strip_suffix("pm") {
        (t, Some(true))
    } else if let Some(t) = lower.strip_suffix("am") {
        (t, Some(false))
    } else {
        (lower.as_str(), None)
    };
    let (h, m) = match t.split_once(':') {
        Some((h, m)) => (h.parse::<u16>().ok()?, m.parse::<u16>().ok()?),
        None => (t.parse::<u16>().ok()?, 0),
    };
    let h = match pm {
        None => h,
        Some(_) if !(1..=12).contains(&h) => return None,
        Some(true) => h % 12 + 12,
        Some(false) => h % 12,
    };
    (h < 24 && m < 60).then_some(h * 60 + m)
}

/// The day of the week a word names (`Mon`, `monday`), 0 = Monday.
fn weekday(w: &str) -> Option<u8> {
    let w = w.to_ascii_lowercase();
    if w.len() < 2 {
        return None;
    }
    Weekdays::NAMES
        .iter()
        .position(|d| d.to_ascii_lowercase().starts_with(&w))
        .map(|i| i as u8)
}

/// Read days as a GM writes them: `Mon-Fri`, `Mon,Wed,Fri`, `weekdays`,
/// `weekends`, `any`.
fn days(text: &str) -> Option<Weekdays> {
    let t = text.trim().to_ascii_lowercase();
    match t.as_str() {
        "" | "any" | "every day" | "daily" | "all" => return Some(Weekdays::ALL),
        "weekdays" => return Some(Weekdays(0b001_1111)),
        "weekends" | "weekend" => return Some(Weekdays(0b110_0000)),
        _ => {}
    }
    let mut bits = 0u8;
    for part in t.split([',', ' ']).filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (weekday(a)?, weekday(b)?);
                let mut d = a;
                loop {
                    bits |= 1 << d;
                    if d == b {
                        break;
                    }
                    d = (d + 1) % 7;
                }
            }
            None => bits |= 1 << weekday(part)?,
        }
    }
    Some(Weekdays(bits))
}

impl Command for SetClock {
    const SPEC: Spec = Spec::new(
        "SET CLOCK",
        "SET CLOCK 20:00 [Mon-Fri | Mon,Wed,Fri | weekdays], or SET CLOCK NONE",
        "Put every deadline at this time of day in the game's zone, on these days only: the first such time once the phase's length has passed.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        let usage = || format!("write {}", Self::SPEC.usage);
        match a.words.first() {
            None => Err(usage()),
            Some(w) if w.eq_ignore_ascii_case("none") && a.len() == 1 => Ok(SetClock(None)),
            Some(w) => {
                // Days alone keep the time of day of each phase's end.
                if let Some(t) = time_of_day(w) {
                    let d = days(&a.rest(1)).ok_or_else(usage)?;
                    Ok(SetClock(Some((t, d))))
                } else {
                    Err(usage())
                }
            }
        }
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set_told(s, &game, |st| {
            match self.0 {
                None => {
                    st.deadline_time = None;
                    st.weekdays = Weekdays::ALL;
                    return Ok(
                        "no game clock: each deadline is the phase's length after it opens".into(),
                    );
                }
                Some((t, d)) => {
                    st.deadline_time = Some(t);
                    st.weekdays = d;
                }
            }
            Ok(format!(
                "deadlines fall at {:02}:{:02} ({}), {}, the first such time once the phase's length has passed",
                st.deadline_time.unwrap_or(0) / 60,
                st.deadline_time.unwrap_or(0) % 60,
                st.timezone,
                st.weekdays.show()
            ))
        })
    }
}

/// SET EARLY.
pub(crate) struct SetEarly(Early);

impl Command for SetEarly {
    const SPEC: Spec = Spec::new(
        "SET EARLY",
        "SET EARLY COMPLETE|READY",
        "When a phase goes before its deadline: once every player's orders are complete (unless they SET WAIT; the default), or only once every player sent READY.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [w] if w.eq_ignore_ascii_case("complete") => Ok(SetEarly(Early::Complete)),
            [w] if w.eq_ignore_ascii_case("ready") => Ok(SetEarly(Early::Ready)),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set_told(s, &game, |st| {
            st.early = self.0;
            Ok(match self.0 {
                Early::Complete => "a phase goes early once every player's orders are complete (a player who sends SET WAIT holds it until the deadline)".into(),
                Early::Ready => "a phase goes early only once every player has sent READY".into(),
            })
        })?;
        s.stir(&game);
        Ok(())
    }
}

/// SET ASSIGNMENT.
pub(crate) struct SetAssignment(Assignment);

impl Command for SetAssignment {
    const SPEC: Spec = Spec::new(
        "SET ASSIGNMENT",
        "SET ASSIGNMENT PREFERENCE|FIRST-COME|GM",
        "How powers are given: by the players' preference lists at the start (the default), to each the first free power of their list at JOIN, or by the GM (ASSIGN).",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [w] if w.eq_ignore_ascii_case("preference")
                || w.eq_ignore_ascii_case("preferences") =>
            {
                Ok(SetAssignment(Assignment::Preference))
            }
            [w] if w.eq_ignore_ascii_case("first-come") || w.eq_ignore_ascii_case("firstcome") => {
                Ok(SetAssignment(Assignment::FirstCome))
            }
            [a, b] if a.eq_ignore_ascii_case("first") && b.eq_ignore_ascii_case("come") => {
                Ok(SetAssignment(Assignment::FirstCome))
            }
            [w] if w.eq_ignore_ascii_case("gm") => Ok(SetAssignment(Assignment::Gm)),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let g = load(s.tx, &game)?;
        if g.status != crate::game::record::Status::Forming {
            return Err(format!("{} has started: its powers are given", g.name).into());
        }
        set_told(s, &game, |st| {
            st.assignment = self.0;
            Ok(match self.0 {
                Assignment::Preference => "powers are given at the start by the players' preference lists, the most wishes met and ties drawn at random".into(),
                Assignment::FirstCome => "each player gets the first free power of their list when they join".into(),
                Assignment::Gm => "the GM gives the powers (ASSIGN power address) and starts the game".into(),
            })
        })
    }
}

/// njudge's SET CD: SET NMR CD.
pub(crate) struct SetCd;
/// njudge's SET NO NMR, SET NO CD: SET NMR HOLD.
pub(crate) struct SetNoNmr;

impl Command for SetCd {
    const SPEC: Spec = Spec {
        other_judges: true,
        ..Spec::new(
            "SET CD",
            "SET CD  (njudge; SET NMR CD)",
            "A power without orders at the deadline goes into civil disorder.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| SetCd)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        SetNmr("CD".into()).run(judge, s, game)
    }
}

impl Command for SetNoNmr {
    const SPEC: Spec = Spec {
        other_judges: true,
        also: &["SET NONMR", "SET NO CD", "SET NOCD"],
        ..Spec::new(
            "SET NO NMR",
            "SET NO NMR  (njudge; also SET NO CD: SET NMR HOLD)",
            "A power without orders holds: njudge's NoNMR waits for it, this judge never waits past the grace.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| SetNoNmr)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        SetNmr("HOLD".into()).run(judge, s, game)?;
        s.say(
            "  (njudge's NoNMR waits for a late power; here a phase never waits past its \
             grace: the units of a power without orders hold.)",
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_of_day_and_days_read_as_gms_write_them() {
        assert_eq!(time_of_day("20:00"), Some(1200));
        assert_eq!(time_of_day("8:30pm"), Some(20 * 60 + 30));
        assert_eq!(time_of_day("12am"), Some(0));
        assert_eq!(time_of_day("24:00"), None);
        assert_eq!(time_of_day("Mon"), None);
        assert_eq!(days("Mon-Fri"), Some(Weekdays(0b001_1111)));
        assert_eq!(days("mon,wed,fri"), Some(Weekdays(0b001_0101)));
        assert_eq!(days("Fri-Mon"), Some(Weekdays(0b111_0001)));
        assert_eq!(days("weekends"), Some(Weekdays(0b110_0000)));
        assert_eq!(days(""), Some(Weekdays::ALL));
        assert_eq!(days("someday"), None);
    }
}
