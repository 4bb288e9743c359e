#!/bin/sh
# docs/json.md's promise, end to end: for the same job, every key fio 3.33
# writes is in iotrial's document, at the same path and with the same JSON
# type (numbers as numbers, strings as strings), for json and json+, with
# and without group_reporting, for reads, writes, mixes and syncs.  fio runs
# here, on the same small files; skipped when fio is not installed.
. "$(dirname "$0")/lib.sh"
if ! command -v fio >/dev/null 2>&1; then
	skip json_fio_keys "fio is not installed"
	exit 0
fi

# same NAME FORMAT ARGS...: run both, compare key paths and types.
same() {
	name=$1 fmt=$2; shift 2
	fio --filename="$T/f.$name" --output-format="$fmt" "$@" >"$T/fio.json" 2>/dev/null
	"$IOTRIAL" --filename="$T/f.$name" --output-format="$fmt" "$@" >"$T/iot.json" 2>"$T/err"
	rc=$?
	if [ $rc -ne 0 ]; then
		fail "$name" "iotrial exit $rc: $(head -c 300 "$T/err")"
		return
	fi
	if out=$(pyjson "
import json, sys
# objects whose keys are data (percentiles, bucket midpoints): any key will do
DATA = ('percentile', 'bins')
def kind(v):
    if isinstance(v, bool): return 'bool'
    if isinstance(v, (int, float)): return 'number'
    return type(v).__name__
def paths(v, p, out):
    out[p] = kind(v)
    if isinstance(v, dict):
        if p.rsplit('.', 1)[-1] in DATA:
            return
        for k, x in v.items():
            if k != 'iotrial':
                paths(x, p + '.' + k, out)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            paths(x, p + '[%d]' % i, out)
fio, iot = {}, {}
paths(json.load(open('$T/fio.json')), '', fio)
paths(json.load(open('$T/iot.json')), '', iot)
# disk_util depends on what else used the disk meanwhile: compare its shape only
drop = lambda d: {k: v for k, v in d.items() if not k.startswith('.disk_util[') or k.startswith('.disk_util[0]')}
fio, iot = drop(fio), drop(iot)
missing = sorted(k for k in fio if k not in iot)
wrong = sorted(k for k in fio if k in iot and fio[k] != iot[k])
if missing or wrong:
    print('missing:', missing[:8], 'type differs:', [(k, fio[k], iot[k]) for k in wrong[:8]])
    sys.exit(1)
print(len(fio))
" 2>&1); then
		pass "$name ($out keys)"
	else
		fail "$name" "$out"
	fi
}

same randrw_libaio json --name=a --rw=randrw --bs=4k --size=4M --ioengine=libaio --iodepth=8
same read_psync_plus json+ --name=b --rw=read --bs=16k --size=4M --lat_percentiles=1
same write_fsync json --name=c --rw=randwrite --size=2M --fsync=8 --end_fsync=1
same group json --name=d --rw=randread --size=2M --numjobs=2 --group_reporting
same two_jobs_globals json --bs=8k --name=e1 --rw=read --size=2M --name=e2 --rw=write --size=2M
