#!/usr/bin/env bash
# scripts/tools.sh — installs the build and test tools lockdive needs, only those missing or at the wrong
# version, on a Debian 12 machine that has only stable Rust (rustup) and the package registries.
#
# Sourced by serve.sh and test.sh (`source scripts/tools.sh; ensure_build_tools; ensure_test_tools`), or run
# directly (`./scripts/tools.sh`, which ensures everything). Nothing is ever downloaded at build time: Trunk
# runs offline with the tools installed here.
set -euo pipefail

LOCKDIVE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TRUNK_VERSION="0.21.14"
BINARYEN_VERSION="132"
APT_TEST_PACKAGES=(chromium chromium-driver redis-server redis-tools)

# Installed cargo binaries and npm's wasm-opt come first, so Trunk finds exactly the pinned tools.
export PATH="$LOCKDIVE_ROOT/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

say() { printf '\033[1;34m[tools]\033[0m %s\n' "$*"; }
die() {
    printf '\033[1;31m[tools] ERROR:\033[0m %s\n' "$*" >&2
    exit 1
}

# Runs a command as root: directly when we are root, through sudo otherwise.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        die "need root to run '$*' and sudo is not installed"
    fi
}

# Prints the version Cargo.lock pins for a package (first match).
locked_version() {
    awk -v name="$1" '
        $0 == "name = \"" name "\"" { found = 1; next }
        found && /^version = / { gsub(/"/, "", $3); print $3; exit }
    ' "$LOCKDIVE_ROOT/Cargo.lock"
}

# apt-get installs the Debian packages given that are not installed yet (one `apt-get update` first).
ensure_apt_packages() {
    local missing=()
    local pkg
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$pkg")
        fi
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        say "apt-get install ${missing[*]}"
        as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
    fi
}

ensure_wasm_target() {
    command -v rustup >/dev/null 2>&1 || die "rustup not found: install stable Rust with rustup first"
    if ! rustup target list --installed | grep -qx 'wasm32-unknown-unknown'; then
        say "rustup target add wasm32-unknown-unknown"
        rustup target add wasm32-unknown-unknown
    fi
}

# rustfmt and clippy ship with most rustup profiles, but not with `minimal`.
ensure_rust_components() {
    if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
        say "rustup component add rustfmt clippy"
        rustup component add rustfmt clippy
    fi
}

ensure_trunk() {
    if [ "$(trunk --version 2>/dev/null || true)" != "trunk $TRUNK_VERSION" ]; then
        say "cargo install trunk $TRUNK_VERSION (takes several minutes, once)"
        cargo install trunk --version "$TRUNK_VERSION" --locked --force
    fi
}

# wasm-bindgen-cli must match the wasm-bindgen crate exactly. Installed WITHOUT --locked: its lock file names a
# dependency version that is no longer on crates.io.
ensure_wasm_bindgen() {
    local want
    want="$(locked_version wasm-bindgen)"
    [ -n "$want" ] || die "cannot read the wasm-bindgen version from Cargo.lock"
    if [ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $want" ] ||
        ! command -v wasm-bindgen-test-runner >/dev/null 2>&1; then
        say "cargo install wasm-bindgen-cli $want (takes a few minutes, once)"
        cargo install wasm-bindgen-cli --version "$want" --force
    fi
}

# wasm-opt from npm's binaryen, pinned in package-lock.json. Never Debian's binaryen: it corrupts the wasm.
ensure_wasm_opt() {
    if ! command -v npm >/dev/null 2>&1; then
        ensure_apt_packages nodejs npm
    fi
    local have
    have="$("$LOCKDIVE_ROOT/node_modules/.bin/wasm-opt" --version 2>/dev/null || true)"
    case "$have" in
        *"version $BINARYEN_VERSION "* | *"version $BINARYEN_VERSION") ;;
        *)
            say "npm ci (binaryen $BINARYEN_VERSION for wasm-opt)"
            (cd "$LOCKDIVE_ROOT" && npm ci --no-audit --no-fund)
            ;;
    esac
}

# Fails loudly when a program a step needs is still missing after the installs.
require_programs() {
    local prog
    for prog in "$@"; do
        command -v "$prog" >/dev/null 2>&1 || die "'$prog' is missing after installing; cannot continue"
    done
}

# What `trunk build` / `trunk serve` need.
ensure_build_tools() {
    require_programs cargo
    ensure_wasm_target
    ensure_trunk
    ensure_wasm_bindgen
    ensure_wasm_opt
    require_programs trunk wasm-bindgen wasm-opt
    # Trunk runs cargo with --offline (Trunk.toml), so every crate must be in the local registry first.
    (cd "$LOCKDIVE_ROOT" && cargo fetch -q)
}

# axe-core for the accessibility audit (e2e/tests/a11y.rs), pinned in package.json like binaryen.
ensure_axe_core() {
    if [ ! -f "$LOCKDIVE_ROOT/node_modules/axe-core/axe.min.js" ]; then
        say "npm ci (axe-core for the accessibility audit)"
        (cd "$LOCKDIVE_ROOT" && npm ci --no-audit --no-fund)
    fi
    [ -f "$LOCKDIVE_ROOT/node_modules/axe-core/axe.min.js" ] || die "node_modules/axe-core/axe.min.js missing after npm ci"
}

# What the tests add on top: headless Chromium + chromedriver, Redis as the conformance oracle, axe-core.
ensure_test_tools() {
    ensure_rust_components
    ensure_axe_core
    ensure_apt_packages "${APT_TEST_PACKAGES[@]}"
    require_programs wasm-bindgen-test-runner chromium chromedriver redis-server redis-cli
    [ -x /usr/bin/chromium ] || die "/usr/bin/chromium not found (webdriver.json and the e2e test use it)"
    [ -x /usr/bin/chromedriver ] || die "/usr/bin/chromedriver not found (.cargo/config.toml uses it)"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    ensure_build_tools
    ensure_test_tools
    say "all tools present"
fi
