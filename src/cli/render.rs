//! `zinejudge render --game GAME [--phase PHASE]`: the results of a past
//! phase on stdout, and the picture of the board after it written as PNG
//! and SVG, for GMs and for testing.

use crate::config::Config;
use crate::game::Position;
use crate::report::picture;
use crate::store::Store;
use crate::store::games;
use anyhow::{Context, Result, bail};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `render`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game (in the judge's store).
    #[arg(long)]
    game: String,
    /// The phase (`S1901M`); the last one played when left out.
    #[arg(long)]
    phase: Option<String>,
    /// Configuration file (for the store's location).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Where to write the pictures.
    #[arg(long, default_value = ".")]
    out: PathBuf,
}

pub fn run(args: Args) -> Result<ExitCode> {
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
    let v = super::load_variant(&g.variant)?;
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
    print!("{}", rows[i].report);
    // The board after the phase: the start of the next one played, or now.
    let after_text = rows
        .get(i + 1)
        .map_or(g.position.clone(), |r| r.position.clone());
    let after = Position::from_toml(&v, &after_text)
        .map_err(|e| anyhow::anyhow!("stored position: {e}"))?;
    let title = format!("{}: after {}", g.name, rows[i].phase);
    let svg = picture::svg(&v, &after, &after.dislodged, &title);
    let png = picture::png(&svg)?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let base = args.out.join(format!("{}-{}", g.name, rows[i].phase));
    let (svg_path, png_path) = (base.with_extension("svg"), base.with_extension("png"));
    std::fs::write(&svg_path, svg)
        .with_context(|| format!("cannot write {}", svg_path.display()))?;
    std::fs::write(&png_path, png)
        .with_context(|| format!("cannot write {}", png_path.display()))?;
    eprintln!("pictures: {} {}", png_path.display(), svg_path.display());
    Ok(ExitCode::SUCCESS)
}
