#!/bin/sh
# fio's t/verify.py test 1 (randwrite, then randread): a 512-byte
# time_based randwrite with norandommap, verify_backlog=128 (batch 64),
# libaio at iodepth 32, on a 2 MiB file, then a randread of the same file
# that verifies what it reads.  verify_backlog's read-backs go through the
# job's engine at its depth, as fio's do (worker_verify.c): seen from
# outside, the job's I/Os are submitted at depth > 1 (JSON iodepth_level;
# synchronous read-backs put half of them at depth 1), every read-back is
# checked without a failure, and only what the backlog still held at the end
# (at most backlog + 2 x iodepth blocks) is left unread.  Counts, not times:
# the write phase's coverage of the file depends on the machine's speed, so
# the file is laid out first (one sequential verify pass) and the randread
# then finds no never-written block whatever the speed.  fio 3.33 is the
# control where installed.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1	# fio and iotrial write verify state files (local-JOB-N-verify.state) here
F="$T/verify.0.0"
DIRECT=0
dd if=/dev/zero of="$T/probe" bs=4k count=1 oflag=direct 2>/dev/null && DIRECT=1
rm -f "$T/probe"

phase() {	# TOOL RW [ARGS...]: runs one job on $F, $T/o.json holds its result
	t=$1 rw=$2; shift 2
	if [ "$t" = fio ]; then cmd="timeout -s KILL 60 fio"; else cmd=$IOTRIAL; fi
	# the ARGS last: they override the defaults
	$cmd --name=verify --filename="$F" --fallocate=truncate --ioengine=libaio --rw="$rw" \
		--verify=md5 --direct=$DIRECT --iodepth=32 --filesize=2M --bs=512 --norandommap=1 \
		--output-format=json --output="$T/o.json" "$@" >/dev/null 2>"$T/o.err"
}

# "error write-ios read-ios deep left-ok": deep when under 10% of the I/Os
# were submitted at depth 1; left-ok when 0 <= writes - read-backs <= 192
written() {
	pyjson "
import json
j = json.load(open('$T/o.json'))['jobs'][0]
w, r = j['write']['total_ios'], j['read']['total_ios']
print(j['error'], 'w' if w > 0 else 'no-writes', 'r' if r > 0 else 'no-reads',
      'deep' if j['iodepth_level']['1'] < 10 else 'depth1=%s' % j['iodepth_level']['1'],
      'left-ok' if 0 <= w - r <= 128 + 2 * 32 else 'left=%d' % (w - r))" 2>&1
}

reread() {	# "error read-ios>0"
	pyjson "
import json
j = json.load(open('$T/o.json'))['jobs'][0]
print(j['error'], 'r' if j['read']['total_ios'] > 0 else 'no-reads')" 2>&1
}

tools=iotrial
command -v fio >/dev/null 2>&1 && tools="iotrial fio" || skip verify_randread_fio "fio not installed"
for t in $tools; do
	rm -f "$F"
	phase "$t" write --time_based=0
	got=$(written)
	case "$got" in "0 "*) ;; *) fail "verify_randread_layout_$t" "$got $(head -c 200 "$T/o.err")"; continue ;; esac
	phase "$t" randwrite --time_based=1 --runtime=2 --verify_backlog=128 --verify_backlog_batch=64
	got=$(written)
	# fio 3.33 reads back fewer blocks than it wrote (its backlog skips
	# some under norandommap): its control is the depth and no failure
	[ "$t" = fio ] && got=${got% left*}" left-ok"
	[ "$got" = "0 w r deep left-ok" ] && pass "verify_randread_write_$t ($got)" ||
		fail "verify_randread_write_$t" "got '$got', wanted '0 w r deep left-ok' $(head -c 200 "$T/o.err")"
	phase "$t" randread --time_based=1 --runtime=1 --verify_backlog=128 --verify_backlog_batch=64
	got=$(reread)
	[ "$got" = "0 r" ] && pass "verify_randread_read_$t" ||
		fail "verify_randread_read_$t" "got '$got', wanted '0 r' $(head -c 300 "$T/o.err")"
done
# the same write phase through psync: its read-backs complete inline, at depth 1
rm -f "$F"
phase iotrial randwrite --ioengine=psync --iodepth=1 --time_based=1 --runtime=1 --verify_backlog=128
got=$(pyjson "
import json
j = json.load(open('$T/o.json'))['jobs'][0]
print(j['error'], j['read']['total_ios'] > 0, 0 <= j['write']['total_ios'] - j['read']['total_ios'] <= 130)" 2>&1)
[ "$got" = "0 True True" ] && pass verify_randread_write_psync || fail verify_randread_write_psync "$got"
