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
];
const IO: &[&str] = &[
    "mail", "store", "daemon", "commands", "cli", "config", "web",
];

/// Top-level module -> the top-level modules its files name.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
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
            let first = rel.components().next().expect("a component");
            let module = first
                .as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string();
            if matches!(module.as_str(), "lib" | "main") {
                continue;
            }
            // Code only: a doc comment may name any module.
            let text: String = std::fs::read_to_string(&path)
                .expect("readable")
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            let deps = out.entry(module.clone()).or_default();
            for name in crate_paths(&text) {
                if name != module {
                    deps.insert(name);
                }
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
