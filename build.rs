//! The rule features' registry, made from the files of `src/rules`.
//!
//! A rule feature is one file, `src/rules/<feature>.rs` (or a directory
//! `src/rules/<feature>/` with a `mod.rs`, for a feature with a judge of
//! its own), that declares `pub(crate) const PLUGIN: Plugin`: adding a
//! feature must not mean editing a list somewhere else as well (issue
//! #36). So the list is made here: each file or directory of `src/rules`
//! that declares a plug-in becomes a module of `rules` (with `#[path]`, as
//! the files live beside `mod.rs`) and is named in `PLUGINS`. The other
//! files of `src/rules` are declared in its `mod.rs` as usual.
//!
//! rustfmt does not follow modules declared in generated code, so
//! `scripts/test.sh` formats the plug-in files by name as well.

use std::fmt::Write as _;
use std::path::Path;

/// The line that makes a file a plug-in.
const MARK: &str = "pub(crate) const PLUGIN:";

fn main() {
    let dir = Path::new("src/rules");
    println!("cargo::rerun-if-changed=src/rules");
    let mut names: Vec<(String, String)> = Vec::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => panic!("cannot read src/rules: {e}"),
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let (name, file) = if path.is_dir() {
            println!("cargo::rerun-if-changed={}", path.display());
            (
                entry.file_name().to_string_lossy().into_owned(),
                path.join("mod.rs"),
            )
        } else if path.extension().is_some_and(|x| x == "rs") {
            let stem = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            (stem, path.clone())
        } else {
            continue;
        };
        if name == "mod" || !file.is_file() {
            continue;
        }
        println!("cargo::rerun-if-changed={}", file.display());
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        if !text.lines().any(|l| l.trim_start().starts_with(MARK)) {
            continue;
        }
        let abs = match std::fs::canonicalize(&file) {
            Ok(p) => p,
            Err(e) => panic!("cannot resolve {}: {e}", file.display()),
        };
        names.push((name, abs.to_string_lossy().into_owned()));
    }
    names.sort();
    let mut out = String::new();
    for (name, path) in &names {
        let _ = writeln!(out, "#[path = {path:?}]\npub(crate) mod {name};");
    }
    out.push_str(
        "/// Every rule feature of `src/rules`, in the order of their files'\n\
         /// names (a plug-in's `rank` orders its hooks).\n\
         pub(crate) static PLUGINS: &[&Plugin] = &[\n",
    );
    for (name, _) in &names {
        let _ = writeln!(out, "    &{name}::PLUGIN,");
    }
    out.push_str("];\n");
    let target = match std::env::var("OUT_DIR") {
        Ok(d) => Path::new(&d).join("rules_registry.rs"),
        Err(e) => panic!("OUT_DIR: {e}"),
    };
    if let Err(e) = std::fs::write(&target, out) {
        panic!("cannot write {}: {e}", target.display());
    }
}
