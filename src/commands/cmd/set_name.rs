//! SET NAME: the name a player goes by in the game's roster (WHO) and in
//! the roster at the end of the game; addresses stay private unless the GM
//! lets the roster show them.

use crate::commands::command::{Args, Command, Player, PlayerSeat, Spec};
use crate::commands::error::CmdResult;
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
        let others: Vec<&str> = seats
            .iter()
            .filter(|x| x.power != seat.power.0)
            .filter_map(|x| x.name.as_deref())
            .collect();
        let hash = seats[seat.power.index()].hash.clone();
        let holds_secret =
            |name: &str| holds_secret(name, &s.secrets, s.checks.verified(), hash.as_deref());
        let name = crate::trust::names::check(&self.0, &others, &holds_secret)?;
        let mine = &mut seats[seat.power.index()];
        mine.name = Some(name.clone());
        games::save_seat(s.tx, &seat.game, mine)?;
        crate::store::roster::named(s.tx, &seat.game, seat.power.0, Some(&name))?;
        s.say(&format!("  You are {name} in {}'s roster.", seat.game));
        Ok(())
    }
}

/// Whether `name` is or holds a password: one of the mail's `secrets`,
/// one that verified in it, or the seat's own (its stored `hash`, checked
/// against the whole name and its words long enough to be a chosen
/// password, four at most).
fn holds_secret<'p>(
    name: &str,
    secrets: &[String],
    verified: impl Iterator<Item = &'p str>,
    hash: Option<&str>,
) -> bool {
    let lower = name.to_lowercase();
    let inside = |p: &str| p.chars().count() >= 4 && lower.contains(&p.to_lowercase());
    if secrets.iter().any(|p| inside(p)) || verified.into_iter().any(inside) {
        return true;
    }
    let Some(hash) = hash else { return false };
    std::iter::once(name)
        .chain(name.split_whitespace().filter(|w| w.chars().count() >= 8))
        .take(4)
        .any(|w| crate::trust::password::verify(w, hash))
}
