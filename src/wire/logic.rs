//! What Grade and Hint run the logic engine on: a request's puzzle, classic or variant, as the
//! core's [`Layout`] (its units and givens), with the writer of the answers and the reader of a
//! player's board in the request's alphabet.

use sudoku_core::grid::Grid;
use sudoku_core::symbols::Symbols;
use sudoku_core::text::Format;
use sudoku_core::variant::Layout;

use super::{Alphabet, BadField, Input, InputError, SolveInput, VariantInputError, Writer};

/// A Grade or Hint request's puzzle, ready for the logic engine.
#[derive(Clone, Debug)]
pub struct LogicRead {
    /// The puzzle on its layout.
    pub layout: Layout,
    /// Writes values as the request wrote them.
    pub writer: Writer,
    /// How a player's board in this puzzle's alphabet is read.
    board: BoardFormat,
}

/// The text format of a player's board: the classic puzzle's, or the variant's alphabet.
#[derive(Clone, Debug)]
enum BoardFormat {
    Classic(Format),
    Variant(Alphabet),
}

/// Reads a Grade or Hint request's puzzle: a classic one on its shape's units, or a variant on its
/// regions and unit rules; a variant with any other rule is refused, naming it.
pub fn logic_input(request: &impl SolveInput) -> Result<LogicRead, InputError> {
    Ok(match request.input()? {
        Input::Classic(read) => LogicRead {
            writer: Writer::of(&read),
            board: BoardFormat::Classic(Format {
                shape: Some(read.grid.shape()),
                symbols: Some(read.symbols),
            }),
            layout: Layout::classic(read.grid),
        },
        Input::Variant(read) => {
            let field = if request.variant_fields().0.trim().is_empty() {
                "rules"
            } else {
                "fpuzzles"
            };
            let layout = read
                .variant
                .layout()
                .map_err(|error| VariantInputError::Layout { field, error })?;
            let side = layout.puzzle.shape().side();
            let symbols =
                Symbols::new(read.alphabet.as_str()).unwrap_or(Symbols::of(layout.puzzle.shape()));
            LogicRead {
                writer: Writer::new(side, symbols),
                board: BoardFormat::Variant(read.alphabet),
                layout,
            }
        }
    })
}

impl LogicRead {
    /// A player's board (Hint's `progress`) in the puzzle's shape and alphabet; its clashes are
    /// mistakes for the hint to name, not errors.
    pub fn read_board(&self, text: &str) -> Result<Grid, BadField> {
        let shape = self.layout.puzzle.shape();
        let bad = |message: String| BadField {
            field: "progress",
            message: format!("progress: {message}"),
        };
        match &self.board {
            BoardFormat::Classic(format) => Grid::read(text, format)
                .map(|read| read.grid)
                .map_err(|e| bad(e.to_string())),
            BoardFormat::Variant(alphabet) => {
                let values = alphabet
                    .read_text("progress", text)
                    .map_err(|e| bad(e.message))?;
                Grid::from_cells(shape, values)
                    .ok_or_else(|| bad("not a grid of the puzzle's side".into()))
            }
        }
    }
}
