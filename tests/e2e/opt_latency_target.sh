#!/bin/sh
# latency_target, latency_window, latency_percentile, latency_run against
# fio 3.33 on the same jobs:
#   - null engine, a target every depth meets: both search 1 2 4 8, settle at
#     iodepth 8, restart the statistics for one last window and end there
#     (job_runtime = one window, long before runtime); the four latency_*
#     keys are fio's, in fio's units (target ns, window us), and so is the
#     text line;
#   - latency_run=1: the search never settles, nothing restarts (job_runtime
#     is the whole runtime);
#   - 1 MiB cached reads through libaio, whose latency grows with the
#     depth (io_submit copies each buffered read before returning): the
#     report is the settled window's, whose p90 meets the target, and fio
#     settles at the same depth give or take one (the machine is shared: when
#     the latencies the two tools see differ, the comparison is a SKIP line
#     with both tools' depths and p90s, not a failure);
#   - a target no I/O can meet (1 us): at depth 1 with percentile 100 the job
#     fails with ETIMEDOUT (fio: the same error, and no report);
#   - bad values: one line, exit 2.
. "$(dirname "$0")/lib.sh"
have_fio=0; command -v fio >/dev/null 2>&1 && have_fio=1

# keys FILE: "depth target percentile window job_runtime elapsed error"
keys() {
	pyjson "
import json
j = json.load(open('$1'))['jobs'][0]
print(j['latency_depth'], j['latency_target'], j['latency_percentile'], j['latency_window'],
      j['job_runtime'], j['elapsed'], j['error'])"
}

NULLJOB="--name=t --ioengine=null --size=1t --bs=4k --rw=randread --iodepth=8
         --latency_target=1s --latency_window=100ms --time_based --runtime=20"
# shellcheck disable=SC2086
"$IOTRIAL" $NULLJOB --output-format=json,normal --output="$T/i.out" 2>"$T/ierr"
irc=$?
sed -n '/^{/,/^}/p' "$T/i.out" >"$T/i.json"
set -- $(keys "$T/i.json")
if [ "$irc" -eq 0 ] && [ "$1 $2 $3 $4 $7" = "8 1000000000 100.0 100000 0" ] &&
   [ "$5" -ge 95 ] && [ "$5" -le 200 ] && [ "$6" -le 3 ]
then pass latency_target_null_settles_at_iodepth
else fail latency_target_null_settles_at_iodepth "exit $irc, got '$*': $(head -c 200 "$T/ierr")"; fi
if grep -q "^     latency   : target=1000000000, window=100000, percentile=100.00%, depth=8$" "$T/i.out"
then pass latency_target_text_line; else fail latency_target_text_line "$(grep 'latency   :' "$T/i.out")"; fi
if [ $have_fio -eq 1 ]; then
	# shellcheck disable=SC2086
	fio $NULLJOB --output-format=json --output="$T/f.json" >/dev/null 2>&1
	set -- $(keys "$T/f.json")
	fio_keys="$1 $2 $3 $4"
	set -- $(keys "$T/i.json")
	if [ "$fio_keys" = "$1 $2 $3 $4" ]; then pass latency_target_keys_as_fio
	else fail latency_target_keys_as_fio "fio '$fio_keys', iotrial '$1 $2 $3 $4'"; fi
else
	skip latency_target_keys_as_fio "fio not installed"
fi

# latency_run: 1 s of runtime, all of it measured
# shellcheck disable=SC2086
"$IOTRIAL" $NULLJOB --runtime=1 --latency_run=1 --output-format=json >"$T/r.json" 2>"$T/rerr"
set -- $(keys "$T/r.json")
if [ "$1" = 8 ] && [ "$5" -ge 990 ] && [ "$5" -le 1100 ]; then pass latency_run_keeps_measuring
else fail latency_run_keeps_measuring "got '$*'"; fi

# a device whose latency grows with the depth: 1 MiB buffered reads via libaio
# (the file was just written and invalidate=0 keeps its pages cached: each
# read is a copy, not a trip to a disk shared with whatever else runs)
dd if=/dev/zero of="$T/f" bs=1M count=64 2>/dev/null
DEVJOB="--name=d --filename=$T/f --size=64m --bs=1m --rw=randread --ioengine=libaio --iodepth=32
        --latency_target=600 --latency_window=150ms --latency_percentile=90 --time_based --runtime=4
        --invalidate=0
        --lat_percentiles=1 --percentile_list=90"
# settled FILE: "depth job_runtime p90_of_lat_ns" of a run
settled() {
	pyjson "
import json
j = json.load(open('$1'))['jobs'][0]
print(j['latency_depth'], j['job_runtime'], j['read']['lat_ns'].get('percentile', {}).get('90.000000', 0))"
}
# the job ends only after its settled depth met the target once more: the
# report is that window's, so its p90 is within the target (and the bucket
# error), and the target bound the depth below iodepth
# shellcheck disable=SC2086
"$IOTRIAL" $DEVJOB --output-format=json >"$T/d.json" 2>/dev/null
set -- $(settled "$T/d.json")
if [ "$1" -lt 32 ] && [ "$2" -ge 140 ] && [ "$2" -le 400 ] && [ "$3" -gt 0 ] && [ "$3" -le 606000 ]
then pass "latency_target_settled_window_meets_target (depth $1, p90 $3 ns)"
else fail latency_target_settled_window_meets_target "depth $1, runtime $2 ms, p90 $3 ns"; fi
if [ $have_fio -eq 1 ]; then
	# the same depth as fio give or take one; on a loaded machine the two may
	# settle apart, which is noise when each met the target at its own depth
	ok=0
	for try in 1 2; do
		# shellcheck disable=SC2086
		"$IOTRIAL" $DEVJOB --output-format=json >"$T/d.json" 2>/dev/null
		# shellcheck disable=SC2086
		fio $DEVJOB --output-format=json --output="$T/fd.json" >/dev/null 2>&1
		set -- $(settled "$T/d.json"); ours=$1 op90=$3
		set -- $(settled "$T/fd.json"); theirs=$1 fp90=$3
		d=$((ours - theirs))
		if [ "${d#-}" -le 1 ]; then ok=1; break; fi
	done
	# the search itself is checked above and in test_latency_target; what the
	# device gives each tool is not ours to fail on, so a mismatch says so
	if [ $ok -eq 1 ]; then pass "latency_target_depth_as_fio ($ours vs fio $theirs)"
	else skip latency_target_depth_as_fio "the two tools saw different latencies here (loaded machine?): iotrial settled at $ours (p90 $op90 ns), fio at $theirs (p90 $fp90 ns)"; fi
else
	skip latency_target_depth_as_fio "fio not installed"
fi

# 1 us cannot be met: ETIMEDOUT at depth 1, at once
# shellcheck disable=SC2086
"$IOTRIAL" $DEVJOB --latency_target=1 --latency_percentile=100 --output-format=json >"$T/x.json" 2>"$T/xerr"
xrc=$?
set -- $(keys "$T/x.json")
if [ "$xrc" -eq 1 ] && [ "$1 $7" = "1 110" ] && [ "$6" -le 1 ] &&
   grep -q "stopped on error: latency of [0-9]* ns exceeds latency_target (1000 ns) at depth 1" "$T/xerr"
then pass latency_target_unmet_is_etimedout
else fail latency_target_unmet_is_etimedout "exit $xrc, '$*': $(cat "$T/xerr")"; fi
if [ $have_fio -eq 1 ]; then
	# shellcheck disable=SC2086
	fio $DEVJOB --latency_target=1 --latency_percentile=100 >"$T/fx.out" 2>&1
	if grep -q "latency of [0-9]* nsec exceeds specified max (1000 nsec)" "$T/fx.out"
	then pass latency_target_unmet_fio_agrees; else fail latency_target_unmet_fio_agrees "$(head -c 300 "$T/fx.out")"; fi
fi

expect_exit latency_target_needs_window 2 "^iotrial: error: job 't' \(command line\): latency_target=500us needs latency_window > 0" \
	"$IOTRIAL" --parse-only --name=t --ioengine=null --size=1m --latency_target=500
expect_exit latency_percentile_range 2 "^iotrial: error: invalid value '100.5' for option 'latency_percentile'" \
	"$IOTRIAL" --parse-only --name=t --latency_percentile=100.5
expect_exit latency_window_bad_unit 2 "^iotrial: error: .*'5parsecs'.*latency_window" \
	"$IOTRIAL" --parse-only --name=t --latency_window=5parsecs
