//! Criterion benchmarks of the variant solver: one 9x9 puzzle per rule family, each solved in
//! prove-unique mode. Each puzzle is built at start-up, untimed: a grid that satisfies the family's
//! grid-wide rules (the classic sample grid when there are none), the family's clues read off it,
//! and givens added one at a time (where the true candidates are most open, or along a fixed walk
//! while the puzzle is too open to account for cheaply) until the solution is unique.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use sudoku_core::solver::{Mode, Options, Verdict};
use sudoku_core::variant::{Diagonal, Line, Relation, Rule, Variant, solve, true_candidates};

const SOLVED: &str =
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

fn adjacent_pairs() -> Vec<[usize; 2]> {
    let mut pairs = Vec::new();
    for cell in 0..81 {
        if cell % 9 < 8 {
            pairs.push([cell, cell + 1]);
        }
        if cell / 9 < 8 {
            pairs.push([cell, cell + 9]);
        }
    }
    pairs
}

fn total(s: &[u8], cells: &[usize]) -> u32 {
    cells.iter().map(|&c| u32::from(s[c])).sum()
}

/// A unique puzzle: a grid under `structure`, `clues` read off it, then givens until unique.
fn build(structure: Vec<Rule>, clues: impl Fn(&[u8]) -> Vec<Rule>) -> Variant {
    let regions = Variant::default_regions(9);
    eprintln!("building a puzzle under {structure:?}");
    let grid: Vec<u8> = if structure.is_empty() {
        SOLVED.bytes().map(|b| b - b'0').collect()
    } else {
        let empty = Variant::new(9, vec![0; 81], regions.clone(), structure.clone()).unwrap();
        let first = Options {
            mode: Mode::FirstSolution,
            ..Options::default()
        };
        solve(&empty, &first)
            .solution
            .expect("the structure has a solution")
    };
    let mut rules = structure;
    rules.extend(clues(&grid));
    let mut givens = vec![0; 81];
    loop {
        let v = Variant::new(9, givens.clone(), regions.clone(), rules.clone()).unwrap();
        let started = std::time::Instant::now();
        let budget = Options {
            max_guesses: Some(20_000),
            ..Options::default()
        };
        let tc = true_candidates(&v, &budget);
        eprintln!(
            "  true candidates with {} givens: {:?}, {} guesses, {:?}",
            givens.iter().filter(|&&g| g != 0).count(),
            tc.verdict,
            tc.stats.guesses,
            started.elapsed()
        );
        if tc.verdict == Verdict::Unique {
            eprintln!(
                "  givens at {:?}",
                (0..81).filter(|&c| givens[c] != 0).collect::<Vec<_>>()
            );
            return v;
        }
        let open = match tc.cells {
            Some(cells) => (0..81).max_by_key(|&c| cells[c].count_ones()).unwrap(),
            // Too open to account for every solution cheaply: the next empty cell of a fixed walk
            // over the grid.
            None => (0..81)
                .map(|k| k * 37 % 81)
                .find(|&c| givens[c] == 0)
                .unwrap(),
        };
        givens[open] = grid[open];
    }
}

fn puzzles() -> Vec<(&'static str, Variant)> {
    vec![
        (
            "killer (dominoes)",
            build(Vec::new(), |s| {
                let mut rules = Vec::new();
                for r in 0..9 {
                    for c in (0..8).step_by(2) {
                        let cells = vec![r * 9 + c, r * 9 + c + 1];
                        rules.push(Rule::Cage {
                            sum: Some(total(s, &cells)),
                            cells,
                        });
                    }
                }
                for r in (0..8).step_by(2) {
                    let cells = vec![r * 9 + 8, (r + 1) * 9 + 8];
                    rules.push(Rule::Cage {
                        sum: Some(total(s, &cells)),
                        cells,
                    });
                }
                rules
            }),
        ),
        (
            "little killer",
            build(Vec::new(), |s| {
                let mut rules = Vec::new();
                for start in (1..8).map(|r| r * 9).chain(1..8) {
                    let mut cells = vec![start];
                    while cells.len() < 9 {
                        let last = *cells.last().unwrap();
                        if last / 9 == 8 || last % 9 == 8 {
                            break;
                        }
                        cells.push(last + 10);
                    }
                    rules.push(Rule::LittleKiller {
                        sum: total(s, &cells),
                        cells,
                    });
                }
                rules
            }),
        ),
        (
            "sandwich",
            build(Vec::new(), |s| {
                (0..9)
                    .flat_map(|i| [Line::Row(i), Line::Column(i)])
                    .map(|line| {
                        let cells: Vec<usize> = match line {
                            Line::Row(i) => (0..9).map(|k| i * 9 + k).collect(),
                            Line::Column(i) => (0..9).map(|k| k * 9 + i).collect(),
                        };
                        let p = cells.iter().position(|&c| s[c] == 1).unwrap();
                        let q = cells.iter().position(|&c| s[c] == 9).unwrap();
                        let (lo, hi) = (p.min(q), p.max(q));
                        Rule::Sandwich {
                            line,
                            sum: total(s, &cells[lo + 1..hi]),
                        }
                    })
                    .collect()
            }),
        ),
        (
            "thermometers and arrows",
            build(Vec::new(), |_| {
                vec![
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
                ]
            }),
        ),
        (
            "kropki with negative",
            build(Vec::new(), |s| {
                let mut rules = Vec::new();
                let (mut white, mut black) = (Vec::new(), Vec::new());
                for [a, b] in adjacent_pairs() {
                    if Relation::Difference(1).holds(s[a], s[b]) {
                        white.push([a, b]);
                        rules.push(Rule::Pair {
                            cells: [a, b],
                            relation: Relation::Difference(1),
                        });
                    } else if Relation::Ratio(2).holds(s[a], s[b]) {
                        black.push([a, b]);
                        rules.push(Rule::Pair {
                            cells: [a, b],
                            relation: Relation::Ratio(2),
                        });
                    }
                }
                let mut exempt = white.clone();
                exempt.extend(&black);
                rules.push(Rule::Negative {
                    relation: Relation::Difference(1),
                    except: white,
                });
                rules.push(Rule::Negative {
                    relation: Relation::Ratio(2),
                    except: exempt,
                });
                rules
            }),
        ),
        (
            "xv with negative",
            build(Vec::new(), |s| {
                let mut rules = Vec::new();
                let mut marked = Vec::new();
                for [a, b] in adjacent_pairs() {
                    for sum in [5, 10] {
                        if Relation::Sum(sum).holds(s[a], s[b]) {
                            marked.push([a, b]);
                            rules.push(Rule::Pair {
                                cells: [a, b],
                                relation: Relation::Sum(sum),
                            });
                        }
                    }
                }
                for sum in [5, 10] {
                    rules.push(Rule::Negative {
                        relation: Relation::Sum(sum),
                        except: marked.clone(),
                    });
                }
                rules
            }),
        ),
        (
            "anti-knight and anti-king",
            build(vec![Rule::AntiKnight, Rule::AntiKing], |_| Vec::new()),
        ),
        (
            "non-consecutive",
            build(vec![Rule::NonConsecutive], |_| Vec::new()),
        ),
        (
            "diagonals, windoku, disjoint groups",
            build(
                vec![
                    Rule::Diagonal(Diagonal::Positive),
                    Rule::Diagonal(Diagonal::Negative),
                    Rule::DisjointGroups,
                ]
                .into_iter()
                .chain([(1, 1), (1, 5), (5, 1), (5, 5)].map(|(r, c)| {
                    Rule::ExtraRegion((0..9).map(|k| (r + k / 3) * 9 + c + k % 3).collect())
                }))
                .collect(),
                |_| Vec::new(),
            ),
        ),
        (
            "parity",
            build(Vec::new(), |s| {
                (0..81)
                    .filter(|c| c % 2 == 0)
                    .map(|cell| Rule::Parity {
                        cell,
                        even: s[cell] % 2 == 0,
                    })
                    .collect()
            }),
        ),
    ]
}

fn variants(c: &mut Criterion) {
    let options = Options::default();
    let mut group = c.benchmark_group("variant 9x9 prove unique");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    for (name, puzzle) in puzzles() {
        let givens = puzzle.givens().iter().filter(|&&g| g != 0).count();
        let outcome = solve(&puzzle, &options);
        assert_eq!(outcome.verdict, Verdict::Unique, "{name}");
        let label = format!(
            "{name} ({givens} givens, {} guesses)",
            outcome.stats.guesses
        );
        group.bench_function(label, |b| b.iter(|| solve(black_box(&puzzle), &options)));
    }
    group.finish();
}

criterion_group!(benches, variants);
criterion_main!(benches);
