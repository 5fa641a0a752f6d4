//! Why a puzzle is refused: text that is no grid ([`ParseError`]), givens that clash ([`Conflict`]),
//! or either ([`PuzzleError`]). Below both the grid and the text reader, so each can name them.

use std::fmt;

use crate::shape::{Cell, Shape, Unit};
use crate::symbols::{Symbols, SymbolsError};

/// Two givens with the same value in one row, column or box.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{} {symbol} appears twice in {unit}: at {first} and at {second}",
    if .symbol.is_ascii_digit() { "digit" } else { "symbol" }
)]
pub struct Conflict {
    /// The repeated value, 1 to the side.
    pub digit: u8,
    /// The value's symbol in the alphabet the grid was read in (the standard one when the grid was
    /// not read from text).
    pub symbol: char,
    /// The unit that holds it twice.
    pub unit: Unit,
    /// The first of the two cells, in row-major order.
    pub first: Cell,
    /// The second of the two cells.
    pub second: Cell,
}

/// Why a puzzle's text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A character that is neither a symbol, a blank, nor layout.
    #[error(
        "invalid character {ch:?} at position {} of the text{}: expected {}",
        .position + 1,
        .cell.map(|c| format!(" ({c})")).unwrap_or_default(),
        Expected(.symbols)
    )]
    InvalidCharacter {
        /// The offending character.
        ch: char,
        /// Its position in the text, counted in characters from 0.
        position: usize,
        /// The cell it would have filled, if the grid was not already full.
        cell: Option<Cell>,
        /// The alphabet the text was read in.
        symbols: Symbols,
    },
    /// In the numbers form, a number above the grid's side.
    #[error(
        "number {number} at position {} of the text ({cell}) is out of range: expected 1 to {side}, \
         or 0 or '.' for a blank",
        .position + 1
    )]
    NumberOutOfRange {
        /// The number.
        number: u8,
        /// Its position in the text, counted in characters from 0.
        position: usize,
        /// The cell it fills.
        cell: Cell,
        /// The grid's side, the largest number allowed.
        side: usize,
    },
    /// The text holds more or fewer cells than the grid of the shape asked for.
    #[error("expected {expected} cells, found {found}")]
    WrongCellCount {
        /// Cells the text held.
        found: usize,
        /// Cells the grid has.
        expected: usize,
    },
    /// No shape was given, and the text holds a count of cells that no grid has.
    #[error(
        "expected {nearest} cells, found {found}: a grid has {} cells",
        AcceptedCounts
    )]
    UnknownSize {
        /// Cells the text held.
        found: usize,
        /// The accepted count nearest to it.
        nearest: usize,
    },
    /// A shape that is not supported.
    #[error(
        "boxes of {box_rows}x{box_cols} cells are not supported: give both box sizes as 0 (the shape \
         follows from the count of cells), or both at least 2 with 4 to 25 cells a box"
    )]
    UnsupportedShape {
        /// Rows of cells in a box, as given.
        box_rows: u32,
        /// Columns of cells in a box, as given.
        box_cols: u32,
    },
    /// The alphabet given is not one.
    #[error(transparent)]
    Symbols(#[from] SymbolsError),
    /// The alphabet given has another length than the grid's side.
    #[error(
        "the symbols hold {symbols} characters, but a {shape} grid has {} values",
        .shape.side()
    )]
    SymbolsDoNotFit {
        /// How many symbols were given.
        symbols: usize,
        /// The grid's shape.
        shape: Shape,
    },
}

/// Why a puzzle cannot be accepted: its text is unreadable, or its givens clash.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// The text could not be read as a grid.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The grid was read, but two givens clash.
    #[error(transparent)]
    Conflict(#[from] Conflict),
}

/// What a cell may hold, said for an error message.
struct Expected<'a>(&'a Symbols);

impl fmt::Display for Expected<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let symbols = self.0;
        let side = symbols.len();
        match side {
            _ if !symbols.is_standard() => write!(f, "one of the symbols {symbols}")?,
            ..=9 => write!(f, "a digit 1-{side}")?,
            _ => write!(f, "a symbol 1-9 or A-{}", symbols.symbol(side as u8))?,
        }
        let zero = if symbols.has_zero() { "" } else { " or '0'" };
        write!(f, ", or '.'{zero} for a blank")
    }
}

/// The counts of cells a grid may have, with their shapes, for an error message.
struct AcceptedCounts;

impl fmt::Display for AcceptedCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sides: Vec<usize> = Shape::sides().collect();
        for (i, side) in sides.iter().enumerate() {
            let separator = match i {
                0 => "",
                _ if i + 1 == sides.len() => " or ",
                _ => ", ",
            };
            write!(f, "{separator}{} ({side}x{side})", side * side)?;
        }
        Ok(())
    }
}
