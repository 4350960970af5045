//! Results as a zine GM wrote them: the game and season, every power's
//! orders with what became of them, the dislodged units and where they may
//! go, the supply-centre chart, the adjustments and the next deadline.
//!
//! Pure: it turns a played phase into text. Lines are at most 72
//! characters, without tabs.

use crate::adjudicate::{AdjustStatus, Illegal, Outcome, RetreatStatus};
use crate::game::Position;
use crate::game::step::{PhaseOrders, PhaseResult};
use crate::map::{Map, PowerId, Unit};
use crate::orders::{AnyCommand, Place, format_order, format_unit};
use crate::variant::Variant;
use std::fmt::Write;

/// Everything a results mail says about one phase.
pub struct PhaseReport<'a> {
    /// The variant.
    pub variant: &'a Variant,
    /// The game's name.
    pub game: &'a str,
    /// The position the phase was played from.
    pub before: &'a Position,
    /// The orders given.
    pub orders: &'a PhaseOrders,
    /// What happened.
    pub result: &'a PhaseResult,
    /// The position after the phase.
    pub after: &'a Position,
    /// The next deadline, shown, if the game goes on.
    pub next_deadline: Option<String>,
    /// How the game ended, if it did.
    pub ended: Option<String>,
    /// Powers that sent no orders.
    pub nmr: Vec<PowerId>,
}

fn unit_text(map: &Map, u: &Unit) -> String {
    format_unit(map, Some(u.kind), Place::of_region(map, u.region))
}

fn outcome_mark(o: Outcome, units: &[Unit], map: &Map) -> String {
    match o {
        Outcome::Held | Outcome::Moved | Outcome::Supported | Outcome::Convoyed => String::new(),
        Outcome::Bounced => "bounced".into(),
        Outcome::NoConvoy => "no convoy".into(),
        Outcome::Cut(by) => format!("cut by {}", unit_text(map, &units[by])),
        Outcome::SupportVoid | Outcome::ConvoyVoid => "void".into(),
        Outcome::ConvoyFailed => "convoy failed".into(),
    }
}

/// `Spring 1901 movement results` and the like, with the game.
pub fn title(r: &PhaseReport<'_>) -> String {
    let cal = &r.variant.calendar;
    format!(
        "{}: {} {}",
        r.game,
        cal.season_year(r.before.phase),
        match r.before.phase.kind {
            crate::variant::PhaseKind::Movement => "results",
            crate::variant::PhaseKind::Retreat => "retreats",
            crate::variant::PhaseKind::Adjustment => "adjustments",
            crate::variant::PhaseKind::Placement => "placements",
        }
    )
}

/// The whole results text.
pub fn render(r: &PhaseReport<'_>) -> String {
    let v = r.variant;
    let map = &v.map;
    let mut s = String::new();
    let _ = writeln!(s, "{}", title(r));
    let _ = writeln!(s, "{} ({})", v.title, v.calendar.label(r.before.phase));
    let _ = writeln!(s, "{}", "=".repeat(title(r).chars().count().min(72)));
    s.push('\n');
    match (r.result, r.orders) {
        (PhaseResult::Movement(m), PhaseOrders::Movement(orders)) => {
            for pw in map.power_ids() {
                let mine: Vec<usize> = (0..r.before.units.len())
                    .filter(|&i| r.before.units[i].power == pw)
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                let _ = writeln!(s, "{}:", map.power(pw).name);
                for i in mine {
                    let u = &r.before.units[i];
                    let ur = &m.units[i];
                    let (order, mut marks) = match ur.order {
                        Some(k) => {
                            let o = &orders[k];
                            let text = format_order(
                                map,
                                &AnyCommand::Main(
                                    crate::orders::UnitRef {
                                        kind: Some(u.kind),
                                        at: Place::of_region(map, u.region),
                                    },
                                    o.command.clone(),
                                ),
                            );
                            let mark = outcome_mark(ur.outcome, &r.before.units, map);
                            (text, if mark.is_empty() { vec![] } else { vec![mark] })
                        }
                        None => (
                            format!("{} H", unit_text(map, u)),
                            vec!["no order".to_string()],
                        ),
                    };
                    if ur.dislodged.is_some() {
                        marks.push("dislodged".into());
                    }
                    line(&mut s, &order, &marks);
                }
                // Orders that were not carried out, with why.
                for (k, o) in orders.iter().enumerate() {
                    if o.power != pw {
                        continue;
                    }
                    if let Some(why) = m.orders[k]
                        && why != Illegal::Replaced
                    {
                        let text = format_order(map, &AnyCommand::Main(o.unit, o.command.clone()));
                        line(&mut s, &text, &[format!("void: {why}")]);
                    }
                }
                s.push('\n');
            }
            let dislodged: Vec<_> = m.dislodged(&r.before.units).collect();
            if !dislodged.is_empty() {
                let _ = writeln!(s, "Dislodged units:");
                for (u, d) in dislodged {
                    let opts: Vec<String> =
                        d.retreats.iter().map(|&x| map.region_abbr(x)).collect();
                    let where_ = if opts.is_empty() {
                        "no retreat: destroyed".to_string()
                    } else {
                        format!("may retreat to {}", opts.join(", "))
                    };
                    let text = format!(
                        "  {} {} (dislodged from {}): {where_}",
                        map.power(u.power).adjective,
                        unit_text(map, &u),
                        map.province(d.from).abbr
                    );
                    s.push_str(&wrap(&text, 72, "      "));
                }
                s.push('\n');
            }
        }
        (PhaseResult::Retreat(rr), _) => {
            let _ = writeln!(s, "Retreats:");
            if r.before.dislodged.is_empty() {
                let _ = writeln!(s, "  (none)");
            }
            for (i, (u, _)) in r.before.dislodged.iter().enumerate() {
                let what = match rr.dislodged[i] {
                    RetreatStatus::Retreated(to) => {
                        format!("{}-{}", unit_text(map, u), map.region_abbr(to))
                    }
                    RetreatStatus::Disbanded => format!("{} disbanded", unit_text(map, u)),
                    RetreatStatus::NoOrder => format!("{} no order: disbanded", unit_text(map, u)),
                    RetreatStatus::Bounced => format!("{} bounced: disbanded", unit_text(map, u)),
                };
                let _ = writeln!(s, "  {}: {what}", map.power(u.power).name);
            }
            s.push('\n');
        }
        (PhaseResult::Adjustment(ar), PhaseOrders::Adjustment(orders)) => {
            let _ = writeln!(s, "Adjustments:");
            let mut any = false;
            for pw in map.power_ids() {
                let mut items = Vec::new();
                for (k, o) in orders.iter().enumerate() {
                    if o.power != pw {
                        continue;
                    }
                    match ar.orders[k] {
                        AdjustStatus::Built(u) => {
                            items.push(format!("builds {}", unit_text(map, &u)))
                        }
                        AdjustStatus::Removed(u) => {
                            items.push(format!("removes {}", unit_text(map, &u)))
                        }
                        AdjustStatus::Waived => items.push("waives a build".into()),
                        AdjustStatus::Illegal(why) => items.push(format!(
                            "{} void: {why}",
                            format_order(map, &AnyCommand::Adjust(o.command))
                        )),
                    }
                }
                for u in ar.civil_disorder.iter().filter(|u| u.power == pw) {
                    items.push(format!("removes {} (civil disorder)", unit_text(map, u)));
                }
                if let Some(&n) = ar.unused_builds.get(pw.index())
                    && n > 0
                {
                    items.push(format!("{n} build(s) not used"));
                }
                if !items.is_empty() {
                    any = true;
                    let text = format!("  {}: {}", map.power(pw).name, items.join("; "));
                    s.push_str(&wrap(&text, 72, "      "));
                }
            }
            if !any {
                let _ = writeln!(s, "  (none)");
            }
            s.push('\n');
        }
        _ => {}
    }
    if !r.nmr.is_empty() {
        let names: Vec<&str> = r.nmr.iter().map(|p| map.power(*p).name.as_str()).collect();
        s.push_str(&wrap(
            &format!("No orders received from: {}.", names.join(", ")),
            72,
            "  ",
        ));
        s.push('\n');
    }
    s.push_str(&centre_chart(v, r.before, r.after));
    if let Some(e) = &r.ended {
        let _ = writeln!(s, "\nThe game is over: {e}.");
    } else {
        let _ = writeln!(
            s,
            "\nNext: {}{}",
            v.calendar.label(r.after.phase),
            r.next_deadline
                .as_ref()
                .map_or(String::new(), |d| format!(", deadline {d}"))
        );
    }
    s
}

fn line(s: &mut String, order: &str, marks: &[String]) {
    let text = if marks.is_empty() {
        format!("  {order}")
    } else {
        format!("  {order:<30} {}", marks.join(", "))
    };
    s.push_str(&wrap(&text, 72, "                                 "));
}

/// Supply centres per power after the phase, with the change, units, and
/// the builds or removals owed.
pub fn centre_chart(v: &Variant, before: &Position, after: &Position) -> String {
    let map = &v.map;
    let mut s = String::from("Supply centres:\n");
    let b = before.centre_counts(map);
    let a = after.centre_counts(map);
    for pw in map.power_ids() {
        let i = pw.index();
        let units = after.units.iter().filter(|u| u.power == pw).count() as i64;
        if a[i] == 0 && units == 0 && b[i] == 0 {
            continue;
        }
        let centres: Vec<&str> = after
            .owners
            .iter()
            .enumerate()
            .filter(|(p, o)| **o == Some(pw) && map.provinces()[*p].supply_centre)
            .map(|(p, _)| map.provinces()[p].abbr.as_str())
            .collect();
        let change = a[i] as i64 - b[i] as i64;
        let change = match change {
            0 => String::new(),
            c if c > 0 => format!(" (+{c})"),
            c => format!(" ({c})"),
        };
        let diff = a[i] as i64 - units;
        let owed = match diff {
            0 => String::new(),
            d if d > 0 => format!(", builds {d}"),
            d => format!(", removes {}", -d),
        };
        let head = format!(
            "  {:<12} {:>2}{change}, units {units}{owed}: ",
            map.power(pw).name,
            a[i]
        );
        let text = format!("{head}{}", centres.join(" "));
        s.push_str(&wrap(&text, 72, "      "));
    }
    let unowned: Vec<&str> = after
        .owners
        .iter()
        .enumerate()
        .filter(|(p, o)| o.is_none() && map.provinces()[*p].supply_centre)
        .map(|(p, _)| map.provinces()[p].abbr.as_str())
        .collect();
    if !unowned.is_empty() {
        s.push_str(&wrap(
            &format!(
                "  {:<12} {:>2}: {}",
                "Unowned",
                unowned.len(),
                unowned.join(" ")
            ),
            72,
            "      ",
        ));
    }
    s
}

/// Wrap `text` at `width` characters, continuing lines with `indent`; the
/// first line keeps its own leading spaces.
pub fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    let lead: String = text.chars().take_while(|c| *c == ' ').collect();
    for word in text.split_whitespace() {
        if line.is_empty() {
            line = if out.is_empty() {
                format!("{lead}{word}")
            } else {
                format!("{indent}{word}")
            };
            continue;
        }
        if line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line = format!("{indent}{word}");
        } else {
            line.push(' ');
            line.push_str(word);
        }
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}
