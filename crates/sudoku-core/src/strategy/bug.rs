//! BUG+1 (5.6): when every blank cell but one holds two candidates and every value appears twice in
//! each unit's candidates except in that cell's units, the grid without it would be a "bivalue
//! universal grave" with two solutions. A unique puzzle rules that out, so the odd cell takes the
//! value that appears three times in its units.
//!
//! BUG type 2 (5.7): the blank cells with three candidates all hold one same value v, and without v
//! in those cells every value would appear twice in each unit's candidates. One of them is v, so
//! every cell seeing all of them loses v. Sudoku Explainer tries both after the hidden quads.

use std::fmt::Write as _;

use super::{Context, Step, Technique};
use crate::candidates::{Board, Candidate, values};

/// The BUG+1 placement or the BUG type 2 eliminations, if the grid is in either state. Not with a
/// variant's extra units, where swapping each cell's two values need not give a second solution.
pub fn find(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    if board.geo().has_extra_units() {
        return None;
    }
    plus_one(board, ctx).or_else(|| type2(board, ctx))
}

/// BUG type 2: the cells with three candidates share a value whose removal from them leaves a BUG.
fn type2(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    let n = board.n();
    let geo = board.geo();
    let mut extra = Vec::new();
    let mut common = board.all();
    for cell in 0..n * n {
        match board.cands(cell).count_ones() {
            0 | 2 => {}
            3 => {
                extra.push(cell);
                common &= board.cands(cell);
            }
            _ => return None,
        }
    }
    if extra.len() < 2 {
        return None;
    }
    for value in values(common) {
        // Without `value` in the extra cells, each unit holds each open value twice.
        let bug = (0..3 * n).all(|unit| {
            values(board.all() & !board.placed(unit)).all(|v| {
                let mut count = board.positions(unit, v).count_ones();
                if v == value {
                    count -= extra
                        .iter()
                        .filter(|&&c| geo.units_of(c).contains(&unit))
                        .count() as u32;
                }
                count == 2
            })
        });
        if !bug {
            continue;
        }
        let eliminations = super::seen_by_all(board, value, &extra);
        if eliminations.is_empty() {
            continue;
        }
        let mut step = Step::new(Technique::BugType2, 57);
        step.evidence = extra
            .iter()
            .map(|&cell| Candidate { cell, value })
            .collect();
        step.eliminations = eliminations;
        if ctx.explain {
            step.text.push_str("Without {");
            let _ = write!(step.text, "{value}}} in ");
            super::write_cells(&mut step.text, board, extra.iter().copied());
            let _ = write!(
                step.text,
                ", every blank cell would have two candidates and each value would appear twice in every unit: two solutions. So one of them is {{{value}}} (BUG type 2)."
            );
            super::write_eliminations(&mut step.text, board, &step.eliminations);
        }
        return Some(step);
    }
    None
}

/// BUG+1: one cell with three candidates.
fn plus_one(board: &Board, ctx: &Context<'_>) -> Option<Step> {
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
