//! Hidden subsets: k values whose places in a unit are the same k cells fill those cells, which lose
//! every other candidate. Pairs 3.4, triples 4.0, quads 5.4; the direct pair (2.0) and triple (2.5)
//! are those whose eliminations leave a hidden single of another value in the same unit: that step
//! places the single only (the eliminations are its reasoning, not applied, as Sudoku Explainer).
//!
//! As Sudoku Explainer looks: boxes, then columns, then rows; each value of the subset has at least
//! two places; a plain subset only in a unit with more than twice its size of blank cells (in a
//! smaller one the rest of the unit is the simpler naked subset), a direct one in a unit with more
//! blank cells than its size.

use std::fmt::Write as _;

use super::{Context, Step, Technique, k_sets, write_cells, write_eliminations, write_values};
use crate::candidates::{Board, Candidate, Mask, bit, values};

/// The first hidden subset of `size` values (2 to 4) that removes something; with `direct`, only one
/// that leaves a hidden single (pairs and triples).
pub fn find(board: &Board, ctx: &Context<'_>, size: usize, direct: bool) -> Option<Step> {
    let (technique, rating, name) = match (size, direct) {
        (2, true) => (Technique::DirectHiddenPair, 20, "pair"),
        (3, true) => (Technique::DirectHiddenTriple, 25, "triple"),
        (2, false) => (Technique::HiddenPair, 34, "pair"),
        (3, false) => (Technique::HiddenTriple, 40, "triple"),
        _ => (Technique::HiddenQuad, 54, "quad"),
    };
    let geo = board.geo();
    let n = board.n();
    let mut items: Vec<(usize, Mask)> = Vec::with_capacity(n);
    for unit in (2 * n..3 * n)
        .chain(n..2 * n)
        .chain(0..n)
        .chain(geo.extra_houses())
    {
        let blanks = board.blanks(unit);
        if blanks <= if direct { size } else { 2 * size } {
            continue;
        }
        items.clear();
        items.extend(
            values(board.all() & !board.placed(unit))
                .map(|v| (usize::from(v), board.positions(unit, v)))
                .filter(|&(_, m)| m.count_ones() >= 2 && m.count_ones() as usize <= size),
        );
        if items.len() < size {
            continue;
        }
        let step = k_sets(&items, size, &mut |vals, slots| {
            let kept: Mask = vals.iter().map(|&v| bit(v as u8)).fold(0, |a, b| a | b);
            let cells: Vec<usize> = geo.cells_in(unit, slots).collect();
            let eliminations: Vec<Candidate> = cells
                .iter()
                .flat_map(|&cell| {
                    values(board.cands(cell) & !kept).map(move |value| Candidate { cell, value })
                })
                .collect();
            if eliminations.is_empty() {
                return None;
            }
            let single = if direct {
                // The first other value left one place in this unit.
                let found = values(board.all() & !board.placed(unit) & !kept).find_map(|v| {
                    let there = board.positions(unit, v);
                    let left = there & !slots;
                    (there.count_ones() > 1 && left.count_ones() == 1)
                        .then(|| (unit, geo.cell_at(unit, left.trailing_zeros() as usize), v))
                });
                Some(found?)
            } else {
                None
            };
            let mut step = Step::new(technique, rating);
            step.evidence = cells
                .iter()
                .flat_map(|&cell| {
                    values(board.cands(cell) & kept).map(move |value| Candidate { cell, value })
                })
                .collect();
            if let Some((_, cell, value)) = single {
                // Sudoku Explainer's direct step places the single only: the eliminations that
                // lead to it are reasoning, not applied.
                step.placements.push(Candidate { cell, value });
            } else {
                step.eliminations = eliminations.clone();
            }
            if ctx.explain {
                let _ = write!(step.text, "In {}, ", geo.unit_name(unit));
                write_values(&mut step.text, values(kept), ", ");
                step.text.push_str(" fit only in ");
                write_cells(&mut step.text, board, cells.iter().copied());
                let _ = write!(
                    step.text,
                    " (a hidden {name}), so those cells hold nothing else."
                );
                write_eliminations(&mut step.text, board, &eliminations);
                if let Some((unit, cell, value)) = single {
                    let _ = write!(
                        step.text,
                        " Then in {}, {{{value}}} fits only in {}.",
                        geo.unit_name(unit),
                        geo.name(cell)
                    );
                }
            }
            Some(step)
        });
        if step.is_some() {
            return step;
        }
    }
    None
}
