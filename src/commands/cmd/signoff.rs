//! SIGNOFF: the end of what the judge reads of a mail, as on njudge and
//! DPjudge (`SIGNOFF`, `SIGN OFF`, `SIGNOUT`): signatures and taglines
//! below it are not read, and nothing below it speaks for the power signed
//! on. The reading stops in `mailrun`, which says how many lines were left.
//! ENDPRESS and ENDBROADCAST outside press end nothing, and say so.

use crate::commands::command::{Anyone, Args, Command, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Ctx, Judge, Session};

/// SIGNOFF, with whatever follows it on its line (not read).
pub(crate) struct SignOff(Option<String>);

/// ENDPRESS outside press.
pub(crate) struct EndPress;

impl Command for SignOff {
    const SPEC: Spec = Spec {
        also: &["SIGNOUT", "SIGN OFF", "SIGN OUT"],
        ..Spec::new(
            "SIGNOFF",
            "SIGNOFF",
            "The end of the mail: the judge reads nothing below it (signatures, taglines).",
        )
    };
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        // DPjudge: SIGNOFF as the first word of a line ends the mail,
        // whatever follows it; press ends there too (see `pressform`), so
        // the command must agree.
        Ok(SignOff((!args.is_empty()).then(|| args.rest(0))))
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        s.ctx = Ctx::None;
        s.phase_ahead = None;
        s.say("  Signed off: the judge reads nothing after this line.");
        if let Some(rest) = self.0 {
            s.say(&format!(
                "  (\"{}\" after SIGNOFF on its line was not read.)",
                crate::mail::header_text(&rest, 60)
            ));
        }
        Ok(())
    }
}

impl Command for EndPress {
    const SPEC: Spec = Spec {
        other_judges: true,
        also: &["ENDBROADCAST", "END PRESS", "END BROADCAST"],
        ..Spec::new(
            "ENDPRESS",
            "ENDPRESS  (also ENDBROADCAST)",
            "Ends the text of a PRESS or BROADCAST; either ends either.",
        )
    };
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| EndPress)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        s.say("  No press was open here: nothing to end.");
        Ok(())
    }
}
