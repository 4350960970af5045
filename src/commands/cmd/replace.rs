//! REPLACE: the GM gives a power to a new player, who is mailed a password
//! the judge makes from the operating system's random source.

use crate::commands::error::CmdResult;
use crate::commands::registry::{Args, Command, Gm, Spec};
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
        // A power goes only to an address that said it wants the judge's
        // mail: an address new to the judge is asked first, and gets the
        // power when it confirms.
        if !crate::store::confirm::confirmed(s.tx, address)? {
            let asked = super::confirm::offer(judge, s, &game, pid, &name, address, &g.gm_address)?;
            s.say(&format!(
                "  {name} is offered to {address}, which has not yet confirmed that it \
                 wants the judge's mail; {} The power goes to it when it confirms, and \
                 the offer lapses in 7 days.",
                if asked {
                    "the judge has asked it to."
                } else {
                    "it was asked already in the last day."
                }
            ));
            return Ok(());
        }
        super::handover::give(judge, s, &game, pid, address)?;
        s.say(&format!(
            "  {name} now goes to {address}, who has been mailed a password."
        ));
        Ok(())
    }
}
