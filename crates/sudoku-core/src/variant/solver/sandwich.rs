//! Sandwiches: the values between the 1 and the largest value of a line add up to the clue. Every
//! pair of places the two could take is tried; a pair stays when the cells between can still make
//! the total (by their candidates' bounds and by what distinct values allow). Each cell keeps only
//! the values some remaining pair lets it hold.

use super::board::{Board, Step, bit, max_value, min_value, range_mask};

/// A sandwich clue on one line.
pub(super) struct Sandwich {
    cells: Vec<usize>,
    sum: i64,
    side: usize,
}

impl Sandwich {
    /// The clue `sum` on the line of `cells`, on a grid of `side`.
    pub(super) fn new(cells: Vec<usize>, sum: u32, side: usize) -> Sandwich {
        Sandwich {
            cells,
            sum: i64::from(sum),
            side,
        }
    }

    /// Narrows the line.
    pub(super) fn propagate(&self, b: &mut Board) -> Step {
        let side = self.side;
        if side < 2 || self.cells.len() != side {
            // On a side-1 grid the clue is 0 and always holds.
            return Ok(false);
        }
        let (one, top) = (bit(1), bit(side as u32));
        let mid = range_mask(2, side as i64 - 1);
        let cand: Vec<u16> = self.cells.iter().map(|&c| b.get(c)).collect();
        let mut support = vec![0u16; side];
        for p in (0..side).filter(|&p| cand[p] & one != 0) {
            for q in (0..side).filter(|&q| q != p && cand[q] & top != 0) {
                let (lo, hi) = (p.min(q), p.max(q));
                let others_fit = (0..side)
                    .filter(|&r| r != p && r != q)
                    .all(|r| cand[r] & mid != 0);
                if !others_fit {
                    continue;
                }
                let between = lo + 1..hi;
                let k = between.len() as i64;
                let (mut smin, mut smax) = (0i64, 0i64);
                for r in between.clone() {
                    smin += i64::from(min_value(cand[r] & mid));
                    smax += i64::from(max_value(cand[r] & mid));
                }
                // k distinct values of 2 to side - 1: at least 2 + ... + (k + 1), at most the k largest.
                let s = side as i64;
                let dmin = k * (k + 3) / 2;
                let dmax = k * (2 * s - k - 1) / 2;
                if self.sum < smin.max(dmin) || self.sum > smax.min(dmax) {
                    continue;
                }
                support[p] |= one;
                support[q] |= top;
                for r in 0..side {
                    if r == p || r == q {
                        continue;
                    }
                    let m = cand[r] & mid;
                    support[r] |= if between.contains(&r) {
                        let (cmin, cmax) = (i64::from(min_value(m)), i64::from(max_value(m)));
                        m & range_mask(self.sum - (smax - cmax), self.sum - (smin - cmin))
                    } else {
                        m
                    };
                }
            }
        }
        let mut changed = false;
        for (r, &c) in self.cells.iter().enumerate() {
            changed |= b.restrict(c, support[r])?;
        }
        Ok(changed)
    }
}
