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
# The depth sweep (bench/bench.sh sweep, not in the default set) runs 4k
# randread O_DIRECT at QD 1 4 8 16 32 64, numjobs 1 and 4, io_uring and libaio,
# on a RAM loop device and on a file on the root disk (SWEEP_TARGETS,
# SWEEP_QD, SWEEP_NJ, SWEEP_ENGINES narrow it; SWEEP_IT_ARGS adds options to
# iotrial's runs only, e.g. --iodepth_batch_submit=0; SWEEP_PRIO prefixes both
# tools' runs, e.g. SWEEP_PRIO="chrt -f 50" to run them at real-time priority
# so that other load on the machine cannot delay the job's thread), and prints per case both
# tools' IOPS, the device-depth ratio (the device's average number of I/Os in
# flight, read ticks / run time from the disk_util each tool reports, over
# iodepth x numjobs) and CPU per I/O.  RT defaults to 2 s there.
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
[ "${*:-}" = sweep ] && RT=${RT_SWEEP:-2}	# only for the header: sweep() uses RT_SWEEP
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

# srun DEV TOOL ARGS... -> "iops cpu_seconds total_ios device_depth": the
# device's mean in flight = (read + write ticks) / the longest job runtime,
# from the tool's own disk_util entry for DEV (both tools sample it around
# the run, so setup is outside and the figure is the device's own view).
srun() {
	python3 - "$@" <<'PY'
import json, resource, subprocess, sys
dev = sys.argv[1]
out = subprocess.run(sys.argv[2:] + ["--output-format=json"], capture_output=True, text=True)
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
if out.returncode != 0:
    sys.stderr.write(out.stderr)
    print("0 0 0 0")
    sys.exit(0)
d = json.loads(out.stdout[out.stdout.index("{"):])
ios = sum(j[k]["total_ios"] for j in d["jobs"] for k in ("read", "write"))
iops = sum(j[k]["iops"] for j in d["jobs"] for k in ("read", "write"))
# a direction's runtime is the wall time; job_runtime adds up numjobs threads
rt = max(j[k]["runtime"] for j in d["jobs"] for k in ("read", "write")) or 1
depth = 0.0
# a job that wrote nothing counts only read ticks: other processes' writes to
# a shared disk (builds, logs) must not add to its depth
wrote = sum(j["write"]["total_ios"] for j in d["jobs"])
for du in d.get("disk_util", []):
    if du["name"] == dev:
        depth = (du["read_ticks"] + (du["write_ticks"] if wrote else 0)) / rt
print(iops, ru.ru_utime + ru.ru_stime, ios, depth)
PY
}

# sweep_case LABEL DEV REQ ARGS...: alternate both tools REPS times; one line.
sweep_case() {
	label=$1 dev=$2 req=$3; shift 3
	: >"$W/s.fio"; : >"$W/s.it"
	for _ in $(seq "$REPS"); do
		read -r i c n q <<<"$(srun "$dev" ${SWEEP_PRIO:-} "$FIO" "$@")"
		echo "$i $(per_io "$c" "$n") $q" >>"$W/s.fio"
		read -r i c n q <<<"$(srun "$dev" ${SWEEP_PRIO:-} "$IOTRIAL" "$@" ${SWEEP_IT_ARGS:-})"
		echo "$i $(per_io "$c" "$n") $q" >>"$W/s.it"
	done
	awk -v l="$label" -v r="$req" -v F="$W/s.fio" -v I="$W/s.it" '
	function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
		return a[int((n + 1) / 2)] }
	function rng(a, n,   i, lo, hi) { lo = hi = a[1]; for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
		return sprintf("%.2f-%.2f", lo / r, hi / r) }
	BEGIN {
		n = 0; while ((getline line < F) > 0) { split(line, f, " "); n++; fi[n] = f[1]; fc[n] = f[2]; fq[n] = f[3] }
		m = 0; while ((getline line < I) > 0) { split(line, f, " "); m++; ii[m] = f[1]; ic[m] = f[2]; iq[m] = f[3] }
		fr = rng(fq, n); ir = rng(iq, m)
		a = med(fi, n); b = med(ii, m); c = med(fc, n); e = med(ic, m); x = med(fq, n); y = med(iq, m)
		printf "%-24s fio %8.0f IOPS depth %5.2f (%s) %7.0f ns-cpu/io | iotrial %8.0f IOPS depth %5.2f (%s) %7.0f ns-cpu/io | IOPS x%.2f CPU/io x%.2f\n",
			l, a, x / r, fr, c, b, y / r, ir, e, (a > 0 ? b / a : 0), (c > 0 ? e / c : 0)
	}'
}

# The depth sweep of issue 7 (see the top).
sweep() {
	local rt=${RT_SWEEP:-2} tgt eng nj qd dev args
	for tgt in ${SWEEP_TARGETS:-ramloop disk}; do
		if [ "$tgt" = ramloop ]; then
			if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null; then
				echo "sweep ramloop skipped: needs root and losetup"; continue
			fi
			if [ -z "$LOOP" ]; then
				dd if=/dev/zero of="$SHM" bs=1M count=1024 status=none
				LOOP=$(losetup --find --show --direct-io=on "$SHM")
			fi
			dev=${LOOP#/dev/}; args="--filename=$LOOP"
		else
			[ -f "$W/disk.img" ] || dd if=/dev/zero of="$W/disk.img" bs=1M count=1024 status=none conv=fsync
			dev=$(lsblk -no PKNAME "$(df --output=source "$W" | tail -1)" 2>/dev/null | head -1)
			[ -n "$dev" ] || dev=$(basename "$(df --output=source "$W" | tail -1)")
			args="--filename=$W/disk.img --size=1g"
		fi
		for eng in ${SWEEP_ENGINES:-io_uring libaio}; do
			for nj in ${SWEEP_NJ:-1 4}; do
				for qd in ${SWEEP_QD:-1 4 8 16 32 64}; do
					sweep_case "$tgt $eng nj$nj qd$qd" "$dev" $((qd * nj)) \
						--name=s --rw=randread --bs=4k --runtime="$rt" --time_based \
						--ioengine="$eng" --direct=1 --iodepth="$qd" --numjobs="$nj" \
						--group_reporting $args
				done
			done
		done
	done
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
want sweep && sweep
exit 0
