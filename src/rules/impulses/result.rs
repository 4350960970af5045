//! What a yearly turn of 1700 AD II leaves: plain data, below both the
//! feature that plays the turn and the trait it plays it through
//! (`rules::feature::Played`), so neither file reads the other back.

use super::judge;
use crate::adjudicate::AdjustResult;
use crate::map::Unit;

/// A yearly turn of 1700 AD II: the impulses with their retreats, the units
/// out of supply, then the builds and removals of the same order sheets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnResult {
    /// The impulses.
    pub turn: judge::Turn,
    /// Units disbanded for want of a line of supply (rule 9).
    pub out_of_supply: Vec<Unit>,
    /// The builds and removals.
    pub adjustments: AdjustResult,
    /// The board before the builds and removals (after the moves, the
    /// retreats and the supply check), for the report's centre chart.
    pub before_builds: Vec<Unit>,
}
