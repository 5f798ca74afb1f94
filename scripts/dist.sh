#!/usr/bin/env bash
# dist.sh builds the release archives: for each target the tray app
# (agent-guard), the hook (agent-guard-hook) and its fallback judge
# (agent-guard-judge) side by side, which is the layout `agent-guard
# install` expects (it finds the hook next to itself, the hook its judge),
# plus README.md and LICENSE when present.
#
#   dist/agent-guard-<version>-linux-amd64/     -> .tar.gz
#   dist/agent-guard-<version>-windows-amd64/   -> .zip
#
# The version comes from FyneApp.toml. The hook and judge are always CGO_ENABLED=0;
# the tray needs cgo (Fyne/OpenGL): natively on Linux, with the mingw-w64
# cross compiler for Windows (the first cold Windows build takes ~10 min).
#
# Knobs: DIST_TARGETS="linux/amd64 windows/amd64", DIST_DIR=dist,
#        MINGW_CC=x86_64-w64-mingw32-gcc.
set -euo pipefail

cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$HOME/go/bin:$PATH"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

VERSION=$(sed -n 's/^[[:space:]]*Version[[:space:]]*=[[:space:]]*"\(.*\)"/\1/p' FyneApp.toml)
[ -n "$VERSION" ] || { echo "dist: no Version in FyneApp.toml" >&2; exit 1; }
TARGETS=${DIST_TARGETS:-linux/amd64 windows/amd64}
DIST=${DIST_DIR:-dist}
MINGW_CC=${MINGW_CC:-x86_64-w64-mingw32-gcc}
LDFLAGS="-s -w"
TAGS=migrated_fynedo # FyneApp.toml's [Migrations] fyneDo, for a plain go build

for target in $TARGETS; do
	os=${target%/*}
	arch=${target#*/}
	ext=""
	[ "$os" = windows ] && ext=.exe
	name="agent-guard-$VERSION-$os-$arch"
	out="$DIST/$name"
	mkdir -p "$out"
	t0=$(date +%s)

	echo "dist: $name: hook"
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags "$LDFLAGS" \
		-o "$out/agent-guard-hook$ext" ./cmd/agent-guard-hook
	echo "dist: $name: judge"
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags "$LDFLAGS" \
		-o "$out/agent-guard-judge$ext" ./cmd/agent-guard-judge

	echo "dist: $name: tray (cgo)"
	case "$os" in
	linux)
		CGO_ENABLED=1 GOOS=$os GOARCH=$arch go build -trimpath -tags "$TAGS" -ldflags "$LDFLAGS" \
			-o "$out/agent-guard$ext" ./cmd/agent-guard
		;;
	windows)
		command -v "$MINGW_CC" >/dev/null || { echo "dist: $MINGW_CC not found (apt-get install gcc-mingw-w64-x86-64)" >&2; exit 1; }
		CGO_ENABLED=1 CC=$MINGW_CC GOOS=$os GOARCH=$arch go build -trimpath -tags "$TAGS" \
			-ldflags "$LDFLAGS -H=windowsgui" -o "$out/agent-guard$ext" ./cmd/agent-guard
		;;
	*)
		echo "dist: no tray recipe for $os (cgo cross build); build it on that OS" >&2
		exit 1
		;;
	esac

	files=("agent-guard$ext" "agent-guard-hook$ext" "agent-guard-judge$ext")
	for doc in README.md LICENSE; do
		if [ -f "$doc" ]; then
			cp "$doc" "$out/"
			files+=("$doc")
		fi
	done

	# Archive from the explicit file list (a stale file in $out never
	# ships), written beside the target and moved into place.
	case "$os" in
	windows)
		archive="$DIST/$name.zip"
		(cd "$DIST" && zip -q -X "$name.zip.tmp" "${files[@]/#/$name/}" && mv -f "$name.zip.tmp" "$name.zip")
		;;
	*)
		archive="$DIST/$name.tar.gz"
		tar -C "$DIST" -czf "$archive.tmp" "${files[@]/#/$name/}"
		mv -f "$archive.tmp" "$archive"
		;;
	esac
	echo "dist: $archive ($(du -h "$archive" | cut -f1), $(($(date +%s) - t0))s)"
done
