#!/bin/sh
# Known-truth tests of the time breakdown and the bottleneck verdict
# (docs/breakdown.md).  Each scenario establishes its own truth from counts
# measured in the same run, then checks the verdict iotrial gives its own
# result and the verdict `iotrial check` draws from fio's JSON of the same
# job file.  When a scenario's premise did not hold on this machine in this
# run (the truth could not be established), that case SKIPs with its figures.
#  - depth_saturated: RAM loop device (a loop on /dev/shm serves requests one
#    at a time), 1 MiB random reads at QD2 then QD16 in one job file: when QD16
#    adds under 25% IOPS the device is saturated: the deeper job's verdict is
#    `device`.
#  - contention: the same QD4 job alone, then at nice 19 beside 4 CPU-burning
#    cpuio jobs, all pinned to CPU 0: when alone did >= 1.25x the IOPS, the
#    hogged job's verdict is `cpu_contention` (fio's JSON has no run-queue
#    wait: the job alone in the other group is the evidence).
#  - rate_limit: rate_iops=300 on the RAM loop device, far below it: `rate_limit`.
#  - null: the null engine, no device: `tool`.
#  - page_cache: a buffered re-read of a cached file on a real disk: `page_cache`.
#  - qd1_disk: 4k random reads at QD1 with O_DIRECT on a file on the machine's
#    disk: never `tool` while the tool's CPU is under half of each I/O, and
#    the breakdown's parts add up to its cycle (less any overlap).
# Every iotrial result also has the breakdown in JSON and a text line.
. "$(dirname "$0")/lib.sh"

# verdicts FILE: "name verdict" per job with I/O, iotrial's own
cat >"$T/v.py" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])
for j in d["jobs"]:
    b = j.get("iotrial", {}).get("bottleneck", {})
    r = sum(j[k]["total_ios"] for k in ("read", "write", "trim"))
    print(j["jobname"], b.get("verdict", "-"), round(j["read"]["iops"] + j["write"]["iops"]), r)
PY
# the verdict `iotrial check` gives job NAME of fio's JSON FILE
fio_verdict() {
	"$IOTRIAL" check "$1" 2>/dev/null | sed -n "s/.*\[bottleneck\] job '$2': bottleneck \([a-z_]*\):.*/\1/p" | head -1
}
# fio's IOPS of job NAME in FILE (all directions)
fio_iops() {
	python3 -c "import json,sys; t=open(sys.argv[1]).read(); d=json.loads(t[t.index('{'):]); print(round(sum(j['read']['iops'] + j['write']['iops'] for j in d['jobs'] if j['jobname'] == sys.argv[2])))" "$1" "$2"
}
ours() { awk -v n="$2" '$1 == n { print $2; exit }' "$1"; }
ours_iops() { awk -v n="$2" '$1 == n { print $3; exit }' "$1"; }
HAVE_FIO=1
command -v fio >/dev/null 2>&1 || HAVE_FIO=0

# expect NAME WANT GOT [WHY]
expect() {
	if [ "$3" = "$2" ]; then pass "$1"; else fail "$1" "wanted $2, got '$3' ${4:-}"; fi
}

# run_both NAME JOBFILE: iotrial's JSON in $T/NAME.i, fio's in $T/NAME.f
run_both() {
	"$IOTRIAL" "$2" --output-format=normal,json >"$T/$1.i" 2>"$T/$1.err" ||
		fail "$1" "iotrial exit $?: $(head -c 300 "$T/$1.err")"
	python3 "$T/v.py" "$T/$1.i" >"$T/$1.v" 2>>"$T/$1.err"
	if [ $HAVE_FIO = 1 ]; then
		fio "$2" --output-format=json >"$T/$1.f" 2>/dev/null || : >"$T/$1.f"
	fi
}

# --- the RAM loop device --------------------------------------------------
LOOP=""
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1 && [ -e /dev/loop-control ] && [ -d /dev/shm ]; then
	IMG=/dev/shm/iotrial-e2e-truth.$$.img
	dd if=/dev/zero of="$IMG" bs=1M count=64 status=none
	LOOP=$(losetup --find --show "$IMG" 2>/dev/null) || LOOP=""
	if [ -n "$LOOP" ]; then
		trap 'losetup -d "$LOOP" 2>/dev/null; rm -f "$IMG"; rm -rf "$T"' EXIT INT TERM
	else
		rm -f "$IMG"
	fi
fi
if [ -z "$LOOP" ]; then
	for n in depth_saturated depth_saturated_fio contention contention_fio rate_limit rate_limit_fio; do
		skip $n "needs root, losetup and /dev/shm for a RAM loop device"
	done
else
	cat >"$T/depth.fio" <<EOF
[global]
filename=$LOOP
rw=randread
bs=1m
ioengine=io_uring
direct=1
runtime=1
time_based
[shallow]
iodepth=2
[deep]
stonewall
iodepth=16
EOF
	run_both depth "$T/depth.fio"
	s=$(ours_iops "$T/depth.v" shallow) d=$(ours_iops "$T/depth.v" deep)
	if [ -z "$s" ] || [ -z "$d" ]; then
		fail depth_saturated "no result: $(head -c 300 "$T/depth.err")"
	elif [ "$((d * 100))" -ge "$((s * 125))" ]; then
		skip depth_saturated "QD16 did $d IOPS against QD2's $s: the device was not saturated in this run"
	else
		expect depth_saturated device "$(ours "$T/depth.v" deep)" "(QD2 $s, QD16 $d IOPS): $(grep -m1 'bottleneck:' "$T/depth.i" | tail -c 400)"
	fi
	if [ $HAVE_FIO = 0 ]; then
		skip depth_saturated_fio "fio is not installed"
	else
		s=$(fio_iops "$T/depth.f" shallow) d=$(fio_iops "$T/depth.f" deep)
		if [ -z "$s" ] || [ -z "$d" ] || [ "$s" = 0 ]; then
			fail depth_saturated_fio "no fio result"
		elif [ "$((d * 100))" -ge "$((s * 125))" ]; then
			skip depth_saturated_fio "fio: QD16 did $d IOPS against QD2's $s: not saturated in this run"
		else
			expect depth_saturated_fio device "$(fio_verdict "$T/depth.f" deep)" "(fio QD2 $s, QD16 $d IOPS)"
		fi
	fi

	# the hogged job at nice 19 so that the hogs (nice 0) win CPU 0 every time:
	# the contention is certain rather than left to the scheduler's favour for sleepers
	cat >"$T/hog.fio" <<EOF
[global]
cpus_allowed=0
runtime=1
time_based
[alone]
filename=$LOOP
ioengine=io_uring
rw=randread
bs=4k
iodepth=4
direct=1
[hogged]
stonewall
filename=$LOOP
ioengine=io_uring
rw=randread
bs=4k
iodepth=4
direct=1
nice=19
[hog]
ioengine=cpuio
cpuload=100
numjobs=4
EOF
	run_both hog "$T/hog.fio"
	a=$(ours_iops "$T/hog.v" alone) h=$(ours_iops "$T/hog.v" hogged)
	if [ -z "$a" ] || [ -z "$h" ]; then
		fail contention "no result: $(head -c 300 "$T/hog.err")"
	elif [ "$((a * 100))" -lt "$((h * 125))" ]; then
		skip contention "alone $a IOPS, beside the hogs $h: the hogs did not slow it in this run"
	else
		expect contention cpu_contention "$(ours "$T/hog.v" hogged)" "(alone $a, hogged $h IOPS)"
	fi
	if [ $HAVE_FIO = 0 ]; then
		skip contention_fio "fio is not installed"
	else
		a=$(fio_iops "$T/hog.f" alone) h=$(fio_iops "$T/hog.f" hogged)
		if [ -z "$a" ] || [ -z "$h" ]; then
			fail contention_fio "no fio result"
		elif [ "$((a * 100))" -lt "$((h * 125))" ]; then
			skip contention_fio "fio: alone $a IOPS, beside the hogs $h: not slowed in this run"
		else
			expect contention_fio cpu_contention "$(fio_verdict "$T/hog.f" hogged)" "(fio alone $a, hogged $h IOPS)"
		fi
	fi

	cat >"$T/rate.fio" <<EOF
[r]
filename=$LOOP
ioengine=io_uring
rw=randread
bs=4k
direct=1
rate_iops=300
runtime=1
time_based
EOF
	run_both rate "$T/rate.fio"
	expect rate_limit rate_limit "$(ours "$T/rate.v" r)"
	if [ $HAVE_FIO = 1 ]; then
		expect rate_limit_fio rate_limit "$(fio_verdict "$T/rate.f" r)"
	else
		skip rate_limit_fio "fio is not installed"
	fi
fi

# --- the null engine: nothing but the tool ---------------------------------
printf '[n]\nioengine=null\nsize=1g\nruntime=1\ntime_based\n' >"$T/null.fio"
run_both null "$T/null.fio"
expect null tool "$(ours "$T/null.v" n)"
if [ $HAVE_FIO = 1 ]; then
	expect null_fio tool "$(fio_verdict "$T/null.f" n)"
else
	skip null_fio "fio is not installed"
fi

# --- a directory on a block device: the page cache, QD1 on the disk ---------
D=""
for cand in "${TMPDIR:-/tmp}" /var/tmp "$HOME"; do
	[ -d "$cand" ] && [ -w "$cand" ] || continue
	dev=$(stat -c '%d' "$cand" 2>/dev/null) || continue
	[ -e "/sys/dev/block/$((dev >> 8 & 0xfff)):$(( (dev & 0xff) | (dev >> 12 & 0xfff00) ))" ] || continue
	D=$(mktemp -d "$cand/iotrial-truth.XXXXXX") && break
done
if [ -z "$D" ]; then
	for n in page_cache page_cache_fio qd1_disk qd1_disk_fio qd1_disk_parts; do
		skip $n "no writable directory on a block device"
	done
else
	dd if=/dev/zero of="$D/cached" bs=1M count=32 status=none
	cat "$D/cached" >/dev/null	# now in the page cache
	printf '[c]\nfilename=%s\nsize=32m\nrw=read\nbs=4k\ndirect=0\nruntime=1\ntime_based\n' "$D/cached" >"$T/cache.fio"
	run_both cache "$T/cache.fio"
	expect page_cache page_cache "$(ours "$T/cache.v" c)"
	if [ $HAVE_FIO = 1 ]; then
		expect page_cache_fio page_cache "$(fio_verdict "$T/cache.f" c)"
	else
		skip page_cache_fio "fio is not installed"
	fi

	printf '[q1]\nfilename=%s\nsize=64m\nrw=randread\nbs=4k\ndirect=1\nioengine=io_uring\niodepth=1\nruntime=1\ntime_based\n' "$D/disk" >"$T/qd1.fio"
	run_both qd1 "$T/qd1.fio"
	v=$(ours "$T/qd1.v" q1)
	python3 - "$T/qd1.i" "$v" <<'PY'
import json, re, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("\n{") + 1:])
b = d["jobs"][0]["iotrial"]["breakdown"]
parts = ["device", "io_path", "tool_user", "tool_sys", "cpu_wait"]
tool = (b["tool_user"]["share"] or 0) + (b["tool_sys"]["share"] or 0)
if sys.argv[2] == "tool" and tool < 0.5:
    print("FAIL qd1_disk: verdict tool with the tool %.0f%% of each I/O" % (100 * tool))
elif not sys.argv[2]:
    print("FAIL qd1_disk: no verdict")
else:
    print("PASS qd1_disk (%s; tool %.0f%% of each I/O)" % (sys.argv[2], 100 * tool))
s = sum(b[p]["ns"] for p in parts if b[p]["ns"] is not None)
ok = abs(s - b["overlap_ns"] - b["cycle_ns"]) <= 1e-6 * b["cycle_ns"] + 1
ok = ok and all(b[p]["from"] and b[p]["exact"] for p in parts)
ok = ok and re.search(r"^  time per I/O \(us\): cycle [0-9.]+ us = device ", t, re.M)
print("PASS qd1_disk_parts" if ok else "FAIL qd1_disk_parts: %s" % json.dumps(b)[:500])
PY
	if [ $HAVE_FIO = 1 ]; then
		v=$(fio_verdict "$T/qd1.f" q1)
		if [ -n "$v" ] && [ "$v" != tool ]; then pass "qd1_disk_fio ($v)"; else fail qd1_disk_fio "verdict '$v'"; fi
	else
		skip qd1_disk_fio "fio is not installed"
	fi
	rm -rf "$D"
fi
