#!/bin/sh
# zonemode=strided (zone.h): the offsets iotrial issues (its latency log with
# log_offset=1) are fio 3.33's (its write_iolog), I/O for I/O, for zones with
# and without zonerange/zoneskip, zonesize above and below zonerange, a
# zonerange that does not divide the file, and a block size that does not
# divide the zone (fio lets zones run past size= to the file's end and reads
# EOF at a zone starting exactly there; iotrial wraps at the region end: those
# cases are left out).  Random I/O stays
# inside the current zone.  An unknown mode is refused by name (zbd: opt_zbd.sh).
. "$(dirname "$0")/lib.sh"
F="$T/z"
dd if=/dev/zero of="$F" bs=1M count=1 2>/dev/null
base="--name=z --filename=$F --size=1m --ioengine=psync --zonemode=strided"

offsets_iotrial() {	# ARGS...: one offset per line
	(cd "$T" && "$IOTRIAL" $base "$@" --write_lat_log=il --log_offset=1 >/dev/null 2>&1) &&
		awk -F', ' '{print $5}' "$T/il_lat.1.log"
}

n=0
for args in "--rw=read --bs=4k --zonesize=16k --zoneskip=32k" \
	    "--rw=read --bs=4k --zonesize=16k --zonerange=64k --zoneskip=32k" \
	    "--rw=read --bs=4k --zonesize=64k --zonerange=16k" \
	    "--rw=write --bs=4k --zonesize=16k --zoneskip=20k" \
	    "--rw=read --bs=4k --zonesize=16k --zonerange=40k" \
	    "--rw=read --bs=8k --zonesize=12k --zonerange=16k"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	offsets_iotrial $args >"$T/i.off"
	if command -v fio >/dev/null 2>&1; then
		rm -f "$T/log"
		# shellcheck disable=SC2086
		fio $base $args --write_iolog="$T/log" >/dev/null 2>&1
		awk '$3 == "read" || $3 == "write" { print $4 }' "$T/log" >"$T/f.off"
		if [ -s "$T/f.off" ] && cmp -s "$T/f.off" "$T/i.off"; then
			pass "zone_offsets_as_fio_$n ($(wc -l <"$T/i.off") I/Os)"
		else
			fail "zone_offsets_as_fio_$n" "$args: fio $(head -8 "$T/f.off" | tr '\n' ' ')... iotrial $(head -8 "$T/i.off" | tr '\n' ' ')..."
		fi
	else
		skip "zone_offsets_as_fio_$n" "fio not installed"
	fi
done

# random: 4 I/Os in each 64k zone (16k done in it), always inside that zone
offsets_iotrial --rw=randread --bs=4k --zonesize=16k --zonerange=64k >"$T/r.off"
if awk '{ z = int((NR - 1) / 4) % 16; if ($1 < z * 65536 || $1 + 4096 > (z + 1) * 65536) bad++ }
	END { exit !(NR == 256 && !bad) }' "$T/r.off"; then pass zone_random_inside_zone
else fail zone_random_inside_zone "$(head -12 "$T/r.off" | tr '\n' ' ')"; fi

expect_exit zonemode_unknown 2 "^iotrial: error: .*'zoned'.*not one of none, strided, zbd" \
	"$IOTRIAL" --parse-only $base --rw=read --zonemode=zoned
expect_exit zonemode_strided_needs_size 2 "zonemode=strided needs zonesize" \
	"$IOTRIAL" --parse-only --name=z --filename="$F" --size=1m --zonemode=strided
# zonesize with zonemode=none, or alone (fio 3.33's zonemode defaults to
# none), is refused as fio refuses it, not silently ignored; the messages
# quote fio's (its t/zbd tests 40 and 44 grep for them)
expect_exit zonemode_none_with_zonesize 2 "fio: --zonemode=none and --zonesize are not compatible" \
	"$IOTRIAL" --parse-only --name=z --filename="$F" --size=1m --zonemode=none --zonesize=16k
expect_exit zonesize_alone 2 "zonesize without zonemode=strided or zbd" \
	"$IOTRIAL" --parse-only --name=z --filename="$F" --size=1m --zonesize=16k
expect_exit zonemode_strided_quotes_fio 2 "fio: --zonesize must be specified when using --zonemode=strided" \
	"$IOTRIAL" --parse-only --name=z --filename="$F" --size=1m --zonemode=strided
if command -v fio >/dev/null 2>&1; then
	if fio --name=z --filename="$F" --size=1m --zonesize=16k --rw=read >/dev/null 2>&1; then
		fail zonesize_alone_fio_refuses "fio 3.33 ran a job with zonesize and no zonemode"
	else pass zonesize_alone_fio_refuses; fi
fi
