//! njudge's deadline settings, `SET MOVES NEXT 48.0` and `SET RETREATS NEXT
//! 23` (hours from the start of a phase to its deadline): this judge's
//! phase lengths (SET PHASE LENGTH). Retreats and adjustments share one
//! length here, so either sets both, and the reply says so. njudge's other
//! parameters (CLOCK, MIN, DELAY, DAYS, GRACE per phase) have no
//! counterpart and are refused with what this judge has instead.

use crate::commands::command::{Args, Command, Gm, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Judge, Session, load, time};
use crate::store::games;

/// SET MOVES NEXT hours.
pub(crate) struct SetMovesTiming(u32);
/// SET RETREATS|ADJUSTS|BUILDS NEXT hours.
pub(crate) struct SetShortTiming(u32);

/// The minutes of `NEXT hours` (decimal hours, as njudge writes them),
/// refusing the parameters this judge has no counterpart of.
fn next(args: &Args, spec: &Spec) -> Result<u32, String> {
    let w = args.bare().words;
    let mut minutes = None;
    let mut i = 0;
    while i < w.len() {
        let key = w[i].to_ascii_uppercase();
        let value = w
            .get(i + 1)
            .ok_or_else(|| format!("write {}", spec.usage))?;
        match key.as_str() {
            "NEXT" => {
                let hours: f64 = value
                    .parse()
                    .map_err(|_| format!("NEXT takes hours, as 48.0 (write {})", spec.usage))?;
                if !(0.0..=24.0 * 366.0).contains(&hours) {
                    return Err("NEXT is at most a year of hours".into());
                }
                minutes = Some((hours * 60.0).round() as u32);
            }
            "GRACE" => {
                return Err(
                    "this judge has one grace period for every phase: SET GRACE 24h".into(),
                );
            }
            "CLOCK" | "DAYS" => {
                return Err(format!(
                    "this judge sets no time of day nor days of the week for deadlines: a \
                     phase lasts its length (SET MOVES NEXT 48.0 or SET PHASE LENGTH 48h), \
                     and SET DEADLINE sets one by hand; {key} was not taken"
                ));
            }
            "MIN" | "DELAY" => {
                return Err(format!(
                    "this judge has no {key}: a phase is processed at its deadline, or when \
                     every player says READY"
                ));
            }
            _ => return Err(format!("write {}", spec.usage)),
        }
        i += 2;
    }
    minutes.ok_or_else(|| format!("write {}", spec.usage))
}

impl Command for SetMovesTiming {
    const SPEC: Spec = Spec {
        other_judges: true,
        also: &["SET MOVE", "SET MOVEMENT"],
        ..Spec::new(
            "SET MOVES",
            "SET MOVES NEXT 48.0  (njudge; SET PHASE LENGTH 48h)",
            "How many hours movement phases last.",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        next(args, &Self::SPEC).map(SetMovesTiming)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let mut g = load(s.tx, &game)?;
        g.settings.movement_minutes = self.0.max(1);
        games::save(s.tx, &g)?;
        s.say(&format!(
            "  Set: movement phases last {} (this judge's SET PHASE LENGTH); the current \
             deadline stays.",
            time::show_duration(g.settings.movement_minutes)
        ));
        Ok(())
    }
}

impl Command for SetShortTiming {
    const SPEC: Spec = Spec {
        other_judges: true,
        also: &[
            "SET RETREAT",
            "SET ADJUST",
            "SET ADJUSTS",
            "SET ADJUSTMENT",
            "SET ADJUSTMENTS",
            "SET BUILD",
            "SET BUILDS",
        ],
        ..Spec::new(
            "SET RETREATS",
            "SET RETREATS NEXT 23.0  (njudge; also SET BUILDS; SET PHASE LENGTH 72h 23h)",
            "How many hours retreat and adjustment phases last (one length for both).",
        )
    };
    type Role = Gm;
    fn parse(args: &Args) -> Result<Self, String> {
        next(args, &Self::SPEC).map(SetShortTiming)
    }
    fn run(self, _: &mut Judge, s: &mut Session<'_, '_>, game: String) -> CmdResult {
        let mut g = load(s.tx, &game)?;
        g.settings.short_minutes = self.0.max(1);
        games::save(s.tx, &g)?;
        s.say(&format!(
            "  Set: retreat and adjustment phases last {} (they share one length here: \
             this judge's SET PHASE LENGTH); the current deadline stays.",
            time::show_duration(g.settings.short_minutes)
        ));
        Ok(())
    }
}
