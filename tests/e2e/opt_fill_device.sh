#!/bin/sh
# fill_device against fio 3.33, on a 32 MiB ext4 file system made here (a
# loop device on an image in the test's own temp dir, unmounted and detached
# on exit; no other device is touched), with the job of fio's surface-scan
# example: 64k direct sync writes of verify=meta headers every 512 bytes with
# a pattern, fill_device=1 until the file system is full, then, in a
# stonewalled job whose file is laid out only when it starts
# (create_serialize=0), the file read back and every block checked.
#   - ENOSPC ends the write job without an error; it writes exactly as many
#     bytes as fio on the same fresh file system, and issues as many I/Os
#     (the failed one counted, as fio);
#   - the read job reads them all and checks every 512-byte interval;
#   - a corrupted byte is found by the read job (exit 8), naming its offset;
#   - fill_device with random writes is refused (exit 2, one line).
. "$(dirname "$0")/lib.sh"
cd "$T" || exit 1	# fio and iotrial write verify state files (local-JOB-N-verify.state) here

why=""
if [ "$(id -u)" -ne 0 ]; then
	why="not root: loop devices need CAP_SYS_ADMIN"
elif [ ! -e /dev/loop-control ]; then
	why="no /dev/loop-control"
else
	for tool in losetup mkfs.ext4 mount umount mountpoint; do
		command -v $tool >/dev/null 2>&1 || { why="$tool is missing"; break; }
	done
fi
[ -n "$why" ] && { skip fill_device "$why"; exit 0; }

LOOP="" MNT="$T/mnt"
cleanup() {
	if mountpoint -q "$MNT" 2>/dev/null; then
		umount "$MNT" 2>/dev/null || { sleep 0.3; umount "$MNT" 2>/dev/null; }
	fi
	[ -n "$LOOP" ] && losetup -d "$LOOP" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

truncate -s 32M "$T/img" && mkfs.ext4 -q -F "$T/img" >/dev/null 2>&1 &&
	LOOP=$(attach_loop "$T/img") && mkdir "$MNT" && mount "$LOOP" "$MNT" ||
	{ skip fill_device "cannot make a loop file system"; exit 0; }

cat >"$T/scan.fio" <<JOB
[global]
thread
bs=64k
direct=1
ioengine=sync
verify=meta
verify_pattern=0xaa555aa5
verify_interval=512
filename=$MNT/datafile.tmp

[write-phase]
rw=write
fill_device=1
do_verify=0

[verify-phase]
stonewall
create_serialize=0
rw=read
do_verify=1
JOB

# fields FILE: per job "error write_bytes write_ios read_bytes read_ios verified_intervals"
fields() {
	pyjson "
import json
t = open('$1').read()
for j in json.loads(t[t.index('{'):])['jobs']:
    v = j.get('iotrial', {}).get('verify', {}).get('blocks', '-')
    print(j['error'], j['write']['io_bytes'], j['write']['total_ios'], j['read']['io_bytes'],
          j['read']['total_ios'], v, end='; ')"
}

"$IOTRIAL" "$T/scan.fio" --output-format=json --output="$T/i.json" 2>"$T/ierr"
irc=$?
size=$(stat -c %s "$MNT/datafile.tmp" 2>/dev/null || echo 0)
got=$(fields "$T/i.json")
blocks=$((size / 65536)) ivs=$((size / 512))
want_i="0 $size $((blocks + 1)) 0 0 0; 0 0 0 $size $blocks $ivs; "
if [ "$irc" -eq 0 ] && [ "$size" -gt $((20 * 1048576)) ] && [ "$got" = "$want_i" ]
then pass fill_device_until_enospc
else fail fill_device_until_enospc "exit $irc, file $size bytes: '$got', wanted '$want_i': $(head -c 300 "$T/ierr")"; fi

if command -v fio >/dev/null 2>&1; then
	rm -f "$MNT/datafile.tmp"
	(cd "$T" && fio "$T/scan.fio" --output-format=json --output="$T/f.json" >/dev/null 2>&1)
	fsize=$(stat -c %s "$MNT/datafile.tmp" 2>/dev/null || echo 0)
	# fio's own figures, less the verify count it does not report
	fgot=$(fields "$T/f.json" | sed 's/ -;/;/g')
	igot=$(echo "$got" | sed "s/ 0;/;/; s/ $ivs;/;/")
	if [ "$fsize" = "$size" ] && [ "$fgot" = "$igot" ]; then pass fill_device_as_fio
	else fail fill_device_as_fio "fio: $fsize bytes '$fgot'; iotrial: $size bytes '$igot'"; fi
else
	skip fill_device_as_fio "fio not installed"
fi

# a byte changed in the middle of the file: the read job finds it
rm -f "$MNT/datafile.tmp"
"$IOTRIAL" "$T/scan.fio" --section=write-phase --output-format=json >/dev/null 2>&1
printf 'X' | dd of="$MNT/datafile.tmp" bs=1 seek=1048676 conv=notrunc 2>/dev/null
"$IOTRIAL" "$T/scan.fio" --section=verify-phase --output-format=json >/dev/null 2>"$T/verr"
vrc=$?
if [ "$vrc" -eq 8 ] && grep -q "pattern mismatch at offset 1048676 in $MNT/datafile.tmp" "$T/verr"
then pass fill_device_read_verify_finds_corruption
else fail fill_device_read_verify_finds_corruption "exit $vrc: $(head -c 300 "$T/verr")"; fi

expect_exit fill_device_random_refused 2 "fill_device needs rw=write \(sequential\) or a read job" \
	"$IOTRIAL" --parse-only --name=x --filename="$MNT/f" --rw=randwrite --fill_device=1
expect_exit fill_device_bad_value 2 "^iotrial: error: invalid value 'yes' for option 'fill_device'" \
	"$IOTRIAL" --parse-only --name=x --filename="$MNT/f" --fill_device=yes
