//! Sudoku grids: the grid type and the check for clashing givens.
//!
//! A grid carries its [`Shape`], so every size from 4x4 to 25x25 passes through the same types. The
//! geometry ([`Shape`], [`Cell`], [`Unit`]) and the errors are re-exported here from their own
//! modules; reading and writing text is in [`crate::text`] and alphabets in [`crate::symbols`].

pub use crate::error::{Conflict, ParseError, PuzzleError};
pub use crate::shape::{Cell, Shape, Unit};
use crate::symbols::Symbols;
use smallvec::SmallVec;

/// The cells of a grid: a 9x9 grid's, or a smaller one's, are held inline, so reading a puzzle and
/// answering it allocates nothing.
type Cells = SmallVec<[u8; 81]>;

/// A grid of cells in row-major order: 0 is a blank, 1 to `side` a digit.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Cells,
}

impl Grid {
    /// A grid of the given shape with every cell blank.
    pub fn empty(shape: Shape) -> Grid {
        Grid {
            shape,
            cells: smallvec::smallvec![0; shape.cells()],
        }
    }

    /// A grid from cell values in row-major order; `None` unless there are exactly `shape.cells()` values,
    /// each 0 (blank) to `shape.side()`.
    pub fn from_cells(shape: Shape, cells: Vec<u8>) -> Option<Grid> {
        let fits =
            cells.len() == shape.cells() && cells.iter().all(|&v| usize::from(v) <= shape.side());
        fits.then(|| Grid::from_read_cells(shape, cells))
    }

    /// A grid from cells a reader has checked: exactly `shape.cells()` values, each 0 to the side.
    pub(crate) fn from_read_cells(shape: Shape, cells: impl Into<Cells>) -> Grid {
        let cells = cells.into();
        debug_assert!(cells.len() == shape.cells());
        Grid { shape, cells }
    }

    /// Sets the cell at row-major `index` to `value` (0 for a blank, else 1 to the side), for a
    /// caller that edits one grid in place rather than building a new one for every change.
    pub(crate) fn set_index(&mut self, index: usize, value: u8) {
        debug_assert!(usize::from(value) <= self.shape.side());
        self.cells[index] = value;
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The cells in row-major order: 0 for a blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value at `cell`: 0 for a blank.
    pub fn get(&self, cell: Cell) -> u8 {
        self.cells[cell.row * self.shape.side() + cell.col]
    }

    /// How many cells hold a digit.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is blank.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first clash of two equal givens in a row, column or box, if any, in row-major order of the
    /// second cell.
    pub fn check_givens(&self) -> Result<(), Conflict> {
        if self.shape == Shape::NINE && !self.nine_has_clash() {
            return Ok(());
        }
        // For each kind of unit (row, column, box) and each unit, the digits seen so far, one bit each
        // (grids up to 25x25, so 25 bits and 25 units of a kind).
        let mut seen = [[0u32; 25]; 3];
        for (index, &digit) in self.cells.iter().enumerate() {
            if digit == 0 {
                continue;
            }
            let cell = self.shape.cell(index);
            let bit = 1u32 << (digit - 1);
            for (kind, unit) in self.shape.units_of(cell).into_iter().enumerate() {
                let digits = &mut seen[kind][unit.number()];
                if *digits & bit == 0 {
                    *digits |= bit;
                    continue;
                }
                // A clash (rare): find the earlier cell with the digit in this unit.
                let first = (0..index)
                    .map(|i| self.shape.cell(i))
                    .find(|&c| self.get(c) == digit && self.shape.units_of(c)[kind] == unit);
                if let Some(first) = first {
                    return Err(Conflict {
                        digit,
                        symbol: Symbols::of(self.shape).symbol(digit),
                        unit,
                        first,
                        second: cell,
                    });
                }
            }
        }
        Ok(())
    }

    /// Whether two givens of a 9x9 grid clash, found without branching on the cells: the check every
    /// batch item takes. [`Grid::check_givens`] then finds which two.
    ///
    /// Each given is one bit (bits 1 to 9; a blank sets none), and the givens of a unit clash exactly
    /// when the sum of their bits differs from their union (two equal bits carry). The columns, and
    /// the boxes of a band, add up in 16-bit lanes of a word, one lane each, so each row adds to all
    /// nine columns in a few word operations.
    fn nine_has_clash(&self) -> bool {
        let (rows, _) = self.cells.as_chunks::<9>();
        // Columns 0-3, 4-7 and 8, a lane each: the sum and the union of their bits so far.
        let (mut column_sums, mut column_unions) = ([0u64; 3], [0u64; 3]);
        let mut clash = false;
        for band in rows.chunks(3) {
            let (mut box_sums, mut box_unions) = (0u64, 0u64);
            for row in band {
                let (mut row_sum, mut row_union) = (0u16, 0u16);
                let mut columns = [0u64; 3];
                let mut boxes = 0u64;
                for (col, &digit) in row.iter().enumerate() {
                    // A 9x9 grid's cells are 0 to 9; the mask only keeps the shift in range.
                    let bit = (1u16 << (digit & 15)) & !1;
                    row_sum += bit;
                    row_union |= bit;
                    columns[col / 4] |= u64::from(bit) << (16 * (col % 4));
                    // A sum: two equal givens of a box in one row carry here as in the row's own.
                    boxes += u64::from(bit) << (16 * (col / 3));
                }
                clash |= row_sum != row_union;
                for ((sum, union), column) in
                    column_sums.iter_mut().zip(&mut column_unions).zip(columns)
                {
                    *sum += column;
                    *union |= column;
                }
                box_sums += boxes;
                box_unions |= boxes;
            }
            clash |= box_sums != box_unions;
        }
        // At most nine bits of 2^9 add up in a lane: below 2^16, so no lane carries into the next.
        clash || column_sums != column_unions
    }

    /// True when this grid is full, breaks no rule, and keeps every given of `puzzle`.
    pub fn solves(&self, puzzle: &Grid) -> bool {
        self.shape == puzzle.shape
            && self.is_full()
            && self.check_givens().is_ok()
            && puzzle
                .cells
                .iter()
                .zip(&self.cells)
                .all(|(&given, &value)| given == 0 || given == value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nine_by_nine_clash_check_agrees_with_the_units() {
        let shape = Shape::NINE;
        for first in 0..81 {
            for second in first + 1..81 {
                let mut cells = vec![0; 81];
                cells[first] = 5;
                cells[second] = 5;
                let grid = Grid::from_cells(shape, cells).unwrap();
                let (a, b) = (shape.cell(first), shape.cell(second));
                let shared = a.row == b.row || a.col == b.col || shape.box_of(a) == shape.box_of(b);
                assert_eq!(grid.nine_has_clash(), shared, "{a} and {b}");
                assert_eq!(grid.check_givens().is_err(), shared, "{a} and {b}");
            }
        }
    }
}
