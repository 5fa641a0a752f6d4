//! Hidden single: a value with one place left in a unit goes there (1.2 in a box, 1.5 in a row or
//! column, as people find them in boxes first).

use std::fmt::Write as _;

use super::{Context, Step, Technique};
use crate::candidates::{Board, Candidate};

/// The first hidden single in a box.
pub fn find_in_box(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    let n = board.n();
    find_in(board, ctx, std::iter::once(2 * n..3 * n), 12)
}

/// The first hidden single in a row or column, then in a variant's extra houses (rated as in a
/// line).
pub fn find_in_line(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    let n = board.n();
    let extra = board.geo().extra_houses();
    find_in(board, ctx, [0..2 * n, extra].into_iter(), 15)
}

fn find_in(
    board: &Board,
    ctx: &Context<'_>,
    units: impl Iterator<Item = std::ops::Range<usize>>,
    rating: u16,
) -> Option<Step> {
    let (unit, value) = units.flat_map(|range| board.one_place(range)).next()?;
    let positions = board.positions(unit, value);
    let cell = board
        .geo()
        .cell_at(unit, positions.trailing_zeros() as usize);
    Some(single(
        board,
        ctx,
        unit,
        cell,
        value,
        rating,
        Technique::HiddenSingle,
    ))
}

/// The step placing `value` in `cell`, its only place in `unit`.
pub(crate) fn single(
    board: &Board,
    ctx: &Context<'_>,
    unit: usize,
    cell: usize,
    value: u8,
    rating: u16,
    technique: Technique,
) -> Step {
    let mut step = Step::new(technique, rating);
    step.placements.push(Candidate { cell, value });
    if ctx.explain {
        let geo = board.geo();
        let _ = write!(
            step.text,
            "In {}, {{{value}}} fits only in {}.",
            geo.unit_name(unit),
            geo.name(cell)
        );
    }
    step
}
