//! Criterion benchmarks of the variant solver: one 9x9 puzzle per rule family, each solved in
//! prove-unique mode. Each puzzle is a grid that satisfies the family's grid-wide rules (the classic
//! sample grid when there are none), the family's clues read off it, and a fixed set of givens.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use sudoku_core::solver::{Options, Verdict};
use sudoku_core::variant::{Diagonal, Line, Relation, Rule, Variant, solve};

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

/// Grids that satisfy the grid-wide rules of a family, as the solver's first solution of the empty
/// grid under them.
const ANTI_KNIGHT_KING: &str =
    "123456789456789123789123456234567891567891234891234567345678912678912345912345678";
const NON_CONSECUTIVE: &str =
    "135279468468513792792846135246381579579624813813957246351792684684135927927468351";
const DIAGONALS_WINDOKU_DISJOINT: &str =
    "123456789456789123789123456534297861871634592962518374348972615217365948695841237";

/// The puzzle with `grid` given at `givens`, under `structure` and the `clues` read off `grid`.
/// The givens were picked by adding one at a time (where the true candidates were most open) until
/// the solution was unique.
fn build(
    grid: &str,
    structure: Vec<Rule>,
    clues: impl Fn(&[u8]) -> Vec<Rule>,
    givens: &[usize],
) -> Variant {
    let grid: Vec<u8> = grid.bytes().map(|b| b - b'0').collect();
    let mut rules = structure;
    rules.extend(clues(&grid));
    let mut given = vec![0; 81];
    for &c in givens {
        given[c] = grid[c];
    }
    let v = Variant::new(9, given, Variant::default_regions(9), rules).unwrap();
    assert!(v.is_solved_by(&grid));
    v
}

fn puzzles() -> Vec<(&'static str, Variant)> {
    vec![
        (
            "killer (dominoes)",
            build(
                SOLVED,
                Vec::new(),
                |s| {
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
                },
                &[50, 55, 70, 73, 77, 79],
            ),
        ),
        (
            "little killer",
            build(
                SOLVED,
                Vec::new(),
                |s| {
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
                },
                &[0, 16, 23, 30, 37, 53, 60, 67, 74],
            ),
        ),
        (
            "sandwich",
            build(
                SOLVED,
                Vec::new(),
                |s| {
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
                },
                &[0, 11, 15, 26, 37, 51, 68, 71, 74, 80],
            ),
        ),
        (
            "thermometers and arrows",
            build(
                SOLVED,
                Vec::new(),
                |_| {
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
                },
                &[
                    0, 12, 15, 21, 37, 45, 52, 54, 56, 65, 67, 68, 71, 73, 79, 80,
                ],
            ),
        ),
        (
            "kropki with negative",
            build(
                SOLVED,
                Vec::new(),
                |s| {
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
                },
                &[],
            ),
        ),
        (
            "xv with negative",
            build(
                SOLVED,
                Vec::new(),
                |s| {
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
                },
                &[79, 80],
            ),
        ),
        (
            "anti-knight and anti-king",
            build(
                ANTI_KNIGHT_KING,
                vec![Rule::AntiKnight, Rule::AntiKing],
                |_| Vec::new(),
                &[0, 23, 30, 37, 67, 74, 76, 79, 80],
            ),
        ),
        (
            "non-consecutive",
            build(
                NON_CONSECUTIVE,
                vec![Rule::NonConsecutive],
                |_| Vec::new(),
                &[0, 16, 23, 30, 37, 60, 67, 74],
            ),
        ),
        (
            "diagonals, windoku, disjoint groups",
            build(
                DIAGONALS_WINDOKU_DISJOINT,
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
                &[0, 16, 23, 30, 36, 37, 53, 60, 67, 69, 74],
            ),
        ),
        (
            "parity",
            build(
                SOLVED,
                Vec::new(),
                |s| {
                    (0..81)
                        .filter(|c| c % 2 == 0)
                        .map(|cell| Rule::Parity {
                            cell,
                            even: s[cell] % 2 == 0,
                        })
                        .collect()
                },
                &[
                    0, 15, 16, 21, 23, 30, 33, 37, 41, 44, 45, 52, 53, 59, 60, 67, 69, 74, 79,
                ],
            ),
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
