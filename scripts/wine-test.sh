#!/usr/bin/env bash
# wine-test.sh runs the Windows binaries and the Windows test binaries for
# real, under wine, on Linux (issue 16). scripts/test.sh calls it as its
# "wine" step; it also runs on its own: scripts/wine-test.sh.
#
#   1. a throwaway WINEPREFIX under a temp dir (removed at the end), with
#      bcryptprimitives.dll built from scripts/wine/bcryptprimitives.c:
#      Go 1.24+ needs its ProcessPrng, which wine 8 lacks;
#   2. the real agent-guard.exe and agent-guard-hook.exe: check on Windows
#      spellings (levels asserted), install/uninstall --zcode into the
#      prefix's %USERPROFILE% (backup, other keys kept), doctor, the hook's
#      fallback (stdin, stdout, exit code), serve --headless with hook round
#      trips over a named pipe;
#   3. go test for GOOS=windows over the nogui packages, each test binary
#      run by wine (go test -exec), with prebuilt binaries for the tests
#      that would run `go build` (AGENT_GUARD_TEST_BIN_DIR).
#
# Test-only workaround: Go's RemoveAll (t.TempDir's cleanup) deletes with
# FileDispositionInformationEx, which wine 8 does not implement (the call
# fails with STATUS_NOT_IMPLEMENTED, "Invalid function"). Go already falls
# back to the older delete call for Windows versions without it; the test
# binaries are built with an -overlay that adds wine's status to that
# fallback's list. Product binaries are built without it.
#
# Known failures under wine (wine cannot do what they check) are skipped
# by name with the reason printed; see KNOWN below. Exit 1 when anything
# else fails. Needs wine, wine64 and mingw-w64 (scripts/deps.sh).
set -uo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
export PATH="/usr/local/go/bin:$HOME/go/bin:$PATH"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
WINE_TEST_TIMEOUT=${WINE_TEST_TIMEOUT:-5m}
# WINE_TEST_ONLY="app/install app/cli" runs go test for those packages only.
# WINE_TEST_RUN=regexp is go test's -run; WINE_TEST_JSON=file keeps the
# go test -json stream (which tests ran, passed, skipped).

# KNOWN: "package|test regexp (no | in it)|why". Skipped under wine only, and printed.
# go test takes one -skip for all packages, so each regexp names a
# top-level test whose name no other package uses.
KNOWN=(
	"app/pipe|^TestListenInUse\$|wine ignores FILE_CREATE on named pipes, so a second server on the same name is not refused; the single-instance check runs only on real Windows (README, Windows)"
	"cmd/agent-guard-hook|^TestDeps\$|runs go list, and there is no Go toolchain inside wine (the Linux run covers it for every GOOS)"
	"cmd/agent-guard-hook|^TestBinarySize\$|runs go build, and there is no Go toolchain inside wine (the Linux run covers it for every GOOS)"
	"cmd/agent-guard-judge|^TestInitAllocationBudget\$|runs go build, and there is no Go toolchain inside wine (the Linux run covers it)"
	"app/judge|^TestCatalogRepoExamples\$|builds the disk examples' git work trees with git, and there is no git inside wine (runs on Linux)"
	"app/judge|^TestSessionMemoryAcrossCalls\$|builds real git repositories with git, and there is no git inside wine (runs on Linux)"
	"app/judge/disk|^TestAssessClassesMatchGit\$|needs git inside wine (runs on Linux)"
	"app/judge/disk|^TestAssessFindMatchAndGitDir\$|needs git inside wine (runs on Linux)"
	"app/judge/disk|^TestAssessBudget\$|needs git inside wine (runs on Linux)"
	"app/judge/disk|^TestAssessOneRepo\$|needs git inside wine (runs on Linux)"
	"app/judge/rules|^TestGitDiscardActsOnItsRepository\$|needs git inside wine (runs on Linux)"
	"app/judge/rules|^TestDiskRecoverability\$|needs git inside wine (runs on Linux)"
	"app/judge/rules|^TestDiskFailuresConfirm\$|needs git inside wine (runs on Linux)"
	"app/judge/rules|^TestWriteOnDisk\$|needs git inside wine (runs on Linux)"
	"app/judge/rules/packs/git|^TestGitCheckoutRefOrPath\$|needs git inside wine (runs on Linux)"
	"app/judge/rules|^TestPushNewRemoteSecrets\$|needs git inside wine (runs on Linux)"
	"e2e|^TestClineHookFile\$|runs the Cline hook file PreToolUse.ps1 with powershell.exe, and wine's powershell.exe is a stub that runs nothing (exit 0, no output); real Windows runs it"
	"tamper|^TestSymlinkRoutes\$|wine 8 cannot read its own symlinks back: os.Symlink succeeds, then Lstat, Readlink and EvalSymlinks of the link say File not found (checked with a small program), so no route through a link can be judged; the guard's link resolution (rules realPath) is the same code on every OS"
)
# Packages that cannot run under wine at all, with why (printed).
# tamper runs (its binaries prebuilt, see testbin); e2e is listed below.
KNOWN_PKGS=(
	"e2e|flaky under wine 8: its 18 tests passed under wine in one run of two on 2026-12-02 (load 12); the other failed TestHostsFallback with a fallback judge whose exit wine reported late (exec: WaitDelay expired before I/O complete). Earlier failures were a process start refused with Internal error (now run again, below) and its own config edit renamed without the retry Windows needs (now retried). All run on Linux"
)

for tool in wine wineserver wineboot x86_64-w64-mingw32-gcc; do
	command -v "$tool" >/dev/null || {
		echo "wine-test: $tool is not installed (scripts/deps.sh installs wine, wine64 and mingw-w64)"
		exit 1
	}
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/agent-guard-wine.XXXXXX")
export WINEPREFIX="$WORK/prefix" WINEDEBUG=-all WINEARCH=win64
# No Mono or Gecko install prompts: nothing here needs .NET or a browser.
export WINEDLLOVERRIDES="mscoree,mshtml="
BIN="$WORK/bin"
mkdir -p "$BIN"
SERVE_PID=""

cleanup() {
	[ -n "$SERVE_PID" ] && kill "$SERVE_PID" 2>/dev/null
	wineserver -k 2>/dev/null
	wineserver -w 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

PASS=0
FAIL=0
FAILS=()
ok() {
	PASS=$((PASS + 1))
	echo "ok   $*"
}
bad() {
	FAIL=$((FAIL + 1))
	FAILS+=("$*")
	echo "FAIL $*"
}
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }

# ------------------------------------------------------------ prefix
t0=$(now)
wineboot -i >"$WORK/wineboot.log" 2>&1
wineserver -w
PREFIX_SECS=$(secs "$t0")
echo "wine-test: $(wine --version) prefix created in ${PREFIX_SECS}s ($WINEPREFIX)"

x86_64-w64-mingw32-gcc -shared -O2 -Wall -o "$WORK/bcryptprimitives.dll" \
	scripts/wine/bcryptprimitives.c -ladvapi32 || {
	echo "wine-test: building the ProcessPrng DLL failed"
	exit 1
}
cp "$WORK/bcryptprimitives.dll" "$WINEPREFIX/drive_c/windows/system32/"

# One wineserver (and its service processes) for the whole run: otherwise
# the first Windows process of each test binary starts them, they inherit
# that process's stdout, and go test waits on the pipe ("Test I/O
# incomplete").
wineserver -p
wine cmd /c exit >/dev/null 2>&1

t0=$(now)
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -tags nogui -o "$BIN/agent-guard.exe" ./cmd/agent-guard &&
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -o "$BIN/agent-guard-hook.exe" ./cmd/agent-guard-hook &&
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -o "$BIN/agent-guard-judge.exe" ./cmd/agent-guard-judge || {
	echo "wine-test: cross-building the Windows binaries failed"
	exit 1
}
echo "wine-test: Windows binaries built in $(secs "$t0")s"

WUSER=$(wine cmd /c 'echo %USERNAME%' 2>/dev/null | tr -d '\r')
WHOME="$WINEPREFIX/drive_c/users/$WUSER"
winpath() { winepath -w "$1" 2>/dev/null | tr -d '\r'; }
WBIN=$(winpath "$BIN")
GUARD_HOME="$WORK/guard-home"
mkdir -p "$GUARD_HOME"
export AGENT_GUARD_HOME
AGENT_GUARD_HOME=$(winpath "$GUARD_HOME")
export TYPESAFE_API_KEY=
G() { wine "$BIN/agent-guard.exe" "$@"; }

# ------------------------------------------------------------ binaries
echo
echo "== the Windows binaries under wine"
t0=$(now)

# check: expected level | command (Windows spellings, C:\Users paths).
CHECKS=(
	'block|Remove-Item -Recurse -Force C:\Users\bob'
	'block|rd /s /q C:\Users\bob'
	'block|cmd /c "rd /s /q C:\Users\bob"'
	'block|powershell -Command "Remove-Item -Recurse -Force $env:USERPROFILE"'
	'block|Format-Volume -DriveLetter D'
	'block|Stop-Process -Name agent-guard'
	'block|git push --force origin main'
	'confirm|git reset --hard'
	'allow|Remove-Item C:\Users\bob\project\build -Recurse'
	'allow|Get-ChildItem C:\Users\bob'
	'allow|type C:\Users\bob\notes.txt'
	'allow|git status'
)
for c in "${CHECKS[@]}"; do
	want=${c%%|*}
	cmd=${c#*|}
	got=$(G check --offline --json --cmd "$cmd" 2>&1 | tr -d '\r')
	level=$(printf '%s' "$got" | sed -n 's/.*"level":"\([a-z]*\)".*/\1/p')
	if [ "$level" = "$want" ]; then ok "check $want: $cmd"; else bad "check: $cmd: got '$got', want level $want"; fi
done

# check --batch from a file with Windows paths.
printf '%s\n' '{"tool_name":"Bash","tool_input":{"command":"rd /s /q C:\\Users\\bob"}}' \
	'{"tool_name":"Write","tool_input":{"file_path":"C:\\Users\\bob\\project\\notes.md","content":"hi"},"cwd":"C:\\Users\\bob\\project"}' >"$WORK/batch.jsonl"
out=$(G check --offline --batch "$(winpath "$WORK/batch.jsonl")" 2>&1 | tr -d '\r')
levels=$(printf '%s\n' "$out" | sed -n 's/.*"level":"\([a-z]*\)".*/\1/p' | tr '\n' ' ')
if [ "$levels" = "block allow " ]; then ok "check --batch: block, allow"; else bad "check --batch: got levels '$levels' from: $out"; fi

# install --zcode into %USERPROFILE%\.zcode\cli\config.json, with backup.
ZCFG="$WHOME/.zcode/cli/config.json"
mkdir -p "$(dirname "$ZCFG")"
printf '{\n  "theme": "dark"\n}\n' >"$ZCFG"
out=$(G install --zcode --hook "$WBIN\\agent-guard-hook.exe" 2>&1 | tr -d '\r')
rc=$?
if [ $rc -eq 0 ] && grep -q 'agent-guard-hook.exe' "$ZCFG" && grep -q '"theme": "dark"' "$ZCFG" &&
	grep -q '"PreToolUse"' "$ZCFG"; then
	ok "install --zcode: hook in %USERPROFILE%\\.zcode\\cli\\config.json, other keys kept"
else
	bad "install --zcode: exit $rc: $out; file: $(cat "$ZCFG" 2>&1)"
fi
backups=$(find "$(dirname "$ZCFG")" -maxdepth 1 -name 'config.json.*' ! -name '*.tmp*' | wc -l)
if [ "$backups" -ge 1 ] && grep -rqs '"theme": "dark"' "$(dirname "$ZCFG")"/config.json.*; then
	ok "install --zcode: backup of the old config beside it"
else
	bad "install --zcode: no backup of the old config in $(ls -a "$(dirname "$ZCFG")")"
fi

# doctor (no server yet): the hook install is OK, the tray is not running.
out=$(G doctor --zcode 2>&1 | tr -d '\r')
if printf '%s' "$out" | grep -q '^OK  ZCode (user): hook installed'; then
	ok "doctor --zcode: sees the installed hook"
else
	bad "doctor --zcode: $out"
fi

# The hook without a server: agent-guard.exe hook-fallback judges.
hook() { # command -> "stdout|exit"
	local ev out rc
	ev=$(printf '{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%s},"cwd":"C:\\\\Users\\\\bob"}' \
		"$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$/"/')")
	out=$(printf '%s\n' "$ev" | wine "$BIN/agent-guard-hook.exe" --host zcode 2>"$WORK/hook.err" | tr -d '\r')
	rc=$?
	printf '%s|%s' "$out" "$rc"
}
decision() { sed -n 's/.*"permissionDecision":"\([a-z]*\)".*/\1/p'; }
last_source() { tail -n 1 "$GUARD_HOME/audit.jsonl" 2>/dev/null | sed -n 's/.*"source":"\([a-z_]*\)".*/\1/p'; }
export AGENT_GUARD_PIPE="\\\\.\\pipe\\agent-guard-winetest-$$"
for c in 'allow|git status' 'deny|rd /s /q C:\Users\bob' 'deny|git reset --hard'; do
	want=${c%%|*}
	cmd=${c#*|}
	r=$(hook "$cmd")
	d=$(printf '%s' "${r%|*}" | decision)
	if [ "$d" = "$want" ] && [ "${r##*|}" = 0 ] && [ "$(last_source)" = fallback ]; then
		ok "hook fallback (no server): $want: $cmd"
	else
		bad "hook fallback: $cmd: got '$r' (audit source '$(last_source)'), want $want, exit 0; stderr: $(cat "$WORK/hook.err")"
	fi
done
r=$(printf 'not json\n' | wine "$BIN/agent-guard-hook.exe" --host zcode 2>/dev/null | tr -d '\r')
if [ "$(printf '%s' "$r" | decision)" = deny ]; then ok "hook: unreadable input is denied"; else bad "hook: unreadable input: '$r'"; fi

# serve --headless on a named pipe, then round trips through it.
wine "$BIN/agent-guard.exe" serve --headless --offline >"$WORK/serve.log" 2>&1 &
SERVE_PID=$!
up=""
for _ in $(seq 1 100); do
	r=$(hook 'git status')
	if [ "$(last_source)" != fallback ] && [ "$(printf '%s' "${r%|*}" | decision)" = allow ]; then
		up=1
		break
	fi
	sleep 0.2
done
if [ -n "$up" ]; then ok "serve --headless: answers the hook over $AGENT_GUARD_PIPE"; else bad "serve --headless: never answered over the pipe: $(cat "$WORK/serve.log")"; fi
for c in 'allow|git status' 'deny|Remove-Item -Recurse -Force C:\Users\bob' 'deny|git reset --hard' 'allow|Get-ChildItem C:\Users\bob'; do
	want=${c%%|*}
	cmd=${c#*|}
	r=$(hook "$cmd")
	d=$(printf '%s' "${r%|*}" | decision)
	src=$(last_source)
	if [ "$d" = "$want" ] && [ "${r##*|}" = 0 ] && [ -n "$src" ] && [ "$src" != fallback ]; then
		ok "hook via the server: $want: $cmd (source $src)"
	else
		bad "hook via the server: $cmd: got '$r' (audit source '$src'), want $want from the server"
	fi
done
out=$(G doctor --zcode 2>&1 | tr -d '\r')
if printf '%s' "$out" | grep -q '^OK  ZCode (user): hook installed'; then ok "doctor --zcode with the server up"; else bad "doctor with the server up: $out"; fi
kill "$SERVE_PID" 2>/dev/null
wait "$SERVE_PID" 2>/dev/null
SERVE_PID=""

# uninstall --zcode removes exactly our entry.
out=$(G uninstall --zcode 2>&1 | tr -d '\r')
rc=$?
if [ $rc -eq 0 ] && ! grep -q 'agent-guard-hook' "$ZCFG" && grep -q '"theme": "dark"' "$ZCFG"; then
	ok "uninstall --zcode: our hook gone, the rest kept"
else
	bad "uninstall --zcode: exit $rc: $out; file: $(cat "$ZCFG" 2>&1)"
fi
BIN_SECS=$(secs "$t0")
BIN_PASS=$PASS
BIN_FAIL=$FAIL

# ------------------------------------------------------------ go test
echo
echo "== go test for windows, run under wine"
pkgs_all() {
	GOOS=windows CGO_ENABLED=0 go list -e -tags nogui \
		-f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}} {{join .Deps " "}} {{join .TestImports " "}} {{join .XTestImports " "}}{{end}}' ./... |
		grep -v -e 'fyne\.io/' | awk '{print $1}'
}
MOD=$(go list -m)
PKGS=()
for p in $(pkgs_all); do
	rel=${p#"$MOD"/}
	skip=""
	for k in ${KNOWN_PKGS[@]+"${KNOWN_PKGS[@]}"}; do
		if [ "${k%%|*}" = "$rel" ]; then skip=${k#*|}; fi
	done
	if [ -n "$skip" ]; then
		echo "known, not run under wine: $rel: $skip"
		continue
	fi
	if [ -n "${WINE_TEST_ONLY:-}" ] && ! printf ' %s ' "$WINE_TEST_ONLY" | grep -qF " $rel "; then
		continue
	fi
	PKGS+=("$p")
done
SKIPS=()
for k in "${KNOWN[@]}"; do
	IFS='|' read -r kp kt kwhy <<<"$k"
	echo "known, skipped under wine: $kp $kt: $kwhy"
	SKIPS+=("$kt")
done
skip_re=$(
	IFS='|'
	echo "${SKIPS[*]}"
)

# The RemoveAll overlay (see the header): patch Go's own fallback list.
AT="$(go env GOROOT)/src/internal/syscall/windows/at_windows.go"
mkdir -p "$WORK/overlay"
sed 's|^\t\tSTATUS_NOT_SUPPORTED: |\t\tSTATUS_NOT_SUPPORTED, NTStatus(0xC0000002) /* STATUS_NOT_IMPLEMENTED: wine 8 */:|' "$AT" >"$WORK/overlay/at_windows.go"
if ! grep -q 'NTStatus(0xC0000002)' "$WORK/overlay/at_windows.go"; then
	echo "wine-test: Go's $AT changed; the RemoveAll workaround no longer applies (see wine-test.sh's header)"
	exit 1
fi
printf '{"Replace":{"%s":"%s"}}\n' "$AT" "$WORK/overlay/at_windows.go" >"$WORK/overlay.json"

go build -o "$WORK/testreport" ./scripts/testreport || exit 1
# What a process start refused by wine prints in a test's output.
WINE_START_REFUSED='(fork/exec|exec: ")[^\n]*: Internal error'
t0=$(now)
AGENT_GUARD_TEST_BIN_DIR="$WBIN" AGENT_GUARD_HOME="" AGENT_GUARD_PIPE="" \
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -tags nogui -count=1 -json \
	-overlay "$WORK/overlay.json" -exec "$ROOT/scripts/wine/go-exec.sh" \
	-timeout "$WINE_TEST_TIMEOUT" -skip "$skip_re" ${WINE_TEST_RUN:+-run "$WINE_TEST_RUN"} "${PKGS[@]}" 2>&1 |
	"$WORK/testreport" -raw "$WORK/wine-test.json" -retry-on "$WINE_START_REFUSED" -retry-list "$WORK/retry.txt" |
	tee "$WORK/gotest.log"
PS=("${PIPESTATUS[@]}")
GOTEST_RC=$((PS[0] | PS[1]))
REPORT_RC=${PS[1]}
[ -n "${WINE_TEST_JSON:-}" ] && cp "$WORK/wine-test.json" "$WINE_TEST_JSON"
counts=$(grep -E '^tests: [0-9]+ passed' "$WORK/gotest.log" | tail -n 1)

# wine 8 now and then refuses to start a process ("fork/exec ...:
# Internal error", CreateProcess failing inside wine, never on Windows).
# When that is the only way tests failed, testreport lists them (exit 3)
# and they run once more, alone; their second result is the one that
# counts. Any other failure is never run again.
RETRIED=""
if [ "$REPORT_RC" -eq 3 ]; then
	GOTEST_RC=0
	while IFS=$'\t' read -r rpkg rrun; do
		echo "== run again under wine (a process start was refused): ${rpkg#"$MOD"/} $rrun"
		AGENT_GUARD_TEST_BIN_DIR="$WBIN" AGENT_GUARD_HOME="" AGENT_GUARD_PIPE="" \
			GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -tags nogui -count=1 -json \
			-overlay "$WORK/overlay.json" -exec "$ROOT/scripts/wine/go-exec.sh" \
			-timeout "$WINE_TEST_TIMEOUT" -run "$rrun" "$rpkg" 2>&1 |
			"$WORK/testreport" | tee -a "$WORK/gotest-retry.log"
		PS=("${PIPESTATUS[@]}")
		rc=$((PS[0] | PS[1]))
		GOTEST_RC=$((GOTEST_RC | rc))
		RETRIED="$RETRIED ${rpkg#"$MOD"/}:$rrun(exit $rc)"
	done <"$WORK/retry.txt"
fi
GOTEST_SECS=$(secs "$t0")

# ------------------------------------------------------------ summary
echo
echo "== wine summary"
echo "prefix creation (cold):          ${PREFIX_SECS}s"
echo "Windows binaries under wine:     ${BIN_PASS} passed, ${BIN_FAIL} failed (${BIN_SECS}s)"
echo "go test under wine:              ${counts#tests: } (${GOTEST_SECS}s, ${#PKGS[@]} packages)"
echo "known and skipped under wine:    ${#KNOWN[@]} tests, ${#KNOWN_PKGS[@]} packages (reasons above)"
[ -n "$RETRIED" ] && echo "run again after a refused start:${RETRIED}"
for f in "${FAILS[@]}"; do echo "  FAILED: $f"; done
if [ -z "$counts" ] || printf '%s' "$counts" | grep -q '^tests: 0 passed'; then
	echo "wine-test: no Windows test ran"
	GOTEST_RC=1
fi
[ "$FAIL" -eq 0 ] && [ "$GOTEST_RC" -eq 0 ]
