#!/bin/sh
# check-fast
# `iotrial report` of a sweep's document (docs/sweep.md, "Later: the report
# and the history"), on made-up documents shaped as `iotrial sweep` writes them:
#  - sweep_report_text: the text report by default: the step table, the
#    knee, the SLO capacity with its interval and the step it lies under;
#  - sweep_report_html: -o FILE.html (or --output-format=html) writes the
#    page: the capacities' table, the chart, the steps; --html=FILE as well
#    as the text;
#  - sweep_report_dir: a sweep's directory is its sweep.json;
#  - sweep_report_ab: an ab sweep's document: both tables and the
#    comparison of their SLO capacities (slo.iops, sweep_slo);
#  - sweep_report_bad_*: truncated JSON, a document whose part is wrong, a
#    sweep beside a run, text asked of a run: one line, exit 2, no file.
. "$(dirname "$0")/lib.sh"

python3 - "$T" <<'PY'
import json, sys
t = sys.argv[1]

def lat(p50):
    return {"N": 3000, "p50": p50, "p90": 2 * p50, "p99": 4 * p50, "p99.9": 5 * p50,
            "mean": 1.5 * p50, "max": 9 * p50}

def sweep(scale, d):
    steps = []
    for i, off in enumerate((1000, 2000, 3000)):
        kept = i < 2
        p = 4e5 * (i + 1) if kept else 8e6
        steps.append({"offered_iops": off * scale, "achieved_iops": off * scale * (0.99 if kept else 0.8),
                      "achieved_iops_min": off * scale * 0.98, "achieved_iops_max": off * scale,
                      "kept": kept, "lat_from_due_ns": lat(p / 4), "clat_ns": lat(1e5),
                      "percentile": {"of": "p99", "pooled_ns": p, "mean_ns": p, "ci_low_ns": p * 0.9,
                                     "ci_high_ns": p * 1.1, "batches_ns": [p * 0.95, p, p * 1.05]}})
    return {"steps": steps, "capacity_iops": 2900.0 * scale, "capacity_from": "closed-loop run",
            "knee_iops": 2000.0 * scale, "knee_rule": "highest offered load kept: achieved >= 95% of offered",
            "threads": 1, "batches": 3, "batch_s": 2.0, "dir": d, "ramp_time": "500ms",
            "slo": {"percentile": 99, "target_ns": 1000000, "iops": 2000.0 * scale,
                    "ci": [1000.0 * scale, 2000.0 * scale], "next_step_iops": 3000.0 * scale,
                    "measured_over": "made up"}}

json.dump(sweep(1, t + "/a"), open(t + "/s.json", "w"), indent=2)
a, b = sweep(1, t + "/a"), sweep(2, t + "/b")
a["options"], b["options"] = "filename=/dev/x", "filename=/dev/y"
json.dump({"a": a, "b": b, "compare": {}}, open(t + "/ab.json", "w"), indent=2)
bad = sweep(1, t)
bad["steps"][1]["clat_ns"]["p99"] = "slow"
json.dump(bad, open(t + "/bad.json", "w"))
open(t + "/cut.json", "w").write(json.dumps(sweep(1, t))[:300])
PY

"$IOTRIAL" report "$T/s.json" >"$T/s.txt" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^sweep: 3 steps of 3 batches (2.0 s each), 1 thread' "$T/s.txt" &&
	grep -q '^ *2000 *1980 *yes .*<- knee' "$T/s.txt" && grep -q 'BEHIND' "$T/s.txt" &&
	grep -q '^knee: 2000 IOPS offered' "$T/s.txt" &&
	grep -q '^SLO p99 <= .*: 2000 IOPS, interval 1000 .. 2000 (from each step.s 3 batches; the capacity lies under the next step, 3000)' "$T/s.txt" &&
	[ ! -s "$T/err" ]; then pass sweep_report_text
else fail sweep_report_text "exit $rc: $(cat "$T/s.txt" "$T/err" | head -c 800)"; fi

"$IOTRIAL" report "$T/s.json" -o "$T/s.html" 2>"$T/err" &&
	"$IOTRIAL" report --output-format=html "$T/s.json" >"$T/s2.html" 2>>"$T/err" &&
	"$IOTRIAL" report --html="$T/s3.html" "$T/s.json" >"$T/s3.txt" 2>>"$T/err"
rc=$?
if [ $rc -eq 0 ] && grep -q '<svg' "$T/s.html" && grep -q '<h2>Steps' "$T/s.html" &&
	grep -q '2000 (knee)' "$T/s.html" && cmp -s "$T/s.html" "$T/s2.html" && cmp -s "$T/s.html" "$T/s3.html" &&
	cmp -s "$T/s.txt" "$T/s3.txt"; then pass sweep_report_html
else fail sweep_report_html "exit $rc: $(head -c 300 "$T/err")"; fi

mkdir "$T/dir" && cp "$T/s.json" "$T/dir/sweep.json"
"$IOTRIAL" report "$T/dir" >"$T/dir.txt" 2>"$T/err"
check sweep_report_dir cmp -s "$T/s.txt" "$T/dir.txt"

"$IOTRIAL" report "$T/ab.json" >"$T/ab.txt" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^side A (filename=/dev/x)' "$T/ab.txt" && grep -q '^side B (filename=/dev/y)' "$T/ab.txt" &&
	grep -q '^slo.iops ' "$T/ab.txt"; then pass sweep_report_ab
else fail sweep_report_ab "exit $rc: $(cat "$T/ab.txt" "$T/err" | head -c 800)"; fi

expect_exit sweep_report_bad_cut 2 "cut.json: line 1: not valid JSON" "$IOTRIAL" report "$T/cut.json"
expect_exit sweep_report_bad_part 2 'bad.json: not a sweep document: steps\[1\]\.clat_ns\."p99" is not a number' \
	"$IOTRIAL" report "$T/bad.json" -o "$T/bad.html"
check sweep_report_bad_nofile test ! -e "$T/bad.html"
echo '{"fio version": "fio-3.33", "jobs": []}' >"$T/run.json"
expect_exit sweep_report_bad_mixed 2 "s.json is a sweep's document: it is reported alone" \
	"$IOTRIAL" report "$T/run.json" "$T/s.json"
expect_exit sweep_report_bad_text_run 2 "output-format=text is a sweep's report" \
	"$IOTRIAL" report --output-format=text "$T/run.json"
