//! The checks behind the fuzz targets, shared with `tests/fuzz_regressions.rs` (which includes
//! `checks.rs` by path) so that a saved crashing input is replayed through exactly the same asserts.

pub mod checks;
