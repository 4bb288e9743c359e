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
#     report is the settled window's, whose p90 meets the target, and so is
#     fio's (see below for a loaded machine);
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

# latency_run: 1 s of runtime, all of it measured (+100 ms: a time_based run
# overran by 0-14 ms in 10 runs under tests/load.sh)
# shellcheck disable=SC2086
"$IOTRIAL" $NULLJOB --runtime=1 --latency_run=1 --output-format=json >"$T/r.json" 2>"$T/rerr"
set -- $(keys "$T/r.json")
if [ "$1" = 8 ] && [ "$5" -ge 990 ] && [ "$5" -le 1100 ]; then pass latency_run_keeps_measuring
else fail latency_run_keeps_measuring "got '$*'"; fi

# a device whose latency grows with the depth: 1 MiB buffered reads via libaio
# (the file was just written and invalidate=0 keeps its pages cached: each
# read is a copy, not a trip to a disk shared with whatever else runs)
dd if=/dev/zero of="$T/f" bs=1M count=64 2>/dev/null
# The target is 600 us, or twice the p90 a depth-1 run of the same reads
# just saw when the machine is busier than that (each read is a CPU copy, so
# a loaded CPU sets its latency: p90 1.7-2.2 ms at depth 1 was seen for
# both tools beside three other suites; no depth then meets 600 us and the
# contract below would be about nothing).  Calibrated before each try, by
# the tool under test (fio's depth-1 p90 was 1.7-2.6 ms in a fresh chroot
# where iotrial's was under 300 us).
calibrate() {	# TOOL: the tool measures its own depth-1 latency
	CAL="--name=c --filename=$T/f --size=64m --bs=1m --rw=randread --ioengine=libaio
	     --iodepth=1 --invalidate=0 --time_based --runtime=300ms --lat_percentiles=1
	     --percentile_list=90 --output-format=json"
	if [ "$1" = fio ]; then
		# shellcheck disable=SC2086
		fio $CAL --output="$T/c.json" >/dev/null 2>&1
	else
		# shellcheck disable=SC2086
		"$IOTRIAL" $CAL >"$T/c.json" 2>/dev/null
	fi
	TARGET=$(pyjson "
import json
p = json.load(open('$T/c.json'))['jobs'][0]['read']['lat_ns']['percentile']['90.000000']
print(max(600, int(2 * p / 1000)))" 2>/dev/null) || TARGET=600
	DEVJOB="--name=d --filename=$T/f --size=64m --bs=1m --rw=randread --ioengine=libaio --iodepth=32
        --latency_target=$TARGET --latency_window=150ms --latency_percentile=90 --time_based --runtime=4
        --invalidate=0
        --lat_percentiles=1 --percentile_list=90"
}
# settled FILE: "depth job_runtime p90_of_lat_ns over total" of a json+ run:
# over counts the I/Os whose latency bucket lies above the target ($TARGET,
# +1% for the bucket's width), from the lat_ns bins
settled() {
	pyjson "
import json
j = json.load(open('$1'))['jobs'][0]
r = j['read']
over = sum(v for k, v in r['lat_ns'].get('bins', {}).items() if int(k) > $TARGET * 1010)
print(j['latency_depth'], j['job_runtime'], r['lat_ns'].get('percentile', {}).get('90.000000', 0),
      over, r['total_ios'])"
}
# The job ends once its settled depth met the target once more, with the
# statistics restarted for that last window: the report is then that window's
# I/Os, at least 90% of them within the target (and the bucket error), plus
# the I/Os still in flight when it passed (at most the depth), which complete
# unjudged -- on a loaded machine slowly: a p90 of 12 ms was reported once at
# depth 4 with ASan beside tests/load.sh, so the check counts I/Os over the
# target (json+ bins) rather than reading the p90 -- and the target bound
# the depth below iodepth.  On a loaded machine the settled
# window may fail instead; the search then goes on (as in fio) and the report
# covers every window since the first settle, so the claim is about a run
# whose settled window passed at once: one whose job_runtime is under two
# windows (300 ms; it overruns one window by the time the thread takes to
# notice the end).  Under tests/load.sh (load average 9-13 on 2 CPUs) 7 of 8
# runs were such runs, so a tool gets up to 3; the others are printed.  fio
# keeps the same contract on the same job.  The depth each tool settles at is
# not compared: it follows the latencies each run happens to see, which the
# load moves from run to run (the null job above, whose every depth meets
# the target, is where both tools must agree exactly).
lt_contract() {	# NAME TOOL: up to 3 runs until one settles at once, then the claim
	name=$1 tool=$2 tries=""
	for try in 1 2 3; do
		calibrate "$tool"
		if [ "$tool" = fio ]; then
			# shellcheck disable=SC2086
			fio $DEVJOB --output-format=json+ --output="$T/d.json" >/dev/null 2>&1
		else
			# shellcheck disable=SC2086
			"$IOTRIAL" $DEVJOB --output-format=json+ >"$T/d.json" 2>/dev/null
		fi
		set -- $(settled "$T/d.json")
		[ "${2:-0}" -lt 300 ] && break
		tries="$tries [target $TARGET us: depth $1, ${2:-?} ms, p90 ${3:-?} ns]"
	done
	if [ "${2:-0}" -ge 300 ]; then
		fail "$name" "no run settled at once in 3:$tries"
	elif [ "$1" -lt 32 ] && [ "$2" -ge 140 ] && [ "$5" -gt 0 ] &&
		pyjson "assert $4 <= 0.1 * ($5 - $1) + $1, ($4, $5, $1)" 2>/dev/null; then
		pass "$name (target $TARGET us: depth $1, $2 ms, p90 $3 ns, $4 of $5 I/Os over the target${tries:+; before:$tries})"
	else
		fail "$name" "target $TARGET us: depth $1, runtime $2 ms, p90 $3 ns, $4 of $5 I/Os over the target"
	fi
}
lt_contract latency_target_settled_window_meets_target iotrial
if [ $have_fio -eq 1 ]; then
	lt_contract latency_target_fio_settled_window_meets_target fio
else
	skip latency_target_fio_settled_window_meets_target "fio not installed"
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
