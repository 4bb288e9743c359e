# The seed report's two results (rebuilt as fio JSON): compare must show the
# +17.9% read IOPS, say no significance can be claimed from single runs, and
# flag the 78% read share against 50% and 62.8 / 63.4 in flight against 128.
# check-fast: iotrial compare on stored results
. "$(dirname "$0")/lib.sh"
D=$(dirname "$0")/../data/results

"$IOTRIAL" compare "$D/seed_virtio.json" "$D/seed_passthrough.json" >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$T/err" ]; then pass seed_text_exit; else fail seed_text_exit "rc $rc: $(cat "$T/err")"; fi
if grep -E '^read\.iops .* \+17\.9% .*single run: no significance can be claimed' "$T/out" >/dev/null
then pass seed_read_iops; else fail seed_read_iops "$(grep read.iops "$T/out")"; fi
if grep -E '^write\.iops .* \+18\.2%' "$T/out" >/dev/null
then pass seed_write_iops; else fail seed_write_iops "$(grep write.iops "$T/out")"; fi
if grep -E '\[single_run\] 1 run of A and 1 of B' "$T/out" >/dev/null
then pass seed_single_run; else fail seed_single_run "no single_run warning"; fi
if grep -E '^ *warning A \[mix\] read share 78\.0% .*50% reads' "$T/out" >/dev/null &&
   grep -E '^ *warning B \[mix\] read share 78\.0%' "$T/out" >/dev/null
then pass seed_mix; else fail seed_mix "$(grep mix "$T/out")"; fi
if grep -E 'A \[littles_law\] .*= 62\.8 I/Os in flight.*4 x 32 = 128' "$T/out" >/dev/null &&
   grep -E 'B \[littles_law\] .*= 63\.4 I/Os in flight.*= 128' "$T/out" >/dev/null
then pass seed_littles_law; else fail seed_littles_law "$(grep littles "$T/out")"; fi
if grep -E 'disk_util +A "vda", B "nvme0n1"' "$T/out" >/dev/null
then pass seed_disk_diff; else fail seed_disk_diff "$(sed -n '/differences/,$p' "$T/out")"; fi

# JSON: pure (stdout parses as one JSON document) and complete
"$IOTRIAL" compare --output-format=json "$D/seed_virtio.json" "$D/seed_passthrough.json" >"$T/json" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
assert set(d) >= {"a", "b", "metrics", "env_diff", "warnings"}, d.keys()
m = {x["name"]: x for x in d["metrics"]}
r = m["read.iops"]
assert abs(r["diff_pct"] - 100 * (92000 / 78000 - 1)) < 1e-6, r["diff_pct"]
assert r["a"] == {"mean": 78000.0, "sd": None, "n": 1, "cv": None}, r["a"]
assert r["b"]["mean"] == 92000 and r["b"]["n"] == 1
assert r["ci"] is None and r["p_value"] is None
assert r["verdict"] == "single run: no significance can be claimed", r["verdict"]
assert abs(m["read.lat_mean_ns"]["diff_pct"] - 100 * (350 / 410 - 1)) < 1e-6
assert m["read.lat_mean_ns"]["lower_is_better"] is True
ids = {(w["id"], w["side"]) for w in d["warnings"]}
for want in [("single_run", None), ("mix", "a"), ("mix", "b"), ("littles_law", "a"), ("littles_law", "b")]:
    assert want in ids, (want, ids)
assert d["a"]["n"] == 1 and d["a"]["job"]["rw"] == "randrw" and d["a"]["job"]["numjobs"] == "4"
' "$T/json"; then pass seed_json; else fail seed_json "rc $rc: $(head -c 300 "$T/json")"; fi
