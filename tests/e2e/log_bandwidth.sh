#!/bin/sh
# --bandwidth-log (fio's t0030): agg-read_bw.log, agg-write_bw.log and
# agg-trim_bw.log in the current directory, "msec, KiB/s, ddir, 0, 0" per
# line, every 500 ms and at the end.  fio is the control: same names, same
# columns, and a line count within 2 of fio's (fio samples with its status
# display: --eta=always here, and JSON output, which adds its final line).
. "$(dirname "$0")/lib.sh"
HAVE_FIO=0
command -v fio >/dev/null 2>&1 && HAVE_FIO=1
run() {	# TOOL: in $T/TOOL, t0030's job with a write job beside it
	d="$T/$1"; mkdir -p "$d"
	if [ "$1" = fio ]; then set -- timeout -s KILL 60 fio --eta=always; else set -- "$IOTRIAL"; fi
	(cd "$d" && "$@" --bandwidth-log --output-format=json --output=o.json \
		--name=test --ioengine=null --filesize=1T --rw=read --time_based --runtime=2s \
		--name=w --ioengine=null --size=1g --rw=randwrite --bs=8k --time_based --runtime=2s \
		>/dev/null 2>"$d/err")
}
# shape DIR: per file "name lines", then whether every line is 5 integer
# columns with the file's ddir, and whether KiB/s x window adds up to the
# JSON's KiB (within 10%: the windows' edges)
shape() {
	pyjson "
import json, os, re
d = '$1'
out, ok, sums = [], True, {}
for k, name in enumerate(('read', 'write', 'trim')):
    p = os.path.join(d, 'agg-%s_bw.log' % name)
    if not os.path.exists(p):
        out.append(name + ' missing'); ok = False; continue
    rows = [l.rstrip('\n') for l in open(p) if l.strip()]
    out.append('%s %d' % (name, len(rows)))
    prev, kib = 0, 0.0
    for r in rows:
        m = re.fullmatch(r'(\d+), (\d+), (\d), 0, 0', r)
        if not m or int(m.group(3)) != k:
            ok = False; break
        kib += int(m.group(2)) * (int(m.group(1)) - prev) / 1000.0
        prev = int(m.group(1))
    sums[name] = kib
j = json.load(open(os.path.join(d, 'o.json')))['jobs']
tot = {n: sum(x[n]['io_kbytes'] for x in j) for n in ('read', 'write')}
adds = all(abs(sums.get(n, 0) - tot[n]) <= 0.1 * tot[n] for n in tot if tot[n])
print(' '.join(out), 'columns' if ok else 'bad-lines', 'adds-up' if adds else
      'sums:' + ','.join('%s=%d/%d' % (n, sums.get(n, 0), tot[n]) for n in tot))"
}
run iotrial
i=$(shape "$T/iotrial")
case $i in *"columns adds-up") pass "bandwidth_log_files ($i)" ;;
*) fail bandwidth_log_files "$i; $(head -c 200 "$T/iotrial/err")" ;; esac
if [ "$HAVE_FIO" = 1 ]; then
	if run fio; then
		f=$(shape "$T/fio")
		# the same names and columns; line counts within 2 of fio's
		# (fio's own windows need not add up: its sampling is its display's)
		if python3 -c "
import sys
a, b = sys.argv[1].split(), sys.argv[2].split()
sys.exit(0 if a[0:6:2] == b[0:6:2] and b[6] == 'columns' and
         all(abs(int(x) - int(y)) <= 2 for x, y in zip(a[1:6:2], b[1:6:2])) else 1)" "$i" "$f"; then
			pass "bandwidth_log_as_fio (iotrial: $i; fio: $f)"
		else fail bandwidth_log_as_fio "iotrial: $i; fio: $f"; fi
	else skip bandwidth_log_as_fio "fio failed or hung: $(head -c 200 "$T/fio/err")"; fi
fi
# -b is fio's short form; the files are outputs, so a block device is refused
(cd "$T" && rm -f agg-*_bw.log && "$IOTRIAL" -b --name=x --ioengine=null --size=64k --output=/dev/null)
[ -f "$T/agg-read_bw.log" ] && [ -f "$T/agg-trim_bw.log" ] && pass bandwidth_log_short ||
	fail bandwidth_log_short "no agg-*_bw.log after -b"
