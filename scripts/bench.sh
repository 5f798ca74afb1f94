#!/usr/bin/env bash
# bench.sh prints agent-guard's performance table (the one in the README):
# judge throughput on one core, hook latency with the server up and in
# fallback, the server under 1/10/100 concurrent hooks, tray idle CPU/RSS,
# and the Node peer cc-safety-net timed on the same input (installed with
# npm into a temp folder; -skip-node to leave it out).
# Flags go to scripts/benchtable: -runs N, -peer-runs N, -skip-node,
# -skip-tray, -benchtime 3s, -v.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$HOME/go/bin:$PATH"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
exec go run ./scripts/benchtable "$@"
