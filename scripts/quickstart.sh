#!/bin/sh
# The README's first command: install what is missing, build, and run the
# seed's workload (fio --name=randrw --rw=randrw --bs=4k --iodepth=32
# --size=10G --numjobs=4 --runtime=600 --time_based), shortened to 30 s and
# 256 MiB per job, on scratch files in a temporary directory that is removed
# afterwards.  Extra arguments are passed to iotrial (e.g. --output-format=json).
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
make -s
dir=$(mktemp -d "${TMPDIR:-/tmp}/iotrial-quickstart.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM
echo "scratch files in $dir" >&2
./build/iotrial --name=randrw --rw=randrw --bs=4k --iodepth=32 --size=256M --numjobs=4 \
	--runtime=30 --time_based --directory="$dir" "$@"
