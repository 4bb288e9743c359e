#!/bin/bash
# Speed against fio, measured in the same run on the same jobs.  Prints one
# line per case with iotrial's and fio's IOPS and CPU per I/O and the ratios.
# Each case runs REPS times alternating fio / iotrial; the median is used.
#
#   bench/bench.sh [--quick]        (root needed for the loop-device case)
#
# Cases:
#   null-qd1, null-qd32   ioengine=null, latency recorded for every I/O
#   ramloop-qd32          io_uring 4k randread QD32, loop device over /dev/shm
#   disk-qd32             io_uring 4k randread QD32, a file on the root disk
# CPU per I/O is measured from outside (the child's rusage), so both tools are
# charged for everything they do, setup included.
set -u
cd "$(dirname "$0")/.."
IOTRIAL=${IOTRIAL:-./build/iotrial}
FIO=${FIO:-fio}
RT=${RT:-5}
REPS=${REPS:-3}
[ "${1:-}" = "--quick" ] && { RT=2; REPS=1; }
command -v "$FIO" >/dev/null || { echo "bench: fio not found" >&2; exit 1; }
[ -x "$IOTRIAL" ] || make -s || exit 1
W=$(mktemp -d /tmp/iotrial-bench.XXXXXX)
LOOP=""
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	rm -f /dev/shm/iotrial-bench.img
	rm -rf "$W"
}
trap cleanup EXIT INT TERM

# run TOOL ARGS... -> prints "iops cpu_seconds"
run() {
	python3 - "$@" <<'PY'
import json, resource, subprocess, sys
out = subprocess.run(sys.argv[1:] + ["--output-format=json"], capture_output=True, text=True)
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
if out.returncode != 0:
    sys.stderr.write(out.stderr)
    print("0 0 0")
    sys.exit(0)
d = json.loads(out.stdout[out.stdout.index("{"):])
ios = sum(j[k]["total_ios"] for j in d["jobs"] for k in ("read", "write"))
iops = sum(j[k]["iops"] for j in d["jobs"] for k in ("read", "write"))
print(iops, ru.ru_utime + ru.ru_stime, ios)
PY
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# case NAME ARGS...: both tools on the same job, REPS times, alternating.
bench_case() {
	name=$1; shift
	: >"$W/fio.iops"; : >"$W/fio.cpu"; : >"$W/it.iops"; : >"$W/it.cpu"
	for _ in $(seq "$REPS"); do
		read -r i c n <<<"$(run "$FIO" "$@")"
		echo "$i" >>"$W/fio.iops"
		awk -v c="$c" -v n="$n" 'BEGIN { if (n > 0) printf "%.1f\n", c * 1e9 / n; else print 0 }' >>"$W/fio.cpu"
		read -r i c n <<<"$(run "$IOTRIAL" "$@")"
		echo "$i" >>"$W/it.iops"
		awk -v c="$c" -v n="$n" 'BEGIN { if (n > 0) printf "%.1f\n", c * 1e9 / n; else print 0 }' >>"$W/it.cpu"
	done
	fi=$(median <"$W/fio.iops"); fc=$(median <"$W/fio.cpu")
	ii=$(median <"$W/it.iops"); ic=$(median <"$W/it.cpu")
	awk -v n="$name" -v fi="$fi" -v fc="$fc" -v ii="$ii" -v ic="$ic" 'BEGIN {
		printf "%-14s fio %10.0f IOPS %8.1f ns-cpu/io | iotrial %10.0f IOPS %8.1f ns-cpu/io | IOPS x%.2f  CPU/io x%.2f\n",
			n, fi, fc, ii, ic, (fi > 0 ? ii / fi : 0), (fc > 0 ? ic / fc : 0) }'
}

echo "# iotrial $($IOTRIAL --version) vs $($FIO --version); runtime ${RT}s, median of $REPS"
common="--name=b --rw=randread --bs=4k --runtime=$RT --time_based"
bench_case null-qd1 $common --ioengine=null --size=1g --iodepth=1
bench_case null-qd32 $common --ioengine=null --size=1g --iodepth=32

if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
	truncate -s 1G /dev/shm/iotrial-bench.img
	LOOP=$(losetup --find --show --direct-io=on /dev/shm/iotrial-bench.img)
	bench_case ramloop-qd32 $common --ioengine=io_uring --iodepth=32 --direct=1 --filename="$LOOP"
else
	echo "ramloop-qd32   skipped: needs root and losetup"
fi
dd if=/dev/zero of="$W/disk.img" bs=1M count=1024 status=none conv=fsync
bench_case disk-qd32 $common --ioengine=io_uring --iodepth=32 --direct=1 --size=1g --filename="$W/disk.img"
