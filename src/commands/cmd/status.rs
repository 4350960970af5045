//! MAP and STATUS: the board on demand (njudge's position listing): every
//! power's units and centres as text, and the map as a picture, attached
//! to the answer. Anyone may ask; where a variant hides units, a reader
//! sees what their seat may (signed on as a power or the GM: more).

use crate::commands::command::{Anyone, Args, Command, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Ctx, Judge, Session, load, time};
use crate::variant::features::Viewer;

/// MAP [game] [format], STATUS [game].
pub(crate) struct Status {
    /// The game; `None`: the signed-on one.
    game: Option<String>,
    /// DPjudge's picture format word (`gif`, `ps`, `pdf`), if written.
    format: Option<String>,
}

/// The picture formats DPjudge's MAP names.
const FORMATS: &[&str] = &["gif", "png", "svg", "ps", "pdf", "eps"];

impl Command for Status {
    const SPEC: Spec = Spec {
        also: &["MAP", "POSITION"],
        ..Spec::new(
            "STATUS",
            "MAP [game]  (or STATUS [game])",
            "The game's position: every power's units and centres, with the map attached; alone after a sign-on, the signed-on game's, with the orders you hold (DPjudge's STATUS).",
        )
    };
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        let mut words = args.bare().words;
        // DPjudge: `MAP game pdf`.
        let format = match words.last() {
            Some(f) if FORMATS.contains(&f.to_ascii_lowercase().as_str()) => {
                words.pop().map(|f| f.to_ascii_lowercase())
            }
            _ => None,
        };
        match words.as_slice() {
            [] => Ok(Status { game: None, format }),
            [game] => Ok(Status {
                game: Some(game.clone()),
                format,
            }),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        let name = match (&self.game, &s.ctx) {
            (Some(g), _) if g == "*" => {
                return Err(
                    "njudge's MAP * (every game): this judge draws one game's map at a \
                            time: MAP game (every results mail has it too)"
                        .into(),
                );
            }
            (Some(g), _) => g.clone(),
            (None, Ctx::Power { game, .. } | Ctx::Gm { game }) => game.clone(),
            (None, Ctx::None) => {
                return Err(
                    "write MAP game (or SIGNON first: then MAP or STATUS alone name \
                            your game)"
                        .into(),
                );
            }
        };
        let g = load(s.tx, &name)?;
        let (v, pos) = judge.board(&g)?;
        let viewer = match &s.ctx {
            Ctx::Power { game, power } if game.eq_ignore_ascii_case(&g.name) => {
                Viewer::Power(*power)
            }
            Ctx::Gm { game } if game.eq_ignore_ascii_case(&g.name) => Viewer::Gm,
            _ => Viewer::Public,
        };
        let deadline = g
            .deadline
            .filter(|_| g.status == crate::game::record::Status::Active);
        let shown = deadline.map(|d| time::show_deadline(d, &g.settings.timezone));
        let ctx = serde_json::json!({
            "game": g.name,
            "variant": v.title,
            "status": g.status.as_str(),
            "deadline": shown,
            "board": crate::report::board::board(&v, &pos, viewer),
        });
        let text = judge
            .templates
            .text("status.txt", &ctx)
            .map_err(anyhow::Error::from)?;
        for line in text.lines() {
            s.say(&format!("  {line}"));
        }
        let mut drawn = Vec::new();
        let map = super::handover::map_picture(judge, &v, &pos, &g, viewer, &mut drawn);
        if s.attach.is_empty() {
            s.attach = map;
        }
        if let Some(f) = self
            .format
            .filter(|f| matches!(f.as_str(), "ps" | "pdf" | "eps"))
        {
            s.say(&format!(
                "  (The judge draws its maps as PNG and SVG, not {}: SET PICTURE PNG|SVG|BOTH \
                 says which you get.)",
                f.to_ascii_uppercase()
            ));
        }
        // DPjudge's STATUS after a sign-on: the orders held.
        if self.game.is_none()
            && let Ctx::Power { game, power } = s.ctx.clone()
            && game.eq_ignore_ascii_case(&g.name)
        {
            crate::commands::held::show_orders(judge, s, &game, power)?;
        }
        Ok(())
    }
}
