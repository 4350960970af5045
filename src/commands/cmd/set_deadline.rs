//! SET DEADLINE: the GM moves the current deadline.

use crate::commands::error::CmdResult;
use crate::commands::registry::{Args, Command, Gm, Spec};
use crate::commands::{Judge, Session, load, notify_all, time};
use crate::game::record::Status;
use crate::store::games;

/// SET DEADLINE when.
pub struct SetDeadline(String);

impl Command for SetDeadline {
    const SPEC: Spec = Spec::new(
        "SET DEADLINE",
        "SET DEADLINE 2026-11-28 18:00 [time zone], Saturday 18:00, +48h (from the deadline) or in 48h (from now)",
        "Move the current deadline.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        if args.is_empty() {
            return Err(format!("write {}", Self::SPEC.usage));
        }
        Ok(SetDeadline(args.bare().rest(0)))
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let mut g = load(s.tx, &game)?;
        if g.status != Status::Active {
            return Err("the game is not running".into());
        }
        let d = time::parse_deadline(&self.0, &g.settings.timezone, s.now, g.deadline)?;
        g.deadline = Some(d.at);
        g.reminded = false;
        g.grace_noticed = false;
        let shown = time::show(d.at, &g.settings.timezone);
        games::save(s.tx, &g)?;
        // The GM's own deadline: absences do not move it.
        games::set_deadline_base(s.tx, &g.name, games::SET_BY_GM)?;
        // The game's zone and UTC, so nobody need convert.
        let utc = time::show(d.at, "UTC");
        if utc == shown {
            s.say(&format!("  The deadline is now {shown}."));
        } else {
            s.say(&format!("  The deadline is now {shown},\n  that is {utc}."));
        }
        if let Some(w) = &d.warning {
            s.say(&format!("  Note: {w}."));
        }
        notify_all(
            s,
            &g,
            "new deadline",
            &format!("The GM moved the deadline to {shown}.\n"),
        )
    }
}
