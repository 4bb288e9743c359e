#!/bin/sh
# Installs the Debian packages iotrial needs to build and to run its whole test
# suite, if missing: the README's quick start and .ci/run both call it, so a
# fresh machine that ran the quick start runs every test (nothing skips for a
# package this script could have installed).  Needs root (or sudo).
# --build-only installs just what building needs.
# The test-only packages: fio (reference outputs), the readers of fio's log
# files (fiologparser_hist.py needs numpy and pandas, fio2gnuplot six,
# fio_generate_plots gnuplot).  --test is accepted, as before, and is the default.
set -eu
PKGS="gcc make pkg-config liburing-dev libaio-dev libjansson-dev libblkid-dev"
PKGS="$PKGS nettle-dev zlib1g-dev libxxhash-dev"  # verify= checksums (md5/sha, crc32, xxhash)
PKGS="$PKGS libsqlite3-dev"  # the results history (docs/history.md)
if [ "${1:-}" != "--build-only" ]; then
PKGS="$PKGS fio python3 util-linux fdisk e2fsprogs mount procps strace"
PKGS="$PKGS python3-numpy python3-pandas python3-six gnuplot-nox"
PKGS="$PKGS man-db"  # the install test renders the man page
PKGS="$PKGS sqlite3"  # the history tests hold a lock and check integrity with it
PKGS="$PKGS clang libfuzzer-14-dev"  # make fuzz-smoke (tests/fuzz)
PKGS="$PKGS chromium"  # renders the HTML reports in tests/e2e/report_html.sh
PKGS="$PKGS openmpi-bin libopenmpi-dev"  # MPI mode (docs/mpi.md): the build finds it, tests/e2e/mpi_ranks.sh runs it
fi
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
echo "installing:$missing" >&2
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >&2
