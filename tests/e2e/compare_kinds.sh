# What a metric is, from compare's one table: a score (a direction; the gate
# counts it), a referee (device.lat_mean_ns, time.*: a direction, never the
# gate) or a description (device.queue_depth: higher or lower, counted
# nowhere, not on the difference chart).  The text, JSON and HTML say the
# same; the HTML headline counts the rows its table shows; the gate line
# names what failed, above the table, and marks those rows.
. "$(dirname "$0")/lib.sh"

# one real result, then 4 runs a side made from it: B 20% fewer IOPS, 25%
# more latency, a device queue 14 times as deep, run order interleaved
"$IOTRIAL" --name=x --filename="$T/x.dat" --rw=randread --size=1m --runtime=100ms --time_based \
	--ioengine=psync --output-format=json >"$T/base.json" 2>"$T/err" || fail compare_kinds_setup "$(cat "$T/err")"
mkdir -p "$T/g"
pyjson '
import copy, json, sys
base = json.load(open(sys.argv[1]))
for side, vals, qd in (("A", [100000, 101000, 99000, 100500], 1.0), ("B", [80000, 80800, 79200, 80400], 14.0)):
    for k, v in enumerate(vals):
        d = copy.deepcopy(base)
        d["timestamp_ms"] = 1700000000000 + (2 * k + (side == "B")) * 1000
        j = d["jobs"][0]
        r = j["read"]
        scale = v / r["iops"]
        r["iops"] = v
        r["bw_bytes"] = int(r["bw_bytes"] * scale)
        r["total_ios"] = int(r["total_ios"] * scale)
        r["io_bytes"] = r["total_ios"] * 4096
        r["lat_ns"]["mean"] = 1e9 / v * (1 + k * 0.01)
        j["iotrial"]["device"] = {"name": "vdz", "window_s": 1.0, "read_ios": v, "write_ios": 0,
            "read_lat_ns_mean": 9000.0 * (1 + k * 0.02) * (1.3 if side == "B" else 1),
            "write_lat_ns_mean": 0, "read_queue_depth": qd * (1 + k * 0.03),
            "write_queue_depth": 0, "util": 90.0}
        json.dump(d, open("%s/%s%d.json" % (sys.argv[2], side, k), "w"))
' "$T/base.json" "$T/g"

"$IOTRIAL" compare --fail-on-regression=5 --output-format=json "$T"/g/A*.json -- "$T"/g/B*.json >"$T/c.json" 2>"$T/err"
rc=$?
if [ $rc -eq 6 ] && pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in d["metrics"]}
q = m["device.queue_depth"]
assert q["kind"] == "description" and q["lower_is_better"] is None and not q["gated"], q
assert q["verdict_kind"] == "differs" and q["verdict"].endswith("% higher") and not q["regression"], q["verdict"]
assert m["device.lat_mean_ns"]["kind"] == "referee" and not m["device.lat_mean_ns"]["gated"]
assert m["device.lat_mean_ns"]["verdict_kind"] == "worse" and not m["device.lat_mean_ns"]["regression"]
assert m["total.iops"]["kind"] == "score" and m["total.iops"]["gated"] and m["total.iops"]["regression"]
assert all(x["kind"] == "referee" for x in d["metrics"] if x["name"].startswith("time."))
' "$T/c.json"
then pass compare_kinds_json; else fail compare_kinds_json "rc $rc: $(cat "$T/err") $(head -c 300 "$T/c.json")"; fi

# text: the description says higher, never faster/slower/better/worse; the
# gate line comes before the table, names each failed metric and by how much;
# the rows it counts say [REGRESSION], the others do not
"$IOTRIAL" compare --fail-on-regression=5 "$T"/g/A*.json -- "$T"/g/B*.json >"$T/c.txt" 2>"$T/err"
rc=$?
gate=$(grep -n '^Regression threshold' "$T/c.txt" | cut -d: -f1)
table=$(grep -n '^metric ' "$T/c.txt" | cut -d: -f1)
if [ $rc -eq 6 ] && grep -qE '^device\.queue_depth .* B is [0-9.]+\.\.[0-9.]+% higher \(' "$T/c.txt" &&
   ! grep -E '^device\.queue_depth ' "$T/c.txt" | grep -qE 'faster|slower|better|worse|REGRESSION' &&
   [ -n "$gate" ] && [ -n "$table" ] && [ "$gate" -lt "$table" ] &&
   grep -qE '^Regression threshold 5\.0%: REGRESSION: total\.iops B is 1[0-9]\.[0-9]\.\.2[0-9]\.[0-9]% slower; read\.lat_mean_ns B is .* worse' "$T/c.txt" &&
   grep -q 'not counted: device\.\*, time\.\*' "$T/c.txt" &&
   [ "$(grep -v '^Regression threshold' "$T/c.txt" | grep -c '\[REGRESSION\]')" -eq "$(pyjson 'import json,sys; print(sum(m["regression"] and not m["same_as"] for m in json.load(open(sys.argv[1]))["metrics"]))' "$T/c.json")" ] &&
   grep -E '^device\.lat_mean_ns ' "$T/c.txt" | grep -q 'worse' && ! grep -E '^device\.lat_mean_ns ' "$T/c.txt" | grep -q REGRESSION
then pass compare_kinds_text_gate; else fail compare_kinds_text_gate "rc $rc: $(head -n 12 "$T/c.txt" | cut -c1-200)"; fi

# HTML: the headline counts the rows of its table (folded duplicates and the
# description left out of the count), and the forest chart has no row for
# the description, so its +1300% does not set the chart's scale
"$IOTRIAL" compare --fail-on-regression=5 --output-format=html -o "$T/r.html" "$T"/g/A*.json -- "$T"/g/B*.json 2>"$T/err"
if pyjson '
import json, re, sys
h = open(sys.argv[1]).read()
d = json.load(open(sys.argv[2]))
table = h[h.index("<table class=\"metrics\">"):]
table = table[:table.index("</table>")]
rows = re.findall(r"<tr><td>([^<]+)</td>", table)
shown = [m for m in d["metrics"] if not m["same_as"]]
assert len(rows) == len(shown), (rows, len(shown))
m = re.search(r"(\d+) metrics? compared: (\d+) better for B, (\d+) worse for B, (\d+) without", h)
assert m, h[:2000]
scores = [x for x in shown if x["kind"] != "description"]
assert int(m.group(1)) == len(scores), (m.group(0), len(scores))
assert int(m.group(3)) == sum(x["verdict_kind"] == "worse" for x in scores), m.group(0)
assert "1 more describes the runs" in h
forest = h[h.index("id=\"forest\""):]
forest = forest[:forest.index("</svg>")]
assert "device.queue_depth" not in forest and "device.lat_mean_ns" in forest, "forest"
' "$T/r.html" "$T/c.json"
then pass compare_kinds_html; else fail compare_kinds_html "$(cat "$T/err") $(python3 -c 'import sys' 2>&1)"; fi
