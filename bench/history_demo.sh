#!/bin/sh
# The results history on a series of runs with one injected regression
# (docs/history.md).  A RAM-backed loop device, read sequentially (1 MiB,
# QD8, libaio, direct), behind a bandwidth limit as a hypervisor sets one for
# a VM's disk (cgroup v1 blkio.throttle.read_bps_device: LIMIT MB/s).  SERIES
# runs are stored with --history; runs BAD_FROM..BAD_TO run after "an update"
# halved the limit, the others with it.  The limit keeps the machine's own
# noise (a busy 2-core box) out of the figures, so the regression is the
# only thing that moves.  Then: the trend (text, and HTML with the chart),
# the CI gate against the labelled baseline (runs 1-5) for the regressed runs
# (exit 6) and for the runs after the fix (exit 0).
# Needs root (a loop device, a blkio cgroup).  Everything lands in OUT
# (default ./history-demo).
#   sudo bench/history_demo.sh
#   OUT=/tmp/demo RUNTIME=2 sudo -E bench/history_demo.sh
set -u
IOTRIAL=$(realpath "${IOTRIAL:-$(dirname "$0")/../build/iotrial}")
OUT=${OUT:-./history-demo}
SERIES=${SERIES:-16}
BAD_FROM=${BAD_FROM:-9}
BAD_TO=${BAD_TO:-11}
RUNTIME=${RUNTIME:-3}
LIMIT=${LIMIT:-300}	# MB/s; the regression halves it
if [ "$(id -u)" -ne 0 ]; then
	echo "needs root: a loop device and a blkio cgroup" >&2
	exit 1
fi
if [ ! -d /sys/fs/cgroup/blkio ]; then
	echo "needs cgroup v1's blkio controller at /sys/fs/cgroup/blkio" >&2
	exit 1
fi
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
rm -rf "${OUT:?}"/*
img=$(mktemp /dev/shm/history-demo.XXXXXX)
truncate -s 512M "$img"
L=$(losetup --find --show "$img") || exit 1
CG=/sys/fs/cgroup/blkio/iotrial-history-demo.$$
mkdir "$CG" || exit 1
MM=$(cat "/sys/block/$(basename "$L")/dev")
trap 'rmdir "$CG" 2>/dev/null; losetup -d "$L"; rm -f "$img"' EXIT INT TERM
DB="$OUT/history.db"
JOB="--name=seq --filename=$L --rw=read --bs=1m --iodepth=8 --ioengine=libaio --direct=1 --size=256m --time_based --runtime=$RUNTIME"
mkdir -p "$OUT/runs"
echo "device $L (RAM-backed), read limit $LIMIT MB/s; $SERIES runs of ${RUNTIME} s, runs $BAD_FROM-$BAD_TO with $((LIMIT / 2)) MB/s"
i=1
while [ "$i" -le "$SERIES" ]; do
	lim=$LIMIT
	if [ "$i" -ge "$BAD_FROM" ] && [ "$i" -le "$BAD_TO" ]; then lim=$((LIMIT / 2)); fi
	echo "$MM $((lim * 1000000))" >"$CG/blkio.throttle.read_bps_device"
	# shellcheck disable=SC2086
	sh -c 'echo $$ >"$1/tasks" && shift && exec "$@"' sh "$CG" "$IOTRIAL" $JOB \
		--output-format=json --output="$OUT/runs/run-$(printf %02d "$i").json" \
		--history="$DB" 2>>"$OUT/runs.log" || { echo "run $i failed: $(tail -1 "$OUT/runs.log")"; exit 1; }
	i=$((i + 1))
done
H="$IOTRIAL history --history=$DB"
set -x
$H label 1-5 baseline
$H list --limit=0
$H trend read.bw_bytes --device="$(basename "$L")"
$H trend read.bw_bytes --device="$(basename "$L")" --output-format=html -o "$OUT/trend.html"
$H trend read.bw_bytes --device="$(basename "$L")" --output-format=json -o "$OUT/trend.json"
{ set +x; } 2>/dev/null
mkdir -p "$OUT/regressed" "$OUT/fixed"
i=$BAD_FROM
while [ "$i" -le "$BAD_TO" ]; do cp "$OUT/runs/run-$(printf %02d "$i").json" "$OUT/regressed/"; i=$((i + 1)); done
i=$((BAD_TO + 1))
while [ "$i" -le "$SERIES" ]; do cp "$OUT/runs/run-$(printf %02d "$i").json" "$OUT/fixed/"; i=$((i + 1)); done
set -x
"$IOTRIAL" compare --history="$DB" --fail-on-regression=5 --baseline=history:baseline "$OUT/regressed" >"$OUT/ci-regressed.txt"
{ echo "exit $?"; } 2>/dev/null
"$IOTRIAL" compare --history="$DB" --fail-on-regression=5 --baseline=history:baseline "$OUT/fixed" >"$OUT/ci-fixed.txt"
{ echo "exit $?"; } 2>/dev/null
{ set +x; } 2>/dev/null
grep -E '^(A|B):|^read.bw_bytes|run_order' "$OUT/ci-regressed.txt"
grep -E '^(A|B):|^read.bw_bytes' "$OUT/ci-fixed.txt"
echo "files: $OUT/trend.html $OUT/trend.json $OUT/ci-regressed.txt $OUT/ci-fixed.txt $DB"
