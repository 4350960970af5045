//! No draws: the game ends only in a solo victory (DPjudge's `NO_DRAW`
//! rule word, which Sengoku uses). The variant file switches it on with
//! an empty `[no-draw]` table.
//!
//! DRAW is refused with the rule's reason, and a draw vote already cast
//! (a game moved to such a variant) is never counted; CONCEDE, which
//! gives one power the solo, stays open.

use super::feature::{Feature, Load, Plugin};
use serde::Deserialize;
use std::sync::Arc;

/// The feature's entry in the registry.
pub(crate) const PLUGIN: Plugin = Plugin {
    name: "no-draw",
    rank: 63,
    tables: &["no-draw"],
    load,
};

/// `[no-draw]`: the table switches the rule on; it has no keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawNoDraw {}

/// Draws are not a way this variant ends.
#[derive(Debug, Clone, Copy)]
struct NoDraw;

fn load(l: &mut Load<'_>) -> Option<Arc<dyn Feature>> {
    l.table::<RawNoDraw>("no-draw")?;
    Some(Arc::new(NoDraw))
}

impl Feature for NoDraw {
    fn draws_refused(&self) -> Option<&'static str> {
        Some(
            "this variant has no draws (its rule: the game ends only in a solo \
             victory, or when the players CONCEDE to one power)",
        )
    }
}
