//! ROLLBACK: the GM goes back to the start of the last phase played, or of
//! a phase named.

use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::{CmdError, CmdResult};
use crate::commands::{Judge, Session, load, mail_to, play, position, time};
use crate::game::record::Status;
use crate::store::games;

/// ROLLBACK [phase | turn], with DPjudge's RESTORE and FULL.
pub(crate) struct Rollback {
    /// The phase (`S1901M`) or njudge's turn number (`1`: the first phase
    /// played); `None`: the last phase played.
    to: Option<String>,
    /// DPjudge's RESTORE, FULL: said what they do here.
    options: Vec<String>,
}

impl Command for Rollback {
    const SPEC: Spec = Spec {
        also: &["ROLL BACK"],
        ..Spec::new(
            "ROLLBACK",
            "ROLLBACK [phase | turn number]",
            "Go back to the start of the last phase played (or of the phase named: S1901M, or njudge's turn number, 1 the first phase played).",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        let (options, rest): (Vec<String>, Vec<String>) =
            args.bare().words.into_iter().partition(|w| {
                matches!(
                    w.to_ascii_uppercase().as_str(),
                    "RESTORE" | "RECOVER" | "FULL"
                )
            });
        match rest.as_slice() {
            [] => Ok(Rollback { to: None, options }),
            [p] => Ok(Rollback {
                to: Some(p.clone()),
                options,
            }),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let mut g = load(s.tx, &game)?;
        let v = judge.variant(&g.variant)?;
        let rows = games::history(s.tx, &g.name)?;
        let phase = self.to.as_deref();
        if phase.is_some_and(|p| p.eq_ignore_ascii_case("forming")) {
            return Err(
                "a game here does not go back to forming: ROLLBACK to its first phase \
                        (ROLLBACK 1) starts it again, the powers as they were"
                    .into(),
            );
        }
        let played: Vec<&games::HistoryRow> = rows.iter().filter(|r| r.kind == "phase").collect();
        let target = match phase {
            None => played.last().copied(),
            // njudge's turn number: the phases played, from 1.
            Some(p) if p.bytes().all(|b| b.is_ascii_digit()) => p
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| played.get(i).copied()),
            Some(p) => played
                .iter()
                .copied()
                .find(|r| r.phase.eq_ignore_ascii_case(p.trim())),
        }
        .ok_or_else(|| match phase {
            None => CmdError::refused("nothing to roll back: no phase has been played"),
            Some(p) => CmdError::refused(format!(
                "no phase {} in the history (phases look like S1901M; turns are numbered \
                 from 1, {} played)",
                crate::mail::header_text(p, 20),
                played.len()
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
        for o in &self.options {
            s.say(&match o.to_ascii_uppercase().as_str() {
                "FULL" => "  (FULL: settings are not rolled back here; the players and \
                           settings stay as they are now.)"
                    .to_string(),
                _ => "  (RESTORE: the orders of that phase are not kept here; they are sent \
                      again.)"
                    .to_string(),
            });
        }
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
