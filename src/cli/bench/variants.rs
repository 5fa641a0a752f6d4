//! `bench --variants`: the variant solver's speed on files of f-puzzles puzzles (one rule family a
//! file, as `--make-variant-sets` writes them): per file, every puzzle proved unique (or not) on one
//! thread, every solution checked against every rule, the verdicts counted, and the time per
//! puzzle (mean, median, p99, max).

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use sudoku_core::fpuzzles;
use sudoku_core::solver::{Options, Verdict};
use sudoku_core::variant::{self, Variant};

/// Runs the variant benchmark on `files`, writing one table row per file to `out`.
pub fn run(files: &[PathBuf], out: &mut impl Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "| file | puzzles | verdicts | mean µs | p50 µs | p99 µs | max µs | guesses/puzzle |"
    )?;
    writeln!(out, "|---|---:|---|---:|---:|---:|---:|---:|")?;
    for path in files {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let puzzles: Vec<Variant> = text
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty() && !line.starts_with('#'))
            .map(|(number, line)| {
                fpuzzles::read(line)
                    .with_context(|| format!("{} line {}", path.display(), number + 1))
            })
            .collect::<anyhow::Result<_>>()?;
        let mut times = Vec::with_capacity(puzzles.len());
        let mut verdicts: Vec<(Verdict, usize)> = Vec::new();
        let mut guesses = 0u64;
        for puzzle in &puzzles {
            let start = Instant::now();
            let outcome = variant::solve(puzzle, &Options::default());
            times.push(start.elapsed());
            guesses += outcome.stats.guesses;
            if let Some(solution) = &outcome.solution {
                anyhow::ensure!(
                    puzzle.is_solved_by(solution),
                    "{}: a solution that breaks a rule",
                    path.display()
                );
            }
            match verdicts.iter_mut().find(|(v, _)| *v == outcome.verdict) {
                Some((_, count)) => *count += 1,
                None => verdicts.push((outcome.verdict, 1)),
            }
        }
        times.sort_unstable();
        let micros = |d: Duration| d.as_secs_f64() * 1e6;
        let at = |q: f64| {
            times
                .get(((times.len() as f64 - 1.0) * q) as usize)
                .copied()
        };
        let mean = times.iter().sum::<Duration>() / times.len().max(1) as u32;
        let verdicts: Vec<String> = verdicts.iter().map(|(v, n)| format!("{n} {v:?}")).collect();
        writeln!(
            out,
            "| {} | {} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} |",
            path.file_name().unwrap_or_default().to_string_lossy(),
            puzzles.len(),
            verdicts.join(", "),
            micros(mean),
            at(0.5).map_or(0.0, micros),
            at(0.99).map_or(0.0, micros),
            times.last().copied().map_or(0.0, micros),
            guesses as f64 / puzzles.len().max(1) as f64,
        )?;
    }
    Ok(())
}
