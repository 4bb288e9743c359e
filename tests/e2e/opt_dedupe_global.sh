#!/bin/sh
# dedupe_global=1 (buffer.h): the working sets of dedupe_mode=working_set are
# shared by the run's threads, as in dedupe-global.fio: two jobs a and b
# write 16 MiB each (4k, dedupe 50%, set 50%).  The written files are hashed
# block by block, for iotrial and fio 3.33 on the same job: alone no block is
# common to a and b; shared, ~1300 of a's distinct blocks are b's and each
# file alone has ~2700 distinct blocks instead of ~2050, while the two
# together still have ~4090 (fio: 2037 -> 2664, 1264 common, 4086).
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1
cat >"$T/dd.py" <<'PY'
import sys, hashlib
bs = 4096
def blocks(f):
    d = open(f, 'rb').read()
    return [hashlib.md5(d[i * bs:(i + 1) * bs]).digest() for i in range(len(d) // bs)]
a, b = set(blocks('a.0.0')), set(blocks('b.0.0'))
# distinct in a, in b, in both files together, common to the two
print(len(a), len(b), len(a | b), len(a & b))
PY
J="--name=global --ioengine=psync --size=16m --dedupe_mode=working_set --dedupe_percentage=50
   --blocksize=4k --rw=write --buffer_compress_percentage=50 --dedupe_working_set_percentage=50"
count() {	# TOOL GLOBAL
	rm -f a.0.0 b.0.0
	# shellcheck disable=SC2086
	if [ "$1" = fio ]; then timeout -s KILL 60 fio $J --dedupe_global=$2 --name=a --name=b >/dev/null 2>&1
	else "$IOTRIAL" $J --dedupe_global=$2 --name=a --name=b >/dev/null 2>&1; fi
	python3 "$T/dd.py"
}
i0=$(count iotrial 0)
i1=$(count iotrial 1)
if pyjson "
a0, b0, u0, c0 = map(int, '$i0'.split()); a1, b1, u1, c1 = map(int, '$i1'.split())
assert c0 == 0 and 1900 < a0 < 2200 and 1900 < b0 < 2200, ('$i0')
assert 1100 < c1 < 1500 and 2500 < a1 < 2900 and 2500 < b1 < 2900 and 4000 < u1 <= 4096, ('$i1')"
then pass "dedupe_global ($i0 -> $i1)"
else fail dedupe_global "alone $i0, shared $i1"; fi
if command -v fio >/dev/null 2>&1; then
	f1=$(count fio 1)
	if pyjson "
a = list(map(int, '$i1'.split())); b = list(map(int, '$f1'.split()))
assert all(abs(x - y) < 0.06 * y for x, y in zip(a, b)), (a, b)"
	then pass "dedupe_global_as_fio ($i1; fio $f1)"
	else fail dedupe_global_as_fio "iotrial $i1, fio $f1"; fi
else
	skip dedupe_global_as_fio "fio not installed"
fi
ex="${SHARED:-}/spec/fio-examples/dedupe-global.fio"
if [ -f "$ex" ]; then
	if "$IOTRIAL" --parse-only "$ex" >/dev/null 2>"$T/err"; then pass dedupe_global_example_parses
	else fail dedupe_global_example_parses "$(cat "$T/err")"; fi
fi
if "$IOTRIAL" --cmdhelp=dedupe_global | grep -q "shared"; then pass dedupe_global_cmdhelp
else fail dedupe_global_cmdhelp "$("$IOTRIAL" --cmdhelp=dedupe_global 2>&1)"; fi
