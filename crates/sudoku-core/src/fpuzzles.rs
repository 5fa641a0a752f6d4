//! The f-puzzles format: a puzzle shared as JSON, as that JSON compressed with LZ-String and written
//! in base64 (what follows `?load=` in a link), or as the whole link, read into a [`Variant`].
//!
//! Every key f-puzzles writes is either read into a [`Rule`], known to be cosmetic and skipped, or an
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

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use crate::variant::{Diagonal, Line, MAX_SIDE, Relation, Rule, Variant, VariantError, cell_name};

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

// ---------------------------------------------------------------------------------------------
// Decoding the outer layers.

fn percent_decode(text: &str) -> Result<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or(FPuzzlesError::UrlEscape { position: i + 1 })?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    // A byte that is not ASCII fails the base64 check next; keep it visible for that error.
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn decompress(base64: &str) -> Result<String> {
    let mut sextets = Vec::with_capacity(base64.len());
    for (i, ch) in base64.chars().enumerate() {
        let value = match ch {
            'A'..='Z' => ch as u8 - b'A',
            'a'..='z' => ch as u8 - b'a' + 26,
            '0'..='9' => ch as u8 - b'0' + 52,
            '+' => 62,
            '/' => 63,
            // Padding: LZ-String reads it as zero bits.
            '=' => 0,
            _ if ch.is_whitespace() => continue,
            _ => {
                return Err(FPuzzlesError::Base64 {
                    position: i + 1,
                    character: ch,
                });
            }
        };
        sextets.push(value);
    }
    let wide = lz::decompress(&sextets)?;
    let text = String::from_utf16(&wide).map_err(|_| FPuzzlesError::Decompress)?;
    if text.trim().is_empty() {
        return Err(FPuzzlesError::Decompress);
    }
    Ok(text)
}

/// The most UTF-16 units a compressed puzzle may expand to: far above any f-puzzles JSON, far
/// below what a hostile text could make LZ-String produce (its output can grow as the square of
/// its input).
pub const MAX_DECOMPRESSED: usize = 1 << 22;

/// LZ-String's decompression, written from its published algorithm (`_decompress` in lz-string
/// 1.5), with the output bounded by [`MAX_DECOMPRESSED`]. Every dictionary entry is a stretch of
/// the output already written, so entries are kept as (start, length) and memory stays linear in
/// the output.
mod lz {
    use super::{FPuzzlesError, MAX_DECOMPRESSED};

    /// The bits of the base64, most significant first within each 6-bit character.
    struct Bits<'a> {
        sextets: &'a [u8],
        index: usize,
        mask: u8,
    }

    impl Bits<'_> {
        /// `n` bits, the first read the least significant, as LZ-String packs them.
        fn read(&mut self, n: u32) -> Result<u32, FPuzzlesError> {
            let mut value = 0u32;
            for p in 0..n {
                let sextet = *self
                    .sextets
                    .get(self.index)
                    .ok_or(FPuzzlesError::Decompress)?;
                if sextet & self.mask != 0 {
                    value |= 1 << p;
                }
                self.mask >>= 1;
                if self.mask == 0 {
                    self.mask = 32;
                    self.index += 1;
                }
            }
            Ok(value)
        }
    }

    #[derive(Clone, Copy)]
    enum Entry {
        /// A code LZ-String reserves (0, 1, 2), never looked up.
        Reserved,
        /// One character, written out as a literal.
        Char(u16),
        /// A stretch of the output.
        Span(usize, usize),
    }

    pub(super) fn decompress(sextets: &[u8]) -> Result<Vec<u16>, FPuzzlesError> {
        let mut bits = Bits {
            sextets,
            index: 0,
            mask: 32,
        };
        let mut dictionary = vec![Entry::Reserved; 3];
        let mut out: Vec<u16> = Vec::new();
        let literal = |bits: &mut Bits, code: u32| -> Result<u16, FPuzzlesError> {
            // Code 0 is an 8-bit character, 1 a 16-bit one.
            Ok(bits.read(if code == 0 { 8 } else { 16 })? as u16)
        };
        let first = match bits.read(2)? {
            code @ (0 | 1) => literal(&mut bits, code)?,
            2 => return Ok(out),
            _ => return Err(FPuzzlesError::Decompress),
        };
        dictionary.push(Entry::Char(first));
        out.push(first);
        // The previous entry, as a stretch of the output.
        let mut w = (0usize, 1usize);
        let mut enlarge_in: u64 = 4;
        let mut num_bits: u32 = 3;
        loop {
            let mut code = bits.read(num_bits)? as usize;
            match code {
                0 | 1 => {
                    let c = literal(&mut bits, code as u32)?;
                    dictionary.push(Entry::Char(c));
                    code = dictionary.len() - 1;
                    enlarge_in -= 1;
                }
                2 => return Ok(out),
                _ => {}
            }
            if enlarge_in == 0 {
                enlarge_in = 1 << num_bits;
                num_bits += 1;
            }
            let start = out.len();
            match dictionary.get(code).copied() {
                Some(Entry::Char(c)) => out.push(c),
                Some(Entry::Span(s, len)) => {
                    if start + len > MAX_DECOMPRESSED {
                        return Err(FPuzzlesError::TooLarge);
                    }
                    out.extend_from_within(s..s + len);
                }
                // The entry being defined: the previous one and its own first character.
                None if code == dictionary.len() => {
                    if start + w.1 + 1 > MAX_DECOMPRESSED {
                        return Err(FPuzzlesError::TooLarge);
                    }
                    out.extend_from_within(w.0..w.0 + w.1);
                    out.push(out[w.0]);
                }
                _ => return Err(FPuzzlesError::Decompress),
            }
            if out.len() > MAX_DECOMPRESSED {
                return Err(FPuzzlesError::TooLarge);
            }
            // The previous entry and this one's first character: a stretch, as they are adjacent.
            dictionary.push(Entry::Span(w.0, w.1 + 1));
            enlarge_in -= 1;
            w = (start, out.len() - start);
            if enlarge_in == 0 {
                if num_bits >= 31 {
                    return Err(FPuzzlesError::TooLarge);
                }
                enlarge_in = 1 << num_bits;
                num_bits += 1;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Reading the JSON.

/// Keys that only change how the puzzle looks (or how a solver explains it): read and skipped.
const COSMETIC: &[&str] = &[
    "title",
    "author",
    "ruleset",
    "text",
    "line",
    "rectangle",
    "circle",
    "cage",
    "highlighted",
    "solution",
    "disabledlogic",
    "truecandidatesoptions",
];

/// Fields of a grid cell that are cosmetic (colours, the solver's pencil marks).
const COSMETIC_CELL_FIELDS: &[&str] = &[
    "c",
    "cArray",
    "highlight",
    "centerPencilMarks",
    "cornerPencilMarks",
];

/// Every key read into rules, in the order [`read`] emits their rules.
const SUPPORTED: &[&str] = &[
    "size",
    "grid",
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "disjointgroups",
    "nonconsecutive",
    "extraregion",
    "killercage",
    "littlekillersum",
    "sandwichsum",
    "thermometer",
    "arrow",
    "difference",
    "ratio",
    "xv",
    "even",
    "odd",
    "negative",
];

/// The rules read so far, each with the key and entry it came from, for errors.
struct Builder {
    side: usize,
    rules: Vec<Rule>,
    origins: Vec<(&'static str, usize)>,
}

impl Builder {
    fn push(&mut self, key: &'static str, index: usize, rule: Rule) {
        self.rules.push(rule);
        self.origins.push((key, index));
    }
}

fn read_json(text: &str, what: &'static str) -> Result<Variant> {
    let value: Value = serde_json::from_str(text).map_err(|e| FPuzzlesError::Json {
        what,
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let Value::Object(object) = value else {
        return Err(FPuzzlesError::NotObject);
    };
    for (key, value) in &object {
        if SUPPORTED.contains(&key.as_str()) {
            continue;
        }
        if key == "cage" {
            check_cosmetic_cages(value)?;
        } else if !COSMETIC.contains(&key.as_str()) && !is_empty(value) {
            return Err(FPuzzlesError::Unsupported { key: key.clone() });
        }
    }
    let side = read_size(object.get("size"))?;
    let (givens, regions) = read_grid(side, object.get("grid"))?;
    let mut b = Builder {
        side,
        rules: Vec::new(),
        origins: Vec::new(),
    };
    let flag = |key: &'static str| read_flag(&object, key);
    if flag("diagonal+")? {
        b.push("diagonal+", 1, Rule::Diagonal(Diagonal::Positive));
    }
    if flag("diagonal-")? {
        b.push("diagonal-", 1, Rule::Diagonal(Diagonal::Negative));
    }
    if flag("antiknight")? {
        b.push("antiknight", 1, Rule::AntiKnight);
    }
    if flag("antiking")? {
        b.push("antiking", 1, Rule::AntiKing);
    }
    if flag("disjointgroups")? {
        b.push("disjointgroups", 1, Rule::DisjointGroups);
    }
    let nonconsecutive = flag("nonconsecutive")?;
    let kropki_keys_present = ["difference", "ratio"]
        .iter()
        .any(|k| !entries(&object, k).map(|e| e.is_empty()).unwrap_or(true));
    if nonconsecutive && !kropki_keys_present {
        b.push("nonconsecutive", 1, Rule::NonConsecutive);
    }
    read_extra_regions(&object, &mut b)?;
    read_cages(&object, &mut b)?;
    read_little_killers(&object, &mut b)?;
    read_sandwiches(&object, &mut b)?;
    read_thermometers(&object, &mut b)?;
    read_arrows(&object, &mut b)?;
    let kropki = read_markers(&object, &mut b)?;
    read_parity(&object, &mut b)?;
    read_negatives(&object, &mut b, nonconsecutive, &kropki)?;

    let Builder { rules, origins, .. } = b;
    Variant::new(side, givens, regions, rules).map_err(|e| locate(e, &origins))
}

/// Turns a variant check's error into one that names the f-puzzles key and entry.
fn locate(error: VariantError, origins: &[(&'static str, usize)]) -> FPuzzlesError {
    let (rule, detail) = match &error {
        VariantError::ImpossibleSum {
            rule,
            cell,
            sum,
            side,
            ..
        } => (
            *rule,
            format!(" at {cell}: no values 1-{side} can make {sum}"),
        ),
        VariantError::Malformed { rule, reason, .. } => (*rule, format!(": {reason}")),
        VariantError::CellOutside { rule, cell, .. } => {
            (*rule, format!(": cell {cell} is outside the grid"))
        }
        _ => return FPuzzlesError::Variant(error),
    };
    match rule.checked_sub(1).and_then(|i| origins.get(i)) {
        Some(&(key, index)) => FPuzzlesError::Rule {
            key: key.into(),
            index,
            detail,
            source: error,
        },
        None => FPuzzlesError::Variant(error),
    }
}

/// Whether a value holds nothing: `null`, `false`, `""`, `[]` or `{}`.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(false) => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

/// A cosmetic cage is skipped, but one marked `DRn` is Rangsk's digital-root cage: a rule.
fn check_cosmetic_cages(value: &Value) -> Result<()> {
    let Value::Array(cages) = value else {
        return Ok(());
    };
    for cage in cages {
        if let Some(text) = cage.get("value").and_then(Value::as_str) {
            let text = text.trim();
            if let (Some(dr), Some(root)) = (text.get(..2), text.get(2..))
                && dr.eq_ignore_ascii_case("DR")
                && !root.is_empty()
                && root.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(FPuzzlesError::Unsupported {
                    key: format!("cage (digital root {text})"),
                });
            }
        }
    }
    Ok(())
}

fn json_text(value: Option<&Value>) -> String {
    value.map_or_else(|| "missing".into(), Value::to_string)
}

fn read_size(value: Option<&Value>) -> Result<usize> {
    value
        .and_then(Value::as_u64)
        .filter(|s| (1..=MAX_SIDE as u64).contains(s))
        .map(|s| s as usize)
        .ok_or_else(|| FPuzzlesError::Size {
            found: json_text(value),
        })
}

fn read_grid(side: usize, grid: Option<&Value>) -> Result<(Vec<u8>, Vec<u8>)> {
    let grid_error = |reason: String| FPuzzlesError::Grid { reason };
    let rows = match grid {
        None => return Err(grid_error("is missing".into())),
        Some(Value::Array(rows)) => rows,
        Some(_) => return Err(grid_error("is not a list of rows".into())),
    };
    if rows.len() != side {
        return Err(grid_error(format!(
            "has {} rows: size {side} needs {side}",
            rows.len()
        )));
    }
    let defaults = Variant::default_regions(side);
    let mut givens = vec![0u8; side * side];
    let mut regions = defaults.clone();
    for (r, row) in rows.iter().enumerate() {
        let Value::Array(cells) = row else {
            return Err(grid_error(format!("row {} is not a list of cells", r + 1)));
        };
        if cells.len() != side {
            return Err(grid_error(format!(
                "row {} has {} cells: size {side} needs {side}",
                r + 1,
                cells.len()
            )));
        }
        for (c, cell) in cells.iter().enumerate() {
            let index = r * side + c;
            let name = cell_name(side, index);
            let Value::Object(fields) = cell else {
                if cell.is_null() {
                    continue;
                }
                return Err(grid_error(format!("cell {name} is not an object")));
            };
            let mut value = 0u8;
            let mut given = false;
            for (field, v) in fields {
                match field.as_str() {
                    "value" => {
                        value = v
                            .as_u64()
                            .filter(|&x| x <= side as u64)
                            .map(|x| x as u8)
                            .or_else(|| v.is_null().then_some(0))
                            .ok_or_else(|| FPuzzlesError::Value {
                                cell: name.clone(),
                                value: v.to_string(),
                                size: side,
                            })?;
                    }
                    "given" => {
                        given = v
                            .as_bool()
                            .or_else(|| v.is_null().then_some(false))
                            .ok_or_else(|| {
                                grid_error(format!("cell {name}: given is {v}, not true or false"))
                            })?;
                    }
                    "region" => {
                        regions[index] = v
                            .as_u64()
                            .filter(|&x| x < side as u64)
                            .map(|x| x as u8)
                            .ok_or_else(|| FPuzzlesError::Region {
                            cell: name.clone(),
                            region: v.to_string(),
                            size: side,
                        })?;
                    }
                    "givenPencilMarks" if is_empty(v) => {}
                    f if COSMETIC_CELL_FIELDS.contains(&f) => {}
                    f => {
                        return Err(FPuzzlesError::CellField {
                            cell: name,
                            field: f.into(),
                        });
                    }
                }
            }
            if given {
                givens[index] = value;
            }
        }
    }
    Ok((givens, regions))
}

fn read_flag(object: &Map<String, Value>, key: &'static str) -> Result<bool> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(FPuzzlesError::Entry {
            key: key.into(),
            index: 1,
            reason: format!("{other} is not true or false"),
        }),
    }
}

/// A rule key's entries: absent or `null` is none.
fn entries<'a>(object: &'a Map<String, Value>, key: &'static str) -> Result<&'a [Value]> {
    match object.get(key) {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(FPuzzlesError::Entry {
            key: key.into(),
            index: 1,
            reason: format!("expected a list, found {other}"),
        }),
    }
}

fn entry_error(key: &'static str, index: usize, reason: impl Into<String>) -> FPuzzlesError {
    FPuzzlesError::Entry {
        key: key.into(),
        index,
        reason: reason.into(),
    }
}

fn field<'a>(entry: &'a Value, key: &'static str, index: usize, name: &str) -> Result<&'a Value> {
    match entry {
        Value::Object(fields) => fields
            .get(name)
            .ok_or_else(|| entry_error(key, index, format!("has no {name:?}"))),
        _ => Err(entry_error(key, index, "is not an object")),
    }
}

/// A cell reference `RnCn` as 1-based (row, column), unchecked against the grid.
fn parse_cell(key: &'static str, index: usize, value: &Value) -> Result<(usize, usize)> {
    let bad = || FPuzzlesError::CellName {
        key: key.into(),
        index,
        cell: value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_string),
    };
    let text = value.as_str().ok_or_else(bad)?;
    let rest = text.strip_prefix(['R', 'r']).ok_or_else(bad)?;
    let split = rest.find(['C', 'c']).ok_or_else(bad)?;
    let (row, col) = (&rest[..split], &rest[split + 1..]);
    let number = |s: &str| {
        (!s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<usize>().ok())
            .flatten()
    };
    match (number(row), number(col)) {
        (Some(r), Some(c)) => Ok((r, c)),
        _ => Err(bad()),
    }
}

/// A cell inside the grid, as a row-major index.
fn grid_cell(side: usize, key: &'static str, index: usize, value: &Value) -> Result<usize> {
    let (r, c) = parse_cell(key, index, value)?;
    if (1..=side).contains(&r) && (1..=side).contains(&c) {
        Ok((r - 1) * side + c - 1)
    } else {
        Err(FPuzzlesError::CellOutside {
            key: key.into(),
            index,
            cell: format!("R{r}C{c}"),
            size: side,
        })
    }
}

fn cell_list(side: usize, key: &'static str, index: usize, value: &Value) -> Result<Vec<usize>> {
    match value {
        Value::Array(cells) => cells
            .iter()
            .map(|c| grid_cell(side, key, index, c))
            .collect(),
        _ => Err(entry_error(key, index, "its cells are not a list")),
    }
}

/// An entry's `lines`: each a list of cells.
fn lines(side: usize, key: &'static str, index: usize, entry: &Value) -> Result<Vec<Vec<usize>>> {
    match field(entry, key, index, "lines")? {
        Value::Array(lines) => lines
            .iter()
            .map(|line| cell_list(side, key, index, line))
            .collect(),
        _ => Err(entry_error(key, index, "its lines are not a list")),
    }
}

/// An entry's `value` as text (f-puzzles writes strings; numbers are taken too); `None` if absent,
/// `null` or blank.
fn value_text(entry: &Value) -> Option<String> {
    match entry.get("value")? {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn parse_number<T: std::str::FromStr>(
    key: &'static str,
    index: usize,
    text: &str,
    expected: &'static str,
) -> Result<T> {
    text.parse().map_err(|_| FPuzzlesError::EntryValue {
        key: key.into(),
        index,
        value: format!("{text:?}"),
        expected,
    })
}

fn read_extra_regions(object: &Map<String, Value>, b: &mut Builder) -> Result<()> {
    for (i, entry) in entries(object, "extraregion")?.iter().enumerate() {
        let cells = cell_list(
            b.side,
            "extraregion",
            i + 1,
            field(entry, "extraregion", i + 1, "cells")?,
        )?;
        b.push("extraregion", i + 1, Rule::ExtraRegion(cells));
    }
    Ok(())
}

fn read_cages(object: &Map<String, Value>, b: &mut Builder) -> Result<()> {
    const KEY: &str = "killercage";
    for (i, entry) in entries(object, KEY)?.iter().enumerate() {
        let cells = cell_list(b.side, KEY, i + 1, field(entry, KEY, i + 1, "cells")?)?;
        let sum = value_text(entry)
            .map(|t| parse_number::<u32>(KEY, i + 1, &t, "a whole number"))
            .transpose()?;
        b.push(KEY, i + 1, Rule::Cage { cells, sum });
    }
    Ok(())
}

/// A clue outside the grid: 1-based (row, column) with row or column 0 or side + 1, not a corner
/// unless `corners`.
fn outside_cell(
    side: usize,
    key: &'static str,
    index: usize,
    value: &Value,
    corners: bool,
) -> Result<(usize, usize)> {
    let (r, c) = parse_cell(key, index, value)?;
    let edge = |x: usize| x == 0 || x == side + 1;
    let inside = |x: usize| (1..=side).contains(&x);
    let ok = (edge(r) && inside(c)) || (inside(r) && edge(c)) || (corners && edge(r) && edge(c));
    if ok {
        Ok((r, c))
    } else {
        let reason = if inside(r) && inside(c) {
            format!("the clue R{r}C{c} is inside the grid; it belongs just outside")
        } else {
            format!("the clue R{r}C{c} is not next to the {side}x{side} grid")
        };
        Err(entry_error(key, index, reason))
    }
}

/// The (row, column) step of a little killer's direction.
fn direction_step(direction: &str) -> Option<(isize, isize)> {
    match direction.to_ascii_uppercase().as_str() {
        "UL" => Some((-1, -1)),
        "UR" => Some((-1, 1)),
        "DL" => Some((1, -1)),
        "DR" => Some((1, 1)),
        _ => None,
    }
}

fn read_little_killers(object: &Map<String, Value>, b: &mut Builder) -> Result<()> {
    const KEY: &str = "littlekillersum";
    let side = b.side as isize;
    for (i, entry) in entries(object, KEY)?.iter().enumerate() {
        let (r, c) = outside_cell(b.side, KEY, i + 1, field(entry, KEY, i + 1, "cell")?, true)?;
        let direction = field(entry, KEY, i + 1, "direction")?;
        let (dr, dc) = direction.as_str().and_then(direction_step).ok_or_else(|| {
            FPuzzlesError::EntryValue {
                key: KEY.into(),
                index: i + 1,
                value: direction.to_string(),
                expected: "a direction UL, UR, DL or DR",
            }
        })?;
        // From the clue (1-based, 0 and side + 1 outside), step along the diagonal while inside.
        let (mut row, mut col) = (r as isize + dr, c as isize + dc);
        let mut cells = Vec::new();
        while (1..=side).contains(&row) && (1..=side).contains(&col) {
            cells.push(((row - 1) * side + col - 1) as usize);
            row += dr;
            col += dc;
        }
        if cells.is_empty() {
            return Err(entry_error(
                KEY,
                i + 1,
                format!("the clue R{r}C{c} points {direction} away from the grid"),
            ));
        }
        // A clue with no number says nothing: f-puzzles draws the arrow alone.
        if let Some(text) = value_text(entry) {
            let sum = parse_number::<u32>(KEY, i + 1, &text, "a whole number")?;
            b.push(KEY, i + 1, Rule::LittleKiller { cells, sum });
        }
    }
    Ok(())
}

fn read_sandwiches(object: &Map<String, Value>, b: &mut Builder) -> Result<()> {
    const KEY: &str = "sandwichsum";
    for (i, entry) in entries(object, KEY)?.iter().enumerate() {
        let (r, c) = outside_cell(b.side, KEY, i + 1, field(entry, KEY, i + 1, "cell")?, false)?;
        let line = if r == 0 || r == b.side + 1 {
            Line::Column(c - 1)
        } else {
            Line::Row(r - 1)
        };
        // As for little killers, a clue with no number says nothing.
        if let Some(text) = value_text(entry) {
            let sum = parse_number::<u32>(KEY, i + 1, &text, "a whole number")?;
            b.push(KEY, i + 1, Rule::Sandwich { line, sum });
        }
    }
    Ok(())
}

fn read_thermometers(object: &Map<String, Value>, b: &mut Builder) -> Result<()> {
    const KEY: &str = "thermometer";
    for (i, entry) in entries(object, KEY)?.iter().enumerate() {
        for line in lines(b.side, KEY, i + 1, entry)? {
            b.push(KEY, i + 1, Rule::Thermometer(line));
        }
    }
    Ok(())
}

fn read_arrows(object: &Map<String, Value>, b: &mut Builder) -> Result<()> {
    const KEY: &str = "arrow";
    for (i, entry) in entries(object, KEY)?.iter().enumerate() {
        let circle = cell_list(b.side, KEY, i + 1, field(entry, KEY, i + 1, "cells")?)?;
        let shafts = lines(b.side, KEY, i + 1, entry)?;
        if shafts.is_empty() {
            return Err(entry_error(KEY, i + 1, "has a circle but no arrow"));
        }
        for line in shafts {
            // Each line starts in the circle; the cells after the circle's are the shaft.
            let start = line.iter().take_while(|c| circle.contains(c)).count();
            if start == 0 {
                return Err(entry_error(
                    KEY,
                    i + 1,
                    format!(
                        "has a line that starts at {}, outside its circle",
                        line.first()
                            .map_or_else(|| "nothing".into(), |&c| cell_name(b.side, c))
                    ),
                ));
            }
            let shaft = line[start..].to_vec();
            b.push(
                KEY,
                i + 1,
                Rule::Arrow {
                    circle: circle.clone(),
                    shaft,
                },
            );
        }
    }
    Ok(())
}

/// The pairs that carry a marker, normalised (smaller cell first), by family.
#[derive(Default)]
struct Markers {
    /// Pairs with a white (difference) or black (ratio) dot.
    kropki: BTreeSet<[usize; 2]>,
    /// The values of the black dots.
    ratios: BTreeSet<u8>,
    /// Pairs with an X or a V.
    xv: BTreeSet<[usize; 2]>,
}

fn pair(side: usize, key: &'static str, index: usize, entry: &Value) -> Result<[usize; 2]> {
    let cells = cell_list(side, key, index, field(entry, key, index, "cells")?)?;
    match cells[..] {
        [a, b] => Ok([a, b]),
        _ => Err(entry_error(
            key,
            index,
            format!("has {} cells: a marker sits between 2", cells.len()),
        )),
    }
}

fn normalised([a, b]: [usize; 2]) -> [usize; 2] {
    [a.min(b), a.max(b)]
}

fn read_markers(object: &Map<String, Value>, b: &mut Builder) -> Result<Markers> {
    let mut markers = Markers::default();
    for (key, default) in [("difference", 1u8), ("ratio", 2u8)] {
        for (i, entry) in entries(object, key)?.iter().enumerate() {
            let cells = pair(b.side, key, i + 1, entry)?;
            let value = match value_text(entry) {
                Some(t) => {
                    parse_number::<u8>(key, i + 1, &t, "a whole number 1 to 255").and_then(|v| {
                        (v > 0)
                            .then_some(v)
                            .ok_or_else(|| FPuzzlesError::EntryValue {
                                key: key.into(),
                                index: i + 1,
                                value: format!("{t:?}"),
                                expected: "a whole number 1 to 255",
                            })
                    })?
                }
                None => default,
            };
            let relation = if key == "difference" {
                Relation::Difference(value)
            } else {
                markers.ratios.insert(value);
                Relation::Ratio(value)
            };
            markers.kropki.insert(normalised(cells));
            b.push(key, i + 1, Rule::Pair { cells, relation });
        }
    }
    const XV: &str = "xv";
    for (i, entry) in entries(object, XV)?.iter().enumerate() {
        let cells = pair(b.side, XV, i + 1, entry)?;
        let sum = match value_text(entry).as_deref() {
            Some("X" | "x") => 10,
            Some("V" | "v") => 5,
            _ => {
                return Err(FPuzzlesError::EntryValue {
                    key: XV.into(),
                    index: i + 1,
                    value: json_text(entry.get("value")),
                    expected: "\"X\" or \"V\"",
                });
            }
        };
        markers.xv.insert(normalised(cells));
        b.push(
            XV,
            i + 1,
            Rule::Pair {
                cells,
                relation: Relation::Sum(sum),
            },
        );
    }
    Ok(markers)
}

fn read_parity(object: &Map<String, Value>, b: &mut Builder) -> Result<()> {
    for (key, even) in [("even", true), ("odd", false)] {
        for (i, entry) in entries(object, key)?.iter().enumerate() {
            let cell = grid_cell(b.side, key, i + 1, field(entry, key, i + 1, "cell")?)?;
            b.push(key, i + 1, Rule::Parity { cell, even });
        }
    }
    Ok(())
}

/// `nonconsecutive` beside kropki dots, and `negative`: as Rangsk's solver reads them, each a
/// negative constraint that exempts the pairs carrying a marker of its family.
fn read_negatives(
    object: &Map<String, Value>,
    b: &mut Builder,
    nonconsecutive: bool,
    markers: &Markers,
) -> Result<()> {
    let kropki: Vec<[usize; 2]> = markers.kropki.iter().copied().collect();
    if nonconsecutive && !kropki.is_empty() {
        b.push(
            "nonconsecutive",
            1,
            Rule::Negative {
                relation: Relation::Difference(1),
                except: kropki.clone(),
            },
        );
    }
    let mut ratio = false;
    let mut xv = false;
    for (i, entry) in entries(object, "negative")?.iter().enumerate() {
        match entry.as_str() {
            Some("ratio") => ratio = true,
            Some("xv") => xv = true,
            Some(other) => {
                return Err(FPuzzlesError::UnsupportedNegative { kind: other.into() });
            }
            None => return Err(entry_error("negative", i + 1, "is not a name")),
        }
    }
    if ratio {
        let values: Vec<u8> = if markers.ratios.is_empty() {
            vec![2]
        } else {
            markers.ratios.iter().copied().collect()
        };
        for value in values {
            b.push(
                "negative",
                1,
                Rule::Negative {
                    relation: Relation::Ratio(value),
                    except: kropki.clone(),
                },
            );
        }
    }
    if xv {
        let except: Vec<[usize; 2]> = markers.xv.iter().copied().collect();
        for sum in [5, 10] {
            b.push(
                "negative",
                1,
                Rule::Negative {
                    relation: Relation::Sum(sum),
                    except: except.clone(),
                },
            );
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Writing.

fn name(side: usize, cell: usize) -> Value {
    Value::String(cell_name(side, cell))
}

fn names(side: usize, cells: &[usize]) -> Value {
    Value::Array(cells.iter().map(|&c| name(side, c)).collect())
}

/// The clue cell (1-based, on the border) and direction of a little killer over `cells`, if they
/// are a whole diagonal from the edge in order.
fn little_killer_clue(side: usize, cells: &[usize]) -> Option<(usize, usize, &'static str)> {
    let s = side as isize;
    let at = |cell: usize| ((cell / side) as isize, (cell % side) as isize);
    let first = *cells.first()?;
    let candidates: &[(isize, isize, &str)] =
        &[(1, 1, "DR"), (1, -1, "DL"), (-1, 1, "UR"), (-1, -1, "UL")];
    for &(dr, dc, direction) in candidates {
        let (r0, c0) = at(first);
        let inside = |r: isize, c: isize| (0..s).contains(&r) && (0..s).contains(&c);
        if inside(r0 - dr, c0 - dc) {
            continue;
        }
        let (mut r, mut c) = (r0, c0);
        let mut ray = Vec::new();
        while inside(r, c) {
            ray.push((r * s + c) as usize);
            r += dr;
            c += dc;
        }
        if ray == cells {
            // 1-based clue: one step back from the first cell.
            return Some(((r0 - dr + 1) as usize, (c0 - dc + 1) as usize, direction));
        }
    }
    None
}

fn pair_set(pairs: &[[usize; 2]]) -> BTreeSet<[usize; 2]> {
    pairs.iter().map(|&p| normalised(p)).collect()
}

/// The JSON object for the variant, and the errors for the rules f-puzzles cannot express.
fn write(v: &Variant) -> (Map<String, Value>, Vec<FPuzzlesError>) {
    let side = v.side();
    let mut out = Map::new();
    let mut inexpressible = Vec::new();
    out.insert("size".into(), json!(side));
    let jigsaw = !v.has_default_regions();
    let grid: Vec<Value> = (0..side)
        .map(|r| {
            Value::Array(
                (0..side)
                    .map(|c| {
                        let i = r * side + c;
                        let mut cell = Map::new();
                        if v.givens()[i] != 0 {
                            cell.insert("value".into(), json!(v.givens()[i]));
                            cell.insert("given".into(), json!(true));
                        }
                        if jigsaw {
                            cell.insert("region".into(), json!(v.regions()[i]));
                        }
                        Value::Object(cell)
                    })
                    .collect(),
            )
        })
        .collect();
    out.insert("grid".into(), Value::Array(grid));

    let mut kropki = BTreeSet::new();
    let mut ratios = BTreeSet::new();
    let mut xv_pairs = BTreeSet::new();
    for rule in v.rules() {
        if let Rule::Pair { cells, relation } = rule {
            match relation {
                Relation::Difference(_) => {
                    kropki.insert(normalised(*cells));
                }
                Relation::Ratio(r) => {
                    kropki.insert(normalised(*cells));
                    ratios.insert(*r);
                }
                Relation::Sum(_) => {
                    xv_pairs.insert(normalised(*cells));
                }
            }
        }
    }
    if ratios.is_empty() {
        ratios.insert(2);
    }

    let mut lists: BTreeMap<&'static str, Vec<Value>> = BTreeMap::new();
    let mut negative_ratios = BTreeSet::new();
    let mut negative_sums = BTreeSet::new();
    let mut nonconsecutive_rule = None;
    let mut negative_ratio_rules = Vec::new();
    let mut negative_xv_rules = Vec::new();
    for (i, rule) in v.rules().iter().enumerate() {
        let mut cannot = |reason: String| {
            inexpressible.push(FPuzzlesError::Inexpressible {
                rule: i + 1,
                kind: rule.kind(),
                reason,
            })
        };
        let mut add = |key: &'static str, entry: Value| lists.entry(key).or_default().push(entry);
        match rule {
            Rule::Diagonal(Diagonal::Positive) => {
                out.insert("diagonal+".into(), json!(true));
            }
            Rule::Diagonal(Diagonal::Negative) => {
                out.insert("diagonal-".into(), json!(true));
            }
            Rule::AntiKnight => {
                out.insert("antiknight".into(), json!(true));
            }
            Rule::AntiKing => {
                out.insert("antiking".into(), json!(true));
            }
            Rule::DisjointGroups => {
                out.insert("disjointgroups".into(), json!(true));
            }
            Rule::NonConsecutive => {
                if kropki.is_empty() {
                    out.insert("nonconsecutive".into(), json!(true));
                } else {
                    cannot(
                        "f-puzzles' nonconsecutive exempts the pairs with kropki dots; write it as \
                         a negative difference of 1 excepting them"
                            .into(),
                    );
                }
            }
            Rule::ExtraRegion(cells) => add("extraregion", json!({ "cells": names(side, cells) })),
            Rule::Cage { cells, sum } => {
                let mut entry = Map::new();
                entry.insert("cells".into(), names(side, cells));
                if let Some(sum) = sum {
                    entry.insert("value".into(), json!(sum.to_string()));
                }
                add("killercage", Value::Object(entry));
            }
            Rule::LittleKiller { cells, sum } => match little_killer_clue(side, cells) {
                Some((r, c, direction)) => add(
                    "littlekillersum",
                    json!({ "cell": format!("R{r}C{c}"), "direction": direction, "value": sum.to_string() }),
                ),
                None => cannot(
                    "its cells are not a whole diagonal from the grid's edge, in order".into(),
                ),
            },
            Rule::Sandwich { line, sum } => {
                let cell = match *line {
                    Line::Row(r) => format!("R{}C0", r + 1),
                    Line::Column(c) => format!("R0C{}", c + 1),
                };
                add(
                    "sandwichsum",
                    json!({ "cell": cell, "value": sum.to_string() }),
                );
            }
            Rule::Thermometer(cells) => {
                add("thermometer", json!({ "lines": [names(side, cells)] }))
            }
            Rule::Arrow { circle, shaft } => {
                // The line leaves the circle from its cell nearest the shaft, as f-puzzles draws it.
                let distance = |a: usize, b: usize| {
                    (a / side).abs_diff(b / side) + (a % side).abs_diff(b % side)
                };
                let start = shaft
                    .first()
                    .and_then(|&s| circle.iter().copied().min_by_key(|&c| distance(c, s)));
                let line: Vec<usize> = start.into_iter().chain(shaft.iter().copied()).collect();
                add(
                    "arrow",
                    json!({ "cells": names(side, circle), "lines": [names(side, &line)] }),
                );
            }
            Rule::Pair { cells, relation } => match *relation {
                Relation::Difference(d) => {
                    let mut entry = json!({ "cells": names(side, cells) });
                    if d != 1 {
                        entry["value"] = json!(d.to_string());
                    }
                    add("difference", entry);
                }
                Relation::Ratio(r) => {
                    let mut entry = json!({ "cells": names(side, cells) });
                    if r != 2 {
                        entry["value"] = json!(r.to_string());
                    }
                    add("ratio", entry);
                }
                Relation::Sum(10) => {
                    add("xv", json!({ "cells": names(side, cells), "value": "X" }))
                }
                Relation::Sum(5) => add("xv", json!({ "cells": names(side, cells), "value": "V" })),
                Relation::Sum(s) => cannot(format!(
                    "f-puzzles' sum markers are X (10) and V (5), not {s}"
                )),
            },
            Rule::Parity { cell, even } => add(
                if *even { "even" } else { "odd" },
                json!({ "cell": cell_name(side, *cell) }),
            ),
            Rule::Negative { relation, except } => {
                let except = pair_set(except);
                match *relation {
                    Relation::Difference(1) if except == kropki => nonconsecutive_rule = Some(i),
                    Relation::Ratio(r) if except == kropki => {
                        negative_ratios.insert(r);
                        negative_ratio_rules.push(i);
                    }
                    Relation::Sum(s @ (5 | 10)) if except == xv_pairs => {
                        negative_sums.insert(s);
                        negative_xv_rules.push(i);
                    }
                    _ => cannot(format!(
                        "f-puzzles' negative constraints are nonconsecutive, ratio and xv, each \
                         excepting every pair with a marker of its kind; not {relation:?} excepting \
                         {} pairs",
                        except.len()
                    )),
                }
            }
        }
    }
    if nonconsecutive_rule.is_some() {
        out.insert("nonconsecutive".into(), json!(true));
    }
    let mut negative = Vec::new();
    if !negative_ratio_rules.is_empty() {
        if negative_ratios == ratios {
            negative.push(json!("ratio"));
        } else {
            for &i in &negative_ratio_rules {
                inexpressible.push(FPuzzlesError::Inexpressible {
                    rule: i + 1,
                    kind: "negative",
                    reason: format!(
                        "f-puzzles' negative ratio forbids every ratio its dots show ({ratios:?}), \
                         here {negative_ratios:?}"
                    ),
                });
            }
        }
    }
    if !negative_xv_rules.is_empty() {
        if negative_sums.len() == 2 {
            negative.push(json!("xv"));
        } else {
            for &i in &negative_xv_rules {
                inexpressible.push(FPuzzlesError::Inexpressible {
                    rule: i + 1,
                    kind: "negative",
                    reason: "f-puzzles' negative xv forbids both sums, 5 and 10, together".into(),
                });
            }
        }
    }
    if !negative.is_empty() {
        out.insert("negative".into(), Value::Array(negative));
    }
    for (key, entries) in lists {
        out.insert(key.into(), Value::Array(entries));
    }
    inexpressible.sort_by_key(|e| match e {
        FPuzzlesError::Inexpressible { rule, .. } => *rule,
        _ => 0,
    });
    (out, inexpressible)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sextets(base64: &str) -> Vec<u8> {
        const KEY: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=";
        base64
            .bytes()
            .map(|b| KEY.iter().position(|&k| k == b).unwrap_or(0) as u8 & 63)
            .collect()
    }

    proptest! {
        /// The bounded decompressor inverts lz-str's compressToBase64 on any text, and agrees with
        /// lz-str's decompressor on any base64.
        #[test]
        fn decompress_inverts_lz_str(text in "\\PC{0,300}|[ab{}\":,]{0,2000}") {
            let base64 = lz_str::compress_to_base64(text.as_str());
            let wide: Vec<u16> = text.encode_utf16().collect();
            prop_assert_eq!(lz::decompress(&sextets(&base64)), Ok(wide));
        }

        #[test]
        fn decompress_agrees_with_lz_str(base64 in "[A-Za-z0-9+/]{0,120}") {
            let ours = lz::decompress(&sextets(&base64)).ok().filter(|w| !w.is_empty());
            let theirs = lz_str::decompress_from_base64(&base64).filter(|w| !w.is_empty());
            prop_assert_eq!(ours, theirs);
        }
    }

    /// LZ-String's bit packing: each value's bits least significant first, into 6-bit characters
    /// most significant first.
    #[derive(Default)]
    struct Writer {
        sextets: Vec<u8>,
        filled: u32,
    }

    impl Writer {
        fn write(&mut self, n: u32, value: u64) {
            for p in 0..n {
                if self.filled == 0 {
                    self.sextets.push(0);
                }
                if value >> p & 1 == 1 {
                    *self.sextets.last_mut().expect("pushed") |= 32 >> self.filled;
                }
                self.filled = (self.filled + 1) % 6;
            }
        }
    }

    #[test]
    fn a_small_text_that_expands_too_far_is_refused() {
        // One literal, then again and again the entry being defined: each code writes one more
        // character than the last, so k codes write k * k / 2.
        let mut w = Writer::default();
        w.write(2, 0);
        w.write(8, u64::from(b'a'));
        let (mut dictionary, mut enlarge_in, mut num_bits) = (4u64, 4u64, 3u32);
        for _ in 0..3000 {
            w.write(num_bits, dictionary);
            dictionary += 1;
            enlarge_in -= 1;
            if enlarge_in == 0 {
                enlarge_in = 1 << num_bits;
                num_bits += 1;
            }
        }
        assert!(w.sextets.len() < 8_000, "{}", w.sextets.len());
        assert_eq!(lz::decompress(&w.sextets), Err(FPuzzlesError::TooLarge));
        // The first thousand codes, closed with code 2: about half a million characters, read.
        let mut w = Writer::default();
        w.write(2, 0);
        w.write(8, u64::from(b'a'));
        let (mut dictionary, mut enlarge_in, mut num_bits) = (4u64, 4u64, 3u32);
        for _ in 0..1000 {
            w.write(num_bits, dictionary);
            dictionary += 1;
            enlarge_in -= 1;
            if enlarge_in == 0 {
                enlarge_in = 1 << num_bits;
                num_bits += 1;
            }
        }
        w.write(num_bits, 2);
        let out = lz::decompress(&w.sextets).expect("within the bound");
        assert_eq!(out.len(), 1 + (2..=1001).sum::<usize>());
        assert!(out.iter().all(|&c| c == u16::from(b'a')));
    }
}
