#!/bin/bash
# Speed against fio, measured in the same run on the same jobs.  Prints one
# line per case with iotrial's and fio's IOPS and CPU per I/O and the ratios.
# Each case runs REPS times alternating fio / iotrial (fio first, then iotrial,
# then fio again, ...); the median of each tool's REPS values is used.  The
# individual values follow each line (VERBOSE=0 hides them) so that a run
# disturbed by other load on the machine can be seen and re-run.
#
#   bench/bench.sh [--quick] [CASE...]      (root needed for the loop device)
#   REPS=5 RT=5 bench/bench.sh ramloop-qd32
#
# Cases (all by default):
#   null-qd1, null-qd32   ioengine=null, latency recorded for every I/O
#   ramloop-qd32          io_uring 4k randread QD32, loop device over /dev/shm
#   disk-qd32             io_uring 4k randread QD32, a file on the root disk
#   disk-qd4              the same at QD4, where the disk (not fio's CPU) limits
# CPU per I/O is measured from outside (the child's rusage: user + system of
# every thread and child process), so both tools are charged for everything
# they do, setup included, divided by the I/Os their JSON reports.
set -u
cd "$(dirname "$0")/.."
IOTRIAL=${IOTRIAL:-./build/iotrial}
FIO=${FIO:-fio}
RT=${RT:-5}
REPS=${REPS:-3}
VERBOSE=${VERBOSE:-1}
if [ "${1:-}" = "--quick" ]; then RT=2; REPS=1; shift; fi
CASES=${*:-null-qd1 null-qd32 ramloop-qd32 disk-qd32 disk-qd4}
command -v "$FIO" >/dev/null || { echo "bench: fio not found" >&2; exit 1; }
[ -x "$IOTRIAL" ] || make -s || exit 1
W=$(mktemp -d /tmp/iotrial-bench.XXXXXX)
SHM=/dev/shm/iotrial-bench.$$.img
LOOP=""
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	rm -f "$SHM"
	rm -rf "$W"
}
trap cleanup EXIT INT TERM

# run TOOL ARGS... -> prints "iops cpu_seconds total_ios"
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
per_io() { awk -v c="$1" -v n="$2" 'BEGIN { if (n > 0) printf "%.1f\n", c * 1e9 / n; else print 0 }'; }

# case NAME ARGS...: both tools on the same job, REPS times, alternating.
bench_case() {
	name=$1; shift
	: >"$W/fio.iops"; : >"$W/fio.cpu"; : >"$W/it.iops"; : >"$W/it.cpu"
	for _ in $(seq "$REPS"); do
		read -r i c n <<<"$(run "$FIO" "$@")"
		echo "$i" >>"$W/fio.iops"
		per_io "$c" "$n" >>"$W/fio.cpu"
		read -r i c n <<<"$(run "$IOTRIAL" "$@")"
		echo "$i" >>"$W/it.iops"
		per_io "$c" "$n" >>"$W/it.cpu"
	done
	fi=$(median <"$W/fio.iops"); fc=$(median <"$W/fio.cpu")
	ii=$(median <"$W/it.iops"); ic=$(median <"$W/it.cpu")
	awk -v n="$name" -v fi="$fi" -v fc="$fc" -v ii="$ii" -v ic="$ic" 'BEGIN {
		printf "%-14s fio %10.0f IOPS %8.1f ns-cpu/io | iotrial %10.0f IOPS %8.1f ns-cpu/io | IOPS x%.2f  CPU/io x%.2f\n",
			n, fi, fc, ii, ic, (fi > 0 ? ii / fi : 0), (fc > 0 ? ic / fc : 0) }'
	if [ "$VERBOSE" != 0 ]; then
		echo "    fio     IOPS: $(awk '{printf "%.0f ", $1}' "$W/fio.iops") ns-cpu/io: $(tr '\n' ' ' <"$W/fio.cpu")"
		echo "    iotrial IOPS: $(awk '{printf "%.0f ", $1}' "$W/it.iops") ns-cpu/io: $(tr '\n' ' ' <"$W/it.cpu")"
	fi
}

want() { case " $CASES " in *" $1 "*) return 0 ;; esac; return 1; }

echo "# iotrial $($IOTRIAL --version) vs $($FIO --version); runtime ${RT}s, median of $REPS;" \
	"$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
common="--name=b --rw=randread --bs=4k --runtime=$RT --time_based"
want null-qd1 && bench_case null-qd1 $common --ioengine=null --size=1g --iodepth=1
want null-qd32 && bench_case null-qd32 $common --ioengine=null --size=1g --iodepth=32

if want ramloop-qd32; then
	if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
		# written, not sparse: every read copies a real page
		dd if=/dev/zero of="$SHM" bs=1M count=1024 status=none
		LOOP=$(losetup --find --show --direct-io=on "$SHM")
		bench_case ramloop-qd32 $common --ioengine=io_uring --iodepth=32 --direct=1 --filename="$LOOP"
	else
		echo "ramloop-qd32   skipped: needs root and losetup"
	fi
fi
if want disk-qd32 || want disk-qd4; then
	dd if=/dev/zero of="$W/disk.img" bs=1M count=1024 status=none conv=fsync
fi
want disk-qd32 && bench_case disk-qd32 $common --ioengine=io_uring --iodepth=32 --direct=1 --size=1g --filename="$W/disk.img"
# QD4: the disk, not fio's CPU, is the limit, so both tools should agree
want disk-qd4 && bench_case disk-qd4 $common --ioengine=io_uring --iodepth=4 --direct=1 --size=1g --filename="$W/disk.img"
