//! Choosing where to branch when propagation stalls: the bivalue cell whose digits eliminate the
//! most among its peers, else a cell with the fewest candidates.

use super::band::{COLUMN_SPREAD, PEERS_IN_BAND};
use super::state::{OTHER_BANDS, State, at};

/// A guess: `digit` on the cell `cell` of `band`, and the cell's only other digit if it has one.
#[derive(Clone, Copy)]
pub(super) struct Guess {
    pub(super) band: usize,
    pub(super) cell: u32,
    pub(super) digit: usize,
    pub(super) only_other: Option<usize>,
}

impl State {
    /// A cell to branch on and its first candidate. Only called on a settled, unsolved state.
    ///
    /// Among the bivalue cells (almost always there are some), the one whose two digits have the most
    /// candidates among the cell's peers: whichever branch is taken, placing its digit eliminates the
    /// most, so both sides of the guess propagate furthest. On the hardest puzzles this shrinks the
    /// search tree by about 40% against taking the first bivalue cell. Without a bivalue cell, a cell
    /// with the fewest candidates.
    #[inline(always)]
    pub(super) fn pick<const BMI2: bool>(&self) -> Guess {
        let mut pairs = [0u32; 3];
        for (band, pair) in pairs.iter_mut().enumerate() {
            let unsolved = self.unsolved[band];
            if unsolved == 0 {
                continue;
            }
            let [_, two, three] = self.counts::<BMI2>(band);
            *pair = unsolved & two & !three;
        }
        if pairs != [0; 3] {
            return self.most_eliminating::<BMI2>(&pairs);
        }
        let (band, cell) = self.fewest();
        let digit = (0..9)
            .find(|&d| self.cand[at(d, band)] & cell != 0)
            .unwrap_or(0);
        Guess {
            band,
            cell,
            digit,
            only_other: None,
        }
    }

    /// Of the bivalue cells `pairs` (per band, not all empty), the one whose placements promise the
    /// most, as a guess of its lower digit; the first such on a tie.
    ///
    /// For each of the cell's two digits, placing it there eliminates its candidates among the cell's
    /// peers, and turns each bivalue peer holding it into a naked single. The score weighs the two as
    /// 2 : 5 (tuned on forum_hardest: 70.0 guesses per puzzle, against 84.1 for eliminations alone and
    /// 140.7 for the first bivalue cell).
    #[inline(always)]
    fn most_eliminating<const BMI2: bool>(&self, pairs: &[u32; 3]) -> Guess {
        // The best so far, packed so that a plain maximum keeps it without a branch: the score, then
        // the position (inverted, so that the first wins a tie), then the two digits.
        let mut best = 0u32;
        for (band, &pair) in pairs.iter().enumerate() {
            let mut cells = pair;
            #[cfg(target_arch = "x86_64")]
            if BMI2 && cells != 0 {
                // SAFETY: `BMI2` is true only under `search_v3`, which `solve` calls only after
                // checking at run time that the CPU has AVX2.
                unsafe {
                    use core::arch::x86_64::*;
                    let c = &self.cand;
                    // Digits 1-8's words of the band in one register: shifting each lane's bit
                    // `index` to the sign bit and taking the sign mask gathers a cell's digits in
                    // three instructions instead of a loop over nine words.
                    let lanes = _mm256_loadu_si256(c[at(0, band)..].as_ptr().cast::<__m256i>());
                    let ninth = c[at(8, band)];
                    while cells != 0 {
                        let index = cells.trailing_zeros() as usize;
                        cells &= cells - 1;
                        let shift = _mm_cvtsi32_si128(31 - index as i32);
                        let signs = _mm256_castsi256_ps(_mm256_sll_epi32(lanes, shift));
                        let digits = _mm256_movemask_ps(signs) as u32 | ((ninth >> index) & 1) << 8;
                        best = best.max(self.rank(band, index, digits, pairs));
                    }
                }
                continue;
            }
            while cells != 0 {
                let index = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let mut digits = 0u32;
                for d in 0..9 {
                    digits |= ((self.cand[at(d, band)] >> index) & 1) << d;
                }
                best = best.max(self.rank(band, index, digits, pairs));
            }
        }
        let position = 127 - (best >> 8 & 127) as usize;
        Guess {
            band: position / 27,
            cell: 1 << (position % 27),
            digit: (best & 15) as usize,
            only_other: Some((best >> 4 & 15) as usize),
        }
    }

    /// The packed rank of the bivalue cell `index` of `band` with the digits `digits` (bit per
    /// digit): its score, its position (inverted, so the first wins a tie), its two digits.
    #[inline(always)]
    fn rank(&self, band: usize, index: usize, digits: u32, pairs: &[u32; 3]) -> u32 {
        let low = (digits.trailing_zeros() as usize).min(8);
        let high = ((digits & digits.wrapping_sub(1)).trailing_zeros() as usize).min(8);
        let score = self.gain(low, band, index, pairs) + self.gain(high, band, index, pairs);
        let position = band * 27 + index;
        score << 15 | (127 - position as u32) << 8 | (high << 4 | low) as u32
    }

    /// What placing `digit` on cell `index` of `band` promises: its candidates among the cell's peers
    /// (weight 2) and the bivalue peers among them, which become naked singles (weight 5).
    #[inline(always)]
    fn gain(&self, digit: usize, band: usize, index: usize, pairs: &[u32; 3]) -> u32 {
        let (b1, b2) = OTHER_BANDS[band];
        let (w0, w1, w2) = (
            self.cand[at(digit, band)],
            self.cand[at(digit, b1)],
            self.cand[at(digit, b2)],
        );
        let column = COLUMN_SPREAD << (index % 9);
        // The cell's row and box in its band (which hold its column there), and its column in the
        // other two bands, shifted apart so that one count covers both.
        let inside = w0 & PEERS_IN_BAND[index];
        let outside = (w1 & column) | (w2 & column) << 1;
        let seen = u64::from(outside) << 32 | u64::from(inside);
        let outside_pairs = (w1 & pairs[b1] & column) | (w2 & pairs[b2] & column) << 1;
        let seen_pairs = u64::from(outside_pairs) << 32 | u64::from(inside & pairs[band]);
        2 * seen.count_ones() + 5 * seen_pairs.count_ones()
    }

    /// An unsolved cell with the fewest candidates, as (band, cell bit). Only called on a settled,
    /// unsolved state without bivalue cells, which is rare.
    #[cold]
    fn fewest(&self) -> (usize, u32) {
        let mut best = (0usize, 0u32, u32::MAX);
        for band in 0..3 {
            let unsolved = self.unsolved[band];
            if unsolved == 0 {
                continue;
            }
            // Bit-sliced counters of candidates per cell (count = p0 + 2 p1 + 4 p2 + 8 p3).
            let (mut p0, mut p1, mut p2, mut p3) = (0u32, 0u32, 0u32, 0u32);
            for d in 0..9 {
                let word = self.cand[at(d, band)];
                let c0 = p0 & word;
                p0 ^= word;
                let c1 = p1 & c0;
                p1 ^= c0;
                let c2 = p2 & c1;
                p2 ^= c1;
                p3 |= c2;
            }
            for count in 2..best.2.min(10) {
                let mut cells = unsolved;
                for (j, plane) in [p0, p1, p2, p3].into_iter().enumerate() {
                    cells &= if count >> j & 1 != 0 { plane } else { !plane };
                }
                if cells != 0 {
                    best = (band, cells & cells.wrapping_neg(), count);
                    break;
                }
            }
        }
        (best.0, best.1)
    }
}
