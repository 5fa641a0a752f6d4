//! The `sudoku-grpc` binary: `serve`, and the tools around the service (local commands on the core,
//! a client, load generators and benchmarks), all in the [`cli`] modules of this binary.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
