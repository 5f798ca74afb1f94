#!/usr/bin/env bash
# deps.sh installs the Debian/Ubuntu packages agent-guard needs to build and
# test: Fyne's C headers (GL, X11, Wayland), Xvfb + xdotool + ImageMagick for
# the GUI end-to-end tests and screenshots, mingw-w64 for the Windows tray
# (and the wine step's DLL), dbus-x11 for a session bus under Xvfb, nodejs
# to load the opencode and Amp plugins in e2e, and wine + wine64 to run the Windows
# binaries and tests (scripts/wine-test.sh), fontconfig and a CJK font
# (fonts-wqy-microhei) so the tray's dialog draws Chinese and doctor's
# font check has something to find. Packages already installed are
# skipped, so a warm machine does no apt work at all. Works as root or
# through sudo. Network steps retry; nothing else does.
set -euo pipefail

PKGS=(libgl1-mesa-dev xorg-dev libwayland-dev libxkbcommon-dev wayland-protocols
	xvfb xdotool imagemagick gcc-mingw-w64-x86-64 dbus-x11 fonts-wqy-microhei git ca-certificates nodejs
	wine wine64)

log() { printf 'deps: %s\n' "$*" >&2; }

# fc-list, which doctor's font check asks (apt does not pull it in as a
# font's recommendation here).
PKGS+=(fontconfig)

if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-query >/dev/null 2>&1; then
	log "no apt-get/dpkg here; install these yourself: ${PKGS[*]}"
	exit 1
fi

missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done

if [ "${#missing[@]}" -eq 0 ]; then
	log "all ${#PKGS[@]} packages already installed"
	exit 0
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		SUDO=(sudo)
	else
		log "need root or sudo to install: ${missing[*]}"
		exit 1
	fi
fi

# retry runs a network step up to 4 times with a growing pause.
retry() {
	local n=1
	until "$@"; do
		if [ "$n" -ge 4 ]; then
			log "giving up after $n tries: $*"
			return 1
		fi
		log "try $n failed, retrying in $((n * 10))s: $*"
		sleep $((n * 10))
		n=$((n + 1))
	done
}

export DEBIAN_FRONTEND=noninteractive
log "installing: ${missing[*]}"
retry "${SUDO[@]}" apt-get update -q
retry "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
log "done"
