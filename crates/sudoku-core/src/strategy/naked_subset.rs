//! Naked subsets: k cells of a unit whose candidates are k values in all hold those values, so the
//! rest of the unit loses them. Pairs 3.0, triples 3.6, quads 5.0.

use std::fmt::Write as _;

use super::{Context, Step, Technique, k_sets, write_cells, write_eliminations, write_values};
use crate::candidates::{Board, Candidate, Mask, values};

/// The first naked subset of `size` cells (2 to 4) that removes something.
pub fn find(board: &Board, ctx: &Context<'_>, size: usize) -> Option<Step> {
    let (technique, rating, name) = match size {
        2 => (Technique::NakedPair, 30, "pair"),
        3 => (Technique::NakedTriple, 36, "triple"),
        _ => (Technique::NakedQuad, 50, "quad"),
    };
    let geo = board.geo();
    let n = board.n();
    let mut items: Vec<(usize, Mask)> = Vec::with_capacity(n);
    // As Sudoku Explainer looks: boxes, columns, rows (then a variant's extra units), and only in a
    // house with at least twice the subset's size of blank cells (in a smaller one the rest is the
    // simpler hidden subset; a unit of fewer cells has no hidden subsets).
    for unit in (2 * n..3 * n)
        .chain(n..2 * n)
        .chain(0..n)
        .chain(3 * n..geo.units().end)
    {
        let blanks = board.blanks(unit);
        if blanks
            < if geo.is_house(unit) {
                2 * size
            } else {
                size + 1
            }
        {
            continue;
        }
        items.clear();
        items.extend(
            geo.cells_of(unit)
                .map(|c| (c, board.cands(c)))
                .filter(|&(_, m)| m.count_ones() >= 2 && m.count_ones() as usize <= size),
        );
        if items.len() < size {
            continue;
        }
        let step = k_sets(&items, size, &mut |cells, union| {
            let eliminations: Vec<Candidate> = geo
                .cells_of(unit)
                .filter(|c| !cells.contains(c))
                .flat_map(|cell| {
                    values(board.cands(cell) & union).map(move |value| Candidate { cell, value })
                })
                .collect();
            if eliminations.is_empty() {
                return None;
            }
            let mut step = Step::new(technique, rating);
            step.evidence = cells
                .iter()
                .flat_map(|&cell| {
                    values(board.cands(cell)).map(move |value| Candidate { cell, value })
                })
                .collect();
            step.eliminations = eliminations;
            if ctx.explain {
                let _ = write!(step.text, "In {}, the cells ", geo.unit_name(unit));
                write_cells(&mut step.text, board, cells.iter().copied());
                step.text.push_str(" hold only ");
                write_values(&mut step.text, values(union), ", ");
                let _ = write!(step.text, " between them (a naked {name}).");
                write_eliminations(&mut step.text, board, &step.eliminations);
            }
            Some(step)
        });
        if step.is_some() {
            return step;
        }
    }
    None
}
