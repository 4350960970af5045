//! DPjudge's press rule words that are a rule of the variant here:
//! `FTF_PRESS` (face-to-face press: outside movement phases press goes
//! only to the Master, and no private press once a deadline has passed
//! with players late) is `[press] face-to-face = true`, played by the
//! `press` rule feature (`src/rules/press.rs`). The other press words are
//! each game's GM's choice here (`SET PRESS`), and refused
//! (`super::ports::rule_refusal`).

use std::fmt::Write as _;

/// A press rule word (`off`: written `!WORD`) read into `face_to_face`;
/// `false`: not one of them.
pub(super) fn rule_word(word: &str, off: bool, face_to_face: &mut bool) -> bool {
    match word {
        "FTF_PRESS" => {
            *face_to_face = !off;
            true
        }
        _ => false,
    }
}

/// The `[press]` table, where the map has a press rule.
pub(super) fn write(out: &mut String, face_to_face: bool) {
    if face_to_face {
        let _ = writeln!(out, "[press]\nface-to-face = true\n");
    }
}
