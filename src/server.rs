//! Server assembly: the Sudoku service with health, reflection, compression and HTTP/2 limits, behind
//! one [`serve`] entry that `main` and the tests share.

use std::future::Future;
use std::time::Duration;

use tokio::net::TcpListener;
use tonic::codec::CompressionEncoding;
use tonic::transport::Server;
use tonic::transport::server::TcpIncoming;
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;

use crate::config::{
    CONNECTION_WINDOW_BYTES, MAX_MESSAGE_BYTES, STREAM_WINDOW_BYTES, ServerConfig,
};
use crate::proto::{self, sudoku_service_server::SudokuServiceServer};
use crate::service::Sudoku;

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The reflection service could not read a descriptor set.
    #[error("cannot build the reflection service: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    /// The transport failed.
    #[error("transport error: {0}")]
    Transport(#[from] tonic::transport::Error),
}

/// The health names this server reports on: the whole server ("") and the Sudoku service.
const HEALTH_NAMES: [&str; 2] = ["", "sudoku.v1.SudokuService"];

async fn set_health(reporter: &HealthReporter, status: ServingStatus) {
    for name in HEALTH_NAMES {
        reporter.set_service_status(name, status).await;
    }
}

/// Serves on `listener` until `shutdown` completes, then shuts down gracefully: health turns
/// NOT_SERVING, new RPCs are refused, and open ones get `config.shutdown_grace` to finish before the
/// server stops anyway. Returns `Ok` after a clean or a forced stop alike.
pub async fn serve(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    let (health, health_service) = tonic_health::server::health_reporter();
    let reflection = || {
        tonic_reflection::server::Builder::configure()
            .register_encoded_file_descriptor_set(proto::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
            // Each version lists the other too: reflection names every service the server serves.
            .register_encoded_file_descriptor_set(tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(
                tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
            )
    };
    let (reflection_v1, reflection_v1alpha) =
        (reflection().build_v1()?, reflection().build_v1alpha()?);
    let sudoku = SudokuServiceServer::new(Sudoku::new(&config))
        .max_decoding_message_size(MAX_MESSAGE_BYTES)
        .max_encoding_message_size(MAX_MESSAGE_BYTES)
        .accept_compressed(CompressionEncoding::Gzip)
        .accept_compressed(CompressionEncoding::Zstd)
        .send_compressed(CompressionEncoding::Gzip)
        .send_compressed(CompressionEncoding::Zstd);

    let local_addr = listener.local_addr().ok();
    let incoming = TcpIncoming::from(listener).with_nodelay(Some(true));
    let (stopping_tx, stopping_rx) = tokio::sync::oneshot::channel();
    let signal = {
        let health = health.clone();
        async move {
            shutdown.await;
            tracing::info!("shutting down: draining open RPCs");
            set_health(&health, ServingStatus::NotServing).await;
            let _ = stopping_tx.send(());
        }
    };
    let server = Server::builder()
        .initial_stream_window_size(STREAM_WINDOW_BYTES)
        .initial_connection_window_size(CONNECTION_WINDOW_BYTES)
        .max_concurrent_streams(config.max_concurrent_streams)
        .http2_keepalive_interval(Some(config.keepalive_interval))
        .http2_keepalive_timeout(Some(config.keepalive_timeout))
        .max_connection_age(config.max_connection_age)
        .max_connection_age_grace(config.shutdown_grace)
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(sudoku)
        .serve_with_incoming_shutdown(incoming, signal);

    set_health(&health, ServingStatus::Serving).await;
    tracing::info!(addr = ?local_addr, "serving sudoku.v1.SudokuService");
    tokio::select! {
        result = server => result?,
        () = grace_over(stopping_rx, config.shutdown_grace) => {
            tracing::warn!(grace = ?config.shutdown_grace, "grace period over: closing the RPCs still open");
        }
    }
    tracing::info!("server stopped");
    Ok(())
}

/// Completes `grace` after shutdown begins; never, if it does not.
async fn grace_over(stopping: tokio::sync::oneshot::Receiver<()>, grace: Duration) {
    match stopping.await {
        Ok(()) => tokio::time::sleep(grace).await,
        Err(_) => std::future::pending().await,
    }
}

/// Completes on SIGTERM or ctrl-c (SIGINT), whichever comes first.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!("cannot listen for ctrl-c: {e}");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut sigterm) => {
                sigterm.recv().await;
            }
            Err(e) => {
                tracing::error!("cannot listen for SIGTERM: {e}");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
