//! Guess (10.0): when nothing else applies within the budget, the blank cell with the fewest
//! candidates takes its value from the solution, so every unique puzzle gets a whole path. A puzzle
//! that needs one is EXTREME, and its rating a lower bound.

use std::fmt::Write as _;

use super::{Context, Step, Technique};
use crate::candidates::{Board, Candidate};

/// A guess's rating (10.0).
pub const RATING: u16 = 100;

/// The guess: the first blank cell with the fewest candidates, and its solution value.
pub fn find(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    let cells = board.n() * board.n();
    let cell = (0..cells)
        .filter(|&c| board.value(c) == 0)
        .min_by_key(|&c| board.cands(c).count_ones())?;
    let value = *ctx.solution.get(cell)?;
    if value == 0 {
        return None;
    }
    let mut step = Step::new(Technique::Guess, RATING);
    step.placements.push(Candidate { cell, value });
    if ctx.explain {
        let _ = write!(
            step.text,
            "No technique applies: try {{{value}}} in {}, one of its {} candidates (it is the solution's).",
            board.geo().name(cell),
            board.cands(cell).count_ones()
        );
    }
    Some(step)
}
