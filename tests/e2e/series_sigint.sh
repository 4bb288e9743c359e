# SIGINT in the middle of a 30 s job with intervals and status lines: the
# run stops promptly with EXIT_INTERRUPTED (5), stdout is still one valid JSON
# document marked partial, its intervals (the cut last one included) add up
# to total_ios, and the steady-state verdict is present.
. "$(dirname "$0")/lib.sh"

"$IOTRIAL" --name=cut --ioengine=null --bs=4k --size=1g --time_based --runtime=30 \
	--rw=randread --rate_iops=1000 --status-interval=1 --output-format=json \
	>"$T/cut.json" 2>"$T/cut.err" &
pid=$!
sleep 2.5
kill -INT $pid
t0=$(date +%s)
wait $pid
rc=$?
t1=$(date +%s)

if [ "$rc" -ne 5 ]; then
	fail series_sigint_exit "exit $rc, wanted 5 (interrupted); stderr: $(head -c 300 "$T/cut.err")"
elif [ $((t1 - t0)) -gt 3 ]; then
	fail series_sigint_exit "took $((t1 - t0)) s to stop after SIGINT"
else
	pass series_sigint_exit
fi

python3 - "$T/cut.json" "$T/cut.err" <<'PY'
import json, sys
errs = []
try:
    d = json.load(open(sys.argv[1]))
except ValueError as e:
    print("FAIL series_sigint_json: stdout is not one JSON document: %s" % e)
    sys.exit(0)
j = d["jobs"][0]
ivs = j["iotrial"]["intervals"]
if not j["iotrial"].get("partial"):
    errs.append("job not marked partial")
if not 2 <= len(ivs) <= 4:
    errs.append("%d intervals after 2.5 s" % len(ivs))
got = sum(iv["read"]["ios"] for iv in ivs if not iv.get("ramp"))
if got != j["read"]["total_ios"] or got < 2000:
    errs.append("intervals hold %d ios, total_ios %d" % (got, j["read"]["total_ios"]))
if "attained" not in j["iotrial"].get("steady", {}):
    errs.append("no steady-state verdict")
if "status: " not in open(sys.argv[2]).read():
    errs.append("no status line before the signal")
print(("FAIL series_sigint_json: " + "; ".join(errs)) if errs else "PASS series_sigint_json")
PY
