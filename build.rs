//! The rule features' registry, made from the files of `src/rules`.
//!
//! A rule feature is one file, `src/rules/<feature>.rs`, that declares
//! `pub(crate) const PLUGIN: Plugin`: adding a feature must not mean
//! editing a list somewhere else as well (issue #36). So the list is made
//! here: every `.rs` file of `src/rules` but `mod.rs` becomes a module of
//! `rules` (with `#[path]`, as the files live beside `mod.rs`), and each
//! that declares a plug-in is named in `PLUGINS`. A directory
//! `src/rules/<name>/` with a `mod.rs` is a module too: a feature too big
//! for one file keeps its parts there.
//!
//! rustfmt does not follow modules declared in generated code, so
//! `scripts/test.sh` formats `src/rules` by name as well.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new("src/rules");
    println!("cargo::rerun-if-changed=src/rules");
    let mut names: Vec<(String, String, bool)> = Vec::new();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => panic!("cannot read src/rules: {e}"),
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let (name, file) = if path.is_dir() {
            let m = path.join("mod.rs");
            if !m.is_file() {
                continue;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            (name, m)
        } else if path.extension().is_some_and(|x| x == "rs") {
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            if name == "mod" {
                continue;
            }
            (name, path.clone())
        } else {
            continue;
        };
        println!("cargo::rerun-if-changed={}", file.display());
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let plugin = text
            .lines()
            .any(|l| l.trim_start().starts_with("pub(crate) const PLUGIN: Plugin"));
        let abs = match std::fs::canonicalize(&file) {
            Ok(p) => p,
            Err(e) => panic!("cannot resolve {}: {e}", file.display()),
        };
        names.push((name, abs.to_string_lossy().into_owned(), plugin));
    }
    names.sort();
    let mut out = String::new();
    for (name, path, _) in &names {
        let _ = writeln!(out, "#[path = {path:?}]\npub mod {name};");
    }
    out.push_str(
        "/// Every rule feature of `src/rules`, in the order of their files'\n\
         /// names (a plug-in's `rank` orders its hooks).\n\
         pub(crate) static PLUGINS: &[&Plugin] = &[\n",
    );
    for (name, _, plugin) in &names {
        if *plugin {
            let _ = writeln!(out, "    &{name}::PLUGIN,");
        }
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
