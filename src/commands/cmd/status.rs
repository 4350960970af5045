//! MAP and STATUS: the board on demand (njudge's position listing): every
//! power's units and centres as text, and the map as a picture, attached
//! to the answer. Anyone may ask; where a variant hides units, a reader
//! sees what their seat may (signed on as a power or the GM: more).

use crate::commands::command::{Anyone, Args, Command, Spec};
use crate::commands::error::CmdResult;
use crate::commands::{Ctx, Judge, Session, load, time};
use crate::variant::features::Viewer;

/// MAP game, STATUS game; `None`: the game the sender is signed on to
/// (njudge's STATUS alone, as WHO alone).
pub(crate) struct Status(Option<String>);

impl Command for Status {
    const SPEC: Spec = Spec {
        also: &["MAP", "POSITION"],
        ..Spec::new(
            "STATUS",
            "MAP [game]  (or STATUS [game]; alone after SIGNON: your game)",
            "The game's position: every power's units and centres, with the map attached.",
        )
    };
    type Role = Anyone;
    fn parse(args: &Args) -> Result<Self, String> {
        match args.bare().words.as_slice() {
            [] => Ok(Status(None)),
            [game] => Ok(Status(Some(game.clone()))),
            _ => Err(format!("write {}", Self::SPEC.usage)),
        }
    }
    fn run(self, judge: &mut Judge, s: &mut Session<'_, '_>, _: ()) -> CmdResult {
        let name = match (self.0, &s.ctx) {
            (Some(g), _) => g,
            (None, Ctx::Gm { game } | Ctx::Power { game, .. }) => game.clone(),
            (None, Ctx::None) => {
                return Err(
                    "write MAP game (or SIGNON first: then MAP alone names your game)".into(),
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
        Ok(())
    }
}
