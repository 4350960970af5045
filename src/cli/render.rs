//! `zinejudge render --game GAME [--phase PHASE]`: the results of a past
//! phase on stdout, and the picture of the board after it, with the
//! phase's orders drawn, written as PNG and SVG, for GMs and for testing.
//! The picture is drawn again from the stored phase (the position before
//! it and its orders, judged again), so pictures never need storing.

use crate::config::Config;
use crate::game::Position;
use crate::game::step::{PhaseOrders, play};
use crate::orders::parse::OrderParser;
use crate::report::picture::Picture;
use crate::report::{PhaseReport, PictureFormat};
use crate::rules::view::VariantRules;
use crate::store::Store;
use crate::store::games;
use crate::variant::features::Viewer;
use crate::variant::{PhaseKind, Variant};
use anyhow::{Context, Result, bail};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `render`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    /// The game (in the judge's store).
    #[arg(long)]
    game: String,
    /// The phase (`S1901M`); the last one played when left out.
    #[arg(long)]
    phase: Option<String>,
    /// Configuration file (for the store's location and the variants
    /// folder).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Where to write the pictures.
    #[arg(long, default_value = ".")]
    out: PathBuf,
    /// Which pictures to write: png, svg or both.
    #[arg(long, default_value = "both", value_parser = format_arg)]
    picture: PictureFormat,
}

fn format_arg(s: &str) -> Result<PictureFormat, String> {
    PictureFormat::parse(s).ok_or_else(|| format!("{s}: say png, svg, both or none"))
}

/// The stored orders of a phase (`Power: order` lines) read back for the
/// phase `pos` is at. A line that no longer reads is skipped: the picture
/// is a convenience, the stored report is the record.
fn stored_orders(v: &Variant, pos: &Position, text: &str) -> PhaseOrders {
    let parser = OrderParser::with_syntax(&v.map, v.syntax.clone());
    let mut sorted = crate::game::phase_orders::PhaseOrdersBuilder::new();
    let turn = v.takes_order_sheets() && pos.phase.kind == PhaseKind::Movement;
    for line in text.lines() {
        let Some((pw, order)) = line.split_once(':') else {
            continue;
        };
        let Some(power) = v.map.lookup_power(pw.trim()) else {
            continue;
        };
        let kind = if turn { None } else { Some(pos.phase.kind) };
        let Ok(parsed) = parser.parse(order.trim(), kind) else {
            continue;
        };
        sorted.push(power, parsed.command);
    }
    sorted.build(v, pos.phase.kind)
}

pub(super) fn run(args: Args) -> Result<ExitCode> {
    let config = Config::load(args.config.as_deref())?;
    let mut store = Store::open(&config.store)
        .with_context(|| format!("cannot open the store {}", config.store.display()))?;
    let conn = store.conn();
    let Some(g) = games::load(conn, &args.game)? else {
        bail!(
            "there is no game called {} in {}",
            args.game,
            config.store.display()
        );
    };
    // The copy of its variant the game plays, kept in the store whatever
    // happened to the file since; else the variant by name, the judge's
    // folder included.
    let v = match crate::store::kept::of_game(conn, &g.name)? {
        Some((fp, text)) => Variant::from_toml(&text).map_err(|e| {
            anyhow::anyhow!("the copy of {} kept for {} ({fp}):\n{e}", g.variant, g.name)
        })?,
        None => super::variants::find(&g.variant, Some(&config))?,
    };
    let rows: Vec<_> = games::history(conn, &g.name)?
        .into_iter()
        .filter(|r| r.kind == "phase")
        .collect();
    if rows.is_empty() {
        bail!("{} has no phase played yet", g.name);
    }
    let i = match &args.phase {
        None => rows.len() - 1,
        Some(p) => rows
            .iter()
            .position(|r| r.phase.eq_ignore_ascii_case(p))
            .with_context(|| {
                format!(
                    "no phase {p} in {}; played: {}",
                    g.name,
                    rows.iter()
                        .map(|r| r.phase.as_str())
                        .collect::<Vec<_>>()
                        .join(" ")
                )
            })?,
    };
    // A reader that stops reading (`| head`) does not stop the pictures
    // being written: what became of the printing is told at the end.
    let printed = say!("{}", rows[i].report);
    // The phase played again from where it started, with its orders.
    let before = Position::from_toml(&v, &rows[i].position)
        .map_err(|e| anyhow::anyhow!("stored position: {e}"))?;
    let orders = stored_orders(&v, &before, &rows[i].orders);
    let (result, after) = play(&v, &before, &orders);
    let r = PhaseReport {
        variant: &v,
        game: &g.name,
        before: &before,
        orders: &orders,
        result: &result,
        after: &after,
        next_deadline: None,
        ended: None,
        nmr: Vec::new(),
    };
    // The picture of the text printed above, the public one: a variant that
    // hides units (1066 rule 5) must not draw them here either.
    let pic = Picture::new(&v);
    let svg = pic.phase_svg(&r, &crate::report::title(&r), Viewer::Public);
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let base = args.out.join(format!("{}-{}", g.name, rows[i].phase));
    let mut written = Vec::new();
    if args.picture.png() {
        let path = base.with_extension("png");
        std::fs::write(
            &path,
            pic.phase_png(&r, &crate::report::title(&r), Viewer::Public)?,
        )
        .with_context(|| format!("cannot write {}", path.display()))?;
        written.push(path.display().to_string());
    }
    if args.picture.svg() {
        let path = base.with_extension("svg");
        std::fs::write(&path, &svg).with_context(|| format!("cannot write {}", path.display()))?;
        written.push(path.display().to_string());
    }
    eprintln!("pictures: {}", written.join(" "));
    printed?;
    Ok(ExitCode::SUCCESS)
}
