#!/bin/sh
# verify=meta and crc64, verify_backlog and verify_backlog_batch (verify.h,
# worker_verify.c): blocks are checked while the job writes, when N writes
# are pending, the oldest batch of them (cross-stripe-verify.fio's
# rw=write:112k holes included); every written block is checked once, as
# fio 3.33 does, whatever the batch.  fio 3.33 accepts the same jobs.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1	# fio and iotrial write verify state files (local-JOB-N-verify.state) here
F="$T/v"
JOB="--name=v --filename=$F --size=1m --bs=4k --rw=write --ioengine=psync"

blocks() {	# ARGS...: "exit blocks writes failures"
	rm -f "$F"
	# shellcheck disable=SC2086
	"$IOTRIAL" $JOB "$@" --output-format=json >"$T/o.json" 2>"$T/err"
	rc=$?
	echo "$rc $(pyjson "
import json
j = json.load(open('$T/o.json'))['jobs'][0]
v = j['iotrial']['verify']
print(v['blocks'], j['write']['total_ios'], v['failures'])" 2>/dev/null)"
}

for m in meta crc64; do
	got=$(blocks --verify=$m --verify_pattern=0xaa555aa5 --verify_interval=512)
	if [ "$got" = "0 2048 256 0" ]; then pass "verify_$m"; else fail "verify_$m" "$got $(cat "$T/err")"; fi
done
# every write checked once, while writing (also through libaio at depth 8)
got=$(blocks --verify=crc32c --verify_backlog=1)
[ "$got" = "0 256 256 0" ] && pass verify_backlog_1 || fail verify_backlog_1 "$got"
got=$(blocks --verify=crc32c --verify_backlog=16 --ioengine=libaio --iodepth=8)
[ "$got" = "0 256 256 0" ] && pass verify_backlog_16_libaio || fail verify_backlog_16_libaio "$got"
# batch 4 or 32 of every 16: fio 3.33 still checks every written block once
# (the oldest pending first; the end pass takes the rest), whatever its HOWTO says
for b in 4 32; do
	got=$(blocks --verify=crc32c --verify_backlog=16 --verify_backlog_batch=$b)
	[ "$got" = "0 256 256 0" ] && pass "verify_backlog_batch_$b" || fail "verify_backlog_batch_$b" "$got"
	if command -v fio >/dev/null 2>&1; then
		rm -f "$F"
		# shellcheck disable=SC2086
		fio $JOB --verify=crc32c --verify_backlog=16 --verify_backlog_batch=$b \
			--output-format=json >"$T/f.json" 2>&1
		# fio counts its read-backs as reads: 256 when each block is read once
		fr=$(pyjson "import json; print(json.load(open('$T/f.json'))['jobs'][0]['read']['total_ios'])" 2>&1)
		[ "$fr" = 256 ] && pass "verify_backlog_batch_${b}_fio" || fail "verify_backlog_batch_${b}_fio" "fio read $fr"
	fi
done
# cross-stripe-verify.fio's shape: 16k written every 128k, two loops
got=$(blocks --verify=crc32c --verify_backlog=1 --bs=16k --rw=write:112k --loops=2)
[ "$got" = "0 128 128 0" ] && pass verify_backlog_holes || fail verify_backlog_holes "$got"

if command -v fio >/dev/null 2>&1; then
	for a in "--verify=meta --verify_pattern=0xaa555aa5 --verify_interval=512" \
		 "--verify=crc64" "--verify=crc32c --verify_backlog=16 --verify_backlog_batch=4"; do
		rm -f "$F"
		# shellcheck disable=SC2086
		if fio $JOB $a --output-format=json >"$T/f.json" 2>&1 &&
		   [ "$(pyjson "import json; print(json.load(open('$T/f.json'))['jobs'][0]['error'])")" = 0 ]
		then pass "fio_accepts_$(echo "$a" | cut -d' ' -f1-2 | tr -c 'a-z0-9\n' _)"
		else fail "fio_accepts $a" "$(head -c 200 "$T/f.json")"; fi
	done
else
	skip fio_accepts "fio not installed"
fi
expect_exit verify_backlog_bad 2 "^iotrial: error: .*verify_backlog" \
	"$IOTRIAL" --parse-only $JOB --verify=crc32c --verify_backlog=lots

# verify.py's runtime: a write job's backlog read-backs have a read runtime,
# the time they took (fio 3.33: read's and write's runtimes add up to the
# job's), never 0 ms beside 16384 reads; fio is the control
rt() {	# TOOL: "read-ios read-runtime>0 read+write-runtime=job_runtime" (fio's sum
	# is off by up to 2 ms here, each runtime rounded on its own: 3 ms or 2% allowed)
	if [ "$1" = fio ]; then set -- timeout -s KILL 60 fio; else set -- "$IOTRIAL"; fi
	"$@" --name=rt --filename="$T/rt" --size=64m --bs=4k --rw=randwrite --verify=crc32c \
		--verify_backlog=16 --ioengine=psync --output-format=json --output="$T/rt.json" \
		>/dev/null 2>&1 || { echo exit; return; }
	pyjson "
import json
j = json.load(open('$T/rt.json'))['jobs'][0]
r, w = j['read']['runtime'], j['write']['runtime']
print(j['read']['total_ios'], r > 0 and j['read']['bw'] > 0,
      abs(r + w - j['job_runtime']) <= max(3, 0.02 * j['job_runtime']))"
}
i=$(rt iotrial)
[ "$i" = "16384 True True" ] && pass "backlog_read_runtime ($i)" || fail backlog_read_runtime "got '$i'"
if command -v fio >/dev/null 2>&1; then
	f=$(rt fio)
	[ "$f" = "16384 True True" ] && pass "backlog_read_runtime_fio ($f)" || fail backlog_read_runtime_fio "fio '$f'"
fi
rm -f "$T/rt"
