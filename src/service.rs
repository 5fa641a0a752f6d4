//! The gRPC service: requests to domain types and back, the one mapping from domain errors to
//! `tonic::Status`, and the batch pipeline (bounded, ordered, cancellable). The RPCs beyond solving live
//! in submodules, one per concern.

mod canonicalize;
mod generate;
mod grade;

pub use grade::{grade_line, grade_local, hint_lines, hint_local, step_line};

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use futures::FutureExt;
use futures::stream::{FuturesOrdered, Stream, StreamExt};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot};
use tonic::{Code, Request, Response, Status, Streaming};
use tonic_types::{ErrorDetails, StatusExt};
use tracing::Instrument;

use crate::config::ServerConfig;
use crate::grid::{Grid, PuzzleError};
use crate::grpc::REQUEST_ID;
use crate::metrics::{InFlightItems, Metrics};
use crate::proto::sudoku_service_server::SudokuService;
use crate::proto::{
    self, CanonicalizeRequest, CanonicalizeResponse, GenerateRequest, GradeRequest, GradeResponse,
    HintRequest, HintResponse, SolveBatchRequest, SolveBatchResponse, SolveRequest, SolveResponse,
    SolveStats,
};
use crate::solver::{self, Mode, Outcome, Verdict};

/// The most items of one SolveBatch stream that are solved together, one after another, as one task:
/// enough to spread a task's cost over many microsecond-sized puzzles, few enough that a group of hard
/// ones does not hold the answers behind it for long.
pub const MAX_BATCH_GROUP: usize = 32;

/// The longest a solver slot goes on answering queued batch groups, one after another on one blocking
/// thread, before it goes back to the semaphore's queue. Handing a slot from one group to the next
/// through the async side costs several thread wake-ups and leaves the slot idle meanwhile, as long
/// as solving a group of easy puzzles, and longer when the solver threads keep both cores busy and
/// the async side waits for one; long turns spread that over many groups. A turn also ends after
/// the group at hand as soon as a unary call waits for a slot, so that call's wait stays short.
pub const SLOT_TURN: Duration = Duration::from_millis(20);

/// How many values `sudoku.v1.Verdict` has.
const VERDICTS: usize = 7;

/// Answers counted by verdict: a group's, for the metrics, and a stream's, for its log line.
#[derive(Clone, Copy, Debug, Default)]
struct VerdictCounts([u64; VERDICTS]);

impl VerdictCounts {
    /// Counts one answer of `verdict`, a `sudoku.v1.Verdict` number; one outside the enum counts as
    /// `VERDICT_UNSPECIFIED`, as prost reads it.
    fn add(&mut self, verdict: i32) {
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
}

/// The service's limits, taken from the server configuration.
#[derive(Clone, Debug)]
struct Limits {
    batch_window: usize,
    /// The most items of a stream solved together as one task.
    batch_group: usize,
    max_queued: usize,
    queue_timeout: Duration,
    default_max_guesses: u64,
    max_guesses_cap: u64,
    /// The most puzzles one Generate call makes.
    max_generate_count: u32,
}

/// The `sudoku.v1.SudokuService` implementation. Cheap to clone: clones share one pool of solver slots.
#[derive(Clone, Debug)]
pub struct Sudoku {
    limits: Limits,
    metrics: Metrics,
    /// One permit per puzzle being solved, across all requests.
    solvers: Arc<Semaphore>,
    /// Unary calls waiting for a solver slot.
    queued: Arc<Semaphore>,
    /// SolveBatch groups waiting for a solver slot, from all streams, oldest first.
    groups: Arc<Mutex<VecDeque<QueuedGroup>>>,
}

/// A group of consecutive SolveBatch items waiting to be answered on a solver slot.
#[derive(Debug)]
struct QueuedGroup {
    /// The stream's index of the first item.
    first_index: u64,
    /// The items, their ids taken out: the stream keeps those, to answer even a group that fails.
    requests: Vec<SolveBatchRequest>,
    /// Set when the stream gives up on the group; it is then dropped unanswered.
    cancel: Arc<AtomicBool>,
    /// Where the answers go, in item order.
    reply: oneshot::Sender<Vec<SolveBatchResponse>>,
}

/// How one puzzle should be solved: the request's options, made safe.
#[derive(Clone, Copy, Debug)]
struct Job {
    mode: Mode,
    max_guesses: u64,
}

/// A solved puzzle and what it cost.
#[derive(Debug)]
struct Solved {
    outcome: Outcome,
    elapsed: Duration,
}

/// Why a puzzle got no verdict. Only the service turns these into statuses.
#[derive(Debug, thiserror::Error)]
enum SolveError {
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    #[error("the server is at capacity: all {0} solver slots are busy and the queue is full")]
    Overloaded(usize),
    #[error("no solver slot became free within {0:?}")]
    QueueTimeout(Duration),
    #[error("the deadline passed before the puzzle was solved")]
    DeadlineExceeded,
    #[error("the solver stopped unexpectedly: {0}")]
    Internal(String),
}

impl SolveError {
    /// The gRPC status code that tells a client what happened.
    fn code(&self) -> Code {
        match self {
            SolveError::Puzzle(_) => Code::InvalidArgument,
            SolveError::Overloaded(_) | SolveError::QueueTimeout(_) => Code::ResourceExhausted,
            SolveError::DeadlineExceeded => Code::DeadlineExceeded,
            SolveError::Internal(_) => Code::Internal,
        }
    }
}

/// The one mapping from domain errors to statuses. A bad puzzle also carries `google.rpc.BadRequest`
/// details naming the `puzzle` field, for clients that read rich errors.
impl From<SolveError> for Status {
    fn from(err: SolveError) -> Status {
        let (code, message) = (err.code(), err.to_string());
        match err {
            SolveError::Puzzle(_) => Status::with_error_details(
                code,
                message.clone(),
                ErrorDetails::with_bad_request_violation("puzzle", message),
            ),
            _ => Status::new(code, message),
        }
    }
}

/// Sets a flag when dropped: the solver of an abandoned request sees it and stops.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Gives up on a SolveBatch group that its stream drops (or fails) before its answers come: stops
/// its solving if a slot has taken it, and takes it out of the queue if none has, so that an
/// abandoned group does not wait there, holding its puzzles, for another stream's turn to drop it.
struct AbandonOnDrop<'a> {
    service: &'a Sudoku,
    /// The group's flag, which also tells it apart in the queue.
    cancel: Arc<AtomicBool>,
    /// Set once the answers came: then there is nothing to give up.
    answered: bool,
}

impl Drop for AbandonOnDrop<'_> {
    fn drop(&mut self) {
        if self.answered {
            return;
        }
        self.cancel.store(true, Ordering::Relaxed);
        let mut groups = self.service.lock_groups();
        groups.retain(|group| !Arc::ptr_eq(&group.cancel, &self.cancel));
    }
}

impl Sudoku {
    /// The service, with the limits of `config`.
    pub fn new(config: &ServerConfig, metrics: Metrics) -> Sudoku {
        let solvers = config.solver_threads();
        let batch_window = config.batch_window.max(1);
        Sudoku {
            limits: Limits {
                batch_window,
                // Small enough that one stream's window still feeds every solver thread twice over.
                batch_group: (batch_window / (2 * solvers)).clamp(1, MAX_BATCH_GROUP),
                max_queued: config.max_queued_solves,
                queue_timeout: config.queue_timeout,
                default_max_guesses: config.default_max_guesses,
                max_guesses_cap: config.max_guesses_cap,
                max_generate_count: config.max_generate_count.max(1),
            },
            metrics,
            solvers: Arc::new(Semaphore::new(solvers)),
            queued: Arc::new(Semaphore::new(config.max_queued_solves)),
            groups: Arc::default(),
        }
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

    /// A solver slot for a unary call: wait in the bounded queue, or be refused.
    async fn unary_slot(&self) -> Result<OwnedSemaphorePermit, SolveError> {
        if let Ok(permit) = self.solvers.clone().try_acquire_owned() {
            return Ok(permit);
        }
        let _place = self
            .queued
            .clone()
            .try_acquire_owned()
            .map_err(|_| SolveError::Overloaded(self.limits.max_queued))?;
        tokio::time::timeout(
            self.limits.queue_timeout,
            self.solvers.clone().acquire_owned(),
        )
        .await
        .map_err(|_| SolveError::QueueTimeout(self.limits.queue_timeout))?
        .map_err(|_| SolveError::Internal("the solver pool is closed".into()))
    }

    /// Solves `puzzle` on the blocking pool while holding `slot`. Dropping the returned future stops
    /// the search within microseconds.
    async fn run(
        &self,
        slot: OwnedSemaphorePermit,
        puzzle: Grid,
        job: Job,
    ) -> Result<Solved, SolveError> {
        let cancel = Arc::new(AtomicBool::new(false));
        let _stop_on_drop = CancelOnDrop(cancel.clone());
        let metrics = self.metrics.clone();
        let task = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            let _solving = metrics.in_flight();
            solve_guarded(&puzzle, job, &cancel, &metrics)
        });
        task.await
            .map_err(|e| SolveError::Internal(e.to_string()))?
    }

    /// Answers a group of consecutive batch items, `first_index` onwards: queues it for a solver slot,
    /// and takes turns on slots until its answers come. A puzzle takes microseconds, so a slot answers
    /// queued groups one after another on one blocking thread (see [`SLOT_TURN`]) instead of going
    /// back to the async side after each. Dropping the future drops the group, or stops it.
    async fn solve_group(
        self,
        first_index: u64,
        mut requests: Vec<SolveBatchRequest>,
    ) -> Vec<SolveBatchResponse> {
        let ids: Vec<String> = requests
            .iter_mut()
            .map(|request| std::mem::take(&mut request.id))
            .collect();
        let cancel = Arc::new(AtomicBool::new(false));
        let mut abandon = AbandonOnDrop {
            service: &self,
            cancel: cancel.clone(),
            answered: false,
        };
        let (reply, answers) = oneshot::channel();
        self.lock_groups().push_back(QueuedGroup {
            first_index,
            requests,
            cancel,
            reply,
        });
        let answers = tokio::select! {
            biased;
            answers = answers => answers.map_err(|_| "the solver stopped unexpectedly"),
            why = self.take_turns() => Err(why),
        };
        match answers {
            Ok(mut answers) => {
                abandon.answered = true;
                for (answer, id) in answers.iter_mut().zip(ids) {
                    answer.id = id;
                }
                answers
            }
            Err(why) => self.fail_group(first_index, ids, why),
        }
    }

    /// The queue of batch groups. Pushing and popping cannot leave it half-changed, so a panic
    /// elsewhere while it was locked does not stop its use.
    fn lock_groups(&self) -> std::sync::MutexGuard<'_, VecDeque<QueuedGroup>> {
        self.groups.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes solver slots, each for a turn of answering queued groups on a blocking thread, until
    /// the queue is empty when a slot comes: the caller's group has then been taken, and its answers
    /// will come. Every queued group's stream runs this while its group waits, so no group is left
    /// in the queue with no one to take a slot for it. Returns only if no turn can run any more.
    async fn take_turns(&self) -> &'static str {
        loop {
            let Ok(slot) = self.solvers.clone().acquire_owned().await else {
                return "the solver pool is closed";
            };
            if self.lock_groups().is_empty() {
                drop(slot);
                return std::future::pending().await;
            }
            let service = self.clone();
            let turn = tokio::task::spawn_blocking(move || service.answer_queued(slot));
            // A turn that panicked dropped its slot and its group's reply, and the loop goes on; one
            // that was cancelled never ran, as the runtime is shutting down.
            if let Err(e) = turn.await
                && e.is_cancelled()
            {
                return "the server is shutting down";
            }
        }
    }

    /// One turn on a solver slot, on a blocking thread: answers queued groups, oldest first, until
    /// none is left, the turn is over or a unary call waits. Groups whose streams gave up are dropped
    /// unanswered.
    fn answer_queued(&self, slot: OwnedSemaphorePermit) {
        let turn_ends = Instant::now() + SLOT_TURN;
        loop {
            let Some(group) = self.lock_groups().pop_front() else {
                break;
            };
            let QueuedGroup {
                first_index,
                requests,
                cancel,
                reply,
            } = group;
            let mut answers = Vec::with_capacity(requests.len());
            // The slot solves one puzzle at a time.
            let solving = self.metrics.in_flight();
            for (index, request) in (first_index..).zip(requests) {
                if cancel.load(Ordering::Relaxed) {
                    break;
                }
                answers.push(self.answer_item(index, request, &cancel));
            }
            drop(solving);
            self.count_verdicts(&answers);
            // The stream may have gone meanwhile; then nobody wants the answers.
            let _ = reply.send(answers);
            if Instant::now() >= turn_ends || self.unary_waiting() {
                break;
            }
        }
        drop(slot);
    }

    /// Whether a unary call waits for a solver slot: it holds a place in the queue meanwhile.
    fn unary_waiting(&self) -> bool {
        self.queued.available_permits() < self.limits.max_queued
    }

    /// Counts a group's answers by verdict, one update per verdict rather than per answer.
    fn count_verdicts(&self, answers: &[SolveBatchResponse]) {
        let mut counts = VerdictCounts::default();
        for answer in answers {
            counts.add(answer.verdict);
        }
        for (verdict, count) in counts.by_name() {
            self.metrics.puzzles(verdict, count);
        }
    }

    /// Answers for a group the server could not solve: no verdict, and why.
    fn fail_group(&self, first_index: u64, ids: Vec<String>, why: &str) -> Vec<SolveBatchResponse> {
        let failed = |(index, id)| {
            let why = Err(SolveError::Internal(why.into()));
            respond(index, id, why, String::new())
        };
        let answers: Vec<_> = (first_index..).zip(ids).map(failed).collect();
        self.count_verdicts(&answers);
        answers
    }

    /// One batch item, from request to response, on the blocking thread; never fails, so one bad
    /// puzzle cannot end a stream.
    fn answer_item(
        &self,
        index: u64,
        request: SolveBatchRequest,
        cancel: &AtomicBool,
    ) -> SolveBatchResponse {
        let SolveBatchRequest {
            id,
            puzzle: text,
            skip_uniqueness_check,
            max_guesses,
            ..
        } = request;
        let job = self.job(skip_uniqueness_check, max_guesses);
        let result = Grid::parse_puzzle(&text)
            .map_err(SolveError::Puzzle)
            .and_then(|puzzle| solve_guarded(&puzzle, job, cancel, &self.metrics));
        // The puzzle's text is as long as its solution: its buffer takes the solution.
        respond(index, id, result, text)
    }
}

/// The answer to one batch item. The solution goes into `spare`'s buffer, the puzzle's text or an
/// empty string. Counting it by verdict is the caller's job.
fn respond(
    index: u64,
    id: String,
    result: Result<Solved, SolveError>,
    spare: String,
) -> SolveBatchResponse {
    let mut response = SolveBatchResponse {
        id,
        index,
        ..Default::default()
    };
    match result {
        Ok(solved) => {
            let answer = solved.into_response(spare);
            response.verdict = answer.verdict;
            response.solution = answer.solution;
            response.stats = answer.stats;
        }
        Err(e) => {
            // Only the puzzle's own faults make it INVALID; a failure of ours is no verdict.
            let verdict = match e {
                SolveError::Puzzle(_) => proto::Verdict::Invalid,
                _ => proto::Verdict::Unspecified,
            };
            response.verdict = verdict.into();
            response.error = e.to_string();
        }
    }
    response
}

/// Runs the solver, timed, on the calling (blocking) thread, which counts itself in the puzzles in
/// flight meanwhile. A panic in the solver, which
/// would be our bug, becomes an error for this one puzzle instead of taking others down with it.
fn solve_guarded(
    puzzle: &Grid,
    job: Job,
    cancel: &AtomicBool,
    metrics: &Metrics,
) -> Result<Solved, SolveError> {
    let options = solver::Options {
        mode: job.mode,
        max_guesses: Some(job.max_guesses),
        cancel: Some(cancel),
    };
    let start = Instant::now();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        solver::solve(puzzle, &options)
    }))
    .map_err(|_| SolveError::Internal(format!("the solver failed on {puzzle}")))?;
    let elapsed = start.elapsed();
    metrics.solve_time(elapsed);
    Ok(Solved { outcome, elapsed })
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
    /// The answer, its solution (if any) written into `spare`'s buffer.
    fn into_response(self, spare: String) -> SolveResponse {
        let Solved { outcome, elapsed } = self;
        SolveResponse {
            verdict: proto::Verdict::from(outcome.verdict).into(),
            solution: outcome
                .solution
                .map(|grid| grid.write_line(spare))
                .unwrap_or_default(),
            stats: Some(SolveStats {
                guesses: outcome.stats.guesses,
                solve_time_ns: u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX),
            }),
            ..Default::default()
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
        let span = tracing::info_span!(
            "rpc",
            method = "Solve",
            request_id = crate::grpc::request_id(&request),
            verdict = tracing::field::Empty
        );
        let request_id = request.metadata().get(REQUEST_ID).cloned();
        async move {
            let started = Instant::now();
            let request = request.into_inner();
            let job = self.job(request.skip_uniqueness_check, request.max_guesses);
            let work = async {
                let puzzle = Grid::parse_puzzle(&request.puzzle)?;
                let slot = self.unary_slot().await?;
                self.run(slot, puzzle, job).await
            };
            let result = match deadline {
                // Gone before it began: do no work at all.
                Some(deadline) if deadline <= Instant::now() => Err(SolveError::DeadlineExceeded),
                Some(deadline) => tokio::time::timeout_at(deadline.into(), work)
                    .await
                    .unwrap_or(Err(SolveError::DeadlineExceeded)),
                None => work.await,
            };
            let answer = result.map(SolveResponse::from);
            let code = match &answer {
                Ok(answer) => {
                    let verdict = answer.verdict().as_str_name();
                    self.metrics.puzzle(verdict);
                    tracing::Span::current().record("verdict", verdict);
                    Code::Ok
                }
                Err(e) => e.code(),
            };
            self.metrics.rpc("Solve", code, started.elapsed());
            tracing::info!(
                elapsed_us = started.elapsed().as_micros() as u64,
                ?code,
                "solve finished"
            );
            answer
                .map(|answer| echo_request_id(request_id, Response::new(answer)))
                .map_err(Status::from)
        }
        .instrument(span)
        .await
    }

    type SolveBatchStream = AnswerStream;

    async fn solve_batch(
        &self,
        request: Request<Streaming<SolveBatchRequest>>,
    ) -> Result<Response<Self::SolveBatchStream>, Status> {
        let deadline = crate::grpc::deadline(&request);
        let span = tracing::info_span!(
            "rpc",
            method = "SolveBatch",
            request_id = crate::grpc::request_id(&request),
            items = tracing::field::Empty,
            verdicts = tracing::field::Empty
        );
        let request_id = request.metadata().get(REQUEST_ID).cloned();
        let answers = batch(self.clone(), request.into_inner(), deadline, span);
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

/// What the batch loop does next.
enum Step {
    Read(Result<Option<SolveBatchRequest>, Status>),
    /// A group's answers, and their places in the in-flight count, each let go once its answer is sent.
    Answers(Vec<SolveBatchResponse>, InFlightItems),
    Deadline,
}

/// The SolveBatch pipeline: reads requests while fewer than the window are in flight, solves them in
/// parallel (in groups of those already waiting), and yields answers in request order, each as soon as
/// all before it are out. A client that stops reading stops the reading here too; dropping the stream
/// (client gone) cancels all in flight.
fn batch(
    service: Sudoku,
    mut requests: Streaming<SolveBatchRequest>,
    deadline: Option<Instant>,
    span: tracing::Span,
) -> impl Stream<Item = Result<SolveBatchResponse, Status>> + Send {
    async_stream::stream! {
        let Limits { batch_window: window, batch_group: group_size, .. } = service.limits;
        let mut end = BatchEnd::new(service.metrics.clone(), span);
        let mut in_flight = FuturesOrdered::new();
        let mut items_in_flight = 0;
        let mut reading = true;
        let mut failure = None;
        let deadline = crate::grpc::sleep(deadline);
        tokio::pin!(deadline);
        while reading || !in_flight.is_empty() {
            let step = tokio::select! {
                biased;
                () = &mut deadline => Step::Deadline,
                Some((answers, counted)) = in_flight.next(), if !in_flight.is_empty() => Step::Answers(answers, counted),
                request = requests.message(), if reading && items_in_flight < window => Step::Read(request),
            };
            match step {
                Step::Read(Ok(Some(first))) => {
                    // Take along what has already arrived, within the group size and the window.
                    let mut group = vec![first];
                    while reading && group.len() < group_size && items_in_flight + group.len() < window {
                        match requests.message().now_or_never() {
                            Some(Ok(Some(request))) => group.push(request),
                            Some(Ok(None)) => reading = false,
                            Some(Err(status)) => {
                                reading = false;
                                failure = Some(crate::grpc::normalize_request_error(status));
                            }
                            None => break,
                        }
                    }
                    let counted = service.metrics.batch_items(group.len());
                    items_in_flight += group.len();
                    let first_index = end.items;
                    end.items += group.len() as u64;
                    let answers = service.clone().solve_group(first_index, group);
                    in_flight.push_back(answers.map(|answers| (answers, counted)));
                }
                Step::Read(Ok(None)) => reading = false,
                Step::Read(Err(status)) => {
                    // The request stream is broken: answer what was read, then report why.
                    reading = false;
                    failure = Some(crate::grpc::normalize_request_error(status));
                }
                Step::Answers(answers, mut counted) => {
                    for answer in answers {
                        end.verdicts.add(answer.verdict);
                        items_in_flight -= 1;
                        yield Ok(answer);
                        counted.answered();
                    }
                }
                Step::Deadline => {
                    failure = Some(SolveError::DeadlineExceeded.into());
                    break;
                }
            }
        }
        end.code = failure.as_ref().map_or(Code::Ok, Status::code);
        if let Some(status) = failure {
            yield Err(status);
        }
    }
}

/// Logs and counts a SolveBatch when it ends, however it ends: a stream dropped before it finished was
/// abandoned by its client, and counts as CANCELLED.
struct BatchEnd {
    metrics: Metrics,
    span: tracing::Span,
    started: Instant,
    items: u64,
    verdicts: VerdictCounts,
    code: Code,
}

impl BatchEnd {
    fn new(metrics: Metrics, span: tracing::Span) -> BatchEnd {
        BatchEnd {
            metrics,
            span,
            started: Instant::now(),
            items: 0,
            verdicts: VerdictCounts::default(),
            code: Code::Cancelled,
        }
    }
}

impl Drop for BatchEnd {
    fn drop(&mut self) {
        let elapsed = self.started.elapsed();
        self.metrics.rpc("SolveBatch", self.code, elapsed);
        self.span.record("items", self.items);
        let verdicts: std::collections::BTreeMap<_, _> = self.verdicts.by_name().collect();
        self.span.record("verdicts", format!("{verdicts:?}"));
        tracing::info!(
            parent: &self.span,
            elapsed_ms = elapsed.as_millis() as u64,
            code = ?self.code,
            "batch finished"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_dropped_group_leaves_the_queue() {
        let config = ServerConfig::with_addr(([127, 0, 0, 1], 0).into());
        let service = Sudoku::new(&config, Metrics::new());
        // With every solver slot taken, the group can only wait in the queue.
        let slots = service.solvers.available_permits() as u32;
        let _busy = service.solvers.clone().acquire_many_owned(slots).await;
        let request = SolveBatchRequest {
            id: "a".into(),
            puzzle: ".".repeat(81),
            ..Default::default()
        };
        let mut group = Box::pin(service.clone().solve_group(0, vec![request]));
        assert!(futures::poll!(group.as_mut()).is_pending());
        assert_eq!(service.lock_groups().len(), 1);
        drop(group);
        assert!(service.lock_groups().is_empty());
    }
}
