//! The `bench` command: solve puzzle files in-process, check every answer, and print speed figures
//! per file and mode, next to a textbook backtracking baseline run on a sample in the same run;
//! `--canon`, `--generate`, `--grade` and `--variants` measure those engines instead, in the
//! submodules; `--make-variant-sets` writes the variant benchmark's puzzle files.
//!
//! [`run_command`] only turns the arguments into [`BenchOptions`] for [`run`], so the figures can also
//! be produced from tests or scratch programs without the command line around them.

pub mod canon;
pub mod generate;
pub mod grade;
pub mod variant_sets;
pub mod variants;

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use sudoku_core::grid::{Grid, ParseError, Shape};
use sudoku_core::solver::{self, Mode, Options, Outcome, Verdict};
use sudoku_core::text::Format;

use super::output::mode_name;

/// Arguments of the `bench` command.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Files of puzzles, one per line (`#` lines are comments).
    #[arg(required_unless_present_any = ["generate", "make_variant_sets"])]
    pub files: Vec<PathBuf>,
    /// Benchmark the generator instead: puzzles per second by shape and option, beside a textbook
    /// generator in the same run.
    #[arg(long)]
    pub generate: bool,
    /// With --generate: multiplies the number of puzzles made per case.
    #[arg(long, default_value_t = 1, requires = "generate")]
    pub scale: u64,
    /// Solver threads (1 measures single-thread latency; more, throughput, and its ratio to one thread
    /// measured on the same puzzles right after).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Puzzles per file that the textbook baseline solves too (0 skips it).
    #[arg(long, default_value_t = 200)]
    pub baseline_sample: usize,
    /// The most time the baseline may spend on one puzzle.
    #[arg(long, default_value = "20ms", value_parser = humantime::parse_duration)]
    pub baseline_cap: Duration,
    /// The guess budget of each solve (0: unlimited); a puzzle that needs more counts as
    /// LimitReached, so a set of hard 25x25 grids ends in bounded time.
    #[arg(long, default_value_t = 0)]
    pub max_guesses: u64,
    /// Repeat each mode's timed pass over a file until at least this long has passed (e.g. `5s`,
    /// as tdoku's `run_benchmark -t 5`), for steadier figures on a shared machine; 0 for one pass.
    /// The passes after the first are timed whole, as tdoku's are; per-puzzle times are the first's.
    #[arg(long, default_value = "0s", value_parser = humantime::parse_duration)]
    pub min_time: Duration,
    /// Measure the canonical form (Canonicalize) instead of the solver; the baseline is the brute
    /// force on `--baseline-sample / 10` puzzles per file.
    #[arg(long)]
    pub canon: bool,
    /// Benchmark the logic engine (Grade) instead of the solver: time per puzzle, the levels'
    /// distribution, and the puzzles singles solve in µs each.
    #[arg(long)]
    pub grade: bool,
    /// Benchmark the variant solver instead: the files hold f-puzzles puzzles, one a line; per
    /// file, the verdicts and the time per puzzle proving uniqueness.
    #[arg(long)]
    pub variants: bool,
    /// Write the variant benchmark's sets into this folder instead (one file per rule family,
    /// 9x9, unique, givens dug while uniqueness holds), `--variant-count` puzzles each, from
    /// `--variant-seed`.
    #[arg(long, value_name = "DIR")]
    pub make_variant_sets: Option<PathBuf>,
    /// Puzzles per family for `--make-variant-sets`.
    #[arg(long, default_value_t = 100)]
    pub variant_count: usize,
    /// The seed of `--make-variant-sets`: the same seed makes the same sets.
    #[arg(long, default_value_t = 1)]
    pub variant_seed: u64,
}

/// Runs the `bench` command: the solver, or with `--canon`, `--generate` or `--grade` that engine.
pub fn run_command(args: BenchArgs) -> anyhow::Result<ExitCode> {
    if args.canon {
        let sample = args.baseline_sample / 10;
        canon::run(&args.files, sample, &mut std::io::stdout().lock())?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.generate {
        generate::run(args.scale, args.threads, &mut std::io::stdout().lock())?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.grade {
        grade::run(&args.files, args.threads, &mut std::io::stdout().lock())?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(dir) = &args.make_variant_sets {
        let out = &mut std::io::stdout().lock();
        variant_sets::make(dir, args.variant_count, args.variant_seed, out)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.variants {
        variants::run(&args.files, &mut std::io::stdout().lock())?;
        return Ok(ExitCode::SUCCESS);
    }
    let options = BenchOptions {
        threads: args.threads.max(1),
        baseline_sample: args.baseline_sample,
        baseline_cap: args.baseline_cap,
        max_guesses: (args.max_guesses > 0).then_some(args.max_guesses),
        min_time: args.min_time,
        ..Default::default()
    };
    run(&args.files, &options, &mut std::io::stdout().lock())?;
    Ok(ExitCode::SUCCESS)
}

/// How a benchmark runs.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Worker threads the puzzles of a file are split across; 1 (the default) measures single-thread
    /// latency, more measures throughput, and then the same puzzles run on one thread too so the
    /// report gives the scaling ratio.
    pub threads: usize,
    /// The modes to measure, in order. Default: [`Mode::ProveUnique`], then [`Mode::FirstSolution`].
    pub modes: Vec<Mode>,
    /// Puzzles per file (spread evenly through it) that the textbook baseline also solves, so the
    /// speed-up is measured on the same puzzles in the same run. 0 skips the baseline.
    pub baseline_sample: usize,
    /// The most time the baseline may spend on one puzzle; puzzles that hit it count at the cap, which
    /// makes the reported speed-up a lower bound.
    pub baseline_cap: Duration,
    /// The guess budget of each solve (`None`: unlimited), so a set of hard large grids ends in
    /// bounded time; a puzzle that needs more is counted as `LimitReached`.
    pub max_guesses: Option<u64>,
    /// Each mode's timing repeats whole passes over the puzzles until at least this long has
    /// passed (zero: one pass), as tdoku's `run_benchmark -t` does: a pass of a few tenths of a
    /// second on a shared machine catches whatever else runs then, a few seconds average it out.
    pub min_time: Duration,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            threads: 1,
            modes: vec![Mode::ProveUnique, Mode::FirstSolution],
            baseline_sample: 200,
            baseline_cap: Duration::from_millis(20),
            max_guesses: None,
            min_time: Duration::ZERO,
        }
    }
}

/// Why a benchmark could not run or failed its checks.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A puzzle file could not be read, or holds no puzzles.
    #[error(transparent)]
    File(#[from] sudoku_core::puzzle_file::PuzzleFileError),
    /// A line of a puzzle file is not a puzzle of any size.
    #[error("{}:{line}: {source}", .path.display())]
    BadLine {
        /// The file.
        path: PathBuf,
        /// The line number, from 1.
        line: usize,
        /// Why it could not be read.
        source: ParseError,
    },
    /// A solver gave a wrong or unexpected answer (a verdict other than the file calls for, or a grid
    /// that does not solve the puzzle).
    #[error("{}:{line}: {solver} ({mode}) answered wrongly: {reason}", .path.display())]
    WrongAnswer {
        /// The file.
        path: PathBuf,
        /// The puzzle's line number, from 1.
        line: usize,
        /// Which solver: ours or the baseline.
        solver: &'static str,
        /// The mode it ran in.
        mode: &'static str,
        /// What was wrong.
        reason: String,
    },
    /// The report could not be written.
    #[error("cannot write the report: {0}")]
    Write(#[from] io::Error),
}

/// A puzzle and the line it came from.
struct Puzzle {
    line: usize,
    grid: Grid,
}

/// The comment line that marks a file whose every puzzle has several solutions (as
/// `scripts/several-solutions.sh` writes); other files must have unique solutions.
pub const SEVERAL_SOLUTIONS_MARK: &str = "# expect: several solutions";

/// One file's puzzles and what the uniqueness check must say of each.
struct PuzzleFile {
    puzzles: Vec<Puzzle>,
    /// [`Verdict::Unique`], or [`Verdict::Multiple`] for a file with [`SEVERAL_SOLUTIONS_MARK`].
    unique_verdict: Verdict,
}

/// Reads one line's puzzle of any size, its shape inferred from its count of cells. A line may start
/// with the grid's side and a space, as Gecode's examples do. Clashing givens are read, not refused:
/// such a puzzle simply has no solution.
fn read_line(line: &str) -> Result<Grid, ParseError> {
    match Grid::read(line, &Format::default()) {
        Ok(read) => Ok(read.grid),
        Err(e) => match line.split_once(' ') {
            Some((side, rest)) if side.parse::<usize>().is_ok() => {
                Grid::read(rest, &Format::default()).map(|read| read.grid)
            }
            _ => Err(e),
        },
    }
}

/// Reads one file's puzzles (see [`super::input::file_puzzles`]), each of any size.
fn read_puzzles(path: &Path) -> Result<PuzzleFile, BenchError> {
    let puzzles = super::input::file_puzzles(path, None)?
        .into_iter()
        .map(|line| {
            let grid = read_line(&line.text).map_err(|source| BenchError::BadLine {
                path: path.to_owned(),
                line: line.number,
                source,
            })?;
            Ok(Puzzle {
                line: line.number,
                grid,
            })
        })
        .collect::<Result<Vec<_>, BenchError>>()?;
    Ok(PuzzleFile {
        puzzles,
        unique_verdict: if has_several_solutions_mark(path) {
            Verdict::Multiple
        } else {
            Verdict::Unique
        },
    })
}

/// Whether the comment lines heading the file at `path` (read just before, so it exists) include
/// [`SEVERAL_SOLUTIONS_MARK`].
fn has_several_solutions_mark(path: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    io::BufRead::lines(io::BufReader::new(file))
        .map_while(Result::ok)
        .take_while(|line| line.trim().is_empty() || line.trim_start().starts_with('#'))
        .any(|line| line.trim() == SEVERAL_SOLUTIONS_MARK)
}

/// Timing summary of one batch of solves.
struct Figures {
    puzzles: usize,
    wall: Duration,
    /// Per-puzzle solve times, sorted.
    times: Vec<Duration>,
    guesses: u64,
}

impl Figures {
    fn mean(&self) -> Duration {
        self.times.iter().sum::<Duration>() / self.times.len().max(1) as u32
    }

    fn percentile(&self, pct: usize) -> Duration {
        let n = self.times.len();
        if n == 0 {
            return Duration::ZERO;
        }
        self.times[(n * pct / 100).min(n - 1)]
    }
}

/// Microseconds with two decimals, for the table.
struct Micros(Duration);

impl fmt::Display for Micros {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{:.2}", self.0.as_secs_f64() * 1e6);
        f.pad(&text)
    }
}

/// `work` on `puzzles` cut into `threads` chunks, each on a thread of its own (on this one for a
/// single thread), with the chunks' results in order. A worker that panicked (a solver bug) takes the
/// benchmark down with its message, rather than leaving its puzzles out of the figures.
fn on_threads<T: Send>(
    puzzles: &[Puzzle],
    threads: usize,
    work: impl Fn(&[Puzzle]) -> T + Sync,
) -> Vec<T> {
    let threads = threads.clamp(1, puzzles.len().max(1));
    if threads == 1 {
        return vec![work(puzzles)];
    }
    let chunk_len = puzzles.len().div_ceil(threads);
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = puzzles
            .chunks(chunk_len)
            .map(|chunk| scope.spawn(move || work(chunk)))
            .collect();
        handles
            .into_iter()
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// Solves `puzzles` in `mode` on `threads` threads, returning per-puzzle times and outcomes in order,
/// and the wall time of the solving alone.
fn solve_all(
    puzzles: &[Puzzle],
    mode: Mode,
    threads: usize,
    max_guesses: Option<u64>,
) -> (Vec<(Duration, Outcome)>, Duration) {
    let options = Options {
        mode,
        max_guesses,
        ..Options::default()
    };
    let solve_chunk = |chunk: &[Puzzle]| -> Vec<(Duration, Outcome)> {
        chunk
            .iter()
            .map(|puzzle| {
                let start = Instant::now();
                let outcome = solver::solve(&puzzle.grid, &options);
                (start.elapsed(), outcome)
            })
            .collect()
    };
    let start = Instant::now();
    let results = on_threads(puzzles, threads, solve_chunk)
        .into_iter()
        .flatten()
        .collect();
    (results, start.elapsed())
}

/// Solves `puzzles` in `mode` on `threads` threads once more, timing the pass as a whole, as tdoku's
/// benchmark does, rather than each puzzle: the two clock reads a puzzle would otherwise weigh on
/// the throughput of the passes `--min-time` adds. Returns the pass's wall time and its guesses.
fn solve_pass(
    puzzles: &[Puzzle],
    mode: Mode,
    threads: usize,
    max_guesses: Option<u64>,
) -> (Duration, u64) {
    let options = Options {
        mode,
        max_guesses,
        ..Options::default()
    };
    let solve_chunk = |chunk: &[Puzzle]| -> u64 {
        chunk
            .iter()
            .map(|puzzle| {
                std::hint::black_box(solver::solve(&puzzle.grid, &options))
                    .stats
                    .guesses
            })
            .sum()
    };
    let start = Instant::now();
    let guesses = on_threads(puzzles, threads, solve_chunk).into_iter().sum();
    (start.elapsed(), guesses)
}

/// Solves puzzles from the start of `puzzles`, untimed, for a few tenths of a second or one pass:
/// the first timed mode then starts with warm caches and trained branch predictors, like the modes
/// after it and like tdoku's benchmark, which also warms up before timing.
fn warm_up(puzzles: &[Puzzle], max_guesses: Option<u64>) {
    let options = Options {
        mode: Mode::ProveUnique,
        max_guesses,
        ..Options::default()
    };
    let start = Instant::now();
    for puzzle in puzzles {
        std::hint::black_box(solver::solve(&puzzle.grid, &options));
        if start.elapsed() > Duration::from_millis(300) {
            break;
        }
    }
}

/// Times the portable code path against the one chosen for this CPU, in uniqueness mode on one
/// thread, alternating rounds of each on the same puzzles, and prints the ratio: what the run-time
/// choice gains over a build that could not make it. Both paths' answers are checked.
fn portable_ratio(
    path: &Path,
    puzzles: &[Puzzle],
    unique_verdict: Verdict,
    out: &mut dyn Write,
) -> Result<(), BenchError> {
    let options = Options {
        mode: Mode::ProveUnique,
        ..Options::default()
    };
    let mut walls = [Duration::ZERO; 2];
    // Round 0 warms caches and is not counted; later rounds swap which path goes first, and a small
    // file gets more rounds so each path is timed for at least a few tenths of a second.
    let mut round = 0;
    while round < 3 || (round < 200 && walls[0] + walls[1] < Duration::from_millis(400)) {
        let order = if round % 2 == 0 {
            [false, true]
        } else {
            [true, false]
        };
        for portable in order {
            let start = Instant::now();
            for puzzle in puzzles {
                let outcome = if portable {
                    solver::solve_portable(&puzzle.grid, &options)
                } else {
                    solver::solve(&puzzle.grid, &options)
                };
                check(path, puzzle, Mode::ProveUnique, &outcome)?;
                check_expected(path, puzzle, Mode::ProveUnique, unique_verdict, &outcome)?;
            }
            if round > 0 {
                walls[usize::from(portable)] += start.elapsed();
            }
        }
        round += 1;
    }
    writeln!(
        out,
        "  portable path against {}, uniqueness, same run: {:.2}x the time",
        solver::code_path(),
        walls[1].as_secs_f64() / walls[0].as_secs_f64().max(1e-12),
    )?;
    Ok(())
}

/// Holds a file marked with [`SEVERAL_SOLUTIONS_MARK`] to its promise: in uniqueness mode every
/// puzzle's verdict must be `Multiple` (`unique_verdict`), so that the bench really times the search
/// for a second solution. Unmarked files are checked by [`check`] alone.
fn check_expected(
    path: &Path,
    puzzle: &Puzzle,
    mode: Mode,
    unique_verdict: Verdict,
    outcome: &Outcome,
) -> Result<(), BenchError> {
    if mode == Mode::ProveUnique
        && unique_verdict == Verdict::Multiple
        // A budget (`--max-guesses`) may honestly stop a search before it finds the second.
        && !matches!(outcome.verdict, Verdict::Multiple | Verdict::LimitReached)
    {
        return Err(fast_solver_wrong(
            path,
            puzzle,
            mode,
            format!(
                "verdict {:?} in a file marked \"{SEVERAL_SOLUTIONS_MARK}\"",
                outcome.verdict
            ),
        ));
    }
    Ok(())
}

/// Checks our answer to one puzzle on its own terms, whatever the set promises: a verdict the mode
/// can give, with a solution exactly when it says there is one, and that solution a valid completion
/// keeping every given.
fn check(path: &Path, puzzle: &Puzzle, mode: Mode, outcome: &Outcome) -> Result<(), BenchError> {
    let possible = match mode {
        Mode::ProveUnique => matches!(
            outcome.verdict,
            Verdict::Unique | Verdict::Multiple | Verdict::Unsolvable | Verdict::LimitReached
        ),
        Mode::FirstSolution => matches!(
            outcome.verdict,
            Verdict::Solved | Verdict::Unsolvable | Verdict::LimitReached
        ),
    };
    let claims_solution = matches!(
        outcome.verdict,
        Verdict::Unique | Verdict::Multiple | Verdict::Solved
    );
    let reason = if !possible {
        Some(format!("verdict {:?} in this mode", outcome.verdict))
    } else {
        match &outcome.solution {
            None if claims_solution => Some("no solution returned".to_owned()),
            Some(_) if outcome.verdict == Verdict::Unsolvable => {
                Some("a solution returned with the verdict unsolvable".to_owned())
            }
            Some(solution) if !solution.solves(&puzzle.grid) => {
                Some(format!("{solution} does not solve {}", puzzle.grid))
            }
            _ => None,
        }
    };
    match reason {
        None => Ok(()),
        Some(reason) => Err(fast_solver_wrong(path, puzzle, mode, reason)),
    }
}

/// Our solver's wrong answer to `puzzle` in `mode`, and why it is wrong.
fn fast_solver_wrong(path: &Path, puzzle: &Puzzle, mode: Mode, reason: String) -> BenchError {
    BenchError::WrongAnswer {
        path: path.to_owned(),
        line: puzzle.line,
        solver: "fast solver",
        mode: mode_name(mode),
        reason,
    }
}

/// Whether a verdict found the puzzle solvable (`Some(true)`), found it unsolvable (`Some(false)`), or
/// did not tell.
fn solvable(verdict: Verdict) -> Option<bool> {
    match verdict {
        Verdict::Unique | Verdict::Multiple | Verdict::Solved => Some(true),
        Verdict::Unsolvable => Some(false),
        Verdict::LimitReached | Verdict::Cancelled => None,
    }
}

/// Answers counted by verdict, in a fixed order, for the table.
fn verdict_counts(results: &[(Duration, Outcome)]) -> String {
    let all = [
        Verdict::Unique,
        Verdict::Multiple,
        Verdict::Solved,
        Verdict::Unsolvable,
        Verdict::LimitReached,
        Verdict::Cancelled,
    ];
    let counts: Vec<String> = all
        .iter()
        .filter_map(|&verdict| {
            let n = results.iter().filter(|(_, o)| o.verdict == verdict).count();
            (n > 0).then(|| format!("{n} {verdict:?}"))
        })
        .collect();
    counts.join(", ")
}

/// Runs the benchmark over `files` (puzzles of any size, with one, several or no solutions), writing
/// a table per file and grid size to `out` with the answers counted by verdict. Every answer is
/// checked on its own terms; the first wrong one ends the run with [`BenchError::WrongAnswer`].
pub fn run(
    files: &[PathBuf],
    options: &BenchOptions,
    out: &mut dyn Write,
) -> Result<(), BenchError> {
    writeln!(out, "solver code path: {}\n", solver::code_path())?;
    for path in files {
        let PuzzleFile {
            mut puzzles,
            unique_verdict,
        } = read_puzzles(path)?;
        let mut sizes: Vec<usize> = puzzles.iter().map(|p| p.grid.shape().side()).collect();
        sizes.sort_unstable();
        sizes.dedup();
        // One table per size, smallest first: a file may mix sizes, as Gecode's examples do, and
        // figures across sizes would mean nothing.
        for side in sizes {
            let (group, rest): (Vec<Puzzle>, Vec<Puzzle>) = puzzles
                .into_iter()
                .partition(|p| p.grid.shape().side() == side);
            puzzles = rest;
            run_group(path, side, &group, unique_verdict, options, out)?;
        }
    }
    Ok(())
}

/// The table of one file's puzzles of one size.
fn run_group(
    path: &Path,
    side: usize,
    puzzles: &[Puzzle],
    unique_verdict: Verdict,
    options: &BenchOptions,
    out: &mut dyn Write,
) -> Result<(), BenchError> {
    let threads = options.threads.max(1);
    {
        writeln!(
            out,
            "{} ({side}x{side}): {} puzzles{}, {} thread{}{}",
            path.display(),
            puzzles.len(),
            if unique_verdict == Verdict::Multiple {
                " (several solutions each)"
            } else {
                ""
            },
            threads,
            if threads == 1 { "" } else { "s" },
            match options.max_guesses {
                Some(n) => format!(", at most {n} guesses each"),
                None => String::new(),
            }
        )?;
        writeln!(
            out,
            "  {:<16} {:>8} {:>12} {:>10} {:>10} {:>10} {:>10} {:>15}",
            "mode",
            "puzzles",
            "puzzles/s",
            "mean µs",
            "p50 µs",
            "p99 µs",
            "max µs",
            "guesses/puzzle"
        )?;
        let mut per_mode: Vec<(Mode, Vec<Duration>)> = Vec::new();
        let mut verdicts_per_mode = Vec::new();
        let mut scaling = Vec::new();
        // Per puzzle, whether some mode found it solvable, to hold the other modes to it.
        let mut known: Vec<Option<bool>> = vec![None; puzzles.len()];
        if side == 9 {
            warm_up(puzzles, options.max_guesses);
        }
        for &mode in &options.modes {
            let (results, mut wall) = solve_all(puzzles, mode, threads, options.max_guesses);
            let first_wall = wall;
            // Further passes, for --min-time: their wall time and guesses join the throughput,
            // their answers are the same puzzles' again (checked once, on the first pass), and
            // the per-puzzle times are the first pass's.
            let mut passes = 1usize;
            let mut more_guesses = 0u64;
            while wall < options.min_time {
                let (again_wall, guesses) = solve_pass(puzzles, mode, threads, options.max_guesses);
                wall += again_wall;
                passes += 1;
                more_guesses += guesses;
            }
            for ((puzzle, (_, outcome)), known) in puzzles.iter().zip(&results).zip(&mut known) {
                check(path, puzzle, mode, outcome)?;
                check_expected(path, puzzle, mode, unique_verdict, outcome)?;
                match (*known, solvable(outcome.verdict)) {
                    (Some(before), Some(now)) if before != now => {
                        return Err(fast_solver_wrong(
                            path,
                            puzzle,
                            mode,
                            format!("verdict {:?} contradicts another mode's", outcome.verdict),
                        ));
                    }
                    (None, now) => *known = now,
                    _ => {}
                }
            }
            if threads > 1 {
                // The same puzzles on one thread, right after, for the scaling ratio.
                let (single, single_wall) = solve_all(puzzles, mode, 1, options.max_guesses);
                for (puzzle, (_, outcome)) in puzzles.iter().zip(&single) {
                    check(path, puzzle, mode, outcome)?;
                    check_expected(path, puzzle, mode, unique_verdict, outcome)?;
                }
                scaling.push((mode, first_wall, single_wall));
            }
            verdicts_per_mode.push((mode, verdict_counts(&results)));
            let times_in_order: Vec<Duration> = results.iter().map(|(t, _)| *t).collect();
            let mut times = times_in_order.clone();
            times.sort_unstable();
            let figures = Figures {
                puzzles: puzzles.len() * passes,
                wall,
                times,
                guesses: results.iter().map(|(_, o)| o.stats.guesses).sum::<u64>() + more_guesses,
            };
            writeln!(
                out,
                "  {:<16} {:>8} {:>12.0} {:>10} {:>10} {:>10} {:>10} {:>15.2}",
                mode_name(mode),
                puzzles.len(),
                figures.puzzles as f64 / figures.wall.as_secs_f64(),
                Micros(figures.mean()),
                Micros(figures.percentile(50)),
                Micros(figures.percentile(99)),
                Micros(figures.percentile(100)),
                figures.guesses as f64 / figures.puzzles as f64
            )?;
            per_mode.push((mode, times_in_order));
        }
        for (mode, counts) in verdicts_per_mode {
            writeln!(out, "  verdicts, {}: {counts}", mode_name(mode))?;
        }
        for (mode, wall, single_wall) in scaling {
            writeln!(
                out,
                "  {threads} threads against 1 on the same puzzles, {}: {:.2}x the throughput \
                 ({:.0} against {:.0} puzzles/s)",
                mode_name(mode),
                single_wall.as_secs_f64() / wall.as_secs_f64().max(1e-12),
                puzzles.len() as f64 / wall.as_secs_f64(),
                puzzles.len() as f64 / single_wall.as_secs_f64(),
            )?;
        }
        // The portable-path ratio and the textbook baseline are about 9x9 only: other sizes take
        // the general search either way, and have no baseline.
        if side == 9 && solver::code_path() != "portable" {
            portable_ratio(path, puzzles, unique_verdict, out)?;
        }
        if options.baseline_sample > 0 && side == 9 {
            run_baseline(path, puzzles, &known, &per_mode, options, out)?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// Runs the baseline on an evenly spread sample and prints our speed-up over it on the same puzzles.
/// The textbook baseline is 9x9 only and looks for a solution, so the sample takes the 9x9 puzzles
/// our solver found solvable; with none, there is no baseline.
fn run_baseline(
    path: &Path,
    puzzles: &[Puzzle],
    known: &[Option<bool>],
    per_mode: &[(Mode, Vec<Duration>)],
    options: &BenchOptions,
    out: &mut dyn Write,
) -> Result<(), BenchError> {
    let eligible: Vec<usize> = (0..puzzles.len())
        .filter(|&i| puzzles[i].grid.shape() == Shape::NINE && known[i] == Some(true))
        .collect();
    let size = options.baseline_sample.min(eligible.len());
    if size == 0 {
        writeln!(out, "  baseline: no solvable 9x9 puzzle to run it on")?;
        return Ok(());
    }
    let sample: Vec<usize> = (0..size)
        .map(|i| eligible[i * eligible.len() / size])
        .collect();
    let mut total = Duration::ZERO;
    let mut capped = 0;
    for &index in &sample {
        let puzzle = &puzzles[index];
        let start = Instant::now();
        let answer = baseline::solve(puzzle.grid.cells(), start + options.baseline_cap);
        let elapsed = start.elapsed();
        match answer {
            baseline::Answer::Solved(cells) => {
                let solved = Grid::from_cells(puzzle.grid.shape(), cells.to_vec())
                    .is_some_and(|grid| grid.solves(&puzzle.grid));
                if !solved {
                    return Err(BenchError::WrongAnswer {
                        path: path.to_owned(),
                        line: puzzle.line,
                        solver: "baseline",
                        mode: "first solution",
                        reason: "its grid does not solve the puzzle".to_owned(),
                    });
                }
                total += elapsed;
            }
            baseline::Answer::Capped => {
                capped += 1;
                total += options.baseline_cap;
            }
            baseline::Answer::Unsolvable => {
                return Err(BenchError::WrongAnswer {
                    path: path.to_owned(),
                    line: puzzle.line,
                    solver: "baseline",
                    mode: "first solution",
                    reason: "found no solution".to_owned(),
                });
            }
        }
    }
    let baseline_mean = total / size as u32;
    let bound = if capped > 0 { ">= " } else { "" };
    writeln!(
        out,
        "  baseline (textbook row-major backtracking, first solution) on {size} puzzles: \
         mean {} µs, {capped} hit the {} ms cap{}",
        Micros(baseline_mean),
        options.baseline_cap.as_millis(),
        if capped > 0 {
            " (counted at the cap)"
        } else {
            ""
        }
    )?;
    for (mode, times) in per_mode {
        let ours: Duration = sample.iter().map(|&i| times[i]).sum::<Duration>() / size as u32;
        let speedup = baseline_mean.as_secs_f64() / ours.as_secs_f64().max(1e-12);
        writeln!(
            out,
            "    speed-up, ours in {} mode on the same puzzles ({} µs mean): {bound}{speedup:.0}x",
            mode_name(*mode),
            Micros(ours)
        )?;
    }
    Ok(())
}

/// BASELINE ONLY, not used by the service: the textbook (LeetCode 37) backtracking solver, kept
/// deliberately naive as the yardstick the benchmark measures the real solver against.
///
/// It fills blanks in row-major order, trying digits 1 to 9 and checking each by scanning the cell's
/// row, column and box, and stops at the first solution.
pub mod baseline {
    use std::time::Instant;

    /// What the baseline found.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub enum Answer {
        /// A solution (the first found), row-major.
        Solved([u8; 81]),
        /// No solution exists.
        Unsolvable,
        /// The deadline passed first.
        Capped,
    }

    /// Nodes between two looks at the clock.
    const CLOCK_INTERVAL: u32 = 4096;

    struct Search {
        board: [u8; 81],
        deadline: Instant,
        nodes: u32,
        capped: bool,
    }

    impl Search {
        fn valid(&self, index: usize, digit: u8) -> bool {
            let (row, col) = (index / 9, index % 9);
            let (box_row, box_col) = (row / 3 * 3, col / 3 * 3);
            for i in 0..9 {
                if self.board[row * 9 + i] == digit
                    || self.board[i * 9 + col] == digit
                    || self.board[(box_row + i / 3) * 9 + box_col + i % 3] == digit
                {
                    return false;
                }
            }
            true
        }

        fn fill(&mut self) -> bool {
            let Some(index) = self.board.iter().position(|&v| v == 0) else {
                return true;
            };
            for digit in 1..=9 {
                self.nodes += 1;
                if self.nodes.is_multiple_of(CLOCK_INTERVAL) && Instant::now() >= self.deadline {
                    self.capped = true;
                    return false;
                }
                if self.valid(index, digit) {
                    self.board[index] = digit;
                    if self.fill() {
                        return true;
                    }
                    if self.capped {
                        return false;
                    }
                    self.board[index] = 0;
                }
            }
            false
        }
    }

    /// Solves a 9x9 puzzle given as 81 row-major cells (0 for a blank), giving up at `deadline`.
    /// Cells beyond 81 are ignored and missing ones read as blank; givens are assumed not to clash.
    pub fn solve(cells: &[u8], deadline: Instant) -> Answer {
        let mut board = [0u8; 81];
        for (slot, &value) in board.iter_mut().zip(cells) {
            *slot = if value <= 9 { value } else { 0 };
        }
        let mut search = Search {
            board,
            deadline,
            nodes: 0,
            capped: false,
        };
        if search.fill() {
            Answer::Solved(search.board)
        } else if search.capped {
            Answer::Capped
        } else {
            Answer::Unsolvable
        }
    }
}
