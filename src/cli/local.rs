//! The local commands, on the core in this process without a server: `solve`, `canon`, `grade` and
//! `hint`, whose lines are the same as a server's answers print.

use std::io::{BufRead, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use sudoku_core::canonicalization::canonicalize;
use sudoku_core::grader::{self, Options};
use sudoku_core::grid::Grid;
use sudoku_core::hint::Hint;
use sudoku_core::solver::{self, Mode, Verdict};
use sudoku_core::symbols::Symbols;
use sudoku_core::text::Format;
use sudoku_core::variant::{self, Layout};
use sudoku_grpc::proto::{GradeRequest, Technique, Verdict as WireVerdict};
use sudoku_grpc::wire;

use super::args::FormatArgs;
use super::input;
use super::output::{self, Tally};

/// Arguments of the `solve` command.
#[derive(Debug, clap::Args)]
pub struct SolveArgs {
    /// File of puzzles, one per line; `-` or nothing for stdin.
    pub file: Option<PathBuf>,
    /// Solve one variant puzzle from f-puzzles instead: a file holding its JSON, base64 or link, or
    /// that text itself.
    #[arg(long, value_name = "FILE|URL", conflicts_with = "file")]
    pub fpuzzles: Option<String>,
    /// Stop at the first solution instead of proving it is the only one.
    #[arg(long)]
    pub skip_uniqueness_check: bool,
    /// The most guesses per puzzle before giving up with `limit_reached`.
    #[arg(long, default_value_t = 100_000_000)]
    pub max_guesses: u64,
    /// Every puzzle's shape and alphabet.
    #[command(flatten)]
    pub format: FormatArgs,
}

/// Arguments of the `true-candidates` command.
#[derive(Debug, clap::Args)]
pub struct TrueCandidatesArgs {
    /// The puzzle: its cells in row-major order, as `solve` reads them.
    #[arg(required_unless_present = "fpuzzles")]
    pub puzzle: Option<String>,
    /// A variant puzzle from f-puzzles instead: a file holding its JSON, base64 or link, or that
    /// text itself.
    #[arg(long, value_name = "FILE|URL", conflicts_with = "puzzle")]
    pub fpuzzles: Option<String>,
    /// The most guesses before giving up with `limit_reached`.
    #[arg(long, default_value_t = 100_000_000)]
    pub max_guesses: u64,
    /// The grid's shape and alphabet.
    #[command(flatten)]
    pub format: FormatArgs,
}

/// Arguments of the `canon` command.
#[derive(Debug, clap::Args)]
pub struct CanonArgs {
    /// File of puzzles, one per line; `-` or nothing for stdin.
    pub file: Option<PathBuf>,
}

/// Arguments of the `grade` command.
#[derive(Debug, clap::Args)]
pub struct GradeArgs {
    /// File of puzzles, one per line; `-` or nothing for stdin.
    pub file: Option<PathBuf>,
    /// Grade one variant puzzle from f-puzzles instead (its regions and unit rules: diagonals,
    /// extra regions, disjoint groups): a file holding its JSON, base64 or link, or that text.
    #[arg(long, value_name = "FILE|URL", conflicts_with = "file")]
    pub fpuzzles: Option<String>,
    /// Print each puzzle's path, one step a line, after its grade.
    #[arg(long)]
    pub steps: bool,
    /// The effort budget of each grading, in multiples of the default (the server's): more lets
    /// the hardest puzzles finish Sudoku Explainer's nested chains where the default ends in a
    /// guess (a rating marked `+`), at more time a puzzle.
    #[arg(long, value_name = "TIMES", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub effort: u64,
}

impl GradeArgs {
    /// How each puzzle is graded.
    fn options(&self) -> Options<'static> {
        Options {
            explain: self.steps,
            budget: grader::DEFAULT_BUDGET * self.effort,
            cancel: None,
        }
    }
}

/// Arguments of the `hint` command.
#[derive(Debug, clap::Args)]
pub struct HintArgs {
    /// The puzzle: its givens only.
    #[arg(required_unless_present = "fpuzzles")]
    pub puzzle: Option<String>,
    /// A variant puzzle from f-puzzles instead (regions and unit rules only), as `grade
    /// --fpuzzles` takes it; `--progress` is then in its symbols, one per cell.
    #[arg(long, value_name = "FILE|URL", conflicts_with = "puzzle")]
    pub fpuzzles: Option<String>,
    /// The player's board: the givens plus their entries.
    #[arg(long)]
    pub progress: Option<String>,
}

/// The `solve` command: one answer line per puzzle line, and a summary by verdict on stderr; exit 1
/// if any line was invalid.
pub fn solve(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    if let Some(fpuzzles) = &args.fpuzzles {
        return solve_fpuzzles(args, fpuzzles);
    }
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

/// `solve --fpuzzles`: one variant, one answer line, the same as `client solve --fpuzzles` prints;
/// exit 1 if it is invalid.
fn solve_fpuzzles(args: &SolveArgs, value: &str) -> anyhow::Result<ExitCode> {
    let mode = if args.skip_uniqueness_check {
        Mode::FirstSolution
    } else {
        Mode::ProveUnique
    };
    let read = match read_fpuzzles(value, &args.format)? {
        Ok(read) => read,
        Err(invalid) => {
            println!("{invalid}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let options = solver::Options {
        mode,
        max_guesses: Some(args.max_guesses),
        cancel: None,
    };
    let outcome = variant::solve(&read.variant, &options);
    let solution = outcome
        .solution
        .map(|values| read.alphabet.write(&values))
        .unwrap_or_default();
    let (line, _) = output::answer_line(outcome.verdict.into(), &solution, "");
    println!("{line}");
    Ok(ExitCode::SUCCESS)
}

/// The variant an `--fpuzzles` value holds, or its `invalid <why>` line; `--box` does not go with
/// it (the regions are the puzzle's).
fn read_fpuzzles(
    value: &str,
    format: &FormatArgs,
) -> anyhow::Result<Result<wire::VariantRead, String>> {
    if format.box_shape.is_some() {
        anyhow::bail!("--box is for classic puzzles; an f-puzzles puzzle has its own regions");
    }
    let text = input::fpuzzles_text(value)?;
    Ok(wire::fpuzzles_variant(&text, &format.symbols).map_err(output::invalid_line))
}

/// The `true-candidates` command: for a classic puzzle or an f-puzzles variant, the verdict and
/// each cell's candidates, a row a line, as `client true-candidates` prints them; exit 1 if the
/// puzzle is invalid.
pub fn true_candidates(args: &TrueCandidatesArgs) -> anyhow::Result<ExitCode> {
    let read = match (&args.fpuzzles, &args.puzzle) {
        (Some(value), _) => read_fpuzzles(value, &args.format)?,
        (None, puzzle) => {
            let (box_rows, box_cols) = args.format.box_rows_cols();
            let puzzle = puzzle.as_deref().unwrap_or_default();
            wire::read_puzzle(puzzle, box_rows, box_cols, &args.format.symbols)
                .map_err(output::invalid_line)
                .and_then(|read| wire::classic_variant(&read).map_err(output::invalid_line))
        }
    };
    let read = match read {
        Ok(read) => read,
        Err(invalid) => {
            println!("{invalid}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let options = solver::Options {
        mode: Mode::ProveUnique,
        max_guesses: Some(args.max_guesses),
        cancel: None,
    };
    let found = variant::true_candidates(&read.variant, &options);
    let complete = matches!(found.verdict, Verdict::Unique | Verdict::Multiple);
    let cells: Vec<String> = match found.cells {
        Some(cells) if complete => cells.iter().map(|&m| read.alphabet.write_mask(m)).collect(),
        _ => Vec::new(),
    };
    let mut out = std::io::stdout().lock();
    for line in output::candidates_lines(found.verdict.into(), &cells) {
        writeln!(out, "{line}")?;
    }
    Ok(ExitCode::SUCCESS)
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
        Err(e) => return (output::invalid_line(e), "invalid"),
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
/// for layout and other alphabets), its clash check ahead of solving or its strings, whose cost is
/// a large part of the work on easy puzzles. A clash among the givens makes the puzzle
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

/// The `canon` command: each puzzle's canonical key and transform, or why it is invalid; exit 1 if
/// any line was invalid.
pub fn canon(args: &CanonArgs) -> anyhow::Result<ExitCode> {
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
            Ok(canonical) => writeln!(
                out,
                "{}",
                output::canon_line(canonical.key(), canonical.transform)
            )?,
            Err(e) => {
                invalid = true;
                writeln!(out, "{}", output::invalid_line(e))?;
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

/// The `grade` command: each puzzle's grade line (and with `--steps` its path), or why it is
/// invalid; exit 1 if any line was invalid.
pub fn grade(args: &GradeArgs) -> anyhow::Result<ExitCode> {
    if let Some(value) = &args.fpuzzles {
        let Some(read) = logic_fpuzzles(value)? else {
            return Ok(ExitCode::FAILURE);
        };
        print_lines(grade_lines(
            &read.layout,
            &|v| read.writer.symbol(v),
            &args.options(),
        )?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let puzzles = input::puzzles(input::open(args.file.as_deref())?);
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut invalid = 0;
    for text in puzzles {
        match Grid::read_puzzle(&text?, &Format::default()) {
            Ok(read) => {
                let symbols = Symbols::of(read.grid.shape());
                let symbol = |v: u8| symbols.symbol(v).to_string();
                for line in grade_lines(&Layout::classic(read.grid), &symbol, &args.options())? {
                    writeln!(out, "{line}")?;
                }
            }
            Err(e) => {
                invalid += 1;
                writeln!(out, "{}", output::invalid_line(e))?;
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

/// A Grade request's puzzle from an `--fpuzzles` value, read as the server reads it; `None` once
/// its `invalid <why>` line is printed.
fn logic_fpuzzles(value: &str) -> anyhow::Result<Option<wire::LogicRead>> {
    let request = GradeRequest {
        fpuzzles: input::fpuzzles_text(value)?,
        ..Default::default()
    };
    match wire::logic_input(&request) {
        Ok(read) => Ok(Some(read)),
        Err(e) => {
            print_lines(vec![output::invalid_line(e)])?;
            Ok(None)
        }
    }
}

/// The lines of the grade of `layout`'s puzzle, values written by `symbol`: its grade line, and
/// when `options` explain, its path, a step a line.
fn grade_lines(
    layout: &Layout,
    symbol: &dyn Fn(u8) -> String,
    options: &Options<'_>,
) -> anyhow::Result<Vec<String>> {
    let grade = match layout.grade_unique(u64::MAX, options)? {
        Ok(grade) => grade,
        Err(verdict) => return Ok(vec![not_unique(verdict.into())]),
    };
    let mut lines = vec![output::grade_line(
        WireVerdict::Unique,
        grade.difficulty.into(),
        [grade.rating, grade.pearl, grade.diamond].map(wire::rating),
        grade.lower_bound,
        grade.hardest.into(),
    )];
    if !options.explain {
        return Ok(lines);
    }
    lines.extend(grade.steps.iter().map(|step| {
        let explanation = step.explanation(symbol);
        output::path_line(
            wire::rating(step.rating),
            Technique::from(step.technique),
            &explanation,
        )
    }));
    Ok(lines)
}

/// The `hint` command: the next step for the player's board, or its mistakes.
pub fn hint(args: &HintArgs) -> anyhow::Result<ExitCode> {
    if let Some(value) = &args.fpuzzles {
        let Some(read) = logic_fpuzzles(value)? else {
            return Ok(ExitCode::FAILURE);
        };
        let progress = match &args.progress {
            Some(board) => read.read_board(board).map_err(|e| anyhow::anyhow!("{e}"))?,
            None => read.layout.puzzle.clone(),
        };
        print_lines(hint_lines(&read.layout, &progress, &|v| {
            read.writer.symbol(v)
        })?)?;
        return Ok(ExitCode::SUCCESS);
    }
    let puzzle = Grid::read_puzzle(
        args.puzzle.as_deref().unwrap_or_default(),
        &Format::default(),
    )
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
    let symbols = Symbols::of(puzzle.shape());
    let symbol = |v: u8| symbols.symbol(v).to_string();
    print_lines(hint_lines(&Layout::classic(puzzle), &progress, &symbol)?)?;
    Ok(ExitCode::SUCCESS)
}

/// The lines of the next step for `progress`, a board of `layout`'s puzzle, values written by
/// `symbol`.
fn hint_lines(
    layout: &Layout,
    progress: &Grid,
    symbol: &dyn Fn(u8) -> String,
) -> anyhow::Result<Vec<String>> {
    let puzzle = &layout.puzzle;
    if progress.shape() != puzzle.shape() {
        anyhow::bail!(
            "progress: the board is {} but the puzzle is {}",
            progress.shape(),
            puzzle.shape()
        );
    }
    let solution = match layout.unique_solution(u64::MAX, None)? {
        Ok(solution) => solution,
        Err(verdict) => return Ok(vec![not_unique(verdict.into())]),
    };
    let side = puzzle.shape().side();
    let options = Options {
        explain: true,
        ..Options::default()
    };
    Ok(match layout.hint(progress, &solution, &options)? {
        Hint::Solved => vec!["solved".into()],
        Hint::Mistakes(mistakes) => mistakes
            .iter()
            .map(|m| output::mistake_line(m.cell / side, m.cell % side, &symbol(m.value)))
            .collect(),
        Hint::Steps(steps) => steps
            .iter()
            .map(|s| {
                output::step_line(
                    wire::rating(s.rating),
                    s.technique.into(),
                    &s.explanation(symbol),
                )
            })
            .collect(),
    })
}

/// Writes `lines` to stdout; a closed pipe is an error, not a panic.
fn print_lines(lines: Vec<String>) -> std::io::Result<()> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in lines {
        writeln!(out, "{line}")?;
    }
    out.flush()
}

/// The line of a puzzle with no unique solution: its verdict.
fn not_unique(verdict: WireVerdict) -> String {
    output::grade_line(
        verdict,
        Default::default(),
        [0.0; 3],
        false,
        Default::default(),
    )
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
