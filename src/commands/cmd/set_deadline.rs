//! SET DEADLINE: the GM moves the current deadline, or, while the game
//! forms, sets its first one (kept if the game starts before it).

use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, load, time};
use crate::game::record::Status;
use crate::store::games;

/// SET DEADLINE when.
pub(crate) struct SetDeadline(String);

impl Command for SetDeadline {
    const SPEC: Spec = Spec::new(
        "SET DEADLINE",
        "SET DEADLINE 2026-11-28 18:00 [time zone], Saturday 18:00, +48h (from the deadline) or in 48h (from now)",
        "Move the current deadline; while the game forms, set its first deadline.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        let mut words = args.bare().words;
        // DPjudge: `SET DEADLINE TO Sat 12:00`, `SET DEADLINE ON 20 Jan`.
        if words.len() > 1
            && words
                .first()
                .is_some_and(|w| w.eq_ignore_ascii_case("to") || w.eq_ignore_ascii_case("on"))
        {
            words.remove(0);
        }
        if words.is_empty() {
            return Err(format!("write {}", Self::SPEC.usage));
        }
        Ok(SetDeadline(words.join(" ")))
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let mut g = load(s.tx, &game)?;
        if !matches!(g.status, Status::Active | Status::Forming) {
            return Err(format!(
                "{} is {}: it has no deadline to move",
                g.name,
                g.status.as_str()
            )
            .into());
        }
        // A day without a time (njudge's `SET DEADLINE Fri`, `SET DEADLINE
        // 15 Jan`): at the game clock's time, else njudge's 23:30.
        // The text as written is tried first, so that its own error is the
        // one told when neither reading works.
        let relative = ['+', '-'].iter().any(|c| self.0.starts_with(*c))
            || self.0.to_ascii_lowercase().starts_with("in ");
        let (d, default) =
            match time::parse_deadline(&self.0, &g.settings.timezone, s.now, g.deadline) {
                Ok(d) => (d, None),
                Err(e) if relative || self.0.contains(':') => return Err(e.into()),
                Err(e) => {
                    let at = g.settings.deadline_time.unwrap_or(23 * 60 + 30);
                    let hm = format!("{:02}:{:02}", at / 60, at % 60);
                    match time::parse_deadline(
                        &format!("{} {hm}", self.0),
                        &g.settings.timezone,
                        s.now,
                        g.deadline,
                    ) {
                        Ok(d) => (d, Some(hm)),
                        Err(_) => return Err(e.into()),
                    }
                }
            };
        g.deadline = Some(d.at);
        g.reminded = false;
        g.grace_noticed = false;
        let shown = time::show_deadline(d.at, &g.settings.timezone);
        games::save(s.tx, &g)?;
        // The GM's own deadline: absences do not move it.
        games::set_deadline_base(s.tx, &g.name, games::SET_BY_GM)?;
        // The game's zone and UTC, so nobody need convert.
        s.say(&format!("  The deadline is now {shown}."));
        if let Some(w) = &d.warning {
            s.say(&format!("  Note: {w}."));
        }
        if let Some(hm) = default {
            s.say(&format!(
                "  (No time was written: {hm}, {}.)",
                if g.settings.deadline_time.is_some() {
                    "the game clock's"
                } else {
                    "as on njudge"
                }
            ));
        }
        if g.status == Status::Forming {
            s.say(
                "  It is the first deadline, if the game has started by then;\n  \
                 otherwise the start sets it, by the phase length and the clock.",
            );
        }
        s.notice_deadline(
            &g,
            &match g.status {
                Status::Forming => format!("The GM set the first deadline to {shown}."),
                _ => format!("The GM moved the deadline to {shown}."),
            },
        );
        Ok(())
    }
}
