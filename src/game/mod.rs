//! Game state: a position on the board at a phase, and how orders take it to
//! the next phase.

pub mod end;
pub mod exchange;
pub mod homes;
pub mod position;
pub mod record;
pub mod step;
pub mod supply;

pub use position::Position;
