//! The command line: one binary whose main job is `serve`, with subcommands to solve files locally and
//! to check a server's health.

use std::io::{BufRead, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use crate::client::{self, Tally};
use crate::config::ServerConfig;
use crate::grid::Grid;
use crate::proto;
use crate::solver::{self, Mode};

/// A gRPC service that solves Sudoku puzzles, and the tools around it.
#[derive(Debug, Parser)]
#[command(
    name = "sudoku-grpc",
    version,
    after_help = "Examples:\n  sudoku-grpc serve                       # listen on 0.0.0.0:50051\n  \
                  sudoku-grpc serve --addr 127.0.0.1:6000\n  \
                  sudoku-grpc solve puzzles.txt > solutions.txt\n  \
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
    Serve(ServerConfig),

    /// Solve puzzles locally, without a server: one puzzle per line in, one answer per line out.
    ///
    /// Each answer is the 81-digit solution for a unique (or, with --skip-uniqueness-check, solved)
    /// puzzle; otherwise the verdict first: `multiple <one solution>`, `unsolvable`,
    /// `limit_reached`, or `invalid <what is wrong and where>`. Blank lines and lines starting with
    /// `#` are skipped. A summary by verdict goes to stderr; the exit code is 1 if any line was invalid.
    #[command(
        after_help = "Examples:\n  sudoku-grpc solve puzzles.txt > solutions.txt\n  \
                            echo 53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 \
                            | sudoku-grpc solve"
    )]
    Solve(SolveArgs),

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
    Generate(crate::generate::GenerateArgs),

    /// Call a running server: solve one puzzle, or stream a file of puzzles through SolveBatch.
    Client(crate::client::Args),

    /// Load generators against a running server: stream files through SolveBatch, or run many
    /// concurrent unary Solve clients; prints throughput and latency.
    Load(crate::load::Args),

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
    /// Solver threads (1 measures single-thread latency; more, throughput).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Puzzles per file that the textbook baseline solves too (0 skips it).
    #[arg(long, default_value_t = 200)]
    baseline_sample: usize,
    /// The most time the baseline may spend on one puzzle.
    #[arg(long, default_value = "20ms", value_parser = humantime::parse_duration)]
    baseline_cap: Duration,
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
        Command::Bench(args) => bench(args),
        Command::Generate(args) => crate::generate::run_local(&args),
        Command::Client(args) => run_async(crate::client::run(args)),
        Command::Load(args) => run_async(crate::load::run(args)),
        Command::Health(args) => run_async(health(args)),
    };
    result.unwrap_or_else(|e| {
        eprintln!("sudoku-grpc: {e:#}");
        ExitCode::FAILURE
    })
}

fn run_async(job: impl Future<Output = anyhow::Result<ExitCode>>) -> anyhow::Result<ExitCode> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(job)
}

async fn serve(config: ServerConfig) -> anyhow::Result<ExitCode> {
    crate::telemetry::init(config.log_format);
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", config.addr))?;
    crate::server::serve(listener, config, crate::server::shutdown_signal()).await?;
    Ok(ExitCode::SUCCESS)
}

fn bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    if args.generate {
        crate::bench_generate::run(args.scale, args.threads, &mut std::io::stdout().lock())?;
        return Ok(ExitCode::SUCCESS);
    }
    let options = crate::bench::BenchOptions {
        threads: args.threads.max(1),
        baseline_sample: args.baseline_sample,
        baseline_cap: args.baseline_cap,
        ..Default::default()
    };
    crate::bench::run(&args.files, &options, &mut std::io::stdout().lock())?;
    Ok(ExitCode::SUCCESS)
}

async fn health(args: HealthArgs) -> anyhow::Result<ExitCode> {
    use tonic_health::pb::{
        HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient,
    };
    let check = async {
        let channel = crate::client::connect(&crate::client::server_url(&args.addr)).await?;
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
/// `client batch` prints.
fn answer_line(line: &str, mode: Mode, max_guesses: u64) -> (String, &'static str) {
    let puzzle = match Grid::parse_puzzle(line) {
        Ok(puzzle) => puzzle,
        Err(e) => return client::answer_line(proto::Verdict::Invalid, "", &e.to_string()),
    };
    let options = solver::Options {
        mode,
        max_guesses: Some(max_guesses),
        cancel: None,
    };
    let outcome = solver::solve(&puzzle, &options);
    let solution = outcome.solution.map(|g| g.to_line()).unwrap_or_default();
    client::answer_line(outcome.verdict.into(), &solution, "")
}

fn solve_lines(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let input: Box<dyn BufRead> = match &args.file {
        None => Box::new(std::io::stdin().lock()),
        Some(path) if path.as_os_str() == "-" => Box::new(std::io::stdin().lock()),
        Some(path) => Box::new(std::io::BufReader::new(
            std::fs::File::open(path)
                .map_err(|e| anyhow::anyhow!("cannot open {}: {e}", path.display()))?,
        )),
    };
    let mode = if args.skip_uniqueness_check {
        Mode::FirstSolution
    } else {
        Mode::ProveUnique
    };
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut tally = Tally::default();
    for line in input.lines() {
        let line = line?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let (answer, kind) = answer_line(text, mode, args.max_guesses);
        tally.add(kind);
        writeln!(out, "{answer}")?;
    }
    out.flush()?;
    eprintln!("{tally}");
    Ok(if tally.get("invalid") > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
