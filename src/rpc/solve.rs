//! Solve: one puzzle, classic or variant, solved on the pool in the shape and alphabet its request
//! states; and the solve itself, which SolveBatch's items share.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use sudoku_core::grid::Grid;
use sudoku_core::solver::{self, Mode, Verdict};
use sudoku_core::symbols::Symbols;
use sudoku_core::text::Read;
use sudoku_core::variant;
use tonic::{Request, Response, Status};

use super::{RpcError, Sudoku};
use crate::metrics::SolveTimes;
use crate::proto::{self, SolveRequest, SolveResponse, SolveStats};
use crate::wire::{Alphabet, Input, SolveInput, VariantRead};

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

    /// The solver's options for this job, polling `cancel`.
    pub(super) fn options(self, cancel: &AtomicBool) -> solver::Options<'_> {
        solver::Options {
            mode: self.mode,
            max_guesses: Some(self.max_guesses),
            cancel: Some(cancel),
        }
    }
}

/// A solved puzzle and what it cost, with what its answer is written in.
#[derive(Debug)]
pub(super) struct Solved {
    /// What the solver established.
    pub(super) verdict: Verdict,
    guesses: u64,
    elapsed: Duration,
    solution: Solution,
    /// The grid's boxes as the answer states them (0 and 0 for a variant without boxes).
    boxes: (u32, u32),
}

/// A solution, if one was found, and the symbols to write it in.
#[derive(Debug)]
enum Solution {
    /// A classic grid, in the request's alphabet.
    Classic {
        grid: Option<Grid>,
        symbols: Symbols,
    },
    /// A variant's values, row-major.
    Variant {
        values: Option<Vec<u8>>,
        alphabet: Alphabet,
    },
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
    let input = request
        .input()
        .inspect_err(|_| metrics.puzzle(proto::Verdict::Invalid.as_str_name()))
        .map_err(RpcError::from)?;
    let solved = service
        .run_unary(deadline, move |stop| {
            let mut times = SolveTimes::default();
            let result = solve_input(&input, job, stop, &mut times);
            metrics.solve_times(&times);
            let verdict = match &result {
                Ok(solved) if solved.verdict == Verdict::Cancelled => return None,
                Ok(solved) => proto::Verdict::from(solved.verdict),
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

/// Solves a classic puzzle or a variant, as [`solve_guarded`] or [`solve_variant_guarded`].
pub(super) fn solve_input(
    input: &Input,
    job: Job,
    cancel: &AtomicBool,
    times: &mut SolveTimes,
) -> Result<Solved, RpcError> {
    match input {
        Input::Classic(read) => solve_guarded(read, job, cancel, times),
        Input::Variant(variant) => solve_variant_guarded(variant, job, cancel, times),
    }
}

/// Runs the solver, timed, on the calling (worker) thread, and counts its time in `times` (the
/// caller adds them to the metrics: a batch worker once per chunk). Clashing givens are the
/// request's error, whether or not `read` was checked for them. A panic in the solver, which
/// would be our bug, becomes an error for this one puzzle instead of taking others down with it.
pub(super) fn solve_guarded(
    read: &Read,
    job: Job,
    cancel: &AtomicBool,
    times: &mut SolveTimes,
) -> Result<Solved, RpcError> {
    let options = job.options(cancel);
    let puzzle = &read.grid;
    let start = Instant::now();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        solver::solve(puzzle, &options)
    }))
    .map_err(|_| RpcError::Internal(format!("the solver failed on {puzzle}")))?;
    let elapsed = start.elapsed();
    times.add(elapsed);
    // Clashing givens are unsolvable: the read may have left them for the solver to find.
    if outcome.verdict == Verdict::Unsolvable {
        read.check_givens()?;
    }
    let shape = puzzle.shape();
    Ok(Solved {
        verdict: outcome.verdict,
        guesses: outcome.stats.guesses,
        elapsed,
        solution: Solution::Classic {
            grid: outcome.solution,
            symbols: read.symbols,
        },
        // At most 12 each.
        boxes: (shape.box_rows() as u32, shape.box_cols() as u32),
    })
}

/// [`solve_guarded`] for a variant: the variant solver, under the same budget, flag and guard.
pub(super) fn solve_variant_guarded(
    read: &VariantRead,
    job: Job,
    cancel: &AtomicBool,
    times: &mut SolveTimes,
) -> Result<Solved, RpcError> {
    let options = job.options(cancel);
    let start = Instant::now();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        variant::solve(&read.variant, &options)
    }))
    .map_err(|_| RpcError::Internal("the variant solver failed".into()))?;
    let elapsed = start.elapsed();
    times.add(elapsed);
    Ok(Solved {
        verdict: outcome.verdict,
        guesses: outcome.stats.guesses,
        elapsed,
        solution: Solution::Variant {
            values: outcome.solution,
            alphabet: read.alphabet,
        },
        boxes: read.boxes(),
    })
}

impl Solved {
    /// The answer, its solution (if any) written in the request's alphabet, one symbol a cell, into
    /// `spare`'s buffer, with the shape as read.
    pub(super) fn into_response(self, spare: String) -> SolveResponse {
        let Solved {
            verdict,
            guesses,
            elapsed,
            solution,
            boxes: (box_rows, box_cols),
        } = self;
        let solution = match solution {
            Solution::Classic { grid, symbols } => grid
                .map(|grid| symbols.write_into(&grid, spare))
                .unwrap_or_default(),
            Solution::Variant { values, alphabet } => values
                .map(|values| alphabet.write(&values))
                .unwrap_or_default(),
        };
        SolveResponse {
            verdict: proto::Verdict::from(verdict).into(),
            solution,
            stats: Some(SolveStats {
                guesses,
                solve_time_ns: u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX),
            }),
            box_rows,
            box_cols,
        }
    }
}
