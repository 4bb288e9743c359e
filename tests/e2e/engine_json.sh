# The seed's command, shortened, on a temp file with each engine: the JSON is
# fio's schema and its numbers hold together (iops x runtime ~ total_ios, the
# read share ~ rwmixread, percentiles monotone, io_bytes = total_ios x bs).
. "$(dirname "$0")/lib.sh"

cat >"$T/check.py" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
eng = sys.argv[2]
errs = []
assert d["fio version"].startswith("iotrial-"), d["fio version"]
jobs = d["jobs"]
if len(jobs) != 1:
    errs.append("group_reporting should merge 2 threads into 1 job, got %d" % len(jobs))
j = jobs[0]
tot = 0
for k in ("read", "write"):
    x = j[k]
    tot += x["total_ios"]
    if x["total_ios"] <= 0:
        errs.append("%s: no %s I/O" % (eng, k))
        continue
    est = x["iops"] * x["runtime"] / 1000.0
    if abs(est - x["total_ios"]) > 0.02 * x["total_ios"] + 2:
        errs.append("%s: iops x runtime = %.0f but total_ios = %d" % (k, est, x["total_ios"]))
    if x["io_bytes"] != x["total_ios"] * 4096:
        errs.append("%s: io_bytes %d != total_ios x 4096" % (k, x["io_bytes"]))
    p = x["clat_ns"]["percentile"]
    vals = [p[q] for q in sorted(p, key=float)]
    if vals != sorted(vals):
        errs.append("%s: percentiles not monotone: %s" % (k, vals))
    c = x["clat_ns"]
    if not (c["min"] <= c["mean"] <= c["max"]):
        errs.append("%s: clat min/mean/max out of order" % k)
    if c["N"] != x["total_ios"]:
        errs.append("%s: clat N %d != total_ios %d" % (k, c["N"], x["total_ios"]))
share = j["read"]["total_ios"] / max(tot, 1)
if abs(share - 0.5) > 0.03:
    errs.append("read share %.3f, wanted 0.50 +- 0.03" % share)
if j["job_runtime"] < 1500:
    errs.append("job_runtime %d ms < 1500" % j["job_runtime"])
if errs:
    print("; ".join(errs))
    sys.exit(1)
PY

for eng in psync sync pvsync2 libaio io_uring null; do
	out="$T/$eng.json"
	if engine_refused $eng; then
		skip "seed_$eng" "$REFUSED_WHY"
		continue
	fi
	if "$IOTRIAL" --name=randrw --rw=randrw --bs=4k --iodepth=32 --size=16m --numjobs=2 \
		--runtime=2 --time_based --group_reporting --ioengine=$eng --directory="$T" \
		--output-format=json >"$out" 2>"$T/err"; then
		if msg=$(python3 "$T/check.py" "$out" $eng 2>&1); then pass "seed_$eng"; else fail "seed_$eng" "$msg"; fi
	else
		fail "seed_$eng" "exit $?: $(head -c 300 "$T/err")"
	fi
	rm -f "$T"/randrw.*
done

# direct=1 on the temp directory (O_DIRECT works on ext4 and tmpfs here)
if engine_refused io_uring; then
	skip direct_io_uring "$REFUSED_WHY"
elif "$IOTRIAL" --name=d --rw=randread --bs=4k --iodepth=8 --size=8m --runtime=1 --time_based \
	--ioengine=io_uring --direct=1 --directory="$T" --output-format=json >"$T/d.json" 2>"$T/err"; then
	pyjson "import json; j=json.load(open('$T/d.json'))['jobs'][0]; assert j['read']['total_ios']>0" \
		&& pass direct_io_uring || fail direct_io_uring "no reads"
else
	fail direct_io_uring "$(cat "$T/err")"
fi
