#!/bin/sh
# zonemode=zbd on a host-managed zoned NVMe namespace (QEMU's ZNS, 1 MiB
# zones of which 768 KiB are writable, at most 4 open and 4 active zones),
# iotrial against fio 3.33 in the same guest.  Each scenario starts from
# empty zones (blkzone reset) and runs its jobs with fio, then again with
# iotrial: the issued reads and writes, the zone resets, and the write
# pointers the device reports afterwards (blkzone report, util-linux's,
# copied into the guest) must be the same for sequential writes that wrap and
# reset zones, reads of what was written and random writes with verify
# (every written block read back, no failure); for random writes (under
# max_open_zones, two jobs sharing the open set, iodepth 4 through io_uring)
# the I/O counts, and write pointers that hold what was written with no more
# zones partly written than the limit; zone_reset_threshold/frequency resets
# more than full zones need, in both; a read job then a writer in one run;
# zone units (size=3z: the device's zones, on the block and the char
# device), trims as zone resets, and verify_only reading back what the write
# pointers hold.
# Bad input gets one line: zonemode=zbd on the ordinary NVMe namespace,
# max_open_zones above the device's limit, buffered writes, a zonesize
# other than the device's (with fio's phrases t/zbd greps).  The
# namespace's char device (io_uring_cmd, zone append) is vm_zbd_cmd.sh's.
# Slow under TCG (~40 s here): skipped under SANITIZE=1, as vm_guest.sh.
. "$(dirname "$0")/lib.sh"
vm_setup vm_zbd zbd$$ blkzone || exit 0
. "$(dirname "$0")/vm_zbd.lib"
zbd_boot vm_zbd || exit 0

# 8 MiB over zones 0-7, 6 MiB writable: the pass ends at the region's end
# (96 writes, fio counts the zones' unwritable tails as done); then 10 MiB
# over the full zones: each is reset as the writes reach it, and it wraps
compare seq_write exact "--rw=write --bs=64k --size=8M" "--rw=write --bs=64k --size=8M --io_size=10M"
# written, then read back at random and in order: only below the wps
compare read_written exact "--rw=write --bs=64k --size=4M --offset=4M" \
	"--rw=randread --bs=16k --size=16M --io_size=2M" "--rw=read --bs=64k --size=16M"
# random writes with verify: 4 zones, 3 MiB writable; full zones are never
# reset under verify, so both stop after 192 writes, every block checked
compare verify exact "--rw=randwrite --bs=16k --size=4M --max_open_zones=2 --verify=crc32c"
# verify_only in a run of its own reads back what the device's write pointers
# say was written (fio 3.33 resets the zones first and then finds them
# empty), and resets nothing: the random writes with verify iotrial just
# did, 192 blocks of 16 KiB in zones 0-3
vo="--filename=$ZD --direct=1 --zonemode=zbd --bs=16k --verify=crc32c"
"$V" sh $G "echo '=== before'; blkzone report $ZD; echo '=== v';
iotrial --output-format=json --name=v $vo --rw=write --size=16M --verify_only=1;
echo '=== after'; blkzone report $ZD" >"$T/vo.out" 2>"$T/vo.err"
check vm_zbd_verify_only pyjson "
import json, re
parts = dict(zip(*[iter(re.split(r'^=== (\\S+)\\n', open('$T/vo.out').read(), flags=re.M)[1:])] * 2))
# blkzone prints each zone's wp from its start; a full zone's at its end
wps = lambda b: [(int(s, 16), min(int(w, 16), 0x600)) for s, w in
                 re.findall(r'start: (0x[0-9a-f]+), len \\S+ cap \\S+ wptr (0x[0-9a-f]+)', b)]
before, after = wps(parts['before']), wps(parts['after'])
held = sum(w for _, w in before) * 512 // 16384
j = json.loads(parts['v'])['jobs'][0]
v = j['iotrial']['verify']
assert held == 192 and j['read']['total_ios'] == held and v['blocks'] == held, (held, j['read'], v)
assert v['failures'] == 0 and j['error'] == 0 and j['iotrial']['zone_resets'] == 0, (v, j['error'])
assert before == after and len(before) == 16, (before, after)"
lap "verify_only checked"
# zone units without zonesize= (the device's 1 MiB zones) and trims as zone
# resets: zones 1-3 written (36 blocks of their 768 KiB), zone 2 trimmed,
# then the two left with data at random
compare trims exact "--rw=write --bs=64k --size=3z --offset=1z" \
	"--rw=trim --bs=1M --size=1z --offset=2z" "--rw=randtrim --bs=1M --size=16M"
check vm_zbd_trim_resets pyjson "
import json, re
parts = re.split(r'^=== (\\S+)\\n', open('$T/trims.it').read(), flags=re.M)
j = {k: json.loads(b)['jobs'][0] for k, b in zip(parts[1::2], parts[2::2]) if k != 'wp'}
assert [j[k]['iotrial']['zone_resets'] for k in '23'] == [1, 2], [j[k]['iotrial'] for k in '23']
assert [j[k]['trim']['io_kbytes'] for k in '23'] == [1024, 2048], [j[k]['trim'] for k in '23']"
lap "trims checked"
# zone units on the namespace's char device (io_uring_cmd): its zone size
# comes from the ZNS identify, as fio's does
ZDEV=$ZC ZOPTS="--ioengine=io_uring_cmd --cmd_type=nvme"
compare cmd_zone_units exact "--rw=write --bs=64k --size=3z --offset=1z"
ZDEV=$ZD ZOPTS=--direct=1
# random writes, a few zones at a time, more than fits: full zones reset
MAXOPEN=2 compare rand_write_open2 counts "--rw=randwrite --bs=16k --size=8M --io_size=12M --max_open_zones=2"
# two jobs on the device share its open set (4), each opening at most 2
MAXOPEN=4 compare two_jobs counts "--rw=randwrite --bs=16k --size=8M --io_size=3M --numjobs=2 --group_reporting --max_open_zones=4 --job_max_open_zones=2"
MAXOPEN=3 compare rand_write_uring counts "--rw=randwrite --bs=16k --size=8M --io_size=4M --ioengine=io_uring --iodepth=4 --max_open_zones=3"
# zone_reset_threshold/frequency resets zones before they are full: counts
# and that both reset far more often than full zones alone would need
thr="--name=j --filename=$ZD --direct=1 --zonemode=zbd --rw=randwrite --bs=16k --size=4M --io_size=8M --zone_reset_threshold=0.5 --zone_reset_frequency=0.25"
"$V" sh $G "blkzone reset $ZD; iotrial --output-format=json $thr" >"$T/thr.it" 2>"$T/thr.err"
"$V" sh $G "blkzone reset $ZD; fio $thr" >"$T/thr.fio" 2>&1
check vm_zbd_reset_threshold pyjson "
import json, re
j = json.load(open('$T/thr.it'))['jobs'][0]
f = open('$T/thr.fio').read()
fw = int(re.search(r'issued rwts: total=\d+,(\d+)', f).group(1))
fr = int(re.search(r'; (\d+) zone resets', f).group(1))
assert j['write']['total_ios'] == fw == 512, (j['write']['total_ios'], fw)
# (resets of full zones alone: (8 MiB - 3 MiB) / 768 KiB, 7)
assert j['iotrial']['zone_resets'] > 7 and fr > 7, (j['iotrial']['zone_resets'], fr)"
lap "reset_threshold checked"

# a read job first, then a writer in the same run: the device, read-only for
# the reader, is reopened for the writer's resets (zones 0-1 full; 3 MiB over
# them: each filled twice, 4 resets)
one="--filename=$ZD --direct=1 --zonemode=zbd --bs=64k --size=2M"
"$V" sh $G "blkzone reset $ZD; iotrial --name=w0 $one --rw=write >/dev/null &&
iotrial --output-format=json --name=r $one --rw=read --name=w --stonewall $one --rw=write --io_size=3M" \
	>"$T/rw.json" 2>"$T/rw.err"
if pyjson "
import json
r, w = json.load(open('$T/rw.json'))['jobs']
assert r['read']['total_ios'] == 24, r['read']['total_ios']
assert w['write']['total_ios'] == 48 and w['iotrial']['zone_resets'] == 4, (w['write']['total_ios'], w['iotrial'])"
then pass vm_zbd_reader_then_writer
else fail vm_zbd_reader_then_writer "$(head -c 300 "$T/rw.err")"; guest_log
fi

# 8 jobs of random writes at QD64 through libaio share 4 zones (fio's t/zbd
# case 46, which runs without zone limits: ignore_zone_limits here, so that
# each write goes to its offset's zone, not to an open set): a zone is reset
# only when no job has a write in flight in it, and writes reach it at its
# write pointer, in order.  Before, EIO (Zone Invalid Write) in 6 of 6 runs
# of this job.  fio once, iotrial 4 times, each from empty zones: every
# iotrial run ends with exit 0 and fio's count of writes.
J46="--name=j --filename=$ZD --size=4M --zonemode=zbd --ignore_zone_limits=1 --ioengine=libaio \
	--iodepth=64 --rw=randwrite --bs=4k --group_reporting=1 --numjobs=8 --direct=1 --output-format=json"
"$V" sh $G "w() { grep '\"total_ios\"' /tmp/t46 | sed -n 2p | tr -dc 0-9; }
blkzone reset $ZD; fio $J46 >/tmp/t46 2>/dev/null; echo \"fio \$? \$(w)\"
for i in 1 2 3 4; do blkzone reset $ZD; iotrial $J46 >/tmp/t46 2>/tmp/t46e; echo \"iotrial \$? \$(w) \$(head -c 200 /tmp/t46e)\"; done" >"$T/t46" 2>&1
f46=$(awk '$1 == "fio" && $2 == 0 { print $3 }' "$T/t46")
[ -n "$f46" ] && [ "$f46" -gt 0 ] &&
	[ "$(awk -v f="$f46" '$1 == "iotrial" && $2 == 0 && $3 == f' "$T/t46" | wc -l)" -eq 4 ]
r46=$?
check vm_zbd_shared_zones_qd64 [ $r46 -eq 0 ]
[ $r46 -eq 0 ] || { echo "  $(tr '\n' '|' <"$T/t46")"; guest_log; }
lap "shared zones checked"

# bad input: one line, exit 2 (one round trip: each case's exit code, then its stderr)
"$V" sh $G "for a in '--filename=$ND --direct=1' '--filename=$ZD --direct=1 --max_open_zones=5' \
	'--filename=$ZD' '--filename=$ZD --direct=1 --zonesize=2M'; do
	iotrial --name=j --rw=write --zonemode=zbd --size=4M \$a >/dev/null 2>/tmp/e
	echo \"rc \$? \$(wc -l </tmp/e)\"; cat /tmp/e
done" >"$T/bad" 2>&1
bad() {	# N PATTERN: case N exited 2 with one stderr line matching PATTERN
	awk -v n="$1" '/^rc / { k++; if (k == n) { ok = ($2 == 2 && $3 == 1); getline; print ok ? $0 : "" } }' \
		"$T/bad" | grep -q "$2"
}
check vm_zbd_not_zoned bad 1 "is not a zoned block device: zonemode=zbd needs zonesize="
check vm_zbd_max_open_above_device bad 2 "max_open_zones=5 is larger than the device's limit 4"
check vm_zbd_buffered_write bad 3 "Using direct I/O is mandatory for writing to ZBD drives"
check vm_zbd_zonesize_mismatch bad 4 "job parameter zonesize=2097152 does not match disk zone size 1048576 of $ZD"
bad 1 . && bad 2 . && bad 3 . && bad 4 . || echo "  $(tr '\n' '|' <"$T/bad")"
lap done
exit 0
