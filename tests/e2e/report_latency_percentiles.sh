#!/bin/sh
# What fio's t/latency_percentiles.py checks for unified_rw_reporting and
# cmdprio, in seconds: mixed writes only "mixed" (no read/write/trim), both
# writes the three and "mixed"; mixed's totals are the directions' sums, its
# lat percentiles agree with the latency log (fio's rank rule: the value at
# ceil(p/100 x N) - 1 of the sorted log, within a histogram bin); terse
# writes one block for mixed, as fio (its field count is fio's).  With
# lat_percentiles=1 the per-priority "prios" carry lat_ns (total latency),
# else clat_ns, as fio 3.33; their counts add up to the direction's and their
# minimum is the direction's.
. "$(dirname "$0")/lib.sh"
G="--ioengine=null --rw=randrw --size=4m --bs=4k --lat_percentiles=1 --clat_percentiles=1"
(cd "$T" && "$IOTRIAL" --name=m $G --unified_rw_reporting=mixed --write_lat_log=m \
	--output-format=json+ --output="$T/m.json" >/dev/null 2>"$T/m.err")
(cd "$T" && "$IOTRIAL" --name=b $G --unified_rw_reporting=2 --output-format=json \
	--output="$T/b.json" >/dev/null 2>"$T/b.err")
if pyjson "
import json, math
j = json.load(open('$T/m.json'))['jobs'][0]
assert not any(k in j for k in ('read', 'write', 'trim')), 'per-direction keys with mixed'
m = j['mixed']
assert m['total_ios'] == 1024 and m['io_bytes'] == 4 << 20, (m['total_ios'], m['io_bytes'])
lat = sorted(int(l.split(',')[1]) for l in open('$T/m_lat.1.log'))
assert len(lat) == m['total_ios'] == m['lat_ns']['N'], (len(lat), m['lat_ns']['N'])
assert sum(m['lat_ns']['bins'].values()) == len(lat)
for p, v in m['lat_ns']['percentile'].items():
    want = lat[max(math.ceil(float(p) / 100 * len(lat)) - 1, 0)]
    assert abs(v - want) <= max(want / 32, 1), (p, v, want)
b = json.load(open('$T/b.json'))['jobs'][0]
assert all(k in b for k in ('read', 'write', 'trim', 'mixed'))
assert b['mixed']['total_ios'] == b['read']['total_ios'] + b['write']['total_ios'] == 1024
assert b['mixed']['lat_ns']['N'] == b['read']['lat_ns']['N'] + b['write']['lat_ns']['N']
"; then pass unified_rw_mixed_both
else fail unified_rw_mixed_both "$(head -c 300 "$T/m.err" "$T/b.err")"; fi
fields() { "$@" --name=t --ioengine=null --rw=randrw --size=1m --unified_rw_reporting=1 \
	--output-format=terse 2>/dev/null | awk -F';' 'NR == 1 { print NF }'; }
i=$(fields "$IOTRIAL")
if command -v fio >/dev/null 2>&1; then
	f=$(fields timeout -s KILL 20 fio)
	[ -n "$i" ] && [ "$i" = "$f" ] && pass "unified_rw_terse_fields ($i)" ||
		fail unified_rw_terse_fields "iotrial $i fields, fio $f"
else
	[ "$i" = 89 ] && pass "unified_rw_terse_fields ($i)" || fail unified_rw_terse_fields "$i fields"
fi
expect_exit unified_rw_bad 2 "unified_rw_reporting.*not one of none" \
	"$IOTRIAL" --name=x --ioengine=null --size=1m --unified_rw_reporting=3

# prios: lat_ns with lat_percentiles=1, clat_ns without (libaio: the engine that sends priorities)
if engine_refused libaio; then
	skip cmdprio_prios_lat "$REFUSED_WHY"
	exit 0
fi
dd if=/dev/zero of="$T/f" bs=1M count=8 2>/dev/null
P="--filename=$T/f --size=8m --ioengine=libaio --direct=1 --iodepth=4 --rw=randread --number_ios=1500 --cmdprio_percentage=50 --output-format=json"
prios() {	# TOOL OUT ARGS...: "key N-sum-ok min-ok" of read's prios
	tool=$1 out=$2; shift 2
	if [ "$tool" = fio ]; then set -- timeout -s KILL 60 fio "$@"; else set -- "$IOTRIAL" "$@"; fi
	"$@" --output="$T/$out" >/dev/null 2>&1
	pyjson "
import json
r = json.load(open('$T/$out'))['jobs'][0]['read']
ps = r['prios']
k = [x for x in ps[0] if x.endswith('lat_ns')][0]
print(k, sum(p[k]['N'] for p in ps) == r[k]['N'], min(p[k]['min'] for p in ps) == r[k]['min'], len(ps))" 2>/dev/null
}
# shellcheck disable=SC2086
a=$(prios iotrial a.json --name=p $P --lat_percentiles=1)
# shellcheck disable=SC2086
c=$(prios iotrial c.json --name=p $P)
if [ "$a" = "lat_ns True True 2" ] && [ "$c" = "clat_ns True True 2" ]; then
	pass "cmdprio_prios_lat ($a; $c)"
else fail cmdprio_prios_lat "lat_percentiles=1: '$a', default: '$c'"; fi
if command -v fio >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	f=$(prios fio fa.json --name=p $P --lat_percentiles=1)
	[ "${f%% *}" = "${a%% *}" ] && pass "cmdprio_prios_lat_fio (fio: $f)" ||
		fail cmdprio_prios_lat_fio "fio '$f', iotrial '$a'"
fi
