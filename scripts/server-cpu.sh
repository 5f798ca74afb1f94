#!/usr/bin/env bash
# server-cpu.sh prints the server's CPU per simple request by profile, the
# figure of the README's "server CPU" row: BenchmarkServerSimpleRequest
# (./app/server: the real judge offline, the real audit log in a temp
# folder, one client at a time on a real socket, `git status`, an allow)
# under -cpuprofile, and the samples under the server's own goroutines
# (Serve's accept loop and the workers' handle) divided by the requests.
# The client runs in the same process, and its samples are left out; so
# are the runtime's scheduler and GC, which no goroutine of ours owns
# (scripts/bench.sh reports the whole process per request, by schedstat).
# With -cpu 1: the tray and serve --headless run on one processor
# (server.OneProcessor).
#   N=40000 scripts/server-cpu.sh     # requests (default 40000)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$HOME/go/bin:$PATH"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
N=${N:-40000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
go test -run '^$' -bench '^BenchmarkServerSimpleRequest$' -benchtime "${N}x" -count 1 -cpu 1 \
	-cpuprofile "$tmp/cpu.prof" -o "$tmp/server.test" ./app/server/ | grep -E '^Benchmark' || true
echo "load average after:  $(cut -d' ' -f1-3 /proc/loadavg)"
# Twice: the whole profile (the server's goroutines and the total), then
# only the server's stacks (its parts, without the client's share of
# close and the like).
{
	go tool pprof -top -cum -nodecount=100000 "$tmp/server.test" "$tmp/cpu.prof" 2>/dev/null
	echo "=== server only"
	go tool pprof -top -cum -nodecount=100000 -focus='app/server\.\(\*Server\)\.(worker|Serve)$' "$tmp/server.test" "$tmp/cpu.prof" 2>/dev/null
} | awk -v n="$N" '
function us(v) { # "1.86s", "360ms", "20us", "0" -> microseconds
	if (v ~ /ms$/) { sub(/ms$/, "", v); return v * 1000 }
	if (v ~ /us$/) { sub(/us$/, "", v); return v }
	if (v ~ /s$/) { sub(/s$/, "", v); return v * 1e6 }
	return v
}
/^=== server only/ { part = 1 }
/Total samples/ && !part { for (i = 1; i <= NF; i++) if ($i == "=") total = us($(i+1)) }
NF >= 6 && !part { cum[$6] = us($4) }
NF >= 6 && part { sub_[$6] = us($4) }
END {
	srv = cum["github.com/agent-guard/agent-guard/app/server.(*Server).worker"] + cum["github.com/agent-guard/agent-guard/app/server.(*Server).Serve"]
	printf "server CPU per request by profile (accept loop + workers): %.1f us (%d requests)\n", srv / n, n
	split("judge|github.com/agent-guard/agent-guard/app/judge.(*Judge).Judge;" \
		"decode the request line|github.com/agent-guard/agent-guard/app/wire.ReadRequest;" \
		"decode the host event|github.com/agent-guard/agent-guard/app/hostproto.Host.Parse;" \
		"decode the tool input|github.com/agent-guard/agent-guard/app/judge.StateFromEvent;" \
		"audit line (encode, write: stat, lock elsewhere)|github.com/agent-guard/agent-guard/app/audit.(*Writer).Append;" \
		"accept and peer check|github.com/agent-guard/agent-guard/app/pipe.(*listener).Accept;" \
		"reply|github.com/agent-guard/agent-guard/app/server.(*Server).respond;" \
		"close|net.(*conn).Close;" \
		"system calls, all of the above|internal/runtime/syscall/linux.Syscall6", parts, ";")
	for (k = 1; k in parts; k++) {
		split(parts[k], p, "|")
		printf "  %-56s %5.1f us\n", p[1], sub_[p[2]] / n
	}
	printf "whole process, client included, per request: %.1f us\n", total / n
}'
