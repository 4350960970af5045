//! HELP: the list of commands, printed from the table.

use crate::commands::error::CmdResult;
use crate::commands::registry::{Anyone, Args, Command, Spec, help_text};
use crate::commands::{Judge, Session};

/// HELP.
pub struct Help;

impl Command for Help {
    const SPEC: Spec = Spec::new("HELP", "HELP", "This list.");
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| Help)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        s.say(&help_text());
        Ok(())
    }
}
