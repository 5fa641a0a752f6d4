//! The gRPC service: requests to domain types and back, the one mapping from domain errors to
//! `tonic::Status`, and unary Solve. The solving itself runs on the [`crate::pool`] workers. The
//! SolveBatch pipeline and the RPCs beyond solving live in submodules, one per concern.

mod canonicalize;
mod generate;
mod grade;
mod solve_batch;

pub use grade::{grade_line, grade_local, hint_lines, hint_local, step_line};
pub(crate) use solve_batch::answer_item;

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use futures::stream::Stream;
use tokio::sync::oneshot;
use tonic::{Code, Request, Response, Status, Streaming};
use tonic_types::{ErrorDetails, StatusExt};

use crate::config::ServerConfig;
use crate::grid::{Grid, ParseError, PuzzleError, Shape};
use crate::grpc::REQUEST_ID;
use crate::metrics::Metrics;
use crate::pool::{BatchItem, Pool, StopReason, Ticket, UnaryJob};
use crate::proto::sudoku_service_server::SudokuService;
use crate::proto::{
    self, CanonicalizeRequest, CanonicalizeResponse, GenerateRequest, GradeRequest, GradeResponse,
    HintRequest, HintResponse, SolveBatchRequest, SolveBatchResponse, SolveRequest, SolveResponse,
    SolveStats,
};
use crate::solver::{self, Mode, Outcome, Verdict};
use sudoku_core::symbols::Symbols;
use sudoku_core::text::{Format, Read};

/// How many values `sudoku.v1.Verdict` has.
const VERDICTS: usize = 7;

/// Answers counted by verdict: a worker's chunk, for the metrics, and a stream's, for its log line.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct VerdictCounts([u64; VERDICTS]);

impl VerdictCounts {
    /// Counts one answer of `verdict`, a `sudoku.v1.Verdict` number; one outside the enum counts as
    /// `VERDICT_UNSPECIFIED`, as prost reads it.
    pub(crate) fn add(&mut self, verdict: i32) {
        let slot = usize::try_from(verdict)
            .ok()
            .filter(|&v| v < VERDICTS)
            .unwrap_or(0);
        self.0[slot] += 1;
    }

    /// The verdicts counted at least once, by name.
    fn by_name(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        (0..)
            .zip(self.0)
            .filter(|&(_, count)| count > 0)
            .map(|(verdict, count)| {
                let verdict = proto::Verdict::try_from(verdict).unwrap_or_default();
                (verdict.as_str_name(), count)
            })
    }

    /// Adds the counts to the puzzles-by-verdict metric, one update per verdict.
    pub(crate) fn record(&self, metrics: &Metrics) {
        for (verdict, count) in self.by_name() {
            metrics.puzzles(verdict, count);
        }
    }
}

/// The service's limits, taken from the server configuration.
#[derive(Clone, Debug)]
struct Limits {
    batch_window: usize,
    queue_timeout: Duration,
    default_max_guesses: u64,
    max_guesses_cap: u64,
    /// The most puzzles one Generate call makes.
    max_generate_count: u32,
    /// The longest one generated puzzle may take.
    generate_budget: Duration,
}

/// The `sudoku.v1.SudokuService` implementation. Cheap to clone: clones share one solver pool, which
/// stops when the last clone is dropped.
#[derive(Clone, Debug)]
pub struct Sudoku {
    limits: Limits,
    metrics: Metrics,
    pool: Arc<Pool>,
}

/// How one puzzle should be solved: the request's options, made safe.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Job {
    pub(crate) mode: Mode,
    pub(crate) max_guesses: u64,
}

/// A solved puzzle and what it cost, with the shape and alphabet its answer is given in.
#[derive(Debug)]
pub(crate) struct Solved {
    pub(crate) outcome: Outcome,
    elapsed: Duration,
    shape: Shape,
    symbols: Symbols,
}

/// Reads a request's puzzle in the shape and alphabet it states (`box_rows` and `box_cols` both 0,
/// and empty `symbols`, for the ones inferred from the text): the one place the service turns the
/// wire's fields into the core's format.
fn read_puzzle(
    puzzle: &str,
    box_rows: u32,
    box_cols: u32,
    symbols: &str,
) -> Result<Read, PuzzleError> {
    let format = Format::new(box_rows, box_cols, symbols)?;
    Grid::read_puzzle(puzzle, &format)
}

/// The request field a bad puzzle's error is about, for `google.rpc.BadRequest`.
fn faulty_field(err: &PuzzleError) -> &'static str {
    match err {
        PuzzleError::Parse(ParseError::UnsupportedShape { .. }) => "box_rows",
        PuzzleError::Parse(ParseError::Symbols(_) | ParseError::SymbolsDoNotFit { .. }) => {
            "symbols"
        }
        _ => "puzzle",
    }
}

/// Why a puzzle got no verdict. Only the service turns these into statuses.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SolveError {
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    #[error(
        "the server is at capacity: {0} Solve calls already wait for a solver \
         (the limit is --max-queued-solves)"
    )]
    Overloaded(usize),
    #[error("no solver became free within {0:?} (the limit is --queue-timeout)")]
    QueueTimeout(Duration),
    #[error("the deadline passed before the puzzle was solved")]
    DeadlineExceeded,
    #[error("the solver stopped unexpectedly: {0}")]
    Internal(String),
    /// A request the service cannot serve as asked, though its text reads: `field` names what to
    /// change, for `google.rpc.BadRequest`.
    #[error("{message}")]
    BadRequest {
        field: &'static str,
        message: String,
    },
}

impl SolveError {
    /// The gRPC status code that tells a client what happened.
    pub(crate) fn code(&self) -> Code {
        match self {
            SolveError::Puzzle(_) | SolveError::BadRequest { .. } => Code::InvalidArgument,
            SolveError::Overloaded(_) | SolveError::QueueTimeout(_) => Code::ResourceExhausted,
            SolveError::DeadlineExceeded => Code::DeadlineExceeded,
            SolveError::Internal(_) => Code::Internal,
        }
    }
}

/// The one mapping from domain errors to statuses. A bad puzzle also carries `google.rpc.BadRequest`
/// details naming the field at fault (`puzzle`, `box_rows` or `symbols`), for clients that read rich
/// errors.
impl From<SolveError> for Status {
    fn from(err: SolveError) -> Status {
        let (code, message) = (err.code(), err.to_string());
        match err {
            SolveError::Puzzle(e) => Status::with_error_details(
                code,
                message.clone(),
                ErrorDetails::with_bad_request_violation(faulty_field(&e), message),
            ),
            SolveError::BadRequest { field, .. } => Status::with_error_details(
                code,
                message.clone(),
                ErrorDetails::with_bad_request_violation(field, message),
            ),
            _ => Status::new(code, message),
        }
    }
}

/// Stops a unary call's job when the call is dropped (its client went away): a queued job is then
/// dropped unsolved and a running one stops. After a deadline it keeps that reason.
struct CancelOnDrop(Arc<Ticket>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.stop.raise(StopReason::Cancelled);
    }
}

impl Sudoku {
    /// The service, with the limits of `config`, and its solver pool's workers started.
    pub fn new(config: &ServerConfig, metrics: Metrics) -> std::io::Result<Sudoku> {
        let pool = Pool::new(
            config.solver_threads(),
            config.max_queued_solves,
            metrics.clone(),
        )?;
        Ok(Sudoku {
            limits: Limits {
                batch_window: config.batch_window.max(1),
                queue_timeout: config.queue_timeout,
                default_max_guesses: config.default_max_guesses,
                max_guesses_cap: config.max_guesses_cap,
                max_generate_count: config.max_generate_count.max(1),
                generate_budget: config.generate_budget,
            },
            metrics,
            pool: Arc::new(pool),
        })
    }

    fn job(&self, skip_uniqueness_check: bool, max_guesses: u64) -> Job {
        let max_guesses = match max_guesses {
            0 => self.limits.default_max_guesses,
            n => n,
        };
        Job {
            mode: if skip_uniqueness_check {
                Mode::FirstSolution
            } else {
                Mode::ProveUnique
            },
            max_guesses: max_guesses.min(self.limits.max_guesses_cap),
        }
    }

    /// A batch request as its stream's item `index`, ready for the pool.
    fn item(&self, index: u64, request: SolveBatchRequest) -> BatchItem {
        let job = self.job(request.skip_uniqueness_check, request.max_guesses);
        BatchItem {
            index,
            request,
            job,
        }
    }

    /// Solves one unary call's puzzle, in the shape and alphabet the request states, on the pool.
    async fn solve_one(
        &self,
        request: &SolveRequest,
        job: Job,
        deadline: Option<Instant>,
    ) -> Result<Solved, SolveError> {
        let read = read_puzzle(
            &request.puzzle,
            request.box_rows,
            request.box_cols,
            &request.symbols,
        )
        .inspect_err(|_| self.metrics.puzzle(proto::Verdict::Invalid.as_str_name()))?;
        let metrics = self.metrics.clone();
        self.run_unary(deadline, move |stop| {
            let result = solve_guarded(&read, job, stop, &metrics);
            let verdict = match &result {
                Ok(solved) if solved.outcome.verdict == Verdict::Cancelled => return None,
                Ok(solved) => proto::Verdict::from(solved.outcome.verdict),
                Err(_) => proto::Verdict::Unspecified,
            };
            metrics.puzzle(verdict.as_str_name());
            Some(result)
        })
        .await?
    }

    /// Runs a unary call's CPU-bound `work` on the pool, the one way such work leaves the async
    /// threads: it waits in the unary queue (first in line for the next free worker) at most the
    /// queue timeout, then for the answer, until `deadline`. `work` gets the call's stop flag and
    /// returns `None` when the flag cut it off. Dropping the future stops the work.
    pub(crate) async fn run_unary<T: Send + 'static>(
        &self,
        deadline: Option<Instant>,
        work: impl FnOnce(&AtomicBool) -> Option<T> + Send + 'static,
    ) -> Result<T, SolveError> {
        // Gone before it began: do no work at all.
        if deadline.is_some_and(|deadline| deadline <= Instant::now()) {
            return Err(SolveError::DeadlineExceeded);
        }
        let ticket = Arc::new(Ticket::default());
        let _cancel_on_drop = CancelOnDrop(ticket.clone());
        let (reply, mut answer) = oneshot::channel();
        self.pool.submit_unary(UnaryJob {
            ticket: ticket.clone(),
            work: Box::new(move |stop| {
                let answer = work(stop);
                let done = answer.is_some();
                let _ = reply.send(answer);
                done
            }),
        })?;
        let answer = async {
            let answer = match tokio::time::timeout(self.limits.queue_timeout, &mut answer).await {
                Ok(answer) => answer,
                // Still queued: give up the job, unless a worker took it just now.
                Err(_) if ticket.claim() => {
                    return Err(SolveError::QueueTimeout(self.limits.queue_timeout));
                }
                Err(_) => answer.await,
            };
            match answer {
                Ok(Some(answer)) => Ok(answer),
                // Cut off: only a deadline or the call going away raise the flag.
                Ok(None) => Err(SolveError::DeadlineExceeded),
                Err(_) => Err(SolveError::Internal("the solver pool stopped".into())),
            }
        };
        tokio::select! {
            answer = answer => answer,
            () = crate::grpc::sleep(deadline) => {
                ticket.stop.raise(StopReason::DeadlineExceeded);
                Err(SolveError::DeadlineExceeded)
            }
        }
    }
}

/// Runs the solver, timed, on the calling (worker) thread. A panic in the solver, which would be our
/// bug, becomes an error for this one puzzle instead of taking others down with it.
pub(crate) fn solve_guarded(
    read: &Read,
    job: Job,
    cancel: &AtomicBool,
    metrics: &Metrics,
) -> Result<Solved, SolveError> {
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
    .map_err(|_| SolveError::Internal(format!("the solver failed on {puzzle}")))?;
    let elapsed = start.elapsed();
    metrics.solve_time(elapsed);
    Ok(Solved {
        outcome,
        elapsed,
        shape: puzzle.shape(),
        symbols: read.symbols,
    })
}

impl From<Verdict> for proto::Verdict {
    fn from(verdict: Verdict) -> proto::Verdict {
        match verdict {
            Verdict::Unique => proto::Verdict::Unique,
            Verdict::Multiple => proto::Verdict::Multiple,
            Verdict::Unsolvable => proto::Verdict::Unsolvable,
            Verdict::Solved => proto::Verdict::Solved,
            Verdict::LimitReached => proto::Verdict::LimitReached,
            // Only a request that has gone away is cancelled, and nobody is left to read its answer.
            Verdict::Cancelled => proto::Verdict::Unspecified,
        }
    }
}

impl From<Solved> for SolveResponse {
    fn from(solved: Solved) -> SolveResponse {
        solved.into_response(String::new())
    }
}

impl Solved {
    /// The answer, its solution (if any) written in the request's alphabet, one symbol a cell, into
    /// `spare`'s buffer, with the shape as read.
    fn into_response(self, spare: String) -> SolveResponse {
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

/// The stream of SolveBatch answers.
type AnswerStream = Pin<Box<dyn Stream<Item = Result<SolveBatchResponse, Status>> + Send>>;

#[tonic::async_trait]
impl SudokuService for Sudoku {
    async fn solve(
        &self,
        request: Request<SolveRequest>,
    ) -> Result<Response<SolveResponse>, Status> {
        let deadline = crate::grpc::deadline(&request);
        let span = tracing::debug_span!(
            "rpc",
            method = "Solve",
            request_id = crate::grpc::request_id(&request),
            verdict = tracing::field::Empty
        );
        let request_id = request.metadata().get(REQUEST_ID).cloned();
        let mut end = CallEnd::new("Solve", self.metrics.clone(), span);
        let request = request.into_inner();
        let job = self.job(request.skip_uniqueness_check, request.max_guesses);
        let answer = self
            .solve_one(&request, job, deadline)
            .await
            .map(SolveResponse::from);
        end.code = match &answer {
            Ok(answer) => {
                end.span.record("verdict", answer.verdict().as_str_name());
                Code::Ok
            }
            Err(e) => e.code(),
        };
        answer
            .map(|answer| echo_request_id(request_id, Response::new(answer)))
            .map_err(Status::from)
    }

    type SolveBatchStream = AnswerStream;

    async fn solve_batch(
        &self,
        request: Request<Streaming<SolveBatchRequest>>,
    ) -> Result<Response<Self::SolveBatchStream>, Status> {
        let deadline = crate::grpc::deadline(&request);
        let span = tracing::debug_span!(
            "rpc",
            method = "SolveBatch",
            request_id = crate::grpc::request_id(&request),
            items = tracing::field::Empty,
            verdicts = tracing::field::Empty
        );
        let request_id = request.metadata().get(REQUEST_ID).cloned();
        let answers = solve_batch::batch(self.clone(), request.into_inner(), deadline, span);
        Ok(echo_request_id(
            request_id,
            Response::new(Box::pin(answers)),
        ))
    }

    async fn grade(
        &self,
        request: Request<GradeRequest>,
    ) -> Result<Response<GradeResponse>, Status> {
        grade::grade(self, request).await
    }

    async fn hint(&self, request: Request<HintRequest>) -> Result<Response<HintResponse>, Status> {
        grade::hint(self, request).await
    }

    type GenerateStream = generate::GenerateStream;

    async fn generate(
        &self,
        request: Request<GenerateRequest>,
    ) -> Result<Response<Self::GenerateStream>, Status> {
        generate::generate(self, request).await
    }

    async fn canonicalize(
        &self,
        request: Request<CanonicalizeRequest>,
    ) -> Result<Response<CanonicalizeResponse>, Status> {
        canonicalize::canonicalize(self, request).await
    }
}

/// Returns the caller's request id in the response's initial metadata, so it can match logs on both
/// sides.
fn echo_request_id<T>(
    id: Option<tonic::metadata::AsciiMetadataValue>,
    mut response: Response<T>,
) -> Response<T> {
    if let Some(id) = id {
        response.metadata_mut().insert(REQUEST_ID, id);
    }
    response
}

/// Counts and logs an RPC when it ends, however it ends: one dropped before it finished was
/// abandoned by its client, and counts as CANCELLED. The log line is at `debug`, so the default
/// log volume does not grow with the call rate.
pub(crate) struct CallEnd {
    method: &'static str,
    metrics: Metrics,
    span: tracing::Span,
    started: Instant,
    pub(crate) code: Code,
    /// SolveBatch only: items read, and answers sent by verdict.
    items: u64,
    verdicts: VerdictCounts,
}

impl CallEnd {
    pub(crate) fn new(method: &'static str, metrics: Metrics, span: tracing::Span) -> CallEnd {
        CallEnd {
            method,
            metrics,
            span,
            started: Instant::now(),
            code: Code::Cancelled,
            items: 0,
            verdicts: VerdictCounts::default(),
        }
    }
}

impl Drop for CallEnd {
    fn drop(&mut self) {
        let elapsed = self.started.elapsed();
        self.metrics.rpc(self.method, self.code, elapsed);
        if self.span.is_disabled() {
            return;
        }
        if self.items > 0 {
            self.span.record("items", self.items);
            let verdicts: std::collections::BTreeMap<_, _> = self.verdicts.by_name().collect();
            self.span.record("verdicts", format!("{verdicts:?}"));
        }
        tracing::debug!(
            parent: &self.span,
            elapsed_us = elapsed.as_micros() as u64,
            code = ?self.code,
            "call finished"
        );
    }
}
