#!/bin/sh
# A sweep's SLO capacity in the results history (docs/sweep.md, docs/history.md):
# made-up sweep documents, where the statistics are what is tested, then two
# small real sweeps on a throttled RAM loop device.
#  - sweep_history_import: sweep documents import as runs, keyed by their
#    first run's device and jobs plus the SLO they judged (sig_text
#    "... sweep=p99<=1000000ns"), with the sweep's start as theirs;
#  - sweep_history_list: history list names what a sweep judged;
#  - sweep_history_trend: `history trend slo.iops` is higher-is-better, one
#    SLO and workload a series (the others counted apart), each point with
#    its own interval (the sweep's ci low end to the step above its high
#    end), and a capacity that drops under the band the earlier sweeps made
#    is outside it, "worse" (IOPS' rule);
#  - sweep_history_trend_text / _html: the interval in the text table and
#    the chart's whiskers;
#  - sweep_history_show_html: `history show ID --output-format=html` of a
#    stored sweep is the sweep's page (as `iotrial report` writes it);
#  - sweep_history_compare: `history compare` of two stored sweeps judges
#    slo.iops with the sweeps' own intervals (sweep_slo); two sweeps under
#    different SLOs are not comparable, named;
#  - sweep_history_run: `iotrial sweep --history` stores the sweep's
#    document, not its runs (IOTRIAL_HISTORY set as well), keyed by the
#    loop device it ran on, and trend follows it;
#  - sweep_history_report_same: `iotrial report DIR/sweep.json` prints what
#    the sweep printed, byte for byte.
. "$(dirname "$0")/lib.sh"

DB="$T/h.db"
H="$IOTRIAL history --history=$DB"
mk() {	# file start_h iops ci_lo ci_hi next target_ns bs
	cat >"$1" <<J
{"steps": [{"offered_iops": $3, "achieved_iops": $3, "kept": true}], "capacity_iops": 2500,
 "capacity_from": "closed-loop run", "knee_iops": $3, "threads": 1, "batches": 3, "batch_s": 2.0,
 "dir": "/nowhere", "ramp_time": "500ms", "timestamp_ms": $((1764700000000 + $2 * 3600000)),
 "environment": {"host": "h1", "kernel": {"release": "6.1.0"},
   "targets": [{"device": {"name": "vdz", "model": "FakeDisk", "serial": "S1"}}]},
 "workload": [{"name": "t", "rw": "randread", "rwmixread": 50, "bs": "${8:-4096}", "iodepth": 16,
   "direct": 1, "ioengine": "libaio", "numjobs": 1}],
 "slo": {"percentile": 99, "target_ns": ${7:-1000000}, "iops": $3, "ci": [$4, $5], "next_step_iops": $6}}
J
}
mkdir -p "$T/s"
mk "$T/s/o1.json" 0 1500 1400 1500 1600 500000	# another SLO: its own series
mk "$T/s/o2.json" 1 1800 1700 1800 1900 1000000 8192	# another workload
mk "$T/s/a1.json" 2 2000 1900 2000 2100
mk "$T/s/a2.json" 3 2010 1910 2010 2110
mk "$T/s/a3.json" 4 1990 1890 1990 2090
mk "$T/s/a4.json" 5 2000 1900 2000 2100
mk "$T/s/a5.json" 6 2005 1905 2005 2105
mk "$T/s/a6.json" 7 1500 1400 1500 1600	# the drop

for f in o1 o2 a1 a2 a3 a4 a5 a6; do $H import "$T/s/$f.json" >>"$T/imp.txt" 2>&1 || echo "exit $?" >>"$T/imp.txt"; done
$H list --output-format=json >"$T/list.json" 2>>"$T/imp.txt"
if pyjson '
import json, sys
r = sorted(json.load(open(sys.argv[1]))["runs"], key=lambda x: x["id"])
assert len(r) == 8, len(r)
a1 = r[2]
assert a1["device"]["id"] == "FakeDisk S1", a1["device"]
assert a1["sig_text"] == "rw=randread bs=4096 iodepth=16 direct=1 ioengine=libaio numjobs=1 sweep=p99<=1000000ns", a1["sig_text"]
assert a1["start_ms"] == 1764700000000 + 2 * 3600000, a1["start_ms"]
assert a1["tool"] == "iotrial sweep" and a1["job_name"] == "t", (a1["tool"], a1["job_name"])
assert len({x["sig"] for x in r}) == 3, [x["sig_text"] for x in r]
' "$T/list.json" 2>"$T/perr"; then pass sweep_history_import
else fail sweep_history_import "$(tail -c 300 "$T/perr") $(tail -c 300 "$T/imp.txt")"; fi

$H list >"$T/list.txt" 2>"$T/err"
check sweep_history_list grep -q 'randread 4k qd16 libaio direct sweep p99<=1000000ns' "$T/list.txt"

$H trend slo.iops --device="FakeDisk S1" --output-format=json >"$T/trend.json" 2>"$T/err"
if pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["points"]
assert d["metric"] == "slo.iops" and d["lower_is_better"] is False, d["lower_is_better"]
assert d["sig_text"].endswith("sweep=p99<=1000000ns") and d["other_signatures"] == 2, d["sig_text"]
assert [x["value"] for x in p] == [2000, 2010, 1990, 2000, 2005, 1500], [x["value"] for x in p]
assert p[0]["run_interval"] == [1900, 2100], p[0]["run_interval"]
assert p[5]["run_interval"] == [1400, 1600], p[5]["run_interval"]
assert p[5]["outside"] == "worse", p[5]
assert all(x["outside"] is None for x in p[:5]), [x["outside"] for x in p]
' "$T/trend.json" 2>"$T/perr"; then pass sweep_history_trend
else fail sweep_history_trend "$(tail -c 300 "$T/perr") $(cat "$T/err")"; fi

$H trend slo.iops --device="FakeDisk S1" >"$T/trend.txt" 2>"$T/err"
if grep -q '^trend of slo.iops (higher is better)' "$T/trend.txt" && grep -q 'RUN INTERVAL' "$T/trend.txt" &&
	grep -q '1900\.\.2100' "$T/trend.txt" && grep -q 'worse' "$T/trend.txt"; then pass sweep_history_trend_text
else fail sweep_history_trend_text "$(cat "$T/trend.txt" "$T/err" | head -c 800)"; fi
$H trend slo.iops --device="FakeDisk S1" --output-format=html -o "$T/trend.html" 2>"$T/err"
check sweep_history_trend_html grep -q 'whisker is its own interval' "$T/trend.html"

ids=$(pyjson 'import json, sys
r = sorted(json.load(open(sys.argv[1]))["runs"], key=lambda x: x["id"])
print(r[2]["id"], r[7]["id"], r[0]["id"])' "$T/list.json")
set -- $ids
$H compare --baseline="$1" --candidate="$2" --output-format=json >"$T/cmp.json" 2>"$T/err"
if pyjson '
import json, sys
d = json.load(open(sys.argv[1]))
m = [x for x in d["metrics"] if x["name"] == "slo.iops"][0]
assert m["ci_method"] == "sweep_slo" and m["verdict_kind"] == "worse", m
assert abs(m["ci"][0] - 100 * (1400 / 2100 - 1)) < 1e-6 and abs(m["ci"][1] - 100 * (1600 / 1900 - 1)) < 1e-6, m["ci"]
' "$T/cmp.json" 2>"$T/perr"; then pass sweep_history_compare
else fail sweep_history_compare "$(tail -c 300 "$T/perr") $(head -c 300 "$T/err")"; fi
$H show "$1" --output-format=html -o "$T/show.html" 2>"$T/err"
if grep -q 'iotrial sweep report' "$T/show.html" && grep -q '<h2>Steps' "$T/show.html"; then
	pass sweep_history_show_html; else fail sweep_history_show_html "$(head -c 300 "$T/err")"; fi
expect_exit sweep_history_slo_differs 2 "sweep p99<=1000000ns vs p99<=500000ns" \
	$H compare --baseline="$1" --candidate="$3"

# --- real sweeps ------------------------------------------------------------------------
if [ -n "${SANITIZE:-}" ]; then
	for n in sweep_history_run sweep_history_report_same; do
		skip $n "two 10 s sweeps: run once, in the plain pass"; done
	exit 0
fi
if ! own_loop 64; then
	for n in sweep_history_run sweep_history_report_same; do
		skip $n "no RAM loop device: $OWN_LOOP_WHY"; done
	exit 0
fi
cg_new io
if [ -z "$CG" ] || ! cg_riops "$CG" "$OWN_LOOP" 1000 2>/dev/null; then
	for n in sweep_history_run sweep_history_report_same; do
		skip $n "needs a block I/O throttle (cgroup v1 blkio or v2 io) as root"; done
	exit 0
fi
DB2="$T/real.db"
ok=1
for i in 1 2; do
	# IOTRIAL_HISTORY too: the sweep's runs inherit it, and must not store themselves
	cg_run "$CG" env IOTRIAL_HISTORY="$DB2" "$IOTRIAL" sweep --history="$DB2" --dir="$T/sw$i" \
		--range=400-1400 --steps=3 --refine=0 --batches=2 --batch-time=1s --ramp=300ms \
		--slo=p50:20ms --name=t --rw=randread --bs=4k --ioengine=libaio --direct=1 \
		--iodepth=16 --filename="$OWN_LOOP" >"$T/sw$i.txt" 2>>"$T/sw.err" || ok=0
done
"$IOTRIAL" history --history="$DB2" list --output-format=json >"$T/l2.json" 2>>"$T/sw.err"
"$IOTRIAL" history --history="$DB2" trend slo.iops --output-format=json >"$T/t2.json" 2>>"$T/sw.err"
if [ $ok = 1 ] && pyjson '
import json, sys
r = json.load(open(sys.argv[1]))["runs"]
assert len(r) == 2 and all(x["source"] == "sweep" for x in r), [(x["source"], x["tool"]) for x in r]
assert all(x["device"]["id"].startswith("loop:") for x in r), [x["device"] for x in r]
assert r[0]["sig"] == r[1]["sig"] and "sweep=p50<=20000000ns" in r[0]["sig_text"], r[0]["sig_text"]
t = json.load(open(sys.argv[2]))
assert len(t["points"]) == 2 and all(p["run_interval"] for p in t["points"]), t["points"]
' "$T/l2.json" "$T/t2.json" 2>"$T/perr"; then pass sweep_history_run
else fail sweep_history_run "$(tail -c 300 "$T/perr") $(tail -c 400 "$T/sw.err")"; fi
# the report from the document is what the sweep printed, byte for byte
"$IOTRIAL" report "$T/sw1/sweep.json" >"$T/rep1.txt" 2>>"$T/sw.err"
if [ $ok = 1 ] && [ -s "$T/sw1.txt" ] && cmp -s "$T/sw1.txt" "$T/rep1.txt"; then pass sweep_history_report_same
else fail sweep_history_report_same "$(diff "$T/sw1.txt" "$T/rep1.txt" | head -c 600)"; fi
