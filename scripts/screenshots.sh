#!/usr/bin/env bash
# screenshots.sh: take docs/dialog.png (the approval dialog of the running
# tray, opened by a confirm-level call through the real hook) and
# docs/menu.png (the tray menu drawn from the running tray's live menu
# state; Xvfb has no tray host) under a private Xvfb.
# Needs Go, gcc, Xvfb, xdotool and ImageMagick.
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./scripts/screenshots "$@"
