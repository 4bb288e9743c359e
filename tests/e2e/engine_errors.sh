#!/bin/sh
# An I/O error names the operation, file, offset and the error's text, for
# every engine (io_uring and libaio once gave only "errno 5").
# The error: O_DIRECT 4 KiB reads at 512-byte aligned offsets (blockalign=512)
# on a loop device with 4 KiB sectors (EINVAL per misaligned I/O), whose
# message also names the alignment rule.  A block size the device cannot
# align (bs=512) is refused before any I/O.  Needs root for the loop device.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null 2>&1 || [ ! -e /dev/loop-control ]; then
	skip engine_errors "needs root and losetup for a loop device with 4 KiB sectors"
	exit 0
fi
truncate -s 16M "$T/img"
if ! L=$(losetup --sector-size 4096 --find --show "$T/img" 2>/dev/null); then
	skip engine_errors "losetup --sector-size 4096 is not supported here"
	exit 0
fi
trap 'losetup -d "$L" 2>/dev/null; rm -rf "$T"' EXIT
for eng in psync io_uring libaio; do
	"$IOTRIAL" --name=x --rw=randread --bs=4k --blockalign=512 --direct=1 --size=1m \
		--ioengine=$eng --filename="$L" --output-format=json >"$T/out" 2>"$T/err"
	rc=$?
	line=$(grep "stopped on error" "$T/err")
	case "$line" in
	*"read on $L at offset "*", length 4096: Invalid argument (direct=1: offset, length and buffer must be multiples of 4096 bytes"*)
		if [ $rc -eq 1 ]; then pass "engine_error_$eng"; else fail "engine_error_$eng" "exit $rc, wanted 1"; fi ;;
	*) fail "engine_error_$eng" "exit $rc: $(head -c 300 "$T/err")" ;;
	esac
	got=$(pyjson "import json; print(json.load(open('$T/out'))['jobs'][0]['iotrial']['first_error'])" 2>&1)
	case "$got" in
	*"offset"*"Invalid argument (direct=1: "*"4096 bytes"*) pass "engine_error_${eng}_json" ;;
	*) fail "engine_error_${eng}_json" "first_error: $got" ;;
	esac
done
# a block size the device cannot align: refused when the file is opened, exit 2
expect_exit engine_error_align_refused 2 "direct=1 needs every I/O aligned to 4096 bytes \(this target's direct I/O alignment\), but the read block size 512 is not a multiple of 4096" \
	"$IOTRIAL" --name=x --rw=randread --bs=512 --direct=1 --size=1m --filename="$L"
