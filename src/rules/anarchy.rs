//! 1000 AD rule 13: a power that has lost every home centre has one
//! movement season of grace to retake one; failing that it falls into
//! anarchy for good (its units hold, the judge removes what must go).

use serde::{Deserialize, Serialize};

/// Where a power stands under the anarchy rule.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Anarchy {
    /// It holds a home centre (or the variant has no such rule).
    #[default]
    No,
    /// It has lost them all and has the next movement season to retake
    /// one.
    Grace,
    /// It failed: its units are in civil disorder for good.
    #[serde(rename = "anarchy")]
    Yes,
}
