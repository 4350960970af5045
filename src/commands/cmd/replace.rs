//! REPLACE: the GM gives a power to a new player, who is mailed a password
//! the judge makes from the operating system's random source.

use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, find_power, load};

/// REPLACE power address.
pub(crate) struct Replace {
    power: String,
    address: String,
}

impl Command for Replace {
    const SPEC: Spec = Spec::new(
        "REPLACE",
        "REPLACE power address",
        "Give a power to a new player; the judge mails them a password.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        match a.words.as_slice() {
            [power @ .., address] if !power.is_empty() && power.len() <= 3 => Ok(Replace {
                power: power.join(" "),
                address: address.trim_matches(['<', '>']).to_string(),
            }),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let address = self.address.as_str();
        if address.parse::<lettre::Address>().is_err() {
            return Err(format!(
                "`{}` is not a mail address",
                crate::mail::header_text(address, 80)
            )
            .into());
        }
        let g = load(s.tx, &game)?;
        let v = judge.variant(&g.variant)?;
        let pid = find_power(&v, &self.power)?;
        let name = v.map.power(pid).name.clone();
        // A power given by someone else is an offer until its address
        // accepts it, whether or not that address has had the judge's mail
        // before: nobody is written to on someone else's word.
        let request = crate::trust::confirm::offer(
            s.tx,
            &judge.name,
            &game,
            pid.0,
            &name,
            address,
            &g.gm_address,
            s.now,
        )?;
        let asked = request.is_some();
        s.out.extend(request);
        s.say(&format!(
            "  {name} is offered to {address}: {} The power goes to that address when \
             it accepts, and the offer lapses in 7 days.",
            if asked {
                "the judge has asked it whether it accepts."
            } else {
                "it was asked already (the judge asks an address at most once a \
                 day); the offer waits."
            }
        ));
        Ok(())
    }
}
