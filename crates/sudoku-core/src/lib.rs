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
#![warn(missing_docs)]

pub mod generator;
pub mod grid;
pub mod solver;
