#!/usr/bin/env bash
# End-to-end from C++: clients/cpp (gRPC's synchronous C++ API) built with its Makefile against Debian's
# libgrpc++ and protobuf, stubs generated into target/clients/cpp (never committed), then
# `sudoku_client check` against a real server. Installs the packages (apt-get) when missing and fails if
# it cannot.
#
#   bash scripts/e2e-cpp.sh [path/to/sudoku-grpc]
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"
BIN="$(resolve_server_bin "${1:-}")"
ensure_apt g++ make pkg-config unzip libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc \
    libgoogle-common-protos-java
log "versions: grpc++ $(pkg-config --modversion grpc++), protobuf $(pkg-config --modversion protobuf)," \
    "$(g++ --version | head -n1)"

OUT="$ROOT/target/clients/cpp"
log "make clients/cpp"
make -C "$ROOT/clients/cpp" --no-print-directory -j"$(nproc)" OUT="$OUT" CXXFLAGS="-O1 -Werror"

start_server "$BIN" cpp
log "sudoku_client against $GRPC_ADDR"
"$OUT/sudoku_client" --server "$GRPC_ADDR" solve \
    '53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79'
timeout 300 "$OUT/sudoku_client" --server "$GRPC_ADDR" check "$ROOT/tests/data"
