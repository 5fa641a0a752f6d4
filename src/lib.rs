//! sudoku-grpc: a gRPC service that solves Sudoku puzzles.
//!
//! The request path runs one way: [`proto`] (the wire) -> [`service`] (text to [`grid::Grid`], domain
//! errors to `tonic::Status`) -> the blocking pool -> [`solver`] (pure and synchronous) -> back out as
//! responses. [`server`] assembles the service with health, reflection and limits behind one
//! [`server::serve`] entry that `main` and the tests share.
#![warn(missing_docs)]

pub mod bench;
pub mod cli;
pub mod config;
pub mod grid;
pub mod grpc;
pub mod proto;
pub mod server;
pub mod service;
pub mod solver;
pub mod telemetry;
