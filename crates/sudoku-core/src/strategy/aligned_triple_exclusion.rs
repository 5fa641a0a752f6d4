//! Aligned triple exclusion (7.5), as Sudoku Explainer finds it: three cells, each with two or more
//! candidates, and cells of two or three candidates that all three of them see (at least two
//! such). A choice of values for the three cells is excluded when two cells that see each other
//! take the same value, or when it takes every value of one of those cells. A value of any of the
//! three that is in no choice left goes. SE tries it after the forcing X- and XY-chains and before
//! the Nishio chains. The cells are taken in SE's order: two of them as for the aligned pair
//! exclusion, then the third among the other cells that may take part and that one of the two
//! sees through a cell of two or three candidates; the first that removes something is the step.
//!
//! What a choice excludes depends only on the three cells and the excluding cells that see all
//! three, and a grading only ever takes candidates away, so an excluding cell that is as it was,
//! or that has gone, excludes nothing it did not before. So once the search has found nothing, a
//! [`Memo`] of the candidates lets the next search on the same walk pass over every triple whose
//! cells are as they were and whose excluding cells all are: it would find nothing there again.

use super::{Context, Step, Technique};
use crate::candidates::{Board, Candidate, Mask, bit, values};

/// The rating, Sudoku Explainer's.
pub const RATING: u16 = 75;

/// Words in a set of cells: a 25x25 grid has 625.
const WORDS: usize = 10;

/// A set of cells, one bit each, in `W` words: two for a 9x9 grid, whose sets are then copied and
/// cleared as two registers, [`WORDS`] for any grid.
type Cells<const W: usize> = [u64; W];

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
fn both<const W: usize>(a: &Cells<W>, b: &Cells<W>) -> (Cells<W>, u32) {
    let set: Cells<W> = std::array::from_fn(|w| a[w] & b[w]);
    (set, set.iter().map(|w| w.count_ones()).sum())
}

/// The candidates of every cell when the exclusion last found nothing on a grading's walk, empty
/// before that: the triples whose cells and shared excluding cells still have them need no second
/// look.
#[derive(Clone, Debug, Default)]
pub struct Memo {
    cands: Vec<Mask>,
}

impl Memo {
    /// The cells whose candidates are not what they were when the search last found nothing:
    /// every cell when there is nothing to go by, or when a cell has gained a candidate since
    /// (a board that is not the same walk's).
    fn changed<const W: usize>(&self, board: &Board) -> Cells<W> {
        let every = [u64::MAX; W];
        if self.cands.len() != board.n() * board.n() {
            return every;
        }
        let mut changed: Cells<W> = [0; W];
        for (cell, &then) in self.cands.iter().enumerate() {
            let now = board.cands(cell);
            if now & !then != 0 {
                return every;
            }
            if now != then {
                changed[cell / 64] |= 1 << (cell % 64);
            }
        }
        changed
    }

    /// Keeps `board`'s candidates as those of a search that found nothing.
    fn remember(&mut self, board: &Board) {
        self.cands.clear();
        self.cands
            .extend((0..board.n() * board.n()).map(|cell| board.cands(cell)));
    }
}

/// A cell that may take part: its peers of two or three candidates (the cells that may exclude),
/// and which of them, and whether itself, changed since the search last found nothing.
struct Base<const W: usize> {
    cell: usize,
    excluders: Cells<W>,
    changed_excluders: Cells<W>,
    changed: bool,
}

/// The first aligned triple exclusion that removes something.
pub fn find(board: &Board, ctx: &mut Context<'_>) -> Option<Step> {
    match (board.n() * board.n()).div_ceil(64) {
        0..=2 => search::<2>(board, ctx),
        3..=WORDS => search::<WORDS>(board, ctx),
        _ => None,
    }
}

/// [`find`] with sets of cells in `W` words.
fn search<const W: usize>(board: &Board, ctx: &mut Context<'_>) -> Option<Step> {
    let n = board.n();
    let geo = board.geo();
    let changed: Cells<W> = ctx.triples.changed(board);
    let width = |c: usize| board.cands(c).count_ones();
    // The cells that may take part; none beside a peer with one candidate left.
    let mut bases: Vec<Base<W>> = Vec::new();
    for cell in (0..n * n).filter(|&c| width(c) >= 2) {
        let mut excluders: Cells<W> = [0; W];
        let mut single = false;
        for peer in geo.all_units_of(cell).flat_map(|unit| geo.cells_of(unit)) {
            if peer == cell {
                continue;
            }
            match width(peer) {
                1 => single = true,
                2 | 3 => excluders[peer / 64] |= 1 << (peer % 64),
                _ => {}
            }
        }
        if !single && excluders.iter().any(|&w| w != 0) {
            bases.push(Base {
                cell,
                excluders,
                changed_excluders: both(&excluders, &changed).0,
                changed: has(&changed, cell),
            });
        }
    }
    let mut at = vec![usize::MAX; n * n];
    for (i, base) in bases.iter().enumerate() {
        at[base.cell] = i;
    }
    let mut tails = Vec::new();
    let mut excluding: Vec<Mask> = Vec::new();
    for (j, second) in bases.iter().enumerate() {
        let (b, ex_b) = (second.cell, &second.excluders);
        for (i, first) in bases[..j].iter().enumerate() {
            let (a, ex_a) = (first.cell, &first.excluders);
            let (pair, shared) = both(ex_a, ex_b);
            if shared < 2 {
                continue;
            }
            // Unless one of the two or an excluding cell they share changed, only a changed third
            // cell can make a triple that was not looked at before.
            let (changed_shared, shared_changes) =
                both(&first.changed_excluders, &second.changed_excluders);
            let pair_changed = first.changed || second.changed || shared_changes > 0;
            let thirds: Cells<W> = std::array::from_fn(|w| {
                (ex_a[w] | ex_b[w]) & if pair_changed { u64::MAX } else { changed[w] }
            });
            // The third cells: the cells that may take part among those that exclude for either
            // of the two, the first's before the second's.
            tails.clear();
            let (of_a, _) = both(ex_a, &thirds);
            for c in members(&of_a).chain(members(&thirds).filter(|&c| !has(ex_a, c))) {
                if c != a && c != b && at[c] != usize::MAX {
                    tails.push(c);
                }
            }
            for &c in &tails {
                let (t, third) = (at[c], &bases[at[c]]);
                let ex_c = &third.excluders;
                // A third cell met before: the three were tried at the pair of the first and the
                // third, or of the third and the second when the third comes first.
                if t < j
                    && (has(ex_a, b) || has(ex_c, b) || (t < i && (has(ex_c, a) || has(ex_b, a))))
                {
                    continue;
                }
                // Nor, when only excluding cells the two share changed, with a third that sees
                // none of them.
                if !(first.changed || second.changed || third.changed)
                    && both(&changed_shared, &third.changed_excluders).1 == 0
                {
                    continue;
                }
                let (common, shared) = both(&pair, ex_c);
                if shared < 2 {
                    continue;
                }
                excluding.clear();
                excluding.extend(members(&common).map(|e| board.cands(e)));
                let cells = [a, b, c];
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
    ctx.triples.remember(board);
    None
}

/// The values of each of `cells` that some allowed choice gives it: no value in two of the cells
/// that see each other, and not every value of one of the `excluding` cells. The choices are
/// walked a pair of values for the first two cells at a time: an excluding cell that the pair
/// leaves one value of bars the third cell from that value.
fn allowed(board: &Board, cells: [usize; 3], excluding: &[Mask]) -> [Mask; 3] {
    let geo = board.geo();
    let [a, b, c] = cells;
    let (ab, ac, bc) = (geo.sees(a, b), geo.sees(a, c), geo.sees(b, c));
    let full = cells.map(|cell| board.cands(cell));
    let mut kept = [0 as Mask; 3];
    for x in values(full[0]) {
        for y in values(full[1]) {
            if ab && x == y {
                continue;
            }
            let pair = bit(x) | bit(y);
            let mut barred = if ac { bit(x) } else { 0 } | if bc { bit(y) } else { 0 };
            let mut excluded = false;
            for &e in excluding {
                let rest = e & !pair;
                excluded |= rest == 0;
                if rest & rest.wrapping_sub(1) == 0 {
                    barred |= rest;
                }
            }
            let third = full[2] & !barred;
            if !excluded && third != 0 {
                kept[0] |= bit(x);
                kept[1] |= bit(y);
                kept[2] |= third;
                if kept == full {
                    return kept;
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
    use crate::candidates::{Board, Candidate, Geometry};
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

    #[test]
    fn the_memo_of_a_walk_passes_over_no_triple_that_removes_something() {
        // Along each walk (one context, so one memo), the search from nothing finds no exclusion
        // wherever the walk took a harder technique, and the walk's own where it took one. The
        // second puzzle's walk takes two exclusions after three forcing chains.
        for puzzle in [
            ".4..23.7...65.....13...9.4.............41..63.....298....2...3.3.8.6...5....5...4",
            ".7...63......42.....8....46..2.....3.4.58.1.21......5...617.9.4...3.58..8........",
        ] {
            let (grid, grade) = grader::grade_of(puzzle, &Options::default());
            let solution = grader::unique_solution(&grid, u64::MAX, None)
                .expect("not cancelled")
                .expect("a unique puzzle");
            let mut board = Board::on(Geometry::of(grid.shape()), &grid).expect("no clash");
            let mut looked = 0;
            for step in &grade.steps {
                if step.technique >= Technique::AlignedTripleExclusion {
                    looked += 1;
                    let mut fresh = Options::default().context(board.n(), solution.cells());
                    let found = super::find(&board, &mut fresh);
                    if step.technique == Technique::AlignedTripleExclusion {
                        assert_eq!(
                            found.map(|s| s.eliminations),
                            Some(step.eliminations.clone())
                        );
                    } else {
                        assert!(
                            found.is_none(),
                            "{puzzle}: an exclusion the walk passed over"
                        );
                    }
                }
                assert!(board.apply(&step.placements, &step.eliminations));
            }
            assert!(looked > 0, "{puzzle}: the walk never got to the exclusion");
        }
    }
}
