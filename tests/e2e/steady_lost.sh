# Steady state that holds, or not (docs/time-series.md, "Held or lost"), on a null job at rate_iops=1m
# (flat by construction) whose rate is cut mid-run by throttling its CPU
# through the cgroup v1 cpu controller (cpu.cfs_quota_us = 1 ms per 100 ms):
#  - the throttled job: window found early, then lost (held false, lost_ms
#    after the window, the level fell), MSER-5 truncates after the cut, the
#    steady tail starts there at the lower rate, the text says "lost at ...
#    (IOPS fell N%)" and the plausibility check warns steady_lost;
#  - the same job unthrottled (2 threads, group_reporting): held, tail from
#    the window, no warning;
#  - the status lines say "steady since" the report's window start, then
#    (throttled) "steady lost at" the same time as the report;
#  - compare uses the steady tails by default and says so, warns that the
#    steady parts differ, uses whole runs with --window=all or with a fio
#    result (and says which), and --window=steady with a fio result is a
#    usage error naming the file.
# Needs root and a writable cgroup v1 cpu hierarchy, else SKIP with the reason.
. "$(dirname "$0")/lib.sh"

CGROOT=/sys/fs/cgroup/cpu
names="steady_lost_throttled steady_lost_held steady_compare_window"
why=""
mounted=""
if [ "$(id -u)" -ne 0 ]; then
	why="needs root to create a cpu cgroup"
elif [ ! -e "$CGROOT/cpu.cfs_quota_us" ]; then
	# not visible here (a chroot or container that did not bind it): the
	# kernel's v1 cpu hierarchy can be attached again on a scratch directory
	CGROOT="$T/cgcpu"
	if mkdir -p "$CGROOT" && mount -t cgroup -o cpu iotrial-e2e "$CGROOT" 2>/dev/null; then
		mounted=1
	else
		why="no cgroup v1 cpu controller (not at /sys/fs/cgroup/cpu, and mount -t cgroup -o cpu failed)"
	fi
fi
if [ -z "$why" ] && { [ ! -w "$CGROOT" ] || [ ! -e "$CGROOT/cpu.cfs_quota_us" ]; }; then
	why="no writable cgroup v1 cpu controller at $CGROOT"
fi
CG="$CGROOT/iotrial-e2e-$$"
if [ -z "$why" ] && ! mkdir "$CG" 2>/dev/null; then
	why="cannot create $CG"
fi
if [ -n "$why" ]; then
	for n in $names; do skip "$n" "$why"; done
	[ -n "$mounted" ] && umount "$CGROOT"
	exit 0
fi
trap 'rmdir "$CG" 2>/dev/null; [ -n "$mounted" ] && umount "$CGROOT"; rm -rf "$T"' EXIT INT TERM

JOB="--ioengine=null --bs=4k --size=1g --time_based --rw=randread
     --runtime=12 --series_interval=500ms --status-interval=500ms --output-format=normal,json"
# shellcheck disable=SC2086
"$IOTRIAL" --name=thr $JOB --rate_iops=1m >"$T/thr.out" 2>"$T/thr.err" &
p1=$!
echo "$p1" >"$CG/cgroup.procs"
# the control: two threads reported as one group
# shellcheck disable=SC2086
"$IOTRIAL" --name=flat $JOB --rate_iops=200k --numjobs=2 --group_reporting \
	>"$T/flat.out" 2>"$T/flat.err" &
p2=$!
# throttle 0.6 s after the job's own status lines say its window was found
# (at the earliest ~3 s: 5 flat intervals of 500 ms, the fifth read once the
# sixth exists), about two intervals after the window, so a slow start or a
# stall on a busy machine moves the cut instead of leaving too few flat
# intervals before it; at 4 s the throttle comes anyway (the check below
# then skips), so the cut leaves the run 7 s or more to show the loss (MSER
# needs batches after it: it truncates at most half of them)
n=0
while [ $n -lt 40 ] && ! grep -q "steady since" "$T/thr.err" 2>/dev/null; do
	sleep 0.1
	n=$((n + 1))
done
sleep 0.6
echo 1000 >"$CG/cpu.cfs_quota_us"
wait $p1; r1=$?
wait $p2; r2=$?
have_fio=0
if command -v fio >/dev/null 2>&1 &&
   fio --name=f --ioengine=null --bs=4k --size=1g --time_based --rw=randread --runtime=1 \
	--output-format=json >"$T/fio.json" 2>/dev/null; then
	have_fio=1
fi
for n in thr flat; do
	out="$T/$n.out"
	python3 - "$out" "$T/$n.json" <<'PY'
import sys
t = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(t[t.index("\n{") + 1:])
PY
done
"$IOTRIAL" compare "$T/flat.json" "$T/thr.json" >"$T/cmp_auto.txt" 2>"$T/cmp_auto.err"; c1=$?
"$IOTRIAL" compare --output-format=json "$T/flat.json" "$T/thr.json" >"$T/cmp_auto.json" 2>/dev/null; c2=$?
"$IOTRIAL" compare --window=all "$T/flat.json" "$T/thr.json" >"$T/cmp_all.txt" 2>/dev/null; c3=$?
c4=0 c5=2
if [ $have_fio -eq 1 ]; then
	"$IOTRIAL" compare "$T/flat.json" "$T/fio.json" >"$T/cmp_mix.txt" 2>/dev/null; c4=$?
	"$IOTRIAL" compare --window=steady "$T/flat.json" "$T/fio.json" >/dev/null 2>"$T/cmp_steady.err"; c5=$?
fi

python3 - "$T" "$r1" "$r2" "$have_fio" "$c1" "$c2" "$c3" "$c4" "$c5" <<'PY'
import json, re, sys

T, r1, r2, have_fio = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "1"
c = sys.argv[5:]

def report(name, errs):
    print(("FAIL %s: %s" % (name, "; ".join(errs[:4]))) if errs else "PASS %s" % name)

def load(n):
    out = open("%s/%s.out" % (T, n)).read()
    i = out.index("\n{")
    return out[:i + 1], json.loads(out[i + 1:])

def flat(v):
    """max - min within 8% of the mean: then every 5-round window passes the SNIA
    rule (range <= 20%; the slope's excursion is at most 1.2 x the range)."""
    m = sum(v) / len(v)
    return m > 0 and max(v) - min(v) <= 0.08 * m

def skip(name, why):
    print("SKIP %s: %s" % (name, why))

# the machine is shared: a rate-limited job holds its rate only when it gets
# the CPU in time.  A job that was not flat where it should be is a SKIP (with
# the intervals), not a verdict on the code.
text, d = load("thr")
errs = [] if r1 == "0" else ["exit %s" % r1]
st = d["jobs"][0]["iotrial"]["steady"]
iv = d["jobs"][0]["iotrial"]["intervals"]
ivs = [round(x["read"]["iops"]) for x in iv]
# the intervals before the throttle bit: the cut is the first interval from
# which every one stays under 80% of the median of the 5 before it (a stall
# and the rate's catch-up burst after it, on a busy machine, come before
# it).  The rule needs 5 flat ones for a window, and one more to hold it: the
# 6 before the cut.  When they are not flat (the throttle came at 4 s with
# no window found), or the cut came after 6 s, a SKIP, not a verdict.
v = [x["read"]["iops"] for x in iv]
cut = len(v)
for i in range(5, len(v)):
    ref = sorted(v[i - 5:i])[2]
    if all(y < 0.8 * ref for y in v[i:]):
        cut = i
        break
pre = v[:cut][-6:]
# MSER-5 truncates at most half of its batches of 5 intervals (mser.h)
ms = st.get("mser") or {}
reach = 5 * ((ms.get("batches", 0) + ms.get("truncated_batches", 0) or len(v) // 5) // 2)
if cut > reach:
    skip("steady_lost_throttled", "machine too loaded: the throttle bit at interval %d, past "
         "MSER's reach (%d) for the loss to show (interval IOPS %s)" % (cut, reach, ivs))
    errs = None
elif cut == len(v) or len(pre) < 6 or (not flat(pre) and not (
        st.get("attained") is True and st["end_ms"] <= iv[cut - 1]["t_ms"])):
    # not flat by the 8% rule, and the job's own rule found no window before
    # the cut either (when it did, the checks below hold for that window)
    skip("steady_lost_throttled", "machine too loaded: the job was not flat for 6 intervals "
         "before the throttle (interval IOPS %s)" % ivs)
    errs = None
elif st.get("attained") is not True or st.get("held") is not False:
    errs.append("attained %s held %s (intervals %s)" % (st.get("attained"), st.get("held"), ivs))
else:
    if not (st["end_ms"] <= st["lost_ms"] <= st["end_ms"] + 3000):
        errs.append("window ends %d, lost at %d ms" % (st["end_ms"], st["lost_ms"]))
    if not st["lost_mean"] < 0.8 * st["mean"]:
        errs.append("lost_mean %.0f vs window mean %.0f" % (st["lost_mean"], st["mean"]))
    lo, hi = st["band"]
    if not (abs(lo - 0.8 * st["mean"]) < 1 and abs(hi - 1.2 * st["mean"]) < 1):
        errs.append("band %s around %.0f" % (st["band"], st["mean"]))
    m = re.search(r"reached at [\d.]+-[\d.]+ s, lost at ([\d.]+) s \(IOPS fell (\d+)%\)", text)
    if not m or abs(float(m.group(1)) * 1000 - st["lost_ms"]) > 1:
        errs.append("text lacks 'lost at %.3f s (IOPS fell N%%)'" % (st["lost_ms"] / 1000))
    ms, tail = st.get("mser"), st.get("tail")
    if not ms or not tail:
        errs.append("no mser %s or tail %s" % (ms, tail))
    else:
        if tail["from"] != "mser" or tail["start_ms"] != ms["truncate_ms"]:
            errs.append("tail from %s at %d, mser at %d" % (tail["from"], tail["start_ms"], ms["truncate_ms"]))
        # MSER's resolution is a batch (5 intervals of 500 ms)
        if not ms["truncate_ms"] >= st["lost_ms"] - 2500:
            errs.append("MSER truncates at %d, a batch before the cut at %d" % (ms["truncate_ms"], st["lost_ms"]))
        if not tail["iops"] < 0.8 * st["mean"] or abs(tail["read"]["iops"] - tail["iops"]) > 1e-6 * tail["iops"]:
            errs.append("tail %.0f IOPS vs window %.0f" % (tail["iops"], st["mean"]))
        if "steady tail" not in text or "from the MSER-5 truncation" not in text:
            errs.append("text lacks the steady tail line")
    if "[steady_lost]" not in text:
        errs.append("no steady_lost warning in the text")
    status = open("%s/thr.err" % T).read()
    m = re.search(r"; steady lost at ([\d.]+) s", status)
    since = "; steady since %g s" % (st["start_ms"] / 1000)
    if since not in status or not m:
        errs.append("status lines lack '%s' then 'steady lost at'" % since)
    elif abs(float(m.group(1)) * 1000 - st["lost_ms"]) > 1:
        errs.append("live: lost at %s s, report: %d ms" % (m.group(1), st["lost_ms"]))
if errs is not None:
    report("steady_lost_throttled", errs)

text, d = load("flat")
errs = [] if r2 == "0" else ["exit %s" % r2]
st = d["jobs"][0]["iotrial"]["steady"]
tail = st.get("tail") or {}
iv = [x["read"]["iops"] for x in d["jobs"][0]["iotrial"]["intervals"]]
if d["jobs"][0]["iotrial"]["nr_threads"] != 2 or "(2 threads)" not in open("%s/flat.err" % T).read():
    errs.append("the control is not one group of 2 threads")
elif (st.get("attained") is not True or st.get("held") is not True) and not flat(iv):
    skip("steady_lost_held", "machine too loaded: the unthrottled group was not flat "
         "(interval IOPS %s)" % [round(x) for x in iv])
    errs = None
elif st.get("attained") is not True or st.get("held") is not True or "lost_ms" in st:
    errs.append("flat, yet attained %s held %s" % (st.get("attained"), st.get("held")))
elif tail.get("from") != "window" or tail.get("start_ms") != st["start_ms"]:
    errs.append("tail %s, window starts %d" % (tail, st["start_ms"]))
elif abs(tail["iops"] - 400000) > 0.05 * 400000 or len(tail.get("iops_ci95", [])) != 2:
    errs.append("tail %.0f IOPS, ci %s" % (tail["iops"], tail.get("iops_ci95")))
elif "held to the end" not in text or "[steady_lost]" in text:
    errs.append("text: held line missing or a steady_lost warning")
elif "; steady since %g s" % (st["start_ms"] / 1000) not in open("%s/flat.err" % T).read():
    errs.append("the group's status lines lack 'steady since %g s'" % (st["start_ms"] / 1000))
if errs is not None:
    report("steady_lost_held", errs)

# compare: whatever the verdicts, both runs have a tail (a held window, or
# MSER over 20 intervals), and the warning follows the documented rule
tails = []
for n in ("flat", "thr"):
    tl = load(n)[1]["jobs"][0]["iotrial"]["steady"].get("tail")
    tails.append(tl and (tl["start_ms"] / 1000, (tl["end_ms"] - tl["start_ms"]) / 1000))
errs = ["compare exits %s" % c[:4]] if c[:4] != ["0", "0", "0", "0"] else []
auto = open("%s/cmp_auto.txt" % T).read()
if "window: steady tails" not in auto:
    errs.append("default compare does not say it used the steady tails")
if None in tails:
    errs.append("a run without a tail: %s" % tails)
else:
    (sa, la), (sb, lb) = tails
    differ = la > 1.5 * lb or lb > 1.5 * la or abs(sa - sb) > max(sa + la, sb + lb) / 4
    if differ != ("warning: the steady parts differ" in auto):
        errs.append("tails %s: differ=%s but the output %s" % (tails, differ, auto[-300:]))
j = json.load(open("%s/cmp_auto.json" % T))
if j.get("window", {}).get("used") != "steady" or ("warning" in j["window"]) != ("warning:" in auto):
    errs.append("JSON window %s" % j.get("window"))
if "window: whole runs (--window=all)" not in open("%s/cmp_all.txt" % T).read():
    errs.append("--window=all does not say whole runs")
if have_fio:
    if "window: whole runs: a mix of iotrial and fio results" not in open("%s/cmp_mix.txt" % T).read():
        errs.append("a fio result does not switch to whole runs with the reason")
    e = open("%s/cmp_steady.err" % T).read()
    if c[4] != "2" or "fio.json has no steady tail" not in e:
        errs.append("--window=steady with fio: exit %s, %s" % (c[4], e.strip()))
report("steady_compare_window", errs)
PY
