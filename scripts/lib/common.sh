# shellcheck shell=bash
# Shared helpers for the scripts in scripts/: sourced, not run.
#
# - ROOT: the repository root; every path below is relative to it.
# - ensure_venv REQUIREMENTS...: create .venv/ (gitignored) and pip-install the pinned requirements
#   files into it, skipping pip when the same files were installed before.
# - resolve_server_bin [PATH]: the sudoku-grpc binary to test (argument, $SUDOKU_BIN, or the newest of
#   target/release and target/debug).
# - start_server BIN NAME: run `BIN serve` on free loopback ports (gRPC and metrics), log to
#   target/e2e/NAME-server.log, wait until it accepts connections, and make sure it is killed on exit.
#   Sets SERVER_PID, GRPC_PORT, METRICS_PORT, GRPC_ADDR (host:port) and GRPC_URL (http://host:port).
# - stop_server: SIGTERM, wait (bounded), then SIGKILL if needed. Returns the server's exit status.
# - ensure_apt PACKAGE...: install the Debian packages not installed yet (apt-get, as root), or fail
#   saying which are missing and why they cannot be had: a client step never passes without its toolchain.
# - deb_version PACKAGE: the installed version of a Debian package, for the version lines CI prints.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
E2E_DIR="$ROOT/target/e2e"
VENV="$ROOT/.venv"
SERVER_PID=""

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

ensure_venv() {
    local stamp hash
    hash="$(cat "$@" | sha256sum | cut -c1-16)"
    if [[ ! -x "$VENV/bin/python" ]]; then
        log "creating $VENV"
        python3 -m venv "$VENV"
    fi
    stamp="$VENV/.installed-$hash"
    if [[ ! -e "$stamp" ]]; then
        local args=()
        for req in "$@"; do args+=(-r "$req"); done
        log "pip install ${*#"$ROOT/"}"
        timeout 600 "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${args[@]}"
        touch "$stamp"
    fi
}

resolve_server_bin() {
    local bin="${1:-${SUDOKU_BIN:-}}"
    if [[ -z "$bin" ]]; then
        local release="$ROOT/target/release/sudoku-grpc" debug="$ROOT/target/debug/sudoku-grpc"
        if [[ -x "$release" && -x "$debug" ]]; then
            # Both built: take the newer, so a stale release binary does not mask a fresh debug one.
            if [[ "$debug" -nt "$release" ]]; then bin="$debug"; else bin="$release"; fi
        elif [[ -x "$release" ]]; then
            bin="$release"
        elif [[ -x "$debug" ]]; then
            bin="$debug"
        else
            die "no server binary: pass its path, set SUDOKU_BIN, or run cargo build --release"
        fi
    fi
    [[ -x "$bin" ]] || die "server binary not executable: $bin"
    (cd "$(dirname "$bin")" && printf '%s/%s\n' "$(pwd)" "$(basename "$bin")")
}

ensure_apt() {
    local missing=() pkg
    for pkg in "$@"; do
        [[ "$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null)" == "install ok installed" ]] || missing+=("$pkg")
    done
    ((${#missing[@]} == 0)) && return 0
    command -v apt-get >/dev/null || die "no apt-get to install ${missing[*]}: install them by hand"
    ((EUID == 0)) || die "installing ${missing[*]} needs root: run as root or install them by hand"
    log "apt-get install ${missing[*]}"
    timeout 300 apt-get update -q >/dev/null || die "apt-get update failed: cannot install ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -q --no-install-recommends "${missing[@]}" \
        >/dev/null || die "apt-get install ${missing[*]} failed"
}

deb_version() {
    dpkg-query -W -f='${Version}' "$1"
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start_server() {
    local bin="$1" name="$2"
    mkdir -p "$E2E_DIR"
    GRPC_PORT="$(free_port)"
    METRICS_PORT="$(free_port)"
    GRPC_ADDR="127.0.0.1:$GRPC_PORT"
    # shellcheck disable=SC2034 # used by the scripts that source this file
    GRPC_URL="http://$GRPC_ADDR"
    SERVER_LOG="$E2E_DIR/$name-server.log"
    trap 'stop_server >/dev/null 2>&1 || true' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    log "starting $bin serve --addr $GRPC_ADDR (log: ${SERVER_LOG#"$ROOT/"})"
    # Settings beyond --addr go through the environment, so a server without one of them still starts.
    SUDOKU_METRICS_ADDR="127.0.0.1:$METRICS_PORT" SUDOKU_SHUTDOWN_GRACE="${SUDOKU_SHUTDOWN_GRACE:-5s}" \
        RUST_LOG="${RUST_LOG:-info}" "$bin" serve --addr "$GRPC_ADDR" >"$SERVER_LOG" 2>&1 &
    SERVER_PID=$!
    local deadline=$((SECONDS + 30))
    until (exec 3<>"/dev/tcp/127.0.0.1/$GRPC_PORT") 2>/dev/null; do
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            cat "$SERVER_LOG" >&2
            SERVER_PID=""
            die "server exited before listening"
        fi
        ((SECONDS < deadline)) || { cat "$SERVER_LOG" >&2; die "server not listening on $GRPC_ADDR after 30s"; }
        sleep 0.1
    done
}

stop_server() {
    [[ -n "$SERVER_PID" ]] || return 0
    local pid="$SERVER_PID" status=0
    SERVER_PID=""
    kill -TERM "$pid" 2>/dev/null || return 0
    local deadline=$((SECONDS + 20))
    while kill -0 "$pid" 2>/dev/null; do
        if ((SECONDS >= deadline)); then
            kill -KILL "$pid" 2>/dev/null || true
            break
        fi
        sleep 0.1
    done
    wait "$pid" 2>/dev/null || status=$?
    return "$status"
}
