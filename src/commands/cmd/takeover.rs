//! DPjudge's TAKEOVER (`TAKEOVER power@game password`, `TAKEOVER Xgame
//! password`), in place of a sign-on.
//!
//! - `TAKEOVER master@game password` with the GM's password makes the
//!   mail's author the game's GM (DPjudge's way to hand a game over): the
//!   GM's mail goes to the new address from then on, and the old one is
//!   told. It registers the address, so a new address confirms first.
//! - For a power: a power with no player is seated by the GM here (REPLACE),
//!   and the reply says so (the GM is told who asked); a power that has a
//!   player is signed on to with its password, as SIGNON does.

use crate::commands::command::{Anyone, Args, Command, Governs, Secret, Spec, game_words};
use crate::commands::error::CmdResult;
use crate::commands::{Ctx, Judge, Session, mail_to};
use crate::store::games;

use super::signon::{Seat, read_seat, sign_on};

/// TAKEOVER seat password.
pub(crate) struct Takeover(Seat);

impl Command for Takeover {
    const SPEC: Spec = Spec {
        secret: Secret::Varies,
        registers: true,
        governs: Governs::Seat,
        ..Spec::new(
            "TAKEOVER",
            "TAKEOVER power@game password  (DPjudge; also master@game: become the GM)",
            "Take a game over as its GM with the GM's password; a power is given by the GM here.",
        )
    };
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        // DPjudge: a private game's privacy password may follow; this
        // judge has no private games.
        match args.words.as_slice() {
            [seat, pw] => read_seat(&[seat.clone(), pw.clone()]).map(Takeover),
            [seat, pw, _privacy] if seat.contains('@') => {
                read_seat(&[seat.clone(), pw.clone()]).map(Takeover)
            }
            _ => Err("write TAKEOVER power@game password".into()),
        }
    }
    fn registration(&self, _from: &str) -> Option<String> {
        // Only the GM's seat changes hands here.
        self.0
            .power
            .is_none()
            .then(|| format!("make this address the GM of {}", game_words(&self.0.game)))
    }
    fn secret_at(_: &Args) -> Option<usize> {
        Some(1)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        if self.0.power.is_some() {
            s.say("  (DPjudge's TAKEOVER of a power: a power that has a player is signed on to.)");
            return sign_on(judge, s, &self.0);
        }
        sign_on(judge, s, &self.0)?;
        let mut g = crate::commands::load(s.tx, &self.0.game)?;
        let me = s.sender.from.email.clone();
        if g.gm_address.eq_ignore_ascii_case(&me) {
            s.say("  You are this game's GM already.");
            return Ok(());
        }
        // The GM's seat changes hands: only the GM's own password does it,
        // checked just above.
        let old = std::mem::replace(&mut g.gm_address, me.clone());
        games::save(s.tx, &g)?;
        tracing::info!(game = %g.name, "the GM's seat changed hands (TAKEOVER)");
        s.ctx = Ctx::Gm {
            game: g.name.clone(),
        };
        s.say(&format!(
            "  You are now the GM of {}: its GM's mail comes to {me}. (The GM's password \
             is unchanged: SET PASSWORD changes it.)",
            g.name
        ));
        s.out.extend(mail_to(
            &[old.as_str()],
            format!("{}: a new GM", g.name),
            format!(
                "{me} took over as GM of {} with the GM's password (DPjudge's TAKEOVER). If \
                 that was not agreed, the password is known to someone else: tell the judge's \
                 keeper.\n",
                g.name
            ),
        ));
        Ok(())
    }
}
