//! PREVIEW: the results the current orders would give, to the GM only.

use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, play};

/// PREVIEW.
pub(crate) struct Preview;

impl Command for Preview {
    const SPEC: Spec = Spec {
        // njudge's PREDICT.
        also: &["PREDICT"],
        ..Spec::new(
            "PREVIEW",
            "PREVIEW  (also njudge's PREDICT)",
            "Adjudicate the current orders and mail the results to the GM only.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| Preview)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let text = play::preview(judge, s.tx, &game)?;
        s.say("  A preview with the current orders (nothing was changed; only you get this):\n");
        s.say(&text);
        Ok(())
    }
}
