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

use crate::grid::Shape;

/// The smallest two-symbol unavoidable sets of the full grid `full` of `shape`, one bit per cell
/// (row-major), for every pair of symbols; empty for a shape of more than 128 cells.
pub(super) fn two_symbol_sets(shape: Shape, full: &[u8]) -> Vec<u128> {
    let side = shape.side();
    if shape.cells() > 128 || full.len() != shape.cells() {
        return Vec::new();
    }
    // col_of[s][r]: the column of symbol s (0-based) in row r; row_of[s][c]: its row in column c.
    let mut col_of = vec![vec![usize::MAX; side]; side];
    let mut row_of = vec![vec![usize::MAX; side]; side];
    for (index, &value) in full.iter().enumerate() {
        let (row, col) = (index / side, index % side);
        let Some(s) = usize::from(value).checked_sub(1).filter(|&s| s < side) else {
            return Vec::new();
        };
        col_of[s][row] = col;
        row_of[s][col] = row;
    }
    if col_of.iter().flatten().any(|&c| c == usize::MAX) {
        return Vec::new();
    }
    let box_of = |row: usize, col: usize| shape.box_of(shape.cell(row * side + col));
    let mut sets = Vec::new();
    let mut cycle = vec![0usize; side];
    let mut parent = vec![0usize; side];
    let mut row_a_in_box = vec![0usize; side];
    let mut row_b_in_box = vec![0usize; side];
    for a in 0..side {
        for b in a + 1..side {
            let (ca, cb, rb) = (&col_of[a], &col_of[b], &row_of[b]);
            // The cycles of `next`, numbered from 0.
            cycle.fill(usize::MAX);
            let mut cycles = 0;
            for start in 0..side {
                let mut row = start;
                while cycle[row] == usize::MAX {
                    cycle[row] = cycles;
                    row = rb[ca[row]];
                }
                if cycle[start] == cycles {
                    cycles += 1;
                }
            }
            // Tie the cycles holding each box's `a` cell and `b` cell (union-find).
            for row in 0..side {
                row_a_in_box[box_of(row, ca[row])] = row;
                row_b_in_box[box_of(row, cb[row])] = row;
            }
            for (i, p) in parent.iter_mut().enumerate().take(cycles) {
                *p = i;
            }
            let find = |parent: &[usize], mut i: usize| {
                while parent[i] != i {
                    i = parent[i];
                }
                i
            };
            for bx in 0..side {
                let x = find(&parent, cycle[row_a_in_box[bx]]);
                let y = find(&parent, cycle[row_b_in_box[bx]]);
                parent[x.max(y)] = x.min(y);
            }
            let first = sets.len();
            let mut group_set = [usize::MAX; 128];
            for row in 0..side {
                let group = find(&parent, cycle[row]);
                let bits = 1u128 << (row * side + ca[row]) | 1u128 << (row * side + cb[row]);
                if group_set[group] == usize::MAX {
                    group_set[group] = sets.len();
                    sets.push(0);
                }
                sets[group_set[group]] |= bits;
            }
            debug_assert!(sets.len() > first);
        }
    }
    sets
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every set, swapped, gives another valid grid; and on a grid with a known rectangle, the
    /// rectangle is among the sets.
    #[test]
    fn every_set_swaps_to_another_valid_grid() {
        let full: Vec<u8> =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
                .bytes()
                .map(|b| b - b'0')
                .collect();
        let shape = Shape::NINE;
        let sets = two_symbol_sets(shape, &full);
        assert!(sets.len() >= 36, "at least one set per pair of digits");
        let valid = |cells: &[u8]| {
            (0..9).all(|i| {
                let row: u16 = (0..9).map(|j| 1 << cells[i * 9 + j]).sum();
                let col: u16 = (0..9).map(|j| 1 << cells[j * 9 + i]).sum();
                let bx: u16 = (0..9)
                    .map(|j| 1 << cells[(i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3])
                    .sum();
                row == 0x3FE && col == 0x3FE && bx == 0x3FE
            })
        };
        assert!(valid(&full));
        for set in sets {
            let digits: Vec<u8> = (0..81)
                .filter(|&i| set >> i & 1 == 1)
                .map(|i| full[i])
                .collect();
            let (a, b) = (
                digits[0],
                *digits.iter().find(|&&d| d != digits[0]).unwrap(),
            );
            let mut swapped = full.clone();
            for i in (0..81).filter(|&i| set >> i & 1 == 1) {
                swapped[i] = if full[i] == a { b } else { a };
            }
            assert!(
                valid(&swapped),
                "set {set:#x} does not swap to a valid grid"
            );
            assert!(digits.iter().all(|&d| d == a || d == b));
        }
    }
}
