//! The `health` command: ask a server's grpc.health.v1 service whether it is serving, for scripts
//! and probes that want an exit code.

use std::process::ExitCode;
use std::time::Duration;

use super::client;

/// Arguments of the `health` command.
#[derive(Debug, clap::Args)]
pub struct HealthArgs {
    /// The server: a URL, or `HOST:PORT` for plain HTTP/2.
    #[arg(
        long,
        env = "SUDOKU_HEALTH_ADDR",
        default_value = "http://127.0.0.1:50051"
    )]
    pub addr: String,
    /// The service to ask about; empty for the whole server.
    #[arg(long, default_value = "")]
    pub service: String,
    /// How long to wait for an answer.
    #[arg(long, default_value = "3s", value_parser = humantime::parse_duration)]
    pub timeout: Duration,
}

/// Prints the server's status; exit 0 if it is serving, 1 if not.
pub async fn run(args: HealthArgs) -> anyhow::Result<ExitCode> {
    use tonic_health::pb::{
        HealthCheckRequest, health_check_response::ServingStatus, health_client::HealthClient,
    };
    let check = async {
        let channel = client::connect(&client::server_url(&args.addr)).await?;
        let response = HealthClient::new(channel)
            .check(HealthCheckRequest {
                service: args.service.clone(),
            })
            .await?;
        anyhow::Ok(response.into_inner().status())
    };
    let status = tokio::time::timeout(args.timeout, check)
        .await
        .map_err(|_| anyhow::anyhow!("no answer from {} within {:?}", args.addr, args.timeout))??;
    println!("{}", status.as_str_name());
    Ok(if status == ServingStatus::Serving {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
