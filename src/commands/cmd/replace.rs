//! REPLACE: the GM gives a power to a new player, who is mailed a password
//! the judge makes from the operating system's random source.

use crate::commands::error::{CmdError, CmdResult};
use crate::commands::registry::{Args, Command, Gm, Spec};
use crate::commands::{Judge, Session, find_power, load, mail_to, password};
use crate::game::record::SeatStatus;
use crate::store::games;

/// REPLACE power address.
pub struct Replace {
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
        let mut seats = games::seats(s.tx, &game)?;
        let pw = password::generate()
            .map_err(|e| CmdError::Fault(anyhow::anyhow!("no random source: {e}")))?;
        let seat = &mut seats[pid.index()];
        let old = seat.address.replace(address.to_string());
        seat.hash = Some(password::hash(&pw).map_err(|e| CmdError::Fault(anyhow::anyhow!(e)))?);
        seat.status = SeatStatus::Playing;
        seat.failures = 0;
        seat.ready = false;
        games::save_seat(s.tx, &game, seat)?;
        let name = v.map.power(pid).name.clone();
        s.out.extend(mail_to(
            &[address.to_string()],
            format!("{game}: you now play {name}"),
            format!(
                "The GM of {game} ({}) has given you {name}.\n\n\
                 Your password is: {pw}\n\n\
                 Sign on and send orders like this:\n\n  SIGNON {name} {game} {pw}\n  A(Lon)-Yor\n\n\
                 Change the password with SET PASSWORD after signing on. Send HELP for more.\n",
                v.title
            ),
        ));
        if let Some(o) = old
            && !o.eq_ignore_ascii_case(address)
        {
            s.out.extend(mail_to(
                &[o],
                format!("{game}: you no longer play {name}"),
                format!("The GM of {game} has given {name} to another player.\n"),
            ));
        }
        s.say(&format!(
            "  {name} now goes to {address}, who has been mailed a password."
        ));
        Ok(())
    }
}
