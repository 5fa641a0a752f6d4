//! Solve: one puzzle, solved on the pool in the shape and alphabet its request states; and the solve
//! itself, which SolveBatch's items share.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use sudoku_core::grid::Shape;
use sudoku_core::solver::{self, Mode, Outcome, Verdict};
use sudoku_core::symbols::Symbols;
use sudoku_core::text::Read;
use tonic::{Request, Response, Status};

use super::{RpcError, Sudoku};
use crate::metrics::Metrics;
use crate::proto::{self, SolveRequest, SolveResponse, SolveStats};
use crate::wire::PuzzleRequest;

/// How one puzzle should be solved: the request's options, made safe.
#[derive(Clone, Copy, Debug)]
pub(super) struct Job {
    pub(super) mode: Mode,
    pub(super) max_guesses: u64,
}

impl Job {
    /// The job a request asks for, within the server's limits.
    pub(super) fn new(service: &Sudoku, skip_uniqueness_check: bool, max_guesses: u64) -> Job {
        Job {
            mode: if skip_uniqueness_check {
                Mode::FirstSolution
            } else {
                Mode::ProveUnique
            },
            max_guesses: service.max_guesses(max_guesses),
        }
    }
}

/// A solved puzzle and what it cost, with the shape and alphabet its answer is given in.
#[derive(Debug)]
pub(super) struct Solved {
    pub(super) outcome: Outcome,
    elapsed: Duration,
    shape: Shape,
    symbols: Symbols,
}

/// Solves one unary call's puzzle.
pub(super) async fn solve(
    service: &Sudoku,
    request: Request<SolveRequest>,
) -> Result<Response<SolveResponse>, Status> {
    let deadline = crate::layer::deadline(&request);
    let request = request.into_inner();
    let job = Job::new(service, request.skip_uniqueness_check, request.max_guesses);
    let metrics = service.metrics.clone();
    let read = request
        .read()
        .inspect_err(|_| metrics.puzzle(proto::Verdict::Invalid.as_str_name()))
        .map_err(RpcError::from)?;
    let solved = service
        .run_unary(deadline, move |stop| {
            let result = solve_guarded(&read, job, stop, &metrics);
            let verdict = match &result {
                Ok(solved) if solved.outcome.verdict == Verdict::Cancelled => return None,
                Ok(solved) => proto::Verdict::from(solved.outcome.verdict),
                Err(_) => proto::Verdict::Unspecified,
            };
            metrics.puzzle(verdict.as_str_name());
            Some(result)
        })
        .await??;
    let answer = solved.into_response(String::new());
    tracing::debug!(verdict = answer.verdict().as_str_name(), "solved");
    Ok(Response::new(answer))
}

/// Runs the solver, timed, on the calling (worker) thread. A panic in the solver, which would be our
/// bug, becomes an error for this one puzzle instead of taking others down with it.
pub(super) fn solve_guarded(
    read: &Read,
    job: Job,
    cancel: &AtomicBool,
    metrics: &Metrics,
) -> Result<Solved, RpcError> {
    let options = solver::Options {
        mode: job.mode,
        max_guesses: Some(job.max_guesses),
        cancel: Some(cancel),
    };
    let puzzle = &read.grid;
    let start = Instant::now();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        solver::solve(puzzle, &options)
    }))
    .map_err(|_| RpcError::Internal(format!("the solver failed on {puzzle}")))?;
    let elapsed = start.elapsed();
    metrics.solve_time(elapsed);
    Ok(Solved {
        outcome,
        elapsed,
        shape: puzzle.shape(),
        symbols: read.symbols,
    })
}

impl Solved {
    /// The answer, its solution (if any) written in the request's alphabet, one symbol a cell, into
    /// `spare`'s buffer, with the shape as read.
    pub(super) fn into_response(self, spare: String) -> SolveResponse {
        let Solved {
            outcome,
            elapsed,
            shape,
            symbols,
        } = self;
        SolveResponse {
            verdict: proto::Verdict::from(outcome.verdict).into(),
            solution: outcome
                .solution
                .map(|grid| symbols.write_into(&grid, spare))
                .unwrap_or_default(),
            stats: Some(SolveStats {
                guesses: outcome.stats.guesses,
                solve_time_ns: u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX),
            }),
            // At most 12 each.
            box_rows: shape.box_rows() as u32,
            box_cols: shape.box_cols() as u32,
        }
    }
}
