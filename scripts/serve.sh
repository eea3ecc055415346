#!/usr/bin/env bash
# scripts/serve.sh — serves the page locally with live rebuild (trunk serve), opening it in a browser when
# there is a desktop to open it on. Installs the build tools first where missing (scripts/tools.sh).
#
#   ./scripts/serve.sh                 # debug build on http://127.0.0.1:8080/
#   PORT=9000 ./scripts/serve.sh       # another port
#   ./scripts/serve.sh --release       # extra arguments go to `trunk serve`
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/tools.sh

ensure_build_tools

port="${PORT:-8080}"
open_flag=()
if { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; } && command -v xdg-open >/dev/null 2>&1; then
    open_flag=(--open)
else
    say "no desktop browser to open here; visit http://127.0.0.1:$port/ yourself"
fi

# `trunk serve` rewrites dist/; the tests build into target/e2e-dist and never read dist/.
exec trunk serve --address 127.0.0.1 --port "$port" "${open_flag[@]}" "$@"
