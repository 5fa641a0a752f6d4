//! The one reader of puzzle files, which every command, test and benchmark shares: one puzzle per
//! line; blank lines and lines starting with `#` (comments) are skipped.

use std::path::{Path, PathBuf};

/// The puzzle on one line of a puzzle file, trimmed; `None` for a blank or comment line.
pub fn puzzle_text(line: &str) -> Option<&str> {
    let text = line.trim();
    (!text.is_empty() && !text.starts_with('#')).then_some(text)
}

/// The puzzles of a file's text, each with its line number (from 1).
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    (1..)
        .zip(text.lines())
        .filter_map(|(number, line)| Some((number, puzzle_text(line)?)))
}

/// One puzzle of a file, as text, and the line it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleLine {
    /// The line number, from 1.
    pub number: usize,
    /// The puzzle as written, trimmed.
    pub text: String,
}

/// Why a puzzle file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleFileError {
    /// The file could not be read.
    #[error("cannot read {}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file holds no puzzles: an empty run would measure or check nothing.
    #[error("{} holds no puzzles", .path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
}

/// Reads the puzzles of the file at `path`, the first `limit` of them if given; a file with none is
/// an error.
pub fn read(path: &Path, limit: Option<usize>) -> Result<Vec<PuzzleLine>, PuzzleFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| PuzzleFileError::Read {
        path: path.to_owned(),
        source,
    })?;
    let puzzles: Vec<PuzzleLine> = lines(&text)
        .take(limit.unwrap_or(usize::MAX))
        .map(|(number, text)| PuzzleLine {
            number,
            text: text.to_owned(),
        })
        .collect();
    if puzzles.is_empty() {
        return Err(PuzzleFileError::Empty {
            path: path.to_owned(),
        });
    }
    Ok(puzzles)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_and_comment_lines_are_skipped_and_numbers_kept() {
        let text = "# a comment\n\n  1.3  \n   # indented comment\n4..\n";
        let found: Vec<(usize, &str)> = lines(text).collect();
        assert_eq!(found, [(3, "1.3"), (5, "4..")]);
    }
}
