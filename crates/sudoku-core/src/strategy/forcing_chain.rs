//! Forcing chains, the dynamic kind: assume a candidate and follow the singles it forces.
//! - Contradiction: if assuming a candidate breaks the grid (a cell without candidates, a value
//!   without a place in a unit), the candidate is false.
//! - Cell forcing: if every candidate of a cell forces the same value into some other cell, it goes
//!   there.
//! - Region forcing: the same over every place a value has in a unit.
//!
//! Rated 8.5 plus SE's length adjustment on the singles the longest branch needs. Each branch costs
//! effort from the budget; once it runs out, the search stops and the grader guesses instead.

use std::fmt::Write as _;

use super::{Context, Step, Stopped, Technique, length_adjustment, write_values};
use crate::candidates::{Board, Candidate, values};

/// What following one assumption led to.
enum Branch {
    /// The grid broke after this many placements.
    Broken(usize),
    /// No more singles after this many placements; the values then.
    Settled(usize, Board),
}

/// The rating of the shortest forcing chain; longer ones rate more.
pub const LOWEST_RATING: u16 = 85;

/// The first forcing chain found, trying cells and units with two options before three.
pub fn find(board: &Board, ctx: &mut Context<'_>) -> Result<Option<Step>, Stopped> {
    let n = board.n();
    let geo = board.geo();
    let cells = n * n;
    for options in 2..=3u32 {
        for cell in (0..cells).filter(|&c| board.cands(c).count_ones() == options) {
            ctx.check_cancel()?;
            let assumptions: Vec<Candidate> = values(board.cands(cell))
                .map(|value| Candidate { cell, value })
                .collect();
            let Some(step) = try_assumptions(board, ctx, &assumptions, None) else {
                if ctx.exhausted {
                    return Ok(None);
                }
                continue;
            };
            return Ok(Some(step));
        }
        for unit in geo.houses() {
            for value in values(board.all() & !board.placed(unit)) {
                if board.positions(unit, value).count_ones() != options {
                    continue;
                }
                ctx.check_cancel()?;
                let assumptions: Vec<Candidate> = geo
                    .cells_in(unit, board.positions(unit, value))
                    .map(|cell| Candidate { cell, value })
                    .collect();
                if let Some(step) = try_assumptions(board, ctx, &assumptions, Some(unit)) {
                    return Ok(Some(step));
                }
                if ctx.exhausted {
                    return Ok(None);
                }
            }
        }
    }
    Ok(None)
}

/// One of `assumptions` is true (a cell's candidates, or a value's places in `unit`): a step if one
/// of them breaks the grid or all of them force the same placement.
fn try_assumptions(
    board: &Board,
    ctx: &mut Context<'_>,
    assumptions: &[Candidate],
    unit: Option<usize>,
) -> Option<Step> {
    let geo = board.geo();
    let mut settled: Vec<(Candidate, usize, Board)> = Vec::with_capacity(assumptions.len());
    for &assumed in assumptions {
        match follow(board, ctx, assumed)? {
            Branch::Broken(length) => {
                let mut step = Step::new(
                    Technique::ForcingChain,
                    LOWEST_RATING + length_adjustment(length),
                );
                step.eliminations.push(assumed);
                step.evidence.push(assumed);
                if ctx.explain {
                    let _ = write!(
                        step.text,
                        "If {} held {{{}}}, the singles that follow ({length} of them) would leave a cell without a candidate or a value without a place: so it does not (forcing chain, contradiction).",
                        geo.name(assumed.cell),
                        assumed.value
                    );
                }
                return Some(step);
            }
            Branch::Settled(length, result) => settled.push((assumed, length, result)),
        }
    }
    let (first, rest) = settled.split_first()?;
    let n = board.n();
    let forced = (0..n * n).find(|&cell| {
        let v = first.2.value(cell);
        board.value(cell) == 0 && v != 0 && rest.iter().all(|other| other.2.value(cell) == v)
    })?;
    let value = first.2.value(forced);
    let longest = settled.iter().map(|s| s.1).max().unwrap_or(0);
    let mut step = Step::new(
        Technique::ForcingChain,
        LOWEST_RATING + length_adjustment(longest),
    );
    step.placements.push(Candidate {
        cell: forced,
        value,
    });
    step.evidence = assumptions.to_vec();
    if ctx.explain {
        match unit {
            Some(unit) => {
                let v = assumptions[0].value;
                let _ = write!(
                    step.text,
                    "Wherever {{{v}}} goes in {} (",
                    geo.unit_name(unit)
                );
                super::write_cells(&mut step.text, board, assumptions.iter().map(|a| a.cell));
                step.text.push_str("), ");
            }
            None => {
                let _ = write!(
                    step.text,
                    "Whichever value {} holds (",
                    geo.name(assumptions[0].cell)
                );
                write_values(&mut step.text, assumptions.iter().map(|a| a.value), " or ");
                step.text.push_str("), ");
            }
        }
        let _ = write!(
            step.text,
            "the singles that follow put {{{value}}} in {} (forcing chain).",
            geo.name(forced)
        );
    }
    Some(step)
}

/// Assumes `assumed` on a copy of the board and places singles until none is left or the grid
/// breaks. `None` when the budget runs out.
fn follow(board: &Board, ctx: &mut Context<'_>, assumed: Candidate) -> Option<Branch> {
    let n = board.n();
    let geo = board.geo();
    let mut b = board.clone();
    b.place(assumed.cell, assumed.value);
    let mut placed = 0;
    loop {
        if !ctx.spend((4 * n * n) as u64) {
            return None;
        }
        let mut progress = false;
        for cell in 0..n * n {
            if b.value(cell) != 0 {
                continue;
            }
            match b.cands(cell).count_ones() {
                0 => return Some(Branch::Broken(placed)),
                1 => {
                    b.place(cell, b.cands(cell).trailing_zeros() as u8 + 1);
                    placed += 1;
                    progress = true;
                }
                _ => {}
            }
        }
        for unit in geo.houses() {
            for value in values(b.all() & !b.placed(unit)) {
                let p = b.positions(unit, value);
                match p.count_ones() {
                    0 => return Some(Branch::Broken(placed)),
                    1 => {
                        b.place(geo.cell_at(unit, p.trailing_zeros() as usize), value);
                        placed += 1;
                        progress = true;
                    }
                    _ => {}
                }
            }
        }
        if !progress {
            return Some(Branch::Settled(placed, b));
        }
    }
}
