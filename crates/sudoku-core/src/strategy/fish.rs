//! Basic fish: when a value's places in k rows all lie in the same k columns, each of those columns
//! has its value in one of the rows, so the columns lose it elsewhere (and the same with rows and
//! columns swapped). X-Wing (k = 2) 3.2, Swordfish (3) 3.8, Jellyfish (4) 5.2.

use std::fmt::Write as _;

use super::{Context, Step, Technique, k_sets, write_eliminations};
use crate::candidates::{Board, Candidate, Mask, bit, bits, values};

/// The first fish of `size` lines (2 to 4) that removes something.
pub fn find(board: &Board, ctx: &Context<'_>, size: usize) -> Option<Step> {
    let (technique, rating) = match size {
        2 => (Technique::XWing, 32),
        3 => (Technique::Swordfish, 38),
        _ => (Technique::Jellyfish, 52),
    };
    let n = board.n();
    let geo = board.geo();
    let mut items: Vec<(usize, Mask)> = Vec::with_capacity(n);
    for value in values(board.all()) {
        // As Sudoku Explainer: a fish needs at least twice its size of the value still to place.
        let placed = (0..n)
            .filter(|&row| board.placed(row) & bit(value) != 0)
            .count();
        if n - placed < 2 * size {
            continue;
        }
        // Base rows and cover columns, then base columns and cover rows.
        for (base, cover) in [(0, n), (n, 0)] {
            items.clear();
            items.extend((base..base + n).filter_map(|line| {
                let p = board.positions(line, value);
                (p.count_ones() >= 2 && p.count_ones() as usize <= size).then_some((line, p))
            }));
            if items.len() < size {
                continue;
            }
            let step = k_sets(&items, size, &mut |lines, slots| {
                let covers: Vec<usize> = bits(slots).map(|s| cover + s).collect();
                let eliminations: Vec<Candidate> = covers
                    .iter()
                    .flat_map(|&c| geo.cells_in(c, board.positions(c, value)))
                    .filter(|&cell| !lines.iter().any(|&l| geo.units_of(cell).contains(&l)))
                    .map(|cell| Candidate { cell, value })
                    .collect();
                if eliminations.is_empty() {
                    return None;
                }
                let mut step = Step::new(technique, rating);
                step.evidence = lines
                    .iter()
                    .flat_map(|&l| geo.cells_in(l, board.positions(l, value)))
                    .map(|cell| Candidate { cell, value })
                    .collect();
                step.eliminations = eliminations;
                if ctx.explain {
                    let names = |units: &[usize]| {
                        units
                            .iter()
                            .map(|&u| geo.unit_name(u))
                            .collect::<Vec<_>>()
                            .join(", ")
                    };
                    let _ = write!(
                        step.text,
                        "In {}, {{{value}}} fits only within {}: those lines take it there.",
                        names(lines),
                        names(&covers)
                    );
                    write_eliminations(&mut step.text, board, &step.eliminations);
                }
                Some(step)
            });
            if step.is_some() {
                return step;
            }
        }
    }
    None
}
