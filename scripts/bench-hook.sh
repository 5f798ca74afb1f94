#!/usr/bin/env bash
# bench-hook.sh times agent-guard-hook as whole processes, the way a host
# runs it: with `agent-guard serve --headless` up, in fallback (no server:
# the hook execs agent-guard-judge beside it), and the server under 1, 10
# and 100 concurrent hooks. It runs the e2e package's benchmarks (which
# build the binaries with
# -tags nogui, CGO_ENABLED=0) and prints median / p99 per call, then the
# server alone with in-process clients (BenchmarkServerRoundTrip).
#   N=300 scripts/bench-hook.sh      # runs per measurement (default 300)
# The README's full table (judge throughput, Node peer) is scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$HOME/go/bin:$PATH"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
N=${N:-300}
out=$(go test -run '^$' -bench 'BenchmarkHook|BenchmarkServerConcurrent' -benchtime "${N}x" -count 1 ./e2e/)
# The server alone (in-process clients, no process start-up per call).
out+=$'\n'$(go test -run '^$' -bench 'BenchmarkServerRoundTrip' -benchtime "$((N * 10))x" -count 1 ./app/server/)
echo "$out" | grep -E '^(goos|goarch|cpu):' || true
printf '\n| measure (%s hook runs each; server alone 10x that) | median | p99 | throughput |\n| --- | --- | --- | --- |\n' "$N"
echo "$out" | awk '/^Benchmark/ {
	name=$1; sub(/-[0-9]+$/, "", name); med=""; p99=""; tp=""
	for (i = 2; i < NF; i++) {
		if ($(i+1) == "median-ms") med = $i " ms"
		if ($(i+1) == "p99-ms") p99 = $i " ms"
		if ($(i+1) == "calls/s") tp = $i " calls/s"
	}
	printf "| %s | %s | %s | %s |\n", name, med, p99, tp
}'
