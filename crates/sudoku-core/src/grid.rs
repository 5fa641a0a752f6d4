//! Sudoku grids: the grid type, the lenient text reader, formatting, and the check for clashing givens.
//!
//! A grid carries its [`Shape`], so sizes other than 9x9 can arrive without changing the types that pass
//! grids around. Today the text reader reads 9x9 puzzles only.

use std::fmt;
use std::str::FromStr;

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

/// Why a puzzle's text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A character that is neither a digit, a blank, nor layout.
    #[error(
        "invalid character {ch:?} at position {} of the text{}: expected a digit 1-9, or '.' or '0' for a blank",
        .position + 1,
        .cell.map(|c| format!(" ({c})")).unwrap_or_default()
    )]
    InvalidCharacter {
        /// The offending character.
        ch: char,
        /// Its position in the text, counted in characters from 0.
        position: usize,
        /// The cell it would have filled, if the grid was not already full.
        cell: Option<Cell>,
    },
    /// The text holds more or fewer cells than the grid has.
    #[error("expected {expected} cells, found {found}")]
    WrongCellCount {
        /// Cells the text held.
        found: usize,
        /// Cells the grid has.
        expected: usize,
    },
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

/// Two givens with the same digit in one row, column or box.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("digit {digit} appears twice in {unit}: at {first} and at {second}")]
pub struct Conflict {
    /// The repeated digit.
    pub digit: u8,
    /// The unit that holds it twice.
    pub unit: Unit,
    /// The first of the two cells, in row-major order.
    pub first: Cell,
    /// The second of the two cells.
    pub second: Cell,
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

/// A grid of cells in row-major order: 0 is a blank, 1 to `side` a digit.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Vec<u8>,
}

/// Characters that only lay a grid out and are skipped when reading one.
fn is_layout(ch: char) -> bool {
    ch.is_whitespace() || matches!(ch, '|' | '-' | '+' | ',' | '"' | '[' | ']')
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

    /// Reads a 9x9 grid from text, leniently.
    ///
    /// Cells come in row-major order: `1`-`9` are givens, `.` and `0` blanks. Whitespace and the layout
    /// characters `| - + , " [ ]` are skipped, so a one-line string, nine lines, a pretty-printed grid
    /// with box borders and a JSON-style array of arrays all read the same.
    pub fn parse(text: &str) -> Result<Grid, ParseError> {
        if let Some(grid) = Grid::parse_line(text.as_bytes()) {
            return Ok(grid);
        }
        let shape = Shape::NINE;
        let mut cells = Vec::with_capacity(shape.cells());
        let mut found = 0;
        let bytes = text.as_bytes();
        let mut at = 0;
        // Byte by byte: every character that matters is ASCII; any other is looked at as a character.
        while let Some(&byte) = bytes.get(at) {
            let value = match byte {
                b'.' | b'0' => 0,
                b'1'..=b'9' => byte - b'0',
                _ => {
                    let ch = text[at..]
                        .chars()
                        .next()
                        .unwrap_or(char::REPLACEMENT_CHARACTER);
                    if !is_layout(ch) {
                        let cell = (found < shape.cells()).then(|| shape.cell(found));
                        let position = text[..at].chars().count();
                        return Err(ParseError::InvalidCharacter { ch, position, cell });
                    }
                    at += ch.len_utf8();
                    continue;
                }
            };
            if found < shape.cells() {
                cells.push(value);
            }
            found += 1;
            at += 1;
        }
        if found != shape.cells() {
            return Err(ParseError::WrongCellCount {
                found,
                expected: shape.cells(),
            });
        }
        Ok(Grid { shape, cells })
    }

    /// The common case of [`Grid::parse`], which every batch item takes: exactly 81 cells and nothing
    /// else. `None` for any other text, which the lenient reader then reads (or explains).
    fn parse_line(bytes: &[u8]) -> Option<Grid> {
        let shape = Shape::NINE;
        if bytes.len() != shape.cells() {
            return None;
        }
        let mut cells = vec![0; shape.cells()];
        let mut valid = true;
        for (cell, &byte) in cells.iter_mut().zip(bytes) {
            let digit = byte.wrapping_sub(b'0');
            valid &= digit <= 9 || byte == b'.';
            *cell = if byte == b'.' { 0 } else { digit };
        }
        valid.then_some(Grid { shape, cells })
    }

    /// Reads a puzzle: [`Grid::parse`], then the check that no two givens clash.
    pub fn parse_puzzle(text: &str) -> Result<Grid, PuzzleError> {
        let grid = Grid::parse(text)?;
        grid.check_givens()?;
        Ok(grid)
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
        let mut line = buffer.into_bytes();
        line.clear();
        line.extend(self.cells.iter().map(|&v| symbol(v)));
        // Every symbol is ASCII.
        String::from_utf8(line).unwrap_or_default()
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

/// The symbol for a cell value, an ASCII byte: `.` for a blank, `1`-`9`, then `A` onwards for larger
/// grids (cells hold at most 25).
fn symbol(value: u8) -> u8 {
    match value {
        0 => b'.',
        1..=9 => b'0' + value,
        _ => b'A' + (value - 10).min(25),
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

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    #[test]
    fn layouts_read_the_same() {
        let one_line = Grid::parse(PUZZLE).unwrap();
        let zeros = Grid::parse(&PUZZLE.replace('.', "0")).unwrap();
        let lines: String = PUZZLE
            .as_bytes()
            .chunks(9)
            .map(|row| format!("{}\n", std::str::from_utf8(row).unwrap()))
            .collect();
        let pretty = "5 3 . | . 7 . | . . .\n6 . . | 1 9 5 | . . .\n. 9 8 | . . . | . 6 .\n\
                      ------+-------+------\n8 . . | . 6 . | . . 3\n4 . . | 8 . 3 | . . 1\n\
                      7 . . | . 2 . | . . 6\n------+-------+------\n. 6 . | . . . | 2 8 .\n\
                      . . . | 4 1 9 | . . 5\n. . . | . 8 . | . 7 9\n";
        let board: String = format!(
            "[{}]",
            PUZZLE
                .as_bytes()
                .chunks(9)
                .map(|row| format!(
                    "[{}]",
                    row.iter()
                        .map(|&c| format!("\"{}\"", c as char))
                        .collect::<Vec<_>>()
                        .join(",")
                ))
                .collect::<Vec<_>>()
                .join(",")
        );
        for text in [
            zeros,
            Grid::parse(&lines).unwrap(),
            Grid::parse(pretty).unwrap(),
            Grid::parse(&board).unwrap(),
        ] {
            assert_eq!(text, one_line);
        }
        assert_eq!(one_line.to_string(), PUZZLE);
        assert_eq!(one_line.givens(), 30);
    }

    #[test]
    fn positions_count_characters_and_unicode_spaces_are_layout() {
        // An ideographic space (three bytes) is whitespace, so skipped; a full-width digit is not a
        // digit, and its position counts characters, not bytes.
        let spaced = format!("\u{3000}{}\u{2003}", PUZZLE);
        assert_eq!(Grid::parse(&spaced).unwrap().to_line(), PUZZLE);
        let text = format!("\u{3000}\u{3000}{}\u{ff15}{}", &PUZZLE[..3], &PUZZLE[4..]);
        assert_eq!(
            Grid::parse(&text).unwrap_err(),
            ParseError::InvalidCharacter {
                ch: '\u{ff15}',
                position: 5,
                cell: Some(Cell { row: 0, col: 3 })
            }
        );
    }

    #[test]
    fn invalid_character_names_itself_and_its_cell() {
        let text = format!("{}x{}", &PUZZLE[..10], &PUZZLE[11..]);
        let err = Grid::parse(&text).unwrap_err();
        assert_eq!(
            err,
            ParseError::InvalidCharacter {
                ch: 'x',
                position: 10,
                cell: Some(Cell { row: 1, col: 1 })
            }
        );
        assert_eq!(
            err.to_string(),
            "invalid character 'x' at position 11 of the text (row 2, column 2): \
             expected a digit 1-9, or '.' or '0' for a blank"
        );
    }

    #[test]
    fn wrong_counts_name_the_count() {
        for (text, found) in [("", 0), (&PUZZLE[..80], 80), (&format!("{PUZZLE}1"), 82)] {
            assert_eq!(
                Grid::parse(text).unwrap_err(),
                ParseError::WrongCellCount {
                    found,
                    expected: 81
                }
            );
        }
    }

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

    #[test]
    fn clashes_name_unit_digit_and_cells() {
        let mut row = [b'.'; 81];
        row[0] = b'4';
        row[8] = b'4';
        let mut col = [b'.'; 81];
        col[4] = b'7';
        col[76] = b'7';
        let mut boxed = [b'.'; 81];
        boxed[30] = b'2';
        boxed[50] = b'2';
        let cases = [
            (row, Unit::Row(0), 4, (0, 0), (0, 8)),
            (col, Unit::Column(4), 7, (0, 4), (8, 4)),
            (boxed, Unit::Box(4), 2, (3, 3), (5, 5)),
        ];
        for (text, unit, digit, first, second) in cases {
            let err = Grid::parse_puzzle(std::str::from_utf8(&text).unwrap()).unwrap_err();
            let expected = Conflict {
                digit,
                unit,
                first: Cell {
                    row: first.0,
                    col: first.1,
                },
                second: Cell {
                    row: second.0,
                    col: second.1,
                },
            };
            assert_eq!(err, PuzzleError::Conflict(expected));
        }
        let msg = Grid::parse_puzzle(std::str::from_utf8(&row).unwrap())
            .unwrap_err()
            .to_string();
        assert_eq!(
            msg,
            "digit 4 appears twice in row 1: at row 1, column 1 and at row 1, column 9"
        );
    }
}
