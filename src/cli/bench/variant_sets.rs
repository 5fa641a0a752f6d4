//! Makes the variant benchmark's puzzle sets: for each rule family, 9x9 puzzles with a known
//! solution, clues of that family drawn from the solution, and givens dug away while the puzzle
//! stays unique, written as f-puzzles JSON lines. Deterministic from a seed.

use std::io::Write;
use std::path::Path;

use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use sudoku_core::fpuzzles;
use sudoku_core::solver::{Mode, Options, Verdict};
use sudoku_core::variant::{self, Diagonal, Line, Relation, Rule, Variant};

/// A rule family of the benchmark: one file each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Irregular regions.
    Jigsaw,
    /// Both diagonals.
    Diagonals,
    /// Anti-knight and anti-king together.
    AntiChess,
    /// Killer cages covering the grid.
    Killer,
    /// Thermometers.
    Thermo,
    /// Arrows with one-cell circles.
    Arrow,
    /// Every kropki dot, with the negative constraint.
    Kropki,
    /// Every X and V, with the negative constraint.
    Xv,
    /// Every sandwich sum.
    Sandwich,
    /// Little killer diagonals and even/odd cells.
    LittleKiller,
}

impl Family {
    /// Every family, in file order.
    pub const ALL: [Family; 10] = [
        Family::Jigsaw,
        Family::Diagonals,
        Family::AntiChess,
        Family::Killer,
        Family::Thermo,
        Family::Arrow,
        Family::Kropki,
        Family::Xv,
        Family::Sandwich,
        Family::LittleKiller,
    ];

    /// The family's file name, without extension.
    pub fn name(self) -> &'static str {
        match self {
            Family::Jigsaw => "jigsaw",
            Family::Diagonals => "diagonals",
            Family::AntiChess => "anti-knight-king",
            Family::Killer => "killer",
            Family::Thermo => "thermo",
            Family::Arrow => "arrow",
            Family::Kropki => "kropki",
            Family::Xv => "xv",
            Family::Sandwich => "sandwich",
            Family::LittleKiller => "little-killer-parity",
        }
    }
}

const SIDE: usize = 9;
const CELLS: usize = SIDE * SIDE;

/// Writes `count` puzzles of every family into `dir/<family>.fpuzzles.txt`.
pub fn make(dir: &Path, count: usize, seed: u64, out: &mut impl Write) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (number, family) in Family::ALL.into_iter().enumerate() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ ((number as u64 + 1) << 32));
        let path = dir.join(format!("{}.fpuzzles.txt", family.name()));
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path)?);
        let mut made = 0;
        for _ in 0..count * 20 {
            if made == count {
                break;
            }
            if let Some(puzzle) = puzzle(family, &mut rng) {
                writeln!(file, "{}", fpuzzles::to_json(&puzzle))?;
                made += 1;
            }
        }
        anyhow::ensure!(
            made == count,
            "{}: only {made} of {count} puzzles came",
            family.name()
        );
        file.flush()?;
        writeln!(out, "{}: {made} puzzles", path.display())?;
    }
    Ok(())
}

/// A uniform choice in `0..n`.
fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

fn shuffle<T>(rng: &mut Xoshiro256PlusPlus, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        items.swap(i, below(rng, i + 1));
    }
}

/// One unique puzzle of `family`, or `None` when this draw did not work out.
fn puzzle(family: Family, rng: &mut Xoshiro256PlusPlus) -> Option<Variant> {
    let regions = match family {
        Family::Jigsaw => jigsaw(rng)?,
        _ => Variant::default_regions(SIDE),
    };
    // Rules that do not depend on the solution come first; the solution is then one of theirs.
    let unit_rules = match family {
        Family::Diagonals => vec![
            Rule::Diagonal(Diagonal::Positive),
            Rule::Diagonal(Diagonal::Negative),
        ],
        Family::AntiChess => vec![Rule::AntiKnight, Rule::AntiKing],
        _ => Vec::new(),
    };
    let solution = random_solution(&regions, &unit_rules, rng)?;
    let mut rules = unit_rules;
    rules.extend(clues(family, &solution, rng));
    dig(solution, regions, rules, rng)
}

/// A random solution of the grid with `regions` and `rules`: random givens placed one at a time
/// while the grid stays solvable, then the solver's first solution.
fn random_solution(
    regions: &[u8],
    rules: &[Rule],
    rng: &mut Xoshiro256PlusPlus,
) -> Option<Vec<u8>> {
    let options = Options {
        mode: Mode::FirstSolution,
        max_guesses: Some(1_000_000),
        cancel: None,
    };
    let solve = |givens: &[u8]| {
        let variant = Variant::new(SIDE, givens.to_vec(), regions.to_vec(), rules.to_vec()).ok()?;
        variant::solve(&variant, &options).solution
    };
    let mut givens = vec![0u8; CELLS];
    let mut solution = solve(&givens)?;
    for _ in 0..10 {
        let cell = below(rng, CELLS);
        let before = givens[cell];
        givens[cell] = below(rng, SIDE) as u8 + 1;
        match solve(&givens) {
            Some(found) => solution = found,
            None => givens[cell] = before,
        }
    }
    Some(solution)
}

/// Random irregular regions: the boxes, with cells traded between neighbouring regions while every
/// region stays connected.
fn jigsaw(rng: &mut Xoshiro256PlusPlus) -> Option<Vec<u8>> {
    let mut regions = Variant::default_regions(SIDE);
    for _ in 0..400 {
        let (a, b) = (below(rng, CELLS), below(rng, CELLS));
        let (ra, rb) = (regions[a], regions[b]);
        if ra == rb || !touches(&regions, a, rb) || !touches(&regions, b, ra) {
            continue;
        }
        regions.swap(a, b);
        if !connected(&regions, ra) || !connected(&regions, rb) {
            regions.swap(a, b);
        }
    }
    (!regions.eq(&Variant::default_regions(SIDE))).then_some(regions)
}

fn neighbours(cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / SIDE, cell % SIDE);
    [(0, 1), (2, 1), (1, 0), (1, 2)]
        .into_iter()
        .filter_map(move |(dr, dc)| {
            let (r, c) = ((r + dr).checked_sub(1)?, (c + dc).checked_sub(1)?);
            (r < SIDE && c < SIDE).then_some(r * SIDE + c)
        })
}

fn touches(regions: &[u8], cell: usize, region: u8) -> bool {
    neighbours(cell).any(|n| regions[n] == region)
}

fn connected(regions: &[u8], region: u8) -> bool {
    let cells: Vec<usize> = (0..CELLS).filter(|&c| regions[c] == region).collect();
    let mut seen = vec![cells[0]];
    let mut next = 0;
    while next < seen.len() {
        for n in neighbours(seen[next]) {
            if regions[n] == region && !seen.contains(&n) {
                seen.push(n);
            }
        }
        next += 1;
    }
    seen.len() == cells.len()
}

/// The family's clues, true of `s`.
fn clues(family: Family, s: &[u8], rng: &mut Xoshiro256PlusPlus) -> Vec<Rule> {
    let pairs = || {
        (0..CELLS).flat_map(|a| {
            let right = (a % SIDE + 1 < SIDE).then_some([a, a + 1]);
            let down = (a / SIDE + 1 < SIDE).then_some([a, a + SIDE]);
            right.into_iter().chain(down)
        })
    };
    match family {
        Family::Killer => cages(s, rng),
        Family::Thermo => (0..6).filter_map(|_| thermometer(s, rng)).collect(),
        Family::Arrow => (0..6).filter_map(|_| arrow(s, rng)).collect(),
        Family::Kropki => {
            let mut rules: Vec<Rule> = Vec::new();
            let mut dotted = Vec::new();
            for [a, b] in pairs() {
                let relation = if Relation::Difference(1).holds(s[a], s[b]) {
                    Relation::Difference(1)
                } else if Relation::Ratio(2).holds(s[a], s[b]) {
                    Relation::Ratio(2)
                } else {
                    continue;
                };
                dotted.push([a, b]);
                rules.push(Rule::Pair {
                    cells: [a, b],
                    relation,
                });
            }
            for relation in [Relation::Difference(1), Relation::Ratio(2)] {
                rules.push(Rule::Negative {
                    relation,
                    except: dotted.clone(),
                });
            }
            rules
        }
        Family::Xv => {
            let mut rules: Vec<Rule> = Vec::new();
            let mut marked = Vec::new();
            for [a, b] in pairs() {
                let sum = s[a] + s[b];
                if sum == 5 || sum == 10 {
                    marked.push([a, b]);
                    rules.push(Rule::Pair {
                        cells: [a, b],
                        relation: Relation::Sum(sum),
                    });
                }
            }
            for sum in [5, 10] {
                rules.push(Rule::Negative {
                    relation: Relation::Sum(sum),
                    except: marked.clone(),
                });
            }
            rules
        }
        Family::Sandwich => (0..SIDE)
            .flat_map(|i| [Line::Row(i), Line::Column(i)])
            .map(|line| Rule::Sandwich {
                line,
                sum: sandwich_sum(s, line),
            })
            .collect(),
        Family::LittleKiller => {
            let mut rules: Vec<Rule> = (0..6)
                .map(|_| {
                    // A diagonal going down-right from the top row or the left column.
                    let start = if below(rng, 2) == 0 {
                        below(rng, SIDE - 1)
                    } else {
                        below(rng, SIDE - 1) * SIDE
                    };
                    let cells: Vec<usize> = (0..SIDE)
                        .map(|k| start + k * (SIDE + 1))
                        .take_while(|&c| c < CELLS && c % SIDE >= start % SIDE)
                        .collect();
                    let sum = cells.iter().map(|&c| u32::from(s[c])).sum();
                    Rule::LittleKiller { cells, sum }
                })
                .collect();
            rules.sort_by_key(|r| format!("{r:?}"));
            rules.dedup();
            for _ in 0..8 {
                let cell = below(rng, CELLS);
                rules.push(Rule::Parity {
                    cell,
                    even: s[cell].is_multiple_of(2),
                });
            }
            rules
        }
        Family::Jigsaw | Family::Diagonals | Family::AntiChess => Vec::new(),
    }
}

fn sandwich_sum(s: &[u8], line: Line) -> u32 {
    let cells: Vec<usize> = match line {
        Line::Row(r) => (0..SIDE).map(|c| r * SIDE + c).collect(),
        Line::Column(c) => (0..SIDE).map(|r| r * SIDE + c).collect(),
    };
    let at = |v: u8| cells.iter().position(|&c| s[c] == v).unwrap_or(0);
    let (a, b) = (at(1).min(at(9)), at(1).max(at(9)));
    cells[a + 1..b].iter().map(|&c| u32::from(s[c])).sum()
}

/// Cages covering the grid, each of distinct values, grown from random cells.
fn cages(s: &[u8], rng: &mut Xoshiro256PlusPlus) -> Vec<Rule> {
    let mut caged = [false; CELLS];
    let mut order: Vec<usize> = (0..CELLS).collect();
    shuffle(rng, &mut order);
    let mut rules = Vec::new();
    for start in order {
        if caged[start] {
            continue;
        }
        let size = 2 + below(rng, 4);
        let mut cells = vec![start];
        caged[start] = true;
        while cells.len() < size {
            let options: Vec<usize> = cells
                .iter()
                .flat_map(|&c| neighbours(c))
                .filter(|&n| !caged[n] && cells.iter().all(|&c| s[c] != s[n]))
                .collect();
            if options.is_empty() {
                break;
            }
            let next = options[below(rng, options.len())];
            caged[next] = true;
            cells.push(next);
        }
        let sum = cells.iter().map(|&c| u32::from(s[c])).sum();
        rules.push(Rule::Cage {
            cells,
            sum: Some(sum),
        });
    }
    rules
}

/// A thermometer of 3 to 6 cells along increasing values, or `None` if the walk got stuck early.
fn thermometer(s: &[u8], rng: &mut Xoshiro256PlusPlus) -> Option<Rule> {
    let mut cells = vec![below(rng, CELLS)];
    let length = 3 + below(rng, 4);
    while cells.len() < length {
        let last = *cells.last()?;
        let options: Vec<usize> = neighbours(last)
            .filter(|&n| s[n] > s[last] && !cells.contains(&n))
            .collect();
        if options.is_empty() {
            break;
        }
        cells.push(options[below(rng, options.len())]);
    }
    (cells.len() >= 3).then_some(Rule::Thermometer(cells))
}

/// An arrow whose one-cell circle holds the sum of a 2- or 3-cell shaft, found by random walks.
fn arrow(s: &[u8], rng: &mut Xoshiro256PlusPlus) -> Option<Rule> {
    for _ in 0..50 {
        let circle = below(rng, CELLS);
        let mut shaft: Vec<usize> = Vec::new();
        let mut at = circle;
        let mut sum = 0;
        while sum < u32::from(s[circle]) && shaft.len() < 3 {
            let options: Vec<usize> = neighbours(at)
                .filter(|&n| n != circle && !shaft.contains(&n))
                .collect();
            if options.is_empty() {
                break;
            }
            at = options[below(rng, options.len())];
            shaft.push(at);
            sum += u32::from(s[at]);
        }
        if shaft.len() >= 2 && sum == u32::from(s[circle]) {
            return Some(Rule::Arrow {
                circle: vec![circle],
                shaft,
            });
        }
    }
    None
}

/// The puzzle of `rules` with as few givens of `solution` as keep it unique, or `None` when even
/// every given does not make it unique within the budget.
fn dig(
    solution: Vec<u8>,
    regions: Vec<u8>,
    rules: Vec<Rule>,
    rng: &mut Xoshiro256PlusPlus,
) -> Option<Variant> {
    let options = Options {
        max_guesses: Some(20_000),
        ..Options::default()
    };
    let unique = |givens: &[u8]| {
        Variant::new(SIDE, givens.to_vec(), regions.clone(), rules.clone())
            .is_ok_and(|v| variant::solve(&v, &options).verdict == Verdict::Unique)
    };
    let mut givens = solution;
    let mut order: Vec<usize> = (0..CELLS).collect();
    shuffle(rng, &mut order);
    for cell in order {
        let value = givens[cell];
        givens[cell] = 0;
        if !unique(&givens) {
            givens[cell] = value;
        }
    }
    if !unique(&givens) {
        return None;
    }
    Variant::new(SIDE, givens, regions, rules).ok()
}
