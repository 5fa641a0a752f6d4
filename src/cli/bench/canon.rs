//! `bench --canon`: the speed of the min-lex canonical form on puzzle files, beside the brute-force
//! definition run on a sample of the same puzzles in the same run. Every key is checked: its transform
//! maps the puzzle onto it, and on the sample it equals the brute force's.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::{BenchError, Micros, Puzzle, read_puzzles};
use sudoku_core::canonicalization::{self, Canonical};

/// Canonicalises every puzzle of each file on one thread and prints puzzles per second, then the
/// brute force on `baseline_sample` puzzles spread through the file and the speed-up on those.
pub fn run(
    files: &[PathBuf],
    baseline_sample: usize,
    out: &mut dyn Write,
) -> Result<(), BenchError> {
    for path in files {
        let puzzles = read_puzzles(path)?.puzzles;
        let start = Instant::now();
        let keys: Vec<_> = puzzles
            .iter()
            .map(|puzzle| canonicalization::canonicalize(&puzzle.grid))
            .collect();
        let wall = start.elapsed();
        for (puzzle, key) in puzzles.iter().zip(&keys) {
            let reaches = key
                .as_ref()
                .is_ok_and(|key| key.transform.apply(&puzzle.grid).as_ref() == Ok(&key.grid));
            if !reaches {
                return Err(wrong(
                    path,
                    puzzle,
                    format!("{key:?} is not an image of the puzzle"),
                ));
            }
        }
        let rate = puzzles.len() as f64 / wall.as_secs_f64();
        writeln!(
            out,
            "{}: {} puzzles canonicalised on 1 thread: {rate:.0} puzzles/s, mean {} µs",
            path.display(),
            puzzles.len(),
            Micros(wall / puzzles.len() as u32),
        )?;
        if baseline_sample > 0 {
            baseline(path, &puzzles, &keys, baseline_sample, out)?;
        }
    }
    Ok(())
}

/// Runs the brute force on an evenly spread sample and prints the speed-up on the same puzzles.
fn baseline(
    path: &Path,
    puzzles: &[Puzzle],
    keys: &[Result<Canonical, canonicalization::CanonicalizeError>],
    sample: usize,
    out: &mut dyn Write,
) -> Result<(), BenchError> {
    let step = (puzzles.len() / sample.min(puzzles.len())).max(1);
    let (mut ours, mut brute, mut count) = (Duration::ZERO, Duration::ZERO, 0u32);
    for (puzzle, key) in puzzles.iter().zip(keys).step_by(step).take(sample) {
        let start = Instant::now();
        let fast = canonicalization::canonicalize(&puzzle.grid);
        ours += start.elapsed();
        let start = Instant::now();
        let reference = canonicalization::min_lex_by_brute_force(&puzzle.grid);
        brute += start.elapsed();
        count += 1;
        let fast = fast.map(|key| key.grid);
        if fast != reference || key.as_ref().map(|key| &key.grid) != reference.as_ref() {
            return Err(wrong(
                path,
                puzzle,
                format!("{fast:?}, brute force {reference:?}"),
            ));
        }
    }
    writeln!(
        out,
        "  brute-force baseline on {count} of them: {} µs a puzzle against {} µs: {:.0}x faster, same keys",
        Micros(brute / count.max(1)),
        Micros(ours / count.max(1)),
        brute.as_secs_f64() / ours.as_secs_f64().max(1e-9)
    )?;
    Ok(())
}

fn wrong(path: &Path, puzzle: &Puzzle, reason: String) -> BenchError {
    BenchError::WrongAnswer {
        path: path.to_owned(),
        line: puzzle.line,
        solver: "canonicalize",
        mode: "min-lex",
        reason,
    }
}
