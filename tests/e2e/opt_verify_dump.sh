#!/bin/sh
# verify_dump=1: on a verify failure both tools write the block read back and
# the block expected to <file>.<offset>.received / .expected in the current
# directory and say so.  A preloaded pread() flips byte 100 of the block at
# 8192 as it is read back (the file itself stays intact).  iotrial rebuilds the
# expected block exactly (it then differs from .received in that one byte and
# equals the block on disk); fio's .expected carries new header times, so only
# its name, size and the flipped byte are compared.
. "$(dirname "$0")/lib.sh"
SHIM_SRC=$(cd "$(dirname "$0")/../data" && pwd)/pread_corrupt.c
cd "$T" || exit 1
F="$T/vf"
# no verify state file (fio's default writes local-v-0-verify.state): the dump files alone
JOB="--name=v --filename=$F --size=64k --bs=4k --ioengine=psync --rw=write --verify=crc32c --verify_state_save=0"
if ! command -v cc >/dev/null 2>&1 ||
   ! cc -shared -fPIC -o "$T/shim.so" "$SHIM_SRC" -ldl 2>"$T/cc"; then
	skip verify_dump "cannot build the pread shim: $(cat "$T/cc" 2>/dev/null)"
	exit 0
fi
export CORRUPT_FILE="$F" CORRUPT_OFF=8292
# under SANITIZE=1 the shim is loaded before ASan's runtime: let it be
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# dumped TOOL: run it with verify_dump=1 in a fresh directory $T/d.TOOL
dumped() {
	rm -rf "$T/d.$1" "$F"; mkdir "$T/d.$1"
	bin=$IOTRIAL; [ "$1" = fio ] && bin=fio
	# shellcheck disable=SC2086
	(cd "$T/d.$1" && LD_PRELOAD="$T/shim.so" "$bin" $JOB --verify_dump=1 >/dev/null 2>"$T/err.$1")
}

dumped iotrial
rc=$?
D="$T/d.iotrial"
if [ $rc = 8 ] && grep -q "received data dumped as vf.8192.received, expected data dumped as vf.8192.expected" "$T/err.iotrial" &&
   [ "$(ls "$D" | tr '\n' ' ')" = "vf.8192.expected vf.8192.received " ] &&
   [ "$(wc -c <"$D/vf.8192.received")" = 4096 ] && [ "$(wc -c <"$D/vf.8192.expected")" = 4096 ]
then pass verify_dump_files
else fail verify_dump_files "exit $rc: $(cat "$T/err.iotrial") files: $(ls "$D")"; fi
# the one byte flipped, and the expected block is the one on disk
dd if="$F" bs=4096 skip=2 count=1 2>/dev/null >"$T/disk"
if [ "$(cmp -l "$D/vf.8192.received" "$D/vf.8192.expected" 2>/dev/null | awk '{print $1}' | tr '\n' ' ')" = "101 " ] &&
   cmp -s "$T/disk" "$D/vf.8192.expected"
then pass verify_dump_contents
else fail verify_dump_contents "$(cmp -l "$D/vf.8192.received" "$D/vf.8192.expected" | head -5)"; fi

# verify_dump=0 (the default): no files
rm -rf "$T/d0" "$F"; mkdir "$T/d0"
# shellcheck disable=SC2086
(cd "$T/d0" && LD_PRELOAD="$T/shim.so" "$IOTRIAL" $JOB >/dev/null 2>&1)
[ -z "$(ls "$T/d0")" ] && pass verify_dump_off || fail verify_dump_off "$(ls "$T/d0")"

if command -v fio >/dev/null 2>&1; then
	dumped fio
	rc=$?
	D="$T/d.fio"
	dd if="$F" bs=4096 skip=2 count=1 2>/dev/null >"$T/disk"	# what fio wrote there
	if [ $rc != 0 ] && grep -q "received data dumped as vf.8192.received" "$T/err.fio" &&
	   grep -q "expected data dumped as vf.8192.expected" "$T/err.fio" &&
	   [ "$(wc -c <"$D/vf.8192.received")" = 4096 ] && [ "$(wc -c <"$D/vf.8192.expected")" = 4096 ] &&
	   [ "$(cmp -l "$T/disk" "$D/vf.8192.received" | awk '{print $1}' | tr '\n' ' ')" = "101 " ]
	then pass verify_dump_fio_same_names
	else fail verify_dump_fio_same_names "exit $rc: $(head -c 300 "$T/err.fio") $(ls "$D")"; fi
else
	skip verify_dump_fio "fio not installed"
fi
# shellcheck disable=SC2086
expect_exit verify_dump_bad 2 "^iotrial: error: invalid value .maybe. for option .verify_dump." "$IOTRIAL" --parse-only $JOB --verify_dump=maybe
if "$IOTRIAL" --cmdhelp=verify_dump | grep -q "received"; then pass verify_dump_cmdhelp
else fail verify_dump_cmdhelp "$("$IOTRIAL" --cmdhelp=verify_dump 2>&1)"; fi
