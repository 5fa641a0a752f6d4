//! Generate: fresh puzzles from the core's generator, streamed as they are made.
//!
//! Each puzzle is made and graded on a worker of the solver pool (never on the async threads), one
//! after another, and sent as soon as it is made, so a slow client or a large count holds no more
//! than one puzzle's work. A target (a level, a rating range) draws and grades puzzles until one has it,
//! within an attempt budget and the server's time budget per puzzle (RESOURCE_EXHAUSTED past either). The puzzle at
//! `index` comes from its own seed ([`generator::puzzle_seed`]), which the answer carries: asking
//! again with that seed and a count of 1 gives that puzzle back. A dropped call or a passed deadline
//! raises the generator's cancel flag at once; so does the server's drain, which ends the stream with
//! UNAVAILABLE.

use std::pin::Pin;

use futures::Stream;
use sudoku_core::generator::{
    self, GenerateError, Generated, Limits, Rated, Spec, Symmetry, Target,
};
use sudoku_core::symbols::Symbols;
use tonic::{Code, Request, Response, Status};

use super::{RpcError, Sudoku};
use crate::proto::{GenerateRequest, GenerateResponse};
use crate::wire::{self, BadField};

/// The stream of generated puzzles.
pub type GenerateStream = Pin<Box<dyn Stream<Item = Result<GenerateResponse, Status>> + Send>>;

/// A request, checked and made safe: what every puzzle of the call is made from.
#[derive(Clone, Debug)]
struct Plan {
    /// What each puzzle is made from.
    spec: Spec,
    /// The grade every puzzle must have: a level, a rating range.
    target: Target,
    /// How many puzzles, at least 1.
    count: u32,
    /// The request's seed, never 0.
    seed: u64,
    /// The alphabet the puzzles are written in.
    symbols: Symbols,
}

impl Plan {
    /// Reads `request`, capping its count at `max_count`.
    fn new(request: &GenerateRequest, max_count: u32) -> Result<Plan, RpcError> {
        let (shape, symbols) =
            wire::shape_and_symbols(request.box_rows, request.box_cols, &request.symbols)?;
        let symmetry = wire::symmetry(request.symmetry)?;
        let target = wire::target(request)?;
        let spec = Spec::new(shape, symmetry, request.minimal).map_err(|e| BadField {
            field: "symmetry",
            message: e.to_string(),
        })?;
        Ok(Plan {
            spec,
            target,
            count: request.count.clamp(1, max_count),
            seed: match request.seed {
                0 => generator::random_seed(),
                seed => seed,
            },
            symbols,
        })
    }

    /// What the plan asks for, in words: "a minimal HARD 9x9 (3x3 boxes) puzzle with rotate-180
    /// symmetry".
    fn describe(&self) -> String {
        let mut text = String::from("a ");
        if self.spec.minimal() {
            text.push_str("minimal ");
        }
        if !self.target.is_any() {
            text.push_str(&self.target.to_string());
            text.push(' ');
        }
        text.push_str(&format!("{} puzzle", self.spec.shape()));
        if self.spec.symmetry() != Symmetry::None {
            text.push_str(&format!(" with {} symmetry", self.spec.symmetry()));
        }
        text
    }
}

/// The status that ends a call whose puzzle could not be made.
fn status(err: GenerateError) -> Status {
    let code = match err {
        GenerateError::SymmetryNeedsSquareBoxes { .. } => Code::InvalidArgument,
        GenerateError::BudgetExhausted { .. } | GenerateError::TargetNotReached { .. } => {
            Code::ResourceExhausted
        }
        GenerateError::Cancelled => Code::Cancelled,
    };
    Status::new(code, err.to_string())
}

/// Makes and grades the puzzle of `seed` on a worker of the solver pool, off the async threads,
/// within the server's time budget per puzzle. Dropping the future raises the generator's cancel
/// flag, so an abandoned call stops within microseconds.
async fn make(service: &Sudoku, plan: &Plan, seed: u64) -> Result<Generated<Rated>, Status> {
    let (spec, target) = (plan.spec, plan.target);
    // Queued with the unary calls, stopped when this future is dropped (the call went away, its
    // deadline passed, the time budget ran out).
    let work = service.run_unary(None, move |cancel| {
        let limits = Limits {
            max_attempts: target.max_attempts(),
            cancel: Some(cancel),
        };
        match generator::generate_graded(&spec, seed, target, &limits) {
            Err(GenerateError::Cancelled) => None,
            made => Some(made),
        }
    });
    let budget = service.limits.generate_budget;
    match tokio::time::timeout(budget, work).await {
        Ok(made) => made?.map_err(status),
        Err(_) => Err(Status::resource_exhausted(format!(
            "{} took more than the server's budget of {} per puzzle (--generate-budget){}",
            plan.describe(),
            humantime::format_duration(budget),
            if target.is_any() {
                ""
            } else {
                ": the grade is rare for this shape and symmetry"
            }
        ))),
    }
}

/// Starts generating the puzzles `request` asks for.
pub(super) fn generate(
    service: &Sudoku,
    request: Request<GenerateRequest>,
) -> Result<Response<GenerateStream>, Status> {
    let deadline = crate::layer::deadline(&request);
    let plan = Plan::new(request.get_ref(), service.limits.max_generate_count)?;
    tracing::info!(
        count = plan.count,
        seed = plan.seed,
        shape = %plan.spec.shape(),
        symmetry = %plan.spec.symmetry(),
        minimal = plan.spec.minimal(),
        target = %plan.target,
        "generating"
    );
    let service = service.clone();
    let puzzles = async_stream::try_stream! {
        for index in 0..u64::from(plan.count) {
            let seed = generator::puzzle_seed(plan.seed, index);
            let made = tokio::select! {
                made = make(&service, &plan, seed) => made,
                () = crate::layer::sleep(deadline) => Err(Status::deadline_exceeded(format!(
                    "the deadline passed while puzzle {index} of {} was being made",
                    plan.count
                ))),
                () = service.draining.cancelled() => Err(RpcError::Draining(format!(
                    "the puzzles from index {index} on (of {}) were not made",
                    plan.count
                )).into()),
            }?;
            yield wire::generated(index, seed, &made, &plan.symbols);
        }
    };
    Ok(Response::new(Box::pin(puzzles)))
}
