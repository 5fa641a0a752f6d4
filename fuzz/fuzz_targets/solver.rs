//! Arbitrary grids (9x9 and the other shapes) through the solver in both modes, with a small guess
//! budget: it must never panic, and every verdict and solution must hold up.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| sudoku_grpc_fuzz::checks::check_solver(data));
