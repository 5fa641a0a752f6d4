//! The one reader of puzzle input: files and stdin, whole or a line at a time, in blocking and in
//! async code. Every command reads its puzzles here, under the rule of
//! [`sudoku_core::puzzle_file`]: one puzzle per line, blank lines and `#` lines skipped.

use std::io::BufRead;
use std::path::Path;

use anyhow::Context;
use sudoku_core::puzzle_file::{self, PuzzleFileError, PuzzleLine, puzzle_text};
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// The longest input line the async reader accepts, in bytes: far above any real puzzle, and below
/// the server's message limit, so one bad line is reported here instead of breaking a stream.
pub const MAX_LINE_BYTES: usize = 8 * 1024;

/// The file that `file` names, or `None` for stdin (`-` or nothing).
fn named_file(file: Option<&Path>) -> Option<&Path> {
    file.filter(|path| path.as_os_str() != "-")
}

/// The lines of `file`, or of stdin for `-` or nothing.
pub fn open(file: Option<&Path>) -> anyhow::Result<Box<dyn BufRead>> {
    Ok(match named_file(file) {
        None => Box::new(std::io::stdin().lock()),
        Some(path) => Box::new(std::io::BufReader::with_capacity(
            1 << 16,
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?,
        )),
    })
}

/// The puzzles of `input`, a line at a time, trimmed; blank and `#` lines are skipped.
pub fn puzzles(input: impl BufRead) -> impl Iterator<Item = std::io::Result<String>> {
    input.lines().filter_map(|line| match line {
        Ok(line) => puzzle_text(&line).map(|text| Ok(text.to_owned())),
        Err(e) => Some(Err(e)),
    })
}

/// The puzzles of the file at `path` with their line numbers, the first `limit` of them if given;
/// a file with none is an error.
pub fn file_puzzles(path: &Path, limit: Option<usize>) -> Result<Vec<PuzzleLine>, PuzzleFileError> {
    puzzle_file::read(path, limit)
}

/// The puzzles of the file at `path` as text, the first `limit` of them if given, as
/// [`file_puzzles`] reads them.
pub fn file_texts(path: &Path, limit: Option<usize>) -> anyhow::Result<Vec<String>> {
    let lines = file_puzzles(path, limit)?;
    Ok(lines.into_iter().map(|line| line.text).collect())
}

/// The whole text of the file at `path`, whose puzzles [`puzzle_file::lines`] then gives with
/// their line numbers.
pub fn read_text(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// The whole text of `file`, or of stdin for `-` or nothing, read without blocking the runtime.
pub async fn read_all(file: Option<&Path>) -> anyhow::Result<String> {
    match named_file(file) {
        Some(path) => tokio::fs::read_to_string(path)
            .await
            .with_context(|| format!("cannot read {}", path.display())),
        None => {
            let mut text = String::new();
            tokio::io::AsyncReadExt::read_to_string(&mut tokio::io::stdin(), &mut text)
                .await
                .context("cannot read stdin")?;
            Ok(text)
        }
    }
}

/// Opens `file`, or stdin for `-` or nothing, for [`PuzzleReader`]; also returns the file's size,
/// if known.
pub async fn open_async(
    file: Option<&Path>,
) -> anyhow::Result<(Box<dyn AsyncBufRead + Send + Unpin>, Option<u64>)> {
    match named_file(file) {
        Some(path) => {
            let file = tokio::fs::File::open(path)
                .await
                .with_context(|| format!("cannot open {}", path.display()))?;
            let size = file.metadata().await.ok().map(|m| m.len());
            Ok((
                Box::new(tokio::io::BufReader::with_capacity(64 * 1024, file)),
                size,
            ))
        }
        None => Ok((
            Box::new(tokio::io::BufReader::new(tokio::io::stdin())),
            None,
        )),
    }
}

/// The value of an `--fpuzzles` flag as text: the file it names when one exists at that path,
/// otherwise the value itself (JSON, its LZ-String base64, or an f-puzzles link).
pub fn fpuzzles_text(value: &str) -> anyhow::Result<String> {
    let path = Path::new(value);
    if path.is_file() {
        return read_text(path);
    }
    Ok(value.to_owned())
}

/// The puzzles of an async input, a line at a time, each line at most [`MAX_LINE_BYTES`]; blank and
/// `#` lines are skipped. A line that is not UTF-8 is read lossily, for the server to name what is
/// wrong with it.
pub struct PuzzleReader<R> {
    input: R,
    /// The current line's bytes, reused from line to line.
    line: Vec<u8>,
    line_number: u64,
    bytes_read: u64,
}

impl<R: AsyncBufRead + Unpin> PuzzleReader<R> {
    /// A reader of `input`'s puzzles.
    pub fn new(input: R) -> Self {
        PuzzleReader {
            input,
            line: Vec::new(),
            line_number: 0,
            bytes_read: 0,
        }
    }

    /// The next puzzle, trimmed; `None` at the end of the input.
    pub async fn next(&mut self) -> anyhow::Result<Option<String>> {
        loop {
            self.line.clear();
            let n = read_line(&mut self.input, &mut self.line)
                .await
                .with_context(|| format!("cannot read line {}", self.line_number + 1))?;
            if n == 0 {
                return Ok(None);
            }
            self.line_number += 1;
            self.bytes_read += n as u64;
            let text = String::from_utf8_lossy(&self.line);
            if let Some(text) = puzzle_text(&text) {
                return Ok(Some(text.to_owned()));
            }
        }
    }

    /// The bytes of input read so far, skipped lines included.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }
}

/// Reads one line (up to and including `\n`) into `line`, refusing lines over [`MAX_LINE_BYTES`].
/// Returns the bytes consumed; 0 at the end of the input.
async fn read_line(
    input: &mut (impl AsyncBufRead + Unpin),
    line: &mut Vec<u8>,
) -> std::io::Result<usize> {
    let mut consumed = 0;
    loop {
        let buf = input.fill_buf().await?;
        if buf.is_empty() {
            return Ok(consumed);
        }
        let (take, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (buf.len(), false),
        };
        if line.len() + take > MAX_LINE_BYTES {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("line longer than {MAX_LINE_BYTES} bytes"),
            ));
        }
        line.extend_from_slice(&buf[..take]);
        input.consume(take);
        consumed += take;
        if done {
            return Ok(consumed);
        }
    }
}
