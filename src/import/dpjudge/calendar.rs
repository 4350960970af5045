//! DPjudge's `FLOW` as this judge's calendar. A `FLOW` is a list of
//! seasons with their phases, in which two words stand where a season
//! would (DPjudge's map file syntax page and `Map.findNextPhase` in its
//! source): `NEWYEAR[:n]` moves the year on by `n` (1 when not given,
//! negative to count down, as Classical's `B.C.` years do), and
//! `IFYEARDIV:d[=r]` goes on only in the years that leave `r` when
//! divided by `d`, going back to the start of the flow otherwise (Hundred
//! adjusts once a decade so). A flow without `NEWYEAR` moves the year by
//! one at its start.
//!
//! This judge's calendar says the same with two keys of a season:
//! `new-year` (the years gone by on the way into it) and `when-year` (the
//! years it is played in), and `years-down` for years that count down.

use super::Refusal;

/// One word of a `FLOW` line, with where it was read.
#[derive(Debug, Clone)]
pub(super) struct FlowWord {
    pub item: FlowItem,
    pub file: String,
    pub line: usize,
}

/// What a `FLOW` word says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum FlowItem {
    /// `SPRING:MOVEMENT,RETREATS`: a season (upper case) and its phases.
    Season(String, Vec<String>),
    /// `NEWYEAR:n`.
    NewYear(i32),
    /// `IFYEARDIV:d=r`.
    IfYearDiv(u32, u32),
}

/// Read one `FLOW` word; why not, if it is not one this judge plays.
pub(super) fn flow_word(w: &str) -> Result<FlowItem, String> {
    let (head, rest) = match w.split_once(':') {
        Some((h, r)) => (h.to_uppercase(), Some(r)),
        None => (w.to_uppercase(), None),
    };
    match (head.as_str(), rest) {
        ("NEWYEAR", None) => Ok(FlowItem::NewYear(1)),
        ("NEWYEAR", Some(n)) => match n.parse::<i32>() {
            Ok(0) => Err("NEWYEAR:0 moves no year".into()),
            Ok(n) if n.abs() <= 1000 => Ok(FlowItem::NewYear(n)),
            _ => Err("NEWYEAR takes a number of years".into()),
        },
        ("IFYEARDIV", Some(d)) => {
            let (div, rem) = d.split_once('=').unwrap_or((d, "0"));
            match (div.parse::<u32>(), rem.parse::<u32>()) {
                (Ok(div), Ok(rem)) if div > 0 && rem < div => Ok(FlowItem::IfYearDiv(div, rem)),
                _ => {
                    Err("IFYEARDIV takes a divisor and a remainder below it (IFYEARDIV:2=1)".into())
                }
            }
        }
        (_, None) => Err("expected season:phase,...".into()),
        (season, Some(phases)) => {
            let mut list = Vec::new();
            for ph in phases.split(',') {
                let ph = ph.to_uppercase();
                if !matches!(ph.as_str(), "MOVEMENT" | "RETREATS" | "ADJUSTMENTS") {
                    return Err(format!("the phase {ph} is not one this judge plays"));
                }
                list.push(ph);
            }
            Ok(FlowItem::Season(season.to_string(), list))
        }
    }
}

/// A season of the calendar to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FlowSeason {
    /// Upper case, as DPjudge keeps it.
    pub name: String,
    pub phases: Vec<String>,
    /// Years gone by on the way in (always on, the sign in `years_down`).
    pub new_year: Option<i32>,
    /// `IFYEARDIV`: divisor and remainder.
    pub when: Option<(u32, u32)>,
}

/// The calendar a flow makes.
#[derive(Debug, Clone, Default)]
pub(super) struct Flow {
    pub seasons: Vec<FlowSeason>,
    pub years_down: bool,
}

/// The standard year, for a map without `FLOW`.
fn standard() -> Vec<FlowSeason> {
    let s = |n: &str, p: &[&str]| FlowSeason {
        name: n.to_string(),
        phases: p.iter().map(|x| (*x).to_string()).collect(),
        new_year: None,
        when: None,
    };
    vec![
        s("SPRING", &["MOVEMENT", "RETREATS"]),
        s("FALL", &["MOVEMENT", "RETREATS"]),
        s("WINTER", &["ADJUSTMENTS"]),
    ]
}

/// The calendar of the flow read, or why it cannot be one.
pub(super) fn resolve(words: &[FlowWord]) -> Result<Flow, Refusal> {
    if words.is_empty() {
        return Ok(Flow {
            seasons: standard(),
            years_down: false,
        });
    }
    let refuse = |w: &FlowWord, why: &str| Refusal {
        file: w.file.clone(),
        line: w.line,
        what: format!("FLOW {}", show(&w.item)),
        why: why.to_string(),
    };
    let mut out = Flow::default();
    let mut years: Option<i32> = None;
    let mut when: Option<(&FlowWord, u32, u32)> = None;
    let mut sign = 0;
    for w in words {
        match &w.item {
            FlowItem::NewYear(n) => {
                if sign * n.signum() < 0 {
                    return Err(refuse(w, "a flow cannot count the years both up and down"));
                }
                sign = n.signum();
                years = Some(years.unwrap_or(0) + n.abs());
            }
            FlowItem::IfYearDiv(d, r) => {
                if when.is_some() {
                    return Err(refuse(w, "two IFYEARDIV in a row"));
                }
                if out.seasons.is_empty() {
                    return Err(refuse(
                        w,
                        "an IFYEARDIV before the first season sends the flow round for ever",
                    ));
                }
                when = Some((w, *d, *r));
            }
            FlowItem::Season(name, phases) => {
                // DPjudge's flow is one list of season-and-phase steps: a
                // season named again straight after, with nothing between,
                // is the same season going on.
                if let Some(last) = out.seasons.last_mut()
                    && last.name == *name
                    && years.is_none()
                    && when.is_none()
                {
                    last.phases.extend(phases.iter().cloned());
                    continue;
                }
                out.seasons.push(FlowSeason {
                    name: name.clone(),
                    phases: phases.clone(),
                    new_year: years.take(),
                    when: when.take().map(|(_, d, r)| (d, r)),
                });
            }
        }
    }
    out.years_down = sign < 0;
    if out.seasons.is_empty() {
        return Err(refuse(&words[0], "the flow has no season"));
    }
    // A NEWYEAR after the last season is the one before the first (the
    // flow goes round), unless an IFYEARDIV goes back to the start past it.
    if let Some(n) = years {
        let last = words
            .iter()
            .rev()
            .find(|w| matches!(w.item, FlowItem::NewYear(_)));
        if out.seasons.iter().any(|s| s.when.is_some())
            && let Some(w) = last
        {
            return Err(refuse(
                w,
                "a NEWYEAR at the end of a flow with IFYEARDIV (the year would not move when the flow goes back) is not a calendar this judge has",
            ));
        }
        let first = &mut out.seasons[0].new_year;
        *first = Some(first.unwrap_or(0) + n);
    }
    // A trailing IFYEARDIV goes back to the start either way: nothing.
    Ok(out)
}

fn show(i: &FlowItem) -> String {
    match i {
        FlowItem::Season(s, p) => format!("{s}:{}", p.join(",")),
        FlowItem::NewYear(n) => format!("NEWYEAR:{n}"),
        FlowItem::IfYearDiv(d, r) => format!("IFYEARDIV:{d}={r}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(items: &[&str]) -> Vec<FlowWord> {
        items
            .iter()
            .enumerate()
            .map(|(i, w)| FlowWord {
                item: flow_word(w).unwrap(),
                file: "x.map".into(),
                line: i + 1,
            })
            .collect()
    }

    #[test]
    fn hundred_moves_five_years_and_adjusts_in_tens() {
        let f = resolve(&words(&[
            "NEWYEAR:5",
            "A.D.:MOVEMENT,RETREATS",
            "IFYEARDIV:10",
            "A.D.:ADJUSTMENTS",
        ]))
        .unwrap();
        assert!(!f.years_down);
        assert_eq!(f.seasons.len(), 2);
        assert_eq!(f.seasons[0].new_year, Some(5));
        assert_eq!(f.seasons[1].when, Some((10, 0)));
        assert_eq!(f.seasons[1].new_year, None);
    }

    #[test]
    fn classical_counts_down() {
        let f = resolve(&words(&[
            "NEWYEAR:-1",
            "B.C.:MOVEMENT,RETREATS",
            "IFYEARDIV:2",
            "B.C.:ADJUSTMENTS",
        ]))
        .unwrap();
        assert!(f.years_down);
        assert_eq!(f.seasons[0].new_year, Some(1));
    }

    #[test]
    fn a_trailing_newyear_with_ifyeardiv_is_refused_with_its_line() {
        let e = resolve(&words(&[
            "SPRING:MOVEMENT",
            "IFYEARDIV:2",
            "WINTER:ADJUSTMENTS",
            "NEWYEAR",
        ]))
        .unwrap_err();
        assert_eq!(e.line, 4);
        assert!(flow_word("IFYEARDIV:2=2").is_err());
        assert!(flow_word("NEWYEAR:0").is_err());
    }
}
