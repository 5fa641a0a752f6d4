//! The `sudoku.v1.SudokuService` RPCs, one file each. Every handler reads its request through
//! [`crate::wire`], does its CPU-bound work on the [`crate::pool`] through [`Sudoku::run_unary`] (or a
//! lane, for SolveBatch), and answers; the per-call bookkeeping is [`crate::layer`]'s.

mod canonicalize;
mod error;
mod generate;
mod grade;
mod hint;
mod solve;
mod solve_batch;
mod true_candidates;

pub use error::RpcError;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;
use tonic::{Request, Response, Status, Streaming};

use crate::config::ServerConfig;
use crate::metrics::Metrics;
use crate::pool::{Pool, StopReason, Ticket, UnaryJob};
use crate::proto::sudoku_service_server::SudokuService;
use crate::proto::{
    CanonicalizeRequest, CanonicalizeResponse, GenerateRequest, GradeRequest, GradeResponse,
    HintRequest, HintResponse, SolveBatchRequest, SolveRequest, SolveResponse,
    TrueCandidatesResponse,
};
use crate::wire::LogicRead;
use solve_batch::BatchItem;

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
    pool: Arc<Pool<BatchItem>>,
    /// Cancelled shortly before a shutdown's grace runs out: open streams then end with UNAVAILABLE
    /// while the status can still reach their clients.
    draining: CancellationToken,
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
    /// The service, with the limits of `config`, and its solver pool's workers started. Cancelling
    /// `draining` ends every open SolveBatch and Generate stream with UNAVAILABLE "draining ...",
    /// after the answers it already has, so its client can take the rest to another server.
    pub fn new(
        config: &ServerConfig,
        metrics: Metrics,
        draining: CancellationToken,
    ) -> std::io::Result<Sudoku> {
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
            draining,
        })
    }

    /// Runs a call's CPU-bound `work` on the pool, the one way such work leaves the async threads:
    /// it waits in the unary queue (first in line for the next free worker) at most the queue
    /// timeout, then for the answer, until `deadline`. `work` gets the call's stop flag and returns
    /// `None` when the flag cut it off. A panic in `work`, which would be our bug, fails this call
    /// alone. Dropping the future stops the work.
    async fn run_unary<T: Send + 'static>(
        &self,
        deadline: Option<Instant>,
        work: impl FnOnce(&AtomicBool) -> Option<T> + Send + 'static,
    ) -> Result<T, RpcError> {
        // Gone before it began: do no work at all.
        if deadline.is_some_and(|deadline| deadline <= Instant::now()) {
            return Err(RpcError::DeadlineExceeded);
        }
        let ticket = Arc::new(Ticket::default());
        let _cancel_on_drop = CancelOnDrop(ticket.clone());
        let (reply, mut answer) = oneshot::channel();
        self.pool.submit_unary(UnaryJob {
            ticket: ticket.clone(),
            work: Box::new(move |stop| {
                let answer =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(stop).map(Ok)))
                        .unwrap_or(Some(Err(())));
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
                    return Err(RpcError::QueueTimeout(self.limits.queue_timeout));
                }
                Err(_) => answer.await,
            };
            match answer {
                Ok(Some(Ok(answer))) => Ok(answer),
                Ok(Some(Err(()))) => Err(RpcError::Internal("the work panicked".into())),
                // Cut off: only a deadline or the call going away raise the flag.
                Ok(None) => Err(RpcError::DeadlineExceeded),
                Err(_) => Err(RpcError::Internal("the solver pool stopped".into())),
            }
        };
        tokio::select! {
            answer = answer => answer,
            () = crate::layer::sleep(deadline) => {
                ticket.stop.raise(StopReason::DeadlineExceeded);
                Err(RpcError::DeadlineExceeded)
            }
        }
    }

    /// Runs Grade's or Hint's `work` on the pool, given the server's default guess budget for
    /// proving the puzzle (classic or variant) unique, and the call's stop flag.
    async fn run_logic<T: Send + 'static>(
        &self,
        deadline: Option<Instant>,
        read: LogicRead,
        work: impl FnOnce(&LogicRead, u64, &AtomicBool) -> Result<T, RpcError> + Send + 'static,
    ) -> Result<T, RpcError> {
        let max_guesses = self.limits.default_max_guesses;
        self.run_unary(deadline, move |cancel| {
            let result = work(&read, max_guesses, cancel);
            // An error after the flag was raised is the flag's doing: the pool counts it as cut off.
            match result {
                Err(_) if cancel.load(std::sync::atomic::Ordering::Acquire) => None,
                result => Some(result),
            }
        })
        .await?
    }

    /// The guess budget of a request that asks for `max_guesses` (0: the server's default), capped.
    fn max_guesses(&self, max_guesses: u64) -> u64 {
        match max_guesses {
            0 => self.limits.default_max_guesses,
            n => n,
        }
        .min(self.limits.max_guesses_cap)
    }
}

#[tonic::async_trait]
impl SudokuService for Sudoku {
    async fn solve(
        &self,
        request: Request<SolveRequest>,
    ) -> Result<Response<SolveResponse>, Status> {
        solve::solve(self, request).await
    }

    type SolveBatchStream = solve_batch::AnswerStream;

    async fn solve_batch(
        &self,
        request: Request<Streaming<SolveBatchRequest>>,
    ) -> Result<Response<Self::SolveBatchStream>, Status> {
        Ok(solve_batch::solve_batch(self, request))
    }

    async fn grade(
        &self,
        request: Request<GradeRequest>,
    ) -> Result<Response<GradeResponse>, Status> {
        grade::grade(self, request).await
    }

    async fn hint(&self, request: Request<HintRequest>) -> Result<Response<HintResponse>, Status> {
        hint::hint(self, request).await
    }

    type GenerateStream = generate::GenerateStream;

    async fn generate(
        &self,
        request: Request<GenerateRequest>,
    ) -> Result<Response<Self::GenerateStream>, Status> {
        generate::generate(self, request)
    }

    async fn canonicalize(
        &self,
        request: Request<CanonicalizeRequest>,
    ) -> Result<Response<CanonicalizeResponse>, Status> {
        canonicalize::canonicalize(self, request).await
    }

    async fn true_candidates(
        &self,
        request: Request<SolveRequest>,
    ) -> Result<Response<TrueCandidatesResponse>, Status> {
        true_candidates::true_candidates(self, request).await
    }
}
