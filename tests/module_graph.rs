//! The crate's modules depend on each other one way: no cycles, and the
//! pure core (map, orders, variant, rules, adjudicate, game, report) never
//! reaches the modules that do I/O (mail, store, daemon, commands, cli,
//! config, web). Read from the sources: every `crate::<module>` path (and
//! `super::` inside a module's own files is its own business).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const CORE: &[&str] = &[
    "map",
    "orders",
    "variant",
    "rules",
    "adjudicate",
    "game",
    "report",
    "import",
];
const IO: &[&str] = &[
    "mail", "store", "daemon", "commands", "cli", "config", "web",
];

/// Top-level module -> the top-level modules its files name (from the
/// same reading of the sources as [`files`]; `lib.rs` and `main.rs` left
/// out, as they name every module).
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in files() {
        let Some(module) = path.first().filter(|m| *m != "main") else {
            continue;
        };
        let deps = out.entry(module.clone()).or_default();
        for name in crate_paths(&text) {
            if &name != module {
                deps.insert(name);
            }
        }
    }
    out
}

/// The top-level modules named by `crate::` paths in `text`, including
/// each path of a group (`use crate::{map::Map, orders};`).
fn crate_paths(text: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + 7..];
        if let Some(group) = rest.strip_prefix('{') {
            // Split at the group's own commas, not those of nested groups.
            let mut depth = 0;
            let mut start = 0;
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.push(ident(&group[start..k]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push(ident(&group[start..k]));
                        start = k + 1;
                    }
                    _ => {}
                }
            }
        } else {
            out.push(ident(rest));
        }
    }
    out.retain(|n| !n.is_empty());
    out
}

#[test]
fn grouped_crate_imports_count_as_dependencies() {
    let text =
        "use crate::{map::{Map, Unit}, orders,\n game::Position};\nlet x = crate::report::f();";
    assert_eq!(crate_paths(text), ["map", "orders", "game", "report"]);
}

#[test]
fn modules_depend_on_each_other_one_way() {
    let g = graph();
    // Depth-first search for a cycle.
    fn visit(
        g: &BTreeMap<String, BTreeSet<String>>,
        m: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) {
        if done.contains(m) {
            return;
        }
        if let Some(i) = path.iter().position(|p| p == m) {
            panic!("module cycle: {} -> {m}", path[i..].join(" -> "));
        }
        path.push(m.to_string());
        for d in g.get(m).into_iter().flatten() {
            visit(g, d, path, done);
        }
        path.pop();
        done.insert(m.to_string());
    }
    let mut done = BTreeSet::new();
    for m in g.keys() {
        visit(&g, m, &mut Vec::new(), &mut done);
    }
    assert!(g.len() >= 10, "found {} modules: {g:?}", g.len());
}

#[test]
fn the_pure_core_does_no_io() {
    let g = graph();
    for m in CORE {
        let deps = g.get(*m).cloned().unwrap_or_default();
        let bad: Vec<&String> = deps.iter().filter(|d| IO.contains(&d.as_str())).collect();
        assert!(bad.is_empty(), "{m} uses {bad:?}");
    }
}

/// Every source file by its module path (`["report", "picture", "layout"]`
/// for `src/report/picture/layout.rs`, `["report"]` for
/// `src/report/mod.rs`), with its code (comment lines left out).
fn files() -> BTreeMap<Vec<String>, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("src readable") {
            let path = e.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = path.strip_prefix(&src).expect("under src");
            let mut module: Vec<String> = rel
                .with_extension("")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if module.last().is_some_and(|l| l == "mod") || module == ["lib"] {
                module.pop();
            }
            let text: String = std::fs::read_to_string(&path)
                .expect("readable")
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            out.insert(module, text);
        }
    }
    out
}

/// The paths a file's code names from `crate::`, `super::` or `self::`,
/// made absolute (from the crate's root) for the file whose module is
/// `here` (`self` is `here` whether the file is `a/b.rs` or `a/b/mod.rs`).
/// A group (`use super::{a::X, b}`) gives one path per member.
fn named_paths(text: &str, here: &[String]) -> Vec<Vec<String>> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for start in ["crate::", "super::", "self::"] {
        for (i, _) in text.match_indices(start) {
            if i > 0 && (is_ident(bytes[i - 1] as char) || bytes[i - 1] == b':') {
                continue;
            }
            // Read `seg::seg::...`, stopping before a group or anything else.
            let mut segs: Vec<String> = Vec::new();
            let mut rest = &text[i..];
            loop {
                let id: String = rest.chars().take_while(|c| is_ident(*c)).collect();
                if id.is_empty() {
                    break;
                }
                rest = &rest[id.len()..];
                segs.push(id);
                match rest.strip_prefix("::") {
                    Some(r) => rest = r,
                    None => break,
                }
            }
            let mut members: Vec<Vec<String>> = Vec::new();
            if let Some(group) = rest.strip_prefix('{') {
                let mut depth = 0;
                let mut begin = 0;
                for (k, c) in group.char_indices() {
                    let member = |s: &str| -> Vec<String> {
                        s.trim()
                            .split("::")
                            .next()
                            .map(|f| f.chars().take_while(|c| is_ident(*c)).collect::<String>())
                            .filter(|f| !f.is_empty() && f != "self")
                            .into_iter()
                            .collect()
                    };
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => {
                            members.push(member(&group[begin..k]));
                            break;
                        }
                        '}' => depth -= 1,
                        ',' if depth == 0 => {
                            members.push(member(&group[begin..k]));
                            begin = k + 1;
                        }
                        _ => {}
                    }
                }
            }
            if members.is_empty() {
                members.push(Vec::new());
            }
            // Make the path absolute.
            let mut base: Vec<String> = Vec::new();
            let mut segs = segs.into_iter().peekable();
            match segs.next().as_deref() {
                Some("crate") => {}
                Some("self") => base = here.to_vec(),
                Some("super") => {
                    base = here.to_vec();
                    base.pop();
                    while segs.peek().is_some_and(|s| s == "super") {
                        segs.next();
                        base.pop();
                    }
                }
                _ => continue,
            }
            base.extend(segs);
            for m in members {
                let mut p = base.clone();
                p.extend(m);
                out.push(p);
            }
        }
    }
    out
}

/// File -> the files its code names. A path names the deepest file whose
/// module is a prefix of it. A module file naming its own sub-modules
/// (declaring them, re-exporting from them) is how Rust builds a module,
/// not an import back, so those links are left out.
fn file_graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let files = files();
    let mut out: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, text) in &files {
        let deps = out.entry(module.clone()).or_default();
        for path in named_paths(text, module) {
            let target = (0..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|m| files.contains_key(m));
            let Some(target) = target else { continue };
            if target.starts_with(module) {
                continue;
            }
            deps.insert(target);
        }
    }
    out
}

/// The first cycle found in `g`, as the files along it, if any.
fn a_cycle(g: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<String>> {
    fn visit(
        g: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        m: &Vec<String>,
        path: &mut Vec<Vec<String>>,
        done: &mut BTreeSet<Vec<String>>,
    ) -> Option<Vec<String>> {
        if done.contains(m) {
            return None;
        }
        if let Some(i) = path.iter().position(|p| p == m) {
            let mut c: Vec<String> = path[i..].iter().map(|p| p.join("::")).collect();
            c.push(m.join("::"));
            return Some(c);
        }
        path.push(m.clone());
        for d in g.get(m).into_iter().flatten() {
            if let Some(c) = visit(g, d, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.clone());
        None
    }
    let mut done = BTreeSet::new();
    g.keys()
        .find_map(|m| visit(g, m, &mut Vec::new(), &mut done))
}

#[test]
fn paths_are_read_relative_to_their_file() {
    let here = vec![
        "report".to_string(),
        "picture".to_string(),
        "labels".to_string(),
    ];
    let text = "use super::layout::{Geometry, Pt};\nuse super::super::board::f;\n\
                let x = crate::map::{Map, names::Names};\nuse self::inner::Y;";
    let got: Vec<String> = named_paths(text, &here)
        .into_iter()
        .map(|p| p.join("::"))
        .collect();
    for want in [
        "report::picture::layout::Geometry",
        "report::picture::layout::Pt",
        "report::board::f",
        "map::Map",
        "map::names",
        "report::picture::labels::inner::Y",
    ] {
        assert!(got.iter().any(|g| g == want), "{want} not in {got:?}");
    }
}

#[test]
fn a_cycle_between_files_is_found() {
    let f = |s: &str| s.split("::").map(String::from).collect::<Vec<_>>();
    let mut g: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    g.entry(f("a::x")).or_default().insert(f("a::y"));
    g.entry(f("a::y")).or_default().insert(f("b"));
    assert_eq!(a_cycle(&g), None);
    g.entry(f("b")).or_default().insert(f("a::x"));
    assert_eq!(
        a_cycle(&g).map(|c| c.join(" -> ")),
        Some("a::x -> a::y -> b -> a::x".to_string())
    );
}

/// No file imports back from a file that (through others) imports it:
/// each file can be read knowing only what it names.
#[test]
fn files_depend_on_each_other_one_way() {
    let g = file_graph();
    assert!(g.len() > 100, "found {} files", g.len());
    if let Some(c) = a_cycle(&g) {
        panic!("file cycle: {}", c.join(" -> "));
    }
}

/// The crate's public modules are the pure core, the binary's entry and
/// the tests' facade, and no more: the rest is `pub(crate)`, reached from
/// the tests through `zinejudge::testing` (docs/development.md, "Public
/// surface"). Making another module public is a decision, taken here.
#[test]
fn the_public_modules_are_the_core_the_cli_and_the_facade() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("read src/lib.rs");
    let public: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod "))
        .map(|l| l.trim_end_matches(';').trim())
        .collect();
    assert_eq!(
        public,
        [
            "adjudicate",
            "cli",
            "game",
            "map",
            "orders",
            "testing",
            "variant"
        ]
    );
    // And an item only the crate uses says so: `pub(crate)`, not `pub`.
    assert!(
        lib.contains("#![deny(unreachable_pub)]"),
        "src/lib.rs must deny unreachable_pub"
    );
}
