#!/bin/sh
# zonemode=zbd on a regular file: zones emulated on it (zonesize mandatory,
# zonecapacity below it), as fio 3.33 does, and iotrial's runs against fio's
# on the same jobs: the issued I/O counts and the zone resets (fio's text
# "; N zone resets") agree for sequential and random writes, with
# max_open_zones, job_max_open_zones, zone_reset_threshold/frequency, a
# capacity below the zone size, reads of what was written and a write pass
# with verify.  The zoned device itself (a ZNS namespace in a QEMU guest) is
# tests/e2e/vm_zbd.sh.  Bad input gets one line.
. "$(dirname "$0")/lib.sh"
F="$T/zf"
dd if=/dev/zero of="$F" bs=1M count=8 2>/dev/null
base="--name=z --filename=$F --size=8m --ioengine=psync --zonemode=zbd --zonesize=1m"

# "READS,WRITES RESETS" from fio's (or iotrial's) text: the issued counts and
# the write line's "; N zone resets"; mode w: the writes and resets alone (fio
# counts verify's read-back among the reads, iotrial apart); mode n: the I/Os
# issued alone (random offsets are iotrial's generator's, not fio's
# (docs/compat.md): the zones random writes land in, and so the resets and
# the rwmix draws, differ; the count of I/Os does not)
summary() {
	awk -v mode="$2" '/issued rwts:/ { sub(/.*total=/, ""); split($0, c, ","); t = c[1] "," c[2]
		if (mode == "w") t = c[2]; if (mode == "n") t = c[1] + c[2] }
	     / write: IOPS=/ { if (match($0, /; [0-9]+ zone resets/)) n = substr($0, RSTART + 2, RLENGTH - 14) }
	     END { if (mode == "n") n = ""; print t, n }' "$1"
}

n=0
for c in "e --rw=write --bs=64k" \
	 "e --rw=write --bs=64k --zonecapacity=768k" \
	 "e --rw=write --bs=64k --io_size=20m --offset=2m --zonecapacity=640k" \
	 "w --rw=write --bs=64k --verify=crc32c --zonecapacity=768k" \
	 "w --rw=randwrite --bs=16k --verify=crc32c --zonecapacity=768k --max_open_zones=3" \
	 "n --rw=randwrite --bs=16k --max_open_zones=2" \
	 "n --rw=randwrite --bs=16k --io_size=24m --zonecapacity=512k --max_open_zones=3" \
	 "n --rw=randwrite --bs=16k --max_open_zones=4 --job_max_open_zones=2" \
	 "n --rw=randwrite --bs=16k --io_size=16m --zone_reset_threshold=0.5 --zone_reset_frequency=0.25" \
	 "n --rw=randrw --bs=16k --max_open_zones=2" \
	 "e --rw=write --bs=64k --size=3z --offset=2z" \
	 "e --rw=write --bs=64k --io_size=12z --zonecapacity=768k" \
	 "e --rw=write --bs=64k --size=2z --offset_increment=3z --numjobs=2 --group_reporting" \
	 "w --rw=write --bs=4k --verify=md5 --offset=1m --size=1m --loops=4" \
	 "w --rw=randwrite --bs=4k --verify=md5 --offset=1m --size=1m --loops=4"; do
	n=$((n + 1))
	mode=${c%% *}
	args=${c#* }
	# shellcheck disable=SC2086
	(cd "$T" && "$IOTRIAL" $base $args) >"$T/i.txt" 2>"$T/i.err"
	irc=$?
	it=$(summary "$T/i.txt" $mode)
	if ! command -v fio >/dev/null 2>&1; then
		check "zbd_file_runs_$n" [ $irc -eq 0 ]
		skip "zbd_file_as_fio_$n" "fio not installed"
		continue
	fi
	# shellcheck disable=SC2086
	(cd "$T" && fio $base $args) >"$T/f.txt" 2>"$T/f.err"	# verify state files stay in $T
	fi=$(summary "$T/f.txt" $mode)
	if [ $irc -eq 0 ] && [ -n "$fi" ] && [ "$it" = "$fi" ]; then
		pass "zbd_file_as_fio_$n (issued, resets: $it)"
	else
		fail "zbd_file_as_fio_$n" "$args: iotrial (exit $irc) '$it' $(head -c 300 "$T/i.err"); fio '$fi'"
	fi
done

# a reader started after a writer (wait_for, fio's t/zbd case 15) reads
# what the writer left, zones 2-3 (32 reads of 64k), not its whole region
# again and again: its pass ends at the region's end, as fio's
wr="--filename=$F --ioengine=psync --zonemode=zbd --zonesize=1m"
wr="--name=w $wr --rw=write --bs=4k --offset=2m --size=2m --name=r $wr --wait_for=w --rw=read --bs=64k --size=4m"
# shellcheck disable=SC2086
(cd "$T" && "$IOTRIAL" $wr) >"$T/i.txt" 2>"$T/i.err"
it=$(grep -o 'issued rwts: total=[0-9,]*' "$T/i.txt" | tr '\n' ' ')
check zbd_read_after_writer [ "$it" = "issued rwts: total=0,512,0,0 issued rwts: total=32,0,0,0 " ]
if command -v fio >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	(cd "$T" && fio $wr) >"$T/f.txt" 2>"$T/f.err"
	ft=$(grep -o 'issued rwts: total=[0-9,]*' "$T/f.txt" | tr '\n' ' ')
	check zbd_read_after_writer_as_fio [ "$it" = "$ft" ]
else
	skip zbd_read_after_writer_as_fio "fio not installed"
fi

# verify: every block written is read back and checks out
(cd "$T" && "$IOTRIAL" $base --rw=randwrite --bs=16k --verify=crc32c --max_open_zones=2 \
	--output-format=json) >"$T/v.json" 2>"$T/v.err"
check zbd_file_verify pyjson "
import json
j = json.load(open('$T/v.json'))['jobs'][0]
v = j['iotrial']['verify']
assert j['write']['total_ios'] == 512 and v['blocks'] == 512 and v['failures'] == 0, (j['write']['total_ios'], v)
assert j['iotrial']['zone_resets'] == 0, j['iotrial']['zone_resets']"

# bad input: one line each, exit 2
expect_exit zbd_file_needs_zonesize 2 "^iotrial: error: .*is not a zoned block device: zonemode=zbd needs zonesize=" \
	"$IOTRIAL" --name=z --filename="$F" --size=8m --rw=write --zonemode=zbd
expect_exit zbd_capacity_above_size 2 "^iotrial: error: .*zonecapacity=2097152 is larger than zonesize=1048576" \
	"$IOTRIAL" $base --rw=write --zonecapacity=2m
expect_exit zbd_bs_above_zone 2 "^iotrial: error: .*block size 2097152: buflen exceeds zone size 1048576" \
	"$IOTRIAL" $base --rw=write --bs=2m
# fio's t/zbd/test-zbd-support greps fio's phrases in these refusals (cases
# 35, 36, 38: less than a zone to write; 42, 43: zonesize; 47: zoneskip; 61:
# zone_reset_threshold over different ranges): iotrial's lines carry them
expect_exit zbd_io_size_one_zone_off 2 "^iotrial: error: job 'z': offset=512 size=1047552: io_size must be at least one zone \(1048576 bytes\)" \
	"$IOTRIAL" $base --rw=write --offset=512 --size=1047552
expect_exit zbd_io_size_one_zone 2 "^iotrial: error: job 'z': size=1048064: io_size must be at least one zone \(1048576 bytes\)" \
	"$IOTRIAL" $base --rw=write --size=1048064
expect_exit zbd_zonesize_mandatory 2 "is not a zoned block device: .*Specifying the zone size is mandatory for regular file/block device with --zonemode=zbd" \
	"$IOTRIAL" --name=z --filename="$F" --size=8m --rw=read --zonemode=zbd --zonesize=0
expect_exit zbd_zonesize_512 2 "^iotrial: error: job 'z': zonesize=1: zone size must be at least 512 bytes for --zonemode=zbd" \
	"$IOTRIAL" --name=z --filename="$F" --size=8m --rw=read --zonemode=zbd --zonesize=1
expect_exit zbd_zoneskip_multiple 2 "^iotrial: error: job 'z': zoneskip 1 is not a multiple of the device zone size 1048576" \
	"$IOTRIAL" $base --rw=write --bs=512 --size=4m --zoneskip=1
expect_exit zbd_reset_threshold_ranges 2 "^iotrial: error: job 'z': zone_reset_threshold with different write ranges on $F" \
	"$IOTRIAL" $base --rw=write --size=1m --numjobs=2 --offset_increment=1m --zone_reset_threshold=0.1 --zone_reset_frequency=1
expect_exit zbd_job_max_open_alone 2 "^iotrial: error: .*job_max_open_zones needs a limit" \
	"$IOTRIAL" $base --rw=randwrite --job_max_open_zones=2

# trims are zone resets (fio 3.33): a write job leaves 4 of 8 zones with
# data, a trim job resets them, a read job after it finds what is left.
# Every job's reads,writes,trims (JSON) and the write lines' resets (text),
# fio's and iotrial's.
all_issued() {
	python3 -c "
import json, sys
s = open(sys.argv[1]).read()
print(' '.join('%d,%d,%d' % tuple(j[d]['total_ios'] for d in ('read', 'write', 'trim'))
	       for j in json.loads(s[s.index('{'):])['jobs']))" "$1"
	awk '/ write: IOPS=/ { if (match($0, /; [0-9]+ zone resets/)) printf "R%s ", substr($0, RSTART + 2, RLENGTH - 14) }' "$2"
}
tw="--name=w --filename=$F --ioengine=psync --zonemode=zbd --zonesize=1m --size=8m --rw=write --bs=64k --io_size=4m"
tr="--name=r --stonewall --filename=$F --ioengine=psync --zonemode=zbd --zonesize=1m --size=8m --rw=read --bs=64k"
n=0
for c in "--rw=trim --bs=1m|0,64,0 0,0,8 0,0,0
R0 " \
	 "--rw=randtrim --bs=1m|0,64,0 0,0,4 0,0,0
R0 " \
	 "--rw=trim --bs=1m --size=3z --offset=1z|0,64,0 0,0,3 16,0,0
R0 " \
	 "--rw=trimwrite --bs=1m|0,64,0 0,8,8 128,0,0
R0 R4 "; do
	n=$((n + 1))
	args=${c%|*}
	want=${c#*|}
	tt="--name=t --stonewall --filename=$F --ioengine=psync --zonemode=zbd --zonesize=1m --size=8m $args"
	# shellcheck disable=SC2086
	(cd "$T" && "$IOTRIAL" $tw $tt $tr --output-format=json >"$T/i.json" &&
		"$IOTRIAL" $tw $tt $tr >"$T/i.txt") 2>"$T/i.err"
	irc=$?
	it=$(all_issued "$T/i.json" "$T/i.txt")
	fi="$want"
	if command -v fio >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		(cd "$T" && fio $tw $tt $tr --output-format=json >"$T/f.json" && fio $tw $tt $tr >"$T/f.txt") 2>"$T/f.err"
		fi=$(all_issued "$T/f.json" "$T/f.txt")
	fi
	if [ $irc -eq 0 ] && [ "$it" = "$fi" ] && [ "$it" = "$want" ]; then
		pass "zbd_trim_as_fio_$n (issued, resets: $(echo $it))"
	else
		fail "zbd_trim_as_fio_$n" "$args: iotrial (exit $irc) '$it' $(head -c 300 "$T/i.err"); fio '$fi'; want '$want'"
	fi
done
# the trim job's resets: the zones that held data (fio prints them on write lines only)
(cd "$T" && "$IOTRIAL" $tw --name=t --stonewall --filename="$F" --zonemode=zbd --zonesize=1m \
	--size=8m --rw=trim --bs=1m --output-format=json) >"$T/t.json" 2>"$T/t.err"
check zbd_trim_resets_counted pyjson "
import json
j = json.load(open('$T/t.json'))['jobs']
assert [x['iotrial']['zone_resets'] for x in j] == [0, 4], [x['iotrial'] .get('zone_resets') for x in j]
assert j[1]['trim']['total_ios'] == 8 and j[1]['trim']['io_kbytes'] == 8192, j[1]['trim']"
expect_exit zbd_trim_bs_zone 2 "^iotrial: error: job 'z': .*: trim block size 65536 is not the zone size 1048576" \
	"$IOTRIAL" $base --rw=trim --bs=64k
expect_exit zbd_trim_bsrange 2 "^iotrial: error: job 'z': bsrange and bssplit are not allowed for trims" \
	"$IOTRIAL" $base --rw=randtrim --bs=1m --bsrange=512k-1m
expect_exit zbd_reset_threshold_range 2 "^iotrial: error: .*zone_reset_threshold.*not between 0 and 1" \
	"$IOTRIAL" --parse-only $base --rw=write --zone_reset_threshold=1.5

# verify_only reads back what the zones hold, start to write pointer: a
# random write job with capacity below the zone size leaves 96 blocks in 8
# zones, a verify_only job after it reads and checks those 96 (fio 3.33
# reads back one block on emulated zones: no control here), and one with
# another verify method finds the first block wrong
vw="--name=w --filename=$F --zonemode=zbd --zonesize=1m --zonecapacity=768k --size=8m --bs=64k --verify=crc32c --do_verify=0 --max_open_zones=2 --rw=randwrite"
vo="--name=v --stonewall --filename=$F --zonemode=zbd --zonesize=1m --size=8m --bs=64k --verify_only=1 --rw=write"
# shellcheck disable=SC2086
(cd "$T" && "$IOTRIAL" $vw $vo --verify=crc32c --output-format=json) >"$T/vo.json" 2>"$T/vo.err"
check zbd_verify_only_reads_zones pyjson "
import json
w, v = json.load(open('$T/vo.json'))['jobs']
assert w['write']['total_ios'] == 96, w['write']['total_ios']
assert v['read']['total_ios'] == 96 and v['iotrial']['verify']['blocks'] == 96, (v['read'], v['iotrial']['verify'])
assert v['iotrial']['verify']['failures'] == 0 and v['error'] == 0, v['iotrial']['verify']
assert v['write']['total_ios'] == 128, v['write']   # the writes it stands in for, counted as fio"
# shellcheck disable=SC2086
(cd "$T" && "$IOTRIAL" $vw $vo --verify=md5 --output-format=json) >"$T/vo2.json" 2>"$T/vo2.err"
check zbd_verify_only_detects pyjson "
import json
v = json.load(open('$T/vo2.json'))['jobs'][1]
assert v['error'] == 84 and v['read']['total_ios'] == 1, (v['error'], v['read']['total_ios'])"
expect_exit zbd_verify_only_one_bs 2 "^iotrial: error: .*verify_only with zonemode=zbd needs one write block size" \
	"$IOTRIAL" --parse-only $base --rw=write --verify=crc32c --verify_only=1 --bsrange=4k-64k

# zone units under zonemode=strided: zones of zonesize (not zonerange), as fio
sbase="--name=s --filename=$F --ioengine=psync --rw=write --bs=64k --zonemode=strided --zonesize=512k --zonerange=1m"
(cd "$T" && "$IOTRIAL" $sbase --size=4z --io_size=2z) >"$T/i.txt" 2>"$T/i.err"
it=$(summary "$T/i.txt" n)
if command -v fio >/dev/null 2>&1; then
	(cd "$T" && fio $sbase --size=4z --io_size=2z) >"$T/f.txt" 2>"$T/f.err"
	fi=$(summary "$T/f.txt" n)
else
	fi="16 "	# fio 3.33's count: io_size=2z is 1 MiB of 64k writes
fi
check zbd_zone_units_strided_as_fio [ "$it" = "$fi" -a "$it" = "16 " ]
# the count is what is shown (as fio's "size" : "2z"); the bytes drive the run
(cd "$T" && "$IOTRIAL" $base --rw=write --bs=64k --size=2z --offset=1z --output-format=json) \
	>"$T/u.json" 2>"$T/u.err"
check zbd_zone_units_json pyjson "
import json
j = json.load(open('$T/u.json'))['jobs'][0]
assert j['job options']['size'] == '2z' and j['job options']['offset'] == '1z', j['job options']
assert j['write']['io_kbytes'] == 2048 and j['write']['total_ios'] == 32, j['write']"
expect_exit zbd_zone_units_need_zones 2 \
	"^iotrial: error: job 'z' .*: size=8z: zone units need zonemode=zbd or zonemode=strided" \
	"$IOTRIAL" --parse-only --name=z --filename="$F" --rw=write --size=8z
expect_exit zbd_zone_units_need_zonesize 2 "^iotrial: error: job 'z' .*: size=2z: .* is not a zoned block device: zone units need zonesize=" \
	"$IOTRIAL" --name=z --filename="$F" --zonemode=zbd --rw=write --size=2z
expect_exit zbd_zone_units_whole 2 "^iotrial: error: invalid value '1.5z' for option 'io_size': zone units are a whole number" \
	"$IOTRIAL" --parse-only $base --rw=write --io_size=1.5z
expect_exit zbd_zone_units_not_bs 2 "^iotrial: error: invalid value '1z' for option 'bs'" \
	"$IOTRIAL" --parse-only $base --rw=write --bs=1z
exit 0
