#!/usr/bin/env bash
# End-to-end from Node.js: clients/node (the README's Node example, @grpc/grpc-js + @grpc/proto-loader
# pinned in package-lock.json) tested with node's own test runner against a real server.
# `npm ci` installs into clients/node/node_modules (gitignored); the server runs on a free loopback
# port and is killed on exit.
#
#   bash scripts/e2e-node.sh [path/to/sudoku-grpc]
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"
BIN="$(resolve_server_bin "${1:-}")"
NODE_DIR="$ROOT/clients/node"

# Reinstall only when the lockfile changed since the last install.
stamp="$NODE_DIR/node_modules/.lock-$(sha256sum "$NODE_DIR/package-lock.json" | cut -c1-16)"
if [[ ! -e "$stamp" ]]; then
    log "npm ci in clients/node"
    (cd "$NODE_DIR" && timeout 300 npm ci --no-audit --no-fund --loglevel=error)
    touch "$stamp"
fi

log "versions: node $(node --version), @grpc/grpc-js $(node -p "require('$NODE_DIR/node_modules/@grpc/grpc-js/package.json').version")," \
    "@grpc/proto-loader $(node -p "require('$NODE_DIR/node_modules/@grpc/proto-loader/package.json').version")"

start_server "$BIN" node
log "node --test clients/node/test against $GRPC_ADDR (node $(node --version))"
cd "$NODE_DIR"
SUDOKU_TEST_ADDR="$GRPC_ADDR" timeout 300 node --test test/
