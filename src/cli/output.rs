//! Every line the commands print for an answer, written once: solve answers, canonical keys,
//! grades, steps, hints and generated puzzles, whether the answer came from a server or from the
//! core in this process.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::io::Write;

use sudoku_core::solver::Mode;
use sudoku_grpc::proto::{self, Difficulty, Technique, Verdict};

/// The answer line for a server's answer, in the local `solve` command's format, and its kind for
/// the summary: the solution, `multiple <solution>`, `unsolvable`, `limit_reached` or
/// `invalid <error>`.
pub fn answer_line(verdict: Verdict, solution: &str, error: &str) -> (String, &'static str) {
    let (prefix, text) = answer_parts(verdict, solution, error);
    (format!("{prefix}{text}"), answer_kind(verdict))
}

/// [`answer_line`] written straight to `out`, newline included, without a string of its own: what
/// `client batch` writes for every answer.
pub fn write_answer(
    out: &mut impl Write,
    verdict: Verdict,
    solution: &str,
    error: &str,
) -> std::io::Result<&'static str> {
    let (prefix, text) = answer_parts(verdict, solution, error);
    out.write_all(prefix.as_bytes())?;
    out.write_all(text.as_bytes())?;
    out.write_all(b"\n")?;
    Ok(answer_kind(verdict))
}

/// An answer line's two parts: the verdict's word (none for a solution) and its text.
fn answer_parts<'a>(
    verdict: Verdict,
    solution: &'a str,
    error: &'a str,
) -> (&'static str, &'a str) {
    match verdict {
        Verdict::Unique | Verdict::Solved => ("", solution),
        Verdict::Multiple => ("multiple ", solution),
        Verdict::Unsolvable => ("unsolvable", ""),
        Verdict::LimitReached => ("limit_reached", ""),
        Verdict::Invalid => ("invalid ", error),
        Verdict::Unspecified => ("unspecified", ""),
    }
}

/// An answer's kind for the summary by verdict: `unique`, `multiple`, `invalid`...
pub fn answer_kind(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Unique => "unique",
        Verdict::Solved => "solved",
        Verdict::Multiple => "multiple",
        Verdict::Unsolvable => "unsolvable",
        Verdict::LimitReached => "limit_reached",
        Verdict::Invalid => "invalid",
        Verdict::Unspecified => "unspecified",
    }
}

/// The lines of a puzzle's true candidates: its verdict as one word, then for a puzzle with a
/// solution one line per row, each cell's candidates (the symbols some solution puts there)
/// separated by spaces: `unique`, then `5 3 4 6 7 8 9 1 2`...; `multiple`, then `... 13 ...`.
pub fn candidates_lines(verdict: Verdict, cells: &[String]) -> Vec<String> {
    let side = cells.len().isqrt().max(1);
    std::iter::once(verdict_word(verdict))
        .chain(cells.chunks(side).map(|row| row.join(" ")))
        .collect()
}

/// The line of an input line that is not a puzzle: `invalid <what is wrong and where>`.
pub fn invalid_line(why: impl Display) -> String {
    format!("invalid {why}")
}

/// The line of a puzzle's canonical form: `<key> <transform>`.
pub fn canon_line(key: impl Display, transform: impl Display) -> String {
    format!("{key} {transform}")
}

/// A solving mode as the reports name it: `uniqueness` or `first solution`.
pub fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::ProveUnique => "uniqueness",
        Mode::FirstSolution => "first solution",
    }
}

/// Counts of answers by kind, for the summary line.
#[derive(Debug, Default)]
pub struct Tally {
    /// Answers by kind.
    pub counts: BTreeMap<&'static str, u64>,
}

impl Tally {
    /// Counts one answer of `kind`.
    pub fn add(&mut self, kind: &'static str) {
        *self.counts.entry(kind).or_default() += 1;
    }

    /// How many answers of `kind`.
    pub fn get(&self, kind: &str) -> u64 {
        self.counts.get(kind).copied().unwrap_or(0)
    }
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let total: u64 = self.counts.values().sum();
        write!(f, "{total} puzzles")?;
        self.counts
            .iter()
            .try_for_each(|(kind, n)| write!(f, ", {n} {kind}"))
    }
}

/// A verdict as one lowercase word: `multiple`, `unsolvable`...
fn verdict_word(verdict: Verdict) -> String {
    verdict
        .as_str_name()
        .trim_start_matches("VERDICT_")
        .to_lowercase()
}

/// A technique's name as the lines print it: `NAKED_SINGLE`.
fn technique_name(technique: Technique) -> &'static str {
    technique.as_str_name().trim_start_matches("TECHNIQUE_")
}

/// One line for a graded puzzle: `EASY 2.3 NAKED_SINGLE ER/EP/ED 2.3/1.5/1.2` (a `+` after a
/// rating that is a lower bound), or the verdict of one that is not unique. `ratings` are Sudoku
/// Explainer's three: the rating, the pearl and the diamond.
pub fn grade_line(
    verdict: Verdict,
    level: Difficulty,
    [rating, pearl, diamond]: [f64; 3],
    lower_bound: bool,
    hardest: Technique,
) -> String {
    if verdict != Verdict::Unique {
        return verdict_word(verdict);
    }
    let plus = if lower_bound { "+" } else { "" };
    let [rating, pearl, diamond] = [rating, pearl, diamond].map(Tenths);
    format!(
        "{} {rating}{plus} {} ER/EP/ED {rating}/{pearl}/{diamond}",
        level.as_str_name().trim_start_matches("DIFFICULTY_"),
        technique_name(hardest)
    )
}

/// A rating written to its tenth, as `{:.1}` writes it, by integer arithmetic: the float
/// formatter's exact path is slow, and a file of puzzles writes a rating a line.
struct Tenths(f64);

impl std::fmt::Display for Tenths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let tenths = (self.0 * 10.0).round() as i64;
        let sign = if tenths < 0 { "-" } else { "" };
        let tenths = tenths.unsigned_abs();
        write!(f, "{sign}{}.{}", tenths / 10, tenths % 10)
    }
}

/// The lines of a server's grade: its grade line, then its path, a [`path_line`] a step.
pub fn graded_lines(answer: &proto::GradeResponse) -> Vec<String> {
    let grade = grade_line(
        answer.verdict(),
        answer.difficulty(),
        [answer.rating, answer.pearl_rating, answer.diamond_rating],
        answer.lower_bound,
        answer.hardest_technique(),
    );
    let steps = answer
        .steps
        .iter()
        .map(|s| path_line(s.rating, s.technique(), &s.explanation));
    std::iter::once(grade).chain(steps).collect()
}

/// A step of a graded puzzle's path, under its grade line: its [`step_line`], indented.
pub fn path_line(rating: f64, technique: Technique, explanation: &str) -> String {
    format!("  {}", step_line(rating, technique, explanation))
}

/// A step in words: `2.3 NAKED_SINGLE: r1c2 has one candidate left: 4.`
pub fn step_line(rating: f64, technique: Technique, explanation: &str) -> String {
    format!(
        "{} {}: {explanation}",
        Tenths(rating),
        technique_name(technique)
    )
}

/// A server's step in words, as [`step_line`].
pub fn step(step: &proto::Step) -> String {
    step_line(step.rating, step.technique(), &step.explanation)
}

/// A wrong entry of a player's board, its row and column from 0.
pub fn mistake_line(row: usize, col: usize, symbol: &str) -> String {
    format!("mistake: r{}c{} should not be {symbol}", row + 1, col + 1)
}

/// The lines of a server's hint: the steps, or the mistakes, or `solved`, or the verdict of a
/// puzzle that is not unique.
pub fn hint_lines(answer: &proto::HintResponse) -> Vec<String> {
    if answer.verdict() != Verdict::Unique {
        return vec![verdict_word(answer.verdict())];
    }
    if answer.solved {
        return vec!["solved".into()];
    }
    if !answer.mistakes.is_empty() {
        return answer
            .mistakes
            .iter()
            .map(|m| mistake_line(m.row as usize, m.col as usize, &m.symbol))
            .collect();
    }
    answer.steps.iter().map(step).collect()
}

/// The line of a generated puzzle; with `details`, tab-separated after it: its solution, clue
/// count, seed, level and rating.
pub fn generated_line(answer: &proto::GenerateResponse, details: bool) -> String {
    if !details {
        return answer.puzzle.clone();
    }
    format!(
        "{}\t{}\t{}\t{}\t{}\t{:.1}",
        answer.puzzle,
        answer.solution,
        answer.clues,
        answer.seed,
        answer
            .difficulty()
            .as_str_name()
            .trim_start_matches("DIFFICULTY_"),
        answer.rating
    )
}

#[cfg(test)]
mod tests {
    use super::Tenths;

    #[test]
    fn tenths_are_written_as_the_float_formatter_writes_them() {
        for tenths in 0..=200u16 {
            let rating = f64::from(tenths) / 10.0;
            assert_eq!(Tenths(rating).to_string(), format!("{rating:.1}"));
        }
        assert_eq!(Tenths(-0.5).to_string(), "-0.5");
    }
}
