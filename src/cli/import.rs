//! `zinejudge import dpjudge FILE.map [--out FILE.toml]`: another judge's
//! variant, written as a variant file of this one and checked as
//! `check-game` checks it. The files a map includes are read from its
//! folder.

use crate::import::dpjudge::{self, ImportError};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `import`.
#[derive(Debug, clap::Args)]
pub(super) struct Args {
    #[command(subcommand)]
    from: From,
}

/// Which judge's format.
#[derive(Debug, clap::Subcommand)]
enum From {
    /// A DPjudge `.map` file (with the files its USE and MAP lines name,
    /// read from its folder).
    Dpjudge {
        /// The map file.
        file: PathBuf,
        /// Where to write the variant file; without it, standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Another folder to find the files it includes in, after its own
        /// (DPjudge's trial maps use the maps of its main folder).
        #[arg(long = "include", value_name = "DIR")]
        include: Vec<PathBuf>,
    },
}

pub(super) fn run(args: Args) -> Result<ExitCode> {
    let From::Dpjudge { file, out, include } = args.from;
    let folder = file.parent().map(Path::to_path_buf).unwrap_or_default();
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .with_context(|| format!("{} is not a file name", file.display()))?;
    let folders = folders(&folder, &include);
    let mut fetch = |n: &str| -> Result<String, String> {
        // Only files beside the map: a map names its includes by name.
        if n.contains(['/', '\\']) || n.starts_with('.') {
            return Err("only files in the map's own folder are read".into());
        }
        for dir in &folders {
            match std::fs::read(dir.join(n)) {
                // DPjudge's files are UTF-8 or, the older ones, Latin-1.
                Ok(b) => {
                    return Ok(match String::from_utf8(b) {
                        Ok(t) => t,
                        Err(e) => e.into_bytes().iter().map(|&c| char::from(c)).collect(),
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(format!("{}: {e}", dir.join(n).display())),
            }
        }
        Err(not_found(n, &folders))
    };
    match dpjudge::import(&name, &mut fetch) {
        Ok(imported) => {
            match &out {
                Some(path) => std::fs::write(path, &imported.toml)
                    .with_context(|| format!("cannot write {}", path.display()))?,
                None => say!("{}", imported.toml)?,
            }
            for n in &imported.notes {
                eprintln!("note: {n}");
            }
            eprintln!("{}", imported.variant.summary());
            Ok(ExitCode::SUCCESS)
        }
        Err(ImportError::Refused(list)) => {
            for r in &list {
                eprintln!("{}/{r}", folder.display());
            }
            eprintln!(
                "{} not imported: {}",
                file.display(),
                if list.len() == 1 {
                    "1 line asks for what this judge cannot play".to_string()
                } else {
                    format!("{} lines ask for what this judge cannot play", list.len())
                }
            );
            Ok(ExitCode::FAILURE)
        }
        Err(ImportError::Invalid { problems, toml }) => {
            if let Some(path) = &out {
                std::fs::write(path, &toml)
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            for p in &problems {
                eprintln!(
                    "{}: {p}",
                    out.as_deref().unwrap_or(Path::new("(imported)")).display()
                );
            }
            eprintln!(
                "{} not imported: the variant file made from it does not load",
                file.display()
            );
            Ok(ExitCode::FAILURE)
        }
    }
}

/// The folders a map's includes are read from, in order: its own, then
/// each `--include`, then, for a map in a folder called `trials`, the
/// `maps` folder beside it (DPjudge's own layout: a trial map uses the
/// maps of the judge's main folder).
fn folders(own: &Path, include: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = vec![own.to_path_buf()];
    out.extend(include.iter().cloned());
    let here = if own.as_os_str().is_empty() {
        Path::new(".")
    } else {
        own
    };
    let own_name = here
        .canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()));
    if own_name.as_deref() == Some("trials")
        && let Some(maps) = here.join("..").join("maps").canonicalize().ok()
        && maps.is_dir()
        && !out.contains(&maps)
    {
        out.push(maps);
    }
    out
}

/// Why an include was not found: where it was looked for, and how to
/// name the folder that holds it.
fn not_found(name: &str, folders: &[PathBuf]) -> String {
    let looked: Vec<String> = folders.iter().map(|d| d.display().to_string()).collect();
    format!(
        "no {name} in {}; if another folder holds it (a trial map uses DPjudge's main \
         maps folder), name that folder with --include DIR",
        looked.join(", ")
    )
}
