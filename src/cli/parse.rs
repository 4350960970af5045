//! `zinejudge parse`: read a mail body on stdin and print, for each order in
//! it, the order as the judge understood it in zine notation, or the error
//! with its line number. With `--position`, orders are also checked against
//! the board (is the unit there, can it go there, is it the right phase).

use crate::game::Position;
use crate::orders::format_order;
use crate::orders::mail::{FoundOrder, find_orders};
use crate::orders::parse::OrderParser;
use crate::variant::{Phase, Variant};
use anyhow::{Context, Result};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `parse`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// Variant: a shipped name, one of the judge's variants folder (with
    /// --config) or a file.
    #[arg(long, default_value = "standard")]
    game: String,
    #[command(flatten)]
    folder: super::variants::Folder,
    /// The phase the orders are for (`Spring 1901 retreat`, `F1901M`);
    /// defaults to the position's phase, or a movement phase.
    #[arg(long)]
    phase: Option<String>,
    /// A position file: check the orders against it too.
    #[arg(long)]
    position: Option<PathBuf>,
}

pub(super) fn run(args: Args) -> Result<ExitCode> {
    let v = args.folder.load(&args.game)?;
    let pos = match &args.position {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .with_context(|| format!("cannot read {}", p.display()))?;
            Some(
                Position::from_toml(&v, &text)
                    .map_err(|e| anyhow::anyhow!("{}:\n{e}", p.display()))?,
            )
        }
        None => None,
    };
    let phase: Option<Phase> = match &args.phase {
        Some(s) => Some(v.calendar.parse(s)?),
        None => pos.as_ref().map(|p| p.phase),
    };
    let mut body = Vec::new();
    std::io::stdin()
        .read_to_end(&mut body)
        .context("cannot read the mail body from standard input")?;
    let body = String::from_utf8_lossy(&body);
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let found = find_orders(&parser, &body, phase.map(|p| p.kind));
    let (verdicts, completed) = match (&pos, phase) {
        (Some(pos), Some(ph)) => {
            // `--phase` may name another phase than the position's.
            let mut at = pos.clone();
            at.phase = ph;
            check(&v, &at, &found)
        }
        _ => (vec![None; found.len()], vec![None; found.len()]),
    };
    let mut errors = 0;
    for ((f, verdict), done) in found.iter().zip(verdicts).zip(completed) {
        match (&f.result, verdict) {
            (Ok(o), None) => {
                // Against a board: the order as the mail reply shows it,
                // its unit's kind filled in or corrected, with the note.
                let (order, note) = done.unwrap_or_else(|| (o.command.clone(), None));
                sayln!("line {}: {}", f.line, format_order(&v.map, &order))?;
                if let Some(note) = note {
                    sayln!("  {note}")?;
                }
            }
            (Ok(o), Some(why)) => {
                errors += 1;
                sayln!(
                    "line {}: {}: not accepted: {why}",
                    f.line,
                    format_order(&v.map, &o.command)
                )?;
            }
            // The rest of a line that held an order: listed, not an error.
            (Err(e), _) if e.kind == crate::orders::parse::ParseErrorKind::Empty => {
                sayln!("line {}: `{}`: not read as an order", f.line, f.text)?;
            }
            (Err(e), _) => {
                errors += 1;
                sayln!("line {}: `{}`: {e}", f.line, f.text)?;
            }
        }
    }
    if found.is_empty() {
        sayln!("no orders found")?;
    }
    Ok(if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// An order as the judge completes it against the board, with its note.
type Completed = Option<(crate::orders::AnyCommand, Option<String>)>;

/// Check read orders against the board: `Some(reason)` for each order the
/// judge would not carry out; and each order completed as the mail path
/// completes it (the unit's kind filled in or corrected, with the same note).
fn check(
    v: &Variant,
    pos: &Position,
    found: &[FoundOrder],
) -> (Vec<Option<String>>, Vec<Completed>) {
    let mut out = vec![None; found.len()];
    let mut completed = vec![None; found.len()];
    let mut idx = Vec::new();
    let mut orders = Vec::new();
    for (i, f) in found.iter().enumerate() {
        let Ok(o) = &f.result else { continue };
        let Some(power) = f
            .power
            .or_else(|| super::adjudicate::owner_of(&v.map, pos, &o.command))
        else {
            out[i] = Some("say whose order it is (`England: ...`)".to_string());
            continue;
        };
        idx.push(i);
        orders.push((power, o.command.clone()));
    }
    // The same checker as the mail path's, so `parse` refuses exactly what
    // the judge would.
    for (k, verdict) in crate::game::check::refusals(v, pos, &orders)
        .into_iter()
        .enumerate()
    {
        out[idx[k]] = verdict;
    }
    for (k, (power, c)) in orders.iter().enumerate() {
        let own: Vec<_> = orders
            .iter()
            .filter(|(p, _)| p == power)
            .map(|(_, c)| c.clone())
            .collect();
        let boarded = crate::commands::submit::boarded_fleets(&own);
        completed[idx[k]] = Some(crate::commands::submit::complete(
            v, pos, *power, c, &boarded,
        ));
    }
    (out, completed)
}
