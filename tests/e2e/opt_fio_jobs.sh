#!/bin/sh
# Checks from fio's t/jobs (run-fio-tests.py), in seconds, fio as the control
# where installed: each case prints what both tools did.
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1	# fio and iotrial write verify state files (local-JOB-N-verify.state) here
HAVE_FIO=0
command -v fio >/dev/null 2>&1 && HAVE_FIO=1
# kib TOOL ARGS...: read+write KiB and I/O count of the first job
kib() {
	tool=$1; shift
	if [ "$tool" = fio ]; then set -- timeout -s KILL 30 fio "$@"; else set -- "$IOTRIAL" "$@"; fi
	"$@" --output-format=json --output="$T/k.json" >/dev/null 2>&1 || { echo "exit"; return; }
	pyjson "
import json
j = json.load(open('$T/k.json'))['jobs'][0]
print(j['read']['io_kbytes'] + j['write']['io_kbytes'], j['read']['total_ios'] + j['write']['total_ios'])"
}
# both NAME WANT ARGS...: iotrial must give WANT, and so must fio where installed
both() {
	name=$1 want=$2; shift 2
	i=$(kib iotrial "$@")
	f=""
	[ "$HAVE_FIO" = 1 ] && f=$(kib fio "$@")
	if [ "$i" = "$want" ] && { [ "$HAVE_FIO" = 0 ] || [ "$f" = "$want" ]; }; then
		pass "$name ($i${f:+; fio $f})"
	else fail "$name" "iotrial '$i', fio '$f', wanted '$want'"; fi
}

# t0007: sequential holes; a block that does not fit before the end ends the pass
truncate -s 1m "$T/sf"
S="--name=x --filename=$T/sf --size=1m --bs=4k"
# shellcheck disable=SC2086
both holes_end_pass "584 146" $S --rw=read:3k
# shellcheck disable=SC2086
both holes_loops "1168 292" $S --rw=read:3k --loops=2
# shellcheck disable=SC2086
both holes_io_size_wraps "2048 512" $S --rw=read:3k --io_size=2m
# shellcheck disable=SC2086
both holes_exact_end "1024 256" $S --rw=read:4k

# t0028 and verify.py's pattern: fio's decimal pattern items (32-bit signed,
# little endian, as few bytes as needed, a negative one in four; digits end
# where "0x" starts), mixed with strings and hex: the bytes written are fio's
pat() {	# TOOL PATTERN: the first 32 bytes written, as hex
	rm -f "$T/pf"
	if [ "$1" = fio ]; then set -- "$2" timeout -s KILL 20 fio; else set -- "$2" "$IOTRIAL"; fi
	_p=$1; shift
	"$@" --name=p --filename="$T/pf" --size=32 --bs=32 --rw=write --buffer_pattern="$_p" \
		--scramble_buffers=0 --output=/dev/null >/dev/null 2>&1
	od -An -tx1 -N32 "$T/pf" 2>/dev/null | tr -d ' \n'
}
bad=""
for p in '-12|f4ffffff' '"abcd"-120xdeadface|61626364f4ffffffdeadface' '258|0201' '65536|000001' \
	 '120xde|0cde' '"a"0|6100' '2147483647|ffffff7f' '-2147483648|00000080'; do
	want=${p#*|} p=${p%|*}
	got=$(pat iotrial "$p")
	case $got in "$want"*) ;; *) bad="$bad [$p: $got]" ;; esac
	if [ "$HAVE_FIO" = 1 ]; then
		f=$(pat fio "$p")
		[ "$f" = "$got" ] || bad="$bad [$p: fio $f]"
	fi
done
if [ -z "$bad" ]; then pass "pattern_decimal_mixed (8 patterns)"; else fail pattern_decimal_mixed "$bad"; fi
expect_exit pattern_decimal_range 2 "buffer_pattern.*outside 32-bit signed range" \
	"$IOTRIAL" --name=p --ioengine=null --size=4k --buffer_pattern=4294967296

# verify.py's multi-file runs: openfiles=2 of nrfiles=3 keeps two files in
# use, round-robin, and the third starts when one is done (fio's order,
# from both tools' write_iolog); verify_offset with verify=pattern has no
# header to move and is taken, as fio takes it
order() {	# TOOL PREFIX: "file offset" of each write in the iolog
	if [ "$1" = fio ]; then set -- "$2" timeout -s KILL 20 fio; else set -- "$2" "$IOTRIAL"; fi
	_pre=$1; shift
	(cd "$T" && "$@" --name=of --filename_format="$_pre.\$filenum" --nrfiles=3 --openfiles=2 \
		--filesize=16k --bs=4k --rw=write --ioengine=psync --write_iolog="$_pre.log" \
		--output=/dev/null >/dev/null 2>&1)
	awk '$3 == "write" { sub(/.*\./, "", $2); printf "%s:%s ", $2, $4 }' "$T/$_pre.log"
}
want="0:0 1:0 0:4096 1:4096 0:8192 1:8192 0:12288 1:12288 2:0 2:4096 2:8192 2:12288 "
i=$(order iotrial io) f=""
[ "$HAVE_FIO" = 1 ] && f=$(order fio fo)
if [ "$i" = "$want" ] && { [ "$HAVE_FIO" = 0 ] || [ "$f" = "$want" ]; }; then pass openfiles_window
else fail openfiles_window "iotrial '$i', fio '$f'"; fi
check verify_offset_pattern "$IOTRIAL" --name=v --filename="$T/vp" --size=64k --bs=4k --rw=write \
	--verify=pattern --verify_pattern='"abcd"-120xdeadface' --verify_interval=2048 \
	--verify_offset=1024 --output=/dev/null

# verify_state_save.py: a verify_only run reports the writes it stands in for
# in write's total_ios (fio completes them without doing them) and reads back
# each saved block once
V="--name=vs --filename=$T/vsf --filesize=256k --bs=4k --rw=randwrite --verify=crc32c --ioengine=psync"
# shellcheck disable=SC2086
(cd "$T" && "$IOTRIAL" $V --verify_state_save=1 --output-format=json --output="$T/vs1.json" >/dev/null 2>&1 &&
	"$IOTRIAL" $V --verify_state_load=1 --verify_only=1 --output-format=json --output="$T/vs2.json" \
		>/dev/null 2>"$T/vs2.err")
got=$(pyjson "
import json
j = json.load(open('$T/vs2.json'))['jobs'][0]
print(j['write']['total_ios'], j['write']['io_bytes'], j['read']['total_ios'])" 2>/dev/null)
if [ "$got" = "64 262144 64" ]; then pass "verify_only_counts_writes ($got)"
else fail verify_only_counts_writes "write ios/bytes, read ios '$got', wanted '64 262144 64': $(head -c 200 "$T/vs2.err")"; fi
