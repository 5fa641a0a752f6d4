//! Criterion benchmarks of the solver's hot paths: reading a puzzle, a solve that propagation alone
//! finishes, and solving each committed sample in both modes. Sample sizes and times are kept small so
//! `cargo bench` stays quick; the `bench` command measures the full sets.

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sudoku_core::grid::Grid;
use sudoku_core::solver::{Mode, Options, solve};

/// A classic puzzle that singles alone solve: its solve time is the propagation cost.
const EASY: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

fn sample(name: &str) -> Vec<Grid> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(name);
    std::fs::read_to_string(&path)
        .expect("sample file reads")
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| Grid::parse(line).expect("sample puzzle parses"))
        .collect()
}

fn parse(c: &mut Criterion) {
    c.bench_function("parse one-line puzzle", |b| {
        b.iter(|| Grid::parse(black_box(EASY)))
    });
}

fn propagation(c: &mut Criterion) {
    let puzzle = Grid::parse(EASY).expect("parses");
    let options = Options::default();
    c.bench_function("solve by propagation alone (prove unique)", |b| {
        b.iter(|| solve(black_box(&puzzle), &options))
    });
}

fn sets(c: &mut Criterion) {
    for (name, sample_size) in [
        ("17_clue_sample.txt", 200),
        ("forum_hardest_1905_11plus_sample.txt", 100),
    ] {
        let puzzles: Vec<Grid> = sample(name).into_iter().take(sample_size).collect();
        let mut group = c.benchmark_group(name.trim_end_matches(".txt"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2))
            .throughput(Throughput::Elements(puzzles.len() as u64));
        for (label, mode) in [
            ("prove unique", Mode::ProveUnique),
            ("first solution", Mode::FirstSolution),
        ] {
            let options = Options {
                mode,
                ..Options::default()
            };
            group.bench_function(label, |b| {
                b.iter(|| {
                    for puzzle in &puzzles {
                        black_box(solve(black_box(puzzle), &options));
                    }
                })
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = parse, propagation, sets
}
criterion_main!(benches);
