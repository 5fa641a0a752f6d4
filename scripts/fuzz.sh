#!/usr/bin/env bash
# Runs each fuzz target in fuzz/ for a bounded time: scripts/fuzz.sh [SECONDS] (default 60 per target).
# Installs cargo-fuzz if it is missing. Builds without a sanitizer (`-s none`), which needs no nightly:
# the project has no unsafe code, so coverage guidance plus Rust's own panics and overflow checks are
# what finds bugs. Exits non-zero if any target finds a crash; the input is then under
# fuzz/artifacts/<target>/. See fuzz/README.md for what to do with it.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
case "$seconds" in
    '' | *[!0-9]*) echo "usage: $0 [SECONDS per target]" >&2; exit 2 ;;
esac

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is missing: installing it from crates.io" >&2
    cargo install cargo-fuzz --locked
fi

cd fuzz
targets=(parser solver canonicalize grader fpuzzles)
cargo fuzz build -s none

failed=()
for target in "${targets[@]}"; do
    mkdir -p "corpus/$target" "artifacts/$target"
    echo "=== fuzzing $target for ${seconds}s"
    # The first folder is where new corpus entries go; seeds/ is read only. -timeout flags a single
    # input that runs for over 10 s as a crash (a hang).
    if ! cargo fuzz run -s none "$target" "corpus/$target" "seeds/$target" -- \
        -max_total_time="$seconds" -timeout=10 -max_len=2048 -print_final_stats=1; then
        failed+=("$target")
    fi
done

if [ "${#failed[@]}" -gt 0 ]; then
    echo "crash found by: ${failed[*]} (inputs under fuzz/artifacts/)" >&2
    exit 1
fi
echo "no crash in ${#targets[@]} targets, ${seconds}s each"
