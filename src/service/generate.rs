//! Generate: fresh puzzles from the core's generator, streamed as they are made.
//!
//! Each puzzle is made on a solver slot off the async threads, one after another, and sent as soon as
//! it is made, so a slow client or a large count holds no more than one puzzle's work. The puzzle at
//! `index` comes from its own seed ([`generator::puzzle_seed`]), which the answer carries: asking
//! again with that seed and a count of 1 gives that puzzle back. A dropped call or a passed deadline
//! raises the generator's cancel flag at once.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use futures::Stream;
use tonic::{Code, Request, Response, Status};

use super::{CancelOnDrop, Sudoku, echo_request_id};
use crate::generate::Plan;
use crate::grpc::REQUEST_ID;
use crate::proto::{GenerateRequest, GenerateResponse};
use sudoku_core::generator::{self, GenerateError, Generated, Limits, Spec};

/// The stream of generated puzzles.
pub type GenerateStream = Pin<Box<dyn Stream<Item = Result<GenerateResponse, Status>> + Send>>;

/// The status that ends a call whose puzzle could not be made.
fn status(err: GenerateError) -> Status {
    let code = match err {
        GenerateError::SymmetryNeedsSquareBoxes { .. } => Code::InvalidArgument,
        GenerateError::BudgetExhausted { .. } => Code::ResourceExhausted,
        GenerateError::Cancelled => Code::Cancelled,
    };
    Status::new(code, err.to_string())
}

/// Makes the puzzle of `seed` on a solver slot, off the async threads. Dropping the future raises
/// the generator's cancel flag, so an abandoned call stops within microseconds.
async fn make(service: &Sudoku, spec: Spec, seed: u64) -> Result<Generated<()>, Status> {
    let cancel = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = CancelOnDrop(cancel.clone());
    run_blocking(service, move || {
        let limits = Limits {
            max_attempts: crate::generate::MAX_ATTEMPTS,
            cancel: Some(&cancel),
        };
        generator::generate(&spec, seed, &limits, |_, _| Some(())).map_err(status)
    })
    .await
}

/// Runs `work` on a solver slot on the blocking pool: the one place Generate's CPU work leaves the
/// async threads.
async fn run_blocking<T: Send + 'static>(
    service: &Sudoku,
    work: impl FnOnce() -> Result<T, Status> + Send + 'static,
) -> Result<T, Status> {
    let slot = service
        .solvers
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| Status::unavailable("the server is shutting down"))?;
    let task = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        work()
    });
    task.await
        .map_err(|e| Status::internal(format!("the generator stopped unexpectedly: {e}")))?
}

/// Starts generating the puzzles `request` asks for.
pub(super) async fn generate(
    service: &Sudoku,
    request: Request<GenerateRequest>,
) -> Result<Response<GenerateStream>, Status> {
    let deadline = crate::grpc::deadline(&request);
    let request_id = request.metadata().get(REQUEST_ID).cloned();
    let plan = Plan::new(request.get_ref(), service.limits.max_generate_count)?;
    tracing::info!(
        method = "Generate",
        request_id = crate::grpc::request_id(&request),
        count = plan.count,
        seed = plan.seed,
        shape = %plan.spec.shape(),
        symmetry = %plan.spec.symmetry(),
        minimal = plan.spec.minimal(),
        "generating"
    );
    let service = service.clone();
    let puzzles = async_stream::try_stream! {
        for index in 0..u64::from(plan.count) {
            let seed = generator::puzzle_seed(plan.seed, index);
            let made = tokio::select! {
                made = make(&service, plan.spec, seed) => made,
                () = crate::grpc::sleep(deadline) => Err(Status::deadline_exceeded(format!(
                    "the deadline passed while puzzle {index} of {} was being made",
                    plan.count
                ))),
            }?;
            yield plan.response(index, seed, &made);
        }
    };
    Ok(echo_request_id(
        request_id,
        Response::new(Box::pin(puzzles)),
    ))
}
