#!/bin/sh
# The QEMU guest harness (tests/vm/README.md), in one boot of one guest with
# every disk kind: the guest sees each disk where vm.json says; the command
# channel carries exit codes and binary output unchanged, times out and
# forwards signals; iotrial in the guest does the same I/O count as fio in
# the same guest for the same size-bounded job, on virtio-blk and on NVMe, and
# the guest's /proc/diskstats and QEMU's query-blockstats (on the drive id
# vm.json names) agree with it; ab runs each run in the guest through
# tests/vm/guest-iotrial; a guest killed mid-command ends the command with
# exit 125 and one line, not a hang.
# Slow under TCG (~40 s here): skipped under SANITIZE=1, which runs the same
# harness on the same guest kernel and adds nothing to what the plain pass sees.
. "$(dirname "$0")/lib.sh"
vm_setup vm_guest g || exit 0

# the binary under test goes into the guest; 6 disk kinds in one boot
if ! "$V" boot $G --iotrial "$IOTRIAL" --disks vblk-iothread,vblk,scsi,nvme,zns,nvme-pi \
	--size 16M --lifetime 600 >"$T/boot.out" 2>"$T/boot.err"; then
	fail vm_boot "$(tail -c 400 "$T/boot.err")"
	exit 0
fi
"$V" info $G >"$T/vm.json"
check vm_boot true
lap booted
# every QEMU thread on the one host CPU vm.json names (tests/vm/README.md,
# "NVMe under TCG"); a CPU list outside this process's set is refused
check vm_host_cpus pyjson "
import json, glob
vm = json.load(open('$T/vm.json'))
assert len(vm['host_cpus']) == 1, vm['host_cpus']
tasks = glob.glob('/proc/%d/task/*/status' % vm['pid'])
assert len(tasks) >= 3, tasks
for t in tasks:
    l = [x for x in open(t) if x.startswith('Cpus_allowed_list:')][0].split()[1]
    assert l == str(vm['host_cpus'][0]), (t, l)
"
"$V" boot g2 --host-cpus 4096 >/dev/null 2>"$T/hc.err"
rc=$?
[ $rc -eq 2 ] && grep -q -- '--host-cpus 4096: CPU 4096 is not one' "$T/hc.err"
check vm_host_cpus_refused [ $? -eq 0 ]

# every disk where vm.json says, of its kind
"$V" sh $G 'cat /sys/block/$(basename '"$(vm_dev zns guest_dev)"')/queue/zoned
cat /sys/block/$(basename '"$(vm_dev nvme-pi guest_dev)"')/integrity/format
for d in '"$(vm_dev vblk-iothread guest_dev) $(vm_dev vblk guest_dev) $(vm_dev scsi guest_dev) $(vm_dev nvme guest_dev) $(vm_dev nvme guest_char)"'; do
	[ -b $d ] || [ -c $d ] || echo "missing $d"
done' >"$T/kinds" 2>&1
check vm_disk_kinds [ "$(cat "$T/kinds")" = "host-managed
T10-DIF-TYPE1-CRC" ]
[ "$(cat "$T/kinds")" = "host-managed
T10-DIF-TYPE1-CRC" ] || echo "  got: $(cat "$T/kinds")"

# the channel: exit code, stdout and stderr apart, merged, bytes unchanged
"$V" exec $G -- sh -c 'echo out; echo err >&2; exit 7' >"$T/o" 2>"$T/e"
rc=$?
[ $rc -eq 7 ] && [ "$(cat "$T/o")" = out ] && [ "$(cat "$T/e")" = err ]
check vm_exec_rc [ $? -eq 0 ]
"$V" exec $G --merge -- sh -c 'echo out; echo err >&2' >"$T/o" 2>"$T/e"
check vm_exec_merge [ "$(cat "$T/o")" = "out
err" ] && [ ! -s "$T/e" ]
head -c 200000 /dev/urandom >"$T/bin"
printf '\nOUT 0 5\nRC x 1\n' >>"$T/bin"	# framing-like lines inside the data
"$V" exec $G --stdin -- cat <"$T/bin" >"$T/bin.back"
check vm_exec_binary cmp -s "$T/bin" "$T/bin.back"
"$V" exec $G -- sh -c 'echo "$1|$2"' _ 'a b' "c'd" >"$T/o"
check vm_exec_quoting [ "$(cat "$T/o")" = "a b|c'd" ]

lap channel checked
# iotrial against fio in the same guest: the same size-bounded jobs, the same
# counts (2 MiB of 4 KiB blocks: 512 I/Os, 2097152 bytes); the guest's
# diskstats and QEMU's blockstats (on vm.json's drive id) agree with
# iotrial's count.  fio runs all four jobs in one start (its 64 libraries
# take seconds to load under TCG); iotrial runs each job alone, between two
# readings of the counters.
JOB="--bs=4k --size=2M --direct=1 --ioengine=io_uring --iodepth=4"
fiojobs=""
for kind in vblk-iothread nvme; do
	for rw in randwrite randread; do
		fiojobs="$fiojobs --name=$kind-$rw --stonewall --filename=$(vm_dev $kind guest_dev) --rw=$rw $JOB"
	done
done
# shellcheck disable=SC2086
"$V" exec $G -- fio --output-format=json $fiojobs >"$T/fio.json" 2>"$T/fio.err"
fio_rc=$?
ios() {	# ios FILE JOBNAME DIR: total_ios io_bytes
	python3 -c "
import json, sys
j = [j for j in json.load(open('$1'))['jobs'] if j['jobname'] == '$2'][0]
print(j['$3']['total_ios'], j['$3']['io_bytes'])" 2>/dev/null; }
qmpops() {	# QEMU's rd_operations wr_operations of drive $1
	"$V" qmp $G query-blockstats | python3 -c "
import json, sys
s = [b for b in json.load(sys.stdin) if b['device'] == '$1'][0]['stats']
print(s['rd_operations'], s['wr_operations'])"
}
for kind in vblk-iothread nvme; do
	gd=$(vm_dev $kind guest_dev)
	drive=$(vm_dev $kind drive)
	for rw in randwrite randread; do
		dir=write
		[ $rw = randread ] && dir=read
		tn=vm_${kind}_${rw}
		q0=$(qmpops "$drive")
		# one round trip: the disk's diskstats (reads+merges, writes+merges,
		# reads, writes) before and after, on stderr
		"$V" sh $G "st() { awk '\$3 == \"$(basename "$gd")\" { print \$4 + \$5, \$8 + \$9, \$4, \$8 }' /proc/diskstats >&2; }
st; iotrial --output-format=json --name=$kind-$rw --filename=$gd --rw=$rw $JOB; rc=\$?; st; exit \$rc" \
			>"$T/it.json" 2>"$T/it.err" || echo "iotrial exited $?" >>"$T/it.err"
		q1=$(qmpops "$drive")
		it=$(ios "$T/it.json" $kind-$rw $dir)
		fi=$(ios "$T/fio.json" $kind-$rw $dir)
		[ "$it" = "512 2097152" ] && [ "$fi" = "512 2097152" ]
		check ${tn}_vs_fio [ $? -eq 0 ]
		[ "$it" = "512 2097152" ] && [ "$fi" = "512 2097152" ] ||
			{ echo "  iotrial: $it $(head -c 300 "$T/it.err"); fio (exit $fio_rc): $fi $(head -c 300 "$T/fio.err")"; vm_nvme_log; }
		# diskstats: requests + merges of the direction = the job's I/Os (a
		# write job's device is probed for signatures first: reads, not
		# counted here); blockstats: QEMU's operations = the guest's requests
		# shellcheck disable=SC2046
		set -- $(head -n 2 "$T/it.err") $q0 $q1
		if [ $dir = read ]; then sd=$(($5 - $1)) sr=$(($7 - $3)) qd=$((${11} - $9))
		else sd=$(($6 - $2)) sr=$(($8 - $4)) qd=$((${12} - ${10})); fi
		check ${tn}_diskstats [ "$sd" -eq 512 ]
		check ${tn}_blockstats [ "$qd" -eq "$sr" ]
		[ "$sd" -eq 512 ] && [ "$qd" -eq "$sr" ] ||
			echo "  diskstats $(head -n 2 "$T/it.err" | tr '\n' ' ')(I/Os+merges $sd, requests $sr), blockstats $q0 $q1 ($qd)"
	done
	lap "$kind checked"
done

# ab with each run in the guest: guest-iotrial fills ab's --output=HOSTFILE
# from the guest's stdout; --parse-only reaches the guest's iotrial first
vd=$(vm_dev vblk guest_dev)
R="$(dirname "$V")/guest-iotrial --vm $G"
"$IOTRIAL" ab --runner="$R" --dir="$T/ab" --runs=1 --a iodepth=1 --b iodepth=4 --name=j \
	--filename="$vd" --rw=randread --bs=4k --size=1M --direct=1 --ioengine=io_uring \
	>"$T/ab.out" 2>"$T/ab.err"
rc=$?
[ $rc -eq 0 ] && pyjson "
import json, glob
runs = sorted(glob.glob('$T/ab/run-*.json'))
assert len(runs) == 2, runs
for r in runs:
    j = json.load(open(r))['jobs'][0]
    assert j['read']['total_ios'] == 256, (r, j['read']['total_ios'])
"
check vm_ab_runner [ $? -eq 0 ]
[ $rc -eq 0 ] || echo "  ab exited $rc: $(tail -c 400 "$T/ab.err")"
"$IOTRIAL" ab --runner="$R" --dir="$T/ab2" --runs=1 --a iodepth=1 --b iodpeth=4 --name=j \
	--filename="$vd" --rw=randread --size=1M >"$T/ab2.out" 2>"$T/ab2.err"
rc=$?
[ $rc -ne 0 ] && grep -q 'iodpeth' "$T/ab2.err" && [ ! -e "$T/ab2/run-001-A.json" ]
check vm_ab_parse_only [ $? -eq 0 ]
# a job file on the host is copied in; the result lands on the host
printf '[j]\nfilename=%s\nrw=read\nbs=64k\nsize=1M\ndirect=1\n' "$vd" >"$T/job.fio"
(cd "$T" && $R --output-format=json --output=res.json job.fio) 2>"$T/gi.err"
check vm_guest_iotrial_jobfile pyjson "
import json
assert json.load(open('$T/res.json'))['jobs'][0]['read']['total_ios'] == 16"

lap ab checked
# timeouts and signals end the command in the guest; the channel stays usable
t0=$(date +%s)
"$V" exec $G --timeout 2 -- sleep 60 2>"$T/to.err"
rc=$?
[ $rc -eq 124 ] && [ $(($(date +%s) - t0)) -lt 30 ] && grep -q 'timed out' "$T/to.err"
check vm_exec_timeout [ $? -eq 0 ]
"$V" exec $G -- sleep 60 2>/dev/null &
p=$!
sleep 2
kill -INT $p
wait $p
rc=$?
check vm_exec_sigint [ $rc -eq 130 ]
check vm_exec_after [ "$("$V" exec $G echo still)" = still ]

lap timeouts checked
# a guest killed mid-command: exit 125 with one line, within seconds
"$V" exec $G --timeout 120 -- sleep 60 >/dev/null 2>"$T/kill.err" &
p=$!
sleep 2
t0=$(date +%s)
"$V" kill $G
wait $p
rc=$?
[ $rc -eq 125 ] && [ $(($(date +%s) - t0)) -lt 15 ] &&
	grep -q '^vm.sh: error: guest g went away mid-command' "$T/kill.err" &&
	[ "$(wc -l <"$T/kill.err")" -eq 1 ]
check vm_killed_mid_command [ $? -eq 0 ]
[ $rc -eq 125 ] || echo "  rc $rc: $(cat "$T/kill.err")"
"$V" exec $G true 2>"$T/gone.err"
rc=$?
[ $rc -eq 125 ] && grep -q 'is not running' "$T/gone.err"
check vm_exec_gone [ $? -eq 0 ]
lap done
exit 0
