#!/bin/sh
# What fio's t/strided.py checks for zonemode=strided, in seconds, fio as
# the control where installed: every offset of the iops log lies in the
# current zone (zones of zonerange bytes, zonesize bytes of I/O each, back to
# offset= after the last zone of a region clamped to filesize=); with the
# random map, or random_generator=lfsr, each block of a zone is done once per
# pass over it (zonesize above zonerange: several passes, each complete).
. "$(dirname "$0")/lib.sh"
# zcheck TOOL ZR ZS SIZE IO [opts...]: "ok" or the first violation
zcheck() {
	tool=$1 zr=$2 zs=$3 size=$4 io=$5; shift 5
	off=0
	for a in "$@"; do case $a in --offset=*) off=${a#--offset=} ;; esac; done
	if [ "$tool" = fio ]; then set -- timeout -s KILL 60 fio "$@"; else set -- "$IOTRIAL" "$@"; fi
	# fio, the control, now and then leaves no log: once in a full suite
	# run, and in CI with "fio: failed initializing LFSR" and exit 0 twice
	# in a row (--randrepeat=0 draws a new seed each run).  A run that leaves
	# none is tried again, up to 5 runs, and its exit status and stderr go
	# into the failure
	for try in 1 2 3 4 5; do
		rm -f "$T"/z_iops.1.log
		(cd "$T" && "$@" --name=z --zonemode=strided --log_offset=1 --randrepeat=0 --rw=randread \
			--write_iops_log=z --output="$T/z.out" --zonerange="$zr" --zonesize="$zs" --bs=4096 \
			--ioengine=null --size="$size" --io_size="$io" --filesize="$size" >/dev/null 2>"$T/z.err")
		rc=$?
		[ -s "$T/z_iops.1.log" ] && break
	done
	if [ ! -s "$T/z_iops.1.log" ]; then
		echo "no log after $try runs: exit $rc: $(head -c 200 "$T/z.err")"
		return
	fi
	mapped=1
	case " $* " in *norandommap*) case " $* " in *lfsr*) ;; *) mapped=0 ;; esac ;; esac
	pyjson "
zr, zs, fsz, off, mapped = $zr, $zs, $size, $off, $mapped
per_size, per_range = zs // 4096, zr // 4096
start, n, seen, bad, lines = off, 0, set(), None, 0
for line in open('$T/z_iops.1.log'):
    lines += 1
    if n == per_size:
        n, seen, start = 0, set(), start + zr
        if start >= fsz:
            start = off
    n += 1
    o = int(line.split(',')[4])
    if not start <= o < start + zr:
        bad = 'offset %d outside the zone at %d' % (o, start); break
    if mapped:
        b = (o - start) // 4096
        if b in seen:
            bad = 'offset %d repeated in its zone pass' % o; break
        seen.add(b)
        if n % per_range == 0:
            if len(seen) != per_range:
                bad = '%d blocks in a pass, wanted %d' % (len(seen), per_range); break
            seen = set()
print(bad or ('ok' if lines == $io // 4096 else '%d I/Os' % lines))" 2>&1 | tail -1
}
M=1048576
HAVE_FIO=0
command -v fio >/dev/null 2>&1 && HAVE_FIO=1
bad=""
for c in "4096 4096 65536 65536 --offset=32768" "4096 16384 65536 65536" "65536 262144 1048576 1048576" \
	 "65536 16384 1048576 1048576" "65536 65536 1048576 1048576 --random_generator=lfsr" \
	 "32768 65536 1048576 1048576 --random_generator=lfsr" \
	 "4096 4096 65536 65536 --norandommap=1 --offset=32768" "$((2 * M)) $((M)) $((8 * M)) $((4 * M))"; do
	# shellcheck disable=SC2086
	r=$(zcheck iotrial $c)
	[ "$r" = ok ] || bad="$bad [$c: $r]"
	if [ "$HAVE_FIO" = 1 ]; then
		# shellcheck disable=SC2086
		f=$(zcheck fio $c)
		[ "$f" = ok ] || bad="$bad [fio $c: $f]"
	fi
done
if [ -z "$bad" ]; then pass "strided_zones_and_map (8 layouts, fio as control: $HAVE_FIO)"
else fail strided_zones_and_map "$bad"; fi
