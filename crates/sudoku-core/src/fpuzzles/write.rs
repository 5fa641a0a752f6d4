//! Writing a variant as f-puzzles JSON, and saying which rules f-puzzles cannot express.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use crate::variant::{Diagonal, Line, Relation, Rule, Variant, cell_name};

use super::FPuzzlesError;
use super::read::normalised;

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
pub(super) fn write(v: &Variant) -> (Map<String, Value>, Vec<FPuzzlesError>) {
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
