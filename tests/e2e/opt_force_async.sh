#!/bin/sh
# force_async=N (io_uring): every Nth submission carries IOSQE_ASYNC, so the
# kernel hands it to an io-wq worker instead of trying it inline.  What the
# kernel does differs: reads of a cached file complete inline without it, and
# with it io-wq worker threads (iou-wrk-*) appear among the process's tasks,
# counted from /proc while a job runs (fio 3.33 beside it, where installed:
# the same).  What the job does does not: the same reads, the same bytes.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
if engine_refused io_uring; then
	skip force_async "$REFUSED_WHY"
	exit 0
fi
dd if=/dev/zero of=f bs=1M count=4 2>/dev/null
cat f >/dev/null	# cached: an inline read never waits

# iou-wrk tasks of PID seen while it runs, sampled every 0.1 s for ~1.5 s
count_wq() {
	_max=0 _i=0
	while [ $_i -lt 15 ] && kill -0 "$1" 2>/dev/null; do
		_n=$(cat /proc/"$1"/task/*/comm 2>/dev/null | grep -c '^iou-wrk')
		[ "$_n" -gt "$_max" ] && _max=$_n
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "$_max"
}
wq_during() {	# PROG FORCE: the most io-wq workers seen during a 2 s job (a thread: fio forks a process otherwise)
	"$1" --name=fa --filename=f --size=4m --rw=read --bs=4k --ioengine=io_uring --iodepth=8 \
		--force_async="$2" --thread --time_based --runtime=2 --output-format=json >/dev/null 2>"$T/wq.err" &
	_pid=$!
	sleep 0.3
	count_wq $_pid
	wait $_pid
}

on=$(wq_during "$IOTRIAL" 1)
off=$(wq_during "$IOTRIAL" 0)
if [ "$on" -gt 0 ] && [ "$off" -eq 0 ]; then
	pass force_async_punts
elif [ "$off" -gt 0 ]; then	# a file system without non-blocking reads punts them all
	skip force_async_punts "io-wq workers even without force_async here ($off): $T's file system punts reads anyway"
else
	fail force_async_punts "iou-wrk tasks: force_async=1 $on, force_async=0 $off (want >0 and 0): $(head -c 200 "$T/wq.err")"
fi

# the same I/O: 1024 reads of 4 KiB either way, and with every 4th forced
ios() {
	"$IOTRIAL" --name=fa --filename=f --size=4m --rw=read --bs=4k --ioengine=io_uring \
		--iodepth=8 --force_async="$1" --output-format=json 2>"$T/ios.err" |
		pyjson "import json,sys; r=json.load(sys.stdin)['jobs'][0]['read']; print(r['total_ios'], r['io_bytes'])"
}
a=$(ios 0) b=$(ios 1) c=$(ios 4)
if [ "$a" = "1024 4194304" ] && [ "$b" = "$a" ] && [ "$c" = "$a" ]; then
	pass force_async_same_io
else
	fail force_async_same_io "ios/bytes: 0: '$a', 1: '$b', 4: '$c': $(head -c 200 "$T/ios.err")"
fi

# a value is a count: refused when it is not one; under another engine it belongs to io_uring
expect_exit force_async_bad_value 2 "force_async" "$IOTRIAL" --name=x --ioengine=io_uring \
	--force_async=x --size=4k --filename=f --parse-only
expect_exit force_async_other_engine 2 "force_async.*io_uring" "$IOTRIAL" --name=x \
	--ioengine=psync --force_async=1 --size=4k --filename=f --parse-only

if command -v fio >/dev/null 2>&1; then
	fon=$(wq_during fio 1)
	if [ "$fon" -gt 0 ]; then
		pass force_async_fio_control
	else
		fail force_async_fio_control "fio 3.33 showed no iou-wrk task with force_async=1 either"
	fi
else
	skip force_async_fio_control "fio is not installed"
fi
