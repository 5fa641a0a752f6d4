//! SolveBatch: the pipeline that reads a stream's requests within its window, hands them to the
//! stream's lane in the pool, and yields the answers in request order; and the answer to one item,
//! made on a worker.

use std::collections::BTreeMap;
use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use futures::FutureExt;
use futures::stream::Stream;
use sudoku_core::solver::Verdict;
use tonic::{Request, Response, Status, Streaming};

use super::solve::{Job, Solved, solve_input};
use super::{RpcError, Sudoku};
use crate::layer::normalize_request_error;
use crate::metrics::SolveTimes;
use crate::pool::{Item, StopReason};
use crate::proto::{self, SolveBatchRequest, SolveBatchResponse};
use crate::wire::SolveInput;

/// The stream of SolveBatch answers.
pub(super) type AnswerStream =
    Pin<Box<dyn Stream<Item = Result<SolveBatchResponse, Status>> + Send>>;

/// One SolveBatch item, queued in its stream's lane.
#[derive(Debug)]
pub(super) struct BatchItem {
    /// The item's place in its stream, from 0.
    index: u64,
    /// The request as read.
    request: SolveBatchRequest,
    /// How to solve it.
    job: Job,
}

impl Item for BatchItem {
    type Answer = SolveBatchResponse;

    /// The item from request to response, on a worker; `None` when `stop` cut its solve off. An
    /// item never fails otherwise, so one bad puzzle cannot end a stream.
    fn answer(self, stop: &AtomicBool, times: &mut SolveTimes) -> Option<SolveBatchResponse> {
        let BatchItem {
            index,
            mut request,
            job,
        } = self;
        let result = request
            .solver_input()
            .map_err(RpcError::from)
            .and_then(|input| solve_input(&input, job, stop, times));
        if matches!(&result, Ok(solved) if solved.verdict == Verdict::Cancelled) {
            return None;
        }
        // The puzzle's text is as long as its solution: its buffer takes the solution.
        let spare = std::mem::take(&mut request.puzzle);
        Some(respond(index, request.id, result, spare))
    }

    fn label(answer: &SolveBatchResponse) -> &'static str {
        answer.verdict().as_str_name()
    }

    /// A classic puzzle no longer than a 9x9 grid's text with its spacing is solved within
    /// milliseconds; a larger grid or a variant's rules may search for far longer.
    fn may_run_long(&self) -> bool {
        self.request.puzzle.len() >= LARGE_PUZZLE_TEXT
            || !self.request.fpuzzles.is_empty()
            || self.request.rules.is_some()
    }
}

/// A puzzle's text this long may be a grid larger than 9x9 (a 16x16 has 256 cells). A 9x9 drawn
/// with wide rules may pass it too, which only hands its chunk's answers over a little early.
const LARGE_PUZZLE_TEXT: usize = 256;

/// The answer to one batch item. The solution goes into `spare`'s buffer, the puzzle's text or an
/// empty string. Counting it by verdict is the caller's job.
fn respond(
    index: u64,
    id: String,
    result: Result<Solved, RpcError>,
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
            response.box_rows = answer.box_rows;
            response.box_cols = answer.box_cols;
        }
        Err(e) => {
            // Only the request's own faults make it INVALID; a failure of ours is no verdict.
            let verdict = match e.code() {
                tonic::Code::InvalidArgument => proto::Verdict::Invalid,
                _ => proto::Verdict::Unspecified,
            };
            response.verdict = verdict.into();
            response.error = e.to_string();
        }
    }
    response
}

/// What the batch loop does next.
enum Step {
    Read(Result<Option<SolveBatchRequest>, Status>),
    /// A chunk of answers from the pool, in any order; `None` if the pool stopped.
    Answers(Option<Vec<SolveBatchResponse>>),
    Deadline,
    /// The server is about to stop: answer what is back, and end the stream.
    Draining,
}

/// Starts a SolveBatch call's pipeline.
pub(super) fn solve_batch(
    service: &Sudoku,
    request: Request<Streaming<SolveBatchRequest>>,
) -> Response<AnswerStream> {
    let deadline = crate::layer::deadline(&request);
    Response::new(Box::pin(batch(
        service.clone(),
        request.into_inner(),
        deadline,
    )))
}

impl Sudoku {
    /// A batch request as its stream's item `index`, ready for the pool.
    fn item(&self, index: u64, request: SolveBatchRequest) -> BatchItem {
        BatchItem {
            index,
            job: Job::new(self, request.skip_uniqueness_check, request.max_guesses),
            request,
        }
    }
}

/// The SolveBatch pipeline: reads requests while fewer than the window are unanswered, hands them to
/// the stream's lane in the pool, and yields the answers in request order, each as soon as all before
/// it are out. A client that stops reading stops the reading here too, so its lane runs dry and holds
/// no worker; dropping the stream (client gone) drops its queued items and stops the solve in hand.
/// When the server drains, the stream stops reading, yields the answers already back, drops the rest
/// unsolved and ends with UNAVAILABLE, so the client knows to send the unanswered items elsewhere.
fn batch(
    service: Sudoku,
    mut requests: Streaming<SolveBatchRequest>,
    deadline: Option<Instant>,
) -> impl Stream<Item = Result<SolveBatchResponse, Status>> + Send {
    async_stream::stream! {
        let window = service.limits.batch_window;
        let mut read = 0;
        let mut verdicts = VerdictCounts::default();
        let (lane, mut answers) = service.pool.open_lane();
        let mut unanswered = service.metrics.batch_items();
        let mut in_order = InOrder::default();
        // The requests read in one step, in a buffer kept from step to step.
        let mut items = Vec::new();
        let mut reading = true;
        let mut failure = None;
        let mut draining = false;
        let deadline = crate::layer::sleep(deadline);
        tokio::pin!(deadline);
        // Made once and pinned, like the deadline: not a fresh waiter on the shared token each turn.
        let drain = service.draining.clone().cancelled_owned();
        tokio::pin!(drain);
        while reading || unanswered.count() > 0 {
            let step = tokio::select! {
                biased;
                () = &mut deadline => Step::Deadline,
                () = &mut drain => Step::Draining,
                chunk = answers.recv(), if unanswered.count() > 0 => Step::Answers(chunk),
                request = requests.message(), if reading && unanswered.count() < window => Step::Read(request),
            };
            match step {
                Step::Read(Ok(Some(first))) => {
                    // Take along what has already arrived, within the window.
                    items.push(service.item(read, first));
                    while reading && unanswered.count() + items.len() < window {
                        match requests.message().now_or_never() {
                            Some(Ok(Some(request))) => {
                                let index = read + items.len() as u64;
                                items.push(service.item(index, request));
                            }
                            Some(Ok(None)) => reading = false,
                            Some(Err(status)) => {
                                reading = false;
                                failure = Some(normalize_request_error(status));
                            }
                            None => break,
                        }
                    }
                    read += items.len() as u64;
                    unanswered.admit(items.len());
                    lane.submit(items.drain(..));
                }
                Step::Read(Ok(None)) => reading = false,
                Step::Read(Err(status)) => {
                    // The request stream is broken: answer what was read, then report why.
                    reading = false;
                    failure = Some(normalize_request_error(status));
                }
                Step::Answers(Some(chunk)) => in_order.place(chunk),
                Step::Answers(None) => {
                    failure = Some(RpcError::Internal("the solver pool stopped".into()).into());
                    break;
                }
                Step::Deadline => {
                    lane.stop(StopReason::DeadlineExceeded);
                    failure = Some(RpcError::DeadlineExceeded.into());
                    break;
                }
                Step::Draining => {
                    // What the workers have answered goes out below; the rest is dropped unsolved.
                    lane.stop(StopReason::Cancelled);
                    while let Ok(chunk) = answers.try_recv() {
                        in_order.place(chunk);
                    }
                    draining = true;
                }
            }
            // Counted out of the gauge once for all the answers that go out here.
            let mut out = 0;
            while let Some(answer) = in_order.next() {
                verdicts.add(answer.verdict);
                yield Ok(answer);
                out += 1;
            }
            unanswered.answered(out);
            if draining {
                // The answers out are those from index 0 on, so the client resends from here.
                if reading || read > in_order.next {
                    let left = format!("the items from index {} on were not answered", in_order.next);
                    failure = Some(RpcError::Draining(left).into());
                }
                break;
            }
        }
        tracing::debug!(items = read, verdicts = ?verdicts.by_name(), "batch finished");
        if let Some(status) = failure {
            yield Err(status);
        }
    }
}

/// A stream's answers counted by verdict, for its log line: an array, as it counts every answer.
#[derive(Debug, Default)]
struct VerdictCounts([u64; 8]);

impl VerdictCounts {
    /// Counts one answer of `verdict`, a `sudoku.v1.Verdict` number.
    fn add(&mut self, verdict: i32) {
        let slot = usize::try_from(verdict).unwrap_or(0).min(7);
        self.0[slot] += 1;
    }

    /// The verdicts counted at least once, by name.
    fn by_name(&self) -> BTreeMap<&'static str, u64> {
        (0..)
            .zip(self.0)
            .filter(|&(_, count)| count > 0)
            .map(|(verdict, count)| {
                let verdict = proto::Verdict::try_from(verdict).unwrap_or_default();
                (verdict.as_str_name(), count)
            })
            .collect()
    }
}

/// A stream's answers put back in request order: workers answer chunks of one stream side by side.
#[derive(Debug, Default)]
struct InOrder {
    /// The index of the next answer to yield.
    next: u64,
    /// Answers from `next` on, each in its place once it came.
    held: VecDeque<Option<SolveBatchResponse>>,
}

impl InOrder {
    fn place(&mut self, answers: Vec<SolveBatchResponse>) {
        for answer in answers {
            // A lane answers each item it was given once, and the items before `next` are out.
            let at = (answer.index - self.next) as usize;
            if self.held.len() <= at {
                self.held.resize_with(at + 1, || None);
            }
            self.held[at] = Some(answer);
        }
    }

    /// The next answer in order, if it came.
    fn next(&mut self) -> Option<SolveBatchResponse> {
        let answer = self.held.front_mut()?.take()?;
        self.held.pop_front();
        self.next += 1;
        Some(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(index: u64) -> SolveBatchResponse {
        SolveBatchResponse {
            index,
            ..Default::default()
        }
    }

    #[test]
    fn answers_come_out_in_request_order() {
        let mut in_order = InOrder::default();
        in_order.place(vec![answer(2), answer(1)]);
        assert!(in_order.next().is_none());
        in_order.place(vec![answer(0)]);
        let indices: Vec<u64> = std::iter::from_fn(|| in_order.next())
            .map(|a| a.index)
            .collect();
        assert_eq!(indices, [0, 1, 2]);
        in_order.place(vec![answer(3)]);
        assert_eq!(in_order.next().map(|a| a.index), Some(3));
    }
}
