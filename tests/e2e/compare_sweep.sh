#!/bin/sh
# check-fast
# compare on two sweeps (docs/sweep.md): the SLO capacity is a metric,
# slo.iops, a score like IOPS.  Sweeps' documents made here with known
# figures (A: 1900 IOPS within p99 <= 1 ms, interval 1800..1950; B: 2900,
# 2800..2950), each in a sweep directory beside its runs' files:
#  - compare_sweep_dir: `compare A/ -- B/` reads each directory's sweep.json
#    (not its step files) and says "B is L..H% faster" on slo.iops, with the
#    interval taken ends against ends: 2800/1950 - 1 .. 2950/1800 - 1;
#  - compare_sweep_json: the JSON names the method (sweep_slo), the kind
#    (score) and the same interval, and no other metric (a sweep has no runs'
#    figures: none may read as 0); no single_run warning (a sweep is many runs);
#  - compare_sweep_next: a side's high end is the next step above its
#    interval when the sweep names one (the capacity lies under it);
#  - compare_sweep_overlap: overlapping intervals give "inconclusive";
#  - compare_sweep_slo_differs: sweeps under different SLOs get no verdict;
#  - compare_sweep_no_slo: a sweep without an SLO has no slo.iops (absent).
. "$(dirname "$0")/lib.sh"

mk() {	# dir iops lo hi target_ns [next_step_iops]
	mkdir -p "$1"
	cat >"$1/sweep.json" <<J
{"steps": [{"offered_iops": $2, "achieved_iops": $2, "kept": true}], "capacity_iops": $4,
 "capacity_from": "closed-loop run", "knee_iops": $4, "threads": 1, "batches": 3,
 "batch_s": 2.0, "dir": "$1",
 "slo": {"percentile": 99, "target_ns": $5, "iops": $2, "ci": [$3, $4], "next_step_iops": ${6:-null}}}
J
	echo '{"not": "a result"}' >"$1/step-01-batch-1.json"	# a sweep's runs: not read
}
mk "$T/a" 1900 1800 1950 1000000
mk "$T/b" 2900 2800 2950 1000000
mk "$T/c" 2000 1850 2100 1000000
mk "$T/d" 2900 2800 2950 500000
mk "$T/f" 2900 2800 2950 1000000 3100
mkdir -p "$T/e"
echo '{"steps": [], "capacity_iops": 100, "knee_iops": null, "batches": 3}' >"$T/e/sweep.json"

"$IOTRIAL" compare "$T/a/" -- "$T/b/" >"$T/out" 2>"$T/err"
rc=$?
lo=$(python3 -c 'print("%.1f..%.1f" % (100 * (2800 / 1950 - 1), 100 * (2950 / 1800 - 1)))')
if [ $rc -eq 0 ] && grep -q "^slo.iops .*B is $lo% faster" "$T/out"; then
	pass compare_sweep_dir
else
	fail compare_sweep_dir "exit $rc, want 'B is $lo% faster': $(cat "$T/out" "$T/err" | head -c 600)"
fi

"$IOTRIAL" compare --output-format=json "$T/a/sweep.json" -- "$T/b/sweep.json" >"$T/j" 2>"$T/err"
if pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
assert [x["name"] for x in d["metrics"]] == ["slo.iops"], [x["name"] for x in d["metrics"]]
m = d["metrics"][0]
lo, hi = 100 * (2800 / 1950 - 1), 100 * (2950 / 1800 - 1)
assert m["ci_method"] == "sweep_slo" and m["kind"] == "score", m
assert abs(m["ci"][0] - lo) < 1e-6 and abs(m["ci"][1] - hi) < 1e-6, m["ci"]
assert m["verdict_kind"] == "better", m["verdict_kind"]
assert not [w for w in d["warnings"] if w["id"] == "single_run"], d["warnings"]
' "$T/j" 2>"$T/perr"; then
	pass compare_sweep_json
else
	fail compare_sweep_json "$(tail -c 400 "$T/perr")"
fi

lo=$(python3 -c 'print("%.1f..%.1f" % (100 * (2800 / 1950 - 1), 100 * (3100 / 1800 - 1)))')
"$IOTRIAL" compare "$T/a/" -- "$T/f/" >"$T/out" 2>"$T/err"
check compare_sweep_next grep -q "^slo.iops .*B is $lo% faster" "$T/out"
"$IOTRIAL" compare "$T/a/" -- "$T/c/" >"$T/out" 2>"$T/err"
check compare_sweep_overlap grep -q "^slo.iops .*inconclusive" "$T/out"
"$IOTRIAL" compare "$T/a/" -- "$T/d/" >"$T/out" 2>"$T/err"
check compare_sweep_slo_differs grep -q "^slo.iops .*no verdict (the sweeps' SLOs differ" "$T/out"
"$IOTRIAL" compare --output-format=json "$T/a/" -- "$T/e/" >"$T/j" 2>"$T/err"
if pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
assert not [x for x in d["metrics"] if x["name"] == "slo.iops" and x["verdict_kind"] != "absent"], d["metrics"]
' "$T/j" 2>"$T/perr"; then
	pass compare_sweep_no_slo
else
	fail compare_sweep_no_slo "$(tail -c 300 "$T/perr" "$T/err")"
fi
