//! The f-puzzles reader and writer: every key, every error, the link forms, and round trips.

use sudoku_core::fpuzzles::{self, FPuzzlesError};
use sudoku_core::variant::{Diagonal, Line, Relation, Rule, Variant, VariantError};

/// An f-puzzles JSON of `size` with an empty grid and `extra` keys (a JSON fragment, or "").
fn fp(size: usize, extra: &str) -> String {
    let row = format!("[{}]", vec!["{}"; size].join(","));
    let grid = format!("[{}]", vec![row; size].join(","));
    let extra = if extra.is_empty() {
        String::new()
    } else {
        format!(",{extra}")
    };
    format!(r#"{{"size":{size},"grid":{grid}{extra}}}"#)
}

fn rules(size: usize, extra: &str) -> Vec<Rule> {
    match fpuzzles::read(&fp(size, extra)) {
        Ok(v) => v.rules().to_vec(),
        Err(e) => panic!("{extra}: {e}"),
    }
}

fn error(text: &str) -> FPuzzlesError {
    match fpuzzles::read(text) {
        Ok(v) => panic!("{text} read as {v:?}"),
        Err(e) => e,
    }
}

fn message(size: usize, extra: &str) -> String {
    error(&fp(size, extra)).to_string()
}

/// Row-major index of the 1-based cell on a grid of 9.
fn c9(r: usize, c: usize) -> usize {
    (r - 1) * 9 + c - 1
}

// ---------------------------------------------------------------------------------------------
// The keys.

#[test]
fn boolean_keys() {
    assert_eq!(
        rules(
            9,
            r#""diagonal+":true,"diagonal-":true,"antiknight":true,"antiking":true,"disjointgroups":true,"nonconsecutive":true"#
        ),
        vec![
            Rule::Diagonal(Diagonal::Positive),
            Rule::Diagonal(Diagonal::Negative),
            Rule::AntiKnight,
            Rule::AntiKing,
            Rule::DisjointGroups,
            Rule::NonConsecutive,
        ]
    );
    assert_eq!(
        rules(
            9,
            r#""diagonal+":false,"diagonal-":false,"antiknight":false,"antiking":false,"disjointgroups":false,"nonconsecutive":false"#
        ),
        vec![]
    );
    assert!(message(9, r#""antiknight":"yes""#).starts_with("antiknight 1:"));
}

#[test]
fn extra_regions_and_cages() {
    assert_eq!(
        rules(
            9,
            r#""extraregion":[{"cells":["R2C2","R2C3","R3C2"]}],"killercage":[{"cells":["R1C1","R1C2"],"value":"3"},{"cells":["R9C9"]},{"cells":["R8C8","R8C9"],"value":""},{"cells":["R7C7","R7C8"],"value":17}]"#
        ),
        vec![
            Rule::ExtraRegion(vec![c9(2, 2), c9(2, 3), c9(3, 2)]),
            Rule::Cage {
                cells: vec![0, 1],
                sum: Some(3)
            },
            Rule::Cage {
                cells: vec![80],
                sum: None
            },
            Rule::Cage {
                cells: vec![c9(8, 8), c9(8, 9)],
                sum: None
            },
            Rule::Cage {
                cells: vec![c9(7, 7), c9(7, 8)],
                sum: Some(17)
            },
        ]
    );
}

#[test]
fn little_killers_follow_the_arrow_from_outside() {
    let lk = |cell: &str, direction: &str| {
        rules(
            9,
            &format!(
                r#""littlekillersum":[{{"cell":"{cell}","direction":"{direction}","value":"9"}}]"#
            ),
        )
    };
    let cells = |v: Vec<Rule>| match &v[..] {
        [Rule::LittleKiller { cells, sum: 9 }] => cells.clone(),
        other => panic!("{other:?}"),
    };
    // Above the grid over column 1, pointing down-right: R1C2, R2C3 ... R8C9.
    assert_eq!(
        cells(lk("R0C1", "DR")),
        (1..=8).map(|r| c9(r, r + 1)).collect::<Vec<_>>()
    );
    // Left of row 3, pointing up-right: R2C1, R1C2.
    assert_eq!(cells(lk("R3C0", "UR")), vec![c9(2, 1), c9(1, 2)]);
    // Below the grid, pointing up-left from R10C10 (a corner): the whole diagonal.
    assert_eq!(
        cells(lk("R10C10", "UL")),
        (1..=9).rev().map(|r| c9(r, r)).collect::<Vec<_>>()
    );
    // Right of row 1, pointing down-left: the anti-diagonal.
    assert_eq!(
        cells(lk("R0C10", "DL")),
        (1..=9).map(|r| c9(r, 10 - r)).collect::<Vec<_>>()
    );
    // A clue with no number is only an arrow: no rule.
    assert_eq!(
        rules(
            9,
            r#""littlekillersum":[{"cell":"R0C1","direction":"DR","value":""}]"#
        ),
        vec![]
    );
    let away = message(
        9,
        r#""littlekillersum":[{"cell":"R0C1","direction":"UR","value":"5"}]"#,
    );
    assert!(
        away.contains("littlekillersum 1") && away.contains("R0C1"),
        "{away}"
    );
    let inside = message(
        9,
        r#""littlekillersum":[{"cell":"R5C5","direction":"UR","value":"5"}]"#,
    );
    assert!(
        inside.contains("littlekillersum 1") && inside.contains("R5C5"),
        "{inside}"
    );
    let direction = message(
        9,
        r#""littlekillersum":[{"cell":"R0C1","direction":"N","value":"5"}]"#,
    );
    assert!(
        direction.contains("littlekillersum 1") && direction.contains("\"N\""),
        "{direction}"
    );
}

#[test]
fn sandwiches_name_a_row_or_column_from_any_side() {
    assert_eq!(
        rules(
            9,
            r#""sandwichsum":[{"cell":"R0C3","value":"11"},{"cell":"R5C10","value":"0"},{"cell":"R2C0","value":"35"},{"cell":"R10C9","value":"4"},{"cell":"R0C4"}]"#
        ),
        vec![
            Rule::Sandwich {
                line: Line::Column(2),
                sum: 11
            },
            Rule::Sandwich {
                line: Line::Row(4),
                sum: 0
            },
            Rule::Sandwich {
                line: Line::Row(1),
                sum: 35
            },
            Rule::Sandwich {
                line: Line::Column(8),
                sum: 4
            },
        ]
    );
    let corner = message(9, r#""sandwichsum":[{"cell":"R0C0","value":"5"}]"#);
    assert!(
        corner.contains("sandwichsum 1") && corner.contains("R0C0"),
        "{corner}"
    );
    let big = message(9, r#""sandwichsum":[{"cell":"R0C1","value":"36"}]"#);
    assert!(
        big.starts_with("sandwichsum 1 at R1C1: no values 1-9 can make 36"),
        "{big}"
    );
}

#[test]
fn thermometers_one_per_line() {
    assert_eq!(
        rules(
            9,
            r#""thermometer":[{"lines":[["R1C1","R1C2","R1C3"],["R1C1","R2C1"]]},{"lines":[["R9C9"]]}]"#
        ),
        vec![
            Rule::Thermometer(vec![0, 1, 2]),
            Rule::Thermometer(vec![0, 9]),
            Rule::Thermometer(vec![80]),
        ]
    );
}

#[test]
fn arrows_one_rule_per_line_from_the_circle() {
    assert_eq!(
        rules(
            9,
            r#""arrow":[{"cells":["R1C1"],"lines":[["R1C1","R1C2","R1C3"],["R1C1","R2C2"]]},{"cells":["R5C5","R5C6"],"lines":[["R5C6","R5C7","R5C8"]]}]"#
        ),
        vec![
            Rule::Arrow {
                circle: vec![0],
                shaft: vec![1, 2]
            },
            Rule::Arrow {
                circle: vec![0],
                shaft: vec![c9(2, 2)]
            },
            Rule::Arrow {
                circle: vec![c9(5, 5), c9(5, 6)],
                shaft: vec![c9(5, 7), c9(5, 8)]
            },
        ]
    );
    let outside = message(
        9,
        r#""arrow":[{"cells":["R1C1"],"lines":[["R1C2","R1C3"]]}]"#,
    );
    assert!(
        outside.contains("arrow 1") && outside.contains("R1C2"),
        "{outside}"
    );
    let bare = message(9, r#""arrow":[{"cells":["R1C1"],"lines":[]}]"#);
    assert!(bare.starts_with("arrow 1:"), "{bare}");
    let stub = message(9, r#""arrow":[{"cells":["R1C1"],"lines":[["R1C1"]]}]"#);
    assert!(stub.starts_with("arrow 1:"), "{stub}");
}

#[test]
fn dots_and_xv() {
    let pair = |a, b, relation| Rule::Pair {
        cells: [a, b],
        relation,
    };
    assert_eq!(
        rules(
            9,
            r#""difference":[{"cells":["R1C1","R1C2"]},{"cells":["R2C1","R2C2"],"value":"3"}],"ratio":[{"cells":["R3C1","R3C2"]},{"cells":["R4C1","R4C2"],"value":3}],"xv":[{"cells":["R5C1","R5C2"],"value":"X"},{"cells":["R6C1","R6C2"],"value":"v"}]"#
        ),
        vec![
            pair(0, 1, Relation::Difference(1)),
            pair(9, 10, Relation::Difference(3)),
            pair(18, 19, Relation::Ratio(2)),
            pair(27, 28, Relation::Ratio(3)),
            pair(36, 37, Relation::Sum(10)),
            pair(45, 46, Relation::Sum(5)),
        ]
    );
    let apart = message(9, r#""ratio":[{"cells":["R1C1","R3C1"]}]"#);
    assert!(
        apart.starts_with("ratio 1:") && apart.contains("R3C1"),
        "{apart}"
    );
    let three = message(9, r#""difference":[{"cells":["R1C1","R1C2","R1C3"]}]"#);
    assert!(three.starts_with("difference 1:"), "{three}");
    let xv = message(9, r#""xv":[{"cells":["R1C1","R1C2"],"value":"Y"}]"#);
    assert!(xv.starts_with("xv 1:") && xv.contains("\"Y\""), "{xv}");
    let zero = message(9, r#""difference":[{"cells":["R1C1","R1C2"],"value":"0"}]"#);
    assert!(zero.starts_with("difference 1:"), "{zero}");
}

#[test]
fn parity() {
    assert_eq!(
        rules(
            9,
            r#""odd":[{"cell":"R1C1"}],"even":[{"cell":"R2C2"},{"cell":"R3C3"}]"#
        ),
        vec![
            Rule::Parity {
                cell: c9(2, 2),
                even: true
            },
            Rule::Parity {
                cell: c9(3, 3),
                even: true
            },
            Rule::Parity {
                cell: 0,
                even: false
            },
        ]
    );
}

#[test]
fn negative_constraints_exempt_the_pairs_with_a_marker_of_their_kind() {
    let kropki = r#""difference":[{"cells":["R1C2","R1C1"]}],"ratio":[{"cells":["R2C1","R2C2"]},{"cells":["R3C1","R3C2"],"value":"3"}]"#;
    let xv = r#""xv":[{"cells":["R5C1","R5C2"],"value":"X"}]"#;
    let read = rules(
        9,
        &format!(r#"{kropki},{xv},"nonconsecutive":true,"negative":["ratio","xv"]"#),
    );
    let dotted = vec![[0, 1], [9, 10], [18, 19]];
    assert_eq!(
        read[4..],
        [
            Rule::Negative {
                relation: Relation::Difference(1),
                except: dotted.clone()
            },
            Rule::Negative {
                relation: Relation::Ratio(2),
                except: dotted.clone()
            },
            Rule::Negative {
                relation: Relation::Ratio(3),
                except: dotted.clone()
            },
            Rule::Negative {
                relation: Relation::Sum(5),
                except: vec![[36, 37]]
            },
            Rule::Negative {
                relation: Relation::Sum(10),
                except: vec![[36, 37]]
            },
        ]
    );
    // With no dots at all, negative ratio is the black dot's 2, and nonconsecutive is plain.
    assert_eq!(
        rules(9, r#""negative":["ratio"],"nonconsecutive":true"#),
        vec![
            Rule::NonConsecutive,
            Rule::Negative {
                relation: Relation::Ratio(2),
                except: vec![]
            }
        ]
    );
    assert_eq!(rules(9, r#""negative":[]"#), vec![]);
    assert_eq!(
        error(&fp(9, r#""negative":["sum"]"#)),
        FPuzzlesError::UnsupportedNegative { kind: "sum".into() }
    );
}

// ---------------------------------------------------------------------------------------------
// The grid.

#[test]
fn only_given_digits_are_givens() {
    let text = r##"{"size":4,"grid":[[{"value":1,"given":true},{"value":2},{"value":3,"given":false},{}],
        [{},{},{},{}],[{},{},{},{}],[{},{},{},{"value":4,"given":true,"centerPencilMarks":[1],"c":"#FF0000"}]]}"##;
    let v = fpuzzles::read(text).expect("reads");
    assert_eq!(v.givens()[..4], [1, 0, 0, 0]);
    assert_eq!(v.givens()[15], 4);
    assert!(v.has_default_regions());
}

#[test]
fn default_regions_are_f_puzzles_boxes_for_every_size() {
    // (box rows, box columns) as f-puzzles draws them; a prime side has rows for regions.
    let shapes = [
        (1, 1, 1),
        (2, 1, 2),
        (3, 1, 3),
        (4, 2, 2),
        (5, 1, 5),
        (6, 2, 3),
        (7, 1, 7),
        (8, 2, 4),
        (9, 3, 3),
        (10, 2, 5),
        (11, 1, 11),
        (12, 3, 4),
        (13, 1, 13),
        (14, 2, 7),
        (15, 3, 5),
        (16, 4, 4),
    ];
    for (side, rows, cols) in shapes {
        let expected: Vec<u8> = (0..side * side)
            .map(|i| ((i / side / rows) * (side / cols) + (i % side) / cols) as u8)
            .collect();
        assert_eq!(Variant::default_regions(side), expected, "side {side}");
        let v = fpuzzles::read(&fp(side, "")).expect("reads");
        assert_eq!(v.regions(), &expected[..], "side {side}");
    }
}

#[test]
fn regions_given_for_some_cells_keep_the_default_for_the_rest() {
    // Swap R2C2 (box 0) and R2C3 (box 1) on a 4x4.
    let text = r#"{"size":4,"grid":[[{},{},{},{}],[{},{"region":1},{"region":0},{}],[{},{},{},{}],[{},{},{},{}]]}"#;
    let v = fpuzzles::read(text).expect("reads");
    assert_eq!(
        v.regions(),
        &[0, 0, 1, 1, 0, 1, 0, 1, 2, 2, 3, 3, 2, 2, 3, 3]
    );
}

#[test]
fn grid_errors() {
    assert!(matches!(
        error(r#"{"grid":[]}"#),
        FPuzzlesError::Size { .. }
    ));
    assert!(error(r#"{"size":17,"grid":[]}"#).to_string().contains("17"));
    assert!(
        error(r#"{"size":0,"grid":[]}"#)
            .to_string()
            .contains("size is 0")
    );
    assert!(
        error(r#"{"size":"9","grid":[]}"#)
            .to_string()
            .contains("\"9\"")
    );
    assert_eq!(
        error(r#"{"size":2}"#),
        FPuzzlesError::Grid {
            reason: "is missing".into()
        }
    );
    assert!(
        error(r#"{"size":2,"grid":[[{},{}]]}"#)
            .to_string()
            .contains("1 rows")
    );
    assert!(
        error(r#"{"size":2,"grid":[[{},{}],[{}]]}"#)
            .to_string()
            .contains("row 2 has 1 cells")
    );
    let value = error(r#"{"size":2,"grid":[[{},{}],[{},{"value":3,"given":true}]]}"#);
    assert_eq!(
        value.to_string(),
        "the value 3 at R2C2 is out of range: expected 1 to 2, or 0 for empty"
    );
    // Even a digit that is not a given must be one the grid can hold.
    let typed = error(r#"{"size":2,"grid":[[{"value":-1},{}],[{},{}]]}"#);
    assert!(typed.to_string().contains("R1C1"), "{typed}");
    let region = error(r#"{"size":2,"grid":[[{"region":2},{}],[{},{}]]}"#);
    assert!(region.to_string().contains("R1C1"), "{region}");
    let nowhere = error(r#"{"size":2,"grid":[[{"region":null},{}],[{},{}]]}"#);
    assert!(nowhere.to_string().contains("R1C1"), "{nowhere}");
    // Three cells in region 0 of a 2x2.
    let sizes = error(r#"{"size":2,"grid":[[{},{}],[{"region":0},{}]]}"#);
    assert!(
        matches!(sizes, FPuzzlesError::Variant(VariantError::Region { .. })),
        "{sizes}"
    );
    let marks = error(r#"{"size":2,"grid":[[{"givenPencilMarks":[1]},{}],[{},{}]]}"#);
    assert_eq!(
        marks,
        FPuzzlesError::CellField {
            cell: "R1C1".into(),
            field: "givenPencilMarks".into()
        }
    );
    // JSON that is not an object, reached through the base64.
    assert_eq!(
        error(&lz_str::compress_to_base64("[1,2]")),
        FPuzzlesError::NotObject
    );
}

// ---------------------------------------------------------------------------------------------
// Cells and errors that name where.

#[test]
fn cell_references() {
    let bad = error(&fp(
        9,
        r#""killercage":[{"cells":["R1C1"]},{"cells":["R1C1","X5"]}]"#,
    ));
    assert_eq!(
        bad,
        FPuzzlesError::CellName {
            key: "killercage".into(),
            index: 2,
            cell: "X5".into()
        }
    );
    assert_eq!(
        bad.to_string(),
        "killercage 2: \"X5\" is not a cell (expected RnCn)"
    );
    let outside = error(&fp(9, r#""thermometer":[{"lines":[["R9C9","R10C9"]]}]"#));
    assert_eq!(
        outside.to_string(),
        "thermometer 1: R10C9 is outside the 9x9 grid"
    );
    let zero = message(9, r#""even":[{"cell":"R0C1"}]"#);
    assert_eq!(zero, "even 1: R0C1 is outside the 9x9 grid");
    for bad in ["R1", "C1R1", "R1C", "RC1", "R1C1x", "R-1C1", "R1C1234"] {
        let m = message(9, &format!(r#""odd":[{{"cell":"{bad}"}}]"#));
        assert!(m.starts_with("odd 1:") && m.contains(bad), "{m}");
    }
    // Lower case and two digits read.
    assert_eq!(
        rules(16, r#""odd":[{"cell":"r16c10"}]"#),
        vec![Rule::Parity {
            cell: 15 * 16 + 9,
            even: false
        }]
    );
    let number = message(9, r#""odd":[{"cell":5}]"#);
    assert!(number.starts_with("odd 1:"), "{number}");
    let missing = message(9, r#""odd":[{"c":"R1C1"}]"#);
    assert!(
        missing.starts_with("odd 1:") && missing.contains("cell"),
        "{missing}"
    );
    let shape = message(9, r#""odd":{"cell":"R1C1"}"#);
    assert!(shape.starts_with("odd 1:"), "{shape}");
}

#[test]
fn impossible_rules_name_the_key_entry_and_cell() {
    assert_eq!(
        message(
            9,
            r#""killercage":[{"cells":["R1C1"],"value":"1"},{"cells":["R1C2"],"value":"2"},{"cells":["R3C4","R3C5"],"value":"50"}]"#
        ),
        "killercage 3 at R3C4: no values 1-9 can make 50"
    );
    let twice = message(9, r#""extraregion":[{"cells":["R1C1","R1C1"]}]"#);
    assert!(
        twice.starts_with("extraregion 1: ") && twice.contains("R1C1 twice"),
        "{twice}"
    );
    let sum = message(9, r#""killercage":[{"cells":["R1C1"],"value":"ten"}]"#);
    assert_eq!(sum, "killercage 1: the value \"ten\" is not a whole number");
    let lk = message(
        9,
        r#""littlekillersum":[{"cell":"R0C2","direction":"DL","value":"10"}]"#,
    );
    assert_eq!(lk, "littlekillersum 1 at R1C1: no values 1-9 can make 10");
    let pill = message(
        9,
        r#""arrow":[{"cells":["R1C1","R1C2","R1C3"],"lines":[["R1C3","R2C3"]]}]"#,
    );
    assert!(
        pill.starts_with("arrow 1: ") && pill.contains("circle of 3"),
        "{pill}"
    );
}

// ---------------------------------------------------------------------------------------------
// Keys that are not rules, and rules that are not supported.

#[test]
fn cosmetic_keys_are_skipped() {
    let cosmetic = r##""title":"t","author":"a","ruleset":"r","text":[{"cells":["R1C1"],"value":"hi"}],
        "line":[{"lines":[["R1C1","R2C2"]],"outlineC":"#000","width":0.5,"isNewConstraint":false}],
        "rectangle":[{"cells":["R1C1"],"baseC":"#fff"}],"circle":[{"cells":["R1C1"],"value":"4"}],
        "cage":[{"cells":["R1C1","R1C2"],"value":"15","outlineC":"#000"}],"highlighted":[],
        "solution":[1,2,3],"disabledlogic":["tuples"],"truecandidatesoptions":["colored"]"##;
    assert_eq!(rules(9, cosmetic), vec![]);
}

#[test]
fn unsupported_rules_are_errors_by_name() {
    for key in [
        "palindrome",
        "renban",
        "whispers",
        "betweenline",
        "entropicline",
        "regionsumline",
        "slowthermometer",
    ] {
        let e = error(&fp(
            9,
            &format!(r#""{key}":[{{"lines":[["R1C1","R1C2"]]}}]"#),
        ));
        assert_eq!(e, FPuzzlesError::Unsupported { key: key.into() });
        assert!(e.to_string().contains(key));
        // Empty, the key holds no rule.
        assert!(fpuzzles::read(&fp(9, &format!(r#""{key}":[]"#))).is_ok());
    }
    for (key, entry) in [
        ("clone", r#"[{"cells":["R1C1"],"cloneCells":["R9C9"]}]"#),
        (
            "quadruple",
            r#"[{"cells":["R1C1","R1C2","R2C1","R2C2"],"values":[1]}]"#,
        ),
        ("minimum", r#"[{"cell":"R1C1"}]"#),
        ("maximum", r#"[{"cell":"R1C1"}]"#),
        ("xsum", r#"[{"cell":"R0C1","value":"5"}]"#),
        ("skyscraper", r#"[{"cell":"R0C1","value":"5"}]"#),
        ("rowindexer", r#"[{"cells":["R1C1"]}]"#),
        ("someday", "true"),
    ] {
        assert_eq!(
            error(&fp(9, &format!(r#""{key}":{entry}"#))),
            FPuzzlesError::Unsupported { key: key.into() }
        );
    }
    assert!(fpuzzles::read(&fp(9, r#""someday":false"#)).is_ok());
    let root = message(9, r#""cage":[{"cells":["R1C1","R1C2"],"value":"DR5"}]"#);
    assert!(root.contains("cage") && root.contains("DR5"), "{root}");
    let cell_field = error(r#"{"size":1,"grid":[[{"wobble":1}]]}"#);
    assert_eq!(
        cell_field,
        FPuzzlesError::CellField {
            cell: "R1C1".into(),
            field: "wobble".into()
        }
    );
}

// ---------------------------------------------------------------------------------------------
// The outer layers: JSON, base64, links.

#[test]
fn malformed_text() {
    assert_eq!(error("  "), FPuzzlesError::Empty);
    match error("{\"size\": 9,\n \"grid\": [}") {
        FPuzzlesError::Json {
            what: "JSON",
            line: 2,
            column,
            ..
        } => assert!(column > 1),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        error("N4Ig-zgl"),
        FPuzzlesError::Base64 {
            position: 5,
            character: '-'
        }
    );
    assert!(matches!(
        error("AAAA"),
        FPuzzlesError::Decompress
            | FPuzzlesError::Json {
                what: "decompressed JSON",
                ..
            }
    ));
    // Valid LZ-String of text that is not JSON.
    let not_json = lz_str::compress_to_base64("hello");
    assert!(matches!(
        error(&not_json),
        FPuzzlesError::Json {
            what: "decompressed JSON",
            ..
        }
    ));
    assert_eq!(
        error("https://www.f-puzzles.com/?load=N4Ig%2"),
        FPuzzlesError::UrlEscape { position: 5 }
    );
    assert!(matches!(
        error("https://www.f-puzzles.com/?load="),
        FPuzzlesError::Decompress
    ));
}

#[test]
fn link_forms() {
    let v = fpuzzles::read(&fp(
        4,
        r#""killercage":[{"cells":["R1C1","R1C2"],"value":"7"}],"diagonal+":true"#,
    ))
    .expect("reads");
    let base64 = fpuzzles::to_base64(&v);
    let encoded = base64
        .replace('+', "%2B")
        .replace('/', "%2f")
        .replace('=', "%3D");
    for text in [
        base64.clone(),
        format!("  {base64}\n"),
        fpuzzles::to_url(&v),
        format!("f-puzzles.com/?load={base64}"),
        format!("www.f-puzzles.com/?load={base64}&other=1"),
        format!("https://f-puzzles.com/?load={encoded}"),
        format!("https://www.f-puzzles.com/?load={encoded}#top"),
        // A link wrapped across lines when pasted.
        format!(
            "https://www.f-puzzles.com/?load={}\n{}",
            &base64[..10],
            &base64[10..]
        ),
    ] {
        assert_eq!(fpuzzles::read(&text).as_ref(), Ok(&v), "{text}");
    }
}

// ---------------------------------------------------------------------------------------------
// The samples: hand-written in f-puzzles' own style, their links made by the reference JavaScript
// LZ-String (1.5.0, what f-puzzles runs), not by this crate.

fn sample(name: &str) -> String {
    let path = format!(
        "{}/../../tests/data/variants/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The killer sample's solution: the pattern grid, row r shifted by 3r + r/3.
fn pattern_solution() -> Vec<u8> {
    (0..81)
        .map(|i| (((i / 9) * 3 + (i / 9) / 3 + i % 9) % 9 + 1) as u8)
        .collect()
}

#[test]
fn killer_sample() {
    let v = fpuzzles::read(&sample("killer.fpuzzles.json")).expect("reads");
    assert_eq!(v.side(), 9);
    assert!(v.has_default_regions());
    let solution = pattern_solution();
    let mut givens = [0u8; 81];
    for (r, c) in [(1, 5), (5, 1), (9, 9), (3, 7), (7, 3)] {
        givens[c9(r, c)] = solution[c9(r, c)];
    }
    // R4C4 holds a digit the solver typed in: not a given.
    assert_eq!(v.givens(), &givens[..]);
    assert_eq!(
        v.rules(),
        &[
            Rule::Cage {
                cells: vec![c9(1, 1), c9(1, 2)],
                sum: Some(3)
            },
            Rule::Cage {
                cells: vec![c9(2, 1), c9(3, 1)],
                sum: Some(11)
            },
            Rule::Cage {
                cells: vec![c9(5, 5), c9(5, 6), c9(6, 5)],
                sum: Some(13)
            },
            Rule::Cage {
                cells: vec![c9(9, 8), c9(9, 9)],
                sum: None
            },
            Rule::LittleKiller {
                cells: (1..=8).map(|r| c9(r, r + 1)).collect(),
                sum: 27
            },
            Rule::Sandwich {
                line: Line::Column(2),
                sum: 11
            },
            Rule::Sandwich {
                line: Line::Row(4),
                sum: 0
            },
        ]
    );
    assert!(v.is_solved_by(&solution));
    let link = fpuzzles::read(&sample("killer.fpuzzles.url")).expect("reads the link");
    assert_eq!(link, v);
}

#[test]
fn jigsaw_sample() {
    let v = fpuzzles::read(&sample("jigsaw.fpuzzles.json")).expect("reads");
    let layout = "000111002211022331422335443355444555";
    let regions: Vec<u8> = layout.bytes().map(|b| b - b'0').collect();
    assert_eq!(v.regions(), &regions[..]);
    assert!(!v.has_default_regions());
    assert_eq!(v.rules(), &[]);
    let solution: Vec<u8> = "123456456213614532235641342165561324"
        .bytes()
        .map(|b| b - b'0')
        .collect();
    let mut givens = [0u8; 36];
    for (r, c) in [
        (0, 0),
        (1, 3),
        (2, 5),
        (3, 1),
        (4, 4),
        (5, 2),
        (0, 5),
        (5, 0),
    ] {
        givens[r * 6 + c] = solution[r * 6 + c];
    }
    assert_eq!(v.givens(), &givens[..]);
    assert!(v.is_solved_by(&solution));
    assert_eq!(
        fpuzzles::read(&sample("jigsaw.fpuzzles.txt")).expect("reads the base64"),
        v
    );
}

// ---------------------------------------------------------------------------------------------
// Writing, and round trips.

/// A 9x9 with every rule f-puzzles can express, in the order the reader emits them.
fn every_rule() -> Variant {
    let mut givens = vec![0u8; 81];
    givens[40] = 5;
    let dots = vec![
        [c9(4, 1), c9(4, 2)],
        [c9(5, 1), c9(5, 2)],
        [c9(6, 1), c9(6, 2)],
    ];
    let rules = vec![
        Rule::Diagonal(Diagonal::Positive),
        Rule::Diagonal(Diagonal::Negative),
        Rule::AntiKnight,
        Rule::AntiKing,
        Rule::DisjointGroups,
        Rule::ExtraRegion(vec![c9(2, 2), c9(2, 3), c9(3, 2), c9(3, 3)]),
        Rule::Cage {
            cells: vec![c9(1, 1), c9(1, 2)],
            sum: Some(3),
        },
        Rule::Cage {
            cells: vec![c9(9, 9)],
            sum: None,
        },
        Rule::LittleKiller {
            cells: (1..=8).map(|r| c9(r, r + 1)).collect(),
            sum: 40,
        },
        Rule::LittleKiller {
            cells: vec![c9(9, 1)],
            sum: 4,
        },
        Rule::Sandwich {
            line: Line::Row(3),
            sum: 12,
        },
        Rule::Sandwich {
            line: Line::Column(7),
            sum: 0,
        },
        Rule::Thermometer(vec![c9(7, 7), c9(7, 8), c9(8, 8)]),
        Rule::Arrow {
            circle: vec![c9(1, 9)],
            shaft: vec![c9(2, 8), c9(3, 7)],
        },
        Rule::Arrow {
            circle: vec![c9(9, 4), c9(9, 5)],
            shaft: vec![c9(8, 5), c9(8, 6), c9(8, 7)],
        },
        Rule::Pair {
            cells: dots[0],
            relation: Relation::Difference(1),
        },
        Rule::Pair {
            cells: dots[1],
            relation: Relation::Difference(4),
        },
        Rule::Pair {
            cells: dots[2],
            relation: Relation::Ratio(3),
        },
        Rule::Pair {
            cells: [c9(7, 1), c9(8, 1)],
            relation: Relation::Sum(10),
        },
        Rule::Pair {
            cells: [c9(7, 2), c9(8, 2)],
            relation: Relation::Sum(5),
        },
        Rule::Parity {
            cell: c9(9, 2),
            even: true,
        },
        Rule::Parity {
            cell: c9(9, 3),
            even: false,
        },
        Rule::Negative {
            relation: Relation::Difference(1),
            except: dots.clone(),
        },
        Rule::Negative {
            relation: Relation::Ratio(3),
            except: dots.clone(),
        },
        Rule::Negative {
            relation: Relation::Sum(5),
            except: vec![[c9(7, 1), c9(8, 1)], [c9(7, 2), c9(8, 2)]],
        },
        Rule::Negative {
            relation: Relation::Sum(10),
            except: vec![[c9(7, 1), c9(8, 1)], [c9(7, 2), c9(8, 2)]],
        },
    ];
    Variant::new(9, givens, Variant::default_regions(9), rules).expect("well formed")
}

#[test]
fn every_rule_round_trips() {
    let v = every_rule();
    let json = fpuzzles::try_to_json(&v).expect("expressible");
    assert_eq!(fpuzzles::to_json(&v), json);
    assert_eq!(fpuzzles::read(&json), Ok(v.clone()));
    assert_eq!(fpuzzles::read(&fpuzzles::to_base64(&v)), Ok(v.clone()));
    assert_eq!(fpuzzles::read(&fpuzzles::to_url(&v)), Ok(v.clone()));
}

#[test]
fn a_jigsaw_with_nonconsecutive_round_trips() {
    // Regions as rows: a jigsaw of sorts, and every region number written per cell.
    let regions: Vec<u8> = (0..36).map(|i| (i / 6) as u8).collect();
    let v = Variant::new(6, vec![0; 36], regions, vec![Rule::NonConsecutive]).expect("well formed");
    assert_eq!(fpuzzles::read(&fpuzzles::to_url(&v)), Ok(v));
}

#[test]
fn what_f_puzzles_cannot_say_is_refused_by_name() {
    let v = Variant::new(
        9,
        vec![0; 81],
        Variant::default_regions(9),
        vec![
            Rule::AntiKing,
            Rule::LittleKiller {
                cells: vec![c9(2, 2), c9(3, 3)],
                sum: 5,
            },
            Rule::Pair {
                cells: [0, 1],
                relation: Relation::Sum(7),
            },
        ],
    )
    .expect("well formed");
    let e = fpuzzles::try_to_json(&v).expect_err("inexpressible");
    assert!(
        matches!(e, FPuzzlesError::Inexpressible { rule: 2, .. }),
        "{e}"
    );
    // to_json marks them, and reading it back refuses them instead of losing them.
    let json = fpuzzles::to_json(&v);
    assert_eq!(
        fpuzzles::read(&json),
        Err(FPuzzlesError::Unsupported {
            key: fpuzzles::INEXPRESSIBLE_KEY.into()
        })
    );
    // NonConsecutive beside dots: f-puzzles would exempt the dotted pair.
    let v = Variant::new(
        9,
        vec![0; 81],
        Variant::default_regions(9),
        vec![
            Rule::NonConsecutive,
            Rule::Pair {
                cells: [0, 1],
                relation: Relation::Ratio(2),
            },
        ],
    )
    .expect("well formed");
    assert!(fpuzzles::try_to_json(&v).is_err());
}

mod round_trip {
    use super::*;
    use proptest::prelude::*;
    use proptest::sample::{Index, subsequence};

    /// The reader's order of rule kinds; a stable sort by it puts generated rules in that order.
    fn rank(rule: &Rule) -> usize {
        match rule {
            Rule::Diagonal(Diagonal::Positive) => 0,
            Rule::Diagonal(Diagonal::Negative) => 1,
            Rule::AntiKnight => 2,
            Rule::AntiKing => 3,
            Rule::DisjointGroups => 4,
            Rule::NonConsecutive => 5,
            Rule::ExtraRegion(_) => 6,
            Rule::Cage { .. } => 7,
            Rule::LittleKiller { .. } => 8,
            Rule::Sandwich { .. } => 9,
            Rule::Thermometer(_) => 10,
            Rule::Arrow { .. } => 11,
            Rule::Pair {
                relation: Relation::Difference(_),
                ..
            } => 12,
            Rule::Pair {
                relation: Relation::Ratio(_),
                ..
            } => 13,
            Rule::Pair { .. } => 14,
            Rule::Parity { even: true, .. } => 15,
            Rule::Parity { .. } => 16,
            Rule::Negative { .. } => 17,
        }
    }

    /// Random rules of every kind on a grid of `side`, from a stream of choices.
    fn random_rules(side: usize, picks: &[(u8, Index, Index, Index)], flags: u16) -> Vec<Rule> {
        let n = side * side;
        let mut rules = Vec::new();
        for (bit, rule) in [
            Rule::Diagonal(Diagonal::Positive),
            Rule::Diagonal(Diagonal::Negative),
            Rule::AntiKnight,
            Rule::AntiKing,
            Rule::DisjointGroups,
        ]
        .into_iter()
        .enumerate()
        {
            if flags & (1 << bit) != 0 {
                rules.push(rule);
            }
        }
        // Distinct cells from a start and a stride.
        let cells = |start: &Index, len: usize, stride: usize| -> Vec<usize> {
            let first = start.index(n);
            let mut out: Vec<usize> = Vec::new();
            // The stride's orbit, then the cells in order: at most 2n steps, whatever the stride.
            for at in (0..n).map(|k| (first + k * stride) % n).chain(0..n) {
                if out.len() == len.min(n) {
                    break;
                }
                if !out.contains(&at) {
                    out.push(at);
                }
            }
            out
        };
        let neighbour = |cell: usize, which: usize| -> Option<usize> {
            let (r, c) = (cell / side, cell % side);
            match which % 2 {
                0 => (c + 1 < side).then_some(cell + 1),
                _ => (r + 1 < side).then_some(cell + side),
            }
        };
        for (kind, a, b, c) in picks {
            let len = 1 + b.index(side);
            match kind % 11 {
                0 => rules.push(Rule::ExtraRegion(cells(a, len, 1 + c.index(7)))),
                1 => {
                    let cage = cells(a, len, 1 + c.index(5));
                    let low = (len * (len + 1) / 2) as u32;
                    let high = (len * (2 * side - len + 1) / 2) as u32;
                    let sum =
                        (c.index(3) > 0).then(|| low + c.index((high - low + 1) as usize) as u32);
                    rules.push(Rule::Cage { cells: cage, sum });
                }
                2 => {
                    // A clue on the border and a direction; keep it if it enters the grid.
                    let s = side as isize;
                    let edge = a.index(4 * side);
                    let (r, col) = match edge / side {
                        0 => (-1, (edge % side) as isize),
                        1 => (s, (edge % side) as isize),
                        2 => ((edge % side) as isize, -1),
                        _ => ((edge % side) as isize, s),
                    };
                    let (dr, dc) = [(1, 1), (1, -1), (-1, 1), (-1, -1)][b.index(4)];
                    let (mut rr, mut cc) = (r + dr, col + dc);
                    let mut ray = Vec::new();
                    while (0..s).contains(&rr) && (0..s).contains(&cc) {
                        ray.push((rr * s + cc) as usize);
                        rr += dr;
                        cc += dc;
                    }
                    if !ray.is_empty() {
                        let sum = ray.len() as u32 + c.index(ray.len() * (side - 1) + 1) as u32;
                        rules.push(Rule::LittleKiller { cells: ray, sum });
                    }
                }
                3 => {
                    let index = a.index(side);
                    let line = if b.index(2) == 0 {
                        Line::Row(index)
                    } else {
                        Line::Column(index)
                    };
                    let most = (side * (side - 1) / 2).saturating_sub(1);
                    rules.push(Rule::Sandwich {
                        line,
                        sum: c.index(most + 1) as u32,
                    });
                }
                4 => rules.push(Rule::Thermometer(cells(a, len, 1 + c.index(9)))),
                5 => {
                    let all = cells(a, 2 + b.index(side.max(2)), 1 + c.index(4));
                    if all.len() >= 2 {
                        let circle_len = if all.len() > 2 { 1 + c.index(2) } else { 1 };
                        rules.push(Rule::Arrow {
                            circle: all[..circle_len].to_vec(),
                            shaft: all[circle_len..].to_vec(),
                        });
                    }
                }
                6..=8 => {
                    let cell = a.index(n);
                    if let Some(other) = neighbour(cell, b.index(2)) {
                        let relation = match kind % 11 {
                            6 => Relation::Difference(1 + c.index(side.max(2) - 1) as u8),
                            7 => Relation::Ratio(2 + c.index(side.max(3) - 2) as u8),
                            _ => [Relation::Sum(5), Relation::Sum(10)][c.index(2)],
                        };
                        let possible = (1..=side as u8)
                            .any(|x| (1..=side as u8).any(|y| relation.holds(x, y)));
                        let taken = rules.iter().any(|r| {
                            matches!(r, Rule::Pair { cells, .. }
                            if super::same_pair(*cells, [cell, other]))
                        });
                        if possible && !taken {
                            let cells = if b.index(3) == 0 {
                                [other, cell]
                            } else {
                                [cell, other]
                            };
                            rules.push(Rule::Pair { cells, relation });
                        }
                    }
                }
                _ => rules.push(Rule::Parity {
                    cell: a.index(n),
                    even: b.index(2) == 0,
                }),
            }
        }
        // The negative constraints, as the reader builds them from the markers.
        let pairs = |family: &dyn Fn(&Relation) -> bool| -> Vec<[usize; 2]> {
            let mut out: Vec<[usize; 2]> = rules
                .iter()
                .filter_map(|r| match r {
                    Rule::Pair {
                        cells: [a, b],
                        relation,
                    } if family(relation) => Some([*a.min(b), *a.max(b)]),
                    _ => None,
                })
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        };
        let kropki = pairs(&|r| matches!(r, Relation::Difference(_) | Relation::Ratio(_)));
        let xv = pairs(&|r| matches!(r, Relation::Sum(_)));
        let mut negatives = Vec::new();
        if flags & (1 << 5) != 0 {
            if kropki.is_empty() {
                rules.push(Rule::NonConsecutive);
            } else {
                negatives.push(Rule::Negative {
                    relation: Relation::Difference(1),
                    except: kropki.clone(),
                });
            }
        }
        if flags & (1 << 6) != 0 {
            let mut ratios: Vec<u8> = rules
                .iter()
                .filter_map(|r| match r {
                    Rule::Pair {
                        relation: Relation::Ratio(x),
                        ..
                    } => Some(*x),
                    _ => None,
                })
                .collect();
            ratios.sort_unstable();
            ratios.dedup();
            if ratios.is_empty() {
                ratios.push(2);
            }
            for x in ratios {
                negatives.push(Rule::Negative {
                    relation: Relation::Ratio(x),
                    except: kropki.clone(),
                });
            }
        }
        if flags & (1 << 7) != 0 {
            for s in [5, 10] {
                negatives.push(Rule::Negative {
                    relation: Relation::Sum(s),
                    except: xv.clone(),
                });
            }
        }
        rules.sort_by_key(rank);
        rules.extend(negatives);
        rules
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn read_inverts_every_writer(
            side in 1usize..=16,
            picks in proptest::collection::vec(any::<(u8, Index, Index, Index)>(), 0..24),
            flags in any::<u16>(),
            givens in proptest::collection::vec(any::<Index>(), 256),
            jigsaw in any::<bool>(),
            keep in subsequence((0..256usize).collect::<Vec<_>>(), 0..40),
        ) {
            let n = side * side;
            let mut grid = vec![0u8; n];
            for &i in keep.iter().filter(|&&i| i < n) {
                grid[i] = givens[i].index(side + 1) as u8;
            }
            let regions = if jigsaw {
                (0..n).map(|i| (i / side) as u8).collect()
            } else {
                Variant::default_regions(side)
            };
            let rules = random_rules(side, &picks, flags);
            // The generator makes only rules the variant check accepts.
            let v = Variant::new(side, grid, regions, rules);
            prop_assert!(v.is_ok(), "{:?}", v);
            let Ok(v) = v else { return Ok(()) };
            let json = fpuzzles::try_to_json(&v);
            prop_assert!(json.is_ok(), "{:?}", json);
            prop_assert_eq!(fpuzzles::read(&fpuzzles::to_json(&v)), Ok(v.clone()));
            prop_assert_eq!(fpuzzles::read(&fpuzzles::to_base64(&v)), Ok(v.clone()));
            prop_assert_eq!(fpuzzles::read(&fpuzzles::to_url(&v)), Ok(v.clone()));
        }

        #[test]
        fn any_text_reads_or_errs(text in ".{0,200}") {
            let _ = fpuzzles::read(&text);
        }

        #[test]
        fn any_base64_reads_or_errs(text in "[A-Za-z0-9+/=]{0,200}") {
            let _ = fpuzzles::read(&text);
        }
    }
}

fn same_pair(a: [usize; 2], b: [usize; 2]) -> bool {
    a == b || a == [b[1], b[0]]
}
