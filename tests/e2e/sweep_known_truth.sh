#!/bin/sh
# iotrial sweep (docs/sweep.md) against a known truth: a RAM loop device whose
# reads a cgroup throttles to LIMIT IOPS (v1 blkio.throttle.read_iops_device;
# v2 io.max), far below what it does on its own (tens of thousands).  The
# throttle lets a burst through when a run starts (at a 2000 limit: 2126 IOPS over a 0.7 s run
# at 2300 offered, 2004 over 2 s, measured here): each run's ramp (500ms,
# not measured) takes it, and batches of 2 s keep the rest (its 100 ms
# slices) under the 10% margin.  LIMIT is 1000, not 2000: at load average 20 on
# this 2-core machine a 2000-IOPS sweep starved (1780 offered, 1545 done).
#  - sweep_capacity / sweep_knee: the closed-loop capacity and the knee (the
#    highest offered load kept) lie within 10% of LIMIT;
#  - sweep_omission: below the limit (the first step, 20% of capacity) the
#    p50 from the due time stays near fio's clat p50 (within 2 ms: the
#    device takes tens of us, the rest is a busy machine's wake-up delay,
#    tests/e2e/lib.sh); at the highest step (beyond the limit) the backlog
#    grows, and the mean from the due time is over 3x clat's mean, while
#    clat's mean stays at the queue's: iodepth / LIMIT (16 ms, Little's law),
#    at most doubled.  Means, not p99: the throttle releases I/Os in 100 ms
#    slices, so clat is bimodal (p50 tens of us, p99 ~100 ms) whatever the
#    backlog;
#  - sweep_slo: with --slo=p50:20ms the SLO capacity is a kept step at or
#    under the knee, with an interval around it;
#  - sweep_json: --output-format=json has steps[], capacity_iops and slo
#    {percentile, target_ns, iops, ci}, and nothing else on stdout;
#  - sweep_bad_*: bad input is one line and exit 2 (no runs), a bad --ramp
#    or --batch-time among it (the runs' own options, checked before any).
. "$(dirname "$0")/lib.sh"

LIMIT=1000
B="--name=t --rw=randread --bs=4k --ioengine=libaio --direct=1 --iodepth=16"

expect_exit sweep_bad_slo 2 "no percentile" "$IOTRIAL" sweep --slo=1ms $B --filename=/dev/null
expect_exit sweep_bad_slo_time 2 "no target time" "$IOTRIAL" sweep --slo=p99 $B --filename=/dev/null
expect_exit sweep_bad_range 2 "upside down" "$IOTRIAL" sweep --range=5000-100 $B --filename=/dev/null
expect_exit sweep_bad_rate 2 "no rate limiter can offer it" "$IOTRIAL" sweep --range=1-100 $B --numjobs=4 --filename=/dev/null
expect_exit sweep_bad_own_rate 2 "sets its own rate" "$IOTRIAL" sweep $B --rate_iops=100 --filename=/dev/null
expect_exit sweep_bad_ramp 2 "invalid value '0.3s' for option 'ramp_time'" "$IOTRIAL" sweep --ramp=0.3s $B --filename=/dev/null

names="sweep_capacity sweep_knee sweep_omission sweep_slo sweep_json"
if [ -n "${SANITIZE:-}" ]; then
	for n in $names; do skip $n "a 30 s sweep: run once, in the plain pass"; done
	exit 0
fi
if ! own_loop 64; then
	for n in $names; do skip $n "no RAM loop device: $OWN_LOOP_WHY"; done
	exit 0
fi
cg_new io
if [ -z "$CG" ] || ! cg_riops "$CG" "$OWN_LOOP" $LIMIT 2>/dev/null; then
	for n in $names; do skip $n "needs a block I/O throttle (cgroup v1 blkio or v2 io) as root"; done
	exit 0
fi
cg_run "$CG" "$IOTRIAL" sweep --dir="$T/sw" --steps=5 --refine=2 --batches=2 --batch-time=2s \
	--probe-time=1s --slo=p50:20ms --output-format=json $B --filename="$OWN_LOOP" \
	>"$T/sw.json" 2>"$T/sw.err"
rc=$?
if [ $rc -ne 0 ]; then
	for n in $names; do fail $n "sweep exit $rc: $(tail -c 300 "$T/sw.err")"; done
	exit 0
fi
python3 - "$T/sw.json" "$LIMIT" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError as e:
    for n in ("sweep_capacity", "sweep_knee", "sweep_omission", "sweep_slo", "sweep_json"):
        print("FAIL %s: stdout is not JSON alone: %s" % (n, e))
    sys.exit(0)
lim = float(sys.argv[2])
steps = d["steps"]
table = "; ".join("%.0f->%.0f due p50 %.0fus p99 %.0fus clat p50 %.0fus p99 %.0fus" % (
    s["offered_iops"], s["achieved_iops"], s["lat_from_due_ns"]["p50"] / 1e3,
    s["lat_from_due_ns"]["p99"] / 1e3, s["clat_ns"]["p50"] / 1e3, s["clat_ns"]["p99"] / 1e3)
    for s in steps)

def check(name, ok, why):
    print(("PASS %s" % name) if ok else ("FAIL %s: %s (%s)" % (name, why, table)))

cap = d["capacity_iops"]
check("sweep_capacity", abs(cap - lim) <= 0.1 * lim, "capacity %.0f, limit %.0f" % (cap, lim))
knee = d["knee_iops"] or 0
check("sweep_knee", abs(knee - lim) <= 0.1 * lim, "knee %.0f, limit %.0f" % (knee, lim))
lo, hi = steps[0], steps[-1]
qd_ns = 16 / lim * 1e9
ok = (lo["lat_from_due_ns"]["p50"] <= lo["clat_ns"]["p50"] + 2e6 and
      hi["offered_iops"] > lim and not hi["kept"] and
      hi["lat_from_due_ns"]["mean"] > 3 * hi["clat_ns"]["mean"] and
      hi["clat_ns"]["mean"] <= 2 * qd_ns)
check("sweep_omission", ok, "first step due p50 vs clat p50; last step due mean %.0f us vs "
      "clat mean %.0f us (queue's %.0f us)" % (hi["lat_from_due_ns"]["mean"] / 1e3,
      hi["clat_ns"]["mean"] / 1e3, qd_ns / 1e3))
slo = d.get("slo") or {}
ci = slo.get("ci") or [None, None]
ok = (slo.get("iops") is not None and slo["iops"] <= knee and ci[0] is not None and
      ci[0] <= slo["iops"] <= ci[1] and slo.get("percentile") == 50 and slo.get("target_ns") == 20000000)
check("sweep_slo", ok, "slo %s, knee %.0f" % (slo, knee))
ok = (isinstance(steps, list) and len(steps) >= 3 and
      all(k in slo for k in ("percentile", "target_ns", "iops", "ci")) and
      all(k in steps[0] for k in ("offered_iops", "achieved_iops", "lat_from_due_ns", "clat_ns", "kept")))
check("sweep_json", ok, "keys: %s" % sorted(d))
PY
