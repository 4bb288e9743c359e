#!/bin/bash
# fio's own test suite (fio's t/ scripts: run-fio-tests.py's t/jobs, readonly,
# steadystate, strided, latency_percentiles, jsonplus2csv, log_compression,
# random_seed, verify, verify_state_save) run once with fio as the binary and
# once with iotrial, then one table: test | fio | iotrial | reason for each
# iotrial miss (the failure text of fio's own check).  Not part of `make check`
# (it takes 15-25 minutes and needs fio's scripts, which are not in this tree);
# the checks derived from it are in tests/e2e/ (docs/compat.md lists them).
#
#   tests/fio-suite/run.sh [-o OUT] [-f FIO] [-i IOTRIAL] [-t FIO_T] [-k] [-r] [PART...]
#
# FIO_T is a folder holding fio's t/ (default /work/fio-t; absent: exit 77,
# nothing run).  PARTS: jobs readonly steadystate strided latency jsonplus
# logcomp randomseed verify vss (default all).  -k keeps the fio run found in
# OUT/fio (only the iotrial side runs again); -r runs nothing and prints the
# table of the logs already in OUT.  Tests that need NVMe, zoned or
# SCSI devices, 4+ CPUs or fio newer than 3.33 are left out, as fio's runner
# leaves them out by its requirements or as listed in PARTS' arguments below.
set -u
here=$(cd "$(dirname "$0")" && pwd)
OUT=/tmp/iotrial-fio-suite FIO=$(command -v fio || true) IOT=$here/../../build/iotrial
FIO_T=${FIO_T:-/work/fio-t} KEEP=0 REPORT=0
while getopts o:f:i:t:kr c; do
	case $c in
	o) OUT=$OPTARG ;; f) FIO=$OPTARG ;; i) IOT=$OPTARG ;; t) FIO_T=$OPTARG ;; k) KEEP=1 ;; r) REPORT=1 ;;
	*) echo "usage: $0 [-o OUT] [-f FIO] [-i IOTRIAL] [-t FIO_T] [-k] [PART...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
PARTS=${*:-jobs readonly steadystate strided latency jsonplus logcomp randomseed verify vss}
if [ ! -f "$FIO_T/t/run-fio-tests.py" ]; then
	echo "fio's t/ not found under $FIO_T (set FIO_T): nothing run" >&2
	exit 77
fi
IOT=$(readlink -f "$IOT")
# fio's scripts need scipy and statsmodels: the system python has them here
T=$FIO_T/t PY=${PYTHON:-$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || echo python3)}

run_side() {	# NAME BIN: every part, one folder and log each
	local side=$1 bin=$2 p start
	mkdir -p "$OUT/$side"
	for p in $PARTS; do
		rm -rf "${OUT:?}/$side/$p"; mkdir -p "$OUT/$side/$p"
		start=$(date +%s)
		(cd "$OUT/$side/$p" && case $p in
		jobs) $PY "$T/run-fio-tests.py" -r "$FIO_T" -f "$bin" -a art -o $(seq 1 37) ;;
		readonly) $PY "$T/readonly.py" -f "$bin" ;;
		steadystate) $PY "$T/steadystate_tests.py" "$bin" ;;
		strided) $PY "$T/strided.py" --fio "$bin" -a art ;;
		latency) $PY "$T/latency_percentiles.py" -f "$bin" -a art ;;
		jsonplus) $PY "$T/jsonplus2csv_test.py" -f "$bin" ;;
		logcomp) $PY "$T/log_compression.py" -f "$bin" ;;
		randomseed) $PY "$T/random_seed.py" -f "$bin" -a art ;;
		verify) $PY "$T/verify.py" -f "$bin" -a art ;;
		vss) $PY "$T/verify_state_save.py" -f "$bin" -a art -s 101 102 104 105 107 108 ;;
		esac >log.txt 2>&1)
		echo "$side $p: $(($(date +%s) - start)) s, $(tail -1 "$OUT/$side/$p/log.txt")" >&2
	done
}
if [ "$REPORT" = 0 ]; then
	[ "$KEEP" = 1 ] && [ -d "$OUT/fio" ] || { [ -n "$FIO" ] && run_side fio "$FIO"; }
	run_side iotrial "$IOT"
fi

# One result per test from each script's own log lines.
$PY - "$OUT" $PARTS <<'PYEOF'
import os, re, sys
out, parts = sys.argv[1], sys.argv[2:]
def results(side, part):
    p = os.path.join(out, side, part, 'log.txt')
    if not os.path.exists(p):
        return {}
    r, n, pending, sect = {}, 0, [], ''
    for line in open(p, errors='replace'):
        line = line.rstrip('\n')
        m = re.match(r'(ddir|mangle block size|mode): (.*)|Running (.*) tests with ioengine=(.*)', line)
        if m and m.group(3):                                               # verify_state_save's groups
            sect = re.sub(r'[^a-z0-9]+', '_', m.group(4) + ' ' + m.group(3)) + ':'
            pending = []; continue
        if m:
            sect = re.sub(r'[^a-z0-9]+', '_', m.group(2).replace('checksum: ', '').replace('sequence: ', '')) + ':'
            pending = []; continue
        m = re.match(r'\*+Test (\S+) (PASSED|FAILED|SKIPPED)\**', line)          # latency
        if m:
            r[sect + m.group(1)] = (m.group(2), '; '.join(pending)[-160:]); pending = []; continue
        m = re.match(r'Test (\d+) (PASSED|SKIPPED|FAILED)(:?\s*(.*))?$', line)
        if m:
            why = (m.group(4) or '').strip()
            r[sect + m.group(1)] = (m.group(2), why[:160] if why else '; '.join(pending)[-160:]); pending = []; continue
        m = re.match(r'Test with (\S+) (PASSED|FAILED)', line)                     # log_compression
        if m:
            r[m.group(1)] = (m.group(2), '; '.join(pending)[-160:]); pending = []; continue
        if part == 'steadystate':
            m = re.match(r"(PASSED|FAILED) (.*)", line)
            if m:
                n += 1
                a = re.search(r"--ss=(\S+?)'", m.group(2))
                name = ('parse %d %s' % (n, a.group(1))) if "NOT found" in line or "found with" in line \
                    else m.group(2).split()[0]
                r[name] = (m.group(1), m.group(2)[:160]); continue
        if line.strip() and not line.startswith(('{', ' ', "'")):
            pending.append(line.strip())
            pending = pending[-3:]
    return r
rows, tally = [], {'fio': 0, 'iotrial': 0}
for part in parts:
    f, i = results('fio', part), results('iotrial', part)
    for k in list(dict.fromkeys(list(f) + list(i))):
        fs, is_ = f.get(k, ('-', ''))[0], i.get(k, ('-', ''))[0]
        if fs == 'SKIPPED' and is_ in ('SKIPPED', '-'):
            continue
        tally['fio'] += fs == 'PASSED'; tally['iotrial'] += is_ == 'PASSED'
        why = '' if is_ == 'PASSED' else i.get(k, ('', 'not run'))[1]
        rows.append((f'{part} {k}', fs, is_, why))
w = max(len(r[0]) for r in rows) if rows else 10
print(f"{'test':{w}} | fio     | iotrial | reason (iotrial miss)")
for r in rows:
    print(f"{r[0]:{w}} | {r[1]:7} | {r[2]:7} | {r[3]}")
print(f"fio passes {tally['fio']}, iotrial {tally['iotrial']} (of {len(rows)} tests run)")
PYEOF
