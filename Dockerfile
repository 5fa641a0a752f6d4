# syntax=docker/dockerfile:1
#
# sudoku-grpc: a small image with one static-ish binary (glibc only) running as a non-root user.
#
#   docker build -t sudoku-grpc .
#   docker run --rm -p 50051:50051 -p 9464:9464 sudoku-grpc
#
# The builder needs no protoc: build.rs compiles proto/ in Rust (protox). The build command is the one
# CI runs (`cargo build --release --locked`), so a green CI means these steps compile.

# Keep in step with the toolchain CI uses (and at least Cargo.toml's rust-version); bookworm on both
# stages so the binary's glibc matches the runtime's.
ARG RUST_VERSION=1.95
ARG DEBIAN_RELEASE=bookworm

FROM rust:${RUST_VERSION}-slim-${DEBIAN_RELEASE} AS builder
WORKDIR /src

# Dependency layer: the manifests, build script and proto with stub sources, so editing sources reuses
# every compiled dependency. It is rebuilt only when a manifest, Cargo.lock, build.rs or proto/ change.
COPY Cargo.toml Cargo.lock build.rs ./
COPY crates/sudoku-core/Cargo.toml ./crates/sudoku-core/
COPY proto ./proto
RUN mkdir -p src crates/sudoku-core/src crates/sudoku-core/benches \
    && echo 'fn main() {}' > src/main.rs \
    && touch src/lib.rs crates/sudoku-core/src/lib.rs \
    && echo 'fn main() {}' > crates/sudoku-core/benches/solver.rs \
    && cargo build --release --locked --bin sudoku-grpc \
    && rm -rf src crates/sudoku-core/src crates/sudoku-core/benches

# The real sources. `touch` makes cargo see them as newer than the stub build above (COPY keeps the
# build context's older mtimes), so the workspace's crates are recompiled while the dependencies are not.
COPY src ./src
COPY crates ./crates
RUN touch src/main.rs src/lib.rs crates/sudoku-core/src/lib.rs \
    && cargo build --release --locked --bin sudoku-grpc \
    && install -D -m 0755 target/release/sudoku-grpc /out/sudoku-grpc

FROM debian:${DEBIAN_RELEASE}-slim AS runtime

# A fixed numeric uid/gid so Kubernetes' runAsNonRoot can verify it without reading /etc/passwd.
RUN groupadd --system --gid 10001 sudoku \
    && useradd --system --uid 10001 --gid sudoku --no-create-home --home-dir /nonexistent \
       --shell /usr/sbin/nologin sudoku

COPY --from=builder /out/sudoku-grpc /usr/local/bin/sudoku-grpc

# The server's own defaults, spelled out so `docker inspect` documents them; override with -e.
ENV SUDOKU_ADDR=0.0.0.0:50051 \
    SUDOKU_METRICS_ADDR=0.0.0.0:9464 \
    SUDOKU_SHUTDOWN_GRACE=10s \
    RUST_LOG=info

USER 10001:10001
# 50051: gRPC (sudoku.v1, grpc.health.v1, reflection). 9464: Prometheus /metrics.
EXPOSE 50051 9464

# The binary's own health client asks grpc.health.v1 over loopback: nothing downloaded, no shell.
# If you move the gRPC port with SUDOKU_ADDR, override this check to match.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["sudoku-grpc", "health", "--addr", "http://127.0.0.1:50051"]

# SIGTERM (docker stop's default) drains in-flight RPCs for SUDOKU_SHUTDOWN_GRACE; give `docker stop`
# a longer timeout than that (e.g. `docker stop -t 15`), as the Kubernetes manifests do.
STOPSIGNAL SIGTERM
ENTRYPOINT ["sudoku-grpc"]
CMD ["serve"]
