//! Showing and reading times in a game's time zone (jiff, with the IANA
//! database). Stored times are Unix seconds in UTC; a time zone only
//! changes how they read, so a change to summer time never moves a
//! deadline.
//!
//! Its own module, below the command language and the web pages alike, so
//! that a page shows a time exactly as the mail does without the pages
//! reaching into the commands (the daemon serves the pages and runs the
//! commands: that would be a cycle).

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;

/// The zone, or UTC when the name is unknown (names are checked when set).
pub fn zone(name: &str) -> TimeZone {
    TimeZone::get(name).unwrap_or(TimeZone::UTC)
}

/// `Sat 28 Nov 2026 18:00 GMT`.
pub fn show(t: i64, tz: &str) -> String {
    match Timestamp::from_second(t) {
        Ok(ts) => ts
            .to_zoned(zone(tz))
            .strftime("%a %d %b %Y %H:%M %Z")
            .to_string(),
        Err(_) => "(no time)".to_string(),
    }
}

/// A deadline read from what a GM wrote: when, and anything the GM should
/// know about the time chosen (a clock time that happens twice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deadline {
    /// Unix seconds.
    pub at: i64,
    /// A warning to pass on, if any.
    pub warning: Option<String>,
}

/// Read a deadline as a GM writes it, in the game's zone unless a zone is
/// given:
/// - a date and time: `2026-11-28 18:00`, `2026-11-28 18:00 Europe/London`,
///   `2026-11-28T18:00`;
/// - a weekday or day word and a time: `Saturday 18:00`, `sat 18:00`,
///   `tomorrow 9:00`, `today 23:00` (the next such time after now);
/// - relative to the current deadline: `+36h`, `+3d`, `+90m`, `-12h` (to
///   now when the game has none);
/// - relative to now: `in 36h`, `in 3d`, `in 90m`.
///
/// A clock time that does not exist in the zone that day (the hour skipped
/// when summer time starts) is refused; one that happens twice (the hour
/// repeated when it ends) is the first, with a warning.
pub fn parse_deadline(
    text: &str,
    tz: &str,
    now: i64,
    current: Option<i64>,
) -> Result<Deadline, String> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let relative = if let Some(rel) = lower.strip_prefix("in ") {
        Some((now, 1, rel.trim().to_string()))
    } else if let Some(rel) = lower.strip_prefix('+') {
        Some((current.unwrap_or(now), 1, rel.trim().to_string()))
    } else {
        lower
            .strip_prefix('-')
            .map(|rel| (current.unwrap_or(now), -1, rel.trim().to_string()))
    };
    if let Some((base, sign, rel)) = relative {
        let bad = || format!("cannot read `{text}`: expected +36h, -12h, +3d, +90m or in 48h");
        let (num, unit) =
            rel.split_at(rel.find(|c: char| !c.is_ascii_digit()).unwrap_or(rel.len()));
        let n: i64 = num.parse().map_err(|_| bad())?;
        let secs = match unit.trim() {
            "s" | "sec" | "secs" | "second" | "seconds" => n,
            "m" | "min" | "mins" | "minute" | "minutes" => n * 60,
            "h" | "hour" | "hours" | "" => n * 3600,
            "d" | "day" | "days" => n * 86400,
            _ => return Err(bad()),
        };
        let at = base + sign * secs;
        if at <= now {
            return Err(format!("{} is in the past", show(at, tz)));
        }
        return Ok(Deadline { at, warning: None });
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    if let [day, clock, rest @ ..] = words.as_slice()
        && rest.len() <= 1
        && let Some(days) = Day::read(day)
    {
        let zone_name = rest.first().copied().unwrap_or(tz);
        let zone =
            TimeZone::get(zone_name).map_err(|_| format!("unknown time zone `{zone_name}`"))?;
        let bad = || format!("cannot read `{clock}` as a time of day: write 18:00");
        let (h, m) = clock.split_once(':').ok_or_else(bad)?;
        let h: i8 = h.parse().map_err(|_| bad())?;
        let m: i8 = m.parse().map_err(|_| bad())?;
        let time = jiff::civil::Time::new(h, m, 0, 0).map_err(|_| bad())?;
        let today = Timestamp::from_second(now)
            .map_err(|e| e.to_string())?
            .to_zoned(zone.clone())
            .date();
        // The first day that fits whose time is still ahead.
        for ahead in 0..15 {
            let date = today
                .checked_add(jiff::Span::new().days(ahead))
                .map_err(|e| e.to_string())?;
            if !days.fits(date.weekday(), ahead) {
                continue;
            }
            let d = resolve(date.to_datetime(time), &zone, zone_name)?;
            if d.at > now {
                return Ok(d);
            }
        }
        return Err(format!("{t} is in the past"));
    }
    let (dt_text, zone_name) = match words.as_slice() {
        [d, time, z] => (format!("{d} {time}"), *z),
        [d, time] if !time.contains('/') && time.contains(':') => (format!("{d} {time}"), tz),
        [dt, z] => (dt.to_string(), *z),
        [dt] => (dt.to_string(), tz),
        _ => {
            return Err(format!(
                "cannot read `{text}` as a time: write 2026-11-28 18:00 [Europe/London], \
                 Saturday 18:00, +48h or in 48h"
            ));
        }
    };
    let zone = TimeZone::get(zone_name).map_err(|_| format!("unknown time zone `{zone_name}`"))?;
    let dt: DateTime = dt_text.replace(' ', "T").parse().map_err(|_| {
        format!("cannot read `{dt_text}` as a date and time: write 2026-11-28 18:00")
    })?;
    let d = resolve(dt, &zone, zone_name)?;
    if d.at <= now {
        return Err(format!("{} is in the past", show(d.at, zone_name)));
    }
    Ok(d)
}

/// A day word: `today`, `tomorrow` (days ahead), or a weekday.
enum Day {
    Ahead(i64),
    Weekday(jiff::civil::Weekday),
}

impl Day {
    /// `sat`, `Saturday`, `today`, `tomorrow`.
    fn read(w: &str) -> Option<Day> {
        use jiff::civil::Weekday::*;
        Some(
            match w.trim_end_matches(',').to_ascii_lowercase().as_str() {
                "today" => Day::Ahead(0),
                "tomorrow" => Day::Ahead(1),
                "mon" | "monday" => Day::Weekday(Monday),
                "tue" | "tues" | "tuesday" => Day::Weekday(Tuesday),
                "wed" | "wednesday" => Day::Weekday(Wednesday),
                "thu" | "thur" | "thurs" | "thursday" => Day::Weekday(Thursday),
                "fri" | "friday" => Day::Weekday(Friday),
                "sat" | "saturday" => Day::Weekday(Saturday),
                "sun" | "sunday" => Day::Weekday(Sunday),
                _ => return None,
            },
        )
    }

    /// Whether the date `ahead` days from today, a `weekday`, is this day.
    fn fits(&self, weekday: jiff::civil::Weekday, ahead: i64) -> bool {
        match self {
            Day::Ahead(n) => *n == ahead,
            Day::Weekday(w) => *w == weekday,
        }
    }
}

/// A clock time in a zone as an instant: refused in a gap, the earlier of
/// two in a fold (with a warning).
fn resolve(dt: DateTime, zone: &TimeZone, zone_name: &str) -> Result<Deadline, String> {
    use jiff::tz::AmbiguousOffset;
    let amb = zone.to_ambiguous_zoned(dt);
    match amb.offset() {
        AmbiguousOffset::Unambiguous { .. } => {}
        AmbiguousOffset::Gap { .. } => {
            return Err(format!(
                "{} does not exist in {zone_name}: the clocks go forward then; \
                 choose another time",
                dt.strftime("%Y-%m-%d %H:%M")
            ));
        }
        AmbiguousOffset::Fold { .. } => {
            let z = amb.earlier().map_err(|e| e.to_string())?;
            return Ok(Deadline {
                at: z.timestamp().as_second(),
                warning: Some(format!(
                    "{} happens twice in {zone_name} (the clocks go back then): the first, \
                     {}, is taken",
                    dt.strftime("%Y-%m-%d %H:%M"),
                    z.strftime("%H:%M %Z")
                )),
            });
        }
    }
    let z = amb.compatible().map_err(|e| e.to_string())?;
    Ok(Deadline {
        at: z.timestamp().as_second(),
        warning: None,
    })
}

/// Read a duration as minutes: `72h`, `3d`, `90m`, `2m`, `1h30m`, `48`
/// (a bare number is hours, as it always was). Every duration a GM writes
/// (phase lengths, grace, reminders) is read here, so each takes minutes.
pub fn parse_duration(text: &str) -> Result<u32, String> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || format!("cannot read `{text}`: write 72h, 3d, 90m or 1h30m");
    if t.is_empty() {
        return Err(bad());
    }
    if t.chars().all(|c| c.is_ascii_digit()) {
        return t
            .parse::<u32>()
            .ok()
            .and_then(|h| h.checked_mul(60))
            .ok_or_else(bad);
    }
    let mut total: u32 = 0;
    let mut rest = t.as_str();
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits == 0 {
            return Err(bad());
        }
        let n: u32 = rest[..digits].parse().map_err(|_| bad())?;
        rest = rest[digits..].trim_start();
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let unit = rest[..unit_len].trim();
        rest = rest[unit_len..].trim_start();
        let per = match unit {
            "m" | "min" | "mins" | "minute" | "minutes" => 1,
            "h" | "hour" | "hours" => 60,
            "d" | "day" | "days" => 24 * 60,
            _ => return Err(bad()),
        };
        total = n
            .checked_mul(per)
            .and_then(|m| total.checked_add(m))
            .ok_or_else(bad)?;
    }
    Ok(total)
}

/// A duration in minutes as a GM would write it: `72h`, `2m`, `1h30m`,
/// `3d` only when it is whole days beyond 72 hours (so `72h` stays `72h`).
pub fn show_duration(minutes: u32) -> String {
    let (h, m) = (minutes / 60, minutes % 60);
    match (h, m) {
        (0, 0) => "0h".to_string(),
        (0, m) => format!("{m}m"),
        (h, 0) if h > 72 && h % 24 == 0 => format!("{}d", h / 24),
        (h, 0) => format!("{h}h"),
        (h, m) => format!("{h}h{m}m"),
    }
}

/// Read an absence as a player writes it (njudge's `SET ABSENCE`): two
/// dates, each with an optional time, in the game's zone, optionally with
/// `TO` between them: `2026-12-20 2026-12-27`, `2026-12-20 TO 2026-12-27
/// 18:00`. A date alone starts at the beginning of that day and ends at
/// the end of it (so `2026-12-20 2026-12-20` is the whole day). The end
/// must be after now and after the start.
pub fn parse_span(text: &str, tz: &str, now: i64) -> Result<(i64, i64), String> {
    let bad = || {
        format!(
            "cannot read `{text}`: write two dates, as 2026-12-20 TO 2026-12-27 \
             (a time may follow each: 2026-12-20 18:00)"
        )
    };
    let zone = TimeZone::get(tz).map_err(|_| format!("unknown time zone `{tz}`"))?;
    let words: Vec<&str> = text
        .split_whitespace()
        .filter(|w| !w.eq_ignore_ascii_case("to") && *w != "-")
        .collect();
    let mut ends: Vec<i64> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let date: jiff::civil::Date = words[i].parse().map_err(|_| bad())?;
        let clock = words.get(i + 1).filter(|w| w.contains(':'));
        let dt = match clock {
            Some(c) => {
                i += 2;
                let (h, m) = c.split_once(':').ok_or_else(bad)?;
                let time = jiff::civil::Time::new(
                    h.parse().map_err(|_| bad())?,
                    m.parse().map_err(|_| bad())?,
                    0,
                    0,
                )
                .map_err(|_| bad())?;
                date.to_datetime(time)
            }
            None => {
                i += 1;
                // A date alone: from the start of the day, or to its end.
                let day = if ends.is_empty() {
                    date
                } else {
                    date.tomorrow().map_err(|_| bad())?
                };
                day.to_datetime(jiff::civil::Time::midnight())
            }
        };
        let z = zone
            .to_ambiguous_zoned(dt)
            .compatible()
            .map_err(|_| bad())?;
        ends.push(z.timestamp().as_second());
    }
    match ends.as_slice() {
        [from, to] if to > from => {
            if *to <= now {
                return Err(format!("{} is in the past", show(*to, tz)));
            }
            Ok((*from, *to))
        }
        [_, _] => Err("the absence ends before it starts".into()),
        _ => Err(bad()),
    }
}

/// Whether `name` is a known time zone.
pub fn valid_zone(name: &str) -> bool {
    TimeZone::get(name).is_ok()
}

/// `now + minutes`, as Unix seconds.
pub fn after_minutes(now: i64, minutes: u32) -> i64 {
    now + i64::from(minutes) * 60
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_read_in_the_games_zone_and_summer_time_moves_nothing() {
        let now = 1_700_000_000; // Nov 2023
        let summer = parse_deadline("2030-07-01 18:00", "Europe/London", now, None)
            .unwrap()
            .at;
        let winter = parse_deadline("2030-12-01 18:00", "Europe/London", now, None)
            .unwrap()
            .at;
        // 18:00 BST is 17:00 UTC; 18:00 GMT is 18:00 UTC.
        assert_eq!(summer % 86400, 17 * 3600);
        assert_eq!(winter % 86400, 18 * 3600);
        assert_eq!(show(summer, "Europe/London"), "Mon 01 Jul 2030 18:00 BST");
        assert_eq!(show(winter, "UTC"), "Sun 01 Dec 2030 18:00 UTC");
        assert_eq!(
            parse_deadline("+36h", "UTC", now, None).unwrap().at,
            now + 36 * 3600
        );
        assert!(parse_deadline("2001-01-01 10:00", "UTC", now, None).is_err());
        assert!(parse_deadline("tomorrow", "UTC", now, None).is_err());
        assert_eq!(parse_duration("3d"), Ok(72 * 60));
    }

    #[test]
    fn plus_moves_the_current_deadline_and_in_counts_from_now() {
        let now = 1_700_000_000;
        let current = now + 72 * 3600;
        let plus = parse_deadline("+48h", "UTC", now, Some(current)).unwrap();
        assert_eq!(plus.at, current + 48 * 3600);
        let minus = parse_deadline("-24h", "UTC", now, Some(current)).unwrap();
        assert_eq!(minus.at, current - 24 * 3600);
        let within = parse_deadline("in 48h", "UTC", now, Some(current)).unwrap();
        assert_eq!(within.at, now + 48 * 3600);
        assert_eq!(
            parse_deadline("+90m", "UTC", now, None).unwrap().at,
            now + 90 * 60
        );
        assert!(parse_deadline("-100h", "UTC", now, Some(current)).is_err());
    }

    #[test]
    fn weekdays_and_day_words_are_the_next_such_time() {
        // Tue 14 Nov 2023 22:13:20 UTC.
        let now = 1_700_000_000;
        let sat = parse_deadline("Saturday 18:00", "UTC", now, None).unwrap();
        assert_eq!(show(sat.at, "UTC"), "Sat 18 Nov 2023 18:00 UTC");
        let tue = parse_deadline("tue 23:00", "UTC", now, None).unwrap();
        assert_eq!(show(tue.at, "UTC"), "Tue 14 Nov 2023 23:00 UTC");
        let tue = parse_deadline("tue 21:00", "UTC", now, None).unwrap();
        assert_eq!(show(tue.at, "UTC"), "Tue 21 Nov 2023 21:00 UTC");
        let tomorrow = parse_deadline("tomorrow 9:00 Europe/Paris", "UTC", now, None).unwrap();
        assert_eq!(
            show(tomorrow.at, "Europe/Paris"),
            "Wed 15 Nov 2023 09:00 CET"
        );
    }

    #[test]
    fn summer_time_gaps_are_refused_and_folds_warned() {
        let now = 1_700_000_000;
        // 02:30 on 9 March 2025 does not exist in New York.
        let gap = parse_deadline("2025-03-09 02:30", "America/New_York", now, None);
        assert!(gap.unwrap_err().contains("does not exist"));
        // 01:30 on 2 November 2025 happens twice: the first (EDT).
        let fold = parse_deadline("2025-11-02 01:30", "America/New_York", now, None).unwrap();
        assert_eq!(
            show(fold.at, "America/New_York"),
            "Sun 02 Nov 2025 01:30 EDT"
        );
        assert!(fold.warning.unwrap().contains("happens twice"));
    }

    #[test]
    fn durations_take_minutes_everywhere() {
        assert_eq!(parse_duration("2m"), Ok(2));
        assert_eq!(parse_duration("90m"), Ok(90));
        assert_eq!(parse_duration("1h30m"), Ok(90));
        assert_eq!(parse_duration("72h"), Ok(72 * 60));
        assert_eq!(parse_duration("48"), Ok(48 * 60));
        assert_eq!(parse_duration("2 days"), Ok(48 * 60));
        assert!(parse_duration("2x").is_err());
        assert!(parse_duration("m").is_err());
        assert!(parse_duration("").is_err());
        assert_eq!(show_duration(2), "2m");
        assert_eq!(show_duration(90), "1h30m");
        assert_eq!(show_duration(72 * 60), "72h");
        assert_eq!(show_duration(7 * 24 * 60), "7d");
    }

    #[test]
    fn absences_are_whole_days_unless_a_time_is_given() {
        let now = 1_700_000_000; // Tue 14 Nov 2023
        let (from, to) = parse_span("2023-12-20 TO 2023-12-27", "UTC", now).unwrap();
        assert_eq!(show(from, "UTC"), "Wed 20 Dec 2023 00:00 UTC");
        assert_eq!(show(to, "UTC"), "Thu 28 Dec 2023 00:00 UTC");
        let (_, to) = parse_span("2023-12-20 2023-12-27 18:00", "Europe/Paris", now).unwrap();
        assert_eq!(show(to, "Europe/Paris"), "Wed 27 Dec 2023 18:00 CET");
        assert!(parse_span("2023-12-27 2023-12-20", "UTC", now).is_err());
        assert!(parse_span("2023-01-01 2023-01-02", "UTC", now).is_err());
        assert!(parse_span("next week", "UTC", now).is_err());
    }
}
