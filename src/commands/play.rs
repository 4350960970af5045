//! Playing a game's phases: adjudication at the deadline (or earlier when
//! every player is ready), results to everyone, reminders, grace periods,
//! rollbacks.

use super::drawn::{DRAWN_PHASES, Pictures};
use super::error::CmdResult;
use super::submit::{has_choices, missing, stored};
use super::{Judge, Session, mail_to};
use crate::game::Position;
use crate::game::record::{Seat, SeatStatus, Settings, Status};
use crate::game::step::{PhaseOrders, play};
use crate::mail::Outgoing;
use crate::map::PowerId;
use crate::orders::{AdjustOrder, AnyCommand, format_order};
use crate::report::{PhaseReport, data, data_told, title};
use crate::rules::view::VariantRules;
use crate::rules::view::View;
use crate::store::Conn;
use crate::store::games;
use crate::variant::features::Viewer;
use crate::variant::{PhaseKind, Variant};
use std::fmt::Write;

/// The deadline of a phase of `kind` starting at `now`, by the game
/// clock in the game's zone ([`lifecycle::next_deadline`]), on the
/// whole minute it is shown at ([`super::time::on_minute`]): a phase that
/// opens at 12:05:37 with no clock set closes at 12:06, not 12:05:37.
pub(crate) fn next_deadline(s: &Settings, kind: PhaseKind, now: i64) -> i64 {
    super::time::on_minute(crate::game::lifecycle::next_deadline(
        s,
        kind,
        now,
        &super::time::zone(&s.timezone),
    ))
}

/// The orders each power holds for the current phase, as stored.
fn held_lines(v: &Variant, c: &Conn, game: &str) -> anyhow::Result<Vec<(u8, Vec<String>)>> {
    let mut out = Vec::new();
    for pw in v.map.power_ids() {
        out.push((pw.0, games::orders(c, game, pw.0)?));
    }
    Ok(out)
}

/// Orders of every power for the current phase.
fn phase_orders(
    v: &Variant,
    c: &Conn,
    game: &str,
    pos: &Position,
) -> anyhow::Result<(PhaseOrders, Vec<PowerId>)> {
    Ok(orders_of(v, pos, &held_lines(v, c, game)?))
}

/// The orders of a phase from each power's stored lines, and the powers
/// that had a choice and gave no order.
fn orders_of(
    v: &Variant,
    pos: &Position,
    held: &[(u8, Vec<String>)],
) -> (PhaseOrders, Vec<PowerId>) {
    let mut sorted = crate::game::phase_orders::PhaseOrdersBuilder::new();
    let mut silent = Vec::new();
    for pw in v.map.power_ids() {
        let lines = held
            .iter()
            .find(|(p, _)| *p == pw.0)
            .map_or(&[][..], |(_, l)| l.as_slice());
        let held = stored(v, lines);
        if held.is_empty() && has_choices(v, pos, pw) {
            silent.push(pw);
        }
        for h in held {
            sorted.push(pw, h);
        }
    }
    (sorted.build(v, pos.phase.kind), silent)
}

/// The orders as text, for the history.
fn orders_text(v: &Variant, o: &PhaseOrders) -> String {
    let name = |p: PowerId| v.map.power(p).name.clone();
    let mut lines: Vec<(PowerId, AnyCommand)> = Vec::new();
    let main = |list: &[crate::orders::MainOrder]| {
        list.iter()
            .map(|x| (x.power, AnyCommand::Main(x.unit, x.command.clone())))
            .collect::<Vec<_>>()
    };
    let retreat = |list: &[crate::orders::RetreatOrder]| {
        list.iter()
            .map(|x| (x.power, AnyCommand::Retreat(x.unit, x.command)))
            .collect::<Vec<_>>()
    };
    let adjust = |list: &[AdjustOrder]| {
        list.iter()
            .map(|x| (x.power, AnyCommand::Adjust(x.command)))
            .collect::<Vec<_>>()
    };
    match o {
        PhaseOrders::Movement(list) => lines.extend(main(list)),
        PhaseOrders::Retreat(list) => lines.extend(retreat(list)),
        PhaseOrders::Adjustment(list) => lines.extend(adjust(list)),
        PhaseOrders::Turn {
            moves,
            retreats,
            adjust: builds,
        } => {
            // A yearly sheet's retreat reads as a move (`A(Mos)-Yar`):
            // its parts go under the sheet's headings (1700 AD II rule 6),
            // as the offline `adjudicate` and the pages read them.
            let mut s = String::new();
            for (heading, part) in [
                (None, main(moves)),
                (Some("Retreats:"), retreat(retreats)),
                (Some("Builds:"), adjust(builds)),
            ] {
                if let Some(h) = heading.filter(|_| !part.is_empty()) {
                    let _ = writeln!(s, "{h}");
                }
                for (p, c) in part {
                    let _ = writeln!(s, "{}: {}", name(p), format_order(&v.map, &c));
                }
            }
            return s;
        }
    }
    let mut s = String::new();
    for (p, c) in lines {
        let _ = writeln!(s, "{}: {}", name(p), format_order(&v.map, &c));
    }
    s
}

use crate::game::end::game_end;
use crate::game::lifecycle::{self, Missed, Notice, Standing, To, Trigger, Work};
use crate::store::games::GameRow;

/// How many phases one processing may play in a row: a phase that waits
/// for nobody (a retreat or adjustment with nothing left to order) goes at
/// once after the one before it, and a game year has at most this many.
const CHAIN: usize = 4;

/// Adjudicate the current phase of `game` and queue the results, then any
/// phase after it that waits for nobody. `trigger` says why: only a
/// missed deadline calls anyone late or puts anyone in civil disorder.
/// Returns whether the game goes on.
pub(crate) fn process(
    judge: &mut Judge,
    c: &Conn,
    game: &str,
    now: i64,
    trigger: Trigger,
    out: &mut Vec<Outgoing>,
) -> CmdResult<bool> {
    let mut going = play_phase(judge, c, game, now, trigger, out)?;
    for _ in 1..CHAIN {
        if !going || !goes_now(judge, c, game)? {
            break;
        }
        going = play_phase(judge, c, game, now, Trigger::AllReady, out)?;
    }
    Ok(going)
}

/// Where every seat of `g` stands in its current phase.
fn standings(
    v: &Variant,
    c: &Conn,
    g: &GameRow,
    pos: &Position,
    seats: &[Seat],
) -> anyhow::Result<Vec<Standing>> {
    let mut out = Vec::with_capacity(seats.len());
    for seat in seats {
        let p = PowerId(seat.power);
        let held = stored(v, &games::orders(c, &g.name, p.0)?);
        out.push(Standing {
            power: p,
            seat: seat.status,
            choices: has_choices(v, pos, p),
            complete: missing(v, pos, p, &held).is_empty(),
            any_orders: !held.is_empty(),
            ready: seat.ready,
            wait: seat.wait,
        });
    }
    Ok(out)
}

/// Whether the current phase of `game` waits for nobody: every playing
/// power is ready (complete orders unless WAIT, or READY), and somebody
/// plays (a game of empty seats never plays itself out).
fn goes_now(judge: &mut Judge, c: &Conn, game: &str) -> CmdResult<bool> {
    let g = super::load(c, game)?;
    if g.status != Status::Active {
        return Ok(false);
    }
    let (v, pos) = judge.board(&g)?;
    let seats = games::seats(c, &g.name)?;
    if !seats.iter().any(|x| x.status == SeatStatus::Playing) {
        return Ok(false);
    }
    let st = standings(&v, c, &g, &pos, &seats)?;
    Ok(lifecycle::waiting_for(g.settings.early, &st).is_empty())
}

/// The deadline of a phase of `kind` opening at `now` in `g`: the game
/// clock's, then moved by announced absences as the GM allows. Returns it
/// and the powers whose absence moved it.
pub(crate) fn deadline_for(
    c: &Conn,
    g: &GameRow,
    kind: PhaseKind,
    now: i64,
) -> CmdResult<(i64, Vec<PowerId>)> {
    let d = next_deadline(&g.settings, kind, now);
    super::cmd::absence::extended(c, g, d)
}

/// Play the current phase of `game` once: adjudicate, record, tell.
fn play_phase(
    judge: &mut Judge,
    c: &Conn,
    game: &str,
    now: i64,
    trigger: Trigger,
    out: &mut Vec<Outgoing>,
) -> CmdResult<bool> {
    let mut g = super::load(c, game)?;
    let (v, pos) = judge.board(&g)?;
    let held = held_lines(&v, c, &g.name)?;
    let (orders, _) = orders_of(&v, &pos, &held);
    let mut seats = games::seats(c, &g.name)?;
    let st = standings(&v, c, &g, &pos, &seats)?;
    let (result, next) = play(&v, &pos, &orders);
    let missed = lifecycle::missed(trigger, g.settings.nmr, &st, |p| {
        !next.has_nothing(&v.map, p)
    });
    let (ended, deadline, away) = what_next(c, &g, &v, &pos, &next, now)?;
    let pr = PhaseReport {
        variant: &v,
        game: &g.name,
        before: &pos,
        orders: &orders,
        result: &result,
        after: &next,
        next_deadline: deadline.map(|d| super::time::show_deadline(d, &g.settings.timezone)),
        ended: ended.clone(),
        nmr: missed.shown.clone(),
    };
    let notes = Notes::of(
        c,
        &v,
        &g,
        &pos,
        &next,
        &seats,
        &missed,
        &away,
        ended.is_some(),
    )?;
    let disorder = if ended.is_some() {
        Vec::new()
    } else {
        in_disorder(&v, &next, &seats, &missed)
    };
    let texts = Texts::new(judge, &g, &pr, notes, disorder)?;
    let phase = games::NewHistory {
        phase: &v.calendar.short(pos.phase),
        kind: "phase",
        position: &g.position,
        orders: &orders_text(&v, &orders),
        report: &texts.public,
    };
    games::append_history(c, &g.name, &phase, now)?;
    let before = std::mem::replace(&mut g.position, super::stored(&v, &next)?);
    g.deadline = deadline;
    // After a retreat of hidden units only, the public phase goes on with
    // the clock the others have known all along: reminded and told they
    // were late once, not twice (1066 rule 5).
    if View::of(&v, &pos, Viewer::Public).sees_phase(&pos) {
        g.reminded = false;
        g.grace_noticed = false;
    }
    if let Some(e) = &ended {
        g.status = Status::Finished;
        g.result = Some(e.clone());
        tracing::info!(game = %g.name, result = %e, "game over");
    }
    games::save(c, &g)?;
    games::set_fault(c, &g.name, None, now)?;
    games::clear_orders(c, &g.name)?;
    // Orders sent ahead for the new phase become its orders (njudge's
    // PHASE, #33).
    super::later::bring_in(c, &v, &g, &pos, &next, ended.is_some(), out)?;
    next_seats(c, &g.name, &v, &next, &mut seats, &missed)?;
    tracing::info!(game = %g.name, phase = %v.calendar.short(pos.phase), ?trigger,
        deadline = ?g.deadline.map(|d| super::time::show(d, "UTC")), "phase processed");
    let kept = PhaseSource {
        variant: v.key(),
        before,
        orders: held,
        title: title(&pr),
        file: format!("{}-{}", g.name, v.calendar.short(pos.phase)),
    };
    send_results(judge, c, &g, &v, &pr, &texts, &seats, kept, now, out)?;
    if ended.is_none() {
        let told = lifecycle::disorder_notices(&missed.newly_disordered, deadline);
        tell(judge, c, &g, &v, &next, told, out)?;
    }
    Ok(ended.is_none())
}

/// What follows a played phase: how the game ended, or the next deadline
/// and the powers whose absence moved it.
type Next = (Option<String>, Option<i64>, Vec<PowerId>);

fn what_next(
    c: &Conn,
    g: &GameRow,
    v: &Variant,
    pos: &Position,
    next: &Position,
    now: i64,
) -> CmdResult<Next> {
    let ended = game_end(v, pos, next).or_else(|| {
        g.settings
            .last_year
            .and_then(|y| crate::game::end::after_last_year(v, y, next))
    });
    if ended.is_some() {
        return Ok((ended, None, Vec::new()));
    }
    // A retreat only hidden units make (1066 rule 5) is no phase for those
    // who may not see them: it takes the deadline the public phase after
    // it would have had, and that phase keeps it, so no deadline tells
    // the others that it was played (docs/variants.md, 1066). Kept even
    // when the retreat ran out its time: then the public phase is due at
    // once, as it would have been with nothing dislodged (`tick_game`).
    let public = |p: &Position| View::of(v, p, Viewer::Public).sees_phase(p);
    if !public(pos)
        && let Some(d) = g.deadline
    {
        return Ok((None, Some(d), Vec::new()));
    }
    let kind = if public(next) {
        next.phase.kind
    } else {
        v.calendar.next(next.phase).kind
    };
    let (d, away) = deadline_for(c, g, kind, now)?;
    Ok((None, Some(d), away))
}

/// The seats once a phase is played: readiness is per phase, powers left
/// with nothing are out, the newly silent in civil disorder.
fn next_seats(
    c: &Conn,
    game: &str,
    v: &Variant,
    next: &Position,
    seats: &mut [Seat],
    missed: &Missed,
) -> CmdResult {
    for seat in seats {
        let p = PowerId(seat.power);
        seat.ready = false;
        seat.status = lifecycle::seat_after(
            seat.status,
            next.has_nothing(&v.map, p),
            missed.newly_disordered.contains(&p),
        );
        games::save_seat(c, game, seat)?;
    }
    Ok(())
}

/// The powers in civil disorder once a phase is played: those it put in
/// it and those still in it, with something left to order.
fn in_disorder(v: &Variant, next: &Position, seats: &[Seat], missed: &Missed) -> Vec<PowerId> {
    v.map
        .power_ids()
        .filter(|p| {
            !next.has_nothing(&v.map, *p)
                && (missed.newly_disordered.contains(p)
                    || seats[p.index()].status == SeatStatus::Disorder)
        })
        .collect()
}

/// The lines results end with: who is in civil disorder, an absence that
/// moved the deadline, the end of the game.
struct Notes(String);

impl Notes {
    #[allow(clippy::too_many_arguments)]
    fn of(
        c: &Conn,
        v: &Variant,
        g: &GameRow,
        pos: &Position,
        next: &Position,
        seats: &[Seat],
        missed: &Missed,
        away: &[PowerId],
        ended: bool,
    ) -> CmdResult<Notes> {
        let mut t = String::new();
        if !ended {
            let in_disorder = in_disorder(v, next, seats, missed);
            t.push_str(&disorder_note(v, &in_disorder, &missed.newly_disordered));
        }
        if !away.is_empty() {
            let names: Vec<&str> = away.iter().map(|p| v.map.power(*p).name.as_str()).collect();
            t.push('\n');
            t.push_str(&crate::report::wrap(
                &format!(
                    "The deadline falls at the end of the absence announced by {}'s \
                     player, as the GM allows.",
                    names.join(" and ")
                ),
                72,
                "",
            ));
        }
        if ended {
            t.push_str(&super::ending::summary(c, v, g, Some(pos), next)?);
        }
        Ok(Notes(t))
    }
}

/// The results of a phase as text: the public one (kept in the history),
/// and how to make each reader's when the variant hides units.
struct Texts {
    public_viewer: Viewer,
    public: String,
    notes: String,
    /// The powers in civil disorder once the phase is played.
    disorder: Vec<PowerId>,
}

impl Texts {
    fn new(
        judge: &Judge,
        g: &GameRow,
        pr: &PhaseReport<'_>,
        notes: Notes,
        disorder: Vec<PowerId>,
    ) -> CmdResult<Texts> {
        let public_viewer = pr.variant.copy_for(Viewer::Public, Viewer::Gm);
        let mut t = Texts {
            public_viewer,
            public: String::new(),
            notes: notes.0,
            disorder,
        };
        t.public = t.render(judge, g, pr, public_viewer)?;
        Ok(t)
    }

    fn render(
        &self,
        judge: &Judge,
        g: &GameRow,
        pr: &PhaseReport<'_>,
        viewer: Viewer,
    ) -> CmdResult<String> {
        if viewer == self.public_viewer && !self.public.is_empty() {
            return Ok(self.public.clone());
        }
        let d = data_told(pr, &judge.name, viewer, &self.disorder);
        let text = judge
            .templates
            .results(g.settings.style, &d)
            .map_err(anyhow::Error::from)?;
        Ok(format!("{text}{}", self.notes))
    }
}

/// Mail the results of a played phase to every reader (each what they may
/// see, with the picture they chose, drawn when the mail is sent from the
/// phase kept once for all readers).
#[allow(clippy::too_many_arguments)]
fn send_results(
    judge: &Judge,
    c: &Conn,
    g: &GameRow,
    v: &Variant,
    pr: &PhaseReport<'_>,
    texts: &Texts,
    seats: &[Seat],
    kept: PhaseSource,
    now: i64,
    out: &mut Vec<Outgoing>,
) -> CmdResult {
    let default_format = judge.picture_format;
    let mut readers: Vec<(String, Viewer, crate::report::PictureFormat)> = seats
        .iter()
        .filter_map(|x| {
            let format = x
                .picture
                .as_deref()
                .and_then(crate::report::PictureFormat::parse)
                .unwrap_or(default_format);
            x.address
                .clone()
                .map(|a| (a, Viewer::Power(PowerId(x.power)), format))
        })
        .collect();
    readers.extend(
        games::observers(c, &g.name)?
            .into_iter()
            .map(|a| (a, Viewer::Public, default_format)),
    );
    readers.push((g.gm_address.clone(), Viewer::Gm, default_format));
    let mut source: Option<i64> = None;
    for (address, viewer, format) in readers {
        // A phase this reader may not know of (a retreat of hidden units
        // only, 1066 rule 5) sends them nothing.
        if !View::of(v, pr.before, viewer).sees_phase(pr.before) {
            continue;
        }
        let seen = v.copy_for(viewer, texts.public_viewer);
        let text = texts.render(judge, g, pr, seen)?;
        let later = if format == crate::report::PictureFormat::None {
            None
        } else {
            let id = match source {
                Some(id) => id,
                None => {
                    let bytes = serde_json::to_vec(&kept).map_err(anyhow::Error::from)?;
                    let id = crate::store::add_mail_source(c, PHASE_SOURCE, &bytes, now)?;
                    source = Some(id);
                    id
                }
            };
            Some(crate::mail::Later {
                source: id,
                spec: format!("{} {}", viewer_word(seen), format.as_str()),
            })
        };
        for mut m in mail_to(&[address], kept.title.clone(), text) {
            m.later = later.clone();
            out.push(m);
        }
    }
    Ok(())
}

/// Mail `notices` to whom each is for, in the words of their templates.
pub(crate) fn tell(
    judge: &Judge,
    c: &Conn,
    g: &GameRow,
    v: &Variant,
    pos: &Position,
    notices: Vec<(To, Notice)>,
    out: &mut Vec<Outgoing>,
) -> CmdResult {
    if notices.is_empty() {
        return Ok(());
    }
    let seats = games::seats(c, &g.name)?;
    let tz = g.settings.timezone.clone();
    let show = move |t: i64| super::time::show_deadline(t, &tz);
    let about = crate::report::notices::About {
        variant: v,
        game: &g.name,
        judge: &judge.name,
        phase: v.calendar.label(pos.phase),
        show: &show,
    };
    for (to, n) in notices {
        let (subject, body) = crate::report::notices::render(&judge.templates, &about, &n)
            .map_err(anyhow::Error::from)?;
        let addresses: Vec<String> = match to {
            To::Player(p) => seats
                .get(p.index())
                .and_then(|x| x.address.clone())
                .into_iter()
                .collect(),
            To::Gm => vec![g.gm_address.clone()],
            To::Everybody => {
                let mut all: Vec<String> = seats.iter().filter_map(|x| x.address.clone()).collect();
                all.extend(games::observers(c, &g.name)?);
                all.push(g.gm_address.clone());
                all
            }
        };
        out.extend(mail_to(&addresses, subject, body));
    }
    Ok(())
}

/// The lines the results of a phase end with while powers are in civil
/// disorder, so every reader sees who is not playing.
fn disorder_note(v: &Variant, all: &[PowerId], newly: &[PowerId]) -> String {
    if all.is_empty() {
        return String::new();
    }
    let names: Vec<String> = all
        .iter()
        .map(|p| {
            let name = v.map.power(*p).name.clone();
            if newly.contains(p) {
                format!("{name} (from this phase)")
            } else {
                name
            }
        })
        .collect();
    let (its, it) = if all.len() == 1 {
        ("Its", "it")
    } else {
        ("Their", "them")
    };
    format!(
        "\n{}",
        crate::report::wrap(
            &format!(
                "In civil disorder: {}. {its} units hold and the phase does not wait \
                 for {it}, until {} player sends orders again or the GM gives {it} to \
                 another player.",
                names.join(", "),
                if all.len() == 1 { "its" } else { "a" }
            ),
            72,
            "",
        )
    )
}

/// A power in civil disorder whose player sends orders again plays
/// again: it is waited for, its READY counts, and the others are told.
pub(crate) fn back_from_disorder(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    game: &str,
    power: PowerId,
) -> CmdResult {
    let g = super::load(s.tx, game)?;
    if g.status != Status::Active {
        return Ok(());
    }
    let mut seats = games::seats(s.tx, &g.name)?;
    let Some(seat) = seats.get_mut(power.index()) else {
        return Ok(());
    };
    if seat.status != SeatStatus::Disorder {
        return Ok(());
    }
    seat.status = SeatStatus::Playing;
    games::save_seat(s.tx, &g.name, seat)?;
    let (v, pos) = judge.board(&g)?;
    let name = v.map.power(power).name.clone();
    tracing::info!(game = %g.name, power = %name, "back from civil disorder");
    s.say(&format!(
        "{name} is no longer in civil disorder: the game waits for it again.\n"
    ));
    let mut mails = Vec::new();
    tell(
        judge,
        s.tx,
        &g,
        &v,
        &pos,
        vec![(To::Everybody, Notice::Back { power })],
        &mut mails,
    )?;
    // Everybody but the mail's author.
    let me = s.sender.from.email.clone();
    s.out.extend(
        mails
            .into_iter()
            .filter(|m| !m.to.iter().any(|a| a.email.eq_ignore_ascii_case(&me))),
    );
    Ok(())
}

/// The kind of [`crate::store::add_mail_source`] row a played phase is
/// kept as, for the pictures of its results.
const PHASE_SOURCE: &str = "phase";

/// A played phase as kept for the pictures of its results, drawn when the
/// mails are sent: the phase is played again from the position before it
/// and the orders (adjudication is a pure function of both), so a few KiB
/// stand for every reader's pictures.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct PhaseSource {
    /// The variant's key (`Variant::key`): the copy the game played,
    /// whatever happens to its file before the mail goes.
    variant: String,
    /// The position before the phase, stored form.
    before: String,
    /// Each power's orders, stored form.
    orders: Vec<(u8, Vec<String>)>,
    /// The picture's title (the results' subject).
    title: String,
    /// The attachments' file name, without extension.
    file: String,
}

/// The kind of [`crate::store::add_mail_source`] row a board is kept as,
/// for the map a start or a new player's mail carries.
const BOARD_SOURCE: &str = "board";

/// A board as kept for the maps of the mails that carry it, drawn when
/// they are sent: a start's mails to seven players cost the store one
/// position, not seven pictures (and the processing thread draws none).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct BoardSource {
    /// The variant's key (`Variant::key`): the copy the game plays,
    /// whatever happens to its file before the mail goes.
    variant: String,
    /// The position, stored form.
    position: String,
    /// The picture's title.
    title: String,
    /// The attachment's file name, without extension.
    file: String,
}

/// The board of `g` (at `pos`, its current position) as `viewer` may see
/// it, to be drawn when the mail is sent: the position is kept once, in
/// `source` (the first call of a batch of mails keeps it), for every mail
/// of the batch.
pub(crate) fn board_later(
    c: &Conn,
    v: &Variant,
    pos: &Position,
    g: &GameRow,
    viewer: Viewer,
    source: &mut Option<i64>,
    now: i64,
) -> CmdResult<crate::mail::Later> {
    let viewer = v.copy_for(viewer, Viewer::Public);
    let id = match *source {
        Some(id) => id,
        None => {
            let kept = BoardSource {
                variant: v.key(),
                position: g.position.clone(),
                title: format!("{}: {}", g.name, v.calendar.label(pos.phase)),
                file: format!("{}-{}", g.name, v.calendar.short(pos.phase)),
            };
            let bytes = serde_json::to_vec(&kept).map_err(anyhow::Error::from)?;
            let id = crate::store::add_mail_source(c, BOARD_SOURCE, &bytes, now)?;
            *source = Some(id);
            id
        }
    };
    Ok(crate::mail::Later {
        source: id,
        spec: format!("{} both", viewer_word(viewer)),
    })
}

/// The map of `pos` as `viewer` may see it, as a PNG (or the SVG, should
/// drawing fail).
pub(crate) fn board_picture(
    picture: &crate::report::picture::Picture<'_>,
    pos: &Position,
    title: &str,
    file: &str,
    viewer: Viewer,
) -> crate::mail::Attached {
    match picture.board_png(pos, &pos.dislodged, title, viewer) {
        Ok(png) => crate::mail::Attached {
            name: format!("{file}.png"),
            mime: "image/png".into(),
            bytes: png,
        },
        Err(e) => {
            tracing::warn!("cannot draw the map of {file}: {e}");
            crate::mail::Attached {
                name: format!("{file}.svg"),
                mime: "image/svg+xml".into(),
                bytes: picture
                    .board_svg(pos, &pos.dislodged, title, viewer)
                    .into_bytes(),
            }
        }
    }
}

/// Draw `viewer`'s map of the board kept as `data` (a [`BoardSource`]).
fn draw_board(
    judge: &mut Judge,
    data: &[u8],
    viewer: Viewer,
    drawn: &mut Pictures,
) -> anyhow::Result<Vec<crate::mail::Attached>> {
    let kept: BoardSource = serde_json::from_slice(data)?;
    let v = judge.variant(&kept.variant).map_err(fault)?;
    let pos = Position::from_toml(&v, &kept.position)
        .map_err(|e| anyhow::anyhow!("the position kept for a queued mail's map is broken: {e}"))?;
    let picture = judge.picture(&v);
    let all = vec![board_picture(
        &picture,
        &pos,
        &kept.title,
        &kept.file,
        viewer,
    )];
    drawn.by_viewer.push((viewer, all.clone()));
    Ok(all)
}

/// A reader's view, as a word of a [`crate::mail::Later`] spec.
fn viewer_word(v: Viewer) -> String {
    match v {
        Viewer::Gm => "gm".into(),
        Viewer::Public => "public".into(),
        Viewer::Power(p) => format!("power:{}", p.0),
    }
}

fn viewer_of(word: &str) -> Option<Viewer> {
    match word {
        "gm" => Some(Viewer::Gm),
        "public" => Some(Viewer::Public),
        w => w
            .strip_prefix("power:")
            .and_then(|n| n.parse().ok())
            .map(|n| Viewer::Power(PowerId(n))),
    }
}

/// The pictures of a queued results mail, drawn now from the phase kept
/// for it; each distinct view of a phase is drawn once however many
/// readers share it.
pub(crate) fn parts(
    judge: &mut Judge,
    c: &Conn,
    later: &crate::mail::Later,
) -> anyhow::Result<Vec<crate::mail::Attached>> {
    let (word, format) = later.spec.split_once(' ').unwrap_or((&later.spec, "both"));
    let viewer =
        viewer_of(word).ok_or_else(|| anyhow::anyhow!("unknown view `{word}` of a queued mail"))?;
    let format = crate::report::PictureFormat::parse(format)
        .ok_or_else(|| anyhow::anyhow!("unknown picture `{format}` of a queued mail"))?;
    if format == crate::report::PictureFormat::None {
        return Ok(Vec::new());
    }
    let mut drawn = match judge
        .drawn
        .recent
        .iter()
        .position(|(id, _)| *id == later.source)
    {
        Some(i) => judge
            .drawn
            .recent
            .remove(i)
            .map_or_else(Pictures::default, |(_, p)| p),
        None => Pictures::default(),
    };
    let all = match drawn.by_viewer.iter().find(|(w, _)| *w == viewer) {
        Some((_, all)) => Ok(all.clone()),
        None => draw_kept(judge, c, later.source, viewer, &mut drawn),
    };
    judge.drawn.recent.push_front((later.source, drawn));
    judge.drawn.recent.truncate(DRAWN_PHASES);
    Ok(chosen(all?, format))
}

/// Draw `viewer`'s pictures of the phase (or the board) kept as `source`.
fn draw_kept(
    judge: &mut Judge,
    c: &Conn,
    source: i64,
    viewer: Viewer,
    drawn: &mut Pictures,
) -> anyhow::Result<Vec<crate::mail::Attached>> {
    let Some((kind, data)) = crate::store::mail_source(c, source)? else {
        anyhow::bail!("the phase of a queued mail's pictures is gone");
    };
    if kind == BOARD_SOURCE {
        return draw_board(judge, &data, viewer, drawn);
    }
    anyhow::ensure!(
        kind == PHASE_SOURCE,
        "a queued mail's pictures come from a `{kind}`"
    );
    let kept: PhaseSource = serde_json::from_slice(&data)?;
    let v = judge.variant(&kept.variant).map_err(fault)?;
    let before = Position::from_toml(&v, &kept.before).map_err(|e| {
        anyhow::anyhow!("the position kept for a queued mail's pictures is broken: {e}")
    })?;
    let (orders, nmr) = orders_of(&v, &before, &kept.orders);
    let (result, after) = play(&v, &before, &orders);
    let pr = PhaseReport {
        variant: &v,
        game: "",
        before: &before,
        orders: &orders,
        result: &result,
        after: &after,
        next_deadline: None,
        ended: None,
        nmr,
    };
    let picture = judge.picture(&v);
    Ok(pictures(
        &picture,
        &pr,
        &kept.title,
        &kept.file,
        viewer,
        crate::report::PictureFormat::Both,
        drawn,
    ))
}

/// The pictures `format` asks for, of those drawn.
fn chosen(
    all: Vec<crate::mail::Attached>,
    format: crate::report::PictureFormat,
) -> Vec<crate::mail::Attached> {
    all.into_iter()
        .filter(|a| {
            if a.mime == "image/png" {
                format.png()
            } else {
                format.svg()
            }
        })
        .collect()
}

/// The board after a played phase, with its orders, as `viewer` may see
/// it, attached as `format` says (`file` is the name without extension).
/// Each distinct view is drawn once, however many readers share it.
pub(crate) fn pictures(
    picture: &crate::report::picture::Picture<'_>,
    r: &PhaseReport<'_>,
    title: &str,
    file: &str,
    viewer: Viewer,
    format: crate::report::PictureFormat,
    drawn: &mut Pictures,
) -> Vec<crate::mail::Attached> {
    if format == crate::report::PictureFormat::None {
        return Vec::new();
    }
    let all = match drawn.by_viewer.iter().find(|(w, _)| *w == viewer) {
        Some((_, all)) => all.clone(),
        None => {
            let svg = picture.phase_svg(r, title, viewer);
            let png = match drawn.by_svg.iter().find(|(s, _)| *s == svg) {
                Some((_, png)) => Some(png.clone()),
                None => match picture.phase_png(r, title, viewer) {
                    Ok(png) => {
                        drawn.by_svg.push((svg.clone(), png.clone()));
                        Some(png)
                    }
                    Err(e) => {
                        tracing::warn!("cannot draw the picture of {file}: {e}");
                        None
                    }
                },
            };
            let mut all = Vec::new();
            if let Some(png) = png {
                all.push(crate::mail::Attached {
                    name: format!("{file}.png"),
                    mime: "image/png".into(),
                    bytes: png,
                });
            }
            all.push(crate::mail::Attached {
                name: format!("{file}.svg"),
                mime: "image/svg+xml".into(),
                bytes: svg.into_bytes(),
            });
            drawn.by_viewer.push((viewer, all.clone()));
            all
        }
    };
    chosen(all, format)
}

/// The results the current orders would give, changing nothing.
pub(crate) fn preview(judge: &mut Judge, c: &Conn, game: &str) -> CmdResult<String> {
    let g = super::load(c, game)?;
    let (v, pos) = judge.board(&g)?;
    let (orders, silent) = phase_orders(&v, c, &g.name, &pos)?;
    let (result, next) = play(&v, &pos, &orders);
    let d = data(
        &PhaseReport {
            variant: &v,
            game: &g.name,
            before: &pos,
            orders: &orders,
            result: &result,
            after: &next,
            next_deadline: None,
            ended: game_end(&v, &pos, &next),
            nmr: silent,
        },
        &judge.name,
    );
    Ok(judge
        .templates
        .results(g.settings.style, &d)
        .map_err(anyhow::Error::from)?)
}

/// Process now if the phase waits for nobody: every playing power with
/// something to order is ready (complete orders unless WAIT, or READY as
/// the GM chose). Asked once a mail is done, for every game whose orders
/// or readiness it changed, so that later lines of the mail (WAIT, more
/// orders) count.
pub(crate) fn process_if_all_ready(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    game: &str,
) -> CmdResult {
    if !goes_now(judge, s.tx, game)? {
        return Ok(());
    }
    process(judge, s.tx, game, s.now, Trigger::AllReady, &mut s.out)?;
    let g = super::load(s.tx, game)?;
    s.say(&format!(
        "Every player in {} is ready: the phase has been processed, and the \
         results are on their way.",
        g.name
    ));
    Ok(())
}

/// A command's error as the clock's: the clock has nobody to refuse, so a
/// refusal is a fault too.
fn fault(e: super::error::CmdError) -> anyhow::Error {
    match e {
        super::error::CmdError::Refused(t) => anyhow::anyhow!(t),
        super::error::CmdError::Fault(e) => e,
    }
}

/// The longest reminder window looked ahead for.
const LOOK_AHEAD: i64 = 14 * 86400;

/// Games whose clock has work at `now`: past their deadline (grace or
/// processing), or in their reminder window and not yet reminded. A game
/// set aside after a fault is tried again after an hour.
pub(crate) fn due(c: &Conn, now: i64) -> anyhow::Result<Vec<String>> {
    let mut out = Vec::new();
    for (name, deadline) in games::with_deadline_before(c, now + LOOK_AHEAD, now - 3600)? {
        let due = now >= deadline || {
            let Some(g) = games::load(c, &name)? else {
                continue;
            };
            !g.reminded
                && g.settings.reminder_minutes > 0
                && now >= deadline - i64::from(g.settings.reminder_minutes) * 60
        };
        if due {
            out.push(name);
        }
    }
    Ok(out)
}

/// A game's clock work failed: set it aside (it stays at its last good
/// phase) and tell its GM, once.
pub(crate) fn set_aside(
    judge: &Judge,
    c: &Conn,
    game: &str,
    cause: &str,
    now: i64,
) -> anyhow::Result<Vec<Outgoing>> {
    let Some(g) = games::load(c, game)? else {
        return Ok(Vec::new());
    };
    let first = games::fault(c, game)?.is_none();
    games::set_fault(c, game, Some(cause), now)?;
    if !first {
        return Ok(Vec::new());
    }
    let ctx = serde_json::json!({"game": g.name, "judge": judge.name});
    let (subject, body) = judge.templates.mail("notice-set-aside.txt", &ctx)?;
    Ok(mail_to(&[&g.gm_address], subject, body))
}

/// The clock's work for one game: reminders, grace periods, adjudication
/// at the deadline, as [`lifecycle::work`] decides.
pub(crate) fn tick_game(
    judge: &mut Judge,
    c: &Conn,
    name: &str,
    now: i64,
) -> anyhow::Result<Vec<Outgoing>> {
    let mut out = Vec::new();
    let Some(mut g) = games::load(c, name)? else {
        return Ok(out);
    };
    let Some(deadline) = g.deadline else {
        return Ok(out);
    };
    let (v, pos) = judge.board(&g).map_err(fault)?;
    let seats = games::seats(c, &g.name)?;
    let owing = owing(&v, c, &g, &pos, &seats)?;
    let late: Vec<PowerId> = owing.iter().map(|o| o.power).collect();
    let shown_is_played = View::of(&v, &pos, Viewer::Public).sees_phase(&pos);
    let told = match lifecycle::work(now, &clock(&v, &pos, &g, deadline), !late.is_empty()) {
        Work::Nothing => return Ok(out),
        Work::Process => {
            process(judge, c, &g.name, now, Trigger::Deadline, &mut out).map_err(fault)?;
            // A retreat of hidden units only played at the deadline leaves
            // the public phase after it due at the same moment (it kept the
            // deadline, see `what_next`): played now, in this tick, as in a
            // game where nothing was dislodged (1066 rule 5).
            if !shown_is_played {
                out.extend(tick_game(judge, c, name, now)?);
            }
            return Ok(out);
        }
        Work::Grace { until } => {
            g.grace_noticed = true;
            lifecycle::late_notices(&late, until, g.settings.nmr)
        }
        Work::Remind => {
            g.reminded = true;
            owing
                .iter()
                .map(|o| {
                    (
                        To::Player(o.power),
                        Notice::Reminder {
                            power: o.power,
                            deadline,
                            missing: o.missing.clone(),
                        },
                    )
                })
                .collect()
        }
    };
    games::save(c, &g)?;
    tracing::info!(game = %g.name, notices = told.len(), "clock notices");
    // Each player is told of the phase it plays: during a retreat of
    // hidden units only, the others of the phase after it (1066 rule 5).
    let (mine, theirs): (Vec<_>, Vec<_>) = told.into_iter().partition(|(to, _)| match to {
        To::Player(p) => owing.iter().all(|o| o.power != *p || o.board.is_none()),
        _ => true,
    });
    tell(judge, c, &g, &v, &pos, mine, &mut out).map_err(fault)?;
    for (to, n) in theirs {
        let board = match &to {
            To::Player(p) => owing.iter().find(|o| o.power == *p),
            _ => None,
        }
        .and_then(|o| o.board.as_ref())
        .unwrap_or(&pos);
        tell(judge, c, &g, &v, board, vec![(to, n)], &mut out).map_err(fault)?;
    }
    Ok(out)
}

/// The game's clock for [`lifecycle::work`]. The deadline is the phase's
/// every player is told of (a retreat of hidden units only takes the next
/// phase's, see `what_next`), and so is the reminder's window.
fn clock(v: &Variant, pos: &Position, g: &GameRow, deadline: i64) -> lifecycle::Clock {
    let shown = View::of(v, pos, Viewer::Public).phase_shown(pos);
    lifecycle::Clock {
        deadline,
        grace_minutes: g.settings.grace_minutes,
        reminder_minutes: g.settings.reminder_minutes,
        phase_minutes: lifecycle::phase_minutes(&g.settings, shown.kind),
        reminded: g.reminded,
        grace_noticed: g.grace_noticed,
    }
}

/// The reminders the clock would send `game` at `now`: each owing
/// player's address, power and missing orders, when a mail of the GM's
/// has just put the game in its reminder window. The game is marked
/// reminded: the caller says it in the mail that tells the players of
/// the change, so that one GM mail makes one mail to each (issue #51),
/// not a notice and then the clock's reminder a moment later.
pub(crate) fn reminders_due(
    judge: &mut Judge,
    c: &Conn,
    game: &str,
    now: i64,
) -> anyhow::Result<Vec<(String, String, Vec<String>)>> {
    let Some(mut g) = games::load(c, game)? else {
        return Ok(Vec::new());
    };
    let Some(deadline) = g.deadline.filter(|_| g.status == Status::Active) else {
        return Ok(Vec::new());
    };
    let (v, pos) = judge.board(&g).map_err(fault)?;
    let seats = games::seats(c, &g.name)?;
    let owing = owing(&v, c, &g, &pos, &seats)?;
    if lifecycle::work(now, &clock(&v, &pos, &g, deadline), !owing.is_empty()) != Work::Remind {
        return Ok(Vec::new());
    }
    g.reminded = true;
    games::save(c, &g)?;
    Ok(owing
        .into_iter()
        .filter_map(|o| {
            let address = seats.get(o.power.index())?.address.clone()?;
            Some((address, v.map.power(o.power).name.clone(), o.missing))
        })
        .collect())
}

/// A playing power that still owes orders, as the clock tells it.
struct Owing {
    power: PowerId,
    /// What it has still to order.
    missing: Vec<String>,
    /// The board it plays on when that is not the game's own (a retreat
    /// of hidden units only, 1066 rule 5: the phase after it).
    board: Option<Position>,
}

/// The playing powers whose orders are incomplete, each on the board it
/// plays: while a retreat of hidden units only goes on, the others owe
/// their orders for the phase they are told the game is in (1066 rule 5:
/// the hidden units' place is "known only by this player and the GM"),
/// and are reminded of them, and told they are late, as they would be
/// were no retreat going on; the hidden units' player owes the retreat.
fn owing(
    v: &Variant,
    c: &Conn,
    g: &GameRow,
    pos: &Position,
    seats: &[Seat],
) -> anyhow::Result<Vec<Owing>> {
    let mut out = Vec::new();
    for seat in seats.iter().filter(|s| s.status == SeatStatus::Playing) {
        let p = PowerId(seat.power);
        let (board, ahead) = super::held::played(v, pos.clone(), p);
        let held = match ahead {
            Some(phase) => super::held::kept_for(c, v, &g.name, p, phase).map_err(fault)?,
            None => stored(v, &games::orders(c, &g.name, p.0)?),
        };
        if !has_choices(v, &board, p) {
            continue;
        }
        let missing = missing(v, &board, p, &held);
        if !missing.is_empty() {
            out.push(Owing {
                power: p,
                missing,
                board: ahead.map(|_| board),
            });
        }
    }
    Ok(out)
}
