//! gRPC plumbing that tonic leaves to the service: the client's deadline (`grpc-timeout`), request ids,
//! the encoding of answers, and status codes as gRPC's specification names them.

use std::time::{Duration, Instant};

use tonic::{Code, Request, Status};

/// How much earlier than the client's deadline the service gives up. tonic runs its own timer on the
/// same header and, if it fires first, answers CANCELLED; ending a millisecond earlier makes the
/// answer the DEADLINE_EXCEEDED a client expects.
pub const DEADLINE_MARGIN: Duration = Duration::from_millis(1);

/// The instant by which the service must answer `request`, from its `grpc-timeout` header.
pub fn deadline<T>(request: &Request<T>) -> Option<Instant> {
    let header = request.metadata().get("grpc-timeout")?.to_str().ok()?;
    let timeout = parse_timeout(header)?;
    Some(Instant::now() + timeout.saturating_sub(DEADLINE_MARGIN))
}

/// The metadata key of a caller's request id, logged with its RPC and echoed back.
pub const REQUEST_ID: &str = "x-request-id";

/// The caller's request id, from `x-request-id` metadata, for the logs; empty when absent.
pub fn request_id<T>(request: &Request<T>) -> String {
    let id = request
        .metadata()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok());
    // Bounded, so a hostile header cannot flood the logs.
    id.map(|id| id.chars().take(128).collect())
        .unwrap_or_default()
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

/// A future that completes at `deadline`, or never when there is none.
pub async fn sleep(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline.into()).await,
        None => std::future::pending().await,
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
        headers.insert("grpc-status", http::HeaderValue::from_static("8"));
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
}
