//! The outer layers of an f-puzzles text: a link's %-escapes, then base64 and LZ-String, undone
//! with the output bounded.

use super::{FPuzzlesError, Result};

pub(super) fn percent_decode(text: &str) -> Result<String> {
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

pub(super) fn decompress(base64: &str) -> Result<String> {
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
        /// lz-str's decompressor on any base64. The lz-str crate fails where the data's very last
        /// bit ends it (it reads ahead a character; LZ-String itself reads zeros past the end), so
        /// what ours decodes is held to the crate's reading of the same text one zero character
        /// longer.
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
            if theirs.is_some() {
                prop_assert_eq!(&ours, &theirs);
            }
            if ours.is_some() {
                let padded = lz_str::decompress_from_base64(&format!("{base64}A"));
                prop_assert_eq!(ours, padded);
            }
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

    /// One literal, then `codes` codes each naming the entry being defined: each writes one more
    /// character than the last. The writer, and the code width it ended at.
    fn expanding(codes: usize) -> (Writer, u32) {
        let mut w = Writer::default();
        w.write(2, 0);
        w.write(8, u64::from(b'a'));
        let (mut dictionary, mut enlarge_in, mut num_bits) = (4u64, 4u64, 3u32);
        for _ in 0..codes {
            w.write(num_bits, dictionary);
            dictionary += 1;
            enlarge_in -= 1;
            if enlarge_in == 0 {
                enlarge_in = 1 << num_bits;
                num_bits += 1;
            }
        }
        (w, num_bits)
    }

    #[test]
    fn a_small_text_that_expands_too_far_is_refused() {
        // One literal, then again and again the entry being defined: each code writes one more
        // character than the last, so k codes write k * k / 2.
        let w = expanding(3000).0;
        assert!(w.sextets.len() < 8_000, "{}", w.sextets.len());
        assert_eq!(lz::decompress(&w.sextets), Err(FPuzzlesError::TooLarge));
        // The first thousand codes, closed with code 2: about half a million characters, read.
        let (mut w, num_bits) = expanding(1000);
        w.write(num_bits, 2);
        let out = lz::decompress(&w.sextets).expect("within the bound");
        assert_eq!(out.len(), 1 + (2..=1001).sum::<usize>());
        assert!(out.iter().all(|&c| c == u16::from(b'a')));
    }
}
