//! Pictures drawn lately for results being sent, kept by the judge so
//! that each distinct view of a phase is drawn once however many readers
//! share it (`play::parts` draws them).

use crate::variant::features::Viewer;

/// Phases whose pictures were drawn lately, kept while their readers'
/// mails are being sent (they are queued together).
#[derive(Default)]
pub(crate) struct Drawn {
    pub(crate) recent: std::collections::VecDeque<(i64, Pictures)>,
}

/// How many phases' pictures [`Drawn`] keeps.
pub(crate) const DRAWN_PHASES: usize = 4;

impl Drawn {
    /// Forget them all (the outbox is empty).
    pub(crate) fn clear(&mut self) {
        self.recent = Default::default();
    }
}

/// Pictures already drawn for a phase: by reader, and by drawing, so that
/// readers who may see the same (every player, when nothing is hidden)
/// share one rasterised PNG.
#[derive(Default)]
pub(crate) struct Pictures {
    pub(crate) by_viewer: Vec<(Viewer, Vec<crate::mail::Attached>)>,
    pub(crate) by_svg: Vec<(String, Vec<u8>)>,
}
