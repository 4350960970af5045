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

/// Read a deadline as a GM writes it, in the game's zone unless a zone is
/// given: `2026-11-28 18:00`, `2026-11-28 18:00 Europe/London`,
/// `2026-11-28T18:00`, or relative to now: `+36h`, `+3d`, `+90m`.
pub fn parse_deadline(text: &str, tz: &str, now: i64) -> Result<i64, String> {
    let t = text.trim();
    if let Some(rel) = t.strip_prefix('+') {
        let rel = rel.trim();
        let (num, unit) =
            rel.split_at(rel.find(|c: char| !c.is_ascii_digit()).unwrap_or(rel.len()));
        let n: i64 = num
            .parse()
            .map_err(|_| format!("cannot read `{text}`: expected +36h, +3d or +90m"))?;
        let secs = match unit.trim().to_ascii_lowercase().as_str() {
            "s" | "sec" | "secs" | "seconds" => n,
            "m" | "min" | "mins" | "minutes" => n * 60,
            "h" | "hour" | "hours" | "" => n * 3600,
            "d" | "day" | "days" => n * 86400,
            _ => return Err(format!("cannot read `{text}`: expected +36h, +3d or +90m")),
        };
        return Ok(now + secs);
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    let (dt_text, zone_name) = match words.as_slice() {
        [d, time, z] => (format!("{d} {time}"), *z),
        [d, time] if !time.contains('/') && time.contains(':') => (format!("{d} {time}"), tz),
        [dt, z] => (dt.to_string(), *z),
        [dt] => (dt.to_string(), tz),
        _ => {
            return Err(format!(
                "cannot read `{text}` as a time: write 2026-11-28 18:00 [Europe/London]"
            ));
        }
    };
    let zone = TimeZone::get(zone_name).map_err(|_| format!("unknown time zone `{zone_name}`"))?;
    let dt: DateTime = dt_text.replace(' ', "T").parse().map_err(|_| {
        format!("cannot read `{dt_text}` as a date and time: write 2026-11-28 18:00")
    })?;
    let z = zone
        .to_zoned(dt)
        .map_err(|e| format!("`{dt_text}` does not exist in {zone_name}: {e}"))?;
    let secs = z.timestamp().as_second();
    if secs <= now {
        return Err(format!("{} is in the past", show(secs, zone_name)));
    }
    Ok(secs)
}

/// Read a duration: `72h`, `3d`, `90m`, `48` (hours).
pub fn parse_hours(text: &str) -> Result<u32, String> {
    let t = text.trim().to_ascii_lowercase();
    let (num, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
    let n: u32 = num
        .parse()
        .map_err(|_| format!("cannot read `{text}`: write 72h or 3d"))?;
    match unit.trim() {
        "" | "h" | "hour" | "hours" => Ok(n),
        "d" | "day" | "days" => Ok(n * 24),
        _ => Err(format!("cannot read `{text}`: write 72h or 3d")),
    }
}

/// Whether `name` is a known time zone.
pub fn valid_zone(name: &str) -> bool {
    TimeZone::get(name).is_ok()
}

/// `now + hours`, as Unix seconds.
pub fn after_hours(now: i64, hours: u32) -> i64 {
    now + hours as i64 * 3600
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_read_in_the_games_zone_and_summer_time_moves_nothing() {
        let now = 1_700_000_000; // Nov 2023
        let summer = parse_deadline("2030-07-01 18:00", "Europe/London", now).unwrap();
        let winter = parse_deadline("2030-12-01 18:00", "Europe/London", now).unwrap();
        // 18:00 BST is 17:00 UTC; 18:00 GMT is 18:00 UTC.
        assert_eq!(summer % 86400, 17 * 3600);
        assert_eq!(winter % 86400, 18 * 3600);
        assert_eq!(show(summer, "Europe/London"), "Mon 01 Jul 2030 18:00 BST");
        assert_eq!(show(winter, "UTC"), "Sun 01 Dec 2030 18:00 UTC");
        assert_eq!(parse_deadline("+36h", "UTC", now).unwrap(), now + 36 * 3600);
        assert!(parse_deadline("2001-01-01 10:00", "UTC", now).is_err());
        assert!(parse_deadline("tomorrow", "UTC", now).is_err());
        assert_eq!(parse_hours("3d"), Ok(72));
    }
}
