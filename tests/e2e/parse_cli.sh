#!/bin/sh
# --version, --help, --cmdhelp, --showcmd, --readonly and the accepted inputs.
# check-fast: parse-level (--parse-only, --cmdhelp, --showcmd, usage errors)
. "$(dirname "$0")/lib.sh"
D=$(cd "$(dirname "$0")/../data/jobs" && pwd)
VERSION=$(cat "$(dirname "$0")/../../VERSION")

# expect_out NAME WANT CMD...: exit 0, nothing on stderr, stdout exactly WANT.
expect_out() {
	name=$1 want=$2; shift 2
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" -ne 0 ]; then fail "$name" "exit $rc: $(head -c 300 "$T/err")"
	elif [ -s "$T/err" ]; then fail "$name" "stderr: $(head -c 300 "$T/err")"
	elif [ "$(cat "$T/out")" != "$want" ]; then fail "$name" "got: $(cat "$T/out")"
	else pass "$name"; fi
}

# tools test for "fio-3..." (fio's form); iotrial's own version follows, and the
# git revision when built from a checkout
for v in --version -v; do
	"$IOTRIAL" $v >"$T/out" 2>"$T/err"
	if [ $? -eq 0 ] && [ ! -s "$T/err" ] &&
	   grep -qxE "fio-3\.33 \(iotrial $VERSION(, git [0-9a-f]+(-dirty)?)?\)" "$T/out"; then
		pass "version$v"
	else
		fail "version$v" "got: $(cat "$T/out" "$T/err")"
	fi
done

"$IOTRIAL" --help >"$T/out" 2>"$T/err"
if [ $? -eq 0 ] && grep -q '^usage: iotrial' "$T/out" && grep -q '  2  bad option' "$T/out" &&
   grep -q '  4  refused' "$T/out" && grep -q '  70  internal' "$T/out" &&
   grep -q '^  compare ' "$T/out" && grep -q '^  ab ' "$T/out" && [ ! -s "$T/err" ]; then
	pass help
else
	fail help "$(head -c 300 "$T/out" "$T/err")"
fi

"$IOTRIAL" --cmdhelp=bs >"$T/out" 2>"$T/err"
if [ $? -eq 0 ] && grep -q '^bs: ' "$T/out" && grep -q 'default: 4096' "$T/out"; then pass cmdhelp_one
else fail cmdhelp_one "$(cat "$T/out" "$T/err")"; fi
"$IOTRIAL" --cmdhelp >"$T/out" 2>"$T/err"
if [ $? -eq 0 ] && grep -q '^iodepth ' "$T/out" && grep -q '^steadystate ' "$T/out"; then pass cmdhelp_all
else fail cmdhelp_all "$(head -c 300 "$T/out" "$T/err")"; fi
expect_exit cmdhelp_unknown 2 "^iotrial: error: unknown option 'nope'$" "$IOTRIAL" --cmdhelp=nope

# --showcmd prints resolved values, only where they differ from the defaults
expect_out showcmd_seed \
	"iotrial --name=randrw --size=10737418240 --rw=randrw --ioengine=null --iodepth=32 --runtime=600000000us --time_based --numjobs=4" \
	"$IOTRIAL" --showcmd --name=randrw --rw=randrw --bs=4k --iodepth=32 --size=10G --numjobs=4 --runtime=600 --time_based --ioengine=null
expect_out showcmd_file \
	"iotrial --name=randrw --size=10737418240 --rw=randrw --ioengine=null --iodepth=32 --runtime=600000000us --time_based --numjobs=4" \
	"$IOTRIAL" --showcmd "$D/seed.fio"
expect_out showcmd_values \
	"iotrial --name=v --rw=randread:8 --bs=4096,65536,65536 --ioengine=null --ramp_time=1500000us --rate_iops=1024" \
	"$IOTRIAL" --showcmd --ioengine=null --name=v --rw=randread:8 --bs=4k,64k --ramp_time=1500ms --rate_iops=1k
expect_out showcmd_kib_quirk \
	"iotrial --name=q --size=4000000 --bs=8192 --ioengine=null --kb_base=1000" \
	"$IOTRIAL" --showcmd --ioengine=null --name=q --size=4MiB --kb_base=1000 --bs=8KiB
expect_out showcmd_two_jobs "$(printf 'iotrial --name=a --ioengine=null --iodepth=4\niotrial --name=b --bs=8192 --ioengine=null --iodepth=4')" \
	"$IOTRIAL" --showcmd --ioengine=null --iodepth=4 --name=a --name=b --bs=8k

# --showcmd output is itself a command line that gives the same jobs
line=$("$IOTRIAL" --showcmd "$D/seed.fio" | sed 's/^iotrial //')
# shellcheck disable=SC2086
again=$("$IOTRIAL" --showcmd $line)
[ "iotrial $line" = "$again" ] && pass showcmd_round_trip || fail showcmd_round_trip "$again"

# accepted inputs
expect_out parse_only_ok "" "$IOTRIAL" --parse-only --ioengine=null --name=x --rw=randrw --bs=4k --iodepth=32 --size=10G --numjobs=4 --runtime=600 --time_based
expect_out parse_only_file "" "$IOTRIAL" --parse-only "$D/seed.fio"
expect_out parse_only_include "" "$IOTRIAL" --parse-only "$D/include-main.fio"
expect_out include_values "iotrial --name=inc --bs=16384 --ioengine=null --iodepth=8" "$IOTRIAL" --showcmd "$D/include-main.fio"
expect_out separate_values "iotrial --name=sv --bs=8192 --ioengine=null" "$IOTRIAL" --showcmd --name sv --bs 8k --ioengine null
expect_out arithmetic "iotrial --name=ar --bs=8192 --ioengine=null --iodepth=16" "$IOTRIAL" --showcmd --ioengine=null --name=ar '--bs=(1+1)*4k' '--iodepth=(2^4)'

# --readonly refuses writers at parse time, naming the job and rw
expect_exit readonly_write 4 "^iotrial: error: job 'w' \(command line\) has rw=randwrite, which writes or trims: refused by --readonly$" \
	"$IOTRIAL" --parse-only --readonly --ioengine=null --name=r --name=w --rw=randwrite
expect_exit readonly_file 4 "job 'randrw' \(.*seed.fio:11\) has rw=randrw" "$IOTRIAL" --readonly --parse-only "$D/seed.fio"
expect_out readonly_read "" "$IOTRIAL" --parse-only --readonly --ioengine=null --name=r --rw=randread

# a failed write to stdout is an error, not a success
if [ -w /dev/full ]; then
	expect_exit stdout_full 7 "cannot write to standard output" sh -c "\"$IOTRIAL\" --help >/dev/full"
else
	skip stdout_full "no /dev/full"
fi
