//! Naked single (2.3): a cell with one candidate left takes it.

use std::fmt::Write as _;

use super::{Context, Step, Technique};
use crate::candidates::{Board, Candidate};

/// The first cell with one candidate.
pub fn find(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    let cells = board.n() * board.n();
    let cell = (0..cells).find(|&c| board.cands(c).count_ones() == 1)?;
    let value = board.cands(cell).trailing_zeros() as u8 + 1;
    let mut step = Step::new(Technique::NakedSingle, 23);
    step.placements.push(Candidate { cell, value });
    if ctx.explain {
        let _ = write!(
            step.text,
            "{} has one candidate left: {{{value}}}.",
            board.geo().name(cell)
        );
    }
    Some(step)
}
