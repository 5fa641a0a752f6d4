//! Locked candidates. Pointing (2.6): a value whose places in a box all lie in one line leaves the
//! rest of that line. Claiming (2.8): a value whose places in a line all lie in one box leaves the
//! rest of that box. The direct variants (1.7, 1.9) are those whose eliminations leave a hidden single
//! of the value, placed in the same step (which places only: the eliminations are not applied), in a unit of the kind the value was confined in: for
//! pointing another box the line crosses, for claiming another line of the same direction through
//! the box (Sudoku Explainer counts no other single as direct).

use std::fmt::Write as _;

use super::{Context, Step, Technique, write_eliminations};
use crate::candidates::{Board, Candidate, Geometry, Mask, UnitKind, values};

/// The first pointing whose eliminations leave a hidden single in another box the line crosses.
pub fn find_direct_pointing(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    let n = board.n();
    // Boxes pointing along columns first, then along rows, as Sudoku Explainer looks.
    direct(board, ctx, 2 * n..3 * n, n..2 * n).or_else(|| direct(board, ctx, 2 * n..3 * n, 0..n))
}

/// The first claiming whose eliminations leave a hidden single in a parallel line through the box.
pub fn find_direct_claiming(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    let n = board.n();
    direct(board, ctx, n..2 * n, 2 * n..3 * n).or_else(|| direct(board, ctx, 0..n, 2 * n..3 * n))
}

/// The first direct locking of a value confined in a unit of `sources` to a crossing unit of
/// `targets`, whose eliminations leave the value one place in another unit of `sources` crossing
/// the target (which had more than one before).
fn direct(
    board: &Board,
    ctx: &Context<'_>,
    sources: std::ops::Range<usize>,
    targets: std::ops::Range<usize>,
) -> Option<Step> {
    let geo = board.geo();
    let pointing = geo.kind(sources.start) == UnitKind::Box;
    // Which of a cell's row, column and region the target is.
    let target_kind = geo.kind(targets.start) as usize;
    for value in values(board.all()) {
        for source in sources.clone() {
            let positions = board.positions(source, value);
            if positions & positions.wrapping_sub(1) == 0 {
                continue;
            }
            let first = positions.trailing_zeros() as usize;
            if positions & !geo.along(source, target_kind, first) != 0 {
                continue;
            }
            let target = geo.units_of(geo.cell_at(source, first))[target_kind];
            // Each other source-kind unit the target crosses, in order.
            let others = sources
                .clone()
                .filter(|&u| u != source && geo.meet(target, u) != 0);
            for other in others {
                let there = board.positions(other, value);
                if there.count_ones() < 2 {
                    continue;
                }
                let left = there & !geo.meet(other, target);
                if left.count_ones() != 1 {
                    continue;
                }
                let cell = geo.cell_at(other, left.trailing_zeros() as usize);
                let (technique, rating) = if pointing {
                    (Technique::DirectPointing, 17)
                } else {
                    (Technique::DirectClaiming, 19)
                };
                let mut step = Step::new(technique, rating);
                // Sudoku Explainer's direct step places the single only: the eliminations that
                // lead to it are reasoning, not applied (a later step may need them again).
                let removed: Vec<Candidate> = geo
                    .cells_in(
                        target,
                        board.positions(target, value) & !geo.meet(target, source),
                    )
                    .map(|cell| Candidate { cell, value })
                    .collect();
                step.evidence = geo
                    .cells_in(source, positions)
                    .map(|cell| Candidate { cell, value })
                    .collect();
                step.placements.push(Candidate { cell, value });
                if ctx.explain {
                    let _ = write!(
                        step.text,
                        "In {}, {{{value}}} fits only where it meets {}, so {} loses it elsewhere.",
                        geo.unit_name(source),
                        geo.unit_name(target),
                        geo.unit_name(target),
                    );
                    write_eliminations(&mut step.text, board, &removed);
                    let _ = write!(
                        step.text,
                        " Then in {}, {{{value}}} fits only in {}.",
                        geo.unit_name(other),
                        geo.name(cell)
                    );
                }
                return Some(step);
            }
        }
    }
    None
}

/// The first pointing.
pub fn find_pointing(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    search(board, ctx, true)
}

/// The first claiming.
pub fn find_claiming(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    search(board, ctx, false)
}

fn search(board: &Board, ctx: &Context<'_>, pointing: bool) -> Option<Step> {
    let n = board.n();
    let geo = board.geo();
    // Pointing looks from each box (and a variant's extra houses) at the units crossing it;
    // claiming from each line at the boxes (and extra units).
    let (sources, extra) = if pointing {
        (2 * n..3 * n, geo.extra_houses())
    } else {
        (0..2 * n, 0..0)
    };
    for source in sources.chain(extra) {
        for value in values(board.all() & !board.placed(source)) {
            let positions = board.positions(source, value);
            if positions.count_ones() < 2 {
                continue;
            }
            let first = geo.cell_at(source, positions.trailing_zeros() as usize);
            // Every other unit through the first place; a line crossing a line holds one cell of
            // it, so from a line only the box and extra units can hold every place.
            for target in geo.all_units_of(first) {
                if target == source || positions & !meet(geo, source, target) != 0 {
                    continue;
                }
                let elsewhere = board.positions(target, value) & !meet(geo, target, source);
                if elsewhere == 0 {
                    continue;
                }
                let (technique, rating) = if pointing {
                    (Technique::Pointing, 26)
                } else {
                    (Technique::Claiming, 28)
                };
                let mut step = Step::new(technique, rating);
                step.eliminations = geo
                    .cells_in(target, elsewhere)
                    .map(|cell| Candidate { cell, value })
                    .collect();
                step.evidence = geo
                    .cells_in(source, positions)
                    .map(|cell| Candidate { cell, value })
                    .collect();
                if ctx.explain {
                    let _ = write!(
                        step.text,
                        "In {}, {{{value}}} fits only where it meets {}, so {} loses it elsewhere.",
                        geo.unit_name(source),
                        geo.unit_name(target),
                        geo.unit_name(target),
                    );
                    write_eliminations(&mut step.text, board, &step.eliminations);
                }
                return Some(step);
            }
        }
    }
    None
}

/// The slots of `a` whose cells lie in `b`: the layout's table between rows, columns and regions,
/// cell by cell where an extra unit is one of them.
#[inline]
fn meet(geo: &Geometry, a: usize, b: usize) -> Mask {
    let n = geo.n();
    if a < 3 * n && b < 3 * n {
        geo.meet(a, b)
    } else {
        meet_extra(geo, a, b)
    }
}

/// [`meet`] where an extra unit is one of them: apart, so that the table's case stays inline.
#[inline(never)]
fn meet_extra(geo: &Geometry, a: usize, b: usize) -> Mask {
    geo.cells_of(a)
        .enumerate()
        .filter(|&(_, c)| geo.holds(b, c))
        .fold(0, |mask, (slot, _)| mask | 1 << slot)
}
