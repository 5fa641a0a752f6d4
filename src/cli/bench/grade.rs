//! `bench --grade`: the logic engine's speed. Per file: every puzzle graded (on `threads` threads,
//! its path checked to end in the solution), the time per puzzle, and the levels' distribution; then
//! the puzzles that singles solve graded again one thread, in µs each, beside the solver's time on
//! the same puzzles in the same run.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sudoku_core::grader::{self, Difficulty, Grade, Options};
use sudoku_core::strategy::Technique;

use sudoku_core::grid::Grid;
use sudoku_core::solver::{self, Verdict};

/// Runs the grading benchmark on `files` with `threads` threads, writing the figures to `out`.
pub fn run(files: &[PathBuf], threads: usize, out: &mut impl Write) -> anyhow::Result<()> {
    for path in files {
        let puzzles = read(path)?;
        let solutions: Vec<Grid> = puzzles.iter().map(solve).collect::<anyhow::Result<_>>()?;
        let start = Instant::now();
        let grades = grade_all(&puzzles, &solutions, threads.max(1))?;
        let elapsed = start.elapsed();
        writeln!(
            out,
            "{}: {} puzzles graded on {threads} thread(s) in {:.2?} ({:.0} µs per puzzle)",
            path.display(),
            puzzles.len(),
            elapsed,
            micros(elapsed, puzzles.len()),
        )?;
        let mut levels = [0usize; 6];
        for grade in &grades {
            levels[grade.difficulty as usize] += 1;
        }
        let shares: Vec<String> = Difficulty::ALL
            .iter()
            .zip(levels)
            .map(|(d, count)| {
                format!(
                    "{} {count} ({:.1}%)",
                    d.name(),
                    100.0 * count as f64 / grades.len() as f64
                )
            })
            .collect();
        writeln!(out, "  levels: {}", shares.join(", "))?;
        let lower = grades.iter().filter(|g| g.lower_bound).count();
        let guessed = grades
            .iter()
            .filter(|g| g.counts.iter().any(|c| c.0 == Technique::Guess))
            .count();
        writeln!(
            out,
            "  needing a guess: {guessed}; of them past the effort budget (lower bounds): {lower}"
        )?;
        singles(&puzzles, &solutions, &grades, out)?;
    }
    Ok(())
}

/// The puzzles singles solve, graded again on one thread, beside the solver on the same puzzles.
fn singles(
    puzzles: &[Grid],
    solutions: &[Grid],
    grades: &[Grade],
    out: &mut impl Write,
) -> io::Result<()> {
    let simple = |t: Technique| {
        matches!(
            t,
            Technique::FullHouse | Technique::HiddenSingle | Technique::NakedSingle
        )
    };
    let chosen: Vec<usize> = (0..puzzles.len())
        .filter(|&i| grades[i].counts.iter().all(|c| simple(c.0)))
        .collect();
    if chosen.is_empty() {
        return Ok(());
    }
    let rounds = (20_000 / chosen.len()).clamp(1, 20);
    let start = Instant::now();
    for _ in 0..rounds {
        for &i in &chosen {
            let grade = grader::grade(&puzzles[i], &solutions[i], &Options::default());
            std::hint::black_box(grade.ok());
        }
    }
    let graded = start.elapsed();
    let start = Instant::now();
    for _ in 0..rounds {
        for &i in &chosen {
            std::hint::black_box(solver::solve(&puzzles[i], &Default::default()));
        }
    }
    let solved = start.elapsed();
    let count = chosen.len() * rounds;
    writeln!(
        out,
        "  solved by singles: {} puzzles; grading {:.1} µs per puzzle, solving (uniqueness proved) {:.1} µs: grading costs {:.1}x a solve",
        chosen.len(),
        micros(graded, count),
        micros(solved, count),
        graded.as_secs_f64() / solved.as_secs_f64().max(1e-12)
    )
}

fn micros(elapsed: Duration, count: usize) -> f64 {
    elapsed.as_secs_f64() * 1e6 / count.max(1) as f64
}

/// Grades every puzzle, `threads` at a time, checking each path ends in the solution.
fn grade_all(puzzles: &[Grid], solutions: &[Grid], threads: usize) -> anyhow::Result<Vec<Grade>> {
    let chunk = puzzles.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = puzzles
            .chunks(chunk)
            .zip(solutions.chunks(chunk))
            .map(|(ps, ss)| {
                scope.spawn(move || {
                    ps.iter()
                        .zip(ss)
                        .map(|(p, s)| {
                            grader::grade(p, s, &Options::default())
                                .map_err(|e| anyhow::anyhow!("{p}: {e}"))
                        })
                        .collect::<anyhow::Result<Vec<Grade>>>()
                })
            })
            .collect();
        let mut all = Vec::with_capacity(puzzles.len());
        for worker in workers {
            let grades = worker
                .join()
                .map_err(|_| anyhow::anyhow!("a grading thread panicked"))??;
            all.extend(grades);
        }
        Ok(all)
    })
}

/// The puzzles of the file at `path`, each refused with its line number if it does not read.
fn read(path: &Path) -> anyhow::Result<Vec<Grid>> {
    let text = crate::cli::input::read_text(path)?;
    sudoku_core::puzzle_file::lines(&text)
        .map(|(number, line)| {
            Grid::parse_puzzle(line)
                .map_err(|e| anyhow::anyhow!("{}:{number}: {e}", path.display()))
        })
        .collect()
}

fn solve(puzzle: &Grid) -> anyhow::Result<Grid> {
    let outcome = solver::solve(puzzle, &Default::default());
    match (outcome.verdict, outcome.solution) {
        (Verdict::Unique, Some(solution)) => Ok(solution),
        (verdict, _) => anyhow::bail!("{puzzle}: {verdict:?}, not unique"),
    }
}
