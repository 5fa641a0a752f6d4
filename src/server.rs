//! Server assembly: the Sudoku service with health, reflection, compression and HTTP/2 limits, behind
//! one [`serve`] entry that `main` and the tests share.

use std::future::Future;
use std::time::Duration;

use http::{HeaderName, HeaderValue};
use tokio::net::TcpListener;
use tonic::codec::CompressionEncoding;
use tonic::transport::server::TcpIncoming;
use tonic::transport::{Certificate, Identity, Server, ServerTlsConfig};
use tonic_health::ServingStatus;
use tonic_health::server::HealthReporter;
use tower_http::cors::{AllowOrigin, CorsLayer};

use tokio_util::sync::{CancellationToken, DropGuard};
use tokio_util::task::AbortOnDropHandle;

use crate::config::{
    CONNECTION_WINDOW_BYTES, MAX_MESSAGE_BYTES, STREAM_WINDOW_BYTES, ServerConfig,
};
use crate::layer::CallLayer;
use crate::metrics::Metrics;
use crate::proto::{self, sudoku_service_server::SudokuServiceServer};
use crate::rpc::Sudoku;

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// A setting is out of range.
    #[error("invalid configuration: {0}")]
    Config(#[from] crate::config::ConfigError),
    /// The metrics or health port could not be opened (most often: another process holds it).
    #[error(
        "cannot listen for {what} on {addr}: {source}; choose another address with {flag}, \
         or `off` to serve none"
    )]
    Bind {
        /// What the port was for.
        what: &'static str,
        /// The flag (and variable) that sets its address.
        flag: &'static str,
        /// The address asked for.
        addr: std::net::SocketAddr,
        /// Why it failed.
        source: std::io::Error,
    },
    /// The solver threads could not be started.
    #[error("cannot start the solver threads: {0}")]
    SolverPool(std::io::Error),
    /// The reflection service could not read a descriptor set.
    #[error("cannot build the reflection service: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    /// A TLS certificate, key or CA file could not be read.
    #[error("cannot read {path}: {source}")]
    TlsFile {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A CORS origin is not a valid header value.
    #[error("invalid CORS origin {0:?}")]
    CorsOrigin(String),
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

/// Serves gRPC on `listener`, metrics on `config.metrics_addr` and plain-text health checks on
/// `config.health_addr` if set, until `shutdown` completes; refuses to start on a configuration that
/// [`ServerConfig::validate`] rejects; then shuts down gracefully: the listening socket closes, then
/// health turns NOT_SERVING, new RPCs are refused, and open ones get `config.shutdown_grace` to
/// finish. Shortly before the grace runs out, open SolveBatch and Generate streams end with
/// UNAVAILABLE "draining ..." after the answers they have; then the server stops anyway. Returns
/// `Ok` after a clean or a forced stop alike.
pub async fn serve(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    config.validate()?;
    let metrics = bind(
        config.metrics_addr,
        "metrics",
        "--metrics-addr (SUDOKU_METRICS_ADDR)",
    )
    .await?;
    serve_with_metrics(listener, metrics, config, shutdown).await
}

/// [`serve`], with metrics on a listener the caller opened (or none), whatever the configuration says.
pub async fn serve_with_metrics(
    listener: TcpListener,
    metrics_listener: Option<TcpListener>,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    config.validate()?;
    let health = bind(
        config.health_addr,
        "health checks",
        "--health-addr (SUDOKU_HEALTH_LISTEN_ADDR)",
    )
    .await?;
    let listeners = Listeners {
        grpc: listener,
        metrics: metrics_listener,
        health,
    };
    serve_on(listeners, config, shutdown).await
}

/// The sockets a server serves on, opened by the caller (on port 0, say, to learn the port first).
#[derive(Debug)]
pub struct Listeners {
    /// Every service: Sudoku, health and reflection, over gRPC and gRPC-Web, with TLS if configured.
    pub grpc: TcpListener,
    /// Prometheus metrics, or none.
    pub metrics: Option<TcpListener>,
    /// Health checks alone, in plain text even when `grpc` speaks TLS, or none.
    pub health: Option<TcpListener>,
}

/// Opens the listener of an optional address; `what` and `flag` name it in the error.
async fn bind(
    addr: Option<std::net::SocketAddr>,
    what: &'static str,
    flag: &'static str,
) -> Result<Option<TcpListener>, ServerError> {
    let Some(addr) = addr else { return Ok(None) };
    TcpListener::bind(addr)
        .await
        .map(Some)
        .map_err(|source| ServerError::Bind {
            what,
            flag,
            addr,
            source,
        })
}

/// [`serve`] on listeners the caller opened, whatever the configuration's addresses say.
pub async fn serve_on(
    listeners: Listeners,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    config.validate()?;
    let Listeners {
        grpc: listener,
        metrics: metrics_listener,
        health: health_listener,
    } = listeners;
    let metrics = Metrics::new();
    let draining = CancellationToken::new();
    let service =
        Sudoku::new(&config, metrics.clone(), draining.clone()).map_err(ServerError::SolverPool)?;
    let stopping = CancellationToken::new();
    let trigger = stopping.clone();
    let _stop_on_return = stopping.clone().drop_guard();
    tokio::spawn(async move {
        shutdown.await;
        trigger.cancel();
    });

    if let Some(metrics_listener) = metrics_listener {
        tracing::info!(addr = ?metrics_listener.local_addr().ok(), "serving metrics at /metrics");
        let metrics = metrics.clone();
        tokio::spawn(metrics.serve(metrics_listener, stopping.clone().cancelled_owned()));
    }

    let (health, health_service) = tonic_health::server::health_reporter();
    // Up until the server stops, so probes see NOT_SERVING through the drain.
    let _health_only = health_listener.map(|listener| {
        tracing::info!(addr = ?listener.local_addr().ok(), "serving grpc.health.v1 in plain text");
        let server = Server::builder()
            .add_service(health_service.clone())
            .serve_with_incoming(TcpIncoming::from(listener).with_nodelay(Some(true)));
        AbortOnDropHandle::new(tokio::spawn(async move {
            if let Err(e) = server.await {
                tracing::error!("the health listener failed: {e}");
            }
        }))
    });
    let reflection = || {
        tonic_reflection::server::Builder::configure()
            .register_encoded_file_descriptor_set(proto::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
            // google.rpc.BadRequest and friends, so grpcurl can print error details.
            .register_encoded_file_descriptor_set(tonic_types::pb::FILE_DESCRIPTOR_SET)
            // Each version lists the other too: reflection names every service the server serves.
            .register_encoded_file_descriptor_set(tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(
                tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
            )
    };
    let (reflection_v1, reflection_v1alpha) =
        (reflection().build_v1()?, reflection().build_v1alpha()?);
    let sudoku = SudokuServiceServer::new(service)
        .max_decoding_message_size(MAX_MESSAGE_BYTES)
        .max_encoding_message_size(MAX_MESSAGE_BYTES)
        .accept_compressed(CompressionEncoding::Gzip)
        .accept_compressed(CompressionEncoding::Zstd)
        .send_compressed(CompressionEncoding::Gzip)
        .send_compressed(CompressionEncoding::Zstd);
    let sudoku = tower::Layer::layer(&CallLayer::new(metrics.clone()), sudoku);

    let local_addr = listener.local_addr().ok();
    // Health turns NOT_SERVING only once the listening socket is closed, so a client that sees
    // it cannot then open a connection that is still taken.
    let closed = CancellationToken::new();
    let listening = Listening {
        incoming: TcpIncoming::from(listener).with_nodelay(Some(true)),
        _closed: closed.clone().drop_guard(),
    };
    tokio::spawn({
        let health = health.clone();
        async move {
            closed.cancelled().await;
            set_health(&health, ServingStatus::NotServing).await;
        }
    });
    let signal = {
        let stopping = stopping.clone();
        async move {
            stopping.cancelled().await;
            tracing::info!("shutting down: draining open RPCs");
        }
    };
    let mut builder = Server::builder();
    if let Some(tls) = tls_config(&config)? {
        builder = builder.tls_config(tls)?;
    }
    let server = builder
        .accept_http1(true)
        .initial_stream_window_size(STREAM_WINDOW_BYTES)
        .initial_connection_window_size(CONNECTION_WINDOW_BYTES)
        .max_concurrent_streams(config.max_concurrent_streams)
        .http2_keepalive_interval(Some(config.keepalive_interval))
        .http2_keepalive_timeout(Some(config.keepalive_timeout))
        .max_connection_age(config.max_connection_age)
        .max_connection_age_grace(config.shutdown_grace)
        // Outermost, so the stamp is taken as tonic starts its grpc-timeout timer.
        .layer(tower::util::MapRequestLayer::new(
            crate::layer::stamp_received,
        ))
        .layer(cors(&config.cors_origins)?)
        .layer(tonic_web::GrpcWebLayer::new())
        .layer(tower::util::MapRequestLayer::new(
            crate::layer::answer_in_request_encoding,
        ))
        .layer(tower::util::MapResponseLayer::new(
            crate::layer::oversized_is_resource_exhausted,
        ))
        .add_service(health_service)
        .add_service(reflection_v1)
        .add_service(reflection_v1alpha)
        .add_service(sudoku)
        .serve_with_incoming_shutdown(listening, signal);

    set_health(&health, ServingStatus::Serving).await;
    tracing::info!(addr = ?local_addr, "serving sudoku.v1.SudokuService");
    tokio::select! {
        result = server => result?,
        () = grace_over(&stopping, &draining, config.shutdown_grace) => {
            tracing::warn!(grace = ?config.shutdown_grace, "grace period over: closing the RPCs still open");
        }
    }
    tracing::info!("server stopped");
    Ok(())
}

/// The gRPC listener's connections. Tonic drops it once shutdown begins: the listening socket
/// closes first (fields drop in order), then the guard cancels its token.
struct Listening {
    incoming: TcpIncoming,
    _closed: DropGuard,
}

impl futures::Stream for Listening {
    type Item = std::io::Result<tokio::net::TcpStream>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        std::pin::Pin::new(&mut self.incoming).poll_next(cx)
    }
}

/// The TLS identity of `config`, if it names one, and the CA its clients' certificates must be
/// signed by, if it names one.
fn tls_config(config: &ServerConfig) -> Result<Option<ServerTlsConfig>, ServerError> {
    let Some(crate::config::TlsFiles { cert, key }) = &config.tls else {
        return Ok(None);
    };
    let read = |path: &std::path::PathBuf| {
        std::fs::read(path).map_err(|source| ServerError::TlsFile {
            path: path.clone(),
            source,
        })
    };
    let mut tls = ServerTlsConfig::new().identity(Identity::from_pem(read(cert)?, read(key)?));
    if let Some(ca) = &config.tls_client_ca {
        tls = tls.client_ca_root(Certificate::from_pem(read(ca)?));
    }
    Ok(Some(tls))
}

/// CORS for gRPC-Web calls from browsers: the listed origins (or any, for `*`) may POST with the
/// gRPC-Web headers and read the status trailers.
fn cors(origins: &[String]) -> Result<CorsLayer, ServerError> {
    let allow = if origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        let values = origins
            .iter()
            .map(|o| {
                HeaderValue::from_str(o.trim()).map_err(|_| ServerError::CorsOrigin(o.clone()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        AllowOrigin::list(values)
    };
    let headers = |names: &[&'static str]| {
        names
            .iter()
            .map(|n| HeaderName::from_static(n))
            .collect::<Vec<_>>()
    };
    Ok(CorsLayer::new()
        .allow_origin(allow)
        .allow_methods([http::Method::POST])
        .allow_headers(headers(&[
            "content-type",
            "x-grpc-web",
            "x-user-agent",
            "grpc-timeout",
            "grpc-accept-encoding",
            "x-request-id",
        ]))
        .expose_headers(headers(&[
            "grpc-status",
            "grpc-message",
            "grpc-status-details-bin",
            "x-request-id",
        ]))
        .max_age(Duration::from_secs(24 * 60 * 60)))
}

/// How long before the grace runs out open streams are ended with UNAVAILABLE: long enough for the
/// status to reach their clients before the connections close, short beside the grace.
fn drain_margin(grace: Duration) -> Duration {
    (grace / 10).min(Duration::from_secs(1))
}

/// Completes `grace` after shutdown begins, cancelling `draining` [`drain_margin`] before then.
async fn grace_over(stopping: &CancellationToken, draining: &CancellationToken, grace: Duration) {
    stopping.cancelled().await;
    let margin = drain_margin(grace);
    tokio::time::sleep(grace - margin).await;
    tracing::info!(
        ?margin,
        "grace nearly over: ending open streams with UNAVAILABLE"
    );
    draining.cancel();
    tokio::time::sleep(margin).await;
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
