//! SET NAME: the name a player goes by in the game's roster (WHO) and in
//! the roster at the end of the game; addresses stay private unless the GM
//! lets the roster show them.

use crate::commands::error::CmdResult;
use crate::commands::registry::{Args, Command, Player, PlayerSeat, Spec};
use crate::commands::{Judge, Session};
use crate::store::games;

/// The longest name kept, in characters.
const MAX_NAME: usize = 40;

/// SET NAME display name.
pub(crate) struct SetName(String);

impl Command for SetName {
    const SPEC: Spec = Spec::new(
        "SET NAME",
        "SET NAME your name",
        "The name you go by in this game's roster (WHO) and at its end.",
    );
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        let name = args.words.join(" ");
        let name = name.trim();
        if name.is_empty() {
            return Err("write SET NAME and the name you go by".into());
        }
        if name.chars().any(crate::mail::unsafe_char) {
            return Err("a name is one line of text".into());
        }
        if name.chars().count() > MAX_NAME {
            return Err(format!("a name is at most {MAX_NAME} characters"));
        }
        Ok(SetName(name.to_string()))
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        let mut seats = games::seats(s.tx, &seat.game)?;
        let mine = &mut seats[seat.power.index()];
        mine.name = Some(self.0.clone());
        games::save_seat(s.tx, &seat.game, mine)?;
        crate::store::roster::named(s.tx, &seat.game, seat.power.0, Some(&self.0))?;
        s.say(&format!("  You are {} in {}'s roster.", self.0, seat.game));
        Ok(())
    }
}
