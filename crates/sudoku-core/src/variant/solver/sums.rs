//! Sums: killer cages, little killers and arrows. Each bounds its cells by the smallest and largest
//! totals the other cells' candidates allow; a cage with a total (its values all different) also
//! keeps only the values of some combination of distinct values that makes its total, and in a
//! small cage each cell only the values some whole assignment of one gives it.

use std::collections::HashMap;
use std::ops::{BitAnd, BitOr, BitOrAssign, Shl, Shr, Sub};

use super::board::{
    Board, Contradiction, Groups, Step, bit, full_mask, max_value, min_value, range_mask,
    remove_from, values,
};

/// Keeps each of `cells` to the values that let their total land in `lo..=hi`, by the others'
/// smallest and largest candidates (repeats allowed: a bound, not every combination).
pub(super) fn bound(b: &mut Board, cells: &[usize], lo: i64, hi: i64) -> Step {
    let (mut smin, mut smax) = (0i64, 0i64);
    for &c in cells {
        let m = b.get(c);
        smin += i64::from(min_value(m));
        smax += i64::from(max_value(m));
    }
    if smin > hi || smax < lo {
        return Err(Contradiction);
    }
    let mut changed = false;
    for &c in cells {
        let m = b.get(c);
        let (cmin, cmax) = (i64::from(min_value(m)), i64::from(max_value(m)));
        // The bounds of the others, from totals taken before this pass's narrowing: looser, so sound.
        let low = lo - (smax - cmax);
        let high = hi - (smin - cmin);
        changed |= b.restrict(c, range_mask(low, high))?;
    }
    Ok(changed)
}

/// The largest total [`support`] tracks exactly (its sets of totals are at most `u128` bitmasks).
const MAX_EXACT: u32 = 127;

/// A set of totals, bit `t` for total `t`: `u64` when every total is below 64, where a shift is
/// one instruction, `u128` otherwise (see [`exact`]).
trait Totals:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitOrAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + Sub<Output = Self>
{
    /// The empty set.
    const NONE: Self;
    /// The set holding the total 0 only.
    const ZERO: Self;
    /// The values of a candidate mask as totals (bit `v - 1` of the mask to bit `v`).
    fn of_mask(mask: u16) -> Self;
    /// The smallest total of a non-empty set.
    fn first(self) -> u32;
    /// The totals 1 to 16 of the set as a candidate mask (total `v` to bit `v - 1`).
    fn values(self) -> u16;
}

macro_rules! totals_on {
    ($t:ty) => {
        impl Totals for $t {
            const NONE: Self = 0;
            const ZERO: Self = 1;
            fn of_mask(mask: u16) -> Self {
                <$t>::from(mask) << 1
            }
            fn first(self) -> u32 {
                self.trailing_zeros()
            }
            fn values(self) -> u16 {
                (self >> 1) as u16
            }
        }
    };
}
totals_on!(u64);
totals_on!(u128);

/// The most cells a block of [`support`] may have: its assignments are enumerated.
pub(super) const MOST_IN_BLOCK: usize = 3;

/// The largest total `cells` can make: [`exact`] applies when it is at most [`MAX_EXACT`].
fn largest_total(b: &Board, cells: &[usize]) -> u32 {
    cells.iter().map(|&c| max_value(b.get(c))).sum()
}

/// Calls `f` with each way of giving `block` (one to three cells, [`MOST_IN_BLOCK`]) distinct
/// values from their candidates, all but the last cell's fixed: those values, their total, and
/// the last cell's values left. What a value of the last cell adds is then one shift away, so a
/// block of three walks only the pairs of its first two cells.
#[inline]
fn each_prefix(b: &Board, block: &[usize], mut f: impl FnMut(&[u32], u32, u16)) {
    debug_assert!(block.len() <= MOST_IN_BLOCK);
    match *block {
        [x] => f(&[], 0, b.get(x)),
        [x, y] => {
            let my = b.get(y);
            for v in values(b.get(x)) {
                f(&[v], v, my & !bit(v));
            }
        }
        [x, y, z, ..] => {
            let (my, mz) = (b.get(y), b.get(z));
            for v in values(b.get(x)) {
                for w in values(my & !bit(v)) {
                    f(&[v, w], v + w, mz & !bit(v) & !bit(w));
                }
            }
        }
        [] => {}
    }
}

/// The totals one block's distinct values can make, bit `t` for `t`.
fn block_totals<T: Totals>(b: &Board, block: &[usize]) -> T {
    if block.is_empty() {
        return T::ZERO;
    }
    let mut totals = T::NONE;
    each_prefix(b, block, |_, t, last| totals |= T::of_mask(last) << t);
    totals
}

/// The totals the blocks can make together, bit `t` for `t`.
fn totals(b: &Board, blocks: &[Vec<usize>]) -> u128 {
    blocks.iter().fold(1u128, |made, block| {
        let mut next = 0u128;
        let mut rest: u128 = block_totals(b, block);
        while rest != 0 {
            next |= made << rest.trailing_zeros();
            rest &= rest - 1;
        }
        next
    })
}

/// Keeps each cell of `blocks` to the values some assignment of the others completes to a total in
/// `targets` (bit `t` for total `t`): exact for the sum with the cells of a block all different,
/// values in different blocks free to repeat. Every total the blocks can make must fit `T`.
fn support<T: Totals>(b: &mut Board, blocks: &[Vec<usize>], targets: T) -> Step {
    let n = blocks.len();
    // need[j]: the totals of the blocks before j that the blocks from j on can complete.
    let mut stack = [T::NONE; 33];
    let mut heap = Vec::new();
    let need: &mut [T] = if n < stack.len() {
        &mut stack[..=n]
    } else {
        heap.resize(n + 1, T::NONE);
        &mut heap
    };
    need[n] = targets;
    for j in (0..n).rev() {
        let mut rest: T = block_totals(b, &blocks[j]);
        let mut reach = T::NONE;
        while rest != T::NONE {
            reach |= need[j + 1] >> rest.first();
            rest = rest & (rest - T::ZERO);
        }
        need[j] = reach;
    }
    if need[0] & T::ZERO == T::NONE {
        return Err(Contradiction);
    }
    // Forward: the totals the blocks before j can make; an assignment of block j stays if it takes
    // one of them to a total the rest can complete, that is if its own total is in `reach`.
    let mut made = T::ZERO;
    let mut changed = false;
    for (j, block) in blocks.iter().enumerate() {
        let mut reach = T::NONE;
        let mut rest = made;
        while rest != T::NONE {
            reach |= need[j + 1] >> rest.first();
            rest = rest & (rest - T::ZERO);
        }
        let mut keep = [0u16; MOST_IN_BLOCK];
        let mut kept = T::NONE;
        if block.is_empty() {
            kept = reach & T::ZERO;
        }
        each_prefix(b, block, |vals, t, last| {
            let fits = last & (reach >> t).values();
            if fits != 0 {
                for (k, &v) in keep.iter_mut().zip(vals) {
                    *k |= bit(v);
                }
                keep[vals.len()] |= fits;
                kept |= T::of_mask(fits) << t;
            }
        });
        for (&c, &k) in block.iter().zip(&keep) {
            changed |= b.restrict(c, k)?;
        }
        // The totals the blocks up to j make, by the assignments kept.
        let mut next = T::NONE;
        while kept != T::NONE {
            next |= made << kept.first();
            kept = kept & (kept - T::ZERO);
        }
        made = next;
    }
    Ok(changed)
}

/// [`support`] for blocks whose totals are at most `largest` (no more than [`MAX_EXACT`]), on the
/// narrowest set that holds them: targets above `largest` cannot be made, so a `u64` may drop them.
fn exact(b: &mut Board, blocks: &[Vec<usize>], largest: u32, targets: u128) -> Step {
    debug_assert!(largest <= MAX_EXACT);
    if largest < 64 {
        support(b, blocks, targets as u64)
    } else {
        support(b, blocks, targets)
    }
}

/// Whether `cells` can take exactly the values of `set`, as far as a per-cell and per-value look
/// tells: each cell has a value of the set, each value of the set a cell. Necessary, not
/// sufficient, so it never refuses what a solution does.
fn holds_exactly(b: &Board, cells: &[usize], set: u16) -> bool {
    let mut seen = 0u16;
    for &c in cells {
        let here = b.get(c) & set;
        if here == 0 {
            return false;
        }
        seen |= here;
    }
    seen == set
}

/// The sets of `count` distinct values 1 to `side` that add up to `total`, as masks: values chosen
/// in increasing order, a branch dropped once its total overshoots.
pub(super) fn combinations(side: usize, count: usize, total: u32) -> Vec<u16> {
    fn extend(from: u32, side: u32, left: usize, total: u32, mask: u16, out: &mut Vec<u16>) {
        if left == 0 {
            if total == 0 {
                out.push(mask);
            }
            return;
        }
        for v in from..=side {
            if v > total {
                break;
            }
            extend(v + 1, side, left - 1, total - v, mask | bit(v), out);
        }
    }
    let mut out = Vec::new();
    extend(1, side.min(16) as u32, count, total, 0, &mut out);
    out
}

/// The largest cage whose cells keep only the values of whole assignments ([`assign`]): the
/// assignments of a larger one are too many to walk at every propagation.
const MOST_MATCHED: usize = 3;

/// Walks every way of giving `cells` (one to three, [`MOST_MATCHED`]) the values of `combo`, one
/// each, each from its cell's candidates; each way found adds its values to `support`, cell by
/// cell. Whether there is one. The last cell's value is what the others leave, so only the others
/// are walked.
#[inline]
fn assign(b: &Board, cells: &[usize], combo: u16, support: &mut [u16; MOST_MATCHED]) -> bool {
    let mut any = false;
    match *cells {
        [x] => {
            let v = b.get(x) & combo;
            support[0] |= v;
            any = v != 0;
        }
        [x, y] => {
            let my = b.get(y);
            for v in values(b.get(x) & combo).map(bit) {
                let w = combo & !v;
                if my & w != 0 {
                    support[0] |= v;
                    support[1] |= w;
                    any = true;
                }
            }
        }
        [x, y, z] => {
            let (my, mz) = (b.get(y) & combo, b.get(z));
            for v in values(b.get(x) & combo).map(bit) {
                for w in values(my & !v).map(bit) {
                    let u = combo & !v & !w;
                    if mz & u != 0 {
                        support[0] |= v;
                        support[1] |= w;
                        support[2] |= u;
                        any = true;
                    }
                }
            }
        }
        _ => {}
    }
    any
}

/// Cells whose values add up to a total: a cage's (distinct) or a little killer's (repeats allowed).
pub(super) struct Sum {
    cells: Vec<usize>,
    /// The cells in blocks whose values differ, for the exact totals.
    blocks: Vec<Vec<usize>>,
    total: i64,
    /// For a cage, every set of distinct values that makes the total.
    combos: Option<Vec<u16>>,
    /// For a cage, the rest of each house (a group of every value) that holds the whole cage:
    /// those cells take exactly the values the cage leaves.
    complements: Vec<Vec<usize>>,
    /// Every value of the grid.
    full: u16,
}

impl Sum {
    /// A killer cage with a total; `cache` shares combination tables between cages of one size
    /// and total.
    pub(super) fn cage(
        side: usize,
        cells: &[usize],
        total: u32,
        cache: &mut HashMap<(usize, u32), Vec<u16>>,
    ) -> Sum {
        let combos = cache
            .entry((cells.len(), total))
            .or_insert_with(|| combinations(side, cells.len(), total))
            .clone();
        Sum {
            cells: cells.to_vec(),
            blocks: cells.iter().map(|&c| vec![c]).collect(),
            total: i64::from(total),
            combos: Some(combos),
            complements: Vec::new(),
            full: full_mask(side),
        }
    }

    /// A little killer: a total, values may repeat.
    pub(super) fn little_killer(cells: &[usize], total: u32) -> Sum {
        Sum {
            cells: cells.to_vec(),
            blocks: cells.iter().map(|&c| vec![c]).collect(),
            total: i64::from(total),
            combos: None,
            complements: Vec::new(),
            full: 0,
        }
    }

    /// Splits the cells into blocks that must all differ, by `groups` (a cage's combinations
    /// already know its cells differ: it has no use for them); for a cage, finds the houses that
    /// hold it whole.
    pub(super) fn set_blocks(&mut self, groups: &Groups) {
        if self.combos.is_none() {
            self.blocks = groups.cliques(&self.cells, MOST_IN_BLOCK);
            return;
        }
        for house in groups.houses() {
            if self.cells.iter().all(|c| house.contains(c)) {
                let rest: Vec<usize> = house
                    .iter()
                    .copied()
                    .filter(|c| !self.cells.contains(c))
                    .collect();
                if !rest.is_empty() && !self.complements.contains(&rest) {
                    self.complements.push(rest);
                }
            }
        }
    }

    /// Every cell the propagator reads: its own and those of its complements.
    pub(super) fn reads(&self) -> impl Iterator<Item = usize> + '_ {
        self.cells
            .iter()
            .chain(self.complements.iter().flatten())
            .copied()
    }

    /// Narrows the cells' candidates (and, for a cage, its complements' and the cells that see
    /// every place of a value the cage must hold, by `groups`).
    pub(super) fn propagate(&self, b: &mut Board, groups: &Groups) -> Step {
        let mut changed = false;
        if let Some(combos) = &self.combos {
            let union = self.cells.iter().fold(0, |u, &c| u | b.get(c));
            // A combination stays if each of its values has a cell that can take it and each cell
            // a value of it, and the same holds for what it leaves in each complement.
            let (mut allowed, mut required, mut left) = (0u16, u16::MAX, 0u16);
            // In a small cage, each cell keeps only the values some whole assignment of a
            // combination gives it (one value a cell, all different).
            let matched = self.cells.len() <= MOST_MATCHED;
            let mut support = [0u16; MOST_MATCHED];
            for &combo in combos {
                let fits = combo & !union == 0
                    && self.cells.iter().all(|&c| b.get(c) & combo != 0)
                    && self
                        .complements
                        .iter()
                        .all(|rest| holds_exactly(b, rest, self.full & !combo))
                    && (!matched || assign(b, &self.cells, combo, &mut support));
                if fits {
                    allowed |= combo;
                    required &= combo;
                    left |= self.full & !combo;
                }
            }
            if allowed == 0 {
                return Err(Contradiction);
            }
            for (i, &c) in self.cells.iter().enumerate() {
                let keep = if matched { support[i] } else { allowed };
                changed |= b.restrict(c, keep)?;
            }
            for &c in self.complements.iter().flatten() {
                changed |= b.restrict(c, left)?;
            }
            // A value every remaining combination holds: with one cell left that can take it, it
            // goes there; with more, no cell that sees them all can take it.
            for v in values(required) {
                let mut holders = self.cells.iter().filter(|&&c| b.get(c) & bit(v) != 0);
                match (holders.next(), holders.next()) {
                    (None, _) => return Err(Contradiction),
                    (Some(&c), None) => changed |= b.restrict(c, bit(v))?,
                    _ => {
                        let places = self
                            .cells
                            .iter()
                            .copied()
                            .filter(|&c| b.get(c) & bit(v) != 0);
                        changed |= remove_from(b, &groups.common_peers(places), bit(v))?;
                    }
                }
            }
            // Every value a small cage's cells keep is in a whole assignment making the total:
            // no bound can take it.
            if matched {
                return Ok(changed);
            }
        }
        // A cage with its combinations needs only the bounds: its largest total is not looked for.
        let largest = (self.combos.is_none() && self.total <= i64::from(MAX_EXACT))
            .then(|| largest_total(b, &self.cells))
            .filter(|&largest| largest <= MAX_EXACT);
        changed |= match largest {
            Some(largest) => exact(b, &self.blocks, largest, 1u128 << self.total)?,
            None => bound(b, &self.cells, self.total, self.total)?,
        };
        Ok(changed)
    }
}

/// An arrow: the shaft adds up to the number its circle (one or two cells) spells.
pub(super) struct Arrow {
    circle: Vec<usize>,
    shaft: Vec<usize>,
    /// The shaft in blocks whose values differ, for the exact totals.
    blocks: Vec<Vec<usize>>,
}

impl Arrow {
    /// The arrow of these cells.
    pub(super) fn new(circle: &[usize], shaft: &[usize]) -> Arrow {
        Arrow {
            circle: circle.to_vec(),
            shaft: shaft.to_vec(),
            blocks: shaft.iter().map(|&c| vec![c]).collect(),
        }
    }

    /// Splits the shaft into blocks that must all differ, by `groups`.
    pub(super) fn set_blocks(&mut self, groups: &Groups) {
        self.blocks = groups.cliques(&self.shaft, MOST_IN_BLOCK);
    }

    /// Narrows the circle to the numbers the shaft can total, and the shaft to the totals the
    /// circle can show.
    pub(super) fn propagate(&self, b: &mut Board) -> Step {
        let (mut smin, mut smax) = (0i64, 0i64);
        for &c in &self.shaft {
            let m = b.get(c);
            smin += i64::from(min_value(m));
            smax += i64::from(max_value(m));
        }
        let mut changed = false;
        let fits = |n: i64| (smin..=smax).contains(&n);
        match *self.circle.as_slice() {
            [c] => {
                changed |= b.restrict(c, range_mask(smin, smax))?;
            }
            [hi, lo] => {
                let (mh, ml) = (b.get(hi), b.get(lo));
                let number = |h: u32, l: u32| i64::from(h) * 10 + i64::from(l);
                let keep_hi = values(mh)
                    .filter(|&h| values(ml).any(|l| fits(number(h, l))))
                    .fold(0, |m, h| m | bit(h));
                let keep_lo = values(ml)
                    .filter(|&l| values(mh).any(|h| fits(number(h, l))))
                    .fold(0, |m, l| m | bit(l));
                changed |= b.restrict(hi, keep_hi)?;
                changed |= b.restrict(lo, keep_lo)?;
            }
            _ => {}
        }
        let largest = largest_total(b, &self.shaft);
        if largest <= MAX_EXACT {
            // Exact: the circle keeps the numbers the shaft can total, the shaft the values that
            // complete to a number the circle can show.
            let made = totals(b, &self.blocks);
            let shown = |n: u32| n <= MAX_EXACT && made & (1u128 << n) != 0;
            let mut targets = 0u128;
            match *self.circle.as_slice() {
                [c] => {
                    let keep = values(b.get(c))
                        .filter(|&v| shown(v))
                        .fold(0, |m, v| m | bit(v));
                    changed |= b.restrict(c, keep)?;
                    targets = values(b.get(c)).fold(0, |t, v| t | 1u128 << v);
                }
                [hi, lo] => {
                    let (mh, ml) = (b.get(hi), b.get(lo));
                    let (mut keep_hi, mut keep_lo) = (0, 0);
                    for h in values(mh) {
                        for l in values(ml) {
                            if shown(h * 10 + l) {
                                keep_hi |= bit(h);
                                keep_lo |= bit(l);
                                targets |= 1u128 << (h * 10 + l);
                            }
                        }
                    }
                    changed |= b.restrict(hi, keep_hi)?;
                    changed |= b.restrict(lo, keep_lo)?;
                }
                _ => targets = u128::MAX,
            }
            changed |= exact(b, &self.blocks, largest, targets)?;
            return Ok(changed);
        }
        let spell = |pick: fn(u16) -> u32| {
            self.circle
                .iter()
                .fold(0i64, |n, &c| n * 10 + i64::from(pick(b.get(c))))
        };
        let (tmin, tmax) = (spell(min_value), spell(max_value));
        changed |= bound(b, &self.shaft, tmin, tmax)?;
        Ok(changed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_are_every_set_of_distinct_values_with_the_total() {
        for side in [1, 4, 6, 9, 12] {
            for count in 0..=side {
                for total in 0..=side * (side + 1) / 2 + 1 {
                    let mut expected: Vec<u16> = (0u32..1 << side)
                        .filter(|m| m.count_ones() as usize == count)
                        .filter(|&m| values(m as u16).sum::<u32>() == total as u32)
                        .map(|m| m as u16)
                        .collect();
                    let mut found = combinations(side, count, total as u32);
                    expected.sort_unstable();
                    found.sort_unstable();
                    assert_eq!(found, expected, "side {side}, {count} cells, total {total}");
                }
            }
        }
    }
}
