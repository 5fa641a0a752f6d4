//! Grade and Hint: the human-style logic engine of the core, served. Requests are read as Solve reads
//! them (the same INVALID_ARGUMENT messages), the puzzle is solved to check it is unique, and the
//! engine runs off the async threads with the call's cancel flag and an effort budget.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use sudoku_core::candidates::Candidate;
use sudoku_core::grader::{self, Difficulty, GradeError};
use sudoku_core::hint::{self, Hint};
use sudoku_core::strategy::{Step, Technique};
use tonic::{Code, Request, Response, Status};
use tonic_types::{ErrorDetails, StatusExt};

use super::{CallEnd, SolveError, Sudoku};
use crate::grid::{Grid, PuzzleError, Shape};
use crate::proto::{self, GradeRequest, GradeResponse, HintRequest, HintResponse};
use crate::solver::{self, Mode, Verdict};
use sudoku_core::symbols::Symbols;
use sudoku_core::text::{Format, Notation};

/// The effort budget of one Grade or Hint call (see `sudoku_core::grader::Options::budget`): a
/// fraction of a second of forcing-chain search; past it the path guesses and says the rating is a
/// lower bound.
pub const EFFORT_BUDGET: u64 = grader::DEFAULT_BUDGET;

/// Grades one puzzle.
pub(super) async fn grade(
    service: &Sudoku,
    request: Request<GradeRequest>,
) -> Result<Response<GradeResponse>, Status> {
    let span = tracing::debug_span!(
        "rpc",
        method = "Grade",
        request_id = crate::grpc::request_id(&request)
    );
    let end = CallEnd::new("Grade", service.metrics.clone(), span);
    let deadline = crate::grpc::deadline(&request);
    let request = request.into_inner();
    let result = async {
        let (puzzle, write) = read(
            &request.puzzle,
            request.box_rows,
            request.box_cols,
            &request.symbols,
        )?;
        let explain = request.include_steps;
        let max_guesses = service.limits.default_max_guesses;
        let work =
            move |cancel: &AtomicBool| grade_puzzle(&puzzle, &write, explain, max_guesses, cancel);
        off_thread(service, deadline, work).await
    }
    .await;
    finish(end, result)
}

/// The next step for a player's board.
pub(super) async fn hint(
    service: &Sudoku,
    request: Request<HintRequest>,
) -> Result<Response<HintResponse>, Status> {
    let span = tracing::debug_span!(
        "rpc",
        method = "Hint",
        request_id = crate::grpc::request_id(&request)
    );
    let end = CallEnd::new("Hint", service.metrics.clone(), span);
    let deadline = crate::grpc::deadline(&request);
    let request = request.into_inner();
    let result = async {
        let (puzzle, write) = read(
            &request.puzzle,
            request.box_rows,
            request.box_cols,
            &request.symbols,
        )?;
        let progress = if request.progress.trim().is_empty() {
            puzzle.clone()
        } else {
            // The board in the puzzle's shape and alphabet; its clashes are mistakes, not errors.
            let format = Format {
                shape: Some(puzzle.shape()),
                symbols: Some(write.symbols),
            };
            Grid::read(&request.progress, &format)
                .map_err(|e| Invalid::Progress(e.to_string()))?
                .grid
        };
        let max_guesses = service.limits.default_max_guesses;
        let work =
            move |cancel: &AtomicBool| hint_board(&puzzle, &progress, &write, max_guesses, cancel);
        off_thread(service, deadline, work).await
    }
    .await;
    finish(end, result)
}

/// Reads a request's puzzle in its shape and alphabet, as Solve reads one; the writer answers in kind.
fn read(
    text: &str,
    box_rows: u32,
    box_cols: u32,
    symbols: &str,
) -> Result<(Grid, Writer), Invalid> {
    let format = Format::new(box_rows, box_cols, symbols)
        .map_err(|e| SolveError::Puzzle(PuzzleError::Parse(e)))?;
    let read = Grid::read_puzzle(text, &format).map_err(SolveError::Puzzle)?;
    let write = Writer {
        side: read.grid.shape().side(),
        symbols: read.symbols,
        numbers: read.notation == Notation::Numbers,
    };
    Ok((read.grid, write))
}

/// Why a Grade or Hint call got no answer.
#[derive(Debug, thiserror::Error)]
enum Invalid {
    /// As Solve fails.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// The player's board is unreadable.
    #[error("progress: {0}")]
    Progress(String),
}

impl From<Invalid> for Status {
    fn from(err: Invalid) -> Status {
        match err {
            Invalid::Solve(e) => Status::from(e),
            Invalid::Progress(message) => Status::with_error_details(
                Code::InvalidArgument,
                format!("progress: {message}"),
                ErrorDetails::with_bad_request_violation("progress", message),
            ),
        }
    }
}

/// Counts the call in the metrics and turns its result into the answer.
fn finish<T>(mut end: CallEnd, result: Result<T, Invalid>) -> Result<Response<T>, Status> {
    let code = match &result {
        Ok(_) => Code::Ok,
        Err(Invalid::Solve(e)) => e.code(),
        Err(Invalid::Progress(_)) => Code::InvalidArgument,
    };
    // Counted and logged when `end` drops; a call its client drops first counts as CANCELLED.
    end.code = code;
    result.map(Response::new).map_err(Status::from)
}

/// Runs CPU-bound `work` on the server's solver pool through the one unary path Solve takes (never
/// on an async thread): queue timeout, deadline and cancellation as for Solve, with the call's stop
/// flag handed to the engine.
async fn off_thread<T: Send + 'static>(
    service: &Sudoku,
    deadline: Option<Instant>,
    work: impl FnOnce(&AtomicBool) -> Result<T, Invalid> + Send + 'static,
) -> Result<T, Invalid> {
    service
        .run_unary(deadline, move |stop: &AtomicBool| {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(stop)))
                .unwrap_or_else(|_| {
                    Err(SolveError::Internal("the logic engine failed".into()).into())
                });
            // An error after the flag was raised is the flag's doing: the pool counts it as cut off.
            match result {
                Err(_) if stop.load(Ordering::Acquire) => None,
                result => Some(result),
            }
        })
        .await?
}

/// The puzzle's verdict and, when unique, its solution.
fn solve(
    puzzle: &Grid,
    max_guesses: u64,
    cancel: &AtomicBool,
) -> Result<(Verdict, Option<Grid>), Invalid> {
    let options = solver::Options {
        mode: Mode::ProveUnique,
        max_guesses: Some(max_guesses),
        cancel: Some(cancel),
    };
    let outcome = solver::solve(puzzle, &options);
    match outcome.verdict {
        Verdict::Cancelled => Err(SolveError::DeadlineExceeded.into()),
        Verdict::Unique => Ok((Verdict::Unique, outcome.solution)),
        other => Ok((other, None)),
    }
}

/// The engine's options for a call.
fn options(explain: bool, cancel: &AtomicBool) -> grader::Options<'_> {
    grader::Options {
        explain,
        budget: EFFORT_BUDGET,
        cancel: Some(cancel),
    }
}

/// Grade's work, on a blocking thread.
fn grade_puzzle(
    puzzle: &Grid,
    write: &Writer,
    explain: bool,
    max_guesses: u64,
    cancel: &AtomicBool,
) -> Result<GradeResponse, Invalid> {
    let (verdict, solution) = solve(puzzle, max_guesses, cancel)?;
    let mut response = GradeResponse {
        verdict: proto::Verdict::from(verdict).into(),
        clues: puzzle.givens() as u32,
        ..Default::default()
    };
    let Some(solution) = solution else {
        return Ok(response);
    };
    let grade =
        grader::grade(puzzle, &solution, &options(explain, cancel)).map_err(engine_error)?;
    response.difficulty = difficulty(grade.difficulty).into();
    response.rating = rating(grade.rating);
    response.hardest_technique = technique(grade.hardest).into();
    response.lower_bound = grade.lower_bound;
    response.techniques = grade
        .counts
        .iter()
        .map(|&(t, count)| proto::TechniqueCount {
            technique: technique(t).into(),
            count,
        })
        .collect();
    if explain {
        response.steps = grade.steps.iter().map(|s| write.step(s)).collect();
    }
    Ok(response)
}

/// Hint's work, on a blocking thread.
fn hint_board(
    puzzle: &Grid,
    progress: &Grid,
    write: &Writer,
    max_guesses: u64,
    cancel: &AtomicBool,
) -> Result<HintResponse, Invalid> {
    let (verdict, solution) = solve(puzzle, max_guesses, cancel)?;
    let mut response = HintResponse {
        verdict: proto::Verdict::from(verdict).into(),
        ..Default::default()
    };
    let Some(solution) = solution else {
        return Ok(response);
    };
    match hint::hint(puzzle, progress, &solution, &options(true, cancel)).map_err(engine_error)? {
        Hint::Solved => response.solved = true,
        Hint::Mistakes(mistakes) => {
            response.mistakes = mistakes.iter().map(|&c| write.cell(c)).collect()
        }
        Hint::Steps(steps) => response.steps = steps.iter().map(|s| write.step(s)).collect(),
    }
    Ok(response)
}

fn engine_error(e: GradeError) -> Invalid {
    match e {
        GradeError::Cancelled => SolveError::DeadlineExceeded.into(),
        GradeError::WrongSolution => SolveError::Internal(e.to_string()).into(),
    }
}

/// Writes the engine's values as the request's symbols (or numbers, when its cells were numbers).
pub struct Writer {
    side: usize,
    symbols: Symbols,
    numbers: bool,
}

impl Writer {
    /// The standard writer of `shape`: `1`-`9`, then `A` onwards.
    pub fn standard(shape: Shape) -> Writer {
        Writer {
            side: shape.side(),
            symbols: Symbols::of(shape),
            numbers: false,
        }
    }

    fn symbol(&self, v: u8) -> String {
        if self.numbers {
            v.to_string()
        } else {
            self.symbols.symbol(v).to_string()
        }
    }

    fn cell(&self, c: Candidate) -> proto::CellSymbol {
        proto::CellSymbol {
            row: (c.cell / self.side) as u32,
            col: (c.cell % self.side) as u32,
            symbol: self.symbol(c.value),
        }
    }

    fn step(&self, step: &Step) -> proto::Step {
        proto::Step {
            technique: technique(step.technique).into(),
            rating: rating(step.rating),
            placements: step.placements.iter().map(|&c| self.cell(c)).collect(),
            eliminations: step.eliminations.iter().map(|&c| self.cell(c)).collect(),
            evidence: step.evidence.iter().map(|&c| self.cell(c)).collect(),
            explanation: step.explanation(|v| self.symbol(v)),
        }
    }
}

/// A rating in tenths as the wire's double.
fn rating(tenths: u16) -> f64 {
    f64::from(tenths) / 10.0
}

/// The wire's level.
pub fn difficulty(d: Difficulty) -> proto::Difficulty {
    match d {
        Difficulty::Beginner => proto::Difficulty::Beginner,
        Difficulty::Easy => proto::Difficulty::Easy,
        Difficulty::Medium => proto::Difficulty::Medium,
        Difficulty::Hard => proto::Difficulty::Hard,
        Difficulty::Expert => proto::Difficulty::Expert,
        Difficulty::Extreme => proto::Difficulty::Extreme,
    }
}

/// The wire's technique.
pub fn technique(t: Technique) -> proto::Technique {
    use proto::Technique as P;
    match t {
        Technique::FullHouse => P::FullHouse,
        Technique::HiddenSingle => P::HiddenSingle,
        Technique::DirectPointing => P::DirectPointing,
        Technique::DirectClaiming => P::DirectClaiming,
        Technique::DirectHiddenPair => P::DirectHiddenPair,
        Technique::NakedSingle => P::NakedSingle,
        Technique::DirectHiddenTriple => P::DirectHiddenTriple,
        Technique::Pointing => P::Pointing,
        Technique::Claiming => P::Claiming,
        Technique::NakedPair => P::NakedPair,
        Technique::XWing => P::XWing,
        Technique::HiddenPair => P::HiddenPair,
        Technique::NakedTriple => P::NakedTriple,
        Technique::Swordfish => P::Swordfish,
        Technique::HiddenTriple => P::HiddenTriple,
        Technique::XyWing => P::XyWing,
        Technique::XyzWing => P::XyzWing,
        Technique::UniqueRectangle => P::UniqueRectangle,
        Technique::NakedQuad => P::NakedQuad,
        Technique::Jellyfish => P::Jellyfish,
        Technique::HiddenQuad => P::HiddenQuad,
        Technique::BugPlusOne => P::BugPlusOne,
        Technique::Skyscraper => P::Skyscraper,
        Technique::TwoStringKite => P::TwoStringKite,
        Technique::XChain => P::XChain,
        Technique::XyChain => P::XyChain,
        Technique::ForcingChain => P::ForcingChain,
        Technique::Guess => P::Guess,
    }
}

/// Grades `puzzle` in-process exactly as the Grade call does, for the command line.
pub fn grade_local(puzzle: &Grid, include_steps: bool) -> Result<GradeResponse, String> {
    let write = Writer::standard(puzzle.shape());
    grade_puzzle(
        puzzle,
        &write,
        include_steps,
        u64::MAX,
        &AtomicBool::new(false),
    )
    .map_err(|e| e.to_string())
}

/// Answers a hint in-process exactly as the Hint call does, for the command line.
pub fn hint_local(puzzle: &Grid, progress: &Grid) -> Result<HintResponse, String> {
    if progress.shape() != puzzle.shape() {
        return Err(format!(
            "progress: the board is {} but the puzzle is {}",
            progress.shape(),
            puzzle.shape()
        ));
    }
    hint_board(
        puzzle,
        progress,
        &Writer::standard(puzzle.shape()),
        u64::MAX,
        &AtomicBool::new(false),
    )
    .map_err(|e| e.to_string())
}

/// One line for a graded puzzle: `EASY 2.3 NAKED_SINGLE`, the verdict for one that is not unique.
pub fn grade_line(response: &GradeResponse) -> String {
    if response.verdict() != proto::Verdict::Unique {
        return response
            .verdict()
            .as_str_name()
            .trim_start_matches("VERDICT_")
            .to_lowercase();
    }
    let name = |t: proto::Technique| t.as_str_name().trim_start_matches("TECHNIQUE_").to_string();
    format!(
        "{} {:.1}{} {}",
        response
            .difficulty()
            .as_str_name()
            .trim_start_matches("DIFFICULTY_"),
        response.rating,
        if response.lower_bound { "+" } else { "" },
        name(response.hardest_technique())
    )
}

/// A step in words: `2.3 NAKED_SINGLE: r1c2 has one candidate left: 4.`
pub fn step_line(step: &proto::Step) -> String {
    format!(
        "{:.1} {}: {}",
        step.rating,
        step.technique()
            .as_str_name()
            .trim_start_matches("TECHNIQUE_"),
        step.explanation
    )
}

/// The lines of a hint: the steps, or the mistakes, or `solved`.
pub fn hint_lines(response: &HintResponse) -> Vec<String> {
    if response.verdict() != proto::Verdict::Unique {
        return vec![
            response
                .verdict()
                .as_str_name()
                .trim_start_matches("VERDICT_")
                .to_lowercase(),
        ];
    }
    if response.solved {
        return vec!["solved".into()];
    }
    if !response.mistakes.is_empty() {
        return response
            .mistakes
            .iter()
            .map(|m| {
                format!(
                    "mistake: r{}c{} should not be {}",
                    m.row + 1,
                    m.col + 1,
                    m.symbol
                )
            })
            .collect();
    }
    response.steps.iter().map(step_line).collect()
}
