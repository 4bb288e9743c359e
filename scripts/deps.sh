#!/bin/sh
# Installs the Debian packages iotrial needs to build and test, if missing.
# Used by the README's quick start and by .ci/run.  Needs root (or sudo).
# --test adds what only the test suite uses: the readers of fio's log files
# (fiologparser_hist.py needs numpy and pandas, fio2gnuplot six,
# fio_generate_plots gnuplot), so those tests run instead of skipping.
set -eu
PKGS="gcc make pkg-config liburing-dev libaio-dev libjansson-dev libblkid-dev \
fio python3 util-linux fdisk e2fsprogs mount procps strace"
PKGS="$PKGS nettle-dev zlib1g-dev libxxhash-dev"  # verify= checksums (md5/sha, crc32, xxhash)
[ "${1:-}" = "--test" ] && PKGS="$PKGS python3-numpy python3-pandas python3-six gnuplot-nox"
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
