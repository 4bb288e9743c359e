#!/bin/sh
# An ab sweep (iotrial sweep --a OPTS --b OPTS, docs/sweep.md) against a
# known truth: two RAM loop devices in one cgroup, their reads throttled to
# 2000 and 3000 IOPS (v1 blkio.throttle.read_iops_device; v2 io.max), the
# sides differing only in filename.  The SLO is p50 <= 20 ms from the due
# time (p50, not p99: the throttle releases I/Os in 100 ms slices, so any
# p99 is ~100 ms; sweep_known_truth.sh says more).
#  - sweep_ab_capacity: each side's SLO capacity lies within 10% of its limit
#    (at or under the knee; kept: achieved >= 95% of offered);
#  - sweep_ab_verdict: compare's slo.iops says B is faster, by an interval
#    (the sweeps' own, ends against ends) whose whole lies above 0;
#    whether it holds +50% (3000 / 2000) is printed, not asserted.  It held
#    in 3 of 4 runs when each run's start was measured (the throttle's burst
#    then added the same IOPS to both sides: one run +32.1..+48.9%) and a
#    step whose batches' mean kept up was the interval's low end (the
#    throttle's 100 ms slices let a 2 s batch keep up to ~8% above its limit,
#    one batch and not the next: 2158 kept at a 2000 limit).  With each
#    run's ramp not measured and the low end needing every batch kept, it
#    held in 6 of 6, once by 0.4 points (+49.6..+68.1%: B kept 3241 offered,
#    8% over its limit, A 2040, 2% over): each side's interval holds what its
#    own throttle keeps over 2 s batches, which differs from side to side, so
#    +50% can sit at the interval's edge;
#  - sweep_ab_dirs: each side's sweep.json is in DIR/a and DIR/b, and
#    `iotrial compare DIR/a -- DIR/b` gives the same interval;
#  - sweep_ab_bad_*: one side alone, or two sides that are the same, is one
#    line and exit 2 (no runs).
. "$(dirname "$0")/lib.sh"

B="--name=t --rw=randread --bs=4k --ioengine=libaio --direct=1 --iodepth=16"
expect_exit sweep_ab_bad_one_side 2 "an ab sweep needs both sides" "$IOTRIAL" sweep --a iodepth=4 $B --filename=/dev/null
expect_exit sweep_ab_bad_same 2 "resolve to the same jobs" "$IOTRIAL" sweep --a iodepth=4 --b iodepth=4 $B --filename=/dev/null

names="sweep_ab_capacity sweep_ab_verdict sweep_ab_dirs"
if [ -n "${SANITIZE:-}" ]; then
	for n in $names; do skip $n "a 60 s ab sweep: run once, in the plain pass"; done
	exit 0
fi
if ! own_loop 64; then
	for n in $names; do skip $n "no RAM loop device: $OWN_LOOP_WHY"; done
	exit 0
fi
LA=$OWN_LOOP
if ! own_loop 64; then
	for n in $names; do skip $n "no second RAM loop device: $OWN_LOOP_WHY"; done
	exit 0
fi
LB=$OWN_LOOP
cg_new io
if [ -z "$CG" ] || ! cg_riops "$CG" "$LA" 2000 2>/dev/null || ! cg_riops "$CG" "$LB" 3000 2>/dev/null; then
	for n in $names; do skip $n "needs a block I/O throttle (cgroup v1 blkio or v2 io) as root"; done
	exit 0
fi
# A busy machine can stall a batch: a step offered under its side's limit
# falls behind (achieved under 95% of offered, in the mean or in one batch),
# or its batches' p50s spread so far that their interval passes the SLO
# (both take the SLO interval's low end down: a whole make check beside it
# once left A's at 0, and the verdict inconclusive), which the throttled
# device itself never does, and the side's capacity is found low (or the closed-loop
# probe itself starves: CI once found side A's 2000 at 824).  Such a sweep
# measured the machine, not the device: it is made again (3 tries at most;
# the figures of the last one are judged, and the try is in the messages).
for try in 1 2 3; do
	rm -rf "$T/sw"
	cg_run "$CG" "$IOTRIAL" sweep --a "filename=$LA" --b "filename=$LB" --dir="$T/sw" --steps=5 \
		--refine=2 --batches=2 --batch-time=2s --probe-time=1s --slo=p50:20ms --output-format=json \
		$B >"$T/sw.json" 2>"$T/sw.err"
	rc=$?
	[ $rc -ne 0 ] || python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
# a step under the limit that a batch did not keep, or whose batches p50s
# spread past the SLO: the interval low end needs every batch within it
stalled = [x for s, lim in (("a", 2000), ("b", 3000)) for x in d[s]["steps"]
           if x["offered_iops"] < 0.97 * lim and (not x["kept"] or
              x.get("achieved_iops_min", x["achieved_iops"]) < 0.95 * x["offered_iops"] or
              x["percentile"]["ci_high_ns"] > 20e6)]
# a closed-loop probe starved below the limit finds the capacity low too
low = [s for s, lim in (("a", 2000), ("b", 3000)) if (d[s].get("capacity_iops") or 0) < 0.9 * lim]
sys.exit(bool(stalled) or bool(low) or
         not all((d[s].get("slo") or {}).get("iops") for s in "ab"))' "$T/sw.json" && break
done
if [ $rc -ne 0 ]; then
	for n in $names; do fail $n "ab sweep exit $rc: $(tail -c 300 "$T/sw.err")"; done
	exit 0
fi
"$IOTRIAL" compare --output-format=json "$T/sw/a" -- "$T/sw/b" >"$T/c.json" 2>"$T/c.err"
python3 - "$T/sw.json" "$T/c.json" "$try" <<'PY'
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except ValueError as e:
    for n in ("sweep_ab_capacity", "sweep_ab_verdict", "sweep_ab_dirs"):
        print("FAIL %s: stdout is not JSON alone: %s" % (n, e))
    sys.exit(0)

def check(name, ok, why):
    print(("PASS %s" % name) if ok else ("FAIL %s: %s" % (name, why)))

def table(s):
    return "; ".join("%.0f->%.0f p50 %.1fms" % (x["offered_iops"], x["achieved_iops"],
                     x["percentile"]["pooled_ns"] / 1e6) for x in s["steps"])

ok, why = True, ["try %s" % sys.argv[3]]
for side, lim in (("a", 2000.0), ("b", 3000.0)):
    s = d[side]
    slo = s.get("slo") or {}
    v = slo.get("iops") or 0
    ok = ok and abs(v - lim) <= 0.1 * lim and v <= (s.get("knee_iops") or 0)
    why.append("%s: slo %s ci %s knee %s (%s)" % (side, v, slo.get("ci"), s.get("knee_iops"), table(s)))
check("sweep_ab_capacity", ok, " | ".join(why))
m = [x for x in d["compare"]["metrics"] if x["name"] == "slo.iops"]
m = m[0] if m else {}
ci = m.get("ci") or [None, None]
ok = (m.get("verdict_kind") == "better" and m.get("ci_method") == "sweep_slo" and
      ci[0] is not None and ci[0] > 0)
check("sweep_ab_verdict", ok, "slo.iops %s %s; %s" % (m.get("verdict"), ci, " | ".join(why)))
# measured, not asserted (see the head of this file): whether it holds +50%
print("  slo.iops interval %s%%: holds +50%%: %s" % (ci, ci[0] is not None and ci[0] <= 50 <= ci[1]))
try:
    c = json.load(open(sys.argv[2]))
    m2 = [x for x in c["metrics"] if x["name"] == "slo.iops"][0]
    ok = (ci[0] is not None and all(abs(x - y) <= 1e-6 * abs(y) for x, y in zip(m2["ci"], ci)) and
          m2["verdict"] == m.get("verdict"))
except (ValueError, IndexError, KeyError, TypeError) as e:
    ok, m2 = False, {"error": str(e)}
check("sweep_ab_dirs", ok, "compare DIR/a -- DIR/b: %s %s" % (m2.get("verdict"), m2.get("ci")))
PY
