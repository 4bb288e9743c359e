#!/bin/sh
# Output paths get the target's safety rules (docs/safety.md, "Output files"): --output,
# --status-output and a log file that name a block device (directly or
# through a symlink) exit 4 with one line naming the path and the reason,
# before anything is laid out, and leave the device's bytes unchanged;
# --allow-output-device lifts it.  A socket is refused; /dev/null, a FIFO and
# a regular file are written.  The loop-device part needs root.
. "$(dirname "$0")/lib.sh"

R="--name=x --rw=read --size=1M --filename=$T/target"

# --- special files that need no root ------------------------------------------
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
# shellcheck disable=SC2086
expect_ok output_devnull "$IOTRIAL" $R --output=/dev/null
mkfifo "$T/fifo"
cat "$T/fifo" >"$T/fifo.out" &
# shellcheck disable=SC2086
expect_ok output_fifo "$IOTRIAL" $R --output-format=json --output="$T/fifo"
wait
if grep -q '"jobs"' "$T/fifo.out"; then pass output_fifo_json; else fail output_fifo_json "nothing read from the FIFO"; fi
if command -v python3 >/dev/null 2>&1; then
	python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "$T/sock"
	rm -f "$T/target"
	# shellcheck disable=SC2086
	expect_exit output_socket 4 "^iotrial: error: --output=$T/sock: is not a regular file.*socket" \
		"$IOTRIAL" $R --output="$T/sock"
	if [ -e "$T/target" ]; then fail output_socket_before_layout "the target was created"; else pass output_socket_before_layout; fi
else
	skip output_socket "python3 is missing"
fi

# --- block devices --------------------------------------------------------------
why=""
if [ "$(id -u)" -ne 0 ]; then
	why="not root: loop devices need CAP_SYS_ADMIN"
elif [ ! -e /dev/loop-control ]; then
	why="no /dev/loop-control"
else
	for tool in losetup mkfs.ext4 md5sum; do
		command -v $tool >/dev/null 2>&1 || { why="$tool is missing"; break; }
	done
fi
if [ -n "$why" ]; then
	skip safety_output_loop "$why"
	exit 0
fi
truncate -s 16M "$T/img"
if ! L=$(attach_loop "$T/img"); then
	fail setup "cannot create a loop device"
	exit 0
fi
trap 'losetup -d "$L" 2>/dev/null; rm -rf "$T"' EXIT
trap 'exit 130' INT TERM
mkfs.ext4 -q -F "$L" >/dev/null 2>&1 || { fail setup "mkfs.ext4 $L failed"; exit 0; }
sum=$(md5sum <"$L")

# unchanged NAME: the device still has its ext4 bytes, and no target was made.
unchanged() {
	if [ "$(md5sum <"$L")" = "$sum" ]; then pass "$1_unchanged"; else fail "$1_unchanged" "$L was modified"; fi
	if [ -e "$T/target" ]; then fail "$1_before_layout" "the target was laid out"; else pass "$1_before_layout"; fi
	rm -f "$T/target"
}
rm -f "$T/target"
# shellcheck disable=SC2086
expect_exit output_blockdev 4 "^iotrial: error: --output=$L: is a block device.*--allow-output-device" \
	"$IOTRIAL" $R --output="$L"
unchanged output_blockdev
# shellcheck disable=SC2086
expect_exit output_blockdev_json 4 "block device" "$IOTRIAL" $R --output-format=json --output="$L"
if [ -s "$T/out" ]; then fail output_blockdev_json_stdout "stdout not empty"; else pass output_blockdev_json_stdout; fi
unchanged output_blockdev_json
ln -s "$L" "$T/link"
# shellcheck disable=SC2086
expect_exit output_symlink 4 "^iotrial: error: --output=$T/link \\($L\\): is a block device" \
	"$IOTRIAL" $R --output="$T/link"
unchanged output_symlink
# shellcheck disable=SC2086
expect_exit status_output_blockdev 4 "^iotrial: error: --status-output=$L: is a block device" \
	"$IOTRIAL" $R --status-interval=1 --status-output="$L"
unchanged status_output_blockdev
ln -s "$L" "$T/x_bw.1.log"
# shellcheck disable=SC2086
expect_exit log_blockdev 4 "^iotrial: error: write_bw_log $T/x_bw.1.log \\($L\\): is a block device" \
	"$IOTRIAL" $R --write_bw_log="$T/x"
unchanged log_blockdev
# the second clone's log (thread 2) is checked too
ln -s "$L" "$T/y_lat.2.log"
# shellcheck disable=SC2086
expect_exit log_blockdev_clone 4 "^iotrial: error: write_lat_log $T/y_lat.2.log" \
	"$IOTRIAL" $R --numjobs=2 --write_lat_log="$T/y"
unchanged log_blockdev_clone
# the override writes the report there
# shellcheck disable=SC2086
"$IOTRIAL" $R --allow-output-device --output-format=json --output="$L" >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" -eq 0 ] && head -c 4096 "$L" | grep -q '"jobs"'; then
	pass output_override
else
	fail output_override "exit $rc; the report is not on $L: $(head -c 300 "$T/err")"
fi
