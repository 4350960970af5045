//! Playing a game's phases: adjudication at the deadline (or earlier when
//! every player is ready), results to everyone, reminders, grace periods,
//! rollbacks.

use super::error::CmdResult;
use super::submit::{has_choices, missing, stored};
use super::{Judge, Session, mail_to};
use crate::game::Position;
use crate::game::record::{Nmr, SeatStatus, Settings, Status};
use crate::game::step::{PhaseOrders, play};
use crate::mail::Outgoing;
use crate::map::PowerId;
use crate::orders::{AdjustOrder, AnyCommand, Order, format_order};
use crate::report::{PhaseReport, data, data_for, title};
use crate::store::Conn;
use crate::store::games;
use crate::variant::features::Viewer;
use crate::variant::{PhaseKind, Variant};
use std::fmt::Write;

/// The deadline of a phase of `kind` starting at `now`.
pub(crate) fn next_deadline(s: &Settings, kind: PhaseKind, now: i64) -> i64 {
    let minutes = match kind {
        PhaseKind::Movement => s.movement_minutes,
        _ => s.short_minutes,
    };
    super::time::after_minutes(now, minutes.max(1))
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
    let mut main = Vec::new();
    let mut retreats = Vec::new();
    let mut adjust = Vec::new();
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
            match h {
                AnyCommand::Main(unit, command) => main.push(Order {
                    power: pw,
                    unit,
                    command,
                }),
                AnyCommand::Retreat(unit, command) => retreats.push(Order {
                    power: pw,
                    unit,
                    command,
                }),
                AnyCommand::Adjust(command) => adjust.push(AdjustOrder { power: pw, command }),
            }
        }
    }
    let o = match pos.phase.kind {
        // A yearly order sheet (1700 AD II) holds all three.
        PhaseKind::Movement if v.calendar.turn == crate::variant::Turn::Impulses => {
            PhaseOrders::Turn {
                moves: main,
                retreats,
                adjust,
            }
        }
        PhaseKind::Movement => PhaseOrders::Movement(main),
        PhaseKind::Retreat => PhaseOrders::Retreat(retreats),
        PhaseKind::Adjustment | PhaseKind::Placement => PhaseOrders::Adjustment(adjust),
    };
    (o, silent)
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
            lines.extend(main(moves));
            lines.extend(retreat(retreats));
            lines.extend(adjust(builds));
        }
    }
    let mut s = String::new();
    for (p, c) in lines {
        let _ = writeln!(s, "{}: {}", name(p), format_order(&v.map, &c));
    }
    s
}

use crate::game::end::game_end;

/// Adjudicate the current phase of `game` and queue the results. Returns
/// whether the game goes on.
pub(crate) fn process(
    judge: &mut Judge,
    c: &Conn,
    game: &str,
    now: i64,
    out: &mut Vec<Outgoing>,
) -> CmdResult<bool> {
    let mut g = super::load(c, game)?;
    let (v, pos) = judge.board(&g)?;
    let held = held_lines(&v, c, &g.name)?;
    let (orders, silent) = orders_of(&v, &pos, &held);
    let mut seats = games::seats(c, &g.name)?;
    // A player who said READY with no orders chose to hold: not an NMR.
    let nmr: Vec<PowerId> = silent
        .iter()
        .copied()
        .filter(|p| seats[p.index()].status == SeatStatus::Playing && !seats[p.index()].ready)
        .collect();
    // Powers already in civil disorder sent nothing either: the results
    // list them among those that sent no orders, as every judge does.
    let shown_nmr: Vec<PowerId> = silent
        .iter()
        .copied()
        .filter(|p| nmr.contains(p) || seats[p.index()].status == SeatStatus::Disorder)
        .collect();
    let (result, next) = play(&v, &pos, &orders);
    // With `SET NMR CD`, a playing power that sent nothing goes into civil
    // disorder now; one already there stays until its player sends orders.
    let newly_disordered: Vec<PowerId> = if g.settings.nmr == Nmr::CivilDisorder {
        nmr.iter()
            .copied()
            .filter(|p| !next.has_nothing(&v.map, *p))
            .collect()
    } else {
        Vec::new()
    };
    let in_disorder: Vec<PowerId> = v
        .map
        .power_ids()
        .filter(|p| {
            !next.has_nothing(&v.map, *p)
                && (newly_disordered.contains(p) || seats[p.index()].status == SeatStatus::Disorder)
        })
        .collect();
    let ended = game_end(&v, &pos, &next).or_else(|| {
        g.settings
            .last_year
            .and_then(|y| crate::game::end::after_last_year(&v, y, &next))
    });
    let next_deadline = if ended.is_none() {
        Some(next_deadline(&g.settings, next.phase.kind, now))
    } else {
        None
    };
    // An announced absence may move it, as the GM allows.
    let (next_deadline, away) = match next_deadline {
        Some(d) => {
            let (at, who) = super::cmd::absence::extended(c, &g, d)?;
            (Some(at), who)
        }
        None => (None, Vec::new()),
    };
    let pr = PhaseReport {
        variant: &v,
        game: &g.name,
        before: &pos,
        orders: &orders,
        result: &result,
        after: &next,
        next_deadline: next_deadline.map(|d| super::time::show(d, &g.settings.timezone)),
        ended: ended.clone(),
        nmr: shown_nmr,
    };
    let subject = title(&pr);
    let away_note = if away.is_empty() {
        String::new()
    } else {
        let names: Vec<&str> = away.iter().map(|p| v.map.power(*p).name.as_str()).collect();
        format!(
            "\n{}",
            crate::report::wrap(
                &format!(
                    "The deadline falls at the end of the absence announced by {}'s \
                     player, as the GM allows.",
                    names.join(" and ")
                ),
                72,
                "",
            )
        )
    };
    let end_note = match &ended {
        Some(_) => super::ending::summary(c, &v, &g, Some(&pos), &next)?,
        None => String::new(),
    };
    let disorder_note = if ended.is_none() {
        disorder_note(&v, &in_disorder, &newly_disordered)
    } else {
        String::new()
    };
    // What each reader may see: one text for all, unless the variant hides
    // units, when each power, the observers and the GM get their own. The
    // pictures are drawn when the mails are sent (see [`parts`]), each
    // distinct one once, from the phase kept here once for all readers.
    let default_format = judge.picture_format;
    let file = format!("{}-{}", g.name, v.calendar.short(pos.phase));
    let mut source: Option<i64> = None;
    let render = |viewer: Viewer| -> CmdResult<String> {
        let d = data_for(&pr, &judge.name, viewer);
        let text = judge
            .templates
            .results(g.settings.style, &d)
            .map_err(anyhow::Error::from)?;
        Ok(format!("{text}{disorder_note}{away_note}{end_note}"))
    };
    let public = if v.features.hides_anything() {
        Viewer::Public
    } else {
        Viewer::Gm
    };
    let report = render(public)?;
    games::append_history(
        c,
        &g.name,
        &games::NewHistory {
            phase: &v.calendar.short(pos.phase),
            kind: "phase",
            position: &g.position,
            orders: &orders_text(&v, &orders),
            report: &report,
        },
        now,
    )?;
    let g_position_before = std::mem::replace(&mut g.position, super::stored(&v, &next)?);
    g.deadline = next_deadline;
    g.reminded = false;
    g.grace_noticed = false;
    if let Some(e) = &ended {
        g.status = Status::Finished;
        g.result = Some(e.clone());
        tracing::info!(game = %g.name, result = %e, "game over");
    }
    games::save(c, &g)?;
    games::set_fault(c, &g.name, None, now)?;
    games::clear_orders(c, &g.name)?;
    // Orders sent ahead for the new phase become its orders (njforms, #33).
    super::later::bring_in(c, &v, &g, &next, ended.is_some(), out)?;
    // New phase: readiness is per phase; powers with nothing left are out.
    for seat in &mut seats {
        seat.ready = false;
        let p = PowerId(seat.power);
        if seat.status == SeatStatus::NotInGame {
            // Left out when the game was made: stays out.
        } else if next.has_nothing(&v.map, p) {
            seat.status = SeatStatus::Eliminated;
        } else if newly_disordered.contains(&p) {
            seat.status = SeatStatus::Disorder;
        }
        games::save_seat(c, &g.name, seat)?;
    }
    tracing::info!(
        game = %g.name,
        phase = %v.calendar.short(pos.phase),
        deadline = ?g.deadline.map(|d| super::time::show(d, "UTC")),
        "phase processed"
    );
    // Each reader, what they may see, and the picture they chose.
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
    for (address, viewer, format) in readers {
        let seen = if v.features.hides_anything() {
            viewer
        } else {
            public
        };
        let text = if seen == public {
            report.clone()
        } else {
            render(viewer)?
        };
        let later = if format == crate::report::PictureFormat::None {
            None
        } else {
            let id = match source {
                Some(id) => id,
                None => {
                    let kept = PhaseSource {
                        variant: v.name.clone(),
                        before: g_position_before.clone(),
                        orders: held.clone(),
                        title: subject.clone(),
                        file: file.clone(),
                    };
                    let id = crate::store::add_mail_source(
                        c,
                        PHASE_SOURCE,
                        &serde_json::to_vec(&kept).map_err(anyhow::Error::from)?,
                        now,
                    )?;
                    source = Some(id);
                    id
                }
            };
            Some(crate::mail::Later {
                source: id,
                spec: format!("{} {}", viewer_word(seen), format.as_str()),
            })
        };
        for mut m in mail_to(&[address], subject.clone(), text) {
            m.later = later.clone();
            out.push(m);
        }
    }
    if !newly_disordered.is_empty() {
        let names: Vec<&str> = newly_disordered
            .iter()
            .map(|p| v.map.power(*p).name.as_str())
            .collect();
        tracing::info!(game = %g.name, powers = %names.join(", "), "civil disorder");
        out.extend(mail_to(
            &[&g.gm_address],
            format!("{}: no orders from {}", g.name, names.join(", ")),
            crate::report::wrap(
                &format!(
                    "No orders came from {} this phase; they are in civil disorder:                      their units hold and nobody waits for them. LIST {} shows it. A                      player who sends orders again takes the power back; otherwise                      EJECT and REPLACE seat a new player.",
                    names.join(", "),
                    g.name
                ),
                72,
                "",
            ),
        ));
        let shown = next_deadline.map(|d| super::time::show(d, &g.settings.timezone));
        for p in &newly_disordered {
            let Some(address) = seats[p.index()].address.clone() else {
                continue;
            };
            out.extend(mail_to(
                &[address],
                format!("{}: {} is in civil disorder", g.name, v.map.power(*p).name),
                disorder_notice(&v, &g.name, *p, shown.as_deref()),
            ));
        }
    }
    Ok(ended.is_none())
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
    format!(
        "\n{}",
        crate::report::wrap(
            &format!(
                "In civil disorder: {}. Its units hold and the phase does not wait \
                 for it, until its player sends orders again or the GM gives it to \
                 another player.",
                names.join(", ")
            ),
            72,
            "",
        )
    )
}

/// The mail to the player of a power that has just gone into civil
/// disorder: what that means and how to come back.
fn disorder_notice(v: &Variant, game: &str, p: PowerId, deadline: Option<&str>) -> String {
    let name = &v.map.power(p).name;
    let mut t = crate::report::wrap(
        &format!(
            "No orders came from {name} in {game} by the deadline, so {name} is now in \
             civil disorder: its units hold, it waives its builds, and the game no \
             longer waits for it (READY alone does not count)."
        ),
        72,
        "",
    );
    t.push('\n');
    t.push_str(&crate::report::wrap(
        &format!(
            "To take {name} back, sign on and send orders for the current phase{}:",
            deadline.map_or(String::new(), |d| format!(" (deadline {d})"))
        ),
        72,
        "",
    ));
    t.push_str(&format!(
        "\n  SIGNON {} {game} <your password>\n  <your orders>\n\n",
        v.map.power(p).name
    ));
    t.push_str("Until then, the GM may give the power to another player.\n");
    t
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
    let v = judge.variant(&g.variant)?;
    let name = v.map.power(power).name.clone();
    tracing::info!(game = %g.name, power = %name, "back from civil disorder");
    s.say(&format!(
        "{name} is no longer in civil disorder: the game waits for it again.\n"
    ));
    super::notify_all(
        s,
        &g,
        &format!("{name} is back"),
        &crate::report::wrap(
            &format!(
                "{name}'s player has sent orders again: {name} is no longer in civil \
                 disorder in {}.",
                g.name
            ),
            72,
            "",
        ),
    )
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
    /// The variant's name.
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

/// Phases whose pictures were drawn lately, kept while their readers'
/// mails are being sent (they are queued together).
#[derive(Default)]
pub(crate) struct Drawn {
    recent: std::collections::VecDeque<(i64, Pictures)>,
}

/// How many phases' pictures [`Drawn`] keeps.
const DRAWN_PHASES: usize = 4;

impl Drawn {
    /// Forget them all (the outbox is empty).
    pub(crate) fn clear(&mut self) {
        self.recent = Default::default();
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

/// Draw `viewer`'s pictures of the phase kept as `source`.
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

/// Pictures already drawn for a phase: by reader, and by drawing, so that
/// readers who may see the same (every player, when nothing is hidden)
/// share one rasterised PNG.
#[derive(Default)]
pub(crate) struct Pictures {
    by_viewer: Vec<(Viewer, Vec<crate::mail::Attached>)>,
    by_svg: Vec<(String, Vec<u8>)>,
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
                None => match crate::report::picture::png(&svg) {
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

/// Process now if every playing power with a choice is ready.
pub(crate) fn process_if_all_ready(
    judge: &mut Judge,
    s: &mut Session<'_, '_>,
    game: &str,
) -> CmdResult {
    let g = super::load(s.tx, game)?;
    if g.status != Status::Active {
        return Ok(());
    }
    let (v, pos) = judge.board(&g)?;
    let seats = games::seats(s.tx, &g.name)?;
    let waiting = seats.iter().any(|seat| {
        seat.status == SeatStatus::Playing
            && has_choices(&v, &pos, PowerId(seat.power))
            && !seat.ready
    });
    if !waiting {
        process(judge, s.tx, &g.name, s.now, &mut s.out)?;
        s.say("  Every player is ready: the phase has been processed.");
    }
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
    Ok(mail_to(
        &[&g.gm_address],
        format!("{game}: the judge could not process this game"),
        crate::report::wrap(
            &format!(
                "The judge met an internal error while working on {game} at its deadline. \
                 The game stays at its last good phase; nothing was lost, and the other \
                 games go on. The judge's keeper has the details in the log. The judge \
                 tries again every hour; ROLLBACK or EDIT by the GM also clears it."
            ),
            72,
            "",
        ),
    ))
}

/// The clock's work for one game: reminders, grace periods, adjudication
/// at the deadline.
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
    let mut late = Vec::new();
    for seat in seats.iter().filter(|x| x.status == SeatStatus::Playing) {
        let p = PowerId(seat.power);
        let held = stored(&v, &games::orders(c, &g.name, p.0)?);
        if !missing(&v, &pos, p, &held).is_empty() {
            late.push(seat.clone());
        }
    }
    let grace_end = deadline + i64::from(g.settings.grace_minutes) * 60;
    if now >= deadline && (late.is_empty() || now >= grace_end) {
        process(judge, c, &g.name, now, &mut out).map_err(fault)?;
        return Ok(out);
    }
    if now >= deadline {
        if !g.grace_noticed {
            let shown = super::time::show(grace_end, &g.settings.timezone);
            for seat in &late {
                if let Some(a) = &seat.address {
                    out.extend(mail_to(
                        &[a.as_str()],
                        format!("{}: your orders are late", g.name),
                        crate::report::wrap(
                            &format!(
                                "The deadline of {} in {} has passed and your orders for {} \
                                 are incomplete. Orders are still taken until {shown}; after \
                                 that, units without orders hold.",
                                v.calendar.label(pos.phase),
                                g.name,
                                v.map.power(PowerId(seat.power)).name
                            ),
                            72,
                            "",
                        ),
                    ));
                }
            }
            let names: Vec<&str> = late
                .iter()
                .map(|x| v.map.power(PowerId(x.power)).name.as_str())
                .collect();
            out.extend(mail_to(
                &[&g.gm_address],
                format!("{}: late powers", g.name),
                crate::report::wrap(
                    &format!(
                        "The deadline has passed; still missing orders: {}. Grace until {shown}.",
                        names.join(", ")
                    ),
                    72,
                    "",
                ),
            ));
            tracing::info!(game = %g.name, late = %names.join(", "), "late notices sent");
            g.grace_noticed = true;
            games::save(c, &g)?;
        }
        return Ok(out);
    }
    // Never more than half the phase ahead: a short phase is not
    // reminded the moment it opens.
    let phase_minutes = match pos.phase.kind {
        crate::variant::PhaseKind::Movement => g.settings.movement_minutes,
        _ => g.settings.short_minutes,
    };
    let lead = g.settings.reminder_minutes.min(phase_minutes / 2);
    let remind_at = deadline - i64::from(lead) * 60;
    if g.settings.reminder_minutes > 0 && !g.reminded && now >= remind_at {
        let shown = super::time::show(deadline, &g.settings.timezone);
        for seat in &late {
            if let Some(a) = &seat.address {
                let p = PowerId(seat.power);
                let held = stored(&v, &games::orders(c, &g.name, p.0)?);
                let miss = missing(&v, &pos, p, &held);
                out.extend(mail_to(
                    &[a.as_str()],
                    format!("{}: orders due {shown}", g.name),
                    crate::report::wrap(
                        &format!(
                            "Reminder: the deadline of {} in {} is {shown}. Still missing for {}: {}.",
                            v.calendar.label(pos.phase),
                            g.name,
                            v.map.power(p).name,
                            miss.join(", ")
                        ),
                        72,
                        "",
                    ),
                ));
            }
        }
        tracing::info!(game = %g.name, powers = late.len(), "reminders sent");
        g.reminded = true;
        games::save(c, &g)?;
    }
    Ok(out)
}
