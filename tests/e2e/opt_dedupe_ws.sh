#!/bin/sh
# dedupe_mode=working_set, dedupe_working_set_percentage (buffer.h): the
# written blocks are hashed and the dedupe counted, for iotrial and fio 3.33
# on the same jobs: about half the blocks are duplicates (dedupe_percentage=50),
# and with working_set every duplicate copies one of the first
# dedupe_working_set_percentage% of size's blocks (10%: ~409 originals, all
# early in the file), where repeat copies the previous unique write.
. "$(dirname "$0")/lib.sh"
F="$T/d"
cat >"$T/dd.py" <<'PY'
import sys, hashlib
d = open(sys.argv[1], 'rb').read()
bs = 4096
first, orig = {}, set()
for i in range(len(d) // bs):
    k = hashlib.md5(d[i * bs:(i + 1) * bs]).digest()
    if k in first:
        orig.add(first[k])
    else:
        first[k] = i
# blocks, distinct blocks, last original copied, originals copied
print(len(d) // bs, len(first), max(orig) if orig else -1, len(orig))
PY
J="--name=d --filename=$F --size=16m --bs=4k --rw=write --ioengine=psync --dedupe_percentage=50"
count() {	# TOOL ARGS...
	tool=$1; shift
	rm -f "$F"
	if [ "$tool" = fio ]; then timeout -s KILL 60 fio "$@" >/dev/null 2>&1; else "$IOTRIAL" "$@" >/dev/null 2>&1; fi
	python3 "$T/dd.py" "$F"
}
# shellcheck disable=SC2086
i=$(count iotrial $J --dedupe_mode=working_set --dedupe_working_set_percentage=10)
# 4096 blocks, ~2048 distinct, every copied original among the first ~2 x 409
if pyjson "
n, u, last, o = map(int, '$i'.split())
assert n == 4096 and 1900 < u < 2200 and last < 900 and 370 < o <= 410, (n, u, last, o)"; then
	pass "dedupe_working_set ($i)"
else fail dedupe_working_set "$i"; fi
# shellcheck disable=SC2086
r=$(count iotrial $J --dedupe_mode=repeat)
if pyjson "
n, u, last, o = map(int, '$r'.split())
assert n == 4096 and 1900 < u < 2200 and last > 3000, (n, u, last, o)"; then pass "dedupe_repeat ($r)"
else fail dedupe_repeat "$r"; fi
if command -v fio >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	f=$(count fio $J --dedupe_mode=working_set --dedupe_working_set_percentage=10)
	if pyjson "
a = list(map(int, '$i'.split())); b = list(map(int, '$f'.split()))
assert a[0] == b[0] and abs(a[1] - b[1]) < 0.05 * b[1] and abs(a[3] - b[3]) < 0.05 * b[3] \
	and abs(a[2] - b[2]) < 0.1 * b[2], (a, b)"; then pass "dedupe_working_set_as_fio ($i; fio $f)"
	else fail dedupe_working_set_as_fio "iotrial $i, fio $f"; fi
else
	skip dedupe_working_set_as_fio "fio not installed"
fi
expect_exit dedupe_ws_needs_size 2 "dedupe_mode=working_set needs size=" \
	"$IOTRIAL" --parse-only --name=d --filename="$F" --dedupe_percentage=50 --dedupe_mode=working_set
