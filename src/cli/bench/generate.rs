//! `bench --generate`: the generator's speed, in-process, per shape and option, beside a textbook
//! generator measured in the same run (each removal checked by proving the whole puzzle unique).
//!
//! Every puzzle made is checked: one solution, the generator's, proved by the solver.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use sudoku_core::generator::{self, Limits, Spec, Symmetry};
use sudoku_core::grader::Difficulty;
use sudoku_core::grid::{Grid, Shape};
use sudoku_core::solver::{self, Options, Verdict};

/// One line of the benchmark: what is made, and how many.
struct Case {
    name: &'static str,
    spec: Spec,
    count: u64,
    /// Graded, and of this level when one is given; `None` outside: not graded.
    level: Option<Option<Difficulty>>,
}

/// What one case measured.
struct Measured {
    puzzles: u64,
    elapsed: Duration,
    clues: u64,
}

/// Makes `count` puzzles of `spec` (graded, and of the level asked, when `level` is given) on
/// `threads` threads, seeds 1.. split between them; then checks each outside the clock. An error
/// names a puzzle that broke a promise.
fn measure(
    spec: &Spec,
    level: Option<Option<Difficulty>>,
    count: u64,
    threads: usize,
) -> anyhow::Result<Measured> {
    let limits = Limits {
        max_attempts: 100_000,
        cancel: None,
    };
    let limits = &limits;
    let start = Instant::now();
    // Each worker's puzzles, checked after the clock stops: the check is the solver's work, not
    // the generator's (a 25x25 proof of uniqueness can take longer than making the puzzle).
    let made = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads as u64)
            .map(|t| {
                scope.spawn(move || -> anyhow::Result<Vec<(u64, Grid, Grid)>> {
                    let mut made = Vec::new();
                    for seed in (1 + t..=count).step_by(threads) {
                        let (puzzle, solution) = match level {
                            None => {
                                let m = generator::generate(spec, seed, limits, |_, _| Some(()))?;
                                (m.puzzle, m.solution)
                            }
                            Some(target) => {
                                let m =
                                    generator::generate_graded(spec, seed, target.into(), limits)?;
                                anyhow::ensure!(
                                    target.is_none_or(|t| t == m.rating.difficulty),
                                    "seed {seed}: graded {:?}",
                                    m.rating.difficulty
                                );
                                (m.puzzle, m.solution)
                            }
                        };
                        made.push((seed, puzzle, solution));
                    }
                    Ok(made)
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().map_err(|_| anyhow::anyhow!("a worker panicked"))?)
            .collect::<anyhow::Result<Vec<_>>>()
    })?;
    let elapsed = start.elapsed();
    let mut clues = 0;
    for (seed, puzzle, solution) in made.into_iter().flatten() {
        let outcome = solver::solve(&puzzle, &Options::default());
        anyhow::ensure!(
            outcome.verdict == Verdict::Unique && outcome.solution.as_ref() == Some(&solution),
            "seed {seed}: {puzzle} is not unique with its solution"
        );
        clues += puzzle.givens() as u64;
    }
    Ok(Measured {
        puzzles: count,
        elapsed,
        clues,
    })
}

/// The textbook generator on the same full grids: blank cells in row-major order, keeping a blank
/// when the solver proves the whole puzzle still unique. Returns puzzles made and the time taken.
fn textbook(count: u64) -> anyhow::Result<Measured> {
    let spec = Spec::new(Shape::NINE, Symmetry::None, true)?;
    // The full grids come from the generator, outside the clock: only digging is compared.
    let grids: Vec<Grid> = (1..=count)
        .map(|seed| generator::generate(&spec, seed, &Limits::default(), |_, _| Some(())))
        .map(|made| made.map(|m| m.solution))
        .collect::<Result<_, _>>()?;
    let start = Instant::now();
    let mut clues = 0;
    for full in grids {
        let mut cells = full.cells().to_vec();
        for index in 0..cells.len() {
            let symbol = std::mem::take(&mut cells[index]);
            let puzzle = Grid::from_cells(Shape::NINE, cells.clone())
                .ok_or_else(|| anyhow::anyhow!("a 9x9 grid"))?;
            if solver::solve(&puzzle, &Options::default()).verdict != Verdict::Unique {
                cells[index] = symbol;
            }
        }
        clues += cells.iter().filter(|&&v| v != 0).count() as u64;
    }
    Ok(Measured {
        puzzles: count,
        elapsed: start.elapsed(),
        clues,
    })
}

fn print(out: &mut impl Write, name: &str, threads: usize, m: &Measured) -> io::Result<()> {
    let seconds = m.elapsed.as_secs_f64();
    writeln!(
        out,
        "  {name:<36} {threads:>7} {:>8} {:>12.0} {:>12.3} {:>10.1}",
        m.puzzles,
        m.puzzles as f64 / seconds,
        seconds * 1e3 / m.puzzles as f64,
        m.clues as f64 / m.puzzles as f64
    )
}

/// Runs the generator benchmark, `scale` times the default counts, on `threads` threads.
pub fn run(scale: u64, threads: usize, out: &mut impl Write) -> anyhow::Result<()> {
    let threads = threads.max(1);
    let spec = |rows, cols, symmetry, minimal| {
        Spec::new(
            Shape::new(rows, cols).unwrap_or(Shape::NINE),
            symmetry,
            minimal,
        )
    };
    let cases = [
        Case {
            name: "9x9 minimal",
            spec: spec(3, 3, Symmetry::None, true)?,
            count: 5_000,
            level: None,
        },
        Case {
            name: "9x9 minimal, graded (any level)",
            spec: spec(3, 3, Symmetry::None, true)?,
            count: 1_000,
            level: Some(None),
        },
        Case {
            name: "9x9 minimal rotate-180",
            spec: spec(3, 3, Symmetry::Rotate180, true)?,
            count: 2_000,
            level: None,
        },
        Case {
            name: "9x9 minimal rotate-90",
            spec: spec(3, 3, Symmetry::Rotate90, true)?,
            count: 1_000,
            level: None,
        },
        Case {
            name: "6x6 minimal",
            spec: spec(2, 3, Symmetry::None, true)?,
            count: 2_000,
            level: None,
        },
        Case {
            name: "16x16 unique (not minimal)",
            spec: spec(4, 4, Symmetry::None, false)?,
            count: 20,
            level: None,
        },
        Case {
            name: "25x25 unique (not minimal)",
            spec: spec(5, 5, Symmetry::None, false)?,
            count: 3,
            level: None,
        },
    ];
    let levels = [
        ("9x9 minimal BEGINNER", Difficulty::Beginner, 300),
        ("9x9 minimal EASY", Difficulty::Easy, 300),
        ("9x9 minimal MEDIUM", Difficulty::Medium, 100),
        ("9x9 minimal HARD", Difficulty::Hard, 100),
        ("9x9 minimal EXPERT", Difficulty::Expert, 200),
        ("9x9 minimal EXTREME", Difficulty::Extreme, 100),
        ("9x9 minimal rotate-180 HARD", Difficulty::Hard, 100),
    ];
    let mut cases = Vec::from(cases);
    for (name, level, count) in levels {
        let symmetry = if name.contains("rotate-180") {
            Symmetry::Rotate180
        } else {
            Symmetry::None
        };
        cases.push(Case {
            name,
            spec: spec(3, 3, symmetry, true)?,
            count,
            level: Some(Some(level)),
        });
    }
    writeln!(
        out,
        "generator, {threads} thread(s); every puzzle checked unique"
    )?;
    writeln!(
        out,
        "  {:<36} {:>7} {:>8} {:>12} {:>12} {:>10}",
        "case", "threads", "puzzles", "puzzles/s", "ms/puzzle", "clues"
    )?;
    let mut minimal_nine = None;
    for case in &cases {
        let measured = measure(&case.spec, case.level, case.count * scale, threads)?;
        print(out, case.name, threads, &measured)?;
        minimal_nine.get_or_insert(measured);
    }
    let baseline = textbook(500 * scale)?;
    print(out, "baseline: textbook 9x9 minimal", 1, &baseline)?;
    if let Some(ours) = minimal_nine {
        let ours_rate = ours.puzzles as f64 / ours.elapsed.as_secs_f64() / threads as f64;
        let theirs = baseline.puzzles as f64 / baseline.elapsed.as_secs_f64();
        writeln!(
            out,
            "    9x9 minimal, per thread, against the textbook generator in this run: {:.2}x",
            ours_rate / theirs
        )?;
    }
    Ok(())
}
