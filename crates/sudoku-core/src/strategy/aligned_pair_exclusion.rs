//! Aligned pair exclusion (6.2), as Sudoku Explainer finds it: two cells, each with two or more
//! candidates, and two-valued cells that both of them see (at least two such). A pair of values
//! for the two cells is excluded when the cells see each other and the values are the same, or
//! when it would take both values of one of those two-valued cells. A value of either cell that
//! is in no pair left goes. The pairs of cells are taken in SE's order (by the second cell, then
//! the first, both in cell order); the first that removes something is the step.

use std::fmt::Write as _;

use super::{Context, Step, Technique, write_cells, write_eliminations};
use crate::candidates::{Board, Candidate, Mask, bit, values};

/// The rating, Sudoku Explainer's.
pub const RATING: u16 = 62;

/// Words in a set of cells: a 25x25 grid has 625.
const WORDS: usize = 10;

/// A set of cells, one bit each.
type Cells = [u64; WORDS];

/// A cell that may take part, with the two-valued cells it sees (that may exclude) and how many.
struct Base {
    cell: usize,
    /// How many candidates the cell has.
    width: u32,
    excluders: Cells,
    /// How many excluders.
    count: u32,
    /// The values the excluders hold between them.
    held: Mask,
}

/// The first aligned pair exclusion that removes something.
pub fn find(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    let n = board.n();
    let geo = board.geo();
    // Each cell's candidates counted once: 0, 1, 2 or more (3).
    let width: Vec<u32> = (0..n * n)
        .map(|c| board.cands(c).count_ones().min(3))
        .collect();
    let words = (n * n).div_ceil(64);
    // The cells that may take part, each with its two-valued peers (the cells that may exclude).
    let mut bases: Vec<Base> = Vec::new();
    for cell in (0..n * n).filter(|&c| width[c] >= 2) {
        let mut excluders: Cells = [0; WORDS];
        let mut single = false;
        let mut held = 0;
        for peer in geo.all_units_of(cell).flat_map(|unit| geo.cells_of(unit)) {
            match width[peer] {
                1 => single = true,
                2 if peer != cell => {
                    excluders[peer / 64] |= 1 << (peer % 64);
                    held |= board.cands(peer);
                }
                _ => {}
            }
        }
        let count = excluders[..words]
            .iter()
            .map(|w| w.count_ones())
            .sum::<u32>();
        if !single && count > 0 {
            bases.push(Base {
                cell,
                width: board.cands(cell).count_ones(),
                excluders,
                count,
                held,
            });
        }
    }
    let mut excluding: Vec<Mask> = Vec::new();
    for (j, second) in bases.iter().enumerate() {
        for first in &bases[..j] {
            let (a, b) = (first.cell, second.cell);
            let fewest = first.width.min(second.width);
            // A value of one cell goes only if each value of the other (but its own, where the
            // two see each other) makes a pair with it that one two-valued cell holds exactly:
            // with fewer such cells than that, nothing goes.
            let most = first.count.min(second.count);
            if most < 2 || most + 1 < fewest {
                continue;
            }
            // Nor unless, but for that value, the other cell's values are all the excluders'.
            let held = first.held & second.held;
            let outside = |cell: usize| {
                let m = board.cands(cell) & !held;
                m & m.wrapping_sub(1) != 0
            };
            if outside(a) && outside(b) {
                continue;
            }
            let common = |w: usize| first.excluders[w] & second.excluders[w];
            let shared: u32 = (0..words).map(|w| common(w).count_ones()).sum();
            // As many as the fewer values, less one where the cells see each other.
            if shared < 2 || shared + 1 < fewest || (shared < fewest && !geo.sees(a, b)) {
                continue;
            }
            excluding.clear();
            for w in 0..words {
                let mut common = common(w);
                while common != 0 {
                    excluding.push(board.cands(w * 64 + common.trailing_zeros() as usize));
                    common &= common - 1;
                }
            }
            let [kept_a, kept_b] = allowed(board, [a, b], &excluding);
            let eliminations: Vec<Candidate> = [(a, kept_a), (b, kept_b)]
                .into_iter()
                .flat_map(|(cell, kept)| {
                    values(board.cands(cell) & !kept).map(move |value| Candidate { cell, value })
                })
                .collect();
            if !eliminations.is_empty() {
                return Some(step(board, ctx, [a, b], eliminations));
            }
        }
    }
    None
}

/// The values of each of `cells` that some allowed pair of values gives it: not the same value
/// in two cells that see each other, and not both values of one of the `excluding` cells. A value
/// is in no allowed pair when each value of the other cell (but itself, where the cells see each
/// other) is its partner in an excluding cell.
fn allowed(board: &Board, cells: [usize; 2], excluding: &[Mask]) -> [Mask; 2] {
    let [a, b] = cells;
    let see = board.geo().sees(a, b);
    let mut partners = [0 as Mask; Mask::BITS as usize];
    for &pair in excluding {
        for v in values(pair) {
            partners[usize::from(v) - 1] |= pair & !bit(v);
        }
    }
    let kept = |from: usize, to: usize| {
        let others = board.cands(to);
        values(board.cands(from))
            .filter(|&v| {
                let needed = if see { others & !bit(v) } else { others };
                needed & !partners[usize::from(v) - 1] != 0
            })
            .fold(0, |kept, v| kept | bit(v))
    };
    [kept(a, b), kept(b, a)]
}

/// The step of the exclusion on `cells`.
fn step(board: &Board, ctx: &Context<'_>, cells: [usize; 2], eliminations: Vec<Candidate>) -> Step {
    aligned_step(
        board,
        ctx,
        (Technique::AlignedPairExclusion, RATING),
        &cells,
        eliminations,
        "every pair that repeats a value they both see or empties a two-valued cell seeing both is \
         excluded; what no pair left holds goes (aligned pair exclusion).",
    )
}

/// The step of an aligned exclusion on `cells`, rated `rating`: `why` says which choices of
/// their values were excluded and what goes.
pub(super) fn aligned_step(
    board: &Board,
    ctx: &Context<'_>,
    (technique, rating): (Technique, u16),
    cells: &[usize],
    eliminations: Vec<Candidate>,
    why: &str,
) -> Step {
    let mut step = Step::new(technique, rating);
    step.evidence = cells
        .iter()
        .flat_map(|&cell| values(board.cands(cell)).map(move |value| Candidate { cell, value }))
        .collect();
    step.eliminations = eliminations;
    if ctx.explain {
        step.text.push_str("Of the values the cells ");
        write_cells(&mut step.text, board, cells.iter().copied());
        let _ = write!(step.text, " could take together, {why}");
        write_eliminations(&mut step.text, board, &step.eliminations);
    }
    step
}

#[cfg(test)]
mod tests {
    use crate::grader::{self, Options};
    use crate::strategy::Technique;

    #[test]
    fn a_puzzle_sudoku_explainer_rates_by_an_aligned_pair_exclusion_is_rated_so() {
        // serate (SE 1.2.1's techniques): 6.2/1.2/1.2, hardest "Aligned Pair Exclusion".
        let (_, grade) = grader::grade_of(
            ".7.26......2....7635...8..11...328.4.8...96...........7.5....3............1.569..",
            &Options::default(),
        );
        assert_eq!(
            (grade.rating, grade.hardest),
            (62, Technique::AlignedPairExclusion)
        );
    }
}
