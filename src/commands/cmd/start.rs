//! START: the GM starts a game before every power is taken; and the start
//! itself, however it comes: the powers given by preference, the first
//! deadline by the game clock, and a start mail to each player saying
//! which power is theirs, with the board and the map.

use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Ctx, Judge, Session, load, mail_to, play, time};
use crate::game::Position;
use crate::game::lifecycle;
use crate::game::record::{Assignment, Seat, SeatStatus, Status};
use crate::map::PowerId;
use crate::store::games::{self, GameRow};
use crate::variant::Variant;
use crate::variant::features::Viewer;

/// START.
pub(crate) struct Start;

impl Command for Start {
    const SPEC: Spec = Spec::new(
        "START",
        "START",
        "Start the game now; open powers are in civil disorder.",
    );
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        args.none(&Self::SPEC).map(|_| Start)
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let mut g = load(s.tx, &game)?;
        if g.status != Status::Forming {
            return Err(format!("{game} has already started").into());
        }
        start_game(judge, s, &mut g)
    }
}

/// Give the powers of `g` by the players' preference lists: every player
/// who joined gets a power by [`lifecycle::assign`], their seat moving to
/// it whole (password, name, picture). Returns each player's seat as it
/// now is, with whether it is outside the list they gave.
fn reassign(judge: &mut Judge, s: &mut Session<'_, '_>, g: &GameRow) -> CmdResult<Vec<bool>> {
    let seats = games::seats(s.tx, &g.name)?;
    let players: Vec<&Seat> = seats
        .iter()
        .filter(|x| x.status == SeatStatus::Playing)
        .collect();
    let powers: Vec<PowerId> = seats
        .iter()
        .filter(|x| matches!(x.status, SeatStatus::Open | SeatStatus::Playing))
        .map(|x| PowerId(x.power))
        .collect();
    let wishes: Vec<Vec<PowerId>> = players
        .iter()
        .map(|x| x.prefs.iter().map(|p| PowerId(*p)).collect())
        .collect();
    let given = lifecycle::assign(&wishes, &powers, judge.draw());
    let mut new = seats.clone();
    for p in &powers {
        new[p.index()] = Seat {
            power: p.0,
            address: None,
            hash: None,
            status: SeatStatus::Open,
            ready: false,
            draw: false,
            concede: None,
            failures: 0,
            picture: None,
            name: None,
            wait: false,
            prefs: Vec::new(),
        };
    }
    let mut moves = Vec::new();
    for (player, to) in players.iter().zip(&given) {
        new[to.index()] = Seat {
            power: to.0,
            failures: 0,
            ready: false,
            ..(*player).clone()
        };
        moves.push((player.power, to.0));
    }
    crate::store::roster::restart(s.tx, &g.name, &moves)?;
    for seat in &new {
        games::save_seat(s.tx, &g.name, seat)?;
        if let Some(a) = &seat.address {
            crate::store::roster::took(s.tx, &g.name, seat.power, a, seat.name.as_deref(), s.now)?;
        }
    }
    // The mail that filled the game speaks for its author's new power.
    if let Ctx::Power { game, power } = &s.ctx
        && game.eq_ignore_ascii_case(&g.name)
        && let Some(m) = moves.iter().find(|(from, _)| *from == power.0)
    {
        s.ctx = Ctx::Power {
            game: game.clone(),
            power: PowerId(m.1),
        };
    }
    Ok(new
        .iter()
        .map(|x| !x.prefs.is_empty() && !x.prefs.contains(&x.power))
        .collect())
}

/// Start `g`: the powers given, the first deadline, a start mail to each
/// player and the overview to the GM and the observers.
pub(crate) fn start_game(judge: &mut Judge, s: &mut Session<'_, '_>, g: &mut GameRow) -> CmdResult {
    let outside = if g.settings.assignment == Assignment::Preference {
        reassign(judge, s, g)?
    } else {
        Vec::new()
    };
    let (v, pos) = judge.board(g)?;
    g.status = Status::Active;
    // A first deadline the GM set while the game formed stands, if it is
    // still ahead; otherwise the game clock's.
    let by_gm = g.deadline.filter(|d| *d > s.now);
    g.deadline = Some(match by_gm {
        Some(d) => d,
        None => play::deadline_for(s.tx, g, pos.phase.kind, s.now)?.0,
    });
    g.reminded = false;
    g.grace_noticed = false;
    games::save(s.tx, g)?;
    if by_gm.is_some() {
        games::set_deadline_base(s.tx, &g.name, games::SET_BY_GM)?;
    }
    tracing::info!(
        game = %g.name,
        phase = %v.calendar.short(pos.phase),
        deadline = ?g.deadline.map(|d| crate::time::show(d, "UTC")),
        "game started"
    );
    let deadline = g.deadline.unwrap_or(s.now);
    let d = time::show_deadline(deadline, &g.settings.timezone);
    s.say(&format!(
        "  {} has started: {}.\n  Deadline: {d}.",
        g.name,
        v.calendar.label(pos.phase)
    ));
    let seats = games::seats(s.tx, &g.name)?;
    // The board is kept once and each player's map drawn when the mail is
    // sent.
    let mut board: Option<i64> = None;
    for seat in seats.iter().filter(|x| x.status == SeatStatus::Playing) {
        let Some(address) = seat.address.clone() else {
            continue;
        };
        let p = PowerId(seat.power);
        let out = outside.get(p.index()).copied().unwrap_or(false);
        let ctx = start_context(judge, g, &v, &pos, seat, out)?;
        let (subject, body) = judge
            .templates
            .mail("start.txt", &ctx)
            .map_err(anyhow::Error::from)?;
        let map = play::board_later(s.tx, &v, &pos, g, Viewer::Power(p), &mut board, s.now)?;
        for mut m in mail_to(&[address], subject, body) {
            m.later = Some(map.clone());
            s.out.push(m);
        }
    }
    // The GM and the observers: who plays what, and the board.
    let first = v.calendar.label(pos.phase);
    let board = crate::report::board::board(&v, &pos, Viewer::Public);
    let mut watchers = games::observers(s.tx, &g.name)?;
    watchers.retain(|a| {
        !a.eq_ignore_ascii_case(&s.sender.from.email) && !a.eq_ignore_ascii_case(&g.gm_address)
    });
    let overview = |addresses: bool| -> CmdResult<(String, String)> {
        let ctx = overview_context(judge, g, &v, &seats, addresses, &first, &d, &board);
        Ok(judge
            .templates
            .mail("start-gm.txt", &ctx)
            .map_err(anyhow::Error::from)?)
    };
    // The GM sees the players' addresses, as in WHO; observers see what
    // the roster shows everybody.
    let (subject, body) = overview(true)?;
    s.out.extend(mail_to(&[&g.gm_address], subject, body));
    let (subject, body) = overview(g.settings.roster_addresses)?;
    s.out.extend(mail_to(&watchers, subject, body));
    Ok(())
}

/// What the start mail to the GM and the observers says: each power with
/// its player (named as the roster names them, `addresses` or not), the
/// first phase and its deadline (`deadline`, shown), and the board.
#[allow(clippy::too_many_arguments)]
fn overview_context(
    judge: &Judge,
    g: &GameRow,
    v: &Variant,
    seats: &[Seat],
    addresses: bool,
    phase: &str,
    deadline: &str,
    board: &crate::report::board::Board,
) -> serde_json::Value {
    let width = v
        .map
        .power_ids()
        .map(|p| v.map.power(p).name.chars().count())
        .max()
        .unwrap_or(8);
    let powers: Vec<serde_json::Value> = seats
        .iter()
        .map(|seat| {
            let player = match seat.status {
                SeatStatus::Playing => super::who::player(seat, addresses),
                st if st.left_out_before_start() => "not in this game".to_string(),
                SeatStatus::Dummy => "dummy (nobody plays it)".to_string(),
                _ => "civil disorder (nobody plays it)".to_string(),
            };
            let name = &v.map.power(PowerId(seat.power)).name;
            serde_json::json!({
                "power": format!("{name:<width$}"),
                "player": player,
            })
        })
        .collect();
    serde_json::json!({
        "game": g.name,
        "judge": judge.name,
        "variant": v.title,
        "powers": powers,
        "phase": phase,
        "deadline": deadline,
        "board": board,
    })
}

/// What a game that opens with adjustments (Ard-Ri's builds of Winter
/// 379, a map with no starting units) asks of `p` at once: the builds due
/// and where they may go, or the removals due. `null` in a game that
/// opens with moves, or when nothing is due.
fn adjust_context(v: &Variant, pos: &Position, p: PowerId) -> serde_json::Value {
    if !matches!(
        pos.phase.kind,
        crate::variant::PhaseKind::Adjustment | crate::variant::PhaseKind::Placement
    ) {
        return serde_json::Value::Null;
    }
    let due = crate::game::step::due(v, pos)
        .get(p.index())
        .copied()
        .unwrap_or(0);
    match due {
        0 => serde_json::Value::Null,
        d if d > 0 => serde_json::json!({
            "builds": d,
            "sites": crate::game::check::build_sites(v, pos, p),
        }),
        d => serde_json::json!({"removals": -d}),
    }
}

/// What the start mail of `seat`'s player says.
fn start_context(
    judge: &Judge,
    g: &GameRow,
    v: &Variant,
    pos: &Position,
    seat: &Seat,
    outside: bool,
) -> CmdResult<serde_json::Value> {
    let p = PowerId(seat.power);
    let deadline = g.deadline.unwrap_or(0);
    let shown = time::show_deadline(deadline, &g.settings.timezone);
    let when = crate::commands::submit::when(judge, g, deadline, seat.wait)?;
    let centres: Vec<String> = pos
        .owners
        .iter()
        .enumerate()
        .filter(|(_, o)| **o == Some(p))
        .map(|(i, _)| v.map.provinces()[i].name.clone())
        .collect();
    Ok(serde_json::json!({
        "game": g.name,
        "judge": judge.name,
        "variant": v.title,
        "power": v.map.power(p).name,
        "outside": outside,
        "asked": seat.prefs.iter().map(|x| v.map.power(PowerId(*x)).name.clone()).collect::<Vec<_>>(),
        "units": crate::report::board::units_of(v, pos, p),
        "centres": centres,
        "phase": v.calendar.label(pos.phase),
        "deadline": shown,
        "when": when,
        "example": super::handover::example(v, pos, p),
        "adjust": adjust_context(v, pos, p),
        "board": crate::report::board::board(v, pos, Viewer::Power(p)),
    }))
}
