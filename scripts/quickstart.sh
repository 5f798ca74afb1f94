#!/usr/bin/env bash
# quickstart.sh is the README's one setup-and-run command. On a fresh
# Debian/Ubuntu machine it:
#
#   1. installs the apt packages the build needs (scripts/deps.sh; skip with
#      SKIP_DEPS=1),
#   2. builds agent-guard (the tray app), agent-guard-hook and its fallback
#      judge agent-guard-judge into ./bin
#      (or AGENT_GUARD_BIN_DIR),
#   3. judges one harmless command offline as a smoke test,
#   4. hooks the guard into ZCode, and into Claude Code when ~/.claude exists
#      (skip with AGENT_GUARD_NO_HOOKS=1),
#   5. starts the tray app in the foreground, or `serve --headless` when
#      there is no display or AGENT_GUARD_HEADLESS=1.
#
# The embedded default config is written on first run; no API key is needed
# (without TYPESAFE_API_KEY the grey zone is confirmed by a human instead of
# asked of the remote judge).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
export PATH="/usr/local/go/bin:$HOME/go/bin:$PATH"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"
BIN=${AGENT_GUARD_BIN_DIR:-$ROOT/bin}

say() { printf '\nagent-guard quickstart: %s\n' "$*"; }

headless=0
if [ "${AGENT_GUARD_HEADLESS:-}" = 1 ] || { [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; }; then
	headless=1
fi

if [ "${SKIP_DEPS:-}" != 1 ]; then
	say "installing build packages (apt)"
	scripts/deps.sh
fi

if ! command -v go >/dev/null; then
	echo "Go is not installed: put Go $(awk '/^go /{print $2}' go.mod) or newer in /usr/local/go (https://go.dev/doc/install) and run this again." >&2
	exit 1
fi

mkdir -p "$BIN"
say "building into $BIN"
# As scripts/dist.sh builds the release (no symbol table or DWARF).
build() { go build -trimpath -ldflags "-s -w" "$@"; }
# The hook never needs cgo; it must start in milliseconds.
CGO_ENABLED=0 build -o "$BIN/agent-guard-hook" ./cmd/agent-guard-hook
# The hook's fallback (no tray running) execs the judge beside it.
CGO_ENABLED=0 build -o "$BIN/agent-guard-judge" ./cmd/agent-guard-judge
if [ "$headless" = 1 ]; then
	# No display: the tray cannot run, so skip the slow cgo/OpenGL build.
	CGO_ENABLED=0 build -tags nogui -o "$BIN/agent-guard" ./cmd/agent-guard
else
	echo "(the first build of the tray compiles GLFW and takes a few minutes)"
	build -tags migrated_fynedo -o "$BIN/agent-guard" ./cmd/agent-guard
fi

say "smoke test: judging 'git status' offline"
"$BIN/agent-guard" check --offline --cmd 'git status'

if [ "${AGENT_GUARD_NO_HOOKS:-}" = 1 ]; then
	say "AGENT_GUARD_NO_HOOKS=1: not touching ZCode or Claude Code"
else
	say "installing the hook into ZCode"
	"$BIN/agent-guard" install --zcode
	if [ -d "$HOME/.claude" ]; then
		say "installing the hook into Claude Code"
		"$BIN/agent-guard" install --claude
	fi
fi

if [ "$headless" = 1 ]; then
	say "no display (or AGENT_GUARD_HEADLESS=1): serving headless; confirms become deny. Ctrl+C stops it."
	exec "$BIN/agent-guard" serve --headless
fi
say "starting the tray app. Ctrl+C stops it; 'agent-guard install --autostart' starts it at login."
exec "$BIN/agent-guard"
