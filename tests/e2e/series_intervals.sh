# Per-interval series through the CLI (docs/time-series.md, "Intervals"), on the null engine with a
# rate limit so the expected figures are known: a 5 s job at rate_iops=2000
# has 5 one-second intervals at ~2000 IOPS that add up to total_ios; a
# group_reporting numjobs=2 job's measured intervals add up to the group's
# total; ramp_time=1's interval is flagged and left out of the total; and
# series_interval=250ms gives 8 quarter-second intervals in a 2 s job.
# The four runs are rate-limited (little CPU) and run side by side.
. "$(dirname "$0")/lib.sh"

NULLJOB="--ioengine=null --bs=4k --size=1g --time_based --output-format=json"
"$IOTRIAL" --name=flat $NULLJOB --rw=randread --runtime=5 --rate_iops=2000 \
	>"$T/flat.json" 2>"$T/flat.err" &
p1=$!
"$IOTRIAL" --name=grp $NULLJOB --rw=randrw --runtime=3 --rate_iops=500 --numjobs=2 \
	--group_reporting >"$T/grp.json" 2>"$T/grp.err" &
p2=$!
"$IOTRIAL" --name=ramp $NULLJOB --rw=read --runtime=2 --ramp_time=1 --rate_iops=1000 \
	>"$T/ramp.json" 2>"$T/ramp.err" &
p3=$!
"$IOTRIAL" --name=quarter $NULLJOB --rw=read --runtime=2 --rate_iops=2000 \
	--series_interval=250ms >"$T/quarter.json" 2>"$T/quarter.err" &
p4=$!
wait $p1; r1=$?
wait $p2; r2=$?
wait $p3; r3=$?
wait $p4; r4=$?

cat >"$T/check.py" <<'PY'
import json, sys

KEYS = ("ios", "bytes", "iops", "bw_bytes", "lat_ns")
LAT = ("mean", "min", "max", "p50", "p99", "p99.9")

def load(path):
    d = json.load(open(path))
    return d["jobs"]

def shape(ivs):
    """Every element has fio-style keys in every direction; time increases."""
    errs = []
    last = -1
    for n, iv in enumerate(ivs):
        if iv["t_ms"] <= last:
            errs.append("interval %d: t_ms %d not after %d" % (n, iv["t_ms"], last))
        last = iv["t_ms"]
        if iv["dur_us"] <= 0:
            errs.append("interval %d: dur_us %d" % (n, iv["dur_us"]))
        for d in ("read", "write", "trim"):
            o = iv[d]
            miss = [k for k in KEYS if k not in o] + [k for k in LAT if k not in o["lat_ns"]]
            if miss:
                errs.append("interval %d %s: missing %s" % (n, d, miss))
            elif o["ios"] and not (o["lat_ns"]["min"] <= o["lat_ns"]["p50"] <= o["lat_ns"]["p99"]
                                   <= o["lat_ns"]["p99.9"] <= o["lat_ns"]["max"] * 1.1 + 1000):
                errs.append("interval %d %s: latency figures out of order %s" % (n, d, o["lat_ns"]))
    return errs

def sums(job):
    """The measured intervals' ios per direction equal the job's total_ios."""
    errs = []
    ivs = job["iotrial"]["intervals"]
    for d in ("read", "write", "trim"):
        s = sum(iv[d]["ios"] for iv in ivs if not iv.get("ramp"))
        if s != job[d]["total_ios"]:
            errs.append("%s: measured intervals hold %d ios, total_ios is %d" % (d, s, job[d]["total_ios"]))
        b = sum(iv[d]["bytes"] for iv in ivs if not iv.get("ramp"))
        if b != job[d]["io_bytes"]:
            errs.append("%s: measured intervals hold %d bytes, io_bytes is %d" % (d, b, job[d]["io_bytes"]))
    return errs

def report(name, errs):
    print(("FAIL %s: %s" % (name, "; ".join(errs[:4]))) if errs else "PASS %s" % name)

def check(what, jobs):
    if what == "flat":
        j = jobs[0]
        ivs = j["iotrial"]["intervals"]
        errs = shape(ivs) + sums(j)
        if not 5 <= len(ivs) <= 6:
            errs.append("%d intervals, wanted 5 (6 at most)" % len(ivs))
        for n, iv in enumerate(ivs):
            if iv["dur_us"] >= 900000 and abs(iv["read"]["iops"] - 2000) > 40:
                errs.append("interval %d: %.1f IOPS, wanted 2000 +- 2%%" % (n, iv["read"]["iops"]))
            if iv["dur_us"] < 900000:
                errs.append("interval %d lasts %d us: a 5 s job has whole seconds" % (n, iv["dur_us"]))
        if any(iv.get("ramp") for iv in ivs):
            errs.append("ramp interval without ramp_time")
        if abs(j["read"]["total_ios"] - 10000) > 100:
            errs.append("total_ios %d, wanted ~10000" % j["read"]["total_ios"])
        report("series_rate_flat", errs)
    elif what == "grp":
        errs = []
        if len(jobs) != 1:
            errs.append("group_reporting gave %d jobs" % len(jobs))
        j = jobs[0]
        errs += shape(j["iotrial"]["intervals"]) + sums(j)
        # two threads at 500 read + 500 write IOPS each: ~2000 per second together
        for n, iv in enumerate(j["iotrial"]["intervals"]):
            tot = iv["read"]["iops"] + iv["write"]["iops"]
            if iv["dur_us"] >= 900000 and abs(tot - 2000) > 200:
                errs.append("interval %d: %.0f IOPS for the group, wanted ~2000" % (n, tot))
        if j["iotrial"]["nr_threads"] != 2:
            errs.append("nr_threads %s" % j["iotrial"]["nr_threads"])
        report("series_group_sums", errs)
    elif what == "ramp":
        j = jobs[0]
        ivs = j["iotrial"]["intervals"]
        errs = shape(ivs) + sums(j)
        ramp = [iv for iv in ivs if iv.get("ramp")]
        meas = [iv for iv in ivs if not iv.get("ramp")]
        if len(ramp) != 1 or ivs[0] is not ramp[0]:
            errs.append("wanted exactly the first interval flagged ramp, got %d" % len(ramp))
        # an interval ends when the thread sees its boundary: up to ~70 ms late
        # on a loaded machine (tests/load.sh; 1022 ms seen for this one), so
        # its end within 100 ms, its I/O count (the rate) within 2%
        elif abs(ramp[0]["t_ms"] - 1000) > 100 or abs(ramp[0]["read"]["ios"] - 1000) > 20:
            errs.append("ramp interval t_ms %d with %d ios, wanted ~1000 and ~1000"
                        % (ramp[0]["t_ms"], ramp[0]["read"]["ios"]))
        if any("ramp" in iv for iv in meas):
            errs.append('"ramp" present on a measured interval')
        if len(meas) != 2:
            errs.append("%d measured intervals, wanted 2" % len(meas))
        # fio's rule: ramp_time is outside the totals (2 s x 1000, not 3 s)
        if abs(j["read"]["total_ios"] - 2000) > 40:
            errs.append("total_ios %d, wanted ~2000 (ramp excluded)" % j["read"]["total_ios"])
        report("series_ramp_excluded", errs)
    elif what == "quarter":
        j = jobs[0]
        ivs = j["iotrial"]["intervals"]
        errs = shape(ivs) + sums(j)
        if len(ivs) != 8:
            errs.append("%d intervals of 250 ms in 2 s, wanted 8" % len(ivs))
        # ends and lengths within 100 ms: boundaries are seen up to ~70 ms late
        # on a loaded machine (see series_ramp_excluded); still far from the
        # 1 s default.  The rate is a count over the interval's own length;
        # a thread held off the CPU for tens of ms falls behind the rate
        # limit in one interval and catches up in the next (1774, 2288, 1878,
        # 2133 IOPS were seen under ASan on a loaded machine), so each
        # interval is held within 30% and their sum within 3% of the rate.
        for n, iv in enumerate(ivs):
            if abs(iv["dur_us"] - 250000) > 100000:
                errs.append("interval %d lasts %d us" % (n, iv["dur_us"]))
            elif abs(iv["read"]["iops"] - 2000) > 600:
                errs.append("interval %d: %.0f IOPS" % (n, iv["read"]["iops"]))
        tot_us = sum(iv["dur_us"] for iv in ivs)
        tot_ios = sum(iv["read"]["ios"] for iv in ivs)
        if tot_us and abs(tot_ios * 1e6 / tot_us - 2000) > 60:
            errs.append("%d I/Os over %d us of intervals: %.0f IOPS" % (tot_ios, tot_us, tot_ios * 1e6 / tot_us))
            if abs(iv["t_ms"] - 250 * (n + 1)) > 100:
                errs.append("interval %d ends at %d ms" % (n, iv["t_ms"]))
        report("series_subsecond", errs)

NAMES = {"flat": "series_rate_flat", "grp": "series_group_sums",
         "ramp": "series_ramp_excluded", "quarter": "series_subsecond"}
T = sys.argv[1]
for arg in sys.argv[2:]:
    what, rc = arg.split(":")
    if rc != "0":
        report(NAMES[what], ["exit %s: %s" % (rc, open("%s/%s.err" % (T, what)).read()[:300])])
        continue
    check(what, load("%s/%s.json" % (T, what)))
PY

python3 "$T/check.py" "$T" "flat:$r1" "grp:$r2" "ramp:$r3" "quarter:$r4" ||
	fail series_intervals "checker crashed"
