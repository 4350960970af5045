//! `zinejudge adjudicate`: the offline GM's tool. One phase from a position
//! file and an orders file; prints the results as the results mail gives
//! them (through the same report code, so the two never differ), the lines
//! not carried out, and the next position in the same format, so phases
//! can be chained by hand.

use crate::adjudicate::{AdjustStatus, Illegal};
use crate::game::Position;
use crate::game::step::{PhaseOrders, PhaseResult, play};
use crate::map::{Map, PowerId};
use crate::orders::parse::OrderParser;
use crate::orders::{AdjustOrder, AnyCommand, Order};
use crate::variant::{PhaseKind, Variant};
use anyhow::{Context, Result};
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `adjudicate`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Variant: a shipped name, one of the judge's variants folder (with
    /// --config) or a file.
    #[arg(long, default_value = "standard")]
    game: String,
    #[command(flatten)]
    folder: super::variants::Folder,
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

pub(super) fn run(args: Args) -> Result<ExitCode> {
    let v = args.folder.load(&args.game)?;
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
    say!("{}", report(&v, &pos, &lines, &orders, &result, &next))?;
    if !errs.is_empty() {
        sayln!("\nUnreadable, not judged:")?;
        for e in &errs {
            sayln!("  {e}")?;
        }
    }
    sayln!("\n# Next position\n{}", next.to_toml(&v))?;
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

/// The results as the results mail gives them, for every kind of phase:
/// one renderer for both, so the offline tool says all the mail says
/// (landings, what is left of a defensive army's support, the game's end)
/// and a GM can check a mail against it. After them, the lines of the file
/// that were read but not carried out, named by line number, which the
/// mail cannot do (by mail they were refused as they came).
fn report(
    v: &Variant,
    pos: &Position,
    lines: &[OrderLine],
    orders: &PhaseOrders,
    result: &PhaseResult,
    next: &Position,
) -> String {
    let mut s = crate::report::render(&crate::report::PhaseReport {
        variant: v,
        game: "adjudicate",
        before: pos,
        orders,
        result,
        after: next,
        next_deadline: None,
        ended: crate::game::end::game_end(v, pos, next),
        // A power with something to order and no line in the file is a
        // power that sent no orders: its removals are civil disorder, as
        // by mail; one with too few lines gets the judge's choice.
        nmr: v
            .map
            .power_ids()
            .filter(|p| {
                crate::commands::submit::has_choices(v, pos, *p)
                    && !lines.iter().any(|l| l.power == *p)
            })
            .collect(),
    });
    let refused = not_carried_out(lines, result);
    if !refused.is_empty() {
        let _ = writeln!(s, "\nOrders not carried out:");
        for r in refused {
            let _ = writeln!(s, "  {r}");
        }
    }
    s
}

/// The lines that were read but not carried out, with the judge's reason:
/// the orders it refused and the orders of another kind of phase (a
/// yearly turn takes every kind, each judged in its part of the year).
fn not_carried_out(lines: &[OrderLine], result: &PhaseResult) -> Vec<String> {
    let main = |c: &AnyCommand| matches!(c, AnyCommand::Main(..));
    let retreat = |c: &AnyCommand| matches!(c, AnyCommand::Retreat(..));
    let adjust = |c: &AnyCommand| matches!(c, AnyCommand::Adjust(..));
    // Per kind of order, the verdict on each of its lines in turn (the
    // phase's orders are the lines of its kinds, in the file's order).
    type Verdicts<'a> = Vec<(&'a dyn Fn(&AnyCommand) -> bool, Vec<Option<Illegal>>)>;
    let verdicts: Verdicts<'_> = match result {
        PhaseResult::Turn(t) => vec![
            (&main, t.turn.orders.clone()),
            (&adjust, refused_builds(&t.adjustments)),
        ],
        PhaseResult::Movement(r) => vec![(&main, r.orders.clone())],
        PhaseResult::Retreat(r) => vec![(&retreat, r.orders.clone())],
        PhaseResult::Adjustment(r) => vec![(&adjust, refused_builds(r))],
    };
    let mut out: Vec<(usize, String)> = Vec::new();
    for (of_kind, said) in &verdicts {
        let used = lines.iter().filter(|l| of_kind(&l.command));
        for (l, why) in used.zip(said) {
            if let Some(why) = why {
                out.push((l.line, format!("`{}`: {why}", l.text)));
            }
        }
    }
    if !matches!(result, PhaseResult::Turn(_)) {
        out.extend(
            lines
                .iter()
                .filter(|l| !verdicts.iter().any(|(k, _)| k(&l.command)))
                .map(|l| (l.line, format!("`{}`: {}", l.text, Illegal::WrongPhase))),
        );
    }
    out.sort_by_key(|(line, _)| *line);
    out.into_iter()
        .map(|(line, text)| format!("line {line}: {text}"))
        .collect()
}

/// The refusals among an adjustment's orders, one entry per order.
fn refused_builds(r: &crate::adjudicate::AdjustResult) -> Vec<Option<Illegal>> {
    r.orders
        .iter()
        .map(|st| match st {
            AdjustStatus::Illegal(why) => Some(*why),
            _ => None,
        })
        .collect()
}
