//! The command tree and its dispatch: every subcommand of the binary, each handed to the module that
//! runs it; the commands themselves, their arguments and their output live in the modules below.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod args;
mod bench;
mod client;
mod generate;
mod health;
mod input;
mod load;
mod local;
mod output;
mod serve;

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
    Serve(serve::ServeArgs),

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
                            | sudoku-grpc solve\n  \
                            sudoku-grpc solve --fpuzzles tests/data/variants/killer.json"
    )]
    Solve(local::SolveArgs),

    /// The true candidates of one puzzle locally, without a server: the verdict, then a line per
    /// row with each cell's candidates (the symbols some solution puts there), separated by spaces.
    /// A classic puzzle, or an f-puzzles variant with --fpuzzles.
    #[command(after_help = "Examples:\n  sudoku-grpc true-candidates \
                            53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n  \
                            sudoku-grpc true-candidates --fpuzzles tests/data/variants/jigsaw.json")]
    TrueCandidates(local::TrueCandidatesArgs),

    /// Print each puzzle's canonical (min-lex) key locally, without a server: one puzzle per line in,
    /// `<key> <transform>` per line out (see `sudoku.v1.CanonicalizeResponse` for the transform's
    /// form), or `invalid <what is wrong and where>`. Blank lines and `#` lines are skipped; the exit
    /// code is 1 if any line was invalid.
    #[command(
        after_help = "Examples:\n  sudoku-grpc canon puzzles.txt > keys.txt\n  \
                            sort -u -k1,1 keys.txt | wc -l     # puzzles distinct up to symmetry"
    )]
    Canon(local::CanonArgs),

    /// Benchmark the solver in-process on puzzle files, verifying every answer, beside the textbook
    /// backtracking baseline measured in the same run.
    #[command(
        after_help = "Examples:\n  sudoku-grpc bench ../shared/data/17_clue.txt ../shared/data/forum_hardest_1905_11plus.txt\n  \
                            sudoku-grpc bench --threads 2 tests/data/17_clue_sample.txt\n  \
                            sudoku-grpc bench --generate --threads 2"
    )]
    Bench(bench::BenchArgs),

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
    Grade(local::GradeArgs),

    /// The next step for a player: from the board (`--progress`, the givens plus their entries; the
    /// puzzle when absent) to its next placement, in words; or the entries that are wrong.
    #[command(after_help = "Examples:\n  sudoku-grpc hint \
                            53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")]
    Hint(local::HintArgs),

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
    Health(health::HealthArgs),
}

/// Runs the command line; what `main` calls.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => run_async(serve::run(args)),
        Command::Solve(args) => local::solve(&args),
        Command::TrueCandidates(args) => local::true_candidates(&args),
        Command::Canon(args) => local::canon(&args),
        Command::Bench(args) => bench::run_command(args),
        Command::Generate(args) => generate::run_local(&args),
        Command::Grade(args) => local::grade(&args),
        Command::Hint(args) => local::hint(&args),
        Command::Client(args) => {
            // Clients log only when asked: their stderr is for the summary and the warnings.
            if std::env::var_os("RUST_LOG").is_some() {
                sudoku_grpc::telemetry::init(sudoku_grpc::config::LogFormat::Text);
            }
            run_async(client::run(args))
        }
        Command::Load(args) => run_async(load::run(args)),
        Command::Health(args) => run_async(health::run(args)),
    };
    result.unwrap_or_else(|e| {
        eprintln!("sudoku-grpc: {e:#}");
        ExitCode::FAILURE
    })
}

/// Runs an async command to its end on the service's runtime.
fn run_async(job: impl Future<Output = anyhow::Result<ExitCode>>) -> anyhow::Result<ExitCode> {
    sudoku_grpc::sched::runtime()?.block_on(job)
}
