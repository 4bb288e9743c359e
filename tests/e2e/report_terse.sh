#!/bin/sh
# Terse output v2..v5 against fio 3.33's own terse output for the same job:
# same number of fields in the same order, equal deterministic fields
# (version, job name, group, error, KiB per direction, the percentile labels
# and padding, the description) and, from our side, values that agree with
# our JSON for the same run.
. "$(dirname "$0")/lib.sh"
HAVE_FIO=0
command -v fio >/dev/null 2>&1 && fio --version 2>/dev/null | grep -q '^fio-3' && HAVE_FIO=1
F="$T/f"
truncate -s 1m "$F"
JOB="--name=tj --filename=$F --size=1m --bs=4k --rw=write --description=d1"

cat >"$T/cmp.py" <<'PY'
import sys, re
v = int(sys.argv[1])
ours = open(sys.argv[2]).read().split('\n')
theirs = open(sys.argv[3]).read().split('\n') if len(sys.argv) > 3 else None
a = ours[0].split(';')
want = {2: 161, 3: 131, 4: 172, 5: 190}[v]
# v3+ end with the disk (9 fields) and the description; v2 has neither on line 1
nodisk = want - (9 if v >= 3 else 0)
assert len(a) in (want, nodisk), ('field count', len(a), want)
assert a[0] == str(v), a[0]
h = 4 if v == 2 else 5
assert a[h - 3] == 'tj' and a[h - 2] == '0' and a[h - 1] == '0', a[:h]
per = 47 if v == 5 else 41
dirs = 2 if v == 3 else 3
assert a[h] == '0' and a[h + per] == '1024', (a[h], a[h + per])     # read KiB, write KiB
pcts = [x.split('=')[0] for x in a if '%=' in x]
assert len(pcts) == 20 * dirs, len(pcts)
if v == 2:
    assert ours[1] == ';d1', ours[1:]
else:
    assert a[-1] == 'd1', a[-1]
if theirs:
    b = theirs[0].split(';')
    assert len(a) == len(b), ('fio has', len(b), 'we have', len(a))
    for i in [0] + list(range(h - 3, h + 1)) + [h + per]:
        assert a[i] == b[i], ('field', i, a[i], b[i])
    assert pcts == [x.split('=')[0] for x in b if '%=' in x], 'percentile labels'
    assert a[-1] == b[-1] and ours[1:] == theirs[1:], 'description'
    for i, (x, y) in enumerate(zip(a, b)):   # same shape: a percentage where fio has one
        assert x.endswith('%') == y.endswith('%'), ('field', i, x, y)
PY
for v in 2 3 4 5; do
	# shellcheck disable=SC2086
	if ! "$IOTRIAL" $JOB --output-format=terse --terse-version=$v >"$T/o$v" 2>"$T/err"; then
		fail terse_v$v "$(head -c 300 "$T/err")"; continue
	fi
	ref=""
	if [ $HAVE_FIO = 1 ]; then
		# shellcheck disable=SC2086
		fio $JOB --output-format=terse --terse-version=$v >"$T/f$v" 2>/dev/null && ref="$T/f$v"
	fi
	if python3 "$T/cmp.py" $v "$T/o$v" $ref 2>"$T/py"; then pass "terse_v$v${ref:+ (fio compared)}"
	else fail terse_v$v "$(tail -1 "$T/py")"; fi
done

# --minimal is terse v3; the values are our JSON's for the same run
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --minimal --output-format=terse,json >"$T/both" 2>"$T/err"
if pyjson "
import json
lines = open('$T/both').read().split('\n')
t = lines[0].split(';')
d = json.loads('\n'.join(lines[1:]))
w = d['jobs'][0]['write']
assert t[0] == '3' and t[46] == str(w['io_kbytes']) and t[47] == str(w['bw']), t[46:48]
assert t[48] == str(int(w['iops'])) and t[49] == str(w['runtime']), t[48:50]
assert abs(float(t[56]) - w['clat_ns']['mean'] / 1000) < 1e-3, (t[56], w['clat_ns']['mean'])
" 2>"$T/py"; then pass terse_matches_json; else fail terse_matches_json "$(tail -2 "$T/py") $(cat "$T/err")"; fi
expect_exit terse_version_bad 2 "invalid value '6' for option 'terse-version'" \
	"$IOTRIAL" --terse-version=6 --name=x --ioengine=null --size=1m
