//! BUG+1 (5.6): when every blank cell but one holds two candidates and every value appears twice in
//! each unit's candidates except in that cell's units, the grid without it would be a "bivalue
//! universal grave" with two solutions. A unique puzzle rules that out, so the odd cell takes the
//! value that appears three times in its units.

use std::fmt::Write as _;

use super::{Context, Step, Technique};
use crate::candidates::{Board, Candidate, values};

/// The BUG+1 placement, if the grid is in that state.
pub fn find(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    let n = board.n();
    let geo = board.geo();
    let mut odd = None;
    for cell in 0..n * n {
        match board.cands(cell).count_ones() {
            0 | 2 => {}
            3 if odd.is_none() => odd = Some(cell),
            _ => return None,
        }
    }
    let cell = odd?;
    let [row, col, bx] = geo.units_of(cell);
    let mut value = None;
    for v in values(board.cands(cell)) {
        let counts = [row, col, bx].map(|u| board.positions(u, v).count_ones());
        if counts == [3, 3, 3] {
            value = Some(v);
        } else if counts != [2, 2, 2] {
            return None;
        }
    }
    let value = value?;
    // Every other unit must hold each open value exactly twice.
    for unit in 0..3 * n {
        for v in values(board.all() & !board.placed(unit)) {
            let count = board.positions(unit, v).count_ones();
            let through = geo.units_of(cell).contains(&unit) && v == value;
            if count != if through { 3 } else { 2 } {
                return None;
            }
        }
    }
    let mut step = Step::new(Technique::BugPlusOne, 56);
    step.placements.push(Candidate { cell, value });
    step.evidence = values(board.cands(cell))
        .map(|value| Candidate { cell, value })
        .collect();
    if ctx.explain {
        let _ = write!(
            step.text,
            "Every blank cell but {} has two candidates, and without it each value would appear twice in every unit: two solutions. So {} takes {{{value}}}, the value it holds three times in its units (BUG+1).",
            geo.name(cell),
            geo.name(cell)
        );
    }
    Some(step)
}
