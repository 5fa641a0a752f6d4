//! The `generate` command: fresh puzzles made in this process on the core; its arguments and lines
//! are `client generate`'s too, and the same arguments and seed give the same puzzles either way.

use std::io::Write;
use std::process::ExitCode;

use sudoku_core::generator::{self, Limits, Spec, Symmetry};
use sudoku_core::grader::Difficulty;
use sudoku_grpc::proto::{self, GenerateRequest};
use sudoku_grpc::wire;

use super::args::FormatArgs;
use super::output;

/// Arguments of the `generate` and `client generate` commands: the fields of a `GenerateRequest`.
#[derive(Debug, Clone, clap::Args)]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, default_value_t = 1)]
    pub count: u32,
    /// The same arguments with the same seed give the same puzzles; 0 for a random seed. Each
    /// puzzle's own seed (printed with --details) gives that puzzle again with --count 1.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The symmetry of the clue pattern: none, rotate-180, rotate-90, mirror, flip, diagonal or
    /// anti-diagonal (the last three need square boxes).
    #[arg(long, default_value = "none", value_parser = parse_symmetry)]
    pub symmetry: Symmetry,
    /// The difficulty: beginner, easy, medium, hard, expert or extreme; any when not given.
    #[arg(long, value_parser = parse_difficulty)]
    pub difficulty: Option<Difficulty>,
    /// The lowest rating (Sudoku Explainer's ER, as `grade` rates) of every puzzle; 0 for none.
    #[arg(long, default_value_t = 0.0)]
    pub min_rating: f64,
    /// The highest rating of every puzzle; 0 for none.
    #[arg(long, default_value_t = 0.0)]
    pub max_rating: f64,
    /// Minimal puzzles: no single clue can be removed without losing uniqueness, with a symmetry
    /// as without.
    #[arg(long)]
    pub minimal: bool,
    /// The shape (9x9 when not given) and the symbols of the answers.
    #[command(flatten)]
    pub format: FormatArgs,
    /// After each puzzle, tab-separated: its solution, clue count, seed, level and rating.
    #[arg(long)]
    pub details: bool,
}

fn parse_symmetry(text: &str) -> Result<Symmetry, String> {
    text.parse().map_err(|e| format!("{e}"))
}

fn parse_difficulty(text: &str) -> Result<Difficulty, String> {
    Difficulty::ALL
        .into_iter()
        .find(|d| d.name().eq_ignore_ascii_case(text))
        .ok_or_else(|| {
            format!("unknown difficulty {text:?}: expected beginner, easy, medium, hard, expert or extreme")
        })
}

impl GenerateArgs {
    /// The request these arguments make.
    pub fn request(&self) -> GenerateRequest {
        let (box_rows, box_cols) = self.format.box_rows_cols();
        GenerateRequest {
            count: self.count,
            seed: self.seed,
            box_rows,
            box_cols,
            symmetry: proto::Symmetry::from(self.symmetry).into(),
            difficulty: self
                .difficulty
                .map_or(0, |d| proto::Difficulty::from(d).into()),
            minimal: self.minimal,
            symbols: self.format.symbols.clone(),
            min_rating: self.min_rating,
            max_rating: self.max_rating,
        }
    }

    /// The output line for one puzzle.
    pub fn line(&self, answer: &proto::GenerateResponse) -> String {
        output::generated_line(answer, self.details)
    }
}

/// The `generate` command: makes the puzzles in this process, one line each on stdout, exactly as a
/// server would for the same request.
pub fn run_local(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let (box_rows, box_cols) = args.format.box_rows_cols();
    let (shape, symbols) = wire::shape_and_symbols(box_rows, box_cols, &args.format.symbols)?;
    let spec = Spec::new(shape, args.symmetry, args.minimal)?;
    let target = wire::target(&args.request())?;
    let seed = match args.seed {
        0 => generator::random_seed(),
        seed => seed,
    };
    let limits = Limits {
        max_attempts: target.max_attempts(),
        cancel: None,
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for index in 0..u64::from(args.count.max(1)) {
        let seed = generator::puzzle_seed(seed, index);
        let made = generator::generate_graded(&spec, seed, target, &limits)?;
        let answer = wire::generated(index, seed, &made, &symbols);
        writeln!(out, "{}", args.line(&answer))?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
