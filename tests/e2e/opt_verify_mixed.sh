#!/bin/sh
# verify= on mixed jobs (rw, randrw), as fio 3.33 does it: the job's own
# reads are not checked, the blocks it wrote are read back after the run
# (each once), do_verify=0 and time_based skip that pass.  Both count the
# read-backs in read.total_ios (reads + blocks written = the region's 256
# blocks); iotrial also reports them in iotrial.verify.blocks.  A preloaded
# pread() that corrupts one byte of one offset shows which reads are checked,
# in both tools.
. "$(dirname "$0")/lib.sh"
F="$T/vf"
JOB="--name=v --filename=$F --size=1m --bs=4k --ioengine=psync --verify=crc32c"
SHIM_SRC=$(cd "$(dirname "$0")/../data" && pwd)/pread_corrupt.c
cd "$T" || exit 1	# fio leaves its verify state file in the current directory
have_fio=0
command -v fio >/dev/null 2>&1 && have_fio=1

# run TOOL ARGS...: "exit reads writes" (+ " blocks end_pass" for iotrial)
run() {
	tool=$1; shift
	rm -f "$F"
	# shellcheck disable=SC2086
	$PRE "$tool" $JOB "$@" --output-format=json >"$T/o.json" 2>"$T/err"
	rc=$?
	echo "$rc $(pyjson "
import json
s = open('$T/o.json').read()
j = json.loads(s[s.index('{'):])['jobs'][0]
v = j.get('iotrial', {}).get('verify')
print(j['read']['total_ios'], j['write']['total_ios'], *([v['blocks'], v['end_pass']] if v else []))" 2>&1)"
}

PRE=
for rw in randrw rw; do
	set -- $(run "$IOTRIAL" --rw=$rw)
	if [ "$1" = 0 ] && [ "$2" = 256 ] && [ "$4" = "$3" ] && [ "$5" = True ]; then
		pass "verify_${rw}_written_blocks"
	else fail "verify_${rw}_written_blocks" "$* $(cat "$T/err")"; fi
	if [ $have_fio = 1 ]; then
		set -- $(run fio --rw=$rw)
		# fio: the job's reads plus one read-back per written block
		[ "$1" = 0 ] && [ "$2" = 256 ] && [ "$3" -gt 0 ] && pass "verify_${rw}_fio" ||
			fail "verify_${rw}_fio" "$*"
	fi
done
set -- $(run "$IOTRIAL" --rw=randrw --do_verify=0)
[ "$1" = 0 ] && [ "$4" = 0 ] && [ "$5" = False ] && pass verify_mixed_do_verify_0 ||
	fail verify_mixed_do_verify_0 "$*"
if [ $have_fio = 1 ]; then
	set -- $(run fio --rw=randrw --do_verify=0)
	[ $(($2 + $3)) = 256 ] && pass verify_mixed_do_verify_0_fio || fail verify_mixed_do_verify_0_fio "$*"
fi
set -- $(run "$IOTRIAL" --rw=randrw --time_based --runtime=300ms)
[ "$1" = 0 ] && [ "$3" -gt 256 ] && [ "$4" = 0 ] && [ "$5" = False ] &&
	pass verify_mixed_time_based_no_pass || fail verify_mixed_time_based_no_pass "$*"
# with verify_backlog the checks run while the job does: every write once
set -- $(run "$IOTRIAL" --rw=randrw --verify_backlog=16 --verify_backlog_batch=4)
[ "$1" = 0 ] && [ "$2" = 256 ] && [ "$4" = "$3" ] && pass verify_mixed_backlog ||
	fail verify_mixed_backlog "$*"
if [ $have_fio = 1 ]; then
	set -- $(run fio --rw=randrw --verify_backlog=16 --verify_backlog_batch=4)
	[ "$2" = 256 ] && pass verify_mixed_backlog_fio || fail verify_mixed_backlog_fio "$*"
fi

# which reads are checked: a pread() shim flips the byte at 8292 of $F
if command -v cc >/dev/null 2>&1 &&
   cc -shared -fPIC -o "$T/shim.so" "$SHIM_SRC" -ldl 2>"$T/cc"
then
	export CORRUPT_FILE="$F" CORRUPT_OFF=8292
	# under SANITIZE=1 the shim is loaded before ASan's runtime: let it be
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	for tool in iotrial fio; do
		[ $tool = fio ] && [ $have_fio = 0 ] && continue
		bin=$IOTRIAL; [ $tool = fio ] && bin=fio
		# only reads (rwmixread=100): nothing written, nothing checked, no failure
		head -c 1048576 /dev/urandom >"$F"
		# shellcheck disable=SC2086
		LD_PRELOAD="$T/shim.so" "$bin" $JOB --rw=randrw --rwmixread=100 >/dev/null 2>"$T/err"
		rc=$?
		[ $rc = 0 ] && pass "verify_mixed_reads_unchecked_$tool" ||
			fail "verify_mixed_reads_unchecked_$tool" "exit $rc $(head -c 200 "$T/err")"
		# only writes (rwmixread=0): the read-back of 8192 is corrupted
		rm -f "$F"
		# shellcheck disable=SC2086
		LD_PRELOAD="$T/shim.so" "$bin" $JOB --rw=randrw --rwmixread=0 >/dev/null 2>"$T/err"
		rc=$?
		if { [ $tool = iotrial ] && [ $rc = 8 ] && grep -q "crc32c mismatch at offset 8192 in $F" "$T/err"; } ||
		   { [ $tool = fio ] && [ $rc != 0 ] && grep -q "verify failed at file $F offset 8192" "$T/err"; }
		then pass "verify_mixed_written_checked_$tool"
		else fail "verify_mixed_written_checked_$tool" "exit $rc $(head -c 300 "$T/err")"; fi
	done
	unset CORRUPT_FILE CORRUPT_OFF
else
	skip verify_mixed_shim "cannot build the pread shim: $(cat "$T/cc" 2>/dev/null)"
fi

# reads and writes of two sizes (no random map then, as in fio): each 8k block
# written is read back once, however often it was written (the log's offsets)
set -- $(run "$IOTRIAL" --rw=randrw --bs=4k,8k --write_lat_log="$T/two" --log_offset=1)
distinct=$(awk -F, '$3 == 1 { print $5 }' "$T/two_lat.1.log" | sort -u | wc -l)
[ "$1" = 0 ] && [ "$4" = "$distinct" ] && [ "$4" -gt 0 ] && [ "$5" = True ] &&
	pass verify_mixed_two_sizes || fail verify_mixed_two_sizes "$* distinct=$distinct"
# norandommap: a block written twice is read back once
set -- $(run "$IOTRIAL" --rw=randrw --norandommap)
[ "$1" = 0 ] && [ "$4" -lt "$3" ] && [ "$4" -gt 0 ] && [ "$5" = True ] && pass verify_mixed_norandommap ||
	fail verify_mixed_norandommap "$*"
# a job that only reads checks what it reads (surface-scan's verify phase, opt_fill_device.sh)
if "$IOTRIAL" --parse-only --name=v --rw=randread --verify=md5 --size=1m >"$T/out" 2>"$T/err"; then
	pass verify_read_only_parses
else
	fail verify_read_only_parses "exit $?: $(head -c 300 "$T/err")"
fi
expect_exit verify_trim_only 2 "verify needs rw=read, randread, write, randwrite, rw or randrw" \
	"$IOTRIAL" --parse-only --name=v --rw=randtrim --verify=md5 --size=1m
