//! njudge's press settings, read as this judge's SET PRESS where they mean
//! the same, refused where this judge has no such press: SET NO PRESS (and
//! SET NOPRESS, SET NONE) is SET PRESS NONE; SET WHITE (and SET NO GREY)
//! is SET PRESS WHITE; SET WHITE/GREY (white by default, grey allowed) is
//! SET PRESS GREY. Grey-only press (SET GREY, SET NO WHITE) and grey by
//! default (SET GREY/WHITE) do not exist here.

use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, load};
use crate::game::record::Press;
use crate::store::games;

/// SET NO PRESS.
pub(crate) struct SetNoPress;
/// SET WHITE [PRESS].
pub(crate) struct SetWhite;
/// SET WHITE/GREY [PRESS].
pub(crate) struct SetWhiteGrey;
/// SET GREY [PRESS], SET GREY/WHITE [PRESS]: refused.
pub(crate) struct SetGreyOnly;

/// The words after the setting: nothing, or `PRESS`.
fn only_press(args: &Args, spec: &Spec) -> Result<(), String> {
    match args.bare().words.as_slice() {
        [] => Ok(()),
        [w] if w.eq_ignore_ascii_case("press") => Ok(()),
        _ => Err(format!("write {}", spec.usage)),
    }
}

/// Set the GM's game's press to `press`, saying it as SET PRESS does.
fn set(s: &mut Session<'_, '_>, game: &str, press: Press, word: &str) -> CmdResult {
    let mut g = load(s.tx, game)?;
    g.settings.press = press;
    games::save(s.tx, &g)?;
    s.say(&format!(
        "  Set: press {word} (this judge's SET PRESS {word})."
    ));
    Ok(())
}

impl Command for SetNoPress {
    const SPEC: Spec = Spec {
        other_judges: true,
        also: &["SET NOPRESS", "SET NONE"],
        ..Spec::new(
            "SET NO PRESS",
            "SET NO PRESS  (njudge; SET PRESS NONE)",
            "No press in the game, but to and from the GM.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        only_press(args, &Self::SPEC).map(|_| SetNoPress)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set(s, &game, Press::None, "NONE")
    }
}

impl Command for SetWhite {
    const SPEC: Spec = Spec {
        other_judges: true,
        also: &["SET NO GREY", "SET NOGREY", "SET NO GRAY"],
        ..Spec::new(
            "SET WHITE",
            "SET WHITE [PRESS]  (njudge; SET PRESS WHITE)",
            "Only signed press in the game.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        only_press(args, &Self::SPEC).map(|_| SetWhite)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set(s, &game, Press::White, "WHITE")
    }
}

impl Command for SetWhiteGrey {
    const SPEC: Spec = Spec {
        other_judges: true,
        also: &["SET WHITE/GRAY"],
        ..Spec::new(
            "SET WHITE/GREY",
            "SET WHITE/GREY [PRESS]  (njudge; SET PRESS GREY)",
            "Signed press, and grey press for those who ask for it.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        only_press(args, &Self::SPEC).map(|_| SetWhiteGrey)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        set(s, &game, Press::Grey, "GREY")
    }
}

impl Command for SetGreyOnly {
    const SPEC: Spec = Spec {
        other_judges: true,
        also: &[
            "SET GRAY",
            "SET NO WHITE",
            "SET GREY/WHITE",
            "SET GRAY/WHITE",
        ],
        ..Spec::new(
            "SET GREY",
            "SET GREY [PRESS]  (njudge; not here: SET PRESS GREY)",
            "njudge's grey-only press; this judge has signed press with grey allowed.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        only_press(args, &Self::SPEC).map(|_| SetGreyOnly)
    }
    fn run(self, _: &mut Judge, _: &mut Session<'_, '_>, _: String) -> CmdResult {
        Err(
            "this judge has no press that is grey only or grey unless asked: press is signed, \
             and SET PRESS GREY lets players send grey press when they ask (PRESS ... GREY), \
             as njudge's SET WHITE/GREY; nothing was changed"
                .into(),
        )
    }
}
