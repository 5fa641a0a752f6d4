//! The 9x9 search state (candidates per digit and band, the unsolved cells, the words changed since
//! each pass) and its propagation to a fixed point: band consistency, naked singles, and the stack
//! pass with column hidden singles. Also the state the givens start from.

use super::band::{
    BAND, BOX_CELLS, BOXES_OF_ROW, COLUMN_SPREAD, PERMUTATION_CELLS, PERMUTATION_SEGMENTS, ROW,
    columns, rows_of, rows_of_flat, segments, single_rows,
};
#[cfg(target_arch = "x86_64")]
use super::lanes;

/// All 27 `cand` words, as a mask of word indexes.
const ALL_WORDS: u32 = (1 << 27) - 1;

/// The index in `cand` of `digit`'s word for `band`. Band-major, so that a band's nine digit words
/// are adjacent: placing a digit clears a cell from all nine at once (one AVX2 register and one word
/// on the x86-64-v3 path), and the words it changed are nine adjacent bits of the change masks.
#[inline(always)]
pub(super) const fn at(digit: usize, band: usize) -> usize {
    band * 9 + digit
}

/// For each band, the other two, in order after it.
pub(super) const OTHER_BANDS: [(usize, usize); 3] = [(1, 2), (2, 0), (0, 1)];

/// A digit's three words (digit 0's; shift left by the digit), as a mask of word indexes.
const DIGIT_WORDS: u32 = 1 | 1 << 9 | 1 << 18;

/// The search state: candidates per digit and band, the unsolved cells, and which words changed since
/// band consistency and the stack pass last looked at them.
#[derive(Clone, Copy)]
pub(super) struct State {
    /// `cand[at(digit, band)]`: cells of the band where the digit (0-based) may go.
    pub(super) cand: [u32; 27],
    /// Cells of each band not yet placed.
    pub(super) unsolved: [u32; 3],
    /// Bit `i` set: `cand[i]` changed since band consistency last passed on it.
    pub(super) unbanded: u32,
    /// Bit `i` set: `cand[i]` changed since the stack pass last passed on its digit.
    pub(super) unstacked: u32,
}

impl State {
    /// The state before any given: every digit possible everywhere, nothing checked.
    pub(super) const OPEN: State = State {
        cand: [BAND; 27],
        unsolved: [BAND; 3],
        unbanded: ALL_WORDS,
        unstacked: ALL_WORDS,
    };

    /// Sets `cand[i]` to `word`, recording the change for band consistency and the stack pass.
    #[inline(always)]
    pub(super) fn set(&mut self, i: usize, word: u32) {
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
    pub(super) fn place<const BMI2: bool>(&mut self, digit: usize, band: usize, cells: u32) -> u32 {
        self.place_over::<BMI2>(digit, band, cells, self.cand[at(digit, band)])
    }

    /// [`State::place`] with `own_old` for the digit's own word in `band`, which the caller has
    /// not yet written back.
    #[inline(always)]
    fn place_over<const BMI2: bool>(
        &mut self,
        digit: usize,
        band: usize,
        cells: u32,
        own_old: u32,
    ) -> u32 {
        let cols = columns(cells);
        let col_cells = cols * COLUMN_SPREAD;
        let box_cells = BOX_CELLS[usize::from(BOXES_OF_ROW[cols as usize])];
        // The digit's own word: its cells' rows and boxes (which hold their columns in this band)
        // cleared, the cells kept. Read before the band's words are cleared, written after.
        let own = at(digit, band);
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
            let word = old & PERMUTATION_CELLS[segments(old)];
            if word == 0 {
                return false;
            }
            self.unstacked |= u32::from(word != old) << i;
            let band = i / 9;
            let singles = single_rows(word) & self.unsolved[band];
            // The narrowed word is written back here only when no single is placed: placing
            // rewrites it anyway, from the narrowed value it is given.
            if singles == 0 {
                self.cand[i] = word;
            } else {
                // Singles lie in different rows and (by the permutation) boxes; two in one column
                // contradict each other.
                let (r0, r1, r2) = (singles & ROW, (singles >> 9) & ROW, singles >> 18);
                if (r0 & r1) | (r0 & r2) | (r1 & r2) != 0 {
                    return false;
                }
                dirty |= self.place_over::<BMI2>(i % 9, band, singles, word);
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
    pub(super) fn counts<const BMI2: bool>(&self, band: usize) -> [u32; 3] {
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
            // A band whose cells are all placed has nothing to count. Where the givens fill whole
            // bands, most passes meet one.
            if unsolved == 0 {
                continue;
            }
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
            // Only the digits that hold a single: placing one digit's singles does not change
            // which cells the others hold among them, since each such cell holds one digit.
            let mut digits = self.digits_within::<BMI2>(band, singles);
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
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

    /// The digits (bit per digit) whose word of `band` holds any of `cells`. On the x86-64-v3 path
    /// (`BMI2`), digits 1-8 take one AVX2 comparison and a sign mask instead of a test each.
    #[inline(always)]
    fn digits_within<const BMI2: bool>(&self, band: usize, cells: u32) -> u32 {
        let ninth = u32::from(self.cand[at(8, band)] & cells != 0) << 8;
        #[cfg(target_arch = "x86_64")]
        if BMI2 {
            // SAFETY: `BMI2` is true only under `search_v3`, which `solve` calls only after checking
            // at run time that the CPU has AVX2; the 32-byte load covers `cand[at(0, band)]` to
            // `cand[at(7, band)]`, inside the array.
            unsafe {
                use core::arch::x86_64::*;
                let words = _mm256_loadu_si256(self.cand.as_ptr().add(at(0, band)).cast());
                let held = _mm256_and_si256(words, _mm256_set1_epi32(cells as i32));
                let none = _mm256_cmpeq_epi32(held, _mm256_setzero_si256());
                return (!(_mm256_movemask_ps(_mm256_castsi256_ps(none)) as u32) & 0xFF) | ninth;
            }
        }
        let mut digits = ninth;
        for d in 0..8 {
            digits |= u32::from(self.cand[at(d, band)] & cells != 0) << d;
        }
        digits
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
            // Table look-ups rather than BMI2's `pext` and `pdep`, which are microcoded on AMD CPUs
            // before Zen 3.
            let mut allowed = [0u32; 3];
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
    pub(super) fn propagate<const BMI2: bool>(&mut self) -> bool {
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
    pub(super) fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The grid of a solved state: digits 1-9 in row-major order.
    ///
    /// On the x86-64-v3 path (`BMI2`), each band's 27 digits are written at once: the four bit
    /// planes of the digit values (each the union of the words of the digits with that bit set) are
    /// spread to one byte per cell in an AVX2 register, instead of a store per cell. (BMI2's `pdep`
    /// spreads them in fewer instructions, but is microcoded on AMD CPUs before Zen 3.)
    #[inline(always)]
    pub(super) fn cells<const BMI2: bool>(&self) -> [u8; 81] {
        let mut out = [0u8; 81];
        #[cfg(target_arch = "x86_64")]
        if BMI2 {
            // SAFETY: `BMI2` is true only under `search_v3`, which `solve` calls only after checking
            // at run time that the CPU has AVX2; each 32-byte store starts at byte `27 * band` of
            // `wide`, which has room for the last one.
            unsafe {
                use core::arch::x86_64::*;
                // Three bands of 27 bytes, each written as 32: a band's last five bytes are zeros
                // that the next band overwrites, and the last band's run past the grid, hence the
                // slack.
                let mut wide = [0u8; 86];
                // Byte `i` of a band takes byte `i / 8` of a plane, and tests its bit `i % 8`.
                let select = _mm256_setr_epi8(
                    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3,
                    3, 3, 3, 3, 3, 3,
                );
                let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
                for band in 0..3 {
                    let word = |d: usize| self.cand[at(d, band)];
                    // Bit k of digit d + 1, per cell.
                    let planes = [
                        word(0) | word(2) | word(4) | word(6) | word(8),
                        word(1) | word(2) | word(5) | word(6),
                        word(3) | word(4) | word(5) | word(6),
                        word(7) | word(8),
                    ];
                    let mut bytes = _mm256_setzero_si256();
                    for (k, &plane) in planes.iter().enumerate() {
                        let spread = _mm256_shuffle_epi8(_mm256_set1_epi32(plane as i32), select);
                        let set = _mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit);
                        bytes =
                            _mm256_or_si256(bytes, _mm256_and_si256(set, _mm256_set1_epi8(1 << k)));
                    }
                    _mm256_storeu_si256(wide.as_mut_ptr().add(band * 27).cast::<__m256i>(), bytes);
                }
                out.copy_from_slice(&wide[..81]);
                return out;
            }
        }
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
    /// Builds every word at once from each digit's givens rather than placing them one by one, which
    /// costs less.
    /// The result is the state [`State::place`] would leave: a given keeps only its own digit, and
    /// each digit loses its givens' columns, and their rows and boxes in their band.
    /// On the x86-64-v3 path (`BMI2`), [`State::from_givens_wide`] builds digits 1-8 in AVX2 lanes.
    #[inline(always)]
    pub(super) fn from_givens<const BMI2: bool>(givens: &[u8]) -> Option<State> {
        #[cfg(target_arch = "x86_64")]
        if BMI2 && givens.len() >= 81 {
            // SAFETY: `BMI2` is true only under `search_v3`, which `solve` calls only after checking
            // at run time that the CPU has AVX2; the slice holds at least 81 bytes.
            return unsafe { State::from_givens_wide(givens) };
        }
        let placed = givens_words_scalar(givens);
        let mut taken = [0u32; 3];
        for words in placed.chunks_exact(3) {
            for (band, &word) in words.iter().enumerate() {
                taken[band] |= word;
            }
        }
        State::from_words(&placed, taken)
    }

    /// The state after placing givens written as words (`placed`: per digit and band the cells
    /// holding it, at `digit * 3 + band`; `taken`: per band the cells holding any digit); `None` if two
    /// givens of one digit clash. The caller sees that no cell holds two digits.
    #[inline(always)]
    pub(super) fn from_words(placed: &[u32; 27], taken: [u32; 3]) -> Option<State> {
        let mut state = State::OPEN;
        for d in 0..9 {
            let base = d * 3;
            let words = digit_words([placed[base], placed[base + 1], placed[base + 2]], taken)?;
            for (band, word) in words.into_iter().enumerate() {
                state.cand[at(d, band)] = word;
            }
        }
        state.unsolved = taken.map(|cells| BAND & !cells);
        Some(state)
    }

    /// [`State::from_givens`] on the x86-64-v3 path. One AVX2 byte comparison per digit and band
    /// finds a band's 27 cells at once, instead of a branch per cell; then digits 1-8 are one
    /// register per band, one lane per digit, and every step of [`digit_words`] (the clash test,
    /// the rows, boxes and columns each digit's givens clear) runs on all eight lanes at once, the
    /// ninth digit alone: digit by digit, this setup weighed on every puzzle, most on those that need
    /// few guesses.
    ///
    /// # Safety
    ///
    /// The CPU must have AVX2, and `givens` must hold at least 81 bytes.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    unsafe fn from_givens_wide(givens: &[u8]) -> Option<State> {
        use core::arch::x86_64::*;
        use lanes::{or3, spread_rows};
        // SAFETY (whole body): the caller guarantees AVX2 and 81 bytes; the three 32-byte loads
        // start at bytes 0, 27 and 49, so the last ends at byte 80; each 32-byte store covers
        // `cand[at(0, band)]` to `cand[at(7, band)]`, inside the array.
        unsafe {
            let at_byte = givens.as_ptr();
            // Band `b`'s cells are bytes `27 b` to `27 b + 26`; the third band's load starts five
            // bytes early so as not to read past the 81st byte, and its masks are shifted back.
            let bytes = [
                _mm256_loadu_si256(at_byte.cast::<__m256i>()),
                _mm256_loadu_si256(at_byte.add(27).cast::<__m256i>()),
                _mm256_loadu_si256(at_byte.add(49).cast::<__m256i>()),
            ];
            let cells = |band: usize, hits: i32| {
                let hits = hits as u32;
                if band == 2 { hits >> 5 } else { hits & BAND }
            };
            let mut placed = [[0u32; 9]; 3];
            let mut taken = [0u32; 3];
            for (band, &bytes) in bytes.iter().enumerate() {
                for (d, word) in placed[band].iter_mut().enumerate() {
                    let value = _mm256_set1_epi8(d as i8 + 1);
                    *word = cells(band, _mm256_movemask_epi8(_mm256_cmpeq_epi8(bytes, value)));
                }
                // Values 1-9 less one are 0-8, the only bytes that `min(x, 8)` leaves unchanged.
                let less_one = _mm256_sub_epi8(bytes, _mm256_set1_epi8(1));
                let digit =
                    _mm256_cmpeq_epi8(_mm256_min_epu8(less_one, _mm256_set1_epi8(8)), less_one);
                taken[band] = cells(band, _mm256_movemask_epi8(digit));
            }
            let lanes = placed.map(|w| {
                _mm256_setr_epi32(
                    w[0] as i32,
                    w[1] as i32,
                    w[2] as i32,
                    w[3] as i32,
                    w[4] as i32,
                    w[5] as i32,
                    w[6] as i32,
                    w[7] as i32,
                )
            });
            let row = _mm256_set1_epi32(ROW as i32);
            let one = _mm256_set1_epi32(1);
            let box_bits = _mm256_set1_epi32(0o111);
            let rows = |w: __m256i| {
                [
                    _mm256_and_si256(w, row),
                    _mm256_and_si256(_mm256_srli_epi32::<9>(w), row),
                    _mm256_srli_epi32::<18>(w),
                ]
            };
            // Bits 0, 3 and 6: the boxes where a 9-bit set has any bit.
            let boxes = |x: __m256i| {
                _mm256_and_si256(
                    or3(x, _mm256_srli_epi32::<1>(x), _mm256_srli_epi32::<2>(x)),
                    box_bits,
                )
            };
            let pairs = |a: __m256i, b: __m256i, c: __m256i| {
                or3(
                    _mm256_and_si256(a, b),
                    _mm256_and_si256(a, c),
                    _mm256_and_si256(b, c),
                )
            };
            let cols = lanes.map(|w| {
                let [r0, r1, r2] = rows(w);
                or3(r0, r1, r2)
            });
            // Two givens of one digit clash when two share a column (in one band or two), two
            // share a row (a row with more than one bit), or two in different rows share a box.
            let mut clash = pairs(cols[0], cols[1], cols[2]);
            let mut cleared = [lanes[0]; 3];
            for (band, &w) in lanes.iter().enumerate() {
                let [r0, r1, r2] = rows(w);
                let twice = or3(
                    _mm256_and_si256(r0, _mm256_sub_epi32(r0, one)),
                    _mm256_and_si256(r1, _mm256_sub_epi32(r1, one)),
                    _mm256_and_si256(r2, _mm256_sub_epi32(r2, one)),
                );
                clash = or3(clash, pairs(r0, r1, r2), twice);
                clash = _mm256_or_si256(clash, pairs(boxes(r0), boxes(r1), boxes(r2)));
                // The whole rows holding a given: adding `ROW` to a row carries into bit 9 exactly
                // when the row holds any; that bit, moved to the row's first cell and times `ROW`,
                // fills the row.
                let any = |r: __m256i| _mm256_srli_epi32::<9>(_mm256_add_epi32(r, row));
                let first = or3(
                    any(r0),
                    _mm256_slli_epi32::<9>(any(r1)),
                    _mm256_slli_epi32::<18>(any(r2)),
                );
                let whole_rows = _mm256_sub_epi32(_mm256_slli_epi32::<9>(first), first);
                // The boxes of the band holding a given, as cells: each box bit spread to its three
                // columns, then to the three rows.
                let b = boxes(cols[band]);
                let box_cells =
                    spread_rows(or3(b, _mm256_slli_epi32::<1>(b), _mm256_slli_epi32::<2>(b)));
                cleared[band] = _mm256_or_si256(whole_rows, box_cells);
            }
            if _mm256_testz_si256(clash, clash) == 0 {
                return None;
            }
            let ninth = digit_words([placed[0][8], placed[1][8], placed[2][8]], taken)?;
            let column_cells = spread_rows(or3(cols[0], cols[1], cols[2]));
            let mut state = State::OPEN;
            let base = state.cand.as_mut_ptr();
            for band in 0..3 {
                let open = _mm256_set1_epi32((BAND & !taken[band]) as i32);
                let word = _mm256_or_si256(
                    _mm256_andnot_si256(_mm256_or_si256(column_cells, cleared[band]), open),
                    lanes[band],
                );
                _mm256_storeu_si256(base.add(at(0, band)).cast::<__m256i>(), word);
                state.cand[at(8, band)] = ninth[band];
            }
            state.unsolved = taken.map(|cells| BAND & !cells);
            Some(state)
        }
    }
}

/// The words of one digit after placing its givens `words` (per band), with `taken` the cells of each
/// band holding any given: each band's cells without a given, less the givens' columns and their
/// rows and boxes in their band, plus the givens themselves. `None` if two of the givens clash.
#[inline(always)]
fn digit_words(words: [u32; 3], taken: [u32; 3]) -> Option<[u32; 3]> {
    let cols = words.map(columns);
    let all_columns = cols[0] | cols[1] | cols[2];
    // Two givens of one digit clash when they share a row, a box or a column: counting the rows,
    // boxes and columns in use against the givens finds it in a few instructions.
    let mut givens = 0;
    let mut clash = false;
    let mut cleared = [0u32; 3];
    for band in 0..3 {
        let (word, rows) = (words[band], rows_of_flat(words[band]));
        let boxes = BOXES_OF_ROW[cols[band] as usize];
        let count = word.count_ones();
        clash |= (rows.count_ones() != 9 * count) | (boxes.count_ones() != count);
        givens += count;
        cleared[band] = rows | BOX_CELLS[usize::from(boxes)];
    }
    if clash | (all_columns.count_ones() != givens) {
        return None;
    }
    let column_cells = all_columns * COLUMN_SPREAD;
    Some([0, 1, 2].map(|band| (BAND & !taken[band] & !column_cells & !cleared[band]) | words[band]))
}

/// The givens of `givens` (row-major, 0 or out of range for a blank; only the first 81 count) as
/// words: per digit and band the cells holding it, at `digit * 3 + band`. One cell at a time (the
/// portable path).
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
