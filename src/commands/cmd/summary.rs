//! SUMMARY: supply centres per power after each year.

use crate::commands::command::{Anyone, Args, Command, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Ctx, Judge, Session, load};
use crate::game::Position;
use crate::store::games;
use std::fmt::Write;

/// A short name for each power's column, told apart: the first three
/// letters of its name (without "The"); where two powers share them, the
/// first three of the last word of each name (1066: `Har` and `God` for
/// Harald Hardrada and Harold Godwinson); where even those clash, a
/// number is added.
fn short_names(map: &crate::map::Map) -> Vec<String> {
    let three = |s: &str| s.chars().take(3).collect::<String>();
    let first: Vec<String> = map
        .powers()
        .iter()
        .map(|p| three(p.name.strip_prefix("The ").unwrap_or(&p.name)))
        .collect();
    let mut names: Vec<String> = map
        .powers()
        .iter()
        .zip(&first)
        .map(|(p, f)| {
            if first.iter().filter(|x| *x == f).count() > 1 {
                three(p.name.split_whitespace().last().unwrap_or(&p.name))
            } else {
                f.clone()
            }
        })
        .collect();
    for i in 0..names.len() {
        if names.iter().filter(|x| **x == names[i]).count() > 1 {
            names[i] = format!("{}{}", three(&names[i]), i + 1);
        }
    }
    names
}

/// SUMMARY [game] (the game: the signed-on one when not named).
pub(crate) struct Summary(Option<String>);

impl Command for Summary {
    const SPEC: Spec = Spec::new(
        "SUMMARY",
        "SUMMARY [game]",
        "Who played each power, and since when; supply centres per power after each year (SUMMARY alone after a sign-on: the signed-on game).",
    );
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [] => Ok(Summary(None)),
            [g] => Ok(Summary(Some(g.clone()))),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        let name = match (self.0, &s.ctx) {
            (Some(g), _) => g,
            (None, Ctx::Gm { game } | Ctx::Power { game, .. }) => game.clone(),
            (None, Ctx::None) => {
                return Err(
                    "write SUMMARY game (or SIGNON first: then SUMMARY alone names your game)"
                        .into(),
                );
            }
        };
        let g = load(s.tx, &name)?;
        let (v, now) = judge.board(&g)?;
        let rows = games::history(s.tx, &g.name)?;
        let mut t = format!("  {} ({}): who played\n", g.name, v.title);
        t.push_str(&crate::commands::ending::players(
            s.tx,
            &v,
            &g,
            g.status != crate::game::record::Status::Finished,
        )?);
        t.push_str("\n  Supply centres at each adjustment:\n");
        let names = short_names(&v.map);
        let _ = writeln!(
            t,
            "  {:<16} {}",
            "",
            names.iter().map(|n| format!("{n:>4}")).collect::<String>()
        );
        let mut add = |label: String, pos: &Position| {
            let c = pos.centre_counts(&v.map);
            let _ = writeln!(
                t,
                "  {label:<16} {}",
                c.iter().map(|n| format!("{n:>4}")).collect::<String>()
            );
        };
        for r in rows.iter().filter(|r| r.kind == "phase") {
            if let Ok(p) = Position::from_toml(&v, &r.position)
                && matches!(p.phase.kind, crate::variant::PhaseKind::Adjustment)
            {
                add(v.calendar.season_year(p.phase), &p);
            }
        }
        // SUMMARY is public: a retreat of hidden units only (1066 rule 5)
        // is not told, the game is said to be in the phase after it.
        let shown =
            crate::rules::view::View::of(&v, &now, crate::variant::features::Viewer::Public)
                .phase_shown(&now);
        add(format!("now ({})", v.calendar.short(shown)), &now);
        s.say(&t);
        Ok(())
    }
}
