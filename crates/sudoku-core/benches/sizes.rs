//! The general solver on published sets of other sizes, one figure per instance: every 25x25 of
//! Gecode's examples and the tough 16x16 set, proved unique (or not) from scratch. These sets live in
//! `../shared/data`, outside the repository; the run fails loudly without them. Each solve is checked,
//! so a wrong answer fails the run.
//!
//! The 9x9 fast path is the same run's baseline: the general solver on the committed 9x9 sample,
//! against the fast path, prints the ratio the dispatch in `solver::solve` buys.
//!
//! `cargo bench -p sudoku-core --bench sizes` (add `-- --quick` for one run per instance).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use sudoku_core::grid::Grid;
use sudoku_core::solver::{self, Options, Outcome, Verdict};
use sudoku_core::text::Format;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The puzzles of a file, one a line; a line may start with its side and a space, as Gecode's do.
fn puzzles(path: &Path) -> Option<Vec<Grid>> {
    let text = std::fs::read_to_string(path).ok()?;
    let grids = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| line.rsplit(' ').next().unwrap_or(line))
        .map(|line| {
            Grid::read_puzzle(line, &Format::default())
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
                .grid
        })
        .collect();
    Some(grids)
}

/// The most guesses one instance may take here, so a run ends in minutes: an instance that needs more
/// is reported as `LimitReached`, honestly unproved. The general search counts each probe as a guess.
const BUDGET: u64 = 200_000;

/// The best of `runs` solves of `puzzle` (within [`BUDGET`] guesses), checked.
fn time(
    puzzle: &Grid,
    runs: usize,
    solve: fn(&Grid, &Options<'_>) -> Outcome,
) -> (Outcome, Duration) {
    let options = Options {
        max_guesses: Some(BUDGET),
        ..Options::default()
    };
    let mut best = Duration::MAX;
    let mut outcome = None;
    for _ in 0..runs {
        let start = Instant::now();
        let result = solve(puzzle, &options);
        best = best.min(start.elapsed());
        outcome = Some(result);
    }
    let outcome = outcome.expect("at least one run");
    if let Some(solution) = &outcome.solution {
        assert!(solution.solves(puzzle), "a wrong solution for {puzzle}");
    }
    (outcome, best)
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let runs = if quick { 1 } else { 3 };
    let shared = root().join("../shared/data");

    let nine = puzzles(&root().join("tests/data/forum_hardest_1905_11plus_sample.txt"))
        .expect("the committed 9x9 sample");
    let mut fast = Duration::ZERO;
    let mut general = Duration::ZERO;
    for puzzle in &nine {
        fast += time(puzzle, runs, solver::solve).1;
        general += time(puzzle, runs, solver::solve_generic).1;
    }
    println!(
        "9x9 forum-hardest sample ({} puzzles), prove unique: fast path mean {:.1} µs, general search \
         mean {:.1} µs, ratio {:.2}x",
        nine.len(),
        fast.as_secs_f64() * 1e6 / nine.len() as f64,
        general.as_secs_f64() * 1e6 / nine.len() as f64,
        general.as_secs_f64() / fast.as_secs_f64().max(1e-12)
    );

    let gecode = puzzles(&shared.join("nxn_gecode.txt")).unwrap_or_else(|| {
        panic!(
            "missing {}: the shared data sets",
            shared.join("nxn_gecode.txt").display()
        )
    });
    let twenty_fives: Vec<&Grid> = gecode.iter().filter(|g| g.shape().side() == 25).collect();
    println!(
        "Gecode's 25x25 examples ({} of them), prove unique within {BUDGET} guesses, best of {runs}:",
        twenty_fives.len()
    );
    let mut total = Duration::ZERO;
    let mut worst = Duration::ZERO;
    let mut times = Vec::new();
    let mut proved = 0;
    for (i, puzzle) in twenty_fives.iter().enumerate() {
        let (outcome, took) = time(puzzle, runs, solver::solve);
        proved += usize::from(outcome.verdict == Verdict::Unique);
        times.push(took);
        total += took;
        worst = worst.max(took);
        println!(
            "  #{:<2} {:>3} givens  {:>10?}  {:<10} {:>7} guesses  {:>10.3} ms",
            i + 1,
            puzzle.givens(),
            outcome.verdict,
            "",
            outcome.stats.guesses,
            took.as_secs_f64() * 1e3
        );
    }
    if !twenty_fives.is_empty() {
        times.sort();
        println!(
            "  {proved} of {} proved unique; mean {:.1} ms, median {:.1} ms, worst {:.1} ms (total {:.1} ms)",
            twenty_fives.len(),
            total.as_secs_f64() * 1e3 / twenty_fives.len() as f64,
            times[times.len() / 2].as_secs_f64() * 1e3,
            worst.as_secs_f64() * 1e3,
            total.as_secs_f64() * 1e3,
        );
    }

    for (label, path) in [
        ("Gecode's 16x16 examples", shared.join("nxn_gecode.txt")),
        ("tough 16x16 (tarek)", shared.join("nxn_16x16_tough.txt")),
    ] {
        let all = puzzles(&path).unwrap_or_else(|| panic!("missing {}", path.display()));
        let set: Vec<&Grid> = all.iter().filter(|g| g.shape().side() == 16).collect();
        let mut times: Vec<Duration> = Vec::new();
        let mut unique = 0;
        let mut limited = 0;
        for puzzle in &set {
            let (outcome, took) = time(puzzle, runs, solver::solve);
            unique += usize::from(outcome.verdict == Verdict::Unique);
            limited += usize::from(outcome.verdict == Verdict::LimitReached);
            times.push(took);
        }
        times.sort();
        let total: Duration = times.iter().sum();
        println!(
            "{label}: {} puzzles, {unique} unique, {limited} over {BUDGET} guesses; mean {:.3} ms, median {:.3} ms, max {:.3} ms",
            set.len(),
            total.as_secs_f64() * 1e3 / set.len().max(1) as f64,
            times
                .get(times.len() / 2)
                .copied()
                .unwrap_or_default()
                .as_secs_f64()
                * 1e3,
            times.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        );
    }
}
