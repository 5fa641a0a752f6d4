//! Grade: the core's logic engine rates a puzzle the way people solve it. The request is read as
//! Solve reads one (a variant with unit rules too, graded on its own units), the engine runs on the
//! pool with the call's stop flag and an effort budget, and the puzzle is proved unique on the way.

use sudoku_core::grader::{self, Options};
use tonic::{Request, Response, Status};

use super::{RpcError, Sudoku};
use crate::proto::{self, GradeRequest, GradeResponse};
use crate::wire;

/// Grades one puzzle.
pub(super) async fn grade(
    service: &Sudoku,
    request: Request<GradeRequest>,
) -> Result<Response<GradeResponse>, Status> {
    let deadline = crate::layer::deadline(&request);
    let request = request.into_inner();
    let read = wire::logic_input(&request).map_err(RpcError::from)?;
    let explain = request.include_steps;
    let answer = service
        .run_logic(deadline, read, move |read, max_guesses, cancel| {
            let puzzle = &read.layout.puzzle;
            let mut response = GradeResponse {
                clues: puzzle.givens() as u32,
                ..Default::default()
            };
            let options = Options {
                explain,
                budget: grader::DEFAULT_BUDGET,
                cancel: Some(cancel),
            };
            let grade = match read.layout.grade_unique(max_guesses, &options)? {
                Ok(grade) => grade,
                Err(verdict) => {
                    response.verdict = proto::Verdict::from(verdict).into();
                    return Ok(response);
                }
            };
            response.verdict = proto::Verdict::Unique.into();
            response.difficulty = proto::Difficulty::from(grade.difficulty).into();
            response.rating = wire::rating(grade.rating);
            response.pearl_rating = wire::rating(grade.pearl);
            response.diamond_rating = wire::rating(grade.diamond);
            response.hardest_technique = proto::Technique::from(grade.hardest).into();
            response.lower_bound = grade.lower_bound;
            response.techniques = grade
                .counts
                .iter()
                .map(|&(t, count)| proto::TechniqueCount {
                    technique: proto::Technique::from(t).into(),
                    count,
                })
                .collect();
            if explain {
                response.steps = grade.steps.iter().map(|s| read.writer.step(s)).collect();
            }
            Ok(response)
        })
        .await?;
    Ok(Response::new(answer))
}
