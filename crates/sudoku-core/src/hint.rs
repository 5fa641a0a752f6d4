//! Hints: from a player's board to its next placement, with the easiest eliminations the engine needs
//! on the way. A board holds values, not pencil marks, so each hint starts again from the board's
//! candidates: applying the hint's placement and asking again walks the whole puzzle.

use std::sync::Arc;

use crate::candidates::{Candidate, Geometry};
use crate::grader::{GradeError, Options, Path};
use crate::grid::Grid;
use crate::strategy::Step;

/// What a hint says about a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Entries that differ from the solution (each with the entry, not the solution's value).
    Mistakes(Vec<Candidate>),
    /// The board is the solution.
    Solved,
    /// The steps to the next placement: eliminations first, the placement's step last.
    Steps(Vec<Step>),
}

/// The hint for `progress` (the givens of `puzzle` plus the player's entries; a given left blank in
/// `progress` counts as given), whose puzzle has the unique `solution`.
pub fn hint(
    puzzle: &Grid,
    progress: &Grid,
    solution: &Grid,
    options: &Options<'_>,
) -> Result<Hint, GradeError> {
    hint_on(
        &Geometry::of(puzzle.shape()),
        puzzle,
        progress,
        solution,
        options,
    )
}

/// [`hint`] on the layout `geo`: a variant's regions and extra units.
pub fn hint_on(
    geo: &Arc<Geometry>,
    puzzle: &Grid,
    progress: &Grid,
    solution: &Grid,
    options: &Options<'_>,
) -> Result<Hint, GradeError> {
    if !geo.solves(puzzle, solution) || progress.shape() != puzzle.shape() {
        return Err(GradeError::WrongSolution);
    }
    let mistakes: Vec<Candidate> = progress
        .cells()
        .iter()
        .zip(solution.cells())
        .enumerate()
        .filter(|&(_, (&entry, &right))| entry != 0 && entry != right)
        .map(|(cell, (&value, _))| Candidate { cell, value })
        .collect();
    if !mistakes.is_empty() {
        return Ok(Hint::Mistakes(mistakes));
    }
    let merged: Vec<u8> = progress
        .cells()
        .iter()
        .zip(puzzle.cells())
        .map(|(&entry, &given)| if entry != 0 { entry } else { given })
        .collect();
    let board_grid = Grid::from_cells(puzzle.shape(), merged).ok_or(GradeError::WrongSolution)?;
    if board_grid.is_full() {
        return Ok(Hint::Solved);
    }
    let mut path = Path::start(geo, &board_grid).ok_or(GradeError::WrongSolution)?;
    let mut ctx = options.context(geo.n(), solution.cells());
    while let Some(step) = path.step(&mut ctx)? {
        if !step.placements.is_empty() {
            return Ok(Hint::Steps(path.steps));
        }
    }
    Err(GradeError::WrongSolution)
}
