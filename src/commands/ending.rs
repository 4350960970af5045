//! What the end of a game adds to its last mail: the final centre chart,
//! the roster with everyone who played (replaced players too, with when),
//! and the centres year by year, so the players keep the game's story.

use super::error::CmdResult;
use crate::game::Position;
use crate::map::PowerId;
use crate::store::Conn;
use crate::store::games::{self, GameRow};
use crate::store::roster;
use crate::variant::Variant;
use std::fmt::Write;

/// The summary that closes a game, read from the store: `before` is the
/// position before the last phase played (not yet in the history when the
/// game ends at a phase), `after` the final one.
pub(crate) fn summary(
    c: &Conn,
    v: &Variant,
    g: &GameRow,
    before: Option<&Position>,
    after: &Position,
) -> CmdResult<String> {
    let mut t = String::from("\nFinal supply centres:\n");
    t.push_str(&final_chart(v, after));
    t.push_str("\nWho played:\n");
    t.push_str(&players(c, v, g, false)?);
    // The position at the start of each year: the first row of that year
    // in the history (and the last phase, if it opened a year). A GM's
    // edit keeps the board as it was before it, so an edit early in a
    // year changes that year's figures, never the year before's.
    let mut starts: Vec<(i32, Vec<u32>)> = Vec::new();
    let mut note = |pos: &Position| {
        if starts.last().is_none_or(|(y, _)| *y < pos.phase.year) {
            starts.push((pos.phase.year, pos.centre_counts(&v.map)));
        }
    };
    for h in games::history(c, &g.name)?
        .iter()
        .filter(|h| h.kind == "phase" || h.kind == "edit")
    {
        if let Ok(pos) = Position::from_toml(v, &h.position) {
            note(&pos);
        }
    }
    if let Some(b) = before {
        note(b);
    }
    // A year's end is the next year's start; the last year's is the end.
    let finals = after.centre_counts(&v.map);
    let ends: Vec<(i32, Vec<u32>)> = starts
        .iter()
        .enumerate()
        .map(|(i, (y, _))| {
            let counts = starts.get(i + 1).map_or(finals.clone(), |(_, c)| c.clone());
            (*y, counts)
        })
        .collect();
    if !ends.is_empty() {
        t.push_str("\nSupply centres at the end of each year:\n");
        t.push_str(&centre_table(v, &ends));
    }
    // njudge's diaries, "for broadcast at the end of the game".
    t.push_str(&super::cmd::diary::diaries_text(c, v, &g.name)?);
    Ok(t)
}

/// Each power and everybody who played it, with when; names as the
/// players chose them, addresses only where the GM lets the roster show
/// them. `ongoing`: the game goes on (SUMMARY), so the player of a power
/// plays it "to now", not "to the end".
pub(crate) fn players(c: &Conn, v: &Variant, g: &GameRow, ongoing: bool) -> CmdResult<String> {
    let rows = roster::players(c, &g.name)?;
    let seats = games::seats(c, &g.name)?;
    let tz = &g.settings.timezone;
    let w = v
        .map
        .power_ids()
        .map(|p| v.map.power(p).name.chars().count() + 1)
        .max()
        .unwrap_or(8);
    let mut t = String::new();
    for p in v.map.power_ids() {
        let mine: Vec<&roster::PlayerRow> = rows.iter().filter(|r| r.power == p.0).collect();
        let name = &v.map.power(p).name;
        if mine.is_empty() {
            // A game begun before the judge kept this record: its seat
            // still says who plays the power now.
            let seat = seats.get(p.index());
            let who = match seat.and_then(|x| x.address.as_ref()) {
                None => "nobody".to_string(),
                Some(a) => match (
                    seat.and_then(|x| x.name.clone()),
                    g.settings.roster_addresses,
                ) {
                    (Some(n), true) => format!("{n} <{a}>"),
                    (None, true) => format!("<{a}>"),
                    (Some(n), false) => n,
                    (None, false) => "(no name given)".to_string(),
                },
            };
            let _ = writeln!(t, "  {:<w$} {who}", format!("{name}:"));
            continue;
        }
        for (i, r) in mine.iter().enumerate() {
            let who = match (&r.name, g.settings.roster_addresses) {
                (Some(n), true) => format!("{n} <{}>", r.address),
                (None, true) => format!("<{}>", r.address),
                (Some(n), false) => n.clone(),
                (None, false) => "(no name given)".to_string(),
            };
            let until = match (r.to_at, &r.how) {
                (Some(to), Some(how)) => format!(" to {} ({how})", day(to, tz)),
                (Some(to), None) => format!(" to {}", day(to, tz)),
                (None, _) if ongoing => " to now".to_string(),
                (None, _) => " to the end".to_string(),
            };
            let head = if i == 0 {
                format!("{name}:")
            } else {
                String::new()
            };
            t.push_str(&crate::report::wrap(
                &format!("  {head:<w$} {who}, {}{until}", day(r.from_at, tz)),
                72,
                &" ".repeat(w + 5),
            ));
        }
    }
    Ok(t)
}

/// A day: `28 Nov 2026`.
fn day(t: i64, tz: &str) -> String {
    super::time::show(t, tz)
        .split_whitespace()
        .skip(1)
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The centre chart at the end of a game: each power's count and centres,
/// the largest first, then the unowned ones.
pub(super) fn final_chart(v: &Variant, pos: &Position) -> String {
    let counts = pos.centre_counts(&v.map);
    let width = name_width(v);
    let mut powers: Vec<PowerId> = v.map.power_ids().collect();
    powers.sort_by_key(|p| std::cmp::Reverse(counts[p.index()]));
    let mut t = String::new();
    for p in powers {
        let centres: Vec<&str> = v
            .map
            .province_ids()
            .filter(|c| v.map.province(*c).supply_centre && pos.owners[c.index()] == Some(p))
            .map(|c| v.map.province(c).abbr.as_str())
            .collect();
        t.push_str(&crate::report::wrap(
            &format!(
                "  {:<width$} {:>2}: {}",
                v.map.power(p).name,
                counts[p.index()],
                if centres.is_empty() {
                    "-".to_string()
                } else {
                    centres.join(" ")
                }
            ),
            72,
            &" ".repeat(width + 7),
        ));
    }
    let unowned: Vec<&str> = v
        .map
        .province_ids()
        .filter(|c| v.map.province(*c).supply_centre && pos.owners[c.index()].is_none())
        .map(|c| v.map.province(c).abbr.as_str())
        .collect();
    if !unowned.is_empty() {
        t.push_str(&crate::report::wrap(
            &format!(
                "  {:<width$} {:>2}: {}",
                "Unowned",
                unowned.len(),
                unowned.join(" ")
            ),
            72,
            &" ".repeat(width + 7),
        ));
    }
    t
}

/// The centres each power held at the end of each year, one column a year
/// (blocks of at most ten years, to stay within a mail's line). `years`
/// holds, per year, the counts at its end, by power.
pub(super) fn centre_table(v: &Variant, years: &[(i32, Vec<u32>)]) -> String {
    let width = name_width(v);
    let mut t = String::new();
    for block in years.chunks(10) {
        t.push_str(&format!("  {:<width$}", ""));
        for (y, _) in block {
            t.push_str(&format!(" {y:>5}"));
        }
        t.push('\n');
        for p in v.map.power_ids() {
            t.push_str(&format!("  {:<width$}", v.map.power(p).name));
            for (_, counts) in block {
                t.push_str(&format!(
                    " {:>5}",
                    counts.get(p.index()).copied().unwrap_or(0)
                ));
            }
            t.push('\n');
        }
        t.push('\n');
    }
    // No blank line after the last block.
    t.pop();
    t
}

/// The width of the longest power name (at least that of `Unowned`).
fn name_width(v: &Variant) -> usize {
    v.map
        .power_ids()
        .map(|p| v.map.power(p).name.chars().count())
        .max()
        .unwrap_or(0)
        .max(7)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Position;

    #[test]
    fn the_centre_table_has_a_column_a_year_and_a_row_a_power() {
        let v = crate::variant::builtin("standard").unwrap().unwrap();
        let pos = Position::initial(&v);
        let start = pos.centre_counts(&v.map);
        let mut later = start.clone();
        later[0] += 1;
        let t = centre_table(&v, &[(1901, start), (1902, later)]);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(
            lines[0].split_whitespace().collect::<Vec<_>>(),
            ["1901", "1902"]
        );
        assert_eq!(
            lines[1].split_whitespace().collect::<Vec<_>>(),
            ["Austria", "3", "4"]
        );
        let chart = final_chart(&v, &pos);
        assert!(
            chart.starts_with("  Russia   4: Mos Sev StP War\n"),
            "{chart}"
        );
        assert!(chart.contains("\n  Unowned 12: Bel Bul"), "{chart}");
    }
}
