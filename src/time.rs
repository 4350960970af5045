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
pub(crate) fn zone(name: &str) -> TimeZone {
    TimeZone::get(name).unwrap_or(TimeZone::UTC)
}

/// `Sat 28 Nov 2026 18:00 GMT`.
pub(crate) fn show(t: i64, tz: &str) -> String {
    match Timestamp::from_second(t) {
        Ok(ts) => ts
            .to_zoned(zone(tz))
            .strftime("%a %d %b %Y %H:%M %Z")
            .to_string(),
        Err(_) => "(no time)".to_string(),
    }
}

/// A deadline as every mail shows it: in the game's zone, then in UTC
/// once, its clock time alone when the day is the same there (`Tue 04
/// Jan 2028 07:00 EST (12:00 UTC)`, `Mon 03 Jan 2028 21:00 EST (Tue 04
/// Jan 02:00 UTC)`); the zone's time alone where it is UTC's (London in
/// winter, though it says GMT). One way everywhere, so that a player
/// comparing the sign-on line, a reply, a reminder and the results sees
/// one deadline.
pub(crate) fn show_deadline(t: i64, tz: &str) -> String {
    let Ok(ts) = Timestamp::from_second(t) else {
        return "(no time)".to_string();
    };
    let here = ts.to_zoned(zone(tz));
    if here.offset().seconds() == 0 {
        return show(t, tz);
    }
    let utc = ts.to_zoned(TimeZone::UTC);
    let there = if utc.date() == here.date() {
        utc.strftime("%H:%M UTC").to_string()
    } else {
        utc.strftime("%a %d %b %H:%M UTC").to_string()
    };
    format!("{} ({there})", show(t, tz))
}

/// `t` moved on to the next whole minute, if it is not on one: a deadline
/// is kept on the minute it is shown at (a mail shows `12:05`, so a
/// deadline of 12:04:24 would take orders a player believes late, and
/// close on one who reads 12:04 as the minute's end). Every deadline the
/// judge sets goes through here or is a clock time already.
pub(crate) fn on_minute(t: i64) -> i64 {
    t.div_euclid(60) * 60 + if t.rem_euclid(60) == 0 { 0 } else { 60 }
}

/// A deadline read from what a GM wrote: when, and anything the GM should
/// know about the time chosen (a clock time that happens twice).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Deadline {
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
/// A relative deadline is moved on to the next whole minute
/// ([`on_minute`]), so it is kept at the minute shown.
///
/// A clock time that does not exist in the zone that day (the hour skipped
/// when summer time starts) is refused; one that happens twice (the hour
/// repeated when it ends) is the first, with a warning.
pub(crate) fn parse_deadline(
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
        // On the minute the GM is shown: `in 4m` at 12:00:24 is 12:05.
        let at = on_minute(base + sign * secs);
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
    // njudge's and DPjudge's dates: `Dec 2 23:30`, `2 Dec 2026 23:30`,
    // `Mon 18:00`, `15 23:30`.
    if let Some(d) = other_judges_deadline(&words, tz, now)? {
        return Ok(d);
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
pub(crate) fn parse_duration(text: &str) -> Result<u32, String> {
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
pub(crate) fn show_duration(minutes: u32) -> String {
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
pub(crate) fn parse_span(text: &str, tz: &str, now: i64) -> Result<(i64, i64), String> {
    check_span(read_span(text, tz, now)?, tz, now)
}

/// The span a player's text names, read as [`parse_span`] reads it but
/// not checked against now (njudge's `SET NOABSENCE 29 Jun` names a day of
/// an absence already begun).
pub(crate) fn read_span(text: &str, tz: &str, now: i64) -> Result<(i64, i64), String> {
    if let Some(span) = other_judges_span(text, tz, now)? {
        return Ok(span);
    }
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
        [from, to] => Ok((*from, *to)),
        // A date alone: that whole day (as njudge reads one).
        [from] if !words[words.len() - 1].contains(':') => Ok((*from, *from + 86_400)),
        _ => Err(bad()),
    }
}

/// An absence that ends after it starts and after now.
fn check_span((from, to): (i64, i64), tz: &str, now: i64) -> Result<(i64, i64), String> {
    if to <= from {
        return Err("the absence ends before it starts".into());
    }
    if to <= now {
        return Err(format!("{} is in the past", show(to, tz)));
    }
    Ok((from, to))
}

/// What a word of an njudge or DPjudge date is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    /// `mon` .. `sun` (or the whole name).
    Weekday(jiff::civil::Weekday),
    /// `jan` .. `dec` (or the whole name), 1 to 12.
    Month(i8),
    /// A number from 1 to 31: a day of the month.
    Day(i8),
    /// A year: four digits, or two after a month.
    Year(i16),
    /// `hh:mm`.
    Clock(jiff::civil::Time),
}

/// The month a word names (`dec`, `December`).
fn month_of(w: &str) -> Option<i8> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let w = w.to_ascii_lowercase();
    let w = w.trim_end_matches(['.', ',']);
    if w.len() < 3 {
        return None;
    }
    let full = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    MONTHS
        .iter()
        .zip(full)
        .position(|(short, long)| w == *short || (long.starts_with(w) && w.len() >= 3))
        .map(|i| i as i8 + 1)
}

/// The parts of a date as njudge and DPjudge read them: in any order (`Dec
/// 2 23:30`, `2 DEC 2026`, `Jun 23:30 15`). `None` when a word is none of
/// them.
fn date_parts(words: &[&str]) -> Option<Vec<Part>> {
    let mut out = Vec::new();
    for w in words {
        let w = w.trim_end_matches([',', '.']);
        if let Some(m) = month_of(w) {
            out.push(Part::Month(m));
        } else if let Some(Day::Weekday(d)) = Day::read(w) {
            out.push(Part::Weekday(d));
        } else if let Some((h, m)) = w.split_once(':') {
            let time = jiff::civil::Time::new(h.parse().ok()?, m.parse().ok()?, 0, 0).ok()?;
            out.push(Part::Clock(time));
        } else if w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()) {
            out.push(Part::Year(w.parse().ok()?));
        } else if (1..=2).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_digit()) {
            let n: i8 = w.parse().ok()?;
            // Two digits after a day and a month: DPjudge's short year.
            let has_day = out.iter().any(|p| matches!(p, Part::Day(_)));
            let has_month = out.iter().any(|p| matches!(p, Part::Month(_)));
            if has_day && has_month {
                out.push(Part::Year(2000 + i16::from(n)));
            } else if (1..=31).contains(&n) {
                out.push(Part::Day(n));
            } else {
                return None;
            }
        } else {
            return None;
        }
    }
    Some(out)
}

/// The date and time the parts name, on or after `from` (the day to count
/// from): a day without a month is the next day of that number, a month
/// without a day its last day, a date without a year the next one, a
/// weekday the next such day (today too); nothing but a time is `from`.
/// The time is `None` when none was written.
fn resolve_parts(
    parts: &[Part],
    from: jiff::civil::Date,
) -> Result<(jiff::civil::Date, Option<jiff::civil::Time>), String> {
    let mut weekday = None;
    let mut month = None;
    let mut day = None;
    let mut year = None;
    let mut clock = None;
    let twice = || "the date names one part twice".to_string();
    for p in parts {
        match *p {
            Part::Weekday(d) if weekday.is_none() => weekday = Some(d),
            Part::Month(m) if month.is_none() => month = Some(m),
            Part::Day(d) if day.is_none() => day = Some(d),
            Part::Year(y) if year.is_none() => year = Some(y),
            Part::Clock(t) if clock.is_none() => clock = Some(t),
            _ => return Err(twice()),
        }
    }
    if weekday.is_some() && (month.is_some() || day.is_some() || year.is_some()) {
        return Err("a weekday goes without a date (write Mon 18:00, or 2 Dec 18:00)".into());
    }
    let bad = |y: i16, m: i8, d: i8| {
        jiff::civil::Date::new(y, m, d).map_err(|_| format!("there is no {d}/{m}/{y}"))
    };
    let date = if let Some(w) = weekday {
        let mut d = from;
        while d.weekday() != w {
            d = d.tomorrow().map_err(|e| e.to_string())?;
        }
        d
    } else {
        match (year, month, day) {
            (None, None, None) => from,
            (Some(y), Some(m), Some(d)) => bad(y, m, d)?,
            (Some(y), Some(m), None) => bad(y, m, 1)?.last_of_month(),
            (None, Some(m), d) => {
                let on = |y: i16| -> Result<jiff::civil::Date, String> {
                    match d {
                        Some(d) => bad(y, m, d),
                        None => Ok(bad(y, m, 1)?.last_of_month()),
                    }
                };
                let this = on(from.year());
                match this {
                    Ok(x) if x >= from => x,
                    _ => on(from.year() + 1)?,
                }
            }
            (None, None, Some(d)) => {
                // The next day of that number, this month or a later one.
                let mut first = from.first_of_month();
                let mut found = None;
                for _ in 0..3 {
                    if let Ok(x) = jiff::civil::Date::new(first.year(), first.month(), d)
                        && x >= from
                    {
                        found = Some(x);
                        break;
                    }
                    first = first
                        .last_of_month()
                        .tomorrow()
                        .map_err(|e| e.to_string())?;
                }
                found.ok_or_else(|| format!("no month ahead has a day {d}"))?
            }
            (Some(_), None, _) => {
                return Err("a year goes with a month (write 2 Dec 2026)".into());
            }
        }
    };
    Ok((date, clock))
}

/// An instant of a civil date and time in `zone`.
fn instant(
    zone: &TimeZone,
    date: jiff::civil::Date,
    time: jiff::civil::Time,
) -> Result<i64, String> {
    zone.to_ambiguous_zoned(date.to_datetime(time))
        .compatible()
        .map(|z| z.timestamp().as_second())
        .map_err(|e| e.to_string())
}

/// A deadline in njudge's or DPjudge's form (`Dec 2 23:30`, `2 DEC 2026
/// 23:30`, `15 23:30`, a zone may follow), if `words` are one: they hold a
/// month or a day number. The time must be written: the two judges
/// default it differently (23:30, midnight), so this judge asks.
fn other_judges_deadline(words: &[&str], tz: &str, now: i64) -> Result<Option<Deadline>, String> {
    let (date_words, zone_name) = match words {
        [rest @ .., z] if z.contains('/') || z.eq_ignore_ascii_case("utc") => (rest, *z),
        _ => (words, tz),
    };
    let Some(parts) = date_parts(date_words) else {
        return Ok(None);
    };
    if !parts
        .iter()
        .any(|p| matches!(p, Part::Month(_) | Part::Day(_)))
    {
        return Ok(None);
    }
    let zone = TimeZone::get(zone_name).map_err(|_| format!("unknown time zone `{zone_name}`"))?;
    let today = Timestamp::from_second(now)
        .map_err(|e| e.to_string())?
        .to_zoned(zone.clone())
        .date();
    let (date, clock) = resolve_parts(&parts, today)?;
    let Some(clock) = clock else {
        return Err(format!(
            "say the time too: {} 23:30 (or 2026-11-28 18:00)",
            words.join(" ")
        ));
    };
    let d = resolve(date.to_datetime(clock), &zone, zone_name)?;
    if d.at <= now {
        return Err(format!("{} is in the past", show(d.at, zone_name)));
    }
    Ok(Some(d))
}

/// An absence in njudge's or DPjudge's form, if `text` is one: `29 Jun`,
/// `3 Jul 12:00`, `Nov 23 TO 1 Dec`, `24 DEC TO 6 JAN`, `24 TO 6`, `TO
/// 13:00`. A start without a time is the start of its day; an end without
/// one, the end of its day; a date alone is that whole day, and a start
/// with a time and no end lasts 24 hours (njudge). The end is counted from
/// the start (`24 DEC TO 6 JAN` ends in the next year).
fn other_judges_span(text: &str, tz: &str, now: i64) -> Result<Option<(i64, i64)>, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let to = words.iter().position(|w| w.eq_ignore_ascii_case("to"));
    let (left, right) = match to {
        Some(i) => (&words[..i], Some(&words[i + 1..])),
        None => (&words[..], None),
    };
    let (Some(lp), rp) = (date_parts(left), right.map(date_parts)) else {
        return Ok(None);
    };
    let rp = match rp {
        Some(Some(p)) => Some(p),
        Some(None) => return Ok(None),
        None => None,
    };
    // ISO dates are this judge's own form, read by the caller.
    if lp.is_empty() && rp.as_ref().is_none_or(Vec::is_empty) {
        return Ok(None);
    }
    let zone = TimeZone::get(tz).map_err(|_| format!("unknown time zone `{tz}`"))?;
    let today = Timestamp::from_second(now)
        .map_err(|e| e.to_string())?
        .to_zoned(zone.clone())
        .date();
    let midnight = jiff::civil::Time::midnight();
    let (start_day, start_clock) = resolve_parts(&lp, today)?;
    let from = if lp.is_empty() {
        // DPjudge's `TO 13:00`: from now.
        now
    } else {
        instant(&zone, start_day, start_clock.unwrap_or(midnight))?
    };
    let end = match rp {
        Some(rp) => {
            let (day, clock) = resolve_parts(&rp, start_day)?;
            match clock {
                Some(c) => instant(&zone, day, c)?,
                None => instant(&zone, day.tomorrow().map_err(|e| e.to_string())?, midnight)?,
            }
        }
        None => match start_clock {
            Some(_) => from + 86_400,
            None => instant(
                &zone,
                start_day.tomorrow().map_err(|e| e.to_string())?,
                midnight,
            )?,
        },
    };
    Ok(Some((from, end)))
}

/// Whether `name` is a known time zone.
pub(crate) fn valid_zone(name: &str) -> bool {
    TimeZone::get(name).is_ok()
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
        // Relative to a moment within a minute: on the minute after.
        assert_eq!(
            parse_deadline("+36h", "UTC", now, None).unwrap().at,
            on_minute(now + 36 * 3600)
        );
        assert!(parse_deadline("2001-01-01 10:00", "UTC", now, None).is_err());
        assert!(parse_deadline("tomorrow", "UTC", now, None).is_err());
        assert_eq!(parse_duration("3d"), Ok(72 * 60));
    }

    #[test]
    fn plus_moves_the_current_deadline_and_in_counts_from_now() {
        let now = 1_700_000_000;
        // A deadline is on a minute; now is within one.
        let current = on_minute(now + 72 * 3600);
        let plus = parse_deadline("+48h", "UTC", now, Some(current)).unwrap();
        assert_eq!(plus.at, current + 48 * 3600);
        let minus = parse_deadline("-24h", "UTC", now, Some(current)).unwrap();
        assert_eq!(minus.at, current - 24 * 3600);
        let within = parse_deadline("in 48h", "UTC", now, Some(current)).unwrap();
        assert_eq!(within.at, on_minute(now + 48 * 3600));
        assert_eq!(
            parse_deadline("+90m", "UTC", now, None).unwrap().at,
            on_minute(now + 90 * 60)
        );
        assert!(parse_deadline("-100h", "UTC", now, Some(current)).is_err());
    }

    /// Issue #51: `in 4m` at 12:00:24 is kept at 12:05:00, the minute a
    /// mail shows; a moment on a minute stays.
    #[test]
    fn a_relative_deadline_is_kept_on_the_minute_shown() {
        let now = 1_830_340_800 + 24; // Sat 1 Jan 2028 12:00:24 UTC
        let d = parse_deadline("in 4m", "UTC", now, None).unwrap();
        assert_eq!(d.at, 1_830_340_800 + 5 * 60);
        assert_eq!(show(d.at, "UTC"), "Sat 01 Jan 2028 12:05 UTC");
        assert_eq!(on_minute(1_830_340_800), 1_830_340_800);
        assert_eq!(on_minute(1_830_340_801), 1_830_340_860);
        assert_eq!(on_minute(1_830_340_859), 1_830_340_860);
    }

    /// Issue #51: the game's zone, then UTC once: its clock alone on the
    /// same day, its day too on another; nothing more where the zone is
    /// at UTC.
    #[test]
    fn a_deadline_shows_the_games_zone_and_utc_once() {
        let noon = 1_830_340_800; // Sat 1 Jan 2028 12:00 UTC
        assert_eq!(
            show_deadline(noon, "America/New_York"),
            "Sat 01 Jan 2028 07:00 EST (12:00 UTC)"
        );
        assert_eq!(
            show_deadline(noon - 13 * 3600, "America/New_York"),
            "Fri 31 Dec 2027 18:00 EST (23:00 UTC)"
        );
        assert_eq!(
            show_deadline(noon + 12 * 3600 + 1800, "America/New_York"),
            "Sat 01 Jan 2028 19:30 EST (Sun 02 Jan 00:30 UTC)"
        );
        assert_eq!(
            show_deadline(noon, "Europe/London"),
            "Sat 01 Jan 2028 12:00 GMT"
        );
        assert_eq!(show_deadline(noon, "UTC"), "Sat 01 Jan 2028 12:00 UTC");
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
    fn njudge_and_dpjudge_dates_are_read() {
        let now = 1_700_000_000; // Tue 14 Nov 2023 22:13 UTC
        let d = parse_deadline("Dec 2 23:30", "UTC", now, None).unwrap();
        assert_eq!(show(d.at, "UTC"), "Sat 02 Dec 2023 23:30 UTC");
        let d = parse_deadline("2 DEC 2024 0:00", "UTC", now, None).unwrap();
        assert_eq!(show(d.at, "UTC"), "Mon 02 Dec 2024 00:00 UTC");
        let d = parse_deadline("Jun 23:30 15", "UTC", now, None).unwrap();
        assert_eq!(show(d.at, "UTC"), "Sat 15 Jun 2024 23:30 UTC");
        let d = parse_deadline("20 18:00", "UTC", now, None).unwrap();
        assert_eq!(show(d.at, "UTC"), "Mon 20 Nov 2023 18:00 UTC");
        assert!(
            parse_deadline("Dec 2", "UTC", now, None)
                .unwrap_err()
                .contains("time")
        );
        let (from, to) = parse_span("24 DEC TO 6 JAN", "UTC", now).unwrap();
        assert_eq!(show(from, "UTC"), "Sun 24 Dec 2023 00:00 UTC");
        assert_eq!(show(to, "UTC"), "Sun 07 Jan 2024 00:00 UTC");
        let (from, to) = parse_span("Nov 23 TO 1 Dec", "UTC", now).unwrap();
        assert_eq!(show(from, "UTC"), "Thu 23 Nov 2023 00:00 UTC");
        assert_eq!(show(to, "UTC"), "Sat 02 Dec 2023 00:00 UTC");
        let (from, to) = parse_span("29 Nov", "UTC", now).unwrap();
        assert_eq!(to - from, 86_400);
        let (from, to) = parse_span("3 Dec 12:00", "UTC", now).unwrap();
        assert_eq!(show(from, "UTC"), "Sun 03 Dec 2023 12:00 UTC");
        assert_eq!(to - from, 86_400);
        let (from, to) = parse_span("24 TO 26", "UTC", now).unwrap();
        assert_eq!(show(from, "UTC"), "Fri 24 Nov 2023 00:00 UTC");
        assert_eq!(show(to, "UTC"), "Mon 27 Nov 2023 00:00 UTC");
        let (from, to) = parse_span("TO 23:30", "UTC", now).unwrap();
        assert_eq!(
            (from, show(to, "UTC").as_str()),
            (now, "Tue 14 Nov 2023 23:30 UTC")
        );
        let (from, _) = parse_span("8 AUG 2024", "UTC", now).unwrap();
        assert_eq!(show(from, "UTC"), "Thu 08 Aug 2024 00:00 UTC");
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
