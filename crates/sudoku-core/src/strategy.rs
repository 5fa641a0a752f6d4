//! The techniques of the logic engine, one file each, and what they share: the [`Technique`] names,
//! the [`Step`] a technique finds, and the search context with its effort budget and cancel flag.
//!
//! A finder looks at a [`Board`] and returns the first step of its technique it finds, without
//! changing the board; the grader applies it. Ratings are on the Sudoku Explainer scale, in tenths.

pub mod aligned_pair_exclusion;
pub mod aligned_triple_exclusion;
pub mod bug;
pub mod chaining;
pub mod fish;
pub mod forcing_chain;
pub mod full_house;
pub mod guess;
pub mod hidden_single;
pub mod hidden_subset;
pub mod locked_candidates;
pub mod naked_single;
pub mod naked_subset;
mod templates;
pub mod unary_chain;
pub mod unique_rectangle;
pub mod x_chain;
pub mod xy_chain;
pub mod xy_wing;
pub mod xyz_wing;

use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

use smallvec::SmallVec;

use crate::candidates::{Board, Candidate, Geometry, Mask, bits, values};

/// A solving technique, in the order the engine tries them (easiest first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// The last blank cell of a unit (1.0).
    FullHouse,
    /// A value with one place left in a unit (1.2 in a box, 1.5 in a row or column).
    HiddenSingle,
    /// Pointing that leaves the value one place in another box the line crosses: the step places
    /// it, and only that (1.7).
    DirectPointing,
    /// Claiming that leaves the value one place in a parallel line through the box: the step
    /// places it, and only that (1.9).
    DirectClaiming,
    /// A hidden pair that leaves another value one place in its unit: the step places it, and only
    /// that (2.0).
    DirectHiddenPair,
    /// A cell with one candidate left (2.3).
    NakedSingle,
    /// A hidden triple that leaves another value one place in its unit: the step places it, and
    /// only that (2.5).
    DirectHiddenTriple,
    /// A value confined to one line within a box leaves the rest of the line (2.6).
    Pointing,
    /// A value confined to one box within a line leaves the rest of the box (2.8).
    Claiming,
    /// Naked pair (3.0).
    NakedPair,
    /// X-Wing (3.2).
    XWing,
    /// Hidden pair (3.4).
    HiddenPair,
    /// Naked triple (3.6).
    NakedTriple,
    /// Swordfish (3.8).
    Swordfish,
    /// Hidden triple (4.0).
    HiddenTriple,
    /// XY-Wing (4.2).
    XyWing,
    /// XYZ-Wing (4.4).
    XyzWing,
    /// Unique rectangle or loop, types 1 to 4 (4.5 for a rectangle, up to 5.0 for a loop of
    /// ten cells or more, and a tenth more for each cell of a type 3's set past the smallest).
    UniqueRectangle,
    /// Naked quad (5.0).
    NakedQuad,
    /// Jellyfish (5.2).
    Jellyfish,
    /// Hidden quad (5.4).
    HiddenQuad,
    /// Bivalue universal grave + 1, SE's BUG type 1: one cell keeps only its extra values, and with
    /// one takes it (5.6).
    BugPlusOne,
    /// Bivalue universal grave type 2: the cells with extra candidates share one extra value, so
    /// one of them holds it and the cells seeing them all lose it (5.7).
    BugType2,
    /// Bivalue universal grave type 4: two cells with extra candidates in one unit share one other
    /// value, so each keeps only it and its extra values (5.7).
    BugType4,
    /// Bivalue universal grave type 3: the extra values make a naked set with other cells of a
    /// unit, whose other cells lose its values (5.8 for a pair, up to 6.2).
    BugType3,
    /// Aligned pair exclusion: the values of two cells that no pair of their values left by the
    /// two-valued cells seeing both allows (6.2).
    AlignedPairExclusion,
    /// A three-link X-chain on two parallel conjugate pairs (6.6); [`x_chain`] finds it, the grader
    /// reports such a chain as an [`Technique::XChain`], as Sudoku Explainer.
    Skyscraper,
    /// A three-link X-chain on a row and a column conjugate pair meeting in a box (6.6); as
    /// [`Technique::Skyscraper`], the grader reports it as an [`Technique::XChain`].
    TwoStringKite,
    /// A forcing chain or cycle on one value's unit links, Sudoku Explainer's forcing X-chain (6.6)
    /// or X-cycle (6.5), plus the length adjustment.
    XChain,
    /// A forcing chain or cycle through cells' candidates too: SE's forcing chain (7.0), its
    /// Y-cycle on bivalue cells (6.5) or XY-cycle (7.0), plus the length adjustment.
    XyChain,
    /// Aligned triple exclusion: the values of three cells that no choice of their values left by
    /// the cells of two or three candidates seeing all three allows (7.5).
    AlignedTripleExclusion,
    /// A candidate whose consequences break the grid, or a fact all of a cell's or a unit's options
    /// lead to: Sudoku Explainer's Nishio (7.5), multiple (8.0) and dynamic (8.5) forcing chains,
    /// then ours (8.5), plus the length adjustment.
    ForcingChain,
    /// A placement taken from the solution when nothing else applies within the budget (10.0).
    Guess,
}

impl Technique {
    /// Every technique, in order of difficulty (the order they are declared in).
    pub const ALL: [Technique; 33] = [
        Technique::FullHouse,
        Technique::HiddenSingle,
        Technique::DirectPointing,
        Technique::DirectClaiming,
        Technique::DirectHiddenPair,
        Technique::NakedSingle,
        Technique::DirectHiddenTriple,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::UniqueRectangle,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::BugPlusOne,
        Technique::BugType2,
        Technique::BugType4,
        Technique::BugType3,
        Technique::AlignedPairExclusion,
        Technique::Skyscraper,
        Technique::TwoStringKite,
        Technique::XChain,
        Technique::XyChain,
        Technique::AlignedTripleExclusion,
        Technique::ForcingChain,
        Technique::Guess,
    ];

    /// The technique's name, as people write it.
    pub fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "Full House",
            Technique::HiddenSingle => "Hidden Single",
            Technique::DirectPointing => "Direct Pointing",
            Technique::DirectClaiming => "Direct Claiming",
            Technique::DirectHiddenPair => "Direct Hidden Pair",
            Technique::NakedSingle => "Naked Single",
            Technique::DirectHiddenTriple => "Direct Hidden Triple",
            Technique::Pointing => "Pointing",
            Technique::Claiming => "Claiming",
            Technique::NakedPair => "Naked Pair",
            Technique::XWing => "X-Wing",
            Technique::HiddenPair => "Hidden Pair",
            Technique::NakedTriple => "Naked Triple",
            Technique::Swordfish => "Swordfish",
            Technique::HiddenTriple => "Hidden Triple",
            Technique::XyWing => "XY-Wing",
            Technique::XyzWing => "XYZ-Wing",
            Technique::UniqueRectangle => "Unique Rectangle",
            Technique::NakedQuad => "Naked Quad",
            Technique::Jellyfish => "Jellyfish",
            Technique::HiddenQuad => "Hidden Quad",
            Technique::BugPlusOne => "BUG+1",
            Technique::BugType2 => "BUG Type 2",
            Technique::BugType3 => "BUG Type 3",
            Technique::BugType4 => "BUG Type 4",
            Technique::AlignedPairExclusion => "Aligned Pair Exclusion",
            Technique::Skyscraper => "Skyscraper",
            Technique::TwoStringKite => "2-String Kite",
            Technique::XChain => "X-Chain",
            Technique::XyChain => "XY-Chain",
            Technique::AlignedTripleExclusion => "Aligned Triple Exclusion",
            Technique::ForcingChain => "Forcing Chain",
            Technique::Guess => "Guess",
        }
    }
}

/// One step of a solution path: what it fills and removes, what it rests on, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique applied.
    pub technique: Technique,
    /// The rating on the Sudoku Explainer scale, in tenths (23 is 2.3).
    pub rating: u16,
    /// The cells this step fills: one for most steps, kept inline rather than allocated.
    pub placements: SmallVec<[Candidate; 1]>,
    /// The candidates this step removes.
    pub eliminations: Vec<Candidate>,
    /// The candidates the reasoning rests on.
    pub evidence: Vec<Candidate>,
    /// The reasoning in words, with each value written `{v}` so it can be shown in any alphabet (see
    /// [`Step::explanation`]); empty when the search was asked for no words.
    pub text: String,
}

impl Step {
    /// A step of `technique` rated `rating` tenths, with nothing yet.
    pub fn new(technique: Technique, rating: u16) -> Step {
        Step {
            technique,
            rating,
            placements: SmallVec::new(),
            eliminations: Vec::new(),
            evidence: Vec::new(),
            text: String::new(),
        }
    }

    /// The explanation, each value written by `symbol`.
    pub fn explanation(&self, symbol: impl Fn(u8) -> String) -> String {
        let mut out = String::with_capacity(self.text.len());
        let mut rest = self.text.as_str();
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            match after.find('}') {
                Some(close) => {
                    match after[..close].parse::<u8>() {
                        Ok(v) => out.push_str(&symbol(v)),
                        Err(_) => out.push_str(&rest[open..open + close + 2]),
                    }
                    rest = &after[close + 1..];
                }
                None => {
                    out.push_str(&rest[open..]);
                    rest = "";
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// The explanation with values as numbers.
    pub fn plain_explanation(&self) -> String {
        self.explanation(|v| v.to_string())
    }
}

/// Why a search stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Stopped {
    /// The caller raised the cancel flag.
    #[error("cancelled")]
    Cancelled,
    /// The next step would be rated above the caller's ceiling ([`Context::ceiling`]).
    #[error("the next step is rated above the ceiling")]
    AboveCeiling,
}

/// What a finder may use besides the board: whether to write explanations, the solution (for
/// [`guess`]), the effort budget of the expensive searches, and the cancel flag.
#[derive(Debug)]
pub struct Context<'a> {
    /// Write each step's explanation.
    pub explain: bool,
    /// The puzzle's unique solution, row-major.
    pub solution: &'a [u8],
    /// Effort left for the chain and forcing-chain searches, in units of about one candidate looked
    /// at; once spent, those searches are skipped.
    pub budget: u64,
    /// The part of `budget` the nested forcing chains (SE's "(+ Forcing Chains)") may spend, so
    /// that puzzles beyond them, which try them at every step, still end soon.
    pub nested_budget: u64,
    /// Set once the budget ran out and a search was skipped because of it.
    pub exhausted: bool,
    /// Raised by the caller to stop the search.
    pub cancel: Option<&'a AtomicBool>,
    /// The highest rating (tenths) the caller wants: once the next step must be rated above it,
    /// the search stops ([`Stopped::AboveCeiling`]) rather than find that step. `u16::MAX`: none.
    pub ceiling: u16,
    /// What the aligned triple exclusion saw when it last found nothing on this walk.
    pub triples: aligned_triple_exclusion::Memo,
}

impl Context<'_> {
    /// Spends `effort` of the budget; false (and [`Context::exhausted`] set) when not enough is left.
    pub fn spend(&mut self, effort: u64) -> bool {
        let spent = take(&mut self.budget, effort);
        self.exhausted |= !spent;
        spent
    }

    /// Spends `effort` of the budget and of the nested chains' part of it; false (and
    /// [`Context::exhausted`] set) when not enough is left of either.
    pub fn spend_nested(&mut self, effort: u64) -> bool {
        let spent = take(&mut self.nested_budget, effort) && take(&mut self.budget, effort);
        self.exhausted |= !spent;
        spent
    }

    /// Err when the caller has cancelled.
    pub fn check_cancel(&self) -> Result<(), Stopped> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            Err(Stopped::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// Appends `r1c2` names of `cells` joined by `, ` to `text`.
pub(crate) fn write_cells(
    text: &mut String,
    board: &Board,
    cells: impl IntoIterator<Item = usize>,
) {
    for (i, cell) in cells.into_iter().enumerate() {
        if i > 0 {
            text.push_str(", ");
        }
        let _ = write!(text, "{}", board.geo().name(cell));
    }
}

/// Appends `{1}, {2}` (value markers) of `values` joined by `sep` to `text`.
pub(crate) fn write_values(text: &mut String, values: impl IntoIterator<Item = u8>, sep: &str) {
    for (i, v) in values.into_iter().enumerate() {
        if i > 0 {
            text.push_str(sep);
        }
        let _ = write!(text, "{{{v}}}");
    }
}

/// Appends ` Removes {v} from r1c2, r3c4.`-style words for the eliminations, grouped by value.
pub(crate) fn write_eliminations(text: &mut String, board: &Board, eliminations: &[Candidate]) {
    let mut values: Vec<u8> = eliminations.iter().map(|c| c.value).collect();
    values.sort_unstable();
    values.dedup();
    for (i, v) in values.iter().enumerate() {
        text.push_str(if i == 0 { " Removes " } else { "; removes " });
        let _ = write!(text, "{{{v}}} from ");
        write_cells(
            text,
            board,
            eliminations
                .iter()
                .filter(|c| c.value == *v)
                .map(|c| c.cell),
        );
    }
    text.push('.');
}

/// A set of nodes cleared in constant time, for searches run thousands of times: a node is in it
/// when its mark is the current epoch.
#[derive(Default)]
struct Marks {
    mark: Vec<u32>,
    epoch: u32,
}

impl Marks {
    /// Empties the set, for nodes below `nodes`.
    fn clear(&mut self, nodes: usize) {
        if self.epoch == u32::MAX {
            self.mark.fill(0);
            self.epoch = 0;
        }
        self.epoch += 1;
        if self.mark.len() < nodes {
            self.mark.resize(nodes, 0);
        }
    }

    /// Adds `node`; false when it was in already.
    fn insert(&mut self, node: usize) -> bool {
        if self.mark[node] == self.epoch {
            return false;
        }
        self.mark[node] = self.epoch;
        true
    }

    /// Whether `node` is in.
    fn contains(&self, node: usize) -> bool {
        self.mark[node] == self.epoch
    }
}

/// SE's rating added for a chain of `length` links: 0.1 for each of its length thresholds the
/// length exceeds.
pub fn length_adjustment(length: usize) -> u16 {
    length_thresholds().take_while(|&t| length > t).count() as u16
}

/// The longest chain whose [`length_adjustment`] is at most `adjust`.
pub(crate) fn longest_adjusted(adjust: u16) -> usize {
    length_thresholds()
        .nth(usize::from(adjust))
        .unwrap_or(usize::MAX)
}

/// SE's chain length thresholds: 4, 6, 8, 12, 16, 24, ..., growing by 3/2 and 4/3 in turn, up to
/// where a `usize` ends.
fn length_thresholds() -> impl Iterator<Item = usize> {
    let mut next = Some((4usize, false));
    std::iter::from_fn(move || {
        let (ceil, odd) = next?;
        let grown = if odd {
            ceil.checked_mul(4).map(|c| c / 3)
        } else {
            ceil.checked_mul(3).map(|c| c / 2)
        };
        next = grown.map(|g| (g, !odd));
        Some(ceil)
    })
}

/// The candidates of `cells` among the values `gone`: what a set removes from the cells it rules.
pub(crate) fn removed(
    board: &Board,
    cells: impl Iterator<Item = usize>,
    gone: Mask,
) -> Vec<Candidate> {
    cells
        .flat_map(|cell| {
            values(board.cands(cell) & gone).map(move |value| Candidate { cell, value })
        })
        .collect()
}

/// The units holding every one of `cells`: their box, row and column, in that order, as SE looks.
pub(crate) fn shared_units(
    geo: &Geometry,
    cells: impl Iterator<Item = usize> + Clone,
) -> Vec<usize> {
    let Some(first) = cells.clone().next() else {
        return Vec::new();
    };
    [2, 0, 1]
        .into_iter()
        .map(|kind| geo.units_of(first)[kind])
        .filter(|&unit| cells.clone().all(|c| geo.units_of(c).contains(&unit)))
        .collect()
}

/// The `k`-subsets of the set bits of `of`, as masks, in SE's order (colexicographic: by their
/// highest member, then the next).
pub(crate) fn subsets(of: Mask, k: usize) -> impl Iterator<Item = Mask> {
    let places: SmallVec<[usize; 32]> = bits(of).collect();
    let len = places.len();
    // Choices of k of 0..len as bits in increasing order (Gosper's hack), mapped onto `of`'s bits.
    let mut pick: Option<u64> = (k <= len).then(|| (1 << k) - 1);
    std::iter::from_fn(move || {
        let current = pick?;
        pick = (k > 0)
            .then(|| {
                let low = current & current.wrapping_neg();
                let up = current + low;
                (((up ^ current) >> 2) / low) | up
            })
            .filter(|&next| next < 1 << len);
        Some(bits(current as Mask).fold(0, |m, i| m | 1 << places[i]))
    })
}

/// The eliminations of `value` from every cell (other than `except`) that sees all of `cells`.
pub(crate) fn seen_by_all(board: &Board, value: u8, cells: &[usize]) -> Vec<Candidate> {
    let Some(&first) = cells.first() else {
        return Vec::new();
    };
    let geo = board.geo();
    let mut out = Vec::new();
    for unit in geo.all_units_of(first) {
        for cell in geo.cells_in(unit, board.positions(unit, value)) {
            if !cells.contains(&cell)
                && cells.iter().all(|&c| geo.sees(c, cell))
                && !out.iter().any(|c: &Candidate| c.cell == cell)
            {
                out.push(Candidate { cell, value });
            }
        }
    }
    out.sort_unstable();
    out
}

/// Calls `found` with each choice of `k` (at most 4) of `items` whose masks together have exactly `k`
/// bits, until it returns `Some`. Choices whose union outgrows `k` are cut early.
pub(crate) fn k_sets<T>(
    items: &[(usize, crate::candidates::Mask)],
    k: usize,
    found: &mut impl FnMut(&[usize], crate::candidates::Mask) -> Option<T>,
) -> Option<T> {
    fn go<T>(
        items: &[(usize, crate::candidates::Mask)],
        k: usize,
        start: usize,
        chosen: &mut [usize; 4],
        depth: usize,
        union: crate::candidates::Mask,
        found: &mut impl FnMut(&[usize], crate::candidates::Mask) -> Option<T>,
    ) -> Option<T> {
        if depth == k {
            return if union.count_ones() as usize == k {
                found(&chosen[..k], union)
            } else {
                None
            };
        }
        // Leave enough items for the choices still to make.
        for i in start..=items.len() - (k - depth) {
            let next = union | items[i].1;
            if next.count_ones() as usize > k {
                continue;
            }
            chosen[depth] = items[i].0;
            if let Some(t) = go(items, k, i + 1, chosen, depth + 1, next, found) {
                return Some(t);
            }
        }
        None
    }
    if k == 0 || k > 4 || items.len() < k {
        return None;
    }
    go(items, k, 0, &mut [0; 4], 0, 0, found)
}

/// Takes `effort` from what is `left`; false, with nothing left, when there is not enough.
fn take(left: &mut u64, effort: u64) -> bool {
    match left.checked_sub(effort) {
        Some(rest) => {
            *left = rest;
            true
        }
        None => {
            *left = 0;
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_adjustment_follows_the_thresholds() {
        let got: Vec<u16> = [3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25]
            .iter()
            .map(|&l| length_adjustment(l))
            .collect();
        assert_eq!(got, [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6]);
    }

    #[test]
    fn techniques_are_declared_in_the_order_of_all() {
        for (i, technique) in Technique::ALL.into_iter().enumerate() {
            assert_eq!(technique as usize, i, "{technique:?}");
        }
    }
}
