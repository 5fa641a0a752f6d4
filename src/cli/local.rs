//! Grading and hints in this process, on the core, printed as a server's answers print: the same
//! engine, budget and lines as the Grade and Hint calls.

use sudoku_core::grader::{self, Options};
use sudoku_core::grid::Grid;
use sudoku_core::hint::{self, Hint};
use sudoku_core::symbols::Symbols;
use sudoku_grpc::proto::{Technique, Verdict};
use sudoku_grpc::wire;

use super::output;

/// The lines of `puzzle`'s grade: its grade line, and with `steps` its path, a step a line.
pub fn grade(puzzle: &Grid, steps: bool) -> anyhow::Result<Vec<String>> {
    let solution = match grader::unique_solution(puzzle, u64::MAX, None)? {
        Ok(solution) => solution,
        Err(verdict) => return Ok(vec![not_unique(verdict.into())]),
    };
    let options = Options {
        explain: steps,
        ..Options::default()
    };
    let grade = grader::grade(puzzle, &solution, &options)?;
    let symbols = Symbols::of(puzzle.shape());
    let mut lines = vec![output::grade_line(
        Verdict::Unique,
        grade.difficulty.into(),
        wire::rating(grade.rating),
        grade.lower_bound,
        grade.hardest.into(),
    )];
    lines.extend(grade.steps.iter().map(|step| {
        let explanation = step.explanation(|v| symbols.symbol(v).to_string());
        let technique = Technique::from(step.technique);
        format!(
            "  {}",
            output::step_line(wire::rating(step.rating), technique, &explanation)
        )
    }));
    Ok(lines)
}

/// The lines of the next step for `progress`, the board of `puzzle`.
pub fn hint(puzzle: &Grid, progress: &Grid) -> anyhow::Result<Vec<String>> {
    if progress.shape() != puzzle.shape() {
        anyhow::bail!(
            "progress: the board is {} but the puzzle is {}",
            progress.shape(),
            puzzle.shape()
        );
    }
    let solution = match grader::unique_solution(puzzle, u64::MAX, None)? {
        Ok(solution) => solution,
        Err(verdict) => return Ok(vec![not_unique(verdict.into())]),
    };
    let symbols = Symbols::of(puzzle.shape());
    let symbol = |v: u8| symbols.symbol(v).to_string();
    let side = puzzle.shape().side();
    Ok(
        match hint::hint(puzzle, progress, &solution, &Options::default())? {
            Hint::Solved => vec!["solved".into()],
            Hint::Mistakes(mistakes) => mistakes
                .iter()
                .map(|m| output::mistake_line(m.cell / side, m.cell % side, &symbol(m.value)))
                .collect(),
            Hint::Steps(steps) => steps
                .iter()
                .map(|s| {
                    output::step_line(
                        wire::rating(s.rating),
                        s.technique.into(),
                        &s.explanation(symbol),
                    )
                })
                .collect(),
        },
    )
}

/// The line of a puzzle with no unique solution: its verdict.
fn not_unique(verdict: Verdict) -> String {
    output::grade_line(verdict, Default::default(), 0.0, false, Default::default())
}
