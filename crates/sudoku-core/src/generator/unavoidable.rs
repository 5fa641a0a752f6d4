//! Two-symbol unavoidable sets of a full grid: sets of cells whose two symbols can be swapped to give
//! another valid grid. A puzzle without a clue in one of them has that other grid as a second
//! solution, so the digger knows at once, without a search, that a removal emptying one breaks
//! uniqueness; the swapped grid is the proof.
//!
//! For two symbols `a` and `b`, each row holds one cell of each. Let `next(r)` be the row where `b`
//! sits in the column of `r`'s `a`. Swapping `a` and `b` in a set of rows keeps every row and column
//! valid exactly when the set is closed under `next`, a union of its cycles. It keeps every box valid
//! when each box's `a` cell and `b` cell are swapped together, which ties some cycles to others. The
//! groups of tied cycles are the smallest such sets; every valid swap of the two symbols is a union
//! of them, so a puzzle leaves some two-symbol swap open exactly when it leaves one group empty.
//!
//! Line-pair sets: two rows of one band hold, in each column, two cells of one box. Swapping the two
//! rows' symbols in a set of columns keeps every column and box valid, and both rows valid when the
//! two rows hold the same symbols in those columns: a cycle of the map taking a column to the column
//! where the second row holds the first row's symbol. The same holds for two columns of one stack.

use crate::grid::Shape;

/// The largest side this handles: a grid of at most 128 cells.
const MAX_SIDE: usize = 11;

/// Puts into `sets` the line-pair sets and the two-symbol sets of the full grid `full` of `shape`
/// (see the module's documentation), one bit per cell (row-major); none for a shape of more than 128
/// cells. `box_of[index]` is the box of each cell.
pub(super) fn unavoidable_sets(shape: Shape, full: &[u8], box_of: &[usize], sets: &mut Vec<u128>) {
    sets.clear();
    if shape.cells() > 128 || full.len() != shape.cells() || box_of.len() != shape.cells() {
        return;
    }
    line_pair_sets(shape, full, sets);
    two_symbol_sets(shape, full, box_of, sets);
}

/// Adds to `sets` the cycles of every pair of rows in one band and every pair of columns in one
/// stack, but those covering both whole lines (rarely useful, and scanned at every removal).
fn line_pair_sets(shape: Shape, full: &[u8], sets: &mut Vec<u128>) {
    let side = shape.side();
    // Rows: lines of cells `row * side + k`; columns: `k * side + col`. A band is box_rows rows, a
    // stack box_cols columns.
    let row_cell = |line: usize, k: usize| line * side + k;
    let col_cell = |line: usize, k: usize| k * side + line;
    for (group, cell) in [
        (
            shape.box_rows(),
            &row_cell as &dyn Fn(usize, usize) -> usize,
        ),
        (shape.box_cols(), &col_cell),
    ] {
        for first in 0..side {
            for second in first + 1..(first / group + 1) * group {
                // where_second[s]: the position of symbol s in the second line.
                let mut where_second = [usize::MAX; MAX_SIDE + 1];
                for k in 0..side {
                    where_second[usize::from(full[cell(second, k)]) % (MAX_SIDE + 1)] = k;
                }
                let mut seen = 0u32;
                for start in 0..side {
                    if seen >> start & 1 == 1 {
                        continue;
                    }
                    let (mut set, mut k, mut length) = (0u128, start, 0);
                    while seen >> k & 1 == 0 {
                        seen |= 1 << k;
                        set |= 1u128 << cell(first, k) | 1u128 << cell(second, k);
                        length += 1;
                        k = where_second[usize::from(full[cell(first, k)]) % (MAX_SIDE + 1)];
                        if k >= side {
                            return;
                        }
                    }
                    if length < side {
                        sets.push(set);
                    }
                }
            }
        }
    }
}

/// Adds to `sets` the smallest two-symbol unavoidable sets of the full grid `full` of `shape`, one
/// bit per cell (row-major), for every pair of symbols whose cells split into more than one; none
/// for a shape of more than 128 cells.
/// `box_of[index]` is the box of each cell.
fn two_symbol_sets(shape: Shape, full: &[u8], box_of: &[usize], sets: &mut Vec<u128>) {
    let side = shape.side();
    if shape.cells() > 128 || full.len() != shape.cells() || box_of.len() != shape.cells() {
        return;
    }
    // col_of[s][r]: the column of symbol s (0-based) in row r; row_of[s][c]: its row in column c;
    // row_in_box[s][b]: its row in box b; cells_of[s]: its cells.
    const NONE: u8 = u8::MAX;
    let mut col_of = [[NONE; MAX_SIDE]; MAX_SIDE];
    let mut row_of = [[NONE; MAX_SIDE]; MAX_SIDE];
    let mut row_in_box = [[NONE; MAX_SIDE]; MAX_SIDE];
    let mut cells_of = [0u128; MAX_SIDE];
    for (index, &value) in full.iter().enumerate() {
        let (row, col) = (index / side, index % side);
        let Some(s) = usize::from(value).checked_sub(1).filter(|&s| s < side) else {
            return;
        };
        col_of[s][row] = col as u8;
        row_of[s][col] = row as u8;
        row_in_box[s][box_of[index] % MAX_SIDE] = row as u8;
        cells_of[s] |= 1 << index;
    }
    let complete = |table: &[[u8; MAX_SIDE]; MAX_SIDE]| {
        table[..side]
            .iter()
            .all(|line| !line[..side].contains(&NONE))
    };
    if !(complete(&col_of) && complete(&row_of) && complete(&row_in_box)) {
        return;
    }
    // The cells of each row.
    let row_bits = |row: usize| ((1u128 << side) - 1) << (row * side);
    let all_rows = (1u16 << side) - 1;
    for a in 0..side {
        for b in a + 1..side {
            let (ca, rb) = (&col_of[a], &row_of[b]);
            // group[r]: the rows of r's group, as a mask. First the cycles of `next`...
            let mut group = [0u16; MAX_SIDE];
            let mut left = all_rows;
            while left != 0 {
                let start = left.trailing_zeros() as usize;
                let (mut cycle, mut row) = (0u16, start);
                while cycle >> row & 1 == 0 {
                    cycle |= 1 << row;
                    row = usize::from(rb[usize::from(ca[row])]);
                }
                left &= !cycle;
                let mut rows = cycle;
                while rows != 0 {
                    group[rows.trailing_zeros() as usize] = cycle;
                    rows &= rows - 1;
                }
            }
            // ... then tied through each box's `a` and `b` cells.
            for (&ra, &rb) in row_in_box[a][..side].iter().zip(&row_in_box[b][..side]) {
                let (ra, rb) = (usize::from(ra), usize::from(rb));
                if group[ra] != group[rb] {
                    let merged = group[ra] | group[rb];
                    let mut rows = merged;
                    while rows != 0 {
                        group[rows.trailing_zeros() as usize] = merged;
                        rows &= rows - 1;
                    }
                }
            }
            // One set per group, but a single group (every cell of both symbols: a set only a
            // puzzle missing both leaves empty, and a search then settles at once), left out as
            // scanning it would cost more than it saves.
            if group[0] == all_rows {
                continue;
            }
            let pair_cells = cells_of[a] | cells_of[b];
            for (row, &rows) in group[..side].iter().enumerate() {
                if rows.trailing_zeros() as usize != row {
                    continue;
                }
                let (mut mask, mut bits) = (0u128, rows);
                while bits != 0 {
                    mask |= row_bits(bits.trailing_zeros() as usize);
                    bits &= bits - 1;
                }
                sets.push(pair_cells & mask);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::solver::{self, Options, Verdict};
    use rand_xoshiro::Xoshiro256PlusPlus;
    use rand_xoshiro::rand_core::SeedableRng;

    /// Checks that blanking each set in `full` leaves a puzzle with more than one solution (the
    /// solver's verdict, not this module's reasoning), and returns the sets.
    fn check_sets(shape: Shape, full: &[u8]) -> Vec<u128> {
        let box_of: Vec<usize> = (0..shape.cells())
            .map(|i| shape.box_of(shape.cell(i)))
            .collect();
        let mut sets = Vec::new();
        unavoidable_sets(shape, full, &box_of, &mut sets);
        for &set in &sets {
            assert!(
                set != 0 && set >> shape.cells() == 0,
                "{shape}: set {set:#x}"
            );
            let cells = (0..shape.cells())
                .map(|i| if set >> i & 1 == 1 { 0 } else { full[i] })
                .collect();
            let puzzle = Grid::from_cells(shape, cells).expect("the shape's cells");
            let verdict = solver::solve(&puzzle, &Options::default()).verdict;
            assert_eq!(
                verdict,
                Verdict::Multiple,
                "{shape}: set {set:#x} of {full:?}"
            );
        }
        sets
    }

    /// On a known grid: rectangles (two symbols), a three-symbol row-pair cycle, and every set a
    /// true unavoidable set.
    #[test]
    fn sets_of_a_known_grid_are_unavoidable() {
        let full: Vec<u8> =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
                .bytes()
                .map(|b| b - b'0')
                .collect();
        let sets = check_sets(Shape::NINE, &full);
        assert!(sets.iter().any(|set| set.count_ones() == 4));
        // Six cells: a three-symbol cycle of a row or column pair, or two symbols over three rows.
        assert!(sets.iter().any(|set| set.count_ones() == 6));
    }

    /// Random full grids of every shape up to 128 cells: every set is unavoidable; above 128
    /// cells there are none.
    #[test]
    fn sets_of_random_grids_are_unavoidable() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
        for (box_rows, box_cols) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (2, 5)] {
            let shape = Shape::new(box_rows, box_cols).expect("a shape");
            for _ in 0..5 {
                let full = super::super::full_grid(shape, &mut rng, None).expect("a grid");
                let sets = check_sets(shape, full.cells());
                assert!(!sets.is_empty(), "{shape}");
            }
        }
        let shape = Shape::new(4, 4).expect("16x16");
        let full = super::super::full_grid(shape, &mut rng, None).expect("a grid");
        let box_of = vec![0; shape.cells()];
        let mut sets = vec![1];
        unavoidable_sets(shape, full.cells(), &box_of, &mut sets);
        assert!(sets.is_empty());
    }
}
