# compare on degenerate inputs, end to end: a zero-I/O run (check warns,
# compare drops it and says so), p99 that is one histogram bucket in every run
# (no p = 0, no zero-width interval, no exit 6 from 3 runs a side), the level's
# label from --alpha, and no "nan" anywhere; then run order read from the
# files' timestamps (blocks, and a drift).  Result files are written here.
# check-fast: iotrial compare on stored results
. "$(dirname "$0")/lib.sh"

res() {	# res FILE READ_IOPS P99_NS
	ios=$(awk -v i="$2" 'BEGIN { printf "%d", i * 60 }')
	cat >"$1" <<JSON
{"fio version": "fio-3.33", "jobs": [{"jobname": "d", "job options": {"rw": "randread"},
 "read": {"iops": $2, "total_ios": $ios, "io_bytes": $((ios * 4096)), "runtime": 60000,
  "clat_ns": {"mean": 1000, "N": $ios, "percentile": {"99.000000": $3}}},
 "write": {"iops": 0, "total_ios": 0}}]}
JSON
}
mkdir "$T/a" "$T/b"
res "$T/a/1.json" 1000 50176; res "$T/a/2.json" 0 0; res "$T/a/3.json" 1003 50176
res "$T/b/1.json" 1001 55296; res "$T/b/2.json" 1004 55296; res "$T/b/3.json" 999 55296

"$IOTRIAL" check "$T/a/2.json" >"$T/out" 2>&1
if [ $? -eq 0 ] && grep -q 'no_io' "$T/out" && grep -q 'did no I/O' "$T/out"
then pass check_zero_io; else fail check_zero_io "$(cat "$T/out")"; fi

"$IOTRIAL" compare --fail-on-regression=1 --alpha=0.1 "$T/a" -- "$T/b" >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && grep -qE '^total\.iops .* 2 .* 3 ' "$T/out" &&
   grep -q '\[zero_io\] 1 of 3 runs did no I/O' "$T/out" &&
   grep -qE '^read\.lat_p99_ns .* inconclusive' "$T/out" &&
   grep -q ' 90% CI ' "$T/out" && ! grep -q '95%' "$T/out" &&
   ! grep -qE 'nan|[+-]inf' "$T/out"
then pass compare_degenerate_text; else fail compare_degenerate_text "rc $rc: $(cat "$T/out" "$T/err")"; fi

"$IOTRIAL" compare --output-format=json --alpha=0.1 "$T/a" -- "$T/b" >"$T/json" 2>"$T/err"
if [ $? -eq 0 ] && [ ! -s "$T/err" ] && pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in d["metrics"]}["read.lat_p99_ns"]
assert m["ci_level"] == 0.9 and m["ci_method"] == "rank" and m["test"] == "mann_whitney", m
assert m["p_value"] is None or m["p_value"] > 0.05, m["p_value"]   # never 0
assert "too few for a rank interval at 90%" in m["ci_note"], m["ci_note"]
assert m["ci"] is None or m["ci"][1] - m["ci"][0] > 0, m["ci"]
assert d["settings"]["failed_runs_a"] == 1 and d["a"]["n"] == 2
assert [r["side"] for r in m["runs"]] == ["A", "A", "B", "B", "B"]
' "$T/json"; then pass compare_degenerate_json; else fail compare_degenerate_json "$(head -c 600 "$T/json") $(cat "$T/err")"; fi

# run order from the files' timestamps: A = B made in blocks (all A, then all
# B) while the system slowed 10% is inconclusive with a run_order warning;
# the same drift with interleaved runs and B 10% faster is found
ts() {	# ts FILE READ_IOPS TIMESTAMP_MS
	ios=$(awk -v i="$2" 'BEGIN { printf "%d", i * 60 }')
	cat >"$1" <<JSON
{"fio version": "fio-3.33", "timestamp": $(($3 / 1000)), "timestamp_ms": $3, "jobs": [{"jobname": "d",
 "job options": {"rw": "randread"}, "read": {"iops": $2, "total_ios": $ios, "runtime": 60000,
 "lat_ns": {"mean": 1000, "N": $ios}}, "write": {"iops": 0, "total_ios": 0}}]}
JSON
}
mkdir "$T/blk" "$T/alt"
i=0
for v in 1003 990 978 970 955 945 931 922 913 899; do
	i=$((i + 1)); side=A; [ $i -gt 5 ] && side=B
	ts "$T/blk/$i-$side.json" $v $((1700000000000 + i * 60000))
done
"$IOTRIAL" compare "$T"/blk/*-A.json -- "$T"/blk/*-B.json >"$T/out" 2>"$T/err"
if [ $? -eq 0 ] && grep -qE '^total\.iops .* inconclusive \(side and run order are confounded' "$T/out" &&
   grep -q '\[run_order\] the sides ran in blocks (AAAAABBBBB' "$T/out" &&
   grep -q '^runs in run order (from the result timestamps)' "$T/out"
then pass compare_blocks_confounded; else fail compare_blocks_confounded "$(cat "$T/out" "$T/err")"; fi
i=0
for v in 1003 1089 978 1067 955 1040 931 1014 913 989; do
	i=$((i + 1)); side=A; [ $((i % 2)) -eq 0 ] && side=B
	ts "$T/alt/$i-$side.json" $v $((1700000000000 + i * 60000))
done
"$IOTRIAL" compare --output-format=json "$T"/alt/*-A.json -- "$T"/alt/*-B.json >"$T/json" 2>"$T/err"
if [ $? -eq 0 ] && pyjson '
import json, sys
m = json.load(open(sys.argv[1]))["metrics"][0]
assert m["ci_method"] == "run_order" and m["verdict_kind"] == "better", m
assert m["ci"][0] < 10 < m["ci"][1] and m["drift_pct_per_run"] < -1, m
assert "".join(r["side"] for r in m["runs"]) == "AB" * 5
' "$T/json"; then pass compare_drift_interleaved; else fail compare_drift_interleaved "$(head -c 900 "$T/json") $(cat "$T/err")"; fi
