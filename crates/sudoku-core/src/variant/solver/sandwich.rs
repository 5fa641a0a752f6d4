//! Sandwiches: the values between the 1 and the largest value of a line add up to the clue. Every
//! pair of places the two could take is tried, and with it every set of distinct middle values of
//! the right size and total for the cells between: the set stays when the cells between can hold
//! exactly it and the cells outside exactly the other middle values. Each cell keeps only the
//! values some remaining pair and set let it hold.

use super::board::{Board, Step, bit, range_mask};
use super::sums::combinations;

/// A sandwich clue on one line.
pub(super) struct Sandwich {
    cells: Vec<usize>,
    side: usize,
    /// For each count of cells between the 1 and the largest value, the sets of that many
    /// distinct values 2 to side - 1 that make the clue.
    fillings: Vec<Vec<u16>>,
}

/// Whether `cells` can hold every value of `set`, one each, as far as a per-value and per-cell
/// look tells: each cell has a value of the set and each value of the set a cell. A necessary
/// condition only, so never refuses an assignment that exists.
fn can_hold<'a>(cand: impl Iterator<Item = &'a u16>, set: u16) -> bool {
    let mut seen = 0u16;
    for &m in cand {
        let here = m & set;
        if here == 0 {
            return false;
        }
        seen |= here;
    }
    seen == set
}

impl Sandwich {
    /// The clue `sum` on the line of `cells`, on a grid of `side`.
    pub(super) fn new(cells: Vec<usize>, sum: u32, side: usize) -> Sandwich {
        // The middle values 2 to side - 1, shifted down to 1 to side - 2 for `combinations`.
        let fillings = (0..side.saturating_sub(1))
            .map(|k| {
                let shifted = sum.checked_sub(k as u32);
                match shifted {
                    Some(total) => combinations(side.saturating_sub(2), k, total)
                        .into_iter()
                        .map(|m| m << 1)
                        .collect(),
                    None => Vec::new(),
                }
            })
            .collect();
        Sandwich {
            cells,
            side,
            fillings,
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
        let mut cand = [0u16; 16];
        for (m, &c) in cand.iter_mut().zip(&self.cells) {
            *m = b.get(c);
        }
        let cand = &cand[..side];
        let mut support = [0u16; 16];
        for p in (0..side).filter(|&p| cand[p] & one != 0) {
            for q in (0..side).filter(|&q| q != p && cand[q] & top != 0) {
                let (lo, hi) = (p.min(q), p.max(q));
                let fillings = &self.fillings[hi - lo - 1];
                if fillings.is_empty() {
                    continue;
                }
                let between = &cand[lo + 1..hi];
                let (before, after) = (&cand[..lo], &cand[hi + 1..]);
                let (mut inner, mut outer, mut found) = (0u16, 0u16, false);
                for &set in fillings {
                    let rest = mid & !set;
                    if can_hold(between.iter(), set) && can_hold(before.iter().chain(after), rest) {
                        inner |= set;
                        outer |= rest;
                        found = true;
                    }
                }
                if !found {
                    continue;
                }
                support[p] |= one;
                support[q] |= top;
                for (r, s) in support[..side].iter_mut().enumerate() {
                    if r == p || r == q {
                        continue;
                    }
                    *s |= cand[r] & if (lo..hi).contains(&r) { inner } else { outer };
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

#[cfg(test)]
mod tests {
    use super::super::board::full_mask;
    use super::*;

    /// Every ordering of 1 to `side` within `cand`, each passed to `f`.
    fn each_line(cand: &[u16], line: &mut Vec<u32>, f: &mut dyn FnMut(&[u32])) {
        if line.len() == cand.len() {
            f(line);
            return;
        }
        for v in 1..=cand.len() as u32 {
            if cand[line.len()] & bit(v) != 0 && !line.contains(&v) {
                line.push(v);
                each_line(cand, line, f);
                line.pop();
            }
        }
    }

    /// Whether a line of values keeps the sandwich clue `sum`.
    fn holds(line: &[u32], sum: u32) -> bool {
        let side = line.len() as u32;
        let at = |v: u32| line.iter().position(|&x| x == v).unwrap();
        let (a, b) = (at(1).min(at(side)), at(1).max(at(side)));
        line[a + 1..b].iter().sum::<u32>() == sum
    }

    #[test]
    fn propagation_never_removes_a_value_some_line_uses() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for side in 2..=7usize {
            let most = (side * (side - 1) / 2).saturating_sub(1) as u64;
            for _ in 0..400 {
                let full = full_mask(side);
                let cand: Vec<u16> = (0..side)
                    .map(|_| {
                        let m = full & next(1 << side) as u16;
                        if next(3) == 0 || m == 0 { full } else { m }
                    })
                    .collect();
                let sum = next(most + 1) as u32;
                let mut board = Board::new(side * side, full);
                for (c, &m) in cand.iter().enumerate() {
                    board.restrict(c, m).unwrap();
                }
                let rule = Sandwich::new((0..side).collect(), sum, side);
                let result = rule.propagate(&mut board);
                let mut used = vec![0u16; side];
                each_line(&cand, &mut Vec::new(), &mut |line| {
                    if holds(line, sum) {
                        for (u, &v) in used.iter_mut().zip(line) {
                            *u |= bit(v);
                        }
                    }
                });
                match result {
                    Err(_) => assert!(used.iter().all(|&u| u == 0), "{cand:?} sum {sum}"),
                    Ok(_) => {
                        for (c, &u) in used.iter().enumerate() {
                            assert_eq!(board.get(c) & u, u, "cell {c} of {cand:?} sum {sum}");
                        }
                    }
                }
            }
        }
    }
}
