# Targets that cannot be used give one line naming the file and a documented
# exit code; I/O errors end the job with error recorded, not a crash.
. "$(dirname "$0")/lib.sh"

expect_exit unopenable_dir 3 "/nonexistent-dir/x" \
	"$IOTRIAL" --name=x --rw=read --size=1m --filename=/nonexistent-dir/x
mkdir -p "$T/pub"; chmod 755 "$T" "$T/pub"
head -c 1048576 /dev/zero >"$T/pub/ro"; chmod 000 "$T/pub/ro"
if [ "$(id -u)" -ne 0 ]; then
	expect_exit unreadable_file 3 "$T/pub/ro" "$IOTRIAL" --name=x --rw=read --size=1m --filename="$T/pub/ro"
elif command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$IOTRIAL"; then
	# root reads anything: drop to nobody so the permission bits count
	expect_exit unreadable_file 3 "$T/pub/ro" setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$IOTRIAL" --name=x --rw=read --size=1m --filename="$T/pub/ro"
else
	skip unreadable_file "root can read a mode-000 file and setpriv cannot drop to nobody here"
fi
expect_exit no_create 3 "$T/missing" \
	"$IOTRIAL" --name=x --rw=read --size=1m --filename="$T/missing" --allow_file_create=0
expect_exit readonly_write 4 "readonly" \
	"$IOTRIAL" --readonly --name=x --rw=write --size=1m --filename="$T/w"
expect_exit hipri_refused 3 "hipri|poll" \
	"$IOTRIAL" --name=x --rw=randread --size=1m --filename="$T/h" --ioengine=io_uring --hipri=1 --direct=1

# ENOSPC: a 1 MiB tmpfs cannot take an 8 MiB write.
if [ "$(id -u)" -eq 0 ] && mkdir -p "$T/small" && mount -t tmpfs -o size=1m tmpfs "$T/small" 2>/dev/null; then
	truncate -s 8m "$T/small/f"	# sparse: the space runs out during the run
	"$IOTRIAL" --name=full --rw=write --size=8m --filename="$T/small/f" \
		--output-format=json >"$T/enospc.json" 2>"$T/err"
	rc=$?
	umount "$T/small"
	if [ $rc -eq 1 ] && pyjson "
import json
j = json.load(open('$T/enospc.json'))['jobs'][0]
assert j['error'] == 28, j['error']
"; then
		pass enospc_recorded
	else
		fail enospc_recorded "exit $rc; $(head -c 300 "$T/err")"
	fi
else
	skip enospc_recorded "needs root to mount a small tmpfs"
fi
