//! Placeholder: filled in by the load work.

use std::process::ExitCode;

/// Arguments of the `load` subcommand.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs the `load` subcommand.
pub async fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not yet built")
}
