//! Reading f-puzzles JSON into a variant: every key read into a rule, skipped as cosmetic, or
//! refused by name.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use crate::variant::{Diagonal, Line, MAX_SIDE, Relation, Rule, Variant, VariantError, cell_name};

use super::{FPuzzlesError, Result};

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

pub(super) fn read_json(text: &str, what: &'static str) -> Result<Variant> {
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

pub(super) fn normalised([a, b]: [usize; 2]) -> [usize; 2] {
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
