#!/bin/sh
# Output failures (docs/safety.md, "Output files"): a bad --output is found before any I/O
# (no target created, exit 7), stdout on /dev/full gives one error line, and
# a full filesystem under --output is reported naming the file, with no
# temporary file left (the tmpfs part needs root).
. "$(dirname "$0")/lib.sh"

cd "$T" || exit 1
R="--name=x --rw=read --size=64k --filename=$T/target"
# shellcheck disable=SC2086
expect_exit output_missing_dir 7 "cannot write results to $T/nodir/o.json: directory $T/nodir: No such file" \
	"$IOTRIAL" $R --output="$T/nodir/o.json"
if [ -e target ]; then fail output_missing_dir_before_io "the target was laid out"; else pass output_missing_dir_before_io; fi
# shellcheck disable=SC2086
expect_exit output_is_dir 7 "cannot write results to $T: Is a directory" "$IOTRIAL" $R --output="$T"
if [ -e target ]; then fail output_is_dir_before_io "the target was laid out"; else pass output_is_dir_before_io; fi

if [ -w /dev/full ]; then
	expect_exit stdout_dev_full 7 "cannot write results to stdout: No space left on device" \
		sh -c "\"\$0\" --name=x --rw=read --size=64k --ioengine=null >/dev/full" "$IOTRIAL"
else
	skip stdout_dev_full "no /dev/full"
fi

if [ "$(id -u)" -ne 0 ]; then
	skip output_enospc "not root: cannot mount a small tmpfs"
	exit 0
fi
mkdir full
if ! mount -t tmpfs -o size=64k tmpfs full 2>/dev/null; then
	skip output_enospc "cannot mount tmpfs"
	exit 0
fi
trap 'umount "$T/full" 2>/dev/null; rm -rf "$T"' EXIT
dd if=/dev/zero of=full/fill bs=4k count=64 2>/dev/null
for fmt in normal json; do
	expect_exit "output_enospc_$fmt" 7 "cannot write results to $T/full/o.json: .*No space left on device" \
		"$IOTRIAL" --name=x --rw=read --size=64k --ioengine=null --output-format=$fmt \
		--output="$T/full/o.json"
done
if [ "$(ls -A full)" = fill ]; then pass output_enospc_no_temp; else fail output_enospc_no_temp "left: $(ls -A full)"; fi
