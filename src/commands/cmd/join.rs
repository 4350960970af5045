//! JOIN: take a power in a forming game. The address registered is the
//! mail's author (From).

use crate::commands::error::{CmdError, CmdResult};
use crate::commands::registry::{Anyone, Args, Command, Secret, Spec};
use crate::commands::{Ctx, Judge, Session, find_power, load, mail_to, password};
use crate::game::record::{SeatStatus, Status};
use crate::map::PowerId;
use crate::store::games;

/// JOIN game password [powers in order of preference].
pub struct Join {
    game: String,
    password: String,
    prefs: Vec<String>,
}

/// A seat among `free` picked from the mail's author and time: random
/// enough for fairness, the same for the same mail (tests replay).
fn pick(free: &[usize], who: &str, now: i64) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in who.bytes().chain(now.to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    free[(h % free.len() as u64) as usize]
}

impl Command for Join {
    const SPEC: Spec = Spec {
        secret: Secret::Arg(1),
        registers: true,
        ..Spec::new(
            "JOIN",
            "JOIN game password [powers in order of preference]",
            "Take a power in a forming game; the game starts when every power is taken.",
        )
    };
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        let w = &args.words;
        if w.len() < 2 {
            return Err(format!("write {}", Self::SPEC.usage));
        }
        Ok(Join {
            game: w[0].clone(),
            password: w[1].clone(),
            prefs: w[2..]
                .iter()
                .map(|x| x.trim_matches(',').to_string())
                .filter(|x| !x.is_empty())
                .collect(),
        })
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        let mut g = load(s.tx, &self.game)?;
        if g.status != Status::Forming {
            return Err(
                format!("{} is not taking players (REPLACE is up to the GM)", g.name).into(),
            );
        }
        let v = judge.variant(&g.variant)?;
        let mut seats = games::seats(s.tx, &g.name)?;
        let me = s.from.email.clone();
        if seats.iter().any(|x| {
            x.address
                .as_deref()
                .is_some_and(|a| a.eq_ignore_ascii_case(&me))
        }) {
            return Err(format!("you already play in {}", g.name).into());
        }
        let free: Vec<usize> = seats
            .iter()
            .enumerate()
            .filter(|(_, x)| x.status == SeatStatus::Open)
            .map(|(i, _)| i)
            .collect();
        if free.is_empty() {
            return Err(format!("{} is full", g.name).into());
        }
        // Powers of several words (`Duke William`) are written as they
        // are: the longest run of words naming a power is taken.
        let mut pick_seat = None;
        let mut k = 0;
        while k < self.prefs.len() && pick_seat.is_none() {
            let found = (1..=(self.prefs.len() - k).min(4)).rev().find_map(|n| {
                find_power(&v, &self.prefs[k..k + n].join(" "))
                    .ok()
                    .map(|p| (p, n))
            });
            match found {
                Some((p, n)) => {
                    if free.contains(&p.index()) {
                        pick_seat = Some(p.index());
                    } else {
                        // Never pass over a wish in silence: say why it
                        // cannot be had (an optional power left out of
                        // the game, as Ard-Ri's Vikings, or a taken seat).
                        let out = seats
                            .get(p.index())
                            .is_some_and(|x| x.status.left_out_before_start());
                        s.say(&format!(
                            "  ({} {})",
                            v.map.power(p).name,
                            if out {
                                "are not in this game"
                            } else {
                                "is already taken"
                            }
                        ));
                    }
                    k += n;
                }
                None => {
                    s.say(&format!(
                        "  (no power `{}` in this game; ignored)",
                        crate::mail::header_text(&self.prefs[k], 40)
                    ));
                    k += 1;
                }
            }
        }
        let i = pick_seat.unwrap_or_else(|| pick(&free, &me, s.now));
        let seat = &mut seats[i];
        seat.address = Some(me.clone());
        seat.hash =
            Some(password::hash(&self.password).map_err(|e| CmdError::Fault(anyhow::anyhow!(e)))?);
        seat.status = SeatStatus::Playing;
        seat.failures = 0;
        seat.name = None;
        games::save_seat(s.tx, &g.name, seat)?;
        crate::store::roster::took(s.tx, &g.name, i as u8, &me, None, s.now)?;
        let power = PowerId(i as u8);
        s.ctx = Ctx::Power {
            game: g.name.clone(),
            power,
        };
        let name = &v.map.power(power).name;
        s.say(&format!(
            "  You play {name} in {}; you are signed on. Sign on later with\n  SIGNON {name} {} password",
            g.name, g.name
        ));
        s.out.extend(mail_to(
            &[&g.gm_address],
            format!("{}: {name} taken", g.name),
            format!("{me} joined {} as {name}.\n", g.name),
        ));
        if seats
            .iter()
            .all(|x| x.status == SeatStatus::Playing || x.status.left_out_before_start())
        {
            super::start::start_game(judge, s, &mut g)?;
        }
        Ok(())
    }
}
