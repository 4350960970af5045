//! `zinejudge adjudicate`: the offline GM's tool. One phase from a position
//! file and an orders file; prints every order with its outcome, the
//! dislodged units with their retreats, and the next position in the same
//! format, so phases can be chained by hand.

use super::load_variant;
use crate::adjudicate::{AdjustStatus, Illegal, Outcome, RetreatStatus};
use crate::game::Position;
use crate::game::step::{PhaseOrders, PhaseResult, play};
use crate::map::{Map, PowerId, Unit};
use crate::orders::parse::OrderParser;
use crate::orders::{AdjustOrder, AnyCommand, Order, Place, format_order, format_unit};
use crate::variant::{PhaseKind, Variant};
use anyhow::{Context, Result};
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `adjudicate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Variant: a shipped name or a file.
    #[arg(long, default_value = "standard")]
    game: String,
    /// Position file (TOML); see docs/variants.md, "Positions".
    #[arg(long)]
    position: PathBuf,
    /// Orders, one per line: `England: F Lon-ENG`.
    #[arg(long)]
    orders: PathBuf,
}

/// One order line read from the file.
struct OrderLine {
    line: usize,
    text: String,
    power: PowerId,
    command: AnyCommand,
}

pub fn run(args: Args) -> Result<ExitCode> {
    let v = load_variant(&args.game)?;
    let ptext = std::fs::read_to_string(&args.position)
        .with_context(|| format!("cannot read {}", args.position.display()))?;
    let pos = Position::from_toml(&v, &ptext)
        .map_err(|e| anyhow::anyhow!("{}:\n{e}", args.position.display()))?;
    let otext = std::fs::read_to_string(&args.orders)
        .with_context(|| format!("cannot read {}", args.orders.display()))?;
    // As by mail, one unreadable line does not stop the rest being
    // judged: it is named, left out, and the exit status says so.
    let (lines, errs) = read_orders(&v, &pos, &otext);
    if !errs.is_empty() {
        eprintln!(
            "{}: unreadable lines, left out (the rest is judged):\n{}",
            args.orders.display(),
            errs.join("\n")
        );
    }
    let orders = phase_orders(&v, &pos, &lines);
    let (result, next) = play(&v, &pos, &orders);
    print!("{}", report(&v, &pos, &lines, &orders, &result, &next));
    if !errs.is_empty() {
        println!("\nUnreadable, not judged:");
        for e in &errs {
            println!("  {e}");
        }
    }
    println!("\n# Next position\n{}", next.to_toml(&v));
    Ok(if errs.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The order lines that could be read, and a message for each that could
/// not (with its line number), so that one bad line costs only itself.
fn read_orders(v: &Variant, pos: &Position, text: &str) -> (Vec<OrderLine>, Vec<String>) {
    if yearly(v, pos) {
        return read_sheet(v, pos, text);
    }
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let mut out = Vec::new();
    let mut errs = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        match parser.parse(body, Some(pos.phase.kind)) {
            Err(e) => errs.push(format!("line {}: `{body}`: {e}", i + 1)),
            Ok(p) => {
                let power = match p.power {
                    Some(pw) => Some(pw),
                    None => owner_of(&v.map, pos, &p.command),
                };
                match power {
                    Some(power) => out.push(OrderLine {
                        line: i + 1,
                        text: body.to_string(),
                        power,
                        command: p.command,
                    }),
                    None => errs.push(format!(
                        "line {}: `{body}`: say whose order it is (`England: ...`)",
                        i + 1
                    )),
                }
            }
        }
    }
    (out, errs)
}

/// Whether `pos` is a yearly turn that plays moves, retreats and builds
/// together (1700 AD II rule 3).
fn yearly(v: &Variant, pos: &Position) -> bool {
    crate::game::step::yearly_sheets(v) && pos.phase.kind == PhaseKind::Movement
}

/// A yearly turn's orders written as the order sheets of 1700 AD II rule
/// 6: `Sweden 1700 Moves: ...`, `Retreats: ...`, `Builds: A(Fin), A(Dal).`,
/// read as a mail's are (headings, powers, several orders a line). A line
/// with no order in it is named, as a mail's are.
fn read_sheet(v: &Variant, pos: &Position, text: &str) -> (Vec<OrderLine>, Vec<String>) {
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let body: Vec<&str> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .collect();
    let found = crate::orders::mail::find_orders(&parser, &body.join("\n"), Some(pos.phase.kind));
    let mut out = Vec::new();
    let mut errs = Vec::new();
    for f in found {
        match f.result {
            Err(e) => errs.push(format!("line {}: `{}`: {e}", f.line, f.text)),
            Ok(p) => match p
                .power
                .or(f.power)
                .or_else(|| owner_of(&v.map, pos, &p.command))
            {
                Some(power) => out.push(OrderLine {
                    line: f.line,
                    text: f.text,
                    power,
                    command: p.command,
                }),
                None => errs.push(format!(
                    "line {}: `{}`: say whose order it is (`Sweden 1700 Moves:`)",
                    f.line, f.text
                )),
            },
        }
    }
    for (i, l) in body.iter().enumerate() {
        let t = l.trim();
        let read = out.iter().any(|o| o.line == i + 1)
            || errs
                .iter()
                .any(|e| e.starts_with(&format!("line {}:", i + 1)));
        if !read && !t.is_empty() && !t.ends_with(':') {
            errs.push(format!("line {}: `{t}`: no order found", i + 1));
        }
    }
    errs.sort_by_key(|e| {
        e.split([' ', ':'])
            .nth(1)
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(0)
    });
    (out, errs)
}

/// The owner of the unit an order names, when the line gives no power.
pub(super) fn owner_of(map: &Map, pos: &Position, c: &AnyCommand) -> Option<PowerId> {
    let at = match c {
        AnyCommand::Main(u, _) | AnyCommand::Retreat(u, _) => u.at,
        AnyCommand::Adjust(crate::orders::AdjustCommand::Remove { unit }) => unit.at,
        AnyCommand::Adjust(_) => return None,
    };
    pos.units
        .iter()
        .chain(pos.dislodged.iter().map(|(u, _)| u))
        .find(|u| map.province_of(u.region) == at.province)
        .map(|u| u.power)
}

fn phase_orders(v: &Variant, pos: &Position, lines: &[OrderLine]) -> PhaseOrders {
    if yearly(v, pos) {
        let mut moves = Vec::new();
        let mut retreats = Vec::new();
        let mut adjust = Vec::new();
        for l in lines {
            match &l.command {
                AnyCommand::Main(u, c) => moves.push(Order {
                    power: l.power,
                    unit: *u,
                    command: c.clone(),
                }),
                AnyCommand::Retreat(u, c) => retreats.push(Order {
                    power: l.power,
                    unit: *u,
                    command: *c,
                }),
                AnyCommand::Adjust(c) => adjust.push(AdjustOrder {
                    power: l.power,
                    command: *c,
                }),
            }
        }
        return PhaseOrders::Turn {
            moves,
            retreats,
            adjust,
        };
    }
    match pos.phase.kind {
        PhaseKind::Movement => PhaseOrders::Movement(
            lines
                .iter()
                .filter_map(|l| match &l.command {
                    AnyCommand::Main(u, c) => Some(Order {
                        power: l.power,
                        unit: *u,
                        command: c.clone(),
                    }),
                    _ => None,
                })
                .collect(),
        ),
        PhaseKind::Retreat => PhaseOrders::Retreat(
            lines
                .iter()
                .filter_map(|l| match &l.command {
                    AnyCommand::Retreat(u, c) => Some(Order {
                        power: l.power,
                        unit: *u,
                        command: *c,
                    }),
                    _ => None,
                })
                .collect(),
        ),
        PhaseKind::Adjustment | PhaseKind::Placement => PhaseOrders::Adjustment(
            lines
                .iter()
                .filter_map(|l| match &l.command {
                    AnyCommand::Adjust(c) => Some(AdjustOrder {
                        power: l.power,
                        command: *c,
                    }),
                    _ => None,
                })
                .collect(),
        ),
    }
}

fn unit_text(map: &Map, u: &Unit) -> String {
    format_unit(map, Some(u.kind), Place::of_region(map, u.region))
}

fn outcome_word(o: &Outcome, units: &[Unit], map: &Map) -> String {
    match o {
        Outcome::Held => "holds".into(),
        Outcome::Moved => "moves".into(),
        Outcome::Bounced { with } if !with.is_empty() => {
            let who: Vec<String> = with
                .iter()
                .map(|i| crate::report::unit_in_outcome(map, &units[i]))
                .collect();
            format!("bounced with {}", who.join(", "))
        }
        Outcome::Bounced { .. } => "bounced".into(),
        Outcome::NoConvoy => "no convoy".into(),
        Outcome::Supported => "supports".into(),
        Outcome::Cut(by) => format!("cut by {}", unit_text(map, &units[*by])),
        Outcome::SupportVoid => "void (the unit did not do that)".into(),
        Outcome::Convoyed => "convoys".into(),
        Outcome::ConvoyFailed => "convoy failed".into(),
        Outcome::ConvoyVoid => "void (no such convoyed move)".into(),
        Outcome::Destroying => "destroys".into(),
    }
}

/// The results as text: what a GM reads, not yet the zine report. A
/// yearly turn's are the results mail's, impulse by impulse, for there is
/// no shorter true account of one.
fn report(
    v: &Variant,
    pos: &Position,
    lines: &[OrderLine],
    orders: &PhaseOrders,
    result: &PhaseResult,
    next: &Position,
) -> String {
    if let PhaseResult::Turn(_) = result {
        return crate::report::render(&crate::report::PhaseReport {
            variant: v,
            game: "adjudicate",
            before: pos,
            orders,
            result,
            after: next,
            next_deadline: None,
            ended: None,
            // Removals the judge chooses for a power with no line in the
            // file are civil disorder; for one with too few, its choice.
            nmr: v
                .map
                .power_ids()
                .filter(|p| !lines.iter().any(|l| l.power == *p))
                .collect(),
        });
    }
    let map = &v.map;
    let mut s = String::new();
    let _ = writeln!(s, "{} ({})\n", v.calendar.label(pos.phase), v.title);
    // Orders that were read but are of another phase kind.
    let mut wrong_phase = Vec::new();
    let mut illegal: Vec<(usize, Illegal)> = Vec::new();
    match result {
        PhaseResult::Turn(_) => {}
        PhaseResult::Movement(r) => {
            let used: Vec<&OrderLine> = lines
                .iter()
                .filter(|l| matches!(l.command, AnyCommand::Main(..)))
                .collect();
            wrong_phase.extend(
                lines
                    .iter()
                    .filter(|l| !matches!(l.command, AnyCommand::Main(..))),
            );
            for (k, why) in r.orders.iter().enumerate() {
                if let Some(why) = why {
                    illegal.push((used[k].line, *why));
                }
            }
            for pw in map.power_ids() {
                let mine: Vec<usize> = (0..pos.units.len())
                    .filter(|&i| pos.units[i].power == pw)
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                let _ = writeln!(s, "{}:", map.power(pw).name);
                for i in mine {
                    let ur = &r.units[i];
                    let u = pos.units[i];
                    let order = match ur.order_index() {
                        Some(k) => format_order(map, &used[k].command),
                        None => format!("{} H (no order)", unit_text(map, &u)),
                    };
                    // A waiting army destroyed where it stood did not hold
                    // (1066 rule 4): say so, as the results mail does.
                    let word = if ur.destroyed() {
                        "destroyed".to_string()
                    } else {
                        outcome_word(&ur.outcome, &pos.units, map)
                    };
                    let mut line = format!("  {order:<32} {word}");
                    if let Some(d) = &ur.dislodged {
                        let _ = write!(line, ", dislodged by {}", unit_text(map, &pos.units[d.by]));
                    }
                    let _ = writeln!(s, "{}", line.trim_end());
                }
            }
            let dislodged: Vec<_> = r.dislodged(&pos.units).collect();
            if !dislodged.is_empty() {
                let _ = writeln!(s, "\nDislodged:");
                for (u, d) in dislodged {
                    let opts: Vec<String> =
                        d.retreats.iter().map(|&x| map.region_abbr(x)).collect();
                    let _ = writeln!(
                        s,
                        "  {} {}: {}",
                        map.power(u.power).adjective,
                        unit_text(map, &u),
                        if opts.is_empty() {
                            "no retreat, disbanded".to_string()
                        } else {
                            format!("may retreat to {}", opts.join(", "))
                        }
                    );
                }
            }
            if !r.contested.is_empty() {
                let c: Vec<&str> = r
                    .contested
                    .iter()
                    .map(|&p| map.province(p).abbr.as_str())
                    .collect();
                let _ = writeln!(s, "\nStandoffs (no retreat there): {}", c.join(", "));
            }
        }
        PhaseResult::Retreat(r) => {
            let used: Vec<&OrderLine> = lines
                .iter()
                .filter(|l| matches!(l.command, AnyCommand::Retreat(..)))
                .collect();
            wrong_phase.extend(
                lines
                    .iter()
                    .filter(|l| !matches!(l.command, AnyCommand::Retreat(..))),
            );
            for (k, why) in r.orders.iter().enumerate() {
                if let Some(why) = why {
                    illegal.push((used[k].line, *why));
                }
            }
            for (i, (u, _)) in pos.dislodged.iter().enumerate() {
                let what = match r.dislodged[i] {
                    RetreatStatus::Retreated(to) => format!("retreats to {}", map.region_abbr(to)),
                    RetreatStatus::Disbanded => "disbanded".into(),
                    RetreatStatus::NoOrder => "no retreat order: disbanded".into(),
                    RetreatStatus::Bounced => "bounced with another retreat: disbanded".into(),
                };
                let _ = writeln!(
                    s,
                    "  {} {}: {what}",
                    map.power(u.power).adjective,
                    unit_text(map, u)
                );
            }
        }
        PhaseResult::Adjustment(r) => {
            let used: Vec<&OrderLine> = lines
                .iter()
                .filter(|l| matches!(l.command, AnyCommand::Adjust(..)))
                .collect();
            wrong_phase.extend(
                lines
                    .iter()
                    .filter(|l| !matches!(l.command, AnyCommand::Adjust(..))),
            );
            for (k, st) in r.orders.iter().enumerate() {
                let l = used[k];
                let what = match st {
                    AdjustStatus::Built(u) => format!("builds {}", unit_text(map, u)),
                    AdjustStatus::Removed(u) => format!("removes {}", unit_text(map, u)),
                    AdjustStatus::Waived => "waives a build".into(),
                    AdjustStatus::Converted(u) => format!("now {}", unit_text(map, u)),
                    AdjustStatus::Illegal(why) => {
                        illegal.push((l.line, *why));
                        continue;
                    }
                };
                let _ = writeln!(s, "  {}: {what}", map.power(l.power).name);
            }
            for u in &r.civil_disorder {
                let _ = writeln!(
                    s,
                    "  {}: {} removed (civil disorder)",
                    map.power(u.power).name,
                    unit_text(map, u)
                );
            }
            for (pw, &n) in r.unused_builds.iter().enumerate() {
                if n > 0 {
                    let _ = writeln!(
                        s,
                        "  {}: {} not used",
                        map.power(PowerId(pw as u8)).name,
                        crate::report::plural(n, "build", None)
                    );
                }
            }
        }
    }
    if !illegal.is_empty() || !wrong_phase.is_empty() {
        let _ = writeln!(s, "\nOrders not carried out:");
        for (line, why) in illegal {
            let text = lines
                .iter()
                .find(|l| l.line == line)
                .map_or("", |l| l.text.as_str());
            let _ = writeln!(s, "  line {line}: `{text}`: {why}");
        }
        for l in wrong_phase {
            let _ = writeln!(
                s,
                "  line {}: `{}`: {}",
                l.line,
                l.text,
                Illegal::WrongPhase
            );
        }
    }
    s
}
