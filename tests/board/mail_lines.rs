//! One rule over every mail the snapshot tests keep: no line over 72
//! columns (mail is read in terminals and quoted in replies), and no
//! "(s)" plurals ("1 build due", "3 builds due", never "build(s)").
//! The pictures' snapshots (SVG) are not mail and are left out.

use std::path::Path;

#[test]
fn every_snapshot_mail_fits_72_columns_and_says_its_plurals() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    // Each test binary keeps its snapshots in `tests/<binary>/snapshots`.
    let mut paths = Vec::new();
    for bin in std::fs::read_dir(&tests).expect("tests/") {
        let dir = bin.expect("entry").path().join("snapshots");
        if let Ok(entries) = std::fs::read_dir(&dir) {
            paths.extend(entries.map(|e| e.expect("entry").path()));
        }
    }
    let mut problems = Vec::new();
    let mut read = 0;
    for path in paths {
        let name = path.file_name().map(|n| n.to_string_lossy().to_string());
        let Some(name) = name else { continue };
        if !name.ends_with(".snap") || name.contains("__picture__") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable");
        // The header (between the first two `---` lines) is insta's.
        let body = text
            .strip_prefix("---\n")
            .and_then(|t| t.split_once("\n---\n"))
            .map(|(_, body)| body)
            .unwrap_or_else(|| panic!("{name}: no snapshot header"));
        read += 1;
        for (i, line) in body.lines().enumerate() {
            if line.chars().count() > 72 {
                problems.push(format!(
                    "{name}:{}: {} columns: {line}",
                    i + 1,
                    line.chars().count()
                ));
            }
            if line.contains("(s)") {
                problems.push(format!("{name}:{}: a (s) plural: {line}", i + 1));
            }
        }
    }
    assert!(read > 50, "only {read} snapshots read");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
