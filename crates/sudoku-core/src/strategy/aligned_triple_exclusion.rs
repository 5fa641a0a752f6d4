//! Aligned triple exclusion (7.5), as Sudoku Explainer finds it: three cells, each with two or more
//! candidates, and cells of two or three candidates that all three of them see (at least two
//! such). A choice of values for the three cells is excluded when two cells that see each other
//! take the same value, or when it takes every value of one of those cells. A value of any of the
//! three that is in no choice left goes. SE tries it after the forcing X- and XY-chains and before
//! the Nishio chains. The cells are taken in SE's order: two of them as for the aligned pair
//! exclusion, then the third among the other cells that may take part and that one of the two
//! sees through a cell of two or three candidates; the first that removes something is the step.

use super::{Context, Step, Technique};
use crate::candidates::{Board, Candidate, Mask, bit, values};

/// The rating, Sudoku Explainer's.
pub const RATING: u16 = 75;

/// Words in a set of cells: a 25x25 grid has 625.
const WORDS: usize = 10;

/// A set of cells, one bit each.
type Cells = [u64; WORDS];

/// The cells of `set`, ascending.
fn members(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &word)| {
        std::iter::successors((word != 0).then_some(word), |&rest| {
            let rest = rest & (rest - 1);
            (rest != 0).then_some(rest)
        })
        .map(move |rest| w * 64 + rest.trailing_zeros() as usize)
    })
}

/// Whether `cell` is in `set`.
fn has(set: &[u64], cell: usize) -> bool {
    set[cell / 64] >> (cell % 64) & 1 == 1
}

/// The cells in both sets, and how many.
fn both(a: &[u64], b: &[u64]) -> (Cells, u32) {
    let mut set: Cells = [0; WORDS];
    let mut count = 0;
    for (w, (x, y)) in set.iter_mut().zip(a.iter().zip(b)) {
        *w = x & y;
        count += w.count_ones();
    }
    (set, count)
}

/// The first aligned triple exclusion that removes something.
pub fn find(board: &Board, ctx: &Context<'_>) -> Option<Step> {
    let n = board.n();
    let geo = board.geo();
    let words = (n * n).div_ceil(64);
    if words > WORDS {
        return None;
    }
    let width = |c: usize| board.cands(c).count_ones();
    // The cells that may take part, each with its peers of two or three candidates (the cells
    // that may exclude); none beside a peer with one candidate left.
    let mut bases: Vec<(usize, Cells)> = Vec::new();
    for cell in (0..n * n).filter(|&c| width(c) >= 2) {
        let mut excluders: Cells = [0; WORDS];
        let mut single = false;
        for peer in geo.all_units_of(cell).flat_map(|unit| geo.cells_of(unit)) {
            match width(peer) {
                1 => single = true,
                2 | 3 if peer != cell => excluders[peer / 64] |= 1 << (peer % 64),
                _ => {}
            }
        }
        if !single && excluders.iter().any(|&w| w != 0) {
            bases.push((cell, excluders));
        }
    }
    let mut at = vec![usize::MAX; n * n];
    for (i, (cell, _)) in bases.iter().enumerate() {
        at[*cell] = i;
    }
    let mut tails = Vec::new();
    let mut excluding: Vec<Mask> = Vec::new();
    for (j, (b, ex_b)) in bases.iter().enumerate() {
        for (i, (a, ex_a)) in bases[..j].iter().enumerate() {
            let (ex_a, ex_b) = (&ex_a[..words], &ex_b[..words]);
            let (pair, shared) = both(ex_a, ex_b);
            if shared < 2 {
                continue;
            }
            // The third cells: the cells that may take part among those that exclude for either
            // of the two, the first's before the second's.
            tails.clear();
            for c in members(ex_a).chain(members(ex_b).filter(|&c| !has(ex_a, c))) {
                if c != *a && c != *b && at[c] != usize::MAX {
                    tails.push(c);
                }
            }
            for &c in &tails {
                let (t, ex_c) = (at[c], &bases[at[c]].1[..words]);
                // A third cell met before: the three were tried at the pair of the first and the
                // third, or of the third and the second when the third comes first.
                if t < j
                    && (has(ex_a, *b)
                        || has(ex_c, *b)
                        || (t < i && (has(ex_c, *a) || has(ex_b, *a))))
                {
                    continue;
                }
                let (common, shared) = both(&pair[..words], ex_c);
                if shared < 2 {
                    continue;
                }
                excluding.clear();
                excluding.extend(members(&common[..words]).map(|e| board.cands(e)));
                let cells = [*a, *b, c];
                let kept = allowed(board, cells, &excluding);
                let eliminations: Vec<Candidate> = cells
                    .iter()
                    .zip(kept)
                    .flat_map(|(&cell, kept)| {
                        values(board.cands(cell) & !kept)
                            .map(move |value| Candidate { cell, value })
                    })
                    .collect();
                if !eliminations.is_empty() {
                    return Some(step(board, ctx, cells, eliminations));
                }
            }
        }
    }
    None
}

/// The values of each of `cells` that some allowed choice gives it: no value in two of the cells
/// that see each other, and not every value of one of the `excluding` cells.
fn allowed(board: &Board, cells: [usize; 3], excluding: &[Mask]) -> [Mask; 3] {
    let geo = board.geo();
    let [a, b, c] = cells;
    let (ab, ac, bc) = (geo.sees(a, b), geo.sees(a, c), geo.sees(b, c));
    let full = cells.map(|cell| board.cands(cell));
    let mut kept = [0 as Mask; 3];
    for x in values(board.cands(a)) {
        for y in values(board.cands(b)) {
            if ab && x == y {
                continue;
            }
            for z in values(board.cands(c)) {
                if (ac && x == z) || (bc && y == z) {
                    continue;
                }
                let taken = bit(x) | bit(y) | bit(z);
                if excluding.iter().all(|&e| e & !taken != 0) {
                    kept[0] |= bit(x);
                    kept[1] |= bit(y);
                    kept[2] |= bit(z);
                    if kept == full {
                        return kept;
                    }
                }
            }
        }
    }
    kept
}

/// The step of the exclusion on `cells`.
fn step(board: &Board, ctx: &Context<'_>, cells: [usize; 3], eliminations: Vec<Candidate>) -> Step {
    super::aligned_pair_exclusion::aligned_step(
        board,
        ctx,
        (Technique::AlignedTripleExclusion, RATING),
        &cells,
        eliminations,
        "every choice that repeats a value between cells that see each other or takes every value \
         of a cell of two or three candidates seeing all three is excluded; what no choice left \
         holds goes (aligned triple exclusion).",
    )
}

#[cfg(test)]
mod tests {
    use crate::candidates::Candidate;
    use crate::grader::{self, Options};
    use crate::strategy::Technique;

    #[test]
    fn a_puzzle_sudoku_explainer_rates_by_an_aligned_triplet_exclusion_is_rated_so() {
        // serate (SE 1.2.1's techniques): 7.5/1.2/1.2, hardest "Aligned Triplet Exclusion", its
        // step "Aligned Triplet Exclusion: r7c7,r9c7,r8c7".
        let (_, grade) = grader::grade_of(
            ".4..23.7...65.....13...9.4.............41..63.....298....2...3.3.8.6...5....5...4",
            &Options::default(),
        );
        assert_eq!(
            (grade.rating, grade.hardest),
            (75, Technique::AlignedTripleExclusion)
        );
        let steps: Vec<_> = grade
            .steps
            .iter()
            .filter(|s| s.technique == Technique::AlignedTripleExclusion)
            .collect();
        let [step] = steps[..] else {
            panic!("one exclusion expected, found {}", steps.len());
        };
        let at = |r: usize, c: usize| (r - 1) * 9 + c - 1;
        let mut cells: Vec<usize> = step.evidence.iter().map(|c| c.cell).collect();
        cells.dedup();
        assert_eq!(cells, vec![at(7, 7), at(9, 7), at(8, 7)]);
        assert_eq!(
            step.eliminations,
            vec![Candidate {
                cell: at(8, 7),
                value: 7
            }]
        );
    }
}
