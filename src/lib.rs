//! sudoku-grpc: a gRPC service that solves Sudoku puzzles.
//!
//! The request path runs one way: [`proto`] (the wire) -> [`service`] (text to [`grid::Grid`], domain
//! errors to `tonic::Status`) -> the solver pool's worker threads -> [`solver`] (pure and synchronous, in the `sudoku-core` crate) -> back out as
//! responses. [`server`] assembles the service with health, reflection and limits behind one
//! [`server::serve`] entry that `main` and the tests share.
#![warn(missing_docs)]

/// The domain core's canonical (min-lex) form, re-exported.
pub use sudoku_core::canonicalization;
/// The domain core's grids and text formats, re-exported: the service speaks in them.
pub use sudoku_core::grid;
/// The domain core's solvers, re-exported.
pub use sudoku_core::solver;

pub mod bench;
pub mod cli;
pub mod client;
pub mod config;
pub mod generate;
pub mod grpc;
pub mod load;
pub mod metrics;
mod pool;
pub mod proto;
pub mod puzzles;
pub mod sched;
pub mod server;
pub mod service;
pub mod telemetry;
