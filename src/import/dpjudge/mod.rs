//! DPjudge's map files (`.map`, with the `.geography`, `.politics` and
//! `.military` files they `USE`), imported as variant files of this
//! judge. DPjudge's public repository holds some forty maps in this
//! small line-based language; a GM who wants one of them here runs
//! `zinejudge import dpjudge FILE.map` instead of writing it again.
//!
//! Everything the standard rules need is carried over: places with their
//! names and aliases, terrain (ports among it), who may cross each border
//! and how (straits and half-strength borders: `ports.rs`), split coasts,
//! renames, amendments and drops, powers with their adjectives, homes and
//! starting units, neutral centres, the calendar and its first phase, the
//! victory count, and the `RULE` words and directives that are rules this
//! judge has (`BUILD_ANY`, `HOME_BUILDS`, `REMOTE_BUILDS`, `FTF_PRESS`:
//! `press`, `NEWHOMES`, `FLOW`'s `NEWYEAR` and `IFYEARDIV`, partisan sites
//! and alternative home centres: `sites`). A directive or rule word it
//! cannot play is refused with its file and line. DPjudge's PostScript map beside
//! the map, where there is one, gives the places' points (`ps`).

mod calendar;
mod centres;
mod dummies;
mod locs;
mod model;
mod owner_marks;
mod places;
mod ports;
mod press;
mod ps;
mod read;
mod sites;
mod write;

use crate::variant::Variant;

/// A line the importer cannot carry over, and why.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{file}:{line}: `{what}`: {why}")]
pub struct Refusal {
    /// The file it is in (as named by the map or its `USE` lines).
    pub file: String,
    /// Its line, from 1 (0: the file itself).
    pub line: usize,
    /// The directive, rule word or border refused.
    pub what: String,
    /// Why.
    pub why: String,
}

/// Why a map was not imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// Lines asking for what this judge cannot play.
    #[error("{} line(s) cannot be carried over:\n{}", .0.len(), lines(.0))]
    Refused(Vec<Refusal>),
    /// The map read, but the variant file made of it does not load (a
    /// one-sided border, a unit where its kind cannot stand).
    #[error("the variant file made from it does not load:\n{}", .problems.join("\n"))]
    Invalid {
        /// The loader's problems, each with its line in `toml`.
        problems: Vec<String>,
        /// The file as written.
        toml: String,
    },
}

fn lines(r: &[Refusal]) -> String {
    r.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A map imported.
#[derive(Debug)]
pub struct Imported {
    /// The variant file.
    pub toml: String,
    /// The variant it loads as.
    pub variant: Variant,
    /// What was read and left out on purpose (cosmetic lines, aliases
    /// that name two places), also written at the head of the file.
    pub notes: Vec<String>,
}

/// Import the map file `name`, reading it and the files it includes with
/// `fetch` (names as the map writes them, relative to its folder). The
/// variant is called after the file (`youngstown.map`: `youngstown`).
pub fn import(
    name: &str,
    fetch: &mut dyn FnMut(&str) -> Result<String, String>,
) -> Result<Imported, ImportError> {
    let mut model = read::read(name, fetch);
    settle_dummies(&mut model);
    // DPjudge's picture of the map, where one lies beside it: its places'
    // points become the provinces' `xy`.
    for ps in ps::candidates(name, &model) {
        if let Ok(text) = fetch(&ps) {
            let info = ps::info(&text);
            if !info.is_empty() {
                model.ps_info = info;
                model.ps_file = Some(ps);
                break;
            }
        }
    }
    if !model.refusals.is_empty() {
        return Err(ImportError::Refused(model.refusals));
    }
    let stem = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = stem.strip_suffix(".map").unwrap_or(stem);
    let variant: String = stem
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    let (toml, notes) = write::write(&model, name, &variant).map_err(ImportError::Refused)?;
    match Variant::from_toml(&toml) {
        Ok(variant) => Ok(Imported {
            toml,
            variant,
            notes,
        }),
        Err(e) => Err(ImportError::Invalid {
            problems: e.problems.iter().map(ToString::to_string).collect(),
            toml,
        }),
    }
}

/// The dummy powers' words, once the whole map is read: what cannot be
/// played refused, what changes nothing noted.
fn settle_dummies(model: &mut model::Model) {
    let names: Vec<String> = model
        .powers
        .iter()
        .filter(|p| p.dummy)
        .map(|p| p.name.clone())
        .collect();
    let found = dummies::settle(&model.dummy_words, &names, model.powers.len());
    for ((file, line), what, why) in found.refused {
        let r = Refusal {
            file,
            line,
            what,
            why,
        };
        if model.refused.insert(r.clone()) {
            model.refusals.push(r);
        }
    }
    model.notes.extend(found.notes);
}
