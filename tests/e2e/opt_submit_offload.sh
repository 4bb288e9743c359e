#!/bin/sh
# io_submit_mode=offload (fio's fixed-rate-submission.fio and
# poisson-rate-submission.fio, shortened to 2 s on a scratch file): the job
# runs at the requested rate_iops, linear or poisson, with libaio and io_uring;
# fio 3.33 gives the same rate with psync (fio 3.33 hangs in offload mode with
# libaio and null here, so its async engines are not compared).  How the
# schedule is kept under a slow device is test_worker_offload's (fake clock).
. "$(dirname "$0")/lib.sh"
F="$T/f"
dd if=/dev/zero of="$F" bs=1M count=16 2>/dev/null
iops() { pyjson "import json; print(round(json.load(open('$1'))['jobs'][0]['read']['iops']))"; }
# At rate_iops=1000 a job can never do more than the rate (+1%), but a loaded
# machine delays the submitting thread and the run ends behind its schedule:
# 964 IOPS under tests/load.sh (3.6% short), and under 900 once beside two
# whole test suites and a chroot's build (the fresh-machine check running
# with CI).  The lower bound is 700: a rate applied twice (500) or not at
# all (tens of thousands) still fails.
near_rate() { [ "$1" -ge 700 ] && [ "$1" -le 1010 ]; }

for eng in libaio io_uring; do
	"$IOTRIAL" --name=fixed --filename="$F" --size=16m --rw=read --ioengine=$eng --iodepth=32 \
		--io_submit_mode=offload --rate_iops=1000 --runtime=2 --time_based \
		--output-format=json >"$T/i.json" 2>"$T/err"
	rc=$?
	if [ $rc -eq 0 ] && got=$(iops "$T/i.json") && near_rate "$got"; then
		pass "offload_fixed_rate_$eng"
	else
		fail "offload_fixed_rate_$eng" "exit $rc, iops ${got:-?}: $(head -c 200 "$T/err")"
	fi
done

# poisson at 50/s for 2 s: 100 arrivals expected (sd 10)
"$IOTRIAL" --name=poisson --filename="$F" --size=16m --rw=randread --ioengine=libaio --iodepth=32 \
	--io_submit_mode=offload --rate_iops=50 --rate_process=poisson --runtime=2 --time_based \
	--output-format=json >"$T/p.json" 2>"$T/err"
n=$(pyjson "import json; print(json.load(open('$T/p.json'))['jobs'][0]['read']['total_ios'])" 2>/dev/null)
if [ -n "$n" ] && [ "$n" -ge 60 ] && [ "$n" -le 140 ]; then pass offload_poisson_rate
else fail offload_poisson_rate "total_ios ${n:-?}: $(head -c 200 "$T/err")"; fi

# fio side by side, with the engine fio 3.33 runs offload with
if command -v fio >/dev/null 2>&1; then
	for tool in fio iotrial; do
		if [ $tool = fio ]; then cmd="timeout -s KILL 30 fio"; else cmd=$IOTRIAL; fi
		$cmd --name=fixed --filename="$F" --size=16m --rw=read --ioengine=psync \
			--io_submit_mode=offload --rate_iops=1000 --runtime=2 --time_based \
			--output-format=json --output="$T/$tool.json" >/dev/null 2>&1
	done
	# a hung fio's job runs in a process of its own, which timeout's KILL of
	# the parent leaves behind: end it too
	pkill -9 -f -- "fio --name=fixed --filename=$F " 2>/dev/null
	a=$(iops "$T/fio.json" 2>/dev/null) b=$(iops "$T/iotrial.json" 2>/dev/null)
	# each at the rate, as above (two runs, one after the other: compared
	# with each other, the load of each moment would be)
	if [ -n "$a" ] && [ -n "$b" ] && near_rate "$a" && near_rate "$b"; then
		pass "offload_psync_vs_fio ($b vs fio $a)"
	else fail offload_psync_vs_fio "iotrial ${b:-?}, fio ${a:-?}"; fi
else
	skip offload_psync_vs_fio "fio not installed"
fi

expect_exit offload_posixaio_refused 2 "io_submit_mode=offload is not supported with ioengine posixaio" \
	"$IOTRIAL" --parse-only --name=x --filename="$F" --ioengine=posixaio --io_submit_mode=offload
expect_exit submit_mode_bad 2 "^iotrial: error: .*'sideways'.*io_submit_mode" \
	"$IOTRIAL" --parse-only --name=x --filename="$F" --io_submit_mode=sideways
