# The fio-shaped part of the text report against fio 3.33's own, for the same
# jobs run here (about 2 s each tool): line for line with the numbers left out
# (header lines, "Laying out IO file" lines, job lines, every key and unit,
# group and disk lines, no line of iotrial's before fio's part ends), and
# fio's number notation, checked on
# the values of fio's own run: each IOPS=, BW=, io= and latency min/max fio
# printed is fed to iotrial's formatter with the value fio's JSON gives, and
# must come out the same (test_report_fionum's pairs_from_fio).
. "$(dirname "$0")/lib.sh"
UNIT=$(dirname "$IOTRIAL")/tests/report/test_report_fionum
if ! command -v fio >/dev/null 2>&1; then
	skip text_fio_shape "fio is not installed"
	skip text_fio_numbers "fio is not installed"
	skip text_fio_layout "fio is not installed"
	exit 0
fi
# two groups; rate limits keep IOPS and bandwidth at the same sizes in both tools
# (each tool creates a file of its own: both print the "Laying out" line)
set -- --ioengine=psync --size=8m --runtime=1 --time_based \
	--name=rand --rw=randrw --bs=4k --rate_iops=4193 \
	--name=seq --stonewall --rw=write --bs=64k --rate_iops=300 --numjobs=2 --thread
fio --output-format=normal,json --filename="$T/f" "$@" >"$T/fio.all" 2>"$T/fio.err"
frc=$?
"$IOTRIAL" --filename="$T/g" "$@" >"$T/io.txt" 2>"$T/io.err"
irc=$?
if [ $frc -ne 0 ] || [ $irc -ne 0 ]; then
	fail text_fio_shape "fio exit $frc, iotrial exit $irc: $(tail -n 2 "$T/fio.err" "$T/io.err")"
	exit 0
fi
python3 - "$T" <<'PY' >"$T/shape" 2>&1
import json, re, sys
t = sys.argv[1]
lines = open(t + "/fio.all").read().split("\n")
start = lines.index("{")
end = start + next(i for i, l in enumerate(lines[start:]) if l == "}")
fio_json = json.loads("\n".join(lines[start:end + 1]))
fio_text = lines[:start] + lines[end + 1:]
io_text = open(t + "/io.txt").read().split("\n")
cut = io_text.index("iotrial:")	# iotrial's additions start there
io_fio = io_text[:cut]

def skeleton(ls):
    out = []
    for l in ls:
        l = re.sub(r"^(fio|iotrial)-\S+$", "VERSION", l)
        l = re.sub(r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}", "DATE", l)
        if re.match(r"  lat \((nsec|usec|msec)\)   : ", l):
            l = "  lat (UNIT)   : BUCKETS"	# which buckets are filled is the run's
        if l.startswith("     |"):
            l = "     | ROW"		# the values decide the width and so the count per row
        l = re.sub(r"percentiles \((nsec|usec|msec)\)", "percentiles (UNIT)", l)
        l = re.sub(r"\((nsec|usec|msec)\)", "(UNIT)", l)
        l = re.sub(r"\d+(\.\d+)?(Ki|Mi|Gi|k|M|G)?", "N", l)
        l = re.sub(r"\(N?(Ki|Mi|k|M)?B/s\)", "(NB/s)", l)
        l = re.sub(r"N(Ki|Mi|Gi|k|M|G)?B", "NB", l)
        l = re.sub(r"=\[? *N", lambda m: m.group(0).replace(" ", ""), l)	# %5.02f pads small values
        l = re.sub(r" +", " ", l)
        out.append(l)
    while out and out[-1] == "":
        out.pop()
    # collapse runs of the rows whose count is the run's (percentile rows, buckets)
    vary = (" | ROW", " lat (UNIT) : BUCKETS")
    return [l for i, l in enumerate(out) if i == 0 or l != out[i - 1] or l not in vary]

a, b = skeleton(fio_text), skeleton(io_fio)
for i, (x, y) in enumerate(zip(a, b)):
    if x != y:
        print("line %d: fio %r, iotrial %r" % (i + 1, x, y))
        sys.exit(1)
if len(a) != len(b):
    print("fio has %d lines, iotrial %d: %r" % (len(a), len(b), (a[len(b):] or b[len(a):])[:3]))
    sys.exit(1)

# the pairs: the value fio's JSON gives, the text fio printed for it
pairs = []
blocks = {}
cur = None
for l in fio_text:
    m = re.match(r"(\S+): \(groupid=\d+, jobs=\d+\)", l)
    if m:
        cur = []
        blocks.setdefault(m.group(1), []).append(cur)
    elif cur is not None and l.startswith(" "):
        cur.append(l)
seen = {}
for job in fio_json["jobs"]:
    k = seen.get(job["jobname"], 0)
    seen[job["jobname"]] = k + 1
    block = blocks[job["jobname"]][k]
    for d in ("read", "write"):
        r = job[d]
        if not r["io_bytes"]:
            continue
        line = next(l for l in block if l.startswith("  %s: IOPS=" % d))
        m = re.match(r"  \w+: IOPS=([^,]+), BW=(\S+) \((\S+)\)\(([^/]+)/", line)
        pairs.append((1000 * r["total_ios"] // r["runtime"], 4, 0, "-", m.group(1)))
        pairs.append((1000 * r["io_bytes"] // r["runtime"], 4, 1, "B/s", m.group(2)))
        pairs.append((1000 * r["io_bytes"] // r["runtime"], 4, 0, "B/s", m.group(3)))
        pairs.append((r["io_bytes"], 4, 1, "B", m.group(4)))
        i = block.index(line)
        for key, name in (("clat_ns", "clat"), ("lat_ns", " lat")):
            ll = next(l for l in block[i + 1:] if l.startswith("    %s (" % name))
            m = re.match(r"    .... \((\w+)\): min=([^,]+), max=([^,]+),", ll)
            div = {"nsec": 1, "usec": 1000, "msec": 1000000}[m.group(1)]
            pairs.append((r[key]["min"] // div, 6, 0, "-", m.group(2)))
            pairs.append((r[key]["max"] // div, 6, 0, "-", m.group(3)))
with open(t + "/pairs", "w") as f:
    for p in pairs:
        f.write("%d %d %d %s %s\n" % p)
print("%d pairs" % len(pairs))
PY
if [ $? -eq 0 ]; then pass text_fio_shape; else fail text_fio_shape "$(cat "$T/shape")"; fi
if [ -s "$T/pairs" ] && "$UNIT" "$T/pairs" >"$T/unit" 2>&1 && grep -q '^PASS pairs_from_fio' "$T/unit"
then pass text_fio_numbers; else fail text_fio_numbers "$(grep -v '^PASS' "$T/unit" 2>/dev/null | head -n 8)"; fi

# "Laying out IO file" lines, word for word, for the files each tool creates
# or extends in a directory of its own: a file under 1 MiB, clones, several
# files, a writer, files already there (no line), an extended file, merged
# threads (group_reporting)
layout_lines() {	# TOOL DIR ARGS...
	tool=$1 dir=$2
	shift 2
	(cd "$dir" && "$tool" --rw=read --bs=4k "$@" 2>&1 | grep 'Laying out')
}
bad=""
for args in "--name=a --size=512k" "--name=b --size=2m --numjobs=2" \
	"--name=d --size=3m --nrfiles=3 --filesize=1m" "--name=c --size=2m --rw=write" \
	"--name=g --size=1536k --thread --numjobs=2 --group_reporting"; do
	rm -rf "$T/lf" "$T/li" && mkdir "$T/lf" "$T/li"
	# shellcheck disable=SC2086
	f1=$(layout_lines fio "$T/lf" $args) i1=$(layout_lines "$IOTRIAL" "$T/li" $args)
	# shellcheck disable=SC2086
	f2=$(layout_lines fio "$T/lf" $args) i2=$(layout_lines "$IOTRIAL" "$T/li" $args)
	# shellcheck disable=SC2086
	f3=$(layout_lines fio "$T/lf" $args --size=4m) i3=$(layout_lines "$IOTRIAL" "$T/li" $args --size=4m)
	if [ -z "$f1" ] || [ "$f1" != "$i1" ] || [ "$f2" != "$i2" ] || [ "$f3" != "$i3" ]; then
		bad="$bad [$args: fio '$f1' / '$f2' / '$f3', iotrial '$i1' / '$i2' / '$i3']"
	fi
done
if [ -z "$bad" ]; then pass text_fio_layout; else fail text_fio_layout "$bad"; fi
