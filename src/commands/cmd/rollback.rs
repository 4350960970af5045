//! ROLLBACK: the GM goes back to the start of the last phase played, or of
//! a phase named.

use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::{CmdError, CmdResult};
use crate::commands::{Judge, Session, load, mail_to, play, position, time};
use crate::game::record::Status;
use crate::store::games;

/// ROLLBACK [phase].
pub(crate) struct Rollback(Option<String>);

impl Command for Rollback {
    const SPEC: Spec = Spec::new(
        "ROLLBACK",
        "ROLLBACK [phase]",
        "Go back to the start of the last phase played (or of the phase named).",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [] => Ok(Rollback(None)),
            [p] => Ok(Rollback(Some(p.clone()))),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let mut g = load(s.tx, &game)?;
        let v = judge.variant(&g.variant)?;
        let rows = games::history(s.tx, &g.name)?;
        let phase = self.0.as_deref();
        let target = match phase {
            None => rows.iter().rev().find(|r| r.kind == "phase"),
            Some(p) => rows
                .iter()
                .find(|r| r.kind == "phase" && r.phase.eq_ignore_ascii_case(p.trim())),
        }
        .ok_or_else(|| match phase {
            None => CmdError::refused("nothing to roll back: no phase has been played"),
            Some(p) => CmdError::refused(format!(
                "no phase {} in the history (phases look like S1901M)",
                crate::mail::header_text(p, 20)
            )),
        })?;
        g.position = target.position.clone();
        let pos = position(&v, &g)?;
        g.status = Status::Active;
        g.result = None;
        g.deadline = Some(play::next_deadline(&g.settings, pos.phase.kind, s.now));
        g.reminded = false;
        g.grace_noticed = false;
        games::save(s.tx, &g)?;
        games::set_fault(s.tx, &g.name, None, s.now)?;
        games::truncate_history(s.tx, &g.name, target.seq)?;
        games::clear_orders(s.tx, &g.name)?;
        let d = time::show_deadline(g.deadline.unwrap_or(s.now), &g.settings.timezone);
        let label = v.calendar.label(pos.phase);
        games::append_history(
            s.tx,
            &g.name,
            &games::NewHistory {
                phase: &v.calendar.short(pos.phase),
                kind: "edit",
                position: &g.position,
                orders: "",
                report: &format!("GM rollback to {label}"),
            },
            s.now,
        )?;
        s.say(&format!(
            "  Rolled back to the start of {label}; deadline {d}."
        ));
        let mut to: Vec<String> = games::seats(s.tx, &g.name)?
            .into_iter()
            .filter_map(|x| x.address)
            .collect();
        to.extend(games::observers(s.tx, &g.name)?);
        s.out.extend(mail_to(
            &to,
            format!("{}: rolled back to {label}", g.name),
            format!(
                "The GM has rolled the game back to the start of {label}.\n\
                 All orders for it must be sent again. Deadline: {d}.\n"
            ),
        ));
        Ok(())
    }
}
