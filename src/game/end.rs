//! How a game ends: the variant's victory rule read against the position
//! after a phase. Pure: the judge asks after every phase and records the
//! answer.

use crate::game::Position;
use crate::map::{PowerId, Terrain};
use crate::variant::{AtEnd, Variant};

/// The centres `power` needs to win outright, if the variant has such a
/// number for it.
pub fn centres_to_win(v: &Variant, power: PowerId) -> Option<u32> {
    let name = &v.map.power(power).name;
    let by = v
        .victory
        .by_power
        .iter()
        .find(|(k, _)| v.map.lookup_power(k) == Some(power) || *k == name)
        .map(|(_, n)| *n);
    by.or((v.victory.centres > 0).then_some(v.victory.centres))
}

/// Centres each power holds beyond its home centres.
fn gained(v: &Variant, pos: &Position) -> Vec<i64> {
    let counts = pos.centre_counts(&v.map);
    v.map
        .power_ids()
        .map(|p| i64::from(counts[p.index()]) - v.map.power(p).home_centres.len() as i64)
        .collect()
}

/// Units each power has on the board (not in off-board boxes); an A/F
/// that is a fleet with an army aboard is two.
fn units_on_board(v: &Variant, pos: &Position) -> Vec<i64> {
    let mut n = vec![0i64; v.map.powers().len()];
    for u in &pos.units {
        if v.map.province(v.map.province_of(u.region)).terrain != Terrain::OffBoard {
            n[u.power.index()] += crate::rules::army_fleet::units_in(v, u);
        }
    }
    n
}

fn names(v: &Variant, ps: &[PowerId]) -> String {
    let names: Vec<&str> = ps.iter().map(|p| v.map.power(*p).name.as_str()).collect();
    match names.as_slice() {
        [] => "nobody".into(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The powers with the highest `score`, among those `alive`.
fn leaders(v: &Variant, score: &[i64], alive: &[bool]) -> Vec<PowerId> {
    let best = v
        .map
        .power_ids()
        .filter(|p| alive[p.index()])
        .map(|p| score[p.index()])
        .max();
    v.map
        .power_ids()
        .filter(|p| alive[p.index()] && Some(score[p.index()]) == best)
        .collect()
}

/// A single winner, or a draw among the tied.
fn verdict(v: &Variant, who: &[PowerId], what: &str) -> String {
    match who {
        [one] => format!("won by {} with {what}", v.map.power(*one).name),
        _ => format!("drawn between {}, tied with {what}", names(v, who)),
    }
}

/// How the game ended with the phase that led from `before` to `after`,
/// or `None` if it goes on.
pub fn game_end(v: &Variant, before: &Position, after: &Position) -> Option<String> {
    let counts = after.centre_counts(&v.map);
    let alive: Vec<bool> = v
        .map
        .power_ids()
        .map(|p| counts[p.index()] > 0 || after.units.iter().any(|u| u.power == p))
        .collect();
    // An outright win: a power's own number of centres, or its gain.
    let gain = gained(v, after);
    let mut winners: Vec<PowerId> = v
        .map
        .power_ids()
        .filter(|&p| {
            centres_to_win(v, p).is_some_and(|n| counts[p.index()] >= n)
                || v.victory
                    .gain
                    .is_some_and(|g| gain[p.index()] >= i64::from(g))
        })
        .collect();
    if !winners.is_empty() {
        // Two at once: the one with more centres.
        let most = winners.iter().map(|p| counts[p.index()]).max().unwrap_or(0);
        winners.retain(|p| counts[p.index()] == most);
        if let [one] = winners.as_slice() {
            let n = counts[one.index()];
            return Some(format!(
                "won by {} with {n} supply centres",
                v.map.power(*one).name
            ));
        }
    }
    // So few powers left that the game stops: the largest wins.
    if let Some(r) = v.victory.remaining {
        let left: Vec<PowerId> = v
            .map
            .power_ids()
            .filter(|p| counts[p.index()] > 0)
            .collect();
        if left.len() as u32 <= r && left.len() > 1 {
            let mut ranked = left.clone();
            ranked.sort_by_key(|p| std::cmp::Reverse(counts[p.index()]));
            let listing: Vec<String> = ranked
                .iter()
                .map(|p| format!("{} {}", v.map.power(*p).name, counts[p.index()]))
                .collect();
            let score: Vec<i64> = counts.iter().map(|&c| i64::from(c)).collect();
            let top = leaders(v, &score, &alive);
            return Some(format!(
                "over with only {} powers left ({}): {}",
                left.len(),
                listing.join(", "),
                verdict(
                    v,
                    &top,
                    &format!("{} supply centres", counts[top[0].index()])
                )
            ));
        }
    }
    // The calendar's end.
    if let Some(last) = &v.victory.last_phase
        && let Ok(lp) = v.calendar.parse(last)
        // The last phase played, or skipped (nothing to do in it).
        && (before.phase >= lp || after.phase > lp)
    {
        return Some(at_the_end(v, after));
    }
    None
}

/// The end the GM set (1700 AD II: "the GM may declare that the game will
/// end in either 1713 or 1721"): over once the year after `last_year`
/// begins.
pub fn after_last_year(v: &Variant, last_year: i32, after: &Position) -> Option<String> {
    (after.phase.year > last_year).then(|| at_the_end(v, after))
}

/// The verdict when the game's last phase has been played.
fn at_the_end(v: &Variant, after: &Position) -> String {
    let counts = after.centre_counts(&v.map);
    let alive: Vec<bool> = v
        .map
        .power_ids()
        .map(|p| counts[p.index()] > 0 || after.units.iter().any(|u| u.power == p))
        .collect();
    let gain = gained(v, after);
    let over = "the last phase of the game has been played";
    match v.victory.at_end {
        AtEnd::Draw => {
            let all: Vec<PowerId> = v.map.power_ids().filter(|p| alive[p.index()]).collect();
            format!("{over}: drawn between all survivors, {}", names(v, &all))
        }
        AtEnd::MostCentres => {
            let score: Vec<i64> = counts.iter().map(|&c| i64::from(c)).collect();
            let top = leaders(v, &score, &alive);
            let n = score[top[0].index()];
            format!(
                "{over}: {}",
                verdict(v, &top, &format!("{n} supply centres"))
            )
        }
        AtEnd::MostUnits => {
            let score = units_on_board(v, after);
            let top = leaders(v, &score, &alive);
            let n = score[top[0].index()];
            format!(
                "{over}: {}",
                verdict(v, &top, &format!("{n} units on the board"))
            )
        }
        AtEnd::MostGained => {
            let top = leaders(v, &gain, &alive);
            let n = gain[top[0].index()];
            format!(
                "{over}: {}",
                verdict(
                    v,
                    &top,
                    &format!("{n} supply centres more than at the start")
                )
            )
        }
    }
}
