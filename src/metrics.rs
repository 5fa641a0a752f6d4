//! Prometheus metrics: requests by method and status code, request latency, puzzles by verdict,
//! puzzles in flight and solver time, served as text on a port of their own.

use std::sync::{Arc, LazyLock, Mutex, PoisonError};
use std::time::Duration;

use prometheus_client::encoding::{EncodeLabelSet, EncodeMetric, MetricEncoder, NoLabelSet};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::metrics::{MetricType, TypedMetric};
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

/// The number of latency buckets, not counting the overflow bucket.
const LATENCY_BUCKETS: usize = 12;

/// Latency buckets from 10 µs to about 80 s: a solve takes microseconds, a batch can take minutes.
fn latency_buckets() -> impl Iterator<Item = f64> {
    exponential_buckets(0.000_01, 4.0, LATENCY_BUCKETS as u16)
}

/// The latency buckets' upper bounds, for [`SolveTimes`].
static LATENCY_BOUNDS: LazyLock<[f64; LATENCY_BUCKETS]> = LazyLock::new(|| {
    let mut bounds = [f64::INFINITY; LATENCY_BUCKETS];
    for (bound, value) in bounds.iter_mut().zip(latency_buckets()) {
        *bound = value;
    }
    bounds
});

fn latency_histogram() -> Histogram {
    Histogram::new(latency_buckets())
}

/// Solver times counted in the latency buckets: a worker gathers a chunk's here and adds them to
/// the histogram at once ([`Metrics::solve_times`]).
#[derive(Clone, Debug, Default)]
pub struct SolveTimes {
    sum: f64,
    count: u64,
    /// Per bucket, then the overflow bucket.
    counts: [u64; LATENCY_BUCKETS + 1],
}

impl SolveTimes {
    /// Counts one solve of `elapsed`.
    pub fn add(&mut self, elapsed: Duration) {
        let seconds = elapsed.as_secs_f64();
        let bucket = LATENCY_BOUNDS
            .iter()
            .position(|&bound| seconds <= bound)
            .unwrap_or(LATENCY_BUCKETS);
        self.sum += seconds;
        self.count += 1;
        self.counts[bucket] += 1;
    }

    fn merge(&mut self, other: &SolveTimes) {
        self.sum += other.sum;
        self.count += other.count;
        for (count, more) in self.counts.iter_mut().zip(other.counts) {
            *count += more;
        }
    }
}

/// The solver-time histogram, encoded as prometheus-client's own would be. Its own takes a lock for
/// every observation, for which the workers answering one stream side by side then contend on every
/// puzzle; this one takes a chunk's [`SolveTimes`] under one lock.
#[derive(Clone, Debug, Default)]
struct SolveTimeHistogram(Arc<Mutex<SolveTimes>>);

impl SolveTimeHistogram {
    fn add(&self, times: &SolveTimes) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .merge(times);
    }
}

impl TypedMetric for SolveTimeHistogram {
    const TYPE: MetricType = MetricType::Histogram;
}

impl EncodeMetric for SolveTimeHistogram {
    fn encode(&self, mut encoder: MetricEncoder) -> Result<(), std::fmt::Error> {
        let times = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let buckets: Vec<(f64, u64)> = LATENCY_BOUNDS
            .iter()
            .copied()
            .chain([f64::INFINITY])
            .zip(times.counts)
            .collect();
        encoder.encode_histogram::<NoLabelSet>(times.sum, times.count, &buckets, None)
    }

    fn metric_type(&self) -> MetricType {
        Self::TYPE
    }
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
    solve_time: SolveTimeHistogram,
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
        let solve_time = SolveTimeHistogram::default();
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
        let mut times = SolveTimes::default();
        times.add(elapsed);
        self.solve_times(&times);
    }

    /// Records the solver times gathered in `times`.
    pub fn solve_times(&self, times: &SolveTimes) {
        self.solve_time.add(times);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `metric`, alone in a registry, as text.
    fn render(metric: impl prometheus_client::registry::Metric) -> String {
        let mut registry = Registry::default();
        registry.register("solve_time_seconds", "Solver time per puzzle", metric);
        let mut text = String::new();
        prometheus_client::encoding::text::encode(&mut text, &registry).unwrap();
        text
    }

    #[test]
    fn solve_times_added_a_chunk_at_a_time_read_as_one_histogram_of_each() {
        let times = [0.0, 0.000_005, 0.000_01, 0.000_3, 0.02, 1.5, 90.0, 1e6];
        let theirs = latency_histogram();
        let ours = SolveTimeHistogram::default();
        let mut chunk = SolveTimes::default();
        for seconds in times {
            theirs.observe(seconds);
            chunk.add(Duration::from_secs_f64(seconds));
        }
        ours.add(&chunk);
        assert_eq!(render(ours), render(theirs));
    }
}
