//! Which values a Nishio chain cannot conclude anything about, from their templates.
//!
//! A template places a value once in every row, column and box, in its candidates and where it is
//! placed. A Nishio chain follows one value, and each of its steps holds in every template that
//! agrees with its start: so a start true in some template, or false in some template, leads to no
//! contradiction. Where each candidate of a value lies in some template and none in all of them,
//! none of the value's starts can end in a contradiction, and they need not be followed.

use crate::candidates::{Board, Geometry};

/// The most choices tried for one value's templates before giving up (and following its starts):
/// a value with few places left has few templates, and that is where the search is quick.
const MOST_TRIES: usize = 4096;

/// Whether no Nishio chain on `value` can reach a contradiction on `board`; false when unsure
/// (too many templates to look at, a board with units besides rows, columns and boxes, or more
/// than 128 cells).
pub(super) fn barren(board: &Board, value: u8) -> bool {
    let n = board.n();
    let geo = board.geo();
    if n * n > 128 || geo.has_extra_units() {
        return false;
    }
    let mut candidates = 0u128;
    let mut rows: Vec<u128> = Vec::with_capacity(n);
    for row in 0..n {
        let cells = row * n..(row + 1) * n;
        let choices = match cells.clone().find(|&cell| board.value(cell) == value) {
            Some(cell) => 1 << cell,
            None => {
                let choices = cells
                    .filter(|&cell| board.has(cell, value))
                    .fold(0u128, |m, cell| m | 1 << cell);
                candidates |= choices;
                choices
            }
        };
        rows.push(choices);
    }
    rows.sort_by_key(|choices| choices.count_ones());
    let mut search = Search {
        geo,
        rows: &rows,
        candidates,
        union: 0,
        common: u128::MAX,
        tries: 0,
    };
    search.go(0, 0, 0);
    search.tries <= MOST_TRIES && search.settled()
}

/// One value's templates, searched row by row, folded into what some and what all of them hold.
struct Search<'a> {
    geo: &'a Geometry,
    /// Each row's places for the value, fewest first.
    rows: &'a [u128],
    /// The value's candidates (not where it is placed).
    candidates: u128,
    /// The cells some template found holds.
    union: u128,
    /// The cells every template found holds.
    common: u128,
    /// Choices tried so far; past [`MOST_TRIES`] the search gives up.
    tries: usize,
}

impl Search<'_> {
    /// Every candidate in some template and none in all: nothing more found can change that.
    fn settled(&self) -> bool {
        self.candidates & !self.union == 0 && self.candidates & self.common == 0
    }

    /// Places the value in rows `row..`, given the cells placed so far and the columns and boxes
    /// they hold (as bits of their unit numbers); false once settled or out of tries.
    fn go(&mut self, row: usize, placed: u128, units: u64) -> bool {
        let Some(&choices) = self.rows.get(row) else {
            self.union |= placed;
            self.common &= placed;
            return !self.settled();
        };
        let mut left = choices;
        while left != 0 {
            let cell = left.trailing_zeros() as usize;
            left &= left - 1;
            self.tries += 1;
            if self.tries > MOST_TRIES {
                return false;
            }
            let [_, col, bx] = self.geo.units_of(cell);
            let mine = 1u64 << col | 1u64 << bx;
            if units & mine == 0 && !self.go(row + 1, placed | 1 << cell, units | mine) {
                return false;
            }
        }
        true
    }
}
