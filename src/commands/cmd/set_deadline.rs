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
        "SET DEADLINE 2026-11-28 18:00 [time zone]  or  SET DEADLINE +48h",
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
        let d = time::parse_deadline(&self.0, &g.settings.timezone, s.now)?;
        g.deadline = Some(d);
        g.reminded = false;
        g.grace_noticed = false;
        let shown = time::show(d, &g.settings.timezone);
        games::save(s.tx, &g)?;
        s.say(&format!("  The deadline is now {shown}."));
        notify_all(
            s,
            &g,
            "new deadline",
            &format!("The GM moved the deadline to {shown}.\n"),
        )
    }
}
