//! docs/njudge-dpjudge.md's table walked: for every row (a command or SET
//! option of njudge's index or DPjudge's mail interface), the row's game
//! is set up, its example mail sent from its sender, and what the judge
//! did is checked against what the row says: "same" and "own form" rows
//! are carried out, "refused" rows refused, and the reply holds every
//! phrase the row says it shows. A "same" row names a test that exists.
//! And every command of both indexes (tests/data/other_judges_corpus/
//! help_index.txt) has a row. So the page cannot say one thing while the
//! judge does another.

use crate::support_judge;
use support_judge::World;

const DOC: &str = "docs/njudge-dpjudge.md";
const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];
const GM: &str = "gm@example.test";

/// One row of the table.
#[derive(Debug)]
struct Row {
    judge: String,
    command: String,
    game: String,
    from: String,
    mail: Vec<String>,
    here: String,
    shows: Vec<String>,
    why: String,
}

fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The cells of a table line, `\|` read as a bar in a cell.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    let mut out = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                chars.next();
                out.last_mut().expect("a cell").push('|');
            }
            '|' => out.push(String::new()),
            c => out.last_mut().expect("a cell").push(c),
        }
    }
    out.into_iter().map(|c| c.trim().to_string()).collect()
}

/// The code spans of a cell, one per `<br>`-separated part.
fn spans(cell: &str) -> Vec<String> {
    cell.split("<br>")
        .map(|p| p.trim().trim_matches('`').to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(root().join(DOC)).expect("the table's page");
    let mut out = Vec::new();
    for line in text.lines() {
        if !(line.starts_with("| njudge |") || line.starts_with("| DPjudge |")) {
            continue;
        }
        let c = cells(line);
        assert_eq!(c.len(), 8, "a row has eight cells: {line}");
        assert!(c.iter().all(|x| !x.is_empty()), "a blank cell: {line}");
        out.push(Row {
            judge: c[0].clone(),
            command: c[1].trim_matches('`').to_string(),
            game: c[2].clone(),
            from: c[3].clone(),
            mail: spans(&c[4]),
            here: c[5].clone(),
            shows: spans(&c[6]),
            why: c[7].clone(),
        });
    }
    out
}

fn address(who: &str) -> String {
    match who {
        "GM" => GM.to_string(),
        w => format!("{}@example.test", w.to_lowercase()),
    }
}

/// The game a row names, set up.
fn world(game: &str) -> World {
    let mut w = World::new();
    let started = |w: &mut World| {
        w.reply(
            GM,
            "CREATE g standard gm-password\nSET PRESS GREY\nSET ASSIGNMENT FIRST-COME",
        );
        for p in POWERS {
            w.reply(&address(p), &format!("JOIN g my-password {p}"));
        }
    };
    match game {
        "started" => started(&mut w),
        "Spring 1901 played" => {
            started(&mut w);
            w.mail(GM, "SIGNON Mg gm-password\nPROCESS");
        }
        "Austria ejected" => {
            started(&mut w);
            w.mail(GM, "SIGNON Mg gm-password\nEJECT Austria");
        }
        "forming" => {
            w.reply(GM, "CREATE g standard gm-password");
        }
        "forming, France and Germany joined" => {
            w.reply(GM, "CREATE g standard gm-password");
            w.reply(&address("France"), "JOIN g my-password France");
            w.reply(&address("Germany"), "JOIN g my-password Germany");
        }
        other => panic!("no game `{other}` for the table's rows"),
    }
    w
}

/// Lower case, spaces single.
fn flat(t: &str) -> String {
    t.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// Whether the test a "same" row names exists: `module::function` in
/// tests/judge or tests/mail, or a corpus mail's id.
fn named_test_exists(why: &str) -> Result<(), String> {
    let corpus = std::fs::read_to_string(root().join("tests/data/other_judges_corpus/mails.toml"))
        .expect("the corpus");
    let mut named = 0;
    for (i, part) in why.split('`').enumerate() {
        if i % 2 == 0 {
            continue;
        }
        if let Some((module, function)) = part.split_once("::") {
            named += 1;
            let found = ["tests/judge", "tests/mail"].iter().any(|dir| {
                std::fs::read_to_string(root().join(dir).join(format!("{module}.rs")))
                    .is_ok_and(|t| t.contains(&format!("fn {function}(")))
            });
            if !found {
                return Err(format!("no test {part}"));
            }
        } else if why
            .split('`')
            .nth(i - 1)
            .is_some_and(|b| b.to_lowercase().ends_with("corpus "))
        {
            named += 1;
            if !corpus.contains(&format!("id = \"{part}\"")) {
                return Err(format!("no corpus mail {part}"));
            }
        }
    }
    if named == 0 {
        return Err("a \"same\" row names the test that shows it".into());
    }
    Ok(())
}

/// What is wrong with `row`, sent as it says, if anything.
fn check(row: &Row) -> Option<String> {
    if !matches!(row.judge.as_str(), "njudge" | "DPjudge") {
        return Some(format!("judge {}", row.judge));
    }
    if row.here == "same"
        && let Err(e) = named_test_exists(&row.why)
    {
        return Some(e);
    }
    let mut w = world(&row.game);
    let to = address(&row.from);
    let sent = w.mail(&to, &row.mail.join("\n"));
    let got = flat(
        &sent
            .iter()
            .filter(|m| m.to_has(&to))
            .map(|m| format!("{}\n{}", m.subject, m.body))
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let refused = got.contains("not done");
    let unread = got.contains("not understood") || got.contains("found no commands");
    let done_right = match row.here.as_str() {
        "same" | "own form" => !refused && !unread,
        "refused" => refused && !unread,
        other => return Some(format!("`Here` is same, own form or refused, not {other}")),
    };
    let missing: Vec<&String> = row
        .shows
        .iter()
        .filter(|s| !got.contains(&flat(s)))
        .collect();
    if done_right && missing.is_empty() {
        return None;
    }
    Some(format!(
        "the row says {} and shows {:?}; missing {missing:?}; the judge mailed: {got}",
        row.here, row.shows
    ))
}

/// Every row of `judge` checked; the failures listed together.
fn walk(judge: &str) {
    let rows: Vec<Row> = rows().into_iter().filter(|r| r.judge == judge).collect();
    assert!(rows.len() > 40, "{judge}: {} rows", rows.len());
    let failed: Vec<String> = rows
        .iter()
        .filter_map(|r| check(r).map(|e| format!("{} `{}`: {e}", r.judge, r.command)))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n\n"));
}

#[test]
fn every_njudge_row_of_the_table_is_what_the_judge_does() {
    walk("njudge");
}

#[test]
fn every_dpjudge_row_of_the_table_is_what_the_judge_does() {
    walk("DPjudge");
}

#[test]
fn every_command_of_both_indexes_has_one_row() {
    let index =
        std::fs::read_to_string(root().join("tests/data/other_judges_corpus/help_index.txt"))
            .expect("the commands of both indexes");
    let rows = rows();
    let mut seen = std::collections::HashSet::new();
    for r in &rows {
        assert!(
            seen.insert((r.judge.clone(), r.command.clone())),
            "{} `{}` has two rows",
            r.judge,
            r.command
        );
    }
    let mut missing = Vec::new();
    for line in index
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (judge, command) = line.split_once(": ").expect("judge: command");
        if !seen.contains(&(judge.to_string(), command.to_string())) {
            missing.push(line.to_string());
        }
    }
    assert!(missing.is_empty(), "no row for: {missing:#?}");
    // The index has every njudge command and SET option of its help
    // index (179 entries, some holding two forms) and DPjudge's forty.
    assert!(index.lines().filter(|l| l.starts_with("njudge: ")).count() >= 175);
    assert!(index.lines().filter(|l| l.starts_with("DPjudge: ")).count() >= 40);
}
