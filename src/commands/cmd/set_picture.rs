//! SET PICTURE: the picture of the board a player wants with each results
//! mail (PNG, SVG, both, or none), in place of the judge's default.

use crate::commands::command::{Args, Command, Player, PlayerSeat, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session};
use crate::report::PictureFormat;
use crate::store::games;

/// SET PICTURE png|svg|both|none.
pub(crate) struct SetPicture(PictureFormat);

impl Command for SetPicture {
    const SPEC: Spec = Spec::new(
        "SET PICTURE",
        "SET PICTURE PNG|SVG|BOTH|NONE",
        "The picture of the board attached to your results mails (NONE: no attachment).",
    );
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [w] => PictureFormat::parse(w)
                .map(SetPicture)
                .ok_or_else(|| "write SET PICTURE PNG, SVG, BOTH or NONE".to_string()),
            _ => Err("write SET PICTURE PNG, SVG, BOTH or NONE".into()),
        }
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        let mut seats = games::seats(s.tx, &seat.game)?;
        let mine = &mut seats[seat.power.index()];
        mine.picture = Some(self.0.as_str().to_string());
        games::save_seat(s.tx, &seat.game, mine)?;
        s.say(&format!(
            "  Your results will come with {}.",
            match self.0 {
                PictureFormat::Png => "a PNG picture of the board",
                PictureFormat::Svg => "an SVG picture of the board",
                PictureFormat::Both => "PNG and SVG pictures of the board",
                PictureFormat::None => "no picture",
            }
        ));
        Ok(())
    }
}
