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
# Three sides (docs/performance.md, "Against fio's peak tester t/io_uring"; not in the default set; `tio` runs them all): fio's
# peak tester t/io_uring (fio 3.41, built by ../shared/tools/t-io_uring.sh;
# skipped with a message when ../shared is not there), fio and iotrial, in
# alternating rounds, on the RAM loop device, 4k randread O_DIRECT:
#   tio-uring-qd1, tio-uring-qd32       io_uring, fio's semantics (one I/O per
#                                       submit and reap, no registered files
#                                       or buffers): t/io_uring -s1 -c1 -B0 -F0
#   tio-uring-qd32-b8                   iodepth_batch_submit/complete_min=8: -s8 -c8
#   tio-uring-qd1-reg, tio-uring-qd32-reg   fixedbufs=1 registerfiles=1: -B1 -F1
#   tio-libaio-qd1, tio-libaio-qd32, tio-libaio-qd32-b8   libaio: t/io_uring -a1
#   tio-psync-nj1, tio-psync-nj4        psync QD1 (fio's default engine), 1 and 4
#                                       jobs: fio and iotrial only
# Each line gives the three sides' IOPS, CPU per I/O (user + system of the
# process tree over the I/Os the device counted) and time per I/O outside the
# device (see tio_case), and iotrial's ratios.  iotrial runs twice: with
# the job as given (fio's features: slat, clat and lat kept, fio's random
# map), compared with fio (CPU, IOPS, time outside the device); and at
# t/io_uring's features (TIO_FEATURES: total latency only, no random map, as
# t/io_uring -t1 keeps), compared with t/io_uring (CPU) and with the better
# of t/io_uring and fio (IOPS).  PIN=CPUS runs every side under taskset -c
# CPUS and the unbound kernel workers on the same CPUs (below).  IT_ARGS adds
# options to both iotrial sides.
# `--quick` runs tio-uring-qd1 and tio-uring-qd32, 3 rounds of 2 s, and
# prints the same ratios.  A fresh loop device is warmed up first
# (the first run after its creation is slow, whichever tool it is).
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
TIO_CASES="tio-uring-qd1 tio-uring-qd32 tio-uring-qd32-b8 tio-uring-qd1-reg tio-uring-qd32-reg
	tio-libaio-qd1 tio-libaio-qd32 tio-libaio-qd32-b8 tio-psync-nj1 tio-psync-nj4"
QUICK=0
if [ "${1:-}" = "--quick" ]; then QUICK=1; RT=${RT_QUICK:-2}; REPS=${REPS_QUICK:-3}; shift; fi
[ "${*:-}" = sweep ] && RT=${RT_SWEEP:-2}	# only for the header: sweep() uses RT_SWEEP
if [ "$QUICK" = 1 ] && [ -z "${*:-}" ]; then
	CASES="tio-uring-qd1 tio-uring-qd32"
else
	CASES=${*:-null-qd1 null-qd32 ramloop-qd32 disk-qd32 disk-qd4}
fi
[ "$CASES" = tio ] && CASES=$TIO_CASES
# t/io_uring: fio's own peak tester, the floor (docs/performance.md)
TIO=""
if [ -x ../shared/tools/t-io_uring.sh ]; then
	TIO=$(../shared/tools/t-io_uring.sh) || TIO=""
fi
command -v "$FIO" >/dev/null || { echo "bench: fio not found" >&2; exit 1; }
[ -x "$IOTRIAL" ] || make -s || exit 1
W=$(mktemp -d /tmp/iotrial-bench.XXXXXX)
SHM=/dev/shm/iotrial-bench.$$.img
LOOP=""
WQMASK=/sys/devices/virtual/workqueue/cpumask
WQ0=""
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	rm -f "$SHM"
	rm -rf "$W"
	[ -n "$WQ0" ] && echo "$WQ0" >"$WQMASK"
}
trap cleanup EXIT INT TERM
# PIN=CPUS: every side under taskset -c CPUS, and the kernel's unbound
# workers (the loop device's among them) on the same CPUs for the run (the
# mask is put back on exit): with PIN=0 the tool, the loop's worker and the
# completion all share one CPU, so no round depends on where the scheduler
# wakes them (docs/performance.md, "QD1, pinned")
if [ -n "${PIN:-}" ] && [ -w "$WQMASK" ]; then
	m=$(python3 -c '
import sys
cpus = set()
for p in sys.argv[1].split(","):
    a, _, b = p.partition("-")
    cpus.update(range(int(a), int(b or a) + 1))
print("%x" % sum(1 << c for c in cpus))' "$PIN") || { echo "bench: PIN=$PIN: a CPU list such as 0 or 0-1" >&2; exit 2; }
	WQ0=$(cat "$WQMASK")
	echo "$m" >"$WQMASK" || { WQ0=""; echo "bench: could not restrict $WQMASK to $PIN" >&2; exit 1; }
	echo "bench: PIN=$PIN: the sides and the unbound kernel workers on CPUs $PIN (workqueue mask $WQ0 -> $m)" >&2
fi

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
    print("0 0 0 0 0")
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

# The depth sweep (docs/performance.md, "What the device sees"; see the top).
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

want() { case " $(echo $CASES) " in *" $1 "*) return 0 ;; esac; return 1; }

# drun DEV RT TOOL ARGS... -> "iops cpu_ns_per_io ios dev_lat_ns ipi_per_io":
# the I/Os the device counted (reads + writes completed, /sys/block/DEV/stat)
# over the process tree's user + system time; IOPS from the tool's JSON (fio,
# iotrial) or, for t/io_uring, which prints no totals, the device's count over
# RT; the device's own mean latency (read + write ticks over its I/Os); and the
# machine's function-call IPIs (/proc/interrupts CAL, all CPUs, anyone's) over
# the I/Os: at QD1 on a RAM loop device a round's IOPS follow it, whatever the
# tool (docs/performance.md, "Round 3"), so it tells which placement a round got.
drun() {
	python3 - "$@" <<'PY'
import json, resource, subprocess, sys
dev, rt, argv = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
def done():
    f = open("/sys/block/%s/stat" % dev).read().split()
    return int(f[0]) + int(f[4]), int(f[3]) + int(f[7])
def ipis():	# function-call IPIs, all CPUs: a wake-up across vCPUs (a VM exit here)
    for l in open("/proc/interrupts"):
        x = l.split()
        if x and x[0] == "CAL:":
            return sum(int(v) for v in x[1:] if v.isdigit())
    return 0
json_out = not any(a.endswith("/io_uring") for a in argv[:4])	# PIN puts taskset first
a, ta = done()
ia = ipis()
out = subprocess.run(argv + (["--output-format=json"] if json_out else []), capture_output=True, text=True)
ib = ipis()
b, tb = done()
n = b - a
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
if out.returncode != 0 or n <= 0:
    sys.stderr.write(out.stderr[-2000:])
    print("0 0 0 0")
    sys.exit(0)
iops = n / rt
if json_out:
    d = json.loads(out.stdout[out.stdout.index("{"):])
    iops = sum(j[k]["iops"] for j in d["jobs"] for k in ("read", "write"))
print(iops, (ru.ru_utime + ru.ru_stime) * 1e9 / n, n, (tb - ta) * 1e6 / n, (ib - ia) / n)
PY
}

# tio_case NAME DEPTH "TIO_ARGS" ARGS...: t/io_uring (TIO_ARGS; "" = no such
# side), fio and iotrial (ARGS) on the RAM loop device, REPS alternating
# rounds; one line of medians and ratios, the rounds under it.  Besides IOPS
# and CPU per I/O, each side's time per I/O outside the device: by Little's
# law an I/O's cycle at DEPTH is DEPTH / IOPS, of which the device's own
# latency (its ticks over its I/Os) is the device's; the rest is the
# completion path, the wake-up, the tool and the next submission.  At QD1
# that is the figure that compares tools when the loop device's latency
# moves with where its worker runs (docs/performance.md, "QD1").  PIN=CPUS
# runs every side under taskset -c CPUS.
TIO_FEATURES="--disable_slat=1 --disable_clat=1 --norandommap=1"
tio_case() {
	local name=$1 depth=$2 targs=$3 side r i c n l q pin=""
	shift 3
	: >"$W/t.tio"; : >"$W/t.fio"; : >"$W/t.it"; : >"$W/t.itt"
	[ -n "$TIO" ] || targs=""
	[ -n "${PIN:-}" ] && pin="taskset -c $PIN"
	for r in $(seq "$REPS"); do
		# the order turns each round: no tool always runs first or last
		for side in $(case $((r % 4)) in 1) echo tio fio it itt ;; 2) echo fio itt tio it ;;
			      3) echo it tio itt fio ;; 0) echo itt it fio tio ;; esac); do
			case $side in
			tio) [ -n "$targs" ] || continue
				read -r i c n l q <<<"$(drun "$LOOPDEV" "$RT" $pin "$TIO" $targs -b4096 -O1 -R1 -r"$RT" "$LOOP")" ;;
			fio) read -r i c n l q <<<"$(drun "$LOOPDEV" "$RT" $pin "$FIO" "$@")" ;;
			it) read -r i c n l q <<<"$(drun "$LOOPDEV" "$RT" $pin "$IOTRIAL" "$@" ${IT_ARGS:-})" ;;
			itt) [ -n "$targs" ] || continue
				read -r i c n l q <<<"$(drun "$LOOPDEV" "$RT" $pin "$IOTRIAL" "$@" $TIO_FEATURES ${IT_ARGS:-})" ;;
			esac
			echo "$i $c $l $q" >>"$W/t.$side"
		done
	done
	awk -v nm="$name" -v D="$depth" -v T="$W/t.tio" -v F="$W/t.fio" -v I="$W/t.it" -v J="$W/t.itt" -v v="$VERBOSE" '
	function med(a, n,   i, j, t) { for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
		return n ? a[int((n + 1) / 2)] : 0 }
	function load(f, ip, cp, op,   n, l, x) { n = 0; while ((getline l < f) > 0) { split(l, x, " "); n++; ip[n] = x[1]; cp[n] = x[2]
			op[n] = x[1] > 0 ? D * 1e9 / x[1] - x[3] : 0
			rounds[f] = rounds[f] sprintf(" %.0fk/%.0fns/%.1fus/%.2fipi", x[1] / 1000, x[2], op[n] / 1000, x[4]) } return n }
	function r(a, b) { return b > 0 ? sprintf("x%.2f", a / b) : "  -  " }
	BEGIN {
		nt = load(T, ti, tc, to); nf = load(F, fi, fc, fo); ni = load(I, ii, ic, io); nj = load(J, ji, jc, jo)
		a = med(ti, nt); b = med(tc, nt); c = med(fi, nf); d = med(fc, nf); e = med(ii, ni); f = med(ic, ni)
		g = med(ji, nj); h = med(jc, nj)
		ot = med(to, nt); of = med(fo, nf); oi = med(io, ni); oj = med(jo, nj)
		best = a > c ? a : c
		if (nt) tio = sprintf("%7.1fk %5.0f ns %5.1f us", a / 1000, b, ot / 1000); else tio = sprintf("%25s", "-")
		if (nj) itt = sprintf("%7.1fk %5.0f ns %5.1f us | CPU/io vs t/io_uring %s | IOPS vs best %s", g / 1000, h, oj / 1000, r(h, b), r(g, best))
		else itt = "-"
		printf "%-19s t/io_uring %s | fio %7.1fk %5.0f ns %5.1f us | iotrial %7.1fk %5.0f ns %5.1f us | CPU/io vs fio %s | IOPS vs fio %s | outside the device vs fio %s || iotrial at t/io_uring'"'"'s features %s\n",
			nm, tio, c / 1000, d, of / 1000, e / 1000, f, oi / 1000, r(f, d), r(e, c), r(oi, of), itt
		if (v != 0) {
			if (nt) print "    t/io_uring:" rounds[T]
			print "    fio:       " rounds[F]
			print "    iotrial:   " rounds[I]
			if (nj) print "    iotrial, t/io_uring'"'"'s features:" rounds[J]
		}
	}'
}

# The three-sided cases need the RAM loop device (root) and say why not.
tio_cases() {
	local c common qd
	for c in $CASES; do
		case $c in tio-*) ;; *) continue ;; esac
		if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null; then
			echo "$c skipped: needs root and losetup"; continue
		fi
		if [ -z "$LOOP" ]; then
			dd if=/dev/zero of="$SHM" bs=1M count=1024 status=none
			LOOP=$(losetup --find --show --direct-io=on "$SHM")
		fi
		if [ -z "${LOOPDEV:-}" ]; then	# warm-up, not measured
			"$IOTRIAL" --name=w --rw=randread --bs=4k --direct=1 --filename="$LOOP" \
				--ioengine=io_uring --iodepth=32 --runtime=2 --time_based >/dev/null 2>&1
		fi
		LOOPDEV=${LOOP#/dev/}
		common="--name=b --rw=randread --bs=4k --runtime=$RT --time_based --direct=1 --filename=$LOOP"
		qd=${c##*-qd}; qd=${qd%%-*}
		case $c in
		tio-uring-qd*-b8) tio_case "$c" "$qd" "-d$qd -s8 -c8 -B0 -F0 -p0 -t1" $common --ioengine=io_uring \
				--iodepth="$qd" --iodepth_batch_submit=8 --iodepth_batch_complete_min=8 ;;
		tio-uring-qd*-reg) tio_case "$c" "$qd" "-d$qd -s1 -c1 -B1 -F1 -p0 -t1" $common --ioengine=io_uring \
				--iodepth="$qd" --fixedbufs=1 --registerfiles=1 ;;
		tio-uring-qd*) tio_case "$c" "$qd" "-d$qd -s1 -c1 -B0 -F0 -p0 -t1" $common --ioengine=io_uring --iodepth="$qd" ;;
		tio-libaio-qd*-b8) tio_case "$c" "$qd" "-a1 -d$qd -s8 -c8 -B0 -F0 -p0 -t1" $common --ioengine=libaio \
				--iodepth="$qd" --iodepth_batch_submit=8 --iodepth_batch_complete_min=8 ;;
		tio-libaio-qd*) tio_case "$c" "$qd" "-a1 -d$qd -s1 -c1 -B0 -F0 -p0 -t1" $common --ioengine=libaio --iodepth="$qd" ;;
		tio-psync-nj*) tio_case "$c" "${c##*-nj}" "" $common --ioengine=psync --numjobs="${c##*-nj}" --group_reporting ;;
		*) echo "$c: unknown case" ;;
		esac
	done
}

echo "# iotrial $($IOTRIAL --version) vs $($FIO --version); runtime ${RT}s, median of $REPS;" \
	"$(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
case " $(echo $CASES) " in *" tio-"*)
	if [ -n "$TIO" ]; then echo "# t/io_uring: $TIO"
	else echo "# t/io_uring side skipped: ../shared/tools/t-io_uring.sh not found (or its build failed)"; fi ;;
esac
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
tio_cases
exit 0
