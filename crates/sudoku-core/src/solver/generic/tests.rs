//! Probing on grids too small to use it in production: the property tests compare the general search
//! with brute force and the 9x9 fast path only where it does not probe, so here the same search with
//! probing forced is held to the fast path on hard 9x9 puzzles, and on variants of them with several
//! solutions and with none; and on every small box shape, with locked candidates in the probes too
//! (probing searches also filter units by matching, held here to the plain search as well, and that
//! filter on its own to brute force).

use super::search;
use crate::grid::Grid;
use crate::solver::{self, Options, Verdict};

const SAMPLE: &str = include_str!("../../../../../tests/data/forum_hardest_1905_11plus_sample.txt");

/// Both searches agree on the verdict, and any solution solves the puzzle.
fn agree(puzzle: &Grid) -> Verdict {
    let options = Options::default();
    let probed = search(puzzle, &options, true, true);
    let fast = solver::solve(puzzle, &options);
    assert_eq!(probed.verdict, fast.verdict, "{puzzle}");
    if let Some(solution) = &probed.solution {
        assert!(solution.solves(puzzle), "{puzzle}");
    }
    if probed.verdict == Verdict::Unique {
        assert_eq!(probed.solution, fast.solution, "{puzzle}");
    }
    probed.verdict
}

#[test]
fn probing_agrees_with_the_fast_path_on_every_verdict() {
    let mut seen = Vec::new();
    let lines = SAMPLE.lines().filter(|l| !l.starts_with('#')).take(60);
    for line in lines {
        let puzzle = Grid::parse(line).expect("a committed sample puzzle");
        seen.push(agree(&puzzle));
        let Some(solution) = solver::solve(&puzzle, &Options::default()).solution else {
            continue;
        };
        let givens: Vec<usize> = (0..81).filter(|&i| puzzle.cells()[i] != 0).collect();
        // Fewer givens: usually several solutions.
        let mut loose = puzzle.clone();
        for &i in givens.iter().rev().take(4) {
            loose.set_index(i, 0);
        }
        seen.push(agree(&loose));
        // A blank given a value its solution does not hold: no solution, or another unique one.
        if let Some(blank) = (0..81).find(|&i| puzzle.cells()[i] == 0) {
            let mut wrong = puzzle.clone();
            let value = solution.cells()[blank] % 9 + 1;
            wrong.set_index(blank, value);
            seen.push(agree(&wrong));
        }
    }
    for verdict in [Verdict::Unique, Verdict::Multiple, Verdict::Unsolvable] {
        assert!(seen.contains(&verdict), "no {verdict:?} among the cases");
    }
}

/// Probing (with and without locked candidates followed inside every probe, which production uses
/// only from 20x20 up) against the search without it, on generated puzzles of every box orientation
/// small enough to generate quickly, non-square boxes included, and on variants with several
/// solutions and with none.
#[test]
fn probing_agrees_with_plain_search_on_every_box_shape() {
    use crate::generator::{Limits, Spec, Symmetry, generate};
    use crate::grid::Shape;
    let options = Options::default();
    let mut seen = Vec::new();
    for (rows, cols) in [
        (2, 2),
        (2, 3),
        (3, 2),
        (2, 4),
        (4, 2),
        (3, 3),
        (3, 4),
        (4, 3),
    ] {
        let shape = Shape::new(rows, cols).expect("a supported shape");
        let spec = Spec::new(shape, Symmetry::None, false).expect("a valid spec");
        let limits = Limits {
            max_attempts: 100,
            cancel: None,
        };
        for seed in 1..=12 {
            let made = generate(&spec, seed, &limits, |_, _| Some(())).expect("a puzzle");
            let puzzle = made.puzzle;
            let cells = shape.cells();
            let solution = made.solution;
            let givens: Vec<usize> = (0..cells).filter(|&i| puzzle.cells()[i] != 0).collect();
            let mut loose = puzzle.clone();
            for &i in givens.iter().rev().take(3) {
                loose.set_index(i, 0);
            }
            let mut cases = vec![puzzle.clone(), loose];
            if let Some(blank) = (0..cells).find(|&i| puzzle.cells()[i] == 0) {
                let mut wrong = puzzle.clone();
                let value = solution.cells()[blank] % shape.side() as u8 + 1;
                wrong.set_index(blank, value);
                cases.push(wrong);
            }
            for case in cases {
                let probed = search(&case, &options, true, true);
                let plain = search(&case, &options, false, false);
                assert_eq!(probed.verdict, plain.verdict, "{rows}x{cols} {case}");
                let unlocked = search(&case, &options, true, false);
                assert_eq!(unlocked.verdict, plain.verdict, "{rows}x{cols} {case}");
                if let Some(found) = &probed.solution {
                    assert!(found.solves(&case), "{rows}x{cols} {case}");
                }
                if probed.verdict == Verdict::Unique {
                    assert_eq!(probed.solution, plain.solution, "{rows}x{cols} {case}");
                }
                seen.push(probed.verdict);
            }
        }
    }
    for verdict in [Verdict::Unique, Verdict::Multiple, Verdict::Unsolvable] {
        assert!(seen.contains(&verdict), "no {verdict:?} among the cases");
    }
}

/// The all-different filter against brute force: on random graphs of up to 7 items, an option is
/// kept exactly when some perfect matching (a permutation) gives it to its item, and no perfect
/// matching at all is reported as such; whatever stale matching the search starts from.
#[test]
fn matching_keeps_exactly_the_options_of_some_perfect_matching() {
    use super::Mask;
    use super::matching::permutation;
    use crate::grid::Shape;

    /// Every permutation of `0..n` that `adj` allows, folded into the options it uses.
    fn brute(adj: &[Mask], item: usize, used: Mask, chosen: &mut Vec<usize>, out: &mut [Mask]) {
        if item == adj.len() {
            for (i, &j) in chosen.iter().enumerate() {
                out[i] |= 1 << j;
            }
            return;
        }
        for j in 0..adj.len() {
            if adj[item] & 1 << j != 0 && used & 1 << j == 0 {
                chosen.push(j);
                brute(adj, item + 1, used | 1 << j, chosen, out);
                chosen.pop();
            }
        }
    }

    let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
    let (mut pruned, mut impossible) = (0, 0);
    for round in 0..20_000 {
        let n = 1 + round % 7;
        let full: Mask = (1 << n) - 1;
        // Sparse to dense, so pruning, plain keeping and no matching all occur.
        let density = 1 + next() % 4;
        let mut adj: Vec<Mask> = Vec::with_capacity(n);
        for _ in 0..n {
            let mut m = 0;
            for _ in 0..density {
                m |= next() as Mask;
            }
            m &= full;
            if next().is_multiple_of(3) {
                m &= m >> 1 | 1;
            }
            adj.push(m);
        }
        let mut expected = vec![0; n];
        brute(&adj, 0, 0, &mut Vec::new(), &mut expected);
        let mut mate = [u8::MAX; Shape::MAX_SIDE];
        for m in &mut mate[..n] {
            if next().is_multiple_of(2) {
                *m = (next() % n as u64) as u8;
            }
        }
        let mut allowed = vec![0; n];
        let found = permutation(&adj, &mut mate, &mut allowed);
        if expected.contains(&0) {
            assert!(!found, "{adj:?}: no perfect matching, but one reported");
            impossible += 1;
        } else {
            assert!(found, "{adj:?}: a perfect matching missed");
            assert_eq!(allowed, expected, "{adj:?}");
            pruned += usize::from(allowed != adj);
        }
    }
    assert!(
        pruned > 100 && impossible > 100,
        "{pruned} pruned, {impossible} impossible"
    );
}

/// The fast all-different filter (`matching::filter_fast`: the node's matching repaired, then
/// components found by two searches each) against the full filter, itself held to brute force
/// above: on random units of 4 to 25 cells, some decided, with stale matchings to start from,
/// whenever the fast filter answers it keeps exactly the options the full filter keeps, and it never
/// reports a matching where there is none.
#[test]
fn fast_matching_filter_agrees_with_the_full_filter() {
    use super::Mask;
    use super::matching::{filter_fast, permutation};
    use crate::grid::Shape;

    let mut next = xorshift(0x2545_f491_4f6c_dd1d);
    let (mut pruned, mut kept, mut unsure) = (0, 0, 0);
    for round in 0..20_000 {
        let n = 4 + round % 22;
        // A hidden solution: item i takes value solution[i].
        let mut solution: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            solution.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        let decided: Mask = (0..n)
            .filter(|_| next().is_multiple_of(4))
            .fold(0, |m, i| m | 1 << i);
        let taken: Mask = (0..n)
            .filter(|&i| decided & 1 << i != 0)
            .fold(0, |m, i| m | 1 << solution[i]);
        let free: Mask = ((1 << n) - 1) & !taken;
        let density = 1 + next() % 6;
        let mut adj = [0 as Mask; Shape::MAX_SIDE];
        for i in 0..n {
            if decided & 1 << i != 0 {
                adj[i] = 1 << solution[i];
                continue;
            }
            let mut m: Mask = 1 << solution[i];
            for _ in 0..density {
                m |= 1 << (next() % n as u64);
            }
            m &= free;
            // Sometimes the solution's value goes: often no perfect matching is left.
            if next().is_multiple_of(8) {
                m &= !(1 << solution[i]);
            }
            if m.count_ones() < 2 {
                m |= 1 << (free.trailing_zeros());
                m |= 1 << (31 - (free << (32 - n) >> (32 - n)).leading_zeros());
            }
            adj[i] = m & free;
        }
        let open: Mask = (0..n)
            .filter(|&i| decided & 1 << i == 0 && adj[i].count_ones() >= 2)
            .fold(0, |m, i| m | 1 << i);
        if open.count_ones() < 2 || open | decided != (1 << n) - 1 {
            continue;
        }
        let values = (0..n)
            .filter(|&i| open & 1 << i != 0)
            .fold(0, |m, i| m | adj[i]);
        let mut places = [0 as Mask; Shape::MAX_SIDE];
        for (i, &a) in adj[..n].iter().enumerate() {
            for (j, p) in places[..n].iter_mut().enumerate() {
                if a & 1 << j != 0 {
                    *p |= 1 << i;
                }
            }
        }
        let mut stale = [u8::MAX; Shape::MAX_SIDE];
        for m in &mut stale[..n] {
            if !next().is_multiple_of(3) {
                *m = (next() % n as u64) as u8;
            }
        }
        let mut full = [0 as Mask; Shape::MAX_SIDE];
        let mut mate = stale;
        let found = permutation(&adj[..n], &mut mate, &mut full[..n]);
        let mut fast = adj;
        let mut mate = stale;
        match filter_fast(&adj, open, values, &mut mate, &places[..n], &mut fast) {
            None => unsure += 1,
            Some(any) => {
                assert!(found, "{:?}: a matching reported where none is", &adj[..n]);
                for i in (0..n).filter(|&i| open & 1 << i != 0) {
                    assert_eq!(fast[i], full[i], "item {i} of {:?}", &adj[..n]);
                }
                assert_eq!(any, (0..n).any(|i| fast[i] != adj[i]));
                if any {
                    pruned += 1;
                } else {
                    kept += 1;
                }
            }
        }
    }
    assert!(
        pruned > 100 && kept > 100 && unsure > 100,
        "{pruned} pruned, {kept} kept, {unsure} unsure"
    );
}

/// A small seeded generator (xorshift64) for the random graphs above: the same cases every run.
fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}
