//! The fast path for 9x9 grids: band-oriented bitboards with table-driven propagation.
//!
//! # Layout
//!
//! The grid is cut into three bands of three rows. For each digit and band, one `u32` holds the 27
//! cells of the band where the digit may still go, bit `row_in_band * 9 + column`. A cell's bit in its
//! band is therefore just its row-major index minus `27 * band`. Twenty-seven such words (9 digits x 3
//! bands), a mask of unsolved cells per band and two 27-bit masks of words changed since band
//! consistency and the stack pass last saw them make the whole search state: 128 bytes, copied on each
//! guess instead of being undone, so the search never needs an undo log.
//!
//! A placed digit keeps its bit (and every other digit loses it), so at every moment each digit must
//! keep at least one bit in every row, column and box.
//!
//! # Propagation
//!
//! 1. **Band consistency** (per digit and band, only when the word changed since it was last looked
//!    at): in a band a digit takes exactly one cell in each of the three rows and each of the three
//!    boxes, so the (row, box) pairs it uses form one of six permutations. A table, indexed by the
//!    9-bit pattern of (row, box) segments that still hold a candidate, gives the cells that belong to
//!    at least one possible permutation. Masking with it performs pointing and claiming (locked
//!    candidates) inside the band and box hidden singles, and an empty result is a contradiction.
//!    A row left with one candidate is a hidden single: the digit is placed, which clears its column in
//!    the other two bands, its row, column and box in this band, and the cell in the other digits.
//! 2. **Naked singles**: bit-sliced counting over the nine digit words of a band finds, for all 27 cells
//!    at once, the cells with no candidate (contradiction) and those with exactly one (placed).
//! 3. **Stacks and column hidden singles** (per digit, only when one of its words changed since the
//!    last pass): locked candidates in the column direction, then a column whose candidates lie in one
//!    band and one row of it.
//!
//! # Search
//!
//! When propagation stalls, the search branches on a bivalue cell (there almost always is one; else a
//! cell with the fewest candidates), choosing the one where either branch promises the most: its
//! digits' candidates among its peers, and the bivalue peers that placing them makes naked singles. It
//! pushes a copy of the state with the cell's other digit placed (or, on a cell with more than two,
//! the first candidate removed), then places the first candidate.
//! Backtracking pops the copy. There is no recursion, and the stack is kept per thread between solves,
//! so steady-state solving does not allocate.
//!
//! # Code paths
//!
//! The search is compiled twice: for x86-64-v3 (BMI2's `pext` gathers a word's live segments in one
//! instruction; BMI1, POPCNT and LZCNT serve the bit loops) and portably. [`solve`] picks at run time,
//! so the default build is as fast as a `target-cpu=native` one on any recent x86-64 CPU. The two
//! paths take the same decisions; the tests check they give the same outcomes, guess for guess.

use super::{Limiter, Mode, Options, Outcome};
use crate::grid::{Grid, Shape};

// Issue 12: searches from caller-kept givens, with a digit excluded at a cell, for the generator.
// Kept in a child module so that this file's internals stay as they are.
pub(super) mod dig;

/// All 27 cells of a band.
const BAND: u32 = (1 << 27) - 1;
/// One row of a band (columns 0-8).
const ROW: u32 = 0x1FF;
/// Multiplying a 9-bit column set by this copies it to all three rows of a band.
const COLUMN_SPREAD: u32 = 1 | 1 << 9 | 1 << 18;
/// The first box of a band: three columns in each of three rows.
const BOX0: u32 = 0b111 * COLUMN_SPREAD;

/// For a 9-bit row, the boxes (bit 0, 1, 2) where it has any bit.
static BOXES_OF_ROW: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut i = 0;
    while i < 512 {
        table[i] = ((i & 0o7 != 0) as u8)
            | (((i & 0o70 != 0) as u8) << 1)
            | (((i & 0o700 != 0) as u8) << 2);
        i += 1;
    }
    table
};

/// For a 3-bit set of boxes, the band cells they cover.
static BOX_CELLS: [u32; 8] = {
    let mut table = [0u32; 8];
    let mut i = 0;
    while i < 8 {
        let mut b = 0;
        while b < 3 {
            if i & (1 << b) != 0 {
                table[i] |= BOX0 << (3 * b);
            }
            b += 1;
        }
        i += 1;
    }
    table
};

/// For a 9-bit pattern of live (row, box) segments of one digit in one band (bit `row * 3 + box`), the
/// band cells in segments used by at least one of the six row-to-box permutations the pattern still
/// allows; 0 when it allows none.
static PERMUTATION_CELLS: [u32; 512] = {
    const PERMUTATIONS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut table = [0u32; 512];
    let mut live = 0;
    while live < 512 {
        let mut p = 0;
        while p < 6 {
            let perm = PERMUTATIONS[p];
            let mut fits = true;
            let mut cells = 0u32;
            let mut row = 0;
            while row < 3 {
                if live & (1 << (row * 3 + perm[row])) == 0 {
                    fits = false;
                }
                cells |= 0b111 << (row * 9 + perm[row] * 3);
                row += 1;
            }
            if fits {
                table[live] |= cells;
            }
            p += 1;
        }
        live += 1;
    }
    table
};

/// The same permutation rule on a bare 9-bit pattern (bit `line * 3 + block`): the segments used by at
/// least one permutation. Used for stacks, where the lines are bands and the blocks are columns.
static PERMUTATION_SEGMENTS: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut live = 0;
    while live < 512 {
        let cells = PERMUTATION_CELLS[live];
        let mut seg = 0;
        while seg < 9 {
            if cells & (1 << ((seg / 3) * 9 + (seg % 3) * 3)) != 0 {
                table[live] |= 1 << seg;
            }
            seg += 1;
        }
        live += 1;
    }
    table
};

/// For a cell of a band (0-26): the band cells in its row or box (its column within the band lies in
/// its box).
static PEERS_IN_BAND: [u32; 27] = {
    let mut table = [0u32; 27];
    let mut cell = 0;
    while cell < 27 {
        table[cell] = (ROW << (9 * (cell / 9))) | (BOX0 << (3 * (cell % 9 / 3)));
        cell += 1;
    }
    table
};

/// The live (row, box) segments of a band word, bit `row * 3 + box`. `BMI2` says whether the caller
/// runs on a CPU with BMI2 (see [`solve`]): one `pext` then replaces three table look-ups.
#[inline(always)]
fn segments<const BMI2: bool>(word: u32) -> usize {
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // Bit 3k of `any` is set when segment k holds a bit; one `pext` gathers the nine of them.
        let any = word | word >> 1 | word >> 2;
        // SAFETY: `segments::<true>` is only reached from `search_v3`, which `solve` calls only after
        // checking at run time that the CPU has BMI2.
        return (unsafe { core::arch::x86_64::_pext_u32(any, 0o111_111_111) }) as usize;
    }
    usize::from(BOXES_OF_ROW[(word & ROW) as usize])
        | usize::from(BOXES_OF_ROW[((word >> 9) & ROW) as usize]) << 3
        | usize::from(BOXES_OF_ROW[(word >> 18) as usize]) << 6
}

/// The columns (9 bits) where a band word has any bit.
#[inline(always)]
fn columns(word: u32) -> u32 {
    (word | word >> 9 | word >> 18) & ROW
}

/// The whole rows of the band that hold any bit of `word`.
#[inline(always)]
fn rows_of(word: u32) -> u32 {
    let r0 = if word & ROW != 0 { ROW } else { 0 };
    let r1 = if word & (ROW << 9) != 0 { ROW << 9 } else { 0 };
    let r2 = if word & (ROW << 18) != 0 {
        ROW << 18
    } else {
        0
    };
    r0 | r1 | r2
}

/// The bits of `word` that are alone in their row of the band.
#[inline(always)]
fn single_rows(word: u32) -> u32 {
    let mut singles = 0;
    let mut shift = 0;
    while shift < 27 {
        let row = word & (ROW << shift);
        if row & row.wrapping_sub(1) == 0 {
            singles |= row;
        }
        shift += 9;
    }
    singles
}

/// All 27 `cand` words, as a mask of word indexes.
const ALL_WORDS: u32 = (1 << 27) - 1;

/// The index in `cand` of `digit`'s word for `band`. Band-major, so that a band's nine digit words
/// are adjacent: placing a digit clears a cell from all nine at once (one AVX2 register and one word
/// on the x86-64-v3 path), and the words it changed are nine adjacent bits of the change masks.
#[inline(always)]
const fn at(digit: usize, band: usize) -> usize {
    band * 9 + digit
}

/// For each band, the other two, in order after it.
const OTHER_BANDS: [(usize, usize); 3] = [(1, 2), (2, 0), (0, 1)];

/// A digit's three words (digit 0's; shift left by the digit), as a mask of word indexes.
const DIGIT_WORDS: u32 = 1 | 1 << 9 | 1 << 18;

/// The search state: candidates per digit and band, the unsolved cells, and which words changed since
/// band consistency and the stack pass last looked at them.
#[derive(Clone, Copy)]
struct State {
    /// `cand[at(digit, band)]`: cells of the band where the digit (0-based) may go.
    cand: [u32; 27],
    /// Cells of each band not yet placed.
    unsolved: [u32; 3],
    /// Bit `i` set: `cand[i]` changed since band consistency last passed on it.
    unbanded: u32,
    /// Bit `i` set: `cand[i]` changed since the stack pass last passed on its digit.
    unstacked: u32,
}

impl State {
    /// The state before any given: every digit possible everywhere, nothing checked.
    const OPEN: State = State {
        cand: [BAND; 27],
        unsolved: [BAND; 3],
        unbanded: ALL_WORDS,
        unstacked: ALL_WORDS,
    };

    /// Sets `cand[i]` to `word`, recording the change for band consistency and the stack pass.
    #[inline(always)]
    fn set(&mut self, i: usize, word: u32) {
        let changed = u32::from(self.cand[i] != word) << i;
        self.cand[i] = word;
        self.unbanded |= changed;
        self.unstacked |= changed;
    }

    /// Clears `mask` from `cand[i]`, returning the bit `i` if that removed anything.
    #[inline(always)]
    fn clear(&mut self, i: usize, mask: u32) -> u32 {
        let word = self.cand[i];
        self.cand[i] = word & !mask;
        u32::from(word & mask != 0) << i
    }

    /// Places `digit` on the cells `cells` of `band`: clears their columns in the other bands, their
    /// rows, columns and boxes in this band, and the cells in the other digits. The cells must hold
    /// `digit` as a candidate and lie in different rows, columns and boxes. Records the words it
    /// changed in `unbanded` and `unstacked`, and returns them. `BMI2` picks the code path of
    /// [`State::clear_band`].
    #[inline(always)]
    fn place<const BMI2: bool>(&mut self, digit: usize, band: usize, cells: u32) -> u32 {
        let cols = columns(cells);
        let col_cells = cols * COLUMN_SPREAD;
        let box_cells = BOX_CELLS[usize::from(BOXES_OF_ROW[cols as usize])];
        // The digit's own word: its cells' rows and boxes (which hold their columns in this band)
        // cleared, the cells kept. Read before the band's words are cleared, written after.
        let own = at(digit, band);
        let own_old = self.cand[own];
        let own_new = (own_old & !(box_cells | rows_of(cells))) | cells;
        // Gather the changed words in a local and record them once: updating the fields word by word
        // chains a dozen read-modify-writes through memory.
        // The column clear runs over the digit's own word too, without a data-dependent branch to
        // skip it; that word is then rewritten from its old value, and its change bit recomputed.
        // The column clears come after the band's vector store: a wide load must not read words
        // while narrow stores to them are still pending.
        let mut changed = self.clear_band::<BMI2>(band, cells);
        for b in 0..3 {
            changed |= self.clear(at(digit, b), col_cells);
        }
        self.cand[own] = own_new;
        changed = (changed & !(1 << own)) | u32::from(own_new != own_old) << own;
        self.unsolved[band] &= !cells;
        self.unbanded |= changed;
        self.unstacked |= changed;
        changed
    }

    /// Clears `cells` from the nine digit words of `band`, returning the bits of the words that lost
    /// any. On the x86-64-v3 path (`BMI2`), digits 1-8's words are one AVX2 register: one load, one
    /// and-not, one store and a sign mask for their change bits, then the ninth word alone.
    #[inline(always)]
    fn clear_band<const BMI2: bool>(&mut self, band: usize, cells: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        if BMI2 {
            // SAFETY: `BMI2` is true only under `search_v3`, which `solve` calls only after checking
            // at run time that the CPU has AVX2; the 32-byte access covers `cand[at(0, band)]` to
            // `cand[at(7, band)]`, inside the array.
            unsafe {
                use core::arch::x86_64::*;
                let words = self.cand.as_mut_ptr().add(at(0, band)).cast::<__m256i>();
                let old = _mm256_loadu_si256(words);
                let mask = _mm256_set1_epi32(cells as i32);
                _mm256_storeu_si256(words, _mm256_andnot_si256(mask, old));
                let kept = _mm256_cmpeq_epi32(_mm256_and_si256(old, mask), _mm256_setzero_si256());
                let hit = !(_mm256_movemask_ps(_mm256_castsi256_ps(kept)) as u32) & 0xFF;
                return (hit << at(0, band)) | self.clear(at(8, band), cells);
            }
        }
        let mut changed = 0;
        for d in 0..9 {
            changed |= self.clear(at(d, band), cells);
        }
        changed
    }

    /// Runs band consistency on every changed word (lowest index first) until none changes; false on a
    /// contradiction.
    #[inline(always)]
    fn settle_bands<const BMI2: bool>(&mut self) -> bool {
        // The work list lives in a local: the next word to look at should not wait on a store.
        let mut dirty = self.unbanded;
        while dirty != 0 {
            let i = dirty.trailing_zeros() as usize;
            dirty &= dirty - 1;
            let old = self.cand[i];
            let word = old & PERMUTATION_CELLS[segments::<BMI2>(old)];
            if word == 0 {
                return false;
            }
            self.cand[i] = word;
            self.unstacked |= u32::from(word != old) << i;
            let band = i / 9;
            let singles = single_rows(word) & self.unsolved[band];
            if singles != 0 {
                // Singles lie in different rows and (by the permutation) boxes; two in one column
                // contradict each other.
                let (r0, r1, r2) = (singles & ROW, (singles >> 9) & ROW, singles >> 18);
                if (r0 & r1) | (r0 & r2) | (r1 & r2) != 0 {
                    return false;
                }
                dirty |= self.place::<BMI2>(i % 9, band, singles);
            }
        }
        self.unbanded = 0;
        true
    }

    /// The cells of `band` with at least one, at least two and at least three candidates.
    ///
    /// Counts over the band's nine digit words, saturating at three. On the x86-64-v3 path
    /// (`BMI2`), digits 1-8's words are one AVX2 register, folded in three halving steps (eight
    /// lanes to four, two, one), then the ninth word is added: about half the instructions of a
    /// loop over nine words.
    #[inline(always)]
    fn counts<const BMI2: bool>(&self, band: usize) -> [u32; 3] {
        #[cfg(target_arch = "x86_64")]
        if BMI2 {
            // SAFETY: `BMI2` is true only under `search_v3`, which `solve` calls only after checking
            // at run time that the CPU has AVX2; the 32-byte load covers `cand[at(0, band)]` to
            // `cand[at(7, band)]`, inside the array.
            unsafe {
                use core::arch::x86_64::*;
                let words = _mm256_loadu_si256(self.cand.as_ptr().add(at(0, band)).cast());
                let (a, b) = (
                    _mm256_castsi256_si128(words),
                    _mm256_extracti128_si256::<1>(words),
                );
                // Eight lanes to four: at least one, at least two.
                let (one, two) = (_mm_or_si128(a, b), _mm_and_si128(a, b));
                // Four to two: lanes 0, 1 with 2, 3.
                let (one_, two_) = (
                    _mm_shuffle_epi32::<0b01_00_11_10>(one),
                    _mm_shuffle_epi32::<0b01_00_11_10>(two),
                );
                let three = _mm_or_si128(_mm_and_si128(two, one_), _mm_and_si128(one, two_));
                let two = _mm_or_si128(_mm_or_si128(two, two_), _mm_and_si128(one, one_));
                let one = _mm_or_si128(one, one_);
                // Two to one: lane 0 with 1.
                let (one_, two_, three_) = (
                    _mm_shuffle_epi32::<0b10_11_00_01>(one),
                    _mm_shuffle_epi32::<0b10_11_00_01>(two),
                    _mm_shuffle_epi32::<0b10_11_00_01>(three),
                );
                let three = _mm_or_si128(
                    _mm_or_si128(three, three_),
                    _mm_or_si128(_mm_and_si128(two, one_), _mm_and_si128(one, two_)),
                );
                let two = _mm_or_si128(_mm_or_si128(two, two_), _mm_and_si128(one, one_));
                let one = _mm_or_si128(one, one_);
                let (one, two, three) = (
                    _mm_cvtsi128_si32(one) as u32,
                    _mm_cvtsi128_si32(two) as u32,
                    _mm_cvtsi128_si32(three) as u32,
                );
                let ninth = self.cand[at(8, band)];
                return [one | ninth, two | (one & ninth), three | (two & ninth)];
            }
        }
        let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
        for d in 0..9 {
            let word = self.cand[at(d, band)];
            three |= two & word;
            two |= one & word;
            one |= word;
        }
        [one, two, three]
    }

    /// Places naked singles of all bands; `Some(true)` if any was placed, `None` on a contradiction.
    #[inline(always)]
    fn naked_singles<const BMI2: bool>(&mut self) -> Option<bool> {
        let mut singles = [0u32; 3];
        for (band, singles) in singles.iter_mut().enumerate() {
            let unsolved = self.unsolved[band];
            let [ones, twos, _] = self.counts::<BMI2>(band);
            if unsolved & !ones != 0 {
                return None;
            }
            *singles = unsolved & !twos;
        }
        if singles == [0; 3] {
            return Some(false);
        }
        for (band, &singles) in singles.iter().enumerate() {
            for d in 0..9 {
                let mut cells = self.cand[at(d, band)] & singles;
                while cells != 0 {
                    let cell = cells & cells.wrapping_neg();
                    cells ^= cell;
                    // An earlier single of the same digit may have taken this cell's only candidate.
                    // (A single that lost it to an earlier band is left empty, which the next round
                    // finds.)
                    if self.cand[at(d, band)] & cell == 0 {
                        return None;
                    }
                    self.place::<BMI2>(d, band, cell);
                }
            }
        }
        Some(true)
    }

    /// Stack consistency and column hidden singles, per digit. In a stack (three columns of boxes) a
    /// digit takes one cell in each column and each band, so the (band, column) pairs it uses form a
    /// permutation, exactly as (row, box) pairs do in a band: this is locked candidates in the column
    /// direction. Then a column whose candidates lie in one cell is a hidden single. `Some(true)` if
    /// anything changed, `None` on a contradiction.
    #[inline(always)]
    fn stacks_and_columns<const BMI2: bool>(&mut self) -> Option<bool> {
        let mut changed = false;
        let mut first = 0;
        #[cfg(target_arch = "x86_64")]
        if BMI2 {
            // SAFETY: `BMI2` is true only under `search_v3`, which `solve` calls only after checking
            // at run time that the CPU has AVX2.
            changed = unsafe { self.stacks_and_columns_wide() }?;
            first = 8;
        }
        for d in first..9 {
            // A digit whose words did not change since its last pass has nothing new to give.
            if self.unstacked & (DIGIT_WORDS << d) == 0 {
                continue;
            }
            self.unstacked &= !(DIGIT_WORDS << d);
            let words = [
                self.cand[at(d, 0)],
                self.cand[at(d, 1)],
                self.cand[at(d, 2)],
            ];
            let cols = [columns(words[0]), columns(words[1]), columns(words[2])];
            let mut allowed = [0u32; 3];
            #[cfg(target_arch = "x86_64")]
            if BMI2 {
                // The three column sets side by side (bit `band * 9 + column`): one `pext` per stack
                // gathers its (band, column) pattern, one `pdep` spreads the allowed segments back.
                // SAFETY: `BMI2` is true only under `search_v3`, which `solve` calls only after
                // checking at run time that the CPU has BMI2.
                unsafe {
                    use core::arch::x86_64::{_pdep_u32, _pext_u32};
                    let all = cols[0] | cols[1] << 9 | cols[2] << 18;
                    let mut spread = 0u32;
                    for stack in 0..3 {
                        let mask = (0b111 * COLUMN_SPREAD) << (3 * stack);
                        let live = _pext_u32(all, mask);
                        let segments = u32::from(PERMUTATION_SEGMENTS[live as usize]);
                        if segments == 0 {
                            return None;
                        }
                        spread |= _pdep_u32(segments, mask);
                    }
                    allowed = [spread & ROW, (spread >> 9) & ROW, spread >> 18];
                }
            }
            if !BMI2 || cfg!(not(target_arch = "x86_64")) {
                for stack in 0..3 {
                    let shift = 3 * stack;
                    let live = ((cols[0] >> shift) & 7)
                        | ((cols[1] >> shift) & 7) << 3
                        | ((cols[2] >> shift) & 7) << 6;
                    let segments = u32::from(PERMUTATION_SEGMENTS[live as usize]);
                    if segments == 0 {
                        return None;
                    }
                    allowed[0] |= (segments & 7) << shift;
                    allowed[1] |= ((segments >> 3) & 7) << shift;
                    allowed[2] |= ((segments >> 6) & 7) << shift;
                }
            }
            let mut once = [0u32; 3];
            let (mut any, mut many) = (0u32, 0u32);
            for b in 0..3 {
                let word = words[b] & (allowed[b] * COLUMN_SPREAD);
                self.cand[at(d, b)] = word;
                let narrowed = word != words[b];
                self.unbanded |= u32::from(narrowed) << at(d, b);
                changed |= narrowed;
                let (r0, r1, r2) = (word & ROW, (word >> 9) & ROW, word >> 18);
                let in_band = r0 | r1 | r2;
                // Columns with exactly one candidate row in this band.
                once[b] = (r0 ^ r1 ^ r2) & !((r0 & r1) | (r0 & r2) | (r1 & r2));
                many |= any & in_band;
                any |= in_band;
            }
            let alone = !many & ROW;
            for (b, &one) in once.iter().enumerate() {
                let mut cells =
                    self.cand[at(d, b)] & ((alone & one) * COLUMN_SPREAD) & self.unsolved[b];
                while cells != 0 {
                    let cell = cells & cells.wrapping_neg();
                    cells ^= cell;
                    if self.cand[at(d, b)] & cell == 0 {
                        return None;
                    }
                    self.place::<BMI2>(d, b, cell);
                    changed = true;
                }
            }
        }
        Some(changed)
    }

    /// [`State::stacks_and_columns`] for digits 1-8 at once, one AVX2 lane per digit (the x86-64-v3
    /// path; the caller does the ninth digit). The permutation rule is computed rather than looked
    /// up, so that no lane needs a table: in a stack's 3x3 pattern of live (band, column) pairs, a
    /// pair is used by some permutation exactly when it is live and the other two bands can be
    /// matched to the other two columns, which rotating the pattern by one and two bands and
    /// columns gives for all nine pairs at once. `Some(true)` if anything changed, `None` on a
    /// contradiction.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn stacks_and_columns_wide(&mut self) -> Option<bool> {
        use core::arch::x86_64::*;
        use lanes::{after_column, next_column, or3, spread_rows};
        const LANES: u32 = DIGIT_WORDS * 0xFF;
        if self.unstacked & LANES == 0 {
            return Some(false);
        }
        self.unstacked &= !LANES;
        // SAFETY (whole body): the caller guarantees AVX2; each 32-byte access covers
        // `cand[at(0, band)]` to `cand[at(7, band)]`, inside the array.
        unsafe {
            let base = self.cand.as_mut_ptr();
            let words = [
                _mm256_loadu_si256(base.add(at(0, 0)).cast::<__m256i>()),
                _mm256_loadu_si256(base.add(at(0, 1)).cast::<__m256i>()),
                _mm256_loadu_si256(base.add(at(0, 2)).cast::<__m256i>()),
            ];
            let row = _mm256_set1_epi32(ROW as i32);
            let band_cells = _mm256_set1_epi32(BAND as i32);
            // Columns per band, then all three side by side: bit `band * 9 + column`.
            let mut cols = words;
            for c in &mut cols {
                *c = _mm256_and_si256(
                    or3(*c, _mm256_srli_epi32::<9>(*c), _mm256_srli_epi32::<18>(*c)),
                    row,
                );
            }
            let all = or3(
                cols[0],
                _mm256_slli_epi32::<9>(cols[1]),
                _mm256_slli_epi32::<18>(cols[2]),
            );
            // The pattern seen from the next band and the one after (band b takes b+1, b+2).
            let next_band = _mm256_and_si256(
                _mm256_or_si256(_mm256_srli_epi32::<9>(all), _mm256_slli_epi32::<18>(all)),
                band_cells,
            );
            let after_band = _mm256_and_si256(
                _mm256_or_si256(_mm256_srli_epi32::<18>(all), _mm256_slli_epi32::<9>(all)),
                band_cells,
            );
            // The same inside each stack's three columns (column j takes j+1, j+2).
            let matched = _mm256_or_si256(
                _mm256_and_si256(next_column(next_band), after_column(after_band)),
                _mm256_and_si256(after_column(next_band), next_column(after_band)),
            );
            let allowed = _mm256_and_si256(all, matched);
            // A stack with no allowed pair has no permutation left: a contradiction.
            let any_column = _mm256_and_si256(
                or3(
                    allowed,
                    _mm256_srli_epi32::<9>(allowed),
                    _mm256_srli_epi32::<18>(allowed),
                ),
                row,
            );
            let stacks = _mm256_and_si256(
                or3(
                    any_column,
                    _mm256_srli_epi32::<1>(any_column),
                    _mm256_srli_epi32::<2>(any_column),
                ),
                _mm256_set1_epi32(0o111),
            );
            let whole = _mm256_cmpeq_epi32(stacks, _mm256_set1_epi32(0o111));
            if _mm256_movemask_ps(_mm256_castsi256_ps(whole)) != 0xFF {
                return None;
            }
            let allowed_in = [
                _mm256_and_si256(allowed, row),
                _mm256_and_si256(_mm256_srli_epi32::<9>(allowed), row),
                _mm256_srli_epi32::<18>(allowed),
            ];
            let mut changed = false;
            let mut narrowed = [words[0]; 3];
            let mut once = [words[0]; 3];
            let (mut any, mut many) = (_mm256_setzero_si256(), _mm256_setzero_si256());
            for b in 0..3 {
                let word = _mm256_and_si256(words[b], spread_rows(allowed_in[b]));
                _mm256_storeu_si256(base.add(at(0, b)).cast::<__m256i>(), word);
                let same = _mm256_cmpeq_epi32(word, words[b]);
                let lanes = !(_mm256_movemask_ps(_mm256_castsi256_ps(same)) as u32) & 0xFF;
                self.unbanded |= lanes << at(0, b);
                changed |= lanes != 0;
                narrowed[b] = word;
                let r0 = _mm256_and_si256(word, row);
                let r1 = _mm256_and_si256(_mm256_srli_epi32::<9>(word), row);
                let r2 = _mm256_srli_epi32::<18>(word);
                let in_band = or3(r0, r1, r2);
                // Columns with exactly one candidate row in this band.
                let twice = or3(
                    _mm256_and_si256(r0, r1),
                    _mm256_and_si256(r0, r2),
                    _mm256_and_si256(r1, r2),
                );
                once[b] =
                    _mm256_andnot_si256(twice, _mm256_xor_si256(_mm256_xor_si256(r0, r1), r2));
                many = _mm256_or_si256(many, _mm256_and_si256(any, in_band));
                any = _mm256_or_si256(any, in_band);
            }
            let alone = _mm256_andnot_si256(many, row);
            let mut singles = [[0u32; 8]; 3];
            let mut found = _mm256_setzero_si256();
            for b in 0..3 {
                let cells = _mm256_and_si256(
                    _mm256_and_si256(narrowed[b], spread_rows(_mm256_and_si256(alone, once[b]))),
                    _mm256_set1_epi32(self.unsolved[b] as i32),
                );
                found = _mm256_or_si256(found, cells);
                _mm256_storeu_si256(singles[b].as_mut_ptr().cast::<__m256i>(), cells);
            }
            if _mm256_testz_si256(found, found) == 0 {
                for d in 0..8 {
                    for (b, singles) in singles.iter().enumerate() {
                        let mut cells = singles[d];
                        while cells != 0 {
                            let cell = cells & cells.wrapping_neg();
                            cells ^= cell;
                            if self.cand[at(d, b)] & cell == 0 {
                                return None;
                            }
                            self.place::<true>(d, b, cell);
                            changed = true;
                        }
                    }
                }
            }
            Some(changed)
        }
    }

    /// Propagates to a fixed point; false on a contradiction.
    #[inline(always)]
    fn propagate<const BMI2: bool>(&mut self) -> bool {
        loop {
            if !self.settle_bands::<BMI2>() {
                return false;
            }
            match self.naked_singles::<BMI2>() {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            if self.is_solved() {
                return true;
            }
            match self.stacks_and_columns::<BMI2>() {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    #[inline(always)]
    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// A cell to branch on and its first candidate. Only called on a settled, unsolved state.
    ///
    /// Among the bivalue cells (almost always there are some), the one whose two digits have the most
    /// candidates among the cell's peers: whichever branch is taken, placing its digit eliminates the
    /// most, so both sides of the guess propagate furthest. On the hardest puzzles this shrinks the
    /// search tree by about 40% against taking the first bivalue cell. Without a bivalue cell, a cell
    /// with the fewest candidates.
    #[inline(always)]
    fn pick<const BMI2: bool>(&self) -> Guess {
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

    /// The grid of a solved state: digits 1-9 in row-major order.
    fn cells(&self) -> [u8; 81] {
        let mut out = [0u8; 81];
        for d in 0..9 {
            for band in 0..3 {
                let mut word = self.cand[at(d, band)];
                while word != 0 {
                    out[band * 27 + word.trailing_zeros() as usize] = d as u8 + 1;
                    word &= word - 1;
                }
            }
        }
        out
    }

    /// The state after placing the givens, or `None` if two givens clash.
    ///
    /// Builds every word at once from each digit's givens rather than placing them one by one
    /// (callgrind: about 1.6% fewer instructions over a whole solve of the several-solutions set).
    /// The result is the state [`State::place`] would leave: a given keeps only its own digit, and
    /// each digit loses its givens' columns, and their rows and boxes in their band.
    /// `BMI2` picks the code path of [`givens_words`].
    #[inline(always)]
    fn from_givens<const BMI2: bool>(givens: &[u8]) -> Option<State> {
        let (placed, taken) = givens_words::<BMI2>(givens);
        State::from_words(&placed, taken)
    }

    /// The state after placing givens written as words (`placed`: per digit and band the cells
    /// holding it, at `digit * 3 + band`; `taken`: per band the cells holding any digit); `None` if two
    /// givens of one digit clash. The caller sees that no cell holds two digits.
    #[inline(always)]
    fn from_words(placed: &[u32; 27], taken: [u32; 3]) -> Option<State> {
        let mut state = State::OPEN;
        for d in 0..9 {
            let base = d * 3;
            let words = [placed[base], placed[base + 1], placed[base + 2]];
            // Two givens of one digit in a row, a column or a box clash.
            let mut clash = 0u32;
            let mut all_columns = 0u32;
            for &word in &words {
                let (r0, r1, r2) = (word & ROW, (word >> 9) & ROW, word >> 18);
                clash |= (r0 & r1) | (r0 & r2) | (r1 & r2) | (all_columns & (r0 | r1 | r2));
                all_columns |= r0 | r1 | r2;
                for k in 0..3 {
                    let row = word & (ROW << (9 * k));
                    let block = word & (BOX0 << (3 * k));
                    clash |= (row & row.wrapping_sub(1)) | (block & block.wrapping_sub(1));
                }
            }
            if clash != 0 {
                return None;
            }
            let column_cells = all_columns * COLUMN_SPREAD;
            for (band, &word) in words.iter().enumerate() {
                let boxes = BOX_CELLS[usize::from(BOXES_OF_ROW[columns(word) as usize])];
                state.cand[at(d, band)] =
                    (BAND & !taken[band] & !column_cells & !rows_of(word) & !boxes) | word;
            }
        }
        state.unsolved = taken.map(|cells| BAND & !cells);
        Some(state)
    }
}

/// The givens of `givens` (row-major, 0 or out of range for a blank; only the first 81 count) as
/// words: per digit and band the cells holding it (at `digit * 3 + band`), and per band the cells holding any
/// digit.
///
/// On the x86-64-v3 path, one AVX2 byte comparison per digit and band finds a band's 27 cells at
/// once, instead of a branch per cell: on 17-clue puzzles the cell loop was about a tenth of a solve.
#[inline(always)]
fn givens_words<const BMI2: bool>(givens: &[u8]) -> ([u32; 27], [u32; 3]) {
    let mut placed = [0u32; 27];
    #[cfg(target_arch = "x86_64")]
    if BMI2 && givens.len() >= 81 {
        // SAFETY: `BMI2` is true only under `search_v3`, which `solve` calls only after checking at
        // run time that the CPU has AVX2; the three 32-byte loads start at bytes 0, 27 and 49, so
        // the last ends at byte 80 of a slice of at least 81.
        unsafe {
            use core::arch::x86_64::*;
            let at = givens.as_ptr();
            // Band `b`'s cells are bytes `27 b` to `27 b + 26`; the third band's load starts five
            // bytes early so as not to read past the 81st byte, and its mask is shifted back.
            let bands = [
                _mm256_loadu_si256(at.cast::<__m256i>()),
                _mm256_loadu_si256(at.add(27).cast::<__m256i>()),
                _mm256_loadu_si256(at.add(49).cast::<__m256i>()),
            ];
            for d in 0..9 {
                let value = _mm256_set1_epi8(d as i8 + 1);
                for (band, &bytes) in bands.iter().enumerate() {
                    let hits = _mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, value)) as u32;
                    placed[d * 3 + band] = if band == 2 { hits >> 5 } else { hits & BAND };
                }
            }
        }
    } else {
        placed = givens_words_scalar(givens);
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        placed = givens_words_scalar(givens);
    }
    let mut taken = [0u32; 3];
    for words in placed.chunks_exact(3) {
        for (band, &word) in words.iter().enumerate() {
            taken[band] |= word;
        }
    }
    (placed, taken)
}

/// [`givens_words`]' digit words, one cell at a time (the portable path).
#[inline(always)]
fn givens_words_scalar(givens: &[u8]) -> [u32; 27] {
    let mut placed = [0u32; 27];
    for (index, &value) in givens.iter().enumerate().take(81) {
        if value == 0 || value > 9 {
            continue;
        }
        let (band, cell) = (index / 27, 1u32 << (index % 27));
        placed[usize::from(value - 1) * 3 + band] |= cell;
    }
    placed
}

/// Helpers of the AVX2 code, one lane per digit. Plain functions rather than closures: a closure
/// is compiled without the caller's target features and, when not inlined, turns every intrinsic
/// into a call (as it did in the server binary). `#[inline(always)]` puts them, like the other
/// helpers of the search, inside `search_v3` and its features.
#[cfg(target_arch = "x86_64")]
mod lanes {
    use core::arch::x86_64::*;

    /// `a | b | c`.
    #[inline(always)]
    pub(super) fn or3(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        // SAFETY: only reached from `search_v3`, whose CPU has AVX2.
        unsafe { _mm256_or_si256(_mm256_or_si256(a, b), c) }
    }

    /// A 9-bit set copied to all three rows of a band (bits `row * 9`).
    #[inline(always)]
    pub(super) fn spread_rows(x: __m256i) -> __m256i {
        // SAFETY: as for `or3`.
        unsafe { or3(x, _mm256_slli_epi32::<9>(x), _mm256_slli_epi32::<18>(x)) }
    }

    /// In each group of three bits, bit `j` takes bit `j + 1` (mod 3).
    #[inline(always)]
    pub(super) fn next_column(x: __m256i) -> __m256i {
        // SAFETY: as for `or3`.
        unsafe {
            _mm256_or_si256(
                _mm256_and_si256(_mm256_srli_epi32::<1>(x), _mm256_set1_epi32(0o333_333_333)),
                _mm256_and_si256(_mm256_slli_epi32::<2>(x), _mm256_set1_epi32(0o444_444_444)),
            )
        }
    }

    /// In each group of three bits, bit `j` takes bit `j + 2` (mod 3).
    #[inline(always)]
    pub(super) fn after_column(x: __m256i) -> __m256i {
        // SAFETY: as for `or3`.
        unsafe {
            _mm256_or_si256(
                _mm256_and_si256(_mm256_srli_epi32::<2>(x), _mm256_set1_epi32(0o111_111_111)),
                _mm256_and_si256(_mm256_slli_epi32::<1>(x), _mm256_set1_epi32(0o666_666_666)),
            )
        }
    }
}

/// A guess: `digit` on the cell `cell` of `band`, and the cell's only other digit if it has one.
#[derive(Clone, Copy)]
struct Guess {
    band: usize,
    cell: u32,
    digit: usize,
    only_other: Option<usize>,
}

std::thread_local! {
    /// The guess stack of the last solve on this thread, kept so that steady-state solving does not
    /// allocate. A nested or panicking solve finds it taken and starts a new one.
    static STACK: std::cell::Cell<Vec<State>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Solves a 9x9 `puzzle` (the caller has checked the shape) on the best code path this CPU offers.
///
/// The choice is made at run time, so the portable binary that `cargo build --release`, `cargo install`
/// and the Dockerfile produce runs as fast as one built with `-C target-cpu=native`: on an x86-64 CPU
/// with the x86-64-v3 instructions (AVX2, BMI1/2, LZCNT, POPCNT: Intel Haswell, AMD Excavator and
/// later) the search is compiled for them; anywhere else the portable path runs. Both paths make the
/// same decisions, so they give the same outcome, guess for guess.
pub(super) fn solve(puzzle: &Grid, options: &Options<'_>) -> Outcome {
    with_stack(|stack| {
        #[cfg(target_arch = "x86_64")]
        if has_v3() {
            // SAFETY: the CPU has every feature `search_v3` is compiled for.
            return unsafe { search_v3(puzzle, options, stack) };
        }
        search::<false>(puzzle, options, stack)
    })
}

/// Solves a 9x9 `puzzle` on the portable path whatever the CPU: the reference the fast path is tested
/// against.
pub(super) fn solve_portable(puzzle: &Grid, options: &Options<'_>) -> Outcome {
    with_stack(|stack| search::<false>(puzzle, options, stack))
}

/// The code path [`solve`] takes on this CPU, for reports.
pub(super) fn code_path() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if has_v3() {
        return "x86-64-v3 (AVX2, BMI2), chosen at run time";
    }
    "portable"
}

/// Whether this CPU has the instructions [`search_v3`] is compiled for. The standard library caches
/// the answer, so asking costs a few loads.
#[cfg(target_arch = "x86_64")]
#[inline]
fn has_v3() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("popcnt")
}

/// [`search`] compiled for x86-64-v3: `pext` for band consistency, `tzcnt`/`blsr`/`popcnt` for the
/// bit loops, AVX2 where the compiler vectorizes. Everything it calls is `#[inline(always)]`, so the
/// whole search is compiled with these features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn search_v3(puzzle: &Grid, options: &Options<'_>, stack: &mut Vec<State>) -> Outcome {
    search::<true>(puzzle, options, stack)
}

/// Runs `f` on this thread's guess stack, cleared.
#[inline(always)]
fn with_stack(f: impl FnOnce(&mut Vec<State>) -> Outcome) -> Outcome {
    let mut stack = STACK.take();
    stack.clear();
    stack.reserve(32);
    let outcome = f(&mut stack);
    STACK.set(stack);
    outcome
}

/// The search of [`solve`], on a cleared guess `stack`; `BMI2` says whether the CPU has BMI2.
#[inline(always)]
fn search<const BMI2: bool>(
    puzzle: &Grid,
    options: &Options<'_>,
    stack: &mut Vec<State>,
) -> Outcome {
    run::<BMI2, true>(State::from_givens::<BMI2>(puzzle.cells()), options, stack)
}

/// The search loop from a `start` state (`None`: the givens clash), on a cleared guess `stack`. The
/// outcome holds the first solution found only when `SOLUTION`: the generator's searches want only
/// the verdict and skip writing it out.
#[inline(always)]
fn run<const BMI2: bool, const SOLUTION: bool>(
    start: Option<State>,
    options: &Options<'_>,
    stack: &mut Vec<State>,
) -> Outcome {
    let mut limiter = Limiter::new(options);
    let wanted = match options.mode {
        Mode::ProveUnique => 2,
        Mode::FirstSolution => 1,
    };
    let Some(mut state) = start else {
        return limiter.finish(options.mode, None, 0);
    };
    let mut first: Option<[u8; 81]> = None;
    let mut solutions = 0u32;
    loop {
        if state.propagate::<BMI2>() {
            if state.is_solved() {
                solutions += 1;
                if SOLUTION && first.is_none() {
                    first = Some(state.cells());
                }
                if solutions >= wanted {
                    break;
                }
            } else {
                if !limiter.guess() {
                    break;
                }
                let Guess {
                    band,
                    cell,
                    digit,
                    only_other,
                } = state.pick::<BMI2>();
                // The other branch: the cell's other digit if it has only one, placed now rather than
                // found as a naked single later; else the cell without this digit.
                let mut other = state;
                match only_other {
                    Some(second) => {
                        other.place::<BMI2>(second, band, cell);
                    }
                    None => {
                        let i = at(digit, band);
                        other.set(i, other.cand[i] & !cell);
                    }
                }
                stack.push(other);
                state.place::<BMI2>(digit, band, cell);
                continue;
            }
        }
        match stack.pop() {
            Some(next) => state = next,
            None => break,
        }
    }
    let solution = first.and_then(|cells| Grid::from_cells(Shape::NINE, cells.to_vec()));
    limiter.finish(options.mode, solution, solutions)
}
