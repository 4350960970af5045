//! Finding a variant named on the command line (issue #52): a shipped
//! one, one of the judge's variants folder (its configuration given with
//! `--config`), or a file. Every command that takes a variant's name
//! finds it so, as the running judge does.

use crate::config::Config;
use crate::variant::{self, Variant};
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// `--config FILE` of a command that takes a variant's name.
#[derive(Debug, Clone, Default, clap::Args)]
pub(super) struct Folder {
    /// The judge's configuration file: the variants of its
    /// `[variants] dir` are found by name too.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

impl Folder {
    /// The variant `game`: shipped, of the folder of the configuration
    /// given, or a file.
    pub(super) fn load(&self, game: &str) -> Result<Variant> {
        let config = match &self.config {
            Some(path) => Some(Config::load(Some(path))?),
            None => None,
        };
        find(game, config.as_ref())
    }
}

/// The variant `game`: shipped, one of `config`'s variants folder, or the
/// file of that path.
pub(super) fn find(game: &str, config: Option<&Config>) -> Result<Variant> {
    if let Some(v) = variant::builtin(game) {
        return v.map_err(|e| anyhow::anyhow!("shipped variant `{game}` is broken:\n{e}"));
    }
    if let Some(c) = config
        && let Some(v) = c
            .variants
            .iter()
            .find(|v| v.name.eq_ignore_ascii_case(game))
    {
        return Ok((**v).clone());
    }
    let path = Path::new(game);
    if path.is_file() {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        return Variant::from_toml(&text).map_err(|e| anyhow::anyhow!("{}:\n{e}", path.display()));
    }
    let shipped: Vec<&str> = variant::BUILTIN.iter().map(|(n, _)| *n).collect();
    let shipped = shipped.join(", ");
    match config {
        None => bail!(
            "no variant `{game}`: not a shipped variant ({shipped}) nor a file; a variant of \
             the judge's variants folder is found with --config FILE (the judge's configuration)"
        ),
        Some(c) => {
            let names: Vec<&str> = c.variants.iter().map(|v| v.name.as_str()).collect();
            let folder = if names.is_empty() {
                "the judge's variants folder holds none".to_string()
            } else {
                format!(
                    "nor one of the judge's variants folder ({})",
                    names.join(", ")
                )
            };
            let problems: String = c
                .variant_problems
                .iter()
                .map(|p| format!("\n  not loaded: {p}"))
                .collect();
            bail!(
                "no variant `{game}`: not a shipped variant ({shipped}), {folder}, nor a file{problems}"
            )
        }
    }
}
