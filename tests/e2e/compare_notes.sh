# The statistics notes give the true reason: Fieller with 2 runs a side
# whose order is known is there because 4 runs are too few for the run-order
# fit, not because "the run order is not known"; with equal timestamps it is.
. "$(dirname "$0")/lib.sh"

"$IOTRIAL" --name=x --filename="$T/x.dat" --rw=randread --size=1m --runtime=100ms --time_based \
	--ioengine=psync --output-format=json >"$T/base.json" 2>"$T/err" || fail compare_notes_setup "$(cat "$T/err")"
make_runs() {	# DIR SAME_TIME: 2 runs a side, B about 10% up
	mkdir -p "$1"
	pyjson '
import copy, json, sys
base = json.load(open(sys.argv[1]))
for side, vals in (("A", [100000, 96000]), ("B", [110000, 107000])):
    for k, v in enumerate(vals):
        d = copy.deepcopy(base)
        d["timestamp_ms"] = 1700000000000 + (0 if sys.argv[3] == "1" else (2 * k + (side == "B")) * 1000)
        r = d["jobs"][0]["read"]
        scale = v / r["iops"]
        r["iops"] = v
        r["bw_bytes"] = int(r["bw_bytes"] * scale)
        r["total_ios"] = int(r["total_ios"] * scale)
        r["io_bytes"] = r["total_ios"] * 4096
        json.dump(d, open("%s/%s%d.json" % (sys.argv[2], side, k), "w"))
' "$T/base.json" "$1" "$2"
}
make_runs "$T/known" 0
make_runs "$T/unknown" 1

"$IOTRIAL" compare "$T"/known/A*.json -- "$T"/known/B*.json >"$T/out" 2>"$T/err"
"$IOTRIAL" compare --output-format=json "$T"/known/A*.json -- "$T"/known/B*.json >"$T/k.json" 2>>"$T/err"
if grep -q '^runs in run order (from the result timestamps)' "$T/out" &&
   ! grep -q 'run order is not known' "$T/out" &&
   grep -qE "^  total\.iops.*: Fieller's interval .*, because the run order is known, but 4 runs \(2 of A, 2 of B\) are too few for the run-order fit" "$T/out" &&
   pyjson '
import json, sys
m = {x["name"]: x for x in json.load(open(sys.argv[1]))["metrics"]}["total.iops"]
assert m["ci_method"] == "fieller" and "too few for the run-order fit" in m["ci_method_why"], m["ci_method_why"]
' "$T/k.json"
then pass compare_notes_fieller_few_runs; else fail compare_notes_fieller_few_runs "$(cat "$T/err") $(grep -E 'Fieller|runs in' "$T/out")"; fi

"$IOTRIAL" compare "$T"/unknown/A*.json -- "$T"/unknown/B*.json >"$T/out" 2>"$T/err"
if grep -qE "^  total\.iops.*: Fieller's interval .*, because the run order is not known" "$T/out"
then pass compare_notes_fieller_order_unknown; else fail compare_notes_fieller_order_unknown "$(grep -E 'Fieller' "$T/out")"; fi
