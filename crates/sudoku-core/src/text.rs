//! Reading grids from text and writing them back: every shape from 4x4 to 25x25, any alphabet, and
//! the numbers-written-out form.
//!
//! Two notations are read, told apart by the text itself:
//! - **Symbols**, one character a cell: `53..7....6..` or `1-9A-G` for 16x16, in the standard alphabet
//!   or the one a [`Format`] gives. Whitespace and the layout characters `| - + , " [ ]` are skipped, so
//!   one line, a line a row, a pretty-printed grid with box borders and a JSON array of strings all read
//!   the same.
//! - **Numbers**, when the cells are separated (by whitespace, commas, ...) and some are two digits
//!   long: each is a number from 1 to N, `0` or `.` a blank. This is how 16x16 and 25x25 boards arrive
//!   from JSON backends (`[[0,12,...],...]`) and in the common `1-16` file format.
//!
//! Without a shape, the count of cells decides it: 16, 81, 256 and 625 cells are the square shapes,
//! others take the wide box (rows < columns): 36 cells are 6x6 of 2x3 boxes, 144 are 12x12 of 3x4.

use std::fmt;
use std::str::FromStr;

use crate::error::Conflict;
pub use crate::error::{ParseError, PuzzleError};
use crate::grid::Grid;
use crate::shape::Shape;
use crate::symbols::{BLANK, INVALID, LAYOUT, Symbols, is_layout};

/// What a caller knows of a grid's text before reading it: its shape and alphabet, when given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Format {
    /// The shape; `None` to infer it from the count of cells.
    pub shape: Option<Shape>,
    /// The alphabet; `None` for the standard one of the shape.
    pub symbols: Option<Symbols>,
}

impl Format {
    /// The format a request states with plain numbers and a string, as the wire carries them:
    /// `box_rows` and `box_cols` both 0 to infer the shape, and empty `symbols` for the standard
    /// alphabet.
    pub fn new(box_rows: u32, box_cols: u32, symbols: &str) -> Result<Format, ParseError> {
        let shape = match (box_rows, box_cols) {
            (0, 0) => None,
            _ => Some(
                usize::try_from(box_rows)
                    .ok()
                    .zip(usize::try_from(box_cols).ok())
                    .and_then(|(rows, cols)| Shape::new(rows, cols))
                    .ok_or(ParseError::UnsupportedShape { box_rows, box_cols })?,
            ),
        };
        let symbols = match symbols {
            "" => None,
            text => Some(Symbols::new(text)?),
        };
        if let (Some(shape), Some(symbols)) = (shape, symbols)
            && symbols.len() != shape.side()
        {
            return Err(ParseError::SymbolsDoNotFit {
                symbols: symbols.len(),
                shape,
            });
        }
        Ok(Format { shape, symbols })
    }
}

/// How a grid's text wrote its cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Notation {
    /// One symbol a cell.
    #[default]
    Symbols,
    /// Numbers from 1 to N, separated, `0` for a blank.
    Numbers,
}

/// A grid read from text, with the alphabet and notation it was written in, to answer in kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    /// The grid.
    pub grid: Grid,
    /// The alphabet: the one the format gave, or the standard one of the grid's shape.
    pub symbols: Symbols,
    /// Whether the cells were symbols or numbers.
    pub notation: Notation,
}

impl Read {
    /// [`Grid::check_givens`], the clash named by its symbol in this text's alphabet.
    pub fn check_givens(&self) -> Result<(), PuzzleError> {
        self.grid.check_givens().map_err(|conflict| {
            PuzzleError::Conflict(Conflict {
                symbol: self.symbols.symbol(conflict.digit),
                ..conflict
            })
        })
    }

    /// `grid` (of the same shape) written as this text was: in its alphabet, one symbol a cell, or as
    /// numbers separated by spaces with `0` for blanks.
    pub fn write(&self, grid: &Grid) -> String {
        match self.notation {
            Notation::Symbols => self.symbols.write(grid),
            Notation::Numbers => write_numbers(grid),
        }
    }
}

/// `grid` as numbers separated by spaces, `0` for a blank: the numbers-written-out form on one line.
pub fn write_numbers(grid: &Grid) -> String {
    let values: Vec<String> = grid.cells().iter().map(u8::to_string).collect();
    values.join(" ")
}

impl Symbols {
    /// `grid` in this alphabet, one symbol a cell, `.` for blanks.
    pub fn write(&self, grid: &Grid) -> String {
        self.write_into(grid, String::new())
    }

    /// [`Symbols::write`] into `buffer` (cleared first), so a caller with a string to spare saves an
    /// allocation.
    ///
    /// The service writes every answer this way, so no cell takes a branch: the digits `1`-`9`,
    /// the usual alphabet, are arithmetic the compiler does many cells at a time, and any other
    /// alphabet is a table indexed by the value.
    pub fn write_into(&self, grid: &Grid, buffer: String) -> String {
        let symbols = self.as_bytes();
        let mut line = buffer.into_bytes();
        line.clear();
        line.resize(grid.cells().len(), 0);
        let cells = line.iter_mut().zip(grid.cells());
        if symbols
            .iter()
            .zip(b'1'..)
            .all(|(&symbol, digit)| symbol == digit)
        {
            // At most 25.
            let last = symbols.len() as u8;
            for (out, &v) in cells {
                *out = if v == 0 || v > last { b'.' } else { b'0' + v };
            }
        } else {
            // Values 0 to 63: every value a grid holds (0 to its side, at most
            // `Shape::MAX_SIDE`), and a power of two, so the index needs no bounds check.
            let mut table = [b'.'; 64];
            table[1..=symbols.len()].copy_from_slice(symbols);
            for (out, &v) in cells {
                *out = table[usize::from(v) % table.len()];
            }
        }
        // Every symbol is ASCII.
        String::from_utf8(line).unwrap_or_default()
    }
}

impl Grid {
    /// The grid as one line, as [`Display`](fmt::Display) writes it, built without the formatting
    /// machinery: every answer the service sends is one.
    pub fn to_line(&self) -> String {
        self.write_line(String::new())
    }

    /// [`Grid::to_line`], written into `buffer` (cleared first), so a caller with a string to spare
    /// saves an allocation.
    pub fn write_line(&self, buffer: String) -> String {
        Symbols::of(self.shape()).write_into(self, buffer)
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

/// A first look at a text: how many cells it holds as symbols, and as numbers.
#[derive(Debug, Default)]
struct Survey {
    /// Characters other than layout: the cells, if one symbol is a cell.
    chars: usize,
    /// Runs of characters between layout: the cells, if written as numbers.
    tokens: usize,
    /// Every run is one or two digits, or `.`.
    numeric: bool,
    /// Some run is two digits long.
    two_digits: bool,
}

impl Survey {
    fn of(text: &str) -> Survey {
        let mut survey = Survey {
            numeric: true,
            ..Survey::default()
        };
        for token in text.split(is_layout).filter(|t| !t.is_empty()) {
            survey.tokens += 1;
            survey.chars += token.chars().count();
            let digits = token.bytes().all(|b| b.is_ascii_digit());
            survey.numeric &= token == "." || (digits && token.len() <= 2);
            survey.two_digits |= digits && token.len() == 2;
        }
        survey
    }
}

impl Grid {
    /// Reads a grid of any shape, in the notation the text uses (see the [module](self) docs).
    ///
    /// Without a shape in `format`, the count of cells gives it; without symbols, the standard
    /// alphabet of the shape. The 9x9 one-line form every batch item takes is read as fast as
    /// [`Grid::parse`] reads it.
    pub fn read(text: &str, format: &Format) -> Result<Read, ParseError> {
        if format.symbols.is_none()
            && format.shape.is_none_or(|shape| shape == Shape::NINE)
            && let Some(grid) = Grid::parse_line(text.as_bytes())
        {
            return Ok(Read {
                grid,
                symbols: Symbols::of(Shape::NINE),
                notation: Notation::Symbols,
            });
        }
        let survey = Survey::of(text);
        let fits = |count: usize| match format.shape {
            Some(shape) => count == shape.cells(),
            None => Shape::for_cells(count).is_some(),
        };
        let numbers =
            survey.numeric && survey.two_digits && (fits(survey.tokens) || !fits(survey.chars));
        let found = if numbers { survey.tokens } else { survey.chars };
        let shape = match format.shape {
            Some(shape) if found == shape.cells() => shape,
            Some(shape) => {
                return Err(ParseError::WrongCellCount {
                    found,
                    expected: shape.cells(),
                });
            }
            None => match Shape::for_cells(found) {
                Some(shape) => shape,
                // The count is named before any character: without a shape there is no alphabet
                // to hold a character against, and guessing one from the nearest count would
                // call a symbol of the intended size foreign.
                None => {
                    return Err(ParseError::UnknownSize {
                        found,
                        nearest: Shape::nearest_count(found),
                    });
                }
            },
        };
        let symbols = match format.symbols {
            None => Symbols::of(shape),
            Some(symbols) if symbols.len() == shape.side() => symbols,
            Some(symbols) => {
                return Err(ParseError::SymbolsDoNotFit {
                    symbols: symbols.len(),
                    shape,
                });
            }
        };
        let (cells, notation) = if numbers {
            (read_numbers(text, shape)?, Notation::Numbers)
        } else {
            (read_symbols(text, shape, &symbols)?, Notation::Symbols)
        };
        Ok(Read {
            grid: Grid::from_read_cells(shape, cells),
            symbols,
            notation,
        })
    }

    /// Reads a puzzle: [`Grid::read`], then the check that no two givens clash. A clash names its
    /// symbol in the text's alphabet.
    pub fn read_puzzle(text: &str, format: &Format) -> Result<Read, PuzzleError> {
        let read = Grid::read(text, format)?;
        read.check_givens()?;
        Ok(read)
    }

    /// Reads a 9x9 grid from text, leniently: [`Grid::read`] for 9x9 in the standard alphabet.
    ///
    /// Cells come in row-major order: `1`-`9` are givens, `.` and `0` blanks. Whitespace and the layout
    /// characters `| - + , " [ ]` are skipped, so a one-line string, nine lines, a pretty-printed grid
    /// with box borders and a JSON-style array of arrays all read the same.
    pub fn parse(text: &str) -> Result<Grid, ParseError> {
        if let Some(grid) = Grid::parse_line(text.as_bytes()) {
            return Ok(grid);
        }
        let shape = Shape::NINE;
        let symbols = Symbols::of(shape);
        let cells = read_symbols(text, shape, &symbols)?;
        Ok(Grid::from_read_cells(shape, cells))
    }

    /// The common case of [`Grid::parse`], which every batch item takes: exactly 81 cells and nothing
    /// else. `None` for any other text, which the lenient reader then reads (or explains).
    fn parse_line(bytes: &[u8]) -> Option<Grid> {
        let shape = Shape::NINE;
        if bytes.len() != shape.cells() {
            return None;
        }
        let mut cells = [0; 81];
        let mut valid = true;
        for (cell, &byte) in cells.iter_mut().zip(bytes) {
            let digit = byte.wrapping_sub(b'0');
            valid &= digit <= 9 || byte == b'.';
            *cell = if byte == b'.' { 0 } else { digit };
        }
        valid.then(|| Grid::from_read_cells(shape, cells))
    }

    /// Reads a 9x9 puzzle: [`Grid::parse`], then the check that no two givens clash.
    pub fn parse_puzzle(text: &str) -> Result<Grid, PuzzleError> {
        let grid = Grid::parse(text)?;
        grid.check_givens()?;
        Ok(grid)
    }
}

/// The cells of `text`, one symbol each: exactly `shape.cells()` of them, or the error that says why
/// not (the first invalid character, else the count).
fn read_symbols(text: &str, shape: Shape, symbols: &Symbols) -> Result<Vec<u8>, ParseError> {
    let table = symbols.reading_table();
    let mut cells = Vec::with_capacity(shape.cells());
    let mut found = 0;
    for (position, ch) in text.chars().enumerate() {
        // The table covers ASCII only: U+0080 to U+00FF fit a byte too, and some (U+0085, U+00A0) are
        // whitespace, so layout.
        let value = match u8::try_from(ch) {
            Ok(byte) if ch.is_ascii() => table[usize::from(byte)],
            _ if is_layout(ch) => LAYOUT,
            _ => INVALID,
        };
        match value {
            LAYOUT => continue,
            INVALID => {
                let cell = (found < shape.cells()).then(|| shape.cell(found));
                return Err(ParseError::InvalidCharacter {
                    ch,
                    position,
                    cell,
                    symbols: *symbols,
                });
            }
            _ if found < shape.cells() => cells.push(value),
            _ => {}
        }
        found += 1;
    }
    if found != shape.cells() {
        return Err(ParseError::WrongCellCount {
            found,
            expected: shape.cells(),
        });
    }
    Ok(cells)
}

/// The cells of `text` written as numbers, which [`Survey`] found to be `shape.cells()` runs of one or
/// two digits or `.`.
fn read_numbers(text: &str, shape: Shape) -> Result<Vec<u8>, ParseError> {
    let mut cells = Vec::with_capacity(shape.cells());
    let mut position = 0;
    let mut rest = text;
    while !rest.is_empty() {
        let start = rest.find(|ch: char| !is_layout(ch)).unwrap_or(rest.len());
        position += rest[..start].chars().count();
        rest = &rest[start..];
        let end = rest.find(is_layout).unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        let token = &rest[..end];
        // One or two ASCII digits, or `.`: the survey saw to it.
        let number = token
            .bytes()
            .filter(u8::is_ascii_digit)
            .fold(0u8, |n, b| n.saturating_mul(10).saturating_add(b - b'0'));
        let cell = shape.cell(cells.len());
        if usize::from(number) > shape.side() {
            return Err(ParseError::NumberOutOfRange {
                number,
                position,
                cell,
                side: shape.side(),
            });
        }
        cells.push(if number == 0 { BLANK } else { number });
        position += end;
        rest = &rest[end..];
    }
    if cells.len() != shape.cells() {
        return Err(ParseError::WrongCellCount {
            found: cells.len(),
            expected: shape.cells(),
        });
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{Cell, Unit};

    const PUZZLE: &str =
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn cell(row: usize, col: usize) -> Cell {
        Cell { row, col }
    }

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
            Grid::read(pretty, &Format::default()).unwrap().grid,
            Grid::read(&board, &Format::default()).unwrap().grid,
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
                cell: Some(cell(0, 3)),
                symbols: Symbols::of(Shape::NINE),
            }
        );
    }

    #[test]
    fn invalid_character_names_itself_and_its_cell() {
        let text = format!("{}x{}", &PUZZLE[..10], &PUZZLE[11..]);
        for err in [
            Grid::parse(&text).unwrap_err(),
            Grid::read(&text, &Format::default()).unwrap_err(),
        ] {
            assert_eq!(
                err,
                ParseError::InvalidCharacter {
                    ch: 'x',
                    position: 10,
                    cell: Some(cell(1, 1)),
                    symbols: Symbols::of(Shape::NINE),
                }
            );
            assert_eq!(
                err.to_string(),
                "invalid character 'x' at position 11 of the text (row 2, column 2): \
                 expected a digit 1-9, or '.' or '0' for a blank"
            );
        }
    }

    #[test]
    fn a_count_no_shape_has_is_named_before_any_character() {
        // 200 cells of 16x16 text: the nearest count is 196 (14x14), whose alphabet stops at E, but
        // the fault is the count, and 'G' only looks foreign because of it.
        let text: String = "123456789ABCDE.G".chars().cycle().take(200).collect();
        let err = Grid::read(&text, &Format::default()).unwrap_err();
        assert_eq!(
            err,
            ParseError::UnknownSize {
                found: 200,
                nearest: 196
            }
        );
        assert!(
            err.to_string()
                .starts_with("expected 196 cells, found 200: a grid has 16 (4x4), "),
            "{err}"
        );
        // So too when no alphabet holds the character, and in another alphabet given without a shape.
        for (text, format) in [
            ("12x", Format::default()),
            ("not a puzzle", Format::default()),
            ("abcz", Format::new(0, 0, "0123456789abcdef").unwrap()),
        ] {
            let found = text.chars().filter(|&ch| !is_layout(ch)).count();
            assert_eq!(
                Grid::read(text, &format).unwrap_err(),
                ParseError::UnknownSize {
                    found,
                    nearest: Shape::nearest_count(found)
                },
                "{text:?}"
            );
        }
        // A shape given: the count is checked against it before any character.
        let nine = Format::new(3, 3, "").unwrap();
        assert_eq!(
            Grid::read(&text, &nine).unwrap_err(),
            ParseError::WrongCellCount {
                found: 200,
                expected: 81
            }
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
        let err = Grid::read(&PUZZLE[..80], &Format::default()).unwrap_err();
        assert_eq!(
            err,
            ParseError::UnknownSize {
                found: 80,
                nearest: 81
            }
        );
        assert_eq!(
            err.to_string(),
            "expected 81 cells, found 80: a grid has 16 (4x4), 36 (6x6), 64 (8x8), 81 (9x9), \
             100 (10x10), 144 (12x12), 196 (14x14), 225 (15x15), 256 (16x16), 324 (18x18), \
             400 (20x20), 441 (21x21), 484 (22x22), 576 (24x24) or 625 (25x25) cells"
        );
        let six = Format::new(3, 2, "").unwrap();
        assert_eq!(
            Grid::read(PUZZLE, &six).unwrap_err(),
            ParseError::WrongCellCount {
                found: 81,
                expected: 36
            }
        );
    }

    #[test]
    fn shapes_follow_from_the_count_or_the_format() {
        for (side, rows, cols) in [
            (4, 2, 2),
            (6, 2, 3),
            (8, 2, 4),
            (9, 3, 3),
            (10, 2, 5),
            (12, 3, 4),
            (15, 3, 5),
            (16, 4, 4),
            (20, 4, 5),
            (25, 5, 5),
        ] {
            let text = ".".repeat(side * side);
            let read = Grid::read(&text, &Format::default()).unwrap();
            assert_eq!(read.grid.shape(), Shape::new(rows, cols).unwrap(), "{side}");
            assert_eq!(read.symbols, Symbols::standard(side).unwrap());
            let tall = Format::new(cols as u32, rows as u32, "").unwrap();
            let read = Grid::read(&text, &tall).unwrap();
            assert_eq!(read.grid.shape(), Shape::new(cols, rows).unwrap());
        }
        for (rows, cols) in [(1, 4), (0, 3), (2, 13), (5, 6), (u32::MAX, 2)] {
            assert_eq!(
                Format::new(rows, cols, "").unwrap_err(),
                ParseError::UnsupportedShape {
                    box_rows: rows,
                    box_cols: cols
                }
            );
        }
        assert_eq!(
            Format::new(3, 3, "12345678").unwrap_err(),
            ParseError::SymbolsDoNotFit {
                symbols: 8,
                shape: Shape::NINE
            }
        );
    }

    #[test]
    fn alphabets_read_and_write_in_kind() {
        let sixteen = "1.3.5.7.9.B.D.F.".repeat(16);
        let read = Grid::read(&sixteen.to_lowercase(), &Format::default()).unwrap();
        assert_eq!(read.grid.cells()[10], 11);
        assert_eq!(read.write(&read.grid), sixteen);
        let hex = Format::new(0, 0, "0123456789abcdef").unwrap();
        let text = "0.2.4.6.8.A.C.E.".repeat(16);
        let read = Grid::read(&text, &hex).unwrap();
        assert_eq!(read.grid.cells()[..3], [1, 0, 3]);
        assert_eq!(read.write(&read.grid), text.to_lowercase());
        let err = Grid::read(&text.replace('E', "G"), &hex).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid character 'G' at position 15 of the text (row 1, column 15): expected one of \
             the symbols 0123456789abcdef, or '.' for a blank"
        );
        let err = Grid::read(&"H".repeat(256), &Format::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid character 'H' at position 1 of the text (row 1, column 1): expected a symbol \
             1-9 or A-G, or '.' or '0' for a blank"
        );
    }

    #[test]
    fn every_alphabet_writes_each_cell_as_its_symbol() {
        let shapes = [(2, 2), (2, 3), (3, 3), (4, 4), (5, 5)];
        for (rows, cols) in shapes {
            let shape = Shape::new(rows, cols).unwrap();
            let side = shape.side();
            let cells: Vec<u8> = (0..shape.cells()).map(|i| (i % (side + 1)) as u8).collect();
            let grid = Grid::from_cells(shape, cells).unwrap();
            let custom: String = ('a'..).take(side).collect();
            for symbols in [Symbols::of(shape), Symbols::new(&custom).unwrap()] {
                let expected: String = grid
                    .cells()
                    .iter()
                    .map(|&v| if v == 0 { '.' } else { symbols.symbol(v) })
                    .collect();
                assert_eq!(
                    symbols.write_into(&grid, "spare".into()),
                    expected,
                    "{side}"
                );
            }
        }
    }

    #[test]
    fn numbers_written_out_read_as_numbers() {
        let values: Vec<u8> = (0..256).map(|i| ((i * 7) % 17) as u8).collect();
        let rows: Vec<String> = values
            .chunks(16)
            .map(|row| {
                let row: Vec<String> = row.iter().map(u8::to_string).collect();
                format!("[{}]", row.join(","))
            })
            .collect();
        let json = format!("[{}]", rows.join(","));
        let read = Grid::read(&json, &Format::default()).unwrap();
        assert_eq!(read.notation, Notation::Numbers);
        assert_eq!(read.grid.shape(), Shape::new(4, 4).unwrap());
        assert_eq!(read.grid.cells(), &values[..]);
        let line = write_numbers(&read.grid);
        assert_eq!(read.write(&read.grid), line);
        assert_eq!(Grid::read(&line, &Format::default()).unwrap(), read);
        // Two-digit runs that only make sense as symbols: a 4x4 written with its boxes apart.
        let boxes = Grid::read("12 34\n34 12\n21 43\n43 21", &Format::default()).unwrap();
        assert_eq!(boxes.notation, Notation::Symbols);
        assert_eq!(boxes.grid.to_line(), "1234341221434321");
        let wrong = line.replacen("7", "17", 1);
        let err = Grid::read(&wrong, &Format::default()).unwrap_err();
        assert_eq!(
            err,
            ParseError::NumberOutOfRange {
                number: 17,
                position: 2,
                cell: cell(0, 1),
                side: 16
            }
        );
        assert_eq!(
            err.to_string(),
            "number 17 at position 3 of the text (row 1, column 2) is out of range: expected 1 to \
             16, or 0 or '.' for a blank"
        );
    }

    #[test]
    fn clashes_name_unit_symbol_and_cells() {
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
                symbol: char::from(b'0' + digit),
                unit,
                first: cell(first.0, first.1),
                second: cell(second.0, second.1),
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
        let mut six = ".".repeat(36);
        six.replace_range(0..1, "c");
        six.replace_range(13..14, "C");
        let err = Grid::read_puzzle(&six, &Format::new(3, 2, "abcdef").unwrap()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "symbol c appears twice in box 1: at row 1, column 1 and at row 3, column 2"
        );
    }
}
