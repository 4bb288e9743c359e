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
# more than full zones need, in both; a read job then a writer in one run.
# Bad input gets one line: zonemode=zbd on the ordinary NVMe namespace,
# max_open_zones above the device's limit, buffered writes.
# Then the namespace's char device with ioengine=io_uring_cmd (zones through
# NVMe ZNS commands): sequential writes and verify exact, random writes'
# counts, against fio 3.33 as above; and write_mode=zone_append, which fio
# 3.33 lacks, checked on the device's side: Zone Append commands only (the
# kernel's trace), several in flight in one zone, every block read back
# where the device put it (also after another writer moved the write
# pointer), fio's uring-cmd-zoned-append.fio, a namespace without zones refused.
# Slow under TCG (~70 s here): skipped under SANITIZE=1, as vm_guest.sh.
. "$(dirname "$0")/lib.sh"
vm_setup vm_zbd zbd$$ blkzone || exit 0

if ! "$V" boot $G --iotrial "$IOTRIAL" --disks nvme,zns --size 16M --lifetime 600 \
	--zns-props zoned.zone_size=1M,zoned.zone_capacity=768K,zoned.max_open=4,zoned.max_active=4 \
	>"$T/boot.out" 2>"$T/boot.err"; then
	fail vm_zbd_boot "$(tail -c 400 "$T/boot.err")"
	exit 0
fi
"$V" info $G >"$T/vm.json"
ZD=$(vm_dev zns guest_dev)
ZC=$(vm_dev zns guest_char)
ND=$(vm_dev nvme guest_dev)
NC=$(vm_dev nvme guest_char)
# the scenarios' target and what every job of them adds (the block device first)
ZDEV=$ZD ZOPTS=--direct=1
"$V" push $G "$(command -v blkzone)" /usr/bin/blkzone >/dev/null 2>&1
"$V" exec $G -- chmod 755 /usr/bin/blkzone
"$V" exec $G -- blkzone report "$ZD" >"$T/rep0" 2>&1
check vm_zbd_device [ "$(grep -c 'wptr' "$T/rep0")" -eq 16 ] && grep -q 'cap 0x000600' "$T/rep0"
lap booted

# a scenario: TOOL "JOB ARGS" ... run one after another on empty zones; prints
# each job's output after a "=== N" line, then the zone report after "=== wp"
scenario() {
	tool=$1
	shift
	script="blkzone reset $ZD || exit 1"
	k=0
	for a in "$@"; do
		k=$((k + 1))
		if [ "$tool" = fio ]; then
			script="$script
echo '=== $k'; fio --name=j$k --filename=$ZDEV $ZOPTS --zonemode=zbd $a 2>&1"
		else
			script="$script
echo '=== $k'; iotrial --output-format=json --name=j$k --filename=$ZDEV $ZOPTS --zonemode=zbd $a"
		fi
	done
	script="$script
echo '=== wp'; blkzone report $ZD"
	"$V" sh $G "$script"
}

# What must agree, from either tool's output.  exact: per job "READS,WRITES
# RESETS", then the write pointers (sequential jobs and verify: the same I/O
# lands in the same zones).  counts: per job the I/Os issued, then whether the
# device's write pointers hold what was written (sum of wps + resets x
# capacity = bytes written: every reset here is of a full zone) and at most
# $MAXOPEN zones are partly written (the open set's limit).  iotrial's random
# offsets are its own generator's, not fio's (docs/compat.md), so the zones a
# random write lands in, and hence the resets, differ between the tools.
digest() {
	MODE=$3 python3 - "$1" "$2" <<'EOF'
import json, os, re, sys
tool, path = sys.argv[1], sys.argv[2]
mode, bs, cap = os.environ['MODE'], 16384, 768 * 1024
maxopen = int(os.environ.get('MAXOPEN', '0'))
parts = re.split(r'^=== (\S+)\n', open(path).read(), flags=re.M)
out, writes, resets = [], 0, 0
for name, body in zip(parts[1::2], parts[2::2]):
    if name == 'wp':
        # a full zone's wp is reported at the zone's end: count its capacity
        wps = [min(int(w, 16) * 512, cap) for w in
               re.findall(r'start: 0x[0-9a-f]+, len \S+ cap \S+ wptr (0x[0-9a-f]+)', body)]
        if mode == 'exact':
            out.append('wp ' + ' '.join('%dk' % (w // 1024) for w in wps))
        else:
            partial = sum(1 for w in wps if 0 < w < cap)
            ok = len(wps) == 16 and sum(wps) + resets * cap == writes * bs and partial <= maxopen
            out.append('wp-check %s' % ('ok' if ok else 'bad: wps %s resets %d writes %d'
                                        % (wps, resets, writes)))
        continue
    if tool == 'fio':
        t = re.search(r'issued rwts: total=(\d+),(\d+)', body)
        z = re.search(r'; (\d+) zone resets', body)	# on the write line only
        if not t or (int(t.group(2)) and not z):
            out.append('%s: bad output %r' % (name, body[-300:]))
            continue
        r, w, n = int(t.group(1)), int(t.group(2)), int(z.group(1)) if z else 0
    else:
        try:
            j = json.loads(body)['jobs'][0]
        except Exception:
            out.append('%s: bad output %r' % (name, body[-300:]))
            continue
        r, w, n = j['read']['total_ios'], j['write']['total_ios'], j['iotrial']['zone_resets']
        ver = j['iotrial'].get('verify')
        if ver and (ver['failures'] or ver['blocks'] != w):	# every written block checked
            out.append('%s: bad verify %r' % (name, ver))
    writes += w
    resets += n
    out.append('%s: %d,%d %d' % (name, r, w, n) if mode == 'exact' else '%s: %d' % (name, r + w))
print('\n'.join(out))
EOF
}

# the guest kernel's last lines, after a failure (once the NVMe device nodes
# vanished mid-test on the loaded machine; an I/O timeout under TCG is the
# likely cause, not captured then)
guest_log() { echo "  guest dmesg: $("$V" exec $G -- dmesg 2>&1 | tail -n 6 | tr '\n' '|')"; }

compare() {	# NAME MODE "JOB ARGS"...: fio's digest = iotrial's
	name=$1 mode=$2
	shift 2
	scenario fio "$@" >"$T/$name.fio" 2>&1
	scenario iotrial "$@" >"$T/$name.it" 2>"$T/$name.it.err"
	digest fio "$T/$name.fio" $mode >"$T/$name.fd"
	digest iotrial "$T/$name.it" $mode >"$T/$name.id"
	# a line per job and one for the zones, none of them bad, the same for both
	if [ "$(grep -c '^\([0-9]*: [0-9]\|wp\)' "$T/$name.fd")" -eq $(($# + 1)) ] &&
		cmp -s "$T/$name.fd" "$T/$name.id" && ! grep -q 'bad' "$T/$name.fd"; then
		pass "vm_zbd_$name ($(grep -v '^wp' "$T/$name.id" | tr '\n' ' '))"
	else
		fail "vm_zbd_$name" "fio: $(tr '\n' '|' <"$T/$name.fd") iotrial: $(tr '\n' '|' <"$T/$name.id") $(head -c 300 "$T/$name.it.err")"
		guest_log
	fi
	lap "$name compared"
}

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

# bad input: one line, exit 2 (one round trip: each case's exit code, then its stderr)
"$V" sh $G "for a in '--filename=$ND --direct=1' '--filename=$ZD --direct=1 --max_open_zones=5' \
	'--filename=$ZD'; do
	iotrial --name=j --rw=write --zonemode=zbd --size=4M \$a >/dev/null 2>/tmp/e
	echo \"rc \$? \$(wc -l </tmp/e)\"; cat /tmp/e
done" >"$T/bad" 2>&1
bad() {	# N PATTERN: case N exited 2 with one stderr line matching PATTERN
	awk -v n="$1" '/^rc / { k++; if (k == n) { ok = ($2 == 2 && $3 == 1); getline; print ok ? $0 : "" } }' \
		"$T/bad" | grep -q "$2"
}
check vm_zbd_not_zoned bad 1 "is not a zoned block device: zonemode=zbd needs zonesize="
check vm_zbd_max_open_above_device bad 2 "max_open_zones=5 is larger than the device's limit 4"
check vm_zbd_buffered_write bad 3 "need direct=1"
bad 1 . && bad 2 . && bad 3 . || echo "  $(tr '\n' '|' <"$T/bad")"
lap "refusals checked"

# ---- the namespace's char device, ioengine=io_uring_cmd: zones through ZNS commands ----
# The same scenarios on $ZC: iotrial reads the zones with Zone Management
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
# verify: every write one Zone Append to its zone's start LBA (the kernel's
# nvme_setup_cmd trace, 512-byte LBAs: zones every 2048), no plain write,
# more than one append in flight in one zone at some point (setups minus
# completions, nvme_complete_rq), all 384 blocks read back where the device
# put them, and the four zones full
A="--filename=$ZC --ioengine=io_uring_cmd --zonemode=zbd --write_mode=zone_append --bs=8k"
"$V" sh $G "blkzone reset $ZD; mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
tr=/sys/kernel/tracing/events/nvme; echo 1 >\$tr/nvme_setup_cmd/enable &&
echo 1 >\$tr/nvme_complete_rq/enable && echo >/sys/kernel/tracing/trace || exit 1
cd /tmp && iotrial --output-format=json --name=a $A --rw=randwrite --size=4M --iodepth=4 \
	--max_open_zones=2 --verify=crc32c >/tmp/a.json; rc=\$?
echo 0 >\$tr/nvme_setup_cmd/enable; echo 0 >\$tr/nvme_complete_rq/enable
echo \"=== rc \$rc\"; cat /tmp/a.json; echo '=== trace'; grep 'disk=nvme0n2' /sys/kernel/tracing/trace
echo '=== wp'; blkzone report $ZD" >"$T/za" 2>"$T/za.err"
check vm_zbd_zone_append pyjson "
import json, re
parts = re.split(r'^=== (.*)\n', open('$T/za').read(), flags=re.M)
p = dict(zip(parts[1::2], parts[2::2]))
rc = [k for k in p if k.startswith('rc ')][0]
assert rc == 'rc 0', (rc, open('$T/za.err').read()[-300:])
j = json.loads(p[rc])['jobs'][0]
v = j['iotrial']['verify']
assert j['write']['total_ios'] == 384 and v['blocks'] == 384 and v['failures'] == 0, (j['write']['total_ios'], v)
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
print('appends', appends, 'most in flight in a zone', most)"
# The device picks the place: zone 0 gets 64 KiB through the block device
# while iotrial waits (startdelay) with the zone report it read at set-up
# (wp 0).  Its 32 appends land after those 64 KiB, as the write pointer says
# (0x280 sectors: 320 KiB), and verify reads each back where its CQE said;
# reading where the zone table had planned them would find dd's bytes.
"$V" sh $G "blkzone reset $ZD; iotrial --output-format=json --name=p $A --rw=write --size=1M \
	--io_size=256k --iodepth=4 --verify=crc32c --startdelay=2 >/tmp/p.json & sleep 1
dd if=/dev/urandom of=$ZD bs=64k count=1 oflag=direct 2>/dev/null; wait \$!; echo \"=== rc \$?\"
cat /tmp/p.json; echo '=== wp'; blkzone report $ZD" >"$T/zp" 2>"$T/zp.err"
check vm_zbd_zone_append_device_picks pyjson "
import json, re
parts = re.split(r'^=== (.*)\n', open('$T/zp').read(), flags=re.M)
p = dict(zip(parts[1::2], parts[2::2]))
rc = [k for k in p if k.startswith('rc ')][0]
assert rc == 'rc 0', (rc, open('$T/zp.err').read()[-300:])
j = json.loads(p[rc])['jobs'][0]
v = j['iotrial']['verify']
assert j['write']['total_ios'] == 32 and v['blocks'] == 32 and v['failures'] == 0, v
assert re.findall(r'wptr (0x[0-9a-f]+)', p['wp'])[0] == '0x000280', p['wp'][:200]"
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
	check vm_zbd_zone_append_example pyjson "
import json
js = json.load(open('$T/zx.json'))['jobs']
got = [(j['write']['total_ios'], j['iotrial']['verify']['blocks'], j['iotrial']['verify']['failures']) for j in js]
assert got == [(96, 96, 0)] * 3, got"
	"$V" sh $G "fio /tmp/za.fio" >"$T/zx.fio" 2>&1
	echo "  fio 3.33 on the example: exit $?, $(grep -m 1 -i 'write_mode\|invalid\|bad' "$T/zx.fio" | head -c 120)"
else
	skip vm_zbd_zone_append_example "fio's examples are not in \$SHARED/spec/fio-examples"
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
# zone append where it makes no sense, in the guest: a namespace without zones
"$V" sh $G "iotrial --name=j --filename=$NC --ioengine=io_uring_cmd --zonemode=zbd --zonesize=1M \
	--write_mode=zone_append --rw=write --size=1M >/dev/null 2>/tmp/e; echo \"rc \$? \$(wc -l </tmp/e)\"; cat /tmp/e" \
	>"$T/bad2" 2>&1
check vm_zbd_zone_append_not_zoned sh -c "grep -q '^rc 2 1\$' '$T/bad2' &&
	grep -q 'write_mode=zone_append needs a zoned namespace' '$T/bad2'"
lap done
exit 0
