//! The command line: one binary whose main job is `serve`, with subcommands to solve files locally and
//! to check a server's health.

use std::io::{BufRead, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use args::FormatArgs;
use args::ServeArgs;
use output::Tally;
use sudoku_core::canonicalization::canonicalize;
use sudoku_core::grid::Grid;
use sudoku_core::solver::{self, Mode, Verdict};
use sudoku_core::text::Format;
use sudoku_grpc::config::ServerConfig;

mod args;
mod bench;
mod client;
mod generate;
mod input;
mod load;
mod local;
mod output;

/// A gRPC service that solves Sudoku puzzles, and the tools around it.
#[derive(Debug, Parser)]
#[command(
    name = "sudoku-grpc",
    version,
    after_help = "Examples:\n  sudoku-grpc serve                       # listen on 0.0.0.0:50051\n  \
                  sudoku-grpc serve --addr 127.0.0.1:6000\n  \
                  sudoku-grpc solve puzzles.txt > solutions.txt\n  \
                  sudoku-grpc canon puzzles.txt > keys.txt\n  \
                  sudoku-grpc health --addr http://127.0.0.1:50051"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the gRPC server (sudoku.v1.SudokuService, health, reflection) until SIGTERM or ctrl-c.
    #[command(after_help = "Examples:\n  sudoku-grpc serve\n  \
                            SUDOKU_ADDR=127.0.0.1:6000 RUST_LOG=debug sudoku-grpc serve --log-format json")]
    Serve(ServeArgs),

    /// Solve puzzles locally, without a server: one puzzle per line in, one answer per line out.
    ///
    /// Any size from 4x4 to 25x25, its shape inferred from each line's count of cells unless --box
    /// gives it. Each answer is the solution, in the puzzle's alphabet, for a unique (or, with --skip-uniqueness-check, solved)
    /// puzzle; otherwise the verdict first: `multiple <one solution>`, `unsolvable`,
    /// `limit_reached`, or `invalid <what is wrong and where>`. Blank lines and lines starting with
    /// `#` are skipped. A summary by verdict goes to stderr; the exit code is 1 if any line was invalid.
    #[command(
        after_help = "Examples:\n  sudoku-grpc solve puzzles.txt > solutions.txt\n  \
                            echo 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 \
                            | sudoku-grpc solve"
    )]
    Solve(SolveArgs),

    /// Print each puzzle's canonical (min-lex) key locally, without a server: one puzzle per line in,
    /// `<key> <transform>` per line out (see `sudoku.v1.CanonicalizeResponse` for the transform's
    /// form), or `invalid <what is wrong and where>`. Blank lines and `#` lines are skipped; the exit
    /// code is 1 if any line was invalid.
    #[command(
        after_help = "Examples:\n  sudoku-grpc canon puzzles.txt > keys.txt\n  \
                            sort -u -k1,1 keys.txt | wc -l     # puzzles distinct up to symmetry"
    )]
    Canon(CanonArgs),

    /// Benchmark the solver in-process on puzzle files, verifying every answer, beside the textbook
    /// backtracking baseline measured in the same run.
    #[command(
        after_help = "Examples:\n  sudoku-grpc bench ../shared/data/17_clue.txt ../shared/data/forum_hardest_1905_11plus.txt\n  \
                            sudoku-grpc bench --threads 2 tests/data/17_clue_sample.txt\n  \
                            sudoku-grpc bench --generate --threads 2"
    )]
    Bench(BenchArgs),

    /// Generate fresh puzzles locally, without a server: one per line (with --details, also the
    /// solution, clue count and seed). The same arguments and seed give what a server gives.
    #[command(
        after_help = "Examples:\n  sudoku-grpc generate --count 10 --seed 7 --symmetry rotate-180 --minimal\n  \
                            sudoku-grpc generate --box 4x4 --details"
    )]
    Generate(generate::GenerateArgs),
    /// Grade puzzles locally the way people solve them: one line per puzzle with its level, its
    /// rating on the Sudoku Explainer scale and its hardest technique (a `+` after the rating when the
    /// effort budget ran out and it is a lower bound); `--steps` adds the path in words.
    #[command(after_help = "Examples:\n  sudoku-grpc grade puzzles.txt\n  \
                            echo 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 \
                            | sudoku-grpc grade --steps")]
    Grade(GradeArgs),

    /// The next step for a player: from the board (`--progress`, the givens plus their entries; the
    /// puzzle when absent) to its next placement, in words; or the entries that are wrong.
    #[command(after_help = "Examples:\n  sudoku-grpc hint \
                            53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")]
    Hint(HintArgs),

    /// Call a running server: solve one puzzle, or stream a file of puzzles through SolveBatch.
    Client(client::Args),

    /// Load generators against a running server: stream files through SolveBatch, or run many
    /// concurrent unary Solve clients; prints throughput and latency.
    Load(load::Args),

    /// Ask a server's grpc.health.v1 service whether it is serving; exit 0 if so, 1 if not.
    #[command(
        after_help = "Examples:\n  sudoku-grpc health\n  sudoku-grpc health --addr http://10.0.0.7:50051 \
                            --service sudoku.v1.SudokuService"
    )]
    Health(HealthArgs),
}

#[derive(Debug, clap::Args)]
struct SolveArgs {
    /// File of puzzles, one per line; `-` or nothing for stdin.
    file: Option<PathBuf>,
    /// Stop at the first solution instead of proving it is the only one.
    #[arg(long)]
    skip_uniqueness_check: bool,
    /// The most guesses per puzzle before giving up with `limit_reached`.
    #[arg(long, default_value_t = 100_000_000)]
    max_guesses: u64,
    /// Every puzzle's shape and alphabet.
    #[command(flatten)]
    format: FormatArgs,
}

#[derive(Debug, clap::Args)]
struct CanonArgs {
    /// File of puzzles, one per line; `-` or nothing for stdin.
    file: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct GradeArgs {
    /// File of puzzles, one per line; `-` or nothing for stdin.
    file: Option<PathBuf>,
    /// Print each puzzle's path, one step a line, after its grade.
    #[arg(long)]
    steps: bool,
}

#[derive(Debug, clap::Args)]
struct HintArgs {
    /// The puzzle: its givens only.
    puzzle: String,
    /// The player's board: the givens plus their entries.
    #[arg(long)]
    progress: Option<String>,
}

#[derive(Debug, clap::Args)]
struct BenchArgs {
    /// Files of puzzles, one per line (`#` lines are comments).
    #[arg(required_unless_present = "generate")]
    files: Vec<PathBuf>,
    /// Benchmark the generator instead: puzzles per second by shape and option, beside a textbook
    /// generator in the same run.
    #[arg(long)]
    generate: bool,
    /// With --generate: multiplies the number of puzzles made per case.
    #[arg(long, default_value_t = 1, requires = "generate")]
    scale: u64,
    /// Solver threads (1 measures single-thread latency; more, throughput, and its ratio to one thread
    /// measured on the same puzzles right after).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Puzzles per file that the textbook baseline solves too (0 skips it).
    #[arg(long, default_value_t = 200)]
    baseline_sample: usize,
    /// The most time the baseline may spend on one puzzle.
    #[arg(long, default_value = "20ms", value_parser = humantime::parse_duration)]
    baseline_cap: Duration,
    /// The guess budget of each solve (0: unlimited); a puzzle that needs more counts as
    /// LimitReached, so a set of hard 25x25 grids ends in bounded time.
    #[arg(long, default_value_t = 0)]
    max_guesses: u64,
    /// Repeat each mode's timed pass over a file until at least this long has passed (e.g. `5s`,
    /// as tdoku's `run_benchmark -t 5`), for steadier figures on a shared machine; 0 for one pass.
    #[arg(long, default_value = "0s", value_parser = humantime::parse_duration)]
    min_time: Duration,
    /// Measure the canonical form (Canonicalize) instead of the solver; the baseline is the brute
    /// force on `--baseline-sample / 10` puzzles per file.
    #[arg(long)]
    canon: bool,
    /// Benchmark the logic engine (Grade) instead of the solver: time per puzzle, the levels'
    /// distribution, and the puzzles singles solve in µs each.
    #[arg(long)]
    grade: bool,
}

#[derive(Debug, clap::Args)]
struct HealthArgs {
    /// The server: a URL, or `HOST:PORT` for plain HTTP/2.
    #[arg(
        long,
        env = "SUDOKU_HEALTH_ADDR",
        default_value = "http://127.0.0.1:50051"
    )]
    addr: String,
    /// The service to ask about; empty for the whole server.
    #[arg(long, default_value = "")]
    service: String,
    /// How long to wait for an answer.
    #[arg(long, default_value = "3s", value_parser = humantime::parse_duration)]
    timeout: Duration,
}

/// Runs the command line; what `main` calls.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(config) => run_async(serve(config)),
        Command::Solve(args) => solve_lines(&args),
        Command::Canon(args) => canon_lines(&args),
        Command::Bench(args) => bench(args),
        Command::Generate(args) => generate::run_local(&args),
        Command::Grade(args) => grade_lines(&args),
        Command::Hint(args) => hint(&args),
        Command::Client(args) => run_async(client::run(args)),
        Command::Load(args) => run_async(load::run(args)),
        Command::Health(args) => run_async(health(args)),
    };
    result.unwrap_or_else(|e| {
        eprintln!("sudoku-grpc: {e:#}");
        ExitCode::FAILURE
    })
}

fn run_async(job: impl Future<Output = anyhow::Result<ExitCode>>) -> anyhow::Result<ExitCode> {
    sudoku_grpc::sched::runtime()?.block_on(job)
}

async fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let config = ServerConfig::try_from(args)?;
    sudoku_grpc::telemetry::init(config.log_format);
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| {
            anyhow::anyhow!(
                "cannot listen on {}: {e}; choose another address with --addr (SUDOKU_ADDR)",
                config.addr
            )
        })?;
    sudoku_grpc::server::serve(listener, config, sudoku_grpc::server::shutdown_signal()).await?;
    Ok(ExitCode::SUCCESS)
}

fn bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    if args.canon {
        let sample = args.baseline_sample / 10;
        bench::canon::run(&args.files, sample, &mut std::io::stdout().lock())?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.generate {
        bench::generate::run(args.scale, args.threads, &mut std::io::stdout().lock())?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.grade {
        bench::grade::run(&args.files, args.threads, &mut std::io::stdout().lock())?;
        return Ok(ExitCode::SUCCESS);
    }
    let options = bench::BenchOptions {
        threads: args.threads.max(1),
        baseline_sample: args.baseline_sample,
        baseline_cap: args.baseline_cap,
        max_guesses: (args.max_guesses > 0).then_some(args.max_guesses),
        min_time: args.min_time,
        ..Default::default()
    };
    bench::run(&args.files, &options, &mut std::io::stdout().lock())?;
    Ok(ExitCode::SUCCESS)
}

async fn health(args: HealthArgs) -> anyhow::Result<ExitCode> {
    use tonic_health::pb::{
        HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient,
    };
    let check = async {
        let channel = client::connect(&client::server_url(&args.addr)).await?;
        let response = HealthClient::new(channel)
            .check(HealthCheckRequest {
                service: args.service.clone(),
            })
            .await?;
        anyhow::Ok(response.into_inner().status())
    };
    let status = tokio::time::timeout(args.timeout, check)
        .await
        .map_err(|_| anyhow::anyhow!("no answer from {} within {:?}", args.addr, args.timeout))??;
    println!("{}", status.as_str_name());
    Ok(if status == ServingStatus::Serving {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The answer line for one puzzle line, and its kind for the summary: the same format as
/// `client batch` prints, from the core's own verdict.
fn answer_line(
    line: &str,
    format: &Format,
    mode: Mode,
    max_guesses: u64,
) -> (String, &'static str) {
    let read = match Grid::read_puzzle(line, format) {
        Ok(read) => read,
        Err(e) => return (format!("invalid {e}"), "invalid"),
    };
    let options = solver::Options {
        mode,
        max_guesses: Some(max_guesses),
        cancel: None,
    };
    let outcome = solver::solve(&read.grid, &options);
    let solution = outcome
        .solution
        .map(|g| read.symbols.write(&g))
        .unwrap_or_default();
    output::answer_line(outcome.verdict.into(), &solution, "")
}

/// The answer to the commonest line, a 9x9 puzzle of exactly 81 cells (`1`-`9`, `.` or `0` for a
/// blank, ASCII whitespace around it), written to `out` straight from the bytes: the same line
/// [`answer_line`] gives in the standard format, without its general reader (which scans characters
/// for layout and other alphabets), its clash check ahead of solving or its strings, which together
/// cost about a fifth of the solving on 17-clue puzzles. A clash among the givens makes the puzzle
/// unsolvable, so only an `unsolvable` verdict (or another rare one) goes through [`answer_line`]
/// for its exact wording. `None` for any other line, which [`answer_line`] then takes.
fn plain_answer(
    bytes: &[u8],
    mode: Mode,
    max_guesses: u64,
    out: &mut impl Write,
) -> std::io::Result<Option<&'static str>> {
    let text = bytes.trim_ascii();
    let Ok(text81) = <&[u8; 81]>::try_from(text) else {
        return Ok(None);
    };
    let mut cells = vec![0u8; 81];
    let mut valid = true;
    for (cell, &byte) in cells.iter_mut().zip(text81) {
        let digit = byte.wrapping_sub(b'0');
        valid &= digit <= 9 || byte == b'.';
        *cell = if byte == b'.' { 0 } else { digit };
    }
    let Some(grid) = valid
        .then(|| Grid::from_cells(sudoku_core::grid::Shape::NINE, cells))
        .flatten()
    else {
        return Ok(None);
    };
    let options = solver::Options {
        mode,
        max_guesses: Some(max_guesses),
        cancel: None,
    };
    let outcome = solver::solve(&grid, &options);
    let (prefix, kind): (&[u8], _) = match outcome.verdict {
        Verdict::Unique => (b"", "unique"),
        Verdict::Solved => (b"", "solved"),
        Verdict::Multiple => (b"multiple ", "multiple"),
        _ => return Ok(None),
    };
    let Some(solution) = outcome.solution else {
        return Ok(None);
    };
    let mut line = [b'\n'; 82];
    for (byte, &digit) in line.iter_mut().zip(solution.cells()) {
        *byte = b'0' + digit;
    }
    out.write_all(prefix)?;
    out.write_all(&line)?;
    Ok(Some(kind))
}

fn canon_lines(args: &CanonArgs) -> anyhow::Result<ExitCode> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut invalid = false;
    for text in input::puzzles(input::open(args.file.as_deref())?) {
        let text = text?;
        let text = text.as_str();
        // Read as Solve and the service read, then refused if not 9x9: the same words either way.
        let answer = Grid::read(text, &Format::default())
            .map_err(|e| e.to_string())
            .and_then(|read| canonicalize(&read.grid).map_err(|e| e.to_string()));
        match answer {
            Ok(canonical) => writeln!(out, "{} {}", canonical.key(), canonical.transform)?,
            Err(e) => {
                invalid = true;
                writeln!(out, "invalid {e}")?;
            }
        }
    }
    out.flush()?;
    Ok(if invalid {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn grade_lines(args: &GradeArgs) -> anyhow::Result<ExitCode> {
    let puzzles = input::puzzles(input::open(args.file.as_deref())?);
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut invalid = 0;
    for text in puzzles {
        match Grid::read_puzzle(&text?, &Format::default()) {
            Ok(read) => {
                for line in local::grade(&read.grid, args.steps)? {
                    writeln!(out, "{line}")?;
                }
            }
            Err(e) => {
                invalid += 1;
                writeln!(out, "invalid {e}")?;
            }
        }
    }
    out.flush()?;
    Ok(if invalid > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn hint(args: &HintArgs) -> anyhow::Result<ExitCode> {
    let puzzle = Grid::read_puzzle(&args.puzzle, &Format::default())
        .map_err(|e| anyhow::anyhow!("invalid puzzle: {e}"))?
        .grid;
    let progress = match &args.progress {
        Some(board) => {
            let format = Format {
                shape: Some(puzzle.shape()),
                symbols: None,
            };
            Grid::read(board, &format)
                .map_err(|e| anyhow::anyhow!("invalid progress: {e}"))?
                .grid
        }
        None => puzzle.clone(),
    };
    for line in local::hint(&puzzle, &progress)? {
        println!("{line}");
    }
    Ok(ExitCode::SUCCESS)
}

fn solve_lines(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let mut input = input::open(args.file.as_deref())?;
    let mode = if args.skip_uniqueness_check {
        Mode::FirstSolution
    } else {
        Mode::ProveUnique
    };
    let (box_rows, box_cols) = args.format.box_rows_cols();
    let format = Format::new(box_rows, box_cols, &args.format.symbols)?;
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut tally = Tally::default();
    // The standard format (no `--box`, no `--symbols`) lets a plain 81-cell line skip the general
    // reader and writer.
    let standard = args.format.is_default();
    // One line buffer for the whole input. Lines are read as bytes: a line that is not UTF-8 gets an
    // `invalid` answer naming the character, not the end of the run.
    let mut bytes = Vec::with_capacity(128);
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            break;
        }
        if standard && let Some(kind) = plain_answer(&bytes, mode, args.max_guesses, &mut out)? {
            tally.add(kind);
            continue;
        }
        let line = String::from_utf8_lossy(&bytes);
        let Some(text) = sudoku_core::puzzle_file::puzzle_text(&line) else {
            continue;
        };
        let (answer, kind) = answer_line(text, &format, mode, args.max_guesses);
        out.write_all(answer.as_bytes())?;
        out.write_all(b"\n")?;
        tally.add(kind);
    }
    out.flush()?;
    eprintln!("{tally}");
    Ok(if tally.get("invalid") > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain-line shortcut answers exactly as the general path does, on every line it takes, and
    /// leaves every other line to it.
    #[test]
    fn plain_answer_matches_answer_line() {
        let format = Format::new(0, 0, "").expect("standard format");
        let mut lines: Vec<String> = Vec::new();
        for file in [
            "tests/data/17_clue_sample.txt",
            "tests/data/17_clue_minus_one_sample.txt",
            "tests/data/forum_hardest_1905_11plus_sample.txt",
        ] {
            let text = std::fs::read_to_string(file).expect("sample file");
            lines.extend(text.lines().take(150).map(str::to_owned));
        }
        let solved =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        lines.extend([
            // Blanks as 0, surrounding whitespace and a carriage return.
            format!("  {}\r", lines[1].replace('.', "0")),
            // Two 5s in the first row: invalid, with the clash named.
            format!("55{}", ".".repeat(79)),
            // Unsolvable without a clash: the first cell can take no digit.
            format!(".234567891{}", ".".repeat(71)),
            solved.to_owned(),
            ".".repeat(81),
            // Not plain: a letter, a wrong length, a comment, layout.
            format!("a{}", &solved[1..]),
            solved[1..].to_owned(),
            "# a comment".to_owned(),
            format!("{} |", solved),
        ]);
        for mode in [Mode::ProveUnique, Mode::FirstSolution] {
            for line in &lines {
                let mut fast = Vec::new();
                let kind = plain_answer(line.as_bytes(), mode, 1_000_000, &mut fast)
                    .expect("write to a vector");
                let Some(text) = sudoku_core::puzzle_file::puzzle_text(line) else {
                    assert_eq!(kind, None, "{line}");
                    continue;
                };
                let (answer, general_kind) = answer_line(text, &format, mode, 1_000_000);
                if let Some(kind) = kind {
                    assert_eq!(kind, general_kind, "{line}");
                    assert_eq!(
                        String::from_utf8(fast).expect("ASCII"),
                        answer + "\n",
                        "{line}"
                    );
                } else {
                    assert!(fast.is_empty(), "{line}");
                }
            }
        }
    }
}
