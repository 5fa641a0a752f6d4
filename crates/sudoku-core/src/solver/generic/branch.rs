//! Where the search may branch: every two-way choice (for probing) and the choice with the fewest
//! alternatives (for guessing), read off a board's candidates and places.

use super::board::Board;
use super::tables::Tables;
use super::{Mask, PLACED};

/// A choice the search can branch on, one alternative at a time.
#[derive(Clone, Copy, Debug)]
pub(super) enum Branch {
    /// Try each candidate of the cell (bit `v - 1` of the alternatives for value `v`).
    Cell(usize),
    /// Try each place of the value `bit` in the unit (bit `i` of the alternatives for its `i`-th
    /// cell).
    Value {
        /// The unit.
        unit: usize,
        /// The value, as its candidate bit.
        bit: Mask,
    },
}

impl Branch {
    /// The `(cell, bit)` placement of the alternative `next` (one bit of the alternatives).
    pub(super) fn placement(self, next: Mask, tables: &Tables) -> (usize, Mask) {
        match self {
            Branch::Cell(cell) => (cell, next),
            Branch::Value { unit, bit } => {
                let at = next.trailing_zeros() as usize;
                (usize::from(tables.unit(unit)[at]), bit)
            }
        }
    }
}

/// A two-way choice: one of its two placements must hold, and how to branch on it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Choice {
    /// The two `(cell, bit)` placements.
    pub(super) sides: [(u16, Mask); 2],
    /// The same choice as a branch of the search, with its alternatives.
    pub(super) branch: Branch,
    pub(super) untried: Mask,
}

impl Choice {
    /// Whether both sides are still open on `board`: each an undecided cell's candidate. A choice
    /// found open stays a two-way choice, as candidates only ever go.
    pub(super) fn is_open(&self, board: &Board) -> bool {
        self.sides
            .iter()
            .all(|&(cell, bit)| board.cand[usize::from(cell)] & (bit | PLACED) == bit)
    }
}

/// The branch with the fewest alternatives, and those; `None` when every cell is decided.
///
/// Cells and values count alike: a cell with `k` candidates and a value with `k` places left in a
/// unit are both `k`-way choices (the choice an exact-cover search makes, which on large sparse grids
/// cuts the search by orders of magnitude); a cell wins a tie, as it is the cheaper to set up.
///
/// With `weights` (the propagator's failure counts per constraint), the smallest ratio of
/// alternatives to weight wins instead (dom/wdeg): a constraint that keeps failing is branched on
/// early, where its refutations come soonest.
pub(super) fn choose(
    board: &Board,
    tables: &Tables,
    weights: Option<&[u32]>,
) -> Option<(Branch, Mask)> {
    let mut best: Option<(Branch, Mask)> = None;
    // The best ratio so far as `fewest / heaviest` (alternatives over weight), compared crosswise.
    // (Counts are at most 25 and weights u32, so the products never overflow.)
    let (mut fewest, mut heaviest) = (u64::from(u32::MAX), 1u64);
    let cells = board.cand.len();
    let weight = |constraint: usize| weights.map_or(1, |w| u64::from(w[constraint]));
    for (cell, &mask) in board.cand.iter().enumerate() {
        let count = u64::from(mask.count_ones());
        let w = weight(cell);
        if mask & PLACED == 0 && count * heaviest < fewest * w {
            (fewest, heaviest) = (count, w);
            best = Some((Branch::Cell(cell), mask));
            if count <= 2 && weights.is_none() {
                return best;
            }
        }
    }
    let side = tables.shape.side();
    for (slot, &places) in board.places.iter().enumerate() {
        // One place: the value is decided in that unit.
        let count = u64::from(places.count_ones());
        let w = weight(cells + slot);
        if count >= 2 && count * heaviest < fewest * w {
            (fewest, heaviest) = (count, w);
            let bit = 1 << (slot % side);
            best = Some((
                Branch::Value {
                    unit: slot / side,
                    bit,
                },
                places,
            ));
            if count == 2 && weights.is_none() {
                break;
            }
        }
    }
    best
}

/// Every two-way choice on the board, into `out`: each undecided cell with two candidates, and each
/// value with two places left in a unit.
pub(super) fn binary_choices(board: &Board, tables: &Tables, out: &mut Vec<Choice>) {
    out.clear();
    for (cell, &mask) in board.cand.iter().enumerate() {
        if mask & PLACED == 0 && is_pair(mask) {
            let low = mask & mask.wrapping_neg();
            out.push(Choice {
                sides: [(cell as u16, low), (cell as u16, mask & !low)],
                branch: Branch::Cell(cell),
                untried: mask,
            });
        }
    }
    let side = tables.shape.side();
    for (slot, &places) in board.places.iter().enumerate() {
        if is_pair(places) {
            let (unit, bit) = (slot / side, 1 << (slot % side));
            let cells = tables.unit(unit);
            let first = cells[places.trailing_zeros() as usize];
            let second = cells[(places & (places - 1)).trailing_zeros() as usize];
            // A pair whose two places are one bivalue cell's is the same choice as that cell's,
            // but probing it again costs nothing: the probes are remembered.
            out.push(Choice {
                sides: [(first, bit), (second, bit)],
                branch: Branch::Value { unit, bit },
                untried: places,
            });
        }
    }
}

/// Whether `mask` has exactly two bits set.
#[inline]
fn is_pair(mask: Mask) -> bool {
    let rest = mask & mask.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}
