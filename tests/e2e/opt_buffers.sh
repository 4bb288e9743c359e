#!/bin/sh
# Write-buffer contents (buffer.h) against fio 3.33 on the same job: the data
# each writes is compressed with zlib and cut into 4 KiB blocks; the
# compression ratio and the share of distinct blocks must agree within a
# tolerance (the bytes differ: each tool has its own generator).  Without fio
# the expected values from the options themselves are checked.
. "$(dirname "$0")/lib.sh"
HAVE_FIO=0
command -v fio >/dev/null 2>&1 && fio --version 2>/dev/null | grep -q '^fio-3' && HAVE_FIO=1

cat >"$T/an.py" <<'PY'
import os, sys, zlib
for f in sys.argv[1:]:
    if not os.path.exists(f):
        continue
    d = open(f, 'rb').read()
    b = [d[i:i + 4096] for i in range(0, len(d), 4096)]
    print("%.3f %.3f" % (len(zlib.compress(d, 6)) / len(d), len(set(b)) / len(b)), end=" ")
print()
PY

# case NAME RATIO UNIQUE TOL OPTS...: iotrial's ratio and unique share within
# TOL of RATIO/UNIQUE, and of fio's when fio is here
case_() {
	name=$1 want_r=$2 want_u=$3 tol=$4; shift 4
	rm -f "$T/bf"
	if ! "$IOTRIAL" --name=x --filename="$T/bf" --size=2m --rw=write "$@" >"$T/out" 2>"$T/err"; then
		fail "$name" "iotrial: $(head -c 300 "$T/err")"; return
	fi
	theirs=""
	rm -f "$T/ff"
	if [ $HAVE_FIO = 1 ] && [ "$WITH_FIO" = 1 ]; then
		fio --name=x --filename="$T/ff" --size=2m --rw=write "$@" >"$T/fout" 2>&1
	fi
	set -- $(python3 "$T/an.py" "$T/bf" "$T/ff")
	ours="$1 $2"
	[ $# -eq 4 ] && theirs="$3 $4"
	if python3 -c "
import sys
o = [float(x) for x in '$ours'.split()]
w = [$want_r, $want_u]
t = '$theirs'.split()
ok = all(abs(a - b) <= $tol for a, b in zip(o, w))
if t:
    ok = ok and all(abs(a - float(b)) <= $tol for a, b in zip(o, t))
sys.exit(0 if ok else 1)
"; then pass "$name (iotrial $ours, fio ${theirs:-absent})"
	else fail "$name" "iotrial ratio/unique $ours, wanted $want_r $want_u, fio ${theirs:-absent}"; fi
}

# fio's default: one random fill, scrambled per write: every block distinct.
# fio (0.3 s a start) runs beside us for the three cases that differ most.
WITH_FIO=1
case_ default 0.02 1.0 0.03
case_ compress70_chunk4k 0.305 1.0 0.03 --buffer_compress_percentage=70 --buffer_compress_chunk=4k
case_ dedupe50 0.5 0.5 0.06 --dedupe_percentage=50
WITH_FIO=0
case_ refill 1.0 1.0 0.02 --refill_buffers
case_ zero 0.0 0.0 0.01 --zero_buffers
case_ compress50 0.51 1.0 0.03 --buffer_compress_percentage=50

# the pattern is written as given: 0x bytes, then "text"
rm -f "$T/bf"
"$IOTRIAL" --name=x --filename="$T/bf" --size=64k --rw=write --buffer_pattern='0xdead"ab"' >/dev/null 2>&1
if [ "$(head -c 8 "$T/bf" | od -An -tx1 | tr -d ' \n')" = "dead6162dead6162" ]; then pass pattern_bytes
else fail pattern_bytes "$(head -c 8 "$T/bf" | od -An -tx1)"; fi
expect_exit pattern_file 2 "unsupported value ''f'' for option 'buffer_pattern': a pattern read from a file" \
	"$IOTRIAL" --parse-only --name=x --buffer_pattern="'f'"
