//! The band word, the unit of the 9x9 state: one `u32` per digit and band holding the band's 27
//! cells, bit `row_in_band * 9 + column`. Its constants, the look-up tables of band consistency,
//! and the bit helpers that read rows, columns and boxes out of it.

/// All 27 cells of a band.
pub(super) const BAND: u32 = (1 << 27) - 1;
/// One row of a band (columns 0-8).
pub(super) const ROW: u32 = 0x1FF;
/// Multiplying a 9-bit column set by this copies it to all three rows of a band.
pub(super) const COLUMN_SPREAD: u32 = 1 | 1 << 9 | 1 << 18;
/// The first box of a band: three columns in each of three rows.
pub(super) const BOX0: u32 = 0b111 * COLUMN_SPREAD;

/// For a 9-bit row, the boxes (bit 0, 1, 2) where it has any bit.
pub(super) static BOXES_OF_ROW: [u8; 512] = {
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
pub(super) static BOX_CELLS: [u32; 8] = {
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

/// For a 9-bit pattern of live (row, box) segments of one digit in one band (bit `box * 3 + row`, as
/// [`segments`] gathers them), the band cells in segments used by at least one of the six row-to-box
/// permutations the pattern still allows; 0 when it allows none.
pub(super) static PERMUTATION_CELLS: [u32; 512] = {
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
                if live & (1 << (perm[row] * 3 + row)) == 0 {
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
pub(super) static PERMUTATION_SEGMENTS: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut live = 0;
    while live < 512 {
        let cells = PERMUTATION_CELLS[transposed(live)];
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
pub(super) static PEERS_IN_BAND: [u32; 27] = {
    let mut table = [0u32; 27];
    let mut cell = 0;
    while cell < 27 {
        table[cell] = (ROW << (9 * (cell / 9))) | (BOX0 << (3 * (cell % 9 / 3)));
        cell += 1;
    }
    table
};

/// A 3x3 pattern of bits (bit `i * 3 + j`) with its two indexes swapped (bit `j * 3 + i`).
const fn transposed(pattern: usize) -> usize {
    let mut out = 0;
    let mut bit = 0;
    while bit < 9 {
        if pattern & (1 << bit) != 0 {
            out |= 1 << (bit % 3 * 3 + bit / 3);
        }
        bit += 1;
    }
    out
}

/// The live (row, box) segments of a band word, bit `box * 3 + row`: the index of
/// [`PERMUTATION_CELLS`].
///
/// Shifts and masks rather than BMI2's `pext`, which gathers the same bits in one instruction but is
/// microcoded on AMD CPUs before Zen 3, where it took dozens of cycles on every word band
/// consistency looks at.
#[inline(always)]
pub(super) fn segments(word: u32) -> usize {
    // Bit 3k of `any` is set when segment k (row k / 3, box k % 3) holds a bit.
    let any = (word | word >> 1 | word >> 2) & 0o111_111_111;
    // Rows 1 and 2 shifted down beside row 0: segment (row, box) lands on bit `box * 3 + row`.
    ((any | any >> 8 | any >> 16) & 0o777) as usize
}

/// The columns (9 bits) where a band word has any bit.
#[inline(always)]
pub(super) fn columns(word: u32) -> u32 {
    (word | word >> 9 | word >> 18) & ROW
}

/// The whole rows of the band that hold any bit of `word`.
#[inline(always)]
pub(super) fn rows_of(word: u32) -> u32 {
    let r0 = if word & ROW != 0 { ROW } else { 0 };
    let r1 = if word & (ROW << 9) != 0 { ROW << 9 } else { 0 };
    let r2 = if word & (ROW << 18) != 0 {
        ROW << 18
    } else {
        0
    };
    r0 | r1 | r2
}

/// [`rows_of`] in arithmetic rather than a test per row, for words as unpredictable as a puzzle's
/// givens, where the compiler's branches for the tests mispredict.
#[inline(always)]
pub(super) fn rows_of_flat(word: u32) -> u32 {
    // Adding `ROW` to a row's nine bits carries into bit 9 exactly when the row holds any.
    let any = |row: u32| (((row & ROW) + ROW) >> 9).wrapping_neg() & ROW;
    any(word) | any(word >> 9) << 9 | any(word >> 18) << 18
}

/// The bits of `word` that are alone in their row of the band.
#[inline(always)]
pub(super) fn single_rows(word: u32) -> u32 {
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
