#!/bin/sh
# verify= end to end: a clean write+verify passes and reports every block; a
# byte corrupted between the write (do_verify=0) and a verify_only run is
# found, named (offset, expected, found) and exits 8; fio 3.33 accepts the
# same verify job.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1	# fio and iotrial write verify state files (local-JOB-N-verify.state) here
F="$T/vf"
JOB="--name=v --filename=$F --size=1m --bs=4k --rw=randwrite --ioengine=libaio --iodepth=8"

for m in md5 crc32c sha256 xxhash; do
	rm -f "$F"
	# shellcheck disable=SC2086
	"$IOTRIAL" $JOB --verify=$m --output-format=json >"$T/ok.json" 2>"$T/err"
	rc=$?
	if [ $rc -eq 0 ] && pyjson "
import json
j = json.load(open('$T/ok.json'))['jobs'][0]
v = j['iotrial']['verify']
assert v['method'] == '$m' and v['blocks'] == 256 and v['bytes'] == 1 << 20, v
assert v['failures'] == 0 and v['first_failure'] is None and j['error'] == 0, v
# the read-back is counted in read, as fio counts it (fio's t0005 asserts it)
assert j['write']['io_bytes'] == 1 << 20 and j['read']['io_bytes'] == 1 << 20, j['read']
assert j['read']['total_ios'] == 256 and j['read']['clat_ns']['N'] == 256, j['read']
assert j['read']['runtime'] <= j['job_runtime'], (j['read']['runtime'], j['job_runtime'])
" 2>"$T/py"; then pass "verify_clean_$m"
	else fail "verify_clean_$m" "exit $rc: $(cat "$T/err" "$T/py")"; fi
done

# corrupt one byte of the block at 12288 between the writes and the check
rm -f "$F"
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --verify=crc32c --do_verify=0 >/dev/null 2>&1
printf 'Z' | dd of="$F" bs=1 seek=$((12288 + 700)) conv=notrunc 2>/dev/null
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --verify=crc32c --verify_only --output-format=json >"$T/bad.json" 2>"$T/err"
rc=$?
if [ $rc -eq 8 ] && grep -q "verify: crc32c mismatch at offset 12288 in $F: expected [0-9a-f]\{8\}, found [0-9a-f]\{8\}" "$T/err" &&
   pyjson "
import json
j = json.load(open('$T/bad.json'))['jobs'][0]
v = j['iotrial']['verify']
assert v['failures'] == 1 and v['failure_offset'] == 12288, v
assert 'offset 12288' in v['first_failure'] and j['error'] == 84, (v, j['error'])
assert j['write']['io_bytes'] == 1 << 20, 'verify_only counts the writes it stands in for, as fio 3.33'
" 2>"$T/py"; then pass verify_corruption_found
else fail verify_corruption_found "exit $rc: $(cat "$T/err" "$T/py")"; fi

# the text report says it too
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --verify=crc32c --verify_only >"$T/bad.txt" 2>/dev/null
if grep -q "verify       : crc32c, 4 blocks (16384 bytes) checked, 1 failed: crc32c mismatch at offset 12288" "$T/bad.txt"
then pass verify_text; else fail verify_text "$(grep verify "$T/bad.txt")"; fi

# verify_only on a read job (rw=read: what a read-back job usually says) checks
# the region too: it used to check nothing, as the job's own reads (which
# verify_only skips) were meant to do it; fio 3.33 finds the corruption
expect_exit verify_only_read_job 8 "verify: crc32c mismatch at offset 12288 in $F" \
	"$IOTRIAL" --name=v --filename="$F" --size=1m --bs=4k --rw=read --verify=crc32c --verify_only

# verify=pattern: the bytes themselves, the first differing byte named
rm -f "$F"
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --verify=pattern --verify_pattern=0x5a --do_verify=0 >/dev/null 2>&1
printf 'Q' | dd of="$F" bs=1 seek=5000 conv=notrunc 2>/dev/null
# shellcheck disable=SC2086
expect_exit verify_pattern_found 8 "pattern mismatch at offset 5000 in .*: expected 0x5a, found 0x51" \
	"$IOTRIAL" $JOB --verify=pattern --verify_pattern=0x5a --verify_only

# norandommap: blocks written twice are read back once (fio keeps the newest of
# overlapping writes), blocks never written are not read; variable sizes are refused
rm -f "$F"
"$IOTRIAL" --name=v --filename="$F" --size=1m --io_size=2m --rw=randwrite --norandommap \
	--verify=md5 --output-format=json >"$T/nrm.json" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && pyjson "
import json
j = json.load(open('$T/nrm.json'))['jobs'][0]
r, w, v = j['read'], j['write'], j['iotrial']['verify']
assert w['total_ios'] == 512 and v['failures'] == 0, (w, v)
assert r['total_ios'] == v['blocks'] and 200 < r['total_ios'] < 256, (r['total_ios'], v)
" 2>"$T/py"; then pass verify_norandommap
else fail verify_norandommap "exit $rc: $(cat "$T/err" "$T/py")"; fi
expect_exit verify_norandommap_sizes 2 "verify with norandommap needs one block size" \
	"$IOTRIAL" --parse-only --name=v --rw=randwrite --norandommap --verify=md5 --size=1m --bsrange=4k-16k
# verify_async=N (fio's offload threads) checks the same blocks, inline, and still
# finds a corrupted one
rm -f "$F"
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --verify=crc32c --do_verify=0 >/dev/null 2>&1
printf 'Z' | dd of="$F" bs=1 seek=$((12288 + 700)) conv=notrunc 2>/dev/null
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --verify=crc32c --verify_only --verify_async=4 --output-format=json >"$T/va.json" 2>"$T/err"
rc=$?
if [ $rc -eq 8 ] && pyjson "
import json
v = json.load(open('$T/va.json'))['jobs'][0]['iotrial']['verify']
assert v['failures'] == 1 and v['failure_offset'] == 12288, v
" 2>"$T/py"; then pass verify_async_same_check
else fail verify_async_same_check "exit $rc: $(head -c 300 "$T/err") $(cat "$T/py")"; fi
rm -f "$F"
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --verify=md5 --verify_async=4 --output-format=json >"$T/va.json" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && pyjson "
import json
v = json.load(open('$T/va.json'))['jobs'][0]['iotrial']['verify']
assert v['blocks'] == 256 and v['failures'] == 0, v
" 2>"$T/py"; then pass verify_async_clean
else fail verify_async_clean "exit $rc: $(head -c 300 "$T/err") $(cat "$T/py")"; fi
if command -v fio >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	if (fio $JOB --verify=crc32c --verify_fatal=1 --parse-only) >/dev/null 2>&1; then pass verify_fio_accepts
	else fail verify_fio_accepts "fio refuses the job this test uses"; fi
fi

# continue_on_error=verify: two bad blocks, both named on stderr, counted
# (verify.failures, total_err), fio's err=84 on the text's job line, exit 8
# all the same; verify_fatal=1 still stops at the first; `check` says the
# errors were let pass, not that the job ended early
rm -f "$F"
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --verify=crc32c --do_verify=0 >/dev/null 2>&1
printf 'Z' | dd of="$F" bs=1 seek=$((12288 + 700)) conv=notrunc 2>/dev/null
printf 'ZZZZ' | dd of="$F" bs=1 seek=$((40960 + 28)) conv=notrunc 2>/dev/null
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --verify=crc32c --verify_only --continue_on_error=verify >"$T/coe.out" 2>/dev/null
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --verify=crc32c --verify_only --continue_on_error=verify --output-format=json \
	>"$T/coe.json" 2>"$T/err"
rc=$?
if [ $rc -eq 8 ] && [ "$(grep -c '^iotrial: verify: ' "$T/err")" -eq 2 ] &&
   grep -q "^iotrial: verify: header byte mismatch at offset 40960 in $F: expected 0x00 at header byte 28, found 0x5a (job 'v')" "$T/err" &&
   grep -q "^iotrial: job 'v': verify found 2 bad blocks of 256 checked" "$T/err" &&
   grep -q "^v: (groupid=0, jobs=1): err=84 ()" "$T/coe.out" &&
   pyjson "
import json
j = json.load(open('$T/coe.json'))['jobs'][0]
v = j['iotrial']['verify']
assert v['failures'] == 2 and v['blocks'] == 256 and v['failure_offset'] == 12288, v
assert j['total_err'] == 2 and j['error'] == 84, j['total_err']
" 2>"$T/py"; then pass verify_coe_names_every_bad_block
else fail verify_coe_names_every_bad_block "exit $rc: $(head -c 400 "$T/err") $(cat "$T/py")"; fi
# shellcheck disable=SC2086
"$IOTRIAL" $JOB --verify=crc32c --verify_only --continue_on_error=verify --verify_fatal=1 \
	--output-format=json >"$T/vf.json" 2>"$T/err"
rc=$?
if [ $rc -eq 8 ] && pyjson "
import json
v = json.load(open('$T/vf.json'))['jobs'][0]['iotrial']['verify']
assert v['failures'] == 1 and v['failure_offset'] == 12288, v
" 2>"$T/py"; then pass verify_coe_fatal_stops_at_first
else fail verify_coe_fatal_stops_at_first "exit $rc: $(head -c 300 "$T/err") $(cat "$T/py")"; fi
"$IOTRIAL" check "$T/coe.json" >"$T/chk" 2>&1
if grep -q "\[job_error\] job v had 2 errors under continue_on_error (the first: error 84)" "$T/chk" &&
   ! grep -q "ended with error" "$T/chk"
then pass verify_coe_check_wording
else fail verify_coe_check_wording "$(grep job_error "$T/chk")"; fi

# A job named after a path (fio's t/zbd names each job /dev/X): its state file
# is local-.dev.X-N-verify.state in --aux-path, '/' escaped to '.' as fio does,
# and the job runs clean (it used to stop on a state path that does not exist)
mkdir -p "$T/aux"
"$IOTRIAL" --aux-path="$T/aux" --name="$T/slash" --filename="$T/vs" --size=64k --bs=4k \
	--rw=write --verify=md5 >"$T/slash.out" 2>&1
rs=$?
want="local-$(echo "$T/slash" | tr / .)-0-verify.state"
if [ "$rs" = 0 ] && [ -f "$T/aux/$want" ] && ! grep -q "err= *[1-9]" "$T/slash.out"; then
	pass verify_state_name_escapes_slash
else fail verify_state_name_escapes_slash "exit $rs, aux: $(ls "$T/aux"), $(grep -m1 error "$T/slash.out")"; fi
if command -v fio >/dev/null 2>&1; then
	rm -rf "$T/faux" && mkdir -p "$T/faux"
	fio --aux-path="$T/faux" --name="$T/slash" --filename="$T/vs" --size=64k --bs=4k \
		--rw=write --verify=md5 >/dev/null 2>&1
	if [ -f "$T/faux/$want" ]; then pass verify_state_name_as_fio
	else fail verify_state_name_as_fio "fio wrote: $(ls "$T/faux")"; fi
fi
