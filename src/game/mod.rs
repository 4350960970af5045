//! Game state: a position on the board at a phase, and how orders take it to
//! the next phase.

pub mod check;
pub mod end;
pub mod lifecycle;
pub mod phase_orders;
pub mod record;
pub mod step;

/// Exchanges of centres (Abstraction II rule 6). A module of its own, as
/// the plug-in modules of `rules` are `pub(crate)` (build.rs).
pub mod exchange {
    pub use crate::rules::exchange_offers::*;
}
/// Replacement home centres (1066 rule 6).
pub mod homes {
    pub use crate::rules::nominations::*;
}
/// Positions live with the rules that change them.
pub use crate::rules::position;
pub use crate::rules::position::Position;
/// Supply lines (1700 AD II rule 9).
pub use crate::rules::supply;
