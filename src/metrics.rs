//! Prometheus metrics: requests by method and status code, request latency, puzzles by verdict,
//! puzzles in flight and solver time, served as text on a port of their own.

use std::sync::Arc;
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use tokio::net::TcpListener;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: &'static str,
    code: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct MethodLabels {
    method: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct VerdictLabels {
    verdict: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ReasonLabels {
    reason: &'static str,
}

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

/// Latency buckets from 10 µs to about 80 s: a solve takes microseconds, a batch can take minutes.
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.000_01, 4.0, 12))
}

/// The server's metrics. Cheap to clone; clones share the same series.
#[derive(Clone, Debug)]
pub struct Metrics {
    registry: Arc<Registry>,
    requests: Family<RequestLabels, Counter>,
    latency: HistogramFamily<MethodLabels>,
    puzzles: Family<VerdictLabels, Counter>,
    cut_off: Family<ReasonLabels, Counter>,
    in_flight: Gauge,
    batch_items: Gauge,
    set_aside: Counter,
    aside: Gauge,
    solve_time: Histogram,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    /// A fresh set of series, registered under the `sudoku_` prefix.
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("sudoku");
        let requests = Family::<RequestLabels, Counter>::default();
        let latency = HistogramFamily::<MethodLabels>::new_with_constructor(
            latency_histogram as fn() -> Histogram,
        );
        let puzzles = Family::<VerdictLabels, Counter>::default();
        let cut_off = Family::<ReasonLabels, Counter>::default();
        let in_flight = Gauge::default();
        let batch_items = Gauge::default();
        let set_aside = Counter::default();
        let aside = Gauge::default();
        let solve_time = latency_histogram();
        registry.register(
            "rpc_requests",
            "Finished RPCs by method and gRPC status code",
            requests.clone(),
        );
        registry.register(
            "rpc_latency_seconds",
            "RPC duration by method",
            latency.clone(),
        );
        registry.register("puzzles", "Puzzles answered, by verdict", puzzles.clone());
        registry.register(
            "puzzles_cut_off",
            "Puzzles left unanswered because their request was cancelled or its deadline passed, by reason",
            cut_off.clone(),
        );
        registry.register(
            "puzzles_in_flight",
            "Puzzles being solved right now",
            in_flight.clone(),
        );
        registry.register(
            "batch_items_in_flight",
            "SolveBatch items read but not yet answered, over all streams",
            batch_items.clone(),
        );
        registry.register(
            "solves_set_aside",
            "Long jobs moved off the solver workers so that the work waiting behind them is served",
            set_aside.clone(),
        );
        registry.register(
            "solves_aside",
            "Jobs set aside and still running, each on a thread of its own at the lowest priority",
            aside.clone(),
        );
        registry.register(
            "solve_time_seconds",
            "Solver time per puzzle",
            solve_time.clone(),
        );
        Metrics {
            registry: Arc::new(registry),
            requests,
            latency,
            puzzles,
            cut_off,
            in_flight,
            batch_items,
            set_aside,
            aside,
            solve_time,
        }
    }

    /// Records a finished RPC.
    pub fn rpc(&self, method: &'static str, code: tonic::Code, elapsed: Duration) {
        self.requests
            .get_or_create(&RequestLabels {
                method,
                code: format!("{code:?}"),
            })
            .inc();
        self.latency
            .get_or_create(&MethodLabels { method })
            .observe(elapsed.as_secs_f64());
    }

    /// Records an answered puzzle.
    pub fn puzzle(&self, verdict: &'static str) {
        self.puzzles(verdict, 1);
    }

    /// Records `count` answered puzzles of one verdict.
    pub fn puzzles(&self, verdict: &'static str, count: u64) {
        self.puzzles
            .get_or_create(&VerdictLabels { verdict })
            .inc_by(count);
    }

    /// Records `count` puzzles left unanswered for `reason` (`cancelled`, `deadline_exceeded`):
    /// read, then dropped from the queue or stopped mid-solve.
    pub fn cut_off(&self, reason: &'static str, count: u64) {
        self.cut_off
            .get_or_create(&ReasonLabels { reason })
            .inc_by(count);
    }

    /// Records the solver time of one puzzle.
    pub fn solve_time(&self, elapsed: Duration) {
        self.solve_time.observe(elapsed.as_secs_f64());
    }

    /// Counts a job the solver pool set aside, running until [`Metrics::aside_done`].
    pub fn set_aside(&self) {
        self.set_aside.inc();
        self.aside.inc();
    }

    /// A job set aside has ended.
    pub fn aside_done(&self) {
        self.aside.dec();
    }

    /// Counts a puzzle as in flight until the returned guard is dropped.
    pub fn in_flight(&self) -> InFlight {
        self.in_flight.inc();
        InFlight(self.in_flight.clone())
    }

    /// A SolveBatch stream's items read but not answered, counted in the gauge: more with each
    /// [`InFlightItems::admit`], fewer with each [`InFlightItems::answered`], the rest when the
    /// returned guard is dropped.
    pub fn batch_items(&self) -> InFlightItems {
        InFlightItems {
            gauge: self.batch_items.clone(),
            left: 0,
        }
    }

    /// The metrics in Prometheus text format.
    pub fn render(&self) -> String {
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }

    /// Serves `GET /metrics` on `listener` until `shutdown` completes.
    pub async fn serve(
        self,
        listener: TcpListener,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let app = axum::Router::new().route(
            "/metrics",
            axum::routing::get(move || {
                let metrics = self.clone();
                async move {
                    (
                        [(
                            axum::http::header::CONTENT_TYPE,
                            "application/openmetrics-text; version=1.0.0; charset=utf-8",
                        )],
                        metrics.render(),
                    )
                }
            }),
        );
        axum::serve(listener, app)
            .with_graceful_shutdown(shutdown)
            .await
    }
}

/// Keeps one puzzle or item counted in a gauge while alive.
#[derive(Debug)]
pub struct InFlight(Gauge);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.dec();
    }
}

/// Keeps a stream's unanswered items counted in a gauge until each is answered or the guard is
/// dropped.
#[derive(Debug)]
pub struct InFlightItems {
    gauge: Gauge,
    left: i64,
}

impl InFlightItems {
    /// `count` more items are read.
    pub fn admit(&mut self, count: usize) {
        let count = i64::try_from(count).unwrap_or(i64::MAX);
        self.left = self.left.saturating_add(count);
        self.gauge.inc_by(count);
    }

    /// `count` more items are answered.
    pub fn answered(&mut self, count: usize) {
        let count = i64::try_from(count).unwrap_or(i64::MAX).min(self.left);
        if count > 0 {
            self.left -= count;
            self.gauge.dec_by(count);
        }
    }

    /// The items read and not answered.
    pub fn count(&self) -> usize {
        usize::try_from(self.left).unwrap_or(usize::MAX)
    }
}

impl Drop for InFlightItems {
    fn drop(&mut self) {
        self.gauge.dec_by(self.left);
    }
}
