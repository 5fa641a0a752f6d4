//! Generate: fresh puzzles from the core's generator, streamed as they are made.

use std::pin::Pin;

use futures::Stream;
use tonic::{Request, Response, Status};

use super::Sudoku;
use crate::proto::{GenerateRequest, GenerateResponse};

/// The stream of generated puzzles.
pub type GenerateStream = Pin<Box<dyn Stream<Item = Result<GenerateResponse, Status>> + Send>>;

/// Starts generating the puzzles `request` asks for.
pub(super) async fn generate(
    _service: &Sudoku,
    _request: Request<GenerateRequest>,
) -> Result<Response<GenerateStream>, Status> {
    Err(Status::unimplemented("Generate is not served yet"))
}
