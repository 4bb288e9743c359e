# Sets of fio results with a known difference (made from real fio output:
# B = A with read IOPS x 1.10 and read latency / 1.10), directories as sides,
# and the same configuration against itself.
# check-fast: iotrial compare on stored results
. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/../data/results

"$IOTRIAL" compare "$D/uring_a" "$D/uring_b" >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && grep -E '^read\.iops .* 5 .* 5 +\+7\.5\.\.\+12\.6% +\+10\.0% .*B is 7\.5\.\.12\.6% faster' "$T/out" >/dev/null &&
   grep -E '^read\.lat_mean_ns .* -9\.1% .*B is 7\.0\.\.11\.2% better' "$T/out" >/dev/null &&
   grep -E '^write\.iops .*(negligible|inconclusive)' "$T/out" >/dev/null &&
   grep -q '^metric .* 95% CI ' "$T/out" && ! grep -qiE 'nan|inf\b' "$T/out"
then pass sets_known_ten_percent; else fail sets_known_ten_percent "rc $rc: $(cat "$T/out" "$T/err")"; fi

"$IOTRIAL" compare --output-format=json "$D/uring_a" -- "$D/uring_b" >"$T/json" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in d["metrics"]}
r = m["read.iops"]
assert abs(r["diff_pct"] - 10) < 1e-9
lo, hi = r["ci"]
assert 0 < lo < 10 < hi, r["ci"]
assert r["ci_level"] == 0.95 and r["ci_method"] == "fieller"   # the fixture timestamps tie
blo, bhi = r["ci_bootstrap"]
assert 0 < blo < 10 < bhi and r["ci_bootstrap_method"] == "bootstrap_t", r["ci_bootstrap"]
assert r["p_value"] < 0.001 and abs(r["p_mann_whitney"] - 2 / 252) < 1e-9
assert r["verdict"] == "B is 7.5..12.6% faster" and r["test"] == "welch_t"
assert r["verdict_kind"] == "better" and r["order_known"] is False
assert [x["side"] for x in r["runs"]] == ["A"] * 5 + ["B"] * 5
assert all(x["order"] is None for x in r["runs"])
assert ("run_order", None) in [(w["id"], w["side"]) for w in d["warnings"]]
assert d["a"]["n"] == 5 and d["b"]["n"] == 5
assert "trim.iops" not in m
' "$T/json"; then pass sets_json_ci; else fail sets_json_ci "rc $rc: $(head -c 400 "$T/json")"; fi

"$IOTRIAL" compare --output-format=json "$D/uring_a" "$D/uring_same" >"$T/json" 2>"$T/err"
if pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
bad = [(m["name"], m["verdict"]) for m in d["metrics"]
       if m["verdict_kind"] not in ("inconclusive", "negligible")]
assert not bad, bad
' "$T/json"; then pass sets_same_config; else fail sets_same_config "$(head -c 400 "$T/json")"; fi

# files and a directory mixed on one side
"$IOTRIAL" compare "$D/uring_a/run-1.json" "$D/uring_a/run-2.json" "$D/uring_a/run-3.json" \
	-- "$D/uring_b" >"$T/out" 2>"$T/err"
if [ $? -eq 0 ] && grep -E '^read\.iops .* 3 .* 5 +\+' "$T/out" >/dev/null &&
   grep -E '\[few_runs\] 3 runs of A and 5 of B' "$T/out" >/dev/null
then pass sets_files_and_dir; else fail sets_files_and_dir "$(cat "$T/out" "$T/err")"; fi

# json+ (latency bins) and iotrial's own schema with environments
"$IOTRIAL" compare --output-format=json "$D/iotrial_a.json" "$D/iotrial_b.json" >"$T/json" 2>"$T/err"
if pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
keys = {e["key"]: (e["a"], e["b"]) for e in d["env_diff"]}
assert keys["targets.0.device.driver"] == ("virtio_blk", "nvme"), keys
assert "many_differences" not in [w["id"] for w in d["warnings"]]
assert d["a"]["environment"]["kernel"]["release"] == "6.1.0-18-amd64"
assert ("steady_state", "b") in [(w["id"], w["side"]) for w in d["warnings"]]
' "$T/json"; then pass sets_env_diff; else fail sets_env_diff "$(head -c 400 "$T/json") $(cat "$T/err")"; fi
