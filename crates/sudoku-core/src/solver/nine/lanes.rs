//! Helpers of the AVX2 code, one lane per digit. Plain functions rather than closures: a closure
//! is compiled without the caller's target features and, when not inlined, turns every intrinsic
//! into a call. `#[inline(always)]` puts them, like the other helpers of the search, inside
//! `search_v3` and its features.

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
