//! Arbitrary bytes through Canonicalize's path: the text reader, then the min-lex key. It must never
//! panic, and the key and transform must check out (see `checks::check_canonicalize`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| sudoku_grpc_fuzz::checks::check_canonicalize(data));
