#!/usr/bin/env bash
# test.sh is agent-guard's whole test gate, the README's test command and
# what .ci/run calls. On a fresh Debian/Ubuntu machine it installs what the
# build needs (scripts/deps.sh), then runs, in order:
#
#   deps      apt packages (skipped with SKIP_DEPS=1)
#   modules   go mod download (network: retried)
#   gofmt     gofmt -l must list nothing
#   vet       go vet for linux (GUI and nogui), windows and darwin (nogui)
#   build     CGO_ENABLED=0 go build -tags nogui for linux, windows, darwin,
#             the Windows hook, and the Linux tray with cgo
#   test      go test -race -count=1 ./... (under Xvfb when it is installed)
#   fuzz      every Fuzz target for FUZZTIME (default 30000x executions)
#   wine      the Windows binaries and the Windows test binaries run under
#             wine (scripts/wine-test.sh; skipped with SKIP_WINE=1)
#   wintray   the Windows tray with mingw-w64 (started in the background
#             early, because its cold build takes ~10 minutes)
#
# Every step runs even when an earlier one failed, so one run shows all
# problems; the exit code is non-zero when any step failed, and the summary
# names the failed steps with the lines that say why. Tests are never
# retried: a flaky test is a bug to fix, not to hide.
#
# Knobs (environment): SKIP_DEPS=1, FUZZTIME=30000x, TEST_TIMEOUT=25m,
# SKIP_FUZZ=1, SKIP_WINTRAY=1, SKIP_WINE=1, GO_TEST_FLAGS (extra flags for go test).
set -uo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
export PATH="/usr/local/go/bin:$HOME/go/bin:$PATH"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
# An execution count, not a duration: a duration -fuzztime can fail with a
# bare "context deadline exceeded" at its end on a loaded machine (a race in
# Go's fuzz coordinator, golang/go#75804, fixed only in Go 1.27).
FUZZTIME=${FUZZTIME:-30000x}
TEST_TIMEOUT=${TEST_TIMEOUT:-25m}
GUITAGS=migrated_fynedo

WORK=$(mktemp -d "${TMPDIR:-/tmp}/agent-guard-test.XXXXXX")
LOGS="$WORK/logs"
OUT="$WORK/bin"
mkdir -p "$LOGS" "$OUT"

START_ALL=$(date +%s)
STEPS=()   # "name|status|seconds"
FAILED=()

say() { printf '\n==> %s\n' "$*"; }

# step NAME CMD... runs one step in a subshell, streams its output and
# keeps a log; a failing step is recorded and the run goes on.
step() {
	local name=$1
	shift
	say "$name: $*"
	local t0 rc
	t0=$(date +%s)
	("$@") 2>&1 | tee "$LOGS/$name.log"
	rc=${PIPESTATUS[0]}
	local dt=$(($(date +%s) - t0))
	if [ "$rc" -eq 0 ]; then
		STEPS+=("$name|ok|$dt")
	else
		STEPS+=("$name|FAILED (exit $rc)|$dt")
		FAILED+=("$name")
		printf '!!! step %s failed (exit %d)\n' "$name" "$rc"
	fi
	return 0
}

cleanup() {
	if [ -n "${WINTRAY_PID:-}" ] && [ -z "${WINTRAY_RC:-}" ]; then
		kill "$WINTRAY_PID" 2>/dev/null || true
	fi
}
trap cleanup EXIT

# retry runs a network step up to 4 times. Only for downloads, never tests.
retry() {
	local n=1
	until "$@"; do
		if [ "$n" -ge 4 ]; then
			return 1
		fi
		echo "retry: try $n failed, again in $((n * 10))s: $*"
		sleep $((n * 10))
		n=$((n + 1))
	done
}

# ---------------------------------------------------------------- steps

do_deps() { scripts/deps.sh; }

do_modules() {
	command -v go >/dev/null || {
		echo "go is not on PATH; install Go (see go.mod for the version) into /usr/local/go"
		return 1
	}
	go version
	retry go mod download
}

do_gofmt() {
	local files
	files=$(find . -name '*.go' -not -path './.git/*' -not -path '*/testdata/*' -print0 | xargs -0 gofmt -l)
	if [ -n "$files" ]; then
		echo "gofmt: these files need 'gofmt -w':"
		echo "$files"
		return 1
	fi
	echo "gofmt: clean"
}

# nogui_pkgs lists the packages that must build without cgo for GOOS $1:
# everything except the ones that link Fyne (app/ui and its windows). With
# $2 = build, test-only packages are left out (go build rejects them).
nogui_pkgs() {
	local files='or .GoFiles .TestGoFiles .XTestGoFiles'
	[ "${2:-}" = build ] && files='.GoFiles'
	GOOS=$1 CGO_ENABLED=0 go list -e -tags nogui \
		-f "{{if $files}}{{.ImportPath}} {{join .Deps \" \"}} {{join .TestImports \" \"}} {{join .XTestImports \" \"}}{{end}}" ./... |
		grep -v -e 'fyne\.io/' | awk '{print $1}'
}

# nogui_excluded names the packages nogui_pkgs leaves out for GOOS $1.
nogui_excluded() {
	comm -23 <(GOOS=$1 CGO_ENABLED=0 go list -e -tags nogui ./... | sort) <(nogui_pkgs "$1" | sort) |
		sed 's|.*/agent-guard/||' | tr '\n' ' '
}

do_vet() {
	local rc=0 pkgs
	echo "-- linux (GUI build, tags $GUITAGS)"
	go vet -tags "$GUITAGS" ./... || rc=1
	echo "-- linux (nogui)"
	CGO_ENABLED=0 go vet -tags nogui $(nogui_pkgs linux) || rc=1
	for os in windows darwin; do
		pkgs=$(nogui_pkgs $os)
		echo "-- $os (nogui): $(echo $pkgs | wc -w) packages"
		GOOS=$os CGO_ENABLED=0 go vet -tags nogui $pkgs || rc=1
	done
	return $rc
}

do_build() {
	local rc=0
	# Everything but the Fyne packages (app/ui and what imports it) must
	# build without cgo everywhere: that is what the hook may link.
	local pkgs
	for os in linux windows darwin; do
		pkgs=$(nogui_pkgs $os build)
		local left
		left=$(nogui_excluded $os)
		echo "-- CGO_ENABLED=0 GOOS=$os go build -tags nogui ($(echo $pkgs | wc -w) packages${left:+; left out as GUI-only: $left})"
		GOOS=$os CGO_ENABLED=0 go build -tags nogui $pkgs || rc=1
	done
	echo "-- hook for windows/amd64 and linux/amd64 without cgo"
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -o "$OUT/agent-guard-hook.exe" ./cmd/agent-guard-hook || rc=1
	CGO_ENABLED=0 go build -o "$OUT/agent-guard-hook" ./cmd/agent-guard-hook || rc=1
	echo "-- linux tray (cgo, tags $GUITAGS)"
	go build -tags "$GUITAGS" -o "$OUT/agent-guard" ./cmd/agent-guard || rc=1
	return $rc
}

# start_xvfb gives the GUI tests a display (and a session bus) when Xvfb
# is installed and no display is set. The GUI tests skip without one.
start_xvfb() {
	if [ -n "${DISPLAY:-}" ]; then
		echo "xvfb: using DISPLAY=$DISPLAY"
		return 0
	fi
	if ! command -v Xvfb >/dev/null; then
		echo "xvfb: not installed; GUI tests will skip"
		return 0
	fi
	local fdfile="$WORK/display"
	Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp -noreset 3>"$fdfile" >"$LOGS/xvfb.log" 2>&1 &
	XVFB_PID=$!
	local i
	for i in $(seq 1 100); do
		[ -s "$fdfile" ] && break
		sleep 0.1
	done
	if [ ! -s "$fdfile" ]; then
		echo "xvfb: did not start (see $LOGS/xvfb.log); GUI tests will skip"
		return 0
	fi
	export DISPLAY=":$(head -n1 "$fdfile" | tr -d '[:space:]')"
	echo "xvfb: DISPLAY=$DISPLAY"
	if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] && command -v dbus-launch >/dev/null; then
		local out
		out=$(dbus-launch --sh-syntax 2>/dev/null) && eval "$out" &&
			export DBUS_SESSION_BUS_ADDRESS && DBUS_PID=$DBUS_SESSION_BUS_PID &&
			echo "dbus: session bus at $DBUS_SESSION_BUS_ADDRESS"
	fi
	return 0
}

# stop_xvfb ends the display and bus that start_xvfb started, by pid.
stop_xvfb() {
	[ -n "${DBUS_PID:-}" ] && kill "$DBUS_PID" 2>/dev/null
	[ -n "${XVFB_PID:-}" ] && kill "$XVFB_PID" 2>/dev/null
	return 0
}

do_test() {
	trap stop_xvfb EXIT
	start_xvfb
	local rc
	# scripts/testreport turns go test -json into a short log: package
	# lines, the output of failed tests only, and the closing counts.
	if go build -o "$WORK/testreport" ./scripts/testreport; then
		go test -race -count=1 -timeout "$TEST_TIMEOUT" -tags "$GUITAGS" -json ${GO_TEST_FLAGS:-} ./... 2>&1 |
			"$WORK/testreport" -raw "$LOGS/test.json"
		rc=$((PIPESTATUS[0] | PIPESTATUS[1]))
	else
		echo "(scripts/testreport does not build; plain go test output follows)"
		go test -race -count=1 -timeout "$TEST_TIMEOUT" -tags "$GUITAGS" ${GO_TEST_FLAGS:-} ./...
		rc=$?
	fi
	return $rc
}

do_fuzz() {
	local list rc=0 pkg name n=0
	# A package that does not build fails the step, but the others still run.
	list=$(go test -list '^Fuzz' ./... 2>&1) || {
		echo "$list" | grep -v -E '^(Fuzz|ok|\?)'
		rc=1
	}
	# go test -list prints the names, then "ok  <pkg>" for each package.
	local names=()
	while IFS= read -r line; do
		case "$line" in
		Fuzz*) names+=("$line") ;;
		ok*)
			pkg=$(echo "$line" | awk '{print $2}')
			for name in "${names[@]}"; do
				n=$((n + 1))
				echo "-- $pkg $name ($FUZZTIME)"
				go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" "$pkg" || {
					rc=1
					echo "!!! fuzz $pkg $name failed (a crasher, if any, is under $pkg's testdata/fuzz/$name)"
				}
			done
			names=()
			;;
		esac
	done <<<"$list"
	echo "fuzz: $n targets"
	return $rc
}

start_wintray() {
	if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
		echo "mingw-w64 is not installed (scripts/deps.sh installs it)" >"$LOGS/wintray.log"
		return
	fi
	(
		cd "$ROOT" &&
			GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc \
				nice -n 10 go build -tags "$GUITAGS" -ldflags -H=windowsgui -o "$OUT/agent-guard.exe" ./cmd/agent-guard
	) >"$LOGS/wintray.log" 2>&1 &
	WINTRAY_PID=$!
	WINTRAY_T0=$(date +%s)
	echo "wintray: building the Windows tray in the background (pid $WINTRAY_PID, log $LOGS/wintray.log)"
}

# wintray_result reports the background build that the main shell waited for.
wintray_result() {
	cat "$LOGS/wintray.log"
	if [ -z "${WINTRAY_PID:-}" ]; then
		return 1
	fi
	echo "wintray: finished ${WINTRAY_SECS}s after it started (in parallel with the steps above)"
	[ "$WINTRAY_RC" -eq 0 ] && ls -l "$OUT/agent-guard.exe"
	return "$WINTRAY_RC"
}

# ---------------------------------------------------------------- run

if [ "${SKIP_DEPS:-}" = 1 ]; then
	STEPS+=("deps|skipped|0")
else
	step deps do_deps
fi
step modules do_modules
if [ "${SKIP_WINTRAY:-}" != 1 ]; then
	start_wintray
fi
step gofmt do_gofmt
step vet do_vet
step build do_build
step test do_test
if [ "${SKIP_FUZZ:-}" = 1 ]; then
	STEPS+=("fuzz|skipped|0")
else
	step fuzz do_fuzz
fi
if [ "${SKIP_WINE:-}" = 1 ]; then
	STEPS+=("wine|skipped|0")
else
	step wine scripts/wine-test.sh
fi
if [ "${SKIP_WINTRAY:-}" = 1 ]; then
	STEPS+=("wintray|skipped|0")
else
	if [ -n "${WINTRAY_PID:-}" ]; then
		say "wintray: waiting for the background build"
		wait "$WINTRAY_PID"
		WINTRAY_RC=$?
		WINTRAY_SECS=$(($(date +%s) - WINTRAY_T0))
	fi
	step wintray wintray_result
	# Its time is the background build's own, not the wait above.
	last=$((${#STEPS[@]} - 1))
	STEPS[$last]="${STEPS[$last]%|*}|${WINTRAY_SECS:-0} (background)"
fi

# ---------------------------------------------------------------- summary

# The closing counts come from testreport's last line in the test log.
counts=""
if [ -f "$LOGS/test.log" ]; then
	counts=$(grep -E '^tests: [0-9]+ passed, [0-9]+ failed' "$LOGS/test.log" | tail -n 1)
fi

say "summary (logs in $LOGS)"
printf '%-10s %-22s %s\n' step result seconds
for s in "${STEPS[@]}"; do
	IFS='|' read -r n r d <<<"$s"
	printf '%-10s %-22s %s\n' "$n" "$r" "$d"
done
printf '%-10s %-22s %s\n' total "" "$(($(date +%s) - START_ALL))"

if [ "${#FAILED[@]}" -gt 0 ]; then
	echo
	echo "FAILED steps: ${FAILED[*]}"
	for f in "${FAILED[@]}"; do
		log="$LOGS/$f.log"
		echo "--- why $f failed ($log):"
		if [ "$f" = test ]; then
			grep -E '^FAIL ' "$log" | head -n 20
			sed -n '/^failed tests:/,/^tests:/p' "$log" | grep -v '^tests:' | head -n 40
			continue
		fi
		hits=$(grep -E -e '--- FAIL|^FAIL|panic:|cannot|undefined|error|Error|need|DATA RACE|timed out|failed|gofmt|\.go$' "$log" | grep -v -E '^=== |--- (PASS|SKIP)' | awk '!seen[$0]++' | head -n 40)
		if [ -n "$hits" ]; then echo "$hits"; else tail -n 20 "$log"; fi
	done
fi
if [ -z "$counts" ] || [ "$counts" = "tests: 0 passed, 0 failed, 0 skipped" ]; then
	echo "no test ran"
	FAILED+=("no-tests")
	counts="tests: 0 passed, 0 failed, 0 skipped"
fi
echo
echo "$counts"
[ "${#FAILED[@]}" -eq 0 ]
