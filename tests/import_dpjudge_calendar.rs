//! DPjudge's calendars that skip or count down years (issue #39): `FLOW`
//! with `NEWYEAR:n` and `IFYEARDIV:n[=r]`, as its Hundred map (five years
//! a turn, adjustments once a decade) and Classical map (`B.C.` years
//! counting down, adjustments in even years) write them, imported into
//! the calendar's `new-year`, `when-year` and `years-down` keys, and
//! played by mail.

mod support_judge;

use std::path::Path;
use support_judge::World;
use zinejudge::import::dpjudge::{ImportError, Imported, import};
use zinejudge::variant::Variant;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/dpjudge");

fn imported(name: &str) -> Result<Imported, ImportError> {
    let mut fetch =
        |n: &str| std::fs::read_to_string(Path::new(DATA).join(n)).map_err(|e| e.to_string());
    import(name, &mut fetch)
}

/// The first `n` phases of the variant, as the results name them.
fn phases(v: &Variant, n: usize) -> Vec<String> {
    let mut p = v.calendar.start;
    let mut out = Vec::new();
    for _ in 0..n {
        out.push(v.calendar.label(p));
        p = v.calendar.next(p);
    }
    out
}

#[test]
fn newyear_5_moves_five_years_a_turn_and_ifyeardiv_10_adjusts_once_a_decade() {
    let i = imported("decades.map").expect("imports");
    assert!(i.toml.contains("new-year = 5"), "{}", i.toml);
    assert!(
        i.toml.contains("when-year = { every = 10, remainder = 0 }"),
        "{}",
        i.toml
    );
    assert_eq!(
        phases(&i.variant, 8),
        [
            "A.D. 1425 movement",
            "A.D. 1425 retreat",
            "A.D. 1430 movement",
            "A.D. 1430 retreat",
            "A.D. 1430 adjustment",
            "A.D. 1435 movement",
            "A.D. 1435 retreat",
            "A.D. 1440 movement",
        ]
    );
}

#[test]
fn newyear_minus_1_counts_the_years_down_and_adjusts_in_even_years() {
    let i = imported("countdown.map").expect("imports");
    assert!(i.toml.contains("years-down = true"), "{}", i.toml);
    let v = &i.variant;
    assert_eq!(
        phases(v, 6),
        [
            "B.C. 273 movement",
            "B.C. 273 retreat",
            "B.C. 272 movement",
            "B.C. 272 retreat",
            "B.C. 272 adjustment",
            "B.C. 271 movement",
        ]
    );
    // Later phases are still later, wherever the judge compares them.
    let later = v.calendar.next(v.calendar.next(v.calendar.start));
    assert!(later > v.calendar.start);
    assert_eq!(v.calendar.short(later), "B272M");
}

#[test]
fn a_flow_the_calendar_cannot_say_is_refused_naming_its_line() {
    let Err(ImportError::Refused(r)) = imported("loop.map") else {
        panic!("refused");
    };
    assert!(
        r.iter()
            .any(|r| r.file == "loop.map" && r.line == 7 && r.what.contains("NEWYEAR")),
        "{r:?}"
    );
}

/// The imported file, written where the test harness can read it.
fn world_playing(toml: &str, name: &str) -> World {
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.toml"));
    std::fs::write(&file, toml).expect("write");
    // `with_variant` reads under tests/data: climb to the root from there.
    World::with_variant(&format!(
        "../../../../../../../../../../..{}",
        file.display()
    ))
}

const POWERS: [&str; 7] = [
    "Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey",
];

#[test]
fn by_mail_the_results_name_the_next_turn_five_years_on_and_the_decade_s_adjustments() {
    let i = imported("decades.map").expect("imports");
    let mut w = world_playing(&i.toml, "decades-mail");
    let gm = "gm@example.test";
    w.reply(gm, "CREATE dec decades gm-secret");
    for p in POWERS {
        w.reply(
            &format!("{p}@example.test"),
            &format!("JOIN dec pw-{p} {p}"),
        );
    }
    // A.D. 1425: Germany takes Holland.
    w.reply(
        "germany@example.test",
        "SIGNON Germany dec pw-Germany\nF Kie-Hol",
    );
    let sent = w.mail(gm, "SIGNON GM dec gm-secret\nPROCESS");
    let results = sent
        .iter()
        .find(|m| m.to_has("germany@example.test") && m.body.contains("A.D. 1425"))
        .unwrap_or_else(|| panic!("no results: {sent:#?}"));
    assert!(
        results.body.contains("Next: A.D. 1430 movement"),
        "{}",
        results.body
    );
    // A.D. 1430 is a decade's end: its adjustments, Germany's build due.
    let sent = w.mail(gm, "SIGNON GM dec gm-secret\nPROCESS");
    let results = sent
        .iter()
        .find(|m| m.to_has("germany@example.test") && m.body.contains("A.D. 1430"))
        .unwrap_or_else(|| panic!("no results: {sent:#?}"));
    assert!(
        results.body.contains("Next: A.D. 1430 adjustment"),
        "{}",
        results.body
    );
}
