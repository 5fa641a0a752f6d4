//! Sudoku of every size: grids and their shapes, the text formats puzzles arrive in, and the solvers.
//!
//! This crate is the domain core of `sudoku-grpc`. It is pure and synchronous, knows nothing of any
//! transport, and never panics on any input: every reader returns a typed error that says what is wrong
//! and where.
//!
//! ```
//! use sudoku_core::grid::Grid;
//! use sudoku_core::solver::{self, Options, Verdict};
//!
//! let puzzle = Grid::parse_puzzle(
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
//! )?;
//! let outcome = solver::solve(&puzzle, &Options::default());
//! assert_eq!(outcome.verdict, Verdict::Unique);
//! let solution = outcome.solution.expect("a unique puzzle comes with its solution");
//! assert!(solution.solves(&puzzle));
//! assert_eq!(
//!     solution.to_line(),
//!     "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
//! );
//! # Ok::<(), sudoku_core::grid::PuzzleError>(())
//! ```
//!
//! Every shape from 4x4 to 25x25 reads the same way, its shape inferred from the count of cells (or
//! given), in the standard alphabet (`1`-`9` then `A`...), another one, or as numbers written out:
//!
//! ```
//! use sudoku_core::grid::Grid;
//! use sudoku_core::solver::{self, Options, Verdict};
//! use sudoku_core::text::{Format, Notation};
//!
//! // A 6x6 of 2x3 boxes, inferred from its 36 cells.
//! let read = Grid::read_puzzle("1.....\n..3...\n.4..5.\n......\n...2..\n6..4.1", &Format::default())?;
//! assert_eq!(read.grid.shape().to_string(), "6x6 (2x3 boxes)");
//! let outcome = solver::solve(&read.grid, &Options::default());
//! let solution = outcome.solution.expect("solvable");
//! assert!(solution.solves(&read.grid));
//!
//! // A 4x4 in an alphabet of its own, answered in it.
//! let format = Format::new(0, 0, "abcd")?;
//! let read = Grid::read_puzzle("a... ..c. .d.. ...b", &format)?;
//! let outcome = solver::solve(&read.grid, &Options::default());
//! assert_eq!(outcome.verdict, Verdict::Unique);
//! let solution = outcome.solution.expect("solvable");
//! assert!(read.write(&solution).starts_with('a'));
//!
//! // A 16x16 as numbers written out, as JSON backends send it: blank but for one 12.
//! let mut cells = vec!["0"; 256];
//! cells[1] = "12";
//! let read = Grid::read(&format!("[{}]", cells.join(",")), &Format::default())?;
//! assert_eq!((read.grid.shape().side(), read.notation), (16, Notation::Numbers));
//! assert_eq!(read.grid.cells()[1], 12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![warn(missing_docs)]

pub mod candidates;
pub mod canonicalization;
mod error;
pub mod fpuzzles;
pub mod generator;
pub mod grader;
pub mod grid;
pub mod hint;
pub mod puzzle_file;
mod shape;
pub mod solver;
pub mod strategy;
pub mod symbols;
pub mod text;
pub mod variant;
