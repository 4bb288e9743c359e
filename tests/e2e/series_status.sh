# Live status (docs/time-series.md, "Live status"): --status-interval prints one line per interval
# and job (or group) on stderr with that interval's IOPS, bandwidth and
# latency, while stdout stays one pure JSON document; with --status-output
# the same figures go to a file as one JSON object per line, and the lines'
# measured ios add up to the report's total_ios.
. "$(dirname "$0")/lib.sh"

NULLJOB="--ioengine=null --bs=4k --size=1g --time_based --output-format=json"
"$IOTRIAL" --name=st $NULLJOB --rw=randrw --runtime=3 --rate_iops=1000 --ramp_time=1 \
	--status-interval=1 >"$T/st.json" 2>"$T/st.err" &
p1=$!
"$IOTRIAL" --name=gs $NULLJOB --rw=read --runtime=2 --rate_iops=1000 --numjobs=2 \
	--group_reporting --status-interval=1 >"$T/gs.json" 2>"$T/gs.err" &
p2=$!
"$IOTRIAL" --name=so $NULLJOB --rw=read --runtime=2 --rate_iops=2000 --ramp_time=1 \
	--series_interval=500ms --status-interval=500ms --status-output="$T/so.lines" \
	>"$T/so.json" 2>"$T/so.err" &
p3=$!
wait $p1; r1=$?
wait $p2; r2=$?
wait $p3; r3=$?

cat >"$T/check.py" <<'PY'
import json, re, sys

T = sys.argv[1]
LINE = re.compile(r"^status: (\d+\.\d)s '([^']+)'( \(\d+ threads\))?( \(ramp\))? (.*)$")
DIR = re.compile(r"^(read|write|trim): ([\d.]+)(k|M)? IOPS, (\d+)(B|KiB|MiB|GiB)/s, "
                 r"lat mean [\d.]+(ns|us|ms|s) p99 [\d.]+(ns|us|ms|s)$")

def report(name, errs):
    print(("FAIL %s: %s" % (name, "; ".join(errs[:4]))) if errs else "PASS %s" % name)

def stdout_is_json(name):
    """The whole of stdout is one JSON document: nothing before or after."""
    try:
        return json.loads(open("%s/%s.json" % (T, name)).read()), []
    except ValueError as e:
        return None, ["stdout is not one JSON document: %s" % e]

def lines(name):
    out = []
    for l in open("%s/%s.err" % (T, name)).read().splitlines():
        m = LINE.match(l)
        if not m:
            continue
        dirs = {}
        for part in m.group(5).split("; "):
            d = DIR.match(part)
            if not d:
                return None, "bad direction part %r in %r" % (part, l)
            iops = float(d.group(2)) * {"k": 1e3, "M": 1e6, None: 1}[d.group(3)]
            dirs[d.group(1)] = iops
        out.append((float(m.group(1)), m.group(2), bool(m.group(3)), bool(m.group(4)), dirs))
    return out, None

rc = dict(a.split(":") for a in sys.argv[2:])

# one job, randrw at 1000 + 1000 IOPS, 1 s ramp then 3 s: 4 lines, first ramp
errs = [] if rc["st"] == "0" else ["exit %s" % rc["st"]]
d, e = stdout_is_json("st")
errs += e
ls, why = lines("st")
if why:
    errs.append(why)
elif d:
    if not 4 <= len(ls) <= 5:
        errs.append("%d status lines for 4 intervals" % len(ls))
    elif not ls[0][3] or any(l[3] for l in ls[1:]):
        errs.append("only the first line should say (ramp): %s" % [l[3] for l in ls])
    for t, job, grp, ramp, dirs in ls:
        if job != "st" or set(dirs) != {"read", "write"}:
            errs.append("line for %r with %s" % (job, sorted(dirs)))
        elif t >= 0.9 and any(abs(v - 1000) > 150 for v in dirs.values()) and t < 4.0:
            errs.append("at %.1fs: %s IOPS, wanted ~1000 each" % (t, dirs))
    other = [l for l in open("%s/st.err" % T).read().splitlines() if not l.startswith("status: ")]
    if other:
        errs.append("unexpected stderr: %r" % other[:2])
report("status_lines_stderr", errs)

# group_reporting: one line per interval for the group, at twice the rate
errs = [] if rc["gs"] == "0" else ["exit %s" % rc["gs"]]
d, e = stdout_is_json("gs")
errs += e
ls, why = lines("gs")
if why:
    errs.append(why)
elif d:
    if not 2 <= len(ls) <= 3:
        errs.append("%d status lines for 2 intervals of one group" % len(ls))
    for t, job, grp, ramp, dirs in ls[:2]:
        if not grp or abs(dirs.get("read", 0) - 2000) > 200:
            errs.append("line %s %s %s: wanted the 2-thread group at ~2000 IOPS" % (t, job, dirs))
report("status_group_line", errs)

# --status-output: JSON lines in a file, none on stderr
err = open("%s/so.err" % T).read()
if rc["so"] == "2" and "status-output" in err:
    print("SKIP status_output_file: the parser has no --status-output yet")
else:
    errs = [] if rc["so"] == "0" else ["exit %s: %s" % (rc["so"], err[:200])]
    d, e = stdout_is_json("so")
    errs += e
    if "status: " in err:
        errs.append("status lines on stderr although --status-output was given")
    try:
        objs = [json.loads(l) for l in open("%s/so.lines" % T).read().splitlines()]
    except (OSError, ValueError) as e:
        objs = []
        errs.append("status file: %s" % e)
    if d and objs:
        job = d["jobs"][0]
        meas = [o for o in objs if not o.get("ramp")]
        ramp = [o for o in objs if o.get("ramp")]
        got = sum(o["read"]["ios"] for o in meas)
        if got != job["read"]["total_ios"]:
            errs.append("measured status lines hold %d ios, total_ios %d" % (got, job["read"]["total_ios"]))
        ivs = job["iotrial"]["intervals"]
        if sum(o["intervals"] for o in objs) != len(ivs):
            errs.append("lines cover %d intervals, the report has %d"
                        % (sum(o["intervals"] for o in objs), len(ivs)))
        if sum(o["read"]["ios"] for o in ramp) != sum(i["read"]["ios"] for i in ivs if i.get("ramp")):
            errs.append("ramp lines and ramp intervals disagree")
        for o in objs:
            for k in ("time_ms", "job", "t_ms", "dur_us", "intervals", "read", "write", "trim"):
                if k not in o:
                    errs.append("line without %s: %s" % (k, o))
                    break
            else:
                r = o["read"]
                if o["dur_us"] >= 400000 and abs(r["iops"] - 2000) > 150:
                    errs.append("line at %d ms: %.0f IOPS" % (o["time_ms"], r["iops"]))
                if set(r["lat_ns"]) != {"mean", "min", "max", "p50", "p99", "p99.9"}:
                    errs.append("lat_ns keys %s" % sorted(r["lat_ns"]))
    elif d:
        errs.append("no status lines in the file")
    report("status_output_file", errs)
PY
python3 "$T/check.py" "$T" "st:$r1" "gs:$r2" "so:$r3" || fail series_status "checker crashed"
