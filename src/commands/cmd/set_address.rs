//! SET ADDRESS: the game's mail for the seat signed on goes to the address
//! this mail comes from (its From). An address is registered only by mail
//! from itself: nobody can send a seat's mail to a third party. The
//! address it leaves is told.

use crate::commands::command::{AnySeat, Args, Command, SignedOn, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, load, mail_to};
use crate::store::games;

/// SET ADDRESS [the new address].
pub(crate) struct SetAddress(Option<String>);

impl Command for SetAddress {
    const SPEC: Spec = Spec {
        registers: true,
        ..Spec::new(
            "SET ADDRESS",
            "SET ADDRESS  (sent from the new address)",
            "Receive the game's mail at the address this mail comes from.",
        )
    };
    type Role = SignedOn;
    fn registration(&self, from: &str) -> Option<String> {
        // `SET ADDRESS other@address` registers nothing: it is refused,
        // since an address is registered only by mail from itself.
        self.0
            .as_deref()
            .is_none_or(|a| a.eq_ignore_ascii_case(from))
            .then(|| "send a seat's mail to this address from now on (SET ADDRESS)".to_string())
    }
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [] => Ok(SetAddress(None)),
            [a] => Ok(SetAddress(Some(a.trim_matches(['<', '>']).to_string()))),
            _ => Err("write SET ADDRESS, in a mail from the new address".into()),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: AnySeat) -> CmdResult {
        let new = s.sender.from.email.clone();
        // DPjudge's `SET ADDRESS a@x,b@y`: mail to several boxes.
        if let Some(a) = &self.0
            && a.contains(',')
        {
            return Err(
                "a seat here has one address, the one its mail comes from: send \
                        SET ADDRESS from the address that is to get the game's mail, signed on \
                        (your mail program can forward it to the others)"
                    .into(),
            );
        }
        if let Some(a) = &self.0
            && !a.eq_ignore_ascii_case(&new)
        {
            return Err(format!(
                "the judge registers only the address a mail comes from; send SET ADDRESS \
                 from {} itself, signed on",
                crate::mail::header_text(a, 80)
            )
            .into());
        }
        let mut g = load(s.tx, &seat.game)?;
        let (old, label) = match seat.power {
            Some(p) => {
                let v = judge.variant(&g.variant)?;
                let mut seats = games::seats(s.tx, &seat.game)?;
                let mine = &mut seats[p.index()];
                let old = mine.address.replace(new.clone());
                games::save_seat(s.tx, &seat.game, mine)?;
                (old, format!("{} in {}", v.map.power(p).name, g.name))
            }
            None => {
                let old = std::mem::replace(&mut g.gm_address, new.clone());
                games::save(s.tx, &g)?;
                (Some(old), format!("the GM of {}", g.name))
            }
        };
        s.say(&format!("  The game's mail for {label} now goes to {new}."));
        if let Some(o) = old.filter(|o| !o.eq_ignore_ascii_case(&new)) {
            s.out.extend(mail_to(
                &[o],
                format!("{label}: mail now goes elsewhere"),
                format!(
                    "The game's mail for {label} now goes to {new}, at the request of a mail \
                     from that address.\nIf that was not you, tell your GM at once.\n"
                ),
            ));
        }
        Ok(())
    }
}
