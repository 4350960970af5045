//! `zinejudge adjudicate` says what the results mail says (#37): one phase
//! of each shipped variant is played by mail through the judge, then the
//! same position and the orders the judge kept are given to the offline
//! tool, whose output must hold every line of the results mail's account
//! of the phase: the orders with their outcomes, the landings, the marks
//! (what is left of a defensive army's support), the dislodged units and
//! the game's end.

use crate::support_judge;
use std::process::Command;
use support_judge::World;
use zinejudge::game::Position;
use zinejudge::testing::store::games;
use zinejudge::variant::{Variant, builtin};

/// A phase to play: a game of `variant` whose board is set to `position`,
/// and each power's orders, mailed by its player.
struct Phase<'a> {
    variant: &'a str,
    position: String,
    /// (power, as its player names it in JOIN and SIGNON; its orders).
    orders: Vec<(&'a str, String)>,
}

/// What a phase left: the results mail its first player read, and the
/// offline tool's output for the position and orders the judge kept.
struct Played {
    mail: String,
    offline: String,
}

fn variant(name: &str) -> Variant {
    builtin(name).expect("shipped").expect("loads")
}

impl Phase<'_> {
    /// The game by mail: the GM creates and starts it with the ordering
    /// powers joined, the board is set in the store (as the GM's EDITs
    /// would leave it; EDIT cannot set the calendar, and the phases tested
    /// are late ones), each player mails the orders, the GM processes.
    fn by_mail(&self, game: &str) -> (World, String) {
        let v = variant(self.variant);
        let mut w = World::new();
        let gm = "gm@example.test";
        w.reply(gm, &format!("CREATE {game} {} gm-secret", self.variant));
        for (p, _) in &self.orders {
            let r = w.reply(&address(p), &format!("JOIN {game} pw-secret {p}"));
            assert!(r.contains("You have joined"), "{r}");
        }
        w.reply(gm, &format!("SIGNON GM {game} gm-secret\nSTART"));
        let conn = w.processor.store.conn();
        let mut row = games::load(conn, game).expect("store").expect("game");
        let pos = Position::from_toml(&v, &self.position).expect("position");
        row.position = pos.stored(&v).expect("stores");
        games::save(conn, &row).expect("save");
        let first = address(self.orders[0].0);
        let results = |sent: &[support_judge::Sent]| {
            sent.iter()
                .rfind(|m| m.to_has(&first) && m.in_reply_to.is_none())
                .map(|m| m.body.clone())
        };
        // The phase goes once every order is in; the GM processes it
        // otherwise. The last results are the last phase played (one with
        // nothing to order goes at once after it), the history's last row.
        let mut all = Vec::new();
        for (p, orders) in &self.orders {
            let sent = w.mail(
                &address(p),
                &format!("SIGNON {p} {game} pw-secret\n{orders}"),
            );
            let reply = sent
                .iter()
                .find(|m| m.to_has(&address(p)) && m.in_reply_to.is_some())
                .unwrap_or_else(|| panic!("no reply to {p}: {sent:#?}"));
            assert!(!reply.body.contains("ot accepted"), "{p}: {}", reply.body);
            all.extend(sent);
        }
        let mut mail = results(&all);
        if mail.is_none() {
            let sent = w.mail(gm, &format!("SIGNON GM {game} gm-secret\nPROCESS"));
            mail = results(&sent);
        }
        let mail = mail.unwrap_or_else(|| panic!("no results for {first}"));
        (w, mail)
    }

    /// Played by mail, then offline from what the judge kept of it.
    fn play(&self, game: &str) -> Played {
        let (mut w, mail) = self.by_mail(game);
        let history = games::history(w.processor.store.conn(), game).expect("history");
        let kept = history
            .iter()
            .rev()
            .find(|r| r.kind == "phase")
            .expect("the phase was played");
        let dir = std::env::temp_dir().join(format!("zj-cli-adj-{}-{game}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let position = dir.join("position.toml");
        let orders = dir.join("orders.txt");
        std::fs::write(&position, &kept.position).expect("write");
        std::fs::write(&orders, &kept.orders).expect("write");
        let out = Command::new(env!("CARGO_BIN_EXE_zinejudge"))
            .args(["adjudicate", "--game", self.variant, "--position"])
            .arg(&position)
            .arg("--orders")
            .arg(&orders)
            .output()
            .expect("runs");
        let offline = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success(),
            "{}\n{offline}\norders:\n{}",
            String::from_utf8_lossy(&out.stderr),
            kept.orders
        );
        let _ = std::fs::remove_dir_all(&dir);
        Played { mail, offline }
    }
}

fn address(power: &str) -> String {
    format!("{}@example.test", power.replace(' ', "-"))
}

impl Played {
    /// Each of `wanted` is in the results mail (the phase shows what the
    /// test is about), and every line of the mail's account of the phase
    /// is in the offline output, as the mail writes it.
    fn agree(&self, wanted: &[&str]) {
        for w in wanted {
            assert!(
                self.mail.contains(w),
                "`{w}` not in the mail:\n{}",
                self.mail
            );
        }
        let account = account(&self.mail);
        assert!(!account.is_empty(), "{}", self.mail);
        for line in account {
            // The next phase as the mail names it, less the deadline the
            // offline tool has no clock to set.
            let line = line.split(", deadline ").next().unwrap_or(line);
            let line = line.strip_suffix('.').unwrap_or(line);
            assert!(
                self.offline
                    .lines()
                    .any(|l| l.trim_end() == line || l.trim_end() == format!("{line}.")),
                "the mail's line\n{line}\nis not offline:\n{}\n--- mail:\n{}",
                self.offline,
                self.mail
            );
        }
    }
}

/// The lines of a results mail that tell the phase: everything but its
/// title (which names the game) and what follows the account (the next
/// deadline, or the whole game's summary after its end: who played, the
/// centres year by year; the judge's signature), which the offline tool
/// has no game to say.
fn account(mail: &str) -> Vec<&str> {
    let after = ["The next deadline", "Deadline", "Final supply centres:"];
    mail.lines()
        .skip(1)
        .take_while(|l| *l != "-- ")
        .map(str::trim_end)
        .take_while(|l| !after.iter().any(|a| l.starts_with(a)))
        .filter(|l| !l.trim().is_empty())
        .collect()
}

#[test]
fn standard_a_phase_and_the_victory_it_brings() {
    // France with 17 centres takes Belgium, the 18th, while its army in
    // the Ruhr and Germany's in Munich bounce: the game is over.
    let p = Phase {
        variant: "standard",
        position: String::from(
            "phase = \"Fall 1905 movement\"\n\n[units]\n\
                   France = [\"A Bur\", \"A Pic\", \"F ENG\", \"A Ruh\"]\n\
                   Germany = [\"A Mun\"]\n\n[centres]\n\
                   France = [\"Bre\", \"Mar\", \"Par\", \"Spa\", \"Por\", \"Lon\", \"Lvp\", \"Edi\", \"Hol\", \
                   \"Kie\", \"Ber\", \"Den\", \"Nwy\", \"Swe\", \"Tun\", \"Nap\", \"Rom\"]\n\
                   Germany = [\"Bel\", \"Mun\"]\n",
        ),
        orders: vec![
            (
                "France",
                "A Pic-Bel\nA Bur S A Pic-Bel\nF ENG S A Pic-Bel\nA Ruh-Mun".into(),
            ),
            ("Germany", "A Mun-Ruh".into()),
        ],
    };
    p.play("std").agree(&[
        "bounced with A(Mun)",
        "won by France with 18 supply centres",
    ]);
}

/// 1000 AD: the fast ferry lands (rule 9), and a defensive army's support
/// is worn down by an attack on it (rule 8).
#[test]
fn thousand_ad_a_landing_and_a_defensive_armys_support_worn_down() {
    let p = Phase {
        variant: "1000ad",
        position: "phase = \"Spring 1000 movement\"\n\n[units]\n\
                   British = [\"A Lon\", \"F ENC\", \"A Nan\"]\n\
                   Franks = [\"3D Par\", \"A Rou\"]\n"
            .into(),
        orders: vec![
            (
                "British",
                "A(Lon) boards F(ENC)\nF(ENC) - NTH\nF(ENC) disembarks A(Fri)\nA(Nan)-Par".into(),
            ),
            ("Franks", "3D(Par) S A(Rou)\nA(Rou) H".into()),
        ],
    };
    p.play("tad")
        .agree(&["landed", "support worn down to 2 of 3"]);
}

/// Abstraction II: the December 1918 adjustments are the last phase
/// (rule 2), and the power with most units on the board wins.
#[test]
fn abstraction2_the_last_adjustments_end_the_game() {
    let p = Phase {
        variant: "abstraction2",
        position: "phase = \"December 1918 adjustment\"\n\n[units]\n\
                   Germany = [\"A Ber\"]\nFrance = [\"A Par\"]\n\n[centres]\n\
                   Germany = [\"Ber\", \"Kie\", \"Mun\"]\nFrance = [\"Par\"]\n"
            .into(),
        orders: vec![("Germany", "Build A Kie\nBuild A Mun".into())],
    };
    p.play("abs")
        .agree(&["The game is over", "Germany with 3 units on the board"]);
}

/// The opening of `variant` as its bot plays it for `powers` (each as its
/// player names it).
fn opening<'a>(variant: &'a str, powers: &[&'a str]) -> Phase<'a> {
    let v = self::variant(variant);
    let pos = Position::initial(&v);
    Phase {
        variant,
        position: pos.to_toml(&v),
        orders: powers
            .iter()
            .map(|p| {
                let me = v.map.lookup_power(p).expect("a power");
                (*p, support_judge::bot::orders(&v, &pos, me).join("\n"))
            })
            .collect(),
    }
}

#[test]
fn ardri_an_opening() {
    opening("ardri", &["Ulaid", "Connacht"])
        .play("ard")
        .agree(&["Ulaid:", "Connacht:"]);
}

#[test]
fn variant_1066_an_opening() {
    opening("1066", &["Harold", "Scots"])
        .play("ten")
        .agree(&["Harold Godwinson:", "The Scots:"]);
}

#[test]
fn variant_1700ad_a_year_of_impulses() {
    opening("1700ad", &["France", "Austria"])
        .play("sev")
        .agree(&["France", "Austria"]);
}

/// 1700 AD II: what the results say of a year that a player would ask
/// about, offline as by mail: a support whose unit moved elsewhere (rule
/// 4), a leader
/// driven out with nowhere free who displaces his own army, which
/// retreats by the sheet (rules 5 and 7).
#[test]
fn variant_1700ad_a_void_support_with_its_reason_and_a_leader_s_displacement() {
    let p = Phase {
        variant: "1700ad",
        position: "phase = \"Year 1700 movement\"\n\n[units]\n\
                   France = [\"L Par\", \"A Pic\", \"A Lgd\", \"F Bri\", \"F Lgd\"]\n\
                   Russia = [\"L Smo\", \"A Mos\"]\n\
                   Poland = [\"A WRu\", \"A Ukr\", \"A Psk\", \"A Nov\", \"A Ore\"]\n\n\
                   [centres]\n\
                   France = [\"Bri\", \"Lgd\", \"Par\", \"Pic\"]\n\
                   Russia = [\"Kaz\", \"Mos\", \"Nov\", \"Ore\", \"Ukr\"]\n\
                   Poland = [\"Lit\", \"Maz\", \"Sar\", \"Vol\", \"WPr\"]\n"
            .into(),
        orders: vec![
            (
                "France",
                "France 1700 Moves: A(Pic)-Nmd;\nVill(Par) S A(Pic)-Chm;".into(),
            ),
            (
                "Poland",
                "Poland 1700 Moves: A(WRu)-Smo (x2);\nA(Ukr) S A(WRu)-Smo (x2);\n\
                 A(Psk) S A(WRu)-Smo;\nA(Nov) S A(WRu)-Smo;"
                    .into(),
            ),
            (
                "Russia",
                "Russia 1700 Moves: A(Mos) H;\nRetreats: A(Mos)-Yar;".into(),
            ),
        ],
    };
    p.play("dean").agree(&[
        "A(Pic) moved to Nmd in impulse 1",
        "Menshikov(Smo)-Mos (nowhere free: it displaces a friendly",
        "A(Mos)-Yar (displaced by its own leader's retreat)",
    ]);
}

/// `zinejudge adjudicate` on `position` (TOML) and `orders` in a game of
/// `variant`: its exit status, stdout and stderr.
fn offline(
    variant: &str,
    position: &str,
    orders: &str,
) -> (std::process::ExitStatus, String, String) {
    let dir = std::env::temp_dir().join(format!(
        "zj-cli-adj-{}-{}",
        std::process::id(),
        orders.len()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (p, o) = (dir.join("position.toml"), dir.join("orders.txt"));
    std::fs::write(&p, position).expect("write");
    std::fs::write(&o, orders).expect("write");
    let out = Command::new(env!("CARGO_BIN_EXE_zinejudge"))
        .args(["adjudicate", "--game", variant, "--position"])
        .arg(&p)
        .arg("--orders")
        .arg(&o)
        .output()
        .expect("runs");
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status,
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// 1000 AD rule 13: "if this attempt fails, then he must go into
/// anarchy": the Moors are in anarchy, their army in Castile, and the
/// orders file still holds an order of theirs (by mail it would have been
/// refused). The tool judged the Franks' orders alone but read the result
/// beside every order given, and panicked in the results ("index out of
/// bounds: the len is 0 but the index is 0"). Each order's verdict is its
/// own: the Moors' is void and named as not carried out, their army holds,
/// and the Franks' order is the Franks'.
#[test]
fn rule_13_a_power_in_anarchy_with_orders_does_not_crash() {
    let position = "phase = \"Spring 1002 movement\"\n\n[units]\n\
                    Moors = [\"A Cas\"]\nFranks = [\"A Par\"]\n\n[centres]\n\
                    Moors = [\"Lom\"]\nFranks = [\"Tol\", \"Par\"]\n\n\
                    [state.anarchy]\nMoors = \"anarchy\"\n";
    // The Moors' order alone, and before another power's.
    for orders in [
        "Moors: A Cas - Tol\n",
        "Moors: A Cas - Tol\nFranks: A Par - Nan\n",
    ] {
        let (status, out, err) = offline("1000ad", position, orders);
        assert!(status.success(), "{status}\n{err}\n{out}");
        assert!(!err.contains("panicked"), "{err}");
        let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("A(Cas)-Tol void: its power gives no orders now: its units hold"),
            "{out}"
        );
        assert!(
            flat.contains("line 1: `Moors: A Cas - Tol`: its power gives no orders now"),
            "{out}"
        );
        // The army holds in Castile, and Toledo stays the Franks'.
        assert!(out.contains("Moors = [\"A Cas\"]"), "{out}");
        if orders.contains("Franks") {
            assert!(flat.contains("Franks: A(Par)-Nan"), "{out}");
            assert!(out.contains("Franks = [\"A Nan\"]"), "{out}");
            assert!(!flat.contains("line 2:"), "{out}");
        }
    }
}

/// 1000 AD rule 13 in a build season: "the judge removes what must go" for
/// a power in anarchy, whatever its orders file says. Its removal in the
/// file is refused, the judge's own removal made, the rest judged.
#[test]
fn rule_13_a_power_in_anarchy_with_a_removal_in_the_orders_file_does_not_crash() {
    let position = "phase = \"Winter 1002 adjustment\"\n\n[units]\n\
                    Moors = [\"A Cas\", \"A Leo\"]\nFranks = [\"A Par\"]\n\n[centres]\n\
                    Moors = [\"Lom\"]\nFranks = [\"Tol\", \"Par\", \"Bri\"]\n\n\
                    [state.anarchy]\nMoors = \"anarchy\"\n";
    let (status, out, err) = offline(
        "1000ad",
        position,
        "Moors: Remove A Leo\nFranks: Build A Bri\n",
    );
    assert!(status.success(), "{status}\n{err}\n{out}");
    let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("line 1: `Moors: Remove A Leo`: its power gives no orders now"),
        "{out}"
    );
    assert!(flat.contains("Franks: builds A(Bri)"), "{out}");
    assert!(!flat.contains("line 2:"), "{out}");
}
