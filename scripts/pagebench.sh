#!/usr/bin/env bash
# scripts/pagebench.sh — the page budget benchmark: builds the release page into target/bench-dist
# and prints one table (e2e/examples/pagebench/): gzip weight, first contentful paint and time to interactive
# under 4x CPU throttling, hover-to-readout latency — beside a static-HTML floor of the same page (no
# scripts). A measurement, not a test: it never fails on a number. Needs chromium + chromedriver
# (./scripts/tools.sh installs them).
#
#   ./scripts/pagebench.sh             # build, then measure
#   ./scripts/pagebench.sh --no-build  # measure the last build in target/bench-dist
#   PAGEBENCH_ONLY=reaches ./scripts/pagebench.sh --no-build  # only the reach rows and their floor
#   PAGEBENCH_ONLY=live ./scripts/pagebench.sh --no-build     # only the lab's live controls
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/tools.sh

BENCH_DIST="target/bench-dist"
if [ "${1:-}" != "--no-build" ]; then
    ensure_build_tools
    rm -rf "$BENCH_DIST"
    trunk build --release --dist "$BENCH_DIST"
fi
ensure_test_tools
cargo run -q -p lockdive-e2e --example pagebench -- "$PWD/$BENCH_DIST"
