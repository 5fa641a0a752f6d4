//! Choosing where to branch when propagation stalls: the bivalue cell whose digits eliminate the
//! most among its peers, else a cell with the fewest candidates.

use super::band::{COLUMN_SPREAD, PEERS_IN_BAND};
use super::state::{OTHER_BANDS, State, at};

/// The nine digit words of one band, as `State::cand` holds them adjacent.
type BandWords = [u32; 9];

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
    /// most, so both sides of the guess propagate furthest, and the search tree is smaller than with
    /// the first bivalue cell. Without a bivalue cell, a cell with the fewest candidates.
    ///
    /// When `quick` (the search has met no dead end yet) and at most [`QUICK_OPEN_CELLS`] cells are
    /// open, the first bivalue cell instead: there the choice hardly changes how many guesses follow
    /// (nearly full grids, puzzles with several solutions), while scoring every bivalue cell costs
    /// as much as a good part of the guess it chooses.
    #[inline(always)]
    pub(super) fn pick<const BMI2: bool>(&self, quick: bool) -> Guess {
        let open: u32 = self.unsolved.iter().map(|cells| cells.count_ones()).sum();
        if quick && open <= QUICK_OPEN_CELLS {
            // The first bivalue cell: the bands after the first that has one need no counting.
            for band in 0..3 {
                let unsolved = self.unsolved[band];
                if unsolved == 0 {
                    continue;
                }
                let [_, two, three] = self.counts::<BMI2>(band);
                let pair = unsolved & two & !three;
                if pair != 0 {
                    return self.first_bivalue::<BMI2>(band, pair);
                }
            }
            return self.fewest_guess();
        }
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
        self.fewest_guess()
    }

    /// A guess of the lowest digit of a cell with the fewest candidates, for a state without a
    /// bivalue cell.
    #[inline(always)]
    fn fewest_guess(&self) -> Guess {
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

    /// The first of the bivalue cells `pair` (not empty) of `band`, as a guess of its lower digit.
    #[inline(always)]
    fn first_bivalue<const BMI2: bool>(&self, band: usize, pair: u32) -> Guess {
        let index = pair.trailing_zeros() as usize;
        let (words, _) = self.cand.as_chunks::<9>();
        let digits = digits_at::<BMI2>(&words[band], index);
        let low = (digits.trailing_zeros() as usize).min(8);
        let high = ((digits & digits.wrapping_sub(1)).trailing_zeros() as usize).min(8);
        Guess {
            band,
            cell: 1 << index,
            digit: low,
            only_other: Some(high),
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
            if cells == 0 {
                continue;
            }
            let peers = Peers::new(self, band, pairs);
            #[cfg(target_arch = "x86_64")]
            if BMI2 {
                // SAFETY: `BMI2` is true only under `search_v3`, which `solve` calls only after
                // checking at run time that the CPU has AVX2; the 32-byte load covers `own[0]` to
                // `own[7]`, inside the array.
                unsafe {
                    use core::arch::x86_64::*;
                    // Digits 1-8's words of the band in one register: shifting each lane's bit
                    // `index` to the sign bit and taking the sign mask gathers a cell's digits in
                    // three instructions instead of a loop over nine words.
                    let lanes = _mm256_loadu_si256(peers.own.as_ptr().cast::<__m256i>());
                    let ninth = peers.own[8];
                    while cells != 0 {
                        let index = cells.trailing_zeros() as usize;
                        cells &= cells - 1;
                        let shift = _mm_cvtsi32_si128(31 - index as i32);
                        let signs = _mm256_castsi256_ps(_mm256_sll_epi32(lanes, shift));
                        let digits = _mm256_movemask_ps(signs) as u32 | ((ninth >> index) & 1) << 8;
                        best = best.max(peers.rank(index, digits));
                    }
                }
                continue;
            }
            while cells != 0 {
                let index = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                let mut digits = 0u32;
                for (d, &word) in peers.own.iter().enumerate() {
                    digits |= ((word >> index) & 1) << d;
                }
                best = best.max(peers.rank(index, digits));
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

    /// An unsolved cell with the fewest candidates, as (band, cell bit): the first such cell of the
    /// first band that has one. Only called on a settled, unsolved state without bivalue cells:
    /// rare on most puzzles, the rule where a whole band is empty (each of its cells then holds
    /// the three digits its column lacks).
    #[cold]
    fn fewest(&self) -> (usize, u32) {
        // Settled and without a bivalue cell, no unsolved cell has fewer than three candidates, so
        // the first cell with exactly three is the answer: counting to four finds it, band by band.
        for band in 0..3 {
            let (mut one, mut two, mut three, mut four) = (0u32, 0u32, 0u32, 0u32);
            for d in 0..9 {
                let word = self.cand[at(d, band)];
                four |= three & word;
                three |= two & word;
                two |= one & word;
                one |= word;
            }
            let cells = self.unsolved[band] & three & !four;
            if cells != 0 {
                return (band, cells & cells.wrapping_neg());
            }
        }
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

/// The most cells a state may have open for [`State::pick`]'s quick choice.
const QUICK_OPEN_CELLS: u32 = 45;

/// The digits (bit per digit) that the band words `own` hold at the cell `index`.
#[inline(always)]
fn digits_at<const BMI2: bool>(own: &BandWords, index: usize) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // SAFETY: `BMI2` is true only under `search_v3`, which `solve` calls only after checking at
        // run time that the CPU has AVX2; the 32-byte load covers `own[0]` to `own[7]`.
        unsafe {
            use core::arch::x86_64::*;
            let lanes = _mm256_loadu_si256(own.as_ptr().cast::<__m256i>());
            let shift = _mm_cvtsi32_si128(31 - index as i32);
            let signs = _mm256_castsi256_ps(_mm256_sll_epi32(lanes, shift));
            return _mm256_movemask_ps(signs) as u32 | ((own[8] >> index) & 1) << 8;
        }
    }
    let mut digits = 0u32;
    for (d, &word) in own.iter().enumerate() {
        digits |= ((word >> index) & 1) << d;
    }
    digits
}

/// What scoring one band's bivalue cells reads, looked up once per band rather than once per cell and
/// digit: the nine digit words of the band and of the other two, and the bivalue cells of each.
struct Peers<'a> {
    band: usize,
    own: &'a BandWords,
    others: (&'a BandWords, &'a BandWords),
    pairs: [u32; 3],
}

impl<'a> Peers<'a> {
    #[inline(always)]
    fn new(state: &'a State, band: usize, pairs: &[u32; 3]) -> Peers<'a> {
        let (b1, b2) = OTHER_BANDS[band];
        // `cand` is band-major: its three chunks of nine are the bands' digit words.
        let (words, _) = state.cand.as_chunks::<9>();
        Peers {
            band,
            own: &words[band],
            others: (&words[b1], &words[b2]),
            pairs: [pairs[band], pairs[b1], pairs[b2]],
        }
    }

    /// The packed rank of the bivalue cell `index` of the band with the digits `digits` (bit per
    /// digit): its score, its position (inverted, so the first wins a tie), its two digits.
    #[inline(always)]
    fn rank(&self, index: usize, digits: u32) -> u32 {
        let low = (digits.trailing_zeros() as usize).min(8);
        let high = ((digits & digits.wrapping_sub(1)).trailing_zeros() as usize).min(8);
        let inside = PEERS_IN_BAND[index % 27];
        let column = COLUMN_SPREAD << (index % 9);
        let score = self.gain(low, inside, column) + self.gain(high, inside, column);
        let position = self.band * 27 + index;
        score << 15 | (127 - position as u32) << 8 | (high << 4 | low) as u32
    }

    /// What placing `digit` on a cell promises (`inside`: the cell's row and box in its band, which
    /// hold its column there; `column`: its column): its candidates among the cell's peers (weight
    /// 2) and the bivalue peers among them, which become naked singles (weight 5).
    #[inline(always)]
    fn gain(&self, digit: usize, inside: u32, column: u32) -> u32 {
        let [p0, p1, p2] = self.pairs;
        let (w0, w1, w2) = (self.own[digit], self.others.0[digit], self.others.1[digit]);
        // The cell's peers in its band and its column in the other two bands, shifted apart so
        // that one count covers both.
        let inside = w0 & inside;
        let outside = (w1 & column) | (w2 & column) << 1;
        let seen = u64::from(outside) << 32 | u64::from(inside);
        let outside_pairs = (w1 & p1 & column) | (w2 & p2 & column) << 1;
        let seen_pairs = u64::from(outside_pairs) << 32 | u64::from(inside & p0);
        2 * seen.count_ones() + 5 * seen_pairs.count_ones()
    }
}
