//! Arbitrary bytes through the f-puzzles reader (JSON, LZ-String base64, links): it must never
//! panic, and what it reads must write and read back the same.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| sudoku_grpc_fuzz::checks::check_fpuzzles(data));
