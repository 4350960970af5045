//! PRESS and BROADCAST: messages between the players, signed or (where
//! the game allows) grey. Whom a line sends to and where its text ends are
//! read in one place, [`crate::commands::pressform`]; the GM reads all
//! press with its sender shown.

use crate::commands::command::{AnySeat, Args, Command, SignedOn, Spec};
use crate::commands::error::CmdResult;
use crate::commands::pressform::{Header, Recipients, Target, target_name};
use crate::commands::{Judge, PressOut, Session, load};
use crate::game::record::{Press as PressRule, Status};
use crate::rules::feature::{PressMoment, Readers};
use crate::rules::view::VariantRules;
use crate::store::games;
use crate::store::games::GameRow;
use crate::variant::Variant;

/// PRESS [TO] readers [GREY|WHITE]; `Err`: a press line of njudge's or
/// DPjudge's that this judge refuses (PRESS with no readers, which njudge
/// sends nowhere; FAKE and FROM), with why.
pub(crate) struct Press(Result<Header, String>);

/// BROADCAST [GREY|WHITE] [TO readers].
pub(crate) struct Broadcast(Result<Header, String>);

/// The header of a press line; a form the other judges teach that this
/// judge does not send (`PRESS` alone, FAKE, FROM) is refused when run, so
/// its text is consumed and nothing goes out.
fn header(args: &Args, broadcast: bool) -> Result<Result<Header, String>, String> {
    match Header::read(&args.words, broadcast) {
        Ok(h) => Ok(Ok(h)),
        Err(e)
            if args.bare().is_empty()
                || args
                    .words
                    .iter()
                    .any(|w| w.eq_ignore_ascii_case("fake") || w.eq_ignore_ascii_case("from")) =>
        {
            Ok(Err(format!("{e}; nothing was sent")))
        }
        Err(e) => Err(e),
    }
}

impl Command for Press {
    const SPEC: Spec = Spec {
        block: true,
        ..Spec::new(
            "PRESS",
            "PRESS TO powers|initials|M|ALL [BUT powers] [GREY] ... ENDPRESS",
            "Send press to some powers (PRESS TO France Germany, PRESS TO FG, PRESS TO M for \
             the GM, PRESS TO ALL BUT G); GREY hides your name where the game allows it. \
             ENDPRESS, ENDBROADCAST or SIGNOFF ends it.",
        )
    };
    type Role = SignedOn;
    fn parse(args: &Args) -> Result<Self, String> {
        header(args, false).map(Press)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: AnySeat) -> CmdResult {
        send(judge, s, &seat, &self.0?)
    }
}

impl Command for Broadcast {
    const SPEC: Spec = Spec {
        block: true,
        ..Spec::new(
            "BROADCAST",
            "BROADCAST [GREY] ... ENDPRESS",
            "Send press to everybody in the game (with TO readers, as PRESS does).",
        )
    };
    type Role = SignedOn;
    fn parse(args: &Args) -> Result<Self, String> {
        header(args, true).map(Broadcast)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, seat: AnySeat) -> CmdResult {
        send(judge, s, &seat, &self.0?)
    }
}

fn send(judge: &mut Judge, s: &mut Session<'_, '_>, seat: &AnySeat, header: &Header) -> CmdResult {
    let text = s.press.take().unwrap_or_default();
    let game = &seat.game;
    let g = load(s.tx, game)?;
    let v = judge.variant(&g.variant)?;
    let to = header.resolve(&v)?;
    // Press to the GM alone is always allowed, and always signed (as on
    // njudge): it is how a player asks the GM for anything.
    let to_gm_only =
        matches!(&to, Recipients::Only(list) if list.iter().all(|t| *t == Target::Master));
    let asked_grey = header.grey == Some(true);
    match g.settings.press {
        PressRule::None if !to_gm_only && seat.power.is_some() => {
            return Err(format!("{game} allows no press (but press to the GM: PRESS TO M)").into());
        }
        PressRule::White | PressRule::None if asked_grey && !to_gm_only => {
            return Err(format!("{game} allows only white press (signed)").into());
        }
        _ => {}
    }
    if seat.power.is_some() {
        face_to_face(&v, &g, &to, to_gm_only, s.now)?;
    }
    let grey = asked_grey && !to_gm_only;
    if text.trim().is_empty() {
        return Err("the press is empty (write it between the PRESS line and ENDPRESS)".into());
    }
    limits(s, game, &text)?;
    let seats = games::seats(s.tx, game)?;
    let from = match seat.power {
        Some(p) => v.map.power(p).name.clone(),
        None => "the GM".to_string(),
    };
    let observers = games::observers(s.tx, game)?;
    let mut unplayed: Vec<String> = Vec::new();
    let (targets, names): (Vec<String>, String) = match &to {
        Recipients::Everybody => {
            let mut t: Vec<String> = seats.iter().filter_map(|x| x.address.clone()).collect();
            t.extend(observers);
            (t, "everybody".to_string())
        }
        Recipients::Only(list) => {
            let mut t = Vec::new();
            for target in list {
                match target {
                    Target::Power(p) => match &seats[p.index()].address {
                        Some(a) => t.push(a.clone()),
                        None => unplayed.push(v.map.power(*p).name.clone()),
                    },
                    // The GM's copy goes below, to every press.
                    Target::Master => {}
                    Target::Observers => t.extend(observers.iter().cloned()),
                }
            }
            let ns: Vec<String> = list.iter().map(|t| target_name(&v, *t)).collect();
            (t, ns.join(", "))
        }
        Recipients::AllBut(list) => {
            let mut t: Vec<String> = seats
                .iter()
                .filter(|x| !list.contains(&Target::Power(crate::map::PowerId(x.power))))
                .filter_map(|x| x.address.clone())
                .collect();
            if !list.contains(&Target::Observers) {
                t.extend(observers);
            }
            let ns: Vec<String> = list.iter().map(|t| target_name(&v, *t)).collect();
            // The powers it reaches, named: the writer sees at once whom
            // the complement holds (njudge's `TO ALL BUT G`, `-G`).
            let reached: Vec<String> = seats
                .iter()
                .map(|x| crate::map::PowerId(x.power))
                .filter(|p| !list.contains(&Target::Power(*p)) && Some(*p) != seat.power)
                .map(|p| v.map.power(p).name.clone())
                .collect();
            (
                t,
                format!("everybody but {} ({})", ns.join(", "), reached.join(", ")),
            )
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
    if to == Recipients::Everybody {
        let phase = crate::commands::position(&v, &g)
            .map(|p| v.calendar.label(p.phase))
            .unwrap_or_default();
        let sender = (!grey).then_some(from.as_str());
        crate::store::press::add(s.tx, &g.name, &phase, sender, text.trim_end(), s.now)?;
    }
    let mut recipients = targets;
    recipients.retain(|a| !a.eq_ignore_ascii_case(&s.sender.from.email));
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
    if !unplayed.is_empty() {
        s.say(&format!(
            "  ({} {} no player now: nobody got it for {}.)",
            unplayed.join(", "),
            if unplayed.len() == 1 { "has" } else { "have" },
            if unplayed.len() == 1 { "it" } else { "them" }
        ));
    }
    Ok(())
}

/// Refuse a player's press that the variant's press rule forbids now
/// (face-to-face press, `[press] face-to-face`): only while the game is
/// played, asked with the phase's kind and whether its deadline has
/// passed with the game still waiting for orders.
fn face_to_face(
    v: &Variant,
    g: &GameRow,
    to: &Recipients,
    to_gm_only: bool,
    now: i64,
) -> CmdResult {
    if !matches!(g.status, Status::Active | Status::Paused) {
        return Ok(());
    }
    let readers = if to_gm_only {
        Readers::Master
    } else if *to == Recipients::Everybody {
        Readers::Everybody
    } else {
        Readers::Private
    };
    let when = PressMoment {
        kind: crate::commands::position(v, g)?.phase.kind,
        // A paused game's deadline does not run.
        deadline_missed: g.status == Status::Active && g.deadline.is_some_and(|d| d <= now),
    };
    match v.press_refused(when, readers) {
        Some(why) => Err(why.to_string().into()),
        None => Ok(()),
    }
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
