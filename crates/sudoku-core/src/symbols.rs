//! Alphabets: the symbols a grid's cells are written in.
//!
//! A grid of side N has N symbols, one for each value 1 to N. The standard alphabet is `1`-`9` then
//! `A`, `B`, ... (A = 10), so 16x16 is `1-9A-G` and 25x25 is `1-9A-P`; a caller may give another, such
//! as `0123456789ABCDEF`. Letters are read case-insensitively. A blank is always `.`, and also `0`
//! unless `0` is a symbol.

use std::fmt;

use crate::shape::Shape;

/// Characters that only lay a grid out and are skipped when reading one. Here, beside the alphabets,
/// because no symbol may be one.
pub(crate) fn is_layout(ch: char) -> bool {
    ch.is_whitespace() || matches!(ch, '|' | '-' | '+' | ',' | '"' | '[' | ']')
}

/// The standard symbols, in value order: the first N are the alphabet of a grid of side N.
const STANDARD: &[u8; Shape::MAX_SIDE] = b"123456789ABCDEFGHIJKLMNOP";

/// The N symbols of a grid of side N, in value order: an ASCII character per value from 1 to N.
///
/// Small and `Copy`, so a reader can hand one back with every grid at no cost.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Symbols {
    /// The symbol of value `v` at `v - 1`; only the first `len` are used.
    chars: [u8; Shape::MAX_SIDE],
    len: u8,
}

/// Why a `symbols` string cannot be an alphabet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SymbolsError {
    /// Fewer than 4 or more than 25 symbols.
    #[error(
        "symbols {text:?} hold {found} characters: an alphabet has one per value, from 4 (4x4) to 25 (25x25)"
    )]
    WrongLength {
        /// The symbols as given.
        text: String,
        /// How many characters they hold.
        found: usize,
    },
    /// A character that cannot be a symbol: not printable ASCII, a blank (`.`) or layout (whitespace,
    /// `| - + , " [ ]`).
    #[error(
        "symbol {ch:?} at position {} of the symbols is not allowed: a symbol is a printable ASCII \
         character other than '.' and the layout characters | - + , \" [ ]",
        .position + 1
    )]
    NotAllowed {
        /// The character.
        ch: char,
        /// Its position in the symbols, from 0.
        position: usize,
    },
    /// The same symbol twice (letters count as one whatever their case).
    #[error(
        "symbol {ch:?} appears twice in the symbols, at positions {} and {} (letters are case-insensitive)",
        .first + 1,
        .second + 1
    )]
    Repeated {
        /// The repeated character, as first given.
        ch: char,
        /// Its first position, from 0.
        first: usize,
        /// Its second position.
        second: usize,
    },
}

impl Symbols {
    /// The standard alphabet of a grid of side `side` (`1`-`9`, then `A` = 10 onwards); `None` for a
    /// side outside 4 to 25.
    pub fn standard(side: usize) -> Option<Symbols> {
        (Shape::MIN_SIDE..=Shape::MAX_SIDE)
            .contains(&side)
            .then_some(Symbols {
                chars: *STANDARD,
                len: side as u8,
            })
    }

    /// The standard alphabet of `shape`.
    pub fn of(shape: Shape) -> Symbols {
        Symbols {
            chars: *STANDARD,
            len: shape.side() as u8,
        }
    }

    /// An alphabet from its symbols in value order: 4 to 25 distinct printable ASCII characters, none
    /// of them `.` or layout. Letters are kept as given (answers are written with them) but compared
    /// case-insensitively.
    pub fn new(text: &str) -> Result<Symbols, SymbolsError> {
        let found = text.chars().count();
        if !(Shape::MIN_SIDE..=Shape::MAX_SIDE).contains(&found) {
            return Err(SymbolsError::WrongLength {
                text: text.into(),
                found,
            });
        }
        let mut chars = [0u8; Shape::MAX_SIDE];
        for (position, ch) in text.chars().enumerate() {
            if !ch.is_ascii_graphic() || ch == '.' || is_layout(ch) {
                return Err(SymbolsError::NotAllowed { ch, position });
            }
            let byte = ch as u8;
            let first = chars[..position]
                .iter()
                .position(|seen| seen.eq_ignore_ascii_case(&byte));
            if let Some(first) = first {
                let ch = char::from(chars[first]);
                return Err(SymbolsError::Repeated {
                    ch,
                    first,
                    second: position,
                });
            }
            chars[position] = byte;
        }
        Ok(Symbols {
            chars,
            len: found as u8,
        })
    }

    /// How many symbols: the side of the grids this alphabet writes.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Never true: an alphabet has at least 4 symbols. (Here for the `len` convention.)
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True for the standard alphabet of its side.
    pub fn is_standard(&self) -> bool {
        self.as_bytes() == &STANDARD[..self.len()]
    }

    /// The symbols in value order.
    pub fn as_bytes(&self) -> &[u8] {
        &self.chars[..self.len()]
    }

    /// The symbol of `value` (1 to N); `.` for a blank (0) and for a value outside the alphabet.
    pub fn symbol(&self, value: u8) -> char {
        char::from(self.byte(value))
    }

    /// [`Symbols::symbol`] as an ASCII byte.
    pub(crate) fn byte(&self, value: u8) -> u8 {
        match value {
            1.. if value <= self.len => self.chars[usize::from(value - 1)],
            _ => b'.',
        }
    }

    /// True when `0` is one of the symbols, so it does not stand for a blank.
    pub fn has_zero(&self) -> bool {
        self.as_bytes().contains(&b'0')
    }

    /// The value (1 to N) that `ch` stands for, letters in either case; `None` if it is not a symbol.
    pub fn value_of(&self, ch: char) -> Option<u8> {
        let byte = u8::try_from(ch).ok()?;
        self.as_bytes()
            .iter()
            .position(|s| s.eq_ignore_ascii_case(&byte))
            .map(|i| i as u8 + 1)
    }

    /// A table from ASCII byte to what it stands for in a grid's text: a value 1 to N, [`BLANK`] for a
    /// blank, [`LAYOUT`] for layout, [`INVALID`] for anything else (every non-ASCII byte too).
    pub(crate) fn reading_table(&self) -> [u8; 256] {
        let mut table = [INVALID; 256];
        for byte in 0..128u8 {
            if is_layout(char::from(byte)) {
                table[usize::from(byte)] = LAYOUT;
            }
        }
        table[usize::from(b'.')] = BLANK;
        if !self.has_zero() {
            table[usize::from(b'0')] = BLANK;
        }
        for (value, &byte) in (1..).zip(self.as_bytes()) {
            table[usize::from(byte.to_ascii_uppercase())] = value;
            table[usize::from(byte.to_ascii_lowercase())] = value;
        }
        table
    }
}

/// In a reading table: a blank cell.
pub(crate) const BLANK: u8 = 0;
/// In a reading table: layout, skipped.
pub(crate) const LAYOUT: u8 = 0xFE;
/// In a reading table: neither a symbol, a blank nor layout.
pub(crate) const INVALID: u8 = 0xFF;

/// The symbols in value order, as a string: `123456789ABCDEFG`.
impl fmt::Display for Symbols {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Every symbol is ASCII.
        f.write_str(std::str::from_utf8(self.as_bytes()).unwrap_or_default())
    }
}

impl fmt::Debug for Symbols {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Symbols({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_alphabets_follow_the_digits_with_letters() {
        assert_eq!(Symbols::standard(9).unwrap().to_string(), "123456789");
        assert_eq!(
            Symbols::standard(16).unwrap().to_string(),
            "123456789ABCDEFG"
        );
        assert_eq!(
            Symbols::standard(25).unwrap().to_string(),
            "123456789ABCDEFGHIJKLMNOP"
        );
        assert!(Symbols::standard(3).is_none() && Symbols::standard(26).is_none());
        let sixteen = Symbols::standard(16).unwrap();
        assert_eq!(sixteen.value_of('g'), Some(16));
        assert_eq!(sixteen.value_of('G'), Some(16));
        assert_eq!(sixteen.value_of('H'), None);
        assert_eq!(sixteen.value_of('0'), None);
        assert!(sixteen.is_standard());
    }

    #[test]
    fn custom_alphabets_are_checked() {
        let hex = Symbols::new("0123456789abcdef").unwrap();
        assert!(hex.has_zero() && !hex.is_standard());
        assert_eq!(hex.value_of('0'), Some(1));
        assert_eq!(hex.value_of('F'), Some(16));
        assert_eq!(hex.symbol(16), 'f');
        assert_eq!(
            Symbols::new("123").unwrap_err(),
            SymbolsError::WrongLength {
                text: "123".into(),
                found: 3
            }
        );
        assert_eq!(
            Symbols::new("12.4").unwrap_err(),
            SymbolsError::NotAllowed {
                ch: '.',
                position: 2
            }
        );
        assert_eq!(
            Symbols::new("12 4").unwrap_err(),
            SymbolsError::NotAllowed {
                ch: ' ',
                position: 2
            }
        );
        assert_eq!(
            Symbols::new("abcA").unwrap_err(),
            SymbolsError::Repeated {
                ch: 'a',
                first: 0,
                second: 3
            }
        );
        assert!(Symbols::new("12é4").is_err());
    }
}
