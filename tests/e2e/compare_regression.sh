# --fail-on-regression: a significant 20% read IOPS drop (json+ sets made from
# real fio output, B's read IOPS x 0.8) exits 6 past a 10% threshold, 0 past 30%.
# check-fast: iotrial compare on stored results
. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/../data/results

"$IOTRIAL" compare --fail-on-regression=10 "$D/jp_a" "$D/jp_b" >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 6 ] && grep -E '^total\.iops .* -20\.0% .*B is 18\.1\.\.21\.8% slower' "$T/out" >/dev/null &&
   grep -q 'REGRESSION' "$T/out"
then pass regression_exit_6; else fail regression_exit_6 "rc $rc: $(cat "$T/out" "$T/err")"; fi

"$IOTRIAL" compare --fail-on-regression=30 "$D/jp_a" "$D/jp_b" >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && grep -q 'no regression' "$T/out"
then pass regression_below_threshold; else fail regression_below_threshold "rc $rc"; fi

"$IOTRIAL" compare "$D/jp_a" "$D/jp_b" >/dev/null 2>&1
rc=$?
if [ $rc -eq 0 ]; then pass regression_off_by_default; else fail regression_off_by_default "rc $rc"; fi

# improvements are not regressions
"$IOTRIAL" compare --fail-on-regression=10 "$D/jp_b" "$D/jp_a" >/dev/null 2>&1
rc=$?
if [ $rc -eq 0 ]; then pass regression_not_improvement; else fail regression_not_improvement "rc $rc"; fi

"$IOTRIAL" compare --output-format=json --fail-on-regression 10 "$D/jp_a" "$D/jp_b" >"$T/json" 2>"$T/err"
rc=$?
if [ $rc -eq 6 ] && [ ! -s "$T/err" ] && pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["regression"] is True
m = {x["name"]: x for x in d["metrics"]}
assert m["read.iops"]["regression"] is True and m["read.iops"]["verdict_kind"] == "worse"
assert m["read.lat_p99_ns"]["regression"] is False
assert d["settings"]["fail_on_regression_pct"] == 10
' "$T/json"; then pass regression_json; else fail regression_json "rc $rc: $(head -c 300 "$T/json")"; fi
