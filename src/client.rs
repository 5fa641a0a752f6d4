//! Placeholder: filled in by the client work.

use std::process::ExitCode;

/// Arguments of the `client` subcommand.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs the `client` subcommand.
pub async fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not yet built")
}
