//! Grade and Hint: the human-style logic engine of the core, served.

use tonic::{Request, Response, Status};

use super::Sudoku;
use crate::proto::{GradeRequest, GradeResponse, HintRequest, HintResponse};

/// Grades one puzzle.
pub(super) async fn grade(
    _service: &Sudoku,
    _request: Request<GradeRequest>,
) -> Result<Response<GradeResponse>, Status> {
    Err(Status::unimplemented("Grade is not served yet"))
}

/// The next step for a player's board.
pub(super) async fn hint(
    _service: &Sudoku,
    _request: Request<HintRequest>,
) -> Result<Response<HintResponse>, Status> {
    Err(Status::unimplemented("Hint is not served yet"))
}
