//! Unique puzzles of the small shapes and 9x9 through the logic engine: every step of every path is
//! sound against the solution, and hints are too.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| sudoku_grpc_fuzz::checks::check_grader(data));
