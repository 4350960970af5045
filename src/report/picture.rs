//! The board as a picture: drawn later.
