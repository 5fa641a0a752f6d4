//! The `sudoku-grpc` binary: all the work is in the library's `cli` module.

fn main() -> std::process::ExitCode {
    sudoku_grpc::cli::main()
}
