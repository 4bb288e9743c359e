#!/bin/sh
# ENOSPC while laying out one job's file is that job's error (docs/usage.md,
# "3. Signals and errors"): the other job runs and its results are kept, the failed job reports the
# file and the reason, the exit code is 3 (README: a target could not be
# sized) and the half-made file is removed.  In the text, the
# failed job has no zero-filled block (fio prints none for a job without I/O):
# its error is among iotrial's lines after fio's part.
# Needs root for a small tmpfs.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip layout_errors "not root: cannot mount a small tmpfs"
	exit 0
fi
mkdir "$T/full"
if ! mount -t tmpfs -o size=1m tmpfs "$T/full" 2>/dev/null; then
	skip layout_errors "cannot mount tmpfs"
	exit 0
fi
trap 'umount "$T/full" 2>/dev/null; rm -rf "$T"' EXIT
for kind in new partial; do
	[ $kind = partial ] && dd if=/dev/zero of="$T/full/b" bs=64k count=2 2>/dev/null
	"$IOTRIAL" --name=a --rw=read --size=1m --filename="$T/a" \
		--name=b --rw=read --size=4m --filename="$T/full/b" \
		--output-format=json --output="$T/o.json" 2>"$T/err"
	rc=$?
	if [ $rc -eq 3 ] && pyjson "
import json
d = json.load(open('$T/o.json'))
a, b = d['jobs']
assert a['jobname'] == 'a' and a['error'] == 0 and a['read']['total_ios'] == 256, a['read']
assert b['jobname'] == 'b' and b['error'] == 28 and b['read']['total_ios'] == 0
assert 'No space left on device' in b['iotrial']['first_error'], b['iotrial']
assert '$T/full/b' in b['iotrial']['first_error']
"; then
		pass "layout_enospc_${kind}_keeps_other_job"
	else
		fail "layout_enospc_${kind}_keeps_other_job" "exit $rc: $(head -c 300 "$T/err")"
	fi
	if [ $kind = new ] && [ -e "$T/full/b" ]; then
		fail layout_enospc_new_removed "the half-made file is left"
	elif [ $kind = partial ] && [ "$(stat -c %s "$T/full/b")" != 131072 ]; then
		fail layout_enospc_partial_restored "size $(stat -c %s "$T/full/b"), wanted 131072"
	else
		pass "layout_enospc_${kind}_cleaned"
	fi
done
"$IOTRIAL" --name=a --rw=read --size=1m --filename="$T/a" \
	--name=b --rw=read --size=4m --filename="$T/full/b" >"$T/o.txt" 2>"$T/err"
rc=$?
if [ $rc -eq 3 ] && grep -q '^a: (groupid=0' "$T/o.txt" && ! grep -q '^b: (groupid=' "$T/o.txt" &&
   sed -n '/^iotrial:$/,$p' "$T/o.txt" | grep -q '^  error: 28 (.*No space left on device); no I/O was done'
then pass layout_enospc_text; else fail layout_enospc_text "exit $rc: $(cat "$T/o.txt" "$T/err" | head -c 600)"; fi
