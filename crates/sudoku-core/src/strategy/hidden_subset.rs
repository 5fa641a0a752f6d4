//! Hidden subsets: k values whose places in a unit are the same k cells fill those cells, which lose
//! every other candidate. Pairs 3.4, triples 4.0, quads 5.4; the direct pair (2.0) and triple (2.5)
//! are those whose eliminations leave a hidden single in the unit, placed in the same step.

use std::fmt::Write as _;

use super::{
    Context, Step, Technique, hidden_single, k_sets, write_cells, write_eliminations, write_values,
};
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
    let mut items: Vec<(usize, Mask)> = Vec::with_capacity(board.n());
    for unit in 0..3 * board.n() {
        items.clear();
        items.extend(
            values(board.all() & !board.placed(unit))
                .map(|v| (usize::from(v), board.positions(unit, v)))
                .filter(|&(_, m)| m.count_ones() as usize <= size),
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
                Some(hidden_single::created_by(board, &eliminations, None)?)
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
            step.eliminations = eliminations;
            if let Some((_, cell, value)) = single {
                step.placements.push(Candidate { cell, value });
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
            Some(step)
        });
        if step.is_some() {
            return step;
        }
    }
    None
}
