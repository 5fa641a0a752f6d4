//! The variant solver against an independent brute force on random small instances, on hand-made
//! puzzles with known solutions, and under a guess budget and a cancel flag.

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;
use sudoku_core::solver::{Mode, Options, Verdict};
use sudoku_core::variant::{
    Diagonal, Line, Relation, Rule, Variant, VariantOutcome, solve, true_candidates,
};

// ---------------------------------------------------------------------------------------------
// The reference: plain backtracking, cell by cell in row-major order, that checks each rule
// (written again here, independently of the crate) once the cells it needs are filled.
// ---------------------------------------------------------------------------------------------

fn relation_ok(relation: Relation, a: u8, b: u8) -> bool {
    let (a, b) = (i32::from(a), i32::from(b));
    match relation {
        Relation::Difference(d) => (a - b).abs() == i32::from(d),
        Relation::Ratio(r) => a == b * i32::from(r) || b == a * i32::from(r),
        Relation::Sum(s) => a + b == i32::from(s),
    }
}

struct Reference<'a> {
    v: &'a Variant,
    side: usize,
    /// Each cell's index within its region, row-major (for disjoint groups).
    rank: Vec<usize>,
    /// Each cell's row, column and region mates.
    mates: Vec<Vec<usize>>,
    /// For each cell, the rules that can see it.
    touching: Vec<Vec<usize>>,
    nodes: u64,
    max_nodes: u64,
}

impl<'a> Reference<'a> {
    fn new(v: &'a Variant, max_nodes: u64) -> Self {
        let side = v.side();
        let n = side * side;
        let mut seen = [0; 16];
        let rank = v
            .regions()
            .iter()
            .map(|&r| {
                let k = seen[r as usize];
                seen[r as usize] += 1;
                k
            })
            .collect();
        let mates = (0..n)
            .map(|a| {
                (0..n)
                    .filter(|&b| {
                        b != a
                            && (a / side == b / side
                                || a % side == b % side
                                || v.regions()[a] == v.regions()[b])
                    })
                    .collect()
            })
            .collect();
        let touching = (0..n)
            .map(|cell| {
                v.rules()
                    .iter()
                    .enumerate()
                    .filter(|(_, rule)| match rule {
                        Rule::ExtraRegion(cells)
                        | Rule::Cage { cells, .. }
                        | Rule::LittleKiller { cells, .. }
                        | Rule::Thermometer(cells) => cells.contains(&cell),
                        Rule::Arrow { circle, shaft } => {
                            circle.contains(&cell) || shaft.contains(&cell)
                        }
                        Rule::Pair { cells, .. } => cells.contains(&cell),
                        Rule::Parity { cell: c, .. } => *c == cell,
                        Rule::Sandwich { line, .. } => match *line {
                            Line::Row(i) => cell / side == i,
                            Line::Column(i) => cell % side == i,
                        },
                        _ => true,
                    })
                    .map(|(i, _)| i)
                    .collect()
            })
            .collect();
        Reference {
            v,
            side,
            rank,
            mates,
            touching,
            nodes: 0,
            max_nodes,
        }
    }

    fn rc(&self, cell: usize) -> (i64, i64) {
        ((cell / self.side) as i64, (cell % self.side) as i64)
    }

    fn at(&self, g: &[u8], r: i64, c: i64) -> Option<u8> {
        let s = self.side as i64;
        ((0..s).contains(&r) && (0..s).contains(&c)).then(|| g[(r * s + c) as usize])
    }

    fn filled(g: &[u8], cells: &[usize]) -> bool {
        cells.iter().all(|&c| g[c] != 0)
    }

    fn distinct(g: &[u8], cells: &[usize]) -> bool {
        let mut seen = 0u32;
        for &c in cells {
            if g[c] != 0 {
                if seen & (1 << g[c]) != 0 {
                    return false;
                }
                seen |= 1 << g[c];
            }
        }
        true
    }

    fn sum(g: &[u8], cells: &[usize]) -> u32 {
        cells.iter().map(|&c| u32::from(g[c])).sum()
    }

    /// Whether the partial grid `g`, `cell` just filled, breaks nothing it can already see.
    fn ok(&self, g: &[u8], cell: usize) -> bool {
        let side = self.side;
        let x = g[cell];
        let (r, c) = self.rc(cell);
        if self.mates[cell].iter().any(|&o| g[o] == x) {
            return false;
        }
        for &i in &self.touching[cell] {
            let rule = &self.v.rules()[i];
            let fine = match rule {
                Rule::Diagonal(d) => {
                    let on = |cell: usize| {
                        let (r, c) = self.rc(cell);
                        match d {
                            Diagonal::Negative => r == c,
                            Diagonal::Positive => r + c == side as i64 - 1,
                        }
                    };
                    !on(cell) || (0..side * side).all(|o| o == cell || !on(o) || g[o] != x)
                }
                Rule::ExtraRegion(cells) => !cells.contains(&cell) || Self::distinct(g, cells),
                Rule::DisjointGroups => (0..side * side)
                    .all(|o| o == cell || self.rank[o] != self.rank[cell] || g[o] != x),
                Rule::AntiKnight | Rule::AntiKing => {
                    let steps: &[(i64, i64)] = if matches!(rule, Rule::AntiKnight) {
                        &[
                            (1, 2),
                            (2, 1),
                            (-1, 2),
                            (-2, 1),
                            (1, -2),
                            (2, -1),
                            (-1, -2),
                            (-2, -1),
                        ]
                    } else {
                        &[
                            (1, 1),
                            (1, 0),
                            (1, -1),
                            (0, 1),
                            (0, -1),
                            (-1, 1),
                            (-1, 0),
                            (-1, -1),
                        ]
                    };
                    steps
                        .iter()
                        .all(|(dr, dc)| self.at(g, r + dr, c + dc) != Some(x))
                }
                Rule::NonConsecutive => {
                    [(0, 1), (1, 0), (0, -1), (-1, 0)].iter().all(|(dr, dc)| {
                        self.at(g, r + dr, c + dc)
                            .is_none_or(|y| y == 0 || (i32::from(x) - i32::from(y)).abs() != 1)
                    })
                }
                Rule::Cage { cells, sum } => {
                    !cells.contains(&cell)
                        || (Self::distinct(g, cells)
                            && sum.is_none_or(|s| {
                                let empty = cells.iter().filter(|&&c| g[c] == 0).count() as u32;
                                let part = Self::sum(g, cells);
                                if empty == 0 {
                                    part == s
                                } else {
                                    part + empty <= s
                                }
                            }))
                }
                Rule::LittleKiller { cells, sum } => {
                    !cells.contains(&cell) || !Self::filled(g, cells) || Self::sum(g, cells) == *sum
                }
                Rule::Sandwich { line, sum } => {
                    let cells: Vec<usize> = match *line {
                        Line::Row(i) => (0..side).map(|k| i * side + k).collect(),
                        Line::Column(i) => (0..side).map(|k| k * side + i).collect(),
                    };
                    if !Self::filled(g, &cells) {
                        true
                    } else {
                        let p = cells.iter().position(|&c| g[c] == 1).unwrap();
                        let q = cells.iter().position(|&c| g[c] as usize == side).unwrap();
                        let (lo, hi) = (p.min(q), p.max(q));
                        let between: u32 = (lo + 1..hi).map(|k| u32::from(g[cells[k]])).sum();
                        between == *sum
                    }
                }
                Rule::Thermometer(cells) => cells
                    .windows(2)
                    .all(|w| g[w[0]] == 0 || g[w[1]] == 0 || g[w[0]] < g[w[1]]),
                Rule::Arrow { circle, shaft } => {
                    if !Self::filled(g, circle) || !Self::filled(g, shaft) {
                        true
                    } else {
                        let n = circle.iter().fold(0u32, |n, &c| n * 10 + u32::from(g[c]));
                        n == Self::sum(g, shaft)
                    }
                }
                Rule::Pair {
                    cells: [a, b],
                    relation,
                } => g[*a] == 0 || g[*b] == 0 || relation_ok(*relation, g[*a], g[*b]),
                Rule::Negative { relation, except } => {
                    [(0, 1), (1, 0), (0, -1), (-1, 0)].iter().all(|(dr, dc)| {
                        let (r2, c2) = (r + dr, c + dc);
                        match self.at(g, r2, c2) {
                            None | Some(0) => true,
                            Some(y) => {
                                let o = (r2 * side as i64 + c2) as usize;
                                except.iter().any(|p| *p == [cell, o] || *p == [o, cell])
                                    || !relation_ok(*relation, x, y)
                            }
                        }
                    })
                }
                Rule::Parity { cell: p, even } => *p != cell || x.is_multiple_of(2) == *even,
            };
            if !fine {
                return false;
            }
        }
        true
    }

    /// Fills the empty cells of `g`, most constrained first, trying values in the order `order`
    /// gives; `visit` gets each solution and says whether to stop. `None` when the node budget ran
    /// out.
    fn search(
        &mut self,
        g: &mut Vec<u8>,
        order: &mut dyn FnMut() -> Vec<u8>,
        visit: &mut dyn FnMut(&[u8]) -> bool,
    ) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return None;
        }
        let mut best: Option<(usize, Vec<u8>)> = None;
        for cell in 0..g.len() {
            if g[cell] != 0 {
                continue;
            }
            let mut fits = Vec::new();
            for x in 1..=self.side as u8 {
                g[cell] = x;
                if self.ok(g, cell) {
                    fits.push(x);
                }
            }
            g[cell] = 0;
            if best.as_ref().is_none_or(|(_, b)| fits.len() < b.len()) {
                let dead = fits.is_empty();
                best = Some((cell, fits));
                if dead {
                    return Some(false);
                }
            }
        }
        let Some((cell, fits)) = best else {
            assert!(
                self.v.is_solved_by(g),
                "the reference and is_solved_by disagree on {g:?} for {:?}",
                self.v
            );
            return Some(visit(g));
        };
        for x in order() {
            if !fits.contains(&x) {
                continue;
            }
            g[cell] = x;
            if self.search(g, order, visit)? {
                g[cell] = 0;
                return Some(true);
            }
        }
        g[cell] = 0;
        Some(false)
    }

    /// The givens placed (and `fix` too), or `None` when they already clash.
    fn start(&self, fix: Option<(usize, u8)>) -> Option<Vec<u8>> {
        let mut g = self.v.givens().to_vec();
        if let Some((cell, value)) = fix {
            if g[cell] != 0 && g[cell] != value {
                return None;
            }
            g[cell] = value;
        }
        (0..g.len())
            .filter(|&c| g[c] != 0)
            .all(|c| self.ok(&g, c))
            .then_some(g)
    }

    /// The first solution, with `cell` holding `value` if asked.
    fn first(&mut self, fix: Option<(usize, u8)>) -> Option<Option<Vec<u8>>> {
        let side = self.side as u8;
        let Some(mut g) = self.start(fix) else {
            return Some(None);
        };
        let mut found = None;
        self.search(&mut g, &mut || (1..=side).collect(), &mut |s| {
            found = Some(s.to_vec());
            true
        })?;
        Some(found)
    }

    /// Up to `limit` solutions.
    fn solutions(&mut self, limit: usize) -> Option<Vec<Vec<u8>>> {
        let side = self.side as u8;
        let mut all = Vec::new();
        let Some(mut g) = self.start(None) else {
            return Some(all);
        };
        self.search(&mut g, &mut || (1..=side).collect(), &mut |s| {
            all.push(s.to_vec());
            all.len() >= limit
        })?;
        Some(all)
    }

    /// The true candidates, one search per (cell, value) not yet seen in a solution.
    fn true_candidates(&mut self) -> Option<Vec<u16>> {
        let n = self.side * self.side;
        let mut marks = vec![0u16; n];
        for cell in 0..n {
            for value in 1..=self.side as u8 {
                if marks[cell] & (1 << (value - 1)) != 0 {
                    continue;
                }
                if let Some(s) = self.first(Some((cell, value)))? {
                    for (m, &x) in marks.iter_mut().zip(&s) {
                        *m |= 1 << (x - 1);
                    }
                }
            }
        }
        Some(marks)
    }
}

// ---------------------------------------------------------------------------------------------
// Random instances: a random solution, structural rules it was built under, and rules read off it
// (sometimes nudged so they no longer hold).
// ---------------------------------------------------------------------------------------------

fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

fn chance(rng: &mut Xoshiro256PlusPlus, percent: usize) -> bool {
    below(rng, 100) < percent
}

fn shuffled(rng: &mut Xoshiro256PlusPlus, side: u8) -> Vec<u8> {
    let mut values: Vec<u8> = (1..=side).collect();
    for i in (1..values.len()).rev() {
        values.swap(i, below(rng, i + 1));
    }
    values
}

const JIGSAW_4: [u8; 16] = [0, 0, 0, 1, 2, 0, 1, 1, 2, 3, 3, 1, 2, 2, 3, 3];
const JIGSAW_6: [u8; 36] = [
    0, 0, 0, 1, 1, 1, //
    0, 0, 2, 1, 1, 1, //
    0, 2, 2, 2, 3, 3, //
    4, 2, 2, 3, 3, 3, //
    4, 4, 5, 5, 5, 3, //
    4, 4, 4, 5, 5, 5, //
];

/// A random solution of the grid with these regions and structural rules, if one turns up quickly.
fn random_solution(
    rng: &mut Xoshiro256PlusPlus,
    side: usize,
    regions: &[u8],
    rules: Vec<Rule>,
) -> Option<Vec<u8>> {
    let v = Variant::new(side, vec![0; side * side], regions.to_vec(), rules).ok()?;
    let mut reference = Reference::new(&v, 1_500);
    let mut found = None;
    let mut g = vec![0; side * side];
    let mut seed = Xoshiro256PlusPlus::seed_from_u64(rng.next_u64());
    reference.search(&mut g, &mut || shuffled(&mut seed, side as u8), &mut |s| {
        found = Some(s.to_vec());
        true
    })?;
    found
}

fn neighbours(side: usize, cell: usize, diagonal: bool) -> Vec<usize> {
    let (r, c) = ((cell / side) as i64, (cell % side) as i64);
    let mut out = Vec::new();
    for dr in -1..=1i64 {
        for dc in -1..=1i64 {
            if (dr, dc) == (0, 0) || (!diagonal && dr != 0 && dc != 0) {
                continue;
            }
            let (r2, c2) = (r + dr, c + dc);
            if (0..side as i64).contains(&r2) && (0..side as i64).contains(&c2) {
                out.push((r2 * side as i64 + c2) as usize);
            }
        }
    }
    out
}

/// A random walk of up to `len` distinct cells, each a neighbour of the last that `step` accepts.
fn walk(
    rng: &mut Xoshiro256PlusPlus,
    side: usize,
    len: usize,
    diagonal: bool,
    step: impl Fn(&[usize], usize) -> bool,
) -> Vec<usize> {
    let mut cells = vec![below(rng, side * side)];
    while cells.len() < len {
        let last = *cells.last().unwrap();
        let options: Vec<usize> = neighbours(side, last, diagonal)
            .into_iter()
            .filter(|n| !cells.contains(n) && step(&cells, *n))
            .collect();
        if options.is_empty() {
            break;
        }
        cells.push(options[below(rng, options.len())]);
    }
    cells
}

fn derived_rule(rng: &mut Xoshiro256PlusPlus, side: usize, s: &[u8]) -> Option<Rule> {
    let nudge = |rng: &mut Xoshiro256PlusPlus, x: u32| {
        if chance(rng, 15) { x + 1 } else { x }
    };
    let rule = match below(rng, 9) {
        0 => {
            let len = 2 + below(rng, 3.min(side - 1));
            let cells = walk(rng, side, len, false, |cs, n| {
                cs.iter().all(|&c| s[c] != s[n])
            });
            let total = cells.iter().map(|&c| u32::from(s[c])).sum();
            let sum = if chance(rng, 20) {
                None
            } else {
                Some(nudge(rng, total))
            };
            Rule::Cage { cells, sum }
        }
        1 => {
            // A diagonal run, down-right or down-left.
            let start = below(rng, side * side);
            let left = chance(rng, 50);
            let mut cells = vec![start];
            let len = 2 + below(rng, side);
            while cells.len() < len {
                let last = *cells.last().unwrap();
                let (r, c) = (last / side, last % side);
                if r + 1 >= side || (left && c == 0) || (!left && c + 1 >= side) {
                    break;
                }
                cells.push((r + 1) * side + if left { c - 1 } else { c + 1 });
            }
            let sum = cells.iter().map(|&c| u32::from(s[c])).sum();
            Rule::LittleKiller {
                sum: nudge(rng, sum),
                cells,
            }
        }
        2 => {
            let i = below(rng, side);
            let line = if chance(rng, 50) {
                Line::Row(i)
            } else {
                Line::Column(i)
            };
            let cells: Vec<usize> = match line {
                Line::Row(i) => (0..side).map(|k| i * side + k).collect(),
                Line::Column(i) => (0..side).map(|k| k * side + i).collect(),
            };
            let p = cells.iter().position(|&c| s[c] == 1)?;
            let q = cells.iter().position(|&c| s[c] as usize == side)?;
            let (lo, hi) = (p.min(q), p.max(q));
            let sum = (lo + 1..hi).map(|k| u32::from(s[cells[k]])).sum();
            Rule::Sandwich {
                line,
                sum: nudge(rng, sum),
            }
        }
        3 => {
            let len = 2 + below(rng, 4);
            let cells = walk(rng, side, len, true, |cs, n| s[*cs.last().unwrap()] < s[n]);
            if cells.len() < 2 {
                return None;
            }
            Rule::Thermometer(cells)
        }
        4 => {
            // An arrow whose shaft happens to add up to its circle.
            for _ in 0..50 {
                let two = side >= 9 && chance(rng, 30);
                let circle_len = if two { 2 } else { 1 };
                let len = circle_len + 1 + below(rng, 4);
                let cells = walk(rng, side, len, true, |_, _| true);
                if cells.len() <= circle_len {
                    continue;
                }
                let (circle, shaft) = cells.split_at(circle_len);
                let n = circle.iter().fold(0u32, |n, &c| n * 10 + u32::from(s[c]));
                if n == shaft.iter().map(|&c| u32::from(s[c])).sum::<u32>() {
                    return Some(Rule::Arrow {
                        circle: circle.to_vec(),
                        shaft: shaft.to_vec(),
                    });
                }
            }
            return None;
        }
        5 => {
            let a = below(rng, side * side);
            let ns = neighbours(side, a, false);
            let b = ns[below(rng, ns.len())];
            let (x, y) = (s[a].min(s[b]), s[a].max(s[b]));
            let relation = match below(rng, 3) {
                0 => Relation::Difference(y - x),
                1 if y % x == 0 => Relation::Ratio(y / x),
                _ => Relation::Sum(x + y),
            };
            Rule::Pair {
                cells: [a, b],
                relation,
            }
        }
        6 => {
            let relation = match below(rng, 3) {
                0 => Relation::Difference(1),
                1 => Relation::Ratio(2),
                _ => Relation::Sum(side as u8 + 1),
            };
            let mut except: Vec<[usize; 2]> = Vec::new();
            for a in 0..side * side {
                for b in neighbours(side, a, false) {
                    if a < b && relation_ok(relation, s[a], s[b]) && !chance(rng, 5) {
                        except.push([a, b]);
                    }
                }
            }
            Rule::Negative { relation, except }
        }
        7 => {
            let cell = below(rng, side * side);
            Rule::Parity {
                cell,
                even: s[cell].is_multiple_of(2),
            }
        }
        _ => {
            // An extra region the solution keeps distinct.
            let len = 2 + below(rng, side - 1);
            let cells = walk(rng, side, len, true, |cs, n| {
                cs.iter().all(|&c| s[c] != s[n])
            });
            Rule::ExtraRegion(cells)
        }
    };
    Some(rule)
}

fn structural(rng: &mut Xoshiro256PlusPlus) -> Rule {
    match below(rng, 6) {
        0 => Rule::Diagonal(Diagonal::Positive),
        1 => Rule::Diagonal(Diagonal::Negative),
        2 => Rule::DisjointGroups,
        3 => Rule::AntiKnight,
        4 => Rule::AntiKing,
        _ => Rule::NonConsecutive,
    }
}

/// A random instance of `side` with `givens` givens range and up to `rules` derived rules.
fn random_variant(
    rng: &mut Xoshiro256PlusPlus,
    side: usize,
    givens: (usize, usize),
    rules: usize,
) -> Option<Variant> {
    let regions = match side {
        4 if chance(rng, 30) => JIGSAW_4.to_vec(),
        6 if chance(rng, 30) => JIGSAW_6.to_vec(),
        _ => Variant::default_regions(side),
    };
    let mut structure = Vec::new();
    for _ in 0..below(rng, 3) {
        structure.push(structural(rng));
    }
    let solution = random_solution(rng, side, &regions, structure.clone()).or_else(|| {
        structure.clear();
        random_solution(rng, side, &regions, Vec::new())
    })?;
    let mut all = structure;
    for _ in 0..1 + below(rng, rules) {
        if let Some(rule) = derived_rule(rng, side, &solution) {
            // Keep only rules that are well formed on their own.
            if Variant::new(
                side,
                vec![0; side * side],
                regions.clone(),
                vec![rule.clone()],
            )
            .is_ok()
            {
                all.push(rule);
            }
        }
    }
    if chance(rng, 10) {
        all.push(structural(rng));
    }
    let mut grid = vec![0; side * side];
    let count = givens.0 + below(rng, givens.1 - givens.0 + 1);
    for _ in 0..count {
        let c = below(rng, side * side);
        grid[c] = solution[c];
    }
    Variant::new(side, grid, regions, all).ok()
}

fn class(count: usize) -> Verdict {
    match count {
        0 => Verdict::Unsolvable,
        1 => Verdict::Unique,
        _ => Verdict::Multiple,
    }
}

fn check_outcome(v: &Variant, outcome: &VariantOutcome) {
    if let Some(s) = &outcome.solution {
        assert!(v.is_solved_by(s), "returned solution breaks a rule: {v:?}");
    }
}

/// Checks the solver against the reference on one instance: the reference's solution count (0, 1 or
/// 2 for more), or `None` when it gave up.
fn agree(v: &Variant, max_nodes: u64) -> Option<usize> {
    let mut reference = Reference::new(v, max_nodes);
    let first_two = reference.solutions(2)?;
    let truth = reference.true_candidates()?;
    let outcome = solve(v, &Options::default());
    check_outcome(v, &outcome);
    assert_eq!(outcome.verdict, class(first_two.len()), "verdict of {v:?}");
    if first_two.len() == 1 {
        assert_eq!(outcome.solution.as_ref(), Some(&first_two[0]), "{v:?}");
    }
    let first = solve(
        v,
        &Options {
            mode: Mode::FirstSolution,
            ..Options::default()
        },
    );
    check_outcome(v, &first);
    let expected = if first_two.is_empty() {
        Verdict::Unsolvable
    } else {
        Verdict::Solved
    };
    assert_eq!(first.verdict, expected, "first-solution verdict of {v:?}");
    let tc = true_candidates(v, &Options::default());
    assert_eq!(
        tc.verdict,
        class(first_two.len()),
        "true-candidates verdict of {v:?}"
    );
    assert_eq!(tc.cells.as_ref(), Some(&truth), "true candidates of {v:?}");
    Some(first_two.len())
}

fn random_agreement(seed: u64, side: usize, cases: usize, givens: (usize, usize), rules: usize) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut checked, mut skipped) = (0, 0);
    let mut verdicts = [0usize; 3];
    while checked + skipped < cases {
        let Some(v) = random_variant(&mut rng, side, givens, rules) else {
            continue;
        };
        match agree(&v, 300_000) {
            Some(count) => {
                checked += 1;
                verdicts[count] += 1;
            }
            None => skipped += 1,
        }
    }
    eprintln!(
        "{side}x{side}: {checked} checked, {skipped} skipped, by solution count {verdicts:?}"
    );
    assert!(
        checked * 10 >= cases * 8,
        "too many cases skipped: {skipped} of {cases}"
    );
}

#[test]
fn random_4x4_agree_with_brute_force() {
    random_agreement(4, 4, 400, (0, 3), 4);
}

#[test]
fn random_5x5_agree_with_brute_force() {
    // A prime side: the regions are the rows.
    random_agreement(5, 5, 30, (0, 5), 5);
}

#[test]
fn random_6x6_agree_with_brute_force() {
    random_agreement(6, 6, 40, (3, 10), 6);
}

#[test]
fn random_9x9_agree_with_brute_force() {
    random_agreement(9, 9, 30, (38, 50), 5);
}

// ---------------------------------------------------------------------------------------------
// Hand-made puzzles with known solutions.
// ---------------------------------------------------------------------------------------------

/// A classic solved grid the 9x9 puzzles below are built on.
const SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fn digits(text: &str) -> Vec<u8> {
    text.bytes().map(|b| b - b'0').collect()
}

/// `solution` with only the `cells` given.
fn givens_at(solution: &[u8], cells: &[usize]) -> Vec<u8> {
    let mut g = vec![0; solution.len()];
    for &c in cells {
        g[c] = solution[c];
    }
    g
}

fn assert_unique(v: &Variant, solution: &[u8]) {
    assert!(
        v.is_solved_by(solution),
        "the intended solution breaks a rule"
    );
    let outcome = solve(v, &Options::default());
    assert_eq!(outcome.verdict, Verdict::Unique);
    assert_eq!(outcome.solution.as_deref(), Some(solution));
    let tc = true_candidates(v, &Options::default());
    assert_eq!(tc.verdict, Verdict::Unique);
    let singles: Vec<u16> = solution.iter().map(|&x| 1 << (x - 1)).collect();
    assert_eq!(tc.cells, Some(singles));
}

/// Dominoes along each row (the last column paired down it, its bottom cell alone), each caged
/// with its total.
fn domino_cages(s: &[u8]) -> Vec<Rule> {
    let cage = |cells: Vec<usize>| {
        let sum = cells.iter().map(|&x| u32::from(s[x])).sum();
        Rule::Cage {
            cells,
            sum: Some(sum),
        }
    };
    let mut rules = Vec::new();
    for r in 0..9 {
        for c in (0..8).step_by(2) {
            rules.push(cage(vec![r * 9 + c, r * 9 + c + 1]));
        }
    }
    for r in (0..8).step_by(2) {
        rules.push(cage(vec![r * 9 + 8, (r + 1) * 9 + 8]));
    }
    rules
}

#[test]
fn killer_with_six_givens_is_unique() {
    let s = digits(SOLVED);
    let v = Variant::new(
        9,
        givens_at(&s, &[50, 55, 70, 73, 77, 79]),
        Variant::default_regions(9),
        domino_cages(&s),
    )
    .unwrap();
    assert_unique(&v, &s);
    // One given fewer, and there is more than one.
    let fewer = Variant::new(
        9,
        givens_at(&s, &[50, 55, 70, 73, 77]),
        Variant::default_regions(9),
        domino_cages(&s),
    )
    .unwrap();
    assert_eq!(
        solve(&fewer, &Options::default()).verdict,
        Verdict::Multiple
    );
}

#[test]
fn thermometers_and_arrows_with_sixteen_givens_are_unique() {
    let s = digits(SOLVED);
    let rules = vec![
        Rule::Thermometer(vec![62, 53, 43]),
        Rule::Thermometer(vec![28, 38, 48]),
        Rule::Arrow {
            circle: vec![6],
            shaft: vec![7, 17],
        },
        Rule::Arrow {
            circle: vec![40],
            shaft: vec![49, 58],
        },
        Rule::Arrow {
            circle: vec![19],
            shaft: vec![29],
        },
        Rule::Arrow {
            circle: vec![26],
            shaft: vec![34, 24],
        },
        Rule::Thermometer(vec![40, 39, 48]),
        Rule::Arrow {
            circle: vec![32, 22],
            shaft: vec![31, 39],
        },
    ];
    let cells = [
        0, 12, 15, 21, 37, 45, 52, 54, 56, 65, 67, 68, 71, 73, 79, 80,
    ];
    let v = Variant::new(9, givens_at(&s, &cells), Variant::default_regions(9), rules).unwrap();
    assert_unique(&v, &s);
}

#[test]
fn jigsaw_6x6_is_unique() {
    let solution = vec![
        2, 5, 1, 4, 3, 6, //
        6, 3, 4, 1, 5, 2, //
        4, 6, 3, 2, 1, 5, //
        3, 1, 5, 6, 2, 4, //
        1, 4, 2, 5, 6, 3, //
        5, 2, 6, 3, 4, 1, //
    ];
    let cells = [7, 11, 12, 14, 20, 21, 22, 25, 30, 34, 35];
    let v = Variant::new(
        6,
        givens_at(&solution, &cells),
        JIGSAW_6.to_vec(),
        Vec::new(),
    )
    .unwrap();
    assert!(!v.has_default_regions());
    assert_unique(&v, &solution);
    // The brute force agrees that it is the only one.
    let all = Reference::new(&v, u64::MAX).solutions(2).unwrap();
    assert_eq!(all, vec![solution]);
}

#[test]
fn tiny_and_odd_sides_never_panic() {
    for side in 1..=7 {
        let regions = Variant::default_regions(side);
        let rule_sets = vec![
            vec![],
            vec![
                Rule::Diagonal(Diagonal::Negative),
                Rule::Sandwich {
                    line: Line::Row(0),
                    sum: 0,
                },
            ],
            vec![Rule::AntiKing, Rule::NonConsecutive],
            vec![Rule::DisjointGroups, Rule::AntiKnight],
        ];
        for rules in rule_sets {
            let Ok(v) = Variant::new(side, vec![0; side * side], regions.clone(), rules) else {
                continue;
            };
            let options = Options {
                max_guesses: Some(20_000),
                ..Options::default()
            };
            let outcome = solve(&v, &options);
            check_outcome(&v, &outcome);
            if side <= 4 {
                let count = Reference::new(&v, u64::MAX).solutions(2).unwrap().len();
                assert_eq!(outcome.verdict, class(count), "{v:?}");
            }
        }
    }
}

#[test]
fn sixteen_by_sixteen_solves_within_budget() {
    let side = 16;
    let v = Variant::new(
        side,
        vec![0; side * side],
        Variant::default_regions(side),
        vec![
            Rule::Diagonal(Diagonal::Positive),
            Rule::Diagonal(Diagonal::Negative),
        ],
    )
    .unwrap();
    let outcome = solve(
        &v,
        &Options {
            mode: Mode::FirstSolution,
            max_guesses: Some(100_000),
            ..Options::default()
        },
    );
    check_outcome(&v, &outcome);
    assert!(matches!(
        outcome.verdict,
        Verdict::Solved | Verdict::LimitReached
    ));
}

// ---------------------------------------------------------------------------------------------
// Budget and cancellation.
// ---------------------------------------------------------------------------------------------

/// The thermometer-and-arrow puzzle with no givens: thousands of solutions, so any full account of
/// them takes many guesses.
fn open_thermo_puzzle() -> Variant {
    let rules = vec![
        Rule::Thermometer(vec![62, 53, 43]),
        Rule::Thermometer(vec![28, 38, 48]),
        Rule::Arrow {
            circle: vec![32, 22],
            shaft: vec![31, 39],
        },
    ];
    Variant::new(9, vec![0; 81], Variant::default_regions(9), rules).unwrap()
}

#[test]
fn a_tiny_budget_gives_limit_reached() {
    let v = open_thermo_puzzle();
    let options = Options {
        max_guesses: Some(3),
        ..Options::default()
    };
    let outcome = solve(&v, &options);
    assert_eq!(outcome.verdict, Verdict::LimitReached);
    assert!(outcome.stats.guesses <= 3);
    check_outcome(&v, &outcome);
    let tc = true_candidates(&v, &options);
    assert_eq!(tc.verdict, Verdict::LimitReached);
    assert_eq!(tc.cells, None);
    assert!(tc.stats.guesses <= 3);
}

#[test]
fn a_raised_flag_gives_cancelled() {
    let v = open_thermo_puzzle();
    let flag = AtomicBool::new(true);
    let options = Options {
        cancel: Some(&flag),
        ..Options::default()
    };
    let outcome = solve(&v, &options);
    assert_eq!(outcome.verdict, Verdict::Cancelled);
    assert_eq!(outcome.solution, None);
    let tc = true_candidates(&v, &options);
    assert_eq!(tc.verdict, Verdict::Cancelled);
    assert_eq!(tc.cells, None);
}

#[test]
fn unsolvable_gives_all_zero_true_candidates() {
    // Two cells of a row whose cage needs them to add up to 3 with a 2 given beside: no solution.
    let mut givens = vec![0; 16];
    givens[2] = 2;
    let v = Variant::new(
        4,
        givens,
        Variant::default_regions(4),
        vec![Rule::Cage {
            cells: vec![0, 1],
            sum: Some(3),
        }],
    )
    .unwrap();
    assert_eq!(solve(&v, &Options::default()).verdict, Verdict::Unsolvable);
    let tc = true_candidates(&v, &Options::default());
    assert_eq!(tc.verdict, Verdict::Unsolvable);
    assert_eq!(tc.cells, Some(vec![0; 16]));
}

// ---------------------------------------------------------------------------------------------
// Any well-formed variant, of any side, with rules drawn at random rather than read off a
// solution: the solver must not panic, must stay within its budget, and whatever it returns must
// hold.
// ---------------------------------------------------------------------------------------------

fn random_rule(rng: &mut Xoshiro256PlusPlus, side: usize) -> Rule {
    let n = side * side;
    let cell = |rng: &mut Xoshiro256PlusPlus| below(rng, n);
    let some_cells = |rng: &mut Xoshiro256PlusPlus, most: usize| {
        let len = 1 + below(rng, most.max(1));
        walk(rng, side, len, true, |_, _| true)
    };
    let relation = |rng: &mut Xoshiro256PlusPlus| {
        let k = 1 + below(rng, 2 * side) as u8;
        match below(rng, 3) {
            0 => Relation::Difference(k.min(side as u8)),
            1 => Relation::Ratio(1 + k % 4),
            _ => Relation::Sum(k),
        }
    };
    match below(rng, 18) {
        0 => Rule::Diagonal(Diagonal::Positive),
        1 => Rule::Diagonal(Diagonal::Negative),
        2 => Rule::ExtraRegion(some_cells(rng, side)),
        3 => Rule::DisjointGroups,
        4 => Rule::AntiKnight,
        5 => Rule::AntiKing,
        6 => Rule::NonConsecutive,
        7 => {
            let cells = some_cells(rng, side);
            let sum = (!chance(rng, 20)).then(|| (below(rng, cells.len() * side) + 1) as u32);
            Rule::Cage { cells, sum }
        }
        8 => {
            let cells = some_cells(rng, 2 * side);
            let sum = (below(rng, cells.len() * side) + 1) as u32;
            Rule::LittleKiller { cells, sum }
        }
        9 => Rule::Sandwich {
            line: if chance(rng, 50) {
                Line::Row(below(rng, side))
            } else {
                Line::Column(below(rng, side))
            },
            sum: below(rng, side * side / 2) as u32,
        },
        10 => Rule::Thermometer(some_cells(rng, side)),
        11 | 12 => {
            let cells = some_cells(rng, 5);
            let split = 1 + below(rng, 2).min(cells.len().saturating_sub(2));
            let (circle, shaft) = cells.split_at(split.min(cells.len()));
            Rule::Arrow {
                circle: circle.to_vec(),
                shaft: shaft.to_vec(),
            }
        }
        13 | 14 => {
            let a = cell(rng);
            let ns = neighbours(side, a, false);
            let b = if ns.is_empty() {
                a
            } else {
                ns[below(rng, ns.len())]
            };
            Rule::Pair {
                cells: [a, b],
                relation: relation(rng),
            }
        }
        15 => {
            let mut except = Vec::new();
            for _ in 0..below(rng, 4) {
                let a = cell(rng);
                let ns = neighbours(side, a, false);
                if !ns.is_empty() {
                    except.push([a, ns[below(rng, ns.len())]]);
                }
            }
            Rule::Negative {
                relation: relation(rng),
                except,
            }
        }
        _ => Rule::Parity {
            cell: cell(rng),
            even: chance(rng, 50),
        },
    }
}

#[test]
fn random_rules_on_every_side_never_panic() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(16);
    let mut verdicts = std::collections::HashMap::new();
    for case in 0..400 {
        let side = 1 + case % 16;
        let mut rules = Vec::new();
        for _ in 0..below(&mut rng, 6) {
            let rule = random_rule(&mut rng, side);
            // Keep the rules that are well formed on their own; the rest are the checker's business.
            let alone = Variant::new(
                side,
                vec![0; side * side],
                Variant::default_regions(side),
                vec![rule.clone()],
            );
            if alone.is_ok() {
                rules.push(rule);
            }
        }
        let mut givens = vec![0; side * side];
        for _ in 0..below(&mut rng, side * side / 8 + 1) {
            givens[below(&mut rng, side * side)] = 1 + below(&mut rng, side) as u8;
        }
        let v = Variant::new(side, givens, Variant::default_regions(side), rules).unwrap();
        let options = Options {
            max_guesses: Some(500),
            ..Options::default()
        };
        let outcome = solve(&v, &options);
        check_outcome(&v, &outcome);
        assert!(outcome.stats.guesses <= 500);
        *verdicts
            .entry(format!("{:?}", outcome.verdict))
            .or_insert(0) += 1;
        let tc = true_candidates(&v, &options);
        assert!(tc.stats.guesses <= 500);
        match tc.verdict {
            Verdict::Unsolvable => assert_eq!(tc.cells, Some(vec![0; side * side])),
            Verdict::Unique | Verdict::Multiple => {
                let cells = tc.cells.expect("a complete answer has the candidates");
                // A complete answer agrees with the solve: a solution's values are all marked.
                if let Some(s) = &outcome.solution {
                    assert!(s.iter().zip(&cells).all(|(&x, &m)| m & (1 << (x - 1)) != 0));
                }
                assert_ne!(outcome.verdict, Verdict::Unsolvable);
            }
            _ => assert_eq!(tc.cells, None),
        }
    }
    eprintln!("verdicts: {verdicts:?}");
}
