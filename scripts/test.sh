#!/usr/bin/env bash
# scripts/test.sh — runs every lockdive test, installing what is missing first (scripts/tools.sh):
# formatting, clippy, native tests (ministore incl. the real-Redis conformance suite, the contract and the
# first wasm's dependency tree, the page's scenario tests), the ministore wasm32 build, the wasm-bindgen
# tests in headless Chromium (the first wasm's and the page's), the release build, and the end-to-end tests
# of that build in headless Chromium over WebDriver (the `e2e/` crate). Prints a summary; exits non-zero if
# any step failed. Under CI=true a missing program fails the run (tests never skip).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/tools.sh

E2E_DIST="target/e2e-dist"
# A clean clone (what CI runs) gains nothing from incremental caches, which only take its disk.
if [ "${CI:-}" = "true" ]; then
    export CARGO_INCREMENTAL=0
fi
step_names=()
step_results=()
step_seconds=()
failed=0

# Runs one named step, records pass/fail and its duration, and keeps going so the summary shows everything.
step() {
    local name="$1"
    shift
    printf '\n\033[1;36m==> %s\033[0m\n    $ %s\n' "$name" "$*"
    local start=$SECONDS status=0
    "$@" || status=$?
    step_names+=("$name")
    step_seconds+=($((SECONDS - start)))
    if [ "$status" -eq 0 ]; then
        step_results+=("ok")
    else
        step_results+=("FAILED (exit $status)")
        failed=1
    fi
}

# What the run left on disk and what is free, so a run that fills the disk says so in its summary.
disk_note() {
    local held="nothing yet"
    [ -d target ] && held="$(du -sh target 2>/dev/null | cut -f1)"
    printf '  target/ holds %s; %s free on its disk\n' \
        "$held" "$(df -h --output=avail . 2>/dev/null | tail -1 | tr -d ' ')"
}

summary() {
    printf '\n\033[1m==> Summary\033[0m\n'
    local i
    for i in "${!step_names[@]}"; do
        printf '  %-52s %5ss  %s\n' "${step_names[$i]}" "${step_seconds[$i]}" "${step_results[$i]}"
    done
    disk_note
    if [ "$failed" -eq 0 ]; then
        printf '\033[1;32mAll steps passed\033[0m (%ss). Screenshots: target/screenshots/\n' "$SECONDS"
    else
        printf '\033[1;31mSome steps FAILED\033[0m (%ss).\n' "$SECONDS"
    fi
}

# Step functions run where errexit is off (inside `step`), so each failure returns explicitly.

release_build() {
    rm -rf "$E2E_DIST" || return $?
    trunk build --release --dist "$E2E_DIST"
}

# gzip -9 size of what the page loads (html, css, the first wasm and its js) against the 120 KB page
# budget, and, apart, of each lab chunk (<chunk>-<hash>.js, _loader.js, _bg.wasm) against the 150 KB
# a lab chunk is aimed at, each fetched only when the reader first reaches for one of its parts. Reported, not
# enforced: page weight is a budget tracked like a benchmark (./scripts/pagebench.sh), and a size
# must not hide whether the page works.
SIZE_BUDGET_BYTES=120000
LAB_BUDGET_BYTES=150000
LAB_CHUNKS=(lab-figures lab-store lab-check)
declare -A LAB_REACH=(
    [lab-figures]="the player or fence"
    [lab-store]="a console"
    [lab-check]="the lock checker"
)
size_note=""
release_size() {
    local file bytes chunk page=0
    local -A lab=()
    for file in "$E2E_DIST"/*.html "$E2E_DIST"/*.css "$E2E_DIST"/*.js "$E2E_DIST"/*.wasm; do
        [ -f "$file" ] || continue
        bytes=$(gzip -9c "$file" | wc -c)
        chunk=""
        for candidate in "${LAB_CHUNKS[@]}"; do
            case "$(basename "$file")" in "$candidate"-*) chunk=$candidate ;; esac
        done
        if [ -n "$chunk" ]; then
            lab[$chunk]=$(( ${lab[$chunk]:-0} + bytes ))
        else
            page=$((page + bytes))
        fi
        printf '    %-52s %8s B raw %8s B gzip\n' "$(basename "$file")" "$(stat -c%s "$file")" "$bytes"
    done
    printf '    %-52s %8s   %12s B gzip (budget %s B)\n' "page load" "" "$page" "$SIZE_BUDGET_BYTES"
    local labs="" over=""
    for chunk in "${LAB_CHUNKS[@]}"; do
        bytes=${lab[$chunk]:-0}
        printf '    %-52s %8s   %12s B gzip (budget %s B)\n' "$chunk, on first reach for ${LAB_REACH[$chunk]}" "" "$bytes" "$LAB_BUDGET_BYTES"
        [ "$bytes" -gt 0 ] || return 1
        labs="$labs${labs:+, }$chunk $bytes B"
        [ "$bytes" -le "$LAB_BUDGET_BYTES" ] || over="$over $chunk"
    done
    [ "$page" -gt 0 ] || return 1
    if [ "$page" -le "$SIZE_BUDGET_BYTES" ]; then
        size_note="page $page B gzip, within budget"
    else
        size_note="page $page B gzip, OVER the $SIZE_BUDGET_BYTES B budget"
    fi
    if [ -z "$over" ]; then
        size_note="$size_note; $labs on first reach, each within the $LAB_BUDGET_BYTES B lab budget"
    else
        size_note="$size_note; $labs on first reach, OVER the $LAB_BUDGET_BYTES B lab budget:$over"
    fi
}

# The browser tests (the e2e/ crate) check the build the step before made.
e2e_tests() {
    LOCKDIVE_DIST="$PWD/$E2E_DIST" cargo test --no-fail-fast -p lockdive-e2e
}

printf '\033[1m==> Disk at start\033[0m\n'
disk_note
step "tools (install what is missing)" bash -c 'source scripts/tools.sh && ensure_build_tools && ensure_test_tools'
if [ "${step_results[0]}" != "ok" ]; then
    summary
    exit 1
fi
step "cargo fmt --check" cargo fmt --all --check
step "cargo clippy (native, -D warnings)" cargo clippy --workspace --all-targets -- -D warnings
step "cargo clippy (wasm32 first wasm, page and lab, -D warnings)" cargo clippy -p lockdive-first -p lockdive --lib --bins --tests --target wasm32-unknown-unknown -- -D warnings
step "cargo clippy (wasm32 lab chunks as built: no views; ministore full only for the store's and checker's, -D warnings)" bash -c 'cargo clippy -p lockdive --no-default-features --lib --bins --target wasm32-unknown-unknown -- -D warnings && cargo clippy -p lockdive --no-default-features --features full-store --lib --bins --target wasm32-unknown-unknown -- -D warnings'
step "ministore and oracle tests (conformance vs Redis)" cargo test --no-fail-fast -p ministore -p redis-oracle
step "ministore without full (what the figures' lab chunk links: the page's scripts)" cargo test --no-fail-fast -p ministore --no-default-features --test slim
step "contract and first-wasm tests (hooks, rules, the first wasm's dependency tree)" cargo test --no-fail-fast -p lockdive-contract -p lockdive-first
step "lockdive native tests (scenarios, content, ...)" cargo test --no-fail-fast -p lockdive
step "ministore builds for wasm32" cargo build -p ministore --target wasm32-unknown-unknown
step "wasm tests (headless Chromium)" cargo test --no-fail-fast -p lockdive-first -p lockdive --target wasm32-unknown-unknown
step "release build (trunk, into $E2E_DIST)" release_build
step "release size (gzip -9, html+css+js+wasm)" release_size
[ -z "$size_note" ] || step_results[${#step_results[@]}-1]="ok: $size_note"
step "end-to-end tests of the release build (lockdive-e2e)" e2e_tests

summary
exit "$failed"
