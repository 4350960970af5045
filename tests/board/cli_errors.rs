//! Bad input to the offline tools gets a clear error naming the line, and
//! never a panic.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn zj(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_zinejudge"))
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn tmp(name: &str, body: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("zj-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p
}

fn no_panic(o: &Output) {
    let t = text(o);
    assert!(
        !t.contains("panicked") && !t.contains("RUST_BACKTRACE"),
        "{t}"
    );
}

const GOOD_HEAD: &str = r#"[variant]
name = "tiny"
title = "Tiny"

[calendar]
seasons = [{ name = "Spring", phases = ["movement", "retreat"] }, { name = "Fall", phases = ["movement", "retreat", "adjustment"] }]
start = "Spring 1901 movement"

[victory]
centres = 2

[[powers]]
name = "Red"
home = ["Aaa"]
units = ["A Aaa"]
"#;

#[test]
fn check_game_reports_every_map_problem_with_its_line() {
    let body = format!(
        "{GOOD_HEAD}
[[provinces]]
id = \"Aaa\"
name = \"Alpha\"
terrain = \"land\"
army = [\"Bbb\", \"Zzz\"]

[[provinces]]
id = \"Bbb\"
name = \"Beta\"
aliases = [\"alpha\"]
terrain = \"coast\"
supply-centre = true

[[provinces]]
id = \"Ccc\"
name = \"Gamma\"
terrain = \"sea\"
"
    );
    let f = tmp("bad.toml", &body);
    let o = zj(&["check-game", f.to_str().unwrap()]);
    no_panic(&o);
    assert!(!o.status.success());
    let t = text(&o);
    let line_of = |needle: &str| body.lines().position(|l| l.contains(needle)).unwrap() + 1;
    assert!(
        t.contains(&format!(
            "line {}: unknown province `Zzz`",
            line_of("army = [\"Bbb\", \"Zzz\"]")
        )),
        "{t}"
    );
    assert!(
        t.contains("asymmetric army border: `Aaa` lists `Bbb`, but `Bbb` does not list `Aaa`"),
        "{t}"
    );
    assert!(
        t.contains(&format!(
            "line {}: duplicate alias `alpha`",
            line_of("aliases = [\"alpha\"]")
        )),
        "{t}"
    );
    assert!(t.contains("`Bbb` is a coast with no fleet border"), "{t}");
    assert!(
        t.contains("home centre `Aaa` is not a supply centre"),
        "{t}"
    );
    assert!(t.contains(" problems"), "{t}");
}

#[test]
fn check_game_on_a_broken_file() {
    for (name, body, want) in [
        ("syntax.toml", "[variant\nname = 1", "line 1"),
        ("empty.toml", "", "missing field"),
        (
            "unknown.toml",
            &format!(
                "{GOOD_HEAD}\n[[provinces]]\nid = \"Aaa\"\nname = \"A\"\nterrain = \"swamp\"\n"
            ),
            "swamp",
        ),
    ] {
        let f = tmp(name, body);
        let o = zj(&["check-game", f.to_str().unwrap()]);
        no_panic(&o);
        assert!(!o.status.success(), "{name}");
        assert!(text(&o).contains(want), "{name}: {}", text(&o));
    }
    let o = zj(&["check-game", "/nonexistent/file.toml"]);
    no_panic(&o);
    assert!(text(&o).contains("cannot read /nonexistent/file.toml"));
}

#[test]
fn check_game_accepts_the_shipped_standard_map() {
    let o = zj(&[
        "check-game",
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("games/standard.toml")
            .to_str()
            .unwrap(),
    ]);
    assert!(o.status.success());
    assert_eq!(
        text(&o).trim(),
        "standard: 75 provinces, 34 supply centres, 7 powers, 22 starting units"
    );
}

#[test]
fn datc_on_bad_files() {
    let f = tmp(
        "bad.datc",
        "CASE x\nPRESTATE\n\tEngland: F nth\nORDERS\n\tEngland: F nth-Atlantis\nPOSTSTATE_SAME\nEND\n",
    );
    let o = zj(&["datc", f.to_str().unwrap()]);
    no_panic(&o);
    assert!(!o.status.success());
    assert!(
        text(&o)
            .contains("x: line 5: cannot read order `F nth-Atlantis`: unknown province `Atlantis`"),
        "{}",
        text(&o)
    );
    assert!(text(&o).contains("0 passed, 1 failed"), "{}", text(&o));
    let f = tmp("bad2.datc", "CASE x\nPRESTATE\n\tEngland: F nth\n");
    let o = zj(&["datc", f.to_str().unwrap()]);
    no_panic(&o);
    assert!(
        text(&o).contains("line 1: case x has no END"),
        "{}",
        text(&o)
    );
    let f = tmp("bad3.datc", "\tEngland: F nth\n");
    let o = zj(&["datc", f.to_str().unwrap()]);
    assert!(
        text(&o).contains("line 1: `England: F nth` outside a CASE"),
        "{}",
        text(&o)
    );
}

#[test]
fn adjudicate_names_the_bad_lines() {
    let ex = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/spring1901.toml");
    let orders = tmp(
        "o.txt",
        "England: F Lon-ENG\nEngland: A Lon-Atlantis\nGermany: A Par-Bur\n",
    );
    let o = zj(&[
        "adjudicate",
        "--position",
        ex.to_str().unwrap(),
        "--orders",
        orders.to_str().unwrap(),
    ]);
    no_panic(&o);
    assert!(!o.status.success());
    assert!(
        text(&o).contains("line 2: `England: A Lon-Atlantis`: unknown province `Atlantis`"),
        "{}",
        text(&o)
    );
    // The rest is judged all the same, as by mail: the fleet sails and
    // the next position is printed.
    assert!(text(&o).contains("# Next position"), "{}", text(&o));
    assert!(text(&o).contains("F ENG"), "{}", text(&o));
    // A unit that is not there: adjudicated, and the line is named.
    let orders = tmp("o2.txt", "England: F Lon-ENG\nGermany: A Par-Bur\n");
    let o = zj(&[
        "adjudicate",
        "--position",
        ex.to_str().unwrap(),
        "--orders",
        orders.to_str().unwrap(),
    ]);
    no_panic(&o);
    assert!(o.status.success());
    assert!(
        text(&o).contains("line 2: `Germany: A Par-Bur`: that unit belongs to another power"),
        "{}",
        text(&o)
    );
    // A bad position file.
    let pos = tmp(
        "p.toml",
        "phase = \"Spring 1901 movement\"\n[units]\nEngland = [\"F Mun\", \"A Atlantis\"]\n",
    );
    let o = zj(&[
        "adjudicate",
        "--position",
        pos.to_str().unwrap(),
        "--orders",
        orders.to_str().unwrap(),
    ]);
    no_panic(&o);
    assert!(!o.status.success());
    let t = text(&o);
    assert!(
        t.contains("line 3: `F Mun`: no such place, or a Fleet cannot stand there"),
        "{t}"
    );
    assert!(t.contains("line 3: `A Atlantis`"), "{t}");
}

/// 1700 AD II rule 7 lists one leader a power ("Charles XII of Sweden";
/// the Turks, "in the absence of any general of note", none), as the GM's
/// `EDIT ADD` holds it: a position written by hand with a second Swedish
/// leader, or a Turkish one, is refused offline with the power, the
/// leader already there and the rule named, and nothing is judged.
#[test]
fn rule_7_a_position_file_with_a_second_leader_of_a_power_is_refused() {
    let orders = tmp("o7.txt", "Sweden: A(Fin)-Kar\n");
    let adjudicate = |pos: &Path| {
        zj(&[
            "adjudicate",
            "--game",
            "1700ad",
            "--position",
            pos.to_str().unwrap(),
            "--orders",
            orders.to_str().unwrap(),
        ])
    };
    let two = tmp(
        "two-leaders.toml",
        "phase = \"Year 1700 movement\"\n[units]\nSweden = [\"L Got\", \"L Fin\"]\n",
    );
    let o = adjudicate(&two);
    no_panic(&o);
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    assert!(
        t.contains(
            "line 3: a second leader of Sweden: Charles XII of Sweden is already in `Got`, \
             and rule 7 gives a power one leader"
        ),
        "{t}"
    );
    assert!(!t.contains("# Next position"), "{t}");
    let turk = tmp(
        "turk-leader.toml",
        "phase = \"Year 1700 movement\"\n[units]\nSweden = [\"L Got\"]\nTurks = [\"L Con\"]\n",
    );
    let o = adjudicate(&turk);
    no_panic(&o);
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    assert!(t.contains("line 4: Turkey has no leader (rule 7)"), "{t}");
    // One leader each is a position like any other.
    let one = tmp(
        "one-leader.toml",
        "phase = \"Year 1700 movement\"\n[units]\nSweden = [\"L Got\", \"A Fin\"]\n",
    );
    let o = adjudicate(&one);
    no_panic(&o);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("# Next position"), "{t}");
}

/// `parse --position` and the mail path share one checker: a 1700 AD II
/// order sheet (rule 6) with its retreats and builds is accepted offline as
/// it is by mail, and an order the judge refuses is refused offline with
/// the judge's reason.
#[test]
fn parse_refuses_exactly_what_the_mail_path_refuses() {
    let v = zinejudge::variant::builtin("1700ad")
        .expect("shipped")
        .expect("loads");
    let pos = zinejudge::game::Position::initial(&v);
    let file = tmp("y1700.toml", &pos.to_toml(&v));
    let sheet = "Sweden 1700 Moves: CXII(Got)-hold-Den (x2);\n\
                 A(Sca)-Hold-Got;\n\
                 Retreats: A(Liv)-Kur;\n\
                 Builds: A(Dal).\n";
    let run = |body: &str| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_zinejudge"));
        c.args(["parse", "--game", "1700ad", "--position"])
            .arg(&file)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        let mut child = c.spawn().expect("runs");
        use std::io::Write;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(body.as_bytes())
            .expect("written");
        child.wait_with_output().expect("ends")
    };
    let o = run(sheet);
    no_panic(&o);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("line 3: A(Liv)-Kur"), "{t}");
    assert!(!t.contains("not accepted"), "{t}");
    // A unit Sweden does not have: the same reason as the mail reply's.
    let o = run("Sweden: A(Mos)-Smo\n");
    let t = text(&o);
    assert!(!o.status.success(), "{t}");
    assert!(t.contains("that unit belongs to another power"), "{t}");
}

/// `parse --position` prints what the mail reply shows: the unit's kind
/// corrected with the judge's note (`A(Lon)-Yor` where a fleet stands) and
/// the supported unit's kind filled in (`A(Mar) S Par-Bur`).
#[test]
fn parse_prints_what_the_mail_reply_would_notes_included() {
    let v = zinejudge::variant::builtin("standard")
        .expect("shipped")
        .expect("loads");
    let pos = zinejudge::game::Position::initial(&v);
    let file = tmp("s1901.toml", &pos.to_toml(&v));
    let mut c = Command::new(env!("CARGO_BIN_EXE_zinejudge"));
    c.args(["parse", "--position"])
        .arg(&file)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = c.spawn().expect("runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"A(Lon)-Yor\nA(Mar) S Par-Bur\n")
        .expect("written");
    let o = child.wait_with_output().expect("ends");
    no_panic(&o);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("line 1: F(Lon)-Yor\n"), "{t}");
    assert!(
        t.contains("there is a fleet in London, so it is read as the fleet"),
        "{t}"
    );
    assert!(t.contains("line 2: A(Mar) S A(Par)-Bur"), "{t}");
}

/// `datc` reads case files as leniently as jDip: a unit or order line whose
/// power lacks its colon (`Italy F gol`) is read, and the case is judged.
#[test]
fn datc_reads_power_lines_without_their_colon() {
    let f = tmp(
        "lenient.datc",
        "VARIANT_ALL Standard\nCASE lenient\nPRESTATE_SETPHASE Spring 1901, Movement\n\
         PRESTATE\n\tItaly F gol\n\tEngland F nth\nORDERS\n\tItaly F gol - tys\n\
         \tEngland F nth - pic\nPOSTSTATE\n\tItaly F tys\n\tEngland F nth\nEND\n",
    );
    let o = zj(&["datc", f.to_str().unwrap()]);
    no_panic(&o);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("1 passed, 0 failed"), "{}", text(&o));
    // And a wrong expectation still fails: the lines were really read.
    let f = tmp(
        "lenient2.datc",
        "VARIANT_ALL Standard\nCASE lenient\nPRESTATE_SETPHASE Spring 1901, Movement\n\
         PRESTATE\n\tItaly F gol\nORDERS\n\tItaly F gol - tys\nPOSTSTATE\n\tItaly F gol\nEND\n",
    );
    let o = zj(&["datc", f.to_str().unwrap()]);
    assert!(!o.status.success(), "{}", text(&o));
}

/// A position at the last year an `i32` holds: the next phase would wrap
/// to -2147483648 (it did, in the release build; a debug build panicked).
#[test]
fn a_year_past_the_calendars_range_is_refused_not_wrapped() {
    let orders = tmp("year-orders.txt", "England: F Lon H\n");
    for phase in [
        "Winter 2147483647 adjustment",
        "Fall 2147483647 movement",
        "Spring 1000000 movement",
        "S2147483647M",
        "Spring 99999999999 movement",
        "Spring -2147483648 movement",
    ] {
        let pos = tmp(
            "year-pos.toml",
            &format!(
                "phase = \"{phase}\"\n\n[units]\nEngland = [\"F Lon\"]\n\n[centres]\nEngland = [\"Lon\", \"Edi\"]\n"
            ),
        );
        let o = zj(&[
            "adjudicate",
            "--position",
            pos.to_str().unwrap(),
            "--orders",
            orders.to_str().unwrap(),
        ]);
        no_panic(&o);
        assert!(!o.status.success(), "{phase}: {}", text(&o));
        assert!(
            text(&o).contains("the year is out of range (-999999 to 999999)"),
            "{phase}: {}",
            text(&o)
        );
        assert!(!text(&o).contains("# Next position"), "{}", text(&o));
    }
    // The last year allowed goes on into the next.
    let pos = tmp(
        "year-pos.toml",
        "phase = \"Fall 999999 movement\"\n\n[units]\nEngland = [\"F Lon\"]\n\n[centres]\nEngland = [\"Lon\", \"Edi\"]\n",
    );
    let o = zj(&[
        "adjudicate",
        "--position",
        pos.to_str().unwrap(),
        "--orders",
        orders.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("phase = \"Winter 999999 adjustment\""),
        "{}",
        text(&o)
    );
    // A variant starting past the range is refused by check-game.
    let variant = GOOD_HEAD.replace("Spring 1901 movement", "Spring 2147483647 movement");
    let f = tmp(
        "year-variant.toml",
        &format!(
            "{variant}\n[[provinces]]\nid = \"Aaa\"\nname = \"Alpha\"\nterrain = \"land\"\nsupply-centre = true\n"
        ),
    );
    let o = zj(&["check-game", f.to_str().unwrap()]);
    no_panic(&o);
    assert!(!o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("calendar start: cannot read `Spring 2147483647 movement`")
            && text(&o).contains("out of range"),
        "{}",
        text(&o)
    );
}
