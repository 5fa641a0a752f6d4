//! Sudoku grids: shapes, cells, units, the grid type and the check for clashing givens.
//!
//! A grid carries its [`Shape`], so every size from 4x4 to 25x25 passes through the same types. Reading
//! and writing text is in [`crate::text`] (its errors are re-exported here) and alphabets in
//! [`crate::symbols`].

use std::fmt;
use std::str::FromStr;

use crate::symbols::Symbols;
pub use crate::text::{ParseError, PuzzleError};

/// The shape of a grid: boxes of `box_rows` x `box_cols` cells, so `N = box_rows * box_cols` symbols
/// and a side of `N` cells. Every shape with N from 4 to 25 and boxes at least 2 cells each way is
/// supported, in both orientations (6x6 has 2x3 and 3x2 boxes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    box_rows: u8,
    box_cols: u8,
}

impl Shape {
    /// The classic 9x9 grid of 3x3 boxes.
    pub const NINE: Shape = Shape {
        box_rows: 3,
        box_cols: 3,
    };

    /// The fewest symbols a supported shape has (4x4).
    pub const MIN_SIDE: usize = 4;

    /// The most symbols a supported shape has (25x25).
    pub const MAX_SIDE: usize = 25;

    /// The shape with boxes of `box_rows` x `box_cols` cells; `None` unless both are at least 2 and
    /// the side `box_rows * box_cols` is from 4 to 25.
    pub fn new(box_rows: usize, box_cols: usize) -> Option<Shape> {
        let side = box_rows.checked_mul(box_cols)?;
        let fits =
            box_rows >= 2 && box_cols >= 2 && (Self::MIN_SIDE..=Self::MAX_SIDE).contains(&side);
        // Both fit in a byte: each is at most 12 when the other is at least 2 and the product at most 25.
        fits.then_some(Shape {
            box_rows: box_rows as u8,
            box_cols: box_cols as u8,
        })
    }

    /// The square shape with boxes of `box_size` x `box_size` cells, for box sizes 2 to 5 (4x4 to
    /// 25x25 grids).
    pub fn with_box_size(box_size: u8) -> Option<Shape> {
        Shape::new(usize::from(box_size), usize::from(box_size))
    }

    /// The shape a grid of side `side` has when none is given: the square box for 4, 9, 16 and 25,
    /// otherwise the wide box (rows < columns) closest to square, so 6 is 2x3 and 12 is 3x4. `None`
    /// for a side no shape has (below 4, above 25, or prime).
    pub fn for_side(side: usize) -> Option<Shape> {
        let box_rows = (2..=side)
            .take_while(|r| r * r <= side)
            .filter(|r| side.is_multiple_of(*r))
            .last()?;
        Shape::new(box_rows, side / box_rows)
    }

    /// The shape of a grid of `cells` cells when none is given ([`Shape::for_side`]); `None` unless
    /// `cells` is the square of a side some shape has.
    pub fn for_cells(cells: usize) -> Option<Shape> {
        let side = cells.isqrt();
        if side * side != cells {
            return None;
        }
        Shape::for_side(side)
    }

    /// The sides a shape has, smallest first: 4, 6, 8, 9, 10, 12, 14, 15, 16, 18, 20, 21, 22, 24, 25.
    pub fn sides() -> impl Iterator<Item = usize> {
        (Shape::MIN_SIDE..=Shape::MAX_SIDE).filter(|&side| Shape::for_side(side).is_some())
    }

    /// The count of cells of a grid nearest to `cells` (the smaller on a tie): what a text of
    /// `cells` cells most likely meant.
    pub fn nearest_count(cells: usize) -> usize {
        Shape::sides()
            .map(|side| side * side)
            .min_by_key(|&count| count.abs_diff(cells))
            .unwrap_or(Shape::NINE.cells())
    }

    /// Rows of cells in one box.
    pub fn box_rows(self) -> usize {
        usize::from(self.box_rows)
    }

    /// Columns of cells in one box.
    pub fn box_cols(self) -> usize {
        usize::from(self.box_cols)
    }

    /// Cells along one side of the grid, which is also the number of symbols.
    pub fn side(self) -> usize {
        self.box_rows() * self.box_cols()
    }

    /// Cells in the whole grid.
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// The position of the cell at `index` in row-major order.
    pub fn cell(self, index: usize) -> Cell {
        Cell {
            row: index / self.side(),
            col: index % self.side(),
        }
    }

    /// The row, column and box that hold `cell`, in that order.
    pub fn units_of(self, cell: Cell) -> [Unit; 3] {
        [
            Unit::Row(cell.row),
            Unit::Column(cell.col),
            Unit::Box(self.box_of(cell)),
        ]
    }

    /// The box (numbered from 0, row-major) that holds `cell`. A row of boxes holds
    /// `side / box_cols = box_rows` boxes.
    pub fn box_of(self, cell: Cell) -> usize {
        (cell.row / self.box_rows()) * self.box_rows() + cell.col / self.box_cols()
    }
}

impl fmt::Display for Shape {
    /// `9x9 (3x3 boxes)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = self.side();
        write!(
            f,
            "{side}x{side} ({}x{} boxes)",
            self.box_rows, self.box_cols
        )
    }
}

/// A cell's position, numbered from 0 (displayed from 1, as people count).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    /// Row, from 0 at the top.
    pub row: usize,
    /// Column, from 0 at the left.
    pub col: usize,
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "row {}, column {}", self.row + 1, self.col + 1)
    }
}

/// A row, column or box of the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// A row, numbered from 0.
    Row(usize),
    /// A column, numbered from 0.
    Column(usize),
    /// A box, numbered from 0 in row-major order.
    Box(usize),
}

impl Unit {
    /// The unit's number among those of its kind, from 0.
    pub fn number(self) -> usize {
        match self {
            Unit::Row(i) | Unit::Column(i) | Unit::Box(i) => i,
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unit::Row(i) => write!(f, "row {}", i + 1),
            Unit::Column(i) => write!(f, "column {}", i + 1),
            Unit::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}

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

/// A grid of cells in row-major order: 0 is a blank, 1 to `side` a digit.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Vec<u8>,
}

impl Grid {
    /// A grid of the given shape with every cell blank.
    pub fn empty(shape: Shape) -> Grid {
        Grid {
            shape,
            cells: vec![0; shape.cells()],
        }
    }

    /// A grid from cell values in row-major order; `None` unless there are exactly `shape.cells()` values,
    /// each 0 (blank) to `shape.side()`.
    pub fn from_cells(shape: Shape, cells: Vec<u8>) -> Option<Grid> {
        let fits =
            cells.len() == shape.cells() && cells.iter().all(|&v| usize::from(v) <= shape.side());
        fits.then_some(Grid { shape, cells })
    }

    /// A grid from cells a reader has checked: exactly `shape.cells()` values, each 0 to the side.
    pub(crate) fn from_read_cells(shape: Shape, cells: Vec<u8>) -> Grid {
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
    fn nine_has_clash(&self) -> bool {
        let (rows, _) = self.cells.as_chunks::<9>();
        // Bits 1 to 9 for the digits seen so far (a blank sets none), per column, per box of the
        // current band and in the current row: fixed-size, so they stay in registers.
        let mut columns = [0u16; 9];
        let mut clash = 0u16;
        for band in rows.chunks(3) {
            let mut boxes = [0u16; 3];
            for row in band {
                let mut seen = 0u16;
                for (col, &digit) in row.iter().enumerate() {
                    // A 9x9 grid's cells are 0 to 9; the mask only keeps the shift in range.
                    let bit = (1u16 << (digit & 15)) & !1;
                    clash |= (seen | columns[col] | boxes[col / 3]) & bit;
                    seen |= bit;
                    columns[col] |= bit;
                    boxes[col / 3] |= bit;
                }
            }
        }
        clash != 0
    }

    /// The grid as one line, as [`Display`](fmt::Display) writes it, built without the formatting
    /// machinery: every answer the service sends is one.
    pub fn to_line(&self) -> String {
        self.write_line(String::new())
    }

    /// [`Grid::to_line`], written into `buffer` (cleared first), so a caller with a string to spare
    /// saves an allocation.
    pub fn write_line(&self, buffer: String) -> String {
        Symbols::of(self.shape).write_into(self, buffer)
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

/// One line, no layout: `.` for blanks, so a full grid is just its digits.
impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({self})")
    }
}

impl FromStr for Grid {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Grid::parse(s)
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
