//! What happens around every call, whichever RPC it is: the [`Calls`] layer gives each call of a
//! service its span, its deadline, its request id echoed back and its `sudoku_rpc_*` metrics, so no
//! handler does that bookkeeping and a new RPC cannot forget it. Beside it, the two rewrites of
//! tonic's HTTP/2 behaviour that gRPC's specification asks for.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::LazyLock;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use http::{HeaderMap, HeaderValue};
use http_body::{Frame, SizeHint};
use tonic::body::Body;
use tonic::server::NamedService;
use tonic::{Code, Status};
use tower::{Layer, Service};
use tracing::Instrument;

use crate::metrics::Metrics;

/// The metadata key of a caller's request id, logged with its call and echoed back.
pub const REQUEST_ID: &str = "x-request-id";

/// How much earlier than the client's deadline the service gives up. tonic runs its own timer on the
/// same header and, if it fires first, answers CANCELLED; ending a millisecond earlier makes the
/// answer the DEADLINE_EXCEEDED a client expects.
pub const DEADLINE_MARGIN: Duration = Duration::from_millis(1);

/// When the server took a request in, stamped by [`stamp_received`] in the server-wide stack, as
/// tonic starts its own `grpc-timeout` timer: the service's routing polls a service's stack only
/// later, so a deadline counted from there could fall after tonic's.
#[derive(Clone, Copy, Debug)]
pub struct Received(pub Instant);

/// Stamps a request with the instant it came in ([`Received`]).
pub fn stamp_received<B>(mut request: http::Request<B>) -> http::Request<B> {
    request.extensions_mut().insert(Received(Instant::now()));
    request
}

/// The instant by which a call must be answered, from its `grpc-timeout` header; the layer puts it
/// in the request's extensions, where [`deadline`] finds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline(pub Instant);

/// The deadline the layer found on `request`, if the client set one.
pub fn deadline<T>(request: &tonic::Request<T>) -> Option<Instant> {
    request.extensions().get::<Deadline>().map(|d| d.0)
}

/// A future that completes at `deadline`, or never when there is none.
pub async fn sleep(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline.into()).await,
        None => std::future::pending().await,
    }
}

/// Parses a `grpc-timeout` value: up to 8 digits and a unit (`H`, `M`, `S`, `m`, `u`, `n`).
pub fn parse_timeout(value: &str) -> Option<Duration> {
    if !value.is_ascii() {
        return None;
    }
    let split = value.len().checked_sub(1)?;
    let (digits, unit) = value.split_at(split);
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let amount: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(amount * 3600),
        "M" => Duration::from_secs(amount * 60),
        "S" => Duration::from_secs(amount),
        "m" => Duration::from_millis(amount),
        "u" => Duration::from_micros(amount),
        "n" => Duration::from_nanos(amount),
        _ => return None,
    })
}

/// The names of the methods of `sudoku.v1.SudokuService`, read once from the proto's descriptor:
/// the only values the metrics' `method` label takes, whatever paths clients send.
static METHODS: LazyLock<Vec<String>> = LazyLock::new(|| {
    use prost::Message;
    let set = prost_types::FileDescriptorSet::decode(crate::proto::FILE_DESCRIPTOR_SET)
        .unwrap_or_default();
    set.file
        .iter()
        .flat_map(|file| &file.service)
        .flat_map(|service| &service.method)
        .filter_map(|method| method.name.clone())
        .collect()
});

/// The method a request path names (`/sudoku.v1.SudokuService/Solve` -> `Solve`), if the service
/// has it.
fn method_of(path: &str) -> Option<&'static str> {
    let name = path.rsplit('/').next()?;
    METHODS.iter().find(|m| *m == name).map(String::as_str)
}

/// The layer that wraps a service in [`Calls`].
#[derive(Clone, Debug)]
pub struct CallLayer {
    metrics: Metrics,
}

impl CallLayer {
    /// The layer, recording into `metrics`.
    pub fn new(metrics: Metrics) -> CallLayer {
        CallLayer { metrics }
    }
}

impl<S> Layer<S> for CallLayer {
    type Service = Calls<S>;

    fn layer(&self, inner: S) -> Calls<S> {
        Calls {
            inner,
            metrics: self.metrics.clone(),
        }
    }
}

/// A gRPC service with the per-call bookkeeping around each of its calls.
#[derive(Clone, Debug)]
pub struct Calls<S> {
    inner: S,
    metrics: Metrics,
}

impl<S: NamedService> NamedService for Calls<S> {
    const NAME: &'static str = S::NAME;
}

impl<S, B> Service<http::Request<B>> for Calls<S>
where
    S: Service<http::Request<B>, Response = http::Response<Body>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    B: Send + 'static,
{
    type Response = http::Response<Body>;
    type Error = Infallible;
    type Future = BoxFuture<'static, Result<http::Response<Body>, Infallible>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: http::Request<B>) -> Self::Future {
        // The clone is the ready one's twin; the ready one serves this call (tower's usual dance).
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let Some(method) = method_of(request.uri().path()) else {
            // Not a method of the service: tonic answers UNIMPLEMENTED, and it is not counted.
            return Box::pin(inner.call(request));
        };
        let started = request
            .extensions()
            .get::<Received>()
            .map_or_else(Instant::now, |received| received.0);
        if let Some(timeout) = request
            .headers()
            .get("grpc-timeout")
            .and_then(|v| v.to_str().ok())
            .and_then(parse_timeout)
        {
            let deadline = started + timeout.saturating_sub(DEADLINE_MARGIN);
            request.extensions_mut().insert(Deadline(deadline));
        }
        let request_id = request.headers().get(REQUEST_ID).cloned();
        // Inside the macro, the id is only read when the span is logged.
        let span = tracing::debug_span!("rpc", method, request_id = logged(request_id.as_ref()));
        let end = CallEnd {
            method,
            metrics: self.metrics.clone(),
            span: span.clone(),
            started,
            code: None,
        };
        Box::pin(
            async move {
                let Ok(mut response) = inner.call(request).await;
                if let Some(id) = request_id {
                    response.headers_mut().insert(REQUEST_ID, id);
                }
                // A call that fails before its first message answers with its status in the headers
                // (trailers-only); any other ends with it in the trailers, after its last message.
                if let Some(code) = status_code(response.headers()) {
                    end.finish(code);
                    return Ok(response);
                }
                Ok(response.map(|body| {
                    Body::new(CallBody {
                        inner: body,
                        end: Some(end),
                    })
                }))
            }
            .instrument(span),
        )
    }
}

/// A request id as the logs show it: bounded, so a hostile header cannot flood them; empty when
/// absent or not text.
fn logged(id: Option<&HeaderValue>) -> String {
    id.and_then(|v| v.to_str().ok())
        .map(|id| id.chars().take(128).collect())
        .unwrap_or_default()
}

/// The gRPC status code in `headers` (or trailers), if there is one.
fn status_code(headers: &HeaderMap) -> Option<Code> {
    let value = headers.get("grpc-status")?.to_str().ok()?;
    Some(Code::from_i32(value.parse().ok()?))
}

/// A call's bookkeeping, done once when the call ends, however it ends: one dropped before its
/// status was sent was abandoned by its client and counts as CANCELLED.
struct CallEnd {
    method: &'static str,
    metrics: Metrics,
    span: tracing::Span,
    started: Instant,
    code: Option<Code>,
}

impl CallEnd {
    fn finish(mut self, code: Code) {
        self.code = Some(code);
    }
}

impl Drop for CallEnd {
    fn drop(&mut self) {
        let code = self.code.unwrap_or(Code::Cancelled);
        let elapsed = self.started.elapsed();
        self.metrics.rpc(self.method, code, elapsed);
        // At `debug`, so the default log volume does not grow with the call rate.
        tracing::debug!(
            parent: &self.span,
            elapsed_us = elapsed.as_micros() as u64,
            ?code,
            "call finished"
        );
    }
}

/// A response body that finishes its call's bookkeeping when the trailers pass, or when it is
/// dropped before them; its frames are polled inside the call's span.
struct CallBody {
    inner: Body,
    end: Option<CallEnd>,
}

impl http_body::Body for CallBody {
    type Data = bytes::Bytes;
    type Error = Status;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<bytes::Bytes>, Status>>> {
        let this = &mut *self;
        let _entered = this.end.as_ref().map(|end| end.span.clone().entered());
        let frame = Pin::new(&mut this.inner).poll_frame(cx);
        if let Poll::Ready(Some(Ok(frame))) = &frame
            && let Some(code) = frame.trailers_ref().and_then(status_code)
            && let Some(end) = this.end.take()
        {
            end.finish(code);
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The status for a request stream that broke, as gRPC's specification names it: tonic reports an
/// oversized message as OUT_OF_RANGE, where clients expect RESOURCE_EXHAUSTED.
pub fn normalize_request_error(status: Status) -> Status {
    if status.code() == Code::OutOfRange && status.message().contains("message length too large") {
        Status::resource_exhausted(status.message().to_owned())
    } else {
        status
    }
}

/// Answers in the encoding the client chose for its own messages, as grpc-go's server does: a client
/// that sends plain messages gets plain answers, whatever its `grpc-accept-encoding` lists.
/// grpc-core clients (Python, C++, Ruby...) list gzip on every call, and tonic would then gzip every
/// answer: a hundred bytes of digits that gzip makes no smaller, at a cost in CPU on both sides. Worse,
/// a grpc-core client whose deadline fires while a compressed answer is arriving has been seen to hand
/// its application the still-compressed bytes, which fail to decode (INTERNAL instead of
/// DEADLINE_EXCEEDED).
pub fn answer_in_request_encoding<B>(mut request: http::Request<B>) -> http::Request<B> {
    let compressed = request
        .headers()
        .get("grpc-encoding")
        .is_some_and(|v| v.as_bytes() != b"identity");
    if !compressed {
        request.headers_mut().remove("grpc-accept-encoding");
    }
    request
}

/// tonic answers an oversized unary request OUT_OF_RANGE; gRPC's specification and every other
/// implementation say RESOURCE_EXHAUSTED. Rewrites that one status in a response's headers.
pub fn oversized_is_resource_exhausted<B>(mut response: http::Response<B>) -> http::Response<B> {
    let headers = response.headers_mut();
    let out_of_range = headers
        .get("grpc-status")
        .is_some_and(|v| v.as_bytes() == b"11");
    let too_large = headers.get("grpc-message").is_some_and(|v| {
        v.to_str()
            .is_ok_and(|m| m.contains("message%20length%20too%20large"))
    });
    if out_of_range && too_large {
        headers.insert("grpc-status", HeaderValue::from_static("8"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_parse_as_the_spec_writes_them() {
        assert_eq!(parse_timeout("1H"), Some(Duration::from_secs(3600)));
        assert_eq!(parse_timeout("2M"), Some(Duration::from_secs(120)));
        assert_eq!(parse_timeout("3S"), Some(Duration::from_secs(3)));
        assert_eq!(parse_timeout("250m"), Some(Duration::from_millis(250)));
        assert_eq!(
            parse_timeout("99999999u"),
            Some(Duration::from_micros(99_999_999))
        );
        assert_eq!(parse_timeout("5n"), Some(Duration::from_nanos(5)));
        for bad in ["", "S", "123456789S", "1x", "-1S", "1.5S", "１S"] {
            assert_eq!(parse_timeout(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn every_method_of_the_service_is_known_by_name() {
        for method in [
            "Solve",
            "SolveBatch",
            "Grade",
            "Hint",
            "Generate",
            "Canonicalize",
        ] {
            let path = format!("/sudoku.v1.SudokuService/{method}");
            assert_eq!(method_of(&path), Some(method));
        }
        assert_eq!(method_of("/sudoku.v1.SudokuService/Bogus"), None);
    }
}
