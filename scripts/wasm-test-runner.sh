#!/usr/bin/env bash
# scripts/wasm-test-runner.sh — cargo's runner for the wasm32 tests (.cargo/config.toml):
# wasm-bindgen-test-runner in a temporary folder of its own, removed afterwards. chromedriver gives
# each session a fresh Chromium profile under $TMPDIR but does not always remove it when the runner
# ends (about 100 MB a test binary); this way every run starts clean and leaves nothing behind.
set -euo pipefail
scratch="$(mktemp -d "${TMPDIR:-/tmp}/lockdive-wasm-test.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
TMPDIR="$scratch" wasm-bindgen-test-runner "$@"
