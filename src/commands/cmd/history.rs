//! HISTORY: past results mailed back, as observers read them.

use crate::commands::command::{Anyone, Args, Command, Spec};
use crate::commands::error::{CmdError, CmdResult};
use crate::commands::{Judge, Session, load, mail_to};
use crate::game::Position;
use crate::rules::features::Viewer;
use crate::rules::view::View;
use crate::store::games;
use crate::variant::Variant;

/// HISTORY game [phase | from to].
pub(crate) struct History {
    game: String,
    range: Vec<String>,
}

impl Command for History {
    const SPEC: Spec = Spec::new(
        "HISTORY",
        "HISTORY game [phase | from to]",
        "Past results mailed back: all, one phase (S1901M) or a range.",
    );
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        match a.words.as_slice() {
            [game, range @ ..] if range.len() <= 2 => Ok(History {
                game: game.clone(),
                range: range.to_vec(),
            }),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        let g = load(s.tx, &self.game)?;
        let v = judge.variant(&g.variant)?;
        let rows = games::history(s.tx, &g.name)?;
        // The results as observers read them, of the phases they know of:
        // a retreat of hidden units only (1066 rule 5) is none of theirs,
        // not even by its name.
        let played: Vec<_> = rows
            .iter()
            .filter(|r| r.kind == "phase" && observers_know(&v, &r.phase, &r.position))
            .collect();
        if played.is_empty() {
            s.say("  No phase has been played yet.");
            return Ok(());
        }
        let pos_of = |label: &str| {
            played
                .iter()
                .position(|r| r.phase.eq_ignore_ascii_case(label))
        };
        let no_phase = |p: &str| {
            CmdError::refused(format!(
                "no phase {} in the history (phases look like S1901M)",
                crate::mail::header_text(p, 20)
            ))
        };
        let (from, to) = match self.range.as_slice() {
            [] => (0, played.len() - 1),
            [one] => {
                let i = pos_of(one).ok_or_else(|| no_phase(one))?;
                (i, i)
            }
            [a, b, ..] => {
                let i = pos_of(a).ok_or_else(|| no_phase(a))?;
                let j = pos_of(b).ok_or_else(|| no_phase(b))?;
                (i.min(j), i.max(j))
            }
        };
        let mut body = String::new();
        for r in &played[from..=to] {
            body.push_str(&r.report);
            body.push_str("\n\n");
        }
        // The results keep the deadline they were mailed with; the GM may
        // have moved it since, so the history ends with the one in force.
        if to + 1 == played.len()
            && g.status == crate::game::record::Status::Active
            && let Some(d) = g.deadline
        {
            body.push_str(&format!(
                "The deadlines above are those first mailed. The current deadline\nis {}.\n",
                crate::commands::time::show_deadline(d, &g.settings.timezone)
            ));
        }
        // Mailed where answers go: the history is the answer's, too long
        // to travel in it.
        let to_addr = s.sender.answer.email.clone();
        s.out.extend(mail_to(
            &[to_addr],
            format!(
                "{}: history {} to {}",
                g.name, played[from].phase, played[to].phase
            ),
            body,
        ));
        s.say(&format!(
            "  The results of {} are mailed to you separately.",
            crate::report::plural((to - from + 1) as i64, "phase", None)
        ));
        Ok(())
    }
}

/// Whether observers know of the played phase `short` that started from
/// the stored `position`: only the few phases that could be hidden from
/// them ([`View::may_miss_phase`]) have their position read.
fn observers_know(v: &Variant, short: &str, position: &str) -> bool {
    let Ok(phase) = v.calendar.parse(short) else {
        return true;
    };
    if !View::new(v, phase, Viewer::Public).may_miss_phase() {
        return true;
    }
    Position::from_toml(v, position).map_or(true, |pos| {
        View::of(v, &pos, Viewer::Public).sees_phase(&pos)
    })
}
