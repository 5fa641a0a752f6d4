//! The f-puzzles format: a puzzle shared as JSON, as that JSON compressed with LZ-String and written
//! in base64 (what follows `?load=` in a link), or as the whole link, read into a [`Variant`].

use crate::variant::Variant;

/// Why an f-puzzles text could not be read: what is wrong and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FPuzzlesError {
    /// The reader is not written yet.
    #[error("the f-puzzles reader is not written yet")]
    Unsupported,
}

/// Reads an f-puzzles JSON text, its LZ-String base64, or a link that carries it, into a variant
/// whose givens come from the puzzle's grid.
pub fn read(text: &str) -> Result<Variant, FPuzzlesError> {
    let _ = text;
    Err(FPuzzlesError::Unsupported)
}
