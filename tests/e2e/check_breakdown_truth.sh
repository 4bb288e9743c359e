#!/bin/sh
# Known-truth tests of the time breakdown and the bottleneck verdict
# (docs/breakdown.md).  Each scenario establishes its own truth from counts
# measured in the same run, then checks the verdict iotrial gives its own
# result and the verdict `iotrial check` draws from fio's JSON of the same
# job file.  When a scenario's premise did not hold on this machine in this
# run (the truth could not be established), that case SKIPs with its figures.
#  - device_saturated: a RAM loop device (LOOP2) over another (LOOP) whose
#    reads a cgroup throttles to 1000 IOPS: QD4 and QD32 do the same IOPS,
#    the added time is LOOP2's own: `device`.
#  - path_saturated: the same throttle with the job on LOOP itself: the
#    I/Os wait in the block layer before they reach the device: `io_path`.
#  - cpu_quota: a QD1 job under a cgroup CPU quota of 2% of one CPU (the
#    cgroup's nr_throttled shows the quota held it): `cpu_contention`.
#  - contention: the same QD4 job alone, then at nice 19 beside 4 CPU-burning
#    cpuio jobs, all pinned to CPU 0: when alone did >= 1.25x the IOPS, the
#    hogged job's verdict is `cpu_contention` (fio's JSON has no run-queue
#    wait: the job alone in the other group is the evidence).
#  - rate_limit: rate_iops=300 on the RAM loop device, far below it: `rate_limit`;
#    the same with thinktime=2000 instead (the job paces itself): `rate_limit`.
#  - null: the null engine, no device: `tool`.
#  - page_cache: a buffered re-read of a cached file on a file system (the
#    test's own ext4 on a RAM loop device when root, else the machine's disk):
#    `page_cache`.
#  - page_cache_device, merged_seq_buffered, merged_seq_direct: the device's
#    part is its share of each job I/O: its busy time over the job's I/Os
#    when the page cache served most of them (a cached re-read) or readahead
#    merged them (a cold buffered read); under O_DIRECT, where each I/O waits
#    for the merged request that holds it, the time per request.
#  - qd1_disk: 4k random reads at QD1 with O_DIRECT on a file there, in a
#    second stonewall group of two QD4 jobs: never `tool` while the tool's CPU
#    is under half of each I/O, and the breakdown's parts add up to its cycle
#    (less any overlap); each group its own device window, named in the text,
#    and the group of two its own breakdown; the HTML report has a breakdown
#    per job with its steady tail's, and per group its device view and (two
#    jobs) breakdown; compare gives per test a breakdown and device.* rows
#    from that test's own window, and names the window.
# Every iotrial result also has the breakdown in JSON and a text line.
. "$(dirname "$0")/lib.sh"

# verdicts FILE: "name verdict" per job with I/O, iotrial's own
cat >"$T/v.py" <<'PY'
import json, re, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("{"):])
for j in d["jobs"]:
    b = j.get("iotrial", {}).get("bottleneck", {})
    r = sum(j[k]["total_ios"] for k in ("read", "write", "trim"))
    w = re.search(r"waited for a CPU ([0-9]+)% of the run", b.get("evidence", ""))
    print(j["jobname"], b.get("verdict", "-"), round(j["read"]["iops"] + j["write"]["iops"]), r, w.group(1) if w else 0)
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
ours_wait() { awk -v n="$2" '$1 == n { print $5; exit }' "$1"; }
HAVE_FIO=1
command -v fio >/dev/null 2>&1 || HAVE_FIO=0

# expect NAME WANT GOT [WHY]
expect() {
	if [ "$3" = "$2" ]; then pass "$1"; else fail "$1" "wanted $2, got '$3' ${4:-}"; fi
}

# run_both NAME JOBFILE [IOTRIAL-OPTION...]: iotrial's JSON in $T/NAME.i, fio's in $T/NAME.f
run_both() {
	_n=$1 _f=$2
	shift 2
	"$IOTRIAL" "$_f" --output-format=normal,json "$@" >"$T/$_n.i" 2>"$T/$_n.err" ||
		fail "$_n" "iotrial exit $?: $(head -c 300 "$T/$_n.err")"
	python3 "$T/v.py" "$T/$_n.i" >"$T/$_n.v" 2>>"$T/$_n.err"
	if [ $HAVE_FIO = 1 ]; then
		fio "$_f" --output-format=json >"$T/$_n.f" 2>/dev/null || : >"$T/$_n.f"
	fi
}

# --- cgroups: a block-layer throttle (lib.sh: cg_new, cg_run, cg_riops), a CPU quota
# cg_quota DIR PCT: PCT% of one CPU
cg_quota() {
	if [ -e "$1/cpu.cfs_quota_us" ]; then
		echo 100000 >"$1/cpu.cfs_period_us" && echo $(($2 * 1000)) >"$1/cpu.cfs_quota_us"
	else
		echo "$(($2 * 1000)) 100000" >"$1/cpu.max"
	fi
}
# cg_throttled DIR: times the cgroup's tasks were held by the CPU quota
cg_throttled() { awk '$1 == "nr_throttled" { print $2 }' "$1/cpu.stat"; }

# --- the RAM loop devices ----------------------------------------------------
# LOOP on a /dev/shm file; LOOP2 a loop over LOOP (each of its requests is a
# request to LOOP, so a throttle on LOOP is LOOP2's own service time).
LOOP="" LOOP2=""
cleanup() {
	[ -n "$LOOP2" ] && losetup -d "$LOOP2" 2>/dev/null
	for c in $CGS; do rmdir "$c" 2>/dev/null; done
	lib_cleanup	# LOOP (own_loop), the file system of own_fs, $T
}
trap cleanup EXIT
if own_loop 64; then
	LOOP=$OWN_LOOP
	LOOP2=$(attach_loop --direct-io=on "$LOOP" 2>/dev/null) || LOOP2=""
fi
if [ -z "$LOOP" ]; then
	for n in device_saturated device_saturated_fio path_saturated path_saturated_fio \
		cpu_quota cpu_quota_fio compare_breakdown compare_breakdown_html contention contention_fio rate_limit rate_limit_fio \
		thinktime thinktime_idle thinktime_fio; do
		skip $n "no RAM loop device: $OWN_LOOP_WHY"
	done
else
	# A read throttle of 1000 IOPS on LOOP (far below what it does, tens of
	# thousands): QD4 and QD32 on LOOP2 are LOOP2's own service capped, the
	# device saturated (util ~100%, latency x16); the same on LOOP directly is
	# held in the block layer before the request exists, outside the device's
	# counters: the path in front of it saturated.
	cg_new io
	CGIO=$CG
	if [ -z "$CGIO" ] || [ -z "$LOOP2" ] || ! cg_riops "$CGIO" "$LOOP" 1000 2>/dev/null; then
		for n in device_saturated device_saturated_fio path_saturated path_saturated_fio; do
			skip $n "needs a loop over a loop and a block I/O throttle (cgroup v1 blkio or v2 io)"
		done
	else
		for w in dev:$LOOP2 path:$LOOP; do
			printf '[global]\nfilename=%s\nrw=randread\nbs=4k\nioengine=io_uring\ndirect=1\nruntime=1\ntime_based\n[q4]\niodepth=4\n[q32]\nstonewall\niodepth=32\n' \
				"${w#*:}" >"$T/${w%%:*}.fio"
			cg_run "$CGIO" "$IOTRIAL" "$T/${w%%:*}.fio" --output-format=normal,json >"$T/${w%%:*}.i" 2>"$T/${w%%:*}.err"
			python3 "$T/v.py" "$T/${w%%:*}.i" >"$T/${w%%:*}.v" 2>>"$T/${w%%:*}.err"
			[ $HAVE_FIO = 1 ] && { cg_run "$CGIO" fio "$T/${w%%:*}.fio" --output-format=json >"$T/${w%%:*}.f" 2>/dev/null || : >"$T/${w%%:*}.f"; }
		done
		# saturated NAME FILE-BASE WANT: the truth (QD32 adds < 25% IOPS over
		# QD4, at most about the throttle's 1000, its thread not starved of CPU:
		# waited < 25% of the run), then the verdict of QD32.  A premise that
		# does not hold in this run (a loaded machine) is a SKIP with figures.
		saturated() {
			s=$(ours_iops "$T/$2.v" q4) d=$(ours_iops "$T/$2.v" q32) w=$(ours_wait "$T/$2.v" q32)
			if [ -z "$s" ] || [ -z "$d" ]; then
				fail "$1" "no result: $(head -c 300 "$T/$2.err")"
			elif [ "$((d * 100))" -ge "$((s * 125))" ] || [ "$d" -gt 1300 ] || [ "${w:-0}" -ge 25 ]; then
				skip "$1" "the premise did not hold in this run: QD4 $s, QD32 $d IOPS (limit 1000), QD32 waited for a CPU $w% of the run"
			else
				expect "$1" "$3" "$(ours "$T/$2.v" q32)" "(QD4 $s, QD32 $d IOPS): $(grep 'bottleneck:' "$T/$2.i" | tail -1 | tail -c 500)"
			fi
			if [ $HAVE_FIO = 0 ]; then
				skip "$1_fio" "fio is not installed"
			else
				s=$(fio_iops "$T/$2.f" q4) d=$(fio_iops "$T/$2.f" q32)
				if [ -z "$s" ] || [ -z "$d" ]; then
					fail "$1_fio" "no fio result"
				elif [ "$((d * 100))" -ge "$((s * 125))" ] || [ "$d" -gt 1300 ]; then
					skip "$1_fio" "the premise did not hold in fio's run: QD4 $s, QD32 $d IOPS (limit 1000)"
				else
					expect "$1_fio" "$3" "$(fio_verdict "$T/$2.f" q32)" "(fio QD4 $s, QD32 $d IOPS)"
				fi
			fi
		}
		saturated device_saturated dev device
		saturated path_saturated path io_path
	fi

	# A CPU quota of 2% of one CPU on the whole process: the QD1 job needs
	# more (tens of us of CPU per I/O at thousands of IOPS), so the quota holds
	# it (the cgroup counts the times); its threads wait for a CPU the quota
	# will not give: cpu_contention.  fio's JSON has no run-queue wait and no
	# job beside it to compare with: its verdict must not blame the tool or
	# the device (whose util is low), and is shown.
	cg_new cpu
	CGCPU=$CG
	if [ -z "$CGCPU" ] || ! cg_quota "$CGCPU" 2 2>/dev/null; then
		for n in cpu_quota cpu_quota_fio compare_breakdown compare_breakdown_html; do
			skip $n "needs a CPU quota (cgroup v1 cpu or v2 cpu)"
		done
	else
		printf '[q]\nfilename=%s\nrw=randread\nbs=4k\nioengine=io_uring\ndirect=1\niodepth=1\nruntime=500ms\ntime_based\n' "$LOOP" >"$T/quota.fio"
		n0=$(cg_throttled "$CGCPU")
		cg_run "$CGCPU" "$IOTRIAL" "$T/quota.fio" --output-format=normal,json >"$T/quota.i" 2>"$T/quota.err"
		n1=$(cg_throttled "$CGCPU")
		python3 "$T/v.py" "$T/quota.i" >"$T/quota.v" 2>>"$T/quota.err"
		if [ -z "$(ours "$T/quota.v" q)" ]; then
			fail cpu_quota "no result: $(head -c 300 "$T/quota.err")"
		elif [ "${n1:-0}" -le "${n0:-0}" ]; then
			skip cpu_quota "the quota never held the job in this run (nr_throttled $n0 -> $n1)"
		else
			expect cpu_quota cpu_contention "$(ours "$T/quota.v" q)" "(held $((n1 - n0)) times): $(grep 'bottleneck:' "$T/quota.i" | tail -c 500)"
		fi
		if [ $HAVE_FIO = 0 ]; then
			skip cpu_quota_fio "fio is not installed"
		else
			cg_run "$CGCPU" fio "$T/quota.fio" --output-format=json >"$T/quota.f" 2>/dev/null || : >"$T/quota.f"
			v=$(fio_verdict "$T/quota.f" q)
			case $v in
			tool|device|"") fail cpu_quota_fio "fio's result judged '$v'" ;;
			*) pass "cpu_quota_fio ($v: fio's JSON has no run-queue wait)" ;;
			esac
		fi
		# compare: the same job without the quota (B) against it (A): B's
		# cycle is shorter, and by the CPU wait most (the quota's whole effect)
		"$IOTRIAL" "$T/quota.fio" --output-format=json --output="$T/free.json" 2>"$T/free.err"
		sed -n '/^{/,$p' "$T/quota.i" >"$T/quota.json"
		"$IOTRIAL" compare "$T/quota.json" -- "$T/free.json" >"$T/cmp.txt" 2>&1
		"$IOTRIAL" compare --output-format=html -o "$T/cmp.html" "$T/quota.json" -- "$T/free.json" 2>/dev/null
		cyc=$(sed -n "s/.*B's cycle per I\/O is [0-9.]* us [a-z]* (A \([0-9.]*\), B \([0-9.]*\) us).*/\1 \2/p" "$T/cmp.txt")
		# (io_path may have no row: 0 on both sides when the parts overlap;
		# tool_sys may be folded into cpu_per_io when the runs' user time is
		# 0 ticks, so that the two are the same figure in both runs)
		if ! grep -q '^time.cpu_wait_ns ' "$T/cmp.txt" || [ -z "$cyc" ] ||
		   ! grep -qE '^time.tool_sys_ns |time.tool_sys_ns: not shown, a fixed multiple' "$T/cmp.txt"; then
			fail compare_breakdown "no time.*_ns rows or no sentence: $(grep -E "^time\.|cycle per I/O|not shown" "$T/cmp.txt" | head -c 600)"
		elif ! echo "$cyc" | awk '{ exit !($1 >= 1.25 * $2) }'; then
			skip compare_breakdown "the quota did not slow the job in this run (cycle with it, without: $cyc us)"
		elif grep -q "B's cycle per I/O is [0-9.]* us shorter .*the difference is most in the CPU wait: [0-9.]* us less per I/O" "$T/cmp.txt"; then
			pass compare_breakdown
		else
			fail compare_breakdown "$(grep "cycle per I/O" "$T/cmp.txt")"
		fi
		# the HTML page: a stacked bar per side (one <rect> per known part and side)
		na=$(grep -c '<rect [^>]*><title>A ' "$T/cmp.html" 2>/dev/null)
		nb=$(grep -c '<rect [^>]*><title>B ' "$T/cmp.html" 2>/dev/null)
		if grep -q 'Time per I/O, A and B' "$T/cmp.html" 2>/dev/null && [ "${na:-0}" -ge 2 ] && [ "${nb:-0}" -ge 2 ]; then
			pass compare_breakdown_html
		else
			fail compare_breakdown_html "no stacked bar per side in the compare page (A $na, B $nb parts)"
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
			# fio's JSON has no run-queue wait: the peer (the same job
			# alone) names the contention when fio's CPU figures allow it,
			# else the verdict must say it cannot decide (a fresh chroot
			# gave unknown), never blame the tool or the device
			v=$(fio_verdict "$T/hog.f" hogged)
			case $v in
			cpu_contention* | unknown*) pass "contention_fio (${v%%:*}; fio alone $a, hogged $h IOPS)" ;;
			*) fail contention_fio "wanted cpu_contention or unknown, got '$v' (fio alone $a, hogged $h IOPS)" ;;
			esac
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
runtime=500ms
time_based
EOF
	run_both rate "$T/rate.fio"
	expect rate_limit rate_limit "$(ours "$T/rate.v" r)"
	if [ $HAVE_FIO = 1 ]; then
		expect rate_limit_fio rate_limit "$(fio_verdict "$T/rate.f" r)"
	else
		skip rate_limit_fio "fio is not installed"
	fi

	# a think time paces the job as a rate does: the same verdict from the
	# run and from fio's JSON, and the sleep is idle, not I/O path
	sed 's/^rate_iops=300$/thinktime=2000/' "$T/rate.fio" >"$T/think.fio"
	run_both think "$T/think.fio"
	expect thinktime rate_limit "$(ours "$T/think.v" r)"
	if grep -q 'no I/O in flight [0-9]*% of each cycle' "$T/think.i"; then
		pass thinktime_idle
	else
		fail thinktime_idle "no idle share in the verdict: $(grep -o 'bottleneck: [^;]*' "$T/think.i" | head -1)"
	fi
	if [ $HAVE_FIO = 1 ]; then
		expect thinktime_fio rate_limit "$(fio_verdict "$T/think.f" r)"
	else
		skip thinktime_fio "fio is not installed"
	fi
fi

# --- the null engine: nothing but the tool ---------------------------------
printf '[n]\nioengine=null\nsize=1g\nruntime=500ms\ntime_based\n' >"$T/null.fio"
run_both null "$T/null.fio"
expect null tool "$(ours "$T/null.v" n)"
if [ $HAVE_FIO = 1 ]; then
	expect null_fio tool "$(fio_verdict "$T/null.f" n)"
else
	skip null_fio "fio is not installed"
fi

# --- idle: a rate limit's sleep is not I/O path ------------------------------
# Rate-limited null jobs (5000 IOPS at QD1: a 200 us cycle of which well under
# 10 us is the I/O and the tool): the time with no I/O in flight is the idle
# part (or a wait for a CPU), and io_path is at most the latency (no device).  Then a compare of two
# such sides: its time block's io_path difference is within the latency, never
# the ~150 us of sleep it once called "I/O path".
R="--name=r --ioengine=null --rw=randread --bs=4k --size=64m --rate_iops=5000 --number_ios=1000"
mkdir -p "$T/idleA" "$T/idleB"
ok=1
for i in 1 2; do
	for s in A B; do
		# shellcheck disable=SC2086
		"$IOTRIAL" $R --output-format=json --output="$T/idle$s/$i.json" 2>>"$T/idle.err" || ok=0
	done
done
if [ $ok = 1 ]; then
	got=$(python3 - "$T/idleA/1.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["jobs"][0]["iotrial"]["breakdown"]
lat, cyc = t["lat_ns"], t["cycle_ns"]
bad = []
if not t["io_path"]["ns"] <= lat + 1:
    bad.append("io_path %.0f ns > latency %.0f ns" % (t["io_path"]["ns"], lat))
# the sleep is idle, or, on a loaded machine, partly a wait for a CPU after
# it (beside three CPU hogs: cpu_wait 18-35 of the 199 us; under make
# check-loaded idle alone was once 15 us): never I/O path, device or tool
if not t["idle"]["ns"] + t["cpu_wait"]["ns"] >= 0.5 * cyc:
    bad.append("idle %.0f + cpu_wait %.0f ns < half the %.0f ns cycle (parts: %s)" % (
        t["idle"]["ns"], t["cpu_wait"]["ns"], cyc,
        ", ".join("%s %.0f" % (p, t[p]["ns"]) for p in ("device", "io_path", "tool_user", "tool_sys"))))
s = sum(t[p]["ns"] for p in ("device", "io_path", "tool_user", "tool_sys", "cpu_wait", "idle"))
if abs(s + t["overlap_ns"] - cyc) > 1:
    bad.append("parts %.0f + overlap %.0f != cycle %.0f" % (s, t["overlap_ns"], cyc))
print("; ".join(bad) or "ok (cycle %.0f us: idle %.0f, io_path %.2f us)" % (cyc / 1e3, t["idle"]["ns"] / 1e3, t["io_path"]["ns"] / 1e3))
PY
)
	case $got in ok*) pass "idle_part $got" ;; *) fail idle_part "$got" ;; esac
	"$IOTRIAL" compare --output-format=json "$T/idleA/" -- "$T/idleB/" >"$T/idle.cmp" 2>>"$T/idle.err"
	got=$(python3 - "$T/idle.cmp" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["time_breakdown"]
a, b = t["a"], t["b"]
d = abs(b["io_path"]["ns"] - a["io_path"]["ns"])
lat = max(a["lat_ns"], b["lat_ns"])
print("ok" if d <= lat + 1 and "idle" in a else
      "io_path differs by %.0f ns, more than the latency %.0f ns (idle: %s)" % (d, lat, a.get("idle")))
PY
)
	expect compare_idle ok "$got"
else
	fail idle_part "the rate-limited null runs failed: $(head -c 300 "$T/idle.err")"
fi

# --- a directory on a block device: the page cache, QD1 -------------------
# On a file system only this test uses (own_fs) when it can have one, so the
# device's counters are its own; else on the machine's disk.
D=""
if own_fs 160; then
	D=$OWN_FS/d
	mkdir "$D" || D=""
fi
for cand in "${TMPDIR:-/tmp}" /var/tmp "$HOME"; do
	[ -z "$D" ] || break
	[ -d "$cand" ] && [ -w "$cand" ] || continue
	dev=$(stat -c '%d' "$cand" 2>/dev/null) || continue
	[ -e "/sys/dev/block/$((dev >> 8 & 0xfff)):$(( (dev & 0xff) | (dev >> 12 & 0xfff00) ))" ] || continue
	D=$(mktemp -d "$cand/iotrial-truth.XXXXXX") && break
done
if [ -z "$D" ]; then
	for n in page_cache page_cache_fio page_cache_device merged_seq_buffered merged_seq_direct qd1_disk qd1_disk_fio qd1_disk_parts group_views report_html_breakdown compare_per_test_time compare_per_test_device; do
		skip $n "no writable directory on a block device"
	done
else
	dd if=/dev/zero of="$D/cached" bs=1M count=32 status=none
	cat "$D/cached" >/dev/null	# now in the page cache; invalidate=0 keeps it there
	# (fio's default drops it, and on a busy machine the job then read little
	# more than the one pass from the device: "unknown", not page_cache)
	printf '[c]\nfilename=%s\nsize=32m\nrw=read\nbs=4k\ndirect=0\ninvalidate=0\nruntime=500ms\ntime_based\n' "$D/cached" >"$T/cache.fio"
	run_both cache "$T/cache.fio"
	expect page_cache page_cache "$(ours "$T/cache.v" c)"
	if [ $HAVE_FIO = 1 ]; then
		expect page_cache_fio page_cache "$(fio_verdict "$T/cache.f" c)"
	else
		skip page_cache_fio "fio is not installed"
	fi

	# The device's part is its share of each job I/O.  A buffered random re-read
	# of the cached file: the device did (almost) none of the job's I/Os, so its
	# part is its busy time over the job's I/Os, near 0 -- not the time per
	# request, capped at the latency (the whole cycle before).  Then a cold
	# buffered sequential read: readahead merges 4k reads into large requests,
	# waited for by one I/O each: again the busy time over the job's I/Os,
	# under the latency by the kernel's copy.  And the same read with O_DIRECT
	# at QD32 submitted in batches: the block layer merges those requests too,
	# but each I/O waits for the whole request that holds it: the time per
	# request, not divided.
	printf '[rc]\nfilename=%s\nsize=32m\nrw=randread\nbs=4k\ndirect=0\ninvalidate=0\nruntime=500ms\ntime_based\n' "$D/cached" >"$T/rcache.fio"
	"$IOTRIAL" "$T/rcache.fio" --output-format=json >"$T/rcache.json" 2>"$T/rcache.err"
	printf '[sq]\nfilename=%s\nsize=32m\nrw=read\nbs=4k\ndirect=0\n' "$D/cached" >"$T/seqb.fio"
	"$IOTRIAL" "$T/seqb.fio" --output-format=json >"$T/seqb.json" 2>"$T/seqb.err"
	seqd=libaio
	engine_refused libaio && seqd=io_uring
	printf '[sd]\nfilename=%s\nsize=32m\nrw=read\nbs=4k\ndirect=1\nioengine=%s\niodepth=32\niodepth_batch_submit=32\niodepth_batch_complete_min=16\n' "$D/cached" "$seqd" >"$T/seqd.fio"
	"$IOTRIAL" "$T/seqd.fio" --output-format=json >"$T/seqd.json" 2>"$T/seqd.err"
	python3 - "$T/rcache.json" "$T/seqb.json" "$T/seqd.json" <<'PY'
import json, sys
def load(p):
    try:
        j = json.load(open(p))["jobs"][0]
    except (ValueError, KeyError, IndexError) as e:
        return None
    v = j["iotrial"].get("device") or {}
    b = j["iotrial"]["breakdown"]
    ios = j["read"]["total_ios"]
    return j, v, b, ios, v.get("read_ios", 0), v.get("read_lat_ns_mean") or 0
# the device's share of each buffered I/O: its time over the job's I/Os
# (requests' ticks, or its busy time when requests overlapped), at most the
# latency; and what the time per request, capped, said before
def shares(r):
    j, v, b, ios, dios, dlat = r
    ticks = dlat * dios / ios
    busy = v.get("util", 0) / 100 * v.get("window_s", 0) * 1e9 / ios
    want = min(ticks, busy if busy > 0 else ticks, b["lat_ns"])
    return want, min(dlat, b["lat_ns"])
# page_cache_device: the device did under 10% of the I/Os; its part is its
# time over the job's I/Os (exactly, within rounding), not the latency
r = load(sys.argv[1])
if not r:
    print("FAIL page_cache_device: no result")
else:
    j, v, b, ios, dios, dlat = r
    want, before = shares(r)
    got = b["device"]["ns"]
    if dios > 0.1 * ios or want > 0.95 * before:
        print("SKIP page_cache_device: the file was not in the page cache (device %d of %d I/Os, %.0f ns each)" % (dios, ios, dlat))
    elif got is None or abs(got - want) > 1e-6 * want + 1e-3:
        print("FAIL page_cache_device: device %s ns (%s of the cycle), want %.1f ns: the device did %d of %d I/Os, %.0f ns per request"
              % (got, b["device"]["share"], want, dios, ios, dlat))
    else:
        print("PASS page_cache_device (%d of %d I/Os on the device: %.1f ns of %.1f)" % (dios, ios, got, b["cycle_ns"]))
# merged_seq_buffered: readahead's requests are fewer than a quarter of the
# job's I/Os and moved most of its bytes; the device part is their time over
# the job's I/Os, and not what the time per request, capped, said before
r = load(sys.argv[2])
if not r:
    print("FAIL merged_seq_buffered: no result")
else:
    j, v, b, ios, dios, dlat = r
    want, before = shares(r)
    got = b["device"]["ns"]
    if not (0 < dios < ios / 4):
        print("SKIP merged_seq_buffered: no merged requests (device %d of %d I/Os)" % (dios, ios))
    elif want > 0.95 * before:
        print("SKIP merged_seq_buffered: readahead ran beside the job: its share of each I/O (%.0f ns) is the latency, as the time per request capped (%.0f ns)" % (want, before))
    elif got is None or abs(got - want) > 1e-6 * want + 1e-3:
        print("FAIL merged_seq_buffered: device %s ns, want %.1f (%d requests of %.0f ns for %d I/Os)" % (got, want, dios, dlat, ios))
    else:
        print("PASS merged_seq_buffered (%d requests for %d I/Os: %.0f ns per I/O, %.0f per request)" % (dios, ios, got, dlat))
# merged_seq_direct: O_DIRECT's merged requests keep the time per request
r = load(sys.argv[3])
if not r:
    print("FAIL merged_seq_direct: no result")
else:
    j, v, b, ios, dios, dlat = r
    want = min(dlat, b["lat_ns"])
    got = b["device"]["ns"]
    if not (0 < dios < 0.9 * ios):
        print("SKIP merged_seq_direct: the block layer merged nothing (%d requests for %d I/Os)" % (dios, ios))
    elif got is None or abs(got - want) > 1e-6 * want + 1e-3 or "merged" not in b["device"]["exact"]:
        print("FAIL merged_seq_direct: device %s ns, want %.1f per request: %s" % (got, want, b["device"]["exact"]))
    else:
        print("PASS merged_seq_direct (%d requests for %d I/Os, %.0f ns each)" % (dios, ios, got))
PY

	# two stonewall groups, the second of two jobs: each its own device window,
	# named in the text; intervals of 25 ms give each job a steady tail (MSER
	# over 20 intervals) and so a tail breakdown
	printf '[global]\nfilename=%s\nsize=64m\nrw=randread\nbs=4k\ndirect=1\nioengine=io_uring\nruntime=500ms\ntime_based\n[q1]\niodepth=1\n[q4]\nstonewall\niodepth=4\n[q4b]\niodepth=4\n' "$D/disk" >"$T/qd1.fio"
	run_both qd1 "$T/qd1.fio" --series_interval=25ms
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
# a device view and a breakdown per group, each over its own window, and the
# text names the window of each; disk_util's view says whose window it is
g = d["iotrial"].get("groups", [])
why = []
if [x["groupid"] for x in g] != [0, 1]:
    why.append("groups %s" % [x.get("groupid") for x in g])
for x in g:
    dv = x.get("devices") or [{}]
    if not (0.3 < (dv[0].get("window_s") or 0) < 5 and x.get("breakdown", {}).get("cycle_ns")):
        why.append("group %s: %s" % (x.get("groupid"), json.dumps(x)[:200]))
du = d["disk_util"][0].get("iotrial", {})
if du.get("groupid") != 0 or du.get("job") != "q1" or not du.get("window_s"):
    why.append("disk_util[0].iotrial names no window: %s" % json.dumps(du)[:200])
for gid, name in ((0, "q1"), (1, "q4, q4b")):
    if not re.search(r"^  \S+ device view over [0-9.]+ s \(group %d: %s\)" % (gid, name), t, re.M):
        why.append("no text view for group %d" % gid)
# the text's time per I/O of the group of two jobs, and of no group of one
if not re.search(r"^  group 1 \(q4, q4b\) time per I/O \(us\): cycle ", t, re.M) or "group 0 (q1) time per I/O" in t:
    why.append("the text's group time per I/O lines")
if d["jobs"][1]["iotrial"].get("device", {}).get("window_s") is None:
    why.append("q4 has no device view of its own")
print("FAIL group_views: " + "; ".join(why) if why else "PASS group_views")
PY
	# the run's HTML report: the breakdown of each job (a stacked bar and its
	# table) with its steady tail's beside it, and per group its device view
	# over its own window and, for the group of two jobs, its breakdown
	sed -n '/^{/,$p' "$T/qd1.i" >"$T/qd1.json"
	"$IOTRIAL" report "$T/qd1.json" -o "$T/qd1.html" 2>"$T/qd1.herr"
	python3 - "$T/qd1.json" "$T/qd1.html" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
h = open(sys.argv[2]).read()
why = []
n = h.count("<h4>Time per I/O</h4>")
if n != 3 or "measured from" not in h:
    why.append("%d job breakdowns in the page (3 jobs)" % n)
tails = [j["jobname"] for j in d["jobs"] if j["iotrial"].get("breakdown", {}).get("tail")]
bars = h.count(">steady tail</text>")
if not tails or bars != len(tails) or h.count("<th>steady tail: us per I/O</th>") != len(tails):
    why.append("steady tails: %s in the JSON, %d bars in the page" % (tails, bars))
for g in d["iotrial"]["groups"]:
    w = "%.2f" % g["devices"][0]["window_s"]
    sec = h[h.find("<h4>Group %d: %s</h4>" % (g["groupid"], g["jobs"])):]
    sec = sec[:sec.find("</section>")]
    if not sec or "<td>%s</td>" % w not in sec:
        why.append("group %d: no section or no view over its %s s window" % (g["groupid"], w))
    elif ("Time per I/O, group %d" % g["groupid"] in sec) != (", " in g["jobs"]):
        why.append("group %d (%s): a group breakdown %s" % (g["groupid"], g["jobs"],
                   "for a single job" if ", " not in g["jobs"] else "missing"))
print("FAIL report_html_breakdown: " + "; ".join(why) if why else "PASS report_html_breakdown")
PY
	# compare of a two-test result: a time breakdown per test, each from its own jobs
	"$IOTRIAL" compare "$T/qd1.json" -- "$T/qd1.json" >"$T/qd1.cmp" 2>&1
	"$IOTRIAL" compare --output-format=json "$T/qd1.json" -- "$T/qd1.json" >"$T/qd1.cmpj" 2>/dev/null
	if grep -q "^  q1: B's cycle per I/O is 0.0 us" "$T/qd1.cmp" && grep -q "^  q4: B's cycle per I/O is 0.0 us" "$T/qd1.cmp" &&
		python3 -c "import json,sys; d=json.load(open(sys.argv[1])); c=[t['time']['a']['cycle_ns'] for t in d['tests']]; sys.exit(not (len(c) == 3 and c[0] != c[1]))" "$T/qd1.cmpj"; then
		pass compare_per_test_time
	else
		fail compare_per_test_time "$(grep -A3 'time per I/O per test' "$T/qd1.cmp" | head -c 400)"
	fi
	# ... and its own device.* rows, from its own window, which the text names
	python3 - "$T/qd1.json" "$T/qd1.cmpj" "$T/qd1.cmp" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
c = json.load(open(sys.argv[2]))
t = open(sys.argv[3]).read()
why = []
for j, g in zip(d["jobs"], (0, 1, 1)):
    name, v = j["jobname"], j["iotrial"]["device"]
    row = [x for x in c["tests"] if x["test"] == name]
    dev = row[0].get("device") if row else None
    if not dev:
        why.append("%s: no device rows" % name)
        continue
    m = {x["name"]: x for x in dev["metrics"]}
    ios = v["read_ios"] + v["write_ios"]
    lat = (v["read_lat_ns_mean"] * v["read_ios"] + v["write_lat_ns_mean"] * v["write_ios"]) / ios
    got = (m.get("device.lat_mean_ns") or {}).get("a_mean")
    if got is None or abs(got - lat) > 1e-6 * lat + 1e-3 or "device.queue_depth" not in m:
        why.append("%s: device.lat_mean_ns %s, its own window's %s" % (name, got, lat))
    win = "group %d's window (job '%s', %.2f s)" % (g, name, v["window_s"])
    if win not in (dev["window_a"] or "") or win not in (dev["window_b"] or ""):
        why.append("%s: window %s, not %s" % (name, dev["window_a"], win))
    if not re.search(r"^%s +device\.lat_mean_ns +[0-9.]+ ?[mun]?s " % name, t, re.M) or \
       not re.search(r"^ +window: A .*%s; B " % re.escape(win), t, re.M):
        why.append("%s: no text rows or window line" % name)
print("FAIL compare_per_test_device: " + "; ".join(why) if why else "PASS compare_per_test_device")
PY
	if [ $HAVE_FIO = 1 ]; then
		v=$(fio_verdict "$T/qd1.f" q1)
		if [ -n "$v" ] && [ "$v" != tool ]; then pass "qd1_disk_fio ($v)"; else fail qd1_disk_fio "verdict '$v'"; fi
	else
		skip qd1_disk_fio "fio is not installed"
	fi
	rm -rf "$D"
fi
