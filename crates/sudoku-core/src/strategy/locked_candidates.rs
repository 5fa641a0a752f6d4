//! Locked candidates. Pointing (2.6): a value whose places in a box all lie in one line leaves the
//! rest of that line. Claiming (2.8): a value whose places in a line all lie in one box leaves the
//! rest of that box. The direct variants (1.7, 1.9) are those whose eliminations leave a hidden single
//! of the value, placed in the same step.

use std::fmt::Write as _;

use super::{Context, Step, Technique, hidden_single, write_eliminations};
use crate::candidates::{Board, Candidate, values};

/// The first pointing whose eliminations leave a hidden single.
pub fn find_direct_pointing(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    search(board, ctx, true, true)
}

/// The first claiming whose eliminations leave a hidden single.
pub fn find_direct_claiming(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    search(board, ctx, false, true)
}

/// The first pointing.
pub fn find_pointing(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    search(board, ctx, true, false)
}

/// The first claiming.
pub fn find_claiming(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    search(board, ctx, false, false)
}

fn search(board: &Board, ctx: &Context<'_>, pointing: bool, direct: bool) -> Option<Step> {
    let n = board.n();
    let geo = board.geo();
    // Pointing looks from each box at the lines; claiming from each line at the boxes.
    let sources = if pointing { 2 * n..3 * n } else { 0..2 * n };
    let mut eliminations = Vec::new();
    for source in sources {
        for value in values(board.all() & !board.placed(source)) {
            let positions = board.positions(source, value);
            if positions.count_ones() < 2 {
                continue;
            }
            let mut cells = geo.cells_in(source, positions);
            let Some(first) = cells.next() else { continue };
            let [row, col, bx] = geo.units_of(first);
            let targets: &[usize] = if pointing { &[row, col] } else { &[bx] };
            for &target in targets {
                if target == source
                    || !geo
                        .cells_in(source, positions)
                        .all(|c| geo.units_of(c).contains(&target))
                {
                    continue;
                }
                eliminations.clear();
                eliminations.extend(
                    geo.cells_in(target, board.positions(target, value))
                        .filter(|&c| !geo.units_of(c).contains(&source))
                        .map(|cell| Candidate { cell, value }),
                );
                if eliminations.is_empty() {
                    continue;
                }
                let single = if direct {
                    match hidden_single::created_by(board, &eliminations, Some(value)) {
                        Some(single) => Some(single),
                        None => continue,
                    }
                } else {
                    None
                };
                let (technique, rating) = match (pointing, direct) {
                    (true, true) => (Technique::DirectPointing, 17),
                    (false, true) => (Technique::DirectClaiming, 19),
                    (true, false) => (Technique::Pointing, 26),
                    (false, false) => (Technique::Claiming, 28),
                };
                let mut step = Step::new(technique, rating);
                step.eliminations = std::mem::take(&mut eliminations);
                step.evidence = geo
                    .cells_in(source, positions)
                    .map(|cell| Candidate { cell, value })
                    .collect();
                if let Some((_, cell, value)) = single {
                    step.placements.push(Candidate { cell, value });
                }
                if ctx.explain {
                    let _ = write!(
                        step.text,
                        "In {}, {{{value}}} fits only where it meets {}, so {} loses it elsewhere.",
                        geo.unit_name(source),
                        geo.unit_name(target),
                        geo.unit_name(target),
                    );
                    write_eliminations(&mut step.text, board, &step.eliminations);
                    if let Some((unit, cell, value)) = single {
                        let _ = write!(
                            step.text,
                            " Then in {}, {{{value}}} fits only in {}.",
                            geo.unit_name(unit),
                            geo.name(cell)
                        );
                    }
                }
                return Some(step);
            }
        }
    }
    None
}
