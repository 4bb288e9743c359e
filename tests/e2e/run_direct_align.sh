#!/bin/sh
# direct=1 with a block size the target cannot take: refused before any I/O,
# in one line that names the alignment rule and the size (not a run that
# stops on "Invalid argument").  The alignment is the target's own (statx's
# direct I/O alignment, else a block device's logical block size); a file
# system that gives neither is not checked, and the test skips there.
. "$(dirname "$0")/lib.sh"
f="$T/dio"
"$IOTRIAL" --name=probe --rw=read --bs=4k --size=64k --direct=1 --filename="$f" \
	--output-format=terse >/dev/null 2>"$T/err"
if [ $? -ne 0 ]; then
	skip direct_align "direct=1 does not work on $T: $(head -c 200 "$T/err")"
	exit 0
fi
"$IOTRIAL" --name=x --rw=read --bs=1000 --size=64k --direct=1 --filename="$f" >"$T/out" 2>"$T/err"
rc=$?
if [ $rc -eq 0 ] && ! grep -q 'Invalid argument' "$T/out"; then
	skip direct_align "$T's file system takes unaligned direct I/O (no alignment to check)"
	exit 0
fi
if [ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
   grep -qE "^iotrial: error: .*dio: job x: direct=1 needs every I/O aligned to [0-9]+ bytes \(this target's direct I/O alignment\), but the read block size 1000 is not a multiple of [0-9]+" "$T/err" &&
   [ ! -s "$T/out" ]
then pass direct_align_bs; else fail direct_align_bs "rc $rc: $(cat "$T/err") $(grep -m2 'Invalid' "$T/out")"; fi
# a write block size of a bs=R,W pair is checked too, and a multiple passes
expect_exit direct_align_write 2 "the write block size 6000 is not a multiple of" \
	"$IOTRIAL" --name=x --rw=randrw --bs=4k,6000 --size=64k --direct=1 --filename="$f"
"$IOTRIAL" --name=x --rw=read --bs=8k --size=64k --direct=1 --filename="$f" --output-format=terse \
	>/dev/null 2>"$T/err" && pass direct_align_ok || fail direct_align_ok "$(cat "$T/err")"
