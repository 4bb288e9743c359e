#!/bin/sh
# serialize_overlap=1 (fio's t0013): no two in-flight I/Os of a job overlap.
# The proof seen from outside: random writes at iodepth 16 on a one-block
# file (4 KiB, norandommap) can only ever have one I/O in flight with the
# option, so every I/O is submitted at depth 1 (JSON iodepth_level), while
# without it the depth reaches 16.  fio 3.33 on io_uring is the control;
# tests/unit/worker/test_worker_serialize_overlap.c checks the ranges in flight one by one.
. "$(dirname "$0")/lib.sh"
HAVE_FIO=0
command -v fio >/dev/null 2>&1 && HAVE_FIO=1
levels() {	# TOOL ENGINE SO: "ios depth1% depth16%"
	t=$1; shift
	if [ "$t" = fio ]; then set -- "$@" timeout -s KILL 30 fio; else set -- "$@" "$IOTRIAL"; fi
	e=$1 so=$2; shift 2
	"$@" --name=s --ioengine="$e" --filename="$T/sf" --size=4k --bs=4k --rw=randwrite \
		--norandommap --io_size=1m --iodepth=16 --serialize_overlap="$so" \
		--output-format=json --output="$T/s.json" >/dev/null 2>"$T/s.err" || { echo "exit: $(head -c 200 "$T/s.err")"; return; }
	pyjson "
import json
j = json.load(open('$T/s.json'))['jobs'][0]
l = j['iodepth_level']
print(j['write']['total_ios'], round(l['1']), 'deep' if l['16'] > 50 else 'shallow')"
}
engines=null
engine_refused io_uring || engines="null io_uring"
for e in $engines; do
	i=$(levels iotrial "$e" 1)
	[ "$i" = "256 100 shallow" ] && pass "serialize_overlap_depth1_$e ($i)" ||
		fail "serialize_overlap_depth1_$e" "got '$i', wanted '256 100 shallow'"
	i=$(levels iotrial "$e" 0)
	case $i in "256 "*" deep") pass "no_serialize_overlap_deep_$e ($i)" ;;
	*) fail "no_serialize_overlap_deep_$e" "got '$i', wanted 256 I/Os mostly at depth 16" ;; esac
done
if [ "$HAVE_FIO" = 1 ]; then
	f1=$(levels fio io_uring 1) f0=$(levels fio io_uring 0)
	case "$f1|$f0" in
	"256 100 shallow|256 "*" deep") pass "serialize_overlap_fio_control ($f1; without: $f0)" ;;
	*"refuse"*|*"not permitted"*|*"Operation not"*) skip serialize_overlap_fio_control "fio's io_uring refused here: $f1" ;;
	*) fail serialize_overlap_fio_control "fio with: '$f1', without: '$f0'" ;;
	esac
else skip serialize_overlap_fio_control "fio not installed"; fi

# t0013 itself, its runtime shortened: eight offload jobs, each on its own
# 4 KiB file, looping; fio's check is a clean exit and an empty stderr
t13() {	# TOOL: "rc stderr-bytes"
	if [ "$1" = fio ]; then set -- timeout -s KILL 10 fio; else set -- "$IOTRIAL"; fi
	(cd "$T" && "$@" --name=test --ioengine=null --thread=1 --size=4K --blocksize=4K \
		--io_submit_mode=offload --iodepth=1 --serialize_overlap=1 --numjobs=8 \
		--loops=1000000 --runtime=1 --output-format=json --output=t13.json >/dev/null 2>t13.err)
	echo "$? $(wc -c <"$T/t13.err")"
}
i=$(t13 iotrial)
[ "$i" = "0 0" ] && pass "t0013 ($i)" || fail t0013 "iotrial '$i' (exit code, stderr bytes)"
if [ "$HAVE_FIO" = 1 ]; then
	# fio 3.33 sometimes never ends with io_submit_mode=offload here (as
	# in its own t0010): killed at 10 s (a run of 1 s: ten times that is a
	# hang, not load), that run says nothing of the option
	f=$(t13 fio)
	case $f in "0 0") pass "t0013_fio_control ($f)" ;;
	137*) skip t0013_fio_control "fio 3.33 hung with io_submit_mode=offload (killed at 10 s)" ;;
	*) fail t0013_fio_control "fio '$f' (exit code, stderr bytes)" ;; esac
fi
