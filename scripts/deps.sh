#!/bin/sh
# Installs the Debian packages iotrial needs to build and to run its whole test
# suite, if missing: the README's quick start and .ci/run both call it, so a
# fresh machine that ran the quick start runs every test (nothing skips for a
# package this script could have installed).  Needs root (or sudo).
# --build-only installs just what building needs.
# The test-only packages: fio (reference outputs), the readers of fio's log
# files (fiologparser_hist.py needs numpy and pandas, fio2gnuplot six,
# fio_generate_plots gnuplot), and a one-node Ceph cluster's daemons for the rbd
# engine's test (ceph-mon, ceph-osd, ceph-common; docs/ceph.md), and QEMU with
# a static busybox and cpio for the guest harness (tests/vm).  --test is
# accepted, as before, and is the default.
set -eu
PKGS="gcc make pkg-config liburing-dev libaio-dev libjansson-dev libblkid-dev"
PKGS="$PKGS nettle-dev zlib1g-dev libxxhash-dev"  # verify= checksums (md5/sha, crc32, xxhash)
PKGS="$PKGS libsqlite3-dev"  # the results history (docs/history.md)
PKGS="$PKGS librbd-dev librados-dev"  # ioengine=rbd (optional: the build finds them)
# Installed without their recommends (the manager, MDS, FUSE client and their
# Python modules: ~60 packages the test cluster does not use).
NOREC=""
if [ "${1:-}" != "--build-only" ]; then
PKGS="$PKGS fio python3 util-linux fdisk e2fsprogs mount procps strace"
PKGS="$PKGS python3-numpy python3-pandas python3-six gnuplot-nox"
PKGS="$PKGS man-db"  # the install test renders the man page
PKGS="$PKGS valgrind"  # tests/e2e/hotpath_budget.sh counts the per-I/O instructions (callgrind)
PKGS="$PKGS sqlite3"  # the history tests hold a lock and check integrity with it
PKGS="$PKGS clang libfuzzer-14-dev"  # make fuzz-smoke (tests/fuzz)
PKGS="$PKGS chromium"  # renders the HTML reports in tests/e2e/report_html.sh
PKGS="$PKGS openmpi-bin libopenmpi-dev"  # MPI mode (docs/mpi.md): the build finds it, tests/e2e/mpi_ranks.sh runs it
PKGS="$PKGS busybox-static cpio"  # the QEMU guest harness (tests/vm/README.md): the guest's shell and initramfs
PKGS="$PKGS sg3-utils"  # tests/fio-suite/zbd.sh: fio's t/zbd scripts ask sg_inq for zone limits (copied into the guest)
NOREC="ceph-mon ceph-osd ceph-common"  # a one-node Ceph cluster for tests/e2e/engine_rbd.sh (docs/ceph.md)
NOREC="$NOREC qemu-system-x86"  # boots the harness's guests (tests/e2e/vm_*.sh); its recommends are for desktops
fi
missing="" missing_norec=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
for p in $NOREC; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing_norec="$missing_norec $p"
done
[ -z "$missing$missing_norec" ] && exit 0
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
echo "installing:$missing$missing_norec" >&2
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
[ -z "$missing" ] || $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >&2
[ -z "$missing_norec" ] ||
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing_norec >&2
