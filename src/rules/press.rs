//! Press rules of the variant, beside the GM's `SET PRESS` (white, grey or
//! none): face-to-face press, DPjudge's `FTF_PRESS`, which its map
//! `sailho` (Sail Ho!) carries.
//!
//! ```toml
//! [press]
//! face-to-face = true
//! ```
//!
//! Face-to-face press is the rule of a game played around a table:
//! players negotiate while the moves are being written, and not while
//! retreats and builds are, nor once the time for orders is up. DPjudge's
//! rule page says: press may be sent only to the Master except during
//! movement phases, and no private press may be sent after a deadline has
//! passed with players late. So here, for a player (the GM writes to
//! anyone at any time):
//!
//! - in a retreat, adjustment or placement phase, press goes only to the
//!   GM: private press and BROADCAST are refused;
//! - in a movement phase whose deadline has passed while orders are still
//!   missing (the game waits out its grace), private press is refused;
//!   BROADCAST, which everybody reads, and press to the GM are not
//!   (DPjudge's mail interface answers "private press not allowed after
//!   deadline" to the one and lets the others through).
//!
//! Press to the GM alone is always allowed: it is how a player asks the
//! GM anything. The rule holds while the game is played (not before it
//! starts, nor once it is over). A refusal sends nothing and keeps
//! nothing.

use super::feature::{Feature, Load, Plugin, PressMoment, Readers};
use crate::orders::PhaseKind;
use serde::Deserialize;
use std::sync::Arc;

/// The feature's entry in the registry.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "press",
    rank: 64,
    tables: &["press"],
    load,
};

/// `[press]`: the variant's press rules.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawPress {
    /// Face-to-face press (DPjudge's `FTF_PRESS`).
    #[serde(default)]
    face_to_face: bool,
}

/// Face-to-face press: the only press rule of `[press]` so far.
#[derive(Debug, Clone, Copy)]
struct FaceToFace;

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    let raw: RawPress = l.table("press")?;
    raw.face_to_face
        .then(|| Arc::new(FaceToFace) as Arc<dyn Feature>)
}

impl Feature for FaceToFace {
    fn press_refused(&self, when: PressMoment, readers: Readers) -> Option<&'static str> {
        if readers == Readers::Master {
            return None;
        }
        if when.kind != PhaseKind::Movement {
            return Some(
                "this game's press is face to face (the variant's rule): outside a \
                 movement phase you may write only to the GM (PRESS TO M); write to the \
                 others again in the next movement phase",
            );
        }
        if when.deadline_missed && readers == Readers::Private {
            return Some(
                "this game's press is face to face (the variant's rule): the deadline has \
                 passed with orders missing, so no private press until the phase is \
                 judged; BROADCAST to everybody, or write to the GM (PRESS TO M)",
            );
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(kind: PhaseKind, deadline_missed: bool) -> PressMoment {
        PressMoment {
            kind,
            deadline_missed,
        }
    }

    #[test]
    fn only_the_gm_outside_movement_phases() {
        for kind in [
            PhaseKind::Retreat,
            PhaseKind::Adjustment,
            PhaseKind::Placement,
        ] {
            let when = at(kind, false);
            assert!(FaceToFace.press_refused(when, Readers::Master).is_none());
            assert!(FaceToFace.press_refused(when, Readers::Private).is_some());
            assert!(FaceToFace.press_refused(when, Readers::Everybody).is_some());
        }
    }

    #[test]
    fn no_private_press_after_a_missed_deadline() {
        let late = at(PhaseKind::Movement, true);
        let msg = FaceToFace.press_refused(late, Readers::Private);
        assert!(msg.is_some_and(|m| m.contains("deadline has passed")));
        assert!(FaceToFace.press_refused(late, Readers::Everybody).is_none());
        assert!(FaceToFace.press_refused(late, Readers::Master).is_none());
        let open = at(PhaseKind::Movement, false);
        assert!(FaceToFace.press_refused(open, Readers::Private).is_none());
    }
}
