//! SIGNOFF: the lines below no longer speak for the power signed on.

use crate::commands::error::CmdResult;
use crate::commands::registry::{Anyone, Args, Command, Spec};
use crate::commands::{Ctx, Judge, Session};

/// SIGNOFF.
pub struct SignOff;

impl Command for SignOff {
    const SPEC: Spec = Spec {
        also: &["SIGNOUT", "ENDPRESS"],
        ..Spec::new(
            "SIGNOFF",
            "SIGNOFF",
            "Lines below are no longer for the power signed on.",
        )
    };
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| SignOff)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        s.ctx = Ctx::None;
        s.say("  Signed off.");
        Ok(())
    }
}
