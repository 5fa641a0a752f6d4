//! Arbitrary bytes through the puzzle reader: it must never panic, and what it reads must print and
//! read back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| sudoku_grpc_fuzz::checks::check_parser(data));
