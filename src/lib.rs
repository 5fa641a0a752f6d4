//! sudoku-grpc: a gRPC service that solves Sudoku puzzles, as a library: [`server::serve`] runs it
//! on a listener with a [`config::ServerConfig`] until a shutdown future completes.
//!
//! A call goes one way through the layers, each naming only those below it: [`layer`] (the per-call
//! bookkeeping) -> [`rpc`] (one file per RPC) -> [`wire`] (messages to the core's types and back) and
//! [`pool`] (the worker threads that do all CPU-bound work) -> the `sudoku-core` crate (pure and
//! synchronous). `ARCHITECTURE.md` at the repository's root draws the whole map.
#![warn(missing_docs)]

pub mod config;
pub mod layer;
pub mod metrics;
mod pool;
pub mod proto;
pub mod rpc;
pub mod sched;
pub mod server;
pub mod telemetry;
pub mod wire;
