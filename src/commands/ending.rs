//! What the end of a game adds to its last mail: the final centre chart,
//! the roster with everyone who played (replaced players too, with when),
//! and the centres year by year, so the players keep the game's story.

use super::error::CmdResult;
use crate::game::Position;
use crate::store::games::{self, GameRow};
use crate::store::roster;
use crate::variant::Variant;
use rusqlite::Connection;
use std::fmt::Write;

/// The summary that closes a game, read from the store: `before` is the
/// position before the last phase played (not yet in the history when the
/// game ends at a phase), `after` the final one.
pub(crate) fn summary(
    c: &Connection,
    v: &Variant,
    g: &GameRow,
    before: Option<&Position>,
    after: &Position,
) -> CmdResult<String> {
    let mut t = String::from("\nFinal supply centres:\n");
    t.push_str(&crate::game::end::final_chart(v, after));
    t.push_str("\nWho played:\n");
    t.push_str(&players(c, v, g)?);
    // The position at the start of each year: the first phase of that
    // year in the history (and the last phase, if it opened a year).
    let mut starts: Vec<(i32, Vec<u32>)> = Vec::new();
    let mut note = |pos: &Position| {
        if starts.last().is_none_or(|(y, _)| *y < pos.phase.year) {
            starts.push((pos.phase.year, pos.centre_counts(&v.map)));
        }
    };
    for h in games::history(c, &g.name)?
        .iter()
        .filter(|h| h.kind == "phase")
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
        t.push_str(&crate::game::end::centre_table(v, &ends));
    }
    Ok(t)
}

/// Each power and everybody who played it, with when; names as the
/// players chose them, addresses only where the GM lets the roster show
/// them.
fn players(c: &Connection, v: &Variant, g: &GameRow) -> CmdResult<String> {
    let rows = roster::players(c, &g.name)?;
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
            let _ = writeln!(t, "  {name}: nobody");
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
