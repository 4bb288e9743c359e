#!/bin/sh
# An engine's option is checked against the engine its section ends with
# (fio 3.33): donorname in a [global] with ioengine=e4defrag is inherited,
# and dropped by a job that switches to libaio (e4defrag2.fio); the same
# option set in a job, or in a [global] of another engine, is refused.  Each
# case is run through fio too and both must agree on accept/refuse.
. "$(dirname "$0")/lib.sh"
F="$T/data"
JOB="rw=read\nsize=1m\nfilename=$F\n"
have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1

# case NAME WANT(0 accept, 2 refuse) JOBFILE-TEXT
case_file() {
	name=$1 want=$2
	printf "$3" >"$T/$name.fio"
	"$IOTRIAL" --parse-only "$T/$name.fio" >/dev/null 2>"$T/err"
	rc=$?
	if [ $rc -ne "$want" ]; then
		fail "$name" "iotrial exit $rc, wanted $want: $(cat "$T/err")"; return
	fi
	if [ "$want" -eq 2 ] && ! grep -qE "^iotrial: error: job '[a-z]+' \($T/$name.fio:[0-9]+\): option 'donorname' belongs to ioengine e4defrag, not (libaio|psync)$" "$T/err"; then
		fail "$name" "message: $(cat "$T/err")"; return
	fi
	if [ $have_fio -eq 1 ]; then
		fio --parse-only "$T/$name.fio" >/dev/null 2>&1
		frc=$?
		if [ $((frc == 0)) -ne $((want == 0)) ]; then
			fail "$name" "fio exit $frc, iotrial $rc"; return
		fi
	fi
	pass "$name"
}
case_file global_engine_inherited_dropped 0 "[global]\nioengine=e4defrag\ndonorname=x\n[a]\nioengine=libaio\n$JOB"
case_file global_other_engine_refused 2 "[global]\ndonorname=x\n[a]\nioengine=libaio\n$JOB"
case_file job_own_refused 2 "[a]\nioengine=libaio\ndonorname=x\n$JOB"
case_file job_own_switched_refused 2 "[a]\nioengine=e4defrag\ndonorname=x\nioengine=libaio\n$JOB"

# the dropped option is gone from the job (showcmd), not silently used
out=$(printf "[global]\nioengine=e4defrag\ndonorname=x\n[a]\nioengine=libaio\n$JOB" >"$T/d.fio" &&
      "$IOTRIAL" --showcmd "$T/d.fio" 2>&1)
case "$out" in
*donorname*) fail global_engine_dropped_showcmd "$out" ;;
*ioengine=libaio*) pass global_engine_dropped_showcmd ;;
*) fail global_engine_dropped_showcmd "$out" ;;
esac

# the command line: globals before --name, checked against their engine
expect_exit cmdline_global_refused 2 "^iotrial: error: job 'global' \(command line\): option 'donorname' belongs to ioengine e4defrag, not psync$" \
	"$IOTRIAL" --parse-only --donorname=x --name=a --ioengine=libaio --rw=read --size=1m
if "$IOTRIAL" --parse-only --ioengine=e4defrag --donorname=x --name=a --ioengine=libaio \
	--rw=read --size=1m >/dev/null 2>"$T/err"; then pass cmdline_global_inherited
else fail cmdline_global_inherited "$(cat "$T/err")"; fi
if [ $have_fio -eq 1 ]; then
	fio --parse-only --donorname=x --name=a --ioengine=libaio --rw=read --size=1m >/dev/null 2>&1
	a=$?
	fio --parse-only --ioengine=e4defrag --donorname=x --name=a --ioengine=libaio --rw=read \
		--size=1m >/dev/null 2>&1
	b=$?
	[ $a -ne 0 ] && [ $b -eq 0 ] && pass cmdline_fio_agrees || fail cmdline_fio_agrees "fio $a $b"
fi
