#!/bin/sh
# zonemode=zbd through ioengine=io_uring_cmd on a zoned NVMe namespace's char
# device (/dev/ngXnY; QEMU's ZNS as in vm_zbd.sh, whose guest and scenarios
# this shares: vm_zbd.lib), where iotrial reads the zones with NVMe ZNS
# commands: sequential writes and random writes with verify give the same
# reads, writes, zone resets and write pointers (blkzone report on the block
# device) as fio 3.33, random writes the same counts, and fio's
# uring-cmd-zoned.fio the same per job.  Then write_mode=zone_append, which
# fio 3.33 lacks, checked on the device's side: Zone Append commands only
# (the kernel's trace), several in flight in one zone, every block read back
# where the device put it (also after another writer moved the write pointer
# behind the job's zone table), fio's uring-cmd-zoned-append.fio, and a
# namespace without zones refused with one line.
# Slow under TCG (~35 s here): skipped under SANITIZE=1, as vm_guest.sh.
. "$(dirname "$0")/lib.sh"
vm_setup vm_zbd_cmd zbdc$$ blkzone || exit 0
. "$(dirname "$0")/vm_zbd.lib"
zbd_boot vm_zbd_cmd || exit 0


# ---- the char device, ioengine=io_uring_cmd: zones through ZNS commands ----
# vm_zbd.sh's scenarios on $ZC: iotrial reads the zones with Zone Management
# Receive and resets them with Zone Management Send, fio 3.33 through its own
# io_uring_cmd zbd hooks; the write pointers are the block device's view
# (blkzone report on $ZD).  No direct=1: fio 3.33 cannot open a char device
# with O_DIRECT (EINVAL), and passthrough has no page cache.  QD 1, as fio's
# uring-cmd-zoned.fio asks: no I/O scheduler orders passthrough writes.
ZDEV=$ZC ZOPTS="--ioengine=io_uring_cmd --cmd_type=nvme"
compare cmd_seq_write exact "--rw=write --bs=64k --size=8M" "--rw=write --bs=64k --size=8M --io_size=10M"
compare cmd_verify exact "--rw=randwrite --bs=16k --size=4M --max_open_zones=2 --verify=crc32c"
MAXOPEN=2 compare cmd_rand_write counts "--rw=randwrite --bs=16k --size=8M --io_size=12M --max_open_zones=2"

# ---- write_mode=zone_append (fio 3.33 has no write_mode: the device's view is the check) ----
# Random appends at QD 4 into 2 open zones of 4 (3 MiB writable), with
# verify_backlog (read back while the job runs, from the completions'
# offsets; the next check's verify reads back at the end): every write one Zone Append to its zone's start LBA (the kernel's
# nvme_setup_cmd trace, 512-byte LBAs: zones every 2048), no plain write,
# more than one append in flight in one zone at some point (setups minus
# completions, nvme_complete_rq), all 384 blocks read back where the device
# put them, and the four zones full
A="--filename=$ZC --ioengine=io_uring_cmd --zonemode=zbd --write_mode=zone_append --bs=8k"
# ZJOB FILE N (python, with pyjson): FILE's sections (=== NAME lines) in p,
# the job's exit code 0, its JSON in j: N writes, all N read back, none bad
ZJOB='import json, re, sys
parts = re.split(r"^=== (.*)\n", open(sys.argv[1]).read(), flags=re.M)
p = dict(zip(parts[1::2], parts[2::2]))
rc = [k for k in p if k.startswith("rc ")][0]
assert rc == "rc 0", (rc, open(sys.argv[1] + ".err").read()[-300:])
j, n = json.loads(p[rc])["jobs"][0], int(sys.argv[2])
v = j["iotrial"]["verify"]
assert j["write"]["total_ios"] == n and v["blocks"] == n and v["failures"] == 0, (j["write"], v)'
"$V" sh $G "blkzone reset $ZD; mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
tr=/sys/kernel/tracing/events/nvme; echo 1 >\$tr/nvme_setup_cmd/enable &&
echo 1 >\$tr/nvme_complete_rq/enable && echo >/sys/kernel/tracing/trace || exit 1
cd /tmp && iotrial --output-format=json --name=a $A --rw=randwrite --size=4M --iodepth=4 \
	--max_open_zones=2 --verify=crc32c --verify_backlog=16 >/tmp/a.json; rc=\$?
echo 0 >\$tr/nvme_setup_cmd/enable; echo 0 >\$tr/nvme_complete_rq/enable
echo \"=== rc \$rc\"; cat /tmp/a.json; echo '=== trace'; grep 'disk=nvme0n2' /sys/kernel/tracing/trace
echo '=== wp'; blkzone report $ZD" >"$T/za" 2>"$T/za.err"
check vm_zbd_cmd_append pyjson "$ZJOB
slba, inflight, most, appends, writes = {}, {}, 0, 0, 0
for line in p['trace'].splitlines():
    m = re.search(r'cmdid=(\d+).*cmd=\((nvme_cmd_\w+) slba=(\d+)', line)
    if m and m.group(2) == 'nvme_cmd_zone_append':
        appends += 1
        z = int(m.group(3))
        assert z % 2048 == 0, line
        slba[m.group(1)] = z
        inflight[z] = inflight.get(z, 0) + 1
        most = max(most, inflight[z])
    elif m and m.group(2) == 'nvme_cmd_write':
        writes += 1
    m = re.search(r'nvme_complete_rq:.*cmdid=(\d+)', line)
    if m and m.group(1) in slba:
        inflight[slba.pop(m.group(1))] -= 1
assert appends == 384 and writes == 0, (appends, writes)
assert most >= 2, most
wps = re.findall(r'wptr (0x[0-9a-f]+)', p['wp'])
assert [int(w, 16) for w in wps[:5]] == [2048, 2048, 2048, 2048, 0], wps[:5]
print('appends', appends, 'most in flight in a zone', most)" "$T/za" 384
# The device picks the place: zone 0 gets 64 KiB through the block device
# once iotrial has read the zone report (its Zone Management Receive is in
# the trace) and waits (startdelay) with wp 0 in its table.  Its 32 appends
# land after those 64 KiB, as the write pointer says (0x280 sectors: 320
# KiB), and verify reads each back where its CQE said; reading where the zone
# table had planned them would find dd's bytes.
"$V" sh $G "blkzone reset $ZD; tr=/sys/kernel/tracing; echo >\$tr/trace
echo 1 >\$tr/events/nvme/nvme_setup_cmd/enable || exit 1
iotrial --output-format=json --name=p $A --rw=write --size=1M --io_size=256k --iodepth=4 \\
	--verify=crc32c --startdelay=3 >/tmp/p.json & k=0
until grep -q zone_mgmt_recv \$tr/trace || [ \$k -ge 200 ]; do sleep 0.05; k=\$((k + 1)); done
grep -q zone_mgmt_recv \$tr/trace && echo '=== reported'
echo 0 >\$tr/events/nvme/nvme_setup_cmd/enable
dd if=/dev/urandom of=$ZD bs=64k count=1 oflag=direct 2>/dev/null; wait \$!; echo \"=== rc \$?\"
cat /tmp/p.json; echo '=== wp'; blkzone report $ZD" >"$T/zp" 2>"$T/zp.err"
check vm_zbd_cmd_append_device_picks pyjson "$ZJOB
assert 'reported' in p, 'no zone report traced before dd'
assert re.findall(r'wptr (0x[0-9a-f]+)', p['wp'])[0] == '0x000280', p['wp'][:200]" "$T/zp" 32
# fio's example uring-cmd-zoned-append.fio with size=1M (one zone; size=1z
# is a zone unit): three jobs, each fills the zone's 768 KiB (96 appends of
# 8 KiB, at QD 1 and 4, with registerfiles, sqthread_poll, nonvectored) and
# reads all 96 back; fio 3.33 refuses the file (no write_mode)
sed "s/^size=1z/size=1M/; s#^filename=.*#filename=$ZC#" \
	"${SHARED:-}/spec/fio-examples/uring-cmd-zoned-append.fio" >"$T/za.fio" 2>/dev/null ||
	: >"$T/za.fio"
if [ -s "$T/za.fio" ]; then
	"$V" push $G "$T/za.fio" /tmp/za.fio >/dev/null
	"$V" sh $G "blkzone reset $ZD; iotrial --output-format=json /tmp/za.fio" >"$T/zx.json" 2>"$T/zx.err"
	check vm_zbd_cmd_append_example pyjson "
import json
js = json.load(open('$T/zx.json'))['jobs']
got = [(j['write']['total_ios'], j['iotrial']['verify']['blocks'], j['iotrial']['verify']['failures']) for j in js]
assert got == [(96, 96, 0)] * 3, got"
	"$V" sh $G "fio /tmp/za.fio" >"$T/zx.fio" 2>&1
	echo "  fio 3.33 on the example: exit $?, $(grep -m 1 -i 'write_mode\|invalid\|bad' "$T/zx.fio" | head -c 120)"
else
	skip vm_zbd_cmd_append_example "fio's examples are not in \$SHARED/spec/fio-examples"
fi
# its sibling uring-cmd-zoned.fio (plain writes, QD 1, 256 KiB blocks) with
# size=1M, as fio 3.33 runs it: per job reads, writes and zone resets, then
# the write pointers, the same
sed "s/^size=1G/size=1M/; s#^filename=.*#filename=$ZC#" \
	"${SHARED:-}/spec/fio-examples/uring-cmd-zoned.fio" >"$T/zn.fio" 2>/dev/null || : >"$T/zn.fio"
if [ -s "$T/zn.fio" ]; then
	"$V" push $G "$T/zn.fio" /tmp/zn.fio >/dev/null
	"$V" sh $G "blkzone reset $ZD; iotrial --output-format=json /tmp/zn.fio; echo '=== wp'
blkzone report $ZD | head -n 2" >"$T/zn.it" 2>"$T/zn.err"
	"$V" sh $G "blkzone reset $ZD; fio /tmp/zn.fio 2>&1; echo '=== wp'; blkzone report $ZD | head -n 2" \
		>"$T/zn.fio.out" 2>&1
	check vm_zbd_cmd_example_vs_fio pyjson "
import json, re
def wp(t):
    return re.findall(r'wptr (0x[0-9a-f]+)', t.split('=== wp')[1])
it, f = open('$T/zn.it').read(), open('$T/zn.fio.out').read()
a = [(j['read']['total_ios'], j['write']['total_ios'], j['iotrial']['zone_resets'])
     for j in json.loads(it.split('=== wp')[0])['jobs']]
b = [(int(r), int(w), int(z)) for (r, w), z in
     zip(re.findall(r'issued rwts: total=(\d+),(\d+)', f), re.findall(r'; (\d+) zone resets', f))]
assert a == b and len(a) == 3 and wp(it) == wp(f), (a, b, wp(it), wp(f))
print(a)"
fi
# refused with one line, exit 2: zone append on a namespace without zones;
# max_open_zones above the limit the ZNS identify data gives (MOR: 4)
"$V" sh $G "for a in '--filename=$NC --zonesize=1M --write_mode=zone_append' \
	'--filename=$ZC --max_open_zones=5'; do
	iotrial --name=j --ioengine=io_uring_cmd --zonemode=zbd --rw=write --size=1M \$a >/dev/null 2>/tmp/e
	echo \"rc \$? \$(wc -l </tmp/e)\"; cat /tmp/e
done" >"$T/bad" 2>&1
check vm_zbd_cmd_refusals pyjson "
import re
t = open('$T/bad').read()
cases = re.findall(r'^rc (\d+) (\d+)\n(.*)', t, flags=re.M)
assert len(cases) == 2 and all(c[:2] == ('2', '1') for c in cases), t
assert 'write_mode=zone_append needs a zoned namespace' in cases[0][2], t
assert \"max_open_zones=5 is larger than the device's limit 4\" in cases[1][2], t"
lap done
exit 0
