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

/// The largest side this handles: a grid of at most 128 cells.
const MAX_SIDE: usize = 11;

/// Puts into `sets` the smallest two-symbol unavoidable sets of the full grid `full` of `shape`, one
/// bit per cell (row-major), for every pair of symbols whose cells split into more than one; none
/// for a shape of more than 128 cells.
/// `box_of[index]` is the box of each cell.
pub(super) fn two_symbol_sets(shape: Shape, full: &[u8], box_of: &[usize], sets: &mut Vec<u128>) {
    sets.clear();
    let side = shape.side();
    if shape.cells() > 128 || full.len() != shape.cells() || box_of.len() != shape.cells() {
        return;
    }
    // col_of[s][r]: the column of symbol s (0-based) in row r; row_of[s][c]: its row in column c.
    const NONE: u8 = u8::MAX;
    let mut col_of = [[NONE; MAX_SIDE]; MAX_SIDE];
    let mut row_of = [[NONE; MAX_SIDE]; MAX_SIDE];
    for (index, &value) in full.iter().enumerate() {
        let (row, col) = (index / side, index % side);
        let Some(s) = usize::from(value).checked_sub(1).filter(|&s| s < side) else {
            return;
        };
        col_of[s][row] = col as u8;
        row_of[s][col] = row as u8;
    }
    if col_of[..side]
        .iter()
        .any(|cols| cols[..side].contains(&NONE))
    {
        return;
    }
    let mut parent = [0usize; MAX_SIDE];
    let mut row_a_in_box = [0usize; MAX_SIDE];
    let mut row_b_in_box = [0usize; MAX_SIDE];
    let find = |parent: &[usize; MAX_SIDE], mut i: usize| {
        while parent[i] != i {
            i = parent[i];
        }
        i
    };
    for a in 0..side {
        for b in a + 1..side {
            let (ca, cb, rb) = (&col_of[a], &col_of[b], &row_of[b]);
            // The cycles of `next`, numbered from 0.
            let mut cycle = [usize::MAX; MAX_SIDE];
            let mut cycles = 0;
            for start in 0..side {
                let mut row = start;
                while cycle[row] == usize::MAX {
                    cycle[row] = cycles;
                    row = usize::from(rb[usize::from(ca[row])]);
                }
                if cycle[start] == cycles {
                    cycles += 1;
                }
            }
            // Tie the cycles holding each box's `a` cell and `b` cell (union-find).
            for row in 0..side {
                row_a_in_box[box_of[row * side + usize::from(ca[row])]] = row;
                row_b_in_box[box_of[row * side + usize::from(cb[row])]] = row;
            }
            for (i, p) in parent.iter_mut().enumerate() {
                *p = i;
            }
            for bx in 0..side {
                let x = find(&parent, cycle[row_a_in_box[bx]]);
                let y = find(&parent, cycle[row_b_in_box[bx]]);
                parent[x.max(y)] = x.min(y);
            }
            // One set per group of tied cycles. A single group is every cell of the two symbols, a
            // set only a puzzle missing both symbols leaves empty (and a search then settles at
            // once): it is left out, as scanning it at every removal would cost more than it saves.
            let first = sets.len();
            let mut set_of_group = [usize::MAX; MAX_SIDE];
            for row in 0..side {
                let group = find(&parent, cycle[row]);
                let bits = 1u128 << (row * side + usize::from(ca[row]))
                    | 1u128 << (row * side + usize::from(cb[row]));
                if set_of_group[group] == usize::MAX {
                    set_of_group[group] = sets.len();
                    sets.push(0);
                }
                sets[set_of_group[group]] |= bits;
            }
            if sets.len() == first + 1 {
                sets.pop();
            }
        }
    }
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
        let box_of: Vec<usize> = (0..81).map(|i| shape.box_of(shape.cell(i))).collect();
        let mut sets = Vec::new();
        two_symbol_sets(shape, &full, &box_of, &mut sets);
        assert!(
            sets.iter().any(|set| set.count_ones() == 4),
            "this grid has rectangles"
        );
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
