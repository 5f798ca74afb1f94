#!/bin/sh
# go-exec.sh is go test's -exec program in scripts/wine-test.sh: it runs a
# Windows test binary (and its arguments) under wine, in the WINEPREFIX,
# WINEDEBUG and environment that the script set up.
exec wine "$@"
