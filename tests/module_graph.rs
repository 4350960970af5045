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
    // ZJ_MODULE_GRAPH_SRC reads another tree (an older checkout's `src`),
    // to see what these tests say of it.
    let src = std::env::var_os("ZJ_MODULE_GRAPH_SRC")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
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

// ---- The strict reading: every name a file binds.
//
// The reading above sees only paths written from `crate::`, `super::` or
// `self::`. A file also reaches others through names it binds: a child
// module it declares (`mod cmd;`, then `cmd::help::Help`) and what it
// imports (`use super::cmd;`, then `cmd::help::Help`). The strict reading
// follows those too, and follows a module file's re-exports (`pub(crate)
// use session::Session` in `commands/mod.rs`) to the file that defines
// the item, so that naming `crate::commands::Session` is a dependency on
// `commands/session.rs`, not on everything `commands/mod.rs` declares.
// Unit-test modules (`#[cfg(test)] mod tests { ... }`) are left out: they
// are tests, not the crate.

/// `text` without its `#[cfg(test)] mod NAME { ... }` blocks.
fn without_test_modules(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        let after = &rest[at + "#[cfg(test)]".len()..];
        let t = after.trim_start();
        let is_mod = t.starts_with("mod ") && t.find('{').is_some_and(|b| !t[..b].contains(';'));
        if !is_mod {
            out.push_str(&rest[..at + "#[cfg(test)]".len()]);
            rest = after;
            continue;
        }
        out.push_str(&rest[..at]);
        let open = after.find('{').expect("a block");
        let mut depth = 0usize;
        let mut end = after.len();
        for (i, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// One `use` tree (`a::b::{c, d::e as f}`) made into (bound name, path)
/// pairs, the path as written (its first segment not yet resolved).
fn use_tree(tree: &str, prefix: &[String], out: &mut Vec<(String, Vec<String>)>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head: Vec<String> = tree[..open]
            .split("::")
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        let mut p = prefix.to_vec();
        p.extend(head);
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    use_tree(&inner[start..i], &p, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        use_tree(&inner[start..], &p, out);
        return;
    }
    if tree.is_empty() || tree.ends_with('*') {
        return;
    }
    let (path, alias) = match tree.split_once(" as ") {
        Some((p, a)) => (p.trim(), Some(a.trim().to_string())),
        None => (tree, None),
    };
    let mut p = prefix.to_vec();
    p.extend(path.split("::").map(|s| s.trim().to_string()));
    if p.last().is_some_and(|l| l == "self") {
        p.pop();
    }
    let Some(last) = p.last().cloned() else {
        return;
    };
    let name = alias.unwrap_or(last);
    if name != "_" {
        out.push((name, p));
    }
}

/// What a file binds: its `mod` declarations and its `use`s, each with
/// its path made absolute (`None` for a path outside the crate), and
/// whether the `use` is a re-export (`pub ...use`).
struct Bound {
    name: String,
    path: Vec<String>,
    reexport: bool,
}

/// `code` without its `use` statements.
fn without_uses(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    for (statement, _) in use_statements(code) {
        let Some(at) = rest.find(&statement) else {
            continue;
        };
        let start = rest[..at].rfind("use ").unwrap_or(at);
        out.push_str(&rest[..start]);
        rest = &rest[at + statement.len()..];
    }
    out.push_str(rest);
    out
}

/// The uses of a file's code, each one statement's text and whether it is
/// `pub`.
fn use_statements(code: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = &rest[..at];
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let lead = before[line_start..].trim();
        let statement = lead.is_empty() || lead.starts_with("pub");
        let boundary = at == 0
            || !rest[..at]
                .chars()
                .last()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        let after = &rest[at + 4..];
        if statement
            && boundary
            && let Some(end) = after.find(';')
        {
            out.push((after[..end].to_string(), lead.starts_with("pub")));
            rest = &after[end..];
        } else {
            rest = after;
        }
    }
    out
}

fn bindings(code: &str, here: &[String]) -> Vec<Bound> {
    let mut out = Vec::new();
    for line in code.lines() {
        let t = line.trim();
        let t = t
            .strip_prefix("pub(crate) ")
            .or_else(|| t.strip_prefix("pub(super) "))
            .or_else(|| t.strip_prefix("pub "))
            .unwrap_or(t);
        if let Some(m) = t.strip_prefix("mod ").and_then(|m| m.strip_suffix(';')) {
            let mut p = here.to_vec();
            p.push(m.trim().to_string());
            out.push(Bound {
                name: m.trim().to_string(),
                path: p,
                reexport: true,
            });
        }
    }
    for (statement, public) in use_statements(code) {
        let mut pairs = Vec::new();
        use_tree(&statement, &[], &mut pairs);
        for (name, path) in pairs {
            let mut segs = path.into_iter().peekable();
            let mut abs: Vec<String> = match segs.peek().map(String::as_str) {
                Some("crate") => {
                    segs.next();
                    Vec::new()
                }
                Some("self") => {
                    segs.next();
                    here.to_vec()
                }
                Some("super") => {
                    let mut b = here.to_vec();
                    while segs.peek().is_some_and(|s| s == "super") {
                        segs.next();
                        b.pop();
                    }
                    b
                }
                Some(first) => match out.iter().find(|b: &&Bound| b.name == first) {
                    Some(b) => {
                        segs.next();
                        b.path.clone()
                    }
                    None => continue,
                },
                None => continue,
            };
            abs.extend(segs);
            out.push(Bound {
                name,
                path: abs,
                reexport: public,
            });
        }
    }
    out
}

/// The absolute paths a file's code names through the names it binds
/// (`cmd::help::Help` after `use super::cmd;`), besides its `use`
/// statements themselves.
fn bound_paths(code: &str, bound: &[Bound]) -> Vec<Vec<String>> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    for b in bound {
        let needle = format!("{}::", b.name);
        for (i, _) in code.match_indices(&needle) {
            if i > 0 && (is_ident(bytes[i - 1] as char) || bytes[i - 1] == b':') {
                continue;
            }
            let mut p = b.path.clone();
            let mut rest = &code[i + needle.len()..];
            loop {
                let id: String = rest.chars().take_while(|c| is_ident(*c)).collect();
                if id.is_empty() {
                    break;
                }
                rest = &rest[id.len()..];
                p.push(id);
                match rest.strip_prefix("::") {
                    Some(r) => rest = r,
                    None => break,
                }
            }
            out.push(p);
        }
    }
    out
}

/// File -> the files its code uses, by the strict reading.
fn strict_file_graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let files: BTreeMap<Vec<String>, String> = files()
        .into_iter()
        .map(|(m, t)| (m, without_test_modules(&t)))
        .collect();
    let bound: BTreeMap<Vec<String>, Vec<Bound>> = files
        .iter()
        .map(|(m, t)| (m.clone(), bindings(t, m)))
        .collect();
    let has_children = |m: &Vec<String>| {
        files
            .keys()
            .any(|k| k.len() == m.len() + 1 && k.starts_with(m))
    };
    // The file a path leads to, through module files' re-exports.
    let resolve = |path: &[String]| -> Option<Vec<String>> {
        let mut path = path.to_vec();
        for _ in 0..8 {
            let target = (0..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|m| files.contains_key(m))?;
            let next = path.get(target.len());
            let via = next.and_then(|n| {
                bound
                    .get(&target)?
                    .iter()
                    .find(|b| b.reexport && &b.name == n && b.path[..] != path[..target.len() + 1])
            });
            match via {
                Some(b) if has_children(&target) || target.is_empty() => {
                    let mut p = b.path.clone();
                    p.extend(path[target.len() + 1..].iter().cloned());
                    path = p;
                }
                _ => return Some(target),
            }
        }
        None
    };
    let mut out: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (module, text) in &files {
        let deps = out.entry(module.clone()).or_default();
        let structural = has_children(module) || module.is_empty();
        // The code without its `use` statements, whose paths are the
        // bindings' own.
        let text = &without_uses(text);
        let mut paths = named_paths(text, module);
        paths.extend(bound_paths(text, &bound[module]));
        // A `use` is a dependency, but a module file's re-exports and
        // declarations are how it is built.
        paths.extend(
            bound[module]
                .iter()
                .filter(|b| !(structural && b.reexport))
                .map(|b| b.path.clone()),
        );
        for p in paths {
            if let Some(t) = resolve(&p)
                && t != *module
                && !(structural && t.starts_with(module) && {
                    // A module file naming its own child by a declaration
                    // or re-export only: not an import back.
                    bound[module]
                        .iter()
                        .all(|b| b.reexport || !t.starts_with(&b.path))
                        && !named_paths(text, module)
                            .iter()
                            .chain(bound_paths(text, &bound[module]).iter())
                            .any(|q| resolve(q).as_ref() == Some(&t))
                })
            {
                deps.insert(t);
            }
        }
    }
    out
}

#[test]
fn a_name_bound_by_mod_or_use_is_followed() {
    let here: Vec<String> = vec!["commands".into(), "registry".into()];
    let code = "use super::cmd;\nuse crate::map::{self, PowerId as P};\nlet x = cmd::help::Help;";
    let b = bindings(code, &here);
    let p = bound_paths(code, &b);
    assert!(
        p.iter()
            .any(|p| p.join("::") == "commands::cmd::help::Help"),
        "{p:?}"
    );
    assert!(
        b.iter()
            .any(|b| b.name == "P" && b.path.join("::") == "map::PowerId")
    );
    assert!(
        b.iter()
            .any(|b| b.name == "map" && b.path.join("::") == "map")
    );
    let t = without_test_modules("a\n#[cfg(test)]\nmod tests {\n use super::*;\n { }\n}\nb");
    assert_eq!(t.split_whitespace().collect::<Vec<_>>(), ["a", "b"]);
}

/// The command language and trust, read strictly, have no file circle:
/// the types every command uses (`command.rs`, `session.rs`, `judge.rs`)
/// import no command, and only the table (`registry.rs`) names them all.
#[test]
fn the_command_language_and_trust_have_no_file_circle() {
    let g = strict_file_graph();
    let inside = |m: &Vec<String>| m.first().is_some_and(|f| f == "commands" || f == "trust");
    let sub: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = g
        .iter()
        .filter(|(m, _)| inside(m))
        .map(|(m, d)| (m.clone(), d.iter().filter(|x| inside(x)).cloned().collect()))
        .collect();
    assert!(sub.len() > 60, "found {} files", sub.len());
    if let Some(c) = a_cycle(&sub) {
        panic!("file cycle: {}", c.join(" -> "));
    }
    // And trust stands below the command language and the daemon.
    for (m, deps) in &g {
        if m.first().is_some_and(|f| f == "trust") {
            let bad: Vec<String> = deps
                .iter()
                .filter(|d| d.first().is_some_and(|f| f == "commands" || f == "daemon"))
                .map(|d| d.join("::"))
                .collect();
            assert!(bad.is_empty(), "{} uses {bad:?}", m.join("::"));
        }
    }
}
