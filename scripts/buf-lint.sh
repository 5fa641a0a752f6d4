#!/usr/bin/env bash
# Lints the published contract (proto/) with buf, per buf.yaml (STANDARD + COMMENTS), and checks it
# is buf-formatted. buf comes from the npm package @bufbuild/buf, pinned in scripts/buf/package.json
# and installed into scripts/buf/node_modules (gitignored) by `npm ci`.
#
#   bash scripts/buf-lint.sh          # fix formatting with: scripts/buf/node_modules/.bin/buf format -w
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"

tools="$ROOT/scripts/buf"
buf="$tools/node_modules/.bin/buf"
want="$(sed -n 's/.*"@bufbuild\/buf": "\(.*\)".*/\1/p' "$tools/package.json")"
if [[ ! -x "$buf" ]] || [[ "$("$buf" --version 2>/dev/null)" != "$want" ]]; then
    log "npm ci (@bufbuild/buf $want)"
    (cd "$tools" && timeout 300 npm ci --no-audit --no-fund --loglevel=error)
fi

cd "$ROOT"
log "buf $("$buf" --version) lint"
timeout 120 "$buf" lint
log "buf format --diff --exit-code"
timeout 120 "$buf" format --diff --exit-code
log "proto/: buf lint clean"
