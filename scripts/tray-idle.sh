#!/usr/bin/env bash
# tray-idle.sh: run the agent-guard tray idle for ~20 s and report its CPU
# and memory (last line). Linux; needs Go and a C compiler (the binary
# links Fyne for its window processes; the tray itself runs no Fyne loop).
# Usage: scripts/tray-idle.sh [-seconds N]
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./scripts/trayidle "$@"
