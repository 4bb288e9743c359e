#!/bin/sh
# Safety refusals through the command line, on throw-away loop devices
# (docs/safety.md, "What is refused"; methodology §6): a write to a block device that carries a
# filesystem, is mounted, has a mounted partition, or is reached through a
# symlink to such a device exits 4 with one stderr line naming the device and
# the reason, and leaves the device untouched; --readonly refuses any write;
# a blank device is written, reads are never refused, and the two overrides
# (allow_mounted_write=1, allow_signature_write=1) each lift their own reason.
#
# Only devices made here are touched.  Images and mount points are named
# /tmp/iotrial-loop-<pid>-... as in tests/unit/loop_harness.h, so a run killed
# before its trap ran is cleaned up by the next run of either.
. "$(dirname "$0")/lib.sh"

why=""
if [ "$(id -u)" -ne 0 ]; then
	why="not root: loop devices need CAP_SYS_ADMIN"
elif [ ! -e /dev/loop-control ]; then
	why="no /dev/loop-control"
else
	for tool in losetup mkfs.ext4 addpart delpart blkid mount umount md5sum; do
		command -v $tool >/dev/null 2>&1 || { why="$tool is missing"; break; }
	done
fi
if [ -n "$why" ]; then
	skip safety_loop "$why"
	exit 0
fi

P=/tmp/iotrial-loop-$$
LOOPS=""	# every loop device made here, detached by cleanup
MNTS=""		# every mount point made here, unmounted by cleanup

# Unmount (twice: a just-closed device may pin the mount for a moment),
# drop partitions, detach, remove images.  Safe to run more than once.
cleanup() {
	for m in $MNTS; do
		if mountpoint -q "$m" 2>/dev/null; then
			umount "$m" 2>/dev/null || { sleep 0.3; umount "$m" 2>/dev/null; }
		fi
		rmdir "$m" 2>/dev/null
	done
	for l in $LOOPS; do
		[ -e "${l}p1" ] && delpart "$l" 1 2>/dev/null
		losetup -d "$l" 2>/dev/null
	done
	rm -f "$P"-*.img
	MNTS="" LOOPS=""
}
trap 'cleanup; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM

# Leftovers of runs whose shell is gone (killed by the test timeout).
reap_stale() {
	for f in /tmp/iotrial-loop-*; do
		[ -e "$f" ] || continue
		pid=${f#/tmp/iotrial-loop-}; pid=${pid%%-*}
		case "$pid" in '' | *[!0-9]*) continue ;; esac
		kill -0 "$pid" 2>/dev/null && continue
		case "$f" in
		*.img)
			for l in $(losetup -j "$f" -O NAME -n 2>/dev/null); do
				umount "${l}p1" 2>/dev/null; umount "$l" 2>/dev/null
				delpart "$l" 1 2>/dev/null; losetup -d "$l" 2>/dev/null
			done
			rm -f "$f" ;;
		*)
			[ -d "$f" ] && { umount "$f" 2>/dev/null; rmdir "$f" 2>/dev/null; } ;;
		esac
	done
}
reap_stale

# newloop TAG [part]: a 64 MiB loop device over a new image, its name on
# stdout; with "part", partition 1 (1 MiB to the end) is added explicitly
# (this kernel parses no partition tables).  The caller records it in LOOPS.
newloop() {
	truncate -s 64M "$P-$1.img" || return 1
	if [ "${2:-}" = part ]; then
		l=$(losetup -P --find --show "$P-$1.img") || return 1
		addpart "$l" 1 2048 129024 || { losetup -d "$l"; return 1; }
	else
		l=$(attach_loop "$P-$1.img") || return 1
	fi
	echo "$l"
}

# newmount TAG DEV: mount DEV (ext4) on a new directory, its path on stdout.
newmount() {
	m="$P-mnt-$1"
	mkdir -p "$m" && mount -t ext4 "$2" "$m" && echo "$m"
}

# expect_ok NAME CMD...: exit 0 with nothing on stderr.
expect_ok() {
	name=$1; shift
	"$@" >"$T/out" 2>"$T/err"
	rc=$?
	if [ "$rc" -ne 0 ] || [ -s "$T/err" ]; then
		fail "$name" "exit $rc, wanted 0 and a quiet stderr: $(head -c 300 "$T/err")"
	else
		pass "$name"
	fi
}

# write_bytes NAME WANT: the JSON in $T/out reports WANT bytes written.
write_bytes() {
	got=$(pyjson "import json; print(json.load(open('$T/out'))['jobs'][0]['write']['io_bytes'])" 2>&1)
	if [ "$got" = "$2" ]; then pass "$1"; else fail "$1" "write io_bytes $got, wanted $2"; fi
}

# unchanged NAME IMG SUM: the image's checksum is still SUM.
unchanged() {
	now=$(md5sum <"$2")
	if [ "$now" = "$3" ]; then pass "$1"; else fail "$1" "the refused device was modified"; fi
}

W="--name=x --rw=write --bs=64k --size=4M"

# --- a blank device: written, and --readonly refuses it ---------------------
if ! BLANK=$(newloop blank); then
	fail setup "cannot create a loop device"
	exit 0
fi
LOOPS="$LOOPS $BLANK"
# shellcheck disable=SC2086
expect_ok blank_write "$IOTRIAL" $W --filename="$BLANK" --output-format=json
write_bytes blank_write_bytes 4194304
if od -An -tx1 -N4096 "$BLANK" | grep -q '[1-9a-f]'; then
	pass blank_write_reached_device
else
	fail blank_write_reached_device "the first 4 KiB of $BLANK are still zero"
fi
# shellcheck disable=SC2086
expect_exit readonly_write 4 "readonly" "$IOTRIAL" --readonly $W --filename="$BLANK"
expect_exit readonly_trim 4 "readonly" \
	"$IOTRIAL" --readonly --name=x --rw=trim --size=4M --filename="$BLANK"
expect_ok readonly_read "$IOTRIAL" --readonly --name=x --rw=read --size=4M --filename="$BLANK"

# --- a device carrying ext4 ---------------------------------------------------
if ! EXT=$(newloop ext4); then
	fail setup "cannot create a loop device"
	exit 0
fi
LOOPS="$LOOPS $EXT"
mkfs.ext4 -q -F "$EXT" >/dev/null 2>&1 || { fail setup "mkfs.ext4 $EXT failed"; exit 0; }
sum=$(md5sum <"$P-ext4.img")
# shellcheck disable=SC2086
expect_exit ext4_write 4 "^iotrial: error: $EXT: .*filesystem signature \(ext4\).*allow_signature_write" \
	"$IOTRIAL" $W --filename="$EXT"
expect_exit ext4_trim 4 "$EXT: .*\(ext4\)" \
	"$IOTRIAL" --name=x --rw=randtrim --size=4M --filename="$EXT"
# a job file names the same device: still refused, still one line
printf '[global]\nsize=4M\n[w]\nrw=randwrite\nfilename=%s\n' "$EXT" >"$T/w.fio"
expect_exit ext4_jobfile 4 "$EXT: .*\(ext4\)" "$IOTRIAL" "$T/w.fio"
ln -s "$EXT" "$T/disk-by-id"
# shellcheck disable=SC2086
expect_exit symlink_write 4 "$T/disk-by-id \($EXT\): .*\(ext4\)" \
	"$IOTRIAL" $W --filename="$T/disk-by-id"
# JSON requested: stdout stays empty on a refusal (no half document)
# shellcheck disable=SC2086
"$IOTRIAL" $W --filename="$EXT" --output-format=json >"$T/out" 2>/dev/null
if [ -s "$T/out" ]; then fail ext4_json_stdout "stdout not empty: $(head -c 200 "$T/out")"; else pass ext4_json_stdout; fi
unchanged ext4_untouched "$P-ext4.img" "$sum"
expect_ok ext4_read "$IOTRIAL" --name=x --rw=randread --size=4M --filename="$EXT"
unchanged ext4_read_untouched "$P-ext4.img" "$sum"
# shellcheck disable=SC2086
expect_ok ext4_override "$IOTRIAL" $W --filename="$EXT" --allow_signature_write=1 --output-format=json
write_bytes ext4_override_bytes 4194304

# --- the same device, mounted -------------------------------------------------
mkfs.ext4 -q -F "$EXT" >/dev/null 2>&1
if MNT=$(newmount ext4 "$EXT"); then
	MNTS="$MNTS $MNT"
	# shellcheck disable=SC2086
	expect_exit mounted_write 4 "^iotrial: error: $EXT: the device is mounted on $MNT.*allow_mounted_write" \
		"$IOTRIAL" $W --filename="$EXT"
	# shellcheck disable=SC2086
	expect_exit mounted_symlink 4 "$T/disk-by-id \($EXT\): .*mounted on $MNT" \
		"$IOTRIAL" $W --filename="$T/disk-by-id"
	# one override lifts one reason: the ext4 signature is still there
	# shellcheck disable=SC2086
	expect_exit mounted_override_one 4 "$EXT: .*\(ext4\).*allow_signature_write" \
		"$IOTRIAL" $W --filename="$EXT" --allow_mounted_write=1
	expect_ok mounted_read "$IOTRIAL" --name=x --rw=read --size=4M --filename="$EXT"
	# both overrides: written (the last 4 MiB, past what the mount uses at once)
	expect_ok mounted_override_both "$IOTRIAL" --name=x --rw=write --bs=64k --offset=60M \
		--filename="$EXT" --allow_mounted_write=1 --allow_signature_write=1 --output-format=json
	write_bytes mounted_override_bytes 4194304
else
	fail mounted_setup "cannot mount ext4 on $EXT"
fi

# --- a whole device whose partition is mounted -------------------------------
if PART=$(newloop part part); then
	LOOPS="$LOOPS $PART"
	if mkfs.ext4 -q -F "${PART}p1" >/dev/null 2>&1 && PMNT=$(newmount part "${PART}p1"); then
		MNTS="$MNTS $PMNT"
		# shellcheck disable=SC2086
		expect_exit partition_mounted 4 \
			"^iotrial: error: $PART: partition ${PART}p1 is mounted on $PMNT.*allow_mounted_write" \
			"$IOTRIAL" $W --filename="$PART"
		expect_exit partition_mounted_trim 4 "$PART: partition ${PART}p1 is mounted" \
			"$IOTRIAL" --name=x --rw=trim --size=4M --filename="$PART"
		# shellcheck disable=SC2086
		expect_exit partition_override_one 4 "$PART: partition ${PART}p1 carries .*\(ext4\)" \
			"$IOTRIAL" $W --filename="$PART" --allow_mounted_write=1
		expect_ok partition_read "$IOTRIAL" --name=x --rw=read --size=4M --filename="$PART"
	else
		fail partition_setup "cannot make and mount ext4 on ${PART}p1"
	fi
else
	skip partition "cannot add a partition to a loop device here"
fi

cleanup
left=$(losetup -a 2>/dev/null | grep -c "$P-" )
if [ "$left" -eq 0 ]; then pass cleanup; else fail cleanup "$left loop devices left attached"; fi
