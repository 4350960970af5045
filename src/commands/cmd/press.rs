//! PRESS and BROADCAST: messages between the players, signed or (where
//! the game allows) grey. The text runs from the command's line to
//! ENDPRESS; the GM reads all press with its sender shown.

use crate::commands::error::{CmdError, CmdResult};
use crate::commands::registry::{AnySeat, Args, Command, SignedOn, Spec};
use crate::commands::{Judge, PressOut, Session, find_power, load};
use crate::game::record::Press as PressRule;
use crate::store::games;

/// Whom press goes to.
#[derive(Debug, Clone, PartialEq, Eq)]
enum To {
    /// Everybody in the game.
    All,
    /// These powers (as written; resolved against the game).
    Powers(Vec<String>),
}

/// PRESS TO powers|ALL [GREY].
pub struct Press {
    to: To,
    grey: bool,
}

/// BROADCAST [GREY].
pub struct Broadcast {
    grey: bool,
}

impl Command for Press {
    const SPEC: Spec = Spec::new(
        "PRESS",
        "PRESS TO powers|ALL [GREY] ... ENDPRESS",
        "Send press to some powers (GREY hides your name where the game allows it).",
    );
    type Role = SignedOn;
    fn parse(args: &Args) -> Result<Self, String> {
        let mut grey = false;
        let mut to = Vec::new();
        let mut words = args.words.as_slice();
        if words.first().is_some_and(|w| w.eq_ignore_ascii_case("to")) {
            words = &words[1..];
        }
        for w in words {
            let w = w.trim_matches(',');
            if w.eq_ignore_ascii_case("grey") || w.eq_ignore_ascii_case("gray") {
                grey = true;
            } else if !w.is_empty() && !w.eq_ignore_ascii_case("and") {
                to.push(w.to_string());
            }
        }
        let to = if to.iter().any(|w| w.eq_ignore_ascii_case("all")) {
            To::All
        } else if to.is_empty() {
            return Err("PRESS TO whom? Write PRESS TO England France, or BROADCAST".into());
        } else {
            To::Powers(to)
        };
        Ok(Press { to, grey })
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: AnySeat) -> CmdResult {
        send(judge, s, &seat, self.to, self.grey)
    }
}

impl Command for Broadcast {
    const SPEC: Spec = Spec::new(
        "BROADCAST",
        "BROADCAST [GREY] ... ENDPRESS",
        "Send press to everybody in the game.",
    );
    type Role = SignedOn;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [] => Ok(Broadcast { grey: false }),
            [g] if g.eq_ignore_ascii_case("grey") || g.eq_ignore_ascii_case("gray") => {
                Ok(Broadcast { grey: true })
            }
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: AnySeat) -> CmdResult {
        send(judge, s, &seat, To::All, self.grey)
    }
}

/// Resolve a list of power names, some of several words.
fn powers(v: &crate::variant::Variant, words: &[String]) -> CmdResult<Vec<crate::map::PowerId>> {
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
                out.push(p);
                k += n;
            }
            None => {
                return Err(CmdError::refused(format!(
                    "no power `{}` in this game",
                    crate::mail::header_text(&words[k], 40)
                )));
            }
        }
    }
    Ok(out)
}

fn send(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    seat: &AnySeat,
    to: To,
    grey: bool,
) -> CmdResult {
    let text = s.press.take().unwrap_or_default();
    let game = &seat.game;
    let g = load(s.tx, game)?;
    let v = judge.variant(&g.variant)?;
    match g.settings.press {
        PressRule::None => return Err(format!("{game} allows no press").into()),
        PressRule::White if grey => {
            return Err(format!("{game} allows only white press (signed)").into());
        }
        _ => {}
    }
    if text.trim().is_empty() {
        return Err("the press is empty (write it between the PRESS line and ENDPRESS)".into());
    }
    limits(s, game, &text)?;
    let seats = games::seats(s.tx, game)?;
    let from = match seat.power {
        Some(p) => v.map.power(p).name.clone(),
        None => "the GM".to_string(),
    };
    let (targets, names): (Vec<String>, String) = match &to {
        To::All => {
            let mut t: Vec<String> = seats.iter().filter_map(|x| x.address.clone()).collect();
            t.extend(games::observers(s.tx, game)?);
            (t, "everybody".to_string())
        }
        To::Powers(list) => {
            let mut t = Vec::new();
            let mut ns = Vec::new();
            for pid in powers(&v, list)? {
                ns.push(v.map.power(pid).name.clone());
                if let Some(a) = &seats[pid.index()].address {
                    t.push(a.clone());
                }
            }
            (t, ns.join(", "))
        }
    };
    let signed = if grey {
        "(grey press: sender not shown)".to_string()
    } else {
        format!("From {from}")
    };
    // Kept as written: only a line longer than a mail's line is broken,
    // at a space, going on at its own indentation.
    let mailed = as_written(&text);
    let body = format!(
        "Press in {game}\n{signed}, to {names}:\n\n{}",
        mailed.trim_end()
    );
    // The GM reads all press, with the sender shown.
    let gm_body = format!(
        "Press in {game}\nFrom {from}{}, to {names}:\n\n{}",
        if grey { " (sent grey)" } else { "" },
        mailed.trim_end()
    );
    // Press to everybody is public: kept for the game's web page and
    // feed (grey press without its sender). Press to some powers is not.
    if to == To::All {
        let phase = crate::commands::position(&v, &g)
            .map(|p| v.calendar.label(p.phase))
            .unwrap_or_default();
        let sender = (!grey).then_some(from.as_str());
        crate::store::press::add(s.tx, &g.name, &phase, sender, text.trim_end(), s.now)?;
    }
    let mut recipients = targets;
    recipients.retain(|a| !a.eq_ignore_ascii_case(&s.from.email));
    for to in recipients {
        s.press_out.push(PressOut {
            to,
            game: g.name.clone(),
            gm_copy: false,
            grey,
            body: body.clone(),
        });
    }
    // The GM's copy, unless the GM wrote it (counted all the same, for
    // the limit of a mail).
    s.press_out.push(PressOut {
        to: g.gm_address.clone(),
        game: g.name.clone(),
        gm_copy: true,
        grey,
        body: gm_body,
    });
    // Kept with the game for good: the mails are pruned after weeks.
    let phase = match crate::commands::position(&v, &g) {
        Ok(pos) => v.calendar.short(pos.phase),
        Err(_) => String::new(),
    };
    games::append_press(
        s.tx,
        game,
        &games::NewPress {
            phase: &phase,
            sender: &from,
            recipients: &names,
            grey,
            text: text.trim_end(),
        },
        s.now,
    )?;
    s.say(&format!("  Press sent to {names}."));
    Ok(())
}

/// The longest press message, in characters.
pub(crate) const MAX_MESSAGE: usize = 20_000;
/// The most press one mail may send, in characters.
pub(crate) const MAX_MAIL: usize = 60_000;
/// The most press a game takes in a day, in characters.
pub(crate) const MAX_GAME_DAY: i64 = 250_000;
/// The most press a game keeps, in characters (press is kept for good).
pub(crate) const MAX_GAME: i64 = 8_000_000;

/// Refuse press past its limits: the message's size, what this mail has
/// sent already, and what the game took in the last day and in all. Press
/// is mailed to every reader and kept for good, so each limit bounds what
/// one sender can make the judge send and keep.
fn limits(s: &Session<'_, '_>, game: &str, text: &str) -> CmdResult {
    let n = text.chars().count();
    if n > MAX_MESSAGE {
        return Err(format!(
            "the press is {n} characters long; a press message is at most {MAX_MESSAGE}"
        )
        .into());
    }
    let this_mail: usize = s
        .press_out
        .iter()
        .filter(|p| p.gm_copy)
        .map(|p| p.body.chars().count())
        .sum();
    if this_mail + n > MAX_MAIL {
        return Err(format!(
            "one mail sends at most {MAX_MAIL} characters of press; send the rest in another mail"
        )
        .into());
    }
    let (day, all) = games::press_size(s.tx, game, s.now - 86_400)?;
    if day + n as i64 > MAX_GAME_DAY {
        return Err(format!(
            "{game} has had {day} characters of press in the last day, and takes at most \
             {MAX_GAME_DAY} a day; try again later"
        )
        .into());
    }
    if all + n as i64 > MAX_GAME {
        return Err(format!(
            "{game} keeps at most {MAX_GAME} characters of press, and has {all}; no more \
             press can be sent in it (the GM can ask the judge's keeper)"
        )
        .into());
    }
    Ok(())
}

/// Press text as its writer laid it out: lines, blank lines, indentation
/// and spacing kept; a line longer than 72 characters is broken at spaces
/// and goes on at its own indentation (never re-flowed into its
/// neighbours).
fn as_written(text: &str) -> String {
    crate::report::fit_lines(text, "")
}
