//! VARIANTS: the variants the judge plays.

use crate::commands::command::{Anyone, Args, Command, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session};
use std::fmt::Write;

/// VARIANTS.
pub(crate) struct Variants;

impl Command for Variants {
    const SPEC: Spec = Spec::new("VARIANTS", "VARIANTS", "The variants the judge plays.");
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| Variants)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        let mut t = String::from("The judge plays:\n");
        for n in judge.variant_names() {
            let title = judge
                .variant(&n)
                .map(|v| v.title.clone())
                .unwrap_or_default();
            let _ = writeln!(t, "  {n:<14} {title}");
        }
        s.say(&t);
        Ok(())
    }
}
