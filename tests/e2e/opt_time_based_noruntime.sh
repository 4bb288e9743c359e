#!/bin/sh
# time_based without runtime: fio 3.33 warns ("time_based requires a
# runtime/timeout setting") and runs the job as if time_based were not set,
# as e4defrag2.fio's e4defrag-fuzzer-4k-bis needs.  Both tools on the same
# job file: the job does its size once and ends.
. "$(dirname "$0")/lib.sh"
printf '[global]\nfilename=%s/tb\nsize=1m\nbs=4k\n[b]\ntime_based\nrw=randwrite\n' "$T" >"$T/tb.fio"
for tool in iotrial fio; do
	bin=$IOTRIAL
	if [ $tool = fio ]; then
		command -v fio >/dev/null 2>&1 || { skip time_based_noruntime_fio "fio not installed"; continue; }
		bin=fio
	fi
	rm -f "$T/tb"
	timeout 20 "$bin" --output-format=json --output="$T/o.json" "$T/tb.fio" >/dev/null 2>"$T/err"
	rc=$?
	w=$(pyjson "import json; s = open('$T/o.json').read(); print(json.loads(s[s.index('{'):])['jobs'][0]['write']['total_ios'])" 2>&1)
	[ $rc = 0 ] && [ "$w" = 256 ] && pass "time_based_noruntime_$tool" ||
		fail "time_based_noruntime_$tool" "exit $rc, writes $w $(head -c 200 "$T/err")"
done
