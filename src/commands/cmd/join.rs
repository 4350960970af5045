//! JOIN: take a seat in a forming game, with the powers wanted in order
//! of preference (njudge and DPjudge); ASSIGN: the GM gives a power. The
//! address registered is the mail's author (From).
//!
//! How the powers are given is the GM's choice (`SET ASSIGNMENT`): by
//! default every player's list is kept and the powers are given at the
//! start, the most wishes met and ties drawn at random
//! ([`crate::game::lifecycle::assign`]); until then a player holds a seat
//! of their list (so SET NAME and the like have somewhere to go). First
//! come gives each the first free power of their list at once, and
//! refuses a list whose powers are all taken rather than give another.

use crate::commands::command::{
    Anyone, Args, Command, Gm, Governs, Player, PlayerSeat, Secret, Spec, game_words,
};
use crate::commands::error::{CmdError, CmdResult};
use crate::commands::{Ctx, Judge, Session, find_power, load};
use crate::game::record::{Assignment, SeatStatus, Status};
use crate::map::PowerId;
use crate::store::games;
use crate::trust::password;
use crate::variant::Variant;

/// JOIN game password [powers in order of preference].
pub(crate) struct Join {
    game: String,
    password: String,
    prefs: Vec<String>,
}

/// The powers `words` name, in order: powers of several words (`Duke
/// William`) are written as they are, and the longest run of words naming
/// a power is taken. What names no power, or a power not in this game,
/// is said and left out.
fn wishes(
    v: &Variant,
    seats: &[crate::game::record::Seat],
    words: &[String],
    s: &mut Session<'_, '_>,
) -> Vec<PowerId> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < words.len() {
        let found = (1..=(words.len() - k).min(4)).rev().find_map(|n| {
            find_power(v, &words[k..k + n].join(" "))
                .ok()
                .map(|p| (p, n))
        });
        match found {
            Some((p, n)) => {
                let status = seats.get(p.index()).map(|x| x.status);
                if status.is_some_and(|x| x.left_out_before_start()) {
                    s.say(&format!("  ({} are not in this game)", v.map.power(p).name));
                } else if status == Some(SeatStatus::Dummy) {
                    s.say(&format!(
                        "  ({} are a dummy power: nobody plays them)",
                        v.map.power(p).name
                    ));
                } else if !out.contains(&p) {
                    out.push(p);
                }
                k += n;
            }
            None => {
                s.say(&format!(
                    "  (no power `{}` in this game; ignored)",
                    crate::mail::header_text(&words[k], 40)
                ));
                k += 1;
            }
        }
    }
    out
}

/// Names of `ps`, joined (`England, France`).
fn names(v: &Variant, ps: &[PowerId]) -> String {
    ps.iter()
        .map(|p| v.map.power(*p).name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Command for Join {
    const SPEC: Spec = Spec {
        secret: Secret::Arg(1),
        registers: true,
        governs: Governs::Seat,
        ..Spec::new(
            "JOIN",
            "JOIN game password [powers in order of preference]  (also DPjudge's JOIN power@game password)",
            "Join a forming game with a password of your own choosing; name the powers you want, best first. The powers are given when the game starts (SET ASSIGNMENT says how); it starts when every seat is taken.",
        )
    };
    type Role = Anyone;
    fn registration(&self, _from: &str) -> Option<String> {
        Some(format!("join {} as a player", game_words(&self.game)))
    }
    fn parse(args: &Args) -> Result<Self, String> {
        let w = &args.words;
        if w.len() < 2 {
            return Err(format!("write {}", Self::SPEC.usage));
        }
        let mut prefs: Vec<String> = w[2..]
            .iter()
            .flat_map(|x| x.split(','))
            .map(|x| x.trim_matches(['.', ';']).to_string())
            .filter(|x| !x.is_empty())
            .collect();
        // DPjudge's `JOIN france@game password`: the power wanted, first.
        let game = match w[0].split_once('@') {
            Some((power, game)) if !power.is_empty() && !game.is_empty() => {
                prefs.insert(0, power.to_string());
                game.to_string()
            }
            _ => w[0].clone(),
        };
        Ok(Join {
            game,
            password: w[1].clone(),
            prefs,
        })
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        let mut g = load(s.tx, &self.game)?;
        password::check_new(&self.password)?;
        if g.status != Status::Forming {
            return Err(
                format!("{} is not taking players (REPLACE is up to the GM)", g.name).into(),
            );
        }
        let v = judge.variant(&g.variant)?;
        let mut seats = games::seats(s.tx, &g.name)?;
        let me = s.sender.from.email.clone();
        if seats.iter().any(|x| {
            x.address
                .as_deref()
                .is_some_and(|a| a.eq_ignore_ascii_case(&me))
        }) {
            return Err(format!("you already play in {}", g.name).into());
        }
        let free: Vec<PowerId> = seats
            .iter()
            .filter(|x| x.status == SeatStatus::Open)
            .map(|x| PowerId(x.power))
            .collect();
        if free.is_empty() {
            return Err(format!("{} is full", g.name).into());
        }
        let wanted = wishes(&v, &seats, &self.prefs, s);
        let first_free = wanted.iter().copied().find(|p| free.contains(p));
        let mode = g.settings.assignment;
        let power = match first_free {
            Some(p) => p,
            // First come: never a power the player did not ask for.
            None if mode == Assignment::FirstCome && !wanted.is_empty() => {
                return Err(CmdError::refused(format!(
                    "{} {} taken; free: {}. JOIN again naming one of them, \
                     or with no powers to take any",
                    names(&v, &wanted),
                    if wanted.len() == 1 { "is" } else { "are" },
                    names(&v, &free)
                )));
            }
            // First come, any power: one drawn at random, as fair as it
            // gets. Otherwise the seat only holds a place until the powers
            // are given at the start: the first free one will do.
            None if mode == Assignment::FirstCome => {
                free[(judge.draw() % free.len() as u64) as usize]
            }
            None => free[0],
        };
        let seat = &mut seats[power.index()];
        seat.address = Some(me.clone());
        seat.hash =
            Some(password::hash(&self.password).map_err(|e| CmdError::Fault(anyhow::anyhow!(e)))?);
        seat.status = SeatStatus::Playing;
        seat.failures = 0;
        seat.name = None;
        seat.wait = false;
        seat.prefs = wanted.iter().map(|p| p.0).collect();
        games::save_seat(s.tx, &g.name, seat)?;
        crate::store::roster::took(s.tx, &g.name, power.0, &me, None, s.now)?;
        s.ctx = Ctx::Power {
            game: g.name.clone(),
            power,
        };
        let name = &v.map.power(power).name;
        let taken = seats
            .iter()
            .filter(|x| x.status == SeatStatus::Playing)
            .count();
        let open = seats
            .iter()
            .filter(|x| x.status == SeatStatus::Open)
            .count();
        let listed = if wanted.is_empty() {
            "any power".to_string()
        } else {
            names(&v, &wanted)
        };
        let said = match mode {
            Assignment::FirstCome => format!(
                "You play {name} in {}; you are signed on. Sign on later with \
                 SIGNON {name} {} <your password> (the password you chose here).",
                g.name, g.name
            ),
            Assignment::Preference => format!(
                "You have joined {game}, asking for {listed}. The powers are given \
                 when the game starts, by every player's list (the most wishes met, \
                 ties drawn at random), and the start mail tells you yours. Until \
                 then you hold {name}'s seat and are signed on to it.",
                game = g.name
            ),
            Assignment::Gm => format!(
                "You have joined {game}, asking for {listed}. The GM gives the powers \
                 and starts the game; the start mail tells you yours. Until then you \
                 hold {name}'s seat and are signed on to it.",
                game = g.name
            ),
        };
        s.say(&crate::report::wrap(&format!("  {said}"), 72, "  "));
        if open == 0 && mode != Assignment::Gm {
            super::start::start_game(judge, s, &mut g)?;
        }
        s.notice_gm(
            &g,
            "players joining",
            &format!(
                "{me} joined {}, asking for {listed}: {taken} of {} seats taken, {open} open.\n",
                g.name,
                taken + open
            ),
        );
        if open == 0 && mode == Assignment::Gm {
            s.notice_gm(
                &g,
                "players joining",
                "Every seat is taken: give the powers with ASSIGN, then START.\n",
            );
        }
        Ok(())
    }
}

/// ASSIGN power address.
pub(crate) struct Assign {
    power: String,
    address: String,
}

impl Command for Assign {
    const SPEC: Spec = Spec::new(
        "ASSIGN",
        "ASSIGN power address",
        "Before the start, give a power to a player who joined (their seats change places).",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        match a.words.split_last() {
            Some((address, power)) if !power.is_empty() && address.contains('@') => Ok(Assign {
                power: power.join(" "),
                address: address.trim_matches(['<', '>']).to_string(),
            }),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let g = load(s.tx, &game)?;
        if g.status != Status::Forming {
            return Err(format!("{} has started: REPLACE gives a power now", g.name).into());
        }
        let v = judge.variant(&g.variant)?;
        let to = find_power(&v, &self.power)?;
        let mut seats = games::seats(s.tx, &g.name)?;
        let Some(from) = seats.iter().position(|x| {
            x.address
                .as_deref()
                .is_some_and(|a| a.eq_ignore_ascii_case(&self.address))
        }) else {
            return Err(format!(
                "{} has not joined {} (WHO lists the players)",
                crate::mail::header_text(&self.address, 60),
                g.name
            )
            .into());
        };
        if seats[to.index()].status.left_out_before_start() {
            return Err(format!("{} are not in this game", v.map.power(to).name).into());
        }
        if seats[to.index()].status == SeatStatus::Dummy {
            return Err(format!(
                "{} are a dummy power: nobody plays them",
                v.map.power(to).name
            )
            .into());
        }
        if from != to.index() {
            let (a, b) = (seats[from].clone(), seats[to.index()].clone());
            seats[to.index()] = crate::game::record::Seat { power: to.0, ..a };
            seats[from] = crate::game::record::Seat {
                power: from as u8,
                ..b
            };
            games::save_seat(s.tx, &g.name, &seats[from])?;
            games::save_seat(s.tx, &g.name, &seats[to.index()])?;
            crate::store::roster::restart(
                s.tx,
                &g.name,
                &[(from as u8, to.0), (to.0, from as u8)],
            )?;
            for x in &seats {
                if let Some(a) = &x.address {
                    crate::store::roster::took(
                        s.tx,
                        &g.name,
                        x.power,
                        a,
                        x.name.as_deref(),
                        s.now,
                    )?;
                }
            }
        }
        s.say(&format!(
            "  {} goes to {}.",
            v.map.power(to).name,
            crate::mail::header_text(&self.address, 60)
        ));
        Ok(())
    }
}

/// njudge's SET PREFERENCE list: the powers wanted, best first, while the
/// game forms.
pub(crate) struct SetPreference(Vec<String>);

/// The powers of njudge's preference list: initials run together
/// (`EFG`), equal ones in brackets (`E[FGR][TAI]`, `f(ergti)a`), names
/// (`England, France`), or `*` (any); `None`: `*`.
fn preference_words(v: &Variant, words: &[String]) -> Result<Option<Vec<String>>, String> {
    let joined = words.join(" ");
    if joined.trim() == "*" {
        return Ok(None);
    }
    let letters = crate::commands::power_letters(v);
    let squeezed: String = joined
        .chars()
        .filter(|c| !matches!(c, '[' | ']' | '(' | ')' | ' ' | ','))
        .collect();
    // Initials: every letter a power's.
    if !squeezed.is_empty()
        && words.len() == 1
        && squeezed
            .chars()
            .all(|c| letters.contains(&c.to_ascii_uppercase()))
    {
        return Ok(Some(squeezed.chars().map(|c| c.to_string()).collect()));
    }
    Ok(Some(
        words
            .iter()
            .flat_map(|x| x.split(','))
            .map(|x| x.trim_matches(['.', ';']).to_string())
            .filter(|x| !x.is_empty())
            .collect(),
    ))
}

impl Command for SetPreference {
    const SPEC: Spec = Spec {
        other_judges: true,
        also: &["SET PREFERENCES", "SET PREF"],
        ..Spec::new(
            "SET PREFERENCE",
            "SET PREFERENCE EFG  (njudge; also E[FGR][TAI], *, or names: this judge's JOIN game password powers)",
            "The powers you want, best first, while the game forms.",
        )
    };
    type Role = Player;
    fn parse(args: &Args) -> Result<Self, String> {
        let a = args.bare();
        if a.is_empty() {
            return Err(format!("write {}", Self::SPEC.usage));
        }
        Ok(SetPreference(a.words))
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: PlayerSeat) -> CmdResult {
        let g = load(s.tx, &seat.game)?;
        if g.status != Status::Forming {
            return Err(format!(
                "the powers of {} are given already: a preference counts only while a game \
                 forms",
                g.name
            )
            .into());
        }
        let v = judge.variant(&g.variant)?;
        let mut seats = games::seats(s.tx, &g.name)?;
        if g.settings.assignment == Assignment::FirstCome {
            return Err(format!(
                "{} gives powers first come: you have {} already (the GM's SET ASSIGNMENT \
                 PREFERENCE lets lists count)",
                g.name,
                v.map.power(seat.power).name
            )
            .into());
        }
        let words = preference_words(&v, &self.0)?;
        let wanted = match &words {
            None => Vec::new(),
            Some(w) => wishes(&v, &seats, w, s),
        };
        if words.as_ref().is_some_and(|w| !w.is_empty()) && wanted.is_empty() {
            return Err("no power of this game in that list: nothing was changed".into());
        }
        let mine = &mut seats[seat.power.index()];
        mine.prefs = wanted.iter().map(|p| p.0).collect();
        games::save_seat(s.tx, &g.name, mine)?;
        let equal = self.0.iter().any(|w| w.contains(['[', '(']));
        s.say(&crate::report::wrap(
            &format!(
                "  Your preference: {}.{}",
                if wanted.is_empty() {
                    "any power (random among what the others' lists leave)".to_string()
                } else {
                    names(&v, &wanted)
                },
                if equal {
                    " Powers in brackets count in the order written here (the judge \
                     ranks every wish)."
                } else {
                    ""
                }
            ),
            72,
            "  ",
        ));
        Ok(())
    }
}
