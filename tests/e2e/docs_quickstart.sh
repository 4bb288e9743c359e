#!/bin/sh
# The README's quick start (scripts/quickstart.sh), run as a user would but
# shortened (IOTRIAL_QUICK_RUNTIME=2, IOTRIAL_QUICK_SIZE=8M) and without the
# package step (CI has run scripts/deps.sh already; a test must not install
# packages).  Checks: stdout is pure JSON with the seed's four randrw jobs,
# the run lasted the requested time, the mix is about 50/50, the scratch
# directory is gone, a relative --output lands where the user ran it, and
# the text report is produced by default.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)
QS="$SRC/scripts/quickstart.sh"
if [ ! -x "$QS" ] || ! command -v make >/dev/null 2>&1; then
	skip quickstart "no executable $QS or no make"
	exit 0
fi
# the binary the suite tests: SANITIZE=1 check runs the sanitized build
case "$IOTRIAL" in */build/san/iotrial) SANITIZE=1 ;; *) SANITIZE=0 ;; esac
export SANITIZE IOTRIAL_QUICK_RUNTIME=2 IOTRIAL_QUICK_SIZE=8M IOTRIAL_QUICK_DEPS=0
export TMPDIR="$T"	# the scratch directory is made here, so we can see it go

# JSON on stdout, nothing else there
"$QS" --output-format=json >"$T/qs.json" 2>"$T/qs.err"
rc=$?
if [ $rc -ne 0 ]; then
	fail quickstart_json "exit $rc: $(tail -c 300 "$T/qs.err")"
	exit 0
fi
if pyjson "
import json
d = json.load(open('$T/qs.json'))   # the whole of stdout: nothing but JSON
jobs = d['jobs']
assert len(jobs) == 4, len(jobs)
for j in jobs:
    assert j['jobname'] == 'randrw', j['jobname']
    assert j['error'] == 0, j['error']
    o = j['job options']
    assert o['rw'] == 'randrw' and o['bs'] == '4k' and o['iodepth'] == '32', o
    assert 'time_based' in o, o
    # time_based: it ran the requested 2 s, not until 8M were done
    assert 1900 <= j['job_runtime'] <= 2600, j['job_runtime']
    r, w = j['read']['total_ios'], j['write']['total_ios']
    assert r > 0 and w > 0, (r, w)
    assert 0.40 <= r / (r + w) <= 0.60, r / (r + w)   # rwmixread=50
    for dd in ('read', 'write'):   # iops x runtime = total_ios, within 2%
        x = j[dd]
        assert abs(x['iops'] * x['runtime'] / 1000 - x['total_ios']) <= 0.02 * x['total_ios'] + 2, x
assert d['iotrial']['partial'] is False, d['iotrial']
assert d['iotrial']['version'], d['iotrial']
" 2>"$T/py.err"; then
	pass quickstart_json
else
	fail quickstart_json "stdout is not the expected JSON: $(tail -n 1 "$T/py.err" | head -c 300) (stdout begins $(head -c 60 "$T/qs.json" | tr '\n' ' '))"
fi
scratch=$(sed -n 's/^scratch files in //p' "$T/qs.err")
case "$scratch" in
"$T"/iotrial-quickstart.*) if [ -e "$scratch" ]; then
		fail quickstart_cleanup "$scratch is left behind"
	else
		pass quickstart_cleanup
	fi ;;
*) fail quickstart_cleanup "stderr does not name the scratch directory: $(head -c 300 "$T/qs.err")" ;;
esac

# a relative --output is the user's directory, not the source tree
mkdir "$T/user"
if (cd "$T/user" && "$QS" --output-format=json --output=r.json >"$T/out2" 2>"$T/err2") &&
	[ ! -s "$T/out2" ] && pyjson "import json; assert len(json.load(open('$T/user/r.json'))['jobs']) == 4" &&
	[ ! -e "$SRC/r.json" ]; then
	pass quickstart_output_file
else
	fail quickstart_output_file "no $T/user/r.json or stdout not empty: $(tail -c 300 "$T/err2")"
fi

# default: fio's text report
if "$QS" >"$T/qs.txt" 2>"$T/qs.err" && grep -q '^Run status group 0 (all jobs):' "$T/qs.txt" &&
	[ "$(grep -c '^randrw: (groupid=0' "$T/qs.txt")" -eq 4 ]; then
	pass quickstart_text
else
	fail quickstart_text "$(head -c 300 "$T/qs.txt") $(tail -c 200 "$T/qs.err")"
fi

# iotrial's part of the default text: the four clones said once, named apart
# (randrw.0..3), each qualifier beside its figure; on tmpfs-backed or buffered
# files the verdict may vary, so only the shape is checked, not the verdict
add=$(sed -n '/^iotrial:$/,$p' "$T/qs.txt")
if echo "$add" | grep -q '^randrw\.0\.\.3 (group 0, 4 clones of job randrw):$' &&
   [ "$(echo "$add" | grep -c '^  bottleneck')" -le 4 ] &&
   [ "$(echo "$add" | grep -c '^  time per I/O')" -le 2 ] &&
   echo "$add" | grep -Eq '^  read : bw=[0-9.]+[KMG]iB/s \([0-9.]+[kMG]B/s\), IOPS=[0-9.]+k?(: .*)?$' &&
   ! echo "$add" | grep -q "each I/O's cycle" && ! echo "$add" | grep -q '^job randrw' &&
   ! echo "$add" | grep -q '(and 3 more)'
then pass quickstart_additions_grouped; else fail quickstart_additions_grouped "$add"; fi
