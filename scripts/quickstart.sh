#!/bin/sh
# The README's first command: install what is missing, build, and run the
# seed's workload (fio --name=randrw --rw=randrw --bs=4k --iodepth=32
# --size=10G --numjobs=4 --runtime=600 --time_based), shortened to 30 s and
# 256 MiB per job, on scratch files in a temporary directory that is removed
# afterwards.  Extra arguments are passed to iotrial and are read from the
# directory you ran this in (e.g. --output-format=json --output=result.json).
# Only iotrial's report goes to stdout; everything else goes to stderr, so
# `scripts/quickstart.sh --output-format=json >r.json` gives pure JSON.
# The exit status is iotrial's (README: exit codes).
#
# For tests: IOTRIAL_QUICK_RUNTIME (default 30) and IOTRIAL_QUICK_SIZE
# (default 256M) shorten the run; IOTRIAL_QUICK_DEPS=0 skips the package
# step; SANITIZE=1 builds and runs the ASan+UBSan binary.
set -eu
here=$(pwd)
cd "$(dirname "$0")/.."
root=$(pwd)
[ "${IOTRIAL_QUICK_DEPS:-1}" = 0 ] || sh scripts/deps.sh
make -s >&2
bin="$root/build/iotrial"
[ "${SANITIZE:-0}" = 1 ] && bin="$root/build/san/iotrial"
dir=$(mktemp -d "${TMPDIR:-/tmp}/iotrial-quickstart.XXXXXX")
trap 'rm -rf "$dir"' EXIT
# Ctrl-C reaches iotrial, which ends the run and still writes its (partial)
# results; the shell only waits for it, then cleans up.
trap ':' INT TERM
echo "scratch files in $dir" >&2
cd "$here"
rc=0
"$bin" --name=randrw --rw=randrw --bs=4k --iodepth=32 --size="${IOTRIAL_QUICK_SIZE:-256M}" \
	--numjobs=4 --runtime="${IOTRIAL_QUICK_RUNTIME:-30}" --time_based --directory="$dir" "$@" || rc=$?
exit $rc
