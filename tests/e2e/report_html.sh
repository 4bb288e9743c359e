# The HTML reports (iotrial report, compare --output-format=html, ab's
# report.html): made from real runs of iotrial (and fio when installed),
# self-contained, refused on bad input with nothing left behind, and
# rendered in headless Chromium: no console errors, the expected charts and
# labels in the DOM, and a screenshot that is not blank.
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
run() { "$IOTRIAL" --name=j --rw=randrw --bs=4k --size=8M --numjobs=2 --runtime=2 --time_based \
	--directory="$T" --output-format=json+ --output="$1" 2>/dev/null; }

# ---- making the reports -------------------------------------------------
run "$T/run.json"
check report_run_exit "$IOTRIAL" report "$T/run.json" -o "$T/run.html"
if grep -q 'IOPS over time' "$T/run.html" && grep -q 'Latency by percentile' "$T/run.html" &&
   [ "$(grep -c '<svg' "$T/run.html")" -ge 10 ]; then pass report_run_charts
else fail report_run_charts "$(grep -c '<svg' "$T/run.html") charts"; fi
# self-contained: no scripts, no links, nothing fetched (the SVG namespace is a name, not a fetch)
if grep -qiE '<script|<link|src=|@import|url\((https?:)' "$T/run.html" ||
   [ "$(grep -o 'https\?://[^"]*' "$T/run.html" | grep -vc '^http://www.w3.org/2000/svg$')" -ne 0 ]
then fail report_self_contained "external reference in run.html"; else pass report_self_contained; fi
"$IOTRIAL" report "$T/run.json" >"$T/stdout.html" 2>"$T/err"
if [ $? -eq 0 ] && [ ! -s "$T/err" ] && cmp -s "$T/stdout.html" "$T/run.html"
then pass report_stdout; else fail report_stdout "stdout differs from -o: $(cat "$T/err")"; fi

if command -v fio >/dev/null 2>&1; then
	fio --name=f --rw=randread --bs=4k --size=8M --runtime=1 --time_based --directory="$T" \
		--output-format=json+ --output="$T/fio.json" >/dev/null 2>&1
	"$IOTRIAL" report "$T/fio.json" -o "$T/fio.html" 2>"$T/err"
	if [ $? -eq 0 ] && grep -q 'No time series' "$T/fio.html" &&
	   grep -q 'Latency histogram' "$T/fio.html"
	then pass report_fio; else fail report_fio "$(cat "$T/err")"; fi
else
	skip report_fio "fio is not installed"
fi

# A 5-run-a-side trial is what the README shows; 2 short runs a side test the same code.
"$IOTRIAL" ab --runs=2 --dir="$T/trial" --a bs=4k --b bs=8k --name=j --rw=randread --size=8M \
	--runtime=1 --time_based --directory="$T" >"$T/ab.out" 2>"$T/ab.err"
if [ $? -eq 0 ] && [ -s "$T/trial/report.html" ] && grep -q 'A/B trial report' "$T/trial/report.html" &&
   grep -q 'stopped by' "$T/trial/report.html"
then pass ab_report; else fail ab_report "$(tail -n 2 "$T/ab.err")"; fi
"$IOTRIAL" compare --output-format=html -o "$T/cmp.html" "$T"/trial/run-*-A.json -- \
	"$T"/trial/run-*-B.json 2>"$T/err"
if [ $? -eq 0 ] && grep -q 'id="forest"' "$T/cmp.html" && grep -q 'per run' "$T/cmp.html" &&
   grep -q 'job.bs' "$T/cmp.html"
then pass compare_html; else fail compare_html "$(cat "$T/err")"; fi

# Interrupted (SIGTERM to ab alone, passed on to the run): report.html from the completed runs.
"$IOTRIAL" ab --runs=3 --order=alternate --dir="$T/int" --a bs=4k --b bs=8k --name=j --rw=randread --size=8M \
	--runtime=1 --time_based --directory="$T" >/dev/null 2>"$T/int.err" &
pid=$!
i=0	# the third run has started once its log exists: runs 1 and 2 are kept by then
while [ ! -e "$T/int/run-003-A.log" ] && [ $i -lt 600 ] && kill -0 $pid 2>/dev/null; do
	sleep 0.1; i=$((i + 1))
done
kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
if [ $rc -eq 5 ] && grep -q 'Interrupted by signal 15: 1 run(s) of A and 1 of B' "$T/int/report.html" &&
   grep -q '"stopped_by": "interrupted"' "$T/int/manifest.json" &&
   tail -n 1 "$T/int.err" | grep -q '^iotrial: error: ab: interrupted by signal 15'
then pass ab_interrupted_report
else fail ab_interrupted_report "rc $rc: $(tail -n 3 "$T/int.err")"; fi

# ---- bad input: exit 2, one line, no file left behind ---------------------
mkdir -p "$T/bad"
echo "not json at all" >"$T/bad/text.json"
: >"$T/bad/empty.json"
"$IOTRIAL" compare --output-format=json "$T"/trial/run-001-A.json "$T"/trial/run-002-B.json \
	>"$T/bad/compare.json" 2>/dev/null
for b in text empty compare; do
	expect_exit "report_bad_$b" 2 "^iotrial: error: .*$b\.json" \
		"$IOTRIAL" report "$T/run.json" "$T/bad/$b.json" -o "$T/bad/out.html"
	if [ -e "$T/bad/out.html" ] || ls "$T/bad" | grep -q '^\.\?out\.html.'; then
		fail "report_bad_${b}_no_file" "a partial report was left: $(ls -a "$T/bad")"
	else
		pass "report_bad_${b}_no_file"
	fi
done
expect_exit report_no_files 2 'give one or more result files' "$IOTRIAL" report -o "$T/x.html"
expect_exit compare_html_bad 2 'error: .*text\.json' "$IOTRIAL" compare --output-format=html \
	-o "$T/bad/c.html" "$T/run.json" "$T/bad/text.json"
[ -e "$T/bad/c.html" ] && fail compare_html_bad_no_file "left c.html" || pass compare_html_bad_no_file

# an ab sweep's page (docs/sweep.md): two files, short steps, no device limit
truncate -s 8m "$T/swa.dat" "$T/swb.dat"
"$IOTRIAL" sweep --a "filename=$T/swa.dat" --b "filename=$T/swb.dat,iodepth=2" --dir="$T/sweep" \
	--range=200-1000 --steps=3 --refine=0 --batches=2 --batch-time=300ms --slo=p99:50ms \
	--html="$T/sweep.html" --name=s --rw=randread --bs=4k --size=8m >"$T/sweep.out" 2>"$T/sweep.err" ||
	fail report_sweep_html "sweep exit $?: $(tail -c 300 "$T/sweep.err")"

# ---- rendering in Chromium ------------------------------------------------
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
if [ -z "$CHROME" ]; then
	skip report_chromium "chromium is not installed (scripts/deps.sh --test installs it)"
	exit 0
fi
chrome() {
	timeout 90 "$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$T/chrome" --enable-logging=stderr --v=0 "$@"
}

# Count the distinct colours of a PNG screenshot and the share of non-white pixels.
pngstat() {
	python3 - "$1" <<'EOF'
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, w = 8, b'', 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
bpp = {2: 3, 6: 4}[ctype]
raw, stride, prev, colours, ink, i = zlib.decompress(idat), w * bpp, None, set(), 0, 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    up = prev or bytearray(stride)
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = up[x]
        c = up[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = line
    if y % 3 == 0:
        for x in range(0, w, 3):
            px = bytes(line[x * bpp:x * bpp + 3])
            colours.add(px)
            ink += px != b'\xff\xff\xff'
print(len(colours), round(100.0 * ink / ((h + 2) // 3 * ((w + 2) // 3)), 2))
EOF
}

# render NAME FILE PATTERN...: the DOM has every pattern, no console message, a screenshot with ink.
render() {
	name=$1 file=$2; shift 2
	chrome --dump-dom "file://$file" >"$T/$name.dom" 2>"$T/$name.log"
	miss=""
	for p in "$@"; do grep -q -- "$p" "$T/$name.dom" || miss="$miss [$p]"; done
	if [ -n "$miss" ]; then fail "${name}_dom" "missing in the rendered DOM:$miss"
	else pass "${name}_dom"; fi
	if grep -E 'CONSOLE|Uncaught|SyntaxError|TypeError' "$T/$name.log" >"$T/$name.console"
	then fail "${name}_console" "$(head -c 300 "$T/$name.console")"
	else pass "${name}_console"; fi
	[ "${SHOT:-1}" = 1 ] || return 0
	chrome --window-size=1000,1000 --screenshot="$T/$name.png" "file://$file" >/dev/null 2>&1
	set -- $(pngstat "$T/$name.png" 2>/dev/null)
	# text, grid, several series colours and shading: far more than a few colours
	if [ "${1:-0}" -ge 40 ] && awk "BEGIN{exit !(${2:-0} >= 2)}"
	then pass "${name}_screenshot"
	else fail "${name}_screenshot" "blank-looking: ${1:-?} colours, ${2:-?}% ink"; fi
}

render run_html "$T/run.html" 'iotrial run report' 'id="f0j0-iops"' 'id="f0j1-lat"' \
	'Latency by percentile' 'Latency histogram' 'time since start' 'Plausibility' \
	'Environment' 'option (as given)' 'CPU per I/O'
render ab_html "$T/trial/report.html" 'A/B trial report' 'id="headline"' 'id="forest"' \
	'total.iops per run' 'read latency by percentile, A and B' 'noise threshold' \
	'What differs between A and B' 'stopped by'
render sweep_html "$T/sweep.html" 'iotrial ab sweep report' 'id="sweep"' 'SLO capacity, B vs A' \
	'A p99' 'B p50' 'A knee' 'B knee' 'SLO: p99' 'latency from the due time'
SHOT=0 render compare_html "$T/cmp.html" 'iotrial compare report' 'id="forest"' \
	'run (in the order they ran)'
if [ -s "$T/fio.html" ]; then
	SHOT=0 render fio_html "$T/fio.html" 'No time series' 'Latency by percentile'
fi

# Charts fill the page: in a 1280 px window every chart is at least 40% of the
# page's width (two columns; they were 460 px on a 1280 px page). Measured by
# Chromium's own layout, through a script added to a copy of the page.
layout() {
	name=$1 file=$2
	sed 's|</body>|<script>document.body.setAttribute("data-widths", Array.from(document.querySelectorAll("svg.chart")).map(function (s) { return Math.round(s.getBoundingClientRect().width); }).join(" ") + " / " + Math.round(document.body.getBoundingClientRect().width));</script></body>|' \
		"$file" >"$T/$name.layout.html"
	chrome --window-size=1280,1000 --dump-dom "file://$T/$name.layout.html" >"$T/$name.layout.dom" 2>/dev/null
	w=$(grep -o 'data-widths="[^"]*"' "$T/$name.layout.dom" | cut -d'"' -f2)
	if [ -n "$w" ] && echo "$w" | awk -F' / ' '{ n = split($1, c, " "); if (n < 1 || $2 < 1000) exit 1
		for (i = 1; i <= n; i++) if (c[i] < 0.4 * $2) exit 1 }'
	then pass "${name}_layout"; else fail "${name}_layout" "chart widths / page: ${w:-none}"; fi
}
layout run_html "$T/run.html"
layout ab_html "$T/trial/report.html"
# no number a person reads is in exponent notation ("3.477e+05")
if grep -hE '>[^<]*[0-9]e[+-][0-9]' "$T/run.html" "$T/trial/report.html" "$T/cmp.html" >"$T/exp"
then fail html_no_exponent "$(head -c 200 "$T/exp")"; else pass html_no_exponent; fi
