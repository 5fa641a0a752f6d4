//! The f-puzzles format: a puzzle shared as JSON, as that JSON compressed with LZ-String and written
//! in base64 (what follows `?load=` in a link), or as the whole link, read into a [`Variant`].
//!
//! Every key f-puzzles writes is either read into a [`Rule`](crate::variant::Rule), known to be cosmetic and skipped, or an
//! error that names it: a rule is never dropped in silence. `docs/fpuzzles.md` has the table of keys,
//! what each means and the rule it becomes, with the choices made where the public parsers differ.
//!
//! ```
//! use sudoku_core::fpuzzles;
//! use sudoku_core::variant::Rule;
//!
//! let json = r#"{"size":4,"grid":[[{},{},{},{}],[{},{},{},{}],[{},{},{},{}],[{},{},{},{"value":3,"given":true}]],
//!     "killercage":[{"cells":["R1C1","R1C2"],"value":"7"}]}"#;
//! let variant = fpuzzles::read(json)?;
//! assert_eq!(variant.givens()[15], 3);
//! assert_eq!(variant.rules(), &[Rule::Cage { cells: vec![0, 1], sum: Some(7) }]);
//! // The same puzzle as a link, and back.
//! assert_eq!(fpuzzles::read(&fpuzzles::to_url(&variant))?, variant);
//! # Ok::<(), sudoku_core::fpuzzles::FPuzzlesError>(())
//! ```

// The three concerns: undoing a link's and base64's layers, reading the JSON, writing it.
mod decode;
mod read;
mod write;

use serde_json::Value;

use crate::variant::{MAX_SIDE, Variant, VariantError};

pub use decode::MAX_DECOMPRESSED;
use decode::{decompress, percent_decode};
use read::read_json;
use write::write;

/// The link f-puzzles opens a puzzle from; [`to_url`] appends the LZ-String base64.
pub const URL_PREFIX: &str = "https://www.f-puzzles.com/?load=";

/// The key [`to_json`] writes the rules f-puzzles cannot express under, so that reading its output
/// back fails on them by name instead of losing them.
pub const INEXPRESSIBLE_KEY: &str = "sudoku-grpc-inexpressible";

/// Why an f-puzzles text could not be read (or a variant not written): what is wrong and where.
/// Entries of a key are numbered from 1 in the order the text lists them; cells are named `R3C4`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FPuzzlesError {
    /// Nothing to read.
    #[error("the f-puzzles text is empty")]
    Empty,
    /// The JSON does not parse.
    #[error("the f-puzzles {what} is not valid JSON at line {line}, column {column}: {message}")]
    Json {
        /// "JSON", or "decompressed JSON" when it came out of the base64.
        what: &'static str,
        /// The line, from 1.
        line: usize,
        /// The column, from 1.
        column: usize,
        /// What serde_json found wrong.
        message: String,
    },
    /// A character that is not base64 in the compressed text.
    #[error(
        "the f-puzzles base64 has {character:?} at character {position}, not a base64 character"
    )]
    Base64 {
        /// The character's position in the base64, from 1.
        position: usize,
        /// The character.
        character: char,
    },
    /// A `%` in a link that is not followed by two hex digits.
    #[error("the f-puzzles link has a bad %-escape at character {position} of its load= part")]
    UrlEscape {
        /// The position of the `%` in what follows `load=`, from 1.
        position: usize,
    },
    /// The base64 decodes, but not to LZ-String data, or to no text.
    #[error("the f-puzzles base64 is not LZ-String compressed text")]
    Decompress,
    /// The compressed text expands past [`MAX_DECOMPRESSED`] UTF-16 units.
    #[error("the f-puzzles base64 expands to more than {MAX_DECOMPRESSED} characters")]
    TooLarge,
    /// The JSON is not an object.
    #[error("the f-puzzles JSON is not an object")]
    NotObject,
    /// `size` is missing or not a side 1 to 16.
    #[error("the f-puzzles size is {found}: expected a whole number 1 to {MAX_SIDE}")]
    Size {
        /// What was there, as JSON, or "missing".
        found: String,
    },
    /// `grid` is missing or not `size` rows of `size` cells.
    #[error("the f-puzzles grid {reason}")]
    Grid {
        /// What is wrong with it.
        reason: String,
    },
    /// A grid value that is not 0 (empty) to the size.
    #[error("the value {value} at {cell} is out of range: expected 1 to {size}, or 0 for empty")]
    Value {
        /// The cell.
        cell: String,
        /// The value, as JSON.
        value: String,
        /// The grid's side.
        size: usize,
    },
    /// A region number that is not 0 to size - 1 (or `null`: a cell in no region).
    #[error("the region {region} of {cell} is not a region 0 to {}", size - 1)]
    Region {
        /// The cell.
        cell: String,
        /// The region, as JSON.
        region: String,
        /// The grid's side.
        size: usize,
    },
    /// A field in a grid cell that is a rule this reader does not support, or unknown.
    #[error("the field {field:?} of {cell} is not supported")]
    CellField {
        /// The cell.
        cell: String,
        /// The field (`givenPencilMarks` restricts the cell's candidates: a rule).
        field: String,
    },
    /// A key holds a rule this reader does not support.
    #[error("the f-puzzles key {key:?} is not supported")]
    Unsupported {
        /// The key.
        key: String,
    },
    /// An entry of `negative` this reader does not support.
    #[error("the negative constraint {kind:?} is not supported")]
    UnsupportedNegative {
        /// The entry.
        kind: String,
    },
    /// A key or one of its entries is not of the shape f-puzzles writes.
    #[error("{key} {index}: {reason}")]
    Entry {
        /// The key.
        key: String,
        /// The entry, from 1 (1 for a key that is not a list).
        index: usize,
        /// What is wrong.
        reason: String,
    },
    /// A cell reference that is not `RnCn`.
    #[error("{key} {index}: {cell:?} is not a cell (expected RnCn)")]
    CellName {
        /// The key.
        key: String,
        /// The entry, from 1.
        index: usize,
        /// The text.
        cell: String,
    },
    /// A cell outside the grid (or, for a clue outside it, not next to it).
    #[error("{key} {index}: {cell} is outside the {size}x{size} grid")]
    CellOutside {
        /// The key.
        key: String,
        /// The entry, from 1.
        index: usize,
        /// The cell.
        cell: String,
        /// The grid's side.
        size: usize,
    },
    /// A value (a sum, a dot's number, an X or V) that does not read.
    #[error("{key} {index}: the value {value} is not {expected}")]
    EntryValue {
        /// The key.
        key: String,
        /// The entry, from 1.
        index: usize,
        /// The value, as JSON.
        value: String,
        /// What it should be.
        expected: &'static str,
    },
    /// A rule read from a key that no grid can satisfy (a cage sum no values make, a dot between
    /// cells that do not touch...): the key and entry, then what and where.
    #[error("{key} {index}{detail}")]
    Rule {
        /// The key.
        key: String,
        /// The entry, from 1.
        index: usize,
        /// What is wrong, starting with where (" at R3C4: no values 1-9 can make 50").
        detail: String,
        /// The check that failed.
        #[source]
        source: VariantError,
    },
    /// The givens or regions do not make a variant (a region of the wrong size...).
    #[error(transparent)]
    Variant(VariantError),
    /// A rule of the variant that f-puzzles has no way to write.
    #[error("rule {rule} ({kind}) cannot be written in f-puzzles: {reason}")]
    Inexpressible {
        /// The rule, from 1.
        rule: usize,
        /// Its kind.
        kind: &'static str,
        /// Why.
        reason: String,
    },
}

type Result<T, E = FPuzzlesError> = std::result::Result<T, E>;

/// Reads an f-puzzles JSON text, its LZ-String base64, or a link that carries it, into a variant
/// whose givens come from the puzzle's grid.
///
/// Which of the three it is goes by content: a leading `{` is JSON, a text with `load=` in it is a
/// link (what follows, up to `&` or `#`, %-decoded), anything else is base64. Only the grid's digits
/// marked `given` are givens: the others are a solver's progress saved with the puzzle.
pub fn read(text: &str) -> Result<Variant> {
    let text = text.trim_start_matches('\u{feff}').trim();
    if text.is_empty() {
        return Err(FPuzzlesError::Empty);
    }
    if text.starts_with('{') {
        return read_json(text, "JSON");
    }
    let base64 = match text.find("load=") {
        Some(at) => {
            let rest = &text[at + "load=".len()..];
            let end = rest.find(['&', '#']).unwrap_or(rest.len());
            percent_decode(&rest[..end])?
        }
        None => text.to_string(),
    };
    let json = decompress(&base64)?;
    read_json(&json, "decompressed JSON")
}

/// Writes the variant as f-puzzles JSON, which f-puzzles (and [`read`]) reads back.
///
/// Rules f-puzzles cannot express (see [`try_to_json`]) are listed, described, under
/// [`INEXPRESSIBLE_KEY`], which f-puzzles ignores and [`read`] refuses by name.
pub fn to_json(variant: &Variant) -> String {
    let (mut object, inexpressible) = write(variant);
    if !inexpressible.is_empty() {
        let described = inexpressible
            .iter()
            .map(|e| Value::String(e.to_string()))
            .collect();
        object.insert(INEXPRESSIBLE_KEY.into(), Value::Array(described));
    }
    Value::Object(object).to_string()
}

/// Writes the variant as f-puzzles JSON, or says which rule f-puzzles cannot express: a little
/// killer whose cells are not a whole diagonal from the edge, a sum marker other than X (10) and V
/// (5), a negative constraint other than those f-puzzles' `nonconsecutive` and `negative` switches
/// make, or `NonConsecutive` beside kropki dots (f-puzzles exempts dotted pairs).
pub fn try_to_json(variant: &Variant) -> Result<String> {
    let (object, inexpressible) = write(variant);
    match inexpressible.into_iter().next() {
        Some(error) => Err(error),
        None => Ok(Value::Object(object).to_string()),
    }
}

/// The variant as f-puzzles' `load=` text: its JSON ([`to_json`]) compressed with LZ-String
/// `compressToBase64`.
pub fn to_base64(variant: &Variant) -> String {
    lz_str::compress_to_base64(to_json(variant).as_str())
}

/// The variant as an f-puzzles link: [`URL_PREFIX`] and [`to_base64`].
pub fn to_url(variant: &Variant) -> String {
    format!("{URL_PREFIX}{}", to_base64(variant))
}
