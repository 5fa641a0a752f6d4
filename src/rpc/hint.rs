//! Hint: the next step for a player's board, from the same logic engine as Grade; or the entries
//! that are wrong. The puzzle is read as Grade reads one (classic, or a variant with unit rules), the
//! board in the puzzle's shape and alphabet.

use sudoku_core::grader::{self, Options};
use sudoku_core::hint::Hint;
use tonic::{Request, Response, Status};

use super::{RpcError, Sudoku};
use crate::proto::{self, HintRequest, HintResponse};
use crate::wire;

/// The next step for a player's board.
pub(super) async fn hint(
    service: &Sudoku,
    request: Request<HintRequest>,
) -> Result<Response<HintResponse>, Status> {
    let deadline = crate::layer::deadline(&request);
    let request = request.into_inner();
    let read = wire::logic_input(&request).map_err(RpcError::from)?;
    let progress = if request.progress.trim().is_empty() {
        read.layout.puzzle.clone()
    } else {
        read.read_board(&request.progress).map_err(RpcError::from)?
    };
    let answer = service
        .run_logic(deadline, read, move |read, max_guesses, cancel| {
            let mut response = HintResponse::default();
            let solution = match read.layout.unique_solution(max_guesses, Some(cancel))? {
                Ok(solution) => solution,
                Err(verdict) => {
                    response.verdict = proto::Verdict::from(verdict).into();
                    return Ok(response);
                }
            };
            response.verdict = proto::Verdict::Unique.into();
            let options = Options {
                explain: true,
                budget: grader::DEFAULT_BUDGET,
                cancel: Some(cancel),
            };
            let write = &read.writer;
            match read.layout.hint(&progress, &solution, &options)? {
                Hint::Solved => response.solved = true,
                Hint::Mistakes(mistakes) => {
                    response.mistakes = mistakes.iter().map(|&c| write.cell(c)).collect()
                }
                Hint::Steps(steps) => {
                    response.steps = steps.iter().map(|s| write.step(s)).collect()
                }
            }
            Ok(response)
        })
        .await?;
    Ok(Response::new(answer))
}
