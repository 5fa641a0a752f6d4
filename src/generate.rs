//! Generate's request, shared by the service and the command line: the checks that turn a
//! `GenerateRequest` into a [`Plan`], the answers written in the request's alphabet, and the
//! `generate` commands (local, and `client generate` through a server).

use std::hash::{BuildHasher, Hasher};
use std::io::Write;
use std::process::ExitCode;

use anyhow::anyhow;
use tonic::{Code, Status};

use crate::grid::{Grid, Shape};
use crate::proto::{self, GenerateRequest, GenerateResponse};
use sudoku_core::generator::{self, Generated, Limits, Rated, Spec, Symmetry};
use sudoku_core::grader::Difficulty;

/// Full grids one puzzle may draw before the call ends with RESOURCE_EXHAUSTED.
pub const MAX_ATTEMPTS: u32 = generator::DEFAULT_MAX_ATTEMPTS;

/// The default symbols: `1`-`9`, then `A` = 10 and on, as the contract says for every grid.
const DEFAULT_SYMBOLS: &str = "123456789ABCDEFGHIJKLMNOP";

/// A request, checked and made safe: what every puzzle of the call is made from.
#[derive(Clone, Debug)]
pub struct Plan {
    /// What each puzzle is made from.
    pub spec: Spec,
    /// The level every puzzle must have; any when `None`.
    pub difficulty: Option<Difficulty>,
    /// How many puzzles, at least 1.
    pub count: u32,
    /// The request's seed, never 0.
    pub seed: u64,
    /// The symbol written for each value 1..=N.
    symbols: Vec<char>,
}

impl Plan {
    /// Reads `request`, capping its count at `max_count`; INVALID_ARGUMENT says what is wrong.
    pub fn new(request: &GenerateRequest, max_count: u32) -> Result<Plan, Status> {
        let shape = match (request.box_rows, request.box_cols) {
            (0, 0) => Shape::NINE,
            (rows, cols) => usize::try_from(rows)
                .ok()
                .zip(usize::try_from(cols).ok())
                .and_then(|(rows, cols)| Shape::new(rows, cols))
                .ok_or_else(|| {
                    invalid(
                        "box_rows",
                        format!(
                            "no grid has boxes of {rows}x{cols} cells: both must be at least 2, and \
                             their product (the number of symbols) from 4 to 25; 0 and 0 mean 9x9"
                        ),
                    )
                })?,
        };
        let symmetry = match proto::Symmetry::try_from(request.symmetry) {
            Ok(proto::Symmetry::Unspecified) => Symmetry::None,
            Ok(proto::Symmetry::Rotate180) => Symmetry::Rotate180,
            Ok(proto::Symmetry::Rotate90) => Symmetry::Rotate90,
            Ok(proto::Symmetry::Mirror) => Symmetry::Mirror,
            Ok(proto::Symmetry::Flip) => Symmetry::Flip,
            Ok(proto::Symmetry::Diagonal) => Symmetry::Diagonal,
            Ok(proto::Symmetry::AntiDiagonal) => Symmetry::AntiDiagonal,
            Err(_) => {
                return Err(invalid(
                    "symmetry",
                    format!("unknown symmetry {}", request.symmetry),
                ));
            }
        };
        let difficulty = match proto::Difficulty::try_from(request.difficulty) {
            Ok(proto::Difficulty::Unspecified) => None,
            Ok(proto::Difficulty::Beginner) => Some(Difficulty::Beginner),
            Ok(proto::Difficulty::Easy) => Some(Difficulty::Easy),
            Ok(proto::Difficulty::Medium) => Some(Difficulty::Medium),
            Ok(proto::Difficulty::Hard) => Some(Difficulty::Hard),
            Ok(proto::Difficulty::Expert) => Some(Difficulty::Expert),
            Ok(proto::Difficulty::Extreme) => Some(Difficulty::Extreme),
            Err(_) => {
                return Err(invalid(
                    "difficulty",
                    format!("unknown difficulty {}", request.difficulty),
                ));
            }
        };
        let spec = Spec::new(shape, symmetry, request.minimal)
            .map_err(|e| invalid("symmetry", e.to_string()))?;
        Ok(Plan {
            spec,
            difficulty,
            count: request.count.clamp(1, max_count),
            seed: match request.seed {
                0 => random_seed(),
                seed => seed,
            },
            symbols: symbols(&request.symbols, shape)?,
        })
    }
}

/// The alphabet of the answers: `text`'s symbols in order, or the default for `shape`.
fn symbols(text: &str, shape: Shape) -> Result<Vec<char>, Status> {
    let side = shape.side();
    if text.is_empty() {
        return Ok(DEFAULT_SYMBOLS.chars().take(side).collect());
    }
    let symbols: Vec<char> = text.chars().collect();
    if symbols.len() != side {
        return Err(invalid(
            "symbols",
            format!(
                "a {shape} grid needs {side} symbols, and {text:?} has {}",
                symbols.len()
            ),
        ));
    }
    if let Some(bad) = symbols.iter().find(|&&ch| ch == '.' || ch.is_whitespace()) {
        return Err(invalid(
            "symbols",
            format!("{bad:?} cannot be a symbol: '.' marks a blank and whitespace is layout"),
        ));
    }
    for (i, ch) in symbols.iter().enumerate() {
        if symbols[..i].contains(ch) {
            return Err(invalid(
                "symbols",
                format!("{ch:?} appears twice in {text:?}"),
            ));
        }
    }
    Ok(symbols)
}

/// INVALID_ARGUMENT naming the request's `field`, with `google.rpc.BadRequest` details.
fn invalid(field: &str, message: String) -> Status {
    use tonic_types::{ErrorDetails, StatusExt};
    Status::with_error_details(
        Code::InvalidArgument,
        message.clone(),
        ErrorDetails::with_bad_request_violation(field, message),
    )
}

/// A seed for a request that asked for a random one: never 0.
fn random_seed() -> u64 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    hasher.finish().max(1)
}

impl Plan {
    /// The answer for the puzzle at `index`, made from `seed`.
    pub fn response(&self, index: u64, seed: u64, made: &Generated<Rated>) -> GenerateResponse {
        GenerateResponse {
            index,
            puzzle: write(&made.puzzle, &self.symbols),
            solution: write(&made.solution, &self.symbols),
            clues: u32::try_from(made.puzzle.givens()).unwrap_or(u32::MAX),
            difficulty: level(made.rating.difficulty).into(),
            rating: f64::from(made.rating.rating) / 10.0,
            seed,
        }
    }
}

/// The wire's name for a level.
fn level(difficulty: Difficulty) -> proto::Difficulty {
    match difficulty {
        Difficulty::Beginner => proto::Difficulty::Beginner,
        Difficulty::Easy => proto::Difficulty::Easy,
        Difficulty::Medium => proto::Difficulty::Medium,
        Difficulty::Hard => proto::Difficulty::Hard,
        Difficulty::Expert => proto::Difficulty::Expert,
        Difficulty::Extreme => proto::Difficulty::Extreme,
    }
}

/// `grid` as one symbol per cell, `.` for blanks.
fn write(grid: &Grid, symbols: &[char]) -> String {
    grid.cells()
        .iter()
        .map(|&v| match v {
            0 => '.',
            v => symbols.get(usize::from(v) - 1).copied().unwrap_or('?'),
        })
        .collect()
}

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
    pub symmetry: proto::Symmetry,
    /// The difficulty: beginner, easy, medium, hard, expert or extreme; any when not given.
    #[arg(long, value_parser = parse_difficulty)]
    pub difficulty: Option<proto::Difficulty>,
    /// Minimal puzzles: no clue (with its images under the symmetry) can be removed without losing
    /// uniqueness.
    #[arg(long)]
    pub minimal: bool,
    /// The box shape, ROWSxCOLS: 2x3 for 6x6, 4x4 for 16x16, 5x5 for 25x25; 9x9 when not given.
    #[arg(long = "box", value_name = "RxC", value_parser = parse_box)]
    pub box_shape: Option<(u32, u32)>,
    /// The N symbols of the answers in order (e.g. 0123456789ABCDEF); `1`-`9` then `A`, `B`, ... when
    /// not given.
    #[arg(long, default_value = "")]
    pub symbols: String,
    /// After each puzzle, tab-separated: its solution, clue count, seed, level and rating.
    #[arg(long)]
    pub details: bool,
}

fn parse_symmetry(text: &str) -> Result<proto::Symmetry, String> {
    let symmetry: Symmetry = text.parse().map_err(|e| format!("{e}"))?;
    Ok(match symmetry {
        Symmetry::None => proto::Symmetry::Unspecified,
        Symmetry::Rotate180 => proto::Symmetry::Rotate180,
        Symmetry::Rotate90 => proto::Symmetry::Rotate90,
        Symmetry::Mirror => proto::Symmetry::Mirror,
        Symmetry::Flip => proto::Symmetry::Flip,
        Symmetry::Diagonal => proto::Symmetry::Diagonal,
        Symmetry::AntiDiagonal => proto::Symmetry::AntiDiagonal,
    })
}

fn parse_difficulty(text: &str) -> Result<proto::Difficulty, String> {
    proto::Difficulty::from_str_name(&format!("DIFFICULTY_{}", text.to_ascii_uppercase()))
        .filter(|&d| d != proto::Difficulty::Unspecified)
        .ok_or_else(|| {
            format!("unknown difficulty {text:?}: expected beginner, easy, medium, hard, expert or extreme")
        })
}

fn parse_box(text: &str) -> Result<(u32, u32), String> {
    let (rows, cols) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{text:?} is not ROWSxCOLS, such as 3x3 or 2x3"))?;
    let number = |part: &str| {
        part.trim()
            .parse::<u32>()
            .map_err(|_| format!("{part:?} in {text:?} is not a number"))
    };
    Ok((number(rows)?, number(cols)?))
}

impl GenerateArgs {
    /// The request these arguments make.
    pub fn request(&self) -> GenerateRequest {
        let (box_rows, box_cols) = self.box_shape.unwrap_or((0, 0));
        GenerateRequest {
            count: self.count,
            seed: self.seed,
            box_rows,
            box_cols,
            symmetry: self.symmetry.into(),
            difficulty: self.difficulty.unwrap_or_default().into(),
            minimal: self.minimal,
            symbols: self.symbols.clone(),
        }
    }

    /// The output line for one answer.
    pub fn line(&self, answer: &GenerateResponse) -> String {
        if self.details {
            let level = proto::Difficulty::try_from(answer.difficulty)
                .unwrap_or_default()
                .as_str_name()
                .trim_start_matches("DIFFICULTY_");
            format!(
                "{}\t{}\t{}\t{}\t{level}\t{:.1}",
                answer.puzzle, answer.solution, answer.clues, answer.seed, answer.rating
            )
        } else {
            answer.puzzle.clone()
        }
    }
}

/// The `generate` command: makes the puzzles in this process, one line each on stdout, exactly as a
/// server would for the same request.
pub fn run_local(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let plan = Plan::new(&args.request(), u32::MAX).map_err(|s| anyhow!("{}", s.message()))?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let limits = Limits {
        max_attempts: MAX_ATTEMPTS,
        cancel: None,
    };
    for index in 0..u64::from(plan.count) {
        let seed = generator::puzzle_seed(plan.seed, index);
        let made = generator::generate_graded(&plan.spec, seed, plan.difficulty, &limits)?;
        writeln!(out, "{}", args.line(&plan.response(index, seed, &made)))?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// `client generate`: streams the puzzles from a server, writing each line as it arrives.
pub async fn call(
    client_args: &crate::client::Args,
    args: &GenerateArgs,
) -> anyhow::Result<ExitCode> {
    use crate::proto::sudoku_service_client::SudokuServiceClient;
    let endpoints = crate::client::resolve(&client_args.servers).await?;
    let url = &endpoints[0];
    let mut client = SudokuServiceClient::new(crate::client::connect(url).await?);
    let mut request = tonic::Request::new(args.request());
    crate::client::decorate(&mut request, client_args)?;
    let failed = |status: Status| {
        anyhow!(
            "{url}: Generate failed: {}",
            crate::client::describe(&status)
        )
    };
    let mut answers = client.generate(request).await.map_err(failed)?.into_inner();
    let mut out = std::io::stdout().lock();
    while let Some(answer) = answers.message().await.map_err(failed)? {
        writeln!(out, "{}", args.line(&answer))?;
    }
    Ok(ExitCode::SUCCESS)
}
