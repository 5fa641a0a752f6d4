//! The variant solver: propagation of every rule over candidate sets, and a search that branches on
//! the cell with the fewest candidates, under the same budget and cancel flag as every solve.

mod board;
mod model;
mod pairs;
mod sandwich;
mod search;
mod sums;
mod thermo;

use crate::solver::{Limiter, Mode, Options, Stats, Verdict};

use super::Variant;
use board::bit;
use model::Model;
use search::Flow;

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

/// Solves `variant` as `options` ask (mode, guess budget, cancel flag): [`Mode::ProveUnique`] looks
/// for a second solution, [`Mode::FirstSolution`] stops at the first. Every solution it returns
/// satisfies [`Variant::is_solved_by`].
pub fn solve(variant: &Variant, options: &Options<'_>) -> VariantOutcome {
    let model = Model::new(variant);
    let mut limiter = Limiter::new(options);
    let wanted = match options.mode {
        Mode::ProveUnique => 2,
        Mode::FirstSolution => 1,
    };
    let mut first = None;
    let mut found = 0u32;
    if let Ok(board) = model.start() {
        search::run(&model, board, &mut limiter, &mut |solution| {
            found += 1;
            first.get_or_insert(solution);
            if found >= wanted {
                Flow::Stop
            } else {
                Flow::Continue
            }
        });
    }
    VariantOutcome {
        verdict: limiter.verdict(options.mode, found),
        solution: first,
        stats: limiter.stats(),
    }
}

/// The true candidates of `variant`: every value of every cell that some solution has, within the
/// guess budget of `options` (its mode is ignored).
///
/// Each solution found marks all its values; then each value still unmarked in each cell is tried
/// in turn (one guess), and either a solution holding it marks more, or it is proved in none and
/// leaves the board, which narrows the searches after it.
pub fn true_candidates(variant: &Variant, options: &Options<'_>) -> TrueCandidates {
    let model = Model::new(variant);
    let cells = model.cells();
    let mut limiter = Limiter::new(options);
    let unsolvable = |limiter: &Limiter<'_>| TrueCandidates {
        verdict: Verdict::Unsolvable,
        cells: Some(vec![0; cells]),
        stats: limiter.stats(),
    };
    let stopped = |limiter: &Limiter<'_>, stop: Verdict| TrueCandidates {
        verdict: stop,
        cells: None,
        stats: limiter.stats(),
    };
    let Ok(mut root) = model.start() else {
        return unsolvable(&limiter);
    };
    if model.propagate(&mut root).is_err() {
        return unsolvable(&limiter);
    }
    let mut marked = vec![0u16; cells];
    let mut found = false;
    let mark = |marked: &mut Vec<u16>, solution: Vec<u8>| {
        for (m, v) in marked.iter_mut().zip(solution) {
            *m |= bit(u32::from(v));
        }
        Flow::Stop
    };
    search::run(&model, root, &mut limiter, &mut |solution| {
        found = true;
        mark(&mut marked, solution)
    });
    if let Some(stop) = limiter.stopped() {
        return stopped(&limiter, stop);
    }
    if !found {
        return unsolvable(&limiter);
    }
    for cell in 0..cells {
        let mut tried = 0u16;
        loop {
            let open = root.get(cell) & !marked[cell] & !tried;
            if open == 0 {
                break;
            }
            let one = open & open.wrapping_neg();
            tried |= one;
            if !limiter.guess() {
                break;
            }
            let mut trial = root;
            let mut hit = false;
            if trial.restrict(cell, one).is_ok() {
                search::run(&model, trial, &mut limiter, &mut |solution| {
                    hit = true;
                    mark(&mut marked, solution)
                });
            }
            if limiter.stopped().is_some() {
                break;
            }
            if !hit {
                // In no solution: off the board, and what that implies with it. A solution exists,
                // so this cannot empty a cell; if it somehow did, the board is kept as it was.
                let mut narrowed = root;
                if narrowed.restrict(cell, !one).is_ok() && model.propagate(&mut narrowed).is_ok() {
                    root = narrowed;
                } else {
                    debug_assert!(false, "a value in no solution was the last of its cell");
                }
            }
        }
        if let Some(stop) = limiter.stopped() {
            return stopped(&limiter, stop);
        }
    }
    let verdict = if marked.iter().all(|m| m.count_ones() == 1) {
        Verdict::Unique
    } else {
        Verdict::Multiple
    };
    TrueCandidates {
        verdict,
        cells: Some(marked),
        stats: limiter.stats(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::check::line_cells;
    use super::super::{Line, Rule, Variant};
    use super::*;

    /// Every 4x4 grid whose rows, columns and 2x2 boxes hold 1 to 4.
    fn all_4x4() -> Vec<Vec<u8>> {
        fn fill(g: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
            let cell = g.len();
            if cell == 16 {
                out.push(g.clone());
                return;
            }
            let (r, c) = (cell / 4, cell % 4);
            for v in 1..=4u8 {
                let clash = (0..cell).any(|o| {
                    let (r2, c2) = (o / 4, o % 4);
                    g[o] == v && (r2 == r || c2 == c || (r2 / 2, c2 / 2) == (r / 2, c / 2))
                });
                if !clash {
                    g.push(v);
                    fill(g, out);
                    g.pop();
                }
            }
        }
        let mut out = Vec::new();
        fill(&mut Vec::new(), &mut out);
        out
    }

    /// Full propagation (cages with their complements and required values, little killers,
    /// sandwiches, innies, locked candidates) on random 4x4 boards with random candidates never
    /// removes a value of a grid that keeps every rule and lies within those candidates.
    #[test]
    fn propagation_keeps_every_value_of_every_solution_within_the_candidates() {
        let grids = all_4x4();
        assert_eq!(grids.len(), 288);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for case in 0..3000 {
            let truth = &grids[next(grids.len())];
            let mut rules = Vec::new();
            for _ in 0..1 + next(4) {
                let mut cells: Vec<usize> = Vec::new();
                let size = 1 + next(4);
                let start = next(16);
                cells.push(start);
                // Mostly cages inside a row or a box, where complements apply; sometimes anywhere.
                let pool: Vec<usize> = match next(3) {
                    0 => (0..4).map(|c| start / 4 * 4 + c).collect(),
                    1 => (0..16)
                        .filter(|&o| (o / 8, o % 4 / 2) == (start / 8, start % 4 / 2))
                        .collect(),
                    _ => (0..16).collect(),
                };
                while cells.len() < size {
                    let c = pool[next(pool.len())];
                    if !cells.contains(&c) {
                        cells.push(c);
                    }
                }
                let total = |cells: &[usize]| cells.iter().map(|&c| u32::from(truth[c])).sum();
                let distinct = cells
                    .iter()
                    .enumerate()
                    .all(|(i, &a)| cells[..i].iter().all(|&b| truth[a] != truth[b]));
                match next(4) {
                    0 | 1 if distinct => rules.push(Rule::Cage {
                        sum: Some(total(&cells)),
                        cells,
                    }),
                    2 => rules.push(Rule::LittleKiller {
                        sum: total(&cells),
                        cells,
                    }),
                    _ => {
                        let line = if next(2) == 0 {
                            Line::Row(next(4))
                        } else {
                            Line::Column(next(4))
                        };
                        let cells = line_cells(4, line);
                        let at = |x: u8| cells.iter().position(|&c| truth[c] == x).unwrap();
                        let (a, b) = (at(1).min(at(4)), at(1).max(at(4)));
                        rules.push(Rule::Sandwich {
                            line,
                            sum: total(&cells[a + 1..b]),
                        });
                    }
                }
            }
            let Ok(variant) = Variant::new(4, vec![0; 16], Variant::default_regions(4), rules)
            else {
                continue;
            };
            let model = model::Model::new(&variant);
            let Ok(mut board) = model.start() else {
                panic!("case {case}: the start refused {variant:?}");
            };
            let mut cand = [0u16; 16];
            for (cell, m) in cand.iter_mut().enumerate() {
                *m = board.get(cell);
                if next(3) == 0 {
                    // Drop random values, keeping the truth's when the case asks for it.
                    let keep = if next(2) == 0 {
                        bit(u32::from(truth[cell]))
                    } else {
                        0
                    };
                    let narrowed = (*m & next(16) as u16) | keep;
                    if narrowed != 0 {
                        *m = narrowed;
                    }
                }
                board.restrict(cell, *m).unwrap();
            }
            let mut used = [0u16; 16];
            let mut any = false;
            for g in &grids {
                let within = g
                    .iter()
                    .zip(&cand)
                    .all(|(&v, &m)| m & bit(u32::from(v)) != 0);
                if within && variant.is_solved_by(g) {
                    any = true;
                    for (u, &v) in used.iter_mut().zip(g) {
                        *u |= bit(u32::from(v));
                    }
                }
            }
            match model.propagate(&mut board) {
                Err(_) => assert!(
                    !any,
                    "case {case}: a contradiction with a solution: {variant:?}"
                ),
                Ok(()) => {
                    for (cell, &u) in used.iter().enumerate() {
                        assert_eq!(
                            board.get(cell) & u,
                            u,
                            "case {case}: cell {cell} lost a value of a solution: {variant:?} {cand:?}"
                        );
                    }
                }
            }
        }
    }
}
