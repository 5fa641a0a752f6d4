//! Compiles `proto/` in Rust (protox: no system `protoc` needed), generates the tonic stubs, and writes
//! the descriptor set that server reflection serves, comments included.

use std::path::PathBuf;

use prost::Message as _;

const PROTO: &str = "proto/sudoku/v1/sudoku.proto";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=proto");
    let fds = protox::Compiler::new(["proto"])?
        .include_source_info(true)
        .include_imports(true)
        .open_file(PROTO)?
        .file_descriptor_set();
    let out = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out.join("sudoku_descriptor.bin"), fds.encode_to_vec())?;
    tonic_prost_build::configure()
        // The typed rules are large and usually absent: boxed, they keep every request (and each
        // SolveBatch item queued in the pool) small.
        .boxed(".sudoku.v1.SolveRequest.rules")
        .boxed(".sudoku.v1.SolveBatchRequest.rules")
        .boxed(".sudoku.v1.GradeRequest.rules")
        .boxed(".sudoku.v1.HintRequest.rules")
        .compile_fds(fds)?;
    Ok(())
}
